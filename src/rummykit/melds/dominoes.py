"""Runs and sums of dominoes with joker dominoes (``domino-rummikub``).

A domino is a number in the "suit" of its other half: ``5-3`` is a 3 in the
suit of fives and a 5 in the suit of threes; a double ``5-5`` is a 5 in the
suit of fives.

* A *run* is 3 or more dominoes sharing one half (the suit) whose other
  halves are consecutive (no wrap, so no domino twice).
* A *sum* is 3 or more dominoes with equal pip totals. The same domino may
  appear as often as the game has copies of it (``copies``: two, since two
  sets are in play), counting what each joker stands for: ``0-1 0-1 0-0`` is
  no sum, for the joker would be a third ``0-1`` (rule ``<prefix>-SUM-COPIES``).
* A joker domino stands for any domino that makes the set valid; a set needs
  at least one non-joker domino.

A run is read as written when it ascends; otherwise its dominoes are sorted,
jokers fill the gaps and spare jokers go on the high end, then the low end. A
set that reads as a run is a run; only otherwise is it judged as a sum. A
joker a player has *called* (declared to stand for one domino) must stand for
exactly that domino.

:class:`DominoMelds` is a :class:`~rummykit.melds.base.MeldFamily`: it also
lists every set a rack can make and every domino that grows a set.

>>> rules = DominoMelds(top=6, jokers=frozenset(parse_dominoes('0-0 6-6')))
>>> c = rules.check(parse_dominoes('5-3 5-4 5-5'))
>>> c.kind, c.jokers
('run', ())
>>> rules.check(parse_dominoes('4-3 5-2 6-1')).kind
'sum'
>>> rules.check(parse_dominoes('5-3 6-6 5-5')).jokers
('4-5',)
>>> rules.check(parse_dominoes('5-3 6-6 5-5'), called={1: Domino(5, 4)}).jokers
('4-5',)
>>> rules.check(parse_dominoes('5-3 5-4 4-4')).reason
'3-5 4-5 4-4 is neither a run (one shared half, consecutive other halves) nor a sum (equal pip totals)'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummykit.melds.base import MIN_SET, MeldCheck
from rummykit.pieces.dominoes import MAX_PIPS, Domino, double_set, format_dominoes, parse_dominoes
from rummykit.words import counted

if TYPE_CHECKING:
    from rummykit.melds.base import MeldFamily

__all__ = ["DominoMelds", "parse_dominoes"]

DominoCheck = MeldCheck[Domino]
DominoSet = tuple[Domino, ...]


@dataclass(frozen=True, eq=False)
class DominoMelds:
    """The meld rules of a domino game: the top of the set and its joker dominoes.

    >>> rules = DominoMelds(top=6, jokers=frozenset(parse_dominoes('0-0 6-6')))
    >>> [format_dominoes(s) for s in rules.enumerate(parse_dominoes('5-3 5-4 5-5 6-6'), max_size=3)][:2]
    ['6-6 3-5 4-5', '3-5 4-5 5-5']
    >>> [str(d) for d, _grown in rules.extensions(parse_dominoes('5-3 5-4 5-5'))]
    ['0-0', '2-5', '5-6', '6-6']
    """

    top: int
    jokers: frozenset[Domino]
    prefix: str = "DR"
    copies: int = 2
    """How many copies of each domino are in play (two double-N sets: 2); a sum holds no more."""

    def check(self, dominoes: Sequence[Domino], called: Mapping[int, Domino] | None = None) -> DominoCheck:
        """Judge a set: run or sum, what each joker stands for, or why not.

        ``called`` maps the position of a joker domino to the domino a player
        has called it: that joker then stands for exactly that domino, and a
        set where it cannot is invalid under the rule that reading breaks.
        """
        if called:
            return _check_called(self, tuple(dominoes), tuple(sorted(called.items(), key=lambda kv: kv[0])))
        return _check(self, tuple(dominoes))

    def is_joker(self, domino: Domino) -> bool:
        """True for a joker domino."""
        return domino in self.jokers

    def enumerate(self, hand: Iterable[Domino], max_size: int | None = None) -> list[DominoSet]:
        """Every valid set (normal form) that can be made from the rack (up to ``max_size`` dominoes).

        A joker may also stand where the rack holds the real domino (keeping it back).
        Runs come first (by suit), then sums (by pip total).
        """
        return _hand_sets(self, hand, max_size)

    def enumerate_with(self, hand: Iterable[Domino], domino: Domino) -> list[DominoSet]:
        """The sets of :meth:`enumerate` (``hand`` holding ``domino``) that hold ``domino``, in the same order.

        >>> rules = DominoMelds(top=6, jokers=frozenset(parse_dominoes('0-0 6-6')))
        >>> [format_dominoes(s) for s in rules.enumerate_with(parse_dominoes('5-3 5-4 5-5 2-6 6-6'), Domino(5, 3))]
        ['6-6 3-5 4-5', '6-6 3-5 4-5 5-5', '3-5 4-5 5-5', '3-5 6-6 5-5', '3-5 4-5 6-6', '3-5 4-5 5-5 6-6', '2-6 3-5 6-6']
        """
        if domino in self.jokers:
            return [s for s in _hand_sets(self, hand, None) if domino in s]
        return _hand_sets(self, hand, None, holding=domino)

    def extensions(self, meld: Sequence[Domino]) -> tuple[tuple[Domino, DominoSet], ...]:
        """Every domino that makes a valid set when added at one end of ``meld``, with that set."""
        return _extensions(self, tuple(meld))

    def __repr__(self) -> str:
        return f"DominoMelds(top={self.top}, jokers={format_dominoes(sorted(self.jokers))!r})"


def _gaps(gaps: int, jokers: int) -> str:
    """``2 gaps and only 1 joker to fill them`` (for a run's message).

    >>> _gaps(1, 0), _gaps(2, 1)
    ('1 gap and no jokers to fill it', '2 gaps and only 1 joker to fill them')
    """
    fill = "it" if gaps == 1 else "them"
    return f"{counted(gaps, 'gap')} and {'only ' if jokers else ''}{counted(jokers, 'joker', zero='no')} to fill {fill}"


class _LazyText:
    """A set's notation, formatted only if a message needs it."""

    __slots__ = ("dominoes",)

    def __init__(self, dominoes: DominoSet) -> None:
        self.dominoes = dominoes

    def __str__(self) -> str:
        return format_dominoes(self.dominoes)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _bad(dominoes: DominoSet, rule: str, reason: str) -> DominoCheck:
    return MeldCheck(False, None, dominoes, rule=rule, reason=reason)


@functools.lru_cache(maxsize=1 << 13)
def _check(rules: DominoMelds, dominoes: tuple[Domino, ...]) -> DominoCheck:
    """The verdict with no joker called (the common case, kept fast: it reads the pieces themselves)."""
    p = rules.prefix
    n = len(dominoes)
    if n < MIN_SET:
        return _bad(dominoes, f"{p}-SET-SIZE", f"a set needs at least {MIN_SET} dominoes: {format_dominoes(dominoes) or 'empty'}")
    natural = [d for d in dominoes if d not in rules.jokers]
    if not natural:
        return _bad(dominoes, f"{p}-SET-JOKERS", f"a set needs at least one domino that is not a joker: {format_dominoes(dominoes)}")
    points = sum(d.pips for d in dominoes)
    suits = sorted({natural[0].low, natural[0].high})
    for suit in suits:
        as_written = _plain_as_written(rules, dominoes, suit)
        if as_written is not None:
            return MeldCheck(True, "run", dominoes, points=points, jokers=as_written)
    run_fault: str | None = None
    for suit in suits:
        result = _plain_sorted(rules, dominoes, natural, suit)
        if isinstance(result, tuple):
            ordered, roles = result
            return MeldCheck(True, "run", ordered, points=points, jokers=roles)
        if result is not None and run_fault is None:
            run_fault = result
    pips = {d.pips for d in natural}
    if len(pips) == 1:
        total = natural[0].pips
        if all(d.low <= rules.top and d.high <= rules.top for d in natural):
            jokers = n - len(natural)
            sum_roles = _sum_roles(rules, dominoes, total, natural, jokers)
            if isinstance(sum_roles, MeldCheck):
                return sum_roles
            ordered = tuple(sorted(natural)) + tuple(d for d in dominoes if d in rules.jokers)
            return MeldCheck(True, "sum", ordered, points=points, jokers=sum_roles)
    if run_fault is not None:
        return _bad(dominoes, f"{p}-RUN", run_fault)
    return _bad(
        dominoes,
        f"{p}-SET-KIND",
        f"{format_dominoes(dominoes)} is neither a run (one shared half, consecutive other halves)"
        " nor a sum (equal pip totals)",
    )


def _plain_as_written(rules: DominoMelds, dominoes: tuple[Domino, ...], suit: int) -> tuple[str, ...] | None:
    """Joker roles if the dominoes, in this order, form a run in ``suit`` (no joker called)."""
    start: int | None = None
    for i, d in enumerate(dominoes):
        if d in rules.jokers:
            continue
        if not d.has(suit):
            return None
        value = d.other(suit)
        if start is None:
            start = value - i
        elif value != start + i:
            return None
    assert start is not None
    if start < 0 or start + len(dominoes) - 1 > rules.top:
        return None
    return tuple(str(Domino(suit, start + i)) for i, d in enumerate(dominoes) if d in rules.jokers)


def _plain_sorted(
    rules: DominoMelds, dominoes: tuple[Domino, ...], natural: list[Domino], suit: int
) -> tuple[tuple[Domino, ...], tuple[str, ...]] | str | None:
    """The run in ``suit`` with jokers filling gaps, or why it fails (None: not all in the suit; no joker called)."""
    if not all(d.has(suit) for d in natural):
        return None
    values = sorted(d.other(suit) for d in natural)
    text = _LazyText(dominoes)
    for a, b in itertools.pairwise(values):
        if a == b:
            return f"a run cannot hold the same value twice: {text}"
    jokers = [d for d in dominoes if d in rules.jokers]
    n = len(dominoes)
    if n > rules.top + 1:
        return f"a run has at most {rules.top + 1} dominoes: {text}"
    gaps = values[-1] - values[0] + 1 - len(values)
    if gaps > len(jokers):
        return f"a run needs consecutive values in the suit of {suit}s: {text} has {_gaps(gaps, len(jokers))}"
    spare = len(jokers) - gaps
    high = min(spare, rules.top - values[-1])
    start = values[0] - (spare - high)
    by_value = {d.other(suit): d for d in natural}
    free = list(jokers)
    ordered: list[Domino] = []
    roles: list[str] = []
    for v in range(start, start + n):
        if v in by_value:
            ordered.append(by_value[v])
        else:
            ordered.append(free.pop(0))
            roles.append(str(Domino(suit, v)))
    return tuple(ordered), tuple(roles)


def _sum_roles(
    rules: DominoMelds, shown: DominoSet, total: int, fixed: Sequence[Domino], free: int
) -> tuple[str, ...] | DominoCheck:
    """The roles of ``free`` jokers in a sum of ``total`` whose other dominoes read as ``fixed``,
    or the verdict that the set would hold more copies of a domino than are in play.

    Every domino of the total may appear ``rules.copies`` times, jokers
    counted as what they stand for: the jokers fill the copies still missing.
    """
    held: dict[Domino, int] = {}
    for d in fixed:
        held[d] = held.get(d, 0) + 1
    text = format_dominoes(shown)
    rule = f"{rules.prefix}-SUM-COPIES"
    copies = rules.copies
    limit = f"a sum holds each domino at most {_times(copies)} ({_in_play(copies)})"
    for d, k in held.items():
        if k > copies:
            return _bad(shown, rule, f"{limit}: {text} has {d} {_times(k)}")
    every = _sum_dominoes(rules.top, total)
    left = [d for d in every if held.get(d, 0) < copies]
    room = sum(copies - held.get(d, 0) for d in every)
    if free > room:
        if not left and len(every) == 1:
            why = f"{text} already holds {every[0]} {_times(copies)}, so a joker cannot stand for another {every[0]}"
        elif not left:
            full = " and ".join(str(d) for d in every)
            why = f"{text} already holds each of {full} {_times(copies)}, so a joker cannot stand for any of them"
        else:
            more = " or ".join(str(d) for d in left)
            why = f"{text} has room for only {room} more domino{'es' if room > 1 else ''} of {total} pips ({more}), not {free} jokers"
        return _bad(shown, rule, f"{limit}: {why}")
    if len(left) == len(every):
        return (f"any domino of {total} pips",) * free
    return (f"a domino of {total} pips: {' or '.join(map(str, left))}",) * free


def _times(k: int) -> str:
    return {1: "once", 2: "twice"}.get(k, f"{k} times")


def _in_play(copies: int) -> str:
    return "one set is in play" if copies == 1 else f"{copies} sets are in play"


@functools.lru_cache(maxsize=64)
def _sum_dominoes(top: int, total: int) -> tuple[Domino, ...]:
    """Every domino of a double-``top`` set with ``total`` pips, in order."""
    return tuple(Domino(a, total - a) for a in range(max(0, total - top), total // 2 + 1))


@functools.lru_cache(maxsize=1 << 12)
def _check_called(rules: DominoMelds, dominoes: DominoSet, calls: tuple[tuple[int, Domino], ...]) -> DominoCheck:
    """:meth:`DominoMelds.check` with jokers called: each called joker reads as the domino it was called.

    A call that names no joker domino, or a domino outside the set, is a
    mistake of the caller: ValueError.
    """
    read = list(dominoes)
    wild = [d in rules.jokers for d in dominoes]
    for pos, domino in calls:
        if not 0 <= pos < len(dominoes) or not wild[pos]:
            raise ValueError(f"only a joker can be called: {format_dominoes(dominoes)} has no joker at position {pos}")
        if domino.high > rules.top:
            raise ValueError(f"a joker cannot be called {domino}: it is not in the double-{rules.top} set")
        read[pos] = domino
        wild[pos] = False
    plain = _check(rules, dominoes)
    if not plain.valid:
        return plain  # no reading at all, so none with the calls either
    verdict = _judge(rules, dominoes, tuple(read), tuple(wild))
    if verdict.valid:
        return verdict
    names = ", ".join(str(d) for _, d in calls)
    which = "the joker" if len(calls) == 1 else "the jokers"
    assert verdict.rule is not None
    return _bad(dominoes, verdict.rule, f"{which} called {names} cannot stand in {format_dominoes(dominoes)}: {verdict.reason}")


def _judge(rules: DominoMelds, shown: DominoSet, read: DominoSet, wild: tuple[bool, ...]) -> DominoCheck:
    """The verdict on ``shown``, reading position ``i`` as the domino ``read[i]`` unless ``wild[i]`` (a free joker).

    A called joker is shown as itself and read as its domino; its role is that
    domino. The same reading as :func:`_check`, by position, so that a joker
    called a joker domino (6-6 standing for 6-6) is told apart from a free one.
    """
    p = rules.prefix
    n = len(shown)
    if n < MIN_SET:
        return _bad(shown, f"{p}-SET-SIZE", f"a set needs at least {MIN_SET} dominoes: {format_dominoes(shown) or 'empty'}")
    fixed = [i for i in range(n) if not wild[i]]
    if not fixed:
        return _bad(shown, f"{p}-SET-JOKERS", f"a set needs at least one domino that is not a joker: {format_dominoes(shown)}")
    points = sum(d.pips for d in shown)
    first = read[fixed[0]]
    suits = sorted({first.low, first.high})
    for suit in suits:
        roles = _run_as_written(rules, read, wild, suit)
        if roles is not None:
            return MeldCheck(True, "run", shown, points=points, jokers=_roles(rules, shown, read, wild, range(n), roles))
    run_fault: str | None = None
    for suit in suits:
        result = _run_sorted(rules, shown, read, wild, fixed, suit)
        if isinstance(result, tuple):
            order, roles = result
            return _verdict(rules, "run", shown, read, wild, order, roles, points)
        if result is not None and run_fault is None:
            run_fault = result
    pips = {read[i].pips for i in fixed}
    if len(pips) == 1:
        total = first.pips
        if all(read[i].high <= rules.top for i in fixed):
            free = [i for i in range(n) if wild[i]]
            sum_roles = _sum_roles(rules, shown, total, [read[i] for i in fixed], len(free))
            if isinstance(sum_roles, MeldCheck):
                return sum_roles
            order = tuple(sorted(fixed, key=lambda i: (read[i].code, i))) + tuple(free)
            return _verdict(rules, "sum", shown, read, wild, order, sum_roles, points)
    if run_fault is not None:
        return _bad(shown, f"{p}-RUN", run_fault)
    return _bad(
        shown,
        f"{p}-SET-KIND",
        f"{format_dominoes(shown)} is neither a run (one shared half, consecutive other halves)"
        " nor a sum (equal pip totals)",
    )


def _verdict(
    rules: DominoMelds,
    kind: str,
    shown: DominoSet,
    read: DominoSet,
    wild: tuple[bool, ...],
    order: tuple[int, ...],
    free_roles: tuple[str, ...],
    points: int,
) -> DominoCheck:
    """A valid verdict: ``shown`` in ``order``, each joker's role (a called joker's is its domino)."""
    ordered = tuple([shown[i] for i in order])
    return MeldCheck(True, kind, ordered, points=points, jokers=_roles(rules, shown, read, wild, order, free_roles))


def _roles(
    rules: DominoMelds,
    shown: DominoSet,
    read: DominoSet,
    wild: Sequence[bool],
    order: Iterable[int],
    free_roles: tuple[str, ...],
) -> tuple[str, ...]:
    """Each joker's role in ``order``: a free joker's from ``free_roles`` (in turn), a called joker's its domino."""
    if shown is read:
        return free_roles  # no joker called
    roles: list[str] = []
    free = iter(free_roles)
    for i in order:
        if shown[i] in rules.jokers:
            roles.append(next(free) if wild[i] else str(read[i]))
    return tuple(roles)


def _run_as_written(rules: DominoMelds, read: DominoSet, wild: tuple[bool, ...], suit: int) -> tuple[str, ...] | None:
    """Free jokers' roles if the dominoes, in this order, form a run in ``suit``."""
    start: int | None = None
    for i, d in enumerate(read):
        if wild[i]:
            continue
        if not d.has(suit):
            return None
        value = d.other(suit)
        if start is None:
            start = value - i
        elif value != start + i:
            return None
    assert start is not None
    if start < 0 or start + len(read) - 1 > rules.top:
        return None
    return tuple(str(Domino(suit, start + i)) for i in range(len(read)) if wild[i])


def _run_sorted(
    rules: DominoMelds, shown: DominoSet, read: DominoSet, wild: tuple[bool, ...], fixed: list[int], suit: int
) -> tuple[tuple[int, ...], tuple[str, ...]] | str | None:
    """The run in ``suit`` (an order of positions, free jokers' roles) with jokers filling gaps,
    or why it fails (None: not all in the suit)."""
    if not all(read[i].has(suit) for i in fixed):
        return None
    values = sorted(read[i].other(suit) for i in fixed)
    text = format_dominoes(shown)
    for a, b in itertools.pairwise(values):
        if a == b:
            return f"a run cannot hold the same value twice: {text}"
    free = [i for i in range(len(read)) if wild[i]]
    n = len(read)
    if n > rules.top + 1:
        return f"a run has at most {rules.top + 1} dominoes: {text}"
    gaps = values[-1] - values[0] + 1 - len(values)
    if gaps > len(free):
        return f"a run needs consecutive values in the suit of {suit}s: {text} has {_gaps(gaps, len(free))}"
    spare = len(free) - gaps
    high = min(spare, rules.top - values[-1])
    start = values[0] - (spare - high)
    by_value = {read[i].other(suit): i for i in fixed}
    order: list[int] = []
    roles: list[str] = []
    k = 0
    for v in range(start, start + n):
        at = by_value.get(v)
        if at is not None:
            order.append(at)
        else:
            order.append(free[k])
            k += 1
            roles.append(str(Domino(suit, v)))
    return tuple(order), tuple(roles)


# -- every set of a rack ------------------------------------------------------------


def _hand_sets(
    rules: DominoMelds, hand: Iterable[Domino], max_size: int | None, holding: Domino | None = None
) -> list[DominoSet]:
    """Every set of ``hand`` (runs by suit, then sums by pip total, without repeats).

    With ``holding`` (a domino of the hand that is not a joker), only the sets
    that hold it, in the same order: only the runs of its two suits and the
    sums of its total are worked out, since no other set can hold it.
    """
    rack = list(hand)
    jokers = tuple(sorted(d for d in rack if d in rules.jokers))
    natural = [d for d in rack if d not in rules.jokers]
    limit = max_size if max_size is not None else len(rack)
    top = rules.top
    found: list[DominoSet] = []
    masks = [0] * (MAX_PIPS + 1)  # per suit, a bit for each other half the rack holds in it
    for d in natural:
        masks[d.low] |= 1 << d.high
        masks[d.high] |= 1 << d.low
    suits = range(top + 1) if holding is None else sorted({holding.low, holding.high} & set(range(top + 1)))
    for suit in suits:
        mask = masks[suit]
        # A run holds MIN_SET dominoes or more, jokers included; without a joker, three values in a row.
        if mask and (mask.bit_count() + len(jokers) >= MIN_SET if jokers else mask & mask >> 1 & mask >> 2):
            found.extend(_suit_runs(rules, suit, mask, jokers, min(limit, top + 1)))
    by_pips: dict[int, list[Domino]] = {}
    for d in sorted(natural):
        by_pips.setdefault(d.pips, []).append(d)
    totals = sorted(by_pips) if holding is None else [holding.pips] if holding.pips in by_pips else []
    for total in totals:
        found.extend(_sums(rules, tuple(by_pips[total]), jokers, limit))
    if holding is not None:
        found = [s for s in found if holding in s]
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1 << 12)
def _suit_runs(
    rules: DominoMelds, suit: int, values: int, jokers: tuple[Domino, ...], limit: int
) -> tuple[DominoSet, ...]:
    """Every run in ``suit`` from the values in the bit mask plus the given jokers."""
    top = rules.top
    found: dict[DominoSet, None] = {}
    for start in range(top + 1):
        missing = 0
        for end in range(start, min(top, start + limit - 1) + 1):
            if not values >> end & 1:
                missing += 1
                if missing > len(jokers):
                    break
            length = end - start + 1
            if length < MIN_SET or missing == length:
                continue
            present = [v for v in range(start, end + 1) if values >> v & 1]
            for extra in range(0, min(len(jokers) - missing, len(present) - 1) + 1):
                for swapped in itertools.combinations(present, extra):
                    keep = set(present) - set(swapped)
                    for fill in _joker_fills(jokers, missing + extra):
                        it = iter(fill)
                        cand = tuple(Domino(suit, v) if v in keep else next(it) for v in range(start, end + 1))
                        c = _check(rules, cand)
                        if c.valid:
                            found[c.pieces] = None
    return tuple(found)


@functools.lru_cache(maxsize=1 << 12)
def _sums(
    rules: DominoMelds, group: tuple[Domino, ...], jokers: tuple[Domino, ...], limit: int
) -> tuple[DominoSet, ...]:
    """Every sum from dominoes of one pip total (duplicates allowed) plus the given jokers."""
    found: dict[DominoSet, None] = {}
    for size in range(MIN_SET, min(limit, len(group) + len(jokers)) + 1):
        for k in range(max(1, size - len(jokers)), min(size, len(group)) + 1):
            # ``group`` is sorted, so equal combinations come out equal: keep the first of each.
            for combo in dict.fromkeys(itertools.combinations(group, k)):
                for fill in _joker_fills(jokers, size - k):
                    c = _check(rules, combo + fill)
                    if c.valid:
                        found[c.pieces] = None
    return tuple(found)


@functools.lru_cache(maxsize=1 << 10)
def _joker_fills(jokers: tuple[Domino, ...], k: int) -> tuple[tuple[Domino, ...], ...]:
    """The distinct ways to pick ``k`` joker dominoes from the rack's (sorted) jokers, in order."""
    return tuple(dict.fromkeys(itertools.combinations(jokers, k)))


# -- growing a set ------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 12)
def _extensions(rules: DominoMelds, s: DominoSet) -> tuple[tuple[Domino, DominoSet], ...]:
    """Every domino that makes a valid set when added at one end of ``s``, with that set.

    Only a joker domino, one with the pip total all the set's non-jokers
    have (a sum), or one with a half they all share (a run's suit) and a
    value in that suit close enough to theirs, can possibly fit: the others
    are not tried.
    """
    out = []
    natural = [d for d in s if d not in rules.jokers]
    # A run needs a half every non-joker shares, a sum one pip total: a domino can fit only with one of those.
    suits = set.intersection(*({d.low, d.high} for d in natural)) if natural else set()
    pips = {d.pips for d in natural}
    total = natural[0].pips if len(pips) == 1 else None
    # In a run of the suit, the grown set's n + 1 values are consecutive: the new one lies within n of both the
    # highest and the lowest value there, and is none of them.
    n = len(s)
    values: dict[int, set[int]] = {}
    for suit in suits:
        held = {d.other(suit) for d in natural}
        values[suit] = set(range(max(0, max(held) - n), min(rules.top, min(held) + n) + 1)) - held
    for d in double_set(rules.top):
        if (
            natural
            and d not in rules.jokers
            and d.pips != total
            and not (d.low in values and d.high in values[d.low])
            and not (d.high in values and d.low in values[d.high])
        ):
            continue
        for cand in ((*s, d), (d, *s)):
            c = _check(rules, cand)
            if c.valid:
                out.append((d, c.pieces))
                break
    return tuple(out)


if TYPE_CHECKING:
    _family: MeldFamily[Domino] = DominoMelds(6, frozenset())
