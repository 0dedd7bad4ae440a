"""The terminal app's hint in domino-rummikub: F7 (or `hint` typed in the command line) draws the
best play's table with the dominoes it places marked ``h``, and plays nothing (Textual's pilot, headless)."""

from __future__ import annotations

import dataclasses

from test_tui import make_app, message_text, panel_text, play
from textual.pilot import Pilot

from rummykit.presenters.domino_rummikub import best_table
from rummykit.tui.app import GameApp


async def wait_hint(app: GameApp, pilot: Pilot[int]) -> list[list[str]]:
    for _ in range(600):
        await pilot.pause(0.05)
        if app.hint is not None:
            return app.hint
    raise AssertionError("no hint came: " + message_text(app))


def test_f7_draws_the_starting_group_on_the_table_and_plays_nothing() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None
        seat = min(app.state.to_act)
        view = app.state.view(seat)
        before = len(app.state.actions)
        await pilot.press("tab", "f7")
        hint = await wait_hint(app, pilot)
        assert hint == best_table(view) == [["3-3", "3-4", "3-5"]]
        text = panel_text(app)
        assert "Hint:" in text and "h3-3 h3-4 h3-5" in text
        assert len(app.state.actions) == before and app.turn is not None  # nothing played
        assert app.board_now is not None and not app.board_now.placed  # nor drafted
        await pilot.press("f7")
        assert app.hint is None and "Hint:" not in panel_text(app)

    play(make_app("domino-rummikub", "--seed", "3", "--no-record"), scenario)


def test_hint_typed_in_the_command_line_shows_a_rearranged_table() -> None:
    """Once down, the hint may rearrange the table: 3-6 and 4-6 place only with the run's 5-6."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert app.turn is not None
        before = len(app.state.actions)
        await pilot.click("#command")
        await pilot.press(*"hint", "enter")
        hint = await wait_hint(app, pilot)
        assert hint == best_table(app.state.view(0))
        assert sorted(sorted(s) for s in hint) == [["3-5", "4-5", "5-5"], ["3-6", "4-6", "5-6"]]
        text = panel_text(app)
        assert "h3-6 h4-6" in text and "h5-6" not in text  # 5-6 comes from the table, not the rack
        assert len(app.state.actions) == before and app.turn is not None  # nothing played

    app = make_app("domino-rummikub", "--seed", "3", "--no-record")
    assert app.setup is not None
    from_position = app.state.info.from_position
    assert from_position is not None
    position = "table: 3-5 4-5 5-5 5-6; racks: 3-6 4-6 1-1 / 1-2 2-2; pool: seed 2; turn: 0; down: 11"
    app.load(dataclasses.replace(app.setup, state=from_position(position, players=2, seed=3)))
    play(app, scenario)
