"""The game screen of ``rummykit tui``: the game as the person's seat sees it, a log, a command line.

:class:`GameApp` plays one game set up by :func:`rummykit.cli.start.game_setup`
(the same options as ``rummykit play``):

- the main panel is the game as the person's seat sees it, drawn by the
  game's presenter from the seat's view (with bots only: a spectator's view);
  during a free-table turn it is the draft (:class:`~rummykit.presenters.base.Board`),
  invalid sets marked with the engine's reason, and the rack below it
  (:class:`RackBar`), where tiles are picked with the keys or the mouse;
- the log tells every event as the seat may see it (the presenter's narrator);
- the command line takes exactly the commands of the game's line prompt
  (the presenter's :class:`~rummykit.presenters.base.Turn`); refusals are
  shown under the panel with the engine's reason and rule id;
- bots move one step at a time, after :attr:`GameApp.bot_delay` seconds,
  thinking in a thread so the screen never freezes.

With no game set up it opens on the start screen (:mod:`rummykit.tui.start`,
also F2). Several people share the screen (hot-seat) behind a
:class:`CoverScreen` that shows nobody's rack; a :class:`ScoreScreen` follows
each round and the match (the presenter's round-end and outcome lines).

Who acts next is the game session's question
(:class:`~rummykit.session.GameSession`, as at the line prompt): the app keeps
no loop of its own. The record is saved when the app stops, as ``rummykit
play`` saves it (:func:`rummykit.session.save_record`: never over another file).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
from collections import Counter
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, ClassVar, TextIO, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from rummykit.cli.start import GameSetup
from rummykit.engine.core import Action
from rummykit.errors import ParseError, RummykitError
from rummykit.presenters.base import TEXT_TABLE, Board, Quit, Style, Turn, table_kind, word_refusal
from rummykit.session import GameSession, Saved
from rummykit.tui.guard import Guarded
from rummykit.tui.tables import (
    FOCUS_MARK,
    TURN_KEYS,
    HandBar,
    TableWidget,
    Wrapped,
    focus_title,
    scroll_to_line,
    widget_classes,
)
from rummykit.tui.widgets import FittedText, GameLog, KeysBar, LinesPanel, fit_key_rows

W = TypeVar("W", bound=Widget)

__all__ = [
    "SPEEDS",
    "BoardPanel",
    "CoverScreen",
    "GameApp",
    "GameLog",
    "HelpScreen",
    "MovesList",
    "RackBar",
    "ScoreScreen",
    "Wrapped",
    "run_app",
]

SPEEDS: dict[str, float | None] = {"fast": 0.0, "normal": 0.6, "slow": 1.5, "step": None}
"""The bot speeds: seconds between two bot steps, so a person can follow them (``step``: one step per F5)."""

BOT_DELAY = 0.6
"""Seconds between two bot steps at the ``normal`` speed."""

THEMES = ("textual-dark", "textual-light")
"""The themes F4 goes between."""


def message_of(exc: BaseException) -> str:
    """A refusal as one line: the engine's reason with its rule id, or the presenter's parse error."""
    return "! " + word_refusal(exc)


def ansi(lines: list[str]) -> Text:
    """Lines that may hold the presenters' ANSI colours, as one styled text."""
    return Text.from_ansi("\n".join(lines)) if lines else Text("")


# -- the free-table draft ------------------------------------------------------------------


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

    Every key runs one of the :class:`~rummykit.presenters.base.Board`
    command templates through the person's turn, exactly like a typed line.
    """

    BINDINGS: ClassVar[list[BindingType]] = [*TURN_KEYS, Binding("f7", "hint", "Hint")]

    @property
    def game(self) -> GameApp | None:
        """The app while it has a game loaded (None before the first one: every key then does nothing)."""
        app = self.app
        return app if isinstance(app, GameApp) and app.setup is not None else None

    @property
    def board(self) -> Board | None:
        game = self.game
        return getattr(game, "board_now", None) if game is not None else None

    def run(self, *lines: str) -> bool:
        """Run command lines in order through the turn until one is refused; True if all were taken."""
        game = self.game
        if game is None:
            return False
        return all(game.run_command(line) for line in lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key before a game is loaded; commit only when the draft would pass the engine's checks
        (shown greyed out otherwise)."""
        if self.game is None:
            return None
        if action == "commit":
            return True if self.board is not None and self.board.ready else None
        return True

    def action_commit(self) -> None:
        if self.board is not None:
            self.run(self.board.commit)

    def action_undo(self) -> None:
        if self.board is not None:
            self.run(self.board.undo)

    def action_reset(self) -> None:
        if self.board is not None:
            self.run(self.board.reset)

    def action_draw(self) -> None:
        if self.board is not None:
            self.run(self.board.draw)

    def action_pass(self) -> None:
        if self.board is not None:
            self.run(self.board.pass_)

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

    def __init__(self, **kwargs: Any) -> None:
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
        what = layout.at(at.x, at.y)
        if isinstance(what, tuple):
            game.target, game.table_pos = what
            game.table_picks ^= {what}
        elif 0 <= at.y < len(self.line_sets) and self.line_sets[at.y]:
            game.target = self.line_sets[at.y]
        game.redraw_table()

    # -- the table's keys ------------------------------------------------------------

    def target_set(self) -> tuple[str, ...]:
        game, board = self.game, self.board
        if game is None or board is None or not 1 <= game.target <= len(board.sets):
            return ()
        return board.sets[game.target - 1].pieces

    def picks(self) -> list[tuple[int, str]]:
        """The selected table pieces as (set number, piece), or the one under the cursor when none is."""
        game, board = self.game, self.board
        if game is None or board is None:
            return []
        chosen = sorted(game.table_picks) or [(game.target, game.table_pos)]
        return [
            (n, board.sets[n - 1].pieces[i]) for n, i in chosen
            if 1 <= n <= len(board.sets) and 0 <= i < len(board.sets[n - 1].pieces)
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
        board, game = self.board, self.game
        if board is None or game is None:
            return
        target = game.target
        moves = [(n, p) for n, p in self.picks() if n != target] if game.table_picks else []
        if not moves:
            game.note("Select table pieces (Space or a click) in other sets, put the cursor on a set, then Enter.")
            return
        self.run(*(board.command(board.move, [p], n, to=target) for n, p in moves))

    def action_move_new(self) -> None:
        board, game = self.board, self.game
        if board is None or game is None:
            return
        moves = self.picks()
        if not moves:
            return
        first, *rest = moves
        if not self.run(board.command(board.move, [first[1]], first[0], to="new")):
            return
        now = game.board_now
        number = len(now.sets) if now is not None else 0
        self.run(*(board.command(board.move, [p], n, to=number) for n, p in rest))

    def action_back(self) -> None:
        board = self.board
        if board is not None:
            self.run(*(board.command(board.back, [p]) for _, p in self.picks()))

    def action_split(self) -> None:
        board, game = self.board, self.game
        if board is not None and game is not None:
            self.run(board.command(board.split, (), game.target, position=game.table_pos + 1))

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
        self.run(*(board.command(board.merge, (), target, other=n) for n in others))


class RackBar(DraftKeys):
    """The person's rack during a free-table turn: a cursor, selected pieces, a new set or an add.

    Every step is one of the :class:`~rummykit.presenters.base.Board`
    command templates, run through the turn like a typed line.
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

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cursor = 0
        self.selected: set[int] = set()
        self.rack: tuple[str, ...] | None = None
        self.style = Style()
        self.layout_: Wrapped | None = None

    def show(self, board: Board | None, style: Style) -> None:
        """Take the draft as it is now (the selection is kept only while the rack is unchanged)."""
        rack = board.rack if board is not None else None
        if rack != self.rack:
            self.selected = set()
        self.rack = rack
        self.style = style
        if rack:
            self.cursor = max(0, min(self.cursor, len(rack) - 1))
        self.refresh(layout=True)

    def picked(self) -> list[str]:
        """The selected pieces, or the piece under the cursor when none is selected."""
        if not self.rack:
            return []
        indices = sorted(self.selected) if self.selected else [self.cursor]
        return [self.rack[i] for i in indices]

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
        if self.board is not None and self.picked():
            self.run(self.board.command(self.board.new, self.picked()))

    def action_add(self) -> None:
        game = self.game
        if self.board is not None and game is not None and self.picked():
            self.run(self.board.command(self.board.add, self.picked(), game.target))

# -- every other game: the moves the engine lists --------------------------------------------


class MovesList(OptionList):
    """The moves the seat may make now (the engine's listing), as the commands a person types.

    For a game whose turn has no free-table draft (``conveyor``, ``two-tray``,
    ``mummus``): Up/Down and Enter (or a click) play a move, through the
    person's turn exactly like the typed command. Letters typed go to the
    command line (as everywhere), which narrows the list to the moves starting
    with what is typed.
    """

    DEFAULT_CSS = """
    MovesList { height: auto; max-height: 10; border: round $accent; }
    MovesList:focus { border: round $success; }
    Screen.-short MovesList { max-height: 7; }
    """

    def show(self, moves: list[str]) -> None:
        """List ``moves`` (the list hides when empty); the highlighted move stays when still listed."""
        shown = [str(option.prompt) for option in self.options]
        if moves != shown:
            keep = self.highlighted_option.id if self.highlighted_option is not None else None
            self.set_options([Option(move, id=move) for move in moves])
            if keep in moves:
                self.highlighted = moves.index(keep)
            elif moves:
                self.highlighted = 0
        self.display = bool(moves)
        self.mark_focus()

    def mark_focus(self, focused: bool | None = None) -> None:
        """The title: how many moves, and (while the list has the focus) the focus mark."""
        count = self.option_count
        title = f"Your moves ({count}): Enter plays one" if count else ""
        focused = self.has_focus if focused is None else focused
        self.border_title = f"{FOCUS_MARK} {title}" if title and focused else title

    def on_focus(self) -> None:
        self.mark_focus(True)

    def on_blur(self) -> None:
        self.mark_focus(False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        app = self.app
        if isinstance(app, GameApp):
            app.run_command(str(event.option.prompt))


# -- help -------------------------------------------------------------------------------


class HelpScreen(ModalScreen[None]):
    """The game's commands (its presenter's help rows) and the keys of its table and of the app, laid out
    to the screen's width (again after a resize); any of Escape, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    HelpScreen.-narrow > VerticalScroll, HelpScreen.-short > VerticalScroll { width: 100%; height: 100%; }
    """

    def __init__(self, lines: Callable[[int], list[str]], title: str = "") -> None:
        super().__init__()
        self.lines = lines
        """The help laid out to a width (0: lines unbroken)."""
        self.heading = title

    def compose(self) -> ComposeResult:
        with VerticalScroll() as frame:
            frame.border_title = self.heading
            frame.border_subtitle = "Escape closes"
            yield FittedText(self.lines, id="help-text")


def free_table_keys_help(hint: bool) -> list[str]:
    """The keys of the rack and the table in a free-table game (``hint``: the game has a hint)."""
    return [
        "Your rack:",
        "  Left/Right    move along your rack; Space selects a piece (or click it)",
        "  Up/Down       choose the set marked > (or click it)",
        "  Enter         add the selection (none: the piece under the cursor) to the set marked >",
        "  Ctrl+N        a new set from the selection (no selection: the piece under the cursor)",
        "The table:",
        "  arrows        Up/Down choose the set marked >, Left/Right the piece in it",
        "  Space         select the piece under the cursor (or click it)",
        "  Enter         move the selected pieces to the set marked >",
        "  Ctrl+N        move the selected pieces (or the one under the cursor) to a new set",
        "  Delete        take the selected pieces (placed this turn) back to your rack",
        "  Ctrl+S        split the set marked > before the piece under the cursor",
        "  Ctrl+G        merge: the sets of the selected pieces (none: the next set) go on the end of >",
        "Both:",
        "  Ctrl+U Ctrl+R undo | reset the turn",
        *(["  F7            hint: the best play, its table shown with the pieces it places marked h"] if hint else []),
        "  Ctrl+O        commit: end your turn (only when the table is valid)",
        "  Ctrl+D Ctrl+K draw | pass (both end your turn)",
    ]


MOVES_KEYS_HELP = [
    "Your moves (listed under the table):",
    "  Up/Down       choose a move",
    "  Enter         play the move chosen (or click it)",
]
"""The keys of the moves list, for a game drawn by its presenter's lines."""


def app_keys_help(parts: str, moves_list: bool) -> list[str]:
    """The keys of the app (``parts``: what Tab goes between; ``moves_list``: F6 shows the moves list)."""
    return [
        "Everywhere:",
        "Whatever has the focus (marked ▶), typing goes to the command line: no letter is a key,",
        "so no letter of a command can play a move.",
        "  Enter         run the command typed on the bottom line (the commands above)",
        f"  Tab           go between {parts}",
        *(["  F6            show or hide the list of your moves under the table"] if moves_list else []),
        "  F1            this help; Escape closes it",
        "  F2            the start screen: a new game, a saved one, or a replay (Escape comes back here)",
        "  F3            bot speed: fast, normal, slow, step (F5 lets the next bot step happen)",
        "  F4            dark or light theme",
        "  F7            hint (where the game has one; else it says so)",
        "  Ctrl+Q        save the game record and quit",
        "A refusal shows the engine's reason and rule id under the table.",
    ]


# -- between people, and between rounds ------------------------------------------------


class CoverScreen(Screen[None]):
    """Hot-seat: the screen between two people, showing nobody's rack; Enter lets the next person see theirs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "I am ready")]
    DEFAULT_CSS = """
    CoverScreen { align: center middle; }
    CoverScreen > Static { width: auto; max-width: 90%; border: round $accent; padding: 1 2; }
    """

    def __init__(self, name: str, rack: str) -> None:
        super().__init__()
        self.person = name
        self.rack = rack

    def compose(self) -> ComposeResult:
        yield Static(
            f"Pass the keyboard to {self.person}.\n\n{self.person}, press Enter when ready to see your {self.rack}.",
            id="cover-text",
        )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)


NEXT, NEW, QUIT, TABLE = "next", "new", "quit", "table"
"""What the score screen answers."""


class ScoreScreen(Screen[str]):
    """The scores at the end of a round (Enter: next round) or of the match (Escape: back to the table).

    ``n`` answers a new game, ``q`` save and quit.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer('next')", "Next round"),
        Binding("escape", "answer('table')", "Back to the table"),
        Binding("n", "answer('new')", "New game"),
        Binding("q", "answer('quit')", "Save & quit"),
    ]
    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%; border: round $accent; padding: 0 1; }
    ScoreScreen #score-keys { margin-top: 1; }
    """

    def __init__(self, lines: list[str], *, final: bool) -> None:
        super().__init__()
        self.lines = lines
        self.final = final

    def compose(self) -> ComposeResult:
        first = "Escape: back to the table" if self.final else "Enter: next round"
        with VerticalScroll():
            yield Static(ansi(self.lines), id="score-text")
            yield Static(f"{first} | n: a new game | q: save and quit", id="score-keys")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter goes on only while the match goes on; Escape only once it is over."""
        if action == "answer" and parameters:
            if parameters[0] == NEXT:
                return not self.final
            if parameters[0] == TABLE:
                return self.final
        return True

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


# -- the app --------------------------------------------------------------------------


class GameApp(App[int]):
    """Games in the terminal: people (one, or several taking turns: hot-seat) and bots, or bots alone.

    With no set-up it opens on the start screen; F2 brings the start screen
    back at any time (the game left is saved first).
    """

    TITLE = "rummykit"
    CSS = """
    #main { height: 1fr; }
    #table-column { width: 3fr; }
    #left { height: 1fr; scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
    #board { padding: 0 1; }
    #side { width: 2fr; }
    #status { height: auto; max-height: 60%; padding: 0 1; }
    #status-top { height: auto; padding: 0 1; }
    #log { height: 1fr; border: round $primary; }
    #message { height: auto; max-height: 8; padding: 0 1; }
    #last { height: auto; max-height: 6; padding: 0 1; background: $boost; }
    Screen.-narrow #table-column { width: 1fr; }
    Screen.-narrow #side { width: 30; }
    Screen.-narrow #log { border: none; border-left: tall $primary; }
    Screen.-narrow TableWidget { border: none; }
    Screen.-narrow TableWidget:focus { border: none; background: $boost; }
    Screen.-short RackBar, Screen.-short HandBar { border: none; min-height: 1; background: $boost; }
    Screen.-short RackBar:focus, Screen.-short HandBar.-active { border: none; background: $success 25%; }
    Screen.-short #message { max-height: 3; }
    Screen.-short #last { max-height: 2; }
    Screen.-short #command { height: 1; border: none; padding: 0 1; background: $boost; }
    Screen.-short #command:focus { background: $primary 30%; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (Textual declares it so)
    """Below 100 columns the log takes a fixed narrow column, the table the rest."""
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]  # noqa: RUF012 (Textual declares it so)
    """Below 30 lines the command line, the rack and the lines under the panels take less room."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("f2", "new_game", "New game"),
        Binding("f3", "speed", "Bot speed"),
        Binding("f4", "theme", "Theme"),
        Binding("f5", "step", "Next bot step"),
        Binding("f6", "moves_list", "Moves list"),
        Binding("f7", "hint", "Hint", show=False),  # shown by the table and the rack, which have it too
        Binding("ctrl+q", "quit_game", "Save & quit", priority=True),
    ]

    def __init__(
        self,
        setup: GameSetup | None,
        *,
        bot_delay: float | None = None,
        speed: str = "normal",
        color: bool = True,
        theme: str | None = None,
        args: argparse.Namespace | None = None,
        environ: Mapping[str, str] | None = None,
        replay: str | None = None,
    ) -> None:
        super().__init__()
        self.speed = speed if speed in SPEEDS else "normal"
        """The bot speed, one of :data:`SPEEDS` (F3 goes through them)."""
        self.delay_override = bot_delay
        """Seconds between bot steps whatever the speed (tests: 0)."""
        self.stepped = asyncio.Event()
        """Set by F5 at the ``step`` speed: the next bot may move."""
        if theme is not None:
            self.theme = theme
        self.replay_file = replay
        """A record to open in the replay viewer first."""
        self.keys_shown: tuple[object, ...] = ()
        """What the footer's keys were last worked out from."""
        self.moves_shown = False
        """F6: the moves list shown under a table widget (a game with no widget always shows it)."""
        self.keys_panel: str | None = None
        """The part whose keys ended the person's turn: it has the focus again when their next turn
        begins, unless they have started typing meanwhile."""
        self.typing = False
        """True while typed keys go to the command line and its focus is not there yet."""
        self.board_now: Board | None = None
        """The person's free-table draft as last drawn (None: no draft)."""
        self.status_above = True
        """The status lines are drawn above the table (False: beside it, above the log; see :meth:`place_status`)."""
        self.status_lines: Callable[[int], list[str]] | None = None
        """The status lines laid out to a width, as last drawn (None: the panel's picture holds them)."""
        self.target = 1
        """The set marked ``>``: where the rack's ``a`` adds and the table's ``m`` moves to."""
        self.table_pos = 0
        """The table cursor's place in the target set."""
        self.table_picks: set[tuple[int, int]] = set()
        """Table pieces selected, as (set number, place in the set)."""
        self.hint: list[list[str]] | None = None
        """The table the hint's play leaves, while it is shown."""
        self.last_move: list[str] = []
        """What the last bot (or other seat) did, as the shown seat may see it: highlighted on the screen."""
        self.style = Style(color=color, width=0)
        self.args = args if args is not None else argparse.Namespace(record=None, no_record=False)
        """The command line's record choices, for the games made on the start screen."""
        self.environ = environ
        self.saved_lines: list[str] = []
        """What every save said (where each game went), for after the app closes."""
        self.save_errors: list[str] = []
        self.status = 0
        self.setup: GameSetup | None = None
        self.pending: list[list[str]] = []
        """Round-end score lines not shown yet."""
        self.halted = False
        """True while play waits for the start screen (asked for on a score screen)."""
        if setup is not None:
            self.load(setup)

    def load(self, setup: GameSetup) -> None:
        """Take a game to play (the screen is drawn by :meth:`begin`)."""
        self.setup = setup
        self.session = GameSession(setup.state, setup.bots, setup.rngs)
        """Who acts, the bots' choices, applying actions and the record's seats."""
        self.state = self.session.state
        self.bots = list(setup.bots)
        self.presenter = setup.presenter
        self.rngs = self.session.rngs
        self.names = list(self.state.players)
        self.people = self.session.people
        self.hot_seat = len(self.people) > 1
        self.seat: int | None = self.people[0] if len(self.people) == 1 else None
        """The seat whose view the screen shows (None: a spectator's: bots only, or between hot-seat people)."""
        self.first_event = len(self.state.history) if setup.resumed is not None else 0
        self.shown = self.first_event
        self.narrator = self.presenter.narrator(self.names, self.style)
        self.turn: Turn | None = None
        self.claim = False
        self.turn_seq = 0
        """The position (``seq``) the person's turn shows: their action is made against it."""
        self.orders: dict[int, str] = {}
        self.order: str | None = None
        self.messages: list[str] = []
        self.log_lines: list[str] = []
        """Every line in the log, in order (plain text)."""
        self.saved: Saved | None = None
        self.round_no = self.state.round_no
        self.pending = []
        self.keys_shown = ()
        self.board_now = None
        self.target = 1
        self.table_pos = 0
        self.table_picks = set()
        self.hint = None
        self.last_move = []

    @property
    def bot_delay(self) -> float:
        """Seconds before each bot step at the current speed."""
        if self.delay_override is not None:
            return self.delay_override
        return SPEEDS.get(self.speed) or 0.0

    @property
    def labels(self) -> list[str]:
        """A note per seat: ``you`` (one person), ``bot LEVEL``, or nothing (hot-seat people)."""
        person = "" if self.hot_seat else "you"
        return [person if bot is None else f"bot {bot.level}" for bot in self.bots]

    def part(self, selector: str | type[W], expect: type[W] | None = None) -> W:
        """A widget of the game screen (the first on the stack), whichever screen is on top of it."""
        base = self.screen_stack[0] if self.screen_stack else self.screen
        if expect is not None:
            assert isinstance(selector, str)
            return base.query_one(selector, expect)
        return base.query_one(selector)  # type: ignore[return-value]

    @property
    def rack_bar(self) -> RackBar:
        return self.part(RackBar)

    def compose(self) -> ComposeResult:
        """The table (scrolling when it is too big) with your rack or hand always under it, the log beside
        them; under both: the last move, the messages, the command line and the keys."""
        with Horizontal(id="main"):
            with Vertical(id="table-column"):
                with VerticalScroll(id="left", can_focus=False):
                    yield LinesPanel(id="status-top")
                    yield BoardPanel(id="board")
                    for kind, widget in widget_classes().items():
                        yield widget(id=f"table-{kind}")
                yield RackBar(id="rack")
                yield HandBar(id="hand")
                yield MovesList(id="moves")
            with Vertical(id="side"):
                yield LinesPanel(id="status")
                yield GameLog(id="log")
        yield Static(id="last")
        yield Static(id="message")
        yield Input(placeholder="type a command (help lists them), Enter runs it", id="command")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        self.part("#command", Input).select_on_focus = False  # coming back to it never selects what is typed
        if self.replay_file is not None:
            self.open_replay(self.replay_file)
        elif self.setup is None:
            self.action_new_game()
        else:
            self.begin()

    def open_replay(self, file: str) -> None:
        """The replay viewer on a saved record (leaving it goes back to the game, or the start screen)."""
        from rummykit.tui.replay import ReplayScreen, load_replay

        try:
            replay = load_replay(file, self.style.color)
        except RummykitError as exc:
            self.notify(message_of(exc), severity="error")
            if self.setup is None:
                self.action_new_game()
            return

        def back(_: object) -> None:
            if self.setup is None and self.screen is self.screen_stack[0]:
                self.action_new_game()

        self.push_screen(ReplayScreen(replay), callback=back)

    def begin(self) -> None:
        """Draw the game just loaded and let it go on."""
        self.part(RichLog).clear()
        self.sub_title = f"{self.state.info.name}: {self.who()}"
        self.rewrite_log()
        self.refresh_screen()
        self.part(Input).focus()
        self.advance()

    def who(self) -> str:
        bots = ", ".join(f"{self.names[s]} ({b.level})" for s, b in enumerate(self.bots) if b is not None)
        if not self.people:
            return "the bots play; watch them"
        if self.hot_seat:
            people = ", ".join(self.names[s] for s in self.people)
            return f"hot-seat for {people}" + (f", against {bots}" if bots else "")
        return f"you are {self.names[self.people[0]]}" + (f", against {bots}" if bots else "")

    def rewrite_log(self) -> None:
        """Start the log again, telling every event as the shown seat may see it (hot-seat: a new seat)."""
        self.part(RichLog).clear()
        self.log_lines = []
        assert self.setup is not None
        info = self.state.info
        self.write_log(f"{info.name}: {self.who()}. Seed {self.state.seed}. F1: help; Ctrl+Q saves and quits.")
        for note in self.setup.notes:
            self.write_log(note)
        self.narrator = self.presenter.narrator(self.names, self.style)
        self.shown = self.first_event
        self.show_events(scores=False)

    def show_seat(self, seat: int | None) -> None:
        """Show the game as ``seat`` sees it (hot-seat: None between people, so no rack is on the screen)."""
        if seat != self.seat:
            self.seat = seat
            self.rewrite_log()
        self.refresh_screen()

    # -- drawing ------------------------------------------------------------------

    def view(self) -> Mapping[str, Any]:
        view: Mapping[str, Any] = self.state.view(self.seat)
        return view

    def write_log(self, *lines: str) -> None:
        self.log_lines.extend(Text.from_ansi(line).plain for line in lines)
        self.part(GameLog).add(*lines)

    def show_events(self, *, scores: bool = True) -> list[str]:
        """Tell the events not told yet, as the shown seat may see them; keep each round's end for a score screen.

        Returns the lines told.
        """
        told: list[str] = []
        for event in self.state.history[self.shown :]:
            lines = self.narrator.describe(event.seen_by(self.seat))
            told.extend(lines)
            self.write_log(*lines)
            if scores and event.kind == "round-end":
                self.pending.append(self.presenter.round_end_lines(event.seen_by(None), self.names, self.style))
        self.shown = len(self.state.history)
        return told

    def board(self) -> Board | None:
        return self.turn.board() if self.turn is not None else None

    def refresh_screen(self) -> None:
        """Redraw the main panel, the rack, the moves and the messages from the view (or the draft)."""
        if self.setup is None or not self.screen_stack:
            return
        try:
            self.redraw()
        except NoMatches:
            return  # the app is closing: its widgets are gone

    def redraw(self) -> None:
        panel = self.part(BoardPanel)
        width = max(30, panel.content_region.width or 60)
        style = Style(color=self.style.color, width=width)
        board = self.board()
        if board != self.board_now:
            self.table_picks = set()
        self.board_now = board
        view = self.turn_view()
        labels, color = self.labels, style.color
        status_view = view

        def status(width: int) -> list[str]:
            return self.presenter.status_lines(status_view, labels, Style(color=color, width=max(20, width)))

        table = self.table_widget() if board is None else None
        if board is not None:
            numbers = [s.number for s in board.sets if s.pieces]
            if numbers and self.target not in numbers:
                self.target = numbers[-1] if self.target > numbers[-1] else numbers[0]
            size = len(board.sets[self.target - 1].pieces) if 1 <= self.target <= len(board.sets) else 0
            self.table_pos = max(0, min(self.table_pos, size - 1))
            panel.show(lambda style: [], self.hint, color)
        elif table is not None:
            panel.show(lambda style: [], None, color)
            draft_view = getattr(self.turn, "draft_view", None)
            if callable(draft_view):  # the turn drafts: the widget draws the draft (the turn then says less)
                view = draft_view()
            table.show(view, acting=self.turn is not None, color=color)
        else:
            order = self.order
            panel.show(lambda style: self.presenter.screen(view, labels, style, order), None, color)
        # the status lines above the table, or beside it when the table needs the room (a game drawn by its
        # presenter has them in its picture)
        lines = status if board is not None or table is not None else None
        self.part("#status-top", LinesPanel).show(lines if self.status_above else None)
        self.part("#status", LinesPanel).show(None if self.status_above else lines)
        self.status_lines = lines
        self.call_after_refresh(self.place_status)
        panel.display = table is None
        for widget in self.part("#left", VerticalScroll).query(TableWidget).results(TableWidget):
            widget.display = widget is table
        self.part(HandBar).show(table)
        bar = self.rack_bar
        bar.display = board is not None
        bar.show(board, style)
        self.show_moves()
        self.update_text("#last", self.last_move)
        self.update_text("#message", self.messages)
        keys = (board is not None, board is not None and board.ready, self.speed, self.turn is not None)
        if keys != self.keys_shown:
            self.keys_shown = keys
            self.refresh_bindings()  # the footer: commit greyed out or not, F5 shown or not
        self.keep_focus()

    def place_status(self) -> None:
        """Put the status lines above the table when both fit in the table's room without scrolling,
        else beside the table, above the log (what decides is the room and the table, not where the
        status lines are now, so the choice holds until the table or the screen changes size)."""
        lines = self.status_lines
        if lines is None or self.setup is None:
            return
        try:
            area = self.part("#left", VerticalScroll)
            top = self.part("#status-top", LinesPanel)
        except NoMatches:
            return
        room = area.scrollable_content_region
        if room.height <= 0 or room.width <= 0:
            return
        table = sum(child.outer_size.height for child in area.children if child.display and child is not top)
        above = len(lines(room.width - top.styles.gutter.width)) + table <= room.height
        if above != self.status_above:
            self.status_above = above
            top.show(lines if above else None)
            self.part("#status", LinesPanel).show(None if above else lines)

    def update_text(self, where: str, lines: list[str]) -> None:
        """Show lines in one of the Static fields under the panels (hidden when empty), if they changed."""
        field = self.part(where, Static)
        if getattr(field, "shown_lines", None) != lines:
            field.shown_lines = list(lines)  # type: ignore[attr-defined]
            field.update(ansi(lines))
            field.display = bool(lines)

    def redraw_table(self) -> None:
        """Draw the table and the rack again (a cursor or a selection moved: the draft is unchanged)."""
        self.part(BoardPanel).refresh()
        self.rack_bar.refresh()

    def show_moves(self) -> None:
        """The moves list, narrowed to the moves starting with what is typed on the command line (if any do)."""
        fallback = self.moves_shown or self.table_widget() is None
        moves = self.moves() if self.board_now is None and fallback else []
        typed = " ".join(self.part("#command", Input).value.lower().split())
        if typed:
            narrowed = [move for move in moves if move.lower().startswith(typed)]
            moves = narrowed or moves
        self.part(MovesList).show(moves)

    def table_widget(self) -> TableWidget | None:
        """The table widget of the game's kind (None: the presenter's lines draw the table)."""
        kind = table_kind(self.presenter)
        if kind == TEXT_TABLE:
            return None
        try:
            found = [w for w in self.part("#left", VerticalScroll).query(TableWidget).results(TableWidget) if w.kind == kind]
        except NoMatches:
            return None  # the game screen is not there (yet, or any more)
        return found[0] if found else None

    def action_hint(self) -> None:
        """F7 on the command line (or the log): the hint, as on the table."""
        self.toggle_hint()

    def action_moves_list(self) -> None:
        """Show or hide the list of the moves the engine lists (always shown for a game with no table widget)."""
        self.moves_shown = not self.moves_shown
        self.refresh_screen()

    def moves(self) -> list[str]:
        """The moves the engine lists for the person now, as commands (nothing outside their turn)."""
        if self.turn is None or self.seat is None or self.seat not in self.state.to_act:
            return []
        return [self.presenter.command_text(action) for action in self.state.indexed_actions(self.seat)]

    def note(self, *lines: str) -> None:
        """Show lines under the panel in place of the last ones."""
        self.messages = list(lines)
        self.refresh_screen()

    def toggle_hint(self) -> bool:
        """Show the solver's best play on the table (the presenter's hint, as steps and as sets); hide it.

        The key and the typed ``hint`` both come here. A game with no hint, or no turn to hint at,
        says so under the panels (False).
        """
        if self.setup is None:
            return False
        if not self.presenter.hint:
            self.note(f"No hint for {self.state.info.id} yet.")
            return False
        turn = self.turn
        if turn is None:
            self.note("The hint is for your turn: ask again when you are to act.")
            return False
        if self.hint is not None:
            self.hint = None
            self.note()
            return True
        self.note("Thinking of a hint... (the solver's first search compiles it: this can take a minute)")
        self.run_worker(self.find_hint(turn), exclusive=True, group="hint")
        return True

    async def find_hint(self, turn: Turn) -> None:
        """Ask the presenter for the hint in a thread; a loading indicator covers the table if it takes
        long (the solver's first search compiles it), and the solver's notice shows as a toast."""
        from rummykit.presenters.solving import notices_to

        view = self.turn_view()
        panel = self.part(BoardPanel)
        timer = self.set_timer(0.3, lambda: setattr(panel, "loading", True))
        try:
            with notices_to(Notices(self)):
                lines = await asyncio.to_thread(self.presenter.hint_lines, view)
                hint_sets: object = getattr(turn, "hint_sets", None)
                sets = await asyncio.to_thread(hint_sets) if callable(hint_sets) else None
        finally:
            timer.stop()
            panel.loading = False
        if turn is not self.turn:
            return
        self.hint = sets if isinstance(sets, list) else []
        self.note(*lines)

    def turn_view(self) -> Mapping[str, Any]:
        turn_view: object = getattr(self.turn, "view", None)
        if isinstance(turn_view, Mapping):
            return turn_view
        return self.view()

    def say(self, *lines: str) -> None:
        """What a turn shows on request (help, check, hint...): under the panel."""
        self.messages.extend(lines)

    # -- who acts ------------------------------------------------------------------

    def advance(self) -> None:
        """Let the bots play until a person is to act or the game is over."""
        self.run_worker(self.drive(), exclusive=True, group="drive")

    async def drive(self) -> None:
        """Put the session's questions to the bots (thinking in a thread) until a person is asked or the game ends."""
        session = self.session
        while self.state.outcome is None:
            if self.pending and not await self.show_scores(final=False):
                return
            if self.turn is not None:
                return
            ask = session.ask()
            if ask is None:
                break
            if ask.bot is None:
                self.begin_turn(ask.seat, claim=ask.claim)
                return
            if not ask.claim:
                await self.bot_pause()
                if session is not self.session:
                    return
            seq = session.seq
            action = await session.choose_async(ask)
            if session is not self.session:
                return  # another game was started meanwhile
            if action is not None:
                self.apply_bot(action, seq)
        self.game_over()
        if self.state.outcome is not None:
            await self.show_scores(final=True)

    async def bot_pause(self) -> None:
        """Wait before a bot step: the speed's delay, or (``step``) until F5."""
        if self.delay_override is None and SPEEDS.get(self.speed, 0.0) is None:
            self.stepped.clear()
            await self.stepped.wait()
        elif self.bot_delay:
            await asyncio.sleep(self.bot_delay)

    async def show_scores(self, *, final: bool) -> bool:
        """The score screen for the rounds ended (and the match, when ``final``); False if play stops here."""
        lines = [line for block in self.pending for line in ([*block, ""] if block else [])]
        self.pending = []
        outcome = self.state.outcome
        if final and outcome is not None:
            lines += self.presenter.outcome_lines(outcome.to_json(), self.names, self.style)
        if not lines:
            return True
        answer = await self.push_screen_wait(ScoreScreen(lines, final=final))
        if answer == QUIT:
            self.action_quit_game()
            return False
        if answer == NEW:
            self.halted = True
            self.action_new_game()
            return False
        return True

    def apply_bot(self, action: Action, seq: int) -> None:
        """Apply a bot's action, made at position ``seq``; tell it and show it as the last move."""
        self.session.apply(action, seq=seq)
        told = self.show_events()
        if told:
            self.last_move = ["Last: " + told[0], *told[1:6]]
        self.refresh_screen()

    def begin_turn(self, seat: int, *, claim: bool = False) -> None:
        """Ask the person in ``seat`` to act; in hot-seat, behind a cover screen until they are at the keys."""
        if self.hot_seat and self.seat != seat:
            self.turn = None
            self.show_seat(None)
            self.push_screen(
                CoverScreen(self.names[seat], self.presenter.words.rack),
                callback=lambda _: self.open_turn(seat, claim=claim),
            )
            return
        self.open_turn(seat, claim=claim)

    def open_turn(self, seat: int, *, claim: bool = False) -> None:
        self.show_seat(seat)
        self.order = self.orders.get(seat)
        self.turn = self.presenter.turn(
            self.state.view(seat),
            say=self.say,
            style=Style(color=self.style.color, width=0),
            labels=self.labels,
            order=self.order,
            parse_action=self.state.parse_action,
        )
        self.turn.echo = False
        self.turn_seq = self.session.seq
        self.claim = claim
        self.hint = None
        self.table_picks = set()
        self.round_no = self.state.round_no
        name = f"{self.names[seat]}: your" if self.hot_seat else "Your"
        what = f"{name} chance to act out of turn: type a command, or Enter on an empty line to let it pass." if claim else (
            f"{name} {self.turn.label}: type a command (F1 or `help` lists them)"
            + ("; Tab goes to the table, then your rack, to pick pieces with the keys." if self.turn.board() is not None
               else "; Tab goes to the table, to act with its keys (F1 lists them; F6 lists your moves)."
               if self.table_widget() is not None
               else "; or pick one of your moves listed below (Tab, Up/Down, Enter).")
        )
        self.messages = [what]
        self.refresh_screen()
        self.restore_keys_focus()

    def end_turn(self) -> None:
        focused = self.screen_stack[0].focused
        if focused is not None and not isinstance(focused, (Input, RichLog)):
            self.keys_panel = focused.id  # the part whose keys ended the turn: it has the focus at the next
        self.turn = None
        self.claim = False
        self.hint = None
        if self.hot_seat:
            self.show_seat(None)  # nobody's rack stays on the screen
        self.refresh_screen()
        self.advance()

    # -- the person's commands -------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing a command narrows the moves list to the moves that start with it."""
        if self.setup is not None and event.input.id == "command":
            self.show_moves()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_command(event.value)

    def run_command(self, line: str) -> bool:
        """Run one line through the person's turn, apply the action it gives, and show the outcome.

        False when the line was refused (the reason is shown).
        """
        if self.setup is None:
            return False
        if [word.lower() for word in line.split()] == ["hint"]:
            return self.toggle_hint()  # as the key does: on the table, thought out in a thread
        turn = self.turn
        if turn is None:
            if self.state.outcome is not None:
                self.messages = ["The game is over: F2 starts a new one, Ctrl+Q saves the record and quits."]
            else:
                self.messages = ["Not your turn yet: the bots are playing."]
            self.refresh_screen()
            return False
        self.messages = []
        if self.claim and not line.strip():
            assert self.seat is not None
            self.session.let_pass(self.seat)
            self.messages = ["You let the chance pass."]
            self.end_turn()
            return True
        taken = True
        try:
            action = turn.command(line)
        except Quit:
            self.action_quit_game()
            return True
        except RummykitError as exc:
            self.messages.append(message_of(exc) + self.did_you_mean(line, exc))
            action = None
            taken = False
        finally:
            self.order = turn.order
            if self.seat is not None:
                self.orders[self.seat] = turn.order
        if action is not None:
            taken = self.apply_person(turn, action)
        self.refresh_screen()
        return taken

    def command_words(self) -> list[str]:
        """The command words the game's help lists, in its order (``undo | reset``: both)."""
        words: list[str] = []
        for command, _ in self.presenter.help_rows(self.turn_view()):
            for part in command.split(" | "):
                first = part.split()[0] if part.split() else ""
                if first and first not in words:
                    words.append(first)
        return words

    def did_you_mean(self, line: str, exc: RummykitError) -> str:
        """After a word that is no command (``c``), the commands it begins (``check``, ``commit``)."""
        words = line.split()
        if not isinstance(exc, ParseError) or not words:
            return ""
        typed = words[0].lower()
        commands = self.command_words()
        like = [f"`{word}`" for word in commands if word.startswith(typed)]
        if typed in commands or not like:
            return ""
        return ". Did you mean " + (", ".join(like[:-1]) + " or " if len(like) > 1 else "") + like[-1] + "?"

    def apply_person(self, turn: Turn, action: Action) -> bool:
        seat = action.player
        try:
            self.session.apply(action, seq=self.turn_seq)
        except RummykitError as exc:
            self.messages.append(message_of(exc))
            return False
        self.last_move = []
        self.messages.extend(turn.accepted())
        self.show_events()
        state = self.state
        if state.outcome is not None or state.to_act != {seat} or state.round_no != self.round_no:
            self.end_turn()
            return True
        self.claim = False
        self.hint = None
        self.turn_seq = self.session.seq
        turn.update(state.view(seat))
        return True

    def game_over(self) -> None:
        outcome = self.state.outcome
        if outcome is not None:
            self.messages = [
                *self.presenter.outcome_lines(outcome.to_json(), self.names, self.style),
                "F2 starts a new game; Ctrl+Q saves the record and quits.",
            ]
        self.refresh_screen()

    # -- typing and the focus ----------------------------------------------------------

    def command_line(self) -> Input | None:
        """The command line, while the game screen is the one on top (None: another screen is)."""
        if self.setup is None or not self.screen_stack or self.screen is not self.screen_stack[0]:
            return None
        try:
            return self.part("#command", Input)
        except NoMatches:
            return None

    def type_into_command(self, text: str) -> bool:
        """Put typed text on the command line at its cursor and give it the focus, unless it has the
        focus already (then it takes the text itself) or another screen is on top (False)."""
        command = self.command_line()
        if command is None or not text or self.focused is command:
            return False
        self.keys_panel = None
        if not self.typing:
            self.typing = True
            command.focus()  # Textual moves the focus after the keys already waiting: so ends `typing`
            self.call_later(setattr, self, "typing", False)
        command.insert_text_at_cursor(text)
        return True

    async def on_event(self, event: events.Event) -> None:
        """Typing goes to the command line, whichever part of the game screen has the focus.

        A printable key other than Space is taken here, as it comes from the terminal and before
        any part or binding sees it: no part has such a key (their keys are the arrows, Space,
        Enter, Delete, Ctrl and F keys), so no letter typed as part of a command can act on the
        game. Keys typed faster than the focus moves (Space too) keep their order: until the
        command line has the focus, each is put on it here, one after the other. Text pasted goes
        there too (its first line, as the command line takes a paste).
        """
        typed: str | None = None
        if isinstance(event, events.Key) and not event.is_forwarded and event.is_printable:
            if event.character is not None and (event.character != " " or self.typing):
                typed = event.character
        elif isinstance(event, events.Paste) and not event.is_forwarded:
            typed = next(iter(event.text.splitlines()), None)
        if typed is not None and self.type_into_command(typed):
            return
        await super().on_event(event)

    def keep_focus(self) -> None:
        """Give the command line the focus when the part that had it is gone (the rack and the draft
        when a turn ends, the moves list when it empties), so typing is never lost."""
        command = self.part("#command", Input)
        focused = self.screen_stack[0].focused
        if focused is not command and (focused is None or not (focused.display and focused.focusable)):
            command.focus()

    def restore_keys_focus(self) -> None:
        """At the start of a turn, the part whose keys the person used last has the focus again, if
        the command line has it and nothing is typed there."""
        panel, self.keys_panel = self.keys_panel, None
        command = self.part("#command", Input)
        if panel is None or command.value or self.screen_stack[0].focused is not command:
            return
        try:
            widget = self.part(f"#{panel}", Widget)
        except NoMatches:
            return
        if widget.display and widget.focusable:
            widget.focus()

    # -- keys -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Help, the hint and the start screen are offered on the game screen only (the screens above have
        their keys)."""
        if action in ("help", "new_game", "hint"):
            return self.setup is not None and self.screen is self.screen_stack[0]
        if action == "step":
            return self.speed == "step"
        if action == "moves_list":  # the fallback under a game's own table (the other games always list them)
            return self.setup is not None and self.table_widget() is not None
        return True

    def action_speed(self) -> None:
        """The next bot speed (fast, normal, slow, step by step)."""
        names = list(SPEEDS)
        self.set_speed(names[(names.index(self.speed) + 1) % len(names)] if self.speed in names else "normal")

    def set_speed(self, speed: str) -> None:
        self.speed = speed
        self.delay_override = None
        self.stepped.set()  # a bot waiting for a step goes on
        self.notify(f"Bot speed: {speed}" + (" (F5: the next bot step)" if speed == "step" else ""))
        self.refresh_bindings()

    def action_step(self) -> None:
        """Let the next bot step happen (at the ``step`` speed)."""
        self.stepped.set()

    def action_theme(self) -> None:
        """Go between the dark and the light theme."""
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]

    def action_help(self) -> None:
        if self.setup is not None:
            self.push_screen(HelpScreen(self.help_lines, f"{self.state.info.name}: commands and keys"))

    def help_lines(self, width: int) -> list[str]:
        """The help screen laid out to ``width``: the game's commands (its presenter's), the keys of its
        table (the free-table draft's, the table widget's, or the moves list's), the app's keys."""
        commands = self.presenter.help_lines(self.turn_view(), Style(width=width))
        table = self.table_widget()
        rack = self.presenter.words.rack
        if table is not None:
            keys, parts = table.KEYS_HELP, "the command line, the table (and your pieces under it) and the log"
        elif self.free_table():
            keys, parts = free_table_keys_help(self.presenter.hint), f"the command line, the table, your {rack} and the log"
        else:
            keys, parts = MOVES_KEYS_HELP, "the command line, your moves and the log"
        return [*commands, "", *fit_key_rows([*keys, *app_keys_help(parts, table is not None)], width)]

    def free_table(self) -> bool:
        """True when the game's turns draft a free table (numbered sets and a rack: the draft's keys)."""
        if self.board_now is not None:
            return True
        if table_kind(self.presenter) != TEXT_TABLE:
            return False
        seat = self.seat if self.seat is not None else self.people[0] if self.people else 0
        probe = self.presenter.turn(self.state.view(seat), say=lambda *_: None, style=Style(width=0))
        return probe.board() is not None

    def action_new_game(self) -> None:
        """The start screen; the game chosen there replaces this one (saved first)."""
        from rummykit.tui.start import StartScreen

        if self.screen is not self.screen_stack[0] and not self.halted:
            return  # only from the game screen (a score screen asks with its own key)
        game = self.state.info.id if self.setup is not None else None
        self.push_screen(StartScreen(self.args, self.environ, game), callback=self.start_game)

    def start_game(self, setup: GameSetup | None) -> None:
        """Play the game chosen on the start screen (None: go back to the game left, or leave)."""
        if setup is None:
            if self.setup is None:
                self.exit(self.status)
            elif self.halted:
                self.halted = False
                if self.state.outcome is None:
                    self.advance()
            return
        if self.setup is not None:
            self.save()
        self.workers.cancel_group(self, "drive")
        self.halted = False
        self.load(setup)
        self.begin()

    def action_quit_game(self) -> None:
        """Save the record (as ``rummykit play`` does) and stop."""
        self.save()
        self.exit(self.status)

    def save(self) -> Saved | None:
        """Save the game's record once (never over another file); what was done (None: no game yet)."""
        if self.setup is None:
            return None
        if self.saved is None:
            plan = self.setup.plan
            self.saved = self.session.save(
                record=plan.save,
                record_path=plan.path,
                records_dir=plan.folder,
                resumed=self.setup.resumed,
                command="tui",
            )
            self.saved_lines.extend(self.saved.lines)
            if self.saved.error is not None:
                self.save_errors.append(self.saved.error)
                self.status = 1
        return self.saved

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_screen()


class Notices(io.StringIO):
    """A stream for the solver's notices (written from its thread): each line shows as a toast."""

    def __init__(self, app: App[Any]) -> None:
        super().__init__()
        self.app = app

    def write(self, text: str) -> int:
        if text.strip():
            self.app.call_from_thread(self.app.notify, " ".join(text.split()), timeout=30)
        return len(text)


def run_app(
    setup: GameSetup | None,
    *,
    out: TextIO,
    err: TextIO,
    no_color: bool = False,
    args: argparse.Namespace | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run the app until the person quits (with no set-up: from the start screen); then save and say where."""
    env = os.environ if environ is None else environ
    theme = getattr(args, "theme", None)
    app = GameApp(
        setup,
        color=not (no_color or env.get("NO_COLOR", "")),
        args=args,
        environ=environ,
        speed=str(getattr(args, "speed", None) or "normal"),
        theme=None if theme is None else THEMES[1] if theme == "light" else THEMES[0],
        replay=getattr(args, "replay", None),
    )
    guarded = Guarded(app)
    status = guarded.run()
    guarded.also(app.save)  # after an unexpected error too: the game so far can be resumed
    for error in app.save_errors:
        err.write(error + "\n")
    for line in app.saved_lines:
        out.write(line + "\n")
    failed = guarded.finish("tui", err, environ)
    if failed is not None:
        return failed
    return status if isinstance(status, int) else app.status
