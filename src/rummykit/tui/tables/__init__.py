"""The table widgets of the terminal app: one per family of game table, behind one small interface.

A game's presenter names the family of its table
(:func:`rummykit.presenters.base.table_kind`); the app draws the table with
the widget of that kind when there is one (:func:`widget_classes`), and
otherwise with the presenter's own lines. Free-table games keep their draft
panel and rack (:mod:`rummykit.tui.app`).

Every widget draws from the seat's view (the JSON-ready mapping
``GameState.view`` gives) and nothing else, so it shows only what the seat
may see. Its keys build the game's own steps and actions from the view (a
widget is for one kind of table, and may import its game's action classes)
and take them through the app's :meth:`Host.run_step`: the person's turn
takes them as it takes a typed command once read (no text is written or
read), the engine judges them, and a refusal shows the engine's reason and
rule id. No widget judges a move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import ClassVar, Protocol, Self, TypedDict, Unpack, runtime_checkable

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Spacing
from textual.widget import Widget

from rummykit.engine.core import Action
from rummykit.presenters.base import Turn
from rummykit.presenters.text import Style

__all__ = [
    "FOCUS_MARK",
    "HAND",
    "HINT_MARK",
    "TURN_KEYS",
    "HandBar",
    "HandTable",
    "Host",
    "TableWidget",
    "WidgetOptions",
    "Wrapped",
    "focus_title",
    "hint_marked",
    "piece_text",
    "scroll_to_line",
    "widget_classes",
]

TURN_KEYS: list[BindingType] = [
    Binding("ctrl+o", "commit", "Commit"),
    Binding("ctrl+u", "undo", "Undo"),
    Binding("ctrl+r", "reset", "Reset", show=False),
    Binding("ctrl+d", "draw", "Draw"),
    Binding("ctrl+k", "pass", "Pass", show=False),
]
"""The keys of a drafted turn, the same wherever a turn is drafted (the free table and the grid): commit,
undo and reset the draft, draw or pass; each is a Ctrl key, never one typed inside a word."""

HAND = "hand"
"""What a hand piece's cell is tagged with in the layout (with its place in the hand)."""

FOCUS_MARK = "▶"
"""The mark on the panel that has the focus (its keys are the footer's; typing still goes to the command line)."""


def focus_title(name: str, focused: bool) -> str:
    """A panel's border title: while it has the focus, the mark, its name and that the keys act on it.

    >>> focus_title("the table", True)
    '▶ the table: your keys act here'
    >>> focus_title("the table", False)
    ''
    """
    return f"{FOCUS_MARK} {name}: your keys act here" if focused else ""


@lru_cache(maxsize=1024)
def piece_text(piece: str, color: bool) -> Text:
    """A piece in notation as the presenters' style writes it (a tile in its colour when colour is on;
    its letters always). Copy it before changing it."""
    return Text.from_ansi(Style(color=color).piece(piece))


HINT_MARK = "h"
"""What marks a piece the hint plays (as on the free table: an ``h`` after it, and underlined)."""


def hint_marked(cell: Text, on: bool) -> Text:
    """``cell`` marked as a piece of the hint's play when ``on`` (the mark is a character, never colour alone).

    >>> hint_marked(Text(" 3-5"), True).plain, hint_marked(Text(" 3-5"), False).plain
    (' 3-5h', ' 3-5')
    """
    if not on:
        return cell
    marked = cell.copy()
    plain = marked.plain
    marked.stylize("bold underline", len(plain) - len(plain.lstrip()))  # the piece, not the space before it
    marked.append(HINT_MARK, style="bold")
    return marked


class WidgetOptions(TypedDict, total=False):
    """The options every Textual widget takes, which the app's widgets pass on to it."""

    name: str | None
    id: str | None
    classes: str | None
    disabled: bool


@runtime_checkable
class Host(Protocol):
    """What a table widget asks of the app it is in."""

    def run_step(self, step: Callable[[Turn], Action | None]) -> bool:
        """Take a step built from typed values through the person's turn (``step`` calls the turn's
        ``step``, ``act``, ``undo`` or ``reset``; False: refused, the reason is shown)."""
        ...

    def note(self, *lines: str) -> None:
        """Show lines under the table in place of the last ones."""
        ...

    def toggle_hint(self) -> bool:
        """Show or hide the best play (False: it says why not, e.g. that the game has no hint yet)."""
        ...


class Wrapped:
    """Text laid out cell by cell to a width, remembering where each cell went (for mouse clicks).

    A cell may be tagged with what it is (a place in the hand, a grid cell, a key...): any value
    but None, told apart by equality; the widget that drew it reads its own tags back."""

    def __init__(self, width: int) -> None:
        self.width = max(10, width)
        self.text = Text("")
        self.line = 0
        self.x = 0
        self.spans: list[tuple[int, int, int, object]] = []
        """(line, first column, last column + 1, what the cell is) of every cell placed."""

    def newline(self, indent: str = "") -> None:
        self.text.append("\n" + indent)
        self.line += 1
        self.x = len(indent)

    def add(self, cell: Text, what: object = None, *, indent: str = "") -> None:
        if self.x + len(cell.plain) > self.width and self.x > len(indent):
            self.newline(indent)
        if what is not None:
            self.spans.append((self.line, self.x, self.x + len(cell.plain), what))
        self.text.append_text(cell)
        self.x += len(cell.plain)

    def add_apart(self, cell: Text, what: object = None, *, gap: int = 2) -> None:
        """Add a cell ``gap`` spaces after the last one when it fits there whole, else at the start of
        the next line (never a gap at the start of a line)."""
        if self.x and self.x + gap + len(cell.plain) <= self.width:
            self.add(Text(" " * gap))
        elif self.x:
            self.newline()
        self.add(cell, what)

    def at(self, x: int, y: int) -> object:
        """What the cell at (x, y) is (None: no cell there)."""
        return next((what for line, start, end, what in self.spans if line == y and start <= x < end), None)

    def line_of(self, what: object) -> int | None:
        """The line the first cell tagged ``what`` went on (None: no such cell)."""
        return next((line for line, _, _, drawn in self.spans if drawn == what), None)


def scroll_to_line(widget: Widget, line: int) -> None:
    """Scroll the container of ``widget`` so that line ``line`` of its content is in view (with a line
    of room around it where there is some): a cursor moved down a long table stays on the screen."""
    parent = widget.parent
    if not isinstance(parent, Widget) or not widget.region:
        return
    y = widget.virtual_region.y + widget.styles.gutter.top + line
    parent.scroll_to_region(Region(0, y, 1, 1), spacing=Spacing(1, 0, 1, 0), animate=False, immediate=True)


class TableWidget(Widget, can_focus=True):
    """A game table drawn from the seat's view, with keys that build the game's steps and actions.

    A subclass names its :attr:`kind` (the presenter's ``table_kind``),
    draws in :meth:`render` from :attr:`view`, and takes the actions its keys
    build with :meth:`act` (or the draft steps they build with :meth:`run_step`).
    :attr:`KEYS_HELP` lists its keys for the help screen.

    The seat's own pieces (a hand, a tray) are drawn by :meth:`draw_hand` into
    a :class:`HandBar` under the table, not in :meth:`render`: however big the
    table grows, the bar stays on the screen (the table scrolls). A click on
    the bar comes back as :meth:`hand_clicked`. :meth:`cursor_tag` names the
    cell under the table's cursor, which is kept in view.
    """

    kind: ClassVar[str] = ""
    KEYS_HELP: ClassVar[list[str]] = []

    DEFAULT_CSS = """
    TableWidget { height: auto; padding: 0 1; border: round $accent; }
    TableWidget:focus { border: round $success; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f7", "hint", "Hint")]

    hand_bar: HandBar | None = None
    """The bar the seat's own pieces are drawn in (set by the app)."""

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.view: Mapping[str, object] = {}
        self.acting = False
        """True while the seat shown is asked to act (its keys are offered)."""
        self.color = True
        """Pieces in their colours (off: ``--no-color`` or ``NO_COLOR``)."""
        self.layout_: Wrapped | None = None
        """The last drawing's layout, to find what a click landed on."""
        self.hinted: frozenset[str] = frozenset()
        """The pieces the hint shown plays (marked ``h``; empty: no hint shown)."""

    def show(self, view: Mapping[str, object], *, acting: bool, color: bool = True) -> None:
        """Take the seat's view as it is now, whether the seat is asked to act, and whether to colour pieces."""
        if view != self.view:
            self.changed(self.view, view)
        self.view, self.acting, self.color = view, acting, color
        self.refresh(layout=True)

    def changed(self, before: Mapping[str, object], now: Mapping[str, object]) -> None:
        """The view changed (a subclass drops a selection that no longer holds)."""

    @property
    def has_hand(self) -> bool:
        """True when the view holds pieces of the seat's own (drawn by :meth:`draw_hand`)."""
        return False

    def draw_hand(self, out: Wrapped, focused: bool) -> None:
        """Draw the seat's own pieces into ``out``, each tagged with what a click on it means."""

    def hand_clicked(self, what: object) -> None:
        """A click on the hand bar landed on the piece tagged ``what``."""

    def cursor_tag(self) -> object:
        """The tag of the cell under the table's cursor (None: no cursor to keep in view)."""
        return None

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """Draw again, and the hand bar with the table (its cursor and selection are the table's keys')."""
        bar = self.hand_bar
        if bar is not None and bar.table is self:
            bar.set_class(self.has_focus, "-active")
            bar.refresh(layout=True)
        if self.has_focus and self.is_attached:
            self.call_after_refresh(self.keep_cursor_in_view)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def keep_cursor_in_view(self) -> None:
        """Scroll the table so that the cell under the cursor is on the screen."""
        layout, tag = self.layout_, self.cursor_tag()
        line = layout.line_of(tag) if layout is not None and tag is not None else None
        if line is not None and self.has_focus:
            scroll_to_line(self, line)

    def run_step(self, step: Callable[[Turn], Action | None]) -> bool:
        """Take a step built from typed values through the app (see :meth:`Host.run_step`); True if taken."""
        host = self.app
        return host.run_step(step) if isinstance(host, Host) else False

    def act(self, build: Callable[[int], Action]) -> bool:
        """Take the game action ``build`` makes for the turn's seat; True if it was taken.

        ``build`` may raise :class:`~rummykit.errors.ParseError` (a choice the view leaves open):
        the app shows it as it shows a refusal, and nothing changes."""
        return self.run_step(lambda turn: turn.act(build(turn.seat)))

    def note(self, *lines: str) -> None:
        host = self.app
        if isinstance(host, Host):
            host.note(*lines)

    def action_hint(self) -> None:
        """The game's hint (the app says so when the game has none yet)."""
        host = self.app
        if isinstance(host, Host):
            host.toggle_hint()

    def on_focus(self) -> None:
        self.border_title = focus_title("the table", True)

    def on_blur(self) -> None:
        self.border_title = focus_title("the table", False)

    def clicked(self, event: events.Click) -> object:
        """Focus this widget and say what the click landed on in the last drawing (None: nothing)."""
        self.focus()
        at = event.get_content_offset(self)
        if at is None or self.layout_ is None:
            return None
        return self.layout_.at(at.x, at.y)


class HandTable(TableWidget):
    """A table widget that also holds the seat's hand: a cursor along it and a selection of its pieces.

    Left/Right (``cursor``) move along the hand, Space (``select``) selects the
    piece under the cursor, and a click on a hand piece (tagged ``(HAND, i)``
    in the hand bar's layout, see :meth:`draw_hand`) does both.
    """

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.cursor = 0
        self.selected: set[int] = set()
        """Places in the hand selected."""

    @property
    def hand(self) -> list[str]:
        hand = self.view.get("hand")
        return [str(p) for p in hand] if isinstance(hand, list) else []

    def changed(self, before: Mapping[str, object], now: Mapping[str, object]) -> None:
        if before.get("hand") != now.get("hand"):
            self.selected = set()

    def picked(self) -> list[str]:
        """The selected pieces in hand order, or the piece under the cursor when none is selected."""
        hand = self.hand
        if not hand:
            return []
        chosen = sorted(i for i in self.selected if i < len(hand)) or [min(self.cursor, len(hand) - 1)]
        return [hand[i] for i in chosen]

    def hand_cell(self, piece: str, *, chosen: bool, cursor: bool) -> Text:
        """One piece of the hand as drawn (brackets when selected, reversed under the cursor)."""
        cell = Text(f"[{piece}]" if chosen else f" {piece}")
        if cursor:
            cell.stylize("reverse", 0 if chosen else 1)
        return cell

    @property
    def has_hand(self) -> bool:
        return "hand" in self.view

    def draw_hand(self, out: Wrapped, focused: bool) -> None:
        """The hand (when the view holds one), each piece drawn by :meth:`hand_cell`."""
        if "hand" not in self.view:
            return
        hand = self.hand
        out.add(Text("Your hand:" if hand else "Your hand is empty.", style="bold"))
        for i, piece in enumerate(hand):
            out.add(self.hand_cell(piece, chosen=i in self.selected, cursor=focused and i == self.cursor), (HAND, i))

    def hand_clicked(self, what: object) -> None:
        match what:
            case (tag, int(n)) if tag == HAND:
                self.click_hand(n)
                self.refresh()

    def click_hand(self, n: int) -> None:
        self.cursor = n
        self.selected ^= {n}

    def action_cursor(self, step: int) -> None:
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
            self.refresh()

    def action_select(self) -> None:
        if self.hand:
            self.selected ^= {self.cursor}
            self.refresh()


class HandBar(Widget):
    """The seat's own pieces (a hand, a tray) of the table widget shown, under the table.

    It draws what :meth:`TableWidget.draw_hand` draws and sends clicks back to
    the table (:meth:`TableWidget.hand_clicked`); the table's keys move its
    cursor and selection. Kept out of the table's scrolling area, it stays on
    the screen however big the table grows.
    """

    DEFAULT_CSS = """
    HandBar { height: auto; border: round $accent; padding: 0 1; }
    HandBar.-active { border: round $success; }
    """

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.table: TableWidget | None = None
        self.layout_: Wrapped | None = None

    def show(self, table: TableWidget | None) -> None:
        """Draw the pieces of ``table`` (None, or a table with no pieces of the seat's: hidden)."""
        self.table = table
        if table is not None:
            table.hand_bar = self
            self.set_class(table.has_focus, "-active")
        self.display = table is not None and table.has_hand
        self.refresh(layout=True)

    def render(self) -> Text:
        table = self.table
        out = Wrapped(self.content_region.width or self.size.width or 60)
        if table is not None:
            table.draw_hand(out, table.has_focus)
        self.layout_ = out
        return out.text

    def on_click(self, event: events.Click) -> None:
        """A click on a piece: the table takes the focus and does what a click on that piece does."""
        table, layout = self.table, self.layout_
        at = event.get_content_offset(self)
        if table is None or layout is None:
            return
        table.focus()
        if at is not None:
            what = layout.at(at.x, at.y)
            if what is not None:
                table.hand_clicked(what)


def widget_classes() -> dict[str, type[TableWidget]]:
    """The table widgets by kind (imported when first asked for)."""
    from rummykit.tui.tables.conveyor import ConveyorTable
    from rummykit.tui.tables.grid import GridTable
    from rummykit.tui.tables.melds_pile import MeldsPileTable

    classes: tuple[type[TableWidget], ...] = (MeldsPileTable, GridTable, ConveyorTable)
    return {cls.kind: cls for cls in classes}
