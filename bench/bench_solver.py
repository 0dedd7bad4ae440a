"""Benchmark the exact solver against the ``rummikub-solver`` package, and a long cross-check.

Run by hand (not part of the test suite):

    bash bench/setup_compare_env.sh          # once: a separate virtualenv with rummikub-solver
    .venv/bin/python bench/bench_solver.py --count 40
    .venv/bin/python bench/bench_solver.py --crosscheck 3000
    .venv/bin/python bench/bench_solver.py --tail 500 --seed 1000

The benchmark solves the same seeded positions (tables of 0..80 tiles built
from valid sets, racks of 14..30 tiles, jokers on the table and in the rack
now and then) with our solver ("most tiles") and with rummikub-solver in its
TILE_COUNT mode, run in the separate environment, and prints median and
maximum times per table size, their ratio, and how often the two agree on
the number of tiles placed (rummikub-solver restricts where jokers may stand,
so it may place fewer; it must never place more).

The cross-check compares our solver with the set-by-set exact search on
seeded small positions, for both objectives, and checks every returned
table with the engine's turn checks.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from solver_positions import TABLE_SIZES, Position, make_position

from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import Tile, format_tiles
from rummykit.rulesets.rummikub import TABLE, initial_meld
from rummykit.solve import solve_tiles, warm_up
from rummykit.solve.candidates import tile_meld_value, tile_sets
from rummykit.solve.play import _weights
from rummykit.solve.search import SetSearch
from rummykit.solve.tiles import JOKER_SHIFT, PRIMARY_SHIFT, primary_of

HERE = Path(__file__).resolve().parent
COMPARE_PYTHON = HERE / ".venv-compare" / "bin" / "python"

# Runs inside the comparison environment: reads positions as JSON on stdin, prints
# one line of JSON per position: seconds and tiles placed.
WORKER = r"""
import json, sys, time
from rummikub_solver import RuleSet, SolverMode
rs = RuleSet()
tiles = rs.tiles
colours = "KBOR"
def conv(t):
    if t == "J":
        return tiles[-1]
    return tiles[colours.index(t[0]) * 13 + int(t[1:]) - 1]
positions = json.load(sys.stdin)
warm = rs.new_game(); warm.add_rack(*[conv(t) for t in ("K1", "K2", "K3")]); warm.initial = False
rs.solve(warm, SolverMode.TILE_COUNT)
for p in positions:
    state = rs.new_game()
    table = [conv(t) for s in p["table"] for t in s]
    if table:
        state.add_table(*table)
    state.add_rack(*[conv(t) for t in p["rack"]])
    state.initial = False
    t0, c0 = time.perf_counter(), time.process_time()
    sol = rs.solve(state, SolverMode.TILE_COUNT)
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"seconds": dt, "cpu": dc, "tiles": len(sol.tiles) if sol else 0}), flush=True)
"""


def run_theirs(positions: list[dict[str, object]]) -> list[dict[str, float]] | None:
    if not COMPARE_PYTHON.exists():
        print(f"(no comparison environment at {COMPARE_PYTHON}: run bench/setup_compare_env.sh)")
        return None
    proc = subprocess.run(
        [str(COMPARE_PYTHON), "-c", WORKER],
        input=json.dumps(positions),
        capture_output=True,
        text=True,
        check=True,
    )
    # only the worker's JSON lines: some HiGHS versions print a banner on stdout
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""``wall``: elapsed time; ``cpu``: the process's CPU time (what a call costs, whatever else
the machine runs meanwhile; on a shared machine the steadier of the two)."""


def time_ours(
    positions: list[Position], tidy: bool, objective: str = "tiles", clock: str = "wall"
) -> tuple[list[float], list[int]]:
    """Milliseconds and tiles placed per position, solving each once (``initial``: threshold 30)."""
    now = CLOCKS[clock]
    times: list[float] = []
    tiles: list[int] = []
    for p in positions:
        t0 = now()
        s = solve_tiles(p.table, p.rack, objective=objective, tidy=tidy)
        times.append((now() - t0) * 1000)
        tiles.append(s.tiles_placed if s else 0)
    return times, tiles


def benchmark(count: int, first_seed: int, clock: str = "wall") -> None:
    print(
        f"{count} positions per table size, seeds {first_seed}..{first_seed + count - 1};"
        f" times in ms ({clock} clock)"
    )
    print("ours: the optimal play and its table, as rummikub-solver computes; +tidy: the default,")
    print("which also looks for an equally good play that keeps the existing sets together")
    header = (
        f"{'table':>5} | {'ours median':>11} {'ours max':>9} | {'+tidy median':>12} {'+tidy max':>9} |"
        f" {'theirs median':>13} {'theirs max':>10} | {'speed-up':>8} {'+tidy':>6} |"
        f" {'same tiles':>10} {'ours more':>9} {'theirs more':>11}"
    )
    print(header)
    print("-" * len(header))
    warm_up()
    for size in TABLE_SIZES:
        positions = [make_position(first_seed + i, size) for i in range(count)]
        ours, ours_tiles = time_ours(positions, tidy=False, clock=clock)
        tidy, _ = time_ours(positions, tidy=True, clock=clock)
        data = [{"table": [[str(t) for t in s] for s in p.table], "rack": [str(t) for t in p.rack]} for p in positions]
        theirs = run_theirs(data)
        om, ox = statistics.median(ours), max(ours)
        dm, dx = statistics.median(tidy), max(tidy)
        if theirs is None:
            print(f"{size:>5} | {om:>11.2f} {ox:>9.1f} | {dm:>12.2f} {dx:>9.1f} |")
            continue
        times = [r["seconds" if clock == "wall" else "cpu"] * 1000 for r in theirs]
        tm, tx = statistics.median(times), max(times)
        same = sum(1 for a, r in zip(ours_tiles, theirs, strict=True) if a == r["tiles"])
        more = sum(1 for a, r in zip(ours_tiles, theirs, strict=True) if a > r["tiles"])
        less = sum(1 for a, r in zip(ours_tiles, theirs, strict=True) if a < r["tiles"])
        print(
            f"{size:>5} | {om:>11.2f} {ox:>9.1f} | {dm:>12.2f} {dx:>9.1f} | {tm:>13.1f} {tx:>10.1f} |"
            f" {tm / om:>7.1f}x {tm / dm:>5.1f}x | {same:>10} {more:>9} {less:>11}"
        )


def tail(
    count: int, first_seed: int, objective: str = "tiles", tidy: bool = False, clock: str = "wall", slow: float = 0
) -> None:
    """Our times only, on many positions per size: median, 99th percentile, max, how many over 20 and 100 ms
    (with ``slow``, also every call over that many ms, with its table size and seed)."""
    print(
        f"{count} positions per table size, seeds {first_seed}..{first_seed + count - 1};"
        f" ours, objective {objective}{', tidy' if tidy else ''}, times in ms ({clock} clock)"
    )
    print(f"{'table':>5} | {'median':>7} {'p99':>7} {'max':>7} | {'over 20 ms':>10} {'over 100 ms':>11}")
    warm_up()
    slowest: list[tuple[float, int, int]] = []
    for size in TABLE_SIZES:
        positions = [make_position(first_seed + i, size) for i in range(count)]
        times, _ = time_ours(positions, tidy=tidy, objective=objective, clock=clock)
        if slow:
            slowest.extend((t, size, first_seed + i) for i, t in enumerate(times) if t > slow)
        times.sort()
        over = sum(1 for t in times if t > 100)
        over20 = sum(1 for t in times if t > 20)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"{size:>5} | {statistics.median(times):>7.2f} {p99:>7.1f} {times[-1]:>7.1f} | {over20:>10} {over:>11}",
            flush=True,
        )
    if slow:
        print(f"calls over {slow:g} ms (ms, table, seed):")
        for t, size, seed in sorted(slowest, reverse=True):
            print(f"  {t:7.1f}  table {size:>2}  seed {seed}")


def crosscheck(count: int, first_seed: int) -> int:
    """Compare with the set-by-set search on ``count`` seeded small positions; returns failures."""
    failures = 0
    started = time.perf_counter()
    for i in range(count):
        seed = first_seed + i
        rng = random.Random(seed)
        position = make_position(
            seed, rng.choice((0, 3, 6, 9, 12, 15, 18, 21, 24)), jokers=rng.choice((0, 1, 2, 2, 3, 4)), rack_range=(1, 11)
        )
        for objective in ("tiles", "points"):
            primary, secondary, jp, js = _weights(objective)

            def weight(t: Tile, primary: tuple[int, ...] = primary, secondary: tuple[int, ...] = secondary,
                       jp: int = jp, js: int = js) -> int:
                if t.colour is None:
                    return (jp << PRIMARY_SHIFT) - (1 << JOKER_SHIFT) + js
                return (primary[t.number] << PRIMARY_SHIFT) + secondary[t.number]

            table = [tuple(s) for s in position.table]
            mandatory = Counter(t for s in table for t in s)
            rack = list(position.rack)
            found = SetSearch(
                mandatory, Counter(rack), tile_sets(mandatory + Counter(rack)), weight, order=lambda t: t.code
            ).solve()
            expected = found[0] if found else 0
            for tidy in (False, True):
                solution = solve_tiles(table, rack, objective=objective, tidy=tidy)
                got = sum(weight(t) for t in solution.placed) if solution else 0
                if solution is not None:
                    TABLE.verify_pieces(table, rack, solution.placed, solution.table)
                    ok = TABLE.turn_fault(table, solution.placed, solution.table, None) is None
                    ok = ok and all(check_tiles(s).valid for s in solution.table)
                else:
                    ok = True
                if got != expected or not ok:
                    failures += 1
                    print(
                        f"MISMATCH seed {seed} {objective} tidy={tidy}: {position.text()}:"
                        f" solver {primary_of(got)} search {primary_of(expected)} valid={ok}"
                    )
        failures += crosscheck_initial(seed, rng)
    elapsed = time.perf_counter() - started
    print(
        f"cross-checked {count} positions x 2 objectives x tidy on/off, and {count} initial melds:"
        f" {failures} failures ({elapsed:.0f} s)"
    )
    return failures


def crosscheck_initial(seed: int, rng: random.Random) -> int:
    """The initial-meld objective on a rack of 6..18 tiles against the set-by-set search; 1 on a mismatch."""
    position = make_position(seed, 0, jokers=rng.choice((0, 1, 2, 2, 3, 4)), rack_range=(6, 18))
    threshold = rng.choice((0, 10, 20, 30, 30, 40, 50))
    rack = list(position.rack)
    primary, secondary, jp, js = _weights("tiles")

    def weight(t: Tile) -> int:
        if t.colour is None:
            return (jp << PRIMARY_SHIFT) - (1 << JOKER_SHIFT) + js
        return (primary[t.number] << PRIMARY_SHIFT) + secondary[t.number]

    found = SetSearch(
        Counter(), Counter(rack), tile_sets(Counter(rack)), weight, order=lambda t: t.code,
        meld_value=tile_meld_value, threshold=threshold,
    ).solve()
    expected = found[0] if found and found[1] else 0
    solution = solve_tiles([], rack, objective="initial", threshold=threshold)
    got = sum(weight(t) for t in solution.placed) if solution else 0
    ok = True
    if solution is not None:
        TABLE.verify_pieces([], rack, solution.placed, solution.table)
        ok = TABLE.turn_fault([], solution.placed, solution.table, initial_meld(threshold)) is None
        ok = ok and solution.meld_points >= threshold
    if got == expected and ok:
        return 0
    print(
        f"MISMATCH seed {seed} initial {threshold}: rack {format_tiles(sorted(rack))}:"
        f" solver {primary_of(got)} search {primary_of(expected)} valid={ok}"
    )
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="positions per table size")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--crosscheck", type=int, default=0, help="run the long cross-check on this many positions")
    parser.add_argument("--tail", type=int, default=0, help="time ours alone on this many positions per size")
    parser.add_argument(
        "--objective", choices=("tiles", "points", "initial"), default="tiles", help="the objective of --tail"
    )
    parser.add_argument("--slow", type=float, default=0, help="--tail also lists every call over this many ms")
    parser.add_argument("--tidy", action="store_true", help="--tail times the default call (with the tidy step)")
    parser.add_argument(
        "--clock", choices=tuple(CLOCKS), default="wall", help="elapsed time, or each process's CPU time"
    )
    args = parser.parse_args()
    if args.crosscheck:
        sys.exit(1 if crosscheck(args.crosscheck, args.seed) else 0)
    if args.tail:
        tail(args.tail, args.seed, args.objective, args.tidy, args.clock, args.slow)
        return
    benchmark(args.count, args.seed, args.clock)


if __name__ == "__main__":
    main()
