"""How long the ``strong`` bots take per decision, and how often they beat ``greedy``.

For each game given (default: all five), play N two-player games of ``strong``
against ``greedy``: game ``i`` (``i`` = 1..N) is dealt with seed ``i``, and
``strong`` sits in seat ``i % 2``, so the seats alternate. Every game is one
round (conveyor and mummus with ``target=0``, domino-rummikub with
``target=none``; rummikub and two-tray play one round by default). Each call
the driver makes to the strong bot (``choose``, and ``claim`` in games with
out-of-turn actions) is timed; per game it prints the decisions timed, their
median, 90th and 99th percentile and largest time in seconds, and strong's
share of the games won (a game two seats both win counts half). Games without
a strong bot yet are skipped with a message. One untimed game (seed 999999)
plays first in each game, so a one-time compilation is not timed.

    PYTHONPATH=src .venv/bin/python bench/bench_strong.py                      # all five, 20 games each
    PYTHONPATH=src .venv/bin/python bench/bench_strong.py domino-rummikub --games 100
    PYTHONPATH=src .venv/bin/python bench/bench_strong.py rummikub --bot strong:iterations=3
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.catalogue import find_game
from rummykit.engine.core import Action
from rummykit.engine.driver import Agent, Claimer
from rummykit.engine.rng import Rng
from rummykit.sim import run_bots

GAMES = ("rummikub", "domino-rummikub", "conveyor", "two-tray", "mummus")
ONE_ROUND: dict[str, dict[str, str]] = {
    "conveyor": {"target": "0"},
    "mummus": {"target": "0"},
    "domino-rummikub": {"target": "none"},
}
"""The options that make a game a single round (the others are one round by default)."""
WARM_UP = 999_999
"""The seed of the untimed warm-up game."""


class Timed:
    """A bot whose every ``choose`` (and ``claim``, if it has one) is timed."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.level = bot.level
        self.times: list[float] = []

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        started = time.perf_counter()
        try:
            return self.bot.choose(view, rng)
        finally:
            self.times.append(time.perf_counter() - started)


class TimedClaimer(Timed):
    """A timed bot that also claims out of turn."""

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        assert isinstance(self.bot, Claimer)
        started = time.perf_counter()
        try:
            return self.bot.claim(view, rng)
        finally:
            self.times.append(time.perf_counter() - started)


def quantile(sorted_times: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of sorted times."""
    if not sorted_times:
        return float("nan")
    k = min(len(sorted_times) - 1, max(0, round(q * len(sorted_times) + 0.5) - 1))
    return sorted_times[k]


def bench(game: str, games: int, level: str) -> tuple[list[float], float] | None:
    """(every decision's seconds, strong's share of wins) over ``games`` games, or None without a strong bot."""
    info = find_game(game)
    if "strong" not in bot_levels(info.id):
        return None
    strong = make_bot(level, info.id)
    timed: Timed = TimedClaimer(strong) if isinstance(strong, Claimer) else Timed(strong)
    greedy = make_bot("greedy", info.id)
    # one untimed game first: it fills caches and compiles what is compiled once (rummikub's solver)
    run_bots(info.new(players=2, seed=WARM_UP, **ONE_ROUND.get(info.id, {})), [strong, greedy])
    won = 0.0
    for i in range(1, games + 1):
        seat = i % 2
        bots: list[Agent] = [greedy, greedy]
        bots[seat] = timed
        state = info.new(players=2, seed=i, **ONE_ROUND.get(info.id, {}))
        run_bots(state, bots)
        outcome = state.outcome
        assert outcome is not None
        if seat in outcome.winners:
            won += 1 / len(outcome.winners)
    return timed.times, won / games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help="game ids (default: all five)")
    parser.add_argument("--games", type=int, default=20, dest="count", help="games per game id (default 20)")
    parser.add_argument("--bot", default="strong", help="the strong bot with its settings (default: strong)")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'decisions':>9} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} {'strong wins':>11}")
    for game in args.games:
        found = bench(game, args.count, args.bot)
        if found is None:
            print(f"{game:<16} skipped: no strong bot yet")
            continue
        times, share = found
        times.sort()
        cells = [quantile(times, q) for q in (0.5, 0.9, 0.99)] + [times[-1] if times else float("nan")]
        print(f"{game:<16} {len(times):>9} " + " ".join(f"{c:>8.4f}" for c in cells) + f" {100 * share:>10.1f}%")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
