"""Joker colour calls: which calls are allowed (the engine's check, which the listing uses too).

The seed: "If a joker is part of a three-tile group, each player whose turn
it is to play can call its color so long as that color is not represented by
one of the other tiles in the group." RULES-NOTES adds that a crossing line
may fix the joker otherwise (a joker that completes a run cannot be called
another colour).

>>> from rummykit.pieces.tiles import Tile
>>> grid = TileGrid.parse('0,0: B3 . . / J K4 K5 / R3', Tile.parse)
>>> [str(t) for t in call_options(grid, (1, 0))]
['K3', 'O3']
>>> call_fault(grid, (1, 0), Tile.parse('O3'), ()).rule
'TT-CALL-FIXED'
>>> call_fault(grid, (1, 0), Tile.parse('K3'), ()) is None
True
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from rummykit.blocks.grid import Cell, Line, cell_text
from rummykit.errors import RuleError
from rummykit.melds.base import LineReading
from rummykit.melds.tiles import read_line
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.options import GRID, TileGrid

__all__ = ["GROUP_SIZE", "call_fault", "call_options"]

GROUP_SIZE = 3
"""Only a joker in a group of exactly this many tiles may be called (the seed's "three-tile group")."""


def _groups(grid: TileGrid, cell: Cell) -> list[tuple[Line, int, list[LineReading[Tile]]]]:
    """The 3-tile group lines through ``cell``: (line, the cell's place in it, its group readings)."""
    out = []
    for line in grid.lines_through(cell):
        if len(line) != GROUP_SIZE:
            continue
        cells = line.cells
        pos = cells.index(cell)
        readings = [
            r
            for r in read_line(tuple(grid[c] for c in cells)).readings
            if r.kind == "group"
            and all(r.pieces[i] == grid.calls[c] for i, c in enumerate(cells) if c != cell and c in grid.calls)
        ]
        if readings:
            out.append((line, pos, readings))
    return out


def call_options(grid: TileGrid, cell: Cell) -> list[Tile]:
    """The tiles the joker in ``cell`` could be called by its group alone (the colours the group lacks)."""
    found = {r.pieces[pos] for _line, pos, readings in _groups(grid, cell) for r in readings}
    return sorted(found)


def call_fault(
    grid: TileGrid, cell: Cell, tile: Tile, called: Collection[Cell], base: int = 0
) -> RuleError | None:
    """Why calling the joker in ``cell`` ``tile`` is refused now, or None when it is allowed.

    ``called`` are the cells already called this turn (each joker once per turn);
    ``base`` is what the message adds to row and column numbers (1: as people
    count them at an interface; see :mod:`rummykit.blocks.grid`).
    """
    where = cell_text(cell, base)
    piece = grid.get(cell)
    if piece is None or piece.colour is not None:
        return RuleError("TT-CALL", f"there is no joker at {where}: only a joker can be called")
    if cell in called:
        return RuleError("TT-CALL-ONCE", f"the joker at {where} was already called this turn")
    if tile.colour is None:
        return RuleError("TT-CALL-COLOUR", "a joker is called a numbered tile (a colour and a number), not J")
    groups = _groups(grid, cell)
    if not groups:
        return RuleError(
            "TT-CALL", f"the joker at {where} is in no group of {GROUP_SIZE} tiles: only such a joker can be called"
        )
    if not any(r.pieces[pos] == tile for _line, pos, readings in groups for r in readings):
        lacking = " or ".join(str(t) for t in call_options(grid, cell))
        return RuleError(
            "TT-CALL-COLOUR",
            f"the joker at {where} can be called only a colour its group lacks: {lacking}, not {tile}",
        )
    verdict = replace(GRID, base=base).verdict(grid.with_call(cell, tile), focus=(cell,))
    if verdict.problems:
        return RuleError(
            "TT-CALL-FIXED",
            f"a crossing line fixes the joker at {where} otherwise, so it cannot be called {tile}:"
            f" {verdict.problems[0].reason}",
        )
    return None
