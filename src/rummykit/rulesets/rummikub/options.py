"""Rummikub's constants and options: the game id, rack size, copies, penalty, the option list and the table rules.

>>> [spec.name for spec in OPTIONS][:2]
['jokers', 'initial_meld_points']
>>> initial_meld(30).min_points
30
"""

from __future__ import annotations

import functools

from rummykit.blocks.table import FreeTable, Opening
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec
from rummykit.melds.tiles import check_tiles, check_tuple
from rummykit.pieces.tiles import JOKER, Tile, format_tiles
from rummykit.rulesets import tilerummy

__all__ = [
    "COPIES",
    "GAME_ID",
    "OPTIONS",
    "PENALTY_TILES",
    "PREFIX",
    "RACK_SIZE",
    "TABLE",
    "Table",
    "TileSet",
    "initial_meld",
]

GAME_ID = "rummikub"
PREFIX = "RK"
"""The prefix of every rule id (``RK-...``)."""
RACK_SIZE = 14
COPIES = tilerummy.COPIES
PENALTY_TILES = 3

OPTIONS = (
    OptionSpec("jokers", int, 2, "jokers in play", minimum=0, maximum=4),
    OptionSpec(
        "initial_meld_points",
        int,
        30,
        "least total of a player's initial meld (0: no initial-meld rule)",
        minimum=0,
        maximum=300,
    ),
    *match_options(target=None, target_help="none: one round"),
)

TABLE: FreeTable[Tile] = FreeTable(check_tiles, format_tiles, PREFIX, "tile", frozenset({JOKER}), check_tuple)

TileSet = tuple[Tile, ...]
Table = tuple[TileSet, ...]


@functools.lru_cache(maxsize=16)
def initial_meld(points: int) -> Opening:
    """The initial-meld rule: new sets from the rack worth at least ``points``."""
    return Opening(min_points=points, name="initial meld")
