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
    p.add_argument(
        "--head",
        choices=("index", "sets"),
        default="index",
        help="the policy's output: one logit per index, or (rummikub, domino-rummikub) each candidate set scored"
        " from the pieces it needs (default index)",
    )
    p.add_argument(
        "--mask-features",
        action="store_true",
        help="draft games: add to the observation what the mask says (the pieces some legal set uses, how many sets can be"
        " formed, whether a commit is open)",
    )
    p.add_argument(
        "--dagger",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="with --warm-start: this many more rounds of the policy playing (as many games each), greedy naming the step"
        " it would take in each position the policy reached, and the copy fitted again on everything (DAgger)",
    )
    p.add_argument("--lr", type=float, default=3e-4, help="PPO's learning rate (default 0.0003)")
    p.add_argument("--skip-uniform", action="store_true", help="evaluate the trained policy only, not the uniform yardstick")
    p.add_argument(
        "--sample",
        action="store_true",
        help="evaluate the policy as it trains, drawing each step from its distribution (seeded), not its most likely step",
    )
    p.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="go on training the weights in DIR/model.zip (made with the same game, options and head) instead of new ones",
    )
    p.add_argument("--only-eval", action="store_true", help="evaluate the weights already in --out")
    return p.parse_args(argv)


def _options(args: argparse.Namespace, reward: str = "win") -> dict[str, Any]:
    out: dict[str, Any] = {"reward": reward, "draft_steps": args.draft_steps, "max_steps": 4000}
    if args.mask_features:
        out["mask_features"] = True
    for text in args.option:
        name, eq, value = text.partition("=")
        if not eq:
            sys.exit(f"--option takes NAME=VALUE, not {text!r}")
        out[name] = value
    return out


def _make_env(game: str, seat: int, bots: str, options: dict[str, Any]) -> Any:
    from rummykit.rl import single

    options = dict(options)
    extra = options.pop("mask_features", False)
    env = single(game, players=2, seat=seat, bots=bots, **options)
    return mask_features_env(env) if extra else env


def _mask_features() -> Any:
    import gymnasium as gym
    from gymnasium import spaces

    class MaskFeaturesEnv(gym.Wrapper):  # type: ignore[misc]
        """Adds what the draft's mask says to the observation: the seat's own legal choices, read as features.

        The mask is a function of the seat's view and its draft, so this adds
        nothing hidden: for each kind of piece, whether some set that may be
        formed now uses it; how many sets may be formed (/100); and whether a
        commit, a draw and a lift are open.
        """

        def __init__(self, env: Any) -> None:
            super().__init__(env)
            codec = env.aec.codec
            self.need = (codec.need > 0).astype(np.float32)
            self.form = codec.form
            self.codec = codec
            box = env.observation_space
            extra = self.need.shape[1] + 4
            low = np.concatenate([box.low, np.zeros(extra, np.float32)])
            high = np.concatenate([box.high, np.full(extra, np.inf, np.float32)])
            self.observation_space = spaces.Box(low, high, dtype=np.float32)

        @property
        def aec(self) -> Any:
            return self.env.aec

        def action_masks(self) -> Any:
            return self.env.action_masks()

        def _more(self, obs: Any) -> Any:
            mask = self.env.action_masks()
            forms = mask[self.form :].astype(np.float32)
            uses = (forms @ self.need > 0).astype(np.float32)
            c = self.codec
            flags = [forms.sum() / 100.0, float(mask[c.COMMIT]), float(mask[c.DRAW]), float(mask[c.LIFT : self.form].any())]
            return np.concatenate([obs, uses, np.array(flags, np.float32)])

        def reset(self, **kwargs: Any) -> Any:
            obs, info = self.env.reset(**kwargs)
            return self._more(obs), info

        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, info = self.env.step(action)
            return self._more(obs), reward, terminated, truncated, info

    return MaskFeaturesEnv


def mask_features_env(env: Any) -> Any:
    """``env`` with :func:`_mask_features`'s wrapper (made on first use: gymnasium is imported lazily)."""
    return _mask_features()(env)


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
    policy: Any = "MlpPolicy"
    kwargs: dict[str, Any] = {"net_arch": {"pi": net, "vf": net}}
    if args.head == "sets":
        codec = env.envs[0].aec.codec
        if not hasattr(codec, "need"):
            sys.exit("--head sets is for the draft games (rummikub, domino-rummikub)")
        policy = set_policy()
        kwargs.update(need=codec.need.astype(np.float32), fixed=codec.form)
    model = MaskablePPO(
        policy,
        env,
        seed=args.seed,
        n_steps=1024,
        batch_size=256,
        learning_rate=args.lr,
        policy_kwargs=kwargs,
        verbose=0,
    )
    if args.resume:
        model.set_parameters(str(args.resume / "model.zip"), device="cpu")
        print(f"weights from {args.resume / 'model.zip'}", flush=True)
    started = time.perf_counter()
    if args.warm_start:
        obs, masks, actions = demonstrations(args, options)
        clone_behaviour(model, obs, masks, actions, epochs=args.epochs)
        print(f"copied greedy's turns: {len(actions)} steps from {args.warm_start} games", flush=True)
        for round_ in range(1, args.dagger + 1):
            more = demonstrations(args, options, model, first=round_ * args.warm_start)
            obs, masks, actions = (np.concatenate([a, b]) for a, b in zip((obs, masks, actions), more, strict=True))
            clone_behaviour(model, obs, masks, actions, epochs=max(2, args.epochs // 4))
            print(f"DAgger round {round_}: {len(more[2])} more steps, {len(actions)} in all", flush=True)
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


def set_policy() -> Any:
    """A masked actor-critic whose logit for "form candidate set k" is scored from the pieces set k needs.

    With one output per index, an MLP over the rack's counts must learn each of
    the thousands of candidate sets on its own. Here the actor's last layer gives
    a value to each kind of piece (from the observation), and a candidate's
    logit is the sum of its pieces' values plus a weight per set size and a bias
    of its own: what it learns of one set carries to every set sharing pieces.
    The fixed indices (draw, commit, reset, lift) keep an output each.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from torch import nn

    class SetHead(nn.Module):  # type: ignore[misc]
        def __init__(self, latent: int, need: np.ndarray, fixed: int) -> None:
            super().__init__()
            self.register_buffer("need", torch.as_tensor(need, dtype=torch.float32))
            self.register_buffer("size", torch.as_tensor(need.sum(axis=1, keepdims=True), dtype=torch.float32))
            self.fixed = nn.Linear(latent, fixed)
            self.values = nn.Linear(latent, need.shape[1])
            self.per_size = nn.Linear(latent, 1)
            self.bias = nn.Parameter(torch.zeros(need.shape[0]))

        def forward(self, latent: Any) -> Any:
            sets = self.values(latent) @ self.need.T + self.per_size(latent) * self.size.T + self.bias
            return torch.cat([self.fixed(latent), sets], dim=1)

    class SetPolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
        def __init__(self, *args: Any, need: np.ndarray, fixed: int, **kwargs: Any) -> None:
            self.need, self.fixed = need, fixed
            super().__init__(*args, **kwargs)

        def _get_constructor_parameters(self) -> dict[str, Any]:
            return {**super()._get_constructor_parameters(), "need": self.need, "fixed": self.fixed}

        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            self.action_net = SetHead(self.mlp_extractor.latent_dim_pi, self.need, self.fixed)
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    return SetPolicy


_INDEX: dict[int, dict[tuple[str, ...], int]] = {}


def _candidate_index(codec: Any) -> dict[tuple[str, ...], int]:
    """Each candidate set (its pieces' texts) to its place, made once per list of candidates."""
    found = _INDEX.get(id(codec.candidates))
    if found is None:
        found = _INDEX[id(codec.candidates)] = {tuple(str(p) for p in c): k for k, c in enumerate(codec.candidates)}
    return found


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
    index = _candidate_index(codec)
    for s, n in wanted.items():
        if s not in index:
            return None
        steps.extend([codec.form + index[s]] * n)
    return [*steps, codec.COMMIT]


def demonstrations(
    args: argparse.Namespace, options: dict[str, Any], model: Any = None, first: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks and greedy's steps at the learner's seat, against ``random``.

    Without ``model``, ``greedy`` plays the seat (its plays made as draft steps).
    With one, the model plays (sampling its steps) and each position it reaches
    is labelled with the step greedy would take from there: the next step of
    greedy's play from the draft as it stands, or a reset when the draft
    cannot become greedy's play any more (DAgger's data).
    """
    from rummykit.bots.registry import make_bot
    from rummykit.engine.rng import Rng

    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    act_rows: list[int] = []
    greedy = make_bot("greedy", args.game)
    for game in range(first, first + args.warm_start):
        seat = game % 2
        env = _make_env(args.game, seat, "random", options)
        obs, _info = env.reset(seed=args.seed * 7919 + game)
        aec = env.aec
        codec = aec.codec
        rng = Rng(game)
        done = False
        action = None
        while not done:
            d = aec.decision
            if action is None or d.steps == 0:
                action = greedy.choose(aec.game_state.view(seat), rng)
            mask = env.action_masks()
            plan = draft_steps(codec, d, action)
            if plan and mask[plan[0]]:
                label = plan[0]
            elif d.steps > 0 and mask[codec.RESET]:
                label = codec.RESET
            else:
                label = codec.DRAW if mask[codec.DRAW] else int(np.flatnonzero(mask)[0])
            if (plan and mask[plan[0]]) or model is not None:
                obs_rows.append(obs)
                mask_rows.append(mask.astype(bool))
                act_rows.append(label)
            if model is not None:
                step, _state = model.predict(obs, action_masks=mask, deterministic=False)
                step = int(step)
            else:
                step = label
            obs, _reward, terminated, truncated, _info = env.step(step)
            done = terminated or truncated
            d = aec.decision
            if d is None or d.seat != seat or d.steps == 0:
                action = None
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
    with torch.no_grad():
        sample = rng.permutation(n)[:4096]
        o = torch.as_tensor(obs[sample], dtype=torch.float32)
        chosen = policy.get_distribution(o, action_masks=masks[sample]).distribution.probs.argmax(dim=1).numpy()
    print(
        f"behaviour cloning: the policy's most likely step is greedy's in {100 * np.mean(chosen == actions[sample]):.1f}% of steps",
        flush=True,
    )


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
    import torch
    from sb3_contrib import MaskablePPO

    from rummykit.study.stats import wilson

    torch.manual_seed(args.seed)  # --sample: the policy's draws, the same for the same weights and seed
    options = _options(args)
    model = MaskablePPO.load(args.out / "model.zip", device="cpu")
    result: dict[str, Any] = {"game": args.game, "deals": args.eval_games, "seed": args.seed, "sample": args.sample}
    uniform = np.random.default_rng(args.seed)
    for policy in ("trained",) if args.skip_uniform else ("trained", "uniform"):
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
                            action, _state = model.predict(obs, action_masks=mask, deterministic=not args.sample)
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
