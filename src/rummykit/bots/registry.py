"""The bot registry: which bot levels play which game, and :func:`make_bot`.

Each bot level is one line of :data:`BOTS`, naming its factory as text
(``module:name``, a module of this layer) so that listing the levels imports
no bot; the factory is imported when a bot is made. ``tests/test_layers.py``
checks that every line names a real module of the bots layer and a game the
catalogue knows.

A level may take settings after its name, ``level:name=value:...``; the
``strong`` bots take ``iterations`` and ``think`` (:mod:`rummykit.bots.strong`).

>>> bot_levels('rummikub')
['greedy', 'random', 'solver', 'strong']
>>> type(make_bot('greedy', 'domino-rummikub')).__name__
'DominoGreedyBot'
>>> make_bot('strong:iterations=5', 'rummikub').budget.iterations
5
>>> make_bot('greedy:iterations=5', 'rummikub')
Traceback (most recent call last):
rummykit.errors.OptionError: the greedy bot takes no settings (only the strong bot does: strong:iterations=N, strong:think=SECONDS)
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from rummykit.bots.strong import read_budget_settings, settings_of
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
    budget: bool = False
    """True: the factory takes ``iterations`` and ``think`` keywords (a strong bot's budget)."""


# One line per bot level and family of games: a new game adds a line for each level it
# has beyond the generic ones.
BOTS: tuple[BotEntry, ...] = (
    BotEntry("random", "rummykit.bots.random:RandomBot"),
    BotEntry("greedy", "rummykit.bots.greedy:GreedyBot", ("rummikub",)),
    BotEntry("greedy", "rummykit.bots.freetable_greedy:DominoGreedyBot", ("domino-rummikub",)),
    BotEntry("greedy", "rummykit.bots.conveyor:conveyor_greedy", ("conveyor",)),
    BotEntry("solver", "rummykit.bots.solver:solver_bot", ("rummikub",)),
    BotEntry("strong", "rummykit.bots.solver:strong_solver_bot", ("rummikub",), budget=True),
    BotEntry("strong", "rummykit.bots.domino_strong:domino_strong_bot", ("domino-rummikub",), budget=True),
    BotEntry("strong", "rummykit.bots.two_tray_strong:two_tray_strong_bot", ("two-tray",), budget=True),
    BotEntry("strong", "rummykit.bots.mummus_strong:mummus_strong", ("mummus",), budget=True),
    BotEntry("strong", "rummykit.bots.conveyor_strong:conveyor_strong", ("conveyor",), budget=True),
    BotEntry("greedy", "rummykit.bots.two_tray:TwoTrayGreedyBot", ("two-tray",)),
    BotEntry("greedy", "rummykit.bots.mummus:mummus_greedy", ("mummus",)),
)


@functools.cache
def _load(ref: str) -> Callable[..., Bot]:
    module, _, name = ref.partition(":")
    factory: Callable[..., Bot] = getattr(importlib.import_module(module), name)
    return factory


def _made(entry: BotEntry, info: GameInfo, level: str, settings: dict[str, str]) -> Bot:
    if not entry.budget:
        if settings:
            raise OptionError(
                f"the {level} bot takes no settings (only the strong bot does: strong:iterations=N, strong:think=SECONDS)"
            )
        return _load(entry.factory)(info)
    return _load(entry.factory)(info, **read_budget_settings(settings, level))


def bot_levels(game_id: str | None = None) -> list[str]:
    """The bot levels (for one game, only those that can play it)."""
    if game_id is None:
        return sorted({b.level for b in BOTS})
    gid = find_game(game_id).id
    return sorted({b.level for b in BOTS if b.games is None or gid in b.games})


def make_bot(level: str, game_id: str) -> Bot:
    """A bot of the given level (with its settings, ``strong:iterations=200``) for a game
    (:class:`OptionError` if there is none, or a setting is wrong)."""
    info = find_game(game_id)
    wanted, settings = settings_of(level)
    entry = _entry(wanted, info.id)
    if entry is None:
        if wanted not in {b.level for b in BOTS}:
            raise OptionError(f"unknown bot level {level!r}; the levels are: {', '.join(bot_levels(info.id))}")
        raise OptionError(f"there is no {level} bot for {info.id}; its levels are: {', '.join(bot_levels(info.id))}")
    return _made(entry, info, wanted, settings)


@functools.cache
def _entry(level: str, game_id: str) -> BotEntry | None:
    """The line of :data:`BOTS` that makes ``level`` bots for the game (its own line first), or None."""
    for entry in BOTS:
        if entry.level == level and entry.games is not None and game_id in entry.games:
            return entry
    for entry in BOTS:
        if entry.level == level and entry.games is None:
            return entry
    return None
