"""The Python around the tile solver's search, made cheaper (issue 25, session 12).

What a call keeps from one problem to the next (the rack part last used, each set's
block) must give what working it out afresh gives, and must never carry over to
another rack, weights, threshold or set; the quicker ways of finding the kept sets,
the placed tiles and the steps ahead must agree with the plain ways they replaced.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import cast

import pytest
from test_solver import TileSet, random_position

from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import JOKER, Tile, parse_tiles
from rummykit.rulesets.rummikub import parse_table
from rummykit.solve import kernel as k
from rummykit.solve import play
from rummykit.solve import tilearrays as ta
from rummykit.solve import tiles as dp
from rummykit.solve.play import _problem, placeable, solve_tiles
from rummykit.solve.tiles import JOKER_SHIFT, TOP, Ints, Problem, value_of


def flat(array: Ints) -> list[int]:
    """A one-dimensional kernel array as a list."""
    return cast("list[int]", array.tolist())


def problem_of(table: list[TileSet], rack: list[Tile], objective: str = "tiles") -> Problem:
    tiles = [t for s in table for t in s]
    return _problem(tiles, placeable(tiles, rack) + [t for t in rack if t.is_joker], objective)


def positions(count: int, seed: int = 12) -> list[tuple[list[TileSet], list[Tile]]]:
    rng = random.Random(seed)
    return [
        random_position(rng, rng.choice((0, 9, 15, 30)), rng.randint(6, 20), rng.randint(0, 2))
        for _ in range(count)
    ]


def answer(s: play.TileSolution | None) -> object:
    if s is None:
        return None
    return (s.objective, s.placed, s.table, s.kept)


def forget() -> None:
    """Drop what the solver keeps between calls (its caches start empty)."""
    play._BLOCKS.clear()
    ta._RACK_PARTS.last = None
    ta._RACK_PARTS.parts.clear()


def test_answers_are_the_same_with_the_caches_warm_or_empty() -> None:
    cases = positions(40)
    cold = []
    for table, rack in cases:
        for objective in ("tiles", "points"):
            forget()
            cold.append(answer(solve_tiles(table, rack, objective=objective)))
    warm = [answer(solve_tiles(t, r, objective=o)) for t, r in cases for o in ("tiles", "points")]
    assert warm == cold
    # and in another order: each answer depends on its own position alone
    again = [answer(solve_tiles(t, r, objective=o)) for t, r in reversed(cases) for o in ("points", "tiles")]
    assert again == warm[::-1]


def test_the_rack_part_last_used_is_never_given_to_another_problem() -> None:
    kernel = k  # the interpreted module builds the same arrays as the compiled one
    made = [problem_of(t, r, o) for t, r in positions(12, seed=3) for o in ("tiles", "points")]
    for p in made:
        for threshold in (None, 30, 31):
            p.threshold = threshold
            assert flat(ta._rack_part(p, kernel)) == flat(ta._rack_part_of(p, kernel))
            assert flat(ta._rack_part(p, kernel)) == flat(ta._rack_part_of(p, kernel))  # the one kept
        p.threshold = None
    # a rack changed in place after its part was made: the part kept is not reused
    p = made[0]
    before = flat(ta._rack_part(p, kernel))
    v = next(v for v in range(1, TOP + 1) if not p.rack[0][v])
    p.rack[0][v] += 1
    after = flat(ta._rack_part(p, kernel))
    assert after != before
    assert after == flat(ta._rack_part_of(p, kernel))
    # the same rack with other weights or jokers: another part
    q = Problem(p.table, p.rack, p.table_jokers, p.rack_jokers + 1, primary=p.primary, secondary=p.secondary)
    assert flat(ta._rack_part(q, kernel)) == flat(ta._rack_part_of(q, kernel)) != after


def plain_ahead(p: Problem) -> tuple[list[int], list[int], list[int]]:
    """What the rack's tiles add from each step on, step by step (the loop it replaced)."""
    steps = TOP * 5
    acc = p.rack_jokers * p.joker_primary
    full = p.rack_jokers * (value_of(p.joker_primary, p.joker_secondary) - (1 << JOKER_SHIFT))
    meld = 0
    ahead, ahead_full, ahead_meld = [0] * (steps + 1), [0] * (steps + 1), [0] * (steps + 1)
    ahead[steps], ahead_full[steps] = acc, full
    for v in range(TOP, 0, -1):
        base = (v - 1) * 5
        ahead[base + 4], ahead_full[base + 4], ahead_meld[base + 4] = acc, full, meld
        for c in range(3, -1, -1):
            n = p.rack[c][v]
            acc += n * p.primary[v]
            full += n * value_of(p.primary[v], p.secondary[v])
            meld += n * (TOP + 1 - v)
            ahead[base + c], ahead_full[base + c], ahead_meld[base + c] = acc, full, meld
    return ahead, ahead_full, ahead_meld


@pytest.mark.parametrize("objective", ["tiles", "points"])
def test_the_steps_ahead_are_the_step_by_step_sums(objective: str) -> None:
    steps = TOP * 5
    for table, rack in positions(20, seed=5):
        p = problem_of(table, rack, objective)
        p.threshold = 25
        P = flat(ta._rack_part_of(p, k))
        ahead, ahead_full, ahead_meld = plain_ahead(p)
        assert P[k.P_AHEAD : k.P_AHEAD + steps + 1] == ahead
        assert P[k.P_AHEAD_FULL : k.P_AHEAD_FULL + steps + 1] == ahead_full
        assert P[k.P_MELD_AHEAD : k.P_MELD_AHEAD + steps + 1] == ahead_meld
        assert P[k.P_RACK_JOKERS_FULL] == ahead_full[steps]


def plain_problem_array(p: Problem) -> list[int]:
    """The kernel's problem array with the table, the kept runs and groups set one by one."""
    P = flat(ta._rack_part_of(p, k))
    cells = k.CELLS
    for c, row in enumerate(p.table):
        for v, n in enumerate(row):
            P[k.P_TABLE + c * cells + v] = n
    block_jokers = 0
    for rb in p.run_blocks:
        block_jokers += rb.jokers
        P[k.P_ARR + rb.colour * cells + rb.lo] += 1
        P[k.P_DEP + rb.colour * cells + rb.hi] += 1
    for gb in sorted(p.group_blocks, key=lambda b: b.source):
        block_jokers += gb.jokers
        if gb.size == 3:
            i = P[k.P_NSLOTS + gb.number]
            P[k.P_SLOT_BITS + gb.number * k.MAX_SLOTS + i] = 1 << i
            P[k.P_SLOT_ACC + gb.number * k.MAX_SLOTS + i] = ~gb.colours & 15
            P[k.P_NSLOTS + gb.number] = i + 1
    P[k.P_TOTAL] = p.table_jokers + p.rack_jokers + block_jokers
    P[k.P_TABLE_JOKERS] = p.table_jokers + block_jokers
    P[k.P_START] = block_jokers << k.J_SHIFT
    return P


def test_the_problem_array_of_each_tidy_trial_is_the_plain_one() -> None:
    seen = 0
    for table, rack in positions(25, seed=8):
        if not table:
            continue
        problem = problem_of(table, rack)
        trials = play._Trials(table, rack, "tiles", problem)
        for left_out in (None, *range(len(table))):
            runs = tuple(b for i, (b, c) in enumerate(trials.blocks) if i != left_out and c is not None)
            groups = tuple(b for i, (b, c) in enumerate(trials.blocks) if i != left_out and c is None)
            grid, jokers = play._counts(() if left_out is None else table[left_out])
            p = Problem(grid, problem.rack, jokers, problem.rack_jokers, runs, groups)  # type: ignore[arg-type]
            assert flat(ta._kernel_problem(p, k)) == plain_problem_array(p)
            seen += 1
    assert seen > 50
    # two kept runs with the same ends, and groups of three sharing a number
    twice = list(parse_table("R3 R4 R5 | R3 R4 R5 | K7 B7 O7 | K7 B7 R7"))
    problem = problem_of(twice, parse_tiles("R6 O7"))
    trials = play._Trials(twice, parse_tiles("R6 O7"), "tiles", problem)
    runs = tuple(b for b, _ in trials.blocks if isinstance(b, dp.RunBlock))
    groups = tuple(b for b, _ in trials.blocks if isinstance(b, dp.GroupBlock))
    assert len(runs) == len(groups) == 2
    p = Problem([[0] * 15 for _ in range(4)], problem.rack, 0, 0, runs, groups)  # type: ignore[arg-type]
    assert flat(ta._kernel_problem(p, k)) == plain_problem_array(p)


def test_a_sets_block_comes_from_its_tiles_alone() -> None:
    run = tuple(parse_tiles("B4 J B6 B7"))
    group = tuple(parse_tiles("K9 O9 J"))
    play._BLOCKS.clear()
    first, cells = play._block(2, run)
    again, cells_again = play._block(5, run)  # kept: the same shape, its own index
    assert isinstance(first, dp.RunBlock) and isinstance(again, dp.RunBlock)
    assert (first.source, again.source) == (2, 5)
    assert (first.colour, first.lo, first.hi, first.jokers) == (
        again.colour,
        again.lo,
        again.hi,
        again.jokers,
    )
    assert (first.colour, first.lo, first.hi, first.jokers) == (1, 4, 7, 1)
    assert cells == cells_again == [(4, False), (5, True), (6, False), (7, False)]
    assert cells is not cells_again
    assert cells_again is not None
    cells_again.append((8, False))  # a caller's list: the kept shape does not change
    assert play._block(0, run)[1] == cells
    g, none = play._block(1, group)
    assert none is None and isinstance(g, dp.GroupBlock)
    assert (g.number, g.colours, g.size, g.jokers, g.source) == (9, 0b0101, 3, 1, 1)
    # other sets never get each other's block
    for s in (
        tuple(parse_tiles("B4 B5 B6 B7")),
        tuple(parse_tiles("K9 O9 R9")),
        tuple(parse_tiles("J B5 B6")),
    ):
        play._BLOCKS.clear()
        fresh = play._block(0, s)
        play._block(0, run)
        play._block(0, group)
        assert play._block(0, s) == fresh


def plain_intact(old: Sequence[TileSet], final: Sequence[TileSet]) -> dict[int, int]:
    """The kept sets, every final set looked at for each existing set (the loop it replaced)."""
    finals = [check_tiles(s) for s in final]
    kept: dict[int, int] = {}
    for i, s in enumerate(old):
        c = check_tiles(s)
        for j, f in enumerate(finals):
            if j in kept or f.kind != c.kind:
                continue
            if c.kind == "run":
                n = len(c.pieces)
                together = any(f.pieces[a : a + n] == c.pieces for a in range(len(f.pieces) - n + 1))
            else:
                together = len(f.pieces) <= len(c.pieces) + 1 and all(
                    f.pieces.count(t) >= c.pieces.count(t) for t in c.pieces
                )
            if together:
                kept[j] = i
                break
    return kept


def test_the_sets_kept_together_are_the_plain_ones() -> None:
    checked = 0
    for table, rack in positions(60, seed=21):
        s = solve_tiles(table, rack, tidy=False)
        if s is None or not table:
            continue
        assert play._intact(table, s.table) == plain_intact(table, s.table)
        # the table itself, shuffled: every set kept, each by the first copy not taken
        shuffled = list(s.old_table)
        random.Random(checked).shuffle(shuffled)
        assert play._intact(table, shuffled + list(s.table)) == plain_intact(table, shuffled + list(s.table))
        checked += 1
    assert checked > 30
    # two copies of a set: each final copy keeps one
    old = list(parse_table("R1 R2 R3 | R1 R2 R3 | K5 B5 O5"))
    final = list(parse_table("R1 R2 R3 R4 | K5 B5 O5 J | R1 R2 R3"))
    assert play._intact(old, final) == plain_intact(old, final) == {0: 0, 2: 1, 1: 2}


def test_finish_counts_the_placed_tiles_and_refuses_lost_or_foreign_ones() -> None:
    old = [tuple(s) for s in parse_table("R1 R2 R3 | K5 B5 O5")]
    rack = parse_tiles("R4 J O5 K7")
    rebuilt: list[tuple[TileSet, tuple[int, ...]]] = [
        (tuple(parse_tiles("R1 R2 R3 R4 J")), (0,)),
        (tuple(parse_tiles("K5 B5 O5")), (1,)),
    ]
    s = play._finish("tiles", old, rack, rebuilt, {})
    assert s is not None
    assert s.placed == (Tile.parse("R4"), JOKER) == tuple(sorted(Counter(parse_tiles("J R4")).elements()))
    assert s.kept == (0, 1)
    assert play._finish("tiles", old, rack, [(t, (i,)) for i, t in enumerate(old)], {}) is None
    with pytest.raises(AssertionError, match="lost table tiles"):
        play._finish("tiles", old, rack, [(old[0], (0,))], {})
    with pytest.raises(AssertionError, match="not in the rack"):
        play._finish(
            "tiles",
            old,
            rack,
            [*((t, (i,)) for i, t in enumerate(old)), (tuple(parse_tiles("B8 B9 B10")), ())],
            {},
        )
