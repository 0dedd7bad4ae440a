"""The grid solver: the placement of a tray's tiles on a two-tray crossword table that plays the most tiles.

Given the grid, the playing tray and whether the seat is down (or the points
its first play needs), :func:`solve_grid` looks for the placement that puts
the most tiles of the tray on the table, ties broken by the most points (a
joker counted as what it stands for). It searches, depth first, over
placements built from three kinds of move:

* a **new line** in free space: any set the rest of the tray makes (every
  set of :func:`~rummykit.melds.tiles.hand_sets`), laid across below the
  grid, one empty row between lines (before going down, these are the only
  moves until the new lines are worth the threshold; they never touch the
  table, as the going-down rule asks);
* a **crossing**: a set of tray tiles laid across or down *through* a tile
  of the grid that is alone in that direction (the crossword move);
* a **single tile** put in an empty cell next to the grid where it keeps
  every line through it valid (extending a line at either end, filling the
  gap between two lines, adding a fourth tile to a group...); tiles put by
  earlier moves count as the grid's, so lines grow tile by tile.

Each placement is reached once (the search remembers the placements it has
seen and lays new lines in a fixed order), and a branch is cut when even
placing every tile left could not beat the best found. The search is
**exact** when it finishes: no placement built from these moves plays more
tiles (or as many for more points). With a node budget (``nodes``) or a time
cap (``think``) it stops early and returns the best found, saying so
(``exact=False``). Small positions finish in a few hundred nodes; a full
tray of 14 tiles on a crowded grid can need far more.

Once the seat is down (``rearrange=True``, the default) a placement may also
**rearrange**: take up to :data:`MAX_TAKES` tiles of the table, off the end
of a line of four or more or as the tile a joker stands for (the joker is
then freed), and place them again with the tray's tiles in the same turn. It
never rearranges in the turn a seat goes down (those lines are the tray's
alone, as the going-down rule asks).

What it does not search: other rearrangements (splitting a line in its
middle, moving whole lines, joker colour calls), crosswords among the new
lines themselves (two new lines sharing a tile), and shapes of three or more
new tiles that touch the table in a way no order of the moves above builds
(tiles laid side by side along a line, each making its own short crossing
line). ``tests/test_grid_solver.py`` checks against brute force (every way
to put up to three tiles in the cells next to the grid, with any sets laid
apart): without rearranging, nothing plays more where it says exact; with
rearranging, it never plays fewer.

Every result is judged by the game's own grid rules before it is returned
(the whole grid valid, and before going down the going-down rule met).

>>> from rummykit.pieces.tiles import Tile, parse_tiles
>>> from rummykit.rulesets.two_tray import TileGrid
>>> grid = TileGrid.parse('0,0: R1 R2 R3', Tile.parse)
>>> play = solve_grid(grid, parse_tiles('R4 R5 B2 K2 O9'), down=True)
>>> [str(p) for p in play.puts], play.tiles, play.points, play.exact
(['-2,1=K2', '-1,1=B2', '0,3=R4', '0,4=R5'], 4, 13, True)
>>> solve_grid(grid, parse_tiles('R9 K1'), down=True) is None
True
>>> opening = solve_grid(TileGrid(), parse_tiles('K10 B10 O10 R2'), down=False, threshold=30)
>>> [str(p) for p in opening.down], opening.points
(['0,0=K10', '0,1=B10', '0,2=O10'], 30)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rummykit.blocks.grid import Cell, GridVerdict, Put
from rummykit.melds.tile_lines import read_line
from rummykit.melds.tiles import hand_sets
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.listing import extensions, free_row
from rummykit.rulesets.two_tray.options import GRID, TileGrid

__all__ = ["DEFAULT_NODES", "GridPlay", "solve_grid"]

DEFAULT_NODES = 4000
"""The nodes (placements judged) a best-found search may visit when no budget is given."""
MAX_TAKES = 2
"""Table tiles one placement may take (off a line's end, or a joker replaced) to use again."""
DIRECTIONS: tuple[Cell, Cell] = ((0, 1), (1, 0))
"""Across (left to right) and down (top to bottom)."""

Key = tuple[int, ...]


@dataclass(frozen=True)
class GridPlay:
    """A placement found by :func:`solve_grid`.

    ``puts`` are the changes to the grid (every tile placed, new lines
    included); ``down`` the new lines laid apart in free space (the going-down
    lines, when the seat was not down); ``placed`` the tray tiles it uses;
    ``grid`` the grid it leaves. ``exact`` is True when the search finished
    (nothing the solver's moves build plays more), False when a budget
    stopped it; ``nodes`` counts the placements it judged.
    """

    puts: tuple[Put[Tile], ...]
    down: tuple[Put[Tile], ...]
    placed: tuple[Tile, ...]
    points: int
    grid: TileGrid
    exact: bool
    nodes: int

    @property
    def tiles(self) -> int:
        """How many tiles the placement puts on the table."""
        return len(self.placed)


def _key(tiles: Sequence[Tile]) -> Key:
    return tuple(sorted(t.code for t in tiles))


@lru_cache(maxsize=1 << 14)
def _sets(tiles: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], ...]:
    """The sets ``tiles`` make that read as laid, longest (then highest) first."""
    out = [tuple(s) for s in hand_sets(tiles) if read_line(tuple(s)).valid]
    out.sort(key=_order)
    return tuple(out)


def _order(line: tuple[Tile, ...]) -> tuple[int, int, Key]:
    """The order new lines are tried and laid in: longest, then highest, first."""
    return (-len(line), -_value(line), _key(line))


@lru_cache(maxsize=1 << 14)
def _value(line: tuple[Tile, ...]) -> int:
    """A line's points, a joker as what it stands for (the highest reading)."""
    readings = read_line(line).readings
    return max((r.points for r in readings), default=0)


def _tuple(work: Counter[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(work.elements(), key=lambda t: t.code))


class _Search:
    def __init__(
        self, grid: TileGrid, tray: Sequence[Tile], *, down: bool, threshold: int, nodes: int | None,
        think: float | None, objective: str = "tiles", rearrange: bool = True,
    ) -> None:
        self.base = grid
        self.tray = Counter(tray)
        self.total = sum(self.tray.values())
        self.down = down or threshold <= 0
        self.threshold = threshold
        self.limit = nodes
        self.objective = objective
        self.rearrange = rearrange
        self.deadline = None if think is None else time.perf_counter() + think
        self.nodes = 0
        self.stopped = False
        self.seen: set[tuple[TileGrid, tuple[Key, ...], Key, int]] = set()
        self.best: tuple[tuple[int, int], GridPlay] | None = None

    # -- the moves -----------------------------------------------------------------------

    def crossings(self, grid: TileGrid, work: Counter[Tile]) -> list[tuple[Put[Tile], ...]]:
        """Each set of ``work`` laid through a grid tile alone in that direction, the longest first."""
        cells = grid.cells
        out: list[tuple[Put[Tile], ...]] = []
        rest = _tuple(work)
        for cell in sorted(cells):
            middle = cells[cell]
            if GRID.is_joker(middle):
                continue
            for dr, dc in DIRECTIONS:
                if (cell[0] - dr, cell[1] - dc) in cells or (cell[0] + dr, cell[1] + dc) in cells:
                    continue
                for s in _sets(tuple(sorted((*rest, middle), key=lambda t: t.code))):
                    if middle not in s:
                        continue
                    for k, t in enumerate(s):
                        if t != middle:
                            continue
                        puts = tuple(
                            Put(cell[0] + (i - k) * dr, cell[1] + (i - k) * dc, p) for i, p in enumerate(s) if i != k
                        )
                        if any(p.cell in cells for p in puts):
                            continue
                        used = Counter(p.piece for p in puts if p.piece is not None)
                        if used - work:
                            continue
                        new = grid.changed(puts, GRID.is_joker)
                        if GRID.verdict(new, focus=[p.cell for p in puts]).problems:
                            continue
                        out.append(puts)
        out.sort(key=len, reverse=True)
        return out

    def takes(self, grid: TileGrid, work: Counter[Tile]) -> list[tuple[TileGrid, Tile | None, Tile]]:
        """Rearrangements of one table tile: each tile that can leave the grid with every line still valid
        (the end of a line of 4 or more, alone the other way), and each joker a tray tile can replace.

        Each comes as (the grid after it, the tray tile it puts in, the table tile it frees)."""
        cells = grid.cells
        out: list[tuple[TileGrid, Tile | None, Tile]] = []
        verdict: GridVerdict[Tile] | None = None
        for cell in sorted(cells):
            tile = cells[cell]
            if GRID.is_joker(tile):
                if verdict is None:
                    verdict = GRID.verdict(grid)
                for t in sorted(verdict.options.get(cell, frozenset()) & set(work)):
                    swapped = grid.changed((Put(cell[0], cell[1], t),), GRID.is_joker)
                    if not GRID.verdict(swapped, focus=(cell,)).problems:
                        out.append((swapped, t, tile))
            lines = grid.lines_through(cell)
            if len(lines) != 1 or len(lines[0]) < 4 or cell not in (lines[0].cells[0], lines[0].cells[-1]):
                continue
            emptied = grid.changed((Put(cell[0], cell[1], None),), GRID.is_joker)
            near = [c for c in lines[0].cells if c != cell]
            if not GRID.verdict(emptied, focus=near).problems:
                out.append((emptied, None, tile))
        return out

    # -- the search ----------------------------------------------------------------------

    def run(self) -> GridPlay | None:
        self.visit(self.base, (), self.tray.copy(), 0, MAX_TAKES)
        if self.best is None:
            return None
        play = self.best[1]
        return GridPlay(play.puts, play.down, play.placed, play.points, play.grid, not self.stopped, self.nodes)

    def out_of_budget(self) -> bool:
        over = self.limit is not None and self.nodes >= self.limit
        late = self.deadline is not None and self.nodes % 16 == 0 and time.perf_counter() > self.deadline
        self.stopped = self.stopped or over or late
        return self.stopped

    def visit(
        self, grid: TileGrid, lines: tuple[tuple[Tile, ...], ...], work: Counter[Tile], opening_points: int, takes: int
    ) -> None:
        """One placement: ``grid`` (the table with the tiles attached so far), ``lines`` laid apart and
        ``work`` (the tray's tiles left, with any table tiles taken and still to place)."""
        key = (grid, tuple(_key(s) for s in lines), _key(_tuple(work)), takes)
        if key in self.seen or self.out_of_budget():
            return
        self.seen.add(key)
        self.nodes += 1
        ready = self.down or opening_points >= self.threshold
        if ready and (lines or grid is not self.base):
            self.consider(grid, lines, work)
        if not work:
            return
        # New lines in free space, in a fixed order (each no earlier than the last laid).
        last = _order(lines[-1]) if lines else None
        for s in _sets(_tuple(work)):
            if last is not None and _order(s) < last:
                continue
            rest = work.copy()
            rest.subtract(s)
            if any(v < 0 for v in rest.values()):
                continue
            self.visit(grid, (*lines, s), +rest, opening_points + (0 if self.down else _value(s)), takes)
            if self.stopped:
                return
        if not ready:
            return
        for put in extensions(grid, work):
            assert put.piece is not None
            rest = work.copy()
            rest[put.piece] -= 1
            self.visit(grid.changed((put,), GRID.is_joker), lines, +rest, opening_points, takes)
            if self.stopped:
                return
        for puts in self.crossings(grid, work):
            rest = work.copy()
            rest.subtract(p.piece for p in puts if p.piece is not None)
            self.visit(grid.changed(puts, GRID.is_joker), lines, +rest, opening_points, takes)
            if self.stopped:
                return
        if not self.rearrange or not takes or not self.down:
            return  # no rearranging in the turn a seat goes down (its going-down lines are the tray's alone)
        for new, put_in, freed in self.takes(grid, work):
            rest = work.copy()
            if put_in is not None:
                rest[put_in] -= 1
            rest[freed] += 1
            self.visit(new, lines, +rest, opening_points, takes - 1)
            if self.stopped:
                return

    def consider(self, grid: TileGrid, lines: tuple[tuple[Tile, ...], ...], work: Counter[Tile]) -> None:
        if work - self.tray:
            return  # a table tile taken and not yet put back
        placed_count = self.tray.copy()
        placed_count.subtract(work)
        placed = tuple(sorted((+placed_count).elements(), key=lambda t: t.code))
        tiles = len(placed)
        if not tiles:
            return  # a rearrangement alone is no play
        held = sum(t.points for t in placed)
        first = held if self.objective == "held" else tiles
        if self.best is not None and first < self.best[0][0]:
            return
        final, down = lay_apart(grid, lines)
        verdict = GRID.verdict(final)
        if not verdict.valid:
            return
        puts = self.base.diff(final)
        points = sum(t.number for t in placed if not GRID.is_joker(t))
        jokers = [p.cell for p in puts if p.piece is not None and GRID.is_joker(p.piece)]
        roles = sorted((verdict.roles[c].number for c in jokers if c in verdict.roles), reverse=True)
        points += sum(roles[: sum(1 for t in placed if GRID.is_joker(t))])
        score = (held, tiles) if self.objective == "held" else (tiles, points)
        if self.best is not None and score <= self.best[0]:
            return
        if not self.down:
            opening = GRID.going_down(self.base, final, placed, self.threshold, down)
            if opening.fault is not None:
                return
        self.best = (score, GridPlay(puts, down, placed, points, final, False, self.nodes))


def lay_apart(grid: TileGrid, lines: Sequence[Sequence[Tile]]) -> tuple[TileGrid, tuple[Put[Tile], ...]]:
    """``grid`` with each line laid across in free space below it (one empty row between) and the puts laying them."""
    puts: list[Put[Tile]] = []
    for s in lines:
        row, col = free_row(grid)
        line = [Put(row, col + i, t) for i, t in enumerate(s)]
        grid = grid.changed(line, GRID.is_joker)
        puts.extend(line)
    return grid, tuple(puts)


def solve_grid(
    grid: TileGrid,
    tray: Sequence[Tile],
    *,
    down: bool,
    threshold: int = 30,
    exact: bool = True,
    nodes: int | None = None,
    think: float | None = None,
    objective: str = "tiles",
    rearrange: bool = True,
) -> GridPlay | None:
    """The placement of ``tray``'s tiles on ``grid`` that plays the most tiles (ties: the most points).

    ``down``: the seat is down (else its first play must be new lines worth
    ``threshold`` points, then it may go on). With ``exact`` (and no
    ``nodes`` or ``think``) the search runs to its end; otherwise it stops
    after ``nodes`` placements (default :data:`DEFAULT_NODES`) or ``think``
    seconds and the result says ``exact=False`` if it stopped early.
    ``objective="held"`` ranks placements by the penalty points they take
    out of the tray instead (a joker 30, a tile its number; ties: more
    tiles), what a blocked round is decided by. None:
    nothing can be placed (or, not down, no opening reaches the threshold).
    """
    if not exact and nodes is None and think is None:
        nodes = DEFAULT_NODES
    if objective not in ("tiles", "held"):
        raise ValueError(f"objective is 'tiles' or 'held', not {objective!r}")
    return _Search(
        grid, tray, down=down, threshold=threshold, nodes=nodes, think=think, objective=objective, rearrange=rearrange
    ).run()
