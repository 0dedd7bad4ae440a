"""``domino-rummikub``: Rummikub played with two double-six domino sets (seed 001).

Rules as enforced, with every ruling of RULES-NOTES section 3, are in
``docs/games/domino-rummikub.md``; rule ids ``DR-...`` are defined there.

The package, by concern: :mod:`~rummykit.rulesets.domino_rummikub.options`
(constants, the meld family, the table rules, options),
:mod:`~rummykit.rulesets.domino_rummikub.state` (the rules of a round and its
scores), :mod:`~rummykit.rulesets.domino_rummikub.listing` (sets, lay-offs and
legal actions, also from a view) and
:mod:`~rummykit.rulesets.domino_rummikub.position` (notation and position
strings). Every public name is exported here.

>>> import rummykit
>>> state = rummykit.new_game('domino-rummikub', players=3, seed=2)
>>> seat = state.view(None)['turn']
>>> len(state.view(seat)['rack']), state.view(seat)['pool_size']
(8, 32)
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.blocks.table import TableDraft
from rummykit.engine.core import JSON, GameInfo, GameState
from rummykit.engine.options import OptionValue
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub.listing import _extensions as _extensions
from rummykit.rulesets.domino_rummikub.listing import (
    actions_from_view,
    layoffs,
    listable_actions,
    rack_sets,
    rack_sets_with,
)
from rummykit.rulesets.domino_rummikub.options import (
    AT_LEAST_3,
    COPIES,
    EXACTLY_3,
    GAME_ID,
    JOKERS,
    MELDS,
    OPTIONS,
    PREFIX,
    RACK_SIZE,
    TABLE,
    TOP,
    DominoSet,
    starting_group,
)
from rummykit.rulesets.domino_rummikub.position import from_position, parse_action_text
from rummykit.rulesets.domino_rummikub.state import DominoRummikub, full_set
from rummykit.rulesets.freetable import Draw, Fail, Pass, Play

__all__ = [
    "AT_LEAST_3",
    "COPIES",
    "EXACTLY_3",
    "GAME_ID",
    "INFO",
    "JOKERS",
    "MELDS",
    "OPTIONS",
    "PREFIX",
    "RACK_SIZE",
    "TABLE",
    "TOP",
    "DominoRummikub",
    "DominoSet",
    "Draw",
    "Fail",
    "Pass",
    "Play",
    "actions_from_view",
    "draft_from_view",
    "from_position",
    "full_set",
    "layoffs",
    "listable_actions",
    "parse_action_text",
    "rack_sets",
    "rack_sets_with",
    "starting_group",
]


def draft_from_view(view: Mapping[str, JSON]) -> TableDraft[Domino]:
    """A turn draft (the table block's) for the seat whose view this is."""
    seat = view.get("seat")
    opening = None
    if seat is not None and not view["down"][seat]:
        opening = starting_group(view["options"]["starting_group_size"])
    return freetable.draft_from_view(TABLE, view, parse_dominoes, opening)


def _factory(players: tuple[str, ...], seed: int, options: dict[str, OptionValue]) -> GameState:
    return DominoRummikub(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Domino Rummikub (two double-six sets)",
    summary="56 dominoes, 0-0 and 6-6 wild; runs and sums; a 3-domino starting group, then free rearrangement.",
    min_players=2,
    max_players=6,
    options=OPTIONS,
    factory=_factory,
    aliases=("domino-rummy", "dr"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/domino-rummikub.md",
    parse_action_text=parse_action_text,
    actions=(Draw, Pass, Play, Fail),
    parse_piece=Domino.parse,
    draft="table",
    wild_pieces=tuple(sorted(str(d) for d in JOKERS)),
)
DominoRummikub.info = INFO
