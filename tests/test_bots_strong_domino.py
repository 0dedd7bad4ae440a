"""domino-rummikub's ``strong`` bot: its plays, its jokers, views only, determinism, legality and advice."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import rummykit
from rummykit.bots.domino_strong import DEFAULT_PASSES, DominoStrongBot, domino_strong_bot, plan_play
from rummykit.bots.registry import bot_levels, make_bot
from rummykit.bots.strong import Advisor, Budget
from rummykit.catalogue import find_game
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets.domino_rummikub import (
    EXACTLY_3,
    MELDS,
    DominoRummikub,
    Draw,
    Pass,
    Play,
    from_position,
)
from rummykit.rulesets.freetable import free_table_view
from rummykit.sim import run_bots

GAME = "domino-rummikub"


def bot(**budget: int) -> DominoStrongBot:
    """The default budget as iterations alone: no time cap, so a loaded machine cannot change a choice."""
    return domino_strong_bot(find_game(GAME), **({"iterations": DEFAULT_PASSES} | budget))


def table_of(text: str) -> list[tuple[Domino, ...]]:
    return [tuple(parse_dominoes(s)) for s in text.split("|")] if text else []


def placed(action: object) -> list[str]:
    assert isinstance(action, Play), action
    return sorted(str(d) for d in action.placed)


# -- hand-made positions ------------------------------------------------------


def test_plays_its_starting_group_and_goes_down() -> None:
    state = from_position("racks: 5-3 5-4 5-5 1-2 / 2-2 1-1; pool: seed 1; down: 00")
    action = bot().choose(state.view(0), Rng(0))
    assert placed(action) == ["3-5", "4-5", "5-5"]
    state.apply(action)
    assert state.view(None)["down"][0]


def test_its_starting_group_keeps_the_joker_and_sheds_the_most_spots() -> None:
    # 1-2 1-3 0-0 (a joker) and 4-3 5-2 6-1 (7 each) are both starting groups
    state = from_position("racks: 1-2 1-3 0-0 4-3 5-2 6-1 / 2-2; pool: seed 1; down: 00")
    assert placed(bot().choose(state.view(0), Rng(0))) == ["1-6", "2-5", "3-4"]


def test_draws_without_a_starting_group_and_passes_when_the_boneyard_is_empty() -> None:
    state = from_position("racks: 5-3 1-4 2-2 / 2-3 1-1; pool: seed 1; down: 00")
    assert isinstance(bot().choose(state.view(0), Rng(0)), Draw)
    state = from_position("table: 5-3 5-4 5-5; racks: 1-1 / 2-3; pool: ; down: 11")
    assert isinstance(bot().choose(state.view(0), Rng(0)), Pass)


def test_rearranges_the_table_to_place_more() -> None:
    # 3-6 and 4-6 make no set alone, nor grow the run of fives; with the run's 5-6 they make a run of sixes
    state = from_position("table: 3-5 4-5 5-5 5-6; racks: 3-6 4-6 1-1 / 1-2; pool: seed 2; down: 11")
    action = bot().choose(state.view(0), Rng(0))
    assert placed(action) == ["3-6", "4-6"]
    state.apply(action)  # the engine accepts the rearranged table
    assert sorted(" ".join(s) for s in state.view(0)["table"]) == ["3-5 4-5 5-5", "3-6 4-6 5-6"]


def test_keeps_a_joker_that_would_only_place_itself() -> None:
    table = table_of("3-5 4-5 5-5")
    plan = plan_play(table, parse_dominoes("0-0 1-2"), down=True, size_rule=EXACTLY_3)
    assert plan.solution is None and [str(d) for d in plan.jokers_kept] == ["0-0"]
    plan = plan_play(table, parse_dominoes("0-0 5-6 1-2"), down=True, size_rule=EXACTLY_3)
    assert plan.solution is not None and [str(d) for d in plan.solution.placed] == ["5-6"]


def test_spends_a_joker_that_places_more_and_to_go_out() -> None:
    table = table_of("3-5 4-5 5-5")
    plan = plan_play(table, parse_dominoes("0-0 1-1 1-2 3-3"), down=True, size_rule=EXACTLY_3)
    assert plan.solution is not None and sorted(map(str, plan.solution.placed)) == ["0-0", "1-1", "1-2"]
    plan = plan_play(table, parse_dominoes("0-0"), down=True, size_rule=EXACTLY_3)
    assert plan.solution is not None and [str(d) for d in plan.solution.placed] == ["0-0"]  # the last domino


# -- views only, determinism, legality -------------------------------------------


def positions(count: int, seed: int) -> list[DominoRummikub]:
    """Mid-game states (two to four seats), reached by greedy bots."""
    rng = Rng(seed)
    found: list[DominoRummikub] = []
    game = 0
    while len(found) < count:
        game += 1
        players = 2 + game % 3
        state = rummykit.new_game(GAME, players=players, seed=seed * 100 + game, target="none")
        bots = [make_bot("greedy", GAME) for _ in range(players)]
        rngs = [Rng(k) for k in range(players)]
        for _ in range(rng.below(20 * players) + 1):
            if state.outcome is not None:
                break
            step(state, bots, rngs)
        if state.outcome is None:
            assert isinstance(state, DominoRummikub)
            found.append(state)
    return found


def test_the_choice_is_the_same_when_the_hidden_dominoes_are_shuffled() -> None:
    rng = Rng(5)
    checked = 0
    for state in positions(12, seed=1):
        seat = state.view(None)["turn"]
        assert isinstance(seat, int)
        view = state.view(seat)
        chosen = bot(iterations=3).choose(view, Rng(1))
        for _ in range(3):
            other = state.redeal_hidden(seat, rng)  # the other racks and the boneyard's order dealt anew
            assert other.view(seat) == view
            assert other.snapshot() != state.snapshot()
            assert bot(iterations=3).choose(other.view(seat), Rng(2)) == chosen
        checked += 1
    assert checked == 12


def test_the_same_view_gives_the_same_action() -> None:
    for state in positions(8, seed=2):
        seat = state.view(None)["turn"]
        assert isinstance(seat, int)
        view = state.view(seat)
        first = bot(iterations=3).choose(view, Rng(7))
        assert all(bot(iterations=3).choose(view, Rng(7)) == first for _ in range(2))


def test_every_play_is_legal_in_many_positions() -> None:
    plays = 0
    for state in positions(30, seed=3):
        seat = state.view(None)["turn"]
        assert isinstance(seat, int)
        strong = bot()
        action = strong.choose(state.view(seat), Rng(0))
        copy = state.copy()
        assert copy.is_legal(action)
        copy.apply(action)  # raises on an illegal action
        assert strong.fallbacks == 0
        if isinstance(action, Play):
            plays += 1
            assert all(MELDS.check(tuple(parse_dominoes(s))).valid for s in free_table_view(copy.view(None))["table"])
    assert plays >= 5


def test_whole_games_against_greedy_are_legal_and_keep_every_domino() -> None:
    for seed, options in ((3, {}), (4, {"starting_group_size": "3-or-more"})):
        strong = bot()
        state = rummykit.new_game(GAME, players=2, seed=seed, target="none", **options)
        total = Counter(state.snapshot()["pool"]) + sum((Counter(r) for r in state.snapshot()["racks"]), Counter())
        run_bots(state, [strong, make_bot("greedy", GAME)])
        assert state.outcome is not None
        assert strong.fallbacks == 0
        snap = state.snapshot()
        end = Counter(snap["pool"]) + sum((Counter(r) for r in snap["racks"]), Counter())
        end += sum((Counter(s) for s in snap["table"]), Counter())
        assert end == total


# -- advice and the registry ----------------------------------------------------


def test_advise_names_the_chosen_action_with_its_reason() -> None:
    seen = set()
    for state in positions(15, seed=4):
        seat = state.view(None)["turn"]
        assert isinstance(seat, int)
        view = state.view(seat)
        strong = bot()
        assert isinstance(strong, Advisor)
        advice = strong.advise(view, Rng(0))
        assert advice.action == strong.choose(view, Rng(0))
        assert advice.reason and advice.exact is not None
        if isinstance(advice.action, Play):
            n = len(advice.action.placed)
            assert re.search(rf"\b{n} domino", advice.reason), advice.reason
            seen.add("play")
        else:
            assert advice.reason.endswith(("draw", "pass")), advice.reason
            seen.add("draw")
    assert seen == {"play", "draw"}


def test_advice_on_a_rearranged_table_lists_its_steps() -> None:
    state = from_position("table: 3-5 4-5 5-5 5-6; racks: 3-6 4-6 1-1 / 1-2; pool: seed 2; down: 11")
    advice = bot().advise(state.view(0), Rng(0))
    assert advice.reason.startswith("it places 2 dominoes worth 19 points"), advice.reason
    assert "leaving 1 domino in the rack" in advice.reason
    assert len(advice.steps) >= 2 and advice.exact is True
    assert any("5-6" in step for step in advice.steps), advice.steps


def test_make_bot_reads_the_budget() -> None:
    assert "strong" in bot_levels(GAME)
    strong = make_bot("strong:iterations=3", GAME)
    assert isinstance(strong, DominoStrongBot)
    assert strong.budget == Budget(3, None)
    default = make_bot("strong", GAME)
    assert isinstance(default, DominoStrongBot) and default.budget.iterations == DEFAULT_PASSES
    state = from_position("racks: 5-3 5-4 5-5 1-2 / 2-2; pool: seed 1; down: 00")
    assert isinstance(strong.choose(state.view(0), Rng(0)), Play)


def test_it_plays_domino_rummikub_only() -> None:
    with pytest.raises(rummykit.errors.OptionError):
        domino_strong_bot(find_game("rummikub"))
