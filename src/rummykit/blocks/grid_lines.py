"""The verdict on each line a drafted grid turn touches: for an interface that marks lines valid or not while a
person builds the turn (the server's ``check`` of a grid game's play). The game's grid rules judge; this only
picks the lines the turn touches and words each problem without its place.
"""

from __future__ import annotations

import re
from typing import TypedDict, TypeVar

from rummykit.blocks.grid_cells import Cell, Grid, cell_text
from rummykit.blocks.grid_rules import GridRules
from rummykit.errors import RuleError

__all__ = ["LineJudgement", "grid_lines"]

P = TypeVar("P")


class LineJudgement(TypedDict):
    """One line of a drafted grid and the engine's verdict on it.

    ``across`` is None for a tile alone in both directions (a line of one
    cell); ``cells`` are ``ROW,COLUMN`` as the notation numbers them;
    ``message`` is the engine's reason with the line's place, ``says`` the
    same reason without it (both None when the line is valid).
    """

    across: bool | None
    cells: list[str]
    ok: bool
    rule: str | None
    message: str | None
    says: str | None


_PLACE = re.compile(
    r"^(?:row|column) \{\w+\}(?:, (?:rows|columns|column) \{\w+\}(?:-\{\w+\})?)?(?::\s*|\s+)"
)
_PIECES = re.compile(r"^\(\{pieces\}\):\s*")
_CELL_AT = re.compile(r" at \{\w*row\},\{\w*col\}")


def _says(error: RuleError, line_cells: tuple[Cell, ...]) -> str:
    """The engine's reason for a line without the line's own place (the client marks its cells)."""
    params = error.params
    if error.rule.endswith("-JOKER-CROSS") and "first_needs" in params:
        # the problem names the joker's two lines, one across and one down: say which one this is
        first_across = "row {first_fixed}" in error.template
        across = len(line_cells) > 1 and line_cells[0][0] == line_cells[-1][0]
        mine, other = ("first_needs", "second_needs") if across == first_across else ("second_needs", "first_needs")
        return (
            f"its joker lies in two lines and must be one tile that fits both: this line needs it to be"
            f" {params[mine]}, the crossing line {params[other]}"
        )
    text = _CELL_AT.sub("", _PIECES.sub("", _PLACE.sub("", error.template, count=1)))
    shown = {k: ", ".join(map(str, v)) if isinstance(v, list) else str(v) for k, v in params.items()}
    try:
        return text.format_map(shown)
    except (KeyError, IndexError, ValueError):
        return error.worded(1)


def grid_lines(rules: GridRules[P], old: Grid[P], new: Grid[P]) -> list[LineJudgement]:
    """The engine's verdict on each line of ``new`` that the turn from ``old`` touches.

    Touched: a line through a cell the turn changed, or next to a cell it
    emptied; a tile the turn left alone in both directions comes as a line of
    one cell. Each is judged by the game's grid rules on the whole new grid
    (so a joker shared with a crossing line counts): valid, or the first
    problem the engine finds in it, with its rule and reason.
    """
    changed = {put.cell for put in old.diff(new)}
    focus: set[Cell] = set()
    for r, c in changed:
        for cell in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell in new and (cell in changed or (r, c) not in new):
                focus.add(cell)
    lines = sorted({line for cell in focus for line in new.lines_through(cell)},
                   key=lambda ln: (not ln.across, ln.fixed, ln.start))
    lone = sorted(c for c in focus if not new.lines_through(c))
    problems = rules.verdict(new).problems
    out: list[LineJudgement] = []
    for line in lines:
        cells = line.cells
        found = next(
            (pr for pr in problems if pr.cells == cells
             or (pr.rule.endswith("-JOKER-CROSS") and set(pr.cells) & set(cells))),
            None,
        )
        out.append(LineJudgement(
            across=line.across,
            cells=[cell_text(c) for c in cells],
            ok=found is None,
            rule=None if found is None else found.rule,
            message=None if found is None else found.reason,
            says=None if found is None else _says(found.error, cells),
        ))
    for cell in lone:
        found = next((pr for pr in problems if pr.cells == (cell,)), None)
        out.append(LineJudgement(
            across=None,
            cells=[cell_text(cell)],
            ok=found is None,
            rule=None if found is None else found.rule,
            message=None if found is None else found.reason,
            says=None if found is None else _says(found.error, (cell,)),
        ))
    return out
