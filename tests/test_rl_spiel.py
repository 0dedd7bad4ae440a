"""rummykit's games as OpenSpiel games: registration, the state API, resampling, and OpenSpiel's ISMCTS playing each to the end."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rummykit.engine.rng import Rng  # noqa: E402
from rummykit.records import read_record, write_record  # noqa: E402
from rummykit.rl.spiel import GAMES, game_name, register  # noqa: E402

register()

# one round each, and short drafts so that a whole game stays quick
PARAMS: dict[str, dict[str, Any]] = {
    "rummikub": {"options": "target=none", "draft_steps": 4},
    "two-tray": {"options": "target=none", "draft_steps": 4},
    "domino-rummikub": {"options": "target=none", "draft_steps": 4},
    "conveyor": {"options": "target=0"},
    "mummus": {"options": "target=0"},
}


def load(game: str, **extra: object) -> Any:
    return pyspiel.load_game(game_name(game), {**PARAMS[game], **extra})


class ZeroEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """No rollouts: every leaf is worth 0, every legal action equally likely (keeps the test quick)."""

    def evaluate(self, state: object) -> np.ndarray:
        return np.zeros(state.get_game().num_players())  # type: ignore[attr-defined]

    def prior(self, state: object) -> list[tuple[int, float]]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return [(a, 1.0 / len(legal)) for a in legal]


def test_every_game_is_registered_with_its_action_space_and_players() -> None:
    names = set(pyspiel.registered_names())
    for game in GAMES:
        assert game_name(game) in names
        g = load(game)
        info_type = g.get_type()
        assert info_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert info_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert g.num_players() == 2
        assert g.num_distinct_actions() == g.template.codec.n
    assert load("mummus", players=3).num_players() == 3


def test_a_bad_options_parameter_is_refused_in_words() -> None:
    with pytest.raises(Exception, match="name=value"):
        pyspiel.load_game(game_name("mummus"), {"options": "target"})


def test_the_deal_is_the_chance_node_and_a_seed_gives_the_same_game_as_rummykit() -> None:
    g = load("mummus")
    state = g.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1000 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_action(42)
    from rummykit.catalogue import find_game

    same = find_game("mummus").new(players=2, seed=42, target="0")
    assert state.game_state.snapshot() == same.snapshot()


@pytest.mark.parametrize("game", GAMES)
def test_random_play_through_openspiel_ends_with_a_record_that_replays(game: str) -> None:
    g = load(game, max_steps=4000)
    state = g.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(1)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert player >= 0
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        # the tensor is the seat's own observation and has the game's size
        assert len(state.information_state_tensor(player)) == g.information_state_tensor_size()
        state.apply_action(int(rng.choice(legal)))
        steps += 1
    returns = state.returns()
    engine = state.game_state
    if engine.rounds:
        winners = engine.rounds[-1].winners
        assert returns == [1.0 if s in winners else -1.0 for s in range(2)]
    else:  # stopped by max_steps
        assert returns == [0.0, 0.0]
    assert read_record(write_record(engine)).snapshot() == engine.snapshot()


@pytest.mark.parametrize("game", GAMES)
def test_a_resampled_state_looks_the_same_to_the_seat_and_differs_in_what_it_cannot_see(game: str) -> None:
    g = load(game)
    state = g.new_initial_state()
    state.apply_action(9)
    rng = np.random.default_rng(2)
    differed = 0
    for step in range(120):
        if state.is_terminal():
            break
        player = state.current_player()
        if step % 10 == 0:
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.legal_actions() == state.legal_actions()
            if sample.game_state.snapshot() != state.game_state.snapshot():
                differed += 1
            # the original is untouched
            assert state.game_state is not sample.game_state
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed >= 3


@pytest.mark.parametrize("game", GAMES)
def test_redeal_keeps_every_piece_and_the_seats_view(game: str) -> None:
    from rummykit.catalogue import find_game

    opts = {"target": "0"} if game in ("mummus", "conveyor") else {"target": "none"}
    engine = find_game(game).new(players=2, seed=3, **opts)
    for seat in (0, 1):
        other = engine.redeal_hidden(seat, Rng(7))
        assert other.view(seat) == engine.view(seat)
        assert pieces(other) == pieces(engine)
        assert other.snapshot() != engine.snapshot()
        # what the others hold is dealt anew
        others = [s for s in range(2) if s != seat and engine.view(None)["piece_counts"][s]]
        assert not others or any(other.view(s) != engine.view(s) for s in others)


def pieces(state: object) -> Counter[str]:
    """Every piece of the game wherever it lies, counted by its text (from the full snapshot)."""
    snap = state.snapshot()  # type: ignore[attr-defined]
    words: Counter[str] = Counter()

    def walk(value: object) -> None:
        if isinstance(value, str):
            words[value] += 1
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for key in (
        "pool",
        "racks",
        "trays",
        "hands",
        "stock",
        "discard",
        "columns",
        "belt",
        "grid",
        "table",
        "melds",
    ):
        if key in snap:
            walk(snap[key])
    return words


def test_clone_is_independent() -> None:
    g = load("conveyor")
    state = g.new_initial_state()
    state.apply_action(1)
    before = str(state)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert str(state) == before
    assert str(copy) != before or copy.game_state.snapshot() != state.game_state.snapshot()


@pytest.mark.parametrize("game", GAMES)
def test_openspiels_ismcts_plays_a_whole_game(game: str) -> None:
    g = load(game, max_steps=6000)
    bot = ismcts.ISMCTSBot(
        game=g,
        evaluator=ZeroEvaluator(),
        uct_c=2.0,
        max_simulations=3,
        random_state=np.random.RandomState(4),
        child_selection_policy=ismcts.ChildSelectionPolicy.PUCT,
    )
    state = g.new_initial_state()
    state.apply_action(11)
    rng = np.random.default_rng(3)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            searched += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(int(action))
    assert searched > 0
    assert state.game_state.rounds, f"{game}: stopped by max_steps before the round ended"
