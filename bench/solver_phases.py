"""Each search of one solver call on the slow positions: its CPU time and its size.

    PYTHONPATH=src:bench .venv/bin/python bench/solver_phases.py                 # the usual slow positions
    PYTHONPATH=src:bench .venv/bin/python bench/solver_phases.py 45:1026 60:7    # table tiles:seed
    PYTHONPATH=src:bench .venv/bin/python bench/solver_phases.py --objective points --runs 5

Solves each position (``solver_positions.py``) with the default call (the tidy
step on) ``--runs`` times and prints, for the run with the least CPU time, every
search the call made in order: the depth-first searches with their node limit
(``dfs10000``: the first dive, ``dfs30000``: the relaxed searches, ``dfs1000``:
the quick probe, the tidy step's trials; ``above``: a probe for a strictly
better play), the relaxation, the beam and the sweep (``~``: the problem
mirrored, 13 first), with
the nodes or states each visited and whether it finished. Searches under
``--hide`` ms are left out. It wraps ``rummykit.solve.tiles._Kernel`` from
outside: the code it times is the tree's own.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from solver_positions import make_position

from rummykit.solve import solve_tiles, warm_up
from rummykit.solve import tiles as solver_tiles

SLOW = ((45, 1026), (30, 1050), (45, 1098), (45, 1122), (60, 7))
"""The slowest default and "points" calls of ``bench_solver.py --tail 150 --seed 1000`` and ``--count 100``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="*", help="table tiles:seed (default: the usual slow ones)")
    parser.add_argument(
        "--objective", choices=("tiles", "points"), default=None, help="one objective (default: both)"
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="calls per position (the least CPU time is shown)"
    )
    parser.add_argument("--hide", type=float, default=0.3, help="leave out searches under this many ms")
    args = parser.parse_args()
    cases = [tuple(map(int, p.split(":"))) for p in args.positions] or list(SLOW)
    objectives = (args.objective,) if args.objective else ("tiles", "points")
    warm_up()
    log: list[tuple[str, float, int, bool]] = []
    kernel_class: Any = solver_tiles._Kernel
    run, relax = kernel_class.run, kernel_class.relax

    def timed_run(
        self: Any, strategy: int, target: int, node_limit: int = -1, *rest: Any, **named: Any
    ) -> Any:
        start = time.process_time()
        answer = run(self, strategy, target, node_limit, *rest, **named)
        kind = {self.k.SWEEP: "sweep", self.k.BEAM: "beam", self.k.ABOVE: "above"}.get(strategy, "dfs")
        way = "~" if isinstance(self, solver_tiles._Mirrored) else ""
        name = f"{way}{kind}" if strategy == self.k.SWEEP else f"{way}{kind}{node_limit}"
        log.append((name, (time.process_time() - start) * 1e3, int(self.result[5]), bool(answer[1])))
        return answer

    def timed_relax(self: Any) -> None:
        start = time.process_time()
        relax(self)
        way = "~" if isinstance(self, solver_tiles._Mirrored) else ""
        log.append((f"{way}relax", (time.process_time() - start) * 1e3, 0, True))

    kernel_class.run, kernel_class.relax = timed_run, timed_relax
    for objective in objectives:
        for size, seed in cases:
            position = make_position(seed, size)
            best: tuple[float, list[tuple[str, float, int, bool]]] | None = None
            for _ in range(args.runs):
                log.clear()
                start = time.process_time()
                solve_tiles(position.table, position.rack, objective=objective, tidy=True)
                spent = (time.process_time() - start) * 1e3
                if best is None or spent < best[0]:
                    best = (spent, list(log))
            assert best is not None
            print(f"{objective} {size} tiles seed {seed}: {best[0]:.1f} ms of CPU, {len(best[1])} searches")
            for name, ms, visited, finished in best[1]:
                if ms >= args.hide:
                    print(
                        f"   {name:9} {ms:6.2f} ms  {visited:7d} nodes/states  {'finished' if finished else 'stopped'}"
                    )


if __name__ == "__main__":
    main()
