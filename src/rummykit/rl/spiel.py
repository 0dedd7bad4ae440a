"""Every rummykit game as an OpenSpiel game (``pyspiel``), so OpenSpiel's own algorithms run on them.

:func:`register` registers the five games under the names
``python_rummykit_<game>`` (``-`` becomes ``_``): ``python_rummykit_rummikub``,
``python_rummykit_two_tray``, ``python_rummykit_domino_rummikub``,
``python_rummykit_conveyor`` and ``python_rummykit_mummus``. Each is a
sequential game of imperfect information with an explicit chance node at the
start: the **deal**, one outcome per game seed (``deals`` of them, each
equally likely); every later draw follows from that seed, exactly as in a
rummykit game with that seed. The players' decisions are the steps of
:mod:`rummykit.rl`'s PettingZoo environment: the same fixed action space and
encoding (``docs/rl.md``), the same order of turns (out-of-turn offers first,
in ``act_order``), so a policy trained on either plays the other.

* **Parameters** (``pyspiel.load_game("python_rummykit_mummus", {"players": 3})``):
  ``players`` (2), ``deals`` (1000: the chance node's outcomes), ``options``
  (the game's own options as ``name=value`` pairs separated by commas, such as
  ``"target=0"``), ``draft_steps`` (60) and ``max_steps`` (20000: after as many
  decision steps the game stops, every seat scoring 0).
* **Returns** are win/loss: +1 to each winner of the round, -1 to every other
  seat (the game's own scores are in :attr:`RummykitState.scores`); a round is
  one episode.
* **Information state** (string and tensor) is what the seat may know: its
  view of the table (the engine's own view, which hides what the seat may not
  see) and its own decision so far. The tensor is :mod:`rummykit.rl`'s
  observation vector. The observation is the same (the view already carries
  what the seat has been shown, such as the cards seen taken).
* **Resampling** (:meth:`RummykitState.resample_from_infostate`, which
  OpenSpiel's information-set MCTS uses) deals everything the seat cannot see
  anew, at random: the other seats' hidden pieces and the order of the stock
  or pool (conveyor: the face-down cells too), by the engine's
  :meth:`~rummykit.engine.core.GameState.redeal_hidden`. The seat's view is
  the same in the sample.

>>> import pyspiel
>>> from rummykit.rl.spiel import register
>>> register()
>>> game = pyspiel.load_game("python_rummykit_mummus", {"options": "target=0"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)
>>> state.apply_action(7)           # the deal of seed 7
>>> state.current_player()
0
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from rummykit.catalogue import find_game
from rummykit.engine.core import GameState
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError
from rummykit.rl.aec import RummyEnv, render_text
from rummykit.rl.codec import Decision

__all__ = ["GAMES", "RummykitGame", "RummykitState", "game_name", "register"]

GAMES = ("rummikub", "two-tray", "domino-rummikub", "conveyor", "mummus")
"""The games :func:`register` registers."""

RESAMPLE_TRIES = 100
"""Deals tried by :meth:`RummykitState.resample_from_infostate` before it keeps the true one."""

DEALS = 1000
"""The chance node's outcomes by default (game seeds 0 to 999)."""


def game_name(game: str) -> str:
    """The OpenSpiel name of a rummykit game."""
    return "python_rummykit_" + find_game(game).id.replace("-", "_")


def _options(text: str) -> dict[str, str]:
    """``name=value,name=value`` as a dict (the OpenSpiel parameter ``options``)."""
    out: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        if not eq or not name.strip():
            raise OptionError(f"options are name=value pairs separated by commas, not {part!r}")
        out[name.strip()] = value.strip()
    return out


def _game_type(game: str) -> pyspiel.GameType:
    info = find_game(game)
    return pyspiel.GameType(
        short_name=game_name(game),
        long_name=f"rummykit {info.id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": info.min_players,
            "deals": DEALS,
            "options": "",
            "draft_steps": 60,
            "max_steps": 20_000,
        },
    )


class RummykitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One rummykit game with its parameters (see the module's docstring)."""

    GAME = "rummikub"
    """The rummykit game (each registered class sets its own)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(self.GAME)
        defaults = {k: v for k, v in game_type.parameter_specification.items()}
        players = int(params.get("players", defaults["players"]))
        deals = int(params.get("deals", defaults["deals"]))
        if deals < 1:
            raise OptionError(f"deals must be 1 or more, not {deals}")
        self.rummykit_options = _options(str(params.get("options", "")))
        self.draft_steps = int(params.get("draft_steps", 60))
        self.max_steps = int(params.get("max_steps", 20_000))
        self.deals = deals
        # one environment per game: its codec (the action encoding) is shared by every state
        game_options: dict[str, Any] = dict(self.rummykit_options)
        self.template = RummyEnv(
            self.GAME,
            players,
            reward="win",
            max_steps=self.max_steps,
            draft_steps=self.draft_steps,
            **game_options,
        )
        codec = self.template.codec
        game_info = pyspiel.GameInfo(
            num_distinct_actions=codec.n,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.max_steps,
        )
        super().__init__(game_type, game_info, {**defaults, **params})

    def new_initial_state(self) -> RummykitState:
        return RummykitState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RummykitObserver:
        if params:
            raise ValueError(f"the rummykit observer takes no parameters, not {params}")
        return RummykitObserver(self)


def _fresh_env(game: RummykitGame) -> RummyEnv:
    """A copy of the game's template environment, sharing its codec (which no step changes)."""
    env = copy.copy(game.template)
    return env


def _copy_env(env: RummyEnv) -> RummyEnv:
    """An independent copy of an environment in play (the codec and spaces shared, the rest copied)."""
    memo: dict[int, Any] = {
        id(env.codec): env.codec,
        id(env.observation_spaces): env.observation_spaces,
        id(env.action_spaces): env.action_spaces,
    }
    state = env.state_
    other = copy.copy(env)
    for name, value in vars(env).items():
        if name in ("codec", "observation_spaces", "action_spaces", "state_", "_views", "_mask", "_mask_key"):
            continue
        setattr(other, name, copy.deepcopy(value, memo))
    other.state_ = state.copy()
    other._views = {}
    other._mask_key = (-1, -1)
    other._mask = env._mask.copy()
    return other


class RummykitState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A position of a rummykit game for OpenSpiel: the deal to come, or the environment in play."""

    def __init__(self, game: RummykitGame, env: RummyEnv | None = None) -> None:
        super().__init__(game)
        self.rummykit_game = game
        self.env = env

    # -- the OpenSpiel state ------------------------------------------------------------

    def current_player(self) -> int:
        env = self.env
        if env is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return env.agent_seat[env.agent_selection]

    def _legal_actions(self, player: int) -> list[int]:
        env = self.env
        assert env is not None and player == self.current_player()
        return [int(i) for i in np.flatnonzero(env.action_mask())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.rummykit_game.deals
        return [(seed, p) for seed in range(self.rummykit_game.deals)]

    def _apply_action(self, action: int) -> None:
        if self.env is None:
            env = _fresh_env(self.rummykit_game)
            env.reset(seed=int(action))
            self.env = env
        else:
            self.env.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.rummykit_game.template.codec.meaning(int(action))

    def is_terminal(self) -> bool:
        env = self.env
        if env is None:
            return False
        return any(env.terminations.values()) or any(env.truncations.values())

    def returns(self) -> list[float]:
        n = self.rummykit_game.num_players()
        env = self.env
        if env is None or not self.is_terminal():
            return [0.0] * n
        state = env.state_
        if not state.rounds:  # stopped by max_steps
            return [0.0] * n
        winners = state.rounds[-1].winners
        return [1.0 if seat in winners else -1.0 for seat in range(n)]

    @property
    def scores(self) -> tuple[int, ...]:
        """The game's own scores of the round, once it has ended (empty before)."""
        env = self.env
        if env is None or not env.state_.rounds:
            return ()
        return tuple(env.state_.rounds[-1].scores)

    @property
    def game_state(self) -> GameState | None:
        """The engine state (hidden parts included: for tools and tests, not for agents)."""
        return None if self.env is None else self.env.state_

    def __str__(self) -> str:
        if self.env is None:
            return f"{self.rummykit_game.GAME}: the deal to come"
        return render_text(self.env)

    def __deepcopy__(self, memo: dict[int, Any]) -> RummykitState:
        return RummykitState(self.rummykit_game, None if self.env is None else _copy_env(self.env))

    def clone(self) -> RummykitState:
        return self.__deepcopy__({})

    # -- information sets -----------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> RummykitState:
        """A state the seat cannot tell from this one: everything it cannot see dealt anew at random.

        The randomness comes from ``probability_sampler`` when it is a callable
        returning a float in [0, 1) (OpenSpiel's ``UniformProbabilitySampler``), else from
        numpy's global generator.
        """
        if self.env is None:
            return self.clone()
        draw = probability_sampler() if callable(probability_sampler) else np.random.random()
        rng = Rng(int(float(draw) * 2**62))
        other = self.clone()
        assert other.env is not None
        state = self.env.state_
        view = state.view(player_id)
        for _ in range(RESAMPLE_TRIES):
            sample = state.redeal_hidden(player_id, rng)
            if sample.view(player_id) == view:
                break
        else:  # no deal found that the seat cannot tell apart: keep the true one
            sample = state.copy()
        other.env.state_ = sample
        other.env._views = {}
        return other


def _decision_text(d: Decision | None) -> str:
    """The seat's own decision so far, as text (part of its information state)."""
    if d is None:
        return "-"
    parts: dict[str, Any] = {"claim": d.claim, "prefix": list(d.prefix), "steps": d.steps}
    if d.sets:
        parts["sets"] = sorted(" ".join(map(str, s)) for s in d.sets)
        parts["loose"] = d.loose.tolist()
        parts["rack"] = d.rack.tolist()
    if d.cells:
        parts["cells"] = sorted(f"{r},{c}={t}" for (r, c), t in d.cells.items())
        parts["trays"] = {k: v.tolist() for k, v in sorted(d.trays.items())}
        parts["held"] = None if d.held is None else [d.held[0], d.held[1], list(d.held[2])]
        parts["tray_used"] = d.tray_used
    return json.dumps(parts, sort_keys=True)


class RummykitObserver:
    """OpenSpiel's observer: the seat's view and its own decision (string), the rl observation (tensor)."""

    def __init__(self, game: RummykitGame) -> None:
        self.game = game
        size = game.template.codec.layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummykitState, player: int) -> None:
        env = state.env
        if env is None:
            self.tensor.fill(0)
            return
        d = env.decision if env.decision is not None and env.decision.seat == player else None
        self.tensor[:] = env.codec.observe(env.state_.view(player), d)

    def string_from(self, state: RummykitState, player: int) -> str:
        env = state.env
        if env is None:
            return f"player {player}: the deal to come"
        d = env.decision if env.decision is not None and env.decision.seat == player else None
        view = json.dumps(env.state_.view(player), sort_keys=True)
        return f"player {player} {view} {_decision_text(d)}"


def _game_class(game: str) -> type[RummykitGame]:
    info = find_game(game)
    return type(f"Rummykit{info.id.title().replace('-', '')}Game", (RummykitGame,), {"GAME": info.id})


_REGISTERED: set[str] = set()


def register(games: Sequence[str] = GAMES) -> None:
    """Register the games with OpenSpiel (once per process; later calls do nothing)."""
    for game in games:
        name = game_name(game)
        if name in _REGISTERED or name in pyspiel.registered_names():
            _REGISTERED.add(name)
            continue
        pyspiel.register_game(_game_type(game), _game_class(game))
        _REGISTERED.add(name)
