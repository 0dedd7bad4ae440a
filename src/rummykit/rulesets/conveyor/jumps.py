"""Jump-ins (``jump_ins``): after a discard, a claim window in which every other seat answers.

The window's seats answer ``jump`` or ``decline``; once all have answered,
the claimer nearest in turn order after the discarder takes the domino (see
:class:`~rummykit.rulesets.conveyor.state.Conveyor`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.rulesets.conveyor.actions import Jump
from rummykit.rulesets.conveyor.options import JUMP, PLAY, PREFIX
from rummykit.rulesets.conveyor.parts import _Drawn, _err

if TYPE_CHECKING:
    from rummykit.rulesets.conveyor.state import Conveyor

__all__ = ["check_jump", "resolve_window"]


def check_jump(state: Conveyor, action: Jump) -> None:
    """Refuse a jump that the window, the options or the hand do not allow (nothing changes)."""
    state._phase_is(action, JUMP)
    window = state.window
    assert window is not None
    seat = action.player
    if action.domino != window.domino:
        raise _err(f"{PREFIX}-JUMP-DOMINO", f"the discard on offer is {window.domino}, not {action.domino}")
    if state.options["jump_in_only_on_completion"]:
        if not action.rest:
            raise _err(
                f"{PREFIX}-JUMP-COMPLETE",
                f"with jump_in_only_on_completion, name the dominoes {window.domino} completes a meld with:"
                f" 'jump {window.domino} with ...'",
            )
        if window.domino in action.rest:
            raise _err(f"{PREFIX}-HAND", f"{window.domino} is the discard, not a domino of your hand")
        state._in_hand(seat, action.rest)
        check = state.rules.check((window.domino, *action.rest))
        if not check.valid:
            raise check.error()
        # after the pickup the hand holds one more domino; the meld empties it if it uses all of them
        if len(action.rest) >= len(state.hands[seat]):
            state._keeps_discard(seat, state.hands[seat], "this jump's meld")
    elif action.rest:
        raise _err(
            f"{PREFIX}-JUMP-WITH",
            "without jump_in_only_on_completion a jump takes only the domino; lay melds down in the turn that follows",
        )


def resolve_window(state: Conveyor) -> None:
    """Close the window once every seat answered: the claimer nearest after the discarder takes the domino."""
    window = state.window
    assert window is not None
    n = len(state.players)
    # the priority order of the contract: turn order from the seat after the discarder
    claimers = [s for s in state.act_order(window.claims) if window.claims[s] is not None]
    winner = claimers[0] if claimers else None
    state.window = None
    state.emit(
        "jump-resolved",
        winner,
        {"claimers": claimers, "winner": winner, "domino": str(window.domino)},
    )
    if winner is None:
        state._next_turn((window.discarder + 1) % n)
        return
    claim = window.claims[winner]
    assert claim is not None
    state.current = winner
    state.turn_no += 1
    domino, _up = state.belt.draw(window.column, window.end)
    state.hands[winner].append(domino)
    state.known[winner].add(domino)
    state.drawn = _Drawn(window.column, window.end, domino, True, jumped=True)
    state.phase = PLAY
    state.emit("jump", winner, {"column": window.column, "end": window.end, "domino": str(domino)})
    if claim.rest:
        state._lay_meld(winner, (domino, *claim.rest))
        if not state.hands[winner]:
            state._end_round(winner, "pickup")
