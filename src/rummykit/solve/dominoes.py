"""Best plays for ``domino-rummikub``: the exact set-by-set search over runs and sums.

The search (:func:`rummykit.melds.cover.best_cover`) is told the problem the
way that makes it shortest: the pieces are taken fewest candidate sets first
(a table domino that fits only a few sets is settled early), the sets that
use most rack dominoes are tried first, and before anything else it asks
whether every rack domino that fits some set can be placed at once, with all
of them required (the usual answer, and a quick one). Only when that fails
does it search the rack's dominoes as optional.

>>> from rummykit.pieces.dominoes import parse_dominoes
>>> s = solve_dominoes([parse_dominoes('5-3 5-4 5-5')], parse_dominoes('5-6 1-1 2-3'))
>>> [str(d) for d in s.placed], [' '.join(map(str, x)) for x in s.table]
(['5-6'], ['3-5 4-5 5-5 5-6'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.melds.cover import Candidate, CoverProblem, best_cover
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
    """An optimal play: dominoes placed from the rack and the complete final table.

    ``exact`` is False only when a ``node_limit`` stopped the search: the play is
    then the best found, valid but perhaps not the best there is.
    """

    objective: str
    placed: tuple[Domino, ...]
    table: tuple[DominoSet, ...]
    old_table: tuple[DominoSet, ...]
    exact: bool = True

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
    node_limit: int | None = None,
) -> DominoSolution | None:
    """The best play of ``rack`` onto ``table``, or None if there is none.

    ``objective``: ``dominoes`` (most dominoes), ``points`` (most spots) or
    ``initial`` (the starting group: one new set from the rack, of exactly three
    dominoes unless ``starting_group_size`` is ``3-or-more``; most dominoes, then
    spots). Ties go to placing fewer joker dominoes, then to the other measure.
    ``node_limit`` bounds the search (None: exact however long it takes); a play
    found within it comes back with ``exact`` False if the search was cut short.
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
        found = search.solve()
        exact = True
    else:
        found, exact = _best_play(old, rack, weight, node_limit)
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
    return DominoSolution(objective, tuple(sorted(placed.elements())), tuple(final), tuple(old), exact)


EXTEND_BY = 3
"""The most rack dominoes the first question adds to one existing set."""


def _best_play(
    old: list[DominoSet], rack: Sequence[Domino], weight: Callable[[Domino], int], node_limit: int | None
) -> tuple[tuple[int, list[DominoSet]] | None, bool]:
    """(best weight and final sets, whether the search was exact) for a play onto ``old``."""
    mandatory = Counter(d for s in old for d in s)
    candidates = domino_sets(mandatory + Counter(rack), MELDS)
    fits = Counter(d for c in set(candidates) for d in set(c))
    usable = Counter(d for d in rack if fits[d])
    # every domino worth placing (a 0-0 adds no spots and costs a joker under "points")
    wanted = Counter(d for d in usable.elements() if weight(d) > 0)
    kept = _keeping_every_set(old, usable, weight)
    if kept is not None and kept[0] == sum(weight(d) for d in wanted.elements()):
        return kept, True  # every domino worth placing is placed: nothing can do better

    def order(d: Domino) -> tuple[int, int]:
        return fits[d], d.code

    def rack_use(c: tuple[Domino, ...]) -> int:
        return -sum(min(k, usable[d]) for d, k in Counter(c).items())

    candidates.sort(key=rack_use)
    found = best_cover(
        CoverProblem(
            usable,
            [Candidate(c) for c in dict.fromkeys(candidates)],
            order=order,
            required=mandatory,
            weight=weight,
            potential=lambda d: max(0, weight(d)),
            node_limit=node_limit,
        )
    )
    if found is None:  # no play at all, or none found within the node limit
        return kept, node_limit is None
    if not found.complete and kept is not None and kept[0] >= found.value:
        return kept, False  # stopped by the node limit: the better of the two plays found
    return (found.value, list(found.sets)), found.complete


def _keeping_every_set(
    old: list[DominoSet], usable: Counter[Domino], weight: Callable[[Domino], int]
) -> tuple[int, list[DominoSet]] | None:
    """The best play that breaks up no existing set (each set kept or grown by up to
    :data:`EXTEND_BY` dominoes, new sets from the rack), as (weight, final sets), or None
    when it places nothing. When it places every domino worth placing, nothing can do
    better and the search is over: that is the usual case, and a quick one.
    """
    Token = tuple[str, int]
    Piece = Domino | Token
    wanted = usable
    options: list[Candidate[Piece]] = [Candidate(c) for c in domino_sets(wanted, MELDS)]
    grown: dict[tuple[int, tuple[Domino, ...]], DominoSet] = {}
    for i, s in enumerate(old):
        frontier: list[tuple[DominoSet, tuple[Domino, ...]]] = [(s, ())]
        for _ in range(EXTEND_BY):
            nxt: list[tuple[DominoSet, tuple[Domino, ...]]] = []
            for current, added in frontier:
                for d, bigger in MELDS.extensions(current):
                    more = tuple(sorted((*added, d), key=lambda x: x.code))
                    if Counter(more) - wanted or (i, more) in grown:
                        continue
                    grown[(i, more)] = bigger
                    nxt.append((bigger, more))
            frontier = nxt
    for (i, added), _bigger in grown.items():
        options.append(Candidate((("set", i), *added)))

    def order(p: Piece) -> tuple[int, int]:
        return (1, p[1]) if isinstance(p, tuple) else (0, p.code)

    def value(p: Piece) -> int:
        return 0 if isinstance(p, tuple) else weight(p)

    hand: Counter[Piece] = Counter({("set", i): 1 for i in range(len(old))})
    hand.update(wanted)
    found = best_cover(
        CoverProblem(hand, options, order=order, weight=value, potential=lambda p: max(0, value(p)))
    )
    if found is None or not found.sets:
        return None
    final: list[DominoSet] = [tuple(s) for s in old]
    new: list[DominoSet] = []
    for chosen in found.sets:
        head = chosen[0]
        if isinstance(head, tuple):
            added = tuple(p for p in chosen[1:] if not isinstance(p, tuple))
            final[head[1]] = grown[(head[1], added)]
        else:
            new.append(tuple(p for p in chosen if not isinstance(p, tuple)))
    return found.value, final + new


def _ordered(old: Sequence[DominoSet], sets: list[DominoSet]) -> list[DominoSet]:
    """Final sets with the successors of existing sets first, in their old order."""
    from rummykit.solve.steps import match_sets

    matched = match_sets(old, sets)
    first = sorted((k, i) for i, k in matched.items())
    rest = [s for i, s in enumerate(sets) if i not in matched]
    return [sets[i] for _, i in first] + rest
