"""The draft features of ``tools/rl_baseline.py --draft-features`` (docs/rl.md, the trained baseline).

The typed policy reads, for each set of the draft table, whether the rack can
lay off onto it. The wrapper works that out with packed bit rows; here it is
checked against a plain search over every candidate set, on the positions of
seeded games in which the seat plays greedy's turns as draft steps (so it gets
down and lifts sets), and the wrapper is checked to add features only: the
observation it wraps is unchanged, and the mask too.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from rummykit.bots.registry import make_bot
from rummykit.engine.rng import Rng

TOOL = Path(__file__).resolve().parent.parent / "tools" / "rl_baseline.py"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("rl_baseline", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rl_baseline", module)
    spec.loader.exec_module(module)
    return module


def _expected(codec: Any, decision: Any, mask: Any) -> np.ndarray:
    """The features worked out the slow way: every candidate set against every draft set."""
    need = codec.need.astype(np.int64)
    sizes = need.sum(axis=1)
    rack = decision.rack.astype(np.int64)
    out = np.zeros(2 * codec.max_sets + 2, np.float32)
    for i, s in enumerate(decision.sets):
        have = codec.piece_vector(s).astype(np.int64)
        fits = (need >= have).all(axis=1) & (need <= have + rack).all(axis=1) & (sizes > have.sum())
        out[i] = float(fits.any())
        out[codec.max_sets + i] = have.sum() / 13.0
    forms = np.flatnonzero(mask[codec.form :])
    points = np.array(
        [0 if codec.objects[t].is_joker else codec.objects[t].points for t in codec.pieces], np.float32
    )
    if len(forms):
        out[-2] = max(float(need[k] @ points) for k in forms) / 100.0
        used = need[forms].any(axis=0)
        out[-1] = float(used @ (points * rack)) / 100.0
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_lay_off_features_match_a_plain_search(seed: int) -> None:
    tool = _tool()
    options = {"reward": "win", "draft_steps": 60, "max_steps": 4000, "target": "none"}
    env = tool._make_env("rummikub", 0, "random", {**options, "mask_features": "draft"})
    plain = tool._make_env("rummikub", 0, "random", options)
    codec = env.aec.codec
    greedy = make_bot("greedy", "rummikub")
    rng = Rng(seed)
    obs, _ = env.reset(seed=seed)
    base, _ = plain.reset(seed=seed)
    base_size = codec.layout.size
    extra = codec.need.shape[1] + 4
    checked = lifted_sets = lay_offs = 0
    plan: list[int] = []
    done = False
    while not done and checked < 400:
        d = env.aec.decision
        mask = env.action_masks()
        # the wrapper only adds: the observation it wraps and the mask are those of the plain environment
        assert np.array_equal(obs[:base_size], base)
        assert np.array_equal(mask, plain.action_masks())
        np.testing.assert_allclose(obs[base_size + extra :], _expected(codec, d, mask), rtol=1e-6)
        checked += 1
        lifted_sets += len(d.sets)
        lay_offs += int(obs[base_size + extra : base_size + extra + codec.max_sets].sum())
        if d.steps == 0 and not plan:
            action = greedy.choose(env.aec.game_state.view(0), rng)
            plan = tool.draft_steps(codec, d, action) or [codec.DRAW]
        step = plan.pop(0) if plan and mask[plan[0]] else codec.DRAW
        if step in (codec.DRAW, codec.COMMIT):
            plan = []
        obs, _r, terminated, truncated, _ = env.step(step)
        base, _r, _t, _tr, _ = plain.step(step)
        done = terminated or truncated
    # the games went far enough to test something: sets on the table, and some a lay-off could extend
    assert checked > 50
    assert lifted_sets > 100
    assert lay_offs > 0
