"""The terminal app (``rummykit tui``), driven headless with Textual's pilot.

Each test sets a game up from a command line exactly as ``rummykit tui``
does (:func:`rummykit.cli.start.game_setup`), presses keys or clicks, and
checks the game's state and what the screen shows.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input, Static

from rummykit.bots.registry import bot_levels
from rummykit.catalogue import DEFAULT_GAME, find_game, games
from rummykit.cli.main import build_parser, main
from rummykit.cli.start import game_setup
from rummykit.rulesets.freetable import FreeTableGame
from rummykit.tui.app import BoardPanel, CoverScreen, GameApp, RackBar, ScoreScreen
from rummykit.tui.start import StartScreen
from rummykit.tui.widgets import LinesPanel

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
    """Wait until the person is to act, a cover or score screen is up, or the game is over."""
    for _ in range(limit):
        await pilot.pause()
        if app.turn is not None or app.state.outcome is not None or isinstance(app.screen, (CoverScreen, ScoreScreen)):
            return
    raise AssertionError("the person was never asked to act")


def panel_text(app: GameApp) -> str:
    return app.query_one(BoardPanel).render().plain


def message_text(app: GameApp) -> str:
    content = app.query_one("#message", Static).content
    return content.plain if isinstance(content, Text) else str(content)


def status_text(app: GameApp) -> str:
    """The status lines (above the table or beside it); in a game drawn by its presenter, its picture."""
    shown = [panel.render().plain for panel in app.query(LinesPanel) if panel.display]
    return "\n".join(shown) or panel_text(app)


def screen_text(app: GameApp) -> str:
    """Everything the screen holds: the status, the panel, the rack, the messages and the whole log."""
    rack = app.query_one(RackBar)
    parts = [status_text(app), panel_text(app), rack.render().plain if rack.display else "", message_text(app),
             *app.log_lines]
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
        await pilot.press("tab", "tab")  # the table, then the rack
        assert app.focused is rack
        await pilot.press("left", "space", "left", "space", "left", "space")  # R7, R6, R5 (wrapping left)
        assert [str(p) for p in rack.picked()] == ["R5", "R6", "R7"]
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert rack.board.ready and rack.check_action("commit", ()) is True
        assert "Ready: Ctrl+O" in panel_text(app)
        await pilot.press("ctrl+o")
        await my_turn(app, pilot)
        play_action = app.state.actions[before_actions]
        assert play_action.player == 0 and "R5 R6 R7" in str(play_action)
        assert app.state.view(0)["piece_counts"][0] == 11

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario)


def test_add_to_the_target_set_with_keys_and_undo() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack = app.query_one(RackBar)
        await pilot.press("tab", "tab", "space", "enter")  # K5 onto set 1 (K6 B6 R6): not a valid set
        await pilot.pause()
        assert rack.board is not None
        first = rack.board.sets[0]
        assert "K5" in first.pieces and first.problem is not None and "rule RK-SET" in first.problem
        assert "! " in panel_text(app) and "INVALID" in panel_text(app)
        await pilot.press("down")
        assert app.target == 2
        await pilot.press("ctrl+u")
        await pilot.pause()
        assert rack.board.sets[0].pieces == ("K6", "B6", "R6") and not rack.board.changed

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_clicking_a_rack_tile_selects_it() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack = app.query_one(RackBar)
        await pilot.pause()
        assert rack.layout_ is not None
        line, start, _, index = rack.layout_.spans[2]
        # the rack's content starts inside its border (1) and padding (1)
        await pilot.click(RackBar, offset=(start + 2 + 1, line + 1))
        assert rack.selected == {index} and app.focused is rack

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_the_draw_key_draws_and_the_bot_moves_then_the_screen_hides_its_rack() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        size = app.state.view(0)["piece_counts"][0]
        await pilot.press("tab", "tab", "ctrl+d")
        await my_turn(app, pilot)
        assert app.state.view(0)["piece_counts"][0] == size + 1
        assert str(app.state.actions[-2]) == "0 draw" and app.state.actions[-1].player == 1
        # what seat 0 may know: its view and the events it sees
        visible = set(re.findall(r"[A-Z]+\d*", str(app.state.view(0))))
        for event in app.state.history:
            visible |= set(re.findall(r"[A-Z]+\d*", str(event.seen_by(0))))
        hidden = set(rack_of(app, 1)) - visible
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
        assert app.state.view(0)["players"][0] in status_text(app)

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


def test_the_command_line_refuses_what_play_refuses() -> None:
    err = io.StringIO()
    assert main(["tui", "rummikub", "--bots", "9"], stdout=io.StringIO(), stderr=err) == 2
    assert "rummikub is for 2 to 4 players" in err.getvalue()
    err = io.StringIO()
    assert main(["tui", "--resume", "no-such-file.txt"], stdout=io.StringIO(), stderr=err) == 2
    assert "no such file" in err.getvalue()


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


# -- scores between rounds and at the end ------------------------------------------------


def static_text(app: GameApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def test_bots_alone_play_to_the_end_with_a_score_screen_after_each_round() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rounds_seen = 0
        for _ in range(6000):
            screen = app.screen
            if isinstance(screen, ScoreScreen) and screen.query("#score-text"):  # pushed and composed
                if screen.final:
                    break
                rounds_seen += 1
                assert f"Round {rounds_seen} over" in static_text(app, "#score-text")
                before = len(app.state.actions)
                for _ in range(5):
                    await pilot.pause()
                assert len(app.state.actions) == before, "the bots wait while the scores are up"
                await pilot.press("enter")
            await pilot.pause()
        assert app.state.outcome is not None and isinstance(app.screen, ScoreScreen) and app.screen.final
        ended = [e for e in app.state.history if e.kind == "round-end"]
        assert rounds_seen == len(ended) - 1 >= 1  # the last round's scores are on the final screen
        text = static_text(app, "#score-text")
        assert f"Round {len(ended)} over" in text and "Game over" in text
        await pilot.press("escape")  # back to the table
        await pilot.pause()
        assert app.screen.query(BoardPanel) and "Game over" in message_text(app)

    play(make_app("domino-rummikub", "--seed", "5", "--players", "2", "--bots", "2", "--no-record"), scenario)


def test_the_final_score_screen_starts_a_new_game_or_quits(tmp_path: Path) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        for _ in range(3000):
            if isinstance(app.screen, ScoreScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, ScoreScreen) and app.screen.final
        assert app.screen.check_action("answer", ("next",)) is False  # no next round after the match
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("ctrl+s")  # the start screen opens on the same game
        await pilot.pause()
        assert app.state.outcome is None and app.state.info.id == "rummikub" and app.saved is None
        assert len(list(tmp_path.iterdir())) == 1  # the game left was saved
        await pilot.press("ctrl+q")

    app = make_app("rummikub", "--seed", "2", "--players", "2", "--bots", "2", "--record", str(tmp_path))
    app.args.record, app.args.no_record = None, True
    play(app, scenario)
    assert len(list(tmp_path.iterdir())) == 1


# -- hot-seat -------------------------------------------------------------------------------


def public_words(app: GameApp) -> set[str]:
    """Every piece a spectator may know of: its view and every event as it sees it."""
    visible = set(re.findall(r"[A-Z]+\d*", str(app.state.view(None))))
    for event in app.state.history:
        visible |= set(re.findall(r"[A-Z]+\d*", str(event.seen_by(None))))
    return visible


def rack_of(app: GameApp, seat: int) -> list[str]:
    """The rack of ``seat`` in the app's free-table game (from the seat's own view)."""
    state = app.state
    assert isinstance(state, FreeTableGame)
    return state.view(seat)["rack"]


def only_held(app: GameApp) -> list[set[str]]:
    """For seats 0 and 1, the pieces only that seat may know of (tiles come in pairs: not in the other rack)."""
    racks = [set(rack_of(app, seat)) - public_words(app) for seat in (0, 1)]
    return [racks[0] - racks[1], racks[1] - racks[0]]


def shown_pieces(app: GameApp) -> set[str]:
    """Every piece on the game screen (panel, rack, messages, log) and on the screen on top of it."""
    statics = [w.content for w in app.screen.query(Static)]
    on_top = "\n".join(c.plain if isinstance(c, Text) else str(c) for c in statics)
    return set(re.findall(r"[+*]?([A-Z]+\d+)", screen_text(app) + "\n" + on_top))


def test_hot_seat_covers_the_screen_between_people() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        first = min(app.state.to_act)
        other = 1 - first
        assert isinstance(app.screen, CoverScreen) and app.turn is None
        assert f"Pass the keyboard to P{first + 1}" in static_text(app, "#cover-text")
        racks = only_held(app)
        assert racks[0] and racks[1]
        assert not (shown_pieces(app) & (racks[0] | racks[1]))  # nobody's rack behind the cover
        assert app.rack_bar.display is False
        await pilot.press("enter")
        await my_turn(app, pilot)
        assert app.turn is not None and app.seat == first
        assert racks[first] <= shown_pieces(app) and not (shown_pieces(app) & racks[other])
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        assert str(app.state.actions[-1]) == f"{first} draw"
        assert isinstance(app.screen, CoverScreen)
        assert f"Pass the keyboard to P{other + 1}" in static_text(app, "#cover-text")
        hidden = only_held(app)
        assert not (shown_pieces(app) & (hidden[0] | hidden[1]))  # not even the tile just drawn
        await pilot.press("x")  # any other key does nothing
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")
        await my_turn(app, pilot)
        assert app.turn is not None and app.seat == other
        assert hidden[other] <= shown_pieces(app) and not (shown_pieces(app) & hidden[first])
        await pilot.press("tab", "tab", "ctrl+d")  # the rack keys work for the second person too
        await my_turn(app, pilot)
        assert str(app.state.actions[-1]) == f"{other} draw" and isinstance(app.screen, CoverScreen)

    play(make_app("rummikub", "--seed", "4", "--players", "2", "--bots", "0", "--no-record"), scenario)


def test_hot_seat_with_a_bot_between_people() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        people: list[int] = []
        while len(people) < 3:
            assert isinstance(app.screen, CoverScreen) and app.turn is None
            seat = app.people[0] if f"P{app.people[0] + 1}," in static_text(app, "#cover-text") else app.people[1]
            await pilot.press("enter")
            await my_turn(app, pilot)
            assert app.turn is not None and app.state.to_act == {seat} and app.seat == seat
            people.append(seat)
            await type_line(pilot, "draw")
            await my_turn(app, pilot)
        players = [a.player for a in app.state.actions]
        assert [p for p in players if p in app.people] == people and app.bots[2] is not None and 2 in players

    play(make_app("domino-rummikub", "--seed", "2", "--players", "3", "--bots", "1", "--no-record"), scenario)


# -- the start screen -------------------------------------------------------------------------


def start_app(tmp_path: Path | None = None) -> GameApp:
    args = argparse.Namespace(record=None if tmp_path is None else str(tmp_path), no_record=tmp_path is None)
    return GameApp(None, bot_delay=0, color=False, args=args, environ={})


def run_start(app: GameApp, scenario: Scenario, size: tuple[int, int] = (100, 40)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(run())


async def choose(pilot: Pilot[int], selector: str, steps: int) -> None:
    """Open a drop-down with Enter, move ``steps`` down (up if negative), take it with Enter."""
    app = pilot.app
    app.screen.query_one(selector).focus()
    await pilot.press("enter", *(["down"] * steps if steps >= 0 else ["up"] * -steps), "enter")
    await pilot.pause()


async def type_into(pilot: Pilot[int], selector: str, text: str) -> None:
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    await pilot.press("end", *(["backspace"] * len(field.value)), *text)
    await pilot.pause()


def test_the_start_screen_sets_up_a_game_with_keys() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen) and app.setup is None
        infos = [g.id for g in games()]
        assert screen.info.id == DEFAULT_GAME == "rummikub"  # what a newcomer is offered first
        await choose(pilot, "#game", infos.index("conveyor") - infos.index("rummikub"))
        assert screen.info.id == "conveyor" and static_text(app, "#summary") == find_game("conveyor").summary
        await choose(pilot, "#game", infos.index("rummikub") - infos.index("conveyor"))
        info = find_game("rummikub")
        assert screen.info.id == "rummikub" and static_text(app, "#summary") == info.summary
        for spec in info.options:  # every option, with its help and allowed values
            assert screen.query_one(f"#option-{spec.name}", Input).value == spec.format(spec.default)
            assert spec.help.split()[0] in "\n".join(str(w.content) for w in screen.query(".help").results(Static))
        assert screen.seat_levels() == ["person", "greedy", "greedy"]  # 2 to 4 players: 3 at first
        await choose(pilot, "#players", 1)
        assert len(screen.seat_levels()) == 4
        await choose(pilot, "#players", -2)
        assert screen.seat_levels() == ["person", "greedy"]
        levels = ["person", *bot_levels("rummikub")]
        await choose(pilot, "#seat-1", levels.index("random") - levels.index("greedy"))
        assert screen.seat_levels() == ["person", "random"]
        await type_into(pilot, "#option-jokers", "9")
        assert "! option jokers needs a whole number 0..4, got 9" in static_text(app, "#error-jokers")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, StartScreen) and "fix the option marked above: jokers" in static_text(
            app, "#start-error"
        )
        await type_into(pilot, "#option-jokers", "3")
        assert static_text(app, "#error-jokers") == ""
        await type_into(pilot, "#seed", "x")
        await pilot.press("enter")
        assert "a seed is a whole number" in static_text(app, "#start-error")
        await type_into(pilot, "#seed", "42")
        await pilot.press("enter")
        await my_turn(app, pilot)
        state = app.state
        assert state.info.id == "rummikub" and state.seed == 42 and state.options["jokers"] == 3
        assert app.bots[0] is None and app.bots[1] is not None and app.bots[1].level == "random"
        assert app.turn is not None and app.seat == 0 and app.saved is None
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        assert "0 draw" in [str(a) for a in state.actions] and 1 in [a.player for a in state.actions]

    run_start(start_app(), scenario)


def test_the_start_screen_shows_the_engine_refusal_and_a_bots_only_game() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        ids = [g.id for g in games()]
        await choose(pilot, "#game", ids.index("conveyor") - ids.index(screen.info.id))
        assert screen.info.id == "conveyor"
        await type_into(pilot, "#option-set", "6")
        await type_into(pilot, "#option-columns", "5")
        assert static_text(app, "#error-columns") == ""  # each value alone is allowed...
        await pilot.press("ctrl+s")
        assert "do not split into 5 equal columns" in static_text(app, "#start-error")  # ...not together
        await type_into(pilot, "#option-columns", "4")
        await choose(pilot, "#seat-0", bot_levels("conveyor").index("random") + 1)
        assert screen.seat_levels()[0] == "random"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.state.info.id == "conveyor" and app.state.options["set"] == 6 and app.seat is None
        assert app.people == [] and "watch" in app.sub_title

    run_start(start_app(), scenario)


def test_the_start_screen_resumes_a_saved_game_and_f2_brings_it_back(tmp_path: Path) -> None:
    async def draw_and_quit(app: GameApp, pilot: Pilot[int]) -> None:
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        await type_line(pilot, "quit")

    first = make_app("rummikub", "--seed", "4", "--record", str(tmp_path))
    play(first, draw_and_quit)
    assert first.saved is not None and first.saved.path is not None
    done = [str(a) for a in first.state.actions]

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await type_into(pilot, "#resume", str(tmp_path / "nothing.txt"))
        await pilot.press("enter")
        assert "no such file" in static_text(app, "#resume-error")
        assert first.saved is not None
        await type_into(pilot, "#resume", str(first.saved.path))
        await pilot.press("enter")
        await my_turn(app, pilot)
        assert [str(a) for a in app.state.actions] == done and app.turn is not None
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen) and app.screen.info.id == "rummikub"
        await pilot.press("escape")  # back to the same game, still your turn
        await pilot.pause()
        assert not isinstance(app.screen, StartScreen) and app.turn is not None
        await type_line(pilot, "draw")
        await my_turn(app, pilot)
        assert len(app.state.actions) == len(done) + 2

    run_start(start_app(), scenario)


def test_escape_on_the_first_start_screen_leaves() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("escape")
        await pilot.pause()

    app = start_app()
    run_start(app, scenario)
    assert app.return_value == 0 and app.setup is None


def test_a_person_plays_a_whole_game_to_the_final_score_screen() -> None:
    """Every turn typed (the first command the game lists), until the match ends and its scores show."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, ScoreScreen) and screen.query("#score-text"):  # pushed and composed
                if screen.final:
                    break
                await pilot.press("enter")
            elif app.turn is not None:
                seat = min(app.state.to_act)
                commands = set(app.turn.completions([]))
                lines = [app.presenter.command_text(a) for a in app.state.indexed_actions(seat)]
                line = next(text for text in lines if text.split()[0] in commands)
                before = len(app.state.actions)
                await type_line(pilot, line)
                assert len(app.state.actions) > before, message_text(app)
            await my_turn(app, pilot)
        assert app.state.outcome is not None and isinstance(app.screen, ScoreScreen) and app.screen.final
        assert "Game over" in static_text(app, "#score-text")
        await pilot.press("q")
        await pilot.pause()

    app = make_app("domino-rummikub", "--seed", "3", "--no-record", "-o", "target=none")
    play(app, scenario)
    assert app.return_value == 0
