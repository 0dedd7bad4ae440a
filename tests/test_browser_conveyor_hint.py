"""conveyor in the browser: the Hint button shows the strong bot's lines and marks its move on the board."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from browser_support import Server, open_page, seq, wait_moved
from test_browser_conveyor import BOT, _phase, _wait_mine

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_the_hint_button_shows_the_lines_and_marks_the_move(server: Server, browser: Browser) -> None:
    created = server.table("conveyor", [{"kind": "person", "name": "Ann"}, BOT], seed=3)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.set_viewport_size({"width": 1280, "height": 800})
    deadline = time.monotonic() + 60
    assert _wait_mine(page, deadline)
    assert _phase(page) == "select"
    assert page.locator(".cv .hinted").count() == 0
    page.click("#hint")
    page.wait_for_selector(".hint li", timeout=30_000)
    lines = page.eval_on_selector_all(".hint li", "els => els.map(e => e.textContent)")
    assert lines[0].startswith("hint: ") and lines[1].strip().startswith("why: "), lines
    hinted = page.locator(".cv .hinted")
    assert hinted.count() == 1, "the hint's move is not marked on the board"
    label = hinted.first.get_attribute("aria-label") or ""
    assert "the hint's move" in label, label
    # the marked thing is the move: claim 2 marks column 2's claim button, reveal 2 5 its fifth cell
    said = lines[0].split("(type: ", 1)[1].rstrip(")").split()
    column = int(said[1]) - 1
    if said[0] == "claim":
        assert hinted.first.get_attribute("data-claim") == str(column)
    else:
        assert said[0] == "reveal"
        assert hinted.first.get_attribute("data-cell") == str(int(said[2]) - 1)
        assert page.locator(f'.cv-col[data-column="{column}"] .hinted').count() == 1
    # playing it (a tap on the marked thing) moves the game on, and the mark is gone with the old view
    before = seq(page)
    hinted.first.click()
    wait_moved(page, before)
    page.wait_for_function("() => !document.querySelector('.cv .hinted')")
    page.context.close()
