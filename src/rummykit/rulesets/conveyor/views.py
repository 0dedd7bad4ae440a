"""What a seat (or a spectator) sees of a conveyor game: :class:`ConveyorView` and its parts.

A view is the engine's common :class:`~rummykit.engine.core.ViewHeader`
followed by the body declared here; ``docs/games/conveyor.md`` (section
*Views*) describes every key. Face-down dominoes are :data:`UNKNOWN` for
everyone.

>>> from rummykit.catalogue import new_game
>>> view = new_game('conveyor', players=3, seed=2, jump_ins=True).view(0)
>>> set(ConveyorView.__annotations__) <= set(view) <= set(ConveyorView.__annotations__) | {'hand'}
True
>>> sorted(view['columns'][0]) == sorted(ColumnView.__annotations__)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from rummykit.blocks.conveyor import UNKNOWN, opposite
from rummykit.engine.core import ViewHeader
from rummykit.melds.conveyor import by_code

if TYPE_CHECKING:
    from rummykit.rulesets.conveyor.state import Conveyor

__all__ = [
    "ColumnView",
    "ConveyorView",
    "DrawnView",
    "JumpWindowView",
    "MeldView",
    "build_view",
    "conveyor_view",
]


class ColumnView(TypedDict):
    """One column of the layout: its number, who claimed it, and its cells from top to bottom.

    ``cells`` is empty once the column is claimed; ``top`` and ``bottom``
    are its end cells (None for a claimed column).
    """

    column: int
    claimed_by: int | None
    cells: list[str]
    top: str | None
    bottom: str | None


class MeldView(TypedDict):
    """A meld on the table: its number, owner, kind, pieces in table order, line layout, royal mark, score."""

    index: int
    owner: int
    kind: str
    pieces: list[str]
    layout: str | None
    royal: bool
    score: int


class DrawnView(TypedDict):
    """This turn's pickup; ``piece`` is :data:`UNKNOWN` unless it was face up or the seat drew it."""

    column: int
    end: str
    discard_end: str
    face_up: bool
    jumped: bool
    piece: str


class JumpWindowView(TypedDict):
    """``jump_ins``: the discard on offer, where it lies, who must still answer and who has.

    Answers are sealed: ``my_answer`` (the seat's own, in notation) is the
    only answer a seat sees before the window closes.
    """

    piece: str
    column: int
    end: str
    discarder: int
    waiting: list[int]
    answered: list[int]
    my_answer: NotRequired[str]


class ConveyorView(ViewHeader):
    """A conveyor view: the common header, then the layout, the hands as far as seen, the melds.

    ``hand`` (sorted) is only in a seat's own view; ``hand_known`` lists, per
    seat, the dominoes of its hand that every player saw go in; ``teams`` (the
    seats of each team) and ``team_totals`` (each team's score: the sum of its
    seats' ``totals``, the number compared with the target) are None without
    ``partners``.
    """

    first_selector: int
    first_claimer: int | None
    columns: list[ColumnView]
    open_columns: list[int]
    hand_sizes: list[int]
    hand_known: list[list[str]]
    melds: list[MeldView]
    drawn: DrawnView | None
    jump_window: JumpWindowView | None
    teams: list[list[int]] | None
    team_totals: list[int] | None
    hand: NotRequired[list[str]]


def build_view(state: Conveyor, player: int | None) -> ConveyorView:
    """The view of ``state`` for ``player`` (``None``: a spectator); checks the seat."""
    # The header (a fresh dict) checks the seat; the body is added to it in place.
    view = cast(ConveyorView, state.view_header(player))
    belt = state.belt
    columns: list[ColumnView] = []
    for c in range(belt.count):
        cells = belt.public_cells(c)
        columns.append(
            {
                "column": c,
                "claimed_by": belt.claimed_by[c],
                "cells": cells,
                "top": cells[0] if cells else None,
                "bottom": cells[-1] if cells else None,
            }
        )
    drawn: DrawnView | None = None
    d = state.drawn
    if d is not None:
        drawn = {
            "column": d.column,
            "end": d.end,
            "discard_end": opposite(d.end),
            "face_up": d.face_up,
            "jumped": d.jumped,
            "piece": str(d.domino) if d.face_up or player == state.current else UNKNOWN,
        }
    window: JumpWindowView | None = None
    w = state.window
    if w is not None:
        window = {
            "piece": str(w.domino),
            "column": w.column,
            "end": w.end,
            "discarder": w.discarder,
            "waiting": sorted(w.waiting),
            "answered": sorted(w.claims),
        }
        if player is not None and player in w.claims:
            mine = w.claims[player]
            window["my_answer"] = "decline" if mine is None else mine.text()
    view["first_selector"] = state.first
    view["first_claimer"] = state.first_claimer
    view["columns"] = columns
    view["open_columns"] = belt.open_columns()
    view["hand_sizes"] = list(view["piece_counts"])  # the header counted them
    view["hand_known"] = [[str(x) for x in sorted(k, key=by_code)] for k in state.known]
    view["melds"] = [m.to_view(i) for i, m in enumerate(state.table)]
    view["drawn"] = drawn
    view["jump_window"] = window
    teams = state.teams
    view["teams"] = None if teams is None else [list(t) for t in teams]
    team_totals = state.team_totals
    view["team_totals"] = None if team_totals is None else list(team_totals)
    if player is not None:
        view["hand"] = [str(x) for x in sorted(state.hands[player], key=by_code)]
    return view


def conveyor_view(view: Mapping[str, object]) -> ConveyorView:
    """``view`` read as the conveyor view it is: for code given a view as plain data (a presenter, a
    command's reading) that is only ever given this game's views. Nothing is checked or copied."""
    return cast(ConveyorView, view)
