"""Time the domino-rummikub hint (the exact set-by-set search) on the positions of real games.

Run by hand (not part of the test suite):

    .venv/bin/python bench/bench_domino_hint.py --games 40

Greedy bots play seeded one-round games (2 and 4 players, both starting-group
options); before each of their turns the hint for that seat is worked out from
its view, exactly as the ``hint`` command does, and timed. Prints the median,
99th percentile and maximum per configuration, how many hints took over
100 ms, how many were not proven best (the hint's search stops after
``HINT_NODES`` steps and then says so), and the slowest position.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Mapping
from typing import Any

from rummykit import new_game
from rummykit.bots.base import Bot, make_bot
from rummykit.engine.core import Action
from rummykit.engine.rng import Rng
from rummykit.sim import run_bots
from rummykit.solve.command import domino_hint_lines


class TimedHint:
    """A greedy bot that first asks for (and times) the hint of its position."""

    def __init__(self, inner: Bot, times: list[tuple[float, int, int, str]]) -> None:
        self.inner = inner
        self.times = times
        self.level = inner.level

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        started = time.perf_counter()
        lines = domino_hint_lines(view)
        ms = (time.perf_counter() - started) * 1000
        table = sum(len(s) for s in view["table"])
        self.times.append((ms, len(view["rack"]), table, f"table {view['table']} rack {view['rack']}: {' / '.join(lines)}"))
        return self.inner.choose(view, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per configuration (seeds 1..N)")
    args = parser.parse_args()
    print(
        f"{'players':>7} {'start':>10} | {'hints':>6} {'median':>7} {'p99':>7} {'max':>7} |"
        f" {'over 100 ms':>11} {'not proven best':>15}"
    )
    slowest: list[tuple[float, int, int, str]] = []
    for players in (2, 4):
        for start in ("exactly-3", "3-or-more"):
            times: list[tuple[float, int, int, str]] = []
            for seed in range(1, args.games + 1):
                state = new_game("domino-rummikub", players=players, seed=seed, starting_group_size=start, target="none")
                bots: list[Any] = [TimedHint(make_bot("greedy", "domino-rummikub"), times) for _ in range(players)]
                run_bots(state, bots)
            ms = sorted(t[0] for t in times)
            over = sum(1 for t in ms if t > 100)
            unproven = sum(1 for t in times if "found quickly" in t[3])
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            print(
                f"{players:>7} {start:>10} | {len(ms):>6} {statistics.median(ms):>7.2f} {p99:>7.1f} {ms[-1]:>7.1f}"
                f" | {over:>11} {unproven:>15}",
                flush=True,
            )
            slowest.append(max(times))
    worst = max(slowest)
    print(f"slowest: {worst[0]:.1f} ms, rack {worst[1]}, table {worst[2]} dominoes: {worst[3]}")


if __name__ == "__main__":
    main()
