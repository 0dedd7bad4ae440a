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

from collections.abc import Sequence
from typing import cast

from rummykit.engine.core import GameState, ViewHeader
from rummykit.pieces.text import Written, piece_texts
from rummykit.rulesets.freetable import BY_CODE, FreeTableGame, FreeTableView

__all__ = ["views_of"]


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
