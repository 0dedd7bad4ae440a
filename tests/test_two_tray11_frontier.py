"""The open cells worked out from the frontier (session 11) agree with a fresh walk of the whole grid.

:func:`~rummykit.rulesets.two_tray.open_cells.open_cells` keeps with each
grid every empty cell next to a tile and the tiles touching it on each side
(the frontier); a grid made by putting tiles in empty cells reads the new
segments from there instead of walking the grid. Here every grid of seeded
games, and grids made from them by putting tiles (jokers among them) next
to the grid, taking tiles off and replacing them, are compared with the
open cells worked out afresh by the older walking code
(:func:`~rummykit.rulesets.two_tray.open_cells.open_cells_near` with no
previous cells), and each kept frontier with one walked afresh.
"""

from __future__ import annotations

import random
from typing import cast

from two_tray_games import play_seeded

from rummykit.blocks.grid import Put
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile
from rummykit.rulesets.two_tray.open_cells import (
    _OPEN,
    FRESH_FRONTIER,
    _Known,
    _worked_out,
    codes,
    frontier,
    open_cells,
    open_cells_near,
)
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray


def _check(grid: TileGrid) -> int:
    """Compare ``grid``'s kept open cells and frontier with fresh ones; how many open cells it has."""
    found = open_cells(grid)
    assert found == open_cells_near(grid.cells, None, ()), grid.text()
    kept = cast("_Known", grid.cells_memo()[_OPEN])
    assert kept[0] == found and kept[2] == len(grid.cells)
    if kept[1] is not None:  # kept unless the chain began afresh on a large grid
        assert kept[1] == frontier(grid.cells), grid.text()
    fresh = _worked_out(grid.cells, None, frozenset())
    assert fresh[0] == found
    assert fresh[1] == (frontier(grid.cells) if len(grid.cells) <= FRESH_FRONTIER else None)
    return len(found)


def _game_grids(games: int) -> list[TileGrid]:
    grids: list[TileGrid] = []

    def keep(state: TwoTray) -> None:
        _check(state.grid)  # each grid as the game made it (from the one before)
        grids.append(state.grid)

    play_seeded(games, keep)
    return grids


def test_game_grids_and_tiles_put_next_to_them() -> None:
    rng = random.Random(11)
    grids = _game_grids(30)
    assert len(grids) > 1000
    opened = 0
    for k, grid in enumerate(grids[::3]):
        open_cells(grid)
        cells = grid.cells
        near = sorted({(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))} - set(cells))
        if not near:
            continue
        # One to four tiles put in empty cells next to the grid or next to each other (jokers often).
        chosen: list[tuple[int, int]] = []
        for _ in range(1 + k % 4):
            if chosen and rng.random() < 0.5:
                r, c = rng.choice(chosen)
                cell = rng.choice(((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)))
            else:
                cell = rng.choice(near)
            if cell not in cells and cell not in chosen:
                chosen.append(cell)
        puts = [Put(r, c, JOKER if rng.random() < 0.25 else rng.choice(ALL_TILES)) for r, c in chosen]
        other = grid.changed(puts, GRID.is_joker)
        opened += _check(other)
        # Then one more tile put next to that (a chain of grids each worked out from the last).
        around = sorted({(r + dr, c + dc) for r, c in chosen for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))} - set(other.cells))
        if around:
            r, c = rng.choice(around)
            opened += _check(other.changed((Put(r, c, rng.choice((JOKER, *ALL_TILES))),), GRID.is_joker))
    assert opened > 1000


def test_tiles_taken_off_and_replaced_keep_the_frontier() -> None:
    rng = random.Random(12)
    grids = _game_grids(8)
    for k, grid in enumerate(grids[::2]):
        cells = sorted(grid.cells)
        if len(cells) < 3:
            continue
        open_cells(grid)
        changes: list[Put[Tile]] = []
        for cell in rng.sample(cells, min(len(cells), 1 + k % 3)):
            changes.append(Put(cell[0], cell[1], None if rng.random() < 0.6 else rng.choice((JOKER, *ALL_TILES))))
        other = grid.changed(changes, GRID.is_joker)
        _check(other)
        # And tiles put in empty cells next to that grid: its frontier came from the walking path.
        near = sorted({(r, c + 1) for r, c in other.cells} - set(other.cells))
        if near:
            r, c = rng.choice(near)
            _check(other.changed((Put(r, c, rng.choice((JOKER, *ALL_TILES))),), GRID.is_joker))


def test_a_lay_off_reads_the_line_it_makes() -> None:
    grid = TileGrid.parse("0,0: R1 R2 R3 . R5 R6", Tile.parse)
    open_cells(grid)
    laid = grid.changed((Put(0, 3, Tile.parse("R4")),), GRID.is_joker)
    found = open_cells(laid)
    front = cast("_Known", laid.cells_memo()[_OPEN])[1]
    assert front is not None
    r1_to_r6 = codes(tuple(Tile.parse(f"R{n}") for n in range(1, 7)))  # the frontier keeps tiles' codes
    assert front[(0, -1)] == ((), r1_to_r6, (), ())
    assert front[(0, 6)] == (r1_to_r6, (), (), ())
    assert front[(1, 3)] == ((), (), (Tile.parse("R4").code,), ())
    assert (0, 3) not in front
    # Left of R1 nothing fits, above and below a lone tile neither (a line of 2): R7 or a joker after R6.
    assert [(cell, sorted(str(t) for t in fits)) for cell, fits, *_ in found] == [((0, 6), ["J", "R7"])]
