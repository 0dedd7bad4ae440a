"""Throughput of the RL environments (rummykit.rl), beside the engine's own (run by hand, not a test).

    python bench/bench_rl.py                      # every game, 2 players, about 3 CPU seconds per line
    python bench/bench_rl.py --seconds 1 --only mummus --players 4

For each game, in one process and for the same CPU time:

* ``env steps/s``: the PettingZoo AEC environment played by random agents
  choosing among the masked actions (``env.last()`` builds each observation
  and mask; ``env.step`` applies the choice), episode after episode (episode
  ``i`` is seeded ``i``, the choices from a generator seeded 0);
* ``env actions/s``: the engine actions those steps made (a free-table turn or
  an action's words take several steps);
* ``gym steps/s``: the Gymnasium single-seat wrapper, seat 0 random among the
  mask, the other seats rummykit ``random`` bots;
* ``engine actions/s``: one-round games between rummykit ``random`` bots
  through ``rummykit.sim.run_bots`` (no environment at all).

Rates are per CPU second of this process (``time.process_time``). See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

import numpy as np

GAMES = ("rummikub", "domino-rummikub", "two-tray", "conveyor", "mummus")
ONE_ROUND: dict[str, dict[str, object]] = {"conveyor": {"target": 0}, "mummus": {"target": 0}}


def timed(run: Callable[[int], tuple[int, int]], seconds: float) -> tuple[float, float, int]:
    """Run ``run(i)`` (returning steps and actions) for i = 0, 1, ... for about ``seconds`` CPU seconds."""
    run(999_999)  # warm-up: candidate sets, caches
    steps = actions = i = 0
    start = time.process_time()
    while True:
        s, a = run(i)
        steps, actions, i = steps + s, actions + a, i + 1
        used = time.process_time() - start
        if used >= seconds:
            return steps / used, actions / used, i


def aec_episode(game: str, players: int, rng: np.random.Generator) -> Callable[[int], tuple[int, int]]:
    import rummykit.rl as rl

    env = rl.env(game, players=players, max_steps=20_000)

    def run(seed: int) -> tuple[int, int]:
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps, len(env.game_state.actions)

    return run


def gym_episode(game: str, players: int, rng: np.random.Generator) -> Callable[[int], tuple[int, int]]:
    import rummykit.rl as rl

    env = rl.single(game, players=players, bots="random", max_steps=20_000)

    def run(seed: int) -> tuple[int, int]:
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            _obs, _r, terminated, truncated, _info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            steps += 1
            done = terminated or truncated
        return steps, len(env.aec.game_state.actions)

    return run


def engine_game(game: str, players: int) -> Callable[[int], tuple[int, int]]:
    from rummykit.bots.registry import make_bot
    from rummykit.catalogue import new_game
    from rummykit.sim import run_bots

    def run(seed: int) -> tuple[int, int]:
        state = new_game(game, players=players, seed=seed, **ONE_ROUND.get(game, {}))
        run_bots(state, [make_bot("random", game) for _ in range(players)])
        return len(state.actions), len(state.actions)

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--only", action="append", help="a game to measure (repeatable; default: all)")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}  load {os.getloadavg()[0]:.1f}  cpus {os.cpu_count()}")
    header = f"{'game':<17}{'players':>8}{'N':>7}{'env steps/s':>13}{'env actions/s':>15}{'steps/action':>14}"
    header += f"{'gym steps/s':>13}{'engine actions/s':>18}{'env/engine':>12}"
    print(header)
    import rummykit.rl as rl

    for game in args.only or GAMES:
        players = 2 if game == "two-tray" else args.players
        n = rl.env(game, players=players).codec.n
        steps, actions, _ = timed(aec_episode(game, players, np.random.default_rng(0)), args.seconds)
        gym_steps, _, _ = timed(gym_episode(game, players, np.random.default_rng(0)), args.seconds)
        _, engine, _ = timed(engine_game(game, players), args.seconds)
        print(
            f"{game:<17}{players:>8}{n:>7}{steps:>13,.0f}{actions:>15,.0f}{steps / actions:>14.1f}"
            f"{gym_steps:>13,.0f}{engine:>18,.0f}{actions / engine:>12.2f}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
