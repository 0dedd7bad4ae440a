"""Accessibility: axe-core (npm ``@axe-core/playwright``'s engine) finds no serious or critical violation on the
lobby and on a table of each game, at desktop and phone sizes, in the page as a person first sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_support import Server, axe_violations, get_json, open_page

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser

GAMES = ["rummikub", "domino-rummikub", "conveyor", "two-tray", "mummus"]


def test_the_lobby_has_no_serious_axe_violation(server: Server, browser: Browser) -> None:
    for phone in (False, True):
        context = browser.new_context(
            viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 800},
            is_mobile=phone,
            has_touch=phone,
        )
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_load_state("networkidle")
        assert axe_violations(page) == []
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_has_no_serious_axe_violation(server: Server, browser: Browser, game: str) -> None:
    assert game in {g["id"] for g in get_json(server.base + "/api/games")}
    created = server.table(game, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "random"}], seed=3)
    for phone in (False, True):
        page = open_page(browser, server.base + created["seats"][0]["invite"], phone=phone)
        page.wait_for_function("() => document.body.dataset.legalSeq === document.body.dataset.seq")
        page.wait_for_selector(".log li")
        assert axe_violations(page) == [], f"{game} ({'phone' if phone else 'desktop'})"
        page.context.close()
