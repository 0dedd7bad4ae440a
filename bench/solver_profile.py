"""Where one solver call spends its time: a profile of many calls at one table size.

    .venv/bin/python bench/solver_profile.py --table 15 --calls 1000
    .venv/bin/python bench/solver_profile.py --table 30 --calls 1000 --no-tidy
    .venv/bin/python bench/solver_profile.py --table 30 --calls 1000 --top 40 --sort tottime

Solves ``--calls`` seeded positions (``solver_positions.py``, seeds 1..calls)
of one table size with the default call (or without the tidy step) under
``cProfile`` and prints the functions that took the most time, and the total
CPU time per call. The compiled search shows as the kernel's entries
(``search``, ``relax``); everything else is Python around them. For a
sampled profile of the same loop, without cProfile's overhead per call:

    py-spy record -o /tmp/solver.svg -- .venv/bin/python bench/solver_profile.py --table 30 --plain
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from solver_positions import make_position

from rummykit.solve import solve_tiles, warm_up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=int, default=30, help="table size (tiles)")
    parser.add_argument("--calls", type=int, default=1000, help="positions to solve")
    parser.add_argument("--objective", choices=("tiles", "points", "initial"), default="tiles")
    parser.add_argument("--no-tidy", action="store_true", help="without the tidy step")
    parser.add_argument("--top", type=int, default=30, help="rows of the profile to print")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (cumulative, tottime)")
    parser.add_argument("--plain", action="store_true", help="no cProfile (for py-spy)")
    args = parser.parse_args()
    warm_up()
    positions = [make_position(seed, args.table) for seed in range(1, args.calls + 1)]
    tidy = not args.no_tidy

    def run() -> None:
        for p in positions:
            solve_tiles(p.table, p.rack, objective=args.objective, tidy=tidy)

    started = time.process_time()
    if args.plain:
        run()
    else:
        profile = cProfile.Profile()
        profile.enable()
        run()
        profile.disable()
    cpu = time.process_time() - started
    print(f"{args.calls} calls, table {args.table}, objective {args.objective}, tidy {tidy}:"
          f" {cpu * 1000 / args.calls:.2f} ms of CPU per call")
    if not args.plain:
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
