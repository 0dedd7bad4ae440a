"""The grid solver (rummykit.solve.grid) against brute force on small two-tray positions, and against the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.blocks.grid import Cell, Put
from rummykit.engine.rng import Rng
from rummykit.melds.tile_lines import read_line
from rummykit.melds.tiles import hand_sets
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets.two_tray import GRID, Play, TileGrid, from_position
from rummykit.solve.grid import solve_grid

GRIDS = (
    "0,0: R1 R2 R3",
    "0,0: K5 B5 O5",
    "0,0: R4 R5 R6 R7",
    "0,0: B9 B10 B11 / . . . / . . .",
    "0,0: R5 . . / B5 . . / O5 O6 O7",
    "0,0: K7 K8 K9 / . . K10 / . . K11",
)


def _frontier(grid: TileGrid) -> list[Cell]:
    cells = grid.cells
    near = {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return sorted(near - set(cells))


def brute_force(grid: TileGrid, tray: list[Tile]) -> int:
    """The most tray tiles any placement plays, without moving the table's tiles: every way to put tiles one
    by one in the empty cells next to the grid (or next to tiles put before), each whole grid judged, and the
    tray's sets laid apart in free space."""
    best = 0
    seen: set[tuple[TileGrid, tuple[Tile, ...]]] = set()

    def grow(g: TileGrid, rest: Counter[Tile], placed: int) -> None:
        nonlocal best
        key = (g, tuple(sorted(rest.elements(), key=lambda t: t.code)))
        if key in seen:
            return
        seen.add(key)
        if placed > best and GRID.verdict(g).valid:
            best = placed
        for cell in _frontier(g):
            for t in sorted(+rest):
                left = rest.copy()
                left[t] -= 1
                grow(g.changed((Put(cell[0], cell[1], t),), GRID.is_joker), +left, placed + 1)

    grow(grid, Counter(tray), 0)
    for s in hand_sets(tray):
        if read_line(tuple(s)).valid:
            best = max(best, len(s))
    return best


def _random_tray(rng: Rng, grid: TileGrid, size: int) -> list[Tile]:
    """Tiles near the grid's numbers and colours (so that many fit), copies of the set respected."""
    used = grid.counts()
    numbers = sorted({t.number for t in grid.pieces()})
    colours = "KBOR"
    pool = [
        Tile.parse(f"{c}{n}")
        for c in colours
        for n in range(max(1, numbers[0] - 2), min(13, numbers[-1] + 2) + 1)
        for _ in range(2 - used[Tile.parse(f"{c}{n}")])
    ]
    rng.shuffle(pool)
    tray = pool[:size]
    if rng.below(4) == 0:
        tray[-1] = Tile.parse("J")
    return tray


@pytest.mark.parametrize("case", range(12))
def test_exact_plays_no_fewer_than_brute_force(case: int) -> None:
    rng = Rng(100 + case)
    grid = TileGrid.parse(GRIDS[case % len(GRIDS)], Tile.parse)
    tray = _random_tray(rng, grid, 3)
    brute = brute_force(grid, tray)
    for rearrange in (False, True):
        play = solve_grid(grid, tray, down=True, exact=True, rearrange=rearrange)
        found = 0 if play is None else play.tiles
        assert play is None or play.exact
        assert found >= brute, (GRIDS[case % len(GRIDS)], [str(t) for t in tray], rearrange)
        if not rearrange:
            assert found == brute  # without moving table tiles, brute force covers every placement
        if play is not None:
            assert GRID.verdict(play.grid).valid
            assert Counter(play.placed) <= Counter(tray)


def test_brute_force_finds_a_crossing() -> None:
    grid = TileGrid.parse("0,0: R1 R2 R3", Tile.parse)
    tray = parse_tiles("B2 K2 O9")
    assert brute_force(grid, tray) == 2
    play = solve_grid(grid, tray, down=True)
    assert play is not None and play.tiles == 2 and play.exact


def test_rearranging_plays_more() -> None:
    # K7 at the end of the run can leave it for a new group with the tray's B7 and O7 (no room to cross it).
    grid = TileGrid.parse("-2,0: O1 O2 O3 O4 O5 / . / K4 K5 K6 K7 / . / R1 R2 R3 R4 R5", Tile.parse)
    tray = parse_tiles("B7 O7")
    assert solve_grid(grid, tray, down=True, rearrange=False) is None
    play = solve_grid(grid, tray, down=True)
    assert play is not None and sorted(map(str, play.placed)) == ["B7", "O7"]
    assert GRID.verdict(play.grid).valid and play.grid.counts() == grid.counts() + Counter(tray)


def test_a_joker_replaced_is_used_again() -> None:
    grid = TileGrid.parse("0,0: R3 J R5", Tile.parse)
    tray = parse_tiles("R4 B9 K9")
    play = solve_grid(grid, tray, down=True)
    assert play is not None and play.tiles == 3  # R4 for the joker, the joker with B9 K9
    assert GRID.verdict(play.grid).valid


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_engine_accepts_every_result(seed: int) -> None:
    rng = Rng(seed)
    grid_text = GRIDS[seed % len(GRIDS)]
    grid = TileGrid.parse(grid_text, Tile.parse)
    tray = _random_tray(rng, grid, 6)
    for down in (True, False):
        state = from_position(
            f"grid: {grid_text}; trays: A[{' '.join(map(str, tray))}] B[K13] / A[B13] B[O13]; pool: seed 1;"
            f" next: A -; down: {'1' if down else '0'}0"
        )
        play = solve_grid(grid, tray, down=down, threshold=state.threshold, exact=False, nodes=500)
        if play is None:
            continue
        state.apply(Play(0, "A", play.puts, () if down else play.down))
        assert state.grid == play.grid


def test_opening_reaches_the_threshold_from_new_lines() -> None:
    grid = TileGrid.parse("0,0: R1 R2 R3", Tile.parse)
    play = solve_grid(grid, parse_tiles("K10 B10 O10 R4"), down=False, threshold=30)
    assert play is not None and play.tiles == 4 and play.points == 34
    assert solve_grid(grid, parse_tiles("K1 B1 O1 R4"), down=False, threshold=30) is None


def test_a_budget_says_when_it_stopped() -> None:
    grid = TileGrid.parse("0,0: R4 R5 R6 R7 / . . . O7 / . . . B7", Tile.parse)
    tray = parse_tiles("R2 R3 R8 R9 K2 K3 K4 O8 O9 O10 B9 B10")
    short = solve_grid(grid, tray, down=True, exact=False, nodes=5)
    assert short is not None and not short.exact and short.nodes == 5
    with pytest.raises(ValueError):
        solve_grid(grid, tray, down=True, objective="fewest")
