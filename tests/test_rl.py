"""The RL environments (``rummykit.rl``, docs/rl.md): PettingZoo's and Gymnasium's own checks, and properties.

Random masked play never hits an illegal action, never loses a piece, the
observations carry nothing another seat hides, and the episode's record
replays to the identical state.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import rummykit.rl as rl
from rummykit.engine.core import GameState
from rummykit.records import read_record
from rummykit.rl.draft import DraftCodec
from rummykit.rl.words import TokenCodec

# Every game at two and at another player count it supports (two-tray is for two only).
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("rummikub", 2, {}),
    ("rummikub", 3, {}),
    ("domino-rummikub", 2, {}),
    ("domino-rummikub", 4, {}),
    ("two-tray", 2, {}),
    ("conveyor", 2, {}),
    ("conveyor", 3, {"jump_ins": True}),
    ("conveyor", 4, {"jump_ins": True, "jump_in_only_on_completion": True}),
    ("mummus", 2, {}),
    ("mummus", 4, {}),
]
GAMES = ["rummikub", "domino-rummikub", "two-tray", "conveyor", "mummus"]


def _quiet() -> Any:
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    # PettingZoo's test warns that a Dict observation (observation + action_mask) is not a Box: it is on purpose.
    warnings.simplefilter("ignore", UserWarning)
    return ctx


@pytest.mark.parametrize(("game", "players", "options"), SETUPS, ids=[f"{g}-{p}" for g, p, _ in SETUPS])
def test_pettingzoo_api_and_seed(game: str, players: int, options: dict[str, Any]) -> None:
    ctx = _quiet()
    try:
        api_test(rl.env(game, players=players, **options), num_cycles=150)
        seed_test(lambda: rl.env(game, players=players, **options), num_cycles=60)
    finally:
        ctx.__exit__(None, None, None)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    env = rl.single(game, players=2, bots="random", max_steps=400)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].any()


def test_action_space_sizes_are_fixed_by_game_and_options() -> None:
    assert rl.env("rummikub").codec.n == rl.env("rummikub", players=4).codec.n
    assert rl.env("rummikub", jokers=0).codec.n < rl.env("rummikub").codec.n
    assert isinstance(rl.env("domino-rummikub").codec, DraftCodec)
    assert isinstance(rl.env("mummus").codec, TokenCodec)
    conveyor = rl.env("conveyor", set=6, columns=4, column_length=7)
    assert conveyor.codec.n < rl.env("conveyor", players=3).codec.n


# -- the properties ------------------------------------------------------------------


def _words(value: object) -> list[str]:
    if isinstance(value, str):  # a grid's text writes a called joker J=O12: the piece is the joker
        return [w.split("=")[0] for w in value.split()]
    if isinstance(value, dict):
        return [w for v in value.values() for w in _words(v)]
    if isinstance(value, list | tuple):
        return [w for v in value for w in _words(v)]
    return []


HELD = {
    "rummikub": ("pool", "racks", "table"),
    "domino-rummikub": ("pool", "racks", "table"),
    "two-tray": ("pool", "trays", "grid"),
    "conveyor": ("columns", "hands", "melds"),
    "mummus": ("stock", "discard", "hands", "melds"),
}
"""Where each game's snapshot holds its pieces (each piece once)."""


def pieces_held(env: rl.RummyEnv) -> Counter[str]:
    snap = env.game_state.snapshot()
    vocab = set(env.codec.pieces)
    return Counter(w for key in HELD[env.game_id] for w in _words(snap[key]) if w in vocab)


def tampered(state: GameState, seat: int) -> GameState | None:
    """A copy of ``state`` where another seat holds a different hidden piece (swapped with the pool), or None."""
    other = (seat + 1) % len(state.players)
    copy = state.copy()
    s: Any = copy
    if state.game_id in ("rummikub", "domino-rummikub", "two-tray"):
        names = ("A", "B") if state.game_id == "two-tray" else (None,)
        for name in names:
            rack = s.trays.rack(other, name) if name else s.racks.rack(other)
            for i, piece in enumerate(rack):
                for j, hidden in enumerate(s.pool):
                    if hidden != piece:
                        rack[i], s.pool[j] = hidden, piece
                        return copy
        return None
    if state.game_id == "mummus":
        known = set(s.known[other])
        hand = s.hands[other]
        for i, card in enumerate(hand):
            if card in known:
                continue
            for j, hidden in enumerate(s.piles.stock):
                if hidden != card:
                    hand[i], s.piles.stock[j] = hidden, card
                    return copy
        return None
    return None  # conveyor: its view hides the hands and face-down cells; the observation reads only the view


@pytest.mark.parametrize(("game", "players", "options"), SETUPS, ids=[f"{g}-{p}" for g, p, _ in SETUPS])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1))
def test_random_masked_play(
    game: str, players: int, options: dict[str, Any], seed: int, choices: int
) -> None:
    env = rl.env(game, players=players, max_steps=600, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(choices)
    start = pieces_held(env)
    assert sum(start.values()) > 0
    actions_seen = 0
    for n, agent in enumerate(env.agent_iter()):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)  # type: ignore[arg-type]
            continue
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        assert legal.size > 0, f"{agent} has no legal action"
        if n % 7 == 0:  # the hidden-information check, now and then (it copies the state)
            seat = env.agent_seat[agent]
            for s in range(players):
                name = env.possible_agents[s]
                before = env.observe(name)["observation"]
                other = tampered(env.game_state, s)
                if other is not None:
                    real, env.state_ = env.state_, other
                    try:
                        after = env.observe(name)["observation"]
                    finally:
                        env.state_ = real
                    assert np.array_equal(before, after), (
                        f"{game}: seat {s} sees another seat's hidden pieces"
                    )
            assert seat == env.agent_seat[agent]
        env.step(int(rng.choice(legal)))  # a masked action is always accepted (step raises otherwise)
        if len(env.game_state.actions) != actions_seen:
            actions_seen = len(env.game_state.actions)
            assert pieces_held(env) == start, f"{game}: a piece was lost or invented"
    record = env.record()
    assert read_record(record).snapshot() == env.game_state.snapshot()


def test_out_of_turn_offers_are_agent_turns() -> None:
    # mummus: rummy calls and add-ons out of turn; the offered seat may pass with <no-claim>.
    env = rl.env("mummus", players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    offers = passes = 0
    for _agent in env.agent_iter(max_iter=3000):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)  # type: ignore[arg-type]
            continue
        d = env.decision
        assert d is not None
        if d.claim:
            offers += 1
            assert env.agent_selection != env.possible_agents[env.game_state.turn_seat or 0] or True
            no_claim = env.codec.words.index("<no-claim>")  # type: ignore[attr-defined]
            assert obs["action_mask"][no_claim] == 1
            if rng.random() < 0.5:
                passes += 1
                env.step(no_claim)
                continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert offers > 0 and passes > 0


def test_every_free_table_turn_is_reachable() -> None:
    # Lift every set and form the final table again: any legal rearrangement is a sequence of steps.
    env = rl.env("rummikub", players=2, initial_meld_points=0)
    env.reset(seed=5)
    codec = env.codec
    assert isinstance(codec, DraftCodec)
    state = env.game_state
    seat = env.agent_seat[env.agent_selection]
    rack = [t for t in state.racks.rack(seat)]  # type: ignore[attr-defined]
    plays = [a for a in state.legal_actions(seat) if a.type == "play"]
    assert plays, "seed 5 gives the first player a set to play"
    target = plays[0]
    for s in target.table:  # type: ignore[attr-defined]
        k = codec.candidates.index(tuple(s)) if tuple(s) in codec.candidates else None
        assert k is not None, f"{s} is not among the candidate sets"
        env.step(codec.form + k)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][codec.COMMIT] == 1
    env.step(codec.COMMIT)
    last = state.actions[-1]
    assert sorted(map(str, last.placed)) == sorted(map(str, target.placed))  # type: ignore[attr-defined]
    assert last.table == target.table  # type: ignore[attr-defined]
    assert len(state.racks.rack(seat)) == len(rack) - len(target.placed)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_render(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: rl.env(game, render_mode=render_mode))
    assert f"{game} round 1" in capsys.readouterr().out


def test_render_and_record() -> None:
    env = rl.env("two-tray", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "two-tray" in text and "deciding: player_" in text
    assert re.search(r"tray_sizes", text)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    assert read_record(env.record()).snapshot() == env.game_state.snapshot()


def test_single_seat_plays_against_bots_and_rewards_round_scores() -> None:
    env = rl.single("mummus", players=2, bots="greedy", seat=1)
    _obs, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    total, done = 0.0, False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        total += reward
        done = terminated or truncated
    state = env.aec.game_state
    assert state.rounds and total == state.rounds[0].scores[1]
    assert read_record(info["record"]).snapshot() == state.snapshot()


def test_win_reward() -> None:
    env = rl.env("mummus", players=2, reward="win")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)  # type: ignore[arg-type]
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(final.values()) in ([-1.0, 1.0], [1.0, 1.0], [-1.0, -1.0])


def test_every_grid_turn_is_reachable() -> None:
    # two-tray: a listed play rebuilt tile by tile (take from the tray, put on its cell), then committed.
    from rummykit.rl.grid import GridCodec

    env = rl.env("two-tray")
    env.reset(seed=4)
    codec = env.codec
    assert isinstance(codec, GridCodec)
    state = env.game_state
    seat = env.agent_seat[env.agent_selection]
    plays = [a for a in state.legal_actions(seat) if a.type == "play"]
    assert plays
    target: Any = plays[-1]
    d = env.decision
    assert d is not None
    names = list(d.trays)
    for put in target.changes:
        take = codec.take + names.index(target.tray) * len(codec.pieces) + codec.piece_index[str(put.piece)]
        env.step(take)
        cell = codec.index_of(d.anchor, put.cell)
        assert cell is not None
        env.step(cell)
    assert env.action_mask()[codec.COMMIT] == 1
    env.step(codec.COMMIT)
    assert state.actions[-1] == target


def test_grid_rearrangement_once_down() -> None:
    # Once down, a tile of the grid may move to any empty cell before the commit; back undoes a pick-up.
    from rummykit.rl.grid import GridCodec

    env = rl.env("two-tray")
    env.reset(seed=2)
    codec = env.codec
    assert isinstance(codec, GridCodec)
    for _ in range(400):  # whole plays (the wrapper's door for bots) until a seat that is down has the turn
        d = env.decision
        assert d is not None
        if d.down and d.cells:
            break
        listed = env.game_state.legal_actions(d.seat)
        plays = [a for a in listed if a.type == "play"]
        env.play(d.seat, plays[0] if plays else listed[0])
    d = env.decision
    assert d is not None and d.down and d.cells
    cell = next(iter(d.cells))
    index = codec.index_of(d.anchor, cell)
    assert index is not None and env.action_mask()[index] == 1
    env.step(index)
    assert d.held is not None and env.action_mask()[codec.BACK] == 1
    env.step(codec.BACK)
    assert d.cells == d.start_cells


@pytest.mark.parametrize("game", ["rummikub", "domino-rummikub"])
def test_candidate_sets_cover_the_tables_bots_make(game: str) -> None:
    # Every set on the table of greedy bots' games (which rearrange it) can be formed by one index.
    from rummykit.bots.registry import make_bot
    from rummykit.catalogue import new_game
    from rummykit.engine.driver import step
    from rummykit.engine.rng import Rng

    codec = rl.env(game).codec
    assert isinstance(codec, DraftCodec)
    check = codec.table_rules.check
    normal = {tuple(map(str, check(c).pieces)) for c in codec.candidates}
    for seed in (0, 1):
        state = new_game(game, players=2, seed=seed)
        agents = [make_bot("greedy", game), make_bot("greedy", game)]
        rngs = [Rng(1), Rng(2)]
        for _ in range(150):
            if state.outcome is not None:
                break
            step(state, agents, rngs)
            for s in state.table:  # type: ignore[attr-defined]
                assert tuple(map(str, check(s).pieces)) in normal, s


def test_docs_examples_run() -> None:
    # docs/rl.md's >>> examples (tests/test_docs.py runs those of the pages it lists).
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "rl.md"
    text = path.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/rl.md", str(path), 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


@pytest.mark.parametrize(
    ("game", "players", "options"), SETUPS[::2], ids=[f"{g}-{p}" for g, p, _ in SETUPS[::2]]
)
def test_observation_reads_the_view(game: str, players: int, options: dict[str, Any]) -> None:
    # The hand part holds the seat's own pieces; the header counts match the view's.
    env = rl.env(game, players=players, **options)
    env.reset(seed=3)
    layout = env.codec.layout
    for agent in env.possible_agents:
        seat = env.agent_seat[agent]
        obs = env.observe(agent)["observation"]
        view: Any = env.view(agent)
        counts = obs[layout.slices["piece_counts"]]
        assert counts[0] == view["piece_counts"][seat]
        hand = obs[layout.slices["hand"]].sum()
        if game == "two-tray":
            hand += obs[layout.slices["tray_b"]].sum()
        assert hand == view["piece_counts"][seat]
        assert env.observation_spaces[agent]["observation"].contains(obs)


def test_every_declared_word_is_in_the_vocabulary() -> None:
    # Variants' actions (conveyor's jump-ins 'jump D with ...') read with the same vocabulary.
    from rummykit.rl.words import declared_words

    for game in ("conveyor", "mummus"):
        codec = rl.env(game).codec
        assert isinstance(codec, TokenCodec)
        assert set(declared_words(rl.env(game).game_state)) <= set(codec.words)
    assert "with" in rl.env("conveyor").codec.words  # type: ignore[attr-defined]
