"""Mummus's Hint button in the browser: the strong bot's lines, and its move marked on the board."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from browser_support import Server, listed, my_turn, open_page, seq, wait_moved

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_the_hint_button_shows_the_lines_and_marks_the_move(server: Server, browser: Browser) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}]
    created = server.table("mummus", seats, seed=5, target=0)  # Ann plays first with this seed
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    deadline = time.monotonic() + 30
    while not (my_turn(page) and listed(page)):
        assert time.monotonic() < deadline, "Ann's turn did not come"
        time.sleep(0.05)
    assert page.locator(".hinted").count() == 0
    page.click("#hint")
    page.wait_for_selector(".hint li", timeout=60_000)
    lines = page.eval_on_selector_all(".hint li", "els => els.map(e => e.textContent)")
    assert lines[0].startswith("hint: ") and lines[1].strip().startswith("why: ")
    # the move it names is marked: the stock for a draw, the pile card for a take
    page.wait_for_selector(".hinted")
    marked = page.locator(".hinted").first
    label = marked.get_attribute("aria-label") or ""
    assert "the hint" in label
    if lines[0].startswith("hint: draw"):
        assert page.locator(".sp-stock.hinted").count() == 1
        assert page.locator(".sp-pile .hinted, [data-zone=pile].hinted").count() == 0
    else:
        card = lines[0].split("(type: take ")[1].rstrip(")")
        assert page.locator(f'[data-zone=pile][data-id="{card}"].hinted').count() == 1
    # the state changes: the marks go
    before = seq(page)
    page.click(".sp-stock")
    wait_moved(page, before)
    page.wait_for_function("() => document.querySelectorAll('.hinted').length === 0", timeout=15_000)
    page.context.close()
