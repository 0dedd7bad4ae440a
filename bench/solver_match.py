"""Measure the ``solver`` bot against another bot level in seeded two-player rummikub games.

Run by hand (not part of the test suite):

    .venv/bin/python bench/solver_match.py --games 500

Each game is one round (the default: no match target). Seeds run from ``--seed`` upwards;
the solver bot sits in seat ``seed % 2`` so that both seats are played
equally. A game counts as a win for the solver bot when it is among the
round's winners alone; a shared win counts as half. The report gives the win
rate with a 95% Wilson score interval.
"""

from __future__ import annotations

import argparse
import math
import time

from rummykit.bots.base import make_bot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

GAME = "rummikub"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(seed: int, opponent: str) -> float:
    """One seeded round; the solver bot's share of the win (1, 0.5 or 0)."""
    state = new_game(GAME, players=2, seed=seed)
    seat = seed % 2
    bots = [make_bot("solver", GAME) if s == seat else make_bot(opponent, GAME) for s in range(2)]
    run_bots(state, bots)
    assert state.outcome is not None
    winners = state.outcome.winners
    if seat not in winners:
        return 0.0
    return 1.0 / len(winners)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1000, help="first seed")
    parser.add_argument("--opponent", default="greedy", help="the other bot level")
    args = parser.parse_args()
    started = time.perf_counter()
    wins = 0.0
    for i in range(args.games):
        wins += play(args.seed + i, args.opponent)
    low, high = wilson(wins, args.games)
    print(
        f"solver vs {args.opponent}: {wins:g} of {args.games} games ({100 * wins / args.games:.1f}%),"
        f" 95% Wilson interval {100 * low:.1f}% to {100 * high:.1f}%"
        f" (seeds {args.seed}..{args.seed + args.games - 1}, {time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
