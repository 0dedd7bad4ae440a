"""The free-table draft on the game screen: the table panel, the rack bar and their keys.

During a free-table turn (:class:`~rummykit.presenters.base.Board`) the
:class:`BoardPanel` draws the draft, invalid sets marked with the engine's
reason, and the :class:`RackBar` under it holds the rack, where pieces are
picked with the keys or the mouse. Every key builds one of the draft's
declared steps (:mod:`rummykit.rulesets.draft_steps`) from the board's pieces
and set numbers and takes it with the person's turn
(:meth:`~rummykit.presenters.base.Turn.step`), as a typed step is taken once
read: no command text is written. (Every other game lists the seat's moves:
:mod:`rummykit.tui.moves`.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar, Unpack

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from rummykit.engine.core import Action
from rummykit.presenters.base import Board, Style, Turn
from rummykit.rulesets.draft_steps import Add, Back, Commit, Merge, Move, New, Split
from rummykit.rulesets.freetable import Draw, Pass
from rummykit.tui.moves import acting, game_app
from rummykit.tui.tables import FOCUS_MARK, TURN_KEYS, WidgetOptions, Wrapped, focus_title, scroll_to_line
from rummykit.tui.widgets import ansi

if TYPE_CHECKING:
    from rummykit.tui.game import GameApp

__all__ = [
    "BoardPanel",
    "DraftKeys",
    "RackBar",
    "piece_cell",
    "stepping",
    "styled_piece",
]


# -- the free-table draft ------------------------------------------------------------------


def stepping(step: Action) -> Callable[[Turn], Action | None]:
    """What the app runs to take the draft step ``step`` on the person's turn."""
    return lambda turn: turn.step(step)


@lru_cache(maxsize=4096)
def styled_piece(color: bool, piece: str, mark: str) -> Text:
    """A piece in the presenter's style (with its change mark), as styled text (made once per piece)."""
    style = Style(color=color)
    return Text.from_ansi(style.marked(piece, mark) if mark else style.piece(piece))


def piece_cell(style: Style, piece: str, mark: str, *, chosen: bool, cursor: bool) -> Text:
    """One piece as drawn in the rack or on the table: its change mark, brackets when selected,
    reversed under the cursor (characters first, so that colour is never the only sign)."""
    cell = styled_piece(style.color, piece, mark)
    cell = Text("[") + cell + Text("]") if chosen else Text(" ") + cell
    if cursor:
        cell.stylize("reverse")
    if chosen:
        cell.stylize("bold")
    return cell


class DraftKeys(Widget, can_focus=True):
    """The keys that act on the whole free-table turn, shared by the rack and the table.

    Every key builds a draft step (or the game's ``draw`` or ``pass``) from
    the board's pieces and set numbers, and the app takes it with the turn.
    """

    BINDINGS: ClassVar[list[BindingType]] = [*TURN_KEYS, Binding("f7", "hint", "Hint")]

    @property
    def game(self) -> GameApp | None:
        """The app while it has a game loaded (None before the first one: every key then does nothing)."""
        app = game_app(self.app)
        return app if app is not None and app.setup is not None else None

    @property
    def board(self) -> Board | None:
        game = self.game
        return getattr(game, "board_now", None) if game is not None else None

    @property
    def seat(self) -> int | None:
        """The seat of the person whose turn is drafted (None: no game, or nobody's turn at the keyboard)."""
        game = self.game
        turn = game.turn if game is not None else None
        return turn.seat if turn is not None else None

    def run(self, *steps: Callable[[Turn], Action | None]) -> bool:
        """Take steps in order through the turn until one is refused; True if all were taken."""
        game = self.game
        if game is None:
            return False
        return all(game.run_step(step) for step in steps)

    def take(self, *steps: Action) -> bool:
        """Take draft steps in order through the turn until one is refused; True if all were taken."""
        return self.run(*(stepping(step) for step in steps))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key before a game is loaded; commit only when the draft would pass the engine's checks
        (shown greyed out otherwise)."""
        if self.game is None:
            return None
        if action == "commit":
            return True if self.board is not None and self.board.ready else None
        return True

    def action_commit(self) -> None:
        if self.board is not None and self.seat is not None:
            self.take(Commit(self.seat))

    def action_undo(self) -> None:
        if self.board is not None:
            self.run(lambda turn: turn.undo())

    def action_reset(self) -> None:
        if self.board is not None:
            self.run(lambda turn: turn.reset())

    def action_draw(self) -> None:
        if self.board is not None and self.seat is not None:
            self.run(acting(Draw(self.seat)))

    def action_pass(self) -> None:
        if self.board is not None and self.seat is not None:
            self.run(acting(Pass(self.seat)))

    def action_hint(self) -> None:
        game = self.game
        if game is not None:
            game.toggle_hint()

    def action_target(self, step: int) -> None:
        game = self.game
        if game is None or self.board is None:
            return
        numbers = [s.number for s in self.board.sets if s.pieces]
        if numbers:
            at = numbers.index(game.target) if game.target in numbers else 0
            game.target = numbers[(at + step) % len(numbers)]
            game.redraw_table()


class BoardPanel(DraftKeys):
    """The table: during a free-table turn the draft, else the game as the presenter draws it.

    The draft has one line per set (the target set marked ``>``), an invalid
    set followed by ``INVALID`` and the engine's reason; the cursor (when the
    table has the focus) is on one piece of the target set. Table pieces are
    selected with Space or a click, then moved to the target set, a new set
    or back to the rack; sets are split at the cursor and merged.
    """

    DEFAULT_CSS = """
    BoardPanel { height: auto; padding: 0 1; }
    BoardPanel:focus { background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "position(-1)", "Left", show=False),
        Binding("right", "position(1)", "Right", show=False),
        Binding("up", "target(-1)", "Set up", show=False),
        Binding("down", "target(1)", "Set down", show=False),
        Binding("space", "pick", "Select"),
        Binding("enter", "move", "Move to >"),
        Binding("ctrl+n", "move_new", "To new set"),
        Binding("delete", "back", "Back to rack"),
        Binding("ctrl+s", "split", "Split"),
        Binding("ctrl+g", "merge", "Merge"),
    ]

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.can_focus = False  # until a draft is shown
        self.lines: Callable[[Style], list[str]] = lambda style: []
        """The presenter's lines for a style (and its width): the status lines above a draft,
        else the whole screen."""
        self.color = True
        self.hint: list[list[str]] | None = None
        self.layout_: Wrapped | None = None
        self.line_sets: list[int] = []
        """The set number on each line drawn (0: no set)."""
        self.laid_out_width = 0
        self.drawn: tuple[object, Text] | None = None
        """What was drawn last, and from what."""

    def show(self, lines: Callable[[Style], list[str]], hint: list[list[str]] | None, color: bool) -> None:
        """Take what to draw: the presenter's lines (laid out to the panel's width when drawn) and,
        during a free-table turn, the draft (from the app) and the hint."""
        self.lines, self.hint, self.color = lines, hint, color
        self.can_focus = self.board is not None
        self.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        """Lay the lines out again to a new width (their height changes with it)."""
        if event.size.width != self.laid_out_width:
            self.laid_out_width = event.size.width
            self.refresh(layout=True)

    @property
    def style(self) -> Style:
        """The presenter's style at the panel's width."""
        return Style(color=self.color, width=max(20, self.content_region.width or self.size.width or 60))

    def render(self) -> Text:
        """The table (drawn again only when something it shows changed: Textual asks more than once)."""
        board, game, style = self.board, self.game, self.style
        key = (
            board, self.lines, self.hint, style.width, self.has_focus,
            None if game is None else (game.target, game.table_pos, frozenset(game.table_picks)),
        )
        if self.drawn is not None and self.drawn[0] == key:
            return self.drawn[1].copy()
        text = self.draw(style)
        self.drawn = (key, text)
        if board is not None and game is not None:
            self.call_after_refresh(self.keep_target_in_view)
        return text.copy()

    def keep_target_in_view(self) -> None:
        """Scroll the table so that the set marked ``>`` is on the screen (the rack's Up/Down choose it too)."""
        game = self.game
        if game is not None and self.board is not None and game.target in self.line_sets:
            scroll_to_line(self, self.line_sets.index(game.target))

    def draw(self, style: Style) -> Text:
        board, game = self.board, self.game
        if board is None or game is None:
            self.layout_ = None
            self.line_sets = []
            return ansi(self.lines(style))
        out = Wrapped(style.width)
        line_sets: list[int] = []

        def line(text: Text | str = "", number: int = 0, *, hang: int | None = None) -> None:
            """One line, or (``hang``: plain words) as many as its words need, the next ones indented."""
            if hang is not None:
                for part in style.fit([str(text)], hang=hang):
                    line(Text(part, style=hang_style), number)
                return
            if line_sets:
                line_sets.extend([line_sets[-1]] * (out.line + 1 - len(line_sets)))
                out.newline()
            out.add(Text(text) if isinstance(text, str) else text)
            line_sets.append(number)

        hang_style = ""

        for status in self.lines(style):
            line(Text.from_ansi(status))
        focused = self.has_focus
        line(Text(f"{FOCUS_MARK} Table: your keys act here", style="bold") if focused else "Table:")
        if not any(s.pieces for s in board.sets):
            line("  (empty)")
        for s in board.sets:
            target = s.number == game.target
            head = Text(f"{'>' if target else ' '} [{s.number}]", style="bold" if target else "")
            if s.problem is not None:
                head.stylize("bold red")
            line(head, s.number)
            if not s.pieces:
                out.add(Text(" (empty: left out when you commit)", style="dim"))
            for i, (piece, mark) in enumerate(zip(s.pieces, s.marks, strict=True)):
                chosen = (s.number, i) in game.table_picks
                cell = piece_cell(style, piece, mark, chosen=chosen, cursor=focused and target and i == game.table_pos)
                if s.problem is not None:
                    cell.stylize("underline")
                out.add(cell, (s.number, i), indent="      ")
            if s.problem is not None:
                out.add(Text("  INVALID", style="bold reverse red"))
                hang_style = "red"
                line(f"      ! {s.problem}", s.number, hang=8)
        if board.placed:
            placed = Text("Placed this turn: ")
            placed.append_text(Text.from_ansi(style.pieces(board.placed)))
            line(placed)
        if board.changed:
            if board.ready:
                hang_style = "green"
                line("Ready: Ctrl+O (or `commit`) ends your turn with this table.", hang=4)
            for problem in board.problems:
                hang_style = "yellow"
                line(f"Not yet: {problem}", hang=4)
        if self.hint is not None:
            self._hint(board, line, out)
        self.layout_ = out
        self.line_sets = line_sets
        return out.text

    def _hint(self, board: Board, line: Callable[..., None], out: Wrapped) -> None:
        """The hint's table, the pieces it takes from the rack marked ``h`` and highlighted."""
        hint = self.hint or []
        line(Text("Hint: the best play leaves this table (F7 hides it):", style="bold"))
        if not hint:
            line("  no play from your rack: draw (or pass)")
            return
        on_table = Counter(p for s in board.sets for p in s.pieces)
        on_table.subtract(board.placed)
        for number, pieces in enumerate(hint, start=1):
            line(Text(f"  [{number}]"))
            for piece in pieces:
                if on_table[piece] > 0:
                    on_table[piece] -= 1
                    out.add(Text(" ") + Text.from_ansi(self.style.piece(piece)), indent="      ")
                else:
                    cell = Text(" h") + Text.from_ansi(self.style.piece(piece))
                    cell.stylize("bold reverse", 1)
                    out.add(cell, indent="      ")

    def on_click(self, event: events.Click) -> None:
        """A click on a table piece selects it (and makes its set the target); on a set's line, the target."""
        game, layout = self.game, self.layout_
        at = event.get_content_offset(self)
        if game is None or layout is None or at is None:
            return
        self.focus()
        match layout.at(at.x, at.y):
            case (int(number), int(place)):
                game.target, game.table_pos = number, place
                game.table_picks ^= {(number, place)}
            case _ if 0 <= at.y < len(self.line_sets) and self.line_sets[at.y]:
                game.target = self.line_sets[at.y]
        game.redraw_table()

    # -- the table's keys ------------------------------------------------------------

    def target_set(self) -> tuple[str, ...]:
        game, board = self.game, self.board
        if game is None or board is None or not 1 <= game.target <= len(board.sets):
            return ()
        return board.sets[game.target - 1].pieces

    def picks(self) -> list[tuple[int, object]]:
        """The selected table pieces as (set number, piece as the game's object), or the one under the
        cursor when none is."""
        game, board = self.game, self.board
        if game is None or board is None:
            return []
        chosen = sorted(game.table_picks) or [(game.target, game.table_pos)]
        return [
            (n, board.sets[n - 1].items[i]) for n, i in chosen
            if 1 <= n <= len(board.sets) and 0 <= i < len(board.sets[n - 1].items)
        ]

    def action_position(self, step: int) -> None:
        game, pieces = self.game, self.target_set()
        if game is not None and pieces:
            game.table_pos = (game.table_pos + step) % len(pieces)
            game.redraw_table()

    def action_pick(self) -> None:
        game = self.game
        if game is not None and self.target_set():
            game.table_picks ^= {(game.target, game.table_pos)}
            game.redraw_table()

    def action_move(self) -> None:
        board, game, seat = self.board, self.game, self.seat
        if board is None or game is None or seat is None:
            return
        target = game.target
        moves = [(n, p) for n, p in self.picks() if n != target] if game.table_picks else []
        if not moves:
            game.note("Select table pieces (Space or a click) in other sets, put the cursor on a set, then Enter.")
            return
        self.take(*(Move(seat, p, n - 1, target - 1) for n, p in moves))

    def action_move_new(self) -> None:
        board, game, seat = self.board, self.game, self.seat
        if board is None or game is None or seat is None:
            return
        moves = self.picks()
        if not moves:
            return
        (n, piece), *rest = moves
        if not self.take(Move(seat, piece, n - 1, None)):
            return
        now = game.board_now
        index = len(now.sets) - 1 if now is not None else 0
        self.take(*(Move(seat, p, n - 1, index) for n, p in rest))

    def action_back(self) -> None:
        seat = self.seat
        if self.board is not None and seat is not None:
            self.take(*(Back(seat, p) for _, p in self.picks()))

    def action_split(self) -> None:
        board, game, seat = self.board, self.game, self.seat
        if board is not None and game is not None and seat is not None:
            self.take(Split(seat, game.target - 1, game.table_pos))

    def action_merge(self) -> None:
        """The sets holding selected pieces go on the end of the target set (none selected: the next set)."""
        board, game = self.board, self.game
        if board is None or game is None:
            return
        target = game.target
        others = sorted({n for n, _ in game.table_picks if n != target})
        if not others:
            later = [s.number for s in board.sets if s.number > target and s.pieces]
            others = later[:1]
        if not others:
            game.note("Nothing to merge: select a piece of another set (Space), put the cursor on a set, then Ctrl+G.")
            return
        seat = self.seat
        if seat is not None:
            self.take(*(Merge(seat, target - 1, n - 1) for n in others))


class RackBar(DraftKeys):
    """The person's rack during a free-table turn: a cursor, selected pieces, a new set or an add.

    Every step is a declared draft step (``new``, ``add``) built from the
    rack's pieces, taken by the turn as a typed step is once read.
    """

    DEFAULT_CSS = """
    RackBar { height: auto; min-height: 2; border: round $accent; padding: 0 1; }
    RackBar:focus { border: round $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "select", "Select"),
        Binding("ctrl+n", "new_set", "New set"),
        Binding("enter", "add", "Add to >"),
        Binding("up", "target(-1)", "Set up", show=False),
        Binding("down", "target(1)", "Set down", show=False),
    ]

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.cursor = 0
        self.selected: set[int] = set()
        self.rack: tuple[str, ...] | None = None
        self.items: tuple[object, ...] = ()
        """The rack's pieces as the game's objects (the steps are built from them)."""
        self.style = Style()
        self.layout_: Wrapped | None = None

    def show(self, board: Board | None, style: Style) -> None:
        """Take the draft as it is now (the selection is kept only while the rack is unchanged)."""
        rack = board.rack if board is not None else None
        if rack != self.rack:
            self.selected = set()
        self.rack = rack
        self.items = board.rack_items if board is not None else ()
        self.style = style
        if rack:
            self.cursor = max(0, min(self.cursor, len(rack) - 1))
        self.refresh(layout=True)

    def picked(self) -> tuple[object, ...]:
        """The selected pieces (the game's objects), or the piece under the cursor when none is selected."""
        if not self.rack:
            return ()
        indices = sorted(self.selected) if self.selected else [self.cursor]
        return tuple(self.items[i] for i in indices if i < len(self.items))

    def render(self) -> Text:
        rack = self.rack
        if rack is None:
            return Text("")
        out = Wrapped(self.content_region.width or self.size.width or 60)
        out.add(Text("Your rack: " if rack else "Your rack is empty."))
        for i, piece in enumerate(rack):
            cell = piece_cell(self.style, piece, "", chosen=i in self.selected, cursor=i == self.cursor and self.has_focus)
            out.add(cell, i)
        self.layout_ = out
        return out.text

    def on_focus(self) -> None:
        self.border_title = focus_title("your rack", True)

    def on_blur(self) -> None:
        self.border_title = focus_title("your rack", False)

    def on_click(self, event: events.Click) -> None:
        """Select or unselect the clicked piece (and put the cursor on it)."""
        self.focus()
        at = event.get_content_offset(self)
        if at is None or self.layout_ is None:
            return
        index = self.layout_.at(at.x, at.y)
        if isinstance(index, int):
            self.cursor = index
            self.selected ^= {index}
            self.refresh()

    def action_cursor(self, step: int) -> None:
        if self.rack:
            self.cursor = (self.cursor + step) % len(self.rack)
            self.refresh()

    def action_select(self) -> None:
        if self.rack:
            self.selected ^= {self.cursor}
            self.refresh()

    def action_new_set(self) -> None:
        seat, picked = self.seat, self.picked()
        if self.board is not None and seat is not None and picked:
            self.take(New(seat, picked))

    def action_add(self) -> None:
        game, seat, picked = self.game, self.seat, self.picked()
        if self.board is not None and game is not None and seat is not None and picked:
            self.take(Add(seat, game.target - 1, picked))
