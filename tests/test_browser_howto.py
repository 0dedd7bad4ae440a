"""The browser's "How to play" dialog (web/src/howto.ts): each game's guide from the server, its example melds
drawn as pieces, focus kept inside, Escape closes, no serious axe violation while it is open.

The dialog opens from the table page's "How to play" button (placed by table.ts) and from a link: a page whose
fragment holds ``how-to-play=<game>`` (after a seat's invite: ``#seat=0&token=…&how-to-play=<game>``). The
tests open it by the link on a real table page, and by the button once the table page shows one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from browser_support import Server, axe_violations, get_json, open_page, shot

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

GAMES = ["rummikub", "domino-rummikub", "conveyor", "two-tray", "mummus"]
DIALOG = "dialog.howto-dialog"


def table_page(server: Server, browser: Browser, game: str, *, link: bool, phone: bool = False) -> Page:
    created = server.table(game, [{"kind": "person"}, {"kind": "bot"}], seed=1)
    invite = created["seats"][0]["invite"]
    return open_page(browser, server.base + invite + (f"&how-to-play={game}" if link else ""), phone=phone)


def focus_in_dialog(page: Page) -> bool:
    return bool(page.evaluate(f"() => !!document.activeElement?.closest('{DIALOG}')"))


def drawn_melds(page: Page) -> list[list[str]]:
    melds: list[list[str]] = page.eval_on_selector_all(
        f"{DIALOG} .howto-meld", "els => els.map(m => [...m.querySelectorAll('.piece')].map(p => p.dataset.piece))"
    )
    return melds


@pytest.mark.parametrize("game", GAMES)
def test_the_link_opens_the_guide_on_a_table_page(server: Server, browser: Browser, game: str) -> None:
    guide: dict[str, Any] = get_json(f"{server.base}/api/games/{game}/guide")
    page = table_page(server, browser, game, link=True)
    page.wait_for_selector(f"{DIALOG}[data-loaded=true]", timeout=15000)
    assert page.evaluate(f"() => document.querySelector('{DIALOG}').open")
    assert page.inner_text(f"{DIALOG} h2") == f"How to play {guide['title'].split(' (')[0]}"
    text = page.inner_text(DIALOG)
    for section in guide["sections"]:
        assert section["heading"] in text
    assert guide["tip"] in text
    assert drawn_melds(page) == [m["pieces"] for m in guide["melds"]]  # every example meld drawn as pieces
    # the focus stays inside, both ways round
    assert focus_in_dialog(page)
    if game == "conveyor":
        shot(page, "howto-desktop")
    for key in ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]:
        page.keyboard.press(key)
        assert focus_in_dialog(page), key
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_selector(DIALOG, state="detached", timeout=5000)
    # the invite's part of the address stays; the table is still live behind
    assert "token=" in page.evaluate("() => location.hash") and "how-to-play" not in page.evaluate("() => location.hash")
    assert page.evaluate("() => document.body.dataset.conn") == "open"
    page.context.close()


def test_the_guide_fits_a_phone(server: Server, browser: Browser) -> None:
    page = table_page(server, browser, "mummus", link=True, phone=True)
    page.wait_for_selector(f"{DIALOG}[data-loaded=true]", timeout=15000)
    box = page.locator(DIALOG).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    shot(page, "howto-phone")
    page.locator(f"{DIALOG} .howto-close").tap()
    page.wait_for_selector(DIALOG, state="detached", timeout=5000)
    page.context.close()


def test_an_unknown_game_says_so_in_the_dialog(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.base + "/#how-to-play=chess")
    page.wait_for_selector(f"{DIALOG}[data-loaded=error]", timeout=15000)
    assert "unknown game 'chess'" in page.inner_text(f"{DIALOG} .error")
    box = page.locator(DIALOG).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 5, box["y"] + box["height"] / 2)  # inside the dialog (on its own box): it stays
    assert page.locator(DIALOG).count() == 1
    page.mouse.click(10, 450)  # on the backdrop: it closes
    page.wait_for_selector(DIALOG, state="detached", timeout=5000)
    page.context.close()


def test_the_focus_comes_back_and_the_tables_keys_wait_while_the_guide_is_open(server: Server, browser: Browser) -> None:
    """Opened over a table (here by its link, as the How to play button does by a click), the guide gives the
    focus back to what had it when it closes, and the table's own keys do nothing meanwhile."""
    page = table_page(server, browser, "rummikub", link=False)
    page.wait_for_function("() => document.body.dataset.turn === 'mine'", timeout=20000)
    page.locator("a.home").focus()
    before = page.evaluate("() => document.body.dataset.seq")
    page.evaluate("() => { location.hash += '&how-to-play=rummikub'; }")
    page.wait_for_selector(f"{DIALOG}[data-loaded=true]", timeout=15000)
    page.keyboard.press("d")  # the table's key for draw: not while the guide is open
    page.keyboard.press("Escape")
    page.wait_for_selector(DIALOG, state="detached", timeout=5000)
    assert page.evaluate("() => document.activeElement?.classList.contains('home')")
    assert page.evaluate("() => document.body.dataset.seq") == before and page.evaluate(
        "() => document.body.dataset.turn"
    ) == "mine"
    page.context.close()


@pytest.mark.parametrize("game", ["rummikub", "mummus"])
def test_the_table_pages_button_opens_the_guide_and_gives_the_focus_back(
    server: Server, browser: Browser, game: str
) -> None:
    page = table_page(server, browser, game, link=False)
    button = page.locator("button.howto")
    assert button.count() == 1 and button.is_visible()
    button.click()
    page.wait_for_selector(f"{DIALOG}[data-loaded=true]", timeout=15000)
    assert focus_in_dialog(page) and drawn_melds(page)
    page.keyboard.press("Escape")
    page.wait_for_selector(DIALOG, state="detached", timeout=5000)
    assert page.evaluate("() => document.activeElement?.classList.contains('howto')")
    page.context.close()
