"""One presenter per game: the words, table drawing and turn commands every interface uses.

:func:`presenter_for` loads a game's presenter from the module the catalogue
names for it; the interface is :class:`~rummykit.presenters.base.Presenter`.

>>> p = presenter_for('RK')
>>> p.game, p.words.count(2), isinstance(p, Presenter)
('rummikub', '2 tiles', True)
"""

from __future__ import annotations

import importlib

from rummykit.catalogue import find_game, presenter_module
from rummykit.presenters.base import Narrator, Presenter, Quit, Turn, Vocabulary

__all__ = ["Narrator", "Presenter", "Quit", "Turn", "Vocabulary", "presenter_for"]


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
