"""A going-down play whose going-down line is plain to see: judged without the grid rules' search.

:meth:`~rummykit.blocks.grid_rules.GridRules.going_down` (no lines named)
looks for the going-down lines among the cells a turn filled
(:meth:`~rummykit.blocks.grid_rules.GridRules.find_down`): the cells in a
line of 3 or more of them, judged as a grid of their own, worth the
threshold. When a turn only puts tiles in empty cells, those touching
another filled cell making one line of 3 or more across (consecutive columns
of one row) and the others touching none, that search starts from all
these cells, drops each lone one, and judges the line alone: its answer is
the line's own verdict and points, which depend on its tiles alone (a line
of empty cells before has no calls). So the opening has no fault when the
line reads as a set worth the threshold; otherwise the search is made as
before. The listing's going-down plays are all of this shape (a new line
laid in free space, then perhaps one tile away from it).
``tests/test_two_tray11_opening.py`` compares this with ``going_down`` on
every play of seeded games and on made-up turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

from rummykit.blocks.grid import Put
from rummykit.melds.base import MIN_SET
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.options import GRID, TileGrid

__all__ = ["opens_plainly"]


def opens_plainly(old: TileGrid, changes: Sequence[Put[Tile]], threshold: int) -> bool:
    """True when ``GRID.going_down(old, new, placed, threshold)`` (no lines named; ``new`` is ``old`` with
    ``changes``, ``placed`` the tiles they put) surely answers no fault, seen from the changes' shape and the
    line's tiles alone (False: not known, judge it in full)."""
    if len(changes) < MIN_SET:
        return False
    on = old.cells
    filled = set()
    for put in changes:
        cell = (put.row, put.col)
        if put.piece is None or cell in on or cell in filled:
            return False
        filled.add(cell)
    # The cells touching another filled cell: they must make one line across; the others stand alone.
    line: list[tuple[int, Tile]] = []
    row: int | None = None
    for put in changes:
        r, c = put.row, put.col
        if (r, c - 1) in filled or (r, c + 1) in filled or (r - 1, c) in filled or (r + 1, c) in filled:
            if row is None:
                row = r
            elif r != row:
                return False
            line.append((c, put.piece))  # type: ignore[arg-type]
    if len(line) < MIN_SET:
        return False
    line.sort(key=_column)
    if line[-1][0] - line[0][0] != len(line) - 1:
        return False  # not one line (two lines of one row, or a gap)
    points = _line_points(tuple([tile for _, tile in line]))
    return points is not None and points >= threshold


_column = itemgetter(0)


@lru_cache(maxsize=1 << 12)
def _line_points(tiles: tuple[Tile, ...]) -> int | None:
    """What the line of ``tiles`` laid across alone is worth as the grid rules count it (each tile once, a joker
    as what it stands for in the verdict's reading), or None if it is not a valid grid on its own."""
    line = TileGrid({(0, i): t for i, t in enumerate(tiles)})
    verdict = GRID.verdict(line)
    if verdict.problems:
        return None
    return GRID.points(line, verdict, line.cells)
