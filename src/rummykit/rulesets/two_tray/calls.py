"""Joker colour calls: which calls are allowed (the engine's check, which the listing uses too).

The seed: "If a joker is part of a three-tile group, each player whose turn
it is to play can call its color so long as that color is not represented by
one of the other tiles in the group." RULES-NOTES adds that a crossing line
may fix the joker otherwise (a joker that completes a run cannot be called
another colour).

A refusal says what is true of the joker: which colours its group lacks,
what a crossing line needs it to be, and which calls (if any) are allowed.
Its cells and lines are data (``row``/``col``, ``line_*``, counted from 0),
so an interface words them as its people count (see :mod:`rummykit.errors`).

>>> from rummykit.pieces.tiles import Tile
>>> grid = TileGrid.parse('0,0: B3 . . / J K4 K5 / R3', Tile.parse)
>>> [str(t) for t in group_options(grid, (1, 0))], [str(t) for t in call_options(grid, (1, 0))]
(['K3', 'O3'], ['K3'])
>>> fault = call_fault(grid, (1, 0), Tile.parse('O3'), ())
>>> print(fault)
the joker at 1,0 cannot be called O3: row 1, columns 0-2 (J K4 K5) needs it to be K3; it can be called only K3 (rule TT-CALL-FIXED)
>>> fault.worded(1)
'the joker at 2,1 cannot be called O3: row 2, columns 1-3 (J K4 K5) needs it to be K3; it can be called only K3'
>>> call_fault(grid, (1, 0), Tile.parse('K3'), ()) is None
True
"""

from __future__ import annotations

from collections.abc import Collection

from rummykit.blocks.grid import Cell, Line, cell_words, line_words
from rummykit.errors import Param, RuleError
from rummykit.melds.base import LineReading
from rummykit.melds.tile_lines import read_line
from rummykit.pieces.tiles import Tile, format_tiles
from rummykit.rulesets.two_tray.options import GRID, TileGrid

__all__ = ["GROUP_SIZE", "call_fault", "call_options", "group_options"]

GROUP_SIZE = 3
"""Only a joker in a group of exactly this many tiles may be called (the seed's "three-tile group")."""


def _readings(grid: TileGrid, line: Line, cell: Cell) -> list[LineReading[Tile]]:
    """The readings of ``line`` that respect the calls of its other jokers (the call of ``cell`` aside)."""
    cells = line.cells
    return [
        r
        for r in read_line(tuple(grid[c] for c in cells)).readings
        if all(r.pieces[i] == grid.calls[c] for i, c in enumerate(cells) if c != cell and c in grid.calls)
    ]


def _groups(grid: TileGrid, cell: Cell) -> list[tuple[Line, int, list[LineReading[Tile]]]]:
    """The 3-tile group lines through ``cell``: (line, the cell's place in it, its group readings)."""
    out = []
    for line in grid.lines_through(cell):
        if len(line) != GROUP_SIZE:
            continue
        readings = [r for r in _readings(grid, line, cell) if r.kind == "group"]
        if readings:
            out.append((line, line.cells.index(cell), readings))
    return out


def group_options(grid: TileGrid, cell: Cell) -> list[Tile]:
    """The tiles the joker in ``cell`` could be called by its 3-tile group alone (the colours the group lacks)."""
    return sorted({r.pieces[pos] for _line, pos, readings in _groups(grid, cell) for r in readings})


def _fits(grid: TileGrid, cell: Cell, tile: Tile) -> bool:
    """Whether every line joined to the joker in ``cell`` can read it as ``tile``."""
    return GRID.holds(grid.with_call(cell, tile), focus=(cell,))


def call_options(grid: TileGrid, cell: Cell) -> list[Tile]:
    """The tiles the joker in ``cell`` may be called: the colours its group lacks that every crossing line allows."""
    return [t for t in group_options(grid, cell) if _fits(grid, cell, t)]


_CELL = "{row},{col}"
"""Where a refusal names the joker's cell (``row`` and ``col`` params, as :func:`cell_words` names them)."""


def _line(line: Line) -> tuple[str, dict[str, Param]]:
    """A line in words as a template (``row 2, columns 4-5``) and its params (counted positions)."""
    return line_words(line)


def _refusal(rule: str, message: str, cell: Cell, **params: Param) -> RuleError:
    """A refusal naming the joker's cell (and perhaps a line): every position counted, from 0."""
    where = cell_words(cell)[1]
    return RuleError(rule, message, counted=(*where, *params), **where, **params)


def _fixed_by(grid: TileGrid, cell: Cell, tile: Tile) -> tuple[str, dict[str, Param]]:
    """What keeps the joker in ``cell`` from being ``tile``: the line that needs it to be something else."""
    for line in grid.lines_through(cell):
        pos = line.cells.index(cell)
        needs = sorted({r.pieces[pos] for r in _readings(grid, line, cell)})
        if needs and tile not in needs:
            where, params = _line(line)
            tiles = format_tiles(grid[c] for c in line.cells)
            return f"{where} ({tiles}) needs it to be {' or '.join(map(str, needs))}", params
    return "the lines joined to it through other jokers cannot read it so", {}


def call_fault(grid: TileGrid, cell: Cell, tile: Tile, called: Collection[Cell]) -> RuleError | None:
    """Why calling the joker in ``cell`` ``tile`` is refused now, or None when it is allowed.

    ``called`` are the cells already called this turn (each joker once per turn).
    The refusal carries the cell (``row``, ``col``) and any line it names as
    positions counted from 0.
    """
    piece = grid.get(cell)
    if piece is None or piece.colour is not None:
        return _refusal("TT-CALL", f"there is no joker at {_CELL}: only a joker can be called", cell)
    if cell in called:
        return _refusal("TT-CALL-ONCE", f"the joker at {_CELL} was already called this turn", cell)
    if tile.colour is None:
        return RuleError("TT-CALL-COLOUR", "a joker is called a numbered tile (a colour and a number), not J")
    groups = _groups(grid, cell)
    if not groups:
        return _refusal(
            "TT-CALL", f"the joker at {_CELL} is in no group of {GROUP_SIZE} tiles: only such a joker can be called", cell
        )
    lacking = group_options(grid, cell)
    if tile in lacking and _fits(grid, cell, tile):
        return None
    allowed = [t for t in lacking if t != tile and _fits(grid, cell, t)]
    if tile not in lacking:
        where, params = _line(groups[0][0])
        tiles = format_tiles(grid[c] for c in groups[0][0].cells)
        number = lacking[0].number
        held = f"is a group of {number}s" if tile.number != number else f"has {tile} already"
        return _refusal(
            "TT-CALL-COLOUR",
            f"the joker at {_CELL} cannot be called {tile}: its group, {where} ({tiles}), {held}; {_still(allowed)}",
            cell,
            **params,
        )
    fixed, params = _fixed_by(grid, cell, tile)
    return _refusal(
        "TT-CALL-FIXED", f"the joker at {_CELL} cannot be called {tile}: {fixed}; {_still(allowed)}", cell, **params
    )


def _still(allowed: list[Tile]) -> str:
    """What the joker may still be called."""
    if allowed:
        return f"it can be called only {' or '.join(map(str, allowed))}"
    return "no call of it is allowed now"
