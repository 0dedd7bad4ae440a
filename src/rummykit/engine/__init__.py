"""The engine: the state machine, actions, events, views, outcomes and the seeded generator."""

from rummykit.engine.core import (
    Action,
    Event,
    GameInfo,
    GameState,
)
from rummykit.engine.match import Match, Outcome
from rummykit.engine.options import OptionSpec
from rummykit.engine.rng import Rng

__all__ = [
    "Action",
    "Event",
    "GameInfo",
    "GameState",
    "Match",
    "OptionSpec",
    "Outcome",
    "Rng",
]
