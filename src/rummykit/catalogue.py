"""The catalogue: the one place that knows every game.

Each game is one line of :data:`GAMES`, the package that defines its
``INFO``. Packages are named as text and imported on first use, so this
module sits above the games without importing them at load time. The
catalogue knows games only: the bot levels are registered in the bots layer
(:mod:`rummykit.bots.registry`) and the presenters in the presenters layer
(:mod:`rummykit.presenters.registry`); ``tests/test_layers.py`` checks that
each table names real modules of its own layer and that this module names
none above the games.

>>> [info.id for info in games()]
['conveyor', 'domino-rummikub', 'mummus', 'rummikub', 'two-tray']
>>> find_game('RK').id
'rummikub'
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Literal, overload

from rummykit.engine.core import GameInfo, GameState
from rummykit.errors import UnknownGameError

if TYPE_CHECKING:  # for the types of new_game only: the games are imported on first use
    from rummykit.rulesets.conveyor.state import Conveyor
    from rummykit.rulesets.domino_rummikub.state import DominoRummikub
    from rummykit.rulesets.mummus.state import Mummus
    from rummykit.rulesets.rummikub.state import Rummikub
    from rummykit.rulesets.two_tray.state import TwoTray

# One line per game: adding a game means adding its package here.
GAMES: tuple[str, ...] = (
    "rummykit.rulesets.rummikub",
    "rummykit.rulesets.domino_rummikub",
    "rummykit.rulesets.conveyor",
    "rummykit.rulesets.two_tray",
    "rummykit.rulesets.mummus",
)


@cache
def _registry() -> tuple[dict[str, GameInfo], dict[str, str]]:
    by_id: dict[str, GameInfo] = {}
    aliases: dict[str, str] = {}
    for package in GAMES:
        info = importlib.import_module(package).INFO
        if not isinstance(info, GameInfo):
            raise TypeError(f"{package}.INFO is not a GameInfo")
        by_id[info.id] = info
        for alias in (info.id, *info.aliases):
            aliases[alias.lower()] = info.id
    return by_id, aliases


def find_game(game_id: str) -> GameInfo:
    """The game with this id or alias (any case).

    >>> find_game('tile-rummy').name
    'Rummikub (standard tile rummy)'
    """
    by_id, aliases = _registry()
    key = aliases.get(str(game_id).strip().lower())
    if key is None:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are: {', '.join(sorted(by_id))}")
    return by_id[key]


DEFAULT_GAME = "rummikub"
"""The game offered first to a newcomer (the start screen's choice when none is named)."""

OFFERED_ORDER: tuple[str, ...] = ("rummikub", "domino-rummikub", "mummus", "two-tray", "conveyor")
"""The order in which games are offered to a newcomer (the browser's lobby): the best known first. A game not
named here comes after these, by id."""


def offered() -> list[GameInfo]:
    """Every game in the order it is offered to a newcomer (:data:`OFFERED_ORDER`).

    >>> [info.id for info in offered()][:2]
    ['rummikub', 'domino-rummikub']
    """
    rank = {game_id: i for i, game_id in enumerate(OFFERED_ORDER)}
    return sorted(games(), key=lambda info: (rank.get(info.id, len(rank)), info.id))


def games() -> list[GameInfo]:
    """Every game, by id."""
    by_id, _ = _registry()
    return [by_id[k] for k in sorted(by_id)]


@overload
def new_game(
    game_id: Literal["rummikub"], *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
) -> Rummikub: ...
@overload
def new_game(
    game_id: Literal["domino-rummikub"], *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
) -> DominoRummikub: ...
@overload
def new_game(
    game_id: Literal["conveyor"], *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
) -> Conveyor: ...
@overload
def new_game(
    game_id: Literal["two-tray"], *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
) -> TwoTray: ...
@overload
def new_game(
    game_id: Literal["mummus"], *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
) -> Mummus: ...
@overload
def new_game(game_id: str, *, players: int | Sequence[str] = 2, seed: int = 0, **options: object) -> GameState: ...
def new_game(game_id: str, *, players: int | Sequence[str] = 2, seed: int = 0, **options: object) -> GameState:
    """Start a new game of ``game_id``.

    Named by its id, the game's own state class is the static type (so
    ``view`` is typed with its view); by an alias or a variable, GameState.

    >>> state = new_game('rummikub', players=3, seed=1)
    >>> len(state.players), sorted(state.to_act) == [state.view(None)['turn']]
    (3, True)
    """
    return find_game(game_id).new(players=players, seed=seed, **options)
