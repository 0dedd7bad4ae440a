"""The ``two-tray`` presenter: the crossword grid with row and column labels, the trays, and the grid commands.

A person builds a turn in a :class:`GridTurn`: typed commands (``place``,
``move``, ``back``, ``undo``...) become steps of a
:class:`~rummykit.blocks.grid.GridDraft` that the game makes from the seat's
view, which reports what is wrong with the grid (every invalid line, with its
cells); ``commit`` turns the draft into the game's action. Whether anything
is legal is for the engine to say.

**Numbers.** People count rows and columns from 1, as every interface does:
the game's notation (records, actions, views, events) calls the first cell
0,0, and the screen and what a person types call it 1,1. The board has no
edge, so a grid that grows above or left of that cell has rows and columns
numbered 0 and below, on the screen as in the notation (-1 there). A cell
keeps its number for the whole round. This module is the one place that
converts (:func:`screen_cell` one way, :func:`typed_cell` the other), and
the draft it asks the game for names cells in the people's numbering
(``base`` 1), so no message a person reads uses the record's.

>>> view = {'grid': [{'row': 0, 'col': 0, 'tile': 'R1', 'called': None},
...                  {'row': 0, 'col': 1, 'tile': 'R2', 'called': None},
...                  {'row': 0, 'col': 2, 'tile': 'J', 'called': 'R3'}]}
>>> print('\\n'.join(grid_lines(view, Style())))
       0   1   2   3   4
   0   .   .   .   .   .
   1   .  R1  R2   J   .
   2   .   .   .   .   .
  Called: the joker at 1,3 is R3.
>>> screen_cell((0, 2)), typed_cell('1,3')
('1,3', (0, 2))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.blocks.grid import EMPTY, Cell, Grid, GridDraft, GridProblem, Put, cell_text, parse_cell
from rummykit.engine.core import Action, GameInfo
from rummykit.errors import ParseError, RummykitError
from rummykit.pieces.tiles import COLOURS, MAX_NUMBER, Tile, parse_tiles
from rummykit.presenters.base import Narrator, Presenter, Quit, Say, Solver, View, Vocabulary, word_refusal
from rummykit.presenters.freetable import describe_event as table_event
from rummykit.presenters.freetable import outcome_lines, round_end_lines
from rummykit.presenters.rummikub import by_colour, by_number
from rummykit.presenters.text import (
    MOVED,
    NEW,
    HelpRow,
    Style,
    counted,
    fit,
    help_table,
    no_args,
    rack_line,
    seat_name,
    signed,
    unknown_command,
)
from rummykit.rulesets.two_tray import (
    DOWN,
    INFO,
    INVALID_TABLE_PENALTY,
    TRAY_SIZE,
    WRONG_TRAY_PENALTY,
    Call,
    Fail,
    Play,
    call_options,
    draft_action,
    draft_from_view,
    grid_from_view,
    joker_options,
    split_down,
)

__all__ = [
    "BASE",
    "LEGEND",
    "NOTATION",
    "PRESENTER",
    "RULES",
    "WORDS",
    "GridNarrator",
    "GridTurn",
    "TwoTrayPresenter",
    "command_text",
    "describe_event",
    "draw_grid",
    "grid_changes",
    "grid_lines",
    "help_rows",
    "screen_cell",
    "typed_cell",
]

BASE = 1
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
EXAMPLE_CELL = "3,4"

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


def typed_cell(text: str) -> Cell:
    """The cell (in the notation) of a cell a person typed as the screen numbers it.

    >>> typed_cell('1,1'), typed_cell(' 0,-2 ')
    ((0, 0), (-1, -3))
    """
    row, col = parse_cell(text)
    return row - BASE, col - BASE


def _notation_cell(text: str) -> Cell:
    """A cell as a view or event writes it (the notation), or as a grid text holds it."""
    return parse_cell(text)


def _put_text(put: Put[Tile]) -> str:
    """One change of a play as people read it: ``1,4=R4`` or ``3,1=.``."""
    return f"{screen_cell(put.cell)}={EMPTY if put.piece is None else put.piece}"


def _typed_change(text: str) -> Put[Tile]:
    """A change typed ``ROW,COLUMN=TILE`` (or ``=.``) in the people's numbering, as the notation's."""
    put = Put.from_notation(text, Tile.parse)
    return Put(put.row - BASE, put.col - BASE, put.piece)


# -- drawing grids ----------------------------------------------------------------------


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


# -- events ---------------------------------------------------------------------------


def describe_event(
    event: View,
    names: Sequence[str],
    style: Style,
    *,
    before: Mapping[Cell, str] | None = None,
    calls: Mapping[Cell, str] | None = None,
    legend: bool = False,
) -> list[str]:
    """Lines telling one event as a seat sees it (``[]``: nothing to tell), laid out to the style's width.

    Cells are named as people count them (from 1). Given the grid ``before``
    a play (and its ``calls``), the play is shown on the grid it leaves, with
    its new and moved tiles marked, and a line says what moved; ``legend``
    adds a line that explains the marks. Without it, the play lists the cells
    it changed.

    >>> play = {'kind': 'play', 'player': 0, 'tray': 'A', 'changes': ['0,3=R4'], 'placed': ['R4'],
    ...         'opening': False, 'tray_sizes': {'A': 5, 'B': 14}}
    >>> describe_event(play, ['ann', 'bob'], Style())
    ['ann plays R4 from tray A; tray A: 5, tray B: 14', '    cells: 1,4=R4']
    >>> for line in describe_event(play, ['ann', 'bob'], Style(), before={(0, 0): 'R1', (0, 1): 'R2', (0, 2): 'R3'},
    ...                            legend=True):
    ...     print(line)
    ann plays R4 from tray A; tray A: 5, tray B: 14
           0   1   2   3   4   5
       0   .   .   .   .   .   .
       1   .  R1  R2  R3 +R4   .
       2   .   .   .   .   .   .
        (+ placed from a tray, * moved from another cell)
    """
    kind = str(event.get("kind"))
    if kind == "play" and before is not None:
        return _play_on_grid(event, names, style, before, calls or {}, legend)
    return style.fit(_describe(event, names, style))


def _play_head(event: View, names: Sequence[str], style: Style) -> str:
    who = seat_name(names, event.get("player"))
    note = " (going down)" if event.get("opening") else ""
    sizes = ", ".join(f"tray {t}: {n}" for t, n in event.get("tray_sizes", {}).items())
    return f"{who} plays {style.pieces(event.get('placed', []))} from tray {event.get('tray')}{note}; {sizes}"


def _changes(event: View) -> list[Put[Tile]]:
    return [Put.from_notation(str(text), Tile.parse) for text in event.get("changes", [])]


def after_play(before: Mapping[Cell, str], event: View) -> dict[Cell, str]:
    """The grid a ``play`` event leaves (cell -> tile text), from the grid before it."""
    grid = dict(before)
    for put in _changes(event):
        if put.piece is None:
            grid.pop(put.cell, None)
        else:
            grid[put.cell] = str(put.piece)
    return grid


def _play_on_grid(
    event: View,
    names: Sequence[str],
    style: Style,
    before: Mapping[Cell, str],
    calls: Mapping[Cell, str],
    legend: bool,
) -> list[str]:
    after = after_play(before, event)
    change = grid_changes(before, after)
    kept = {cell: tile for cell, tile in calls.items() if after.get(cell) == "J"}
    lines = style.fit([_play_head(event, names, style)])
    moved = moved_text(change)
    if moved:
        lines += style.fit([f"    moved: {moved}"], hang=11)
    lines += draw_grid(after, kept, style, change.marks)
    if legend and change.any:
        lines += style.fit([f"    {LEGEND}"])
    return lines


def _describe(event: View, names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = seat_name(names, event.get("player"))
    if kind == "deal":
        first = seat_name(names, event.get("first"))
        size = int(event.get("tray_size", 0))
        return [style.bold(f"Round {event.get('round', 1)} dealt: two trays of {counted(size, 'tile')} each; {first} plays first.")]
    if kind == "trays":
        if "trays" not in event:
            return []
        return [f"{who}'s tray {name}: {style.pieces(tiles)}" for name, tiles in event["trays"].items()]
    if kind == "draw":
        drawn = f" {style.piece(str(event['piece']))}" if "piece" in event else " a tile"
        return [f"{who} draws{drawn} onto tray {event.get('tray')} (pool: {event.get('pool_size')})"]
    if kind == "pass":
        return [f"{who} passes (the pool is empty)"]
    if kind == "play":
        changes = " ".join(_put_text(p) for p in _changes(event))
        return [_play_head(event, names, style), f"    cells: {changes}"]
    if kind == "call":
        cell = screen_cell(_notation_cell(str(event.get("cell"))))
        return [f"{who} calls the joker at {cell} {style.piece(str(event.get('tile')))}"]
    if kind == "tray-empty":
        return [f"{who} has emptied tray {event.get('tray')} and plays on at once from tray {event.get('next')}"]
    if kind == "end":
        return [f"{who} ends the turn without playing from the other tray"]
    if kind == "merge":
        return [
            f"{who} combines both trays into tray {event.get('tray')} ({counted(int(event.get('tray_size', 0)), 'tile')});"
            " from now on both players play from one tray"
        ]
    if kind == "penalty":
        # The reason (secret, the acting seat's only) names cells as the notation does; the person who
        # took the penalty at the prompt has just read it in screen numbers (GridTurn.accepted).
        n = int(event.get("drawn", 0))
        wrong = event.get("penalty") == "wrong-tray"
        what = "played from the wrong tray" if wrong else "committed an invalid table"
        tray = event.get("tray")
        again = f"; the marker stays by tray {tray}, which plays again next turn" if wrong else ""
        lines = [
            f"{who} {what} (rule {event.get('rule')}): the table is restored and {who}"
            f" draws {counted(n, 'penalty tile')} onto tray {tray}{again}"
        ]
        if "pieces" in event:
            lines.append(f"    drawn: {style.pieces(event['pieces'])}")
        return lines
    if kind == "position":
        return ["The game starts from a set position."]
    if kind == "round-end":
        return round_end_lines(event, names, style, WORDS)
    if kind == "match-end":
        return outcome_lines(event, names, style, WORDS)
    return table_event(event, names, style, words=WORDS)


class GridNarrator:
    """Tells a two-tray game's events in order, showing each play on the grid with its tiles marked.

    It keeps the grid as the events showed it last (empty at a deal, as the
    ``position`` event sets it, as each ``play`` and ``call`` leaves it), so
    it can draw the grid after each play and mark what the play changed. The
    marks are explained the first time they appear. Before it knows the grid
    (a game resumed in the middle), a play lists the cells it changed.
    """

    def __init__(self, names: Sequence[str], style: Style) -> None:
        self.names = list(names)
        self.style = style
        self.grid: dict[Cell, str] | None = None
        """The grid before the next event (None: not known yet)."""
        self.calls: dict[Cell, str] = {}
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """See :func:`describe_event`."""
        kind = event.get("kind")
        if kind == "play" and self.grid is not None:
            before = self.grid
            after = after_play(before, event)
            legend = not self.explained and grid_changes(before, after).any
            lines = describe_event(event, self.names, self.style, before=before, calls=self.calls, legend=legend)
            self.explained = self.explained or legend
            self.grid = after
            self.calls = {cell: tile for cell, tile in self.calls.items() if after.get(cell) == "J"}
            return lines
        lines = describe_event(event, self.names, self.style)
        if kind == "deal":
            self.grid, self.calls = {}, {}
        elif kind == "position" and "grid" in event:
            grid = Grid.parse(str(event["grid"]), Tile.parse)
            self.grid = {cell: str(tile) for cell, tile in grid.cells.items()}
            self.calls = {cell: str(tile) for cell, tile in grid.calls.items()}
        elif kind == "call" and self.grid is not None:
            self.calls[_notation_cell(str(event.get("cell")))] = str(event.get("tile"))
        return lines


# -- commands -------------------------------------------------------------------------


def help_rows(view: View) -> list[HelpRow]:
    """The turn commands (cells as the grid labels them, from 1)."""
    return [
        (f"place R7 {EXAMPLE_CELL}", "put a tile from your playing tray in cell row 3, column 4 (several: place R7 3,4 R8 3,5)"),
        ("move 3,4 5,1", "move the tile in cell 3,4 to the empty cell 5,1"),
        ("back 3,4", "take a tile you placed this turn back to your tray"),
        ("undo | reset", "undo the last step | start the turn again"),
        ("check", "list every invalid line, and what each joker can stand for"),
        ("commit (or done)", "end your turn with the grid as it is"),
        ("play A 3,4=R7 3,5=R8", "a whole turn in one line: the tray, then each changed cell (=. empties it); commits"),
        ("play ... down ...", "going down: after `down`, your going-down lines as first laid, if the turn moved them"),
        ("tray A|B", "on your first turn: play from tray A or tray B"),
        ("draw A|B", "draw a tile onto your playing tray, ending the turn (first turn: onto the tray you name)"),
        ("pass", "end the turn when the pool is empty"),
        ("end", "after emptying a tray this turn: stop without playing from the other one"),
        ("call 3,1 O3", "call the joker in cell 3,1 (in a 3-tile group) the tile O3"),
        (
            "penalty",
            f"commit anyway: the table is restored and you draw {INVALID_TABLE_PENALTY}"
            f" ({WRONG_TRAY_PENALTY} for playing from the wrong tray)",
        ),
        (f"sort {'|'.join(ORDERS)}", "order your trays"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]


def help_lines(view: View, width: int = 0) -> list[str]:
    """The command list with its heading, laid out to ``width``."""
    head = (
        "Commands (cells are ROW,COLUMN as the grid is labelled, counted from 1; tiles are written like"
        " R7, K13, J):"
    )
    return help_table(head, help_rows(view), width)


def command_text(action: Action) -> str:
    """The command a person types for ``action``: its text without the seat, cells counted from 1.

    >>> command_text(INFO.parse_action('0 call 2,0 O3')), command_text(INFO.parse_action('1 draw b'))
    ('call 3,1 O3', 'draw B')
    >>> command_text(INFO.parse_action('0 play A 0,3=R4 -1,0=.'))
    'play A 0,1=. 1,4=R4'
    >>> command_text(INFO.parse_action('0 play A 0,3=R10 2,0=R11 2,1=R12 2,2=R13 down 2,0=R10 2,1=R11 2,2=R12'))
    'play A 1,4=R10 3,1=R11 3,2=R12 3,3=R13 down 3,1=R10 3,2=R11 3,3=R12'
    """
    if isinstance(action, Call):
        return f"call {screen_cell((action.row, action.col))} {action.tile}"
    if isinstance(action, Play | Fail):
        verb = "play" if isinstance(action, Play) else "penalty"
        words = [verb, action.tray, *(_put_text(p) for p in action.changes)]
        if action.down:
            words += [DOWN, *(_put_text(p) for p in action.down)]
        return " ".join(words)
    return action.text()  # draw A, pass, end: no numbers


def _order_name(text: str) -> str:
    key = ALIASES.get(text.strip().lower(), text.strip().lower())
    if key not in ORDERS:
        raise ParseError(f"sort by {' or '.join(ORDERS)}, not {text.strip()!r}")
    return key


class GridTurn:
    """One person's turn: a grid draft driven by typed commands (see :func:`help_rows`)."""

    label = "turn"

    def __init__(
        self,
        view: View,
        *,
        parse_action: Callable[[str], Action],
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        self.view = view
        self.seat = int(view["seat"])
        self.parse_action = parse_action
        self.say = say
        self.style = style
        self.labels = labels
        self.order = order if order in ORDERS else next(iter(ORDERS))
        self.draft: GridDraft[Tile] = draft_from_view(view)
        self.ended_by: str | None = None
        self.penalised: list[str] = []
        """The problems of a turn committed with ``penalty`` (in the people's numbering), said once accepted."""
        self.echo = True
        """Kept for the :class:`~rummykit.presenters.base.Turn` interface. A grid draft has no :meth:`board`
        for an interface to draw, so each drafting step says the drafted grid even when this is False."""
        self.draws_draft = False
        """True once an interface asked for :meth:`draft_view` (it draws the draft itself, like the terminal
        app's grid): from then on a drafting step no longer says the drafted grid."""

    def board(self) -> None:
        """None: a two-tray turn is a grid draft, not a free table; each step says the drafted grid."""
        return None

    def draft_view(self) -> dict[str, Any]:
        """The seat's view as this turn has drafted it, for an interface that draws the grid itself.

        ``grid`` and ``trays`` are as drafted (the notation's cells, from 0);
        ``draft`` adds ``tray`` (the tray played from), ``base`` (the number
        the screen gives row 0 and column 0, for the commands' cells),
        ``marks`` (``[row, col, mark]``: ``+`` placed, ``*`` moved),
        ``problems`` (each ``text``, the engine's check with its rule id, and
        its ``cells``), ``placed`` (tiles placed this turn) and ``ready`` (the
        draft may be committed). Asking for it sets :attr:`draws_draft`.
        """
        self.draws_draft = True
        view = dict(self.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
        trays = dict(view["trays"])
        trays[self.draft.tray_name] = [str(t) for t in sorted(self.draft.tray)]
        view["trays"] = trays
        placed = self.draft.placed()
        problems = self.draft.problems() if self.draft.changed or placed else []
        view["draft"] = {
            "tray": self.draft.tray_name,
            "base": BASE,
            "marks": [[r, c, mark] for (r, c), mark in sorted(self.marks().items())],
            "problems": [{"text": problem_text(p), "cells": [list(cell) for cell in p.cells]} for p in problems],
            "placed": [str(t) for t in placed],
            "ready": bool(placed) and not problems,
        }
        return view

    # -- screens ---------------------------------------------------------------------

    def marks(self) -> dict[Cell, str]:
        """The tiles the turn has placed (``+``) and moved (``*``) so far, by cell."""
        before = {cell: str(t) for cell, t in self.draft.original.cells.items()}
        return grid_changes(before, {cell: str(t) for cell, t in self.draft.cells.items()}).marks

    def table_lines(self) -> list[str]:
        """The drafted grid (what the turn changed marked), what is wrong with it, and the trays."""
        tiles = {cell: str(t) for cell, t in self.draft.cells.items()}
        calls = {cell: str(t) for cell, t in self.draft.grid.calls.items()}
        lines = ["Grid:", *draw_grid(tiles, calls, self.style, self.marks())]
        placed = self.draft.placed()
        notes = []
        if placed:
            where = [f"{t} at {screen_cell(p.cell)}" for p in self.draft.changes() if (t := p.piece) is not None]
            notes.append(f"Placed or moved this turn ({NEW} placed, {MOVED} moved): {', '.join(where)}")
        if self.draft.changed or placed:
            problems = self.draft.problems()
            if not problems:
                notes.append("Ready: `commit` ends your turn with this grid.")
            notes += [self.style.warn(f"Not yet: {problem_text(p)}") for p in problems]
        lines += self.style.fit(notes)
        return lines + self.tray_text()

    def tray_text(self) -> list[str]:
        """The trays as drafted (the playing tray without the tiles placed so far)."""
        view = dict(self.view)
        trays = dict(view["trays"])
        trays[self.draft.tray_name] = [str(t) for t in sorted(self.draft.tray)]
        view["trays"] = trays
        playing = list(view["playing"])
        playing[self.seat] = self.draft.tray_name
        view["playing"] = playing
        return tray_lines(view, self.style, self.order)

    def screen(self) -> list[str]:
        """Status of both seats, the grid, the trays and a reminder."""
        lines = status_lines(self.view, self.labels, self.style) + self.table_lines()
        notes = []
        note = reminder(self.view)
        if note and not self.draft.placed():
            notes.append(note)
        if self.view["playing"][self.seat] is None:
            notes.append("Your first turn: `tray B` plays from tray B instead of tray A; `draw A` or `draw B` draws.")
        return lines + self.style.fit(notes)

    def accepted(self) -> list[str]:
        """A note when a draw, pass or end put unfinished moves back, or what a penalty was taken for."""
        if self.ended_by == "penalty" and self.penalised:
            return self.style.fit([f"You took the penalty for: {'; '.join(self.penalised)}"], hang=4)
        if self.ended_by in ("draw", "pass", "end") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, view: View) -> list[str]:
        """A new view of the same seat (after a call, or after emptying a tray): the draft follows it."""
        old = self.draft
        self.view = view
        self.draft = draft_from_view(view)
        if old.original.cells == self.draft.original.cells and old.tray_name == self.draft.tray_name:
            # Only a call changed: keep the moves drafted so far (and the going-down lines they hold).
            self.draft.cells = dict(old.cells)
            self.draft.tray = list(old.tray)
            self.draft.down = old.down
        self.ended_by = None
        return self.screen()

    # -- commands ----------------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command: the action to apply, or None (it only drafted or showed something)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise unknown_command(words[0], str(self.view["game"]))
        action = handler(args)
        if action is not None:
            self.ended_by = verb
        return action

    def _handlers(self) -> dict[str, Callable[[list[str]], Action | None]]:
        return {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "tray": self._tray,
            "place": self._place,
            "move": self._move,
            "back": self._back,
            "undo": self._undo,
            "reset": self._reset,
            "check": self._check,
            "commit": self._commit,
            "done": self._commit,
            "play": self._play,
            "penalty": self._penalty,
            "draw": self._draw,
            "pass": self._pass,
            "end": self._end,
            "call": self._call,
            "quit": self._quit,
            "exit": self._quit,
        }

    def _changed(self) -> None:
        if not self.draws_draft:
            self.say(*self.table_lines())

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.view, self.style.width))

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(ORDERS)}")
        self.order = _order_name(args[0])
        self.say(*self.tray_text())

    def _trays_allowed(self) -> list[str]:
        """The trays this turn may play from or draw onto: the playing one, or any on a first turn."""
        playing = self.view["playing"][self.seat]
        return list(self.view["trays"]) if playing is None else [playing]

    def _choose_tray(self, text: str) -> None:
        """Draft the turn from tray ``text`` (a first turn may choose; later turns play the playing tray)."""
        name = text.strip().upper()
        if name != self.draft.tray_name:
            self.draft = draft_from_view(self.view, name)  # the trays take turns: the game refuses another

    def _tray(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError("usage: tray A (or tray B): the tray your first turn plays from")
        self._choose_tray(args[0])
        self.say(f"Playing from tray {self.draft.tray_name}.", *self.table_lines())

    def _place(self, args: list[str]) -> None:
        if not args or len(args) % 2:
            raise ParseError(f"usage: place TILE ROW,COLUMN [TILE ROW,COLUMN ...] (e.g. place R7 {EXAMPLE_CELL})")
        steps = [(Tile.parse(args[i]), typed_cell(args[i + 1])) for i in range(0, len(args), 2)]
        done = 0
        try:
            for tile, cell in steps:
                self.draft.place(tile, cell)
                done += 1
        except RummykitError:
            for _ in range(done):
                self.draft.undo()
            raise
        self._changed()

    def _move(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: move FROM TO, two cells ROW,COLUMN (e.g. move 3,4 5,1)")
        self.draft.move(typed_cell(args[0]), typed_cell(args[1]))
        self._changed()

    def _back(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: back ROW,COLUMN (e.g. back {EXAMPLE_CELL})")
        self.draft.back(typed_cell(args[0]))
        self._changed()

    def _undo(self, args: list[str]) -> None:
        no_args("undo", args)
        self.draft.undo()
        self._changed()

    def _reset(self, args: list[str]) -> None:
        no_args("reset", args)
        if not self.draft.changed and not self.draft.placed():
            raise ParseError("nothing to reset: the grid is as the turn began")
        self.draft.reset()
        self._changed()

    def _check(self, args: list[str]) -> None:
        no_args("check", args)
        problems = self.draft.problems()
        lines = [f"  {problem_text(p)}" for p in problems] if problems else ["The grid is valid: `commit` ends your turn with it."]
        view = dict(self.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
        for cell, options in joker_options(view).items():
            lines.append(f"  The joker at {screen_cell(cell)} can stand for {' or '.join(options)}.")
        self.say(*self.style.fit(lines, hang=4))

    def _problems_said(self, anyway: str) -> bool:
        """Say what keeps the draft from being committed (True if anything does)."""
        problems = self.draft.problems()
        if not problems:
            return False
        if len(problems) == 1:
            self.say(*self.style.fit([f"! Cannot commit: {problem_text(problems[0])}; {anyway}."], hang=4))
        else:
            self.say(*self.style.fit([f"! Cannot commit, {counted(len(problems), 'problem')} ({anyway}):"], hang=4))
            self.say(*self.style.fit((f"    {problem_text(p)}" for p in problems), hang=6))
        return True

    def _commit(self, args: list[str]) -> Action | None:
        no_args("commit", args)
        if not self.draft.placed():
            raise ParseError("nothing placed from your tray yet: place tiles, or `draw`")
        if self._problems_said(f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
            return None
        return draft_action(self.seat, self.draft)

    def _whole_turn(self, verb: str, args: list[str]) -> None:
        """Draft a whole turn typed in one line (``TRAY CELL=TILE ... [down CELL=TILE ...]``), from the start of
        the turn."""
        if len(args) < 2:
            raise ParseError(f"usage: {verb} TRAY ROW,COLUMN=TILE ... (e.g. {verb} A 3,4=R7 3,5=R8; =. empties a cell)")
        words, down_words = split_down(args[1:])
        changes = [_typed_change(word) for word in words]
        down = [_typed_change(word) for word in down_words]
        previous = self.draft
        self._choose_tray(args[0])
        try:
            self.draft.apply(changes, down)
        except RummykitError:
            self.draft = previous
            raise

    def _play(self, args: list[str]) -> Action | None:
        self._whole_turn("play", args)
        if self._problems_said(f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
            self.say(*self.table_lines())
            return None
        return draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        if args:
            self._whole_turn("penalty", args)
        self.penalised = [problem_text(p) for p in self.draft.problems()]
        return draft_action(self.seat, self.draft, accept_penalty=True)

    def _draw(self, args: list[str]) -> Action:
        if len(args) > 1:
            raise ParseError("usage: draw, or draw A / draw B on your first turn")
        playing = self.view["playing"][self.seat]
        if args:
            name = args[0]
        elif playing is not None:
            name = playing
        else:
            raise ParseError("on your first turn, name the tray the tile goes onto: draw A or draw B")
        return self.parse_action(f"{self.seat} draw {name}")

    def _pass(self, args: list[str]) -> Action:
        no_args("pass", args)
        return self.parse_action(f"{self.seat} pass")

    def _end(self, args: list[str]) -> Action:
        no_args("end", args)
        return self.parse_action(f"{self.seat} end")

    def _call(self, args: list[str]) -> Action:
        if len(args) != 2:
            raise ParseError("usage: call ROW,COLUMN TILE (e.g. call 3,1 O3)")
        cell, tile = typed_cell(args[0]), Tile.parse(args[1])
        # whether the joker may be called so is the engine's to say; its refusal names the cell as data
        return self.parse_action(f"{self.seat} call {cell_text(cell)} {tile}")

    def _quit(self, args: list[str]) -> None:
        raise Quit

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The commands; after one, what it takes that the seat holds or may name: the playing tray's
        tiles not placed or typed yet (``place``), the cells of the tiles placed this turn (``back``),
        the trays the turn may use (``tray``, ``draw``, ``play``), the jokers' cells and the tiles each
        may be called (``call``), the sort orders. Cells are offered as the screen numbers them.

        >>> from rummykit.rulesets.two_tray import from_position
        >>> state = from_position('grid: 0,0: K9 B9 J; trays: A[R4 O9 R5] B[K1] / A[O1] B[B1]; next: A B; down: 11')
        >>> turn = GridTurn(state.view(0), parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.completions(['place']), turn.completions(['place', 'r4', '2,1']), turn.completions(['place', 'R4'])
        (['O9', 'R4', 'R5'], ['O9', 'R5'], [])
        >>> turn.completions(['call']), turn.completions(['call', '1,3']), turn.completions(['draw'])
        (['1,3'], ['O9', 'R9'], ['A'])
        """
        if not words:
            return sorted(verb for verb in self._handlers() if verb.isalpha())
        verb, args = words[0].lower(), list(words[1:])
        if verb == "place" and len(args) % 2 == 0:
            return self._tray_left(args[0::2])
        if verb == "back" and not args:
            return [screen_cell(cell) for cell, mark in sorted(self.marks().items()) if mark == NEW]
        if verb in ("tray", "draw", "play", "penalty") and not args:
            return self._trays_allowed()
        if verb == "call" and not args:
            return [screen_cell(cell) for cell, tile in sorted(self.draft.original.cells.items()) if tile.colour is None]
        if verb == "call" and len(args) == 1:
            try:
                cell = typed_cell(args[0])
            except ParseError:
                return []
            return [str(t) for t in call_options(grid_from_view(self.view), cell)]
        if verb == "sort" and not args:
            return list(ORDERS)
        return []

    def _tray_left(self, typed: Sequence[str]) -> list[str]:
        """The drafted playing tray's tiles (each kind once, in the tray's order) not all named in ``typed``."""
        left = Counter(str(t) for t in self.draft.tray)
        for word in typed:
            try:
                left[str(Tile.parse(word))] -= 1
            except ParseError:
                continue
        shown = [str(t) for group in ORDERS[self.order](self.draft.tray) for t in group]
        return [t for t in dict.fromkeys(shown) if left[t] > 0]


# -- the presenter --------------------------------------------------------------------

RULES = (
    f"Two players each get two trays of {TRAY_SIZE} tiles, A and B (the rummikub tiles: 1 to {MAX_NUMBER} in"
    " four colours, two of each, and 2 jokers); the rest are the pool. Tiles never move between trays.",
    "The table is a crossword grid: every line of touching tiles, across (read left to right) or down (read"
    " top to bottom), has 3 or more tiles and is a group (one number, different colours) or a run (one"
    " colour, going up by one). A tile may lie in a line across and a line down; a joker in two lines"
    " stands for one tile that fits both.",
    "The trays take turns: your first turn plays from (or draws onto) either tray, then they alternate."
    " A turn plays tiles of the playing tray, rearranging the grid freely once you are down, or draws a"
    " tile onto it. Going down is new lines from one tray worth at least 30 points on their own (option"
    " initial_meld_points) that do not touch the table; the rest of that turn may then rearrange the table"
    " and play more from the same tray.",
    "A joker in a group of exactly 3 tiles may be called a colour the group lacks (`call`). Tiles of the"
    f" wrong tray cost {counted(WRONG_TRAY_PENALTY, 'penalty tile')}, an invalid table"
    f" {counted(INVALID_TABLE_PENALTY, 'penalty tile')}, drawn onto the tray that should have played; after"
    " the wrong tray, that tray plays again next turn (the marker stays by it).",
    "Empty one tray and you play on at once from the other; if you do not go out in that turn, your"
    " opponent combines both trays into one. Whoever empties everything wins the round and scores what the"
    " loser holds (a joker counts 30); a match is one round unless the option target is set.",
)
"""The rules in brief, for ``rummykit rules``."""

NOTATION = (
    "A tile is a colour letter and a number: "
    + ", ".join(f"{c.letter} {c.name.lower()}" for c in COLOURS)
    + "; R7 is the red 7. J is a joker.",
    "A cell is ROW,COLUMN: rows go down, columns to the right. On the screen and at the prompt they are"
    " numbered from 1, as the grid is labelled (place R7 3,4); the board has no edge, so a grid that grows"
    " above or left of the first cell has rows and columns 0 and below. The game record counts from 0:"
    " the screen's cell 1,1 is the record's 0,0.",
    "On a grid, . is an empty cell; after a play +R7 marks a tile placed from a tray and *K5 a tile moved"
    " from another cell.",
)
"""How tiles and cells are written, for ``rummykit rules``."""


@dataclass(frozen=True)
class TwoTrayPresenter:
    """The presenter of two-tray."""

    info: GameInfo
    playable: bool = True
    solver: Solver | None = None
    table_kind: str = "grid"
    """The terminal app draws the grid with a cell cursor and the playing tray (the turn's :meth:`GridTurn.draft_view`)."""

    @property
    def game(self) -> str:
        """The game's id."""
        return self.info.id

    @property
    def words(self) -> Vocabulary:
        """Two-tray's words (a player's tiles are on trays)."""
        return WORDS

    @property
    def orders(self) -> Sequence[str]:
        """The orders trays can be shown in."""
        return list(ORDERS)

    @property
    def hint(self) -> bool:
        """No best-play hint: the solver does not know grids."""
        return False

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event` (an event on its own: a play lists the cells it changed)."""
        return describe_event(event, names, style)

    def narrator(self, names: Sequence[str], style: Style) -> Narrator:
        """A :class:`GridNarrator`: each play shown on the grid, its new and moved tiles marked."""
        return GridNarrator(names, style)

    def rules_lines(self) -> list[str]:
        """See :data:`RULES`."""
        return list(RULES)

    def notation_lines(self) -> list[str]:
        """See :data:`NOTATION`."""
        return list(NOTATION)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """See :func:`status_lines`."""
        return status_lines(view, labels, style)

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The grid with its row and column labels."""
        return ["Grid:", *grid_lines(view, style)]

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's trays (nothing for a spectator)."""
        return tray_lines(view, style, order if order in ORDERS else next(iter(ORDERS)))

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """Status, grid, trays and the reminder."""
        lines = [*self.status_lines(view, labels, style), *self.table_lines(view, style), *self.rack_lines(view, style, order)]
        note = reminder(view)
        return [*lines, *style.fit([note])] if note else lines

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows(view)

    def help_lines(self, view: View, style: Style | None = None) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(view, style.width if style else 0)

    def command_text(self, action: Action) -> str:
        """See :func:`command_text`."""
        return command_text(action)

    def turn(
        self,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> GridTurn:
        """A :class:`GridTurn` for the seat whose view this is."""
        return GridTurn(
            view, parse_action=parse_action or self.info.parse_action, say=say, style=style, labels=labels, order=order
        )

    def hint_lines(self, view: View) -> list[str]:
        """Nothing: two-tray has no solver."""
        return []

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of a round: who won it and why, the scores and the tiles left."""
        return style.fit(round_end_lines(event, names, style, WORDS))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of the match."""
        return style.fit(outcome_lines(outcome, names, style, WORDS))


PRESENTER: Presenter = TwoTrayPresenter(INFO)
