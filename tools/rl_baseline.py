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
        choices=("index", "sets", "typed"),
        default="index",
        help="the policy's output: one logit per index; (rummikub, domino-rummikub) each candidate set scored"
        " from the pieces it needs; or 'typed': first the kind of step (draw, commit, reset, lift, form), then which"
        " set, scored from its pieces (needs --draft-features) (default index)",
    )
    p.add_argument(
        "--mask-features",
        action="store_true",
        help="draft games: add to the observation what the mask says (the pieces some legal set uses, how many sets can be"
        " formed, whether a commit is open)",
    )
    p.add_argument(
        "--draft-features",
        action="store_true",
        help="draft games: --mask-features and, for each set of the draft table, whether the rack can lay off onto it,"
        " its size, and the points of the sets that may be formed now",
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
    if args.mask_features or args.draft_features:
        out["mask_features"] = "draft" if args.draft_features else "mask"
    for text in args.option:
        name, eq, value = text.partition("=")
        if not eq:
            sys.exit(f"--option takes NAME=VALUE, not {text!r}")
        out[name] = value
    return out


def _make_env(game: str, seat: int, bots: str, options: dict[str, Any]) -> Any:
    from rummykit.rl import single

    options = dict(options)
    extra = options.pop("mask_features", None)
    env = single(game, players=2, seat=seat, bots=bots, **options)
    return mask_features_env(env, draft=extra == "draft") if extra else env


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

        def __init__(self, env: Any, draft: bool = False) -> None:
            super().__init__(env)
            codec = env.aec.codec
            self.need = (codec.need > 0).astype(np.float32)
            self.form = codec.form
            self.codec = codec
            self.draft = draft
            box = env.observation_space
            extra = self.need.shape[1] + 4
            if draft:
                extra += 2 * codec.max_sets + 2
                # too_few[t, c]: the candidates that need fewer than c of piece t, packed as bits (codec.too_many's mirror)
                counts = codec.need
                self.too_few = np.packbits(
                    np.stack([[counts[:, t] < c for c in range(codec.most + 1)] for t in range(counts.shape[1])]), axis=2
                )
                self.sizes = counts.sum(axis=1)
                points = [0 if getattr(p, "is_joker", False) else _points(p) for p in (codec.objects[t] for t in codec.pieces)]
                self.points = np.array(points, np.float32)
                self.set_points = counts @ self.points
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
            parts = [obs, uses, np.array(flags, np.float32)]
            if self.draft:
                parts.append(self._draft_more(forms))
            return np.concatenate(parts)

        def _draft_more(self, forms: Any) -> Any:
            """Per set of the draft table: 1 if a larger set holding it can be made with the rack's pieces (a lay-off),
            and its size / 13; then the points of the most valuable set that may be formed now, and of every piece
            some formable set uses (each / 100)."""
            c = self.codec
            out = np.zeros(2 * c.max_sets + 2, np.float32)
            d = self.env.aec.decision
            if d is None:
                return out
            rack = d.rack.astype(np.int64)
            for i, s in enumerate(d.sets[: c.max_sets]):
                have = c.piece_vector(s).astype(np.int64)
                short = np.bitwise_or.reduce(c.too_many[c.rows, np.minimum(have + rack, c.most)], axis=0)
                fewer = np.bitwise_or.reduce(self.too_few[c.rows, np.minimum(have, c.most)], axis=0)
                fits = np.unpackbits(~(short | fewer), count=len(c.candidates)).astype(bool)
                out[i] = float((fits & (self.sizes > have.sum())).any())
                out[c.max_sets + i] = have.sum() / 13.0
            on = forms.astype(bool)
            if on.any():
                out[-2] = self.set_points[on].max() / 100.0
                out[-1] = float(((forms @ self.need) > 0) @ (self.points * rack)) / 100.0
            return out

        def reset(self, **kwargs: Any) -> Any:
            obs, info = self.env.reset(**kwargs)
            return self._more(obs), info

        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, info = self.env.step(action)
            return self._more(obs), reward, terminated, truncated, info

    return MaskFeaturesEnv


def _points(piece: Any) -> int:
    """A piece's face value: a tile's number, a domino's pips."""
    return int(getattr(piece, "points", None) or getattr(piece, "pips", 0))


def mask_features_env(env: Any, draft: bool = False) -> Any:
    """``env`` with :func:`_mask_features`'s wrapper (made on first use: gymnasium is imported lazily)."""
    return _mask_features()(env, draft=draft)


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
    elif args.head == "typed":
        if not args.draft_features or not hasattr(env.envs[0].aec.codec, "need"):
            sys.exit("--head typed is for the draft games (rummikub, domino-rummikub), with --draft-features")
        codec = env.envs[0].aec.codec
        policy = typed_policy()
        kwargs.update(need=codec.need.astype(np.float32), fixed=codec.form, parts=typed_parts(env.envs[0]))
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


def typed_policy() -> Any:
    """A masked actor-critic that picks the kind of step first (draw, commit, reset, lift, form), then which one.

    With one logit per index, "form some set" is thousands of indices sharing
    its mass, and the single draw index often wins the argmax even when the
    policy would rather play. Here the actor gives five logits, one per kind of
    step; within "lift" and "form" it scores each legal choice and normalises
    over the legal ones only (the mask reaches the head), so a kind's total
    probability is its own logit's share whatever the number of choices.

    A candidate set's score, as with ``--head sets``, sums values the actor
    gives each kind of piece over the pieces the set needs, and adds: how many
    of its pieces come from the loose heap (the sets lifted), how many from
    the rack, its size, each weighted by the actor, and a bias of its own. A
    lift's score adds the lay-off feature of ``--draft-features`` for that set
    and its size. Everything it reads is in the seat's observation.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from torch import nn

    HUGE_NEG = -1e9

    def masked_log_softmax(scores: Any, mask: Any) -> Any:
        scores = torch.where(mask, scores, torch.full_like(scores, HUGE_NEG))
        return scores - torch.logsumexp(scores, dim=1, keepdim=True)

    class TypedHead(nn.Module):  # type: ignore[misc]
        def __init__(self, latent: int, need: np.ndarray, fixed: int, parts: dict[str, tuple[int, int]]) -> None:
            super().__init__()
            most = int(need.max())
            self.register_buffer("need", torch.as_tensor(need, dtype=torch.float32))
            # at_least[c-1][k, t] = 1 if candidate k needs at least c of piece t: covered = sum_c (loose >= c) @ at_least[c-1].T
            self.register_buffer("at_least", torch.as_tensor(np.stack([need >= c for c in range(1, most + 1)]), dtype=torch.float32))
            self.register_buffer("size", torch.as_tensor(need.sum(axis=1), dtype=torch.float32))
            self.most, self.fixed, self.parts = most, fixed, parts
            self.lifts = fixed - 3
            self.kind = nn.Linear(latent, 5)  # draw, commit, reset, lift, form
            self.lift = nn.Linear(latent, self.lifts)
            self.lift_w = nn.Linear(latent, 2)  # the lay-off feature, the set's size
            self.values = nn.Linear(latent, need.shape[1])
            self.count_w = nn.Parameter(torch.zeros(2))  # the loose heap's and the rack's count of a piece
            self.set_w = nn.Linear(latent, 3)  # pieces from the heap, from the rack, the set's size
            self.bias = nn.Parameter(torch.zeros(need.shape[0]))
            self.obs: Any = None
            self.mask: Any = None

        def part(self, name: str) -> Any:
            start, stop = self.parts[name]
            return self.obs[:, start:stop]

        def forward(self, latent: Any) -> Any:
            n = latent.shape[0]
            total = self.fixed + self.need.shape[0]
            mask = self.mask if self.mask is not None else torch.ones(n, total, dtype=torch.bool)
            mask = mask.reshape(n, total)
            kind = self.kind(latent)
            loose, rack = self.part("loose"), self.part("draft_rack")
            # lifts
            lay_off, lift_size = self.part("lay_off"), self.part("lift_size")
            w = self.lift_w(latent)
            lift = self.lift(latent) + w[:, :1] * lay_off + w[:, 1:] * lift_size
            lift = kind[:, 3:4] + masked_log_softmax(lift, mask[:, 3 : self.fixed])
            # forms
            covered = sum((loose >= c).float() @ self.at_least[c - 1].T for c in range(1, self.most + 1))
            values = self.values(latent) + self.count_w[0] * loose + self.count_w[1] * rack
            sw = self.set_w(latent)
            sets = values @ self.need.T + sw[:, :1] * covered + sw[:, 1:2] * (self.size - covered) + sw[:, 2:] * self.size
            sets = kind[:, 4:5] + masked_log_softmax(sets + self.bias, mask[:, self.fixed :])
            return torch.cat([kind[:, :3], lift, sets], dim=1)

    class TypedPolicy(MaskableActorCriticPolicy):  # type: ignore[misc]
        def __init__(self, *args: Any, need: np.ndarray, fixed: int, parts: dict[str, tuple[int, int]], **kwargs: Any) -> None:
            self.need, self.fixed, self.parts = need, fixed, parts
            super().__init__(*args, **kwargs)

        def _get_constructor_parameters(self) -> dict[str, Any]:
            return {**super()._get_constructor_parameters(), "need": self.need, "fixed": self.fixed, "parts": self.parts}

        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            self.action_net = TypedHead(self.mlp_extractor.latent_dim_pi, self.need, self.fixed, self.parts)
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

        def _show(self, obs: Any, masks: Any) -> None:
            self.action_net.obs = obs
            self.action_net.mask = None if masks is None else torch.as_tensor(masks, dtype=torch.bool, device=obs.device)

        def forward(self, obs: Any, deterministic: bool = False, action_masks: Any = None) -> Any:
            self._show(obs, action_masks)
            return super().forward(obs, deterministic, action_masks)

        def evaluate_actions(self, obs: Any, actions: Any, action_masks: Any = None) -> Any:
            self._show(obs, action_masks)
            return super().evaluate_actions(obs, actions, action_masks)

        def get_distribution(self, obs: Any, action_masks: Any = None) -> Any:
            self._show(obs, action_masks)
            return super().get_distribution(obs, action_masks)

    return TypedPolicy


def typed_parts(env: Any) -> dict[str, tuple[int, int]]:
    """Where the typed head's inputs lie in the observation of ``--draft-features``' wrapper."""
    codec = env.aec.codec
    base = codec.layout.size
    sl = codec.layout.slices
    after = base + codec.need.shape[1] + 4  # the mask features come first
    return {
        "loose": (sl["loose"].start, sl["loose"].stop),
        "draft_rack": (sl["draft_rack"].start, sl["draft_rack"].stop),
        "lay_off": (after, after + codec.max_sets),
        "lift_size": (after + codec.max_sets, after + 2 * codec.max_sets),
    }


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
