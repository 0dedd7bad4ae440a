"""Several audiences' views of one position at once, a free table's common parts built once.

A server sends every seat its view after each action and keeps the
spectators' too: on a free table (:class:`~rummykit.rulesets.freetable.FreeTableGame`)
those views differ only in the header's ``seat``, the seats it may see
acting out of turn, the last move as that audience may read it
(:meth:`~rummykit.engine.core.GameState.last_move`) and a seat's own rack.
:func:`views_of` builds the spectators' view once and each seat's from it:
a shallow copy with those parts its own, every other part the same object
in every view. Each view equals ``state.view(player)`` key for key, in the
same order (``tests/test_server_listing.py`` holds them to it in seeded
games), but they share their parts: read them, never change them.

A game whose class writes its own ``view``, a seat that may see other seats
acting out of turn than a spectator does, or a single audience, gets
``state.view(player)`` itself.

>>> from rummykit.catalogue import new_game
>>> state = new_game('rummikub', players=2, seed=1)
>>> spectator, seat = views_of(state, [None, 1])
>>> seat == state.view(1) and spectator == state.view(None), seat["table"] is spectator["table"]
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar, cast

from rummykit.engine.core import GameState, ViewHeader
from rummykit.pieces.text import Written, piece_texts
from rummykit.rulesets.freetable import BY_CODE, FreeTableGame, FreeTableView

P = TypeVar("P")

__all__ = ["SeatView", "seat_view", "views_of"]


def views_of(state: GameState, players: Sequence[int | None]) -> list[ViewHeader]:
    """``[state.view(p) for p in players]``, a free table's common parts built once and shared (read-only)."""
    if len(players) < 2 or not isinstance(state, FreeTableGame) or type(state).view is not FreeTableGame.view:
        return [state.view(p) for p in players]
    base = state.view(None)
    public = state.may_act_seen_by(None)
    seats = len(state.players)
    out: list[ViewHeader] = []
    for player in players:
        if player is None:
            out.append(base)
        elif type(player) is not int or not 0 <= player < seats or state.may_act_seen_by(player) != public:
            out.append(state.view(player))  # checked (and refused) or told apart as the game's own view does
        else:
            view = cast(FreeTableView, dict(base))
            view["seat"] = player
            view["last_move"] = state.last_move(player)
            view["rack"] = piece_texts(cast("list[Written]", sorted(state.racks[player], key=BY_CODE)))
            out.append(view)
    return out


class SeatView(Generic[P]):
    """What a seat's view of a free table shows a bot, as the game's own objects instead of text.

    Every field is one of the view's (:meth:`FreeTableGame.view` of the same
    seat) read back into pieces, and nothing else: ``seat``; ``to_act``, the
    view's ``to_act`` as a set; ``options``, a copy of the view's ``options``;
    ``table``, the view's ``table`` with each set as the tuple of pieces the
    state keeps (its texts are those pieces written); ``rack``, the seat's
    own rack sorted as the view writes it; ``down`` and ``pool_size``. No
    other seat's rack and nothing of the pool but its size: hidden pieces
    stay hidden (``tests/test_rk_greedy10_seat_view.py`` holds every field to
    the view's, for every seat at every step of seeded games). Read-only: the
    sets and pieces are the state's (immutable) objects.
    """

    __slots__ = ("down", "options", "pool_size", "rack", "seat", "table", "to_act")

    def __init__(
        self,
        seat: int,
        to_act: frozenset[int],
        options: Mapping[str, object],
        table: tuple[tuple[P, ...], ...],
        rack: tuple[P, ...],
        down: tuple[bool, ...],
        pool_size: int,
    ) -> None:
        self.seat = seat
        self.to_act = to_act
        self.options = options
        self.table = table
        self.rack = rack
        self.down = down
        self.pool_size = pool_size


def seat_view(state: FreeTableGame[P], seat: int) -> SeatView[P] | None:
    """``seat``'s :class:`SeatView` of ``state``, or None when the game writes a view of its own (a subclass's
    ``view``: a bot is then given that view)."""
    if type(state).view is not FreeTableGame.view or type(seat) is not int or not 0 <= seat < len(state.players):
        return None
    return SeatView(
        seat,
        state.must_act | state.may_act_seen_by(seat),
        dict(state.options),
        tuple(state.table),
        tuple(sorted(state.racks[seat], key=BY_CODE)),
        tuple(state.down),
        len(state.pool),
    )
