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
_BOTS: dict[str, dict[str | None, BotFactory]] = {}


def register_bot(level: str, factory: BotFactory, games: tuple[str, ...] | None = None) -> None:
    """Make a bot level available to :func:`make_bot` (done by each bot module).

    ``games`` names the games this factory plays (None: any game).
    """
    by_game = _BOTS.setdefault(level, {})
    for game in games or (None,):
        by_game[game] = factory


def bot_levels(game_id: str | None = None) -> list[str]:
    """The bot levels (for one game, only those that can play it).

    >>> bot_levels('rummikub')
    ['greedy', 'random', 'solver']
    """
    _load()
    if game_id is None:
        return sorted(_BOTS)
    gid = find_game(game_id).id
    return sorted(level for level, by_game in _BOTS.items() if gid in by_game or None in by_game)


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of the given level for a game (``OptionError`` if there is none)."""
    _load()
    info = find_game(game_id)
    by_game = _BOTS.get(level.strip().lower())
    if by_game is None:
        raise OptionError(f"unknown bot level {level!r}; the levels are: {', '.join(bot_levels(info.id))}")
    factory = by_game.get(info.id) or by_game.get(None)
    if factory is None:
        raise OptionError(
            f"there is no {level} bot for {info.id}; its levels are: {', '.join(bot_levels(info.id))}"
        )
    return factory(info)


def _load() -> None:
    import rummykit.bots.conveyor
    import rummykit.bots.freetable_greedy
    import rummykit.bots.greedy
    import rummykit.bots.random
    import rummykit.bots.solver  # noqa: F401
