"""The terminal app (``rummykit tui``), driven headless with Textual's pilot.

Each test sets a game up from a command line exactly as ``rummykit tui``
does (:func:`rummykit.cli.start.game_setup`), presses keys or clicks, and
checks the game's state and what the screen shows.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from rummykit.catalogue import games
from rummykit.cli.main import build_parser, main
from rummykit.cli.start import game_setup
from rummykit.tui.app import BoardPanel, GameApp, RackBar

Scenario = Callable[[GameApp, Pilot[int]], Awaitable[None]]


def make_app(*argv: str) -> GameApp:
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", *argv])
    return GameApp(game_setup(args, {}), bot_delay=0, color=False)


def play(app: GameApp, scenario: Scenario, size: tuple[int, int] = (100, 40)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await my_turn(app, pilot)
            await scenario(app, pilot)

    asyncio.run(run())


async def my_turn(app: GameApp, pilot: Pilot[int], limit: int = 400) -> None:
    """Wait until the person is to act (or the game is over)."""
    for _ in range(limit):
        await pilot.pause()
        if app.turn is not None or app.state.outcome is not None:
            return
    raise AssertionError("the person was never asked to act")


def panel_text(app: GameApp) -> str:
    return str(app.query_one(BoardPanel).content)


def message_text(app: GameApp) -> str:
    content = app.query_one("#message", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def screen_text(app: GameApp) -> str:
    """Everything the screen holds: the panel, the rack, the messages and the whole log."""
    rack = app.query_one(RackBar)
    parts = [panel_text(app), rack.render().plain if rack.display else "", message_text(app), *app.log_lines]
    return "\n".join(parts)


async def type_line(pilot: Pilot[int], line: str) -> None:
    await pilot.click("#command")
    await pilot.press(*line, "enter")
    await pilot.pause()


def test_typed_commands_draft_and_the_engine_reason_shows_with_its_rule_id() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None and app.state.to_act == {0}
        await type_line(pilot, "new R5 R6 K6")
        assert "! not in your rack: K6 (rule RK-RACK)" in message_text(app)
        await type_line(pilot, "new R5 R6 K5")
        text = panel_text(app)
        assert "[3] +R5 +R6 +K5  INVALID" in text
        assert "(rule RK-SET-KIND)" in text
        rack = app.query_one(RackBar)
        assert rack.check_action("commit", ()) is None  # greyed out: the table is invalid
        await type_line(pilot, "commit")
        assert app.state.to_act == {0} and len(app.state.actions) == 1  # refused before the engine
        await type_line(pilot, "bogus")
        assert "unknown command 'bogus'" in message_text(app)

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_rack_keys_make_a_set_and_commit_it() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        before_actions = len(app.state.actions)
        rack = app.query_one(RackBar)
        assert rack.board is not None and rack.board.rack[-3:] == ("R5", "R6", "R7")
        await pilot.press("tab")
        assert app.focused is rack
        await pilot.press("left", "space", "left", "space", "left", "space")  # R7, R6, R5 (wrapping left)
        assert rack.picked() == ["R5", "R6", "R7"]
        await pilot.press("n")
        await pilot.pause()
        assert rack.board.ready and rack.check_action("commit", ()) is True
        assert "Ready: c" in panel_text(app)
        await pilot.press("c")
        await my_turn(app, pilot)
        play_action = app.state.actions[before_actions]
        assert play_action.player == 0 and "R5 R6 R7" in str(play_action)
        assert app.state.view(0)["rack_sizes"][0] == 11

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario)


def test_add_to_the_target_set_with_keys_and_undo() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack = app.query_one(RackBar)
        await pilot.press("tab", "space", "a")  # K5 onto set 1 (K6 B6 R6): not a valid set
        await pilot.pause()
        assert rack.board is not None
        first = rack.board.sets[0]
        assert "K5" in first.pieces and first.problem is not None and "rule RK-SET" in first.problem
        assert "! " in panel_text(app) and "INVALID" in panel_text(app)
        await pilot.press("down")
        assert rack.target == 2
        await pilot.press("u")
        await pilot.pause()
        assert rack.board.sets[0].pieces == ("K6", "B6", "R6") and not rack.board.changed

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_clicking_a_rack_tile_selects_it() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack = app.query_one(RackBar)
        await pilot.pause()
        line, start, _, index = rack.spans[2]
        # the rack's content starts inside its border (1) and padding (1)
        await pilot.click(RackBar, offset=(start + 2 + 1, line + 1))
        assert rack.selected == {index} and app.focused is rack

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_the_draw_key_draws_and_the_bot_moves_then_the_screen_hides_its_rack() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        size = len(app.state.view(0)["rack"])
        await pilot.press("tab", "d")
        await my_turn(app, pilot)
        assert len(app.state.view(0)["rack"]) == size + 1
        assert str(app.state.actions[-2]) == "0 draw" and app.state.actions[-1].player == 1
        # what seat 0 may know: its view and the events it sees
        visible = set(re.findall(r"[A-Z]+\d*", str(app.state.view(0))))
        for event in app.state.history:
            visible |= set(re.findall(r"[A-Z]+\d*", str(event.seen_by(0))))
        hidden = set(app.state.view(1)["rack"]) - visible
        assert hidden, "the test needs a tile only the bot holds"
        words = set(re.findall(r"[+*]?([A-Z]+\d+)", screen_text(app)))
        assert not (hidden & words)

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


@pytest.mark.parametrize("game", [info.id for info in games()])
def test_every_game_is_playable_with_typed_commands(game: str) -> None:
    """A few turns of each game, typing the commands of the game's presenter; the log follows."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        taken = 0
        while taken < 4 and app.state.outcome is None:
            turn = app.turn
            assert turn is not None
            seat = min(app.state.to_act)
            commands = set(turn.completions([]))
            lines = [app.presenter.command_text(a) for a in app.state.indexed_actions(seat)]
            line = next(text for text in lines if text.split()[0] in commands)
            before = len(app.state.actions)
            await type_line(pilot, line)
            assert len(app.state.actions) > before, message_text(app)
            taken += 1
            await my_turn(app, pilot)
        assert len(app.log_lines) > 3
        assert app.state.view(0)["players"][0] in panel_text(app)

    play(make_app(game, "--seed", "3", "--no-record"), scenario)


def test_help_screen_lists_the_presenter_commands() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        text = str(app.screen.query_one("#help-text", Static).content)
        for command, _ in app.presenter.help_rows(app.state.view(0)):
            assert command in text
        assert "Ctrl+Q" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query(BoardPanel)

    play(make_app("domino-rummikub", "--seed", "2", "--no-record"), scenario)


def test_quit_saves_the_record_never_over_another(tmp_path: Path) -> None:
    taken = tmp_path / "game.txt"
    taken.write_text("mine\n", encoding="utf-8")

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()

    app = make_app("rummikub", "--seed", "4", "--record", str(taken))
    play(app, scenario)
    assert app.saved is not None and app.saved.path == tmp_path / "game-2.txt"
    assert taken.read_text(encoding="utf-8") == "mine\n"
    text = (tmp_path / "game-2.txt").read_text(encoding="utf-8")
    assert "0 draw" in text and "seat 1: bot greedy" in text


def test_the_quit_command_saves_too(tmp_path: Path) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await type_line(pilot, "quit")

    app = make_app("conveyor", "--seed", "1", "--record", str(tmp_path))
    play(app, scenario)
    assert app.saved is not None and app.saved.path is not None and app.saved.path.parent == tmp_path


def test_bots_alone_play_to_the_end_while_you_watch() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        for _ in range(3000):
            if app.state.outcome is not None:
                break
            await pilot.pause()
        assert app.state.outcome is not None
        assert "Game over" in message_text(app)
        assert app.query_one(RichLog).lines or app.log_lines

    play(make_app("domino-rummikub", "--seed", "5", "--players", "2", "--bots", "2", "--no-record"), scenario)


def test_the_command_line_refuses_what_play_refuses() -> None:
    err = io.StringIO()
    assert main(["tui", "rummikub", "--bots", "9"], stdout=io.StringIO(), stderr=err) == 2
    assert "rummikub is for 2 to 4 players" in err.getvalue()
    err = io.StringIO()
    assert main(["tui", "rummikub", "--players", "2", "--bots", "0", "--no-record"], stdout=io.StringIO(), stderr=err) == 2
    assert "hot-seat" in err.getvalue()


def test_a_game_saved_on_quit_resumes_in_the_app(tmp_path: Path) -> None:
    async def draw_and_quit(app: GameApp, pilot: Pilot[int]) -> None:
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        await type_line(pilot, "quit")

    first = make_app("rummikub", "--seed", "4", "--record", str(tmp_path))
    play(first, draw_and_quit)
    assert first.saved is not None and first.saved.path is not None
    done = [str(a) for a in first.state.actions]

    async def check(app: GameApp, pilot: Pilot[int]) -> None:
        assert [str(a) for a in app.state.actions] == done
        assert app.turn is not None and app.state.to_act == {0}

    play(make_app("--resume", str(first.saved.path), "--no-record"), check)
