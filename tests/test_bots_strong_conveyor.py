"""conveyor's strong bot: it chooses from the view only, deterministically, takes the jump-ins worth taking,
and its advice is its choice."""

from __future__ import annotations

import pytest

from rummykit import new_game
from rummykit.bots.conveyor_strong import ConveyorStrong, conveyor_strong
from rummykit.bots.registry import make_bot
from rummykit.engine.driver import next_seat, step
from rummykit.engine.rng import Rng
from rummykit.pieces.dominoes import Domino, double_set, parse_dominoes
from rummykit.rulesets import conveyor as cv


def positions(seed: int, every: int = 3, players: int = 2) -> list[tuple[cv.Conveyor, int]]:
    """Positions of a greedy game (selection round and turns), each with the seat to act."""
    state = new_game("conveyor", players=players, seed=seed, target=0)
    assert isinstance(state, cv.Conveyor)
    bots = [make_bot("greedy", "conveyor") for _ in range(players)]
    rngs = [Rng(seed + s) for s in range(players)]
    out: list[tuple[cv.Conveyor, int]] = []
    for n in range(400):
        if state.outcome is not None:
            break
        seat = next_seat(state)
        assert seat is not None
        if n % every == 0:
            copy = state.copy()
            assert isinstance(copy, cv.Conveyor)
            out.append((copy, seat))
        step(state, bots, rngs)
    return out


def test_the_choice_is_the_same_when_the_hidden_dominoes_are_shuffled() -> None:
    bot = make_bot("strong:iterations=6", "conveyor")
    moved = 0
    for state, seat in positions(11, every=2)[:30]:
        for k in range(2):
            other = state.redeal_hidden(seat, Rng(100 + k))
            assert other.view(seat) == state.view(seat)
            moved += other.hands != state.hands or other.belt.columns != state.belt.columns
            assert bot.choose(other.view(seat), Rng(3)) == bot.choose(state.view(seat), Rng(3))
    assert moved > 20  # the hidden dominoes did move


def test_deterministic_for_a_seed_and_iterations() -> None:
    for state, seat in positions(4, every=4)[:12]:
        view = state.view(seat)
        first = make_bot("strong:iterations=8", "conveyor").choose(view, Rng(9))
        again = make_bot("strong:iterations=8", "conveyor").choose(view, Rng(9))
        assert first == again


def test_make_bot_with_iterations() -> None:
    bot = make_bot("strong:iterations=3", "conveyor")
    assert isinstance(bot, ConveyorStrong) and bot.level == "strong"
    assert bot.budget.iterations == 3 and bot.budget.think is None
    assert conveyor_strong(cv.INFO).budget.think is not None  # the default is capped in seconds


def test_advice_is_the_choice_with_a_reason() -> None:
    bot = conveyor_strong(cv.INFO, iterations=6)
    phases = set()
    for state, seat in positions(7, every=2)[:40]:
        view = state.view(seat)
        advice = bot.advise(view, Rng(2))
        assert advice.action == bot.choose(view, Rng(2))
        assert advice.action in state.legal_actions(seat)
        assert len(advice.reason) > 20
        phases.add(view["phase"])
    assert {"select", "draw", "play"} <= phases


def position(
    hands: list[str], up: dict[int, str], conveyors: int = 2, turn: int = 0, **options: int | bool
) -> cv.Conveyor:
    """A double-6 position: the hands given (one claimed column each), the other dominoes face down in
    conveyors of equal length, but for ``up``: the face-up domino at the bottom of conveyor k."""
    held = {d for hand in hands for d in parse_dominoes(hand)} | {Domino.parse(x) for x in up.values()}
    rest = [d for d in double_set(6) if d not in held]
    length = (len(rest) + len(up)) // conveyors
    columns = []
    for k in range(conveyors):
        cells = [f"?{d}" for d in rest[: length - (k in up)]]
        rest = rest[length - (k in up) :]
        if k in up:
            cells.append(up[k])
        columns.append(" ".join(cells))
    assert not rest
    claimed = " / ".join(f"claimed {s}" for s in range(len(hands)))
    return cv.from_position(
        f"columns: {claimed} / {' / '.join(columns)}; hands: {' / '.join(hands)}; turn: {turn}", **options
    )


def test_it_closes_when_it_can_and_says_so() -> None:
    # 0-4 at the bottom of conveyor 2 (column 4) makes 0-1 0-2 0-3 0-4 and 1-1 2-2 3-3: discard 4-6, closed
    state = position(["0-1 0-2 0-3 1-1 2-2 3-3 4-6", "1-2 1-3 1-4 2-3 2-4 5-5 5-6"], {1: "0-4"}, target=0)
    bot = conveyor_strong(cv.INFO, iterations=6)
    advice = bot.advise(state.view(0), Rng(1))
    assert str(advice.action) == "0 draw 3 bottom"
    assert "0-4" in advice.reason and "close" in advice.reason
    state.apply(advice.action)
    for _ in range(6):
        if state.outcome is not None:
            break
        state.apply(bot.choose(state.view(0), Rng(1)))
    assert state.outcome is not None and state.outcome.winners == (0,)


def _window(discard: str, hand1: str) -> tuple[cv.Conveyor, int]:
    """A 3-player jump-in game where seat 0 has just discarded ``discard``; seat 1 holds ``hand1``."""
    hands = [f"{discard} 6-6 0-6", hand1]
    used = {d for hand in hands for d in parse_dominoes(hand)}
    spare = [d for d in double_set(6) if d not in used]
    hands.append(" ".join(map(str, spare[: 21 - len(used)])))
    state = position(hands, {}, conveyors=1, jump_ins=True)
    state.apply(state.parse_action("0 draw 3 top"))
    state.apply(state.parse_action(f"0 discard {discard}"))
    assert state.current_phase() == "jump"
    return state, 1


def test_it_jumps_in_when_the_discard_completes_its_hand() -> None:
    # 5-5 makes 3-5 4-5 5-5 beside 0-1 0-2 0-3: seat 1 closes at once
    state, seat = _window("5-5", "3-5 4-5 0-1 0-2 0-3")
    bot = conveyor_strong(cv.INFO, iterations=6)
    claim = bot.claim(state.view(seat), Rng(1))
    assert claim is not None and str(claim) == "1 jump 5-5"
    advice = bot.advise(state.view(seat), Rng(1))
    assert advice.action == claim and "5-5" in advice.reason


def test_it_lets_a_useless_discard_pass() -> None:
    state, seat = _window("0-5", "0-0 1-6 2-4 3-3 4-6")
    bot = conveyor_strong(cv.INFO, iterations=6)
    assert bot.claim(state.view(seat), Rng(1)) is None
    decline = bot.choose(state.view(seat), Rng(1))
    assert isinstance(decline, cv.Decline)
    assert "pass" in bot.advise(state.view(seat), Rng(1)).reason


def test_claim_is_none_outside_a_window() -> None:
    state, seat = positions(3)[5]
    assert conveyor_strong(cv.INFO, iterations=3).claim(state.view(seat), Rng(1)) is None


@pytest.mark.parametrize("players", [3, 4])
def test_it_plays_whole_games_of_more_players_with_jump_ins(players: int) -> None:
    state = new_game("conveyor", players=players, seed=5, target=0, jump_ins=True)
    bots = [make_bot("strong:iterations=4", "conveyor"), *[make_bot("greedy", "conveyor") for _ in range(players - 1)]]
    rngs = [Rng(s) for s in range(players)]
    for _ in range(5000):
        if state.outcome is not None:
            break
        step(state, bots, rngs)
    assert state.outcome is not None
