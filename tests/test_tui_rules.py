"""The terminal app's F1 screen has a Rules tab: the game's "how to play" guide, with its example melds."""

from __future__ import annotations

import pytest
from test_tui import make_app, play
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from rummykit.catalogue import games
from rummykit.presenters.guide import guide_for
from rummykit.tui.app import BoardPanel, GameApp
from rummykit.tui.screens import HelpScreen


@pytest.mark.parametrize("game", [info.id for info in games()])
def test_f1_then_r_shows_the_games_guide(game: str) -> None:
    guide = guide_for(game)

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        tabs = app.screen.query_one(TabbedContent)
        assert tabs.active == "commands"  # F1 opens on the commands, as before
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert tabs.active == "rules"
        field = app.screen.query_one("#rules-text", Static)
        assert field.region.height > 0  # shown, not only composed
        text = str(field.render())
        words = " ".join(text.split())
        assert " ".join(guide.goal.split()[:6]) in words
        assert guide.tip.split(".")[0] in words
        for meld in guide.melds:
            assert " ".join(meld.pieces) in text, meld
        width = field.content_region.width
        assert all(len(line) <= width for line in text.splitlines())  # laid out to the screen
        await pilot.press("c")
        await pilot.pause()
        assert tabs.active == "commands"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query(BoardPanel)

    play(make_app(game, "--seed", "2", "--no-record"), scenario)


def test_the_rules_tab_is_reached_by_a_click_too() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        await pilot.click("Tab#--content-tab-rules")
        await pilot.pause()
        assert app.screen.query_one(TabbedContent).active == "rules"

    play(make_app("two-tray", "--seed", "2", "--no-record"), scenario)
