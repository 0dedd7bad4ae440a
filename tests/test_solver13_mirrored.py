"""Session 13 of issue 25: the searches on the problem with its numbers mirrored.

``solve_best`` now searches the problem mirrored (13 first) and, when a search
cannot finish, the same problem forward; the play found either way is turned
back by ``rebuild``. Checked here: mirroring twice gives the problem back; a
mirrored search has the same value as the forward one and as the set-by-set
search, and its play, rebuilt, is a legal play on the real table; and with the
node limits cut to almost nothing (so that every branch of ``solve_best`` runs:
both dives, the switch to the way that finished, the other way's probe, the
beam and the sweep there) every answer still has the set-by-set search's value
and passes the engine's checks.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import check_position, oracle, random_position
from test_solver12_slow_calls import grouped_position, value
from test_solver_kernel import problem_of

from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import Tile
from rummykit.solve import kernel as k
from rummykit.solve import tiles as solver
from rummykit.solve.play import _tiles_of
from rummykit.solve.tilemodel import flipped
from rummykit.solve.tiles import GroupBlock, Problem, _Kernel, _Mirrored, rebuild, solve_best

TileSet = tuple[Tile, ...]


def seeded(seed: int) -> tuple[list[TileSet], list[Tile], str]:
    rng = random.Random(seed)
    if seed % 3 == 0:
        table, rack = grouped_position(rng, rng.choice((0, 1, 2)))
    else:
        table, rack = random_position(rng, rng.choice((0, 6, 9, 12, 15, 18)), rng.randint(2, 9), rng.choice((0, 1, 2)))
    return table, rack, rng.choice(("tiles", "points"))


def assert_rebuilt_legal(problem: Problem, table: list[TileSet], rack: list[Tile], kernel: _Kernel) -> int:
    """The kernel's sweep: its play rebuilt on the real problem is every table tile plus rack
    tiles, in valid sets; returns its value (0: none)."""
    found, finished = kernel.run(k.SWEEP, 1)
    assert finished
    if found is None:
        return 0
    assert found.mirrored == isinstance(kernel, _Mirrored)
    sets = [tiles for tiles, _ in _tiles_of(rebuild(problem, found, {}))]
    assert all(check_tiles(s).valid for s in sets), sets
    final = Counter(t for s in sets for t in s)
    on_table = Counter(t for s in table for t in s)
    placed = final - on_table
    assert not on_table - final, "a table tile went missing"
    assert not placed - Counter(rack), "a tile that is not in the rack was placed"
    return value(found)


def test_mirroring_twice_gives_the_problem_back() -> None:
    for seed in range(20):
        table, rack, objective = seeded(seed)
        problem = problem_of(table, rack, objective)
        twice = flipped(flipped(problem))
        assert (twice.table, twice.rack, twice.primary, twice.secondary) == (
            problem.table,
            problem.rack,
            problem.primary,
            problem.secondary,
        )
        once = flipped(problem)
        if any(problem.table[c][v] != problem.table[c][14 - v] for c in range(4) for v in range(1, 14)):
            assert once.table != problem.table
    with pytest.raises(ValueError):
        flipped(Problem([[0] * 15] * 4, [[0] * 15] * 4, 0, 0, group_blocks=(GroupBlock(5, 0b111, 3, 0, 0),)))


@pytest.mark.parametrize("seed", range(40))
def test_a_mirrored_search_has_the_forward_value_and_a_legal_play(seed: int) -> None:
    table, rack, objective = seeded(seed)
    problem = problem_of(table, rack, objective)
    expected = oracle(table, rack, objective)
    forward = assert_rebuilt_legal(problem, table, rack, _Kernel(problem))
    mirrored = assert_rebuilt_legal(problem, table, rack, _Mirrored(problem))
    assert forward == mirrored == expected, (table, rack, objective)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2), st.sampled_from(["tiles", "points"]))
def test_a_mirrored_search_has_the_forward_value_hypothesis(seed: int, jokers: int, objective: str) -> None:
    table, rack = grouped_position(random.Random(seed), jokers)
    problem = problem_of(table, rack, objective)
    expected = oracle(table, rack, objective)
    assert assert_rebuilt_legal(problem, table, rack, _Mirrored(problem)) == expected


@pytest.fixture
def tiny_limits(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Node limits so small that no search of ``solve_best`` finishes early; counts which way each search ran."""
    for name, limit in (
        ("KERNEL_DIVE", 3),
        ("KERNEL_SHORT_DIVE", 3),
        ("KERNEL_QUICK_PROBE", 2),
        ("KERNEL_SMALL_PROBE", 2),
        ("KERNEL_PROBE", 4),
        ("BEAM_WIDTH", 2),
    ):
        monkeypatch.setattr(solver, name, limit)
    ways: Counter[str] = Counter()
    forward_run, mirrored_run = _Kernel.run, _Mirrored.run

    def counted_forward(self: _Kernel, *args: int, **named: int) -> tuple[object, bool]:
        if type(self) is _Kernel:
            ways["forward"] += 1
        return forward_run(self, *args, **named)

    def counted_mirrored(self: _Mirrored, *args: int, **named: int) -> tuple[object, bool]:
        ways["mirrored"] += 1
        return mirrored_run(self, *args, **named)

    monkeypatch.setattr(_Kernel, "run", counted_forward)
    monkeypatch.setattr(_Mirrored, "run", counted_mirrored)
    return ways


@pytest.mark.parametrize("seed", range(30))
def test_every_branch_keeps_the_optimum(seed: int, tiny_limits: Counter[str]) -> None:
    table, rack, objective = seeded(100 + seed)
    problem = problem_of(table, rack, objective)
    assert value(solve_best(problem)) == oracle(table, rack, objective)
    check_position(table, rack, objective)  # the whole call, the tidy step on and off, legal plays


def test_both_ways_run_when_the_searches_cannot_finish(tiny_limits: Counter[str]) -> None:
    for seed in range(30):
        table, rack, objective = seeded(200 + seed)
        problem = problem_of(table, rack, objective)
        assert value(solve_best(problem)) == oracle(table, rack, objective)
    assert tiny_limits["forward"] and tiny_limits["mirrored"], tiny_limits


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2), st.sampled_from(["tiles", "points"]))
def test_every_branch_keeps_the_optimum_hypothesis(seed: int, jokers: int, objective: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        for name, limit in (("KERNEL_DIVE", 3), ("KERNEL_SHORT_DIVE", 3), ("KERNEL_QUICK_PROBE", 2), ("KERNEL_PROBE", 4)):
            patch.setattr(solver, name, limit)
        table, rack = grouped_position(random.Random(seed), jokers)
        assert value(solve_best(problem_of(table, rack, objective))) == oracle(table, rack, objective)
