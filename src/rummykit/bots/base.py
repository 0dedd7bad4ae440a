"""The bot interface and registry.

A bot is made for one game and gets nothing but views::

    bot = make_bot("random", "rummikub")
    action = bot.choose(state.view(seat), rng)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from rummykit.engine.core import Action, GameInfo, find_game
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError


class Bot(Protocol):
    """Chooses an action for the seat whose view it is given."""

    level: str

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        """An action for ``view['seat']``; must be legal in the position the view shows."""
        ...


BotFactory = Callable[[GameInfo], Bot]
_BOTS: dict[str, BotFactory] = {}


def register_bot(level: str, factory: BotFactory) -> None:
    """Make a bot level available to :func:`make_bot` (done by each bot module)."""
    _BOTS[level] = factory


def bot_levels() -> list[str]:
    """The names of every bot level."""
    _load()
    return sorted(_BOTS)


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of the given level for a game (``OptionError`` if there is none)."""
    _load()
    info = find_game(game_id)
    factory = _BOTS.get(level.strip().lower())
    if factory is None:
        raise OptionError(f"unknown bot level {level!r}; the levels are: {', '.join(sorted(_BOTS))}")
    return factory(info)


def _load() -> None:
    import rummykit.bots.greedy
    import rummykit.bots.random  # noqa: F401
