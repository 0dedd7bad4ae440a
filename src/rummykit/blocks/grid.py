"""A grid table: pieces in the cells of an unbounded board, read like a crossword.

Every game whose table is laid out in two dimensions builds on this block
(``two-tray`` is the first). Cells are ``(row, column)`` pairs of integers,
negative ones included; rows grow downwards, columns to the right.

* A **line** is a maximal run of two or more occupied cells next to each
  other in one row (read left to right) or one column (read top to bottom).
* Every line must have at least 3 pieces and be a valid set *as laid*; what
  that means is the meld family's answer (:class:`~rummykit.melds.base.LineVerdict`).
  A piece may lie in one row line and one column line at once.
* A joker lying in two lines must stand for one piece that fits both; a
  joker that a player has *called* must stand for the called piece.
* Every piece must belong to at least one line.

Cells are numbered as the game's notation numbers them (records, actions,
views), and so are the cells and lines a refusal names: each is a param of
the :class:`~rummykit.errors.RuleError`, counted from 0, which an interface
words as its people count (``worded(1)``: the notation's cell 0,0 is a
person's 1,1). The block knows nothing of screens.

The block is three modules, all re-exported here:
:mod:`~rummykit.blocks.grid_cells` (cells, lines, changes, the grid),
:mod:`~rummykit.blocks.grid_rules` (judging a grid and a turn) and
:mod:`~rummykit.blocks.grid_draft` (a turn built step by step); and
:mod:`~rummykit.blocks.grid_near`, the rules' answers for a grid near a
change (what a play check and a listing ask), read from fewer cells; and
:mod:`~rummykit.blocks.grid_judge`, the rules' yes-or-no read straight from
the cells (what :meth:`GridRules.holds` answers).

:class:`GridRules` judges a grid and names each problem by its cells and
line (``row 2, columns 4-5: a line of 2 tiles ...``); a :class:`Grid` has a
one-line text form that round-trips; :class:`GridDraft` lets an interface
build a turn one step at a time (place, move, back, undo, reset, check).

>>> from rummykit.melds.tile_lines import read_line
>>> from rummykit.pieces.tiles import Tile, format_tiles
>>> rules = GridRules(read_line, value=lambda t: t.number, is_joker=Tile.is_joker.fget, fmt=format_tiles, prefix='XX')
>>> grid = Grid.parse('0,0: R3 R4 R5 / . . K5 / . . K5', Tile.parse)
>>> [str(p) for p in rules.problems(grid)]
["column 2, rows 0-2 (R5 K5 K5): a group's colours must all differ: R5 K5 K5 has K5 twice (rule XX-GROUP)"]
>>> grid = Grid.parse('0,0: R3 R4 R5 / . K4 K5', Tile.parse)
>>> [p.reason for p in rules.problems(grid)]
['row 1, columns 1-2: a line of 2 tiles (K4 K5); every line of touching tiles needs 3 or more', ...]
>>> Grid.parse(grid.text(), Tile.parse) == grid, grid.text()
(True, '0,0: R3 R4 R5 / . K4 K5')
"""
from __future__ import annotations

from rummykit.blocks.grid_cells import (
    EMPTY,
    Cell,
    Grid,
    Line,
    Put,
    Words,
    cell_text,
    cell_words,
    line_words,
    parse_cell,
    where_cell,
    where_words,
)
from rummykit.blocks.grid_draft import GridDraft
from rummykit.blocks.grid_rules import (
    DOWN_SEARCH,
    GoingDown,
    GridProblem,
    GridRules,
    GridVerdict,
    literal,
    refusal,
)

__all__ = [
    "DOWN_SEARCH",
    "EMPTY",
    "Cell",
    "GoingDown",
    "Grid",
    "GridDraft",
    "GridProblem",
    "GridRules",
    "GridVerdict",
    "Line",
    "Put",
    "Words",
    "cell_text",
    "cell_words",
    "line_words",
    "literal",
    "parse_cell",
    "refusal",
    "where_cell",
    "where_words",
]
