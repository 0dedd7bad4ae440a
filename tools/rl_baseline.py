"""Train and evaluate the masked-action baseline of docs/rl.md (MaskablePPO from sb3-contrib, on the CPU).

One seat learns against ``random`` bots through :func:`rummykit.rl.single`
(reward ``win``: +1 for a round won, -1 for a round lost); the trained
policy is then evaluated against ``random`` and ``greedy`` over games with
seats swapped on the same deals, each with a Wilson 95% interval (the
tournament's). It writes into ``--out``: the training curve (``curve.csv``,
``curve.png``), the evaluation (``evaluation.json``) and the weights
(``model.zip``, not committed: the command makes them again).

    pip install -e '.[rl]' 'sb3-contrib>=2.3,<3' 'torch>=2.3' matplotlib
    python tools/rl_baseline.py mummus --steps 150000 --seed 1 --eval-games 100 --option target=0 --out rl-runs/mummus

For the free-table games, where a whole play is many draft steps before any
reward, ``--warm-start GAMES`` first copies ``greedy``'s turns (each turned
into the draft steps that make it) by behaviour cloning, then PPO goes on
from there (``--steps 0``: the copy alone).

Training is deterministic for a seed on one machine (PyTorch on the CPU with
one thread); the evaluation is deterministic for the weights and the seed.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="a rummykit game id (rummikub, two-tray, domino-rummikub, conveyor, mummus)")
    p.add_argument("--steps", type=int, default=200_000, help="learner steps to train (default 200000)")
    p.add_argument("--seed", type=int, default=1, help="the training and evaluation seed (default 1)")
    p.add_argument("--eval-games", type=int, default=200, help="deals per opponent, each played from both seats (default 200)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--draft-steps", type=int, default=12, help="free-table games: draft steps per turn (default 12)")
    p.add_argument("--out", type=Path, required=True, help="the folder for the curve, the evaluation and the weights")
    p.add_argument(
        "--reward", choices=("win", "score"), default="win", help="the training reward: win/loss, or the round's own scores (default win)"
    )
    p.add_argument(
        "--warm-start",
        type=int,
        default=0,
        metavar="GAMES",
        help="free-table games: first copy greedy's turns, as draft steps, from this many games against random (default 0)",
    )
    p.add_argument("--width", type=int, default=64, help="units in each of the policy's two hidden layers (default 64)")
    p.add_argument("--epochs", type=int, default=20, help="passes over greedy's turns with --warm-start (default 20)")
    p.add_argument("--only-eval", action="store_true", help="evaluate the weights already in --out")
    return p.parse_args(argv)


def _options(args: argparse.Namespace, reward: str = "win") -> dict[str, Any]:
    out: dict[str, Any] = {"reward": reward, "draft_steps": args.draft_steps, "max_steps": 4000}
    for text in args.option:
        name, eq, value = text.partition("=")
        if not eq:
            sys.exit(f"--option takes NAME=VALUE, not {text!r}")
        out[name] = value
    return out


def _make_env(game: str, seat: int, bots: str, options: dict[str, Any]) -> Any:
    from rummykit.rl import single

    return single(game, players=2, seat=seat, bots=bots, **options)


def train(args: argparse.Namespace) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    torch.set_num_threads(1)
    options = _options(args, args.reward)

    def make(seat: int) -> Any:
        return lambda: _make_env(args.game, seat, "random", options)

    env = VecMonitor(DummyVecEnv([make(0), make(1)]))
    env.seed(args.seed)
    rows: list[tuple[int, float, float]] = []

    class Curve(BaseCallback):  # type: ignore[misc]
        """Keeps each finished episode's result and length with the step count."""

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                episode = info.get("episode")
                if episode is not None:
                    rows.append((self.num_timesteps, float(episode["r"]), float(episode["l"])))
            return True

    net = [args.width, args.width]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=args.seed,
        n_steps=1024,
        batch_size=256,
        learning_rate=3e-4,
        policy_kwargs={"net_arch": {"pi": net, "vf": net}},
        verbose=0,
    )
    started = time.perf_counter()
    if args.warm_start:
        obs, masks, actions = demonstrations(args, options)
        clone_behaviour(model, obs, masks, actions, epochs=args.epochs)
        print(f"copied greedy's turns: {len(actions)} steps from {args.warm_start} games")
    if args.steps:
        model.learn(total_timesteps=args.steps, callback=Curve())
    seconds = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(args.out / "model.zip")
    with open(args.out / "curve.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "result", "length"])
        w.writerows(rows)
    _plot(args, rows)
    (args.out / "training.json").write_text(
        json.dumps({"game": args.game, "steps": args.steps, "seed": args.seed, "seconds": round(seconds, 1), "options": options}, indent=2)
    )
    print(f"trained {args.steps} steps in {seconds:.0f} s; {len(rows)} episodes")


def draft_steps(codec: Any, decision: Any, action: Any) -> list[int] | None:
    """The draft steps that make a free-table action: lift the sets it changes, form its new sets, commit.

    None when the action is not a play or a draw (the caller falls back to the environment's listing).
    """
    if action.type in ("draw", "pass"):
        return [codec.DRAW]
    if action.type != "play":
        return None
    key = lambda s: tuple(str(p) for p in s)  # noqa: E731
    wanted: dict[tuple[str, ...], int] = {}
    for s in action.table:
        wanted[key(s)] = wanted.get(key(s), 0) + 1
    steps: list[int] = []
    sets = [key(s) for s in decision.sets]
    kept: list[tuple[str, ...]] = []
    for s in sets:
        if wanted.get(s, 0) > 0:
            wanted[s] -= 1
            kept.append(s)
    # lift, from the last, every set of the draft table the play does not keep as it is
    left = list(kept)
    for i in range(len(sets) - 1, -1, -1):
        if sets[i] in left:
            left.remove(sets[i])
        else:
            steps.append(codec.LIFT + i)
    index = {key(c): k for k, c in enumerate(codec.candidates)}
    for s, n in wanted.items():
        if s not in index:
            return None
        steps.extend([codec.form + index[s]] * n)
    return [*steps, codec.COMMIT]


def demonstrations(args: argparse.Namespace, options: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks and greedy's steps, the learner's seat played by ``greedy`` against ``random``."""
    from rummykit.bots.registry import make_bot
    from rummykit.engine.rng import Rng

    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    act_rows: list[int] = []
    greedy = make_bot("greedy", args.game)
    for game in range(args.warm_start):
        seat = game % 2
        env = _make_env(args.game, seat, "random", options)
        obs, _info = env.reset(seed=args.seed * 7919 + game)
        rng = Rng(game)
        done = False
        while not done:
            aec = env.aec
            action = greedy.choose(aec.game_state.view(seat), rng)
            plan = draft_steps(aec.codec, aec.decision, action) or []
            followed = False
            for index in plan:
                mask = env.action_masks()
                if not mask[index]:
                    break
                obs_rows.append(obs)
                mask_rows.append(mask.astype(bool))
                act_rows.append(index)
                obs, _reward, terminated, truncated, _info = env.step(index)
                done = terminated or truncated
                d = aec.decision
                if done or d is None or d.seat != seat or d.steps == 0:
                    followed = True
                    break
            if not followed and not done:
                # the plan did not fit the mask (or there was none): draw, or the first legal step
                mask = env.action_masks()
                fallback = aec.codec.DRAW if mask[aec.codec.DRAW] else int(np.flatnonzero(mask)[0])
                obs, _reward, terminated, truncated, _info = env.step(fallback)
                done = terminated or truncated
    return np.array(obs_rows), np.array(mask_rows), np.array(act_rows)


def clone_behaviour(model: Any, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray, epochs: int = 20) -> None:
    """Fit the policy to the demonstrated steps (cross-entropy of the masked distribution), before any PPO."""
    import torch

    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    n = len(actions)
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, 256):
            batch = order[start : start + 256]
            o = torch.as_tensor(obs[batch], dtype=torch.float32)
            dist = policy.get_distribution(o, action_masks=masks[batch])
            loss = -dist.log_prob(torch.as_tensor(actions[batch])).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def _plot(args: argparse.Namespace, rows: list[tuple[int, float, float]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not rows:
        return
    steps = np.array([r[0] for r in rows])
    wins = np.array([1.0 if r[1] > 0 else 0.0 for r in rows])  # a round's score is above 0 for its winner only
    window = max(1, min(200, len(rows) // 10))
    rate = np.convolve(wins, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps[window - 1 :], 100 * rate, color="#1f6f8b")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel(f"rounds won against random, % (last {window})")
    ax.set_title(f"MaskablePPO on {args.game} (seed {args.seed})")
    ax.set_ylim(0, 100)
    fig.tight_layout()
    fig.savefig(args.out / "curve.png", dpi=110)
    plt.close(fig)


def evaluate(args: argparse.Namespace) -> dict[str, Any]:
    from sb3_contrib import MaskablePPO

    from rummykit.study.stats import wilson

    options = _options(args)
    model = MaskablePPO.load(args.out / "model.zip", device="cpu")
    result: dict[str, Any] = {"game": args.game, "deals": args.eval_games, "seed": args.seed}
    uniform = np.random.default_rng(args.seed)
    for policy in ("trained", "uniform"):
        # "uniform": a legal index drawn uniformly from the mask at each step, the untrained yardstick
        for level in ("random", "greedy"):
            won = played = 0
            for seat in (0, 1):
                env = _make_env(args.game, seat, level, options)
                for deal in range(args.eval_games):
                    obs, _info = env.reset(seed=args.seed * 100_003 + deal)
                    done = False
                    reward = 0.0
                    while not done:
                        mask = env.action_masks()
                        if policy == "trained":
                            action, _state = model.predict(obs, action_masks=mask, deterministic=True)
                        else:
                            action = uniform.choice(np.flatnonzero(mask))
                        obs, reward, terminated, truncated, _info = env.step(int(action))
                        done = terminated or truncated
                    played += 1
                    won += reward > 0
            low, high = wilson(won, played)
            key = level if policy == "trained" else f"uniform against {level}"
            result[key] = {"won": won, "played": played, "share": won / played, "low": low, "high": high}
            print(f"{policy} policy against {level}: {100 * won / played:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {played}")
    (args.out / "evaluation.json").write_text(json.dumps(result, indent=2))
    return result


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if not args.only_eval:
        train(args)
    evaluate(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
