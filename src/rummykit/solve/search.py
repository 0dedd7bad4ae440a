"""An exact search over whole sets, for any piece family.

Given the pieces that must be used (the table), the pieces that may be used
(the rack) and every valid set the pieces could form, choose sets that use
every mandatory piece exactly once and optional pieces at most once, with the
most weight of optional pieces (optionally: a least total meld value). The
search always covers the first remaining piece: it either picks a set holding
that piece or, for an optional piece, leaves its copies in the rack; a
position met again with no more weight so far is not searched again, and a
branch that cannot beat the best found is cut. The search itself is the one
every bot uses, :func:`rummykit.melds.cover.best_cover`; this module states
the solver's problem for it.

This is the solver for dominoes (``domino-rummikub``), the solver of the
initial meld for tiles (rack only, small) and, for tiles on small positions,
the independent second method the tests check the number-by-number program
against. It is exponential in the worst case: use it on small positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from rummykit.melds.cover import Candidate, CoverProblem, best_cover

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

P = TypeVar("P", bound=Hashable)


class SetSearch(Generic[P]):
    """One search problem, solved by :func:`rummykit.melds.cover.best_cover`.

    The table's pieces are required, the rack's are the hand; each rack piece
    a set uses adds ``weight(piece)``; ``meld_value`` measures a set toward
    ``threshold``. Among plays of equal weight the one found first wins, and
    leaving a rack piece out is tried before the sets that would use it.
    """

    def __init__(
        self,
        mandatory: Counter[P],
        optional: Counter[P],
        candidates: Sequence[tuple[P, ...]],
        weight: Callable[[P], int],
        *,
        order: Callable[[P], SupportsRichComparison],
        meld_value: Callable[[tuple[P, ...]], int] | None = None,
        threshold: int = 0,
        max_sets: int | None = None,
    ) -> None:
        cands: list[Candidate[P]] = []
        seen: set[frozenset[tuple[P, int]]] = set()
        for cand in candidates:
            if meld_value is None:
                # One candidate per multiset of pieces: the others would only repeat its branch.
                key = frozenset(Counter(cand).items())
                if key in seen:
                    continue
                seen.add(key)
            cands.append(Candidate(tuple(cand), 0, meld_value(cand) if meld_value is not None else 0))
        self.problem = CoverProblem(
            optional,
            cands,
            order=order,
            required=mandatory,
            weight=weight,
            potential=lambda p: max(0, weight(p)),
            threshold=threshold,
            max_sets=max_sets,
            leave_first=True,
        )

    def solve(self) -> tuple[int, list[tuple[P, ...]]] | None:
        """The best weight and the sets that reach it, or None if no cover exists."""
        found = best_cover(self.problem)
        if found is None:
            return None
        return found.value, list(found.sets)
