"""Conveyor actions as a person types them: read against the seat's view, two shortcuts allowed.

Every typed command is read by the command table
(:data:`~rummykit.rulesets.conveyor.actions.COMMANDS`: columns, cells and
melds counted from 1, as the screen counts them). Two forms also need what
the seat sees, and are read here for every interface (the line prompt and the
terminal app through the turn, the browser's command box through the server):

==========================  ================================================
``jump`` (or ``jump with 3-3 3-4``)  claim the discard on offer, without naming it
``layoff 1 4-6``            the end left out: the only end the game lists for that domino
==========================  ================================================

Nothing here judges a move: a layoff whose end the listing cannot tell is
read at the ``high`` end and the engine says what is wrong.

>>> from rummykit.rulesets.conveyor import INFO
>>> view = INFO.new(players=2, seed=3).view(0)
>>> read_typed(0, 'lay off 1 2-6 hi', view).text(), read_typed(0, 'reveal 2 1', view).text()
('layoff 0 2-6 high', 'reveal 1 0')
>>> read_typed(0, 'jump', view)
Traceback (most recent call last):
...
rummykit.errors.ParseError: no discard is on offer: `jump` answers a jump-in window after another player's discard
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.engine.commands import SHOWN_FROM, View
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.melds.conveyor import END_NAMES, HIGH
from rummykit.rulesets.conveyor.actions import COMMANDS, Jump, Layoff
from rummykit.rulesets.conveyor.listing import actions_from_view

__all__ = ["read_typed"]


def read_typed(seat: int, text: str, view: Mapping[str, object]) -> Action:
    """The action ``text`` names for ``seat``, whose view is ``view`` (see the module's docstring)."""
    words = text.split()
    found = COMMANDS.find(words)
    if found is not None:
        command, size = found
        args = words[size:]
        if command.cls is Jump and (not args or args[0].lower() == "with"):
            return COMMANDS.read_typed(seat, " ".join(["jump", _offered(view), *args]), view)
        if command.cls is Layoff and len(args) == 2:
            action = COMMANDS.read_typed(seat, " ".join(["layoff", *args, HIGH]), view)
            assert isinstance(action, Layoff)
            return Layoff(seat, action.meld, action.domino, _layoff_end(view, action))
    return COMMANDS.read_typed(seat, text, view)


def _offered(view: View) -> str:
    window = view.get("jump_window")
    if not isinstance(window, Mapping):
        raise ParseError("no discard is on offer: `jump` answers a jump-in window after another player's discard")
    return str(window["piece"])


def _layoff_end(view: View, layoff: Layoff) -> str:
    """The end of a lay-off written without one: the only end where the game's listing lays the domino.

    When the listing lays it at both ends the person is asked to name one;
    when at neither, ``high`` (the engine says what is wrong, worded from 1).
    """
    fits = {
        a.end
        for a in actions_from_view(view)
        if isinstance(a, Layoff) and a.meld == layoff.meld and a.domino == layoff.domino
    }
    ends = [end for end in END_NAMES if end in fits]
    if len(ends) > 1:
        low = COMMANDS.typed_text(Layoff(layoff.player, layoff.meld, layoff.domino, ends[0]))
        raise ParseError(
            f"{layoff.domino} fits both ends of meld {layoff.meld + SHOWN_FROM}: write `{low}` or `... {ends[1]}`"
        )
    return ends[0] if ends else HIGH

