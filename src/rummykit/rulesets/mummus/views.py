"""What a seat (or a spectator) sees of a mummus game: :class:`MummusView` and its parts.

A view is the engine's common :class:`~rummykit.engine.core.ViewHeader`
followed by the body declared here; ``docs/games/mummus.md`` (section
*Views*) describes every key. The stock is only a count; the discard pile is
spread, so all of it shows, bottom first; a seat sees its own hand and, of
the others, the sizes and the cards everyone saw them take from the pile.

>>> from rummykit.catalogue import new_game
>>> view = new_game('mummus', players=3, seed=2).view(0)
>>> set(MummusView.__annotations__) <= set(view) <= set(MummusView.__annotations__) | {'hand'}
True
>>> view['stock_size'], view['discard'], len(view['hand']), view['hand_sizes']
(31, [], 7, [7, 7, 7])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from rummykit.engine.core import ViewHeader
from rummykit.melds.card_bits import CODE
from rummykit.pieces.text import piece_texts

if TYPE_CHECKING:
    from rummykit.rulesets.mummus.state import Mummus

__all__ = ["MeldView", "MummusView", "build_view", "mummus_view"]


class MeldView(TypedDict):
    """A meld on the table: its number (from 0, in the order laid down), kind, cards and who laid each card.

    ``cards`` are in table order (a run from its low end, a set by suit);
    ``laid_by[i]`` is the seat that laid ``cards[i]``, who scores it.
    """

    index: int
    kind: str
    cards: list[str]
    laid_by: list[int]


class MummusView(ViewHeader):
    """A mummus view: the common header, then the piles, the melds, the hands as far as seen, the points laid.

    ``discard`` is the discard pile from the bottom to the top card (the
    last); ``claimable`` the pile cards a "rummy" call would take now;
    ``deep`` the deep discard the player to move took and must still use
    (None otherwise); ``laid_points`` the points each seat has put on the
    table this round; ``hand_known`` the cards of each hand that everyone
    saw go in (taken from the discard pile). ``hand`` (sorted) is only in a
    seat's own view.
    """

    dealer: int
    stock_size: int
    discard: list[str]
    claimable: list[str]
    melds: list[MeldView]
    hand_sizes: list[int]
    hand_known: list[list[str]]
    laid_points: list[int]
    deep: str | None
    hand: NotRequired[list[str]]


def build_view(state: Mummus, player: int | None) -> MummusView:
    """The view of ``state`` for ``player`` (``None``: a spectator); checks the seat."""
    view = cast(MummusView, state.view_header(player))
    view["dealer"] = state.dealer
    view["stock_size"] = state.piles.stock_size
    seen = state.seen()
    view["discard"] = list(seen.texts)
    view["claimable"] = piece_texts(seen.claimable) if state.outcome is None and seen.pile else []
    texts = seen.table.texts
    view["melds"] = [
        {"index": i, "kind": m.kind, "cards": list(texts[i]), "laid_by": list(m.laid_by)}
        for i, m in enumerate(state.area)
    ]
    view["hand_sizes"] = list(view["piece_counts"])  # the header counted them
    view["hand_known"] = [piece_texts(sorted(k, key=CODE)) if k else [] for k in state.known]
    view["laid_points"] = state.laid_points()
    view["deep"] = None if state.deep is None else str(state.deep)
    if player is not None:
        view["hand"] = piece_texts(sorted(state.hands[player], key=CODE))
    return view


def mummus_view(view: Mapping[str, object]) -> MummusView:
    """``view`` read as the mummus view it is: for code given a view as plain data (a presenter, a
    command's reading) that is only ever given this game's views. Nothing is checked or copied."""
    return cast(MummusView, view)
