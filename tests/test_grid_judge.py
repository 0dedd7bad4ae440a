"""The grid's yes-or-no judgement read straight from the cells (blocks/grid_judge.py) is the verdict's.

``GridRules.holds`` and ``holds_reach`` judge with :mod:`rummykit.blocks.grid_judge`;
here each answer is compared with ``GridRules.verdict`` (which words every
problem and reads the jokers its own way) on every position of seeded games,
and on those grids with jokers put in, tiles taken off or moved, and calls
made on the jokers (fitting or not), whole and focused on single cells.
"""

from __future__ import annotations

import random

from rummykit.blocks.grid import Cell, Put
from rummykit.blocks.grid_near import LayOff, holds_reach
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Event, GameState
from rummykit.pieces.tiles import ALL_TILES, JOKER
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.sim import run_bots

_NEAR = ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))


def _reference_reach(grid: TileGrid, focus: tuple[Cell, ...]) -> frozenset[Cell]:
    """The focus cells and their neighbours, every linked line's cells and the cell past each end, and each
    joker's neighbours in those lines, from the verdict's own lines."""
    out = {(r + dr, c + dc) for r, c in focus for dr, dc in _NEAR}
    for line in GRID._linked_lines(grid, focus):
        cells = line.cells
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        dr, dc = (0, 1) if line.across else (1, 0)
        out.update((*cells, (r0 - dr, c0 - dc), (r1 + dr, c1 + dc)))
        for r, c in cells:
            if grid[(r, c)] is JOKER:
                out.update((r + dr2, c + dc2) for dr2, dc2 in _NEAR)
    return frozenset(out)


def _variants(grid: TileGrid, rng: random.Random) -> list[TileGrid]:
    """The grid, and the grid with jokers put in, tiles taken off or moved, and calls made on its jokers."""
    out = [grid]
    cells = sorted(grid.cells)
    if not cells:
        return out
    jokered = grid.changed([Put(*rng.choice(cells), JOKER) for _ in range(rng.randint(1, 3))], GRID.is_joker)
    out.append(jokered)
    gone = rng.sample(cells, min(len(cells), rng.randint(1, 3)))
    r, c = rng.choice(cells)
    out.append(grid.changed([*(Put(*g, None) for g in gone), Put(r + 1, c + 1, grid[(r, c)])], GRID.is_joker))
    for base in (grid, jokered):
        jokers = [cell for cell, t in base.cells.items() if t is JOKER]
        if jokers:
            called = base
            for cell in rng.sample(jokers, rng.randint(1, len(jokers))):
                called = called.with_call(cell, rng.choice(ALL_TILES[:-1]))
            out.append(called)
    return out


def test_holds_and_holds_reach_agree_with_the_verdict() -> None:
    rng = random.Random(9)
    checked = 0

    def check(state: GameState, _events: list[Event]) -> None:
        nonlocal checked
        assert isinstance(state, TwoTray)
        for grid in _variants(state.grid, rng):
            assert GRID.holds(grid) == (not GRID.verdict(grid).problems)
            cells = sorted(grid.cells)
            for cell in rng.sample(cells, min(len(cells), 4)):
                focus = (cell,)
                assert GRID.holds(grid, focus) == (not GRID.verdict(grid, focus).problems)
                assert holds_reach(GRID, grid, focus) == (GRID.holds(grid, focus), _reference_reach(grid, focus))
                # A tile put in an empty cell next to this one, fitting or not: judged without making that grid.
                r, c = cell
                empty = [(r + dr, c + dc) for dr, dc in _NEAR[1:] if (r + dr, c + dc) not in grid]
                if empty:
                    put = (rng.choice(empty), rng.choice(ALL_TILES))
                    laid = grid.changed((Put(*put[0], put[1]),), GRID.is_joker)
                    judged = holds_reach(GRID, grid, (put[0],), put)
                    assert judged[0] == (not GRID.verdict(laid, (put[0],)).problems)
                    assert judged[1] == _reference_reach(laid, (put[0],))
                    # One cell judged for several tiles in turn: the same answers and reach as one at a time.
                    frame = LayOff(GRID, grid, put[0], put[1])
                    for tile in (put[1], *rng.sample(ALL_TILES, 3), put[1]):
                        assert frame.holds(tile) == holds_reach(GRID, grid, (put[0],), (put[0], tile))[0]
                        assert frame.reach == holds_reach(GRID, grid, (put[0],), (put[0], tile))[1]
            if len(cells) > 3:
                several = tuple(rng.sample(cells, 3))
                assert GRID.holds(grid, several) == (not GRID.verdict(grid, several).problems)
        checked += 1

    for seed in range(4):
        state = new_game("two-tray", players=2, seed=seed)
        bots = [make_bot("random", "two-tray"), make_bot("random" if seed % 2 else "greedy", "two-tray")]
        run_bots(state, bots, on_event=check)
    assert checked > 200
