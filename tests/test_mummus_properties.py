"""Mummus invariants as Hypothesis properties, over bot games of every player count.

* Conservation: after every step each of the 52 cards is in exactly one place
  (a hand, the stock, the discard pile, a meld).
* Hidden information: no view of a seat (or of a spectator) shows a card of
  the stock or of another hand that the seat did not see go in, nor changes
  when those cards are dealt anew (so nothing in it follows from them), and
  no event as a seat sees it names one (the hands revealed by a round's end
  aside).
* Replay: the record of every game replays to the identical state.
* The listing and the checks agree: every listed action is accepted, the
  seats with something listed are exactly those that may act, and a random
  action is either refused (state untouched) or equivalent to a listed one.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from conftest import changed, state_data
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.bots.registry import make_bot
from rummykit.engine.core import Action
from rummykit.engine.driver import Agent, claims_open, step
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.cards import DECK, Card
from rummykit.records import read_record, write_record
from rummykit.rulesets.mummus import INFO, Addon, Discard, Draw, Meld, Mummus, Rummy, Take

CARD_TEXTS = {str(c) for c in DECK}


def cards_in(value: Any) -> set[str]:
    """Every card written anywhere in plain data."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(w for w in value.replace(",", " ").split() if w in CARD_TEXTS)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= cards_in(v)
    return found


def hidden_from(state: Mummus, seat: int | None) -> set[str]:
    """The cards ``seat`` may not know: the stock, and other hands except what was seen going in."""
    out = {str(c) for c in state.piles.stock}
    for s, hand in enumerate(state.hands):
        if s != seat:
            out |= {str(c) for c in hand if c not in state.known[s]}
    return out


def conserved(state: Mummus) -> None:
    counts: Counter[Card] = Counter()
    for hand in state.hands:
        counts.update(hand)
    counts += state.piles.counts() + state.area.counts()
    assert counts == Counter(DECK), "every card exactly once"


def seats_view(state: Mummus) -> None:
    for seat in (None, *range(len(state.players))):
        view: dict[str, Any] = dict(state.view(seat))
        # The last move's events are the step's, checked by events_seen (a reshuffle or a round's end may name
        # cards that were public when they happened); its text by tests/test_view_header.py.
        view.pop("last_move")
        own = set(view.pop("hand", []))
        assert own == ({str(c) for c in state.hands[seat]} if seat is not None else set())
        leaked = cards_in(view) & hidden_from(state, seat)
        # nothing in the view follows from what the seat cannot see: deal that anew, and the view is the same
        assert state.view(seat) == state.redeal_hidden(seat, Rng(len(state.history))).view(seat)
        assert not leaked, (seat, sorted(leaked))


def events_seen(state: Mummus, start: int, stock_before: set[str]) -> None:
    """The events of one step as each seat sees them name no card hidden from it.

    A reshuffle turns the (public) discard pile into the stock: before it in
    the step, those cards were public and may be named.
    """
    events = state.history[start:]
    kinds = [e.kind for e in events]
    reshuffled = {str(c) for c in state.piles.stock} - stock_before
    cut = kinds.index("reshuffle") if "reshuffle" in kinds else 0
    for seat in (None, *range(len(state.players))):
        if "round-end" in kinds:
            # the round's end shows every hand; after it only a new deal: a seat sees its own hand only
            after = events[kinds.index("round-end") + 1 :]
            for e in after:
                shown = cards_in(e.seen_by(seat))
                mine = {str(c) for c in state.hands[seat]} if seat is not None else set()
                assert shown <= mine, (e.kind, seat)
            continue
        for i, e in enumerate(events):
            hidden = hidden_from(state, seat) - (reshuffled if i < cut else set())
            leaked = cards_in(e.seen_by(seat)) & hidden
            assert not leaked, (e.kind, seat, sorted(leaked))


def normal(state: Mummus, action: Action) -> tuple[Any, ...]:
    """An action with its meld named by the meld's number and its cards as a set (equal effect, equal form)."""
    meld = getattr(action, "meld", None)
    index = None if meld is None else state.area.holding(meld)
    cards = frozenset(getattr(action, "cards", ()) or ())
    card = getattr(action, "card", None)
    return (type(action).__name__, action.player, index, cards, card)


def listing_agrees(state: Mummus) -> None:
    n = len(state.players)
    for seat in range(n):
        listed = state.legal_actions(seat)
        if seat != state.current:
            assert bool(listed) == (seat in state.may_act), seat
        for action in listed:
            trial = state.copy()
            trial.apply(action)  # never refused


games = st.tuples(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=10**6),
    st.lists(st.sampled_from(["random", "greedy"]), min_size=6, max_size=6),
)


@settings(max_examples=25)
@given(games)
def test_cards_are_conserved_nothing_hidden_leaks_and_the_game_replays(game: tuple[int, int, list[str]]) -> None:
    players, seed, levels = game
    state = INFO.new(players=players, seed=seed, target=0, max_turns=40)
    assert isinstance(state, Mummus)
    agents: list[Agent | None] = [make_bot(levels[s], "mummus") for s in range(players)]
    rngs = [Rng(seed + s) for s in range(players)]
    conserved(state)
    seats_view(state)
    steps = 0
    while state.outcome is None:
        start = len(state.history)
        stock_before = {str(c) for c in state.piles.stock}
        offered = claims_open(state)
        waited = state.act_order(state.must_act)[0]
        events = step(state, agents, rngs)
        assert events and state.actions[-1].player in (waited, *offered)
        conserved(state)
        seats_view(state)
        events_seen(state, start, stock_before)
        steps += 1
        if steps % 7 == 0 and state.outcome is None:
            listing_agrees(state)
    again = read_record(write_record(state))
    assert again.snapshot() == state.snapshot()
    assert json.dumps(again.view(0), sort_keys=True) == json.dumps(state.view(0), sort_keys=True)


def random_action(data: st.DataObject, state: Mummus) -> Action:
    seat = data.draw(st.integers(min_value=0, max_value=len(state.players) - 1))
    pool = sorted({*state.hands[seat], *state.piles.discard, *(c for m in state.area for c in m.pieces)})
    pool = pool or list(DECK)
    some = st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True).map(tuple)
    ref = st.one_of(st.none(), st.sampled_from(pool))
    kind = data.draw(st.sampled_from(["draw", "take", "meld", "addon", "rummy", "discard"]))
    if kind == "draw":
        return Draw(seat)
    if kind == "take":
        return Take(seat, data.draw(st.sampled_from(pool)))
    if kind == "meld":
        return Meld(seat, data.draw(some))
    if kind == "addon":
        return Addon(seat, data.draw(some), data.draw(st.sampled_from(pool)))
    if kind == "rummy":
        return Rummy(seat, data.draw(some), data.draw(ref))
    return Discard(seat, data.draw(st.sampled_from(pool)))


@settings(max_examples=30)
@given(st.integers(min_value=2, max_value=5), st.integers(min_value=0, max_value=10**6), st.data())
def test_a_random_action_is_refused_untouched_or_is_a_listed_one(players: int, seed: int, data: st.DataObject) -> None:
    state = INFO.new(players=players, seed=seed, target=0, max_turns=30)
    assert isinstance(state, Mummus)
    agents: list[Agent | None] = [make_bot("greedy", "mummus") for _ in range(players)]
    rngs = [Rng(seed + s) for s in range(players)]
    for _ in range(data.draw(st.integers(min_value=0, max_value=60))):
        if state.outcome is not None:
            return
        step(state, agents, rngs)
    for _ in range(8):
        if state.outcome is not None:
            return
        action = random_action(data, state)
        before = state_data(state)
        listed = {normal(state, a) for a in state.legal_actions(action.player)}
        key = normal(state, action)
        try:
            state.apply(action)
        except RuleError as err:
            assert err.rule and f"(rule {err.rule})" in str(err)
            after = state_data(state)
            assert after == before, f"the refused {action} changed {changed(before, after)}"
            assert key not in listed, f"{action} is listed but refused: {err}"
            continue
        assert key in listed, f"{action} was accepted but not listed"
