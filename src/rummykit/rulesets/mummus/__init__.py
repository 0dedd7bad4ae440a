"""``mummus``: a card rummy with a spread discard pile, add-ons at any time and "rummy" calls (seed 004).

Rules as enforced, with every ruling of RULES-NOTES section 5 and every
option, are in ``docs/games/mummus.md``; every rule id quoted in an error
(``MU-...``) is defined there.

Seven cards each from one 52-card deck. A turn starts with a draw, from
the stock or from the discard pile, which lies spread so that every card
shows: a card from deep down comes with every card above it and must be
melded or added on in the same turn. Then melds (sets of a rank, runs of a
suit that wrap: Q K A 2 3) and add-ons, then a discard; a round ends only
when a player discards their last card. Add-ons are open to everyone at any
time, and anyone may call "rummy" to claim discard-pile cards that extend a
meld on the table (or form one). Every card scores for whoever put it on
the table; cards left in a hand count against it.

Every step is one action, checked completely before anything changes:

==========================  ===================================================
``0 draw``                  start the turn with the top card of the stock
``0 take 9H``               ... or with 9H from the discard pile and every card above it
``0 meld 9H 10H JH``        lay down a meld from your hand (your turn, after the draw)
``2 addon QH to 9H``        add QH from your hand to the meld holding 9H (any time)
``1 rummy 8H to 9H``        claim 8H from the discard pile onto the meld holding 9H (any time)
``1 rummy 7C 7D 7S``        claim three discards that form a meld
``0 discard 4C``            end the turn (the round, with your last card)
==========================  ===================================================

The package, by concern: :mod:`~rummykit.rulesets.mummus.options` (constants,
phases, options, card points), :mod:`~rummykit.rulesets.mummus.actions`
(actions and their notation), :mod:`~rummykit.rulesets.mummus.state` (the
rules), :mod:`~rummykit.rulesets.mummus.listing` (the judgements shared by
the checks and the legal actions, also from a view),
:mod:`~rummykit.rulesets.mummus.views` (what a seat sees),
:mod:`~rummykit.rulesets.mummus.position` (position strings) and
:mod:`~rummykit.rulesets.mummus.typed` (actions as a person types them, the
screen's numbers counted from 1 allowed: ``take 3``, ``addon 2 9H``).

>>> from rummykit import new_game
>>> state = new_game('mummus', players=3, seed=4)
>>> view = state.view(None)
>>> view['phase'], view['turn'], view['dealer'], view['stock_size'], view['discard']
('draw', 1, 0, 31, [])
>>> _ = state.apply(state.parse_action('1 draw'))
>>> len(state.view(1)['hand']), state.view(0)['hand_sizes']
(8, [7, 8, 7])
"""

from __future__ import annotations

from rummykit.engine.core import GameInfo, GameState
from rummykit.engine.options import OptionValue
from rummykit.rulesets.mummus.actions import (
    ACTIONS,
    VERBS,
    Addon,
    Cards,
    Discard,
    Draw,
    Meld,
    Rummy,
    Take,
    parse_action_text,
    parse_piece,
)
from rummykit.rulesets.mummus.listing import (
    actions_from_view,
    actions_seen,
    addon_chains,
    claimable,
    claims,
    deep_usable,
    list_actions,
    out_of_turn,
    wanted,
)
from rummykit.rulesets.mummus.options import (
    DRAW,
    GAME_ID,
    HAND_SIZE,
    MAX_PLAYERS,
    MELDS,
    MIN_PLAYERS,
    OPTIONS,
    OVER,
    PHASES,
    PLAY,
    PREFIX,
    STANDARD_POINTS,
    card_values,
    normal_card_points,
    points_table,
    resolve_options,
)
from rummykit.rulesets.mummus.position import from_position, position_fields
from rummykit.rulesets.mummus.state import Mummus
from rummykit.rulesets.mummus.typed import read_typed
from rummykit.rulesets.mummus.views import MeldView, MummusView

__all__ = [
    "ACTIONS",
    "DRAW",
    "GAME_ID",
    "HAND_SIZE",
    "INFO",
    "MAX_PLAYERS",
    "MELDS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OVER",
    "PHASES",
    "PLAY",
    "PREFIX",
    "STANDARD_POINTS",
    "VERBS",
    "Addon",
    "Cards",
    "Discard",
    "Draw",
    "Meld",
    "MeldView",
    "Mummus",
    "MummusView",
    "Rummy",
    "Take",
    "actions_from_view",
    "actions_seen",
    "addon_chains",
    "card_values",
    "claimable",
    "claims",
    "deep_usable",
    "from_position",
    "list_actions",
    "normal_card_points",
    "out_of_turn",
    "parse_action_text",
    "parse_piece",
    "points_table",
    "position_fields",
    "read_typed",
    "resolve_options",
    "wanted",
]


def _factory(players: tuple[str, ...], seed: int, options: dict[str, OptionValue]) -> GameState:
    return Mummus(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Mummus (card rummy with a spread discard pile and rummy calls)",
    summary="52 cards, 7 each; take deep from the spread discard pile if you play the card at once; sets and"
    " wrapping runs (Q K A 2); add on at any time, call rummy on a fitting discard; every card you lay scores.",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    factory=_factory,
    parse_action_text=parse_action_text,
    actions=ACTIONS,
    parse_piece=parse_piece,
    aliases=("mu", "mummus-rummy"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/mummus.md",
    read_typed=read_typed,
)
Mummus.info = INFO
