"""The ``conveyor`` table: columns of dominoes (conveyors), melds with their ends, and the seat's hand.

For a domino game whose table is a row of columns drawn from at either end
(``conveyor``). The view gives ``columns`` (each with ``cells`` from the top,
``??`` face down, and ``claimed_by``), ``melds`` (each with ``dominoes`` from
its low end to its high end, ``owner``, ``kind``), ``jump_window`` and, for a
seat, its ``hand``. Columns, cells and melds are numbered from 1 on the
screen. The keys build the game's actions (:mod:`rummykit.rulesets.conveyor.actions`:
:class:`Reveal`, :class:`Claim`, :class:`Draw`, :class:`Meld`, :class:`Layoff`,
:class:`Discard`, :class:`Jump`, :class:`Decline`, numbered from 0 as the game
numbers them) and take them through the person's turn: no command text is
written. A lay-off whose end is left out (Enter) is laid at the one end the
game's listing lays that domino.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Unpack, cast

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from rummykit.engine.commands import SHOWN_FROM
from rummykit.errors import ParseError
from rummykit.melds.conveyor import END_NAMES, HIGH
from rummykit.pieces.dominoes import Domino
from rummykit.rulesets.conveyor.actions import Claim, Decline, Discard, Draw, Jump, Layoff, Meld, Reveal
from rummykit.rulesets.conveyor.listing import actions_from_view
from rummykit.tui.tables import HandTable, WidgetOptions, Wrapped, hint_marked

if TYPE_CHECKING:
    from rummykit.rulesets.conveyor.views import ColumnView, ConveyorView, MeldView

__all__ = ["ConveyorTable"]

COLUMN, CELL, MELD = "column", "cell", "meld"
"""What a clicked cell is."""


def conveyor_view(view: Mapping[str, object]) -> ConveyorView:
    """The view as the conveyor game lays it out (the only game whose presenter names this table).

    The widget's first view is empty: every key is read with ``get``."""
    return cast("ConveyorView", view)


def domino_cell(domino: str, *, chosen: bool = False, cursor: bool = False) -> Text:
    """A domino as text (``??`` face down): brackets when selected, reversed under the cursor."""
    cell = Text(f"[{domino}]" if chosen else f" {domino}")
    if cursor:
        cell.stylize("reverse", 0 if chosen else 1)
    if chosen:
        cell.stylize("bold")
    return cell


class ConveyorTable(HandTable):
    """Columns and melds under one row cursor (Up/Down or a click), a cell cursor in a column, and the hand."""

    kind: ClassVar[str] = "conveyor"
    KEYS_HELP: ClassVar[list[str]] = [
        "Conveyors, melds and your hand (Tab to the table):",
        "  Up/Down       the row marked >: a conveyor or a meld (or click it)",
        "  Shift+Up/Down the cell marked ^ in the column marked > (or click it)",
        "  Left/Right    move along your hand; Space selects a domino (or click it)",
        "  Ctrl+E        reveal the face-down domino marked ^ (selection round)",
        "  Ctrl+T        claim the column marked > as your hand (selection round)",
        "  Ctrl+D        draw from the end of the column marked > nearer to ^ (top or bottom)",
        "  Ctrl+N        meld the selected dominoes",
        "  Enter         lay the selected domino off on the meld marked > (at whichever end it fits)",
        "  Shift+Left/Right  lay it off at the meld's low end | high end",
        "  Ctrl+X        discard the selected domino (none selected: the one under the cursor)",
        "  Ctrl+Y Ctrl+K jump in on the discard (with the selected dominoes, if any) | decline",
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "row(-1)", "Up", show=False),
        Binding("down", "row(1)", "Down", show=False),
        Binding("shift+up", "cell(-1)", "Cell up", show=False),
        Binding("shift+down", "cell(1)", "Cell down", show=False),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "select", "Select"),
        Binding("ctrl+e", "reveal", "Reveal", show=False),
        Binding("ctrl+t", "claim", "Claim"),
        Binding("ctrl+d", "draw", "Draw"),
        Binding("ctrl+n", "meld_selected", "Meld"),
        Binding("enter", "lay_off('')", "Lay off"),
        Binding("shift+left", "lay_off('low')", "Low end", show=False),
        Binding("shift+right", "lay_off('high')", "High end", show=False),
        Binding("ctrl+x", "discard", "Discard"),
        Binding("ctrl+y", "jump", "Jump in", show=False),
        Binding("ctrl+k", "decline", "Decline", show=False),
    ]

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.row = 0
        """The row marked ``>``: the columns first, then the melds."""
        self.cell = 0
        """The cell marked ``^`` in the column marked ``>`` (from 0 at the top)."""

    # -- what the view holds -----------------------------------------------------------

    @property
    def columns(self) -> list[ColumnView]:
        return list(conveyor_view(self.view).get("columns", None) or ())

    @property
    def melds(self) -> list[MeldView]:
        return list(conveyor_view(self.view).get("melds", None) or ())

    def at_row(self) -> tuple[str, int]:
        """What the row marked ``>`` is: (COLUMN, column index) or (MELD, meld index)."""
        n = len(self.columns)
        return (COLUMN, self.row) if self.row < n else (MELD, self.row - n)

    @staticmethod
    def conveyor_rows(seen: Mapping[str, object]) -> list[int]:
        """The rows of the view's columns that are conveyors still (a claimed column is a hand now)."""
        view = conveyor_view(seen)
        conveyors = {int(c) for c in view.get("open_columns", None) or ()}
        columns = view.get("columns", None) or ()
        return [n for n, column in enumerate(columns) if int(column.get("column", n)) in conveyors]

    def changed(self, before: Mapping[str, object], now: Mapping[str, object]) -> None:
        """The row marker leaves a column that is no conveyor any more (claimed: a hand) for the next conveyor."""
        super().changed(before, now)
        columns = len(conveyor_view(now).get("columns", None) or ())
        conveyors = self.conveyor_rows(now)
        if self.row < columns and conveyors and self.row not in conveyors:
            self.row = next((n for n in conveyors if n > self.row), conveyors[0])

    # -- drawing -----------------------------------------------------------------------

    def render(self) -> Text:
        view = conveyor_view(self.view)
        columns, melds = self.columns, self.melds
        rows = len(columns) + len(melds)
        self.row = max(0, min(self.row, rows - 1))
        out = Wrapped(self.content_region.width or self.size.width or 60)
        focused = self.has_focus
        players = [str(p) for p in view.get("players", ())]

        def who(seat: object) -> str:
            return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(seat)

        out.add(Text("Conveyors (top on the left; ?? face down):", style="bold"))
        for n, column in enumerate(columns):
            out.newline()
            target = n == self.row
            out.add(Text(f"{'>' if target else ' '} col {n + 1:<2}", style="bold" if target else ""), (COLUMN, n))
            cells: Sequence[str] = [str(c) for c in column.get("cells", ())]
            if column.get("claimed_by") is not None:
                out.add(Text(f" claimed by {who(column['claimed_by'])}", style="dim"), (COLUMN, n))
            elif not cells:
                out.add(Text(" empty", style="dim"), (COLUMN, n))
            if target and cells:
                self.cell = max(0, min(self.cell, len(cells) - 1))
            for i, cell in enumerate(cells):
                here = target and i == self.cell
                text = Text("^" if here else " ") + hint_marked(domino_cell(cell, cursor=here and focused),
                                                                cell in self.hinted)
                out.add(text, (CELL, (n, i)), indent="         ")
        out.newline()
        out.add(Text("Melds (low end on the left, high end on the right):" if melds else "Melds: none yet",
                     style="bold"))
        for m, meld in enumerate(melds):
            out.newline()
            target = len(columns) + m == self.row
            head = Text(f"{'>' if target else ' '} [{m + 1}] {who(meld.get('owner'))} {meld.get('kind', '')}:",
                        style="bold" if target else "")
            out.add(head, (MELD, m))
            for domino in meld.get("pieces", ()):
                out.add(hint_marked(domino_cell(str(domino)), str(domino) in self.hinted), (MELD, m), indent="      ")
        window = view.get("jump_window")
        if isinstance(window, Mapping):
            out.newline()
            out.add(Text(f"Jump-in window: {window.get('piece')} was discarded (Ctrl+Y jumps in, Ctrl+K declines)",
                         style="bold"))
        self.layout_ = out
        return out.text

    def hand_cell(self, piece: str, *, chosen: bool, cursor: bool) -> Text:
        return hint_marked(domino_cell(piece, chosen=chosen, cursor=cursor), piece in self.hinted)

    def cursor_tag(self) -> object:
        where, n = self.at_row()
        if where == MELD:
            return (MELD, n)
        return (CELL, (n, self.cell)) if self.columns[n].get("cells") else (COLUMN, n)

    def on_click(self, event: events.Click) -> None:
        """A click on a column or a meld marks it ``>``; on a cell, marks it ``^`` (a hand domino: the hand bar)."""
        match self.clicked(event):
            case (where, int(n)) if where == COLUMN:
                self.row = n
            case (where, (int(n), int(cell))) if where == CELL:
                self.row, self.cell = n, cell
            case (where, int(n)) if where == MELD:
                self.row = len(self.columns) + n
            case _:
                return
        self.refresh()

    # -- keys --------------------------------------------------------------------------

    def action_row(self, step: int) -> None:
        """The next row up or down, passing over columns that are no conveyors (claimed: hands now)."""
        columns = len(self.columns)
        rows = columns + len(self.melds)
        conveyors = self.conveyor_rows(self.view)
        for _ in range(rows):
            self.row = (self.row + step) % rows
            if self.row >= columns or self.row in conveyors or not conveyors:
                break
        if rows:
            self.refresh()

    def action_cell(self, step: int) -> None:
        self.cell = max(0, self.cell + step)
        self.refresh()

    def column(self) -> int | None:
        """The column marked ``>`` (None: the row is a meld)."""
        where, n = self.at_row()
        if where != COLUMN:
            self.note("Put the row marker > on a column (Up/Down) first.")
            return None
        return n

    def action_reveal(self) -> None:
        n, cell = self.column(), self.cell
        if n is not None:
            self.act(lambda seat: Reveal(seat, n, cell))

    def action_claim(self) -> None:
        n = self.column()
        if n is not None:
            self.act(lambda seat: Claim(seat, n))

    def action_draw(self) -> None:
        n = self.column()
        if n is not None:
            length = len(self.columns[n].get("cells", ()))
            end = "top" if self.cell < (length + 1) // 2 else "bottom"
            self.act(lambda seat: Draw(seat, n, end))

    def action_meld_selected(self) -> None:
        dominoes = tuple(map(Domino.parse, self.picked()))
        if dominoes:
            self.act(lambda seat: Meld(seat, dominoes))

    def action_lay_off(self, end: str) -> None:
        where, m = self.at_row()
        if where != MELD:
            self.note("Put the row marker > on a meld (Up/Down) first.")
            return
        picked = self.picked()
        if len(picked) != 1:
            self.note("Select one domino to lay off (Space unselects).")
            return
        domino, view = Domino.parse(picked[0]), self.view
        self.act(lambda seat: Layoff(seat, m, domino, end or listed_end(view, m, domino)))

    def action_discard(self) -> None:
        picked = self.picked()
        if len(picked) > 1:
            self.note("Select one domino to discard (Space unselects).")
        elif picked:
            domino = Domino.parse(picked[0])
            self.act(lambda seat: Discard(seat, domino))

    def action_jump(self) -> None:
        rest = tuple(map(Domino.parse, self.picked())) if self.selected else ()
        window = conveyor_view(self.view).get("jump_window")
        if window is None:
            self.note("No discard is on offer: Ctrl+Y answers a jump-in window after another player's discard.")
            return
        offered = Domino.parse(window["piece"])
        self.act(lambda seat: Jump(seat, offered, rest))

    def action_decline(self) -> None:
        self.act(Decline)


def listed_end(view: Mapping[str, object], meld: int, domino: Domino) -> str:
    """The end of meld ``meld`` (from 0) where the game's listing lays ``domino`` from the seat's hand.

    When the listing lays it at both ends the person is asked to choose (a
    :class:`~rummykit.errors.ParseError`); when at neither, ``high``, and the
    engine says what is wrong.
    """
    fits = {a.end for a in actions_from_view(view) if isinstance(a, Layoff) and a.meld == meld and a.domino == domino}
    ends = [end for end in END_NAMES if end in fits]
    if len(ends) > 1:
        raise ParseError(f"{domino} fits both ends of meld {meld + SHOWN_FROM}: Shift+Left lays it at the "
                         f"{ends[0]} end, Shift+Right at the {ends[1]} end")
    return ends[0] if ends else HIGH
