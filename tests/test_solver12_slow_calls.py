"""Session 12 of issue 25: what the slow calls now use never cuts an optimal play.

Three things changed in the search: states whose groups at a number need more
jokers than are left are dropped as soon as the colours still to move there
cannot help (exactly at the last colour, by a table made with the relaxation
before it); a *beam* (a sweep keeping a few hundred states a layer) finds a good
play for the final sweep; and the relaxed probe and the sweep look only for a
play strictly better than the one in hand. Each is checked here against an
independent exact method (the set-by-set search, on small positions) or
against the plain sweep without the relaxation (on larger ones).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import TileSet, oracle, random_position
from test_solver_kernel import problem_of

from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile
from rummykit.solve import kernel as k
from rummykit.solve.tiles import BEAM_WIDTH, Problem, Result, _Kernel, primary_of, solve_best

NEG = -(1 << 62)


def value(found: Result | None) -> int:
    """A play's whole value, 0 for none (as the set-by-set search counts nothing placed)."""
    return 0 if found is None or primary_of(found.value) < 1 else found.value


def grouped_position(rng: random.Random, jokers: int) -> tuple[list[TileSet], list[Tile]]:
    """A table of groups (and a run or two) and a rack crowded on a few numbers, with few
    jokers: positions whose groups often need more jokers than there are."""
    numbers = rng.sample(range(1, MAX_NUMBER + 1), 4)
    table: list[TileSet] = []
    for n in numbers[:2]:
        table.append(tuple(Tile(c, n) for c in rng.sample(COLOURS, 3)))
    if rng.random() < 0.5:
        colour = rng.choice(COLOURS)
        start = rng.randint(1, MAX_NUMBER - 3)
        table.append(tuple(Tile(colour, x) for x in range(start, start + 3)))
    copies = Counter(t for s in table for t in s)
    rack: list[Tile] = []
    for _ in range(rng.randint(3, 8)):
        t = Tile(rng.choice(COLOURS), rng.choice(numbers))
        if copies[t] < 2:  # two copies of each tile in the game
            copies[t] += 1
            rack.append(t)
    return table, rack + [JOKER] * jokers


def every_way(problem: Problem) -> dict[str, int]:
    """The value each of the kernel's searches gives, run to their end."""
    ways: dict[str, int] = {}
    plain = _Kernel(problem)
    ways["plain sweep"] = value(plain.run(k.SWEEP, 1)[0])
    relaxed = _Kernel(problem)
    relaxed.relax()
    ways["relaxed sweep"] = value(relaxed.run(k.SWEEP, 1)[0])
    found, finished = relaxed.run(k.REACH, 1)
    assert finished
    ways["relaxed depth-first"] = value(found)
    # the beam's play, then a probe and a sweep for a strictly better one
    beam, finished = relaxed.run(k.BEAM, 1, BEAM_WIDTH)
    assert not finished  # a beam proves nothing
    start = NEG if beam is None else beam.value
    better, finished = relaxed.run(k.ABOVE, 1, -1, incumbent=start)
    assert finished
    assert better is None or better.value > start
    ways["beam, then depth-first above it"] = max(value(beam), value(better))
    swept = relaxed.run(k.SWEEP, 1, -1, incumbent=NEG if beam is None else beam.value + 1)[0]
    ways["beam, then a sweep above it"] = max(value(beam), value(swept))
    for narrow in (1, 3):  # a beam of one or three states a layer: a poor play, never a wrong one
        poor = relaxed.run(k.BEAM, 1, narrow)[0]
        assert value(poor) <= ways["plain sweep"]
    ways["solve_best"] = value(solve_best(problem))
    return ways


@pytest.mark.parametrize("seed", range(60))
def test_every_search_finds_the_set_search_optimum(seed: int) -> None:
    rng = random.Random(seed)
    if seed % 2:
        table, rack = grouped_position(rng, rng.choice((0, 1, 1, 2)))
    else:
        table, rack = random_position(
            rng, rng.choice((0, 6, 9, 12, 15, 18)), rng.randint(2, 9), rng.choice((0, 1, 2))
        )
    objective = rng.choice(("tiles", "points"))
    expected = oracle(table, rack, objective)
    ways = every_way(problem_of(table, rack, objective))
    assert set(ways.values()) == {expected}, (table, rack, objective, ways)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2), st.sampled_from(["tiles", "points"]))
def test_every_search_finds_the_set_search_optimum_hypothesis(seed: int, jokers: int, objective: str) -> None:
    table, rack = grouped_position(random.Random(seed), jokers)
    expected = oracle(table, rack, objective)
    ways = every_way(problem_of(table, rack, objective))
    assert set(ways.values()) == {expected}, (table, rack, objective, ways)


@pytest.mark.parametrize("seed", range(40))
def test_larger_positions_agree_with_the_plain_sweep(seed: int) -> None:
    # too large for the set-by-set search: the sweep without the relaxation (which drops
    # only states whose groups cannot be completed at all) is the reference
    rng = random.Random(1000 + seed)
    table, rack = random_position(
        rng, rng.choice((30, 45, 60)), rng.randint(10, 20), rng.choice((0, 1, 2, 2, 3))
    )
    ways = every_way(problem_of(table, rack, rng.choice(("tiles", "points"))))
    assert len(set(ways.values())) == 1, ways


def test_the_fewest_group_jokers_table() -> None:
    # one colour giving one tile needs two jokers, two such colours one, three none; one
    # colour giving two tiles makes two groups of one tile and two jokers each
    assert k.GROUP_JOKERS[0] == 0
    assert k.GROUP_JOKERS[1 * 5 + 0] == 2
    assert k.GROUP_JOKERS[2 * 5 + 0] == 1
    assert k.GROUP_JOKERS[3 * 5 + 0] == 0
    assert k.GROUP_JOKERS[0 * 5 + 1] == 4  # two groups of one tile and two jokers each
    assert k.GROUP_JOKERS[3 * 5 + 3] == k.NO_WAY  # more than four colours
