"""Picking one action of a listing by its index (``pick_listed``) against the whole listing.

The driver hands an :class:`~rummykit.engine.driver.IndexingAgent` (the random
bot) only the length of its seat's listing; the free-table games then make
only the action at the index it chose, counting their lay-offs instead of
listing them. These tests compare that short cut with the plain computation,
``legal_actions(seat)[index]``: at every index of every position of seeded
games (with and without the listing kept from before), the counts the games
pass to the agent, and whole games played through either path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from catalogue_setups import GAME_IDS, one_round, seats

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.driver import Agent, IndexingAgent, ListingAgent, step
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.rulesets.domino_rummikub.kept import KeptListings as DominoKept
from rummykit.rulesets.rummikub.listing import KeptListings as TileKept
from rummykit.sim import bot_rng, run_bots

FREE_TABLE = [(game, players) for game in ("rummikub", "domino-rummikub") for players in (2, 3, 4)]


class ListOnly:
    """A random bot without ``choose_index``: the driver hands it the whole listing."""

    def __init__(self, game: str) -> None:
        self.bot: Any = make_bot("random", game)
        self.level = "random"

    def choose(self, view: Any, rng: Rng) -> Action:
        action: Action = self.bot.choose(view, rng)
        return action

    def choose_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action:
        action: Action = self.bot.choose_listed(seat, actions, rng)
        return action

    def claim_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action | None:
        action: Action | None = self.bot.claim_listed(seat, actions, rng)
        return action


def fixed(index: int, seen: list[int]) -> Any:
    """An index chooser that notes the count it was given and answers ``index``."""

    def choose(seat: int, count: int, rng: Rng) -> int:
        seen.append(count)
        return index

    return choose


def assert_picks_match(state: GameState) -> int:
    """Every index of the seat to move's listing, picked on a copy (nothing kept) and on the state itself."""
    seat = state.turn_seat
    assert seat is not None
    listing = state.legal_actions(seat)
    for index in range(len(listing)):
        seen: list[int] = []
        fresh = state.copy()  # a copy keeps nothing from the state's listings
        assert fresh.pick_listed(seat, fixed(index, seen), Rng(0)) == listing[index]  # type: ignore[attr-defined]
        assert state.pick_listed(seat, fixed(index, seen), Rng(0)) == listing[index]  # type: ignore[attr-defined]
        assert seen == [len(listing), len(listing)]
    return len(listing)


@pytest.mark.parametrize(("game", "players"), FREE_TABLE)
def test_every_index_picks_the_listed_action(game: str, players: int) -> None:
    picked = 0
    for seed in range(4):
        state = new_game(game, players=players, seed=seed, **one_round(game))
        # Greedy seats go down early, so positions with many lay-offs are reached too.
        levels = ["random", "greedy"] * players
        agents: list[Agent | None] = [make_bot(levels[seat + seed % 2], game) for seat in range(players)]
        rngs = [bot_rng(seed, seat) for seat in range(players)]
        for _ in range(300):
            if state.outcome is not None:
                break
            picked += assert_picks_match(state)
            step(state, agents, rngs)
    assert picked > 300


@pytest.mark.parametrize(("game", "players"), FREE_TABLE)
def test_picks_before_any_listing_follow_the_game(game: str, players: int) -> None:
    """Picks alone along a game (no listing made in between) give the listed action: the counts kept from
    one pick to the next are those of the listing."""
    for seed in range(3):
        state = new_game(game, players=players, seed=seed, **one_round(game))
        twin = state.copy()
        rng = Rng(seed)
        while state.outcome is None and len(state.actions) < 400:
            seat = state.turn_seat
            assert seat is not None
            seen: list[int] = []
            index = rng.below(len(twin.legal_actions(seat)))
            action = state.pick_listed(seat, fixed(index, seen), rng)  # type: ignore[attr-defined]
            assert action == twin.legal_actions(seat)[index]
            assert seen == [len(twin.legal_actions(seat))]
            state.apply(action)
            twin.apply(action)


@pytest.mark.parametrize(("game", "players"), FREE_TABLE)
def test_lay_off_counts_equal_the_listed_lay_offs(game: str, players: int) -> None:
    """The lay-offs counted by bits (and each one found by its index) against the lay-offs listed."""
    compared = 0
    for seed in range(4):
        state = new_game(game, players=players, seed=seed, **one_round(game))
        agents: list[Agent | None] = [make_bot("greedy", game) for _ in range(players)]
        rngs = [bot_rng(seed, seat) for seat in range(players)]
        for _ in range(200):
            if state.outcome is not None:
                break
            for seat in range(players):
                rack = state.racks[seat]  # type: ignore[attr-defined]
                table = state.table  # type: ignore[attr-defined]
                if game == "rummikub":
                    compared += _tile_lay_offs(seat, rack, table)
                else:
                    compared += _domino_lay_offs(seat, rack, table)
            step(state, agents, rngs)
    assert compared > 100


def _tile_lay_offs(seat: int, rack: Any, table: Any) -> int:
    from rummykit.rulesets.rummikub import listing

    kept = TileKept()
    part = kept._refresh(seat, rack, table, True, 0)
    fits = listing._table_fits(table)
    assert kept._fits().packed == fits.packed
    lays = listing._layoffs_of(fits, part.have, part.have_mask)
    spread = listing._spread(len(fits.sets))
    assert (fits.packed & part.have_mask * spread).bit_count() == len(lays)
    assert [listing._nth_layoff(fits, part.have, part.have_mask, i) for i in range(len(lays))] == lays
    return len(lays)


def _domino_lay_offs(seat: int, rack: Any, table: Any) -> int:
    kept = DominoKept()
    part = kept._refresh(seat, rack, table, True, "any")
    assert part is not None and part.fits is not None
    fits = part.fits
    count = fits.count(part.have)  # judges every domino the rack holds first: nth needs that
    lays = fits.layoffs(part.have)
    assert count == len(lays)
    assert [fits.nth(part.have, i) for i in range(count)] == lays
    return count


@pytest.mark.parametrize("game", GAME_IDS)
def test_games_identical_through_index_or_listing(game: str) -> None:
    for players in sorted({seats(game, 2), seats(game, 4)}):
        for seed in range(3):
            options = one_round(game)
            by_index = run_bots(
                new_game(game, players=players, seed=seed, **options),
                [make_bot("random", game) for _ in range(players)],
            )
            by_list = run_bots(
                new_game(game, players=players, seed=seed, **options), [ListOnly(game) for _ in range(players)]
            )
            assert by_index.actions == by_list.actions
            assert by_index.snapshot() == by_list.snapshot()


def test_the_random_bot_chooses_by_index() -> None:
    bot = make_bot("random", "rummikub")
    assert isinstance(bot, IndexingAgent) and isinstance(bot, ListingAgent)
    assert not isinstance(ListOnly("rummikub"), IndexingAgent)
    a, b = Rng(11), Rng(11)
    state = new_game("rummikub", seed=3)
    seat = state.turn_seat
    assert seat is not None
    actions = state.legal_actions(seat) * 7
    for _ in range(50):
        assert actions[bot.choose_index(seat, len(actions), a)] == bot.choose_listed(seat, actions, b)
    with pytest.raises(RuleError):
        bot.choose_index(0, 0, a)


def test_a_seat_that_may_not_act_picks_from_an_empty_listing() -> None:
    for game in ("rummikub", "domino-rummikub"):
        state = new_game(game, players=2, seed=1)
        idle = 1 - state.turn_seat  # type: ignore[operator]
        with pytest.raises(RuleError):
            state.pick_listed(idle, make_bot("random", game).choose_index, Rng(1))  # type: ignore[attr-defined]


def test_kept_rack_sets_follow_draws_and_plays() -> None:
    """A rack's sets carried over after a draw or a play (no joker before or after) against enumerating them."""
    from rummykit.melds.tiles import hand_sets
    from rummykit.rulesets.rummikub.state import full_set

    checked = carried = 0
    for seed in range(60):
        rng = Rng(seed)
        pool = full_set(2 if seed % 3 else 0)
        rng.shuffle(pool)
        rack = [pool.pop() for _ in range(14)]
        kept = TileKept()
        for _ in range(60):
            before = kept.seats[0].sets if 0 in kept.seats else None
            part = kept._refresh(0, rack, [], True, 0)
            assert part.sets == hand_sets(rack), [str(t) for t in rack]
            carried += before is not None and part.sets is before
            checked += 1
            if pool and rng.below(3):
                rack.append(pool.pop())  # a draw
            elif len(rack) > 3:
                for _ in range(1 + rng.below(3)):  # a play: one to three tiles leave
                    rack.pop(rng.below(len(rack)))
    assert checked == 60 * 60 and carried > 300


@pytest.mark.parametrize("game", GAME_IDS)
def test_run_bots_own_loop_plays_as_the_step_driver(game: str) -> None:
    """``run_bots`` with index-choosing bots only (its own loop) against the same bots through ``step``
    (``on_event`` given) and against a table mixing them with bots that take the whole listing."""
    for players in sorted({seats(game, 2), seats(game, 4)}):
        for seed in range(3):
            options = one_round(game)
            own = run_bots(
                new_game(game, players=players, seed=seed, **options),
                [make_bot("random", game) for _ in range(players)],
            )
            seen: list[int] = []
            stepped = run_bots(
                new_game(game, players=players, seed=seed, **options),
                [make_bot("random", game) for _ in range(players)],
                on_event=_noting(seen),
            )
            mixed_bots: list[Any] = [make_bot("random", game) if s % 2 else ListOnly(game) for s in range(players)]
            mixed = run_bots(new_game(game, players=players, seed=seed, **options), mixed_bots)
            assert own.actions == stepped.actions == mixed.actions
            assert own.snapshot() == stepped.snapshot() == mixed.snapshot()
            assert len(seen) == len(own.actions)


def _noting(seen: list[int]) -> Callable[[GameState, list[Event]], None]:
    """An ``on_event`` that notes how many events each step made."""
    return lambda state, events: seen.append(len(events))
