"""The bot interface (:mod:`rummykit.bots.registry` registers the bot levels).

A bot is made for one game and gets nothing but views::

    from rummykit.bots.registry import make_bot
    bot = make_bot("random", "rummikub")
    action = bot.choose(state.view(seat), rng)
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.engine.core import GameInfo, ViewHeader
from rummykit.engine.driver import Agent
from rummykit.errors import RuleError

__all__ = ["Bot", "BotFactory", "bot_levels", "make_bot", "own_seat", "whole_option"]


Bot = Agent
"""A bot is an :class:`~rummykit.engine.driver.Agent`: ``choose(view, rng) -> action`` from views alone."""

BotFactory = Callable[[GameInfo], Bot]
"""Makes a bot for one game (a :class:`~rummykit.bots.registry.BotEntry` names one)."""


def own_seat(view: ViewHeader) -> int:
    """The seat whose view this is (a bot plays from a seat's view, never a spectator's)."""
    seat = view["seat"]
    if seat is None:
        raise RuleError("BOT", "a bot plays from a seat's view, not a spectator's")
    return seat


def whole_option(view: ViewHeader, name: str) -> int:
    """A whole-number option of the game, read from the view's header."""
    value = view["options"][name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("BOT", f"the option {name} is {value!r} here, not a whole number")
    return value


# The registry has its own module; these names stay here for existing callers.
from rummykit.bots.registry import bot_levels, make_bot  # noqa: E402
