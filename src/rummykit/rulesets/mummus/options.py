"""Mummus's constants and options: the game id, deal, phases, card points and the option list.

>>> PHASES
('draw', 'play', 'over')
>>> [spec.name for spec in OPTIONS]
['card_points', 'target', 'max_rounds', 'max_turns']
>>> points_table('standard')[1], points_table('standard')[13], points_table('standard')[7]
(15, 10, 7)
>>> normal_card_points('a=1, t=5'), normal_card_points('K=10')
('A=1,10=5', 'standard')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rummykit.engine.core import OVER
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec, OptionValue
from rummykit.errors import OptionError
from rummykit.melds.cards import CardMelds
from rummykit.pieces.cards import ACE, DECK, JACK, KING, QUEEN, RANKS, Card, rank_text

__all__ = [
    "DRAW",
    "GAME_ID",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MELDS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OVER",
    "PHASES",
    "PLAY",
    "PREFIX",
    "STANDARD_POINTS",
    "normal_card_points",
    "points_table",
    "resolve_options",
]

GAME_ID = "mummus"
PREFIX = "MU"
"""The prefix of mummus's rule ids (``MU-...``, see ``docs/games/mummus.md``)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZE = 7
"""Cards dealt to each player."""

MELDS = CardMelds(wrap=True, prefix=PREFIX)
"""The meld rules: sets of a rank, runs of a suit that wrap (Q K A 2 3)."""

DRAW = "draw"
"""The start of a turn: the player to move draws from the stock or takes from the discard pile."""
PLAY = "play"
"""After the draw: melds and add-ons, then a discard ends the turn."""
PHASES = (DRAW, PLAY, OVER)
"""Every phase a view can show (``over`` once the match is over)."""

STANDARD_POINTS: dict[int, int] = {r: r for r in RANKS} | {ACE: 15, JACK: 10, QUEEN: 10, KING: 10}
"""Points per rank: Ace 15, K/Q/J 10, 2-10 their face value (RULES-NOTES section 5)."""
STANDARD = "standard"

_RANK_WORDS: dict[str, int] = {rank_text(r): r for r in RANKS} | {"T": 10}

_TARGET, _MAX_ROUNDS = match_options(target=500, target_help="500 by default; none: one round", zero=True)

OPTIONS = (
    OptionSpec(
        "card_points",
        str,
        STANDARD,
        "points per card: standard (Ace 15, K Q J 10, 2-10 face value), or changes such as A=1,K=13",
    ),
    _TARGET,
    _MAX_ROUNDS,
    OptionSpec(
        "max_turns",
        int,
        200,
        "a round with this many turns and nobody out ends and is scored as it stands",
        minimum=1,
        maximum=100_000,
    ),
)


@functools.cache
def _parse_points(text: str) -> tuple[tuple[int, int], ...]:
    table = dict(STANDARD_POINTS)
    t = text.strip()
    if t.lower() in (STANDARD, ""):
        return tuple(sorted(table.items()))
    for part in t.replace(",", " ").split():
        rank_word, sep, value = part.partition("=")
        rank = _RANK_WORDS.get(rank_word.strip().upper())
        if not sep or rank is None:
            raise OptionError(
                f"option card_points: write RANK=POINTS pairs (ranks A, 2-10, J, Q, K), e.g. A=1,K=13; got {part!r}"
            )
        try:
            points = int(value)
        except ValueError:
            raise OptionError(f"option card_points: {rank_word}= needs a whole number of points, got {value!r}") from None
        if not 0 <= points <= 1000:
            raise OptionError(f"option card_points: points run from 0 to 1000, got {points} for {rank_word}")
        table[rank] = points
    return tuple(sorted(table.items()))


def points_table(text: str) -> dict[int, int]:
    """The points of each rank for a ``card_points`` value (``standard``, or ``RANK=POINTS`` changes)."""
    return dict(_parse_points(text))


def normal_card_points(text: str) -> str:
    """A ``card_points`` value written canonically: ``standard``, or the ranks that differ from it."""
    table = points_table(text)
    changed = [f"{rank_text(r)}={table[r]}" for r in RANKS if table[r] != STANDARD_POINTS[r]]
    return ",".join(changed) if changed else STANDARD


@functools.cache
def card_values(text: str) -> dict[Card, int]:
    """The points of every card for a ``card_points`` value."""
    table = points_table(text)
    return {c: table[c.rank] for c in DECK}


def resolve_options(players: int, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Check the options that depend on each other and write ``card_points`` canonically.

    Resolving resolved options changes nothing.
    """
    options = dict(given)
    options["card_points"] = normal_card_points(str(options.get("card_points", STANDARD)))
    if HAND_SIZE * players >= len(DECK):
        raise OptionError(f"{players} players cannot each be dealt {HAND_SIZE} cards with a stock left")
    return options
