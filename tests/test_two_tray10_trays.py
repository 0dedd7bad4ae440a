"""Two-tray's short cuts of session 10 agree with the plain computations they replace.

Tiles compare through a Python-level slot (``Tile`` defines ``__lt__``), so
two-tray finds them by hash or identity instead: the tray check
(:func:`~rummykit.rulesets.two_tray.trays.holds_all`), taking the placed
tiles off a tray (:func:`~rummykit.rulesets.two_tray.trays.take`), sorting
by code, a segment pair's joker kept with its fitting tiles
(``open_cells._fit``), the tiles left after a going-down line
(:func:`~rummykit.rulesets.two_tray.listing.going_on`); and a grid's calls
as a sorted key made once (:meth:`~rummykit.blocks.grid.Grid.calls_key`).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from two_tray_games import play_seeded

from rummykit.blocks.grid import Put
from rummykit.blocks.racks import Racks
from rummykit.errors import RuleError
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile
from rummykit.rulesets.two_tray.listing import extensions, going_on, laid_line, line_sets
from rummykit.rulesets.two_tray.open_cells import _fit, _fitting
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.rulesets.two_tray.trays import holds_all, take, tile_code

_BAG: list[Tile] = [*ALL_TILES[:52], *ALL_TILES[:52], JOKER, JOKER]


def _grids(games: int) -> list[TileGrid]:
    """Every grid of seeded random and greedy-random games."""
    grids: list[TileGrid] = []

    def keep(state: TwoTray) -> None:
        grids.append(state.grid)

    play_seeded(games, keep)
    return grids


def test_holds_all_is_the_counters_answer_with_jokers_and_repeats() -> None:
    rng = random.Random(10)
    for _ in range(5000):
        held = rng.sample(_BAG, rng.randrange(0, 16))
        tiles = rng.choices(held + rng.sample(_BAG, 3), k=rng.randrange(1, 6))
        assert holds_all(held, tiles) == (not Counter(tiles) - Counter(held)), (held, tiles)


def test_take_is_racks_take() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        tray = rng.sample(_BAG, rng.randrange(1, 16))
        if rng.random() < 0.8:
            tiles = rng.sample(tray, rng.randrange(1, len(tray) + 1))
        else:
            tiles = rng.choices(_BAG, k=rng.randrange(1, 4))
        mine: Racks[Tile] = Racks(2, names=("A", "B"), rule="TT-TRAY")
        theirs: Racks[Tile] = Racks(2, names=("A", "B"), rule="TT-TRAY")
        for racks in (mine, theirs):
            racks.add(1, tray, "B")
            racks.add(1, tray[:2], "A")
        before = mine.rack(1, "B")
        try:
            theirs.take(1, tiles, "B")
        except RuleError as refused:
            with pytest.raises(RuleError) as raised:
                take(mine, 1, tiles, "B")
            assert str(raised.value) == str(refused)
            assert mine.rack(1, "B") == tray  # unchanged
        else:
            take(mine, 1, tiles, "B")
        assert mine.rack(1, "B") == theirs.rack(1, "B")
        assert mine.rack(1, "B") is before  # the tray's own list, changed in place as take changes it
        assert mine.rack(1, "A") == theirs.rack(1, "A")


def test_sorting_by_code_is_sorting_tiles() -> None:
    rng = random.Random(12)
    for _ in range(500):
        tiles = rng.sample(_BAG, rng.randrange(0, 20))
        assert sorted(tiles, key=tile_code) == sorted(tiles)


def test_fit_is_the_fitting_tiles_and_whether_a_joker_is_there() -> None:
    rng = random.Random(13)
    pairs: set[tuple[tuple[Tile, ...], tuple[Tile, ...]]] = set()
    for grid in _grids(8):
        cells = grid.cells
        for r, c in cells:
            # The row segments either side of the empty cell past each end of every row line, as the open cells read.
            if (r, c - 1) not in cells:
                right = []
                x = c
                while (r, x) in cells:
                    right.append(cells[(r, x)])
                    x += 1
                pairs.add(((), tuple(right)))
                pairs.add((tuple(right), ()))
    for _ in range(3000):
        pairs.add((tuple(rng.sample(_BAG, rng.randrange(0, 4))), tuple(rng.sample(_BAG, rng.randrange(0, 4)))))
    assert any(JOKER in b + a for b, a in pairs)
    for before, after in pairs:
        assert _fit(before, after) == (_fitting(before, after), JOKER in before or JOKER in after), (before, after)


def test_calls_key_is_the_sorted_calls() -> None:
    grids = _grids(10)
    called = [g for g in grids if g.calls]
    assert called
    rng = random.Random(14)
    for grid in grids:
        assert grid.calls_key() == tuple(sorted(grid.calls.items()))
        jokers = [cell for cell, tile in grid.cells.items() if tile is JOKER]
        if jokers:
            # A call made on the grid (the key made anew for the new grid, the old one's kept).
            cell = rng.choice(jokers)
            other = grid.with_call(cell, rng.choice(ALL_TILES[:52]))
            assert other.calls_key() == tuple(sorted(other.calls.items()))
            assert grid.calls_key() == tuple(sorted(grid.calls.items()))
            moved = other.changed((Put(cell[0], cell[1], None),), GRID.is_joker)
            assert moved.calls_key() == tuple(sorted(moved.calls.items()))


def test_going_on_is_the_extensions_of_the_tiles_left() -> None:
    rng = random.Random(15)
    checked = 0
    for grid in _grids(6)[::7]:
        if not grid.cells:
            continue
        for _ in range(3):
            tiles = rng.sample(_BAG, rng.randrange(6, 16))
            for s in line_sets(tiles, down=False, threshold=0)[:4]:
                puts = laid_line(grid, s)
                rest = list(tiles)
                for put in puts:
                    assert put.piece is not None
                    rest.remove(put.piece)
                near = {(p.row + dr, p.col + dc) for p in puts for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))}
                expected = [put for put in extensions(grid, rest) if put.cell not in near]
                assert going_on(grid, tiles, puts) == expected
                checked += 1
    assert checked > 50
