"""Mummus in the browser, played by hand: cards clicked or tapped, the pile taken by a card, melds and add-ons
by tapping, discards by button, key or drag, "Rummy!" when it lights up; counted from 1; axe-clean.

The policy reads the server's list of the seat's legal actions (what any person could read off the
fallback panel) only to decide; every move is made on the board: no typed command, no `.legal-action`
button is clicked."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import (
    SHOTS,
    Server,
    asked,
    axe_violations,
    listed,
    my_turn,
    open_page,
    over,
    ready,
    seq,
    wait_moved,
)

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PERSON_AND_BOT = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}]


def _hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        ".sp-hand [data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    return cards


def _press(page: Page, selector: str, touch: bool) -> None:
    if touch:
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def _select(page: Page, cards: list[str], touch: bool, keyboard: bool = False) -> None:
    """Select exactly these hand cards (they lift), by click/tap or with the arrows and Space."""
    if keyboard:
        hand = _hand(page)
        page.locator(".sp-hand [data-piece]").first.focus()
        at = 0
        for pos in sorted(hand.index(c) for c in cards):
            for _ in range(pos - at):
                page.keyboard.press("ArrowRight")
            at = pos
            page.keyboard.press("Space")
    else:
        for card in cards:
            _press(page, f'.sp-hand [data-piece="{card}"]', touch)
    lifted = page.eval_on_selector_all(".sp-hand .lifted", "els => els.map(e => e.dataset.piece)")
    assert sorted(lifted) == sorted(cards), (lifted, cards)
    assert page.locator('.sp-hand [aria-pressed="true"]').count() == len(cards)


RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _name(card: str) -> str:
    return f"{RANKS.get(card[:-1], card[:-1])} of {SUITS[card[-1]]}"


def _short(card: str) -> str:
    return card[:-1] + {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card[-1]]


def _meld_index(page: Page, card: str) -> int:
    """The 0-based number of the meld holding ``card`` (its data-meld, the view's index)."""
    found: int = page.eval_on_selector_all(
        ".sp-meld",
        "(els, card) => Number(els.find(m => m.querySelector(`[data-piece='${card}']`))?.dataset.meld ?? -1)",
        card,
    )
    assert found >= 0, f"no meld holds {card}"
    return found


def _answer(page: Page, actions: list[dict[str, Any]], touch: bool, made: Counter[str]) -> str:
    """Make one move on the board for this position; the kind of move made. ``made`` counts the moves made
    of each kind: on a desktop, every other one of a kind is made with the keyboard."""
    kinds = {a["type"] for a in actions}

    def by_keys(kind: str) -> bool:
        made[kind] += 1
        return not touch and made[kind] % 2 == 0

    before = seq(page)
    rummy_lit = "lit" in (page.get_attribute("#sp-rummy", "class") or "")
    assert rummy_lit == ("rummy" in kinds), f"Rummy! lit: {rummy_lit}, listed: {kinds}"
    if "rummy" in kinds:
        _press(page, "#sp-rummy", touch)
        if page.locator(".sp-choice").count():
            _press(page, ".sp-choice", touch)
        wait_moved(page, before)
        return "rummy"
    if "meld" in kinds:
        meld = max((a for a in actions if a["type"] == "meld"), key=lambda a: len(a["cards"]))
        keys = by_keys("meld")
        _select(page, meld["cards"], touch, keyboard=keys)
        if keys:
            page.keyboard.press("m")
        else:
            _press(page, "#sp-meld", touch)
        wait_moved(page, before)
        return "meld"
    if "addon" in kinds:
        addon = next(a for a in actions if a["type"] == "addon")
        _select(page, addon["cards"], touch)
        target = _meld_index(page, addon["meld"])
        assert page.locator(f'.sp-meld[data-meld="{target}"].accepts').count() == 1, "the meld is not marked"
        _press(page, f'.sp-meld[data-meld="{target}"]', touch)
        wait_moved(page, before)
        return "addon"
    if asked(page) == "claim":
        _press(page, "#sp-pass", touch)
        deadline = time.monotonic() + 30
        while asked(page) == "claim" and seq(page) == before:
            assert time.monotonic() < deadline, "the pass was not answered"
            time.sleep(0.05)
        return "pass"
    pile: list[str] = page.eval_on_selector_all(
        ".discard [data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    told = page.locator(".sp-lastmove")
    if pile and told.count() and f"discarded {_short(pile[-1])}" in told.inner_text():
        # another player's discard on top of the pile is marked (the page's last-move highlight)
        assert page.locator(".discard .piece.top.last-move").count() == 1, (told.inner_text(), pile)
    takes = [a["card"] for a in actions if a["type"] == "take"]
    deep = [c for c in takes if pile and c != pile[-1]]
    if deep:  # one gesture: the card and every card above it
        card = deep[0]
        count = len(pile) - pile.index(card)
        keys = by_keys("take")
        title = page.get_attribute(f'.discard [data-piece="{card}"]', "title") or ""
        assert f"must then use {_name(card)}" in title, title  # the duty, on hover
        if keys:
            page.focus(".discard .piece.top")
            for _ in range(count - 1):
                page.keyboard.press("ArrowLeft")
            assert page.evaluate("() => document.activeElement.dataset.piece") == card
            assert page.is_visible(".sp-pop") and "must then use" in page.inner_text(".sp-pop")
            page.keyboard.press("Enter")
        else:
            _press(page, f'.discard [data-piece="{card}"]', touch)
        wait_moved(page, before)
        page.wait_for_selector(f'.sp-hand [data-piece="{card}"]')
        assert page.locator(".discard [data-piece]").count() == len(pile) - count
        return "take"
    if "draw" in kinds:
        if by_keys("draw"):
            page.focus(".sp-stock")
            page.keyboard.press("Enter")
        else:
            _press(page, ".sp-stock", touch)
        wait_moved(page, before)
        return "draw"
    if takes:
        _press(page, f'.discard [data-piece="{takes[0]}"]', touch)
        wait_moved(page, before)
        return "take"
    discards = [a["card"] for a in actions if a["type"] == "discard"]
    assert discards, f"nothing this test knows how to do among {actions}"
    card = discards[-1]
    made["discard"] += 1
    way = made["discard"] % 3 if not touch else 0
    if way == 1:  # the keyboard: select with Space, D discards
        _select(page, [card], touch, keyboard=True)
        page.keyboard.press("d")
    elif way == 2:  # drag the card onto the pile
        page.drag_and_drop(f'.sp-hand [data-piece="{card}"]', ".discard")
    else:
        _select(page, [card], touch)
        _press(page, "#sp-discard", touch)
    wait_moved(page, before)
    return "discard"


def _wait_for(page: Page, want: Any, seconds: float = 30) -> list[dict[str, Any]]:
    """Wait for the seat's turn with listed actions that ``want`` accepts (letting chances out of turn pass)."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline and not over(page), "the position was not reached"
        actions = listed(page) if ready(page) and my_turn(page) else []
        if actions and want(actions):
            return actions
        if actions and asked(page) == "claim":
            before = seq(page)
            page.locator("#sp-pass").first.click()
            wait_moved(page, before)
        time.sleep(0.05)


def _long_press(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    page.wait_for_selector(".sp-pop:not([hidden])", timeout=5000)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _play(page: Page, touch: bool, until_over: bool, moves: int, seconds: float) -> list[str]:
    done: list[str] = []
    made: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    while not (until_over and over(page)) and (until_over or len(done) < moves):
        assert time.monotonic() < deadline, f"after {len(done)} moves: {done[-12:]}"
        if over(page) or not (ready(page) and my_turn(page)):
            time.sleep(0.05)
            continue
        actions = listed(page)
        if not actions:
            time.sleep(0.05)
            continue
        done.append(_answer(page, actions, touch, made))
    return done


def test_a_whole_round_against_a_bot_by_clicks_and_keys(server: Server, browser: Browser) -> None:
    created = server.table("mummus", PERSON_AND_BOT, seed=4, target=0, max_turns=40)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.set_viewport_size({"width": 1280, "height": 800})
    done = _play(page, touch=False, until_over=True, moves=0, seconds=85)
    print("moves", done)
    assert over(page)
    assert {"draw", "discard"} <= set(done), done
    assert page.locator(".sheet:not([hidden])").count() == 1, "the round's score sheet is shown"
    page.screenshot(path=str(SHOTS / "mummus-round-desktop.png"))
    assert page.locator(".status.error").count() == 0
    page.context.close()


def test_several_turns_on_a_phone_by_touch(server: Server, browser: Browser) -> None:
    created = server.table("mummus", PERSON_AND_BOT, seed=9, target=0)
    page = open_page(browser, server.base + created["seats"][0]["invite"], phone=True)
    assert page.locator(".sp-keys").count() == 0, "no keyboard hints on a touch screen"
    # the hand fits its box (or scrolls inside it) and the actions are next to it, in the first screen
    hand = page.locator(".sp-hand").bounding_box()
    meld = page.locator("#sp-meld").bounding_box()
    assert hand and meld
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= 390
    assert abs(meld["y"] - hand["y"]) < 200
    # a gesture that matches no listed action is refused in the server's words: a discard before the draw
    _wait_for(page, lambda actions: any(a["type"] == "draw" for a in actions))
    card = _hand(page)[0]
    _select(page, [card], touch=True)
    page.locator("#sp-discard").tap()
    page.wait_for_selector(".status.error")
    assert "Cannot discard" in page.inner_text(".status") and "draw" in page.inner_text(".status")
    page.locator(f'.sp-hand [data-piece="{card}"]').tap()  # unselect: the message goes
    assert page.locator(".status.error").count() == 0
    done = _play(page, touch=True, until_over=False, moves=8, seconds=70)
    assert done.count("discard") >= 2, done
    # a long press on a pile card tells what taking it obliges you to do
    _wait_for(page, lambda actions: any(a["type"] == "draw" for a in actions))
    assert page.locator(".discard .piece").count() >= 2, "this seed's pile holds cards by now"
    _long_press(page, ".discard .piece >> nth=0")
    assert page.is_visible(".sp-pop") and "must then use" in page.inner_text(".sp-pop")
    page.screenshot(path=str(SHOTS / "mummus-turns-phone.png"))
    assert page.locator(".status.error").count() == 0
    page.context.close()


def test_numbers_count_from_one_against_the_view_and_axe_is_clean(server: Server, browser: Browser) -> None:
    created = server.table("mummus", PERSON_AND_BOT, seed=4, target=0, max_turns=40)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    views: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        data = json.loads(payload)
        if data.get("type") == "state":
            views.append(data["view"])

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.reload()
    page.wait_for_selector("body[data-conn=open]")
    # play until the pile and the table both hold several cards
    deadline = time.monotonic() + 80
    while True:
        assert time.monotonic() < deadline, "no pile of 2 cards and a meld in time"
        assert not over(page), "the round ended first"
        actions = listed(page) if ready(page) and my_turn(page) else []
        if not actions or not views:
            time.sleep(0.05)
            continue
        if len(views[-1]["discard"]) >= 2 and views[-1]["melds"]:
            break
        _answer(page, actions, False, Counter())
    view = views[-1]
    pile = page.eval_on_selector_all(
        ".discard [data-piece]",
        "els => els.map(e => [e.dataset.piece, e.querySelector('.pile-no').textContent, e.getAttribute('aria-label')])",
    )
    assert [p for p, _, _ in pile] == view["discard"]
    for n, (_card, number, label) in enumerate(pile, start=1):
        assert number == str(n), pile
        assert f"card {n} of the pile" in label, label
    melds = page.eval_on_selector_all(
        ".sp-meld",
        "els => els.map(e => [e.querySelector('.meld-no').textContent, e.getAttribute('aria-label')])",
    )
    assert len(melds) == len(view["melds"])
    for n, (number, label) in enumerate(melds, start=1):
        assert number == str(n) and label.startswith(f"meld {n}: "), melds
    # the owner tags name the whole seat name
    owners = page.eval_on_selector_all(".sp-owner", "els => els.map(e => e.textContent)")
    assert owners and set(owners) <= set(view["players"]), owners
    hand = page.eval_on_selector_all(
        ".sp-hand [data-piece]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert hand and all(label.endswith(f"card {n} of your hand") for n, label in enumerate(hand, start=1)), (
        hand
    )
    # no visible number on the pile or the melds is a 0
    shown = page.eval_on_selector_all(".pile-no, .meld-no", "els => els.map(e => e.textContent.trim())")
    assert "0" not in shown
    assert axe_violations(page) == []
    page.context.close()
