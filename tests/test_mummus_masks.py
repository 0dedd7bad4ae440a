"""Mummus's bit-mask judgements against plain references: melds, add-ons, deep discards, claims, whole listings.

The listings and checks read cards as bit masks (``melds/card_bits.py``) and
keep the table and the pile judged with the state (``rulesets/mummus/seen.py``).
These tests compare them with plain card-by-card references written here
(the algorithms the masks replaced), so a mask that goes wrong shows even
where the state's listing and the view's listing, which share the mask code,
would agree with each other:

* every meld of a hand, in order, on random hands (full suits too), with and without wrap;
* each table meld's add-ons (the chains at each end, the cards each needs) on random cards;
* every seat's whole listing in every position of seeded random and greedy games;
* the judgement kept with a state equal to one worked out afresh, after every step.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence, Set

import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action
from rummykit.engine.driver import step
from rummykit.melds.card_bits import has_meld, mask_of, meld_reach, melds_of
from rummykit.melds.cards import MAX_RUN, SET, CardMelds
from rummykit.pieces.cards import DECK, RANKS, SUITS, Card
from rummykit.rulesets.mummus import MELDS, Addon, Discard, Draw, Meld, Mummus, Rummy, Take
from rummykit.rulesets.mummus.options import DRAW, PLAY
from rummykit.rulesets.mummus.seen import PileSeen, TableSeen, chains, reach_of
from rummykit.sim import bot_rng

Cards = tuple[Card, ...]


# -- references: card by card ------------------------------------------------------------------


def ref_melds(hand: Sequence[Card], wrap: bool) -> list[Cards]:
    """Every meld of ``hand``: sets by rank (combinations in card order), then runs by suit and lowest rank."""
    family = CardMelds(wrap=wrap)
    cards = sorted(set(hand))
    found: list[Cards] = []
    for rank in RANKS:
        group = [c for c in cards if c.rank == rank]
        for size in range(3, len(group) + 1):
            found.extend(itertools.combinations(group, size))
    for suit in SUITS:
        ranks = {c.rank for c in cards if c.suit is suit}
        seen: set[frozenset[int]] = set()
        for start in sorted(ranks):
            arc = [Card(start, suit)]
            while len(arc) < MAX_RUN:
                nxt = family.neighbour(arc[-1], 1)
                if nxt is None or nxt.rank not in ranks:
                    break
                arc.append(nxt)
                key = frozenset(c.rank for c in arc)
                if len(arc) >= 3 and key not in seen:
                    seen.add(key)
                    found.append(family.check(arc).pieces)
    return found


def ref_chains(meld: Cards, have: Set[Card]) -> list[Cards]:
    """Every add-on of cards of ``have`` to ``meld``: a set's missing cards one at a time; a run's cards at either
    end, one more at a time while ``have`` holds them."""
    check = MELDS.check(meld)
    if not check.valid or MELDS.fits(meld).isdisjoint(have):
        return []
    pieces = check.pieces
    if check.kind == SET:
        return [(c,) for c in sorted(MELDS.fits(pieces) & have)]
    out: list[Cards] = []
    for end, step_ in ((pieces[0], -1), (pieces[-1], 1)):
        chain: list[Card] = []
        card: Card | None = end
        while len(chain) < MAX_RUN - len(pieces):
            card = MELDS.neighbour(card, step_) if card is not None else None
            if card is None or card not in have:
                break
            chain.append(card)
            grown = tuple(chain[::-1]) if step_ < 0 else tuple(chain)
            if grown not in out:
                out.append(grown)
    return out


def ref_usable(deep: Card, hand: Sequence[Card], table: Sequence[Cards]) -> bool:
    """A meld of three with two other cards (four cards at least), or an add-on of at most ``len(hand) - 1`` cards."""
    have = set(hand)
    if len(hand) >= 4 and MELDS.smallest_in(deep, have) is not None:
        return True
    for meld in table:
        chain = MELDS.chain_in(meld, deep, have)
        if chain is not None and len(chain) <= len(hand) - 1:
            return True
    return False


def ref_claims(table: Sequence[Cards], discard: Sequence[Card]) -> list[tuple[Cards, Card | None]]:
    out: list[tuple[Cards, Card | None]] = []
    have = set(discard)
    for meld in table:
        out.extend((chain, meld[0]) for chain in ref_chains(meld, have))
    out.extend((m, None) for m in ref_melds(discard, MELDS.wrap))
    return out


def ref_listing(state: Mummus, seat: int) -> list[Action]:
    """Every legal action of ``seat``, worked out card by card (the order of ``list_actions``)."""
    if seat not in state.to_act:
        return []
    hand, table, discard = state.hands[seat], state.table, state.piles.discard
    mine = seat == state.current
    n = len(hand)
    pending = state.deep if mine and state.phase == PLAY else None

    def keeps(used: Sequence[Card], after: list[Cards]) -> bool:
        if pending is None or pending in used:
            return True
        return ref_usable(pending, [c for c in hand if c not in set(used)], after)

    def grown(index: int | None, cards: Cards) -> list[Cards]:
        out = list(table)
        if index is None:
            out.append(cards)
        else:
            out[index] = MELDS.extend(table[index], cards).pieces
        return out

    out: list[Action] = []
    if mine and state.phase == DRAW:
        if state.piles.stock:
            out.append(Draw(seat))
        if discard:
            out.append(Take(seat, discard[-1]))
        for i in range(len(discard) - 1):
            if ref_usable(discard[i], [*hand, *discard[i:]], table):
                out.append(Take(seat, discard[i]))
    for index, meld in enumerate(table):
        for chain in ref_chains(meld, set(hand)):
            if len(chain) < n and keeps(chain, grown(index, chain)):
                out.append(Addon(seat, chain, meld[0]))
    for cards, ref in ref_claims(table, discard):
        at = None if ref is None else next(i for i, m in enumerate(table) if ref in m)
        if keeps((), grown(at, cards)):
            out.append(Rummy(seat, cards, ref))
    if mine and state.phase == PLAY:
        out.extend(Meld(seat, m) for m in ref_melds(hand, MELDS.wrap) if len(m) < n and keeps(m, grown(None, m)))
        if pending is None:
            out.extend(Discard(seat, c) for c in sorted(hand))
    return out


# -- melds of a hand -------------------------------------------------------------------------------


def random_hands(count: int, seed: int) -> list[list[Card]]:
    r = random.Random(seed)
    hands = []
    for i in range(count):
        if i % 5 == 0:  # most of one suit, so long runs and full suits turn up
            suit = r.choice(SUITS)
            hands.append([c for c in DECK if c.suit is suit and r.random() < 0.9] + r.sample(DECK, 3))
        else:
            hands.append(r.sample(DECK, r.choice([2, 3, 5, 8, 12, 20, 30])))
    return hands


@pytest.mark.parametrize("wrap", [True, False])
def test_melds_from_masks_are_the_references_in_order(wrap: bool) -> None:
    for hand in random_hands(3000, 1 if wrap else 2):
        expected = ref_melds(hand, wrap)
        assert melds_of(mask_of(hand), wrap) == expected, hand
        assert CardMelds(wrap=wrap).enumerate(hand) == expected
        assert has_meld(mask_of(hand), wrap) == bool(expected)


# -- a meld's add-ons ----------------------------------------------------------------------------


def table_melds(r: random.Random) -> Cards:
    """A random valid meld: a set of 3 or 4, or a run of 3 to 12 (round the King too)."""
    if r.random() < 0.3:
        rank = r.choice(RANKS)
        return MELDS.check(r.sample([Card(rank, s) for s in SUITS], r.choice([3, 4]))).pieces
    suit, start, length = r.choice(SUITS), r.randrange(13), r.randrange(3, 13)
    return MELDS.check([Card((start + k) % 13 + 1, suit) for k in range(length)]).pieces


def test_a_melds_reach_gives_the_reference_chains_and_fits() -> None:
    r = random.Random(3)
    for _ in range(3000):
        meld = table_melds(r)
        reach = reach_of(meld)
        assert reach is not None
        assert reach is meld_reach(meld, MELDS.check(meld).kind == SET, MELDS.wrap)
        assert reach.fits == mask_of(MELDS.fits(meld))
        have = set(r.sample([c for c in DECK if c not in meld], r.choice([1, 4, 10, 25])))
        assert chains(reach, mask_of(have)) == ref_chains(meld, have)
        for card in DECK:
            if card in meld:
                continue
            chain = MELDS.chain_in(meld, card, have | {card})
            fitting = [size for mask, size in reach.chains.get(card.code, ()) if mask_of(have | {card}) & mask == mask]
            assert (min(fitting) if fitting else None) == (None if chain is None else len(chain)), (meld, card)


def test_an_invalid_meld_has_no_reach() -> None:
    assert reach_of(tuple(DECK[:2])) is None
    assert reach_of((DECK[0], DECK[14], DECK[2])) is None


# -- whole listings and the judgement kept with a state ---------------------------------------------


def fresh(state: Mummus) -> PileSeen:
    return PileSeen(list(state.piles.discard), TableSeen(state.table))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_listing_is_the_reference_and_the_kept_judgement_a_fresh_one(players: int) -> None:
    positions = listed = 0
    for seed in range(6):
        level = "random" if seed % 2 else "greedy"
        state = new_game("mummus", players=players, seed=seed, target=0)
        assert isinstance(state, Mummus)
        bots = [make_bot(level, "mummus") for _ in range(players)]
        rngs = [bot_rng(seed, s) for s in range(players)]
        while state.outcome is None:
            for seat in range(players):
                own = state.legal_actions(seat)
                assert own == ref_listing(state, seat), (seed, seat, [a.text() for a in own])
                listed += len(own)
            kept, again = state.seen(), fresh(state)
            assert (kept.mask, kept.open, kept.claims, kept.claimable) == (again.mask, again.open, again.claims, again.claimable)
            assert kept.table.wanted_mask == again.table.wanted_mask
            assert kept.table.wanted == frozenset(c for m in state.table for c in MELDS.fits(m))
            assert kept.claims == ref_claims(state.table, state.piles.discard)
            positions += 1
            step(state, bots, rngs)
    assert positions > 300
    assert listed > positions


def test_a_copy_and_a_redeal_judge_their_own_position() -> None:
    state = new_game("mummus", players=3, seed=7, target=0)
    assert isinstance(state, Mummus)
    bots = [make_bot("random", "mummus") for _ in range(3)]
    rngs = [bot_rng(7, s) for s in range(3)]
    for _ in range(60):
        step(state, bots, rngs)
    state.seen()
    other = state.copy()
    assert other._kept is not state._kept
    for seat in range(3):
        assert other.legal_actions(seat) == state.legal_actions(seat) == ref_listing(state, seat)
    again = state.redeal_hidden(0, bot_rng(8, 0))
    assert isinstance(again, Mummus)
    for seat in range(3):
        assert again.legal_actions(seat) == ref_listing(again, seat)
