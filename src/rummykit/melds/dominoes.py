"""Runs and sums of dominoes with joker dominoes (``domino-rummikub``).

A domino is a number in the "suit" of its other half: ``5-3`` is a 3 in the
suit of fives and a 5 in the suit of threes; a double ``5-5`` is a 5 in the
suit of fives.

* A *run* is 3 or more dominoes sharing one half (the suit) whose other
  halves are consecutive (no wrap, so no domino twice).
* A *sum* is 3 or more dominoes with equal pip totals (the same domino may
  appear twice, since two sets are in play).
* A joker domino stands for any domino that makes the set valid; a set needs
  at least one non-joker domino.

A run is read as written when it ascends; otherwise its dominoes are sorted,
jokers fill the gaps and spare jokers go on the high end, then the low end. A
set that reads as a run is a run; only otherwise is it judged as a sum.

>>> rules = DominoMelds(top=6, jokers=frozenset(parse_dominoes('0-0 6-6')))
>>> c = rules.check(parse_dominoes('5-3 5-4 5-5'))
>>> c.kind, c.jokers
('run', ())
>>> rules.check(parse_dominoes('4-3 5-2 6-1')).kind
'sum'
>>> rules.check(parse_dominoes('5-3 6-6 5-5')).jokers
('4-5',)
>>> rules.check(parse_dominoes('5-3 5-4 4-4')).reason
'3-5 4-5 4-4 is neither a run (one shared half, consecutive other halves) nor a sum (equal pip totals)'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.melds.base import MeldCheck
from rummykit.pieces.dominoes import Domino, format_dominoes, parse_dominoes

__all__ = ["DominoMelds", "parse_dominoes"]

MIN_SET = 3

DominoCheck = MeldCheck[Domino]


@dataclass(frozen=True, eq=False)
class DominoMelds:
    """The meld rules of a domino game: the top of the set and its joker dominoes."""

    top: int
    jokers: frozenset[Domino]
    prefix: str = "DR"

    def check(self, dominoes: Sequence[Domino]) -> DominoCheck:
        """Judge a set: run or sum, what each joker stands for, or why not."""
        return _check(self, tuple(dominoes))

    def is_joker(self, domino: Domino) -> bool:
        """True for a joker domino."""
        return domino in self.jokers


def _bad(dominoes: tuple[Domino, ...], rule: str, reason: str) -> DominoCheck:
    return MeldCheck(False, None, dominoes, rule=rule, reason=reason)


@functools.lru_cache(maxsize=1 << 16)
def _check(rules: DominoMelds, dominoes: tuple[Domino, ...]) -> DominoCheck:
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
        as_written = _run_as_written(rules, dominoes, suit)
        if as_written is not None:
            return MeldCheck(True, "run", dominoes, points=points, jokers=as_written)
    run_fault: str | None = None
    for suit in suits:
        result = _run_sorted(rules, dominoes, natural, suit)
        if isinstance(result, tuple):
            ordered, roles = result
            return MeldCheck(True, "run", ordered, points=points, jokers=roles)
        if result is not None and run_fault is None:
            run_fault = result
    pips = {d.pips for d in natural}
    if len(pips) == 1:
        total = natural[0].pips
        if all(d.low <= rules.top and d.high <= rules.top for d in natural):
            ordered = tuple(sorted(natural)) + tuple(d for d in dominoes if d in rules.jokers)
            jokers = n - len(natural)
            return MeldCheck(True, "sum", ordered, points=points, jokers=(f"any domino of {total} pips",) * jokers)
    if run_fault is not None:
        return _bad(dominoes, f"{p}-RUN", run_fault)
    return _bad(
        dominoes,
        f"{p}-SET-KIND",
        f"{format_dominoes(dominoes)} is neither a run (one shared half, consecutive other halves)"
        " nor a sum (equal pip totals)",
    )


def _run_as_written(rules: DominoMelds, dominoes: tuple[Domino, ...], suit: int) -> tuple[str, ...] | None:
    """Joker roles if the dominoes, in this order, form a run in ``suit``."""
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


def _run_sorted(
    rules: DominoMelds, dominoes: tuple[Domino, ...], natural: list[Domino], suit: int
) -> tuple[tuple[Domino, ...], tuple[str, ...]] | str | None:
    """The run in ``suit`` with jokers filling gaps, or why it fails (None: not all in the suit)."""
    if not all(d.has(suit) for d in natural):
        return None
    values = sorted(d.other(suit) for d in natural)
    text = format_dominoes(dominoes)
    for a, b in itertools.pairwise(values):
        if a == b:
            return f"a run cannot hold the same value twice: {text}"
    jokers = [d for d in dominoes if d in rules.jokers]
    n = len(dominoes)
    if n > rules.top + 1:
        return f"a run has at most {rules.top + 1} dominoes: {text}"
    gaps = values[-1] - values[0] + 1 - len(values)
    if gaps > len(jokers):
        return f"a run needs consecutive values in the suit of {suit}s: {text} has {gaps} gaps and {len(jokers)} jokers"
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
