"""Benchmark: Conveyor Rummy games per second between bots (random, greedy).

Each game is one seeded round (``target`` 0) played to its end by
:func:`rummykit.sim.run_bots`: every step builds the seat's view, the bot
chooses from it, and the engine checks and applies the action. Run from the
repository root::

    .venv/bin/python bench/bench_conveyor.py            # the default table
    .venv/bin/python bench/bench_conveyor.py --games 50 --profile random:2

``--profile LEVEL:PLAYERS`` prints a cProfile of that configuration instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from typing import Any

import rummykit.rulesets.conveyor as cv
from rummykit.bots.base import Bot
from rummykit.bots.conveyor import conveyor_greedy
from rummykit.bots.random import RandomBot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("random", 2, {}),
    ("greedy", 2, {}),
    ("random", 2, {"set": 6}),
    ("greedy", 2, {"set": 6}),
    ("random", 4, {}),
    ("greedy", 4, {}),
    ("greedy", 4, {"jump_ins": True, "partners": True}),
]


def make(level: str) -> Bot:
    return conveyor_greedy(cv.INFO) if level == "greedy" else RandomBot(cv.INFO)


def run(level: str, players: int, options: dict[str, Any], games: int) -> dict[str, float]:
    actions = 0
    turns: list[int] = []
    closed = 0
    started = time.perf_counter()
    for seed in range(games):
        state = new_game("conveyor", players=players, seed=seed, target=0, **options)
        assert isinstance(state, cv.Conveyor)
        run_bots(state, [make(level) for _ in range(players)])
        actions += len(state.actions)
        turns.append(state.turn_no)
        closed += state.rounds[-1].reason == "closed"
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "actions_per_game": actions / games,
        "turns": statistics.mean(turns),
        "closed": closed / games,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per configuration (default 100)")
    parser.add_argument("--profile", help="LEVEL:PLAYERS to profile instead, e.g. random:2")
    args = parser.parse_args(argv)
    if args.profile:
        level, players = args.profile.split(":")
        profiler = cProfile.Profile()
        profiler.runcall(run, level, int(players), {}, args.games)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    print("| bots | players | options | games/s | actions/s | actions/game | turns/round | closed |")
    print("|---|---|---|---|---|---|---|---|")
    for level, players, options in CONFIGS:
        r = run(level, players, options, args.games)
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(
            f"| {level} | {players} | {shown} | {r['games_per_s']:.1f} | {r['actions_per_s']:.0f}"
            f" | {r['actions_per_game']:.0f} | {r['turns']:.1f} | {100 * r['closed']:.0f}% |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
