"""conveyor's hint in the terminal app: F7 and the typed ``hint`` show the strong bot's advice, playing nothing."""

from __future__ import annotations

from test_tui import make_app, message_text, play
from textual.pilot import Pilot

from rummykit.tui.app import GameApp


async def wait_hint(app: GameApp, pilot: Pilot[int]) -> None:
    for _ in range(400):
        await pilot.pause(0.02)
        if app.hint is not None:
            return
    raise AssertionError("no hint came")


def test_f7_and_typed_hint_show_the_advice_in_a_conveyor_game() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None
        before = len(app.state.actions)
        table = app.table_widget()
        assert table is not None
        table.focus()
        await pilot.press("f7")
        await wait_hint(app, pilot)
        shown = message_text(app)
        assert "hint: " in shown and "why: " in shown, shown
        assert len(app.state.actions) == before  # nothing played
        await pilot.press("f7")  # again: hidden
        assert app.hint is None
        app.query_one("#command").focus()
        await pilot.press(*"hint", "enter")
        await wait_hint(app, pilot)
        again = message_text(app)
        assert "hint: " in again and "why: " in again and "unknown command" not in again
        assert len(app.state.actions) == before

    play(make_app("conveyor", "--seed", "5", "--no-record"), scenario)
