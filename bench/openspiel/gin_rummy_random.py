"""OpenSpiel's C++ ``gin_rummy`` played from Python by uniform random players (the throughput anchor).

Runs in bench/.openspiel-venv (made by ``bench/openspiel/setup_venv.sh``), never
in rummykit's environment. Plays games for about ``--seconds`` CPU seconds of
this process and prints one JSON line: games, actions, CPU seconds and the
peak resident memory. Chance nodes (the deal, the draws) are sampled from
their outcome probabilities and do not count as actions; player decisions do.

    bench/.openspiel-venv/bin/python bench/openspiel/gin_rummy_random.py --seconds 5
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time

import pyspiel  # type: ignore[import-not-found]


def play(game: object, rng: random.Random) -> int:
    """One game from the deal to the end; returns the number of player actions."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds to play for (default 5)")
    parser.add_argument("--game", default="gin_rummy", help="the OpenSpiel game (default gin_rummy)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(args.game)
    rng = random.Random(args.seed)
    play(game, rng)  # warm-up, not counted
    games = actions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < args.seconds:
        actions += play(game, rng)
        games += 1
    seconds = time.process_time() - cpu
    print(
        json.dumps(
            {
                "game": args.game,
                "games": games,
                "actions": actions,
                "seconds": seconds,
                "wall": time.perf_counter() - wall,
                "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


if __name__ == "__main__":
    main()
