"""What a two-tray listing judged on one grid, kept with the grid for the next listings and the play check.

The listing (:mod:`rummykit.rulesets.two_tray.listing`) judges lay-offs next
to jokers, joker calls and the readings of lines crossing jokers; each answer
is kept with the cells it depends on (its reach), and a grid changed from
this one starts with every answer whose reach the change did not touch.
"""

from __future__ import annotations

from rummykit.blocks.grid import Cell, Put
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.options import TileGrid

__all__ = ["Judged", "judged_lay_off", "listed_call", "listed_holds"]


Judged = tuple[bool, frozenset[Cell]]
"""Whether a lay-off (or a call) keeps the grid valid, and the cells that answer depends on
(:func:`~rummykit.blocks.grid_near.holds_reach`)."""


class _Judged:
    """What was judged on one grid with its calls, kept with the grid's cells memo: each lay-off (cell, tile) and
    each joker's calls, with the cells each answer depends on. A grid changed from one with the same calls
    starts with every answer of that one whose reach the change did not touch (the same cells, pieces and calls
    in the reach: the same answer; see :func:`~rummykit.blocks.grid_near.holds_reach`). And the changes of the
    plays listed on this grid, by id (:func:`listed_holds`; not carried to another grid). When the change touches none of the reaches (most changes:
    the answers kept are about the cells near jokers), all carry over in one copy."""

    __slots__ = ("calls", "crossings", "lay_offs", "listed", "reached")

    def __init__(self, parent: _Judged | None = None, changed: frozenset[Cell] = frozenset()) -> None:
        self.lay_offs: dict[tuple[Cell, Tile], Judged] = {}
        self.calls: dict[Cell, tuple[tuple[Tile, ...], frozenset[Cell]]] = {}
        self.crossings: dict[tuple[Cell, bool], tuple[frozenset[Tile] | None, tuple[Cell, ...]]] = {}
        self.listed: dict[int, tuple[Put[Tile], ...]] = {}
        self.reached: set[Cell] = set()
        """Every cell some answer here depends on (each answer added with its reach)."""
        if parent is None:
            return
        if changed.isdisjoint(parent.reached):
            # The change touches no answer's reach: every answer carries over (copied whole, not entry by entry).
            self.lay_offs = parent.lay_offs.copy()
            self.calls = parent.calls.copy()
            self.crossings = parent.crossings.copy()
            self.reached = parent.reached.copy()
            return
        if parent.lay_offs:
            self.lay_offs = {k: v for k, v in parent.lay_offs.items() if changed.isdisjoint(v[1])}
        if parent.calls:
            self.calls = {k: v for k, v in parent.calls.items() if changed.isdisjoint(v[1])}
        if parent.crossings:
            self.crossings = {k: v for k, v in parent.crossings.items() if changed.isdisjoint(v[1])}
        reached = self.reached
        for kept in (self.lay_offs, self.calls, self.crossings):
            for value in kept.values():
                reached.update(value[1])


def judged_lay_off(grid: TileGrid, cell: Cell, tile: Tile) -> bool | None:
    """Whether ``tile`` put alone in the empty ``cell`` keeps ``grid`` valid near it (``GRID.holds`` of the grid
    with it, focused on the cell), if a listing on this grid with its calls judged so (else None)."""
    found: _Judged | None = grid.cells_memo().get(_judged_key(grid))  # type: ignore[assignment]
    judged = None if found is None else found.lay_offs.get((cell, tile))
    return None if judged is None else judged[0]


def listed_holds(grid: TileGrid, changes: tuple[Put[Tile], ...]) -> bool:
    """Whether these changes (the very tuple) are those of a play listed on this grid with its calls: a new line
    laid apart, or a lay-off judged to keep the grid valid near its cell (:func:`extensions`). On a grid that
    holds, the grid with them holds (``tests/test_two_tray_listing_speed.py`` compares each with the verdict)."""
    found: _Judged | None = grid.cells_memo().get(_judged_key(grid))  # type: ignore[assignment]
    return found is not None and found.listed.get(id(changes)) is changes


def listed_call(grid: TileGrid, cell: Cell, tile: Tile) -> bool | None:
    """Whether the joker in ``cell`` may be called ``tile`` (``call_fault`` with no cell called this turn finds
    nothing), if a listing on this grid with its calls worked out that joker's calls (else None)."""
    found: _Judged | None = grid.cells_memo().get(_judged_key(grid))  # type: ignore[assignment]
    options = None if found is None else found.calls.get(cell)
    return None if options is None else tile in options[0]


def _judged_key(grid: TileGrid) -> tuple[str, tuple[tuple[Cell, Tile], ...]]:
    """The name of a grid's :class:`_Judged` in its cells memo (with its calls)."""
    return (_JUDGED, grid.calls_key()) if grid.calls else _JUDGED_PLAIN


_JUDGED = "two-tray judged"
_JUDGED_PLAIN: tuple[str, tuple[tuple[Cell, Tile], ...]] = (_JUDGED, ())


def _judged(grid: TileGrid) -> _Judged:
    """The judged lay-offs and calls of ``grid`` with its calls (see :class:`_Judged`)."""
    memo = grid.cells_memo()
    key = (_JUDGED, grid.calls_key()) if grid.calls else _JUDGED_PLAIN  # (_judged_key, read in place)
    found: _Judged | None = memo.get(key)  # type: ignore[assignment]
    if found is None:
        origin = grid.origin()
        parent: _Judged | None = None if origin is None else origin[0].get(key)  # type: ignore[assignment]
        found = _Judged() if parent is None or origin is None else _Judged(parent, origin[1])
        memo[key] = found
    return found
