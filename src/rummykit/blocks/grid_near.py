"""Judging a grid near a change: the same answers as :class:`~rummykit.blocks.grid_rules.GridRules`, from less.

A turn changes a few cells of a grid that held before; a listing asks the
same question of one grid with each lay-off put in turn. These functions
give the grid rules' own answers while reading only what can differ:

* :func:`holds_near`: whether a grid made from one that holds by changing a
  few cells holds (the play check);
* :func:`holds_reach`: whether a grid holds near some cells, with the cells
  that answer depends on (a listing keeps the answer for the next grid when
  the change there touches none of them); :func:`reach` those cells alone;
* :func:`placed_near`: the pieces a turn put down, counted from the changed
  cells.

``tests/test_two_tray_listing_speed.py`` compares each with the whole grid's
judgement on every position of seeded games.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Generic, TypeVar

from rummykit.blocks.grid_cells import Cell, Grid
from rummykit.blocks.grid_judge import LineKey, covered, line_cells, lines_hold, linked_lines
from rummykit.blocks.grid_rules import GridRules
from rummykit.melds.base import MIN_SET

P = TypeVar("P")

__all__ = ["LayOff", "holds_near", "holds_reach", "line_reach", "placed_near", "reach"]


def holds_near(rules: GridRules[P], grid: Grid[P], changed: Iterable[Cell], old: Grid[P] | None) -> bool:
    """Whether ``grid`` holds (:meth:`GridRules.holds <rummykit.blocks.grid_rules.GridRules.holds>`), made from
    ``old``, a grid that holds, by setting only the ``changed`` cells.

    Judged only near the changes: every changed cell is checked for
    isolation with the lines through it, and so is every neighbour of a
    changed cell that held a piece in ``old`` (a piece taken off or
    replaced can leave a neighbour alone or split its line); with every
    line joined to those through jokers. A line of ``grid`` through none
    of these cells has the same cells, pieces and calls as in ``old``
    (a line that grew reaches a piece put down, one that shrank or split
    lies next to a piece taken off), and a tile only gains neighbours
    when pieces are put down; so every other line, and every joker whose
    lines are all unchanged, reads as it did in ``old``, and the answer
    is the whole grid's (``tests/test_two_tray_listing_speed.py``
    compares them). With ``old`` None (the old grid is not at hand), every
    changed cell is taken to have held a piece.
    """
    cells = list(changed)
    if old is not None and len(cells) == 1 and cells[0] not in old and cells[0] in grid:
        # One piece put in an empty cell: the judgement below, with no joker in the lines through the cell
        # (then those lines are all it reads, none is called, and no joker is to be read): the cell
        # touches a piece (lies in a line) and each line reads validly.
        lines = grid.lines_through(cells[0])
        on = grid.cells
        is_joker = rules.is_joker
        read = []
        for line in lines:
            pieces = tuple([on[c] for c in line.cells])
            if any(is_joker(p) for p in pieces):
                break
            read.append(pieces)
        else:
            return bool(lines) and all(len(p) >= MIN_SET and rules.read_line(p).valid for p in read)
    near: set[Cell] = set()
    for r, c in cells:
        if old is None or (r, c) in old:
            near.update((r + dr, c + dc) for dr, dc in _NEAR)
        else:
            near.add((r, c))
    return rules.holds(grid, focus=near)


def holds_reach(
    rules: GridRules[P], grid: Grid[P], focus: Collection[Cell], put: tuple[Cell, P] | None = None
) -> tuple[bool, frozenset[Cell]]:
    """:meth:`GridRules.holds <rummykit.blocks.grid_rules.GridRules.holds>` of ``grid`` with ``focus``, and its
    reach: the cells whose content (or call) the answer depends on. With ``put`` (an empty cell of ``grid``
    and a piece), the same of the grid with that piece put there, without making that grid.

    The answer reads the focus cells and their neighbours (whether each
    touches a piece; an occupied neighbour lies in a line through the cell),
    and the pieces and calls of the lines through the focus cells and of
    those joined to them by jokers; it finds each line's extent at the empty
    cell past each end, and whether a joker lies in a line across from its
    neighbours. So another grid with the same content and calls in every
    cell of the reach (the focus cells and their neighbours; each line's
    cells and the cell past each end; each joker's neighbours) gets the same
    answer.
    """
    on = grid.cells
    if put is not None:
        # A piece put in an empty cell changes no call (calls stay with the jokers' cells).
        assert put[0] not in on
        on = dict(on)
        on[put[0]] = put[1]
    is_joker = rules.is_joker
    keys = linked_lines(is_joker, on, focus)
    reach = _reach(is_joker, on, focus, keys)
    if any(c in on and not covered(on, c) for c in focus):
        return False, reach
    return lines_hold(rules.read_line, is_joker, on, grid.calls, keys), reach


class LayOff(Generic[P]):
    """:func:`holds_reach` of a grid with one piece put in an empty cell, for one piece after another.

    A piece put in the cell lies in both lines through it whatever it is
    (a joker there joins no line that those two do not), so the lines read
    and the reach are the same for every piece: found once, with the first
    piece, and each piece then judged on those lines alone. ``reach`` is the
    reach of each answer.
    """

    __slots__ = ("_calls", "_cell", "_covered", "_lines", "_on", "_rules", "reach")

    def __init__(self, rules: GridRules[P], grid: Grid[P], cell: Cell, piece: P) -> None:
        on = dict(grid.cells)
        assert cell not in on
        on[cell] = piece
        focus = (cell,)
        self._lines = linked_lines(rules.is_joker, on, focus)
        self.reach = _reach(rules.is_joker, on, focus, self._lines)
        self._covered = covered(on, cell)
        self._on, self._cell, self._rules, self._calls = on, cell, rules, grid.calls

    def holds(self, piece: P) -> bool:
        """``holds_reach(rules, grid, (cell,), (cell, piece))[0]``."""
        if not self._covered:
            return False
        self._on[self._cell] = piece
        rules = self._rules
        return lines_hold(rules.read_line, rules.is_joker, self._on, self._calls, self._lines)


def reach(rules: GridRules[P], grid: Grid[P], focus: Collection[Cell]) -> frozenset[Cell]:
    """The reach of :func:`holds_reach` (what the lines through the focus cells and joined to them by jokers
    depend on)."""
    on = grid.cells
    return _reach(rules.is_joker, on, focus, linked_lines(rules.is_joker, on, focus))


def placed_near(rules: GridRules[P], old: Grid[P], new: Grid[P], changed: Iterable[Cell]) -> list[P]:
    """The pieces a turn put down (:meth:`GridRules.placed <rummykit.blocks.grid_rules.GridRules.placed>`, which
    raises the same way), for ``new`` made from ``old`` by setting only the ``changed`` cells: the other cells
    hold the same pieces in both, so they drop out of both differences, and the changed cells are counted alone."""
    cells = set(changed)
    if not any(c in old for c in cells):
        # Pieces put in empty cells only: nothing left the grid.
        return sorted([p for c in cells if (p := new.get(c)) is not None])  # type: ignore[type-var]
    before = Counter(p for c in cells if (p := old.get(c)) is not None)
    after = Counter(p for c in cells if (p := new.get(c)) is not None)
    return rules.placed_from(before, after)


_NEAR = ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))
"""A cell and its four neighbours."""


def _reach(
    is_joker: Callable[[P], bool], on: Mapping[Cell, P], focus: Iterable[Cell], lines: Iterable[LineKey]
) -> frozenset[Cell]:
    """The focus cells and their neighbours, each line's cells and the cell past each end, and the neighbours of
    each joker in the lines."""
    reach = {(r + dr, c + dc) for r, c in focus for dr, dc in _NEAR}
    for key in lines:
        reach.update(line_reach(key))
        for r, c in line_cells(key):
            if is_joker(on[(r, c)]):
                reach.update(((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)))
    return frozenset(reach)


@functools.lru_cache(maxsize=1 << 12)
def line_reach(key: LineKey) -> tuple[Cell, ...]:
    """The cells of a line and the cell past each end (lines recur from grid to grid: kept)."""
    cells = line_cells(key)
    (r0, c0), (r1, c1) = cells[0], cells[-1]
    dr, dc = (0, 1) if key[0] else (1, 0)
    return (*cells, (r0 - dr, c0 - dc), (r1 + dr, c1 + dc))
