"""The solver's answers on seeded positions by their value, to compare two trees.

    PYTHONPATH=/path/to/tree/src:bench .venv/bin/python bench/solver_values.py write /tmp/values-tree.txt
    .venv/bin/python bench/solver_values.py compare /tmp/values-base.txt /tmp/values-tree.txt

``write`` solves the positions of ``solver_answers.py`` (seeds 1..100 and
1000..1149 at every table size of ``solver_positions.py``) four ways (default,
``tidy=False``, "points", initial meld at 30), checks that every answer is a
legal play (every final set valid, the table's tiles all still there, the
placed tiles from the rack, an initial meld's new sets worth the threshold and
the old sets untouched) and writes one line per answer: its value by the
objective and the documented tie-breaks (objective first, then fewer rack
jokers, then the second objective), and how many existing sets it keeps
together. Run it once per tree, each in its own process with ``PYTHONPATH`` at
that tree's ``src``.

``compare`` says where two files differ: in the value (which must never
happen: the solver is exact) or only in the sets kept together (the tidy step
is a preference among equally good plays, not part of the value; it says how
many answers keep more or fewer).
"""

from __future__ import annotations

import sys
from collections import Counter

from solver_answers import SEEDS, THRESHOLD, every_way
from solver_positions import TABLE_SIZES, make_position

from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import Tile
from rummykit.solve.play import TileSolution


def value(s: TileSolution | None, rack: tuple[Tile, ...]) -> tuple[int, ...]:
    """The answer's value by its objective and tie-breaks (None: no play), after checking it is legal."""
    if s is None:
        return ()
    final = [t for x in s.table for t in x]
    old = [t for x in s.old_table for t in x]
    placed = Counter(s.placed)
    if Counter(final) != Counter(old) + placed:
        raise AssertionError("the final table is not the old table and the placed tiles")
    if placed - Counter(rack):
        raise AssertionError("tiles placed that are not in the rack")
    for x in s.table:
        if not check_tiles(x).valid:
            raise AssertionError(f"an invalid set: {' '.join(map(str, x))}")
    jokers = sum(1 for t in s.placed if t.is_joker)
    if s.objective == "initial":
        if s.table[: len(s.old_table)] != s.old_table or s.meld_points < THRESHOLD:
            raise AssertionError("an initial meld that moves the table or falls short")
        return (s.tiles_placed, -jokers, s.points_placed)
    if s.objective == "points":
        return (s.points_placed, -jokers, s.tiles_placed)
    return (s.tiles_placed, -jokers, s.points_placed)


def write(path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for size in TABLE_SIZES:
            for seed in SEEDS:
                p = make_position(seed, size)
                for way, answer in every_way(p).items():
                    kept = -1 if answer is None else len(answer.kept)
                    out.write(f"{size} {seed} {way} {value(answer, p.rack)} {kept}\n")


def compare(before: str, after: str) -> int:
    with open(before, encoding="utf-8") as f:
        a = [line.split(" ", 3) for line in f.read().splitlines()]
    with open(after, encoding="utf-8") as f:
        b = [line.split(" ", 3) for line in f.read().splitlines()]
    if [x[:3] for x in a] != [x[:3] for x in b]:
        print("the files hold different positions")
        return 2
    values = 0
    kept: Counter[str] = Counter()
    for x, y in zip(a, b, strict=True):
        vx, kx = x[3].rsplit(" ", 1)
        vy, ky = y[3].rsplit(" ", 1)
        if vx != vy:
            values += 1
            print("value differs:", " ".join(x[:3]), vx, "->", vy)
        elif int(ky) != int(kx):
            kept[f"{x[2]} {'more' if int(ky) > int(kx) else 'fewer'}"] += 1
    print(f"{len(a)} answers, {values} with another value")
    for k, n in sorted(kept.items()):
        print(f"  {k} sets kept together: {n}")
    return 1 if values else 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
