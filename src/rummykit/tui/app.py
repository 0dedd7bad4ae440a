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

The record is saved when the app stops, as ``rummykit play`` saves it
(:func:`rummykit.cli.play.save_record`: never over another file).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Mapping
from typing import Any, ClassVar, TextIO

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static

from rummykit.cli.play import Saved, record_seats, save_record, seat_to_ask
from rummykit.cli.start import GameSetup
from rummykit.engine.core import Action
from rummykit.engine.driver import Claimer, claims_open
from rummykit.errors import RummykitError
from rummykit.presenters.base import Board, Quit, Style, Turn
from rummykit.sim import bot_rng

__all__ = ["BoardPanel", "CoverScreen", "GameApp", "HelpScreen", "RackBar", "ScoreScreen", "run_app"]

BOT_DELAY = 0.6
"""Seconds between two bot steps, so a person can follow them (tests set 0)."""


def message_of(exc: BaseException) -> str:
    """A refusal as one line: the engine's reason with its rule id, or the presenter's parse error."""
    return "! " + " ".join(str(exc).split())


def ansi(lines: list[str]) -> Text:
    """Lines that may hold the presenters' ANSI colours, as one styled text."""
    return Text.from_ansi("\n".join(lines)) if lines else Text("")


# -- the free-table draft ------------------------------------------------------------------


class BoardPanel(Static):
    """The draft table: one line per set, the target set marked ``>``, an invalid set followed by its reason.

    Clicking a set's line makes it the target of ``add``.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line_sets: list[int] = []
        """The set number on each line (0: no set)."""

    def show(self, status: list[str], board: Board, target: int, style: Style) -> None:
        """Draw the status lines, the draft with ``target`` marked, and what is still wrong."""
        text = ansi(status)
        self.line_sets = [0] * len(status)
        text.append("\nTable:" if status else "Table:")
        self.line_sets.append(0)
        if not any(s.pieces for s in board.sets):
            text.append("\n  (empty)")
            self.line_sets.append(0)
        for s in board.sets:
            mark = ">" if s.number == target else " "
            pieces = " ".join(
                style.marked(piece, m) for piece, m in zip(s.pieces, s.marks, strict=True)
            ) or "(empty: left out when you commit)"
            line = Text.from_ansi(f"{mark} [{s.number}] {pieces}")
            if s.number == target:
                line.stylize("bold")
            if s.problem is not None:
                line.append("  INVALID", style="bold red")
            text.append("\n")
            text.append_text(line)
            self.line_sets.append(s.number)
            if s.problem is not None:
                text.append(f"\n      ! {s.problem}", style="red")
                self.line_sets.append(s.number)
        if board.placed:
            text.append("\nPlaced this turn: ")
            text.append_text(Text.from_ansi(style.pieces(board.placed)))
            self.line_sets.append(0)
        if board.changed:
            if board.ready:
                text.append("\nReady: c (or `commit`) ends your turn with this table.", style="green")
                self.line_sets.append(0)
            for problem in board.problems:
                text.append(f"\nNot yet: {problem}", style="yellow")
                self.line_sets.append(0)
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        """Make the clicked set the target."""
        at = event.get_content_offset(self)
        y = -1 if at is None else at.y
        if 0 <= y < len(self.line_sets) and self.line_sets[y]:
            app = self.app
            if isinstance(app, GameApp):
                app.rack_bar.target = self.line_sets[y]
                app.refresh_screen()


class RackBar(Widget, can_focus=True):
    """The person's rack during a free-table turn: a cursor, selected pieces, and keys for the draft's steps.

    Every step is one of the :class:`~rummykit.presenters.base.Board` command
    templates, run through the turn like a typed line.
    """

    DEFAULT_CSS = """
    RackBar { height: auto; min-height: 2; border: round $accent; padding: 0 1; }
    RackBar:focus { border: round $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "select", "Select"),
        Binding("n", "new_set", "New set"),
        Binding("a", "add", "Add to >set"),
        Binding("up", "target(-1)", "Set up", show=False),
        Binding("down", "target(1)", "Set down", show=False),
        Binding("c", "commit", "Commit"),
        Binding("u", "undo", "Undo"),
        Binding("r", "reset", "Reset"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass", "Pass", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board: Board | None = None
        self.cursor = 0
        self.selected: set[int] = set()
        self.target = 1
        self.style = Style()
        self.spans: list[tuple[int, int, int, int]] = []
        """(line, first column, last column + 1, rack index) of every piece drawn."""

    def show(self, board: Board | None, style: Style) -> None:
        """Take the draft as it is now (the selection is kept only while the rack is unchanged)."""
        if board is None or self.board is None or board.rack != self.board.rack:
            self.selected = set()
        self.board = board
        self.style = style
        if board is not None:
            self.cursor = max(0, min(self.cursor, len(board.rack) - 1))
            numbers = [s.number for s in board.sets if s.pieces]
            if numbers and self.target not in numbers:
                self.target = numbers[-1] if self.target > numbers[-1] else numbers[0]
        self.refresh(layout=True)
        self.refresh_bindings()

    def picked(self) -> list[str]:
        """The selected pieces, or the piece under the cursor when none is selected."""
        if self.board is None or not self.board.rack:
            return []
        indices = sorted(self.selected) if self.selected else [self.cursor]
        return [self.board.rack[i] for i in indices]

    def render(self) -> Text:
        board = self.board
        if board is None:
            return Text("")
        width = max(10, self.content_region.width or self.size.width or 60)
        text = Text("Your rack: " if board.rack else "Your rack is empty.")
        x, line = len(text.plain), 0
        self.spans = []
        for i, piece in enumerate(board.rack):
            chosen = i in self.selected
            cell = Text.from_ansi(self.style.piece(piece))
            cell = Text("[" if chosen else " ") + cell + Text("]" if chosen else " ")
            if i == self.cursor and self.has_focus:
                cell.stylize("reverse")
            if chosen:
                cell.stylize("bold")
            if x + len(cell.plain) > width and x > 0:
                text.append("\n")
                x, line = 0, line + 1
            self.spans.append((line, x, x + len(cell.plain), i))
            text.append_text(cell)
            x += len(cell.plain)
        return text

    def on_click(self, event: events.Click) -> None:
        """Select or unselect the clicked piece (and put the cursor on it)."""
        self.focus()
        at = event.get_content_offset(self)
        if at is None:
            return
        for line, start, end, index in self.spans:
            if at.y == line and start <= at.x < end:
                self.cursor = index
                self.selected ^= {index}
                self.refresh()
                return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Commit only when the draft would pass the engine's checks (shown greyed out otherwise)."""
        if action == "commit":
            return True if self.board is not None and self.board.ready else None
        return True

    # -- actions ------------------------------------------------------------------

    def _run(self, line: str) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.run_command(line)

    def action_cursor(self, step: int) -> None:
        if self.board and self.board.rack:
            self.cursor = (self.cursor + step) % len(self.board.rack)
            self.refresh()

    def action_select(self) -> None:
        if self.board and self.board.rack:
            self.selected ^= {self.cursor}
            self.refresh()

    def action_target(self, step: int) -> None:
        if self.board is None:
            return
        numbers = [s.number for s in self.board.sets if s.pieces]
        if numbers:
            at = numbers.index(self.target) if self.target in numbers else 0
            self.target = numbers[(at + step) % len(numbers)]
            app = self.app
            if isinstance(app, GameApp):
                app.refresh_screen()

    def action_new_set(self) -> None:
        if self.board is not None and self.picked():
            self._run(self.board.command(self.board.new, self.picked()))

    def action_add(self) -> None:
        if self.board is not None and self.picked():
            self._run(self.board.command(self.board.add, self.picked(), self.target))

    def action_commit(self) -> None:
        if self.board is not None:
            self._run(self.board.commit)

    def action_undo(self) -> None:
        if self.board is not None:
            self._run(self.board.undo)

    def action_reset(self) -> None:
        if self.board is not None:
            self._run(self.board.reset)

    def action_draw(self) -> None:
        if self.board is not None:
            self._run(self.board.draw)

    def action_pass(self) -> None:
        if self.board is not None:
            self._run(self.board.pass_)


# -- help -------------------------------------------------------------------------------


class HelpScreen(ModalScreen[None]):
    """The game's commands (its presenter's help rows) and the app's keys; any of Escape, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("\n".join(self.lines)), id="help-text")


KEYS_HELP = [
    "",
    "Keys of the app:",
    "  Enter         run the command typed on the bottom line (the commands above)",
    "  Tab           go between the command line and your rack (free-table games)",
    "  Left/Right    move along your rack; Space selects a piece (or click it)",
    "  Up/Down       choose the set marked > (or click it); a adds the selection to it",
    "  n             make a new set from the selection (no selection: the piece under the cursor)",
    "  c u r         commit (only when the table is valid) | undo | reset the turn",
    "  d p           draw | pass",
    "  F1            this help; Escape closes it",
    "  F2            the start screen: a new game or a saved one (Escape comes back here)",
    "  Ctrl+Q        save the game record and quit",
    "A refusal shows the engine's reason and rule id under the table; `penalty`, typed, still",
    "commits an invalid table on purpose where the game has that rule.",
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
    #left { width: 3fr; }
    #board { padding: 0 1; }
    #log { width: 2fr; border: round $primary; }
    #message { height: auto; max-height: 8; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("f2", "new_game", "New game"),
        Binding("ctrl+q", "quit_game", "Save & quit", priority=True),
    ]

    def __init__(
        self,
        setup: GameSetup | None,
        *,
        bot_delay: float = BOT_DELAY,
        color: bool = True,
        args: argparse.Namespace | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.bot_delay = bot_delay
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
        self.state = setup.state
        self.bots = list(setup.bots)
        self.presenter = setup.presenter
        self.rngs = list(setup.rngs) if setup.rngs is not None else [
            bot_rng(self.state.seed, seat) for seat in range(len(self.bots))
        ]
        self.names = list(self.state.players)
        self.people = [seat for seat, bot in enumerate(self.bots) if bot is None]
        self.hot_seat = len(self.people) > 1
        self.seat: int | None = self.people[0] if len(self.people) == 1 else None
        """The seat whose view the screen shows (None: a spectator's: bots only, or between hot-seat people)."""
        self.first_event = len(self.state.history) if setup.resumed is not None else 0
        self.shown = self.first_event
        self.narrator = self.presenter.narrator(self.names, self.style)
        self.turn: Turn | None = None
        self.claim = False
        self.offered: set[tuple[int, int]] = set()
        self.orders: dict[int, str] = {}
        self.order: str | None = None
        self.messages: list[str] = []
        self.log_lines: list[str] = []
        """Every line in the log, in order (plain text)."""
        self.saved: Saved | None = None
        self.round_no = self.state.round_no
        self.pending = []

    @property
    def labels(self) -> list[str]:
        """A note per seat: ``you`` (one person), ``bot LEVEL``, or nothing (hot-seat people)."""
        person = "" if self.hot_seat else "you"
        return [person if bot is None else f"bot {bot.level}" for bot in self.bots]

    @property
    def rack_bar(self) -> RackBar:
        return self.query_one(RackBar)

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with VerticalScroll(id="left", can_focus=False):
                yield BoardPanel(id="board")
                yield RackBar(id="rack")
            yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="message")
        yield Input(placeholder="type a command (help lists them), Enter runs it", id="command")
        yield Footer()

    def on_mount(self) -> None:
        if self.setup is None:
            self.action_new_game()
        else:
            self.begin()

    def begin(self) -> None:
        """Draw the game just loaded and let it go on."""
        self.query_one(RichLog).clear()
        self.sub_title = f"{self.state.info.name}: {self.who()}"
        self.rewrite_log()
        self.refresh_screen()
        self.query_one(Input).focus()
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
        self.query_one(RichLog).clear()
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
        log = self.query_one(RichLog)
        for line in lines:
            text = Text.from_ansi(line)
            self.log_lines.append(text.plain)
            log.write(text)

    def show_events(self, *, scores: bool = True) -> None:
        """Tell the events not told yet, as the shown seat may see them; keep each round's end for a score screen."""
        for event in self.state.history[self.shown :]:
            self.write_log(*self.narrator.describe(event.seen_by(self.seat)))
            if scores and event.kind == "round-end":
                self.pending.append(self.presenter.round_end_lines(event.seen_by(None), self.names, self.style))
        self.shown = len(self.state.history)

    def board(self) -> Board | None:
        return self.turn.board() if self.turn is not None else None

    def refresh_screen(self) -> None:
        """Redraw the main panel, the rack and the messages from the view (or the draft)."""
        if self.setup is None:
            return
        panel = self.query_one(BoardPanel)
        width = max(30, panel.content_region.width or 60)
        style = Style(color=self.style.color, width=width)
        board = self.board()
        view = self.turn_view()
        bar = self.rack_bar
        if board is not None:
            panel.show(self.presenter.status_lines(view, self.labels, style), board, bar.target, style)
        else:
            panel.line_sets = []
            panel.update(ansi(self.presenter.screen(view, self.labels, style, self.order)))
        bar.display = board is not None
        bar.show(board, style)
        message = self.query_one("#message", Static)
        message.update(ansi(self.messages))

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
        state = self.state
        while state.outcome is None:
            if self.pending and not await self.show_scores(final=False):
                return
            if await self.claims():
                continue
            if self.turn is not None:
                return
            seat = seat_to_ask(state, self.bots)
            if seat is None:
                break
            bot = self.bots[seat]
            if bot is None:
                self.begin_turn(seat)
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            action = await asyncio.to_thread(bot.choose, state.view(seat), self.rngs[seat])
            if state is not self.state:
                return  # another game was started meanwhile
            self.apply_bot(action)
        self.game_over()
        if state.outcome is not None:
            await self.show_scores(final=True)

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

    async def claims(self) -> bool:
        """Offer claims out of turn (the driver's rule): True if one was made or a person is asked."""
        for seat in claims_open(self.state):
            bot = self.bots[seat]
            if bot is None:
                key = (seat, len(self.state.history))
                if key not in self.offered:
                    self.offered.add(key)
                    self.begin_turn(seat, claim=True)
                    return True
            elif isinstance(bot, Claimer):
                action = await asyncio.to_thread(bot.claim, self.state.view(seat), self.rngs[seat])
                if action is not None:
                    self.apply_bot(action)
                    return True
        return False

    def apply_bot(self, action: Action) -> None:
        self.state.apply(action)
        self.show_events()
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
        self.claim = claim
        self.round_no = self.state.round_no
        name = f"{self.names[seat]}: your" if self.hot_seat else "Your"
        what = f"{name} chance to act out of turn: type a command, or Enter on an empty line to let it pass." if claim else (
            f"{name} {self.turn.label}: type a command (F1 or `help` lists them)"
            + ("; Tab goes to your rack to pick pieces with the keys." if self.turn.board() is not None else ".")
        )
        self.messages = [what]
        self.refresh_screen()

    def end_turn(self) -> None:
        self.turn = None
        self.claim = False
        if self.hot_seat:
            self.show_seat(None)  # nobody's rack stays on the screen
        self.refresh_screen()
        self.advance()

    # -- the person's commands -------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_command(event.value)

    def run_command(self, line: str) -> None:
        """Run one line through the person's turn, apply the action it gives, and show the outcome."""
        if self.setup is None:
            return
        turn = self.turn
        if turn is None:
            if self.state.outcome is not None:
                self.messages = ["The game is over: F2 starts a new one, Ctrl+Q saves the record and quits."]
            else:
                self.messages = ["Not your turn yet: the bots are playing."]
            self.refresh_screen()
            return
        self.messages = []
        if self.claim and not line.strip():
            self.messages = ["You let the chance pass."]
            self.end_turn()
            return
        try:
            action = turn.command(line)
        except Quit:
            self.action_quit_game()
            return
        except RummykitError as exc:
            self.messages.append(message_of(exc))
            action = None
        finally:
            self.order = turn.order
            if self.seat is not None:
                self.orders[self.seat] = turn.order
        if action is not None:
            self.apply_person(turn, action)
        self.refresh_screen()

    def apply_person(self, turn: Turn, action: Action) -> None:
        seat = action.player
        try:
            self.state.apply(action)
        except RummykitError as exc:
            self.messages.append(message_of(exc))
            return
        self.messages.extend(turn.accepted())
        self.show_events()
        state = self.state
        if state.outcome is not None or state.to_act != {seat} or state.round_no != self.round_no:
            self.end_turn()
            return
        self.claim = False
        turn.update(state.view(seat))

    def game_over(self) -> None:
        outcome = self.state.outcome
        if outcome is not None:
            self.messages = [
                *self.presenter.outcome_lines(outcome.to_json(), self.names, self.style),
                "F2 starts a new game; Ctrl+Q saves the record and quits.",
            ]
        self.refresh_screen()

    # -- keys -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Help and the start screen are offered on the game screen only (the screens above have their keys)."""
        if action in ("help", "new_game"):
            return self.setup is not None and self.screen is self.screen_stack[0]
        return True

    def action_help(self) -> None:
        if self.setup is None:
            return
        lines = self.presenter.help_lines(self.turn_view(), Style(width=0))
        self.push_screen(HelpScreen([*lines, *KEYS_HELP]))

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
            self.saved = save_record(
                self.state,
                record_seats(self.bots, self.rngs),
                record=plan.save,
                record_path=plan.path,
                records_dir=plan.folder,
                resumed=self.setup.resumed,
            )
            self.saved_lines.extend(self.saved.lines)
            if self.saved.error is not None:
                self.save_errors.append(self.saved.error)
                self.status = 1
        return self.saved

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_screen()


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
    app = GameApp(setup, color=not (no_color or env.get("NO_COLOR", "")), args=args, environ=environ)
    status = app.run()
    app.save()
    for error in app.save_errors:
        err.write(error + "\n")
    for line in app.saved_lines:
        out.write(line + "\n")
    return status if isinstance(status, int) else app.status
