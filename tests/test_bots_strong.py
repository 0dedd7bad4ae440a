"""The ``strong`` level shared by every game: its settings, its budget, its advice as hints.

Each game's own strong bot has its own tests (``test_bots_strong_<game>.py``);
here is what all of them share, checked in every game.
"""

from __future__ import annotations

import time

import pytest

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.bots.strong import Advisor, Budget, settings_of
from rummykit.catalogue import new_game
from rummykit.engine.core import GameState
from rummykit.engine.driver import next_seat, step
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError
from rummykit.presenters.advice import advice, advice_lines
from rummykit.presenters.registry import presenter_for
from rummykit.rulesets.rummikub import Draw, Play, from_position
from rummykit.study.runner import make_study

GAMES = ("rummikub", "domino-rummikub", "conveyor", "two-tray", "mummus")


def test_settings_are_read_and_checked() -> None:
    assert settings_of("Strong:Iterations=7") == ("strong", {"iterations": "7"})
    assert make_bot("strong:iterations=7", "rummikub").budget == Budget(7, None)  # type: ignore[attr-defined]
    assert make_bot("strong:think=0.25", "rummikub").budget.think == 0.25  # type: ignore[attr-defined]
    assert make_bot("strong", "rummikub").budget == Budget(1, 1.0)  # type: ignore[attr-defined]
    for bad, words in [
        ("strong:iterations=0", "iterations must be 1 or more"),
        ("strong:iterations=many", "iterations must be a whole number"),
        ("strong:think=-1", "think must be a number of seconds above 0"),
        ("strong:think=soon", "think must be a number of seconds"),
        ("strong:depth=3", "has no setting 'depth'"),
        ("strong:fast", "written name=value"),
        ("greedy:iterations=3", "the greedy bot takes no settings"),
        ("clever", "unknown bot level 'clever'"),
    ]:
        with pytest.raises(OptionError, match=words):
            make_bot(bad, "rummikub")


def test_a_clock_stops_at_its_iterations_or_its_time() -> None:
    clock = Budget(5, None).start()
    assert sum(1 for _ in iter(clock.more, False)) == 5
    capped = Budget(10**9, 0.05).start()
    began = time.perf_counter()
    while capped.more():
        time.sleep(0.01)
    assert 1 <= capped.used < 10**9 and time.perf_counter() - began < 5  # it stopped on time, not on count


def test_a_study_takes_a_strong_bot_with_its_settings() -> None:
    study = make_study("rummikub", bots=["strong:iterations=2", "greedy"], games=2, seed=1)
    assert study.levels == ("strong:iterations=2", "greedy")
    with pytest.raises(OptionError, match="iterations must be 1 or more"):
        make_study("rummikub", bots=["strong:iterations=0", "greedy"], games=2, seed=1)
    with pytest.raises(OptionError, match="no 'wise' bot"):
        make_study("rummikub", bots=["wise", "greedy"], games=2, seed=1)


def test_rummikub_strong_is_the_solver_and_says_why() -> None:
    state = from_position("racks: K10 B10 O10 R2 / B1 B2; pool: seed 1; down: 00")
    bot = make_bot("strong", "rummikub")
    assert isinstance(bot, Advisor)
    found = bot.advise(state.view(0), Rng(0))
    assert isinstance(found.action, Play) and found.action == bot.choose(state.view(0), Rng(0))
    assert "3 tiles worth 30 points" in found.reason and found.exact is True
    drawn = from_position("racks: K10 B10 O9 R2 / B1 B2; pool: seed 1; down: 00")
    found = bot.advise(drawn.view(0), Rng(0))
    assert isinstance(found.action, Draw) and "no initial meld of 30 points" in found.reason


def mid_game(game: str, steps: int) -> GameState:
    """A two-player game played ``steps`` actions by greedy bots (or less if it ends first)."""
    state = new_game(game, players=2, seed=11)
    agents = [make_bot("greedy", game), make_bot("greedy", game)]
    rngs = [Rng(1), Rng(2)]
    for _ in range(steps):
        if state.outcome is not None or next_seat(state) is None:
            break
        step(state, agents, rngs)
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_strong_bot_and_a_hint(game: str) -> None:
    assert "strong" in bot_levels(game)
    assert presenter_for(game).hint
    for steps in (0, 6, 15):
        state = mid_game(game, steps)
        seat = next_seat(state)
        if state.outcome is not None or seat is None:
            continue
        view = state.view(seat)
        found = advice(game, view)
        assert found.action.player == seat and found.reason
        before = state.snapshot()
        trial = state.copy()
        trial.apply(found.action)  # the advice is a legal action of the seat now
        assert state.snapshot() == before  # and asking for it changed nothing
        lines = advice_lines(game, view)
        assert lines[0].startswith("hint: ") and lines[1].startswith("  why: ")
