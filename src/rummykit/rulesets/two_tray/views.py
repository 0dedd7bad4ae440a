"""What a two-tray view holds: the common header, the grid, the trays' sizes and (for a seat) its own trays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

from rummykit.engine.core import ViewHeader

__all__ = ["CellView", "TwoTrayView", "two_tray_view"]


class CellView(TypedDict):
    """One occupied cell of the grid: its row, column, tile, and the tile a called joker was called (else None)."""

    row: int
    col: int
    tile: str
    called: str | None


class TwoTrayView(ViewHeader):
    """A two-tray view: the common header, then the grid, the trays and the turn's state.

    ``grid`` lists the occupied cells row by row; ``tray_sizes`` gives, per
    seat, each tray's name and size (``A`` and ``B``, or one tray once the end
    game has begun); ``playing`` the tray each seat plays from next (None on a
    seat's first turn, when either tray may be chosen); ``continuing`` is true
    while the seat to move, having emptied a tray, plays on from the other;
    ``called_this_turn`` the cells whose joker was called this turn (each joker
    once a turn). ``trays`` (only in a seat's own view) holds that seat's trays,
    each sorted.
    """

    grid: list[CellView]
    tray_sizes: list[dict[str, int]]
    playing: list[str | None]
    pool_size: int
    down: list[bool]
    idle_turns: int
    continuing: bool
    called_this_turn: list[str]
    trays: NotRequired[dict[str, list[str]]]


def two_tray_view(view: Mapping[str, object]) -> TwoTrayView:
    """``view`` read as the two-tray view it is: for code given a view as plain data (a presenter, a
    command's reading) that is only ever given this game's views. Nothing is checked or copied."""
    return cast(TwoTrayView, view)
