"""The one place a game is run for people and programs (see :mod:`rummykit.session.core`)."""

from rummykit.session.core import (
    Ask,
    GameSession,
    SeatError,
    StaleAction,
    record_seats,
    seat_to_ask,
    settled_draws,
)
from rummykit.session.saving import Resumed, Saved, default_record_path, save_record

__all__ = [
    "Ask",
    "GameSession",
    "Resumed",
    "Saved",
    "SeatError",
    "StaleAction",
    "default_record_path",
    "record_seats",
    "save_record",
    "seat_to_ask",
    "settled_draws",
]
