"""How a table set grows by one domino at an end (a lay-off), read once per set and kept with it.

:func:`reading` works out, once per table set, which dominoes might grow it
(the same filter as :func:`~rummykit.melds.dominoes._extensions`: a joker, a
domino of the pip total all its non-jokers have, or one sharing a half they
all share with a value close enough to theirs) and what the meld check needs
to judge the set grown by one more domino. :meth:`Reading.grow` then gives the
set grown by a domino, as the family's extensions would (the check of the set
with the domino at its end, else at its start), and keeps the answer:

* a set whose non-jokers (two or more) share one half with distinct values
  there can only grow into a run in that suit (their pip totals differ, and
  they share no other half): written as given when its values rise one a
  place, else in order with its jokers (in the order they come) filling the
  gaps, then the spare ones at the high end, then the low end;
* a set whose non-jokers (two or more) all have one pip total can only grow
  into a sum (two non-jokers of one total that share a half are one domino
  twice): its non-jokers in code order, then the jokers, while no domino of
  the total is held more than twice, jokers counted as what they stand for;
* any other set (one non-joker, or neither shape) is judged by the check.

``tests/test_domino_kept.py`` compares :meth:`Reading.grow` with the check for
every run and sum without a joker and every domino, and on random sets with
jokers.
"""

from __future__ import annotations

import operator
from functools import lru_cache

from rummykit.melds.dominoes import _check, _sum_dominoes
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.rulesets.domino_rummikub.options import JOKERS, MELDS, TOP, DominoSet

__all__ = ["Reading", "bit_of", "grow_by_check", "reading"]

KINDS: tuple[Domino, ...] = tuple(double_set(TOP))
"""Every domino of the set, in code order (a domino's index here is its kind)."""
_W = 8
bit_of: dict[Domino, int] = {d: 1 << (_W * k + _W - 1) for k, d in enumerate(KINDS)}
"""Each domino's presence bit: the top bit of its 8-bit field, by kind (as a rack's count vector holds it)."""
_ALL = sum(bit_of.values())
_JOKER_BITS = sum(bit_of[d] for d in JOKERS)
_BY_CODE = operator.attrgetter("code")
_RUN, _SUM, _CHECK = 0, 1, 2


@lru_cache(maxsize=1 << 14)
def grow_by_check(s: DominoSet, d: Domino) -> DominoSet | None:
    """The set ``s`` grown by ``d`` at one end (its end first, then its start), or None: as
    :func:`~rummykit.melds.dominoes._extensions` tries each domino, by the check."""
    for cand in ((*s, d), (d, *s)):
        c = _check(MELDS, cand)
        if c.valid:
            return c.pieces
    return None


class Reading:
    """One table set read for its growth: the dominoes that might grow it and what judging one needs.

    ``grown`` keeps each domino's answer (None: it does not fit); ``judged``
    and ``fit`` hold the presence bits of the dominoes answered and of those
    that fit, so lay-offs can be counted by bits.
    """

    __slots__ = (
        "by_value",
        "candidates",
        "fit",
        "grown",
        "high",
        "jokers",
        "judged",
        "kind",
        "low",
        "natural",
        "room",
        "set",
        "start",
        "suit",
    )

    def __init__(self, s: DominoSet) -> None:
        self.set = s
        self.grown: dict[Domino, DominoSet | None] = {}
        self.judged = self.fit = 0
        natural = tuple(d for d in s if d not in JOKERS)
        self.natural = natural
        self.jokers = tuple(d for d in s if d in JOKERS)
        self.kind = _CHECK
        self.suit = self.start = self.low = self.high = self.room = -1
        self.by_value: dict[int, Domino] = {}
        self.candidates = _candidates(s, natural)
        if len(natural) < 2 or not all(d in bit_of for d in s):
            return
        a, b = natural[0], natural[1]
        for suit in {a.low, a.high} & {b.low, b.high}:
            if all(d.has(suit) for d in natural):
                by_value = {d.other(suit): d for d in natural}
                if len(by_value) == len(natural):
                    self._run(suit, by_value)
                    return
        total = a.pips
        if all(d.pips == total for d in natural):
            held: dict[Domino, int] = {}
            for d in natural:
                held[d] = held.get(d, 0) + 1
            if max(held.values()) <= MELDS.copies:
                self.kind, self.suit = _SUM, total
                # How many more dominoes of the total the sum may hold (jokers included).
                self.room = sum(MELDS.copies - held.get(d, 0) for d in _sum_dominoes(TOP, total))
                self.by_value = {d.code: d for d in natural if held[d] == MELDS.copies}  # the dominoes held twice
                self.natural = tuple(sorted(natural, key=_BY_CODE))

    def _run(self, suit: int, by_value: dict[int, Domino]) -> None:
        self.kind, self.suit, self.by_value = _RUN, suit, by_value
        self.low, self.high = min(by_value), max(by_value)
        # Where the set's values start when read as written (-1: they do not rise one a place from 0 up).
        first = next(i for i, d in enumerate(self.set) if d not in JOKERS)
        start = self.set[first].other(suit) - first
        consistent = all(d in JOKERS or d.other(suit) == start + i for i, d in enumerate(self.set))
        self.start = start if consistent and start >= 0 else -1

    def grow(self, d: Domino) -> DominoSet | None:
        """The set grown by ``d`` at an end as the check reads it (see the module), or None; kept."""
        kind = self.kind
        if kind == _RUN:
            grown = self._grow_run(d)
        elif kind == _SUM:
            grown = self._grow_sum(d)
        else:
            grown = grow_by_check(self.set, d)
        self.grown[d] = grown
        bit = bit_of.get(d, 0)
        self.judged |= bit
        if grown is not None:
            self.fit |= bit
        return grown

    def _grow_run(self, d: Domino) -> DominoSet | None:
        s = self.set
        n = len(s) + 1
        suit = self.suit
        by_value = self.by_value
        joker = d in JOKERS
        value = -1
        if not joker:
            if d.low != suit and d.high != suit:
                return None
            value = d.high if d.low == suit else d.low
            if value in by_value:
                return None  # the same value twice
        start = self.start
        if start >= 0 and start + n - 1 <= TOP and (joker or value == start + n - 1):
            return (*s, d)
        if n > TOP + 1:
            return None
        low, high = self.low, self.high
        jokers = self.jokers
        if joker:
            jokers = (*jokers, d)
            naturals = len(by_value)
        else:
            low, high = min(low, value), max(high, value)
            naturals = len(by_value) + 1
        gaps = high - low + 1 - naturals
        if gaps > len(jokers):
            return None
        spare = len(jokers) - gaps
        start = low - (spare - min(spare, TOP - high))
        free = iter(jokers)
        return tuple(
            [by_value[v] if v in by_value else d if v == value else next(free) for v in range(start, start + n)]
        )

    def _grow_sum(self, d: Domino) -> DominoSet | None:
        if d in JOKERS:
            if len(self.jokers) + 1 > self.room:
                return None
            return self.natural + self.jokers + (d,)
        if d.pips != self.suit or d.code in self.by_value or len(self.jokers) > self.room - 1:
            return None
        return tuple(sorted((*self.natural, d), key=_BY_CODE)) + self.jokers


@lru_cache(maxsize=1 << 13)
def reading(s: DominoSet) -> Reading:
    """The reading of a table set (kept: the same sets recur from turn to turn and game to game)."""
    return Reading(s)


def _candidates(s: DominoSet, natural: tuple[Domino, ...]) -> int:
    """The presence bits (as :data:`bit_of`) of every domino that might grow ``s`` at an end
    (:func:`~rummykit.melds.dominoes._extensions`'s filter)."""
    if not natural:
        return _ALL
    suits = set.intersection(*({d.low, d.high} for d in natural))
    pips = {d.pips for d in natural}
    total = natural[0].pips if len(pips) == 1 else None
    n = len(s)
    values: dict[int, set[int]] = {}
    for suit in suits:
        held = {d.other(suit) for d in natural}
        values[suit] = set(range(max(0, max(held) - n), min(TOP, min(held) + n) + 1)) - held
    mask = _JOKER_BITS
    for d in KINDS:
        if (
            d.pips == total
            or (d.low in values and d.high in values[d.low])
            or (d.high in values and d.low in values[d.high])
        ):
            mask |= bit_of[d]
    return mask
