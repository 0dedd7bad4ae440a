"""The PettingZoo AEC environment of every rummykit game (``rummykit.rl.env``).

One agent per seat (``player_0`` ...). Who acts next follows the step driver
(:mod:`rummykit.engine.driver`): seats that *may* act out of turn (a
conveyor jump-in, a mummus rummy call or add-on) are offered the chance
first, in ``act_order``, each as a proper agent turn whose mask includes
``<no-claim>``; a seat that passes is not asked again until the position
changes. Then the seat that must act chooses. A decision may take several
agent steps (a free-table draft, or the words of one action); the same agent
stays selected until its action is complete.

Rewards are the game's own round scores, given to every seat when a round
ends (``reward="win"``: +1 to each winner, -1 to every other seat). An
episode is one round unless ``match=True`` (the whole match).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rummykit.catalogue import find_game
from rummykit.engine.core import Action, GameState
from rummykit.engine.driver import claims_open, next_seat
from rummykit.records import write_record
from rummykit.rl.codec import LIMIT, PENDING, Codec, Decision, MaskArray, make_codec

__all__ = ["RummyEnv"]

ObsDict = dict[str, Any]


class RummyEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """A rummykit game as a PettingZoo AEC environment (see the module's docstring and ``docs/rl.md``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 2,
        *,
        reward: str = "score",
        match: bool = False,
        max_steps: int | None = 20_000,
        draft_steps: int = 60,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        info = find_game(game)
        if reward not in ("score", "win"):
            raise ValueError(f"reward is 'score' or 'win', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game_id = info.id
        self.n_players = players
        self.options = dict(options)
        self.reward_kind = reward
        self.whole_match = match
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rummykit_{info.id.replace('-', '_')}_v0"}
        probe = info.new(players=players, seed=0, **options)
        self.codec: Codec = make_codec(probe, draft_steps=draft_steps)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.codec.n
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-LIMIT, LIMIT, (self.codec.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_: GameState = probe
        self.decision: Decision | None = None
        self._declined: set[int] = set()
        self._declined_at = -1
        self.steps = 0
        self.seed_used = 0
        self._mask: MaskArray = np.zeros(self.codec.n, np.int8)
        self._mask_key: tuple[int, int] = (-1, -1)
        self._views: dict[tuple[int, int, int], Mapping[str, Any]] = {}
        self.agents: list[str] = []

    # -- spaces -----------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = secrets.randbelow(2**31)
        self.seed_used = seed
        self.state_ = find_game(self.game_id).new(players=self.n_players, seed=seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.decision = None
        self._declined = set()
        self._declined_at = -1
        self.steps = 0
        self._mask_key = (-1, -1)
        self._views = {}
        self._rounds_seen = 0
        self._select()

    @property
    def game_state(self) -> GameState:
        """The engine state (everything, hidden parts included: for tests and tools, not for agents)."""
        return self.state_

    def _select(self) -> None:
        """Pick the next decision by the driver's rule and select its agent."""
        state = self.state_
        pos = len(state.actions)
        if self.decision is not None and self.decision.position == pos:
            return
        if pos != self._declined_at:
            self._declined, self._declined_at = set(), pos
        seat: int | None = None
        claim = False
        if state.may_act:
            for s in claims_open(state):
                if s not in self._declined and state.legal_actions(s):
                    seat, claim = s, True
                    break
        if seat is None:
            seat = next_seat(state)
        if seat is None:  # over: keep the last agent selected
            self.decision = None
            return
        self.decision = self.codec.begin(state, seat, claim)
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> ObsDict:
        seat = self.agent_seat[agent]
        d = self.decision if self.decision is not None and self.decision.seat == seat else None
        obs = self.codec.observe(self._view(seat), d)
        if d is not None and agent == self.agent_selection:
            mask = self.action_mask().copy()
        else:
            mask = np.zeros(self.codec.n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def _view(self, seat: int) -> Mapping[str, Any]:
        """The seat's view, made once per position (a decision's steps do not change the state)."""
        key = (id(self.state_), len(self.state_.actions), seat)
        view = self._views.get(key)
        if view is None:
            if len(self._views) > 4 * self.n_players:
                self._views.clear()
            view = self._views[key] = self.state_.view(seat)
        return view

    def view(self, agent: str) -> Mapping[str, object]:
        """The typed view of ``agent``'s seat (the engine's own: plain data), for agents that want structure."""
        return self.state_.view(self.agent_seat[agent])

    def action_mask(self) -> MaskArray:
        """The mask of the selected agent now (worked out once per step; do not change it)."""
        if self.decision is None:
            return np.zeros(self.codec.n, np.int8)
        key = (id(self.decision), self.steps)
        if self._mask_key != key:
            self._mask, self._mask_key = self.codec.mask(self.decision), key
        return self._mask

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.decision
        assert d is not None and self.possible_agents[d.seat] == agent
        index = int(action)
        if not 0 <= index < self.codec.n or not self.action_mask()[index]:
            raise ValueError(f"{agent}: action {index} ({self.codec.meaning(index)}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        result = self.codec.step(self.state_, d, index)
        if result is PENDING:
            self._clear_rewards()
            self._count_step()
            return
        self.play(d.seat, result if isinstance(result, Action) else None)

    def play(self, seat: int, action: Action | None) -> None:
        """Apply a whole engine action for the selected seat (None: pass an out-of-turn offer).

        The single-agent wrapper plays its bots through this; ``step`` ends here too.
        """
        d = self.decision
        assert d is not None and d.seat == seat
        self._cumulative_rewards[self.possible_agents[seat]] = 0.0
        self._clear_rewards()
        if action is None:
            assert d.claim, "only an out-of-turn offer may pass"
            self._declined.add(seat)
        else:
            self.state_.apply(action)
        self.decision = None
        self._score()
        self._count_step()
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self._select()
        self._accumulate_rewards()

    def _count_step(self) -> None:
        self.steps += 1
        if (
            self.max_steps is not None
            and self.steps >= self.max_steps
            and not any(self.terminations.values())
        ):
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a]["record"] = self.record()

    def _score(self) -> None:
        state = self.state_
        rounds = state.rounds
        ended = False
        while self._rounds_seen < len(rounds):
            outcome = rounds[self._rounds_seen]
            self._rounds_seen += 1
            ended = True
            for a in self.agents:
                seat = self.agent_seat[a]
                if self.reward_kind == "score":
                    value = float(outcome.scores[seat])
                else:
                    value = 1.0 if seat in outcome.winners else -1.0
                self.rewards[a] += value
        if state.outcome is not None or (ended and not self.whole_match):
            record = self.record()
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a]["record"] = record

    # -- records and rendering ------------------------------------------------------

    def record(self) -> str:
        """The episode's game record so far (``rummykit replay`` reads it; it replays exactly)."""
        return write_record(self.state_)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_text(self)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        return None


def render_text(env: RummyEnv) -> str:
    """The table as a spectator sees it, then who is deciding and what they have chosen so far."""
    view = env.state_.view(None)
    skip = {"game", "seat", "players", "options", "rounds", "last_move", "outcome", "phase"}
    lines = [f"{env.game_id} round {view['round']} turn {view['turn_number']}: {view['phase']}"]
    for key, value in view.items():
        if key not in skip:
            lines.append(f"  {key}: {value}")
    d = env.decision
    if d is not None:
        chosen = " ".join(env.codec.meaning(w) for w in d.prefix)
        extra = f" draft: {[' '.join(map(str, s)) for s in d.sets]}" if d.sets else ""
        offer = " (out of turn)" if d.claim else ""
        lines.append(f"  deciding: {env.possible_agents[d.seat]}{offer} {chosen}{extra}".rstrip())
    return "\n".join(lines)
