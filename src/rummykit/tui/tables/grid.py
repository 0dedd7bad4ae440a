"""The ``grid`` table: a crossword grid of tiles with a cell cursor, and the playing tray.

For a game whose table is a grid of tiles (``two-tray``). It draws the
turn's draft when the person's turn offers one (``draft_view``: the grid and
trays as drafted, with ``draft`` holding the tray played from, the change
marks, the problems the engine's check finds and whether the draft is
ready), else the seat's view. The area drawn is the tiles with a margin of
one cell around them (and wherever the cursor goes); the screen numbers
cells from ``draft.base`` (the number of row 0). The keys build the grid
draft's declared steps (:mod:`rummykit.rulesets.two_tray.steps`: ``place``,
``move``, ``back``, ``tray``, ``commit``) and the game's actions (``draw``,
``pass``, ``end``, ``call``) from the view's cells (from 0) and tiles, and
the person's turn takes them as it takes a typed command once read
(:meth:`~rummykit.presenters.base.Turn.step`, ``act``, ``undo``, ``reset``):
no command text is written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, TypedDict, Unpack, cast

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from rummykit.blocks.grid import Put
from rummykit.engine.core import Action
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.draft_steps import Commit
from rummykit.rulesets.two_tray.actions import Call, Draw, End, Pass
from rummykit.rulesets.two_tray.steps import Back, Move, Place, Tray
from rummykit.rulesets.two_tray.views import TwoTrayView
from rummykit.tui.tables import (
    TURN_KEYS,
    TableWidget,
    WidgetOptions,
    Wrapped,
    hint_marked,
    piece_text,
)

__all__ = ["GridTable"]

CELL = 6
"""Columns a grid cell takes: a tile of up to three characters, its change mark, and brackets under the cursor."""

NARROW_CELL = 4
"""Columns a grid cell takes where full cells do not fit: the change mark and the tile, to the right
(as the line prompt draws the grid)."""

Cell = tuple[int, int]


class ProblemView(TypedDict):
    """A problem of the draft: the engine's check in words (with its rule id) and the cells it is about."""

    text: str
    cells: list[list[int]]


class DraftView(TypedDict, total=False):
    """What a drafting turn adds to the view under ``draft`` (see the module)."""

    tray: str
    base: int
    marks: list[list[int | str]]
    problems: list[ProblemView]
    placed: list[str]
    ready: bool
    hint: list[list[int | str]]


class GridView(TwoTrayView, total=False):
    """The seat's view as the grid draws it: the two-tray view, with the draft while the turn drafts one."""

    draft: DraftView


def grid_view(view: Mapping[str, object]) -> GridView:
    """The view as the two-tray game lays it out (the only game whose presenter names this table).

    The widget's first view is empty: every key is read with ``get``."""
    return cast("GridView", view)


class GridTable(TableWidget):
    """The grid with a cell cursor (arrows or a click) and the playing tray with a tile cursor."""

    kind: ClassVar[str] = "grid"
    KEYS_HELP: ClassVar[list[str]] = [
        "The grid and your playing tray (Tab to the table):",
        "  arrows        move the cell cursor [ ] on the grid (or click a cell); it can go past the tiles",
        "  Shift+Left/Right  choose the tile of your playing tray marked ^ (or click it)",
        "  Space Enter   place that tile on the cell under the cursor (a draft: nothing is played yet)",
        "  Ctrl+G        grab the tile under the cursor; Space then moves it to the cell under the cursor",
        "  Delete        take back to the tray the tile placed this turn under the cursor",
        "  Ctrl+U Ctrl+R undo the last step | reset the turn",
        "  Ctrl+O        commit: play the drafted grid (refused with the reason while it is invalid)",
        "  Ctrl+D Ctrl+K Ctrl+E  draw onto your playing tray | pass | end (after emptying a tray)",
        "  Ctrl+S        on your first turn: play from the other tray",
        "  Ctrl+L        call the joker under the cursor the tile of your tray marked ^",
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cell(0, -1)", "Left", show=False),
        Binding("right", "cell(0, 1)", "Right", show=False),
        Binding("up", "cell(-1, 0)", "Up", show=False),
        Binding("down", "cell(1, 0)", "Down", show=False),
        Binding("shift+left", "tile(-1)", "Tray left", show=False),
        Binding("shift+right", "tile(1)", "Tray right", show=False),
        Binding("space", "place", "Place"),
        Binding("enter", "place", "Place", show=False),
        Binding("ctrl+g", "grab", "Grab"),
        Binding("delete", "back", "Back"),
        *TURN_KEYS,
        Binding("ctrl+e", "end", "End", show=False),
        Binding("ctrl+s", "switch_tray", "Other tray", show=False),
        Binding("ctrl+l", "call", "Call joker", show=False),
    ]

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.cell: Cell = (0, 0)
        """The cell cursor, in the view's numbering (from 0)."""
        self.tile = 0
        """The tile of the playing tray marked ``^``."""
        self.grabbed: Cell | None = None
        """A cell whose tile Space moves to the cursor."""

    # -- what the view holds -----------------------------------------------------------

    @property
    def tiles(self) -> dict[Cell, str]:
        return {(int(c["row"]), int(c["col"])): str(c["tile"]) for c in grid_view(self.view).get("grid", None) or ()}

    @property
    def draft(self) -> DraftView:
        draft = grid_view(self.view).get("draft", None)
        return draft if isinstance(draft, Mapping) else {}

    @property
    def base(self) -> int:
        return int(self.draft.get("base", 1))

    @property
    def tray_name(self) -> str | None:
        """The tray played from: the draft's, else the seat's playing tray (None: a spectator's view)."""
        name = self.draft.get("tray")
        if name is None:
            seat, playing = self.view.get("seat"), self.view.get("playing")
            if isinstance(seat, int) and isinstance(playing, list) and 0 <= seat < len(playing):
                name = playing[seat]
        return str(name) if name is not None else None

    @property
    def tray(self) -> list[str]:
        trays = grid_view(self.view).get("trays", None)
        name = self.tray_name
        if not isinstance(trays, Mapping) or name is None:
            return []
        return [str(t) for t in trays.get(name, ())]

    def typed(self, cell: Cell) -> str:
        """A cell as the screen numbers it (the commands take it so)."""
        return f"{cell[0] + self.base},{cell[1] + self.base}"

    def changed(self, before: Mapping[str, object], now: Mapping[str, object]) -> None:
        if before.get("grid") != now.get("grid"):
            self.grabbed = None

    def showing_hint(self) -> bool:
        """True while the app shows a hint (F7 or the typed ``hint``)."""
        return getattr(self.app, "hint", None) is not None

    def area(self, hinted: Mapping[Cell, str] | None = None) -> tuple[range, range]:
        """The rows and columns drawn: the tiles, the cursor and a hint's cells, with a margin of one cell."""
        cells = [*self.tiles, self.cell, *(hinted or {})]
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        return range(min(rows) - 1, max(rows) + 2), range(min(cols) - 1, max(cols) + 2)

    # -- drawing -----------------------------------------------------------------------

    def render(self) -> Text:
        tiles, draft = self.tiles, self.draft
        marks = {(int(r), int(c)): str(m) for r, c, m in draft.get("marks", ())}
        bad = {(int(r), int(c)) for p in draft.get("problems", ()) for r, c in p.get("cells", ())}
        calls = {(int(c["row"]), int(c["col"])): str(c["called"]) for c in grid_view(self.view).get("grid", None) or ()
                 if c.get("called")}
        hinted = {(int(r), int(c)): str(t) for r, c, t in draft.get("hint", ())} if self.showing_hint() else {}
        rows, cols = self.area(hinted)
        width = self.content_region.width or self.size.width or 60
        label = max(len(str(r + self.base)) for r in rows) + 2
        cell_width, shown = self.columns_shown(list(cols), width - label)
        out = Wrapped(max(width, label + cell_width * len(shown) + 2))
        focused = self.has_focus
        compact = cell_width < CELL
        if not self.screen.has_class("-short"):  # a short screen keeps its lines for the grid
            out.add(Text("Grid (row,column as the commands number them):", style="bold"))
            out.newline()
        head = Text(" " * label, style="dim")
        for c in shown:
            number = f"{c + self.base}"
            if compact and c == self.cell[1]:
                number = f"[{number}]"  # no room for brackets in the cell: the cursor's column is marked here
            head.append(f"{number:^{cell_width}}", style="bold" if c == self.cell[1] else "dim")
        if shown[0] != cols[0]:
            head = Text("<", style="bold") + head[1:]
        if shown[-1] != cols[-1]:
            head.append(" >", style="bold")
        out.add(head)
        for r in rows:
            out.newline()
            here = r == self.cell[0]
            mark = ">" if compact and here else " "
            out.add(Text(f"{mark}{r + self.base:>{label - 2}} ", style="bold" if here else "dim"))
            for c in shown:
                out.add(self.grid_cell(r, c, tiles, marks, bad, cell_width, focused, hinted), (r, c))
        if self.grabbed is not None:
            out.newline()
            out.add(Text(f"  grabbed: the tile at {self.typed(self.grabbed)} (Space moves it to the cursor)"))
        for joker, called in sorted(calls.items()):
            out.newline()
            out.add(Text(f"  the joker at {self.typed(joker)} stands for {called}"))
        if hinted:
            out.newline()
            out.add(Text("  Hint: the cells marked h show its placement (F7 hides it)", style="bold magenta"))
        for problem in draft.get("problems", ()):
            out.newline()
            out.add(Text(f"  INVALID: {problem.get('text')}", style="bold red"))
        if draft.get("ready"):
            out.newline()
            out.add(Text("  Ready: Ctrl+O commits this grid.", style="green"))
        self.layout_ = out
        return out.text

    def columns_shown(self, cols: list[int], room: int) -> tuple[int, list[int]]:
        """The width of a cell and the columns drawn in ``room`` columns of text: every column, in full
        cells when they fit, else in narrow ones (the cursor marked in the margins); when even those
        do not fit, as many as fit around the cursor's column (``<``, ``>``: more on that side)."""
        if CELL * len(cols) <= room:
            return CELL, cols
        fit = max(1, (room - 2) // NARROW_CELL)
        if len(cols) <= fit:
            return NARROW_CELL, cols
        at = cols.index(self.cell[1]) if self.cell[1] in cols else 0
        first = max(0, min(at - fit // 2, len(cols) - fit))
        return NARROW_CELL, cols[first : first + fit]

    def grid_cell(
        self, r: int, c: int, tiles: Mapping[Cell, str], marks: Mapping[Cell, str], bad: set[Cell],
        width: int, focused: bool, hinted: Mapping[Cell, str] | None = None,
    ) -> Text:
        """One cell: its tile (``.`` for none) and change mark; ``[ ]`` around the cursor's and ``< >``
        around the grabbed one in full cells (narrow cells: the margins mark the cursor's row and column).
        A cell the hint changes shows the hint's tile marked ``h`` (``h.``: the hint empties it)."""
        tile = tiles.get((r, c))
        mark = marks.get((r, c), "")
        hint = (hinted or {}).get((r, c))
        if hint is not None and hint != tile:
            tile, mark = (None if hint == "." else hint), "h"
        piece = piece_text(tile, self.color).copy() if tile is not None else Text(".")
        if hint is not None and hint != tiles.get((r, c)):
            piece.stylize("magenta")
        cursor = (r, c) == self.cell
        if width >= CELL:
            inside = piece + Text(mark)
            left = (4 - len(inside.plain)) // 2
            inside = Text(" " * left) + inside + Text(" " * max(0, 4 - left - len(inside.plain)))
            ends = "[]" if cursor else "<>" if (r, c) == self.grabbed else "  "
            cell = Text(ends[0]) + inside + Text(ends[1])
        else:
            inside = Text(mark) + piece
            cell = Text(" " * max(0, width - len(inside.plain))) + inside
            if cursor or (r, c) == self.grabbed:
                cell.stylize("bold underline", width - len(inside.plain))
        if cursor and focused:
            cell.stylize("reverse", 0 if width >= CELL else max(0, width - len(inside.plain)))
        if (r, c) in bad:
            cell.stylize("bold red underline")
        return cell

    @property
    def has_hand(self) -> bool:
        return "trays" in self.view

    def draw_hand(self, out: Wrapped, focused: bool) -> None:
        """The playing tray, the tile marked ``^`` (Space places it), and the size of the other tray."""
        name, tray = self.tray_name, self.tray
        if "trays" not in self.view:
            return
        self.tile = max(0, min(self.tile, len(tray) - 1))
        out.add(Text(f"Tray {name} (playing):" if name else "Your trays:", style="bold"))
        for i, t in enumerate(tray):
            here = i == self.tile
            piece = Text(" ^" if here else "  ") + hint_marked(piece_text(t, self.color), t in self.hinted)
            if here and focused:
                piece.stylize("reverse", 1)
            out.add(piece, i)
        view = grid_view(self.view)
        others = {str(k): len(v) for k, v in dict(view.get("trays") or {}).items() if k != name}
        seat = view.get("seat", 0)
        first_turn = seat is not None and view.get("playing", [None])[seat] is None
        for other, size in others.items():
            out.add_apart(Text(f"Tray {other}: {size} tiles (first turn: Ctrl+S plays from it)"
                         if first_turn else f"Tray {other}: {size} tiles", style="dim"), gap=3)

    def hand_clicked(self, what: object) -> None:
        if isinstance(what, int):
            self.tile = what
            self.refresh()

    def cursor_tag(self) -> object:
        return self.cell

    def on_click(self, event: events.Click) -> None:
        """A click on a grid cell puts the cursor there (a tray tile: the hand bar marks it ``^``)."""
        match self.clicked(event):
            case (int(row), int(col)):
                self.cell = (row, col)
        self.refresh()

    # -- keys --------------------------------------------------------------------------

    def action_cell(self, rows: int, cols: int) -> None:
        self.cell = (self.cell[0] + rows, self.cell[1] + cols)
        self.refresh(layout=True)

    def action_tile(self, step: int) -> None:
        if self.tray:
            self.tile = (self.tile + step) % len(self.tray)
            self.refresh()

    def step(self, build: Callable[[int], Action]) -> bool:
        """Take the draft step ``build`` makes for the turn's seat; True if it was taken."""
        return self.run_step(lambda turn: turn.step(build(turn.seat)))

    def tray_tile(self) -> Tile:
        """The tile of the playing tray marked ``^`` (the tray is not empty)."""
        return Tile.parse(self.tray[min(self.tile, len(self.tray) - 1)])

    def action_place(self) -> None:
        (row, col) = self.cell
        if self.grabbed is not None:
            grabbed, self.grabbed = self.grabbed, None
            self.step(lambda seat: Move(seat, grabbed[0], grabbed[1], row, col))
        elif self.tray:
            tile = self.tray_tile()
            self.step(lambda seat: Place(seat, (Put(row, col, tile),)))

    def action_grab(self) -> None:
        if self.cell in self.tiles:
            self.grabbed = None if self.grabbed == self.cell else self.cell
            self.refresh()
        else:
            self.note("No tile under the cursor to grab.")

    def action_back(self) -> None:
        (row, col) = self.cell
        self.step(lambda seat: Back(seat, row, col))

    def action_undo(self) -> None:
        self.run_step(lambda turn: turn.undo())

    def action_reset(self) -> None:
        self.run_step(lambda turn: turn.reset())

    def action_commit(self) -> None:
        self.step(Commit)

    def action_draw(self) -> None:
        name = self.tray_name or ""
        self.act(lambda seat: Draw(seat, name))  # no tray named (not the person's turn): the turn says so

    def action_pass(self) -> None:
        self.act(Pass)

    def action_end(self) -> None:
        self.act(End)

    def action_call(self) -> None:
        if self.tray:
            (row, col), tile = self.cell, self.tray_tile()
            self.act(lambda seat: Call(seat, row, col, tile))

    def action_switch_tray(self) -> None:
        trays = [str(k) for k in dict(grid_view(self.view).get("trays") or {})]
        others = [t for t in trays if t != self.tray_name]
        if others:
            other = others[0]
            self.step(lambda seat: Tray(seat, other))
