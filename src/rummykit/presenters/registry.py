"""The presenter registry: which module presents each game.

Each game is one line of :data:`PRESENTERS` (game id to module name, a
module of this layer exporting ``PRESENTER``); the module is imported the
first time its presenter is asked for. ``tests/test_layers.py`` checks that
the table names a real presenters module for every game of the catalogue
and for nothing else.

>>> presenter_module('RK')
'rummykit.presenters.rummikub'
>>> presenter_for('tile-rummy').game
'rummikub'
"""

from __future__ import annotations

import importlib

from rummykit.catalogue import find_game
from rummykit.presenters.base import Presenter

__all__ = ["PRESENTERS", "presenter_for", "presenter_module"]

# One line per game: the module whose ``PRESENTER`` presents it.
PRESENTERS: dict[str, str] = {
    "rummikub": "rummykit.presenters.rummikub",
    "domino-rummikub": "rummykit.presenters.domino_rummikub",
    "conveyor": "rummykit.presenters.conveyor",
    "two-tray": "rummykit.presenters.two_tray",
    "mummus": "rummykit.presenters.mummus",
}


def presenter_module(game_id: str) -> str:
    """The module name of a game's presenter (by id or alias)."""
    info = find_game(game_id)
    try:
        return PRESENTERS[info.id]
    except KeyError:
        raise TypeError(f"no presenter is registered for {info.id!r} (add it to PRESENTERS in {__name__})") from None


def presenter_for(game_id: str) -> Presenter:
    """The presenter of a game (by id or alias): the ``PRESENTER`` of its presenter module."""
    info = find_game(game_id)
    module = importlib.import_module(presenter_module(info.id))
    presenter = getattr(module, "PRESENTER", None)
    if not isinstance(presenter, Presenter):
        raise TypeError(f"{module.__name__}.PRESENTER is missing or is not a Presenter")
    if presenter.game != info.id:
        raise TypeError(f"{module.__name__}.PRESENTER presents {presenter.game!r}, not {info.id!r}")
    return presenter
