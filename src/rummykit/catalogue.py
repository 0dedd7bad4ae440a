"""The catalogue: the one place that knows every game, bot level and presenter.

Each game is one line of :data:`GAMES`; each bot level one line of
:data:`BOTS`. Entries name their modules as text and are imported on first
use, so this module sits above the games and below the services and
interfaces without importing either at load time (``tests/test_layers.py``
checks that every entry names a real module of the right layer).

>>> [info.id for info in games()]
['conveyor', 'domino-rummikub', 'mummus', 'rummikub', 'two-tray']
>>> find_game('RK').id
'rummikub'
>>> bot_levels('rummikub')
['greedy', 'random', 'solver']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rummykit.engine.core import GameInfo, GameState
from rummykit.engine.driver import Agent as Bot
from rummykit.errors import OptionError, UnknownGameError


@dataclass(frozen=True)
class GameEntry:
    """A game: the package that defines ``INFO`` and the module of its presenter."""

    package: str
    presenter: str


@dataclass(frozen=True)
class BotEntry:
    """A bot level: ``module:factory`` (a callable taking the :class:`GameInfo`) and its games."""

    level: str
    factory: str
    games: tuple[str, ...] | None = None
    """The game ids it plays (None: every game that lists actions from a view)."""


# One line per game: adding a game means adding its line here.
GAMES: tuple[GameEntry, ...] = (
    GameEntry("rummykit.rulesets.rummikub", presenter="rummykit.presenters.rummikub"),
    GameEntry("rummykit.rulesets.domino_rummikub", presenter="rummykit.presenters.domino_rummikub"),
    GameEntry("rummykit.rulesets.conveyor", presenter="rummykit.presenters.conveyor"),
    GameEntry("rummykit.rulesets.two_tray", presenter="rummykit.presenters.two_tray"),
    GameEntry("rummykit.rulesets.mummus", presenter="rummykit.presenters.mummus"),
)

# One line per bot level and family of games.
BOTS: tuple[BotEntry, ...] = (
    BotEntry("random", "rummykit.bots.random:RandomBot"),
    BotEntry("greedy", "rummykit.bots.greedy:GreedyBot", ("rummikub",)),
    BotEntry("greedy", "rummykit.bots.freetable_greedy:DominoGreedyBot", ("domino-rummikub",)),
    BotEntry("greedy", "rummykit.bots.conveyor:conveyor_greedy", ("conveyor",)),
    BotEntry("solver", "rummykit.bots.solver:solver_bot", ("rummikub",)),
    BotEntry("greedy", "rummykit.bots.two_tray:TwoTrayGreedyBot", ("two-tray",)),
    BotEntry("greedy", "rummykit.bots.mummus:mummus_greedy", ("mummus",)),
)


@cache
def _registry() -> tuple[dict[str, GameInfo], dict[str, str], dict[str, GameEntry]]:
    by_id: dict[str, GameInfo] = {}
    aliases: dict[str, str] = {}
    entries: dict[str, GameEntry] = {}
    for entry in GAMES:
        info = importlib.import_module(entry.package).INFO
        if not isinstance(info, GameInfo):
            raise TypeError(f"{entry.package}.INFO is not a GameInfo")
        by_id[info.id] = info
        entries[info.id] = entry
        for alias in (info.id, *info.aliases):
            aliases[alias.lower()] = info.id
    return by_id, aliases, entries


def find_game(game_id: str) -> GameInfo:
    """The game with this id or alias (any case).

    >>> find_game('tile-rummy').name
    'Rummikub (standard tile rummy)'
    """
    by_id, aliases, _ = _registry()
    key = aliases.get(str(game_id).strip().lower())
    if key is None:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are: {', '.join(sorted(by_id))}")
    return by_id[key]


DEFAULT_GAME = "rummikub"
"""The game offered first to a newcomer (the start screen's choice when none is named)."""


def games() -> list[GameInfo]:
    """Every game, by id."""
    by_id, _, _ = _registry()
    return [by_id[k] for k in sorted(by_id)]


def new_game(game_id: str, *, players: int | Sequence[str] = 2, seed: int = 0, **options: Any) -> GameState:
    """Start a new game of ``game_id``.

    >>> state = new_game('rummikub', players=3, seed=1)
    >>> len(state.players), sorted(state.to_act) == [state.view(None)['turn']]
    (3, True)
    """
    return find_game(game_id).new(players=players, seed=seed, **options)


def presenter_module(game_id: str) -> str:
    """The module name of a game's presenter (imported by the interfaces)."""
    _, _, entries = _registry()
    return entries[find_game(game_id).id].presenter


def _load(ref: str) -> Callable[[GameInfo], Bot]:
    module, _, name = ref.partition(":")
    factory: Callable[[GameInfo], Bot] = getattr(importlib.import_module(module), name)
    return factory


def bot_levels(game_id: str | None = None) -> list[str]:
    """The bot levels (for one game, only those that can play it).

    >>> bot_levels('conveyor')
    ['greedy', 'random']
    """
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
