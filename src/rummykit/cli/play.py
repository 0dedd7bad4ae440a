"""Playing at the terminal: people (hot-seat) and bots, any game, through its presenter.

A :class:`Session` runs one game to its end through a
:class:`~rummykit.session.GameSession`, which says who acts next (claims out
of turn first, each seat asked once per position; then the seat the game
waits for, bots first when several must act). Bots answer from their seat's
view; people type commands into the game's
:class:`~rummykit.presenters.base.Turn` (from its presenter), which turns
them into actions. The engine decides every question of legality: an action
goes through the session's ``apply`` and a refusal is printed as one line.

Input and output are injectable (:class:`Console`), so a whole game can be
driven by a script of lines.

The record a session saves says who sat in each seat and where each bot's
random generator stood after the last action applied, so ``rummykit play
--resume`` continues the game exactly as it would have gone on: a chance a bot
let pass since (an out-of-turn call it did not make, a decision cut short by
Ctrl-C) is put to it again from the same point of its generator.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TextIO

from rummykit.bots.base import Bot
from rummykit.cli.lineedit import Completer, LineEditor
from rummykit.engine.core import Action, GameState
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.presenters import Presenter, Quit, presenter_for
from rummykit.presenters.base import word_refusal
from rummykit.presenters.text import Style, plural
from rummykit.records import Seat
from rummykit.session import (
    Ask,
    GameSession,
    Resumed,
    Saved,
    default_record_path,
    record_seats,
    save_record,
    seat_to_ask,
    settled_draws,
)
from rummykit.session.files import save_text

__all__ = [
    "Console",
    "Quit",
    "Resumed",
    "Saved",
    "Session",
    "default_record_path",
    "one_line",
    "record_seats",
    "save_record",
    "save_text",
    "seat_to_ask",
    "settled_draws",
]

CLEAR_SCREEN = "\x1b[2J\x1b[H"


# -- input and output ------------------------------------------------------------


class Console:
    """Where a session reads lines and writes text.

    With a real terminal on both ends, lines are read with editing, a
    history per seat and tab completion (:mod:`rummykit.cli.lineedit`);
    otherwise the prompt is written to ``stdout`` and a line read from
    ``stdin``, and the line is echoed so a transcript reads naturally.
    ``ask`` raises :class:`EOFError` when input ends.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.terminal = _isatty(stdin) and _isatty(stdout)
        self.builtin_input = self.terminal and stdin is sys.stdin and stdout is sys.stdout
        self.editor: LineEditor | None = None
        self._editor_loaded = False

    def say(self, *lines: str) -> None:
        """Write lines to the output."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def error(self, message: str) -> None:
        """Write one line to the error stream."""
        self.stderr.write(message + "\n")
        self.stderr.flush()

    def ask(self, prompt: str, *, complete: Completer | None = None, history: Hashable = None) -> str:
        """Show ``prompt`` and read one line (without its newline).

        At a terminal, ``complete`` offers words for Tab and ``history`` names
        the history the line joins (None: the line is not kept).
        """
        if self.builtin_input:
            if not self._editor_loaded:
                self.editor = LineEditor.load()
                self._editor_loaded = True
            if self.editor is not None:
                return self.editor.read(prompt, complete=complete, history=history)
            return input(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        if not _isatty(self.stdin):
            self.stdout.write(line + "\n")
        return line

    def clear(self) -> None:
        """Clear a real terminal (so the next person cannot read the last rack)."""
        if _isatty(self.stdout):
            self.stdout.write(CLEAR_SCREEN)
            self.stdout.flush()


def _isatty(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal (a stream that cannot say, or is closed, is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def one_line(exc: BaseException, names: Sequence[str] = (), viewer: int | None = None) -> str:
    """An error as one line for a person, worded by :func:`~rummykit.presenters.base.word_refusal`
    (draft bookkeeping rule ids left out)."""
    return "! " + word_refusal(exc, names, viewer, draft_rules=False)


# -- a whole game ------------------------------------------------------------------


class Session:
    """One game at the terminal: some seats people, the others bots; any game with a presenter.

    ``bots`` has one entry per seat: a :class:`Bot`, or ``None`` for a person.
    ``presenter`` is the game's (by default the one the catalogue names).
    ``rngs`` are the bots' generators (by default fresh ones from the game's
    seed, :func:`~rummykit.sim.bot_rng`). Call :meth:`run`; it returns the
    exit status and saves the record (unless ``record`` is False): to
    ``record_path``, or as ``rummykit-<game>-<seed>.txt`` in ``records_dir``
    (by default :func:`~rummykit.session.files.records_folder`), never over an
    existing file. A ``resumed`` game given neither brings its own record up
    to date instead, as long as that file is still as it was read.

    Who acts next is the game session's question (:attr:`game`,
    :meth:`~rummykit.session.GameSession.ask`); this class only shows the
    game and reads people's commands. A person's stint at the keyboard lasts
    while that seat alone is to act (a whole turn from the draw to the
    discard, a free-table turn).
    """

    def __init__(
        self,
        state: GameState,
        bots: Sequence[Bot | None],
        console: Console,
        style: Style,
        *,
        record_path: Path | None = None,
        presenter: Presenter | None = None,
        rngs: Sequence[Rng] | None = None,
        record: bool = True,
        records_dir: Path | None = None,
        resumed: Resumed | None = None,
    ) -> None:
        self.game = GameSession(state, bots, rngs)
        """Who acts, the bots' choices, applying actions and the record's seats."""
        self.state = state
        self.bots: list[Bot | None] = list(bots)
        self.rngs = self.game.rngs
        self.console = console
        self.style = style
        self.record_path = record_path
        self.record = record
        self.records_dir = records_dir
        self.resumed = resumed
        self.presenter = presenter or presenter_for(state.info.id)
        self.names = list(state.players)
        self.narrator = self.presenter.narrator(self.names, style)
        self.people = self.game.people
        if self.people and not self.presenter.playable:
            raise RuleError("CLI", f"{state.info.id} cannot be played by people here yet; seat only bots")
        self.orders: dict[int, str] = {}
        self.shown = len(state.history) if resumed is not None else 0
        self.saved: Path | None = None

    @property
    def settled(self) -> list[int]:
        """Where each bot's generator stood after the last action applied (what the record keeps)."""
        return self.game.settled

    @property
    def labels(self) -> list[str]:
        """A note per seat: ``you`` (one person), ``bot LEVEL``, or nothing."""
        out = []
        for bot in self.bots:
            if bot is not None:
                out.append(f"bot {bot.level}")
            else:
                out.append("you" if len(self.people) == 1 else "")
        return out

    def welcome(self) -> list[str]:
        """The opening lines: who plays, the seed, how to get help."""
        info = self.state.info
        seed = self.state.seed
        lines = []  # a resumed game is announced by its set-up (cli.start.resume_setup), in the app too
        if not self.people:
            seats = ", ".join(f"{n} ({lbl})" for n, lbl in zip(self.names, self.labels, strict=True))
            lines.append(f"{info.name}: {seats}. The bots play to the end.")
        else:
            bots = [f"{self.names[s]} ({b.level})" for s, b in enumerate(self.bots) if b is not None]
            against = f" against {plural(len(bots), 'bot')}: {', '.join(bots)}" if bots else ""
            if len(self.people) == 1:
                who = f"You are {self.names[self.people[0]]}{against}."
            else:
                who = f"Hot-seat for {', '.join(self.names[s] for s in self.people)}{against}."
            lines.append(f"Welcome to rummykit: {info.name}. {who}")
            tab = " (Tab completes them)" if self.console.builtin_input and find_spec("readline") else ""
            lines.append(f"Type `help` at the prompt for the commands{tab}; `quit` saves the game and stops.")
        lines.append(f"Seed {seed} (play this deal again with --seed {seed}).")
        return lines

    def run(self) -> int:
        """Play to the end (or until the person quits); save the record; the exit status."""
        status = 0
        try:
            self.console.say(*self.style.fit(self.welcome()))
            self._show_events(None)
            while self.step():
                pass
        except Quit:
            self.console.say("Stopped at your request.")
        except EOFError:
            self.console.say("Input ended; stopping.")
        except KeyboardInterrupt:
            self.console.say("", "Interrupted; stopping.")
            status = 130
        except RummykitError as exc:
            self.console.error(f"rummykit: {' '.join(str(exc).split())}")
            status = 1
        if not self.save():
            status = status or 1
        return status

    # -- who acts ----------------------------------------------------------------

    def step(self) -> bool:
        """Let the seat the game session asks act (or let its chance pass); False once nobody must act."""
        ask = self.game.ask()
        if ask is None:
            return False
        self.take(ask)
        return True

    def take(self, ask: Ask) -> bool:
        """Put ``ask`` to its bot or person; True if an action was applied (False: a claim let pass)."""
        if ask.bot is not None:
            return self.bot_turn(ask)
        acted = self.person_turn(ask.seat, claim=ask.claim)
        if not acted and ask.claim:
            self.game.let_pass(ask.seat)
        return acted

    def next_seat(self) -> int | None:
        """The seat the game waits for, bots first: see :func:`~rummykit.session.seat_to_ask`."""
        return seat_to_ask(self.state, self.bots)

    def offer_claims(self) -> bool:
        """Put the open out-of-turn chances to their seats, as the session asks; True once one is taken."""
        ask = self.game.ask()
        while ask is not None and ask.claim:
            if self.take(ask):
                return True
            ask = self.game.ask()
        return False

    # -- turns -----------------------------------------------------------------

    def bot_turn(self, ask: Ask) -> bool:
        """Let the bot of ``ask`` act on its view; print what everyone may see. False if it let a claim pass."""
        seq = self.game.seq
        action = self.game.choose(ask)
        if action is None:
            return False
        self.apply(action, seq=seq)
        self._show_events(None)
        return True

    def person_turn(self, seat: int, *, claim: bool = False) -> bool:
        """Let the person in ``seat`` act until another seat is to act; True if they acted.

        With ``claim`` the seat may act out of turn: an empty line lets the
        chance pass (and returns False).
        """
        hot_seat = len(self.people) > 1
        name = self.names[seat]
        if hot_seat:
            self.console.clear()
            answer = self.console.ask(f"Pass the screen to {name}; {name}, press Enter when ready. ")
            if answer.strip().lower() in ("quit", "exit"):
                raise Quit
        view = self.state.view(seat)
        seq = self.game.seq
        turn = self.presenter.turn(
            view,
            say=self.console.say,
            style=self.style,
            labels=self.labels,
            order=self.orders.get(seat),
            parse_action=self.state.parse_action,
        )
        label = "claim" if claim else turn.label
        self.console.say("", self.style.bold(f"--- {name}'s {label} ---"), *turn.screen())
        if claim:
            self.console.say("You may act now, out of turn; an empty line lets the chance pass.")
        round_no = view["round"]
        acted = False
        while True:
            prompt = f"{name}'s {'claim' if claim and not acted else turn.label}> "
            try:
                line = self.console.ask(prompt, complete=turn.completions, history=seat)
                if claim and not acted and not line.strip():
                    break
                action = turn.command(line)
                if action is None:
                    continue
                self.apply(action, seq=seq)
            except RummykitError as exc:
                self.console.say(one_line(exc, self.names, seat))
                continue
            finally:
                self.orders[seat] = turn.order
            acted = True
            self.console.say(*turn.accepted())
            self._show_events(seat)
            if self.state.outcome is not None or self.state.to_act != {seat}:
                break
            view = self.state.view(seat)
            seq = self.game.seq
            if view["round"] != round_no:
                break
            self.console.say(*turn.update(view))
        if hot_seat and self.state.outcome is None:
            self.console.ask(f"End of your turn: press Enter to hide your {self.presenter.words.rack}. ")
            self.console.clear()
        return acted

    def apply(self, action: Action, *, seq: int | None = None) -> None:
        """Apply an action through the game session (the engine may refuse it; so is one made at an old ``seq``)."""
        self.game.apply(action, seq=seq)

    def _show_events(self, seat: int | None) -> None:
        events = self.game.events(self.shown, seat)
        self.shown = len(self.state.history)
        for event in events:
            self.console.say(*self.narrator.describe(event))

    # -- the record ------------------------------------------------------------

    def seats(self) -> list[Seat]:
        """Who plays each seat, with each bot's level and where its generator stood after the last action.

        Draws a bot made since (letting an out-of-turn chance pass, or a choice
        cut short) are left out: resuming puts the same question to it again
        from the same point, so it answers as it did.
        """
        return self.game.seats()

    def record_text(self) -> str:
        """The game's record so far, with the seats."""
        return self.game.record_text()

    def save(self) -> bool:
        """Write the record, never over another file; say where and how to go on. False if it failed."""
        saved = self.game.save(
            record=self.record,
            record_path=self.record_path,
            records_dir=self.records_dir,
            resumed=self.resumed,
        )
        self.saved = saved.path
        if saved.error is not None:
            self.console.error(saved.error)
            return False
        self.console.say(*saved.lines)
        return True
