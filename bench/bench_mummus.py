"""Benchmark: Mummus games per second between bots (random, greedy), and how the rounds go.

Each game is one seeded round (``target`` 0) played to its end by
:func:`rummykit.sim.run_bots` (the driver offers out-of-turn add-ons and
rummy calls before every step of the player to move); the last
configuration plays whole matches to the default target of 500. Every step
builds the seat's view, the bot chooses from it (out-of-turn seats first),
and the engine checks and applies the action. Run from the repository root::

    .venv/bin/python bench/bench_mummus.py              # the default table, 100 games per line
    .venv/bin/python bench/bench_mummus.py --games 20
    .venv/bin/python bench/bench_mummus.py --profile greedy:4

``--profile LEVEL:PLAYERS`` prints a cProfile of that configuration instead.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import statistics
import time
from typing import Any

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.rulesets.mummus import Mummus
from rummykit.sim import run_bots

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("random", 2, {"target": 0}),
    ("greedy", 2, {"target": 0}),
    ("random", 4, {"target": 0}),
    ("greedy", 4, {"target": 0}),
    ("random", 6, {"target": 0}),
    ("greedy", 6, {"target": 0}),
    ("greedy", 4, {}),
]


def run(level: str, players: int, options: dict[str, Any], games: int) -> dict[str, float]:
    actions = rounds = out = deep = calls = late = 0
    turns: list[int] = []
    cpu = time.process_time()
    wall = time.perf_counter()
    for seed in range(games):
        state = new_game("mummus", players=players, seed=seed, **options)
        assert isinstance(state, Mummus)
        run_bots(state, [make_bot(level, "mummus") for _ in range(players)])
        actions += len(state.actions)
        rounds += len(state.rounds)
        out += sum(r.reason == "out" for r in state.rounds)
        for e in state.history:
            if e.kind == "take" and e.data["deep"]:
                deep += 1
            if e.kind == "rummy":
                calls += 1
            if e.kind in ("addon", "rummy") and not e.data["in_turn"]:
                late += 1
        turns.extend(_turns_per_round(state))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {
        "games_per_s": games / cpu,
        "actions_per_s": actions / cpu,
        "actions_per_game": actions / games,
        "rounds": rounds / games,
        "turns": statistics.mean(turns) if turns else 0.0,
        "out": out / rounds,
        "deep": deep / rounds,
        "calls": calls / rounds,
        "late": late / rounds,
        "wall": wall,
    }


def _turns_per_round(state: Mummus) -> list[int]:
    """The number of turns of each finished round (from the discards between round ends)."""
    out: list[int] = []
    count = 0
    for e in state.history:
        if e.kind == "discard":
            count += 1
        elif e.kind == "round-end":
            out.append(count)
            count = 0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="games per configuration (default 100)")
    parser.add_argument("--profile", help="LEVEL:PLAYERS to profile instead, e.g. greedy:4")
    args = parser.parse_args(argv)
    if args.profile:
        level, players = args.profile.split(":")
        profiler = cProfile.Profile()
        profiler.runcall(run, level, int(players), {"target": 0}, args.games)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, load {load:.2f}, {os.cpu_count()} CPUs; {args.games} games per line")
    print(
        "| bots | players | options | games/s | actions/s | actions/game | rounds/game | turns/round"
        " | out | deep takes/round | rummy calls/round | out-of-turn acts/round | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for level, players, options in CONFIGS:
        r = run(level, players, options, args.games)
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults (match to 500)"
        print(
            f"| {level} | {players} | {shown} | {r['games_per_s']:.1f} | {r['actions_per_s']:.0f}"
            f" | {r['actions_per_game']:.0f} | {r['rounds']:.1f} | {r['turns']:.1f} | {100 * r['out']:.0f}%"
            f" | {r['deep']:.2f} | {r['calls']:.2f} | {r['late']:.2f} | {r['wall']:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
