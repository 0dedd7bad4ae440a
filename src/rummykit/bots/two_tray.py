"""``greedy`` for ``two-tray``: place as many tiles of the playing tray as simple grid moves allow.

It works from its seat's view alone. Before going down it looks, on each tray
it may play from, for the disjoint sets that reach the threshold with the
most tiles (:func:`rummykit.bots.greedy.best_meld`, the rummikub greedy's
search) and lays them as new lines in free space, then goes on in the same
turn with the rest of that tray as a player who is down (the seed allows it);
when neither tray can go down on its first turn, it draws onto the weaker
tray, so that the stronger one plays next. Once down it repeats, while
anything helps:

* new lines from the tray, laid across in free space (the sets that place the
  most numbered tiles, jokers kept back for the moves below);
* crossings: a set of tray tiles laid across or down *through* a table tile
  that is alone in that direction (the crossword move);
* single tiles that extend a line, fill the gap between two lines, or start a
  crossing line at a line's end (:func:`~rummykit.rulesets.two_tray.extensions`).

The final grid is judged with the game's own grid rules before it is
committed; otherwise the bot draws (or passes, or ends a turn after emptying
a tray). It never calls a joker (the random bot does).

>>> from rummykit.rulesets.two_tray import from_position
>>> state = from_position('trays: A[K10 B10 O10 R2] B[B1 B2] / A[K1] B[K2]; pool: seed 1')
>>> str(TwoTrayGreedyBot(state.info).choose(state.view(0), Rng(0)))
'0 play A 0,0=K10 0,1=B10 0,2=O10'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.blocks.grid import Cell, Put
from rummykit.blocks.grid_near import holds_near
from rummykit.bots.greedy import best_meld
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.tiles import TILE_BITS, sets_from_masks
from rummykit.pieces.tiles import COLOURS, MAX_NUMBER, Tile
from rummykit.rulesets.two_tray import (
    GRID,
    Draw,
    End,
    Pass,
    Play,
    Situation,
    TileGrid,
    extensions,
    free_row,
    situation_from_view,
)
from rummykit.rulesets.two_tray.views import TwoTrayView

__all__ = ["TwoTrayGreedyBot", "lay_lines", "plan_turn"]

MAX_STEPS = 200
"""Moves one turn's plan may make (a tray holds far fewer tiles; a guard, never reached in practice)."""
DIRECTIONS: tuple[Cell, Cell] = ((0, 1), (1, 0))
"""Across (left to right) and down (top to bottom)."""


def lay_lines(grid: TileGrid, sets: Sequence[Sequence[Tile]]) -> TileGrid:
    """``grid`` with each set laid across in free space below it, one empty row between lines."""
    for s in sets:
        row, col = free_row(grid)
        grid = grid.changed([Put(row, col + i, t) for i, t in enumerate(s)], GRID.is_joker)
    return grid


def _take(work: Counter[Tile], tiles: Sequence[Tile]) -> None:
    for t in tiles:
        work[t] -= 1
        if not work[t]:
            del work[t]


def _masks(tiles: Counter[Tile]) -> tuple[int, list[int], list[int]]:
    """The jokers, the colours held of each number and the numbers held of each colour (bit masks), as
    :func:`~rummykit.melds.tiles.hand_sets` counts a hand."""
    jokers = 0
    numbers_mask = [0] * (MAX_NUMBER + 1)
    colour_mask = [0] * len(COLOURS)
    for t, n in tiles.items():
        found = TILE_BITS[t.code]
        if found is None:
            jokers += n
            continue
        number, colour_bit, ci, number_bit = found
        numbers_mask[number] |= colour_bit
        colour_mask[ci] |= number_bit
    return jokers, numbers_mask, colour_mask


def _crossing(grid: TileGrid, work: Counter[Tile]) -> tuple[TileGrid, list[Tile]] | None:
    """The longest set of tray tiles laid through one table tile, in a direction where it stands alone."""
    cells = grid.cells
    # For each table tile: the sets of the tray's tiles through it, each with the tray tiles it uses (only
    # those the tray holds), worked out once per call.
    by_tile: dict[Tile, list[tuple[tuple[Tile, ...], list[Tile]]]] = {}
    best: tuple[int, TileGrid, list[Tile]] | None = None
    masks: tuple[int, list[int], list[int]] | None = None
    for cell in sorted(cells):
        middle = cells[cell]
        if GRID.is_joker(middle):
            continue
        for dr, dc in DIRECTIONS:
            before, after = (cell[0] - dr, cell[1] - dc), (cell[0] + dr, cell[1] + dc)
            if before in cells or after in cells:
                continue  # the tile already lies in a line this way
            sets = by_tile.get(middle)
            if sets is None:
                if masks is None:
                    masks = _masks(work)
                jokers, numbers_mask, colour_mask = masks
                # hand_sets of the tray's tiles and this one: the tray's masks with its bits added.
                number, colour_bit, ci, number_bit = cast("tuple[int, int, int, int]", TILE_BITS[middle.code])
                numbers = list(numbers_mask)
                numbers[number] |= colour_bit
                colours = list(colour_mask)
                colours[ci] |= number_bit
                sets = by_tile[middle] = []
                for s in sets_from_masks(jokers, numbers, colours):
                    if middle in s:
                        used = list(s)
                        used.remove(middle)
                        if not Counter(used) - work:
                            sets.append((s, used))
            for s, used in sets:
                if len(s) - 1 <= (0 if best is None else best[0]):
                    continue
                for k, t in enumerate(s):
                    if t != middle:
                        continue
                    puts = [
                        Put(cell[0] + (i - k) * dr, cell[1] + (i - k) * dc, p) for i, p in enumerate(s) if i != k
                    ]
                    if any(p.cell in cells for p in puts):
                        continue
                    new = grid.changed(puts, GRID.is_joker)
                    if not GRID.holds(new, focus=[p.cell for p in puts]):
                        continue
                    best = (len(puts), new, used)
                    break
    return None if best is None else (best[1], best[2])


_HOLDS = "two-tray greedy holds"
"""The name, in a grid's cells memo, of whether the grid holds with each set of calls (see :func:`_holds`)."""


def _holds(grid: TileGrid) -> bool:
    """``GRID.holds(grid)``, kept with the grid; for a grid changed from one known to hold with the same calls,
    judged near the changed cells (:func:`~rummykit.blocks.grid_near.holds_near`, the same answer)."""
    memo = grid.cells_memo()
    key = (_HOLDS, grid.calls_key() if grid.calls else ())
    known = cast("bool | None", memo.get(key))
    if known is None:
        origin = grid.origin()
        if origin is not None and origin[0].get(key) is True:
            known = holds_near(GRID, grid, origin[1], None)
        else:
            known = GRID.holds(grid)
        memo[key] = known
    return known


def _plan_holds(old: TileGrid, new: TileGrid) -> bool:
    """``GRID.holds(new)`` for ``new`` made from the seat's grid ``old`` by changing cells: near the changed
    cells when ``old`` holds (the same answer), else the whole grid."""
    if not _holds(old):
        return GRID.holds(new)
    return holds_near(GRID, new, [put.cell for put in old.diff(new)], old)


def plan_turn(grid: TileGrid, tray: Sequence[Tile]) -> TileGrid:
    """The grid after the greedy moves of a player who is down, playing from ``tray``."""
    work = Counter(tray)
    for _ in range(MAX_STEPS):
        if not work:
            break
        sets = best_meld(work, count_jokers=False) if len(work) >= 3 else []
        if sets:
            grid = lay_lines(grid, sets)
            for s in sets:
                _take(work, s)
            continue
        crossed = _crossing(grid, work)
        if crossed is not None:
            grid, used = crossed
            _take(work, used)
            continue
        fits = extensions(grid, work)
        if not fits:
            break
        put = fits[0]
        assert put.piece is not None
        grid = grid.changed((put,), GRID.is_joker)
        _take(work, (put.piece,))
    return grid


class TwoTrayGreedyBot:
    """The greedy bot for two-tray (deterministic; the generator is unused)."""

    level = "greedy"

    def __init__(self, info: GameInfo) -> None:
        self.info = info

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(TwoTrayView, view)  # the view of this game
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        s = situation_from_view(view)
        if not s.down:
            return self._go_down(s)
        best: tuple[int, str, TileGrid] | None = None
        for name in s.playable_trays():
            grid = plan_turn(s.grid, s.trays[name])
            placed = len(grid) - len(s.grid)
            if placed and (best is None or placed > best[0]) and _plan_holds(s.grid, grid):
                best = (placed, name, grid)
        if best is not None:
            return Play(seat, best[1], s.grid.diff(best[2]))
        return self._fallback(s, s.playable_trays()[0])

    def _go_down(self, s: Situation) -> Action:
        best: tuple[tuple[int, int], str, list[tuple[Tile, ...]]] | None = None
        strength: dict[str, int] = {}
        for name in s.playable_trays():
            tiles = Counter(s.trays[name])
            sets = best_meld(tiles, threshold=s.threshold)
            if sets:
                grid = lay_lines(s.grid, sets)
                cells = [c for c in grid.cells if c not in s.grid.cells]
                score = (len(cells), GRID.points(grid, GRID.verdict(grid, focus=cells), cells))
                if best is None or score > best[0]:
                    best = (score, name, sets)
            strength[name] = sum(len(x) for x in best_meld(tiles, count_jokers=False))
        if best is not None:
            _, name, sets = best
            down = lay_lines(s.grid, sets)
            rest = Counter(s.trays[name])
            for meld in sets:
                _take(rest, meld)
            more = plan_turn(down, list(rest.elements()))
            if more != down and GRID.verdict(more).valid:
                placed = GRID.placed(s.grid, more)
                opening = GRID.going_down(s.grid, more, placed, s.threshold)
                if opening.fault is None:
                    return Play(s.seat, name, s.grid.diff(more))
                lines = s.grid.diff(down)
                if GRID.going_down(s.grid, more, placed, s.threshold, lines).fault is None:
                    return Play(s.seat, name, s.grid.diff(more), lines)
            return Play(s.seat, name, s.grid.diff(down))
        # No opening: draw onto the weaker tray, so the stronger one plays next turn.
        name = s.playing if s.playing is not None else min(strength, key=lambda n: (strength[n], n))
        return self._fallback(s, name)

    @staticmethod
    def _fallback(s: Situation, name: str) -> Action:
        if s.continuing:
            return End(s.seat)
        return Draw(s.seat, name) if s.pool_size else Pass(s.seat)
