"""Best plays for ``domino-rummikub``: the exact set-by-set search over runs and sums.

>>> from rummykit.pieces.dominoes import parse_dominoes
>>> s = solve_dominoes([parse_dominoes('5-3 5-4 5-5')], parse_dominoes('5-6 1-1 2-3'))
>>> [str(d) for d in s.placed], [' '.join(map(str, x)) for x in s.table]
(['5-6'], ['3-5 4-5 5-5 5-6'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.pieces.dominoes import Domino
from rummykit.rulesets.domino_rummikub import EXACTLY_3, MELDS
from rummykit.solve.candidates import domino_sets
from rummykit.solve.search import SetSearch
from rummykit.solve.steps import Step, plan_steps

DominoSet = tuple[Domino, ...]
DOMINO_OBJECTIVES = ("dominoes", "points", "initial")

_PRIMARY = 32
_JOKER_PENALTY = 16


@dataclass(frozen=True)
class DominoSolution:
    """An optimal play: dominoes placed from the rack and the complete final table."""

    objective: str
    placed: tuple[Domino, ...]
    table: tuple[DominoSet, ...]
    old_table: tuple[DominoSet, ...]

    @property
    def pieces_placed(self) -> int:
        """How many dominoes the play places (jokers included)."""
        return len(self.placed)

    @property
    def points_placed(self) -> int:
        """The spots the play removes from the rack."""
        return sum(d.pips for d in self.placed)

    @property
    def steps(self) -> list[Step[Domino]]:
        """The play as moves from the current table."""
        return plan_steps(self.old_table, self.table, self.placed)


def solve_dominoes(
    table: Sequence[Sequence[Domino]],
    rack: Sequence[Domino],
    *,
    objective: str = "dominoes",
    starting_group_size: str = EXACTLY_3,
) -> DominoSolution | None:
    """The best play of ``rack`` onto ``table``, or None if there is none.

    ``objective``: ``dominoes`` (most dominoes), ``points`` (most spots) or
    ``initial`` (the starting group: one new set from the rack, of exactly three
    dominoes unless ``starting_group_size`` is ``3-or-more``; most dominoes, then
    spots). Ties go to placing fewer joker dominoes, then to the other measure.
    """
    if objective not in DOMINO_OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}: use one of {', '.join(DOMINO_OBJECTIVES)}")
    old = [tuple(s) for s in table]

    def weight(d: Domino) -> int:
        value = (d.pips << _PRIMARY) + 1 if objective == "points" else (1 << _PRIMARY) + d.pips
        return value - ((1 << _JOKER_PENALTY) if MELDS.is_joker(d) else 0)

    if objective == "initial":
        candidates = domino_sets(Counter(rack), MELDS)
        if starting_group_size == EXACTLY_3:
            candidates = [c for c in candidates if len(c) == 3]
        search = SetSearch(Counter(), Counter(rack), candidates, weight, order=lambda d: d.code, max_sets=1)
    else:
        mandatory = Counter(d for s in old for d in s)
        available = mandatory + Counter(rack)
        search = SetSearch(mandatory, Counter(rack), domino_sets(available, MELDS), weight, order=lambda d: d.code)
    found = search.solve()
    if found is None:
        return None
    sets = [MELDS.check(s).pieces for s in found[1]]
    final = [*old, *sets] if objective == "initial" else _ordered(old, sets)
    placed = Counter(d for s in final for d in s) - Counter(d for s in old for d in s)
    if not placed:
        return None
    for s in final:
        if not MELDS.check(s).valid:
            raise AssertionError(f"the solver built an invalid set: {' '.join(map(str, s))}")
    return DominoSolution(objective, tuple(sorted(placed.elements())), tuple(final), tuple(old))


def _ordered(old: Sequence[DominoSet], sets: list[DominoSet]) -> list[DominoSet]:
    """Final sets with the successors of existing sets first, in their old order."""
    from rummykit.solve.steps import match_sets

    matched = match_sets(old, sets)
    first = sorted((k, i) for i, k in matched.items())
    rest = [s for i, s in enumerate(sets) if i not in matched]
    return [sets[i] for _, i in first] + rest
