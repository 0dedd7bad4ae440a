"""Write the solver's answers on seeded positions, to compare two trees byte for byte.

    PYTHONPATH=/path/to/tree/src:bench .venv/bin/python bench/solver_answers.py /tmp/answers-tree.txt

Solves seeds 1..100 and 1000..1149 at every table size of ``solver_positions.py``
four ways (default, ``tidy=False``, "points", initial meld at 30) and writes one
line per answer (objective, placed tiles, final table, old table, kept sets). Run
it once per tree, each in its own process with ``PYTHONPATH`` at that tree's
``src``, then ``cmp`` the two files: a change that keeps every answer gives the
same bytes.
"""

from __future__ import annotations

import argparse

from solver_positions import TABLE_SIZES, Position, make_position

from rummykit.solve import solve_tiles
from rummykit.solve.play import TileSolution

SEEDS = (*range(1, 101), *range(1000, 1150))


def text(s: TileSolution | None) -> str:
    """One answer as a line of text (timings left out)."""
    if s is None:
        return "None"
    return repr(
        (
            s.objective,
            [str(t) for t in s.placed],
            [[str(t) for t in x] for x in s.table],
            [[str(t) for t in x] for x in s.old_table],
            s.kept,
        )
    )


THRESHOLD = 30
"""The initial meld's threshold for the "initial" way."""


def every_way(p: Position) -> dict[str, TileSolution | None]:
    """The solver's answers on one position, four ways (also what ``solver_values.py`` compares)."""
    return {
        "default": solve_tiles(p.table, p.rack),
        "notidy": solve_tiles(p.table, p.rack, tidy=False),
        "points": solve_tiles(p.table, p.rack, objective="points"),
        "initial": solve_tiles(p.table, p.rack, objective="initial", threshold=THRESHOLD),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the solver's answers on seeded positions, one per line.")
    parser.add_argument("out", help="the file to write (compare two trees' files with cmp)")
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        for size in TABLE_SIZES:
            for seed in SEEDS:
                for way, answer in every_way(make_position(seed, size)).items():
                    out.write(f"{size} {seed} {way} {text(answer)}\n")


if __name__ == "__main__":
    main()
