"""Two-tray's constants, options and grid rules.

>>> [spec.name for spec in OPTIONS]
['jokers', 'initial_meld_points', 'target', 'max_rounds']
>>> TRAYS, MERGED, GRID.prefix
(('A', 'B'), 'AB', 'TT')
"""

from __future__ import annotations

from rummykit.blocks.grid import Grid, GridRules
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec
from rummykit.melds.tile_lines import read_line
from rummykit.pieces.tiles import Tile, format_tiles

__all__ = [
    "GAME_ID",
    "GRID",
    "INVALID_TABLE_PENALTY",
    "MERGED",
    "OPTIONS",
    "PREFIX",
    "TRAYS",
    "TRAY_SIZE",
    "WRONG_TRAY_PENALTY",
    "TileGrid",
]

GAME_ID = "two-tray"
PREFIX = "TT"
"""The prefix of every rule id (``TT-...``)."""
TRAYS = ("A", "B")
"""Each player's two trays, in the order they are dealt."""
MERGED = "AB"
"""The name of the one tray a player combines both trays into in the end game."""
TRAY_SIZE = 14
"""Tiles dealt onto each tray."""
WRONG_TRAY_PENALTY = 1
"""Tiles drawn onto the correct tray by a player who played from the wrong one (the seed's penalty)."""
INVALID_TABLE_PENALTY = 3
"""Tiles drawn by a player who ends a turn with an invalid table (rummikub's penalty, which two-tray keeps)."""

OPTIONS = (
    OptionSpec("jokers", int, 2, "jokers in play", minimum=0, maximum=4),
    OptionSpec(
        "initial_meld_points",
        int,
        30,
        "least total of a player's first play, from one tray (0: no such rule)",
        minimum=0,
        maximum=300,
    ),
    *match_options(target=None, target_help="none: one round"),
)


def _value(tile: Tile) -> int:
    return tile.number


def _is_joker(tile: Tile) -> bool:
    return tile.colour is None


GRID: GridRules[Tile] = GridRules(read_line, value=_value, is_joker=_is_joker, fmt=format_tiles, prefix=PREFIX)
"""The crossword table: lines read as laid (tile groups and ascending runs), rule ids ``TT-...``."""

TileGrid = Grid[Tile]
