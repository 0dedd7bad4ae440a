"""The slow solver calls in one loop: the least CPU time of a few calls per position, and the sum.

    PYTHONPATH=src:bench .venv/bin/python bench/solver_slow12.py            # the usual slow positions
    PYTHONPATH=src:bench .venv/bin/python bench/solver_slow12.py --runs 5 45:1026 60:7

Each position (``solver_positions.py``, table tiles:seed) is solved with the
default call (the tidy step on) by both objectives, ``--runs`` times; the least
CPU time of each is printed, then their sum. Run it under two trees, each in
its own process, to compare them (session 12 of issue 25).
"""

from __future__ import annotations

import argparse
import time

from solver_positions import make_position

from rummykit.solve import solve_tiles, warm_up

SLOW = (
    (45, 1026), (45, 1049), (45, 1039), (45, 1122), (45, 1121), (45, 1098), (45, 1116), (45, 1130),
    (45, 56), (45, 17), (30, 1050), (30, 1007), (60, 7), (60, 46),
)  # fmt: skip
"""Session 10's loop: the slowest calls of ``bench_solver.py --tail 150 --seed 1000`` and ``--count 100``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", help="table tiles:seed (default: the usual slow ones)")
    parser.add_argument("--runs", type=int, default=3, help="calls per position (the least CPU time counts)")
    parser.add_argument(
        "--objective", choices=("tiles", "points"), default=None, help="one objective (default: both)"
    )
    args = parser.parse_args()
    cases = [tuple(map(int, p.split(":"))) for p in args.positions] or list(SLOW)
    objectives = (args.objective,) if args.objective else ("tiles", "points")
    warm_up()
    total = 0.0
    worst = 0.0
    line: list[str] = []
    for objective in objectives:
        for size, seed in cases:
            position = make_position(seed, size)
            least = float("inf")
            for _ in range(args.runs):
                start = time.process_time()
                solve_tiles(position.table, position.rack, objective=objective, tidy=True)
                least = min(least, (time.process_time() - start) * 1e3)
            total += least
            worst = max(worst, least)
            line.append(f"{objective[0]}{size}/{seed} {least:.1f}")
    print("  ".join(line))
    print(f"sum {total:.1f} ms, slowest {worst:.1f} ms, {len(line)} calls")


if __name__ == "__main__":
    main()
