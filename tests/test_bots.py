"""Bots: legal whole games, the greedy bot's moves in hand-made positions, and views only."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from conftest import as_game

from rummykit.bots.base import Bot, bot_levels, make_bot
from rummykit.bots.greedy import GreedyBot, best_meld, verify_play
from rummykit.catalogue import find_game, new_game
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import JOKER, Tile, parse_tiles
from rummykit.rulesets.rummikub import Draw, Fail, Pass, Play, Rummikub, from_position, full_set, rack_sets
from rummykit.sim import run_bots

GAME = "rummikub"


def greedy() -> GreedyBot:
    bot = make_bot("greedy", GAME)
    assert isinstance(bot, GreedyBot)
    return bot


def all_tiles(state: GameState) -> Counter[str]:
    """Every tile of the state, wherever it is (pool, racks, table), from its public snapshot."""
    snap = state.snapshot()
    tiles: Counter[str] = Counter(snap["pool"])
    for rack in snap["racks"]:
        tiles.update(rack)
    for s in snap["table"]:
        tiles.update(s)
    return tiles


# -- whole games ------------------------------------------------------------------

OPTION_MIXES = [
    {"jokers": 0, "initial_meld_points": 0},
    {"jokers": 0, "initial_meld_points": 50},
    {"jokers": 4, "initial_meld_points": 0},
    {"jokers": 4, "initial_meld_points": 50},
    {},  # the defaults: 2 jokers, 30 points
]
SEEDS_PER_MIX = 6  # 30 games per player count


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", OPTION_MIXES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
)
def test_greedy_and_random_play_legal_games_that_end_and_keep_every_tile(
    players: int, options: dict[str, int]
) -> None:
    expected = Counter(str(t) for t in full_set(options.get("jokers", 2)))
    assert sum(expected.values()) == 104 + options.get("jokers", 2)
    for seed in range(SEEDS_PER_MIX):
        levels = ["greedy" if (seat + seed) % 2 == 0 else "random" for seat in range(players)]
        bots = [make_bot(level, GAME) for level in levels]
        state = new_game(GAME, players=players, seed=1000 * players + seed, **options)
        assert all_tiles(state) == expected

        def check(state: GameState, events: list[Event]) -> None:
            assert all_tiles(state) == expected
            assert events, "every action produces at least one event"

        # run_bots applies every action; an illegal one raises RuleError and fails the test.
        run_bots(state, bots, max_actions=5000, on_event=check)
        assert state.outcome is not None and state.outcome.match_over
        assert state.outcome.reason in ("rack-empty", "blocked")
        assert not any(isinstance(a, Fail) for a in state.actions), "no bot commits a failed turn"
        assert all(isinstance(a, Draw | Pass | Play) for a in state.actions)
        for bot in bots:
            assert getattr(bot, "fallbacks", 0) == 0, "greedy planned a play its own check refused"
        greedy_seats = [s for s, level in enumerate(levels) if level == "greedy"]
        assert any(isinstance(a, Play) and a.player in greedy_seats for a in state.actions)


def test_greedy_games_are_reproducible() -> None:
    def play(seed: int) -> list[str]:
        state = new_game(GAME, players=4, seed=seed)
        run_bots(state, [greedy() for _ in range(4)])
        return [str(a) for a in state.actions]

    first = play(11)
    assert first == play(11)
    assert first != play(12)


def test_greedy_beats_random_clearly() -> None:
    # Measured: greedy wins about 95% of these games (ties count for neither).
    games = wins = 0
    for seed in range(20):
        for greedy_seat in (0, 1):
            bots: list[Bot] = [make_bot("random", GAME), make_bot("random", GAME)]
            bots[greedy_seat] = greedy()
            state = new_game(GAME, players=2, seed=seed)
            run_bots(state, bots)
            assert state.outcome is not None
            games += 1
            wins += state.outcome.winners == (greedy_seat,)
    assert games == 40
    assert wins / games >= 0.85, f"greedy won only {wins} of {games}"


def test_greedy_is_registered_per_game() -> None:
    assert "greedy" in bot_levels(GAME)
    bot = make_bot("GREEDY", GAME)
    assert bot.level == "greedy" and type(bot).__name__ == "GreedyBot"
    other = make_bot("greedy", "domino-rummikub")
    assert type(other).__name__ == "DominoGreedyBot"
    with pytest.raises(OptionError, match="unknown bot level 'genius'"):
        make_bot("genius", GAME)
    with pytest.raises(OptionError, match="the greedy bot plays rummikub only"):
        GreedyBot(find_game("domino-rummikub"))


# -- bots see views only -------------------------------------------------------------


class Spy:
    """Wraps a bot; checks each view it receives against the real state before passing it on."""

    def __init__(self, bot: Bot, state: GameState) -> None:
        self.bot = bot
        self.level = bot.level
        self.state = state
        self.views = 0

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        seat = view["seat"]
        snap = self.state.snapshot()
        # Plain data only: it round-trips through JSON unchanged.
        assert not isinstance(view, GameState)
        assert json.loads(json.dumps(view)) == view
        assert "pool" not in view and "racks" not in view
        assert view["pool_size"] == len(snap["pool"])
        assert sorted(view["rack"]) == sorted(snap["racks"][seat])
        # Every tile named anywhere in the view is on the table or in this seat's own rack.
        visible = Counter(view["rack"])
        for s in snap["table"]:
            visible.update(s)
        named = Counter(_tile_strings({k: v for k, v in view.items() if k != "last_move"}))
        assert not named - visible, f"the view shows tiles it should hide: {named - visible}"
        # The last move: its events as this seat sees them, and no tile in its text that they do not show.
        last = view["last_move"]
        if last is not None:
            seen = self.state.events_for(seat)
            assert last["events"] == seen[len(seen) - len(last["events"]) :]
            shown = set(visible) | set(_tile_strings(last["events"]))
            assert set(_tile_strings(last["text"].split())) <= shown, last["text"]
        for other, rack in enumerate(snap["racks"]):
            if other != seat and rack:
                assert not _contains_list(view, sorted(rack)), f"seat {seat} sees seat {other}'s rack"
        self.views += 1
        return self.bot.choose(view, rng)


def _tile_strings(data: Any) -> list[str]:
    if isinstance(data, str):
        try:
            return [str(Tile.parse(data))] if data.strip() == data and data else []
        except ValueError:
            return []
    if isinstance(data, Mapping):
        return [t for v in data.values() for t in _tile_strings(v)]
    if isinstance(data, list | tuple):
        return [t for v in data for t in _tile_strings(v)]
    return []


def _contains_list(data: Any, target: list[str]) -> bool:
    if isinstance(data, list | tuple):
        if sorted(str(x) for x in data) == target and all(isinstance(x, str) for x in data):
            return True
        return any(_contains_list(v, target) for v in data)
    if isinstance(data, Mapping):
        return any(_contains_list(v, target) for v in data.values())
    return False


@pytest.mark.parametrize("players", [2, 4])
def test_bots_receive_only_their_own_view(players: int) -> None:
    for seed in range(3):
        state = new_game(GAME, players=players, seed=seed)
        spies = [Spy(make_bot("greedy" if seat % 2 else "random", GAME), state) for seat in range(players)]
        run_bots(state, spies)
        assert state.outcome is not None
        assert all(spy.views > 0 for spy in spies)


def test_spy_notices_a_leaky_view() -> None:
    state = new_game(GAME, players=2, seed=1)
    spy = Spy(greedy(), state)
    seat = min(state.to_act)
    view = state.view(seat)
    leaky = dict(view, extra=list(as_game(state, Rummikub).view(1 - seat)["rack"]))
    with pytest.raises(AssertionError):
        spy.choose(leaky, Rng(0))
    with pytest.raises(AssertionError):
        spy.choose(dict(view, pool=[]), Rng(0))
    state.apply(spy.choose(view, Rng(0)))


# -- greedy in hand-made positions ------------------------------------------------------


def greedy_move(position: str, **options: Any) -> str:
    """Greedy's action for seat 0 in a position; the action is also applied (so it is legal)."""
    state = from_position(position, **options)
    action = greedy().choose(state.view(0), Rng(0))
    state.apply(action)
    return str(action)


def test_initial_meld_takes_the_most_tiles_without_spending_the_joker() -> None:
    position = "racks: K10 B10 O10 R11 R12 R13 K2 B5 J / B1 B2; pool: seed 1; down: 00"
    assert greedy_move(position) == "0 play K10 B10 O10 R11 R12 R13 : K10 B10 O10 | R11 R12 R13"


def test_initial_meld_uses_a_joker_when_it_must() -> None:
    position = "racks: K10 B10 J R2 O5 / B1 B2; pool: seed 1; down: 00"
    assert greedy_move(position) == "0 play K10 B10 J : J K10 B10"


def test_initial_meld_needs_the_threshold() -> None:
    position = "racks: K9 B9 O9 R1 / B1 B2; pool: seed 1; down: 00"
    assert greedy_move(position) == "0 draw"
    assert greedy_move(position, initial_meld_points=27) == "0 play K9 B9 O9 : K9 B9 O9"


def test_initial_meld_leaves_the_table_alone() -> None:
    # R4 would fit the table's run, but the initial meld is made from the rack alone.
    position = "table: R1 R2 R3; racks: K10 B10 O10 R4 / B1 B2; pool: seed 1; down: 01"
    assert greedy_move(position) == "0 play K10 B10 O10 : R1 R2 R3 | K10 B10 O10"


def test_lays_off_onto_a_run_and_a_group() -> None:
    position = "table: R1 R2 R3 | K7 B7 O7; racks: R4 R7 K12 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play R4 R7 : R1 R2 R3 R4 | K7 B7 O7 R7"


def test_makes_new_sets_and_lays_off_the_rest() -> None:
    position = "table: R1 R2 R3; racks: K9 B9 O9 R4 R5 K1 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play K9 B9 O9 R4 R5 : R1 R2 R3 R4 R5 | K9 B9 O9"


def test_splits_a_run_to_insert_a_tile() -> None:
    position = "table: R3 R4 R5 R6 R7; racks: R5 K1 B9 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play R5 : R3 R4 R5 | R5 R6 R7"


def test_takes_an_end_tile_of_a_long_run_for_a_new_group() -> None:
    position = "table: K1 K2 K3 K4; racks: B4 O4 R9 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play B4 O4 : K1 K2 K3 | K4 B4 O4"


def test_takes_a_tile_from_a_group_of_four_for_a_new_run() -> None:
    position = "table: K5 B5 O5 R5; racks: R6 R7 K12 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play R6 R7 : K5 B5 O5 | R5 R6 R7"


def test_replaces_a_run_joker_and_uses_it_in_a_new_group() -> None:
    position = "table: R3 J R5 | K9 B9 O9; racks: R4 K11 B11 O2 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play K11 B11 R4 : R3 R4 R5 | K9 B9 O9 | J K11 B11"


def test_replaces_a_group_joker_and_uses_it_in_a_new_run() -> None:
    position = "table: K5 B5 O5 J; racks: R5 R8 R9 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play R5 R8 R9 : K5 B5 O5 R5 | R8 R9 J"


def test_replaced_joker_can_bridge_a_gap() -> None:
    position = "table: K5 B5 O5 J | B1 B2 B3; racks: R5 B5 K12 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play B5 R5 : K5 B5 O5 R5 | B1 B2 B3 J B5"


def test_draws_when_nothing_fits() -> None:
    position = "table: R1 R2 R3; racks: K9 B12 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 draw"


def test_passes_when_nothing_fits_and_the_pool_is_empty() -> None:
    state = from_position("table: R1 R2 R3; racks: K9 B12 / B1 B2; pool: ; down: 10")
    assert state.view(0)["pool_size"] == 0
    action = greedy().choose(state.view(0), Rng(0))
    assert str(action) == "0 pass"
    state.apply(action)


def test_keeps_a_lone_joker_unless_it_empties_the_rack() -> None:
    position = "table: R1 R2 R3; racks: J K9 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 draw"
    position = "table: R1 R2 R3; racks: J / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play J : R1 R2 R3 J"


def test_goes_out_with_a_joker_set() -> None:
    position = "table: R1 R2 R3; racks: J K9 B9 / B1 B2; pool: seed 1; down: 10"
    assert greedy_move(position) == "0 play K9 B9 J : R1 R2 R3 | J K9 B9"


# -- the exact meld search ----------------------------------------------------------------


def brute_force(rack: Counter[Tile], threshold: int) -> tuple[int, int]:
    """(tiles, points) of the best disjoint sets from ``rack`` reaching ``threshold``, by trying all."""
    cands = rack_sets(list(rack.elements()))
    best = (0, 0)

    def go(i: int, left: Counter[Tile], tiles: int, points: int) -> None:
        nonlocal best
        if i == len(cands):
            if tiles and points >= threshold:
                best = max(best, (tiles, points))
            return
        go(i + 1, left, tiles, points)
        need = Counter(cands[i])
        uses = 0
        while not need - left:
            left = left - need
            uses += 1
            go(i + 1, left, tiles + uses * len(cands[i]), points + uses * check_tiles(cands[i]).points)

    go(0, Counter(rack), 0, 0)
    return best


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_best_meld_matches_brute_force(jokers: int) -> None:
    rng = Rng(99 + jokers)
    numbered = [t for t in full_set(0)]
    for _ in range(25):
        rng.shuffle(numbered)
        rack = Counter(numbered[:9] + [JOKER] * jokers)
        for threshold in (0, 30):
            found = best_meld(rack, threshold=threshold)
            placed = Counter(t for s in found for t in s)
            assert not placed - rack
            assert all(check_tiles(s).valid for s in found)
            score = (sum(placed.values()), sum(check_tiles(s).points for s in found)) if found else (0, 0)
            assert score == brute_force(rack, threshold), format(rack)


def test_verify_play_refuses_what_the_engine_would_refuse() -> None:
    rack = parse_tiles("R4 K9 B9 O9")
    table = [tuple(parse_tiles("R1 R2 R3"))]

    def play(placed: str, final: str) -> Play:
        return Play(0, tuple(parse_tiles(placed)), tuple(tuple(parse_tiles(s)) for s in final.split("|")))

    assert verify_play(rack, table, play("R4", "R1 R2 R3 R4"))
    assert verify_play(rack, table, play("K9 B9 O9", "R1 R2 R3 | K9 B9 O9"))
    assert not verify_play(rack, table, play("K9 B9", "R1 R2 R3 | K9 B9"))  # a set of two
    assert not verify_play(rack, table, play("R4", "R2 R3 R4"))  # R1 left the table
    assert not verify_play(
        rack, table, play("K9 B9 O9 R9", "R1 R2 R3 | K9 B9 O9 R9")
    )  # R9 is not in the rack
    assert not verify_play(rack, table, play("K9 B9 O9", "R1 R2 R3 | K9 B9 O9 | K9 B9 O9"))  # placed twice
    assert not verify_play(rack, table, play("", "R1 R2 R3"))  # nothing placed
