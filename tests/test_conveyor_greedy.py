"""The conveyor greedy bot's short cuts give what the plain computations give.

The bot sums pair weights only over the dominoes a domino has some relation
with, and reuses the hand's best partition for a drawn domino that melds with
nothing in the hand, and the hand's layoffs up to where they stall
(:func:`closable_with`), and rules out a close when some domino can be
neither melded nor laid off (:func:`could_close`); all are compared here with the plain computation on
seeded random hands of every set size the game offers.
"""

from __future__ import annotations

import random

import pytest

from rummykit.bots.conveyor import CLOSE_VALUE, COMPLETES_BONUS, FITS_TABLE_BONUS
from rummykit.bots.conveyor_hand import (
    _relations,
    best_partition,
    closable,
    closable_with,
    could_close,
    hand_stall,
    meld_ends,
    pair_weight,
    worth,
)
from rummykit.melds.conveyor import ConveyorMelds
from rummykit.pieces.dominoes import Domino, double_set


def _hands(top: int, count: int, seed: int) -> list[tuple[list[Domino], Domino, frozenset[Domino]]]:
    """Seeded (hand, another domino, dead dominoes) triples from the double-``top`` set."""
    rng = random.Random(seed)
    every = double_set(top)
    out = []
    for _ in range(count):
        drawn = rng.sample(every, rng.randint(4, 12))
        rest = [d for d in every if d not in drawn]
        out.append((drawn[:-1], drawn[-1], frozenset(rng.sample(rest, rng.randint(0, min(12, len(rest)))))))
    return out


@pytest.mark.parametrize("top", [6, 9, 12])
def test_worth_sums_the_same_as_over_every_pair(top: int) -> None:
    for hand, d, dead in _hands(top, 300, seed=top):
        plain = sum(pair_weight(d, x, dead, top) for x in hand)
        assert worth(d, hand, dead, top) == plain
        assert all(worth(x, hand, dead, top) == sum(pair_weight(x, y, dead, top) for y in hand) for x in hand)



@pytest.mark.parametrize("top", [6, 9, 12])
def test_pair_weight_is_the_same_both_ways_round(top: int) -> None:
    for hand, d, dead in _hands(top, 100, seed=400 + top):
        assert all(pair_weight(d, x, dead, top) == pair_weight(x, d, dead, top) for x in hand)
    every = double_set(top)
    assert all(pair_weight(a, b, frozenset(), top) == pair_weight(b, a, frozenset(), top) for a in every for b in every)


@pytest.mark.parametrize("top", [6, 9, 12])
def test_a_domino_in_no_meld_with_the_hand_leaves_its_best_partition(top: int) -> None:
    rules = ConveyorMelds(top)
    apart = 0
    for hand, d, _dead in _hands(top, 300, seed=100 + top):
        if rules.melds_with(hand, d):
            continue
        apart += 1
        assert best_partition(rules, [*hand, d]) == best_partition(rules, hand)
        table = [("run", (Domino(0, top), Domino(1, top), Domino(2, top)))]
        ends = meld_ends(rules, table)
        given = closable(rules, [*hand, d], table, ends, best_partition(rules, hand))
        assert given == closable(rules, [*hand, d], table, ends)
    assert apart > 50  # the case the short cut serves is common


def _table(rules: ConveyorMelds, rng: random.Random, hand: list[Domino], d: Domino) -> list[tuple[str, tuple[Domino, ...]]]:
    """A seeded table of melds from dominoes outside ``hand`` and ``d``, none sharing a domino."""
    free = [x for x in double_set(rules.top) if x not in hand and x != d]
    melds: list[tuple[str, tuple[Domino, ...]]] = []
    for m in rules.hand_melds(tuple(rng.sample(free, min(len(free), 14)))):
        if rng.random() < 0.5 and not any(x in pieces for _kind, pieces in melds for x in m):
            kind = rules.check(m).kind
            assert kind is not None
            melds.append((kind, m))
    return melds


@pytest.mark.parametrize("top", [6, 9, 12])
def test_closable_with_a_stalled_hand_is_closable_of_the_grown_hand(top: int) -> None:
    rules = ConveyorMelds(top)
    rng = random.Random(200 + top)
    apart = went_on = 0
    for hand, d, _dead in _hands(top, 600, seed=200 + top):
        if rules.melds_with(hand, d):
            continue
        apart += 1
        table = _table(rules, rng, hand, d)
        ends = meld_ends(rules, table)
        stall = hand_stall(rules, hand, table, ends, best_partition(rules, hand))
        went_on += bool(stall[1]) and d in stall[2]
        assert closable_with(rules, stall, d) == closable(rules, [*hand, d], table, ends)
        assert closable_with(rules, stall, d) == closable(rules, [*hand, d], table)
    assert apart > 100
    assert went_on >= 3  # the loop going on past the stall is tried too


@pytest.mark.parametrize("top", [6, 9, 12])
def test_could_close_says_no_only_where_closable_says_no(top: int) -> None:
    rules = ConveyorMelds(top)
    rng = random.Random(300 + top)
    said_no = closes = 0
    for hand, d, _dead in _hands(top, 600, seed=300 + top):
        table = _table(rules, rng, hand, d)
        if rng.random() < 0.5:  # a hand near closing: a meld of the hand, dominoes that fit the table, one more
            melds = rules.hand_melds(hand)
            fitting = [x for x in meld_ends(rules, table) if x not in hand and x != d]
            hand = [*(rng.choice(melds) if melds else ()), *rng.sample(fitting, min(len(fitting), rng.randint(0, 3)))]
        grown = [*hand, d]
        in_melds = frozenset(x for m in rules.hand_melds(grown) for x in m)
        on_table = frozenset(x for _kind, pieces in table for x in pieces)
        plain = closable(rules, grown, table)
        closes += plain
        if not could_close(top, grown, in_melds, on_table):
            said_no += 1
            assert not plain
    assert said_no > 100 and closes > 5  # both answers are common enough to be tried


def test_every_gain_is_a_whole_number_of_halves() -> None:
    """The draw's early stop relies on exact sums of gains: weights and bonuses are whole halves."""
    every = double_set(12)
    weights = {w for a in every for b in every for w, _completers in _relations(a, b, 12)}
    assert weights == {1.5, 2.5, 3.0}
    for value in (*weights, COMPLETES_BONUS, FITS_TABLE_BONUS, CLOSE_VALUE):
        assert (value * 2).is_integer()
