"""What the game screen shows: the table, the rack or the moves, the status, the log and the messages.

:class:`GameView` is the drawing half of :class:`~rummykit.tui.game.GameApp`:
the game loaded (its :class:`~rummykit.session.GameSession`), the widgets
composed, and every redraw from the seat's view or the person's draft, with
the hint. Who acts and what the person types are the app's
(:mod:`rummykit.tui.game`).
"""

from __future__ import annotations

import argparse
import asyncio
import io
from collections.abc import Callable, Mapping
from typing import TypeVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Input, RichLog, Static

from rummykit.cli.start import GameSetup
from rummykit.errors import RummykitError
from rummykit.presenters.base import TEXT_TABLE, Board, Style, Turn, table_kind
from rummykit.session import GameSession, Saved
from rummykit.tui.draft import BoardPanel, RackBar
from rummykit.tui.moves import ListedMove, MovesList
from rummykit.tui.tables import HandBar, TableWidget, widget_classes
from rummykit.tui.widgets import GameLog, KeysBar, LinesPanel, ansi

W = TypeVar("W", bound=Widget)

__all__ = ["BOT_DELAY", "SPEEDS", "GameView", "Notices"]

SPEEDS: dict[str, float | None] = {"fast": 0.0, "normal": 0.6, "slow": 1.5, "step": None}
"""The bot speeds: seconds between two bot steps, so a person can follow them (``step``: one step per F5)."""

BOT_DELAY = 0.6
"""Seconds between two bot steps at the ``normal`` speed."""


class GameView(App[int]):
    """The game screen's drawing: the game loaded, its widgets, and what they show (see the module)."""

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
        self.hint_marks: frozenset[str] = frozenset()
        """The pieces the hint plays (a table widget marks them while it is shown)."""
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

    def view(self) -> Mapping[str, object]:
        view: Mapping[str, object] = self.state.view(self.seat)
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
            table.hinted = self.hint_marks if self.hint is not None else frozenset()
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
            narrowed = [move for move in moves if move.label.lower().startswith(typed)]
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

    def moves(self) -> list[ListedMove]:
        """The moves the engine lists for the person now, each labelled with the command a person types
        for it (nothing outside their turn)."""
        if self.turn is None or self.seat is None or self.seat not in self.state.to_act:
            return []
        return [ListedMove(self.presenter.command_text(a), a) for a in self.state.indexed_actions(self.seat)]

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
        if getattr(self.presenter, "advised", False):
            self.note("Thinking of a hint... (the strong bot's choice for you: a second at most)")
        else:
            self.note("Thinking of a hint... (the solver's first search compiles it: this can take a minute)")
        self.run_worker(self.find_hint(turn), exclusive=True, group="hint")
        return True

    async def find_hint(self, turn: Turn) -> None:
        """Ask the presenter for the hint in a thread; a loading indicator covers the table if it takes
        long (the solver's first search compiles it), and the solver's notice shows as a toast."""
        from rummykit.presenters.advice import advice, advice_said, pieces_of
        from rummykit.presenters.solving import notices_to

        view = self.turn_view()
        table = self.table_widget()
        panel: Widget = table if table is not None else self.part(BoardPanel)
        timer = self.set_timer(0.3, lambda: setattr(panel, "loading", True))
        marks: frozenset[str] = frozenset()
        try:
            with notices_to(Notices(self)):
                if getattr(self.presenter, "advised", False):
                    # the strong bot's advice: its words, and the pieces and cells it plays marked on the table
                    game = self.state.info.id
                    found = await asyncio.to_thread(advice, game, view)
                    lines, sets = advice_said(game, found), None
                    marks = pieces_of(found.action)
                    shown: object = getattr(turn, "show_advice", None)
                    if callable(shown):  # a grid keeps the cells the play changes, to draw them
                        shown(found)
                else:
                    lines = await asyncio.to_thread(self.presenter.hint_lines, view)
                    hint_sets: object = getattr(turn, "hint_sets", None)
                    sets = await asyncio.to_thread(hint_sets) if callable(hint_sets) else None
        except RummykitError as exc:
            lines, sets = [f"No hint now: {exc}"], None
        finally:
            timer.stop()
            panel.loading = False
        if turn is not self.turn:
            return
        self.hint = sets if isinstance(sets, list) else []
        self.hint_marks = marks
        self.note(*lines)

    def turn_view(self) -> Mapping[str, object]:
        turn_view: object = getattr(self.turn, "view", None)
        if isinstance(turn_view, Mapping):
            return turn_view
        return self.view()

    def say(self, *lines: str) -> None:
        """What a turn shows on request (help, check, hint...): under the panel."""
        self.messages.extend(lines)

    def keep_focus(self) -> None:
        """Give the command line the focus when the part that had it is gone (the rack and the draft
        when a turn ends, the moves list when it empties), so typing is never lost."""
        command = self.part("#command", Input)
        focused = self.screen_stack[0].focused
        if focused is not command and (focused is None or not (focused.display and focused.focusable)):
            command.focus()


class Notices(io.StringIO):
    """A stream for the solver's notices (written from its thread): each line shows as a toast."""

    def __init__(self, app: GameView) -> None:
        super().__init__()
        self.app = app

    def write(self, text: str) -> int:
        if text.strip():
            self.app.call_from_thread(self.app.notify, " ".join(text.split()), timeout=30)
        return len(text)
