"""The one set-cover search (``rummykit.melds.cover``) against trying every collection.

Small random problems over a few pieces: every multiset of candidates that
fits is tried, the best value kept, and the search must find that value (and
a cover that really has it), with or without required pieces, thresholds, a
cap on the number of sets, pruning by potential and the position memo.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.melds.cover import RANK_BASE, Candidate, CoverProblem, best_cover, rank

PIECES = "abcde"


def brute_force(problem: CoverProblem[str]) -> int | None:
    """The best value over every fitting multiset of candidates (None: nothing meets the conditions)."""
    available = Counter(problem.hand) + Counter(problem.required)
    weight: Callable[[str], int] = problem.weight or (lambda _p: 0)
    cands = [c for c in problem.candidates if not Counter(c.pieces) - available and c.pieces]
    best: int | None = None

    def go(i: int, used: Counter[str], value: int, measure: int, sets: int) -> None:
        nonlocal best
        if i == len(cands):
            if any(used[p] < k for p, k in problem.required.items()):
                return
            if measure < problem.threshold:
                return
            total = value + sum(weight(p) * (k - problem.required.get(p, 0)) for p, k in used.items())
            if best is None or total > best:
                best = total
            return
        cand = cands[i]
        need = Counter(cand.pieces)
        copies = 0
        while True:
            go(i + 1, used, value + copies * cand.value, measure + copies * cand.measure, sets + copies)
            if problem.max_sets is not None and sets + copies >= problem.max_sets:
                return
            used = used + need
            if used - available:
                return
            copies += 1

    go(0, Counter(), 0, 0, 0)
    return best


def check_cover(problem: CoverProblem[str], sets: Sequence[tuple[str, ...]], value: int) -> None:
    """The cover fits the hand, covers what is required and is worth ``value``."""
    used = Counter(p for s in sets for p in s)
    assert not used - (Counter(problem.hand) + Counter(problem.required))
    assert all(used[p] >= k for p, k in problem.required.items())
    if problem.max_sets is not None:
        assert len(sets) <= problem.max_sets
    by_pieces = {c.pieces: c for c in problem.candidates}
    assert sum(by_pieces[s].measure for s in sets) >= problem.threshold
    weight: Callable[[str], int] = problem.weight or (lambda _p: 0)
    worth = sum(by_pieces[s].value for s in sets)
    worth += sum(weight(p) * (k - problem.required.get(p, 0)) for p, k in used.items())
    assert worth == value


counts = st.dictionaries(st.sampled_from(PIECES), st.integers(1, 2), max_size=5)
candidate_pieces = st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map(lambda ps: tuple(sorted(ps)))


@st.composite
def problems(draw: st.DrawFn, *, required: bool) -> CoverProblem[str]:
    hand = draw(counts)
    need = draw(counts) if required and draw(st.booleans()) else {}
    pieces = draw(st.lists(candidate_pieces, max_size=7, unique=True))
    cands = [Candidate(p, draw(st.integers(-3, 9)), draw(st.integers(0, 6))) for p in pieces]
    weights = {p: draw(st.integers(-2, 5)) for p in PIECES}
    return CoverProblem(
        hand,
        cands,
        order=str,
        required=need,
        weight=weights.__getitem__ if draw(st.booleans()) else None,
        threshold=draw(st.sampled_from((0, 0, 4, 9))),
        max_sets=draw(st.sampled_from((None, None, 1, 2))),
        leave_first=draw(st.booleans()),
        memo=draw(st.booleans()),
    )


@settings(max_examples=400, deadline=None)
@given(problems(required=True))
def test_the_search_finds_the_best_value(problem: CoverProblem[str]) -> None:
    expected = brute_force(problem)
    found = best_cover(problem)
    if expected is None:
        assert found is None
        return
    assert found is not None and found.complete
    assert found.value == expected
    check_cover(problem, found.sets, found.value)


def with_potential(problem: CoverProblem[str]) -> CoverProblem[str]:
    """The same hand-only problem with a valid potential (and reach) per piece, so pruning bites."""
    weight: Callable[[str], int] = problem.weight or (lambda _p: 0)
    best_share = {
        p: max((max(0, c.value) for c in problem.candidates if p in c.pieces), default=0) for p in PIECES
    }
    best_reach = {p: max((c.measure for c in problem.candidates if p in c.pieces), default=0) for p in PIECES}
    return CoverProblem(
        problem.hand,
        problem.candidates,
        order=str,
        weight=problem.weight,
        potential=lambda p: max(0, weight(p)) + best_share[p],
        reach=best_reach.__getitem__,
        threshold=problem.threshold,
        max_sets=problem.max_sets,
        leave_first=problem.leave_first,
        memo=problem.memo,
    )


@settings(max_examples=400, deadline=None)
@given(problems(required=False))
def test_pruning_by_potential_and_reach_keeps_the_best(problem: CoverProblem[str]) -> None:
    pruned = with_potential(problem)
    expected = brute_force(pruned)
    found = best_cover(pruned)
    plain = best_cover(problem)
    if expected is None:
        assert found is None and plain is None
        return
    assert found is not None and plain is not None
    assert found.value == plain.value == expected
    check_cover(pruned, found.sets, found.value)
    assert found.nodes <= plain.nodes


@settings(max_examples=200, deadline=None)
@given(problems(required=True))
def test_the_memo_changes_nothing_but_the_effort(problem: CoverProblem[str]) -> None:
    on = best_cover(dataclasses.replace(problem, memo=True))
    off = best_cover(dataclasses.replace(problem, memo=False))
    assert (on is None) == (off is None)
    if on is not None and off is not None:
        assert (on.value, on.sets) == (off.value, off.sets)
        assert on.nodes <= off.nodes


def test_ties_go_to_the_first_cover_in_search_order() -> None:
    hand = Counter("abc")
    first, second = Candidate(("a", "b"), 2), Candidate(("a", "c"), 2)
    found = best_cover(CoverProblem(hand, [first, second], order=str))
    assert found is not None and found.sets == (("a", "b"),)
    found = best_cover(CoverProblem(hand, [second, first], order=str))
    assert found is not None and found.sets == (("a", "c"),)
    # A set worth nothing: taken when sets come first, left when leaving comes first.
    zero = [Candidate(("a",), 0)]
    taken = best_cover(CoverProblem(Counter("a"), zero, order=str))
    left = best_cover(CoverProblem(Counter("a"), zero, order=str, leave_first=True))
    assert taken is not None and taken.sets == (("a",),)
    assert left is not None and left.sets == ()


def test_required_pieces_must_all_be_covered() -> None:
    cands = [Candidate(("a", "b")), Candidate(("b", "c")), Candidate(("a", "b", "c"))]
    found = best_cover(CoverProblem(Counter("c"), cands, order=str, required=Counter("ab"), weight=lambda _p: 1))
    assert found is not None and found.sets == (("a", "b", "c"),) and found.value == 1
    assert best_cover(CoverProblem(Counter(), cands, order=str, required=Counter("ac"))) is None


def test_the_node_limit_stops_the_search_with_the_best_so_far() -> None:
    hand = Counter({p: 2 for p in "abcdefgh"})
    cands = [Candidate(tuple(c), len(c)) for k in (2, 3) for c in itertools.combinations("abcdefgh", k)]
    full = best_cover(CoverProblem(hand, cands, order=str))
    short = best_cover(CoverProblem(hand, cands, order=str, node_limit=10, memo=False))
    assert full is not None and full.complete and full.value == 16
    assert short is not None and not short.complete and short.nodes == 11 and short.value <= full.value
    check_cover(CoverProblem(hand, cands, order=str), short.sets, short.value)


@given(
    st.lists(st.integers(-(RANK_BASE // 8), RANK_BASE // 8), min_size=3, max_size=3),
    st.lists(st.integers(-(RANK_BASE // 8), RANK_BASE // 8), min_size=3, max_size=3),
)
def test_rank_orders_like_the_tuple_and_adds_part_by_part(a: list[int], b: list[int]) -> None:
    assert (rank(*a) < rank(*b)) == (a < b)
    assert rank(*a) + rank(*b) == rank(*(x + y for x, y in zip(a, b, strict=True)))


@pytest.mark.parametrize("limit", [None, 50])
def test_pieces_outside_the_hand_rule_a_candidate_out(limit: int | None) -> None:
    found = best_cover(
        CoverProblem(Counter("ab"), [Candidate(("a", "x"), 5), Candidate(("a", "b"), 1)], order=str, node_limit=limit)
    )
    assert found is not None and found.sets == (("a", "b"),)


@settings(max_examples=300, deadline=None)
@given(problems(required=False), st.integers(0, 3))
def test_one_candidate_is_worked_out_as_the_search_would(problem: CoverProblem[str], copies: int) -> None:
    # Candidates that cannot be made (their piece is in no hand) send the problem to the full search.
    one = dataclasses.replace(problem, candidates=list(problem.candidates[:1]))
    never = [Candidate(("z",) * (copies + 1), 100), Candidate(("y",), -5)]
    searched = dataclasses.replace(one, candidates=[*one.candidates, *never])
    direct, full = best_cover(one), best_cover(searched)
    assert (direct is None) == (full is None)
    if direct is not None and full is not None:
        assert (direct.value, direct.chosen) == (full.value, full.chosen)
