"""``rummikub``: standard tile rummy (seed 003, rulings in RULES-NOTES section 1).

Rules as enforced are described in ``docs/games/rummikub.md``; every rule id
quoted in an error (``RK-...``) is defined there.

The package, by concern: :mod:`~rummykit.rulesets.rummikub.options` (constants,
options, the table rules), :mod:`~rummykit.rulesets.rummikub.state` (the
rules of a round and its scores), :mod:`~rummykit.rulesets.rummikub.listing`
(sets, lay-offs and legal actions, also from a view) and
:mod:`~rummykit.rulesets.rummikub.position` (notation and position strings).
Sets, lay-offs and joker readings come from the tile meld family,
:data:`rummykit.melds.tiles.TILES`. Every public name is exported here.

>>> import rummykit
>>> state = rummykit.new_game('rummikub', players=2, seed=3)
>>> seat = state.view(None)['turn']
>>> len(state.view(seat)['rack']), state.view(seat)['pool_size']
(14, 78)
>>> state.apply(state.parse_action(f'{seat} draw'))[0].kind
'draw'
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.blocks.table import TableDraft
from rummykit.engine.core import JSON, GameInfo, GameState
from rummykit.engine.options import OptionValue
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets import freetable
from rummykit.rulesets.freetable import (
    Draw,
    Fail,
    Pass,
    Play,
    draft_action,
    format_table,
    play_from_table,
)
from rummykit.rulesets.rummikub.listing import _extensions as _extensions
from rummykit.rulesets.rummikub.listing import actions_from_view, layoffs, listable_actions, rack_sets
from rummykit.rulesets.rummikub.options import (
    COPIES,
    GAME_ID,
    OPTIONS,
    PENALTY_TILES,
    PREFIX,
    RACK_SIZE,
    TABLE,
    Table,
    TileSet,
    initial_meld,
)
from rummykit.rulesets.rummikub.position import from_position, parse_action_text, parse_table
from rummykit.rulesets.rummikub.state import Rummikub, full_set

__all__ = [
    "COPIES",
    "GAME_ID",
    "INFO",
    "OPTIONS",
    "PENALTY_TILES",
    "PREFIX",
    "RACK_SIZE",
    "TABLE",
    "Draw",
    "Fail",
    "Pass",
    "Play",
    "Rummikub",
    "Table",
    "TileSet",
    "actions_from_view",
    "draft_action",
    "draft_from_view",
    "format_table",
    "from_position",
    "full_set",
    "initial_meld",
    "layoffs",
    "listable_actions",
    "parse_action_text",
    "parse_table",
    "play_from_table",
    "rack_sets",
]


def draft_from_view(view: Mapping[str, JSON]) -> TableDraft[Tile]:
    """A turn draft (the table block's) for the seat whose view this is."""
    seat = view.get("seat")
    opening = None
    if seat is not None and not view["down"][seat]:
        opening = initial_meld(int(view["options"]["initial_meld_points"]))
    return freetable.draft_from_view(TABLE, view, parse_tiles, opening)


def _factory(players: tuple[str, ...], seed: int, options: dict[str, OptionValue]) -> GameState:
    return Rummikub(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Rummikub (standard tile rummy)",
    summary="106 tiles, groups and runs, a 30-point initial meld, then free rearrangement of the table.",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=_factory,
    aliases=("tile-rummy", "rk"),
    from_position=from_position,
    view_actions=lambda view: actions_from_view(view),
    rules_page="docs/games/rummikub.md",
    parse_action_text=parse_action_text,
    actions=(Draw, Pass, Play, Fail),
    parse_piece=Tile.parse,
    draft="table",
)
Rummikub.info = INFO
