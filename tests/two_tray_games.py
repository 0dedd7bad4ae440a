"""Seeded two-tray games for tests that check a shortcut against the full work on real positions."""

from __future__ import annotations

from collections.abc import Callable

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Event, GameState
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.sim import run_bots


def play_seeded(games: int, each: Callable[[TwoTray], None]) -> None:
    """Play two-tray with 2 seats for seeds 0 .. ``games`` - 1 (odd seeds random against
    random, even ones greedy against random), calling ``each`` with the state after every
    event."""

    def step(state: GameState, _events: list[Event]) -> None:
        assert isinstance(state, TwoTray)
        each(state)

    for seed in range(games):
        state = new_game("two-tray", players=2, seed=seed)
        levels = ("random", "random") if seed % 2 else ("greedy", "random")
        run_bots(state, [make_bot(level, "two-tray") for level in levels], on_event=step)
