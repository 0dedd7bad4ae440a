"""The melds of Conveyor Rummy (seed 000): normal runs, runs of pairs, sums, and domino lines.

One set of dominoes is in play (double-6, double-9 or double-12), so a meld
never holds the same domino twice. A domino is a number in the "suit" of its
other half: ``3-4`` is a 3 in the suit of fours and a 4 in the suit of threes;
a double ``4-4`` is a 4 in the suit of fours.

* A **normal run** (kind ``run``) is 3 or more dominoes of one suit whose
  other halves are consecutive: ``5-3 5-4 5-5 5-6``. Its normal order is
  ascending.
* A **run of pairs** (kind ``pairs``) is 3 or more doubles with consecutive
  numbers: ``2-2 3-3 4-4``.
* A **sum** (kind ``sum``) is 3 or more dominoes with equal pip totals:
  ``0-8 2-6 3-5``. Its normal order is the dominoes' own order.

The kinds never overlap (a run's pip totals all differ, and two different
doubles share no half), so every valid meld has exactly one kind.

A meld on the table only grows at its ends, by one domino at a time, and
stays valid; it is never split or rearranged. A run or run of pairs accepts
at each end the one domino that continues it; a sum accepts any domino of its
total at either end.

Scoring: a meld is worth its kind's value (run 1, sum 2, pairs 3) times
``max(1, length - 3)``, plus 10 when it is *royal*: when it holds every
domino of the set that could belong to it (all of one suit, all the doubles,
or every domino of one pip total).

:class:`ConveyorMelds` is a :class:`~rummykit.melds.base.MeldFamily`. The
set has no jokers, so no joker can be called.

With the ``domino_runs`` variant a whole hand may close as a **line**
(kind ``line``): dominoes laid end to end with matching halves, as in a game
of dominoes; with ``branch_on_doubles`` a double may also branch.

>>> rules = ConveyorMelds(top=9)
>>> c = rules.check(parse_dominoes('5-6 5-3 5-5 4-5'))
>>> c.kind, format_dominoes(c.pieces)
('run', '3-5 4-5 5-5 5-6')
>>> rules.check(parse_dominoes('3-3 2-2 4-4')).kind, rules.check(parse_dominoes('0-8 3-5 2-6')).kind
('pairs', 'sum')
>>> rules.check(parse_dominoes('3-5 4-5 4-4')).reason
'3-5 4-5 4-4 is no meld: not a run (no half shared by all), not a run of pairs (not all doubles), not a sum (pip totals 8, 9, 8)'
>>> [str(d) for d in rules.fits('run', c.pieces, 'low')], [str(d) for d in rules.fits('run', c.pieces, 'high')]
(['2-5'], ['5-7'])
>>> rules.score('sum', parse_dominoes('0-4 1-3 2-2'))
12
>>> [(str(d), format_dominoes(m)) for d, m in rules.extensions(parse_dominoes('0-8 3-5 2-6'))]
[('1-7', '0-8 1-7 2-6 3-5'), ('4-4', '0-8 2-6 3-5 4-4')]
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummykit.melds.base import MIN_SET as MIN_MELD
from rummykit.melds.base import MeldCheck
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes, parse_dominoes

if TYPE_CHECKING:
    from rummykit.melds.base import MeldFamily

__all__ = [
    "END_NAMES",
    "HIGH",
    "KIND_VALUES",
    "LINE",
    "LOW",
    "MIN_MELD",
    "PAIRS",
    "ROYAL_BONUS",
    "RUN",
    "SUM",
    "ConveyorMelds",
    "by_code",
    "find_line",
    "format_dominoes",
    "parse_dominoes",
]

RUN = "run"
PAIRS = "pairs"
SUM = "sum"
LINE = "line"
KIND_VALUES = {RUN: 1, SUM: 2, PAIRS: 3, LINE: 1}
"""Each meld kind's value (the seed's scoring table); a line scores as a run."""
ROYAL_BONUS = 10

LOW = "low"
HIGH = "high"
END_NAMES = (LOW, HIGH)
"""The two ends of a meld on the table: before its first domino, after its last."""

Pieces = tuple[Domino, ...]
ConveyorCheck = MeldCheck[Domino]

by_code = operator.attrgetter("code")
"""A sort key giving the dominoes' own order (low half, then high half), fast."""


@dataclass(frozen=True)
class ConveyorMelds:
    """The meld rules for a double-``top`` set."""

    top: int

    def check(self, dominoes: Iterable[Domino], called: Mapping[int, Domino] | None = None) -> ConveyorCheck:
        """Judge a would-be meld: its kind and normal order, or the rule it breaks and why.

        The set has no jokers, so ``called`` must be empty (a call names no
        joker: ValueError).
        """
        if called:
            raise ValueError(f"only a joker can be called, and conveyor has none (position {min(called)})")
        return _check(self.top, tuple(dominoes))

    def enumerate(self, hand: Iterable[Domino], max_size: int | None = None) -> list[Pieces]:
        """Every valid meld (normal order) of dominoes from ``hand``, up to ``max_size`` dominoes (:meth:`hand_melds`)."""
        melds = self.hand_melds(hand)
        return melds if max_size is None else [m for m in melds if len(m) <= max_size]

    def extensions(self, meld: Sequence[Domino]) -> tuple[tuple[Domino, Pieces], ...]:
        """Every domino of the set that grows a valid meld at one end, with the grown meld in normal order."""
        return _extensions(self.top, tuple(meld))

    def suit(self, pieces: Sequence[Domino]) -> int:
        """The shared half of a normal run (given in normal order)."""
        a, b = pieces[0], pieces[1]
        return a.low if b.has(a.low) else a.high

    def fits(self, kind: str, pieces: Sequence[Domino], end: str) -> tuple[Domino, ...]:
        """The dominoes of the set that can be added at ``end`` (``low``/``high``) of a meld."""
        if kind == RUN:
            s = self.suit(pieces)
            lo, hi = pieces[0].other(s), pieces[-1].other(s)
            if end == LOW:
                return (Domino(s, lo - 1),) if lo > 0 else ()
            return (Domino(s, hi + 1),) if hi < self.top else ()
        if kind == PAIRS:
            lo, hi = pieces[0].low, pieces[-1].low
            if end == LOW:
                return (Domino(lo - 1, lo - 1),) if lo > 0 else ()
            return (Domino(hi + 1, hi + 1),) if hi < self.top else ()
        if kind == SUM:
            have = set(pieces)
            return tuple(d for d in _sum_dominoes(self.top, pieces[0].pips) if d not in have)
        return ()

    def extend(self, kind: str, pieces: Sequence[Domino], domino: Domino, end: str) -> Pieces | None:
        """The meld with ``domino`` added at ``end``, or None if it does not fit there."""
        if domino not in self.fits(kind, pieces, end):
            return None
        return (domino, *pieces) if end == LOW else (*pieces, domino)

    def is_royal(self, kind: str, pieces: Sequence[Domino]) -> bool:
        """True when the meld holds every domino of the set that could belong to it.

        >>> ConveyorMelds(6).is_royal('sum', parse_dominoes('0-4 1-3 2-2'))
        True
        """
        if kind in (RUN, PAIRS):
            return len(pieces) == self.top + 1
        if kind == SUM:
            return len(pieces) == len(_sum_dominoes(self.top, pieces[0].pips))
        return False

    def score(self, kind: str, pieces: Sequence[Domino]) -> int:
        """What the meld scores its owner when the owner closes: value x max(1, length - 3), +10 if royal."""
        base = KIND_VALUES[kind] * max(1, len(pieces) - 3)
        return base + (ROYAL_BONUS if self.is_royal(kind, pieces) else 0)

    def hand_melds(self, hand: Iterable[Domino]) -> list[Pieces]:
        """Every valid meld (in normal order) made of dominoes from ``hand``.

        Runs and runs of pairs: every stretch of 3 or more consecutive values;
        sums: every subset of 3 or more dominoes of one total. Nothing is capped:
        a set holds at most 7 dominoes of one total (double-12, total 12), so
        a hand has at most 99 sums of one total.

        >>> [format_dominoes(m) for m in ConveyorMelds(6).hand_melds(parse_dominoes('1-1 1-2 1-3 2-2 3-3 0-4'))]
        ['1-1 1-2 1-3', '1-1 2-2 3-3', '0-4 1-3 2-2']
        """
        return _hand_melds(self.top, hand if isinstance(hand, list | tuple | set | frozenset) else list(hand))

    def melds_with(self, hand: Iterable[Domino], domino: Domino) -> list[Pieces]:
        """Every valid meld holding ``domino`` plus dominoes from ``hand``."""
        return [m for m in _hand_melds(self.top, [*hand, domino]) if domino in m]

    def line(self, dominoes: Iterable[Domino], *, branching: bool) -> str | None:
        """A layout of all ``dominoes`` as one line of play, or None (see :func:`find_line`)."""
        return find_line(dominoes, branching=branching)


def _bad(pieces: Pieces, rule: str, reason: str) -> ConveyorCheck:
    return MeldCheck(False, None, pieces, rule=rule, reason=reason)


@functools.lru_cache(maxsize=1 << 13)
def _check(top: int, pieces: Pieces) -> ConveyorCheck:
    n = len(pieces)
    text = format_dominoes(pieces)
    if n < MIN_MELD:
        return _bad(pieces, "CV-MELD-SIZE", f"a meld needs at least {MIN_MELD} dominoes: {text or 'none given'}")
    if len(set(pieces)) != n:
        return _bad(pieces, "CV-MELD-REPEAT", f"a meld cannot hold the same domino twice: {text}")
    outside = [d for d in pieces if d.high > top]
    if outside:
        return _bad(pieces, "CV-MELD-SET", f"{outside[0]} is not in the double-{top} set")
    points = sum(d.pips for d in pieces)
    if all(d.is_double for d in pieces):
        ordered = tuple(sorted(pieces, key=by_code))
        if ordered[-1].low - ordered[0].low == n - 1:
            return MeldCheck(True, PAIRS, ordered, points=points)
        numbers = ", ".join(str(d.low) for d in ordered)
        return _bad(pieces, "CV-PAIRS", f"a run of pairs needs doubles with consecutive numbers: {text} has {numbers}")
    totals = {d.pips for d in pieces}
    if len(totals) == 1:
        return MeldCheck(True, SUM, tuple(sorted(pieces, key=by_code)), points=points)
    shared = {pieces[0].low, pieces[0].high}
    for d in pieces[1:]:
        shared &= {d.low, d.high}
    if shared:
        suit = shared.pop()
        by_value = sorted(pieces, key=lambda d: d.other(suit))
        values = [d.other(suit) for d in by_value]
        if values[-1] - values[0] == n - 1:
            return MeldCheck(True, RUN, tuple(by_value), points=points)
        listed = ", ".join(str(v) for v in values)
        return _bad(pieces, "CV-RUN", f"a run in the suit of {suit}s needs consecutive numbers: {text} has {listed}")
    pip_list = ", ".join(str(d.pips) for d in pieces)
    return _bad(
        pieces,
        "CV-MELD-KIND",
        f"{text} is no meld: not a run (no half shared by all), not a run of pairs (not all doubles),"
        f" not a sum (pip totals {pip_list})",
    )


@functools.lru_cache(maxsize=1 << 12)
def _extensions(top: int, meld: Pieces) -> tuple[tuple[Domino, Pieces], ...]:
    check = _check(top, meld)
    if not check.valid:
        return ()
    assert check.kind is not None
    rules = ConveyorMelds(top)
    fit = {d for end in END_NAMES for d in rules.fits(check.kind, check.pieces, end)}
    return tuple((d, _check(top, (*check.pieces, d)).pieces) for d in double_set(top) if d in fit)


@functools.lru_cache(maxsize=64)
def _sum_dominoes(top: int, total: int) -> tuple[Domino, ...]:
    """Every domino of the double-``top`` set with ``total`` pips, in order."""
    return tuple(Domino(a, total - a) for a in range(max(0, total - top), total // 2 + 1))


def _windows(values: Sequence[int]) -> list[tuple[int, int]]:
    """Every (start, end) stretch of 3+ consecutive numbers within sorted distinct ``values``."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        for a in range(i, j + 1):
            for b in range(a + MIN_MELD - 1, j + 1):
                out.append((values[a], values[b]))
        i = j + 1
    return out


@functools.lru_cache(maxsize=1 << 12)
def _mask_windows(mask: int) -> tuple[tuple[int, int], ...]:
    """:func:`_windows` of the numbers whose bits are set in ``mask`` (kept per mask)."""
    return tuple(_windows([v for v in range(mask.bit_length()) if mask >> v & 1]))


@functools.lru_cache(maxsize=64)
def _runs_of(top: int) -> tuple[tuple[tuple[Domino, ...], ...], tuple[Domino, ...]]:
    """Per suit the dominoes of that suit by their other half, and the doubles by number (double-``top``)."""
    return (
        tuple(tuple(Domino(suit, v) for v in range(top + 1)) for suit in range(top + 1)),
        tuple(Domino(v, v) for v in range(top + 1)),
    )


@functools.lru_cache(maxsize=64)
def _bits_of(top: int) -> dict[Domino, tuple[int, int, int, int, int, int]]:
    """Per domino of the double-``top`` set: its low half, its bit in that suit's mask, the same for its high
    half, its bit in the doubles' mask (0 for a non-double) and its pip total."""
    return {d: (d.low, 1 << d.high, d.high, 1 << d.low, 1 << d.low if d.is_double else 0, d.pips) for d in double_set(top)}


def _hand_melds(top: int, hand: Iterable[Domino]) -> list[Pieces]:
    """Every valid meld of ``hand`` in normal order: runs by suit, then runs of pairs, then sums by total.

    Each suit's numbers (and the doubles' numbers) are a bit mask; a mask
    without three bits in a row holds no run, which most do. A sum's group is
    read in the dominoes' own order. ``hand`` may repeat a domino; a domino
    above ``top`` is read as in a larger set.
    """
    bits = _bits_of(top)
    masks = [0] * (top + 1)
    counts = [0] * (2 * top + 1)
    doubles = 0
    try:
        for d in hand:
            low, high_bit, high, low_bit, double_bit, total = bits[d]
            masks[low] |= high_bit
            masks[high] |= low_bit
            doubles |= double_bit
            counts[total] += 1
    except KeyError:
        return _hand_melds(max(d.high for d in hand), hand)
    found: list[Pieces] = []
    suits, pairs = _runs_of(top)
    for suit, m in enumerate(masks):
        if m & m >> 1 & m >> 2:
            row = suits[suit]
            found.extend(row[a : b + 1] for a, b in _mask_windows(m))
    if doubles & doubles >> 1 & doubles >> 2:
        found.extend(pairs[a : b + 1] for a, b in _mask_windows(doubles))
    if max(counts) >= MIN_MELD:
        for total, n in enumerate(counts):
            if n >= MIN_MELD:
                group = sorted({d for d in hand if d.low + d.high == total}, key=by_code)
                for size in range(MIN_MELD, len(group) + 1):
                    found.extend(itertools.combinations(group, size))
    return found


if TYPE_CHECKING:
    _family: MeldFamily[Domino] = ConveyorMelds(6)


# -- lines of play (the domino_runs variant) -----------------------------------------


def find_line(dominoes: Iterable[Domino], *, branching: bool = False) -> str | None:
    """Lay every domino end to end with matching halves, or say it cannot be done (None).

    Without ``branching`` the dominoes must form one line; with it, a double
    may branch: it joins up to four dominoes (its two ends and two sides).
    The layout is written with each domino turned the way it lies, the half
    that touches the previous domino first, and branches in brackets after
    their double.

    >>> find_line(parse_dominoes('3-5 1-3 5-5 5-2'))
    '1-3 3-5 5-5 5-2'
    >>> find_line(parse_dominoes('1-3 3-5 3-4')) is None
    True
    >>> find_line(parse_dominoes('3-3 1-3 3-5 3-4'), branching=True)
    '1-3 3-3[3-4] 3-5'
    """
    pieces = tuple(sorted(set(dominoes), key=by_code))
    if not pieces:
        return None
    return _find_line(pieces, branching)


@functools.lru_cache(maxsize=1 << 12)
def _find_line(pieces: Pieces, branching: bool) -> str | None:
    if not _line_possible(pieces, branching):
        return None
    tree = _line_tree(pieces, 4 if branching else 2)
    if tree is None:
        return None
    return _render(pieces, tree)


def _line_possible(pieces: Pieces, branching: bool) -> bool:
    """Fast necessary conditions: connected halves, and few enough odd-degree numbers.

    Without branching they are also sufficient (an Euler trail exists).
    """
    if len(pieces) == 1:
        return True
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    degree: dict[int, int] = {}
    for d in pieces:
        parent[find(d.low)] = find(d.high)
        if not d.is_double:
            degree[d.low] = degree.get(d.low, 0) + 1
            degree[d.high] = degree.get(d.high, 0) + 1
    if len({find(d.low) for d in pieces}) != 1:
        return False
    if any(d.is_double and not degree.get(d.low) for d in pieces):
        return False  # a double whose number no other domino has
    odd = sum(1 for v in degree.values() if v % 2)
    if not branching:
        return odd <= 2
    hubs = sum(1 for d in pieces if d.is_double and degree.get(d.low, 0) >= 3)
    return odd <= 2 + 2 * hubs


def _line_tree(pieces: Pieces, double_links: int) -> list[tuple[int, int, int]] | None:
    """Attachments (child, parent, number) of a layout of every domino, or None.

    The layout grows from the first domino. Each step takes the smallest
    number that has a free place and either joins an unused domino there or
    leaves that place empty for good; failed states are remembered.
    """
    n = len(pieces)
    full = (1 << n) - 1
    failed: set[tuple[int, tuple[tuple[int, int], ...]]] = set()

    def links(i: int) -> int:
        return double_links if pieces[i].is_double else 1

    root = pieces[0]
    start: list[tuple[int, int, int]] = []  # free places: (number, owner index, count)
    if root.is_double:
        start.append((root.low, 0, double_links))
    else:
        start.extend([(root.low, 0, 1), (root.high, 0, 1)])
    out: list[tuple[int, int, int]] = []

    def search(used: int, places: tuple[tuple[int, int, int], ...]) -> bool:
        if used == full:
            return True
        if not places:
            return False
        capacity: dict[int, int] = {}
        for v, _owner, c in places:
            capacity[v] = capacity.get(v, 0) + c
        key = (used, tuple(sorted(capacity.items())))
        if key in failed:
            return False
        number, owner, count = places[0]
        rest = list(places[1:])
        if count > 1:
            rest.insert(0, (number, owner, count - 1))
        for i in range(1, n):
            d = pieces[i]
            if used >> i & 1 or not d.has(number):
                continue
            new = list(rest)
            if d.is_double:
                if links(i) > 1:
                    new.append((number, i, links(i) - 1))
            else:
                new.append((d.other(number), i, 1))
            new.sort()
            out.append((i, owner, number))
            if search(used | 1 << i, tuple(new)):
                return True
            out.pop()
        if search(used, tuple(rest)):
            return True
        failed.add(key)
        return False

    if search(1, tuple(sorted(start))):
        return list(out)
    return None


def _render(pieces: Pieces, tree: list[tuple[int, int, int]]) -> str:
    """Write a layout from one of its leaves, branches in brackets after their double."""
    n = len(pieces)
    adjacent: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for child, parent, number in tree:
        adjacent[child].append((parent, number))
        adjacent[parent].append((child, number))
    leaf = next(i for i in range(n) if len(adjacent[i]) <= 1)

    def chain(i: int, came_from: int, entry: int) -> str:
        d = pieces[i]
        exit_half = d.other(entry)
        head = f"{entry}-{exit_half}"
        nexts = [(j, v) for j, v in adjacent[i] if j != came_from]
        if not nexts:
            return head
        *branches, main = nexts
        head += "".join(f"[{chain(j, i, v)}]" for j, v in branches)
        return f"{head} {chain(main[0], i, main[1])}"

    first = pieces[leaf]
    if adjacent[leaf]:
        joined = adjacent[leaf][0][1]
        entry = joined if first.is_double else first.other(joined)
    else:
        entry = first.low
    return chain(leaf, -1, entry)

