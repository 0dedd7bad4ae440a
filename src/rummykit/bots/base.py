"""The bot interface (:mod:`rummykit.bots.registry` registers the bot levels).

A bot is made for one game and gets nothing but views::

    from rummykit.bots.registry import make_bot
    bot = make_bot("random", "rummikub")
    action = bot.choose(state.view(seat), rng)
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.engine.core import GameInfo
from rummykit.engine.driver import Agent

__all__ = ["Bot", "BotFactory", "bot_levels", "make_bot"]


Bot = Agent
"""A bot is an :class:`~rummykit.engine.driver.Agent`: ``choose(view, rng) -> action`` from views alone."""

BotFactory = Callable[[GameInfo], Bot]
"""Makes a bot for one game (a :class:`~rummykit.bots.registry.BotEntry` names one)."""


# The registry has its own module; these names stay here for existing callers.
from rummykit.bots.registry import bot_levels, make_bot  # noqa: E402
