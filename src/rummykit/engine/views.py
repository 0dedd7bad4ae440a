"""The part of every view that is the same in all games: :class:`ViewHeader` and its :class:`LastMove`.

:meth:`~rummykit.engine.core.GameState.view_header` fills it in; each game's
view is a TypedDict extending it (``docs/contract.md``, ``docs/schema/view-header.json``).
"""

from __future__ import annotations

from typing import TypedDict

from rummykit.engine.match import OutcomeJSON
from rummykit.engine.options import OptionValue
from rummykit.engine.values import JSON

__all__ = ["LastMove", "ViewHeader"]


class LastMove(TypedDict):
    """The last action the game accepted, as the seat whose view it is may know it.

    ``seat`` is the seat that acted; ``text`` the action in the game's
    notation without the seat (:meth:`~rummykit.engine.core.GameState.move_text`: to the other
    seats only what the table saw, e.g. a failed turn's pieces, still in the
    rack, are left out; a free-table play names only the pieces it laid,
    ``play R4 R5``, as the table it left is in the view); ``events`` the events it caused as this seat sees
    them (:meth:`~rummykit.engine.actions.Event.seen_by`: ``kind``,
    ``player`` and the event's data, shared with the history as
    :meth:`~rummykit.engine.core.GameState.events_for` gives it: read it, do
    not change it).
    """

    seat: int
    text: str
    events: list[dict[str, JSON]]


class ViewHeader(TypedDict):
    """The part of every game's view that is the same in all games (see ``docs/notation.md``).

    ``must_act`` are the seats the game waits for; ``may_act`` the seats that
    may act now without being waited for (claims and calls out of turn);
    ``to_act`` is both. ``turn`` is the seat whose turn it is (None between
    rounds or once the match is over). ``piece_counts`` is, per seat, how many
    pieces it holds hidden (rack, hand or trays); ``stock_count`` how many
    pieces are left to draw from (pool, boneyard or stock; None in a game
    without one); ``last_move`` the last action accepted (None before the
    first).
    """

    game: str
    seat: int | None
    players: list[str]
    options: dict[str, OptionValue]
    phase: str
    turn: int | None
    turn_number: int
    to_act: list[int]
    must_act: list[int]
    may_act: list[int]
    round: int
    totals: list[int]
    rounds: list[OutcomeJSON]
    outcome: OutcomeJSON | None
    piece_counts: list[int]
    stock_count: int | None
    last_move: LastMove | None
