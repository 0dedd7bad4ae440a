"""The Gymnasium single-agent wrapper: one seat learns, the other seats are rummykit bots.

The learner's observation is the AEC observation vector (a ``Box``); its
mask is in ``info["action_mask"]`` and from :meth:`SingleSeatEnv.action_masks`
(the method ``sb3-contrib``'s ``MaskablePPO`` calls). The bots play whole
engine actions through the driver's protocols (a listing agent chooses from
its listing, a claimer may pass an out-of-turn offer), so a free-table bot
rearranges the table as it always does. The reward of a step is what the
learner's seat earned since its previous step (its round score, or +1/-1
with ``reward="win"``). An action outside the mask changes nothing and earns
``illegal_penalty`` (``illegal="raise"``: it raises instead), so that
Gymnasium's checker, which samples without the mask, can run it.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from rummykit.bots.registry import make_bot
from rummykit.engine.core import Action
from rummykit.engine.driver import Claimer
from rummykit.engine.rng import Rng
from rummykit.rl.aec import RummyEnv
from rummykit.rl.codec import FloatArray, MaskArray

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gymnasium.Env[FloatArray, np.int64]):
    """Seat ``seat`` of ``game`` learns; the other seats are ``bots``-level bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 2,
        *,
        seat: int = 0,
        bots: str = "random",
        illegal: str = "skip",
        illegal_penalty: float = 0.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.aec = RummyEnv(game, players, render_mode=render_mode, **options)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        if illegal not in ("skip", "raise"):
            raise ValueError(f"illegal is 'skip' or 'raise', not {illegal!r}")
        self.seat = seat
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        self.agent = self.aec.possible_agents[seat]
        self.level = bots
        self.bots = [make_bot(bots, self.aec.game_id) for _ in range(players)]
        self.bot_rngs = [Rng(0) for _ in range(players)]
        self.render_mode = render_mode
        box = self.aec.observation_spaces[self.agent]["observation"]
        assert isinstance(box, spaces.Box)
        self.observation_space = box
        self.action_space = spaces.Discrete(self.aec.codec.n)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31))
        self.aec.reset(seed=game_seed)
        self.bot_rngs = [Rng(game_seed * 7 + s + 1) for s in range(self.aec.n_players)]
        self._bots_play()
        return self._obs(), self._info()

    def _learner_reward(self) -> float:
        return float(self.aec._cumulative_rewards.get(self.agent, 0.0))

    def _over(self) -> bool:
        return any(self.aec.terminations.values()) or any(self.aec.truncations.values())

    def _bots_play(self) -> float:
        """Let the bots act until the learner must decide or the episode ends; the learner's reward meanwhile."""
        aec = self.aec
        earned = 0.0
        while not self._over():
            d = aec.decision
            assert d is not None
            if d.seat == self.seat:
                break
            state = aec.game_state
            bot, rng = self.bots[d.seat], self.bot_rngs[d.seat]
            action: Action | None
            if d.claim:
                claim_listed = getattr(bot, "claim_listed", None)
                if claim_listed is not None:
                    action = claim_listed(d.seat, state.legal_actions(d.seat), rng)
                elif isinstance(bot, Claimer):
                    action = bot.claim(state.view(d.seat), rng)
                else:
                    action = None
            else:
                choose_listed = getattr(bot, "choose_listed", None)
                if choose_listed is not None:
                    action = choose_listed(d.seat, state.legal_actions(d.seat), rng)
                else:
                    action = bot.choose(state.view(d.seat), rng)
            aec.play(d.seat, action)
            earned += aec.rewards.get(self.agent, 0.0)
        return earned

    def _obs(self) -> FloatArray:
        return self.aec.observe(self.agent)["observation"]  # type: ignore[no-any-return]

    def action_masks(self) -> MaskArray:
        """The learner's legal actions now (all zero once the episode is over)."""
        if self._over() or self.aec.decision is None:
            return np.zeros(self.aec.codec.n, np.int8)
        return self.aec.action_mask().copy()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self._over():
            info["record"] = self.aec.record()
        return info

    def step(self, action: np.int64 | int) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if self._over():
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if self.illegal == "skip" and not (0 <= index < aec.codec.n and self.action_masks()[index]):
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), float(self.illegal_penalty), False, False, info
        aec.step(index)
        reward = aec.rewards.get(self.agent, 0.0)
        reward += self._bots_play()
        terminated = any(aec.terminations.values())
        truncated = any(aec.truncations.values()) and not terminated
        return self._obs(), float(reward), terminated, truncated, self._info()

    def render(self) -> str | None:
        return self.aec.render()
