"""Conveyor played in a real browser on the board only: taps, clicks, drags and keys on the columns, the
hand and the melds (never the typed command box nor the fallback list of moves, ``.legal-action``).

A whole round against a bot at desktop size (with the keyboard for some moves), a few turns with touch
at phone size, a scan that no column or meld number on the page counts from 0, and axe on the table.
The test's own policy is a plain player's: lay down the largest meld the hand holds, lay off what fits a
highlighted meld end, else draw and discard.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import pytest
from browser_support import (
    SHOTS,
    Server,
    axe_violations,
    finger_line,
    my_turn,
    open_page,
    over,
    seq,
    shot,
    wait_moved,
)

from rummykit.pieces.dominoes import Domino
from rummykit.rulesets.conveyor.options import rules_for

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

BOT = {"kind": "bot", "level": "greedy"}


def _watch_fallback(page: Page) -> None:
    """Count every use of the fallback panel (a listed move's button, the command box): none is allowed."""
    page.evaluate(
        """() => { window.__fallback = 0;
        document.addEventListener('click', e => { if (e.target.closest('.legal-action, .command')) window.__fallback++; }, true);
        document.addEventListener('keydown', e => { if (e.target.closest && e.target.closest('.command')) window.__fallback++; }, true); }"""
    )


def _round_over(page: Page) -> bool:
    """The round has ended: the score sheet is up (a next round may have started already behind it)."""
    return over(page) or page.locator(".sheet:not([hidden])").count() > 0


def _phase(page: Page) -> str:
    return str(page.get_attribute(".cv-prompt", "data-phase") or "")


def _wait_mine(page: Page, deadline: float) -> bool:
    """Wait for the seat's turn (with the board drawn for it); False when the round is over."""
    while not _round_over(page):
        assert time.monotonic() < deadline, "the seat's turn did not come in time"
        if my_turn(page) and page.get_attribute(".cv-prompt", "data-mine") == "true":
            return True
        time.sleep(0.05)
    return False


def _hand(page: Page) -> list[str]:
    hand: list[str] = page.eval_on_selector_all(".cv-hand [data-hand]", "els => els.map(e => e.dataset.hand)")
    return hand


def _tap(page: Page, selector: str, touch: bool) -> None:
    loc = page.locator(selector).first
    loc.scroll_into_view_if_needed()
    if touch:
        loc.tap()
    else:
        loc.click()


def _act(page: Page, selector: str, touch: bool = False) -> None:
    """A gesture the server answers: wait for the next state (a refusal fails with its words)."""
    before = seq(page)
    _tap(page, selector, touch)
    try:
        wait_moved(page, before)
    except AssertionError as exc:
        page.screenshot(path=str(SHOTS / "conveyor-failed.png"), full_page=True)
        raise AssertionError(f"{exc}; after {selector}: {page.inner_text('.cv-prompt')!r}") from None


def _select(page: Page, dominoes: list[str], touch: bool) -> None:
    for d in dominoes:
        _tap(page, f'.cv-hand [data-hand="{d}"]', touch)
        page.wait_for_selector(f'.cv-hand [data-hand="{d}"][aria-pressed="true"]', timeout=5000)


def _finger_drag(page: Page, source: str, target: str) -> None:
    """Drag with one finger (CDP touch events), from one element to the middle of another."""
    src = page.locator(source).first
    src.scroll_into_view_if_needed()
    a = src.bounding_box()
    dst = page.locator(target).first
    b = dst.bounding_box()
    assert a and b, f"{source} or {target} is not on the page"
    centre = (a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    finger_line(page, centre, (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))


def _mouse_drag(page: Page, source: str, target: str) -> None:
    a = page.locator(source).first.bounding_box()
    b = page.locator(target).first.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def _focused_key(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement?.dataset?.key ?? ''"))


def _select_round(page: Page, touch: bool, revealed: list[int]) -> None:
    """The selection round: turn one domino up, then claim the first column offered."""
    if not revealed:
        cell = page.locator("button.cv-cell.can").first
        key = str(cell.get_attribute("data-key"))
        _, column, index = key.split(":")
        _act(page, f'[data-key="{key}"]', touch)
        # that domino is face up now (unless the bot has claimed its column since)
        shown = page.evaluate(
            """([c, i]) => { const col = document.querySelector(`.cv-col[data-column="${c}"]`);
            return col.classList.contains('claimed') ? null : col.querySelector(`[data-cell="${i}"] [data-piece]`).dataset.piece; }""",
            [column, index],
        )
        assert shown != "??", "the tapped domino is still face down"
        revealed.append(1)
    else:
        _act(page, "button.cv-claim", touch)


def _draw(page: Page, touch: bool, keyboard: bool) -> None:
    """Draw from a highlighted end: a face-up one when there is one, else the first; or with the keys."""
    hand = len(_hand(page))
    if keyboard:
        page.locator(".cv-prompt").click()  # the focus leaves any button; the arrows then enter the board
        page.keyboard.press("ArrowDown")
        first = _focused_key(page)
        assert first.startswith("cell:"), f"the arrow did not reach the columns: {first!r}"
        page.keyboard.press("ArrowRight")
        second = _focused_key(page)
        assert second.startswith("cell:") and second != first, "the arrow did not move along the columns"
        # the cell reached may be the middle of a column (not an end): go up the column to its lit top end,
        # or down to its bottom one, as a person would
        lit = "() => !!document.activeElement?.classList.contains('can')"
        for key in ["ArrowUp"] * 20 + ["ArrowDown"] * 40:
            if page.evaluate(lit):
                break
            page.keyboard.press(key)
        assert page.evaluate(lit), f"no lit end reached by the arrows from {second!r}: {_focused_key(page)!r}"
        before = seq(page)
        page.keyboard.press("Enter")
        wait_moved(page, before)
    else:
        up = "button.cv-cell.can:has([data-piece]:not([data-piece='??']))"
        _act(page, up if page.locator(up).count() else "button.cv-cell.can", touch)
    page.wait_for_selector(".cv-slot[data-drop=discard]", timeout=10000)
    assert len(_hand(page)) == hand + 1


def _meld_and_lay_off(page: Page, touch: bool) -> int:
    """Lay down the largest meld the hand holds, then lay off what fits; how many dominoes went down."""
    laid = 0
    rules = rules_for(9)
    while _phase(page) == "play" and my_turn(page):
        hand = _hand(page)
        melds = rules.hand_melds([Domino.parse(d) for d in hand])
        if not melds:
            break
        best = [str(d) for d in max(melds, key=len)]
        _select(page, best, touch)
        assert page.locator("#cv-meld.ready").count() == 1, f"the board does not offer the meld {best}"
        count = page.locator(".cv-meld").count()
        _act(page, "#cv-meld", touch)
        assert page.locator(".cv-meld").count() == count + 1
        laid += len(best)
    for d in _hand(page):
        if not (_phase(page) == "play" and my_turn(page)) or len(_hand(page)) <= 1:
            break
        _select(page, [d], touch)
        if page.locator(".cv-meld-end.can").count():
            _act(page, ".cv-meld-end.can", touch)
            assert d not in _hand(page)
            laid += 1
        else:
            _tap(page, f'.cv-hand [data-hand="{d}"]', touch)  # unselect it again
    return laid


def _discard(page: Page, turn: int, touch: bool, keyboard: bool) -> None:
    """Discard a domino that is in no meld: by a drag, by select + tap on the end, or with the keys."""
    hand = _hand(page)
    loose = page.eval_on_selector_all(
        ".cv-hand [data-hand]:not(.meldable)", "els => els.map(e => e.dataset.hand)"
    )
    piece = (loose or hand)[0]
    source = f'.cv-hand [data-hand="{piece}"]'
    before = seq(page)
    if keyboard:
        page.locator(source).focus()
        page.keyboard.press("Space")
        page.wait_for_selector(f'{source}[aria-pressed="true"]', timeout=5000)
        for _ in range(8):  # back through the tab stops to the discard end
            if _focused_key(page) == "discard":
                break
            page.keyboard.press("Shift+Tab")
        assert _focused_key(page) == "discard", "Shift+Tab did not reach the discard end"
        page.keyboard.press("Enter")
    elif turn % 2 == 0:
        (_finger_drag if touch else _mouse_drag)(page, source, ".cv-slot[data-drop=discard]")
    else:
        _select(page, [piece], touch)
        _tap(page, ".cv-slot[data-drop=discard]", touch)
    wait_moved(page, before)
    if not _round_over(page):
        assert piece not in _hand(page), f"{piece} is still in the hand"


def _turn(page: Page, turn: int, touch: bool, revealed: list[int]) -> None:
    phase = _phase(page)
    if phase == "select":
        _select_round(page, touch, revealed)
        return
    keyboard = not touch and turn % 3 == 1
    if phase == "draw":
        _draw(page, touch, keyboard)
    if _phase(page) == "play":
        _meld_and_lay_off(page, touch)
        if my_turn(page) and _phase(page) == "play" and not _round_over(page):
            _discard(page, turn, touch, keyboard)


def _no_count_from_zero(page: Page) -> None:
    """Every column and meld number a person reads is the view's number plus 1, and none reads 0."""
    cols = page.eval_on_selector_all(
        ".cv-col",
        "els => els.map(e => [Number(e.dataset.column), e.querySelector('.cv-col-no').textContent, e.getAttribute('aria-label')])",
    )
    assert cols, "no column drawn"
    for index, text, label in cols:
        assert text == f"column {index + 1}", (index, text)
        assert label.startswith(f"column {index + 1}"), (index, label)
    melds = page.eval_on_selector_all(
        ".cv-meld",
        "els => els.map(e => [Number(e.dataset.meld), e.querySelector('.cv-meld-no').textContent, e.getAttribute('aria-label')])",
    )
    for index, text, label in melds:
        assert text == str(index + 1), (index, text)
        assert label.startswith(f"meld {index + 1}:"), (index, label)
    labels = page.eval_on_selector_all(
        ".board [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    words = page.inner_text(".board") + "\n" + "\n".join(labels)
    assert not re.search(r"\b(column|meld|seat) 0\b", words), "a number counted from 0 on the board"


def _status(page: Page) -> str:
    page.wait_for_selector(".status.error", timeout=10000)
    return page.inner_text(".status")


def _refusals_are_explained(page: Page, deadline: float) -> None:
    """Gestures that match no listed action are answered in words, nothing is sent: a face-down domino
    in the middle of a conveyor, the discard end with nothing selected, Meld with too few, a meld end
    that does not take the selected domino (the server's own words, from a check)."""
    assert _wait_mine(page, deadline) and _phase(page) == "draw"
    middle = "button.cv-cell:not(.can)"
    if page.locator(middle).count():
        _tap(page, middle, False)
        assert "Draw from a highlighted end" in _status(page)
    _draw(page, touch=False, keyboard=False)
    drawn = seq(page)
    _tap(page, ".cv-slot", False)
    assert "tap the domino to discard" in _status(page)
    _tap(page, "#cv-meld", False)
    assert "3 or more" in _status(page)
    piece = _hand(page)[0]
    _select(page, [piece], False)
    if page.locator(".cv-meld-end:not(.can)").count():
        _tap(page, ".cv-meld-end:not(.can)", False)
        page.wait_for_function(
            "() => /meld/.test(document.querySelector('.status.error')?.textContent ?? '')"
        )
        assert piece in page.inner_text(".status")
    assert seq(page) == drawn, "a refused gesture was sent as a move"
    assert piece in _hand(page)


def test_a_whole_round_against_a_bot_on_the_board(server: Server, browser: Browser) -> None:
    created = server.table("conveyor", [{"kind": "person", "name": "Ann"}, BOT], seed=3)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.set_viewport_size({"width": 1280, "height": 800})
    _watch_fallback(page)
    deadline = time.monotonic() + 85
    revealed: list[int] = []
    turn = 0
    checked = False
    while _wait_mine(page, deadline):
        _turn(page, turn, touch=False, revealed=revealed)
        turn += 1
        if not checked and page.locator(".cv-meld").count() and not _round_over(page):
            _no_count_from_zero(page)
            checked = True
    assert _round_over(page), "the round did not end"
    assert page.locator(".sheet h2").inner_text() in {"Round over", "Match over"}
    assert page.evaluate("() => window.__fallback") == 0, "the move list or the command box was used"
    page.screenshot(path=str(SHOTS / "conveyor-round-end.png"))
    page.context.close()


def test_the_other_players_last_move_is_marked_and_numbers_count_from_1(
    server: Server, browser: Browser
) -> None:
    created = server.table("conveyor", [{"kind": "person", "name": "Ann"}, BOT], seed=3)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.set_viewport_size({"width": 1280, "height": 800})
    deadline = time.monotonic() + 60
    revealed: list[int] = []
    turn = 0
    while turn < 8 and _wait_mine(page, deadline):
        last = page.evaluate("() => document.body.dataset.seq")
        _turn(page, turn, touch=False, revealed=revealed)
        turn += 1
        if _wait_mine(page, deadline) and _phase(page) in ("draw", "select") and last:
            # the bot moved since: what it changed on the board is marked
            if _phase(page) == "draw":
                assert page.locator(".board .last-move").count() >= 1, "the bot's last move is not marked"
            _no_count_from_zero(page)
    _refusals_are_explained(page, deadline)
    shot(page, "conveyor")
    assert axe_violations(page) == []
    page.context.close()


def test_a_few_turns_with_touch_on_a_phone(server: Server, browser: Browser) -> None:
    created = server.table("conveyor", [{"kind": "person", "name": "Ann"}, BOT], seed=5)
    page = open_page(browser, server.base + created["seats"][0]["invite"], phone=True)
    assert page.locator(".cv-keys").count() == 0, "keyboard hints on a touch screen"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    deadline = time.monotonic() + 80
    revealed: list[int] = []
    turn = 0
    played = 0
    while played < 4 and _wait_mine(page, deadline):
        if _phase(page) == "draw":
            played += 1
        _turn(page, turn, touch=True, revealed=revealed)
        turn += 1
    assert played >= 3 or _round_over(page)
    _wait_mine(page, deadline)
    # the hand is close to the columns: its top is within the first screen and a half
    top = page.evaluate(
        "() => document.querySelector('.cv-hand').getBoundingClientRect().top + window.scrollY"
    )
    assert top < 844, f"the hand starts {top}px down the page"
    page.screenshot(path=str(SHOTS / "conveyor-phone.png"), full_page=True)
    assert axe_violations(page) == []
    page.context.close()


def test_the_jump_in_prompt_offers_the_discard_and_lets_it_pass(server: Server, browser: Browser) -> None:
    created = server.table("conveyor", [{"kind": "person", "name": "Ann"}, BOT, BOT], seed=2, jump_ins=True)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    deadline = time.monotonic() + 80
    revealed: list[int] = []
    turn = 0
    while _wait_mine(page, deadline):
        if page.locator(".cv-jump .cv-pass").count():
            break
        _turn(page, turn, touch=False, revealed=revealed)
        turn += 1
    prompt = page.inner_text(".cv-jump")
    piece = page.get_attribute(".cv-jump [data-piece]", "data-piece")
    assert "Jump in and take it?" in prompt and page.locator(".cv-take").count() >= 1
    before = seq(page)
    page.click(".cv-pass")
    wait_moved(page, before)
    # that offer is answered: its prompt is gone (a later discard may open a new one)
    page.wait_for_function(
        """p => { const d = document.querySelector('.cv-jump [data-piece]');
        return !d || d.dataset.piece !== p || !document.querySelector('.cv-jump .cv-pass'); }""",
        arg=piece,
        timeout=10000,
    )
    page.context.close()
