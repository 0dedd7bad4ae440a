"""Two-tray's hint in the browser: the Hint button shows the strong bot's lines, the board outlines the cells
of its placement (the tiles it places shown faint, and said in each cell's label), and "Lay out the hint" puts
the placement into the draft, which the server accepts and the person commits with Play."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from browser_support import Server, axe_violations, browser, my_turn, over, seq, server, wait_moved

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "server"]


def _open(browser: Browser, server: Server) -> Page:
    made = server.table("two-tray", [{"kind": "person"}, {"kind": "bot"}], seed=2, initial_meld_points=0)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.base}{made['seats'][0]['invite']}")
    page.wait_for_selector("body[data-conn=open]")
    page.wait_for_selector(".tt-cell")
    return page


def _wait_turn(page: Page, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not (over(page) or my_turn(page)):
        assert time.monotonic() < deadline, "the turn did not come back"
        time.sleep(0.05)


def test_hint_shows_the_lines_and_lays_out_the_placement(server: Server, browser: Browser) -> None:
    page = _open(browser, server)
    laid = 0
    for _ in range(12):
        _wait_turn(page)
        if over(page):
            break
        page.click("#hint")
        page.wait_for_selector(".hint li", timeout=60000)
        lines = page.inner_text(".hint")
        assert "hint:" in lines and "why:" in lines
        if page.locator("#tt-use-hint").count() == 0:
            # the hint is to draw: no placement on the board
            assert page.locator(".tt-cell.hinted").count() == 0
            before = seq(page)
            page.click("#tt-draw")
            wait_moved(page, before)
            continue
        hinted = page.locator(".tt-cell.hinted").count()
        assert hinted > 0 and page.locator(".tt-cell.hinted .tt-hint-ghost").count() > 0
        assert page.locator(".tt-cell[aria-label*='the hint puts']").count() > 0
        assert "place " in lines and "(type: play " in lines
        assert not axe_violations(page)
        page.click("#tt-use-hint")
        page.wait_for_selector(".tt-verdict .verdict.ok", timeout=20000)
        assert page.locator(".tt-cell.hinted").count() == 0
        assert page.locator(".tt-cell.drafted").count() > 0
        before = seq(page)
        page.click("#tt-play")
        wait_moved(page, before)
        laid += 1
        if laid >= 2:
            break
    assert laid >= 1, "a hinted placement was laid out and played"
