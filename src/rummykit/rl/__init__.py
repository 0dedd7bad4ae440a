"""Reinforcement-learning environments for every rummykit game (the ``rl`` extra: ``pip install 'rummykit[rl]'``).

* :func:`env`: a PettingZoo AEC environment, one agent per seat, a fixed
  ``Discrete(N)`` action space and an action mask in every observation;
* :func:`single`: a Gymnasium environment where one seat learns and the other
  seats are rummykit bots of a chosen level.

See ``docs/rl.md`` for each game's action encoding and observation layout.

>>> import rummykit.rl
>>> e = rummykit.rl.env("mummus", players=2)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"rummykit.rl needs the rl extra: pip install 'rummykit[rl]' ({exc})") from exc

from rummykit.rl.aec import RummyEnv
from rummykit.rl.single import SingleSeatEnv

__all__ = ["RummyEnv", "SingleSeatEnv", "env", "single"]


def env(game: str, players: int = 2, **options: Any) -> RummyEnv:
    """The PettingZoo AEC environment of ``game`` for ``players`` seats.

    Keyword options are the game's own options (``rummykit rules GAME``) and
    the environment's: ``reward`` (``"score"``, the round scores, or
    ``"win"``), ``match`` (play the whole match, not one round),
    ``max_steps`` (truncate after this many agent steps), ``draft_steps``
    (free-table games: the most draft steps in one turn) and ``render_mode``
    (``"ansi"`` or ``"human"``).
    """
    return RummyEnv(game, players, **options)


def single(game: str, players: int = 2, **options: Any) -> SingleSeatEnv:
    """The Gymnasium environment of ``game``: seat ``seat`` (0) learns, the others are bots of level ``bots``.

    Takes :func:`env`'s options and ``seat`` and ``bots`` (a level of
    ``rummykit.bots.registry``, ``"random"`` by default).
    """
    return SingleSeatEnv(game, players, **options)
