"""The bot registry: which bot levels play which game, and :func:`make_bot`.

Each bot level is one line of :data:`BOTS`, naming its factory as text
(``module:name``, a module of this layer) so that listing the levels imports
no bot; the factory is imported when a bot is made. ``tests/test_layers.py``
checks that every line names a real module of the bots layer and a game the
catalogue knows.

>>> bot_levels('rummikub')
['greedy', 'random', 'solver']
>>> bot_levels('conveyor')
['greedy', 'random']
>>> type(make_bot('greedy', 'domino-rummikub')).__name__
'DominoGreedyBot'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from rummykit.catalogue import find_game
from rummykit.engine.core import GameInfo
from rummykit.engine.driver import Agent as Bot
from rummykit.errors import OptionError

__all__ = ["BOTS", "BotEntry", "bot_levels", "make_bot"]


@dataclass(frozen=True)
class BotEntry:
    """A bot level: ``module:factory`` (a callable taking the :class:`GameInfo`) and its games."""

    level: str
    factory: str
    games: tuple[str, ...] | None = None
    """The game ids it plays (None: every game that lists actions from a view)."""


# One line per bot level and family of games: a new game adds a line for each level it
# has beyond the generic ones.
BOTS: tuple[BotEntry, ...] = (
    BotEntry("random", "rummykit.bots.random:RandomBot"),
    BotEntry("greedy", "rummykit.bots.greedy:GreedyBot", ("rummikub",)),
    BotEntry("greedy", "rummykit.bots.freetable_greedy:DominoGreedyBot", ("domino-rummikub",)),
    BotEntry("greedy", "rummykit.bots.conveyor:conveyor_greedy", ("conveyor",)),
    BotEntry("solver", "rummykit.bots.solver:solver_bot", ("rummikub",)),
    BotEntry("greedy", "rummykit.bots.two_tray:TwoTrayGreedyBot", ("two-tray",)),
    BotEntry("greedy", "rummykit.bots.mummus:mummus_greedy", ("mummus",)),
)


def _load(ref: str) -> Callable[[GameInfo], Bot]:
    module, _, name = ref.partition(":")
    factory: Callable[[GameInfo], Bot] = getattr(importlib.import_module(module), name)
    return factory


def bot_levels(game_id: str | None = None) -> list[str]:
    """The bot levels (for one game, only those that can play it)."""
    if game_id is None:
        return sorted({b.level for b in BOTS})
    gid = find_game(game_id).id
    return sorted({b.level for b in BOTS if b.games is None or gid in b.games})


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of the given level for a game (:class:`OptionError` if there is none)."""
    info = find_game(game_id)
    wanted = level.strip().lower()
    if wanted not in {b.level for b in BOTS}:
        raise OptionError(f"unknown bot level {level!r}; the levels are: {', '.join(bot_levels(info.id))}")
    for entry in BOTS:
        if entry.level == wanted and entry.games is not None and info.id in entry.games:
            return _load(entry.factory)(info)
    for entry in BOTS:
        if entry.level == wanted and entry.games is None:
            return _load(entry.factory)(info)
    raise OptionError(f"there is no {level} bot for {info.id}; its levels are: {', '.join(bot_levels(info.id))}")
