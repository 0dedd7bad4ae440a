"""What ``rummykit solve`` and the ``hint`` command print (the CLI only passes text in and out).

>>> status, out = solve_command('R1 R2 R3 | K5 B5 O5', 'R4 J K7')
>>> status
0
>>> print(out)
place 2 tiles (34 points): R4 J
  add R4 J from your rack to set 1: R1 R2 R3 R4 J
final table: R1 R2 R3 R4 J | K5 B5 O5
>>> solve_command('R1 R2 | K5 B5 O5', 'R4')
(2, 'table set 1 (R1 R2) is invalid: a set needs at least 3 tiles: R1 R2')
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.errors import RummykitError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import Tile, format_tiles, parse_tiles
from rummykit.rulesets.rummikub import COPIES, format_table, parse_table
from rummykit.solve.play import OBJECTIVES, TileSolution, solve_tiles
from rummykit.solve.steps import screen_order

EXIT_OK = 0
EXIT_BAD = 2
MAX_JOKERS = 4


def check_position(table: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> str | None:
    """Why a position cannot be solved (invalid set, too many copies), or None."""
    for i, s in enumerate(table):
        c = check_tiles(s)
        if not c.valid:
            return f"table set {i + 1} ({format_tiles(s)}) is invalid: {c.reason}"
    counts = Counter(t for s in table for t in s) + Counter(rack)
    over = sorted(t for t, k in counts.items() if k > (MAX_JOKERS if t.is_joker else COPIES))
    if over:
        return (
            "more copies than the set has: "
            + ", ".join(f"{t} x{counts[t]}" for t in over)
            + f" (at most {COPIES} of each tile and {MAX_JOKERS} jokers)"
        )
    return None


def solve_command(
    table_text: str,
    rack_text: str,
    initial: bool = False,
    objective: str = "tiles",
    as_json: bool = False,
    threshold: int = 30,
) -> tuple[int, str]:
    """Solve a rummikub position given as text; returns (exit status, output).

    Sets are separated by ``|``. A bad position (unknown tile, too many copies, an
    invalid table set, an empty rack) gives status 2 and a one-line reason.
    """
    try:
        table = [tuple(s) for s in parse_table(table_text)]
        rack = parse_tiles(rack_text)
    except RummykitError as e:
        return EXIT_BAD, str(e)
    if objective not in OBJECTIVES or objective == "initial":
        return EXIT_BAD, f"unknown objective {objective!r}: use tiles or points (or --initial)"
    if not rack:
        return EXIT_BAD, "the rack is empty: give at least one tile with --rack"
    problem = check_position(table, rack)
    if problem is not None:
        return EXIT_BAD, problem
    solution = solve_tiles(table, rack, objective="initial" if initial else objective, threshold=threshold)
    if as_json:
        return EXIT_OK, json.dumps(solution_json(table, solution, initial=initial))
    return EXIT_OK, "\n".join(solution_lines(table, solution, initial=initial, threshold=threshold))


def solution_json(
    table: Sequence[Sequence[Tile]], solution: TileSolution | None, *, initial: bool = False
) -> dict[str, Any]:
    """A solution as one JSON object (``tiles_placed``, ``points_placed``, ``placed``, ``table``, ``steps``)."""
    if solution is None:
        return {
            "play": None,
            "tiles_placed": 0,
            "points_placed": 0,
            "placed": [],
            "table": [[str(t) for t in s] for s in table],
            "steps": [],
        }
    out: dict[str, Any] = {
        "play": f"play {format_tiles(solution.placed)} : {format_table(solution.table)}",
        "objective": solution.objective,
        "tiles_placed": solution.tiles_placed,
        "points_placed": solution.points_placed,
        "placed": [str(t) for t in solution.placed],
        "table": [[str(t) for t in s] for s in solution.table],
        "steps": [s.to_json() for s in solution.steps],
    }
    if initial:
        out["meld_points"] = solution.meld_points
    return out


def solution_lines(
    table: Sequence[Sequence[Tile]],
    solution: TileSolution | None,
    *,
    initial: bool = False,
    threshold: int = 30,
) -> list[str]:
    """A solution as lines of text: what to place, the steps, the final table."""
    if solution is None:
        if initial:
            return [f"no initial meld reaches {threshold} points from this rack: draw a tile"]
        return ["no play: draw a tile (or pass if the pool is empty)"]
    head = f"place {solution.tiles_placed} tile{'s' if solution.tiles_placed != 1 else ''}"
    if initial:
        head += f" as an initial meld worth {solution.meld_points} points"
    else:
        head += f" ({solution.points_placed} points)"
    lines = [f"{head}: {format_tiles(solution.placed)}"]
    lines.extend(f"  {s.text}" for s in solution.steps)
    # in the order of the sets given (the screen's), new sets after them, as the steps number them
    lines.append(f"final table: {format_table(s for _, s in screen_order(table, solution.table))}")
    return lines


def hint_lines(view: Mapping[str, Any]) -> list[str]:
    """The best play for the seat whose rummikub view this is, as steps (it plays nothing)."""
    seat = view.get("seat")
    if seat is None:
        return ["a spectator has no rack to play from"]
    table = [tuple(parse_tiles(s)) for s in view["table"]]
    rack = parse_tiles(view["rack"])
    threshold = int(view["options"]["initial_meld_points"])
    initial = not view["down"][seat] and threshold > 0
    solution = solve_tiles(table, rack, objective="initial" if initial else "tiles", threshold=threshold)
    if solution is None:
        what = "draw a tile" if view.get("pool_size") else "pass"
        if initial:
            return [f"hint: no initial meld of {threshold}+ points in your rack: {what}"]
        return [f"hint: no play from your rack: {what}"]
    lines = solution_lines(table, solution, initial=initial, threshold=threshold)
    numbered = "  ".join(f"[{n}] {format_tiles(s)}" for n, s in screen_order(table, solution.table))
    return ["hint: " + lines[0], *lines[1:-1], f"final table, numbered as on the screen: {numbered}"]
