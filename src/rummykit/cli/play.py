"""Playing at the terminal: people (hot-seat) and bots, any game, through its presenter.

A :class:`Session` runs one game to its end. Who acts next is the step
driver's rule (:mod:`rummykit.engine.driver`): seats that may act out of turn
are offered a claim first, then the first seat in priority order among those
that must act. Bots get their seat's view and answer with an action; people
type commands into the game's :class:`~rummykit.presenters.base.Turn` (from
its presenter), which turns them into actions. The engine decides every
question of legality: an action goes through ``state.apply`` and a refusal is
printed as one line.

Input and output are injectable (:class:`Console`), so a whole game can be
driven by a script of lines.

The record a session saves says who sat in each seat and where each bot's
random generator stood after the last action applied, so ``rummykit play
--resume`` continues the game exactly as it would have gone on: a chance a bot
let pass since (an out-of-turn call it did not make, a decision cut short by
Ctrl-C) is put to it again from the same point of its generator.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, TextIO

from rummykit.bots.base import Bot
from rummykit.cli.lineedit import Completer, LineEditor
from rummykit.cli.saving import records_folder, save_new, save_text
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.driver import Claimer, claims_open, next_seat
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.presenters import Presenter, Quit, presenter_for
from rummykit.presenters.base import word_refusal
from rummykit.presenters.text import Style, plural
from rummykit.records import Seat, write_record
from rummykit.sim import bot_rng

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


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def one_line(exc: BaseException, names: Sequence[str] = (), viewer: int | None = None) -> str:
    """An error as one line for a person, worded by :func:`~rummykit.presenters.base.word_refusal`
    (draft bookkeeping rule ids left out)."""
    return "! " + word_refusal(exc, names, viewer, draft_rules=False)


# -- a whole game ------------------------------------------------------------------


@dataclass(frozen=True)
class Resumed:
    """The record a session continues: its file and its text as read."""

    path: Path
    text: str


class Session:
    """One game at the terminal: some seats people, the others bots; any game with a presenter.

    ``bots`` has one entry per seat: a :class:`Bot`, or ``None`` for a person.
    ``presenter`` is the game's (by default the one the catalogue names).
    ``rngs`` are the bots' generators (by default fresh ones from the game's
    seed, :func:`~rummykit.sim.bot_rng`). Call :meth:`run`; it returns the
    exit status and saves the record (unless ``record`` is False): to
    ``record_path``, or as ``rummykit-<game>-<seed>.txt`` in ``records_dir``
    (by default :func:`~rummykit.cli.saving.records_folder`), never over an
    existing file. A ``resumed`` game given neither brings its own record up
    to date instead, as long as that file is still as it was read.

    A person's stint at the keyboard lasts while that seat alone is to act
    (a whole conveyor turn from the draw to the discard, a free-table turn).
    When several seats must act at once (say, a claim window every other
    seat answers), the bots among them answer first and then each person in
    priority order, so nobody at the keyboard waits on a bot; such answers are
    sealed by the game, so their order changes nothing anyone can see.
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
        if len(bots) != len(state.players):
            raise ValueError(f"{len(state.players)} seats need {len(state.players)} entries in bots")
        if rngs is not None and len(rngs) != len(bots):
            raise ValueError(f"{len(bots)} seats need {len(bots)} generators in rngs")
        self.state = state
        self.bots = list(bots)
        self.console = console
        self.style = style
        self.record_path = record_path
        self.record = record
        self.records_dir = records_dir
        self.resumed = resumed
        self.presenter = presenter or presenter_for(state.info.id)
        self.names = list(state.players)
        self.narrator = self.presenter.narrator(self.names, style)
        self.people = [seat for seat, bot in enumerate(self.bots) if bot is None]
        if self.people and not self.presenter.playable:
            raise RuleError("CLI", f"{state.info.id} cannot be played by people here yet; seat only bots")
        self.rngs: list[Rng] = (
            list(rngs) if rngs is not None else [bot_rng(state.seed, seat) for seat in range(len(self.bots))]
        )
        self.orders: dict[int, str] = {}
        self.offered: set[tuple[int, int]] = set()
        """(seat, events so far) of every claim already offered to a person and let pass."""
        self.shown = len(state.history) if resumed is not None else 0
        self.saved: Path | None = None
        self.settled = settled_draws(self.rngs)
        """Where each bot's generator stood after the last action applied (what the record keeps)."""

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
            while self.state.outcome is None and self.step():
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
        """Let the next seat act, by the driver's rule (claims first); False once nobody must act."""
        if self.offer_claims():
            return True
        seat = self.next_seat()
        if seat is None:
            return False
        if self.bots[seat] is None:
            self.person_turn(seat)
        else:
            self.bot_turn(seat)
        return True

    def next_seat(self) -> int | None:
        """The seat to ask next: see :func:`seat_to_ask`."""
        return seat_to_ask(self.state, self.bots)

    def offer_claims(self) -> bool:
        """Offer each seat that may act out of turn a claim, in priority order; True if one was made."""
        for seat in claims_open(self.state):
            bot = self.bots[seat]
            if bot is None:
                key = (seat, len(self.state.history))
                if key not in self.offered:
                    self.offered.add(key)
                    if self.person_turn(seat, claim=True):
                        return True
            elif isinstance(bot, Claimer):
                action = bot.claim(self.state.view(seat), self.rngs[seat])
                if action is not None:
                    self.apply(action)
                    self._show_events(None)
                    return True
        return False

    # -- turns -----------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        """Let the bot in ``seat`` act on its view; print what everyone may see."""
        bot = self.bots[seat]
        assert bot is not None
        action = bot.choose(self.state.view(seat), self.rngs[seat])
        self.apply(action)
        self._show_events(None)

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
                self.apply(action)
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
            if view["round"] != round_no:
                break
            self.console.say(*turn.update(view))
        if hot_seat and self.state.outcome is None:
            self.console.ask(f"End of your turn: press Enter to hide your {self.presenter.words.rack}. ")
            self.console.clear()
        return acted

    def apply(self, action: Action) -> None:
        """Apply an action (the engine may refuse it); once applied, note where every generator stands."""
        self.state.apply(action)
        self.settled = settled_draws(self.rngs)

    def _show_events(self, seat: int | None) -> None:
        events: list[Event] = self.state.history[self.shown :]
        self.shown = len(self.state.history)
        for event in events:
            self.console.say(*self.narrator.describe(event.seen_by(seat)))

    # -- the record ------------------------------------------------------------

    def seats(self) -> list[Seat]:
        """Who plays each seat, with each bot's level and where its generator stood after the last action.

        Draws a bot made since (letting an out-of-turn chance pass, or a choice
        cut short) are left out: resuming puts the same question to it again
        from the same point, so it answers as it did.
        """
        return record_seats(self.bots, self.rngs, self.settled)

    def record_text(self) -> str:
        """The game's record so far, with the seats."""
        return write_record(self.state, self.seats())

    def save(self) -> bool:
        """Write the record, never over another file; say where and how to go on. False if it failed."""
        saved = save_record(
            self.state,
            self.seats(),
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


# -- seats and records, shared with the terminal app -------------------------------------


def seat_to_ask(state: GameState, bots: Sequence[Any | None]) -> int | None:
    """:func:`~rummykit.engine.driver.next_seat`, except that bots waited for at once go before people.

    ``bots[seat]`` is None for a person. When several seats must act at once
    (their answers sealed by the game), the bots answer first, so nobody at
    the keyboard waits on a bot.
    """
    seat = next_seat(state)
    if seat is None or bots[seat] is not None:
        return seat
    return next((s for s in state.act_order(state.must_act) if bots[s] is not None), seat)


def settled_draws(rngs: Sequence[Rng]) -> list[int]:
    """Where each bot's generator stands: taken just after an action is applied, it is what a record
    keeps (see :func:`record_seats`), so that draws made since (an out-of-turn chance let pass, a
    choice cut short by quitting) are made again, the same way, when the game resumes."""
    return [rng.draws for rng in rngs]


def record_seats(bots: Sequence[Bot | None], rngs: Sequence[Rng], draws: Sequence[int] | None = None) -> list[Seat]:
    """Who plays each seat, with each bot's level and where its generator stands (for the record).

    ``draws`` gives each generator's position to record (default: where it
    stands now), e.g. as it was after the last action applied.
    """
    used = [rng.draws for rng in rngs] if draws is None else draws
    return [
        Seat() if bot is None else Seat(bot.level, rng.seed, n)
        for bot, rng, n in zip(bots, rngs, used, strict=True)
    ]


@dataclass(frozen=True)
class Saved:
    """What :func:`save_record` did: the file written (None: none), lines for the person, or an error line."""

    path: Path | None
    lines: list[str]
    error: str | None = None


def default_record_path(state: GameState, records_dir: Path | None) -> Path:
    """``rummykit-<game>-<seed>.txt`` in the records folder (saving picks ``-2``, ``-3``... if taken)."""
    folder = records_dir if records_dir is not None else records_folder()
    return folder / f"rummykit-{state.info.id}-{state.seed}.txt"


def save_record(
    state: GameState,
    seats: Sequence[Seat],
    *,
    record: bool = True,
    record_path: Path | None = None,
    records_dir: Path | None = None,
    resumed: Resumed | None = None,
    command: str = "play",
) -> Saved:
    """Write a game's record, never over another file; what to tell the person (see :class:`Session`).

    A ``resumed`` game saved to neither ``record_path`` nor ``records_dir``
    brings its own record up to date, as long as that file is as it was read.
    An unfinished game is offered to be continued with ``rummykit COMMAND
    --resume FILE``: the command it was played with (``play`` or ``tui``).
    """
    if not record:
        return Saved(None, ["The game was not saved (--no-record)."])
    text = write_record(state, list(seats))
    update = record_path is None and records_dir is None and resumed is not None
    wanted = record_path or (resumed.path if resumed is not None else default_record_path(state, records_dir))
    try:
        if update and resumed is not None and _unchanged(wanted, resumed):
            path = wanted
            save_text(path, text)  # the same game, further on: bring its record up to date
        else:
            wanted.parent.mkdir(parents=True, exist_ok=True)
            path = save_new(wanted, text)
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) else wanted
        return Saved(None, [], f"rummykit: could not save the record to {where}: {exc.strerror or exc}")
    lines = []
    if path != wanted:
        why = "changed since the game was resumed from it" if update else "already exists"
        lines.append(f"{wanted} {why}: rummykit never overwrites a record.")
    quoted = shlex.quote(str(path))
    if state.outcome is None:
        lines.append(f"Record saved to {path}; continue with: rummykit {command} --resume {quoted}")
    else:
        lines.append(f"Record saved to {path} (replay it with: rummykit replay {quoted})")
    # whole, even when wider than the screen: the command is for copying
    return Saved(path, lines)


def _unchanged(path: Path, resumed: Resumed) -> bool:
    """True when the resumed record's file still holds what was read from it."""
    try:
        return path.read_text(encoding="utf-8") == resumed.text
    except (OSError, UnicodeDecodeError):
        return False
