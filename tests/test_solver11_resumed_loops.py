"""The kernel's search loops stop to let their tables grow and go on where they were.

The depth-first search and the sweep run their loops in helpers compiled without
reference counting; when a table may fill up, the helper returns, the search
enlarges the table and calls it again. Started with tiny tables (so that they
grow many times, at other moments than with roomy ones), every search must visit
the same states in the same order: the same play, the same value, the same
number of states, and a depth-first search stopped by its node limit must stop
at the same node with the same best play so far.
"""

from __future__ import annotations

import random

import pytest
from solver_positions_for_tests import hard_position
from test_solver import random_position

from rummykit.pieces.tiles import Tile
from rummykit.solve import kernel as k
from rummykit.solve.play import _problem, placeable
from rummykit.solve.tiles import Problem, _Kernel, upper_bound

TileSet = tuple[Tile, ...]
Trace = tuple[tuple[int, int, tuple[tuple[int, ...], ...]] | None, bool, tuple[int, ...]]


def problem_of(table: list[TileSet], rack: list[Tile], objective: str = "tiles") -> Problem:
    tiles = [t for s in table for t in s]
    return _problem(tiles, placeable(tiles, rack) + [t for t in rack if t.is_joker], objective)


def trace(kernel: _Kernel, strategy: int, target: int, node_limit: int = -1) -> Trace:
    """What a search left behind: its play (every path row), its answer and its states."""
    found, finished = kernel.run(strategy, target, node_limit)
    return (
        None
        if found is None
        else (found.value, found.jokers_placed, tuple(map(tuple, kernel.path.tolist()))),
        finished,
        tuple(int(kernel.result[i]) for i in range(6)),
    )


def kernels(problem: Problem) -> tuple[_Kernel, _Kernel]:
    roomy = _Kernel(problem, sizes=(1 << 16, 1 << 17, 1 << 15))
    tight = _Kernel(problem, sizes=(1 << 16, 1 << 17, 4))  # state tables of 4 records to start
    return roomy, tight


@pytest.mark.parametrize("objective", ["tiles", "points"])
def test_a_hard_position_searched_with_tiny_tables_visits_the_same_states(objective: str) -> None:
    problem = problem_of(*hard_position(), objective)
    roomy, tight = kernels(problem)
    everything = upper_bound(problem)
    for kernel in (roomy, tight):
        kernel.relax()
    # depth-first searches stopped by their limits, at several points, and the sweep
    for limit in (500, 5000, 20000):
        a, b = trace(roomy, k.REACH, everything, limit), trace(tight, k.REACH, everything, limit)
        assert a == b
        assert a[2][5] > 0
        probe_a, probe_b = trace(roomy, k.REACH, -(1 << 62), limit), trace(tight, k.REACH, -(1 << 62), limit)
        assert probe_a == probe_b
    sweep = trace(roomy, k.SWEEP, 1)
    assert sweep == trace(tight, k.SWEEP, 1)
    assert sweep[0] is not None and sweep[2][5] > 10_000  # many states: the tables grew mid-layer


@pytest.mark.parametrize("seed", range(25))
def test_seeded_positions_searched_with_tiny_tables_visit_the_same_states(seed: int) -> None:
    rng = random.Random(7000 + seed)
    problem = problem_of(
        *random_position(rng, rng.choice((18, 30, 45)), rng.randint(8, 20), rng.choice((0, 1, 2)))
    )
    roomy, tight = kernels(problem)
    for target in (1, max(1, upper_bound(problem))):
        for limit in (-1, 300):
            assert trace(roomy, k.REACH, target, limit) == trace(tight, k.REACH, target, limit)
        assert trace(roomy, k.SWEEP, target) == trace(tight, k.SWEEP, target)
