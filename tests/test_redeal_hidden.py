"""``GameState.redeal_hidden``: every piece a seat cannot see dealt anew, in each game.

Over positions of random and greedy play, a redeal keeps every piece exactly
once, each seat's number of pieces, the seat's whole view and the original
state; and it does move hidden pieces (a method that returned an unchanged
copy would fail here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game
from rummykit.engine.core import GameState
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.rulesets.conveyor import Conveyor
from rummykit.rulesets.freetable import FreeTableGame
from rummykit.rulesets.mummus import Mummus
from rummykit.rulesets.rummikub import Rummikub
from rummykit.rulesets.two_tray import TwoTray

GAMES = ("rummikub", "domino-rummikub", "two-tray", "conveyor", "mummus")


def options(game: str) -> dict[str, str]:
    """One round of the game."""
    return {"target": "0"} if game in ("mummus", "conveyor") else {"target": "none"}


def positions(game: str, seed: int, levels: tuple[str, str], count: int = 6, every: int = 8) -> list[GameState]:
    """Copies of a two-player game's positions, one every ``every`` steps, ``count`` at the most."""
    state = find_game(game).new(players=2, seed=seed, **options(game))
    bots = [make_bot(level, game) for level in levels]
    rngs = [Rng(seed), Rng(seed + 1)]
    out: list[GameState] = []
    for n in range(count * every):
        if state.outcome is not None:
            break
        if n % every == 0:
            out.append(state.copy())
        step(state, bots, rngs)
    return out


def pieces(state: GameState) -> Counter[str]:
    """Every piece of the game wherever it lies, counted by its text."""
    parts: list[Iterable[object]]
    if isinstance(state, FreeTableGame):
        parts = [state.pool, *state.racks, *state.table]
    elif isinstance(state, TwoTray):
        parts = [state.pool, *state.trays, state.grid.cells.values()]
    elif isinstance(state, Conveyor):
        parts = [*state.belt.columns, *state.hands, *(m.dominoes for m in state.table)]
    elif isinstance(state, Mummus):
        parts = [*state.hands, state.piles.stock, state.piles.discard, state.area.counts().elements()]
    else:  # pragma: no cover - the five games above
        raise TypeError(type(state).__name__)
    return Counter(str(p) for part in parts for p in part)


@pytest.mark.parametrize("game", GAMES)
def test_a_redeal_keeps_the_pieces_and_the_seats_view_and_moves_what_it_cannot_see(game: str) -> None:
    rng = Rng(11)
    checked = moved = 0
    for seed, levels in ((1, ("random", "random")), (2, ("greedy", "random")), (3, ("greedy", "greedy"))):
        for state in positions(game, seed, levels):
            before = state.snapshot()
            for seat in (0, 1, None):
                other = state.redeal_hidden(seat, rng)
                assert type(other) is type(state)
                assert pieces(other) == pieces(state), "every piece exactly once"
                assert other.piece_counts() == state.piece_counts()
                assert other.view(seat) == state.view(seat)
                assert state.snapshot() == before, "the original is untouched"
                checked += 1
                moved += other.snapshot() != before
    assert checked >= 30
    assert moved >= 0.8 * checked, (moved, checked)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_generator_gives_the_same_deal(game: str) -> None:
    state = positions(game, 4, ("random", "random"), count=2)[-1]
    first, second = state.redeal_hidden(0, Rng(5)), state.redeal_hidden(0, Rng(5))
    assert first.snapshot() == second.snapshot()
    assert first.view(1) == second.view(1)


def test_a_game_that_does_not_say_where_its_hidden_pieces_lie_cannot_be_redealt() -> None:
    class Unsaid(Rummikub):
        hidden_slots = GameState.hidden_slots

    real = find_game("rummikub").new(players=2, seed=1, target="none")
    state = Unsaid(real.players, real.seed, real.options)
    with pytest.raises(NotImplementedError, match="Unsaid cannot deal its hidden pieces anew"):
        state.redeal_hidden(0, Rng(1))
