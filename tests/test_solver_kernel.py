"""The compiled search of the tile solver: its parts agree with each other and are sound.

The end-to-end exactness of ``solve_tiles`` is checked against independent
methods in ``test_solver.py``; these tests pin down the kernel's own
machinery: tables that grow when they fill up, the depth-first search and
the sweep, and the per-colour relaxation that prunes the sweep.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import TileSet, assert_legal, random_position

from rummykit.pieces.tiles import Tile
from rummykit.solve import kernel as k
from rummykit.solve.play import _problem, placeable, solve_tiles
from rummykit.solve.tiles import Problem, _Kernel, primary_of, solve_best, solve_problem, upper_bound


def problem_of(table: list[TileSet], rack: list[Tile], objective: str = "tiles") -> Problem:
    tiles = [t for s in table for t in s]
    return _problem(tiles, placeable(tiles, rack) + [t for t in rack if t.is_joker], objective)


def seeded(seed: int) -> tuple[list[TileSet], list[Tile]]:
    rng = random.Random(seed)
    return random_position(rng, rng.choice((0, 9, 18, 30, 45)), rng.randint(4, 20), rng.choice((0, 1, 2, 2, 3, 4)))


def value(found: object) -> int | None:
    return None if found is None else found.value  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(40))
def test_tables_that_fill_up_grow_without_changing_the_answer(seed: int) -> None:
    problem = problem_of(*seeded(seed))
    roomy = _Kernel(problem, sizes=(1 << 14, 1 << 15, 1 << 15))
    tight = _Kernel(problem, sizes=(4, 2, 4))  # everything overflows at once
    for target in (1, max(1, upper_bound(problem) - 1)):
        for strategy in (k.REACH, k.SWEEP):
            # the same play, not only the same value (the state tables grow in place)
            assert tight.run(strategy, target)[0] == roomy.run(strategy, target)[0]
    if upper_bound(problem) > 0:  # else no search gets past its first state
        assert tight._sizes()[0] > 4


@pytest.mark.parametrize("seed", range(60))
def test_depth_first_and_sweep_agree_with_and_without_the_relaxation(seed: int) -> None:
    problem = problem_of(*seeded(seed))
    best = solve_best(problem)
    target = 1 if best is None else primary_of(best.value)
    answers = set()
    for relax in (False, True):
        for strategy in (k.REACH, k.SWEEP):
            kernel = _Kernel(problem)
            if relax:
                kernel.relax()
                assert kernel.relaxed
            found, finished = kernel.run(strategy, target)
            assert finished
            answers.add(value(found))
        # a probe without a target (cut, once relaxed, by the best play found so far)
        kernel = _Kernel(problem)
        if relax:
            kernel.relax()
        found, finished = kernel.run(k.REACH, -(1 << 62))
        assert finished
        answers.add(value(found) if found is not None and primary_of(found.value) >= 1 else None)
    assert answers == {value(best)}


@pytest.mark.parametrize("seed", range(30))
def test_a_search_told_the_best_value_finds_a_play_with_it_and_none_better(seed: int) -> None:
    # the tidy step's trials: the search cuts every branch that cannot reach the value
    # it is told and stops at the first play that has it
    problem = problem_of(*seeded(seed))
    best = solve_best(problem)
    if best is None:
        return
    target = primary_of(best.value)
    found = solve_problem(problem, target=target, node_limit=1_000_000, value=best.value)
    assert found is not None and found.value == best.value
    assert solve_problem(problem, target=target, node_limit=1_000_000, value=best.value + 1) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["tiles", "points"]))
def test_the_relaxation_never_loses_the_optimum(seed: int, objective: str) -> None:
    table, rack = seeded(seed)
    problem = problem_of(table, rack, objective)
    plain = _Kernel(problem).run(k.SWEEP, 1)[0]
    relaxed = _Kernel(problem)
    relaxed.relax()
    assert value(relaxed.run(k.SWEEP, 1)[0]) == value(plain)


@pytest.mark.parametrize("seed", range(30))
def test_no_play_reaches_a_target_above_the_optimum(seed: int) -> None:
    problem = problem_of(*seeded(seed))
    best = solve_best(problem)
    optimum = 0 if best is None else primary_of(best.value)
    assert solve_problem(problem, target=optimum + 1) is None
    if best is not None:
        again = solve_problem(problem, target=optimum)
        assert again is not None and again.value == best.value


def test_a_position_that_needs_the_sweep_and_the_relaxation() -> None:
    # 60 table tiles with two jokers and a rack of 23 that all fit: the depth-first
    # search alone gives up here, so this goes through the relaxation and a relaxed
    # depth-first search; the relaxed sweep finds a play as good.
    from solver_positions_for_tests import hard_position

    table, rack = hard_position()
    problem = problem_of(table, rack)
    kernel = _Kernel(problem)
    found, finished = kernel.run(k.REACH, upper_bound(problem), 10_000)
    assert found is None and not finished
    solution = solve_tiles(table, rack, tidy=False)
    assert solution is not None and solution.tiles_placed == len(rack) == 23
    assert_legal(table, rack, solution)
    kernel.relax()
    swept, _ = kernel.run(k.SWEEP, upper_bound(problem))
    assert swept is not None and swept.value == solve_best(problem).value  # type: ignore[union-attr]


def test_a_relaxation_never_reads_the_rows_an_earlier_one_left() -> None:
    # rows are stamped by the relaxation that wrote them instead of zeroed: relax a problem
    # whose colour states reach far, then smaller ones in the same work array, each agreeing
    # with a work array of its own; then the first again
    problems = [problem_of(*seeded(seed)) for seed in (5, 2, 13, 5)]
    for problem in problems:
        alone = _Kernel(problem, sizes=(1 << 14, 1 << 15, 1 << 15))
        alone.relax()
        shared = _Kernel(problem)
        shared.relax()
        assert shared.W[k.W_RELAX_GEN] >= 1
        assert value(shared.run(k.SWEEP, 1)[0]) == value(alone.run(k.SWEEP, 1)[0])
        assert value(shared.run(k.REACH, 1)[0]) == value(alone.run(k.REACH, 1)[0])


def test_searches_sharing_the_work_array_never_read_each_others_bounds() -> None:
    # Kernels of one thread share a work array: the memo of moves serves every problem,
    # the relaxation's table one problem at a time. Interleave relaxed searches of
    # different problems and compare with kernels that have arrays of their own.
    problems = [problem_of(*seeded(seed)) for seed in (3, 7, 11, 19)]
    private = {}
    for i, problem in enumerate(problems):
        alone = _Kernel(problem, sizes=(1 << 14, 1 << 15, 1 << 15))
        alone.relax()
        private[i] = value(alone.run(k.SWEEP, 1)[0])
    kernels = [_Kernel(problem) for problem in problems]
    for kernel in kernels:
        kernel.relax()
    for _ in range(2):
        for i, kernel in enumerate(kernels):
            assert value(kernel.run(k.SWEEP, 1)[0]) == private[i]
            assert value(kernel.run(k.REACH, 1)[0]) == private[i]


@pytest.mark.parametrize("seed", range(40))
def test_the_relaxation_with_many_jokers_never_loses_the_optimum(seed: int) -> None:
    # two to four jokers: the relaxed sweep and depth-first search agree with the plain sweep
    rng = random.Random(5000 + seed)
    table, rack = random_position(rng, rng.choice((9, 18, 30, 45)), rng.randint(8, 20), rng.randint(2, 4))
    for objective in ("tiles", "points"):
        problem = problem_of(table, rack, objective)
        plain = value(_Kernel(problem).run(k.SWEEP, 1)[0])
        relaxed = _Kernel(problem)
        relaxed.relax()
        assert relaxed.relaxed
        assert value(relaxed.run(k.SWEEP, 1)[0]) == plain
        assert value(relaxed.run(k.REACH, 1)[0]) == plain


def _packed(codes: list[int]) -> int:
    packed = 0
    for code in sorted(codes, reverse=True):
        packed = (packed << k.CODE_BITS) | code
    return packed


@pytest.mark.parametrize(
    ("codes", "table", "rack", "jleft", "arrivals", "supply", "jokers"),
    [
        ([], 1, 1, 0, 0, 2, 0),
        ([1, 3], 1, 0, 2, 0, 1, 2),
        ([2, 3 | 1 << 2], 0, 2, 2, 1, 2, 2),
        ([1, 2, 3, 3, 3 | 1 << 2, 3 | 1 << 2], 0, 2, 4, 1, 3, 4),
        # so many open runs that the generator's own key table has to grow
        ([1, 1, 2, 2, 3, 3, 3, 3], 0, 2, 7, 2, 4, 7),
    ],
)
def test_the_compiled_move_generator_matches_the_same_code_interpreted(
    codes: list[int], table: int, rack: int, jleft: int, arrivals: int, supply: int, jokers: int
) -> None:
    answers = []
    for generate in (k._options, k._options_py):
        # pruned or not, and with explicit jokers (the initial meld's moves, at number 5)
        for prune, explicit in ((False, False), (True, False), (False, True)):
            w = k.new_work(1 << 10, 1 << 14)
            start, n = generate(
                _packed(codes), table, rack, jleft, False, arrivals, 0, supply, jokers, prune, explicit, 5, w
            )
            rows = w[k._pool_py(w) + start * k.O_WIDTH : k._pool_py(w) + (start + n) * k.O_WIDTH]
            # the same moves, with each new state named by its runs rather than its number
            moves = [
                (k._packed_of_py(w, int(r[k.O_SID])), *map(int, r[1:]))
                for r in rows.reshape(n, k.O_WIDTH)
            ]
            answers.append((prune, moves))
    assert answers[:3] == answers[3:]
    assert answers[0][1], "some move is always possible here"
    for packed, *_ in answers[0][1]:  # every new state is a real set of runs
        while packed:
            assert 1 <= packed & 3 <= 3
            packed >>= k.CODE_BITS


def test_warm_up_runs_every_entry_of_the_kernel() -> None:
    from rummykit.solve import warm_up

    assert warm_up() >= 0
    for entry in (k.search, k.relax):
        assert entry.signatures, f"{entry} was not compiled by warm_up"
