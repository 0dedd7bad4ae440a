"""The one place a game is run for people and programs (see :mod:`rummykit.session.core`)."""

from rummykit.session.core import Ask, GameSession, StaleAction, record_seats, seat_to_ask, settled_draws

__all__ = ["Ask", "GameSession", "StaleAction", "record_seats", "seat_to_ask", "settled_draws"]
