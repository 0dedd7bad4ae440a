"""The game session (:mod:`rummykit.session`): who is asked, once per position; bots first; stale actions.

Every interface asks the session who acts, so its rule is tested here once:
each seat is offered an out-of-turn chance once per position (``seq``), bots
and people alike; of several seats that must act at once the bots go first;
an action made against an earlier position is refused (rule ``STALE``) and
changes nothing; and bots alone play through the session exactly as through
the step driver (:func:`rummykit.sim.run_bots`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from conftest import changed, state_data

import rummykit
from rummykit.bots.base import Bot, make_bot
from rummykit.engine.core import Action, GameState
from rummykit.engine.driver import Claimer, next_seat
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.records import parse_record, read_record, write_record
from rummykit.rulesets.mummus import from_position
from rummykit.session import GameSession, StaleAction, record_seats
from rummykit.sim import bot_rng, run_bots

# Seat 2 is to move; seats 0 and 1 may act out of turn first (seat 0 before seat 1): 8H on the discard
# fits meld 1 (a rummy claim), 4H goes on its low end.
CLAIM_WINDOW = "hands: 2C 9D / 4H 9S KD / QC QD 3S; melds: 1: 5H 6H 7H; discard: 8H 3D; turn: 2"


class Counting:
    """A bot that plays like ``level`` and counts every question put to it: (claim?, seq) -> times."""

    def __init__(self, level: str, game: str, *, claims: bool = True) -> None:
        self.bot = make_bot(level, game)
        self.level = level
        self.claims = claims
        self.asked: Counter[tuple[bool, int]] = Counter()
        self.state: GameState | None = None

    def seq(self) -> int:
        assert self.state is not None
        return len(self.state.actions)

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        self.asked[False, self.seq()] += 1
        return self.bot.choose(view, rng)

    def claim(self, view: Mapping[str, Any], rng: Rng) -> Action | None:
        self.asked[True, self.seq()] += 1
        if not self.claims or not isinstance(self.bot, Claimer):
            return None
        return self.bot.claim(view, rng)


def counting(state: GameState, level: str, game: str, *, claims: bool = True) -> Counting:
    bot = Counting(level, game, claims=claims)
    bot.state = state
    return bot


def test_a_bot_that_let_a_claim_pass_is_not_asked_again_after_a_person_lets_it_pass() -> None:
    state = from_position(CLAIM_WINDOW, target=0)
    assert state.act_order(state.may_act - state.must_act) == [0, 1] and state.must_act == {2}
    first = counting(state, "random", "mummus", claims=False)
    session = GameSession(state, [first, None, make_bot("random", "mummus")])
    ask = session.ask()
    assert ask is not None and (ask.seat, ask.claim, ask.bot) == (0, True, first)
    assert session.play_bot(ask) == [] and session.seq == 0
    ask = session.ask()
    assert ask is not None and (ask.seat, ask.claim, ask.bot) == (1, True, None)
    assert session.ask() == ask  # asked until it answers
    session.let_pass(1)
    ask = session.ask()
    assert ask is not None and (ask.seat, ask.claim) == (2, False)
    assert first.asked == {(True, 0): 1}  # the bot ahead of the person is not asked again at this position
    session.play_bot(ask)
    assert session.seq == 1


def test_a_person_who_claims_is_offered_the_next_chance_at_the_new_position() -> None:
    state = from_position(CLAIM_WINDOW, target=0)
    session = GameSession(state, [counting(state, "random", "mummus", claims=False), None, make_bot("random", "mummus")])
    session.play_bot(session.ask())  # type: ignore[arg-type]
    ask = session.ask()
    assert ask is not None and ask.seat == 1 and ask.claim
    session.apply(state.parse_action("1 rummy 8H to 5H"), seq=0)
    again = session.ask()
    assert again is not None and session.seq == 1 and again.seat in (0, 1) and again.claim


@pytest.mark.parametrize(("game", "players", "person", "seed", "options"), [
    ("mummus", 3, 1, 5, {"target": 0}),
    ("mummus", 4, 0, 2, {"target": 0}),
    ("conveyor", 3, 2, 7, {"target": 0, "jump_ins": True}),
])
def test_every_seat_is_asked_once_per_position(
    game: str, players: int, person: int, seed: int, options: dict[str, Any]
) -> None:
    """A whole game: the person lets every claim pass and plays a policy's move; nobody is asked twice."""
    state = rummykit.new_game(game, players=players, seed=seed, **options)
    bots: list[Counting | None] = [None if s == person else counting(state, "greedy", game) for s in range(players)]
    session = GameSession(state, bots)
    policy = make_bot("greedy", game)
    person_asked: Counter[tuple[bool, int]] = Counter()
    ask = session.ask()
    for _ in range(20_000):
        if ask is None:
            break
        if ask.bot is not None:
            session.play_bot(ask)
        else:
            person_asked[ask.claim, session.seq] += 1
            if ask.claim:
                session.let_pass(ask.seat)
            else:
                session.apply(policy.choose(state.view(ask.seat), Rng(session.seq)), seq=session.seq)
        ask = session.ask()
    assert state.outcome is not None
    for bot in [b for b in bots if b is not None]:
        assert bot.asked and max(bot.asked.values()) == 1
    assert person_asked and max(person_asked.values()) == 1
    if game == "mummus":
        assert any(claim for claim, _ in person_asked), "the person was never offered a claim"
        assert any(claim for b in bots if b is not None for claim, _ in b.asked)


def jump_window(person: int | None, seed: int = 7) -> tuple[GameState, list[Bot | None]]:
    """A 3-player conveyor game (jump-ins) played by greedy bots to its first open jump-in window."""
    state = rummykit.new_game("conveyor", players=3, seed=seed, target=0, jump_ins=True)
    greedy = [make_bot("greedy", "conveyor") for _ in range(3)]
    rngs = [bot_rng(seed, s) for s in range(3)]
    while len(state.must_act) < 2:
        seat = next_seat(state)
        assert seat is not None
        state.apply(greedy[seat].choose(state.view(seat), rngs[seat]))
    return state, [None if s == person else greedy[s] for s in range(3)]


def test_bots_answer_first_when_several_seats_must_act() -> None:
    probe, _ = jump_window(None)
    waiting = probe.act_order(probe.must_act)
    person = waiting[0]  # first by the game's order: the driver alone would ask the person first
    state, bots = jump_window(person)
    assert next_seat(state) == person
    session = GameSession(state, bots)
    ask = session.ask()
    assert ask is not None and ask.seat != person and ask.bot is not None and not ask.claim
    session.play_bots()
    ask = session.ask()
    assert ask is not None and (ask.seat, ask.bot, ask.claim) == (person, None, False)
    assert person in state.must_act and all(s == person or s not in state.must_act for s in waiting)


def test_an_action_made_at_an_earlier_position_is_refused_as_stale_and_changes_nothing() -> None:
    state = rummykit.new_game("conveyor", players=2, seed=3, target=0)
    session = GameSession(state, [make_bot("greedy", "conveyor"), None])
    session.play_bots()
    ask = session.ask()
    assert ask is not None and ask.seat == 1 and session.seq > 0
    made_at = session.seq
    action = make_bot("greedy", "conveyor").choose(state.view(1), Rng(1))
    for seq in (made_at - 1, made_at + 1, 0):
        before = state_data(state)
        settled = list(session.settled)
        with pytest.raises(StaleAction) as refused:
            session.apply(action, seq=seq)
        assert isinstance(refused.value, RuleError) and refused.value.rule == "STALE"
        assert "(rule STALE)" in str(refused.value)
        assert changed(before, state_data(state)) == []
        assert session.seq == made_at and session.settled == settled
    assert session.apply(action, seq=made_at) and session.seq == made_at + 1


def test_a_refused_action_changes_nothing_in_the_session_either() -> None:
    state = rummykit.new_game("conveyor", players=2, seed=3, target=0)
    session = GameSession(state, [None, make_bot("random", "conveyor")])
    ask = session.ask()
    assert ask is not None and ask.bot is None
    bad = state.parse_action(f"{ask.seat} discard 0-0")
    before = state_data(state)
    with pytest.raises(RuleError) as refused:
        session.apply(bad, seq=session.seq)
    assert refused.value.rule != "STALE"
    assert changed(before, state_data(state)) == [] and session.ask() == ask


GAMES = [
    ("conveyor", 3, "greedy", 3, {"target": 0}),
    ("conveyor", 3, "random", 5, {"target": 0, "jump_ins": True}),
    ("mummus", 4, "greedy", 2, {"target": 0}),
    ("mummus", 3, "random", 8, {}),
    ("rummikub", 3, "random", 4, {}),
    ("rummikub", 2, "greedy", 6, {}),
    ("two-tray", 2, "random", 1, {}),
    ("domino-rummikub", 2, "random", 5, {}),
]


@pytest.mark.parametrize(("game", "players", "level", "seed", "options"), GAMES)
def test_bots_alone_play_through_the_session_as_through_the_step_driver(
    game: str, players: int, level: str, seed: int, options: dict[str, Any]
) -> None:
    driven = run_bots(rummykit.new_game(game, players=players, seed=seed, **options),
                      [make_bot(level, game) for _ in range(players)])
    state = rummykit.new_game(game, players=players, seed=seed, **options)
    bots = [make_bot(level, game) for _ in range(players)]
    session = GameSession(state, bots)
    session.play_bots()
    assert state.outcome is not None and session.ask() is None
    assert [a.text() for a in state.actions] == [a.text() for a in driven.actions]
    assert write_record(state) == write_record(driven)
    text = session.record_text()
    assert read_record(text).snapshot() == state.snapshot()
    record = parse_record(text)
    assert record.seats == record_seats(bots, session.rngs, session.settled)
    assert [seat.bot for seat in record.seats] == [level] * players


def test_the_async_front_door_chooses_as_the_sync_one() -> None:
    def sync() -> str:
        state = rummykit.new_game("mummus", players=3, seed=4, target=0)
        session = GameSession(state, [make_bot("greedy", "mummus") for _ in range(3)])
        session.play_bots()
        return session.record_text()

    async def in_a_loop() -> str:
        state = rummykit.new_game("mummus", players=3, seed=4, target=0)
        session = GameSession(state, [make_bot("greedy", "mummus") for _ in range(3)])
        ask = session.ask()
        while ask is not None:
            seq = session.seq
            action = await session.choose_async(ask)
            if action is not None:
                session.apply(action, seq=seq)
            ask = session.ask()
        return session.record_text()

    assert asyncio.run(asyncio.wait_for(in_a_loop(), timeout=300)) == sync()


def test_a_person_seat_is_not_chosen_for_and_the_seats_must_fit() -> None:
    state = rummykit.new_game("conveyor", players=2, seed=3, target=0)
    session = GameSession(state, [None, make_bot("random", "conveyor")])
    ask = session.ask()
    assert ask is not None and ask.bot is None
    with pytest.raises(ValueError, match="played by a person"):
        session.choose(ask)
    with pytest.raises(ValueError, match="2 seats need 2 entries"):
        GameSession(state, [None])
