"""``mummus`` on the engine's out-of-turn contract: who may act, the driver's order, bot games and replays.

* ``may_act`` holds exactly the other seats with a listed action; the view
  header agrees; the driver offers them their chance first, in ``act_order``
  (turn order after the player to move), before the player to move acts.
* Calls are not won by seat number: which seat claims first follows the turn.
* Bot games (both levels, mixed) finish at every player count with the
  default match options and replay identically; the same seed plays the
  same game; out-of-turn add-ons and rummy calls happen in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action
from rummykit.engine.driver import Agent, claims_open, next_seat, step
from rummykit.engine.rng import Rng
from rummykit.records import read_record, write_record
from rummykit.rulesets.mummus import Addon, Mummus, Rummy, from_position
from rummykit.sim import bot_rng, run_bots

CALLS = "hands: 2C 9D / 4H 9S KD / QC QD; melds: 1: 5H 6H 7H; discard: 8H 3D"


class Recorder:
    """A greedy bot that notes every time the driver asks it to act out of turn."""

    level = "greedy"

    def __init__(self, seat: int, asked: list[int]) -> None:
        self.seat = seat
        self.asked = asked
        self.bot = make_bot("greedy", "mummus")

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        return self.bot.choose(view, rng)

    def claim(self, view: Mapping[str, Any], rng: Rng) -> Action | None:
        self.asked.append(self.seat)
        claimer = getattr(self.bot, "claim")  # noqa: B009 (the greedy bot is a Claimer)
        action: Action | None = claimer(view, rng)
        return action


def test_the_driver_asks_out_of_turn_seats_first_in_turn_order_after_the_player_to_move() -> None:
    for turn, expected in ((0, [1, 2]), (1, [2, 0]), (2, [0, 1])):
        text = CALLS.replace("hands: 2C 9D / 4H 9S KD / QC QD", "hands: 4H 2C 9D / 4S 9S KD / QC QD 4D")
        state = from_position(f"{text}; turn: {turn}", target=0)
        asked: list[int] = []
        agents: list[Agent | None] = [Recorder(s, asked) for s in range(3)]
        assert claims_open(state) == expected == state.act_order(state.may_act)
        events = step(state, agents, [Rng(s) for s in range(3)])
        # the first seat asked calls rummy on 8H: the seat nearest after the player to move wins
        assert asked == expected[:1] and events[0].kind == "rummy" and events[0].player == expected[0]


def test_may_act_is_exactly_the_other_seats_with_a_listed_action_during_bot_games() -> None:
    for players in (2, 4, 6):
        state = new_game("mummus", players=players, seed=players, target=0)
        assert isinstance(state, Mummus)
        bots: list[Agent | None] = [make_bot("random", "mummus") for _ in range(players)]
        rngs = [bot_rng(players, s) for s in range(players)]
        while state.outcome is None:
            for seat in range(players):
                listed = state.legal_actions(seat)
                if seat == state.current:
                    assert listed, "the player to move always has a move"
                else:
                    assert bool(listed) == (seat in state.may_act)
                    assert all(isinstance(a, Addon | Rummy) for a in listed)
            view = state.view(None)
            # a spectator sees the seats a rummy call opens (the pile is public), not who holds an add-on
            assert view["may_act"] == sorted(state.may_act_seen_by(None)) and view["must_act"] == [state.current]
            assert set(view["may_act"]) <= state.may_act
            for seat in range(players):
                assert (seat in state.view(seat)["may_act"]) == (seat in state.may_act)
            assert next_seat(state) == state.current
            step(state, bots, rngs)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("levels", [("greedy",), ("random",), ("greedy", "random")])
def test_bot_matches_finish_and_replay_identically_at_every_player_count(players: int, levels: tuple[str, ...]) -> None:
    def game() -> Any:
        state = new_game("mummus", players=players, seed=100 + players)
        bots = [make_bot(levels[s % len(levels)], "mummus") for s in range(players)]
        return run_bots(state, bots)

    state = game()
    assert state.outcome is not None and state.outcome.reason in ("target", "max-rounds")
    record = write_record(state)
    assert read_record(record).snapshot() == state.snapshot()
    assert write_record(game()) == record  # the same seed plays the same game


def test_out_of_turn_add_ons_and_rummy_calls_happen_in_bot_games() -> None:
    out_of_turn = {"addon": 0, "rummy": 0}
    for seed in range(6):
        state = new_game("mummus", players=4, seed=seed, target=0)
        run_bots(state, [make_bot("greedy", "mummus") for _ in range(4)])
        for e in state.history:
            if e.kind in out_of_turn and not e.data["in_turn"]:
                out_of_turn[e.kind] += 1
    assert out_of_turn["addon"] > 0 and out_of_turn["rummy"] > 0, out_of_turn


def test_random_bots_also_act_out_of_turn() -> None:
    state = new_game("mummus", players=3, seed=2, target=0)
    run_bots(state, [make_bot("random", "mummus") for _ in range(3)])
    assert any(e.kind in ("addon", "rummy") and not e.data["in_turn"] for e in state.history)
