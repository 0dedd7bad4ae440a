"""rummykit: play, solve and study rummy-family games exactly by their rules.

>>> import rummykit
>>> 'rummikub' in [g.id for g in rummykit.games()]
True
>>> state = rummykit.new_game('rummikub', players=['ann', 'bob'], seed=7)
>>> sorted(state.view(0))[:4]
['down', 'game', 'idle_turns', 'last_move']
"""

from rummykit.catalogue import find_game, games, new_game
from rummykit.engine.core import (
    Action,
    Event,
    GameInfo,
    GameState,
)
from rummykit.engine.match import Outcome
from rummykit.errors import (
    OptionError,
    ParseError,
    RecordError,
    RuleError,
    RummykitError,
    UnknownGameError,
)
from rummykit.pieces.tiles import JOKER, Colour, Tile

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "Action",
    "Colour",
    "Event",
    "GameInfo",
    "GameState",
    "OptionError",
    "Outcome",
    "ParseError",
    "RecordError",
    "RuleError",
    "RummykitError",
    "Tile",
    "UnknownGameError",
    "find_game",
    "games",
    "new_game",
]
