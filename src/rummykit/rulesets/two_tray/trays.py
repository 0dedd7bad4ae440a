"""Two-tray's own reading and taking of tray tiles, by hash and identity.

A tray is a list of interned tiles; ``in``, ``count`` and ``remove`` on it
compare tile by tile through ``Tile``'s Python-level comparison slot (it
defines ``__lt__``), about 0.4 us a tile, where a set or an ``id`` finds the
same tiles in C. ``tests/test_two_tray10_trays.py`` holds both functions to
the list operations they replace.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import attrgetter

from rummykit.blocks.grid import Cell, Grid
from rummykit.blocks.grid_near import placed_near
from rummykit.blocks.racks import Racks
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.options import GRID

__all__ = ["holds_all", "placed_tiles", "take", "tile_code"]

tile_code = attrgetter("code")
"""A tile's sort key: tiles sort by code (``Tile.__lt__`` compares codes, through a Python call per comparison;
``sorted(tiles, key=tile_code)`` makes the same order in C)."""


def holds_all(held: list[Tile], tiles: Sequence[Tile]) -> bool:
    """Whether ``held`` holds every tile of ``tiles`` (as often as it comes there): ``Counter(tiles) -
    Counter(held)`` is empty."""
    # By hash, not by ``in`` or ``count`` on the list: those compare tile by tile through ``Tile``'s Python-level
    # comparison slot (about 0.4 us a tile); tiles are interned, so both find the same tiles.
    if len(tiles) == 1:
        return not {tiles[0]}.isdisjoint(held)
    distinct = set(tiles)
    if len(distinct) == len(tiles):
        # Each tile once (a laid line's usual case): each need only be held.
        return distinct.issubset(held)
    have = Counter(held)
    return all(have[t] >= n for t, n in Counter(tiles).items())


def take(trays: Racks[Tile], seat: int, tiles: Sequence[Tile], tray: str) -> None:
    """``trays.take(seat, tiles, tray)``: each tile's first copy taken off the tray, found by identity (tiles are
    interned; ``list.remove`` compares tile by tile through ``Tile``'s Python-level comparison slot). A tile the
    tray lacks leaves it to ``take``, which refuses as ever, changing nothing."""
    rack = trays.rack(seat, tray)
    rest = list(rack)
    for tile in tiles:
        for at, held in enumerate(rest):
            if held is tile:
                del rest[at]
                break
        else:
            trays.take(seat, tiles, tray)
            return
    rack[:] = rest


def placed_tiles(old: Grid[Tile], new: Grid[Tile], changed: list[Cell]) -> list[Tile]:
    """:func:`~rummykit.blocks.grid_near.placed_near` (``GRID``, ``old``, ``new``, ``changed``): when every changed
    cell was empty (tiles only put down, every listed play), the tiles now there sorted by code in C (the order
    ``Tile.__lt__`` gives through a Python call per comparison); else ``placed_near`` itself."""
    on = old.cells
    for cell in changed:
        if cell in on:
            return placed_near(GRID, old, new, changed)
    get = new.cells.get
    return sorted([p for c in set(changed) if (p := get(c)) is not None], key=tile_code)
