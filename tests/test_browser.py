"""End-to-end tests in a real browser: Playwright drives Debian's chromium against a real server process.

Two browser contexts play a whole ``rummikub`` game against each other and a bot, placing pieces by
dragging them (and once with the keyboard); every other game is played for a few turns. Screenshots go
to ``docs/images/online-*.png`` (shown in docs/online.md) when they are missing there or
``RUMMYKIT_SCREENSHOTS=1`` is set, else to a temporary folder. Run only these with ``pytest -m browser``.

Without ``/usr/bin/chromium`` the tests are skipped with the reason shown, except under ``CI=true``,
where they fail (``make chromium`` installs it). No browser is ever downloaded.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import (
    Server,
    asked,
    draft_sets,
    drag,
    drag_play,
    get_json,
    keyboard_play,
    let_pass,
    listed,
    listed_on_my_turn,
    my_turn,
    open_page,
    over,
    post_json,
    ready,
    seq,
    shot,
    wait_moved,
)

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


# ---- the tests -----------------------------------------------------------------------------------------


def test_lobby_opens_a_table_with_invite_links(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#create-table")
    games = {g["id"] for g in get_json(server.base + "/api/games")}
    offered = set(page.eval_on_selector_all("#game option", "els => els.map(e => e.value)"))
    assert offered == games
    page.select_option("#game", "rummikub")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.select_option("#seat-1-kind", "person")  # a custom table's other seats start as the computer
    page.select_option("#seat-2-kind", "bot:greedy")
    page.fill("#seed", "15")
    page.click("#create-table")
    page.wait_for_url("**/t/**")  # creating a table opens it; the lobby keeps its invite links for the host
    page.goto(server.base + "/")
    page.wait_for_selector(".created .invite")
    links = page.eval_on_selector_all(".created .invite", "els => els.map(e => e.value)")
    assert len(links) == 2 and all("#seat=" in link and "token=" in link for link in links)
    table = page.get_attribute(".created", "data-table")
    page.wait_for_selector(f'.table-list [data-table="{table}"]')
    shot(page, "lobby", full=True)
    # a refused option comes back as the game's own message, not a traceback
    page.click("details summary")
    page.fill("#opt-jokers", "9")
    page.click("#create-table")
    page.wait_for_selector(".lobby .status.error")
    assert "jokers" in page.inner_text(".lobby .status.error")
    page.context.close()
    # on a phone-sized screen nothing sticks out sideways
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    phone.goto(server.base + "/")
    phone.wait_for_selector("#create-table")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    phone.context.close()


def test_two_people_and_a_bot_play_rummikub_to_the_end(server: Server, browser: Browser) -> None:
    created = server.table(
        "rummikub",
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "person", "name": "Bob"},
            {"kind": "bot", "level": "greedy"},
        ],
        seed=15,
        jokers=0,
        initial_meld_points=0,
    )
    invites = [s["invite"] for s in created["seats"] if s["invite"]]
    ann = open_page(browser, server.base + invites[0])
    # the table waits until every person has opened their link
    ann.wait_for_selector(".legal:has-text('Waiting for every player')")
    pages = [ann, open_page(browser, server.base + invites[1], phone=True)]
    ann.wait_for_selector(".facts:not(:has-text('waiting'))")
    watcher = open_page(browser, server.base + created["watch"])
    assert watcher.locator(".rack [data-piece]").count() == 0, "a spectator must see no rack"
    assert pages[0].locator(".rack [data-piece]").count() == 14

    dragged = keyed = listed_plays = draws = 0
    shown_invalid = moved_between_sets = False
    dragged_by = [0, 0]  # the second page drags with a finger (touch events), the first with the mouse
    deadline = time.monotonic() + 900
    while not all(over(p) for p in pages):
        assert time.monotonic() < deadline, "the game did not finish in 15 minutes"
        page = next((p for p in pages if my_turn(p)), None)
        if page is None:
            time.sleep(0.05)
            continue
        plays = [a for a in listed(page) if a["type"] == "play"]
        if not shown_invalid and page is pages[0]:
            # one piece alone on the table: the server marks the set invalid, with its rule and reason
            first = page.locator(".rack [data-piece]").first.get_attribute("data-piece")
            assert first
            drag(page, first, "new")
            page.wait_for_selector(".set.bad .reason")
            assert page.inner_text(".set.bad .reason").strip().split(":")[0], "the reason names a rule"
            shot(page, "rummikub-invalid")
            page.click("#undo")
            assert page.locator(".set .placed").count() == 0
            shown_invalid = True
            # a piece already on the table moves between sets the same way; Reset puts the table back
            sets = draft_sets(page)
            if sets:
                taken = page.locator('[data-drop="set:0"] [data-piece]').first
                taken.drag_to(page.locator('[data-drop="new"]'))
                page.wait_for_selector(".verdict.ok, .verdict.bad")
                after = draft_sets(page)
                assert after != sets and Counter(p for s in after for p in s) == Counter(
                    p for s in sets for p in s
                )
                page.click("#reset")
                assert draft_sets(page) == sets
                moved_between_sets = True
        if plays:
            best = max(plays, key=lambda a: len(a["placed"]))
            if page is pages[1] and keyed == 0 and keyboard_play(page, best):
                keyed += 1
            elif drag_play(page, best):
                dragged += 1
                dragged_by[pages.index(page)] += 1
                if dragged == 3:
                    shot(pages[0], "rummikub")
                    shot(pages[1], "rummikub-phone-full", full=True)
                    assert pages[1].evaluate("() => document.documentElement.scrollWidth") <= 390
            else:
                before = seq(page)
                page.locator(".legal-action").nth(listed(page).index(best)).click()
                wait_moved(page, before)
                listed_plays += 1
        else:
            before = seq(page)
            # draw when the server lists it (an empty pool lists pass instead)
            if any(a["type"] == "draw" for a in listed(page)):
                page.click("#draw")
                draws += 1
            else:
                page.locator(".legal-action").first.click()
            wait_moved(page, before)
    for page in pages:
        page.wait_for_selector(".sheet:not([hidden])")
        assert "over" in page.inner_text(".sheet h2").lower()
    shot(pages[0], "score")
    final = [p.evaluate("() => document.body.dataset.seq") for p in [*pages, watcher]]
    assert len(set(final)) == 1, "every page ends on the same state"
    assert dragged >= 3 and keyed == 1 and moved_between_sets, (dragged, keyed, listed_plays, draws)
    assert all(dragged_by), f"each page made plays by dragging: {dragged_by}"
    watcher.wait_for_selector("body[data-over=true]")
    for page in [*pages, watcher]:
        page.context.close()


def _a_few_turns(server: Server, browser: Browser, game: str, seed: int, turns: int, **options: Any) -> Page:
    created = server.table(
        game, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "random"}], seed=seed, **options
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    done = 0
    deadline = time.monotonic() + 120
    while done < turns and not over(page):
        assert time.monotonic() < deadline, f"{game}: {done} turns in 2 minutes"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        actions = listed_on_my_turn(page)
        before = seq(page)
        plays = [a for a in actions if a["type"] == "play"]
        if (
            game == "domino-rummikub"
            and plays
            and drag_play(page, max(plays, key=lambda a: len(a["placed"])))
        ):
            pass
        elif game == "two-tray" and plays:
            play = max(plays, key=lambda a: len(a["changes"]))
            for change in play["changes"]:
                cell, tile = change.split("=")
                page.locator(
                    f'.tray[data-tray="{play["tray"]}"] [data-piece="{tile}"]:not(.used)'
                ).first.click()
                page.click(f'[data-cell="{cell}"]')
            page.wait_for_selector(".grid-table .verdict:has-text('accept')", timeout=15000)
            page.click("#tt-play")
            wait_moved(page, before)
        else:
            assert actions, f"{game}: the server listed nothing on the seat's turn"
            # prefer an action that lays pieces down, so the screenshot shows a table in play
            rank = {"meld": 0, "play": 0, "layoff": 1, "addon": 1, "take": 2, "claim": 3, "discard": 4}
            choice = min(actions, key=lambda a: rank.get(a["type"], 5))
            page.locator(".legal-action").nth(actions.index(choice)).click()
            wait_moved(page, before)
        done += 1
    assert done == turns or over(page)
    return page


@pytest.mark.parametrize(
    ("game", "seed", "turns", "options"),
    [
        ("domino-rummikub", 3, 4, {}),
        ("conveyor", 2, 6, {}),
        ("two-tray", 5, 4, {"initial_meld_points": 0}),
        ("mummus", 4, 6, {}),
    ],
)
def test_a_few_turns_of_each_other_game(
    server: Server, browser: Browser, game: str, seed: int, turns: int, options: dict[str, Any]
) -> None:
    page = _a_few_turns(server, browser, game, seed, turns, **options)
    assert page.locator(".board .piece").count() > 0, "the table is drawn"
    assert page.locator(".log li").count() >= turns
    shot(page, game)
    page.context.close()


def test_the_score_sheet_after_a_round_and_the_next_round(server: Server, browser: Browser) -> None:
    created = server.table(
        "domino-rummikub",
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}],
        seed=3,
        target=50,
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    deadline = time.monotonic() + 300
    while page.locator(".sheet:not([hidden])").count() == 0:
        assert time.monotonic() < deadline, "the first round did not end in 5 minutes"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        actions = listed_on_my_turn(page)
        plays = [a for a in actions if a["type"] == "play"]
        if not (plays and drag_play(page, max(plays, key=lambda a: len(a["placed"])))):
            before = seq(page)
            page.locator(".legal-action").first.click()
            wait_moved(page, before)
    sheet = page.locator(".sheet")
    assert sheet.locator("h2").inner_text() in {"Round over", "Match over"}
    page.wait_for_function("() => document.querySelectorAll('.sheet table.scores tbody tr').length >= 2")
    first_round = sheet.locator("table.scores tbody tr").first.inner_text().split()
    assert first_round[0] == "1" and len(first_round) == 3, first_round
    if sheet.locator("h2").inner_text() == "Round over":
        page.wait_for_function("() => /round 2/.test(document.querySelector('.facts').textContent)")
    sheet.locator("button").click()
    assert page.locator(".sheet:not([hidden])").count() == 0
    page.context.close()


MY_TURN = (
    "() => document.body.dataset.legalSeq === document.body.dataset.seq && document.body.dataset.turn === 'mine'"
)
"""The page shows the newest state, the seat's actions for it, and that it is the seat's turn (as ``my_turn``)."""


def test_hint_shows_the_servers_lines(server: Server, browser: Browser) -> None:
    created = server.table(
        "rummikub", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}], seed=1
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    # the bot plays first with this seed: wait for Ann's turn (on a loaded machine the page may open before its move)
    page.wait_for_function(MY_TURN, timeout=60_000)
    # the first hint may wait for the solver's one-time compilation (make test warms it up first)
    page.click("#hint")
    page.wait_for_selector(".hint li", timeout=240_000)
    assert page.inner_text(".hint li").startswith("hint")
    page.context.close()


def test_mummus_numbers_the_pile_and_the_command_box_takes_by_number(
    server: Server, browser: Browser
) -> None:
    """The pile and melds are numbered from 1 as in the terminal; `take N` typed in the command box takes
    card N (the line prompt's form), the log draws the card, and mummus (its strong bot advises) shows a hint button."""
    created = server.table(
        "mummus", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "random"}], seed=7, target=0
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no card to take from the pile in 2 minutes"
        assert not over(page), "the round ended before a take was listed"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        if asked(page) == "claim":  # a call or an add-on out of turn: not what this test is about
            let_pass(page)
            continue
        actions = listed_on_my_turn(page)
        takes = [a for a in actions if a["type"] == "take"]
        if takes:
            break
        # draw, then throw a card back, from the list
        choice = next(a for a in actions if a["type"] in ("draw", "discard"))
        before = seq(page)
        page.locator(".legal-action").nth(actions.index(choice)).click()
        wait_moved(page, before)
    spread: list[list[str]] = page.eval_on_selector_all(
        ".discard [data-piece]", "els => els.map(e => [e.dataset.number, e.querySelector('sub').textContent])"
    )
    assert spread and all(a == b == str(n) for n, (a, b) in enumerate(spread, start=1)), spread
    assert "take CARD or take N" in page.inner_text(".pile-table")
    numbers = page.eval_on_selector_all(".meld-no", "els => els.map(e => e.textContent.split(':')[0])")
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers
    pile: list[str] = page.eval_on_selector_all(
        ".discard [data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    card = takes[0]["card"]
    before = seq(page)
    page.fill("#command", f"take {pile.index(card) + 1}")
    page.press("#command", "Enter")
    wait_moved(page, before)
    page.wait_for_selector(f'.rack.hand [data-piece="{card}"]', timeout=15000)
    assert any(
        f"takes {card}" in line
        for line in page.eval_on_selector_all(".log li", "els => els.map(e => e.dataset.line)")
    )
    assert page.locator(f'.log li [data-piece="{card}"]').count() >= 1, "the log draws the card"
    # mummus's hint is its strong bot's advice: the hint button is there
    assert page.locator("#hint").count() == 1
    assert page.locator(".status.error").count() == 0
    page.context.close()


def test_a_chance_out_of_turn_waits_for_the_person_who_may_let_it_pass(
    server: Server, browser: Browser
) -> None:
    """Against bots, a mummus call or add-on is offered as at the terminal: the table waits, the page shows
    "Let it pass" next to the listed chances, and the P key or the button sends the pass; the game goes on."""
    created = server.table(
        "mummus",
        [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"},
        ],
        seed=5,
        target=0,
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    passes = 0
    deadline = time.monotonic() + 180
    while passes < 2:
        assert time.monotonic() < deadline, f"{passes} chances out of turn in 3 minutes"
        assert not over(page), "the game ended before the person was asked twice"
        if not ready(page) or not asked(page):
            time.sleep(0.05)
            continue
        if asked(page) == "claim":
            chances = listed_on_my_turn(page)
            assert chances and {a["type"] for a in chances} <= {"addon", "rummy"}, chances
            assert page.locator("#let-pass").is_visible()
            assert "out of turn" in page.inner_text(".chance")
            before = seq(page)
            time.sleep(0.5)
            assert seq(page) == before and asked(page) == "claim", "the bots did not wait for the person"
            if passes == 0:
                shot(page, "mummus-let-it-pass")
            let_pass(page, key=passes == 1)
            passes += 1
            continue
        actions = listed_on_my_turn(page)
        choice = next(a for a in actions if a["type"] in ("draw", "discard"))
        before = seq(page)
        page.locator(".legal-action").nth(actions.index(choice)).click()
        wait_moved(page, before)
    assert page.locator(".status.error").count() == 0
    page.context.close()


def test_the_turn_clock_is_shown(server: Server, browser: Browser) -> None:
    created = post_json(
        server.base + "/api/tables",
        {
            "game": "mummus",
            "options": {},
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "greedy"}],
            "seed": 2,
            "clock": 120,
        },
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.wait_for_function("() => /\\d+s/.test(document.querySelector('.clock')?.textContent ?? '')")
    left = int(page.inner_text(".clock").split()[-1].rstrip("s"))
    assert 0 < left <= 120
    page.context.close()


def test_the_page_reconnects_after_the_server_restarts(browser: Browser, tmp_path: Path) -> None:
    srv = Server(tmp_path / "tables.db")
    srv.start()
    try:
        created = srv.table(
            "rummikub", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}], seed=1
        )
        page = open_page(browser, srv.base + created["seats"][0]["invite"])
        # Ann's turn (the bot plays first with this seed and may not have moved when the page opens): from
        # here nothing can be played but by her, so the state must come back unchanged after the restart
        page.wait_for_function(MY_TURN, timeout=60_000)
        before = seq(page)
        lines = page.locator(".log li").count()
        srv.stop()
        page.wait_for_selector(".banner.reconnecting", timeout=15000)
        assert "reconnecting" in page.inner_text(".banner")
        shot(page, "reconnecting")
        srv.start()
        page.wait_for_selector("body[data-conn=open]", timeout=30000)
        page.wait_for_selector(".banner.open", state="attached")
        assert seq(page) == before, "nothing was played while the server was down"
        # the log is told once, not again after the reconnect
        page.wait_for_function(f"() => document.querySelectorAll('.log li').length === {lines}")
        # the token kept in this browser's storage opens the seat without the link's fragment
        page.goto(srv.base + f"/t/{created['table']}")
        page.wait_for_selector("body[data-conn=open]")
        assert page.locator(".rack [data-piece]").count() > 0
        page.context.close()
    finally:
        srv.stop()


# ---- the free-table games by gestures only, on a desktop and on a phone ----------------------------------

# a number a person reads, counted from 0: "seat 0", "set 0"... (every number a person sees counts from 1)
FROM_ZERO = re.compile(r"\b(seat|set|player|column|row|cell|meld|round|turn)\s+0\b", re.IGNORECASE)


def counted_from_one(page: Page) -> None:
    """No text a person sees counts from 0, and the numbers of seats and sets are 1..n in order."""
    text = page.evaluate("() => document.body.innerText")
    assert not FROM_ZERO.search(text), FROM_ZERO.search(text)
    seats = page.eval_on_selector_all(".seat-chip .no", "els => els.map(e => e.textContent)")
    assert seats == [str(n) for n in range(1, len(seats) + 1)] and seats, seats
    sets = page.eval_on_selector_all(".set-no", "els => els.map(e => e.textContent)")
    assert sets == [str(n) for n in range(1, len(sets) + 1)], sets
    labels = page.eval_on_selector_all("[data-set]", "els => els.map(e => [e.dataset.set, e.getAttribute('aria-label')])")
    assert all(label == f"set {int(index) + 1}" for index, label in labels), labels


def tap(page: Page, selector: str, before: int) -> None:
    """Tap a button with a finger. In Chromium's touch emulation the first tap after a touch drag fires no
    click (pointer and touch events come, the click does not); tap again when nothing was sent."""
    page.tap(selector)
    deadline = time.monotonic() + 3
    while seq(page) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    if seq(page) == before and page.locator(selector).is_enabled():
        page.tap(selector)


def gesture_turn(page: Page) -> str:
    """One turn by gestures only: drag the listed play with the most pieces onto the table when it only adds
    pieces, else tap Draw (or Pass when the pool is empty). Which it was."""
    actions = listed_on_my_turn(page)
    plays = [a for a in actions if a["type"] == "play"]
    for play in sorted(plays, key=lambda a: -len(a["placed"])):
        if drag_play(page, play):
            return "play"
    before = seq(page)
    button = "#draw" if any(a["type"] == "draw" for a in actions) else "#pass"
    if page.evaluate("() => navigator.maxTouchPoints > 0"):
        tap(page, button, before)
    else:
        page.click(button)
    wait_moved(page, before)
    return button[1:]


def test_a_whole_round_of_domino_rummikub_by_gestures_only(server: Server, browser: Browser) -> None:
    created = server.table(
        "domino-rummikub", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy", "name": "Bob"}], seed=3
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    done: Counter[str] = Counter()
    highlighted = False
    deadline = time.monotonic() + 240
    while page.locator(".sheet:not([hidden])").count() == 0 and not over(page):
        assert time.monotonic() < deadline, f"the round did not end in 4 minutes: {done}"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        counted_from_one(page)
        # the bot's last play is highlighted on the table (its pieces, and the line naming them)
        last = page.evaluate("() => document.querySelector('.last-line')?.textContent ?? ''")
        if "Bob laid" in last:
            assert page.locator(".tablearea .piece.last-move").count() > 0
            highlighted = True
        done[gesture_turn(page)] += 1
    page.wait_for_selector(".sheet:not([hidden])", timeout=30000)
    assert "over" in page.inner_text(".sheet h2").lower()
    assert done["play"] >= 2, done
    assert highlighted, "the bot's play was never highlighted"
    entries = page.eval_on_selector_all(".log li", "els => els.map(e => e.dataset.line)")
    assert entries and not any(line.startswith(" ") for line in entries), "a continuation line is its own entry"
    assert page.locator(".log li [data-piece]").count() > 0, "the log draws pieces as pieces"
    page.context.close()


@pytest.mark.parametrize(("game", "seed"), [("rummikub", 15), ("domino-rummikub", 3)])
def test_a_few_turns_on_a_phone_with_touch(server: Server, browser: Browser, game: str, seed: int) -> None:
    options = {"jokers": 0, "initial_meld_points": 0} if game == "rummikub" else {}
    created = server.table(
        game, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}], seed=seed, **options
    )
    page = open_page(browser, server.base + created["seats"][0]["invite"], phone=True)
    assert page.evaluate("() => navigator.maxTouchPoints > 0")
    # no keyboard hints on a touch screen
    assert not page.locator(".keys").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    done: Counter[str] = Counter()
    deadline = time.monotonic() + 150
    while sum(done.values()) < 5 and not over(page):
        assert time.monotonic() < deadline, f"{game}: {done} in 150 s"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        counted_from_one(page)
        # the actions are next to the board: the rack and its buttons are on screen without scrolling
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.locator("#commit").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box
        done[gesture_turn(page)] += 1
    assert sum(done.values()) >= 5 or over(page)
    assert done["play"] >= 1, done
    page.context.close()


def test_the_waiting_table_is_inert_and_names_who_is_missing(server: Server, browser: Browser) -> None:
    created = server.table("rummikub", [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}], seed=2)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.wait_for_selector(".turn-banner.waiting")
    assert "Bob" in page.inner_text(".turn-banner")
    assert page.locator(".board[inert]").count() == 1
    assert page.locator("#draw").is_disabled()
    assert "Your turn" not in page.evaluate("() => document.body.innerText")
    assert not page.title().startswith("\u25CF")
    bob = open_page(browser, server.base + created["seats"][1]["invite"])
    page.wait_for_selector(".board:not([inert])")
    pages = [page, bob]
    deadline = time.monotonic() + 20
    while not any(my_turn(p) for p in pages):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    mine = next(p for p in pages if my_turn(p))
    assert mine.title().startswith("\u25CF Your turn")
    # the hint button is there where the game has a hint (rummikub), and the sound toggle is remembered
    assert mine.locator("#hint").count() == 1
    mine.click("#sound")
    assert mine.evaluate("() => localStorage.getItem('rummykit:sound')") == "on"
    for p in pages:
        p.context.close()
