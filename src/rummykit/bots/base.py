"""The bot interface (the catalogue registers the bot levels).

A bot is made for one game and gets nothing but views::

    from rummykit.catalogue import make_bot
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
"""Makes a bot for one game (the catalogue's :class:`~rummykit.catalogue.BotEntry` names one)."""


# The registry lives in the catalogue; these names stay here for existing callers.
from rummykit.catalogue import bot_levels, make_bot  # noqa: E402
