"""The ``solver`` bot: legal plays only, its initial meld, its joker policy, whole games."""

from __future__ import annotations

import rummykit
from rummykit.bots.base import make_bot
from rummykit.bots.solver import SolverBot, choose_play, solver_bot
from rummykit.catalogue import find_game
from rummykit.engine.rng import Rng
from rummykit.pieces.tiles import parse_tiles
from rummykit.rulesets.rummikub import Draw, Pass, Play, from_position, parse_table
from rummykit.sim import run_bots


def bot() -> SolverBot:
    return solver_bot(find_game("rummikub"))


def test_initial_meld_when_it_can() -> None:
    state = from_position("racks: K10 B10 O10 R2 R3 / B1 B2; pool: seed 1; down: 00")
    action = bot().choose(state.view(0), Rng(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert state.view(None)["down"][0]


def test_draws_without_an_initial_meld() -> None:
    state = from_position("racks: K10 B10 O9 R2 / B1 B2; pool: seed 1; down: 00")
    assert isinstance(bot().choose(state.view(0), Rng(0)), Draw)


def test_passes_when_the_pool_is_empty_and_nothing_plays() -> None:
    state = from_position("table: R1 R2 R3; racks: K9 / B1 B2; pool: ; down: 11")
    assert isinstance(bot().choose(state.view(0), Rng(0)), Pass)


def test_rearranges_the_table() -> None:
    state = from_position("table: K7 B7 O7 R7 | K8 B8 O8 R8; racks: K9 O1 / B1 B2; pool: seed 2; down: 11")
    action = bot().choose(state.view(0), Rng(0))
    assert isinstance(action, Play) and [str(t) for t in action.placed] == ["K9"]
    state.apply(action)


def test_keeps_a_joker_that_only_places_itself() -> None:
    table = list(parse_table("R1 R2 R3"))
    assert choose_play(table, parse_tiles("J K9"), down=True, threshold=30) is None
    plan = choose_play(table, parse_tiles("J R4 K9"), down=True, threshold=30)
    assert plan is not None and [str(t) for t in plan.placed] == ["R4"]


def test_spends_a_joker_that_places_more() -> None:
    plan = choose_play(list(parse_table("R1 R2 R3")), parse_tiles("J K9 K10 B5"), down=True, threshold=30)
    assert plan is not None and sorted(str(t) for t in plan.placed) == ["J", "K10", "K9"]


def test_spends_jokers_to_go_out() -> None:
    plan = choose_play(list(parse_table("R1 R2 R3")), parse_tiles("J R4"), down=True, threshold=30)
    assert plan is not None and len(plan.placed) == 2


def test_whole_games_against_greedy_are_legal() -> None:
    info = find_game("rummikub")
    for seed in (3, 4):
        solver = solver_bot(info)
        state = rummykit.new_game("rummikub", players=2, seed=seed)
        run_bots(state, [solver, make_bot("greedy", "rummikub")], seed=seed)
        assert state.outcome is not None
        assert solver.fallbacks == 0
