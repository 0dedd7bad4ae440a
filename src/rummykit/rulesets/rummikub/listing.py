"""Listing plays: every set a rack can make, every lay-off, and the listable actions (also from a view).

The sets and lay-offs are the tile meld family's (:data:`rummykit.melds.tiles.TILES`):
:func:`~rummykit.melds.tiles.hand_sets` and :func:`~rummykit.melds.tiles.set_extensions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rummykit.engine.core import Action
from rummykit.engine.options import int_option
from rummykit.melds.tiles import check_tiles, hand_sets, set_extensions
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets import freetable
from rummykit.rulesets.rummikub.options import TileSet

__all__ = ["actions_from_view", "layoffs", "listable_actions", "rack_sets"]

rack_sets = hand_sets
"""Every valid set (in normal form) that can be made from the rack's tiles: the family's
:func:`~rummykit.melds.tiles.hand_sets` under the name the game has always used."""
_extensions = set_extensions
"""Every tile that grows a set at one end (the family's :func:`~rummykit.melds.tiles.set_extensions`)."""


def layoffs(rack: Iterable[Tile], table: Sequence[TileSet]) -> list[tuple[Tile, int, TileSet]]:
    """Every (tile, set index, new set) adding one rack tile to one end of a table set.

    >>> from rummykit.pieces.tiles import format_tiles
    >>> [(str(t), i, format_tiles(s)) for t, i, s in layoffs(parse_tiles('R4 K5'), [tuple(parse_tiles('R1 R2 R3'))])]
    [('R4', 0, 'R1 R2 R3 R4')]
    """
    have = set(rack)
    out: list[tuple[Tile, int, TileSet]] = []
    for i, s in enumerate(table):
        fitting, grown_by = _fits(s)
        if not fitting.isdisjoint(have):
            out.extend((p, i, grown) for p, grown in grown_by if p in have)
    return out


@lru_cache(maxsize=1 << 12)
def _fits(s: TileSet) -> tuple[frozenset[Tile], tuple[tuple[Tile, TileSet], ...]]:
    """The tiles that grow the table set ``s`` at an end, and each with the grown set (as :func:`_extensions`)."""
    grown_by = _extensions(tuple(s))
    return frozenset(p for p, _grown in grown_by), grown_by


def listable_actions(
    seat: int,
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    *,
    down: bool,
    threshold: int,
    pool_size: int,
) -> list[Action]:
    """The listable actions of the player to move, from what that player can see.

    Draw (or pass when the pool is empty); every play of one new set from the
    rack (before the initial meld: one whose value reaches the threshold); and,
    once down, every lay-off of one rack tile onto one table set.
    """
    sets = [s for s in rack_sets(rack) if down or check_tiles(s).points >= threshold]
    return freetable.one_step_plays(seat, sets, layoffs(rack, table) if down else (), table, pool_size)


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view (a free-table view) this is (empty if it may not act)."""
    seen = freetable.free_table_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_tiles(seen["rack"]),
        [freetable.parse_view_set(parse_tiles, tuple(s)) for s in seen["table"]],
        down=seen["down"][seat],
        threshold=int_option(seen["options"], "initial_meld_points"),
        pool_size=seen["pool_size"],
    )
