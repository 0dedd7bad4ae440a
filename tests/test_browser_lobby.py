"""The lobby in the browser: "Play vs computer" opens a playable table in one click; the host's controls; a phone."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_support import axe_violations, browser, get_json, listed_on_my_turn, server, shot

if TYPE_CHECKING:
    from browser_support import Server
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "server"]

pytestmark = pytest.mark.browser


def _lobby(browser: Browser, base: str, phone: bool = False) -> Page:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    page = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone).new_page()  # type: ignore[arg-type]
    page.goto(base + "/")
    page.wait_for_selector(".lb-card .lb-play")
    return page


def test_the_games_are_cards_rummikub_first_and_the_lobby_passes_axe(server: Server, browser: Browser) -> None:
    page = _lobby(browser, server.base)
    cards = page.eval_on_selector_all(".lb-card", "els => els.map(e => e.dataset.game)")
    assert cards[0] == "rummikub"
    assert set(cards) == {g["id"] for g in get_json(server.base + "/api/games")}
    first = page.locator(".lb-card").first
    assert first.locator("h3").inner_text() == "Rummikub"
    assert "2 to 4 players" in first.inner_text()
    # the custom form counts seats from 1, with a name for each
    labels = page.eval_on_selector_all(".lb-seat .lb-seat-no", "els => els.map(e => e.textContent)")
    assert labels == ["Seat 1", "Seat 2"]
    assert page.get_attribute("#seat-0-kind", "aria-label") == "Seat 1: who plays"
    assert axe_violations(page) == []
    # keyboard: the first card's button is reached with Tab and started with Enter (checked in the next test)
    page.focus("#my-name")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.game") == "rummikub"
    shot(page, "lobby-cards-test")
    page.context.close()


def test_play_vs_computer_opens_a_playable_table_in_one_click(server: Server, browser: Browser) -> None:
    page = _lobby(browser, server.base)
    page.fill("#my-name", "Ada")
    page.dispatch_event("#my-name", "change")
    page.focus('.lb-card[data-game="rummikub"] .lb-play')
    page.keyboard.press("Enter")  # the one "click", from the keyboard
    page.wait_for_url("**/t/**", timeout=20_000)
    page.wait_for_selector("body[data-conn=open]", timeout=20_000)
    page.wait_for_selector("body[data-seq]", timeout=20_000)
    page.wait_for_selector("body[data-turn=mine]", timeout=30_000)  # whoever begins, the computer answers at once
    actions = listed_on_my_turn(page)
    assert any(a["type"] == "draw" for a in actions), actions
    table = page.url.split("/t/")[1].split("#")[0]
    info = get_json(f"{server.base}/api/tables/{table}")
    assert info["status"] == "playing" and info["game"] == "rummikub"
    assert [(s["seat"], s["kind"], s["name"]) for s in info["seats"]] == [(0, "person", "Ada"), (1, "bot", "bot 2")]
    assert info["name"] and info["name"] != table
    # back in the lobby: the table is listed as yours, by name, with its seats counted from 1
    page.goto(server.base + "/")
    row = page.locator(f'.created[data-table="{table}"]')
    row.wait_for(timeout=20_000)
    assert info["name"] in row.locator("h3").inner_text()
    assert row.locator(".lb-seat-no").all_inner_texts() == ["Seat 1", "Seat 2"]
    assert table not in row.inner_text(), "no raw id on the screen"
    page.context.close()


def test_the_host_hands_a_seat_to_the_computer_and_closes_the_table(server: Server, browser: Browser) -> None:
    page = _lobby(browser, server.base)
    page.select_option("#game", "mummus")
    page.select_option("#seat-1-kind", "person")
    page.fill("#seat-1-name", "Bea")
    page.fill("#table-name", "Tuesday game")
    page.click("#create-table")
    page.wait_for_url("**/t/**", timeout=20_000)
    page.wait_for_selector("body[data-seq]", timeout=20_000)
    table = page.url.split("/t/")[1].split("#")[0]
    # a second tab of the host stays on the table; the lobby hands Bea's seat to the computer
    lobby = page.context.new_page()
    lobby.goto(server.base + "/")
    mine = lobby.locator(f'.created[data-table="{table}"]')
    mine.wait_for(timeout=20_000)
    assert "Tuesday game" in mine.inner_text()
    assert mine.locator(".invite").count() == 2, "every person seat's invite link stays with its host"
    mine.get_by_role("button", name="Give seat 2 to the computer").click()
    lobby.wait_for_selector(".lb-live:has-text('played by the computer')", timeout=20_000)
    info = get_json(f"{server.base}/api/tables/{table}")
    assert info["seats"][1]["kind"] == "bot" and info["status"] == "playing"
    page.wait_for_selector("body[data-turn=mine]", timeout=30_000)
    # close it: confirmed in a second step; the table page says so, and the table leaves every list
    mine = lobby.locator(f'.created[data-table="{table}"]')
    mine.get_by_role("button", name="Close table Tuesday game").click()
    mine.get_by_role("button", name="Yes, close it").click()
    lobby.wait_for_selector(".lb-live:has-text('is closed')", timeout=20_000)
    # the announcement may come a frame before the lists are drawn again: wait (bounded) for the rows to go
    gone = f"document.querySelectorAll('[data-table=\"{table}\"]').length === 0"
    lobby.wait_for_function(gone, timeout=20_000)
    assert table not in {t["table"] for t in get_json(server.base + "/api/tables")}
    page.wait_for_selector("body[data-conn=closed]", timeout=20_000)
    assert "closed by its host" in page.inner_text("body")
    page.context.close()


def test_the_lobby_on_a_phone(server: Server, browser: Browser) -> None:
    page = _lobby(browser, server.base, phone=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, "nothing sticks out sideways"
    play = page.locator('.lb-card[data-game="rummikub"] .lb-play')
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, "the first game's button is on the first screen"
    assert axe_violations(page) == []
    shot(page, "lobby-phone-list")
    play.tap()
    page.wait_for_url("**/t/**", timeout=20_000)
    page.wait_for_selector("body[data-turn=mine]", timeout=30_000)
    page.context.close()
