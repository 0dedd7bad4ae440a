"""The selection round: each seat in turn reveals a face-down domino or claims a whole column as its hand.

Refusals name columns and cells as params counted from 0 (an interface words
them from 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.melds.conveyor import by_code
from rummykit.rulesets.conveyor.actions import Claim, Reveal
from rummykit.rulesets.conveyor.options import DRAW, PREFIX, SELECT
from rummykit.rulesets.conveyor.parts import _err, _no_such

if TYPE_CHECKING:
    from rummykit.rulesets.conveyor.state import Conveyor

__all__ = ["claim", "reveal"]


def _open_column(state: Conveyor, column: int, what: str) -> None:
    """Refuse a column that is not there or was claimed (its number and the claimer as params)."""
    if not state.belt.has_column(column):
        raise _no_such(f"{PREFIX}-COLUMN", "column", column, state.belt.count)
    if not state.belt.is_open(column):
        raise _err(
            f"{PREFIX}-COLUMN-CLAIMED",
            f"column {{column}} was claimed by {{seat}}: {what} an unclaimed column",
            counted=("column",),
            column=column,
            seat=state.belt.claimed_by[column],
        )

def reveal(state: Conveyor, action: Reveal) -> None:
    """Turn a face-down domino of an unclaimed column face up; the next seat that has no column selects."""
    state._phase_is(action, SELECT)
    _open_column(state, action.column, "reveal in")
    length = len(state.belt.columns[action.column])
    if not 0 <= action.index < length:
        raise _no_such(f"{PREFIX}-REVEAL", "cell", action.index, length, " in column {column}", column=action.column)
    if state.belt.up[action.column][action.index]:
        raise _err(
            f"{PREFIX}-REVEAL",
            "cell {cell} of column {column} is already face up ({domino}): reveal a face-down domino",
            counted=("cell", "column"),
            cell=action.index,
            column=action.column,
            domino=str(state.belt.columns[action.column][action.index]),
        )
    domino = state.belt.reveal(action.column, action.index)
    state.emit("reveal", action.player, {"column": action.column, "index": action.index, "domino": str(domino)})
    _next_selector(state)

def claim(state: Conveyor, action: Claim) -> None:
    """Take a whole unclaimed column as a hand; once every seat has one, the turns begin."""
    state._phase_is(action, SELECT)
    _open_column(state, action.column, "claim")
    seat = action.player
    taken = state.belt.claim(action.column, seat)
    state.hands[seat] = [d for d, _up in taken]
    state.known[seat] = {d for d, up in taken if up}
    if state.first_claimer is None:
        state.first_claimer = seat
    state.emit(
        "claim",
        seat,
        {"column": action.column, "size": len(taken), "face_up": [str(d) for d, up in taken if up]},
        {"hand": [str(d) for d in sorted(state.hands[seat], key=by_code)]},
    )
    if all(s in state.belt.claimed_by for s in range(len(state.players))):
        assert state.first_claimer is not None
        state.phase = DRAW
        state.current = state.first_claimer
        state.turn_no = 1
        state.emit("play-starts", state.current, {"conveyors": state.belt.open_columns()})
    else:
        _next_selector(state)

def _next_selector(state: Conveyor) -> None:
    """The next seat (in turn order) that has no column yet selects."""
    n = len(state.players)
    claimed = set(state.belt.claimed_by)
    seat = state.current
    for _ in range(n):
        seat = (seat + 1) % n
        if seat not in claimed:
            state.current = seat
            return
