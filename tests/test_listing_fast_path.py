"""The driver's listing fast path: a seat's own listing equals the one made from its view, so games are unchanged.

A :class:`~rummykit.engine.driver.ListingAgent` (the random bot) is handed
``state.legal_actions(seat)`` instead of a view. That keeps hidden
information hidden and games identical only if the listing is exactly what
``GameInfo.view_actions`` makes from the seat's view: the same actions in the
same order, in every position. These tests check it over positions reached
by seeded random and greedy play in all five games, and check that whole
games come out the same through either path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from catalogue_setups import GAME_IDS, one_round, seats

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, new_game
from rummykit.engine.core import Action, GameState
from rummykit.engine.driver import Agent, ListingAgent, step
from rummykit.engine.rng import Rng
from rummykit.sim import bot_rng, run_bots

CASES = [(game, players) for game in GAME_IDS for players in sorted({seats(game, 2), seats(game, 4)})]


class ViewOnly:
    """Hides an agent's listing path: the driver must build a view and the agent list from it."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.level = agent.level

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        action: Action = self.agent.choose(view, rng)
        return action

    def claim(self, view: Mapping[str, Any], rng: Rng) -> Action | None:
        claim = getattr(self.agent, "claim", None)  # an agent that never claims lets every chance pass
        action: Action | None = None if claim is None else claim(view, rng)
        return action


class Counting:
    """A random bot that counts how often the driver used each path."""

    def __init__(self, game: str) -> None:
        self.bot = make_bot("random", game)
        self.level = "random"
        self.listed = 0
        self.viewed = 0

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        self.viewed += 1
        action: Action = self.bot.choose(view, rng)
        return action

    def choose_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action:
        self.listed += 1
        assert isinstance(self.bot, ListingAgent)
        return self.bot.choose_listed(seat, actions, rng)

    def claim_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action | None:
        self.listed += 1
        assert isinstance(self.bot, ListingAgent)
        return self.bot.claim_listed(seat, actions, rng)


def assert_listings_match(state: GameState) -> int:
    """Every seat's listing equals the view's, element by element; returns how many actions were compared."""
    view_actions = find_game(state.game_id).view_actions
    assert view_actions is not None
    compared = 0
    for seat in range(len(state.players)):
        own = state.legal_actions(seat)
        from_view = view_actions(state.view(seat))
        assert own == from_view, (state.game_id, seat, [str(a) for a in own], [str(a) for a in from_view])
        compared += len(own)
    return compared


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seat_listing_equals_view_listing(game: str, players: int) -> None:
    compared = positions = 0
    for seed in range(3):
        state = new_game(game, players=players, seed=seed, **one_round(game))
        # Random play reaches many kinds of positions; greedy seats reach ones with melds down early.
        levels = ["random", "greedy"] * players
        agents: list[Agent | None] = [ViewOnly(make_bot(levels[seat + seed % 2], game)) for seat in range(players)]
        rngs = [bot_rng(seed, seat) for seat in range(players)]
        for _ in range(400):
            if state.outcome is not None:
                break
            compared += assert_listings_match(state)
            positions += 1
            step(state, agents, rngs)
    assert positions > 50
    assert compared > positions  # positions with something to do were compared, not only empty lists


@pytest.mark.parametrize(("game", "players"), CASES)
def test_games_identical_through_either_path(game: str, players: int) -> None:
    for seed in range(2):
        options = one_round(game)
        by_view = run_bots(
            new_game(game, players=players, seed=seed, **options),
            [ViewOnly(make_bot("random", game)) for _ in range(players)],
        )
        counting = [Counting(game) for _ in range(players)]
        by_listing = run_bots(new_game(game, players=players, seed=seed, **options), counting)
        assert by_listing.actions == by_view.actions
        assert by_listing.snapshot() == by_view.snapshot()
        assert sum(c.listed for c in counting) >= len(by_listing.actions)
        assert sum(c.viewed for c in counting) == 0


def test_random_bot_takes_the_listing_path() -> None:
    assert isinstance(make_bot("random", "rummikub"), ListingAgent)
    assert not isinstance(ViewOnly(make_bot("random", "rummikub")), ListingAgent)
