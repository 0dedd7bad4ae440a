"""The app before any game is loaded, an unexpected error in it, and a game saved in it resumed in it.

- With no game (the start screen, a replay opened from the command line) every
  key of the game screen and of the app is safe: asking whether it is
  available (the footer asks for every key of the focused widget) and
  running it never reaches for a game that is not there.
- An error nothing handled ends ``rummykit tui`` with a non-zero status and one
  line naming the log that holds the traceback (:class:`rummykit.tui.guard.Guarded`).
- A game quit in the app offers ``rummykit tui --resume FILE``, which goes on with it.
"""

from __future__ import annotations

import argparse
import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Static

from rummykit.cli.crashlog import logs_folder, write_crash_log
from rummykit.cli.main import build_parser
from rummykit.cli.start import game_setup
from rummykit.records import parse_record
from rummykit.tui.app import BoardPanel, GameApp, RackBar
from rummykit.tui.guard import Guarded
from rummykit.tui.start import StartScreen


def own_bindings(node: DOMNode) -> list[Binding]:
    """The key bindings rummykit declares on a node's classes (Textual's own are Textual's business)."""
    found: list[Binding] = []
    for cls in type(node).__mro__:
        if cls.__module__.startswith("rummykit.") and "BINDINGS" in vars(cls):
            found.extend(Binding.make_bindings(vars(cls)["BINDINGS"]))
    return found


@pytest.mark.parametrize("replay", [False, True], ids=["start screen", "replay viewer"])
def test_no_key_reaches_for_a_game_before_one_is_loaded(tmp_path: Path, replay: bool) -> None:
    record = tmp_path / "game.txt"
    if replay:
        args = build_parser(io.StringIO(), io.StringIO()).parse_args(
            ["tui", "rummikub", "--bots", "1", "--seed", "3", "--record", str(record)]
        )
        saved = GameApp(game_setup(args, {}), bot_delay=0, color=False)
        saved.save()
        assert record.is_file()
    app = GameApp(
        None, bot_delay=0, color=False, environ={},
        args=argparse.Namespace(record=str(tmp_path / "records"), no_record=False),
        replay=str(record) if replay else None,
    )
    asked: list[tuple[str, str]] = []
    draft_panels_focusable: dict[str, bool] = {}

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            top = app.screen
            base = app.screen_stack[0]
            assert top is not base  # the start screen or the replay viewer is over the (empty) game screen
            nodes: list[DOMNode] = [app, base, *base.query("*")]
            for panel in (base.query_one(BoardPanel), base.query_one(RackBar)):
                draft_panels_focusable[type(panel).__name__] = panel.focusable
            # The footer asks every key of the focused widget's chain, focus on each widget of the game screen:
            for widget in [None, *(w for w in base.query("*") if w.focusable)]:
                base.set_focus(widget)
                await pilot.pause()
                bindings = base.active_bindings
                asked.extend((type(b.node).__name__, b.binding.action) for b in bindings.values())
            # ... and every key, run (unless it is not available: then Textual does not run it either):
            for node in nodes:
                for binding in own_bindings(node):
                    if binding.action == "quit_game":
                        continue  # below: it ends the app
                    await app.run_action(binding.action, node)
                    await pilot.pause()
            assert app.is_running and app.screen is top and app.setup is None
            await pilot.press("ctrl+q")
            await pilot.pause()

    asyncio.run(run())
    # The keys that crashed: the rack and the table take no focus before a game (so the footer never asks
    # them), or, if they did, their keys were asked above without an error.
    for name, focusable in draft_panels_focusable.items():
        assert not focusable or {(name, "hint"), (name, "commit")} <= set(asked), name
    assert app.return_code == 0 and app.return_value == 0
    assert not (tmp_path / "records").exists()  # no game, nothing saved
    assert not app.saved_lines


def test_the_draft_keys_see_no_game_until_one_is_loaded() -> None:
    app = GameApp(None, bot_delay=0, color=False, environ={}, args=argparse.Namespace(record=None, no_record=True))

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            for panel in (app.screen_stack[0].query_one(BoardPanel), app.screen_stack[0].query_one(RackBar)):
                assert panel.game is None
                assert panel.check_action("hint", ()) is None  # shown greyed out, never run
                assert panel.check_action("commit", ()) is None
            assert isinstance(app.screen, StartScreen)
            await pilot.press("ctrl+q")

    asyncio.run(run())


# -- an unexpected error -------------------------------------------------------------------


class Failing(App[int]):
    """An app with a bug: an error in a handler, after its screen is up."""

    def compose(self) -> ComposeResult:
        yield Static("here")

    def on_mount(self) -> None:
        self.call_after_refresh(self.fail)

    def fail(self) -> None:
        raise LookupError("a bug in a handler")


class Fine(App[int]):
    def on_mount(self) -> None:
        self.exit(3)


def test_an_unhandled_error_gives_a_non_zero_status_and_one_line_naming_the_log(tmp_path: Path) -> None:
    guarded = Guarded(Failing())
    result = guarded.run(headless=True)
    err = io.StringIO()
    status = guarded.finish("tui", err, {"RUMMYKIT_LOGS": str(tmp_path)})
    assert result is None and status == 1
    lines = err.getvalue().splitlines()
    [log] = list(tmp_path.iterdir())
    assert lines == [
        f"rummykit tui stopped on an unexpected error (LookupError: a bug in a handler); the details are in {log}"
    ]
    details = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in details and "in fail" in details
    assert "LookupError: a bug in a handler" in details
    assert "What the terminal app printed when it stopped" in details  # Textual's traceback, with the locals


def test_a_normal_end_is_left_alone(tmp_path: Path) -> None:
    guarded = Guarded(Fine())
    assert guarded.run(headless=True) == 3
    err = io.StringIO()
    assert guarded.finish("tui", err, {"RUMMYKIT_LOGS": str(tmp_path)}) is None
    assert err.getvalue() == "" and not any(tmp_path.iterdir())


def test_an_error_in_a_step_after_the_app_counts_too(tmp_path: Path) -> None:
    guarded = Guarded(Fine())
    guarded.run(headless=True)

    def save() -> None:
        raise OSError("disk gone")

    guarded.also(save)
    err = io.StringIO()
    assert guarded.finish("tui", err, {"RUMMYKIT_LOGS": str(tmp_path)}) == 1
    assert "(OSError: disk gone)" in err.getvalue()


def test_the_log_goes_to_the_temporary_folder_when_the_logs_folder_cannot_be_made(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    path = write_crash_log("tui", "details\n", environ={"RUMMYKIT_LOGS": str(blocked / "logs")})
    assert path is not None and path.parent != blocked / "logs"
    try:
        assert path.read_text(encoding="utf-8").endswith("details\n")
    finally:
        path.unlink()


def test_the_logs_folder_follows_the_platform() -> None:
    assert logs_folder({"HOME": "/home/ann", "XDG_STATE_HOME": "relative"}, platform="linux").as_posix() == (
        "/home/ann/.local/state/rummykit/logs"
    )
    assert logs_folder({"LOCALAPPDATA": "C:/Users/ann/AppData/Local"}, platform="win32").as_posix() == (
        "C:/Users/ann/AppData/Local/rummykit/logs"
    )


# -- saved in the app, resumed in the app ------------------------------------------------


def tui_app(*argv: str) -> GameApp:
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", *argv])
    return GameApp(game_setup(args, {}), bot_delay=0, color=False, args=args)


async def until(pilot: Any, ready: Any, what: str, limit: int = 400) -> None:
    for _ in range(limit):
        await pilot.pause()
        if ready():
            return
    raise AssertionError(f"never: {what}")


def test_a_game_quit_in_the_app_is_offered_and_resumed_in_the_app(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    first = tui_app("rummikub", "--bots", "1", "--seed", "11", "--record", str(record))

    async def play_a_turn() -> None:
        async with first.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: first.turn is not None, "the person's turn")
            assert first.run_command("draw"), first.messages
            await until(pilot, lambda: first.turn is not None and len(first.state.actions) >= 2, "the next turn")
            await pilot.press("ctrl+q")

    asyncio.run(play_a_turn())
    played = len(first.state.actions)
    assert first.saved_lines == [f"Record saved to {record}; continue with: rummykit tui --resume {record}"]

    second = tui_app("--resume", str(record))
    assert len(second.state.actions) == played

    async def resume() -> None:
        async with second.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: second.turn is not None, "the person's turn after resuming")
            await pilot.press("ctrl+q")

    asyncio.run(resume())
    assert second.log_lines[1] == f"Continuing the game saved in {record} ({played} actions so far, round 1)."
    assert second.saved_lines == [f"Record saved to {record}; continue with: rummykit tui --resume {record}"]
    assert len(parse_record(record.read_text(encoding="utf-8")).actions) == played  # brought up to date, same file
