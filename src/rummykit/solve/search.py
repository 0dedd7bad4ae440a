"""An exact search over whole sets, for any piece family.

Given the pieces that must be used (the table), the pieces that may be used
(the rack) and every valid set the pieces could form, choose sets that use
every mandatory piece exactly once and optional pieces at most once, with the
most weight of optional pieces (optionally: a least total meld value). The
search always covers the first remaining piece: it either picks a set holding
that piece or, for an optional piece, leaves its copies in the rack; results
are memoised on what remains.

This is the solver for dominoes (``domino-rummikub``), the solver of the
initial meld for tiles (rack only, small) and, for tiles on small positions,
the independent second method the tests check the number-by-number program
against. It is exponential in the worst case: use it on small positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

NEG = -(1 << 62)


class SetSearch(Generic[P]):
    """One search problem: pieces in a fixed order, candidate sets as count vectors."""

    def __init__(
        self,
        mandatory: Counter[P],
        optional: Counter[P],
        candidates: Sequence[tuple[P, ...]],
        weight: Callable[[P], int],
        *,
        order: Callable[[P], object],
        meld_value: Callable[[tuple[P, ...]], int] | None = None,
        threshold: int = 0,
        max_sets: int | None = None,
    ) -> None:
        pieces = sorted(set(mandatory) | set(optional), key=order)  # type: ignore[arg-type]
        self.pieces = pieces
        index = {p: i for i, p in enumerate(pieces)}
        n = len(pieces)
        self.mand0 = tuple(mandatory[p] for p in pieces)
        self.opt0 = tuple(optional[p] for p in pieces)
        self.weights = tuple(weight(p) for p in pieces)
        self.threshold = threshold
        self.max_sets = max_sets
        avail = [m + o for m, o in zip(self.mand0, self.opt0, strict=True)]
        by_first: list[list[tuple[tuple[int, ...], tuple[P, ...], int]]] = [[] for _ in range(n)]
        seen: set[tuple[int, ...]] = set()
        for cand in candidates:
            if any(p not in index for p in cand):
                continue
            vec = [0] * n
            for p in cand:
                vec[index[p]] += 1
            if any(vec[i] > avail[i] for i in range(n)):
                continue
            key = tuple(vec)
            value = meld_value(cand) if meld_value is not None else 0
            if key in seen and meld_value is None:
                continue
            seen.add(key)
            for i in range(n):
                if vec[i]:
                    by_first[i].append((key, cand, value))
        self.by_piece = by_first
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], tuple[int, object]] = {}

    def solve(self) -> tuple[int, list[tuple[P, ...]]] | None:
        """The best weight and the sets that reach it, or None if no cover exists."""
        value, plan = self._best(self.mand0, self.opt0, 0, 0)
        if value == NEG:
            return None
        sets: list[tuple[P, ...]] = []
        node = plan
        while node is not None:
            assert isinstance(node, tuple)
            cand, node = node
            sets.append(cand)
        return value, sets

    def _best(
        self, mand: tuple[int, ...], opt: tuple[int, ...], meld: int, count: int
    ) -> tuple[int, object]:
        key = (mand, opt, meld, count)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        first = next((i for i, m in enumerate(mand) if m), None)
        result: tuple[int, object]
        if first is None:
            first = next((i for i, o in enumerate(opt) if o), None)
            if first is None:
                result = (0, None) if meld >= self.threshold else (NEG, None)
                self.memo[key] = result
                return result
            # Leave every remaining copy of this optional piece in the rack.
            rest = list(opt)
            rest[first] = 0
            result = self._best(mand, tuple(rest), meld, count)
        else:
            result = (NEG, None)
        if self.max_sets is not None and count >= self.max_sets:
            self.memo[key] = result
            return result
        for vec, cand, value in self.by_piece[first]:
            nm = list(mand)
            no = list(opt)
            gain = 0
            ok = True
            for i, k in enumerate(vec):
                if not k:
                    continue
                take_m = min(k, nm[i])
                nm[i] -= take_m
                take_o = k - take_m
                if take_o > no[i]:
                    ok = False
                    break
                no[i] -= take_o
                gain += take_o * self.weights[i]
            if not ok:
                continue
            nmeld = min(self.threshold, meld + value)
            sub, plan = self._best(tuple(nm), tuple(no), nmeld, count + 1)
            if sub == NEG:
                continue
            if sub + gain > result[0]:
                result = (sub + gain, (cand, plan))
        self.memo[key] = result
        return result
