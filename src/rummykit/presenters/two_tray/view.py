"""Two-tray drawn for a seat: cells as people number them (from 1), the grid, the trays and the status.

The game's notation counts rows and columns from 0; people count them from 1
(:data:`BASE`). The numbering lives here, at the edge: the engine's refusals
carry their cells counted from 0 and are worded from 1 by :func:`problem_text`
(and :func:`~rummykit.presenters.base.word_refusal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rummykit.blocks.grid import EMPTY, Cell, GridProblem, Put, parse_cell
from rummykit.engine.commands import SHOWN_FROM
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.presenters.base import View, Vocabulary, word_refusal
from rummykit.presenters.rummikub import by_colour, by_number
from rummykit.presenters.text import MOVED, NEW, Style, counted, fit, rack_line, seat_name, signed

BASE = SHOWN_FROM
"""What people's row and column numbers add to the notation's: the record's cell 0,0 is the screen's 1,1."""

REASONS = {
    "trays-empty": "emptied both trays",
    "blocked": "had the lowest total; the {pool} was empty and nobody could play",
    "target": "reached the target total",
    "max-rounds": "had the highest total when the round limit was reached",
}
WORDS = Vocabulary(piece="tile", pieces="tiles", rack="tray", pool="pool", opening="first play", reasons=REASONS)
ORDERS: dict[str, Callable[[Sequence[Tile]], list[list[Tile]]]] = {"colour": by_colour, "number": by_number}
ALIASES = {"color": "colour", "colours": "colour", "colors": "colour", "numbers": "number", "num": "number"}
CELL_WIDTH = 4
"""The least columns a grid cell takes on the screen (a tile and the space before it)."""

LEGEND = f"({NEW} placed from a tray, {MOVED} moved from another cell)"
"""What the change marks on a grid mean (said with the first marked grid)."""

Marks = Mapping[Cell, str]


# -- numbers: the notation's and the people's -------------------------------------------


def screen_cell(cell: Cell) -> str:
    """A cell of the notation (from 0) as people see and type it (from 1): ``ROW,COLUMN``."""
    return f"{cell[0] + BASE},{cell[1] + BASE}"


def problem_text(problem: GridProblem) -> str:
    """A grid problem as people read it: its cells and lines counted from 1, its rule id at the end."""
    return word_refusal(problem.error)


def _notation_cell(text: str) -> Cell:
    """A cell as a view or event writes it (the notation), or as a grid text holds it."""
    return parse_cell(text)


def _put_text(put: Put[Tile]) -> str:
    """One change of a play as people read it: ``1,4=R4`` or ``3,1=.``."""
    return f"{screen_cell(put.cell)}={EMPTY if put.piece is None else put.piece}"


def _cells(view: View) -> tuple[dict[Cell, str], dict[Cell, str]]:
    tiles = {(c["row"], c["col"]): str(c["tile"]) for c in view["grid"]}
    calls = {(c["row"], c["col"]): str(c["called"]) for c in view["grid"] if c["called"] is not None}
    return tiles, calls


def draw_grid(
    tiles: Mapping[Cell, str], calls: Mapping[Cell, str], style: Style, marks: Marks | None = None
) -> list[str]:
    """The grid with one empty row and column around it, row numbers on the left, column numbers on top.

    Numbers are the people's (from 1). ``marks`` puts a change mark before a
    tile (``+R7``, ``*K5``). A grid wider than the style's width is drawn in
    blocks of whole columns, as few blocks as fit and of even size, each under
    its own column numbers; a tile is never broken.

    >>> tiles = {(0, c): f'R{c + 1}' for c in range(9)}
    >>> for line in draw_grid(tiles, {}, Style(width=30), marks={(0, 8): '+'}):
    ...     print(line)
           0   1   2   3   4
       0   .   .   .   .   .
       1   .  R1  R2  R3  R4
       2   .   .   .   .   .
    <BLANKLINE>
           5   6   7   8   9  10
       0   .   .   .   .   .   .
       1  R5  R6  R7  R8 +R9   .
       2   .   .   .   .   .   .
    """
    marks = marks or {}
    if not tiles:
        return style.fit([f"  (the grid is empty: lay your first line anywhere, e.g. from cell {screen_cell((0, 0))})"])
    rows = [r for r, _ in tiles]
    cols = [c for _, c in tiles]
    top, bottom, left, right = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    label = max(len(str(r + BASE)) for r in range(top, bottom + 1)) + 3
    texts = {cell: marks.get(cell, "") + tile for cell, tile in tiles.items()}
    width = max(CELL_WIDTH, *(len(t) + 1 for t in texts.values()), *(len(str(c + BASE)) + 1 for c in (left, right)))
    columns = list(range(left, right + 1))
    count = blocks = len(columns)
    if style.width:
        fits = max(1, min(count, (style.width - label) // width))
        blocks = -(-count // fits)
    else:
        blocks = 1
    out: list[str] = []
    for k in range(blocks):
        # blocks of even size (their sizes differ by one at most), rather than a last sliver
        block = columns[k * count // blocks : (k + 1) * count // blocks]
        if out:
            out.append("")
        out.append(" " * label + "".join(f"{c + BASE:>{width}}" for c in block))
        for r in range(top, bottom + 1):
            cells = []
            for c in block:
                tile = tiles.get((r, c))
                if tile is None:
                    cells.append(" " * (width - 1) + style.dim(EMPTY))
                    continue
                mark = marks.get((r, c), "")
                pad = " " * (width - len(mark) - len(tile))
                cells.append(pad + style.marked(tile, mark))
            out.append(f"{r + BASE:>{label}}" + "".join(cells))
    for cell, called in sorted(calls.items()):
        out += style.fit([f"  Called: the joker at {screen_cell(cell)} is {style.piece(called)}."])
    return out


def grid_lines(view: View, style: Style) -> list[str]:
    """The view's grid, drawn."""
    tiles, calls = _cells(view)
    return draw_grid(tiles, calls, style)


@dataclass(frozen=True)
class GridChange:
    """What one play did to a grid: a mark per changed cell (new ``+`` or moved ``*``) and the moves.

    ``moved`` lists (tile, from cell, to cell) in the notation's cells.
    """

    marks: dict[Cell, str]
    moved: list[tuple[str, Cell, Cell]]

    @property
    def any(self) -> bool:
        """True when some tile is marked."""
        return bool(self.marks)


def grid_changes(before: Mapping[Cell, str], after: Mapping[Cell, str]) -> GridChange:
    """Which tiles of ``after`` came from a tray (new) and which from another cell (moved).

    A tile that arrived in a cell is *moved* when a cell that held that tile
    lost it, else *new*; each lost tile accounts for one arrival, so the
    counts are right even with both copies of a tile on the grid. Nothing is
    judged: the two grids are compared, cell by cell.

    >>> change = grid_changes({(0, 0): 'R1', (0, 1): 'R2', (0, 2): 'R3', (1, 5): 'K4'},
    ...                       {(0, 0): 'R1', (0, 1): 'R2', (0, 2): 'R3', (0, 3): 'K4', (0, 4): 'R5'})
    >>> sorted(change.marks.items()), change.moved
    ([((0, 3), '*'), ((0, 4), '+')], [('K4', (1, 5), (0, 3))])
    """
    lost: dict[str, list[Cell]] = {}
    for cell, tile in sorted(before.items()):
        if after.get(cell) != tile:
            lost.setdefault(tile, []).append(cell)
    marks: dict[Cell, str] = {}
    moved: list[tuple[str, Cell, Cell]] = []
    for cell, tile in sorted(after.items()):
        if before.get(cell) == tile:
            continue
        sources = lost.get(tile)
        if sources:
            marks[cell] = MOVED
            moved.append((tile, sources.pop(0), cell))
        else:
            marks[cell] = NEW
    return GridChange(marks, moved)


def moved_text(change: GridChange) -> str:
    """The moves in words, in the people's numbering (``""`` when nothing moved).

    >>> moved_text(GridChange({}, [('K4', (1, 5), (0, 3)), ('B4', (2, 5), (1, 3))]))
    'K4 from 2,6 to 1,4; B4 from 3,6 to 2,4'
    """
    return "; ".join(f"{tile} from {screen_cell(a)} to {screen_cell(b)}" for tile, a, b in change.moved)


# -- trays and status -------------------------------------------------------------------


def tray_lines(view: View, style: Style, order: str) -> list[str]:
    """The seat's trays, the playing one first and marked (nothing for a spectator), laid out to the width."""
    if "trays" not in view:
        return []
    seat = view["seat"]
    playing = view["playing"][seat]
    names = sorted(view["trays"], key=lambda n: (n != playing, n))
    out = []
    for name in names:
        tiles = parse_tiles(view["trays"][name])
        text = rack_line([[str(t) for t in g] for g in ORDERS[order](tiles)], style) or "(empty)"
        note = " (plays this turn)" if name == playing and seat in view["to_act"] else " (plays next)" if name == playing else ""
        if playing is None:
            note = " (either tray may play your first turn)" if name == names[0] else ""
        head = f"Tray {name}{note}: "
        line = f"{head}{text}  [{counted(len(tiles), 'tile')}]"
        if style.width and len(head) > style.width // 2:
            out += [*fit(head.rstrip(), style.width, 4), *fit(f"    {text}  [{counted(len(tiles), 'tile')}]", style.width, 4)]
        else:
            out += fit(line, style.width, len(head))
    return out


def status_lines(view: View, labels: Sequence[str], style: Style) -> list[str]:
    """Round, turn, pool and one line per seat: its trays' sizes, the tray it plays next, down or not."""
    players: list[str] = list(view.get("players", []))
    head = f"Round {view['round']}, turn {view['turn_number']}, pool: {counted(int(view['pool_size']), 'tile')}"
    out = [head]
    turn = view.get("turn")
    width = max((len(p) + (len(lbl) + 3 if lbl else 0) for p, lbl in zip(players, labels, strict=False)), default=0)
    for seat, name in enumerate(players):
        label = labels[seat] if seat < len(labels) else ""
        who = f"{name} ({label})" if label else name
        sizes = "  ".join(f"tray {t}: {n:>2}" for t, n in view["tray_sizes"][seat].items())
        playing = view["playing"][seat]
        nxt = f"next: tray {playing}" if playing else "next: either tray"
        parts = [f"{'>' if seat == turn else ' '} {who:<{width}}", sizes, nxt, "down" if view["down"][seat] else "not down yet"]
        if view.get("rounds"):
            parts.append(f"total {signed(int(view['totals'][seat]))}")
        out.append("  " + "  ".join(parts))
    if view.get("continuing") and turn is not None:
        out.append(
            f"  {seat_name(players, turn)} emptied a tray this turn and plays on from tray {view['playing'][turn]}."
        )
    return style.fit(out)


def reminder(view: View) -> str | None:
    """What the first play needs, while the seat is not down yet."""
    seat = view.get("seat")
    points = int(view["options"]["initial_meld_points"])
    if seat is None or view["down"][seat] or not points:
        return None
    return (
        f"You are not down yet: go down with one or more new lines from one tray worth at least"
        f" {counted(points, 'point')} on their own, not touching the tiles on the table; then, in the same"
        " turn, you may rearrange the table and play more from that tray."
    )
