"""The best collection of disjoint sets from a hand, for any meld family.

Bots and solvers all ask one question: of these candidate sets, which ones
together, never using a piece more often than the hand holds it, are best?
:func:`best_cover` answers it exactly (or, with a node limit, as well as it
can in that many steps). A :class:`CoverProblem` states it:

* ``hand``: the pieces that may be used (a multiset); ``required``: pieces
  that must all be used (say, a table that has to stay valid).
* ``candidates``: the sets, each a :class:`Candidate` with a ``value`` (what
  choosing it adds to the objective) and a ``measure`` (what it counts toward
  the ``threshold``, say an initial meld's points).
* the objective is additive: the chosen sets' values plus ``weight(piece)``
  for every hand piece they use. Several criteria, most important first,
  pack into one number with :func:`rank` (most pieces, then fewest jokers,
  then most points...).
* ``potential(piece)`` is the most a hand piece not yet decided could still
  add (with the sets it could join): it prunes branches that cannot beat the
  best so far. ``reach(piece)`` does the same for the threshold.

The search takes the pieces in ``order``. It covers the first required piece
left with each candidate holding it; once none is left, it takes the first
hand piece left and tries each candidate starting with it, then leaves the
piece's remaining copies unused. A leaf that reaches the threshold and beats
the best so far becomes the best, so among equal values the first found in
that order wins: the candidates' order and ``leave_first`` (try leaving a
piece out before the candidates) are the tie-breaks. A position already met
with at least the same value so far is not searched again.

>>> from collections import Counter
>>> sets = [('a', 'b', 'c'), ('c', 'd', 'e'), ('d', 'e', 'f')]
>>> problem = CoverProblem(Counter('abcdef'), [Candidate(s, value=len(s)) for s in sets], order=str)
>>> best = best_cover(problem)
>>> best.sets, best.value
((('a', 'b', 'c'), ('d', 'e', 'f')), 6)
>>> best_cover(CoverProblem(Counter('abc'), [], order=str, required=Counter('x'))) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, NamedTuple, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

P = TypeVar("P", bound=Hashable)

MEMO_AFTER = 32
"""Positions are remembered only once a search has visited this many nodes (small searches gain nothing)."""

RANK_BASE = 1 << 24
"""The radix of :func:`rank`: every packed criterion must stay within half of it, totals included."""


def rank(*parts: int) -> int:
    """Pack criteria, most important first, into one number that orders like the tuple ``parts``.

    The packing is linear, so sums of ranks are ranks of the summed criteria:
    a set's value and a piece's potential add up part by part, provided each
    part (summed over a whole cover) stays below ``RANK_BASE // 2`` in size.

    >>> rank(3, -1, 20) > rank(3, -2, 99) > rank(2, 0, 500)
    True
    >>> rank(1, 0, 5) + rank(2, -1, 7) == rank(3, -1, 12)
    True
    """
    value = 0
    for part in parts:
        value = value * RANK_BASE + part
    return value


class Candidate(NamedTuple, Generic[P]):
    """One candidate set: its pieces, what it adds to the objective and to the threshold measure."""

    pieces: tuple[P, ...]
    value: int = 0
    measure: int = 0


@dataclass(slots=True)
class CoverProblem(Generic[P]):
    """What :func:`best_cover` solves (see the module docs for each field's meaning)."""

    hand: Mapping[P, int]
    candidates: Sequence[Candidate[P]]
    order: Callable[[P], SupportsRichComparison]
    required: Mapping[P, int] = field(default_factory=dict)
    weight: Callable[[P], int] | None = None
    """What each hand piece a chosen set uses adds (none: nothing)."""
    potential: Callable[[P], int] | None = None
    """The most one undecided hand piece could still add (none: no pruning by value)."""
    reach: Callable[[P], int] | None = None
    """The most one undecided hand piece could still add to the measure (none: no pruning by threshold)."""
    threshold: int = 0
    """The chosen sets' measures must add up to at least this."""
    max_sets: int | None = None
    """Choose at most this many sets."""
    node_limit: int | None = None
    """Stop after visiting this many search nodes (the best found so far is returned)."""
    leave_first: bool = False
    """Tie-break: try leaving a hand piece out before the candidates that start with it."""
    memo: bool = True
    """Remember positions searched, so one met again with no better value so far is skipped."""


class Cover(NamedTuple, Generic[P]):
    """The best collection found: its value, the chosen candidates (in search order) and the search effort.

    ``complete`` is false when the node limit stopped the search (the cover
    may then not be the best).
    """

    value: int
    chosen: tuple[Candidate[P], ...]
    nodes: int
    complete: bool

    @property
    def sets(self) -> tuple[tuple[P, ...], ...]:
        """The chosen sets' pieces."""
        return tuple(c.pieces for c in self.chosen)


def best_cover(problem: CoverProblem[P]) -> Cover[P] | None:
    """The best collection of disjoint candidate sets (None when no collection meets the conditions).

    "Best" is the highest value; the conditions are: every required piece is
    used exactly as often as required, no piece more often than required plus
    held, the measures reach the threshold, at most ``max_sets`` sets.
    """
    if len(problem.candidates) <= 1 and not problem.required:
        found = _one_candidate(problem)
        if found is not False:
            return found
    search = _Search(problem)
    search.run()
    if search.best is None:
        return None
    return Cover(search.best_value, search.best, search.nodes, not search.stopped)


def _one_candidate(problem: CoverProblem[P]) -> Cover[P] | Literal[False] | None:
    """The search's answer when at most one candidate and no required piece are given, worked out directly.

    The search would take the candidate as often as the hand allows (``t``
    times), then leave one copy at a time: its leaves are ``t, t - 1, ... 0``
    copies (``0 ... t`` with ``leave_first``), and the first of the best wins.
    False when a node limit could stop the search before it sees them all.
    """
    times, gain, cand = 0, 0, None
    if problem.candidates:
        cand = problem.candidates[0]
        need: dict[P, int] = {}
        for p in cand.pieces:
            need[p] = need.get(p, 0) + 1
        times = min((problem.hand.get(p, 0) // k for p, k in need.items()), default=0)
        if problem.max_sets is not None:
            times = min(times, problem.max_sets)
        weight = problem.weight
        if times and weight is not None:
            gain = cand.value + sum(k * weight(p) for p, k in need.items())
        else:
            gain = cand.value
    if problem.node_limit is not None and 2 * times + 2 > problem.node_limit:
        return False
    best: Cover[P] | None = None
    for t in range(times + 1) if problem.leave_first else range(times, -1, -1):
        if (cand.measure * t if cand is not None else 0) >= problem.threshold and (best is None or gain * t > best.value):
            best = Cover(gain * t, (cand,) * t if cand is not None else (), times + 1, True)
    return best


@dataclass(slots=True)
class _Tally:
    """The running totals of the branch being searched (changed on the way down, restored on the way up)."""

    value: int = 0  # the objective so far
    potential: int = 0  # what the undecided hand pieces could still add
    measure: int = 0  # toward the threshold
    reach: int = 0  # what the undecided hand pieces could still add to the measure
    sets: int = 0  # sets chosen


class _Compiled(Generic[P]):
    """A candidate as piece indices and counts, with what it adds when all its pieces come from the hand."""

    __slots__ = ("candidate", "hand_potential", "hand_reach", "hand_value", "items", "measure", "value")

    def __init__(
        self, candidate: Candidate[P], items: tuple[tuple[int, int], ...], value: int, potential: int, reach: int
    ) -> None:
        self.candidate = candidate
        self.items = items
        self.value = candidate.value
        self.measure = candidate.measure
        self.hand_value = value
        self.hand_potential = potential
        self.hand_reach = reach


class _Search(Generic[P]):
    """One run of the search (see the module docs)."""

    def __init__(self, problem: CoverProblem[P]) -> None:
        hand, required = problem.hand, problem.required
        keys = [p for p, k in hand.items() if k > 0]
        if required:
            # dict, not set: pieces may hash by identity, so a set's order could differ from run to run
            keys = list(dict.fromkeys([*keys, *(p for p, k in required.items() if k > 0)]))
        pieces = sorted(keys, key=problem.order)
        n = self.n = len(pieces)
        index: dict[P, int] = {}
        opt = self.opt = [0] * n
        mand = self.mand = [0] * n
        weights = self.weights = [0] * n
        potentials = self.potentials = [0] * n
        reaches = self.reaches = [0] * n
        weight, potential_of, reach_of = problem.weight, problem.potential, problem.reach
        total_potential = total_reach = 0
        for i, p in enumerate(pieces):
            index[p] = i
            k = opt[i] = hand.get(p, 0)
            if required:
                mand[i] = required.get(p, 0)
            if weight is not None:
                weights[i] = weight(p)
            if potential_of is not None:
                potentials[i] = potential_of(p)
                total_potential += k * potentials[i]
            if reach_of is not None:
                reaches[i] = reach_of(p)
                total_reach += k * reaches[i]
        has_required = self.has_required = any(mand)
        available = [m + o for m, o in zip(mand, opt, strict=True)] if has_required else opt
        by_piece: list[list[_Compiled[P]]] = [[] for _ in range(n)] if has_required else []
        by_first: list[list[_Compiled[P]]] = [[] for _ in range(n)]
        for cand in problem.candidates:
            indices: list[int] = []
            for p in cand.pieces:
                i = index.get(p, -1)
                if i < 0:
                    break  # a piece neither required nor in the hand: the set cannot be made
                indices.append(i)
            if not indices or i < 0:
                continue
            indices.sort()
            items: list[tuple[int, int]] = []
            value, potential, reach = cand.value, 0, 0
            last, c = indices[0], 0
            for i in (*indices, -1):
                if i == last:
                    c += 1
                    continue
                if c > available[last]:
                    break
                items.append((last, c))
                value += c * weights[last]
                potential += c * potentials[last]
                reach += c * reaches[last]
                last, c = i, 1
            else:
                compiled = _Compiled(cand, tuple(items), value, potential, reach)
                if has_required:
                    for i, _c in items:
                        by_piece[i].append(compiled)
                by_first[indices[0]].append(compiled)
        self.by_piece, self.by_first = by_piece, by_first
        self.tally = _Tally(potential=total_potential, reach=total_reach)
        self.problem = problem
        self.chosen: list[Candidate[P]] = []
        self.best: tuple[Candidate[P], ...] | None = None
        self.best_value = 0
        self.nodes = 0
        self.limit = problem.node_limit if problem.node_limit is not None else -1
        self.stopped = False
        self.memo: dict[tuple[int, ...], int] | None = {} if problem.memo else None
        self.bound = problem.potential is not None
        self.reach_bound = problem.reach is not None
        self.threshold = problem.threshold
        self.max_sets = problem.max_sets if problem.max_sets is not None else -1
        self.leave_first = problem.leave_first

    def run(self) -> None:
        self._visit(0, 0, 0)

    def _visit(self, mp: int, op: int, j: int) -> None:
        """Search from here: ``mp``/``op`` bound the first required/hand piece left; ``j`` is the first
        candidate of the hand piece ``op`` still allowed (the sets of one piece's copies are taken in order).

        Leaving a piece out, the last branch of a node, goes on in the same call
        (a new node all the same); what it left is put back when the call returns.
        """
        t = self.tally
        opt, n, threshold = self.opt, self.n, self.threshold
        by_first, potentials, reaches = self.by_first, self.potentials, self.reaches
        limit, reach_bound, bound, has_required = self.limit, self.reach_bound, self.bound, self.has_required
        memo, leave_first, max_sets, chosen = self.memo, self.leave_first, self.max_sets, self.chosen
        left: list[tuple[int, int]] = []  # (piece, copies) left out in this call, to put back
        while True:
            nodes = self.nodes = self.nodes + 1
            if nodes > limit >= 0:
                self.stopped = True
            if self.stopped:
                break
            if reach_bound and t.measure + t.reach < threshold:
                break
            if bound and self.best is not None and t.value + t.potential <= self.best_value:
                break
            if has_required:
                mand = self.mand
                while mp < n and not mand[mp]:
                    mp += 1
                if mp < n:
                    self._cover_required(mp, op)
                    break
            # Every required piece is covered: decide the hand pieces in order. A piece no
            # candidate starts with can only be left out: leave it at once (no node).
            piece = op
            while piece < n:
                copies = opt[piece]
                if copies:
                    if by_first[piece]:
                        break
                    left.append((piece, copies))
                    opt[piece] = 0
                    t.potential -= copies * potentials[piece]
                    t.reach -= copies * reaches[piece]
                piece += 1
            if piece == n:
                if t.measure >= threshold and (self.best is None or t.value > self.best_value):
                    self.best = tuple(self.chosen)
                    self.best_value = t.value
                break
            if piece != op:
                j = 0
            if memo is not None and nodes > MEMO_AFTER:
                # The same position met again with no more value so far cannot do better.
                measure = t.measure if t.measure < threshold else threshold
                key = (*opt, j, measure, t.sets, *(self.mand if has_required else ()))
                seen = memo.get(key)
                if seen is not None and seen >= t.value:
                    break
                memo[key] = t.value
            if leave_first:
                self._leave(mp, piece)
            if t.sets != max_sets:
                options = by_first[piece]
                for k in range(j, len(options)):
                    cand = options[k]
                    items = cand.items
                    for i, c in items:
                        if opt[i] < c:
                            break
                    else:
                        for i, c in items:
                            opt[i] -= c
                        t.value += cand.hand_value
                        t.potential -= cand.hand_potential
                        t.measure += cand.measure
                        t.reach -= cand.hand_reach
                        t.sets += 1
                        chosen.append(cand.candidate)
                        self._visit(mp, piece, k)
                        chosen.pop()
                        t.value -= cand.hand_value
                        t.potential += cand.hand_potential
                        t.measure -= cand.measure
                        t.reach += cand.hand_reach
                        t.sets -= 1
                        for i, c in items:
                            opt[i] += c
                        if self.stopped:
                            break
            if leave_first or self.stopped:
                break
            # Leave the piece's remaining copies unused: the next node, in this same call.
            copies = opt[piece]
            left.append((piece, copies))
            opt[piece] = 0
            t.potential -= copies * potentials[piece]
            t.reach -= copies * reaches[piece]
            op, j = piece + 1, 0
        for i, copies in reversed(left):
            opt[i] = copies
            t.potential += copies * potentials[i]
            t.reach += copies * reaches[i]

    def _leave(self, mp: int, piece: int) -> None:
        """Leave the remaining copies of the hand piece ``piece`` unused, and go on with the next piece."""
        if self.stopped:
            return
        t = self.tally
        copies = self.opt[piece]
        self.opt[piece] = 0
        lost, lost_reach = copies * self.potentials[piece], copies * self.reaches[piece]
        t.potential -= lost
        t.reach -= lost_reach
        self._visit(mp, piece + 1, 0)
        self.opt[piece] = copies
        t.potential += lost
        t.reach += lost_reach

    def _first_visit(self, j: int) -> bool:
        """False when this position was searched before with at least the same value so far (else remember it)."""
        assert self.memo is not None
        t = self.tally
        measure = t.measure if t.measure < self.threshold else self.threshold
        key = (*self.opt, j, measure, t.sets, *(self.mand if self.has_required else ()))
        seen = self.memo.get(key)
        if seen is not None and seen >= t.value:
            return False
        self.memo[key] = t.value
        return True

    def _cover_required(self, mp: int, op: int) -> None:
        """The required piece ``mp`` comes first: cover it with each candidate holding it.

        A candidate takes the required copies of its pieces first, then hand copies.
        """
        if self.memo is not None and not self._first_visit(0):
            return
        t = self.tally
        if t.sets == self.max_sets:
            return
        mand, opt = self.mand, self.opt
        weights, potentials, reaches = self.weights, self.potentials, self.reaches
        for cand in self.by_piece[mp]:
            items = cand.items
            for i, c in items:
                if mand[i] + opt[i] < c:
                    break
            else:
                gain = lost = lost_reach = 0
                taken: list[tuple[int, int, int]] = []
                for i, c in items:
                    from_required = min(c, mand[i])
                    from_hand = c - from_required
                    mand[i] -= from_required
                    opt[i] -= from_hand
                    taken.append((i, from_required, from_hand))
                    if from_hand:
                        gain += from_hand * weights[i]
                        lost += from_hand * potentials[i]
                        lost_reach += from_hand * reaches[i]
                value = cand.value + gain
                t.value += value
                t.potential -= lost
                t.measure += cand.measure
                t.reach -= lost_reach
                t.sets += 1
                self.chosen.append(cand.candidate)
                self._visit(mp, op, 0)
                self.chosen.pop()
                t.value -= value
                t.potential += lost
                t.measure -= cand.measure
                t.reach += lost_reach
                t.sets -= 1
                for i, from_required, from_hand in taken:
                    mand[i] += from_required
                    opt[i] += from_hand
                if self.stopped:
                    return
