"""Typing in the terminal app can never play a move: every command of every game's help, typed with
the focus on each part of the game screen in turn, lands on the command line and changes nothing until
Enter; which part has the focus is marked; the focus after a turn; the hint where a game has none; a
refused word names the commands it begins (Textual's pilot, headless)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import as_game
from rich.text import Text
from test_cli_prompt import Terminal
from test_tui import make_app, message_text, my_turn, panel_text, play
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from rummykit.catalogue import games
from rummykit.engine.commands import command_table
from rummykit.presenters.advice import advice, pieces_of
from rummykit.rulesets.conveyor import Conveyor
from rummykit.tui.app import BoardPanel, GameApp, GameLog, MovesList, RackBar
from rummykit.tui.tables import FOCUS_MARK, HandBar, TableWidget
from rummykit.tui.tables.conveyor import COLUMN, ConveyorTable
from rummykit.tui.widgets import KeysBar

GAMES = [info.id for info in games()]


def command_line(app: GameApp) -> Input:
    return app.query_one("#command", Input)


def focus_of(app: GameApp) -> Widget | None:
    """The part with the focus (a call, so that each check asks again)."""
    return app.focused


def parts(app: GameApp) -> list[Widget]:
    """Every part of the game screen but the command line that can have the focus (Tab goes through them)."""
    return [w for w in app.screen.focus_chain if w is not command_line(app)]


async def type_text(pilot: Pilot[int], text: str, *, one_by_one: int = 0) -> None:
    """Type ``text``: its first ``one_by_one`` keys with the pilot's ``press`` (the app answers each
    before the next), the rest as a fast typist types, every key reaching the app before the screen
    answers the first of them. Returns when the command line holds all that was typed (or says what
    it holds after a while)."""
    app = pilot.app
    command = app.query_one("#command", Input)
    before = command.value
    await pilot.press(*text[:one_by_one])
    for char in text[one_by_one:]:
        key = char if char.isalnum() else "space" if char == " " else unicodedata.name(char).lower().replace(" ", "_")
        app.post_message(events.Key(key, char))
    for _ in range(100):
        await pilot.pause()
        if command.value == before + text and app.focused is command:
            return
    raise AssertionError(f"the command line holds {command.value!r}, not {before + text!r}")


def where_things_stand(app: GameApp) -> tuple[Any, ...]:
    """Everything a key acting on the game could change: the state, the draft, what was said, the order."""
    turn = app.turn
    draft_view = getattr(turn, "draft_view", None)
    return (
        len(app.state.history),
        [str(a) for a in app.state.actions],
        app.board_now,
        draft_view() if callable(draft_view) else None,
        list(app.messages),
        None if turn is None else turn.order,
        app.hint,
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_command_typed_on_every_part_goes_to_the_command_line(game: str) -> None:
    """The issue's case, for every game: the focus on the table, the rack, the moves or the log, each
    command of the game's help is typed (alternately: its first two keys one by one then the rest fast,
    and all fast); nothing acts on the game, the whole text is on the command line (which has the
    focus then); Enter runs it. At 80x24, without the keys bar: it takes no keys, and it builds its key
    list again at every change of the focus, which would be most of this test's time."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await app.query_one(KeysBar).remove()
        command_line(app).cursor_blink = False
        if app.table_widget() is not None:
            await pilot.press("f6")  # the moves list too, under the game's own table
        commands = [command for command, _ in app.presenter.help_rows(app.turn_view())]
        assert len(commands) >= 10
        focusable = parts(app)
        kinds = {type(w) for w in focusable}
        assert GameLog in kinds
        if app.board_now is not None:
            assert {BoardPanel, RackBar} <= kinds
        else:
            assert MovesList in kinds and any(issubclass(k, TableWidget) for k in kinds)
        command = command_line(app)
        for part in focusable:
            for n, text in enumerate(commands):
                part.focus()
                await pilot.pause()
                assert focus_of(app) is part
                before = where_things_stand(app)
                await type_text(pilot, text, one_by_one=0 if n % 2 else 2)
                assert command.value == text, (type(part).__name__, text)
                assert focus_of(app) is command
                assert where_things_stand(app) == before, (type(part).__name__, text)
                command.value = ""
        # Enter runs what is typed: a move the engine lists (a free-table draw), typed on the table
        move = "draw" if app.board_now is not None else app.moves()[-1].label
        focusable[0].focus()
        await pilot.pause()
        actions = len(app.state.actions)
        await pilot.press(*move)
        assert len(app.state.actions) == actions and command.value == move
        await pilot.press("enter")
        await pilot.pause()
        assert len(app.state.actions) > actions, message_text(app)
        assert str(app.state.actions[actions]).split()[1] == move.split()[0]

    play(make_app(game, "--seed", "5", "--no-record"), scenario, (80, 24))


def test_the_issue_case_tab_twice_and_type_add() -> None:
    """``rummykit tui rummikub --bots 1 --seed 30``, Tab twice (the rack), ``add 1 K5``: the ``d`` drew a
    tile and ended the turn. Now the words go to the command line, and Enter runs them as a draft step;
    a paste goes there too."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        actions = len(app.state.actions)
        await pilot.press("tab", "tab")
        assert isinstance(focus_of(app), RackBar)
        await pilot.press(*"add 1 K5")
        assert command_line(app).value == "add 1 K5" and focus_of(app) is command_line(app)
        assert len(app.state.actions) == actions and app.board_now is not None and not app.board_now.changed
        await pilot.press("enter")
        assert len(app.state.actions) == actions and app.turn is not None  # a draft step (or its refusal)
        assert command_line(app).value == ""
        app.query_one(RackBar).focus()  # text pasted on the rack goes to the command line too
        await pilot.pause()
        app.post_message(events.Paste("draw\nsecond line"))
        await pilot.pause()
        assert command_line(app).value == "draw" and focus_of(app) is command_line(app)
        assert len(app.state.actions) == actions

    play(make_app("rummikub", "--bots", "1", "--seed", "30", "--no-record"), scenario, (100, 32))


def test_no_part_of_the_game_screen_has_a_printable_key_but_space() -> None:
    """The rule behind the typing: a part's keys are arrows, Space, Enter, Delete, Ctrl and F keys (and no
    Ctrl key that a terminal, tmux or the app keeps for itself)."""
    from textual.binding import Binding

    from rummykit.tui.tables import widget_classes

    classes: list[type[Widget]] = [BoardPanel, RackBar, MovesList, GameLog, *widget_classes().values()]
    for cls in classes:
        for binding in cls._merge_bindings().key_to_bindings.values():
            for b in binding:
                assert isinstance(b, Binding)
                key = b.key
                assert len(key) > 1, (cls.__name__, key)
                assert key in ("space", "enter", "delete", "up", "down", "left", "right", "home", "end",
                               "pageup", "pagedown", "escape", "tab") or key.startswith(("ctrl+", "shift+", "f")), (
                    cls.__name__, key)
                if key.startswith("f"):
                    assert key[1:].isdigit(), (cls.__name__, key)
                # keys the terminal, tmux or the app take, or that are another key (Ctrl+I: Tab)
                assert key not in {f"ctrl+{c}" for c in "bchijmpqvz"}, (cls.__name__, key)


def test_the_part_with_the_focus_is_marked() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack, board = app.query_one(RackBar), app.query_one(BoardPanel)
        log = app.query_one(GameLog)
        assert not rack.border_title and not log.border_title and FOCUS_MARK not in panel_text(app)
        await pilot.press("tab")
        assert focus_of(app) is board and f"{FOCUS_MARK} Table: your keys act here" in panel_text(app)
        await pilot.press("tab")
        assert focus_of(app) is rack and str(rack.border_title).startswith(FOCUS_MARK)
        assert FOCUS_MARK not in panel_text(app)
        await pilot.press("tab")
        assert focus_of(app) is log and str(log.border_title).startswith(FOCUS_MARK) and not rack.border_title
        await pilot.press("tab")
        assert focus_of(app) is command_line(app) and not log.border_title

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


@pytest.mark.parametrize("game", ["mummus", "conveyor"])
def test_a_table_widget_and_the_moves_list_are_marked_when_they_have_the_focus(game: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("f6")
        table = app.table_widget()
        moves = app.query_one(MovesList)
        assert table is not None and not table.border_title
        assert not str(moves.border_title).startswith(FOCUS_MARK)
        table.focus()
        await pilot.pause()
        assert str(table.border_title) == f"{FOCUS_MARK} the table: your keys act here"
        moves.focus()
        await pilot.pause()
        assert not table.border_title and str(moves.border_title).startswith(f"{FOCUS_MARK} Your moves (")

    play(make_app(game, "--seed", "5", "--no-record"), scenario)


def test_after_a_commit_with_keys_typing_is_kept_and_the_rack_has_the_focus_again() -> None:
    """Ctrl+O commits from the rack: while the bot plays the command line has the focus (the rack is
    gone) and keeps what is typed; when the turn comes back with nothing typed, the rack has it again."""
    app = make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0")
    app.delay_override = None
    app.speed = "step"

    async def run() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("f5")  # the bot's first step
            await my_turn(app, pilot)
            rack = app.query_one(RackBar)
            command = command_line(app)
            await pilot.press("tab", "tab")
            assert focus_of(app) is rack and rack.board is not None
            await pilot.press("left", "space", "left", "space", "left", "space", "ctrl+n", "ctrl+o")
            await pilot.pause()
            assert app.turn is None and "R5 R6 R7" in str(app.state.actions[-1])  # played; the bot waits for F5
            assert focus_of(app) is command
            await pilot.press(*"sho")
            assert command.value == "sho"
            await pilot.press("f5")
            await my_turn(app, pilot)
            assert app.turn is not None and focus_of(app) is command and command.value == "sho"  # still typing
            await pilot.press(*"w", "enter")
            await pilot.press("tab", "tab", "ctrl+d")  # from the rack again: draw
            await pilot.pause()
            assert app.turn is None and focus_of(app) is command
            await pilot.press("f5")
            await my_turn(app, pilot)
            assert app.turn is not None and focus_of(app) is rack  # back where the keys were used

    asyncio.run(run())


@pytest.mark.parametrize("game", ["conveyor", "mummus"])  # two-tray's grid hint: tests/test_tui_two_tray_hint.py
def test_a_strong_bot_hint_is_marked_on_the_table(game: str) -> None:
    """F7 shows the strong bot's advice under the table and marks the pieces it plays ``h`` on the table or
    in the hand; F7 again takes the marks away. Nothing is played."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        table = app.table_widget()
        assert table is not None
        typed = command_table(app.state.info.actions).typed_text
        for _ in range(30):  # play the advice, typed as a person types it, until it plays pieces
            found = advice(game, app.turn_view())
            if pieces_of(found.action):
                break
            count = len(app.state.actions)
            command_line(app).focus()
            await pilot.press(*typed(found.action), "enter")
            for _ in range(400):  # the bots answer; the person is asked again
                await pilot.pause(0.02)
                if len(app.state.actions) > count and app.turn is not None:
                    break
        before = len(app.state.actions)
        table.focus()
        await pilot.press("f7")
        for _ in range(400):
            await pilot.pause(0.05)
            if app.hint is not None:
                break
        assert app.hint is not None and message_text(app).startswith("hint: ")
        wanted = pieces_of(advice(game, app.turn_view()).action)
        assert wanted, "the advice plays pieces by now"
        assert table.hinted == wanted
        drawn = "".join(r.plain for r in (table.render(), app.part(HandBar).render()) if isinstance(r, Text))
        for piece in wanted:  # each piece of the hint's play that is drawn is marked
            assert piece not in drawn or f"{piece}h" in drawn or f"{piece}]h" in drawn
        await pilot.press("f7")
        await pilot.pause(0.05)
        assert app.hint is None and not table.hinted and len(app.state.actions) == before

    play(make_app(game, "--seed", "5", "--no-record"), scenario)


def test_typed_hint_is_the_hint_key() -> None:
    """In rummikub the typed ``hint`` shows the hint on the table, as F7 does, and plays nothing."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        before = len(app.state.actions)
        await pilot.press(*"hint", "enter")
        for _ in range(2400):  # the solver's first search may be compiled now: up to two minutes
            await pilot.pause(0.05)
            if app.hint is not None:
                break
        assert app.hint is not None and "Hint: the best play leaves this table" in panel_text(app)
        assert len(app.state.actions) == before
        await pilot.press(*"hint", "enter")
        assert app.hint is None

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario)


@pytest.mark.parametrize(("game", "typed", "said"), [
    ("rummikub", "c", "Did you mean `check` or `commit`?"),
    ("rummikub", "d", "Did you mean `draw`?"),
    ("mummus", "r", "Did you mean `rummy`?"),
])
def test_a_word_that_is_no_command_names_the_commands_it_begins(game: str, typed: str, said: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press(*typed, "enter")
        assert f"unknown command '{typed}'" in message_text(app) and message_text(app).endswith(said)
        await pilot.press(*"bogus", "enter")
        assert "unknown command 'bogus'" in message_text(app) and "Did you mean" not in message_text(app)

    play(make_app(game, "--seed", "4", "--no-record"), scenario)


def test_after_claiming_a_column_the_row_marker_is_on_a_conveyor() -> None:
    """Conveyor: the claim key on column 1 makes it the person's hand; the row marker goes on to a
    conveyor (column 2 is the bot's hand by then), so the draw key draws (it answered "column 1 is not a
    conveyor"); Up and Down pass over the hands."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        table = app.query_one(ConveyorTable)
        table.focus()
        assert app.state.view(0)["phase"] == "select" and table.at_row() == (COLUMN, 0)
        await pilot.press("ctrl+t")
        await my_turn(app, pilot)
        assert "0 claim 0" in [str(a) for a in app.state.actions]
        view = as_game(app.state, Conveyor).view(0)
        assert view["phase"] == "draw" and app.turn is not None and view["open_columns"] == [2, 3, 4]
        assert table.at_row() == (COLUMN, 2)
        await pilot.press("ctrl+d")
        assert "not a conveyor" not in message_text(app) and str(app.state.actions[-1]) == "0 draw 2 top"
        await pilot.press("up")  # Up passes over the two hands to the last meld or conveyor
        assert table.at_row() != (COLUMN, 1) and table.at_row() != (COLUMN, 0)

    play(make_app("conveyor", "--seed", "5", "--no-record"), scenario)


@pytest.mark.parametrize(("keys", "shown", "played"), [
    # the issue: Tab twice (the rack), then the words and Enter: the turn refuses them (K5 is not in the
    # rack), nothing is played; before, the `d` drew a tile and ended the turn
    (b"\t\tadd 1 K5\r", "RK-RACK", []),
    (b"\t\t\x04", "P1 draws", ["0 draw"]),  # Tab twice, Ctrl+D: the rack's draw key draws
])
def test_in_a_real_terminal_typed_words_play_nothing_and_ctrl_d_draws(
    tmp_path: Path, keys: bytes, shown: str, played: list[str]
) -> None:
    """What a person runs: ``rummykit tui rummikub --bots 1 --seed 30`` in a pseudo-terminal, the keys
    sent once the person's turn is on the screen; once their outcome is on the screen too, Ctrl+Q (which
    the app takes at once, ahead of keys it is still handling); the saved record says what was played."""
    record = tmp_path / "game.txt"
    terminal = Terminal(["tui", "rummikub", "--bots", "1", "--seed", "30", "--speed", "fast",
                         "--record", str(record)], tmp_path)
    try:
        terminal.expect("Tab goes to the table", timeout=120)
        for key in (keys[:2], keys[2:]):  # Tab Tab, then the rest (as a person types: not in one burst)
            os.write(terminal.fd, key)
            time.sleep(0.5)
        terminal.expect(shown, timeout=120)
        os.write(terminal.fd, b"\x11")  # Ctrl+Q: save and quit
        deadline = time.monotonic() + 60
        while not os.waitpid(terminal.pid, os.WNOHANG)[0]:
            assert time.monotonic() < deadline, "the app did not quit after Ctrl+Q"
            if select.select([terminal.fd], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    os.read(terminal.fd, 65536)
        os.close(terminal.fd)
    except BaseException:
        terminal.close()
        raise
    actions = [line for line in record.read_text(encoding="utf-8").splitlines() if line[:2] in ("0 ", "1 ")]
    assert actions[0].startswith("1 play")  # the bot's first move, before the person's turn
    assert [a for a in actions if a.startswith("0 ")] == played
