"""Run games between bots (the base of simulations and unattended ``play``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.bots.base import Bot
from rummykit.engine.core import Event, GameState
from rummykit.engine.driver import next_seat, step
from rummykit.engine.rng import MAX_SEED, Rng


def bot_rng(seed: int, seat: int) -> Rng:
    """The generator a bot in ``seat`` uses in a game played with ``seed``."""
    return Rng((seed * 1_000_003 + 7919 * (seat + 1)) % MAX_SEED)


def run_bots(
    state: GameState,
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    max_actions: int = 1_000_000,
    on_event: Callable[[GameState, list[Event]], None] | None = None,
) -> GameState:
    """Let one bot per seat play ``state`` to the end of the match; returns the state.

    Each bot sees only its seat's view; :func:`~rummykit.engine.driver.step`
    decides who acts. ``seed`` (default: the game's seed)
    seeds the bots' own generators, so a bot game is reproducible.
    """
    if len(bots) != len(state.players):
        raise ValueError(f"{len(state.players)} seats need {len(state.players)} bots, got {len(bots)}")
    base = state.seed if seed is None else seed
    rngs = [bot_rng(base, seat) for seat in range(len(bots))]
    # Bots that choose by index in a game that picks by index (the random bot in a free-table game): the
    # step below is :func:`step`'s own path for them, with the look-ups made once per game.
    pick = getattr(state, "pick_listed", None) if on_event is None else None
    choosers = [getattr(bot, "choose_index", None) for bot in bots] if pick is not None else []
    if pick is not None and all(choosers):
        for _ in range(max_actions):
            if state.outcome is not None:
                return state
            if state.may_act:  # out-of-turn chances: the whole rule
                step(state, bots, rngs)
                continue
            waiting = next_seat(state)
            if waiting is None:
                raise RuntimeError("nobody must act: the game is over")
            state.apply(pick(waiting, choosers[waiting], rngs[waiting]))
        raise RuntimeError(f"the game did not end within {max_actions} actions")
    for _ in range(max_actions):
        if state.outcome is not None:
            return state
        events = step(state, bots, rngs)
        if on_event is not None:
            on_event(state, events)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
