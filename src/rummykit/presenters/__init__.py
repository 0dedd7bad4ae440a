"""One presenter per game: the words, table drawing and turn commands every interface uses.

:func:`presenter_for` loads a game's presenter from the module
:mod:`rummykit.presenters.registry` names for it; the interface is
:class:`~rummykit.presenters.base.Presenter`.

>>> p = presenter_for('RK')
>>> p.game, p.words.count(2), isinstance(p, Presenter)
('rummikub', '2 tiles', True)
"""

from __future__ import annotations

from rummykit.presenters.base import Narrator, Presenter, Quit, Turn, Vocabulary
from rummykit.presenters.registry import presenter_for, presenter_module

__all__ = ["Narrator", "Presenter", "Quit", "Turn", "Vocabulary", "presenter_for", "presenter_module"]
