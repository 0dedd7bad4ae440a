"""How fast whole two-tray games run between bots (run by hand, not part of the tests).

    python bench/bench_two_tray.py                    # random-random, greedy-greedy, greedy-random, about 5 CPU s each
    python bench/bench_two_tray.py --games 50         # exactly 50 seeded games per configuration
    python bench/bench_two_tray.py --seconds 2        # stop a configuration after about 2 CPU seconds
    python bench/bench_two_tray.py --profile greedy   # cProfile 20 greedy-greedy games, top 25

Game ``i`` of every configuration uses seed ``i`` (one round, default
options), so two runs play the same games and their numbers can be compared:
with an unchanged engine and bots, ``actions/game`` and the ending columns
must be identical. Rates are per CPU second of this process (the elapsed time
is shown too). See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from rummykit.bots.base import make_bot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

GAME = "two-tray"
CONFIGS: tuple[tuple[str, str], ...] = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"))
DEFAULT_MAX_GAMES = 100_000
WARM_UP_SEED = 999_999


@dataclass
class Result:
    """One configuration: ``seconds`` is process CPU time, ``wall`` elapsed time; ``ends`` counts reasons
    and the end-game events (``tray-empty``: a player emptied a tray; ``merge``: the trays were combined)."""

    bots: tuple[str, str]
    games: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    actions: int = 0
    tiles: int = 0
    ends: Counter[str] = field(default_factory=Counter)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def play_one(bots: tuple[str, str], seed: int, result: Result | None = None) -> None:
    """Play one seeded round between the two bots; add what happened to ``result``."""
    state = new_game(GAME, seed=seed)
    run_bots(state, [make_bot(level, GAME) for level in bots])
    if state.outcome is None:
        raise RuntimeError(f"game {seed} ({'-'.join(bots)}) did not end")
    if result is not None:
        result.actions += len(state.actions)
        result.tiles += len(state.view(None)["grid"])
        result.ends[state.outcome.reason] += 1
        kinds = {e.kind for e in state.history}
        result.ends.update(k for k in ("tray-empty", "merge", "call", "penalty") if k in kinds)


def measure(bots: tuple[str, str], *, games: int | None, seconds: float) -> Result:
    """Play seeded games until ``games`` are played, or (without a count) ``seconds`` of CPU time have passed."""
    limit = games if games is not None else DEFAULT_MAX_GAMES
    play_one(bots, WARM_UP_SEED)  # fill the line-reading caches; not counted
    result = Result(bots)
    start, cpu = time.perf_counter(), time.process_time()
    while result.games < limit:
        play_one(bots, result.games, result)
        result.games += 1
        if games is None and time.process_time() - cpu >= seconds:
            break
    result.seconds = time.process_time() - cpu
    result.wall = time.perf_counter() - start
    return result


HEADER = (
    f"{'bots':<15}{'games':>7}{'seconds':>9}{'games/s':>9}{'actions/game':>14}{'actions/s':>11}"
    f"{'tiles laid':>12}{'out':>6}{'blocked':>9}{'tray-empty':>12}{'call':>6}{'wall s':>8}"
)


def row(r: Result) -> str:
    """One line of the results table (endings as percentages of the games)."""

    def pct(key: str) -> str:
        return f"{100 * r.ends[key] / r.games:.0f}%" if r.games else "-"

    return (
        f"{'-'.join(r.bots):<15}{r.games:>7}{r.seconds:>9.2f}{r.games_per_second:>9.2f}"
        f"{r.actions / max(1, r.games):>14.1f}{r.actions_per_second:>11.0f}{r.tiles / max(1, r.games):>12.1f}"
        f"{pct('trays-empty'):>6}{pct('blocked'):>9}{pct('tray-empty'):>12}{pct('call'):>6}{r.wall:>8.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Whole two-tray games per second between bots.")
    parser.add_argument("--games", type=int, default=None, help="seeded games per configuration (default: time-boxed)")
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU-time box per configuration (default 5)")
    parser.add_argument(
        "--profile",
        choices=("random", "greedy"),
        default=None,
        help="profile games between two bots of this level with cProfile instead (20 unless --games)",
    )
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}", end="")
    if hasattr(os, "getloadavg"):
        print(f", load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", end="")
    print(f" - game {GAME}")
    if args.profile is not None:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(args.games or 20):
            play_one((args.profile, args.profile), seed)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(25)
        return 0
    print(HEADER)
    print("-" * len(HEADER))
    for bots in CONFIGS:
        print(row(measure(bots, games=args.games, seconds=args.seconds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
