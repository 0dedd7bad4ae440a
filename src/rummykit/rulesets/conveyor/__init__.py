"""``conveyor``: Conveyor Rummy, rummy with dominoes drawn from conveyor columns (seed 000).

Rules as enforced, with every ruling of RULES-NOTES section 4 and every
option, are in ``docs/games/conveyor.md``; every rule id quoted in an error
(``CV-...``) is defined there.

A round has two parts. In the **selection round** the players, in turn,
either reveal one face-down domino of an unclaimed column or claim a column
as their hand. Then **play**: on a turn a player draws the domino at one end
of a conveyor (an unclaimed column), may lay down melds and lay dominoes off
onto melds, and discards one domino face up to the opposite end of the same
conveyor. A player whose hand is empty at the end of a turn has *closed* and
scores.

Every step is one action, checked completely before anything changes:

==========================  ===================================================
``0 reveal 3 5``            selection: turn up cell 5 (from the top) of column 3
``0 claim 3``               selection: take column 3 as your hand
``0 draw 2 top``            draw the domino at the top end of conveyor 2
``0 meld 3-4 4-4 4-5``      lay down a meld from your hand
``0 layoff 1 4-6 high``     add 4-6 at the high end of meld 1
``0 discard 2-5``           discard to the opposite end of the conveyor drawn from
``0 close 2-5``             ``domino_runs``: discard 2-5, the rest of the hand is one line
``0 close``                 ``domino_runs``: the whole hand is one line (close on the pickup)
``0 jump 3-5``              ``jump_ins``: claim the domino just discarded ("Mine!")
``0 jump 3-5 with 3-3 3-4`` ... and lay it down at once in a meld (``jump_in_only_on_completion``)
``0 decline``               ``jump_ins``: let the discard go
==========================  ===================================================

The package, by concern: :mod:`~rummykit.rulesets.conveyor.options` (constants,
phases, options), :mod:`~rummykit.rulesets.conveyor.actions` (actions and their
notation), :mod:`~rummykit.rulesets.conveyor.state` (the rules),
:mod:`~rummykit.rulesets.conveyor.listing` (legal actions, also from a view),
:mod:`~rummykit.rulesets.conveyor.views` (what a seat sees) and
:mod:`~rummykit.rulesets.conveyor.position` (position strings). Every public
name is exported here.

>>> import rummykit.rulesets.conveyor
>>> from rummykit import new_game
>>> state = new_game('conveyor', players=2, seed=4)
>>> view = state.view(None)
>>> view['phase'], len(view['columns']), view['columns'][0]['cells'][4:7]
('select', 5, ['??', '1-6', '??'])
>>> seat = view['turn']
>>> _ = state.apply(state.parse_action(f'{seat} claim 0'))
>>> len(state.view(seat)['hand']), state.view(1 - seat)['hand_sizes'][seat]
(11, 11)
"""


from __future__ import annotations

from rummykit.engine.core import GameInfo, GameState
from rummykit.engine.options import OptionValue
from rummykit.rulesets.conveyor.actions import (
    ACTIONS,
    Claim,
    Close,
    Decline,
    Discard,
    Draw,
    Jump,
    Layoff,
    Meld,
    Pieces,
    Reveal,
    parse_action_text,
    parse_piece,
)
from rummykit.rulesets.conveyor.listing import actions_from_view, layoff_fits, list_actions
from rummykit.rulesets.conveyor.options import (
    DRAW,
    GAME_ID,
    JUMP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    OVER,
    PHASES,
    PLAY,
    PREFIX,
    SELECT,
    SETS,
    UNKNOWN,
    default_layout,
    resolve_options,
    rules_for,
)
from rummykit.rulesets.conveyor.position import from_position, position_fields
from rummykit.rulesets.conveyor.state import Conveyor, TableMeld
from rummykit.rulesets.conveyor.typed import read_typed
from rummykit.rulesets.conveyor.views import ColumnView, ConveyorView, DrawnView, JumpWindowView, MeldView

__all__ = [
    "ACTIONS",
    "DRAW",
    "GAME_ID",
    "INFO",
    "JUMP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OVER",
    "PHASES",
    "PLAY",
    "PREFIX",
    "SELECT",
    "SETS",
    "UNKNOWN",
    "Claim",
    "Close",
    "ColumnView",
    "Conveyor",
    "ConveyorView",
    "Decline",
    "Discard",
    "Draw",
    "DrawnView",
    "Jump",
    "JumpWindowView",
    "Layoff",
    "Meld",
    "MeldView",
    "Pieces",
    "Reveal",
    "TableMeld",
    "actions_from_view",
    "default_layout",
    "from_position",
    "layoff_fits",
    "list_actions",
    "parse_action_text",
    "parse_piece",
    "position_fields",
    "read_typed",
    "resolve_options",
    "rules_for",
]


def _factory(players: tuple[str, ...], seed: int, options: dict[str, OptionValue]) -> GameState:
    return Conveyor(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Conveyor Rummy (dominoes drawn from conveyor columns)",
    summary="Double-9 or double-12 dominoes in columns; claim a column as your hand, draw from one end of a"
    " conveyor and discard to the other; runs, runs of pairs and sums.",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    factory=_factory,
    parse_action_text=parse_action_text,
    actions=ACTIONS,
    parse_piece=parse_piece,
    aliases=("conveyor-rummy", "cv"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/conveyor.md",
    read_typed=read_typed,
)
Conveyor.info = INFO
