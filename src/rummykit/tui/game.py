"""The game screen of ``rummykit tui``: who acts, the person's commands and keys (see :mod:`rummykit.tui.app`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Input, RichLog

from rummykit.cli.start import GameSetup
from rummykit.engine.core import Action
from rummykit.errors import ParseError, RummykitError
from rummykit.presenters.base import TEXT_TABLE, Quit, Style, Turn, table_kind, word_refusal
from rummykit.presenters.guide import guide_for, guide_lines
from rummykit.session import Saved
from rummykit.tui.screens import (
    MOVES_KEYS_HELP,
    NEW,
    QUIT,
    CoverScreen,
    HelpScreen,
    ScoreScreen,
    app_keys_help,
    free_table_keys_help,
)
from rummykit.tui.view import SPEEDS, GameView
from rummykit.tui.widgets import fit_key_rows

__all__ = ["THEMES", "GameApp", "message_of"]

THEMES = ("textual-dark", "textual-light")
"""The themes F4 goes between."""


def message_of(exc: BaseException) -> str:
    """A refusal as one line: the engine's reason with its rule id, or the presenter's parse error."""
    return "! " + word_refusal(exc)


class GameApp(GameView):
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
        turn = self.person_turn()
        if turn is None:
            return False
        if self.claim and not line.strip():
            assert self.seat is not None
            self.messages = []
            self.session.let_pass(self.seat)
            self.messages = ["You let the chance pass."]
            self.end_turn()
            return True
        return self.take(turn, lambda t: t.command(line), line)

    def run_step(self, step: Callable[[Turn], Action | None]) -> bool:
        """Take one step built from typed values through the person's turn (``step`` calls the turn's
        :meth:`~rummykit.presenters.base.Turn.step`, ``act``, ``undo`` or ``reset``: nothing is read
        as text), apply the action it gives, and show the outcome, as :meth:`run_command` does.

        False when the step was refused (the reason is shown) or it is not the person's turn.
        """
        turn = self.person_turn() if self.setup is not None else None
        return False if turn is None else self.take(turn, step)

    def person_turn(self) -> Turn | None:
        """The person's turn (None: the game is over or the bots are playing, which is shown)."""
        turn = self.turn
        if turn is None:
            if self.state.outcome is not None:
                self.messages = ["The game is over: F2 starts a new one, Ctrl+Q saves the record and quits."]
            else:
                self.messages = ["Not your turn yet: the bots are playing."]
            self.refresh_screen()
        return turn

    def take(self, turn: Turn, step: Callable[[Turn], Action | None], line: str = "") -> bool:
        """Run ``step`` on the person's turn (``line``: the line it reads, for a refusal's suggestions)."""
        self.messages = []
        taken = True
        try:
            action = step(turn)
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
            self.push_screen(HelpScreen(self.help_lines, f"{self.state.info.name}: commands, keys and rules", self.rules_lines))

    def rules_lines(self, width: int) -> list[str]:
        """The help screen's Rules tab laid out to ``width``: the game's guide, its melds drawn as the table draws pieces."""
        return guide_lines(guide_for(self.state.info.id), Style(color=self.style.color, width=width))

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
