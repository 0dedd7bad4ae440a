"""Session 12's shortcuts in two-tray, each held to the full work on positions reached in real games.

- The open cells keep their segments as tile codes and answer the fitting tiles
  as bit masks (:func:`~rummykit.rulesets.two_tray.open_cells._fit_codes`): on
  every open cell of seeded games' grids (and grids with jokers put in), the
  tiles kept equal those that make both lines through the cell valid as laid
  (``line_valid`` tile by tile), and the kept segments are the tiles touching
  the cell, read from the grid.
- The play check's placed tiles (``trays.placed_tiles``) equal
  :func:`~rummykit.blocks.grid_near.placed_near` on every play of seeded games,
  and on turns that take tiles off, move or replace them.
- :func:`~rummykit.rulesets.two_tray.listing.going_on_cells` is
  :func:`~rummykit.rulesets.two_tray.listing.going_on_each` as pairs, and a
  picked action (made afresh, not through listing's kept puts and plays) is
  still the listed one: ``tests/test_two_tray_pick.py`` compares every index.
"""

from __future__ import annotations

import random

from two_tray_games import play_seeded

from rummykit.blocks.grid import Put
from rummykit.blocks.grid_near import placed_near
from rummykit.melds.tile_lines import line_valid
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile
from rummykit.rulesets.two_tray.listing import going_on_cells, going_on_each, line_sets
from rummykit.rulesets.two_tray.open_cells import (
    JOKER_BIT,
    NUMBERED,
    _fit_codes,
    _fitting_mask,
    codes,
    fit_tiles,
    open_cells,
    tiles_of,
)
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.rulesets.two_tray.trays import placed_tiles


def _game_grids(games: int) -> list[TileGrid]:
    grids: list[TileGrid] = []

    def keep(state: TwoTray) -> None:
        if not grids or grids[-1] is not state.grid:
            grids.append(state.grid)

    play_seeded(games, keep)
    return grids


def _walk(grid: TileGrid, cell: tuple[int, int], dr: int, dc: int) -> tuple[Tile, ...]:
    """The tiles touching ``cell`` in one direction, in reading order (towards the cell for left and up)."""
    out = []
    r, c = cell[0] + dr, cell[1] + dc
    while (r, c) in grid.cells:
        out.append(grid.cells[(r, c)])
        r, c = r + dr, c + dc
    return tuple(reversed(out)) if dr + dc < 0 else tuple(out)


def _check_open_cells(grid: TileGrid) -> int:
    checked = 0
    for cell, fits, _jokers, joker_fits, one_line, segments in open_cells(grid):
        left, right = _walk(grid, cell, 0, -1), _walk(grid, cell, 0, 1)
        up, down = _walk(grid, cell, -1, 0), _walk(grid, cell, 1, 0)
        if segments is not None:
            assert segments == (codes(left), codes(right), codes(up), codes(down))
            assert tuple(tiles_of(s) for s in segments) == (left, right, up, down)
        expected = set()
        for tile in ALL_TILES:
            across = not (left or right) or line_valid((*left, tile, *right))
            column = not (up or down) or line_valid((*up, tile, *down))
            if across and column:
                expected.add(tile)
        assert fits == expected, (grid.text(), cell)
        assert one_line == (not (left or right) or not (up or down))
        assert joker_fits == (one_line or any(t is not JOKER for t in fits))
        checked += 1
    return checked


def test_open_cells_fit_the_tiles_that_read_both_lines() -> None:
    rng = random.Random(12)
    checked = 0
    for k, grid in enumerate(_game_grids(16)):
        checked += _check_open_cells(grid)
        cells = sorted(grid.cells)
        if k % 3 == 0 and len(cells) > 2:
            # Jokers in places play seldom puts them: the segments' jokers and a joker-only line.
            picked = rng.sample(cells, min(len(cells), 1 + k % 4))
            checked += _check_open_cells(grid.changed([Put(r, c, JOKER) for r, c in picked], GRID.is_joker))
    assert checked > 3000


def test_fit_codes_are_the_masks_of_the_fitting_tiles() -> None:
    rng = random.Random(5)
    bag = [*ALL_TILES, JOKER, JOKER]
    for _ in range(4000):
        before = tuple(rng.sample(bag, rng.randrange(0, 4)))
        after = tuple(rng.sample(bag, rng.randrange(0, 4)))
        found = _fit_codes(codes(before), codes(after))
        mask = _fitting_mask(codes(before), codes(after))
        assert found & (NUMBERED | JOKER_BIT) == mask
        assert (found > (NUMBERED | JOKER_BIT)) == (JOKER in before or JOKER in after)
        assert fit_tiles(mask) == tuple(sorted(fit_tiles(mask), key=lambda t: t.code))
        if before or after:
            valid = {
                t for t in ALL_TILES if len(before) + len(after) >= 2 and line_valid((*before, t, *after))
            }
            assert set(fit_tiles(mask)) == valid, (before, after)


def test_placed_is_placed_near_on_game_plays_and_rearranged_turns() -> None:
    rng = random.Random(7)
    checked = 0

    def each(state: TwoTray) -> None:
        nonlocal checked
        grid = state.grid
        cells = sorted(grid.cells)
        if not cells:
            return
        near = sorted({(r + 1, c) for r, c in cells} - set(cells))
        turns: list[list[Put[Tile]]] = [
            [Put(r, c, rng.choice(ALL_TILES)) for r, c in rng.sample(near, min(len(near), 1 + checked % 3))],
            [Put(r, c, None) for r, c in rng.sample(cells, 1)] + [Put(near[0][0], near[0][1], JOKER)],
            [Put(cells[0][0], cells[0][1], rng.choice(ALL_TILES))],
            # The same cell twice: the last put stands.
            [Put(near[0][0], near[0][1], ALL_TILES[3]), Put(near[0][0], near[0][1], ALL_TILES[9])],
        ]
        for changes in turns:
            new = grid.changed(changes, GRID.is_joker)
            changed = [(p.row, p.col) for p in changes]
            try:
                expected = placed_near(GRID, grid, new, changed)
            except Exception as error:  # the same refusal, worded alike
                try:
                    placed_tiles(grid, new, changed)
                except Exception as mine:
                    assert type(mine) is type(error) and str(mine) == str(error)
                else:
                    raise AssertionError("placed_near refused, placed_tiles did not") from error
                continue
            assert placed_tiles(grid, new, changed) == expected
            checked += 1

    play_seeded(6, each)
    assert checked > 1000


def test_going_on_cells_are_going_on_each_as_pairs() -> None:
    rng = random.Random(3)
    for grid in _game_grids(6)[::4]:
        for _ in range(3):
            tiles = rng.sample([*ALL_TILES, *ALL_TILES], 14)
            sets = line_sets(tiles, down=False, threshold=0)
            pairs = going_on_cells(grid, tiles, sets)
            puts = going_on_each(grid, tiles, sets)
            assert [[Put(c[0], c[1], t) for c, t in ons] for ons in pairs] == puts
