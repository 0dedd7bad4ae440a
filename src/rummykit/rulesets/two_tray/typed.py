"""Two-tray actions as a person types them: read against the seat's view, two shortcuts allowed.

Every typed command is read by the command table
(:data:`~rummykit.rulesets.two_tray.actions.COMMANDS`: cells counted from 1,
as the grid is labelled; ``penalty`` for a play that takes its penalty). Two
forms also need what the seat sees, and are read here for every interface:

============  ==================================================================
``draw``      draw onto the playing tray (a first turn names the tray: ``draw A``)
``penalty``   commit the turn as it stands, taking the penalty: nothing placed, from the playing tray
============  ==================================================================

(A turn that drafts on the grid commits its draft with a bare ``penalty``
instead; the draft is the turn's, not the view's.)

>>> from rummykit.rulesets.two_tray import from_position
>>> state = from_position('grid: 0,0: K9 B9 J; trays: A[R4 O9 R5] B[K1] / A[O1] B[B1]; next: A B; down: 11')
>>> read_typed(0, 'draw', state.view(0)).text(), read_typed(0, 'penalty', state.view(0)).text()
('draw A', 'fail A')
>>> read_typed(0, 'call 1,3 O9', state.view(0)).text()
'call 0,2 O9'
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.rulesets.two_tray.actions import COMMANDS, Draw, Fail

__all__ = ["playing_tray", "read_typed"]


def playing_tray(view: Mapping[str, object]) -> str | None:
    """The tray the view's seat plays from (None before its first turn chooses)."""
    playing = view.get("playing")
    seat = view.get("seat")
    if not isinstance(playing, list) or not isinstance(seat, int):
        return None
    tray = playing[seat]
    return tray if isinstance(tray, str) else None


def read_typed(seat: int, text: str, view: Mapping[str, object]) -> Action:
    """The action ``text`` names for ``seat``, whose view is ``view`` (see the module's docstring)."""
    words = text.split()
    found = COMMANDS.find(words)
    if found is not None and len(words) == found[1]:
        cls = found[0].cls
        if cls is Draw:
            tray = playing_tray(view)
            if tray is None:
                raise ParseError("on your first turn, name the tray the tile goes onto: draw A or draw B")
            return Draw(seat, tray)
        if cls is Fail:
            return Fail(seat, playing_tray(view) or "A", ())
    return COMMANDS.read_typed(seat, text, view)
