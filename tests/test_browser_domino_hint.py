"""In the browser, domino-rummikub's Hint button shows the hint's lines and "Lay out the hint" lays out
the strong bot's play as the draft, which the person then commits. Run only the browser tests with
``pytest -m browser``; without ``/usr/bin/chromium`` they are skipped (see tests/test_browser.py)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pytest
from browser_support import Server, draft_sets, my_turn, open_page, seq

import rummykit
from rummykit.bots.registry import make_bot
from rummykit.engine.rng import Rng
from rummykit.rulesets.freetable import Play

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

GAME = "domino-rummikub"
SEED = 3
"""Ann (seat 0) starts, and her rack holds a starting group without a joker."""


def sets_of(table: object) -> Counter[tuple[str, ...]]:
    """A table's sets as a multiset, each set's dominoes sorted (the order on the screen may differ)."""
    assert isinstance(table, list | tuple)
    return Counter(tuple(sorted(str(d) for d in s)) for s in table)


def test_the_hint_lays_out_the_strong_bots_play(server: Server, browser: Browser) -> None:
    # what the strong bot plays from Ann's view of this deal (the server deals the same seed the same way)
    state = rummykit.new_game(GAME, players=["Ann", "Bot"], seed=SEED)
    assert state.view(None)["turn"] == 0
    expected = make_bot("strong", GAME).choose(state.view(0), Rng(0))
    assert isinstance(expected, Play) and len(expected.placed) == 3

    created = server.table(GAME, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "greedy"}], seed=SEED)
    page = open_page(browser, server.base + created["seats"][0]["invite"])
    page.wait_for_function("() => document.body.dataset.legalSeq === document.body.dataset.seq")
    assert my_turn(page)
    assert draft_sets(page) == []
    assert page.locator("#use-hint").count() == 0  # no hint asked for yet

    page.click("#hint")
    page.wait_for_selector(".hint li", timeout=240_000)
    lines = page.locator(".hint li").all_inner_texts()
    assert lines[0].startswith("hint"), lines
    assert "starting group" in " ".join(lines), lines

    # the hinted dominoes are marked in the rack, and the button lays the play out as the draft
    page.wait_for_selector("#use-hint", timeout=60_000)
    hinted = page.eval_on_selector_all(".hinted[data-piece]", "els => els.map(e => e.dataset.piece)")
    assert sorted(hinted) == sorted(str(d) for d in expected.placed)
    page.click("#use-hint")
    assert sets_of(draft_sets(page)) == sets_of(expected.table)
    on_table = page.eval_on_selector_all(
        ".tablearea .set:not(.newset) [data-from=rack]", "els => els.map(e => e.dataset.piece)"
    )
    assert sorted(on_table) == sorted(str(d) for d in expected.placed)

    # nothing was played for her: she commits the laid-out table herself, and the server takes it
    before = seq(page)
    assert page.locator("#commit").is_enabled()
    page.click("#commit")
    page.wait_for_function(f"() => Number(document.body.dataset.seq) > {before}", timeout=60_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.tablearea .set:not(.newset) [data-from=table]').length >= 3",
        timeout=60_000,
    )
    # her set is on the table (the bot may have played its own starting group after her)
    assert not sets_of(expected.table) - sets_of(draft_sets(page))
    page.context.close()
