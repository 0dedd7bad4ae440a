"""The terminal app's hint in two-tray: F7 and the typed ``hint`` show the grid solver's placement as steps."""

from __future__ import annotations

import dataclasses

from test_tui import make_app, message_text, play
from textual.pilot import Pilot

from rummykit.tui.app import GameApp
from rummykit.tui.tables.grid import GridTable

POSITION = (
    "grid: 0,0: R1 R2 R3 / . . . / K7 K8 K9 K10; trays: A[R4 R5 B7 O7] B[O1 O2 O3] / A[K1 B1 O1 B13] B[K2 B2 O2];"
    " pool: seed 3; next: A B; down: 11"
)


async def _wait_for_hint(app: GameApp, pilot: Pilot[int]) -> str:
    for _ in range(400):
        await pilot.pause(0.05)
        text = message_text(app)
        if "hint:" in text:
            return text
    raise AssertionError(f"no hint shown: {message_text(app)!r}")


def _app() -> GameApp:
    app = make_app("two-tray", "--seed", "3", "--no-record")
    assert app.setup is not None
    from_position = app.state.info.from_position
    assert from_position is not None
    app.load(dataclasses.replace(app.setup, state=from_position(POSITION, players=2, seed=3)))
    return app


def test_f7_shows_the_hint_steps_and_plays_nothing() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None
        before = len(app.state.actions)
        await pilot.press("f7")
        text = await _wait_for_hint(app, pilot)
        assert "why: it places 4 tiles" in text and "place R4 from tray A at 1,4" in text
        assert "No hint" not in text
        await pilot.pause(0.1)
        grid = app.query_one(GridTable).render().plain
        assert "Hint: the cells marked h show its placement" in grid and "R4h" in grid and "O7h" in grid
        assert len(app.state.actions) == before and app.turn is not None  # nothing played
        await pilot.press("f7")  # hides it
        await pilot.pause()
        assert app.hint is None
        await pilot.pause(0.1)
        assert "Hint:" not in app.query_one(GridTable).render().plain

    play(_app(), scenario)


def test_typed_hint_shows_the_same_lines() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None
        await pilot.click("#command")
        await pilot.press(*"hint", "enter")
        text = await _wait_for_hint(app, pilot)
        assert "(type: play A" in text and "place O7 from tray A" in text
        assert len(app.state.actions) == 0

    play(_app(), scenario)
