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

    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=1024, batch_size=256, learning_rate=3e-4, verbose=0)
    started = time.perf_counter()
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
