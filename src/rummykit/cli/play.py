"""Playing at the terminal: people (hot-seat) and bots, turn drafts for free-table games.

A :class:`Session` runs one game to its end. Bots get their seat's view and
answer with an action; people build their turn in a :class:`DraftTurn` (a
:class:`~rummykit.blocks.table.TableDraft` driven by typed commands) and
commit it. The engine decides every question of legality: a committed turn
goes through ``state.apply`` and a refusal is printed as one line.

Everything a game-specific part of the drafting UI needs is in a
:class:`TableKit` (how pieces are parsed and sorted, how a draft is made from
a view and committed), so another free-table game can reuse the commands by
registering its own kit in :data:`TABLE_KITS`.

Input and output are injectable (:class:`Console`), so a whole game can be
driven by a script of lines.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TextIO, TypeVar

from rummykit.blocks.table import TableDraft
from rummykit.bots.base import Bot
from rummykit.cli.render import (
    Style,
    describe_event,
    plural,
    rack_line,
    status_lines,
    table_lines,
    words_for,
)
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.rng import Rng
from rummykit.errors import ParseError, RuleError, RummykitError
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.pieces.tiles import Tile, number_order, parse_tiles
from rummykit.records import write_record
from rummykit.rulesets import domino_rummikub, freetable, rummikub
from rummykit.sim import bot_rng
from rummykit.solve.command import hint_lines

P = TypeVar("P")

CLEAR_SCREEN = "\x1b[2J\x1b[H"


class Quit(Exception):
    """The person asked to stop the game (``quit``)."""


# -- input and output ------------------------------------------------------------


class Console:
    """Where a session reads lines and writes text.

    With a real terminal on both ends, ``input()`` is used (line editing);
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

    def say(self, *lines: str) -> None:
        """Write lines to the output."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def error(self, message: str) -> None:
        """Write one line to the error stream."""
        self.stderr.write(message + "\n")
        self.stderr.flush()

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line (without its newline)."""
        if self.builtin_input:
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


# -- what the drafting UI needs from a game --------------------------------------


@dataclass(frozen=True)
class TableKit(Generic[P]):
    """The game-specific parts of the drafting UI for a free-table game.

    ``orders`` maps a sort name to a function that groups a rack's pieces for
    display (each group sorted); ``aliases`` maps other spellings to those
    names. ``penalty`` is the number of pieces drawn for committing an invalid
    table on purpose (``None``: such a commit is simply refused, no penalty
    command). ``hint`` gives a reminder line from the seat's view (or None).
    """

    piece: str
    parse_pieces: Callable[[str], list[P]]
    draft_from_view: Callable[[Mapping[str, Any]], TableDraft[P]]
    draft_action: Callable[..., Action]
    orders: Mapping[str, Callable[[Sequence[P]], list[list[P]]]]
    default_order: str
    aliases: Mapping[str, str] = field(default_factory=dict)
    penalty: int | None = None
    hint: Callable[[Mapping[str, Any]], str | None] = lambda view: None
    example: str = ""
    best_play: Callable[[Mapping[str, Any]], list[str]] | None = None
    """The solver's best play as steps for a person (the `hint` command), where the game has one."""

    def order_name(self, text: str) -> str:
        """The sort order a person named (``ParseError`` if unknown)."""
        key = text.strip().lower()
        key = self.aliases.get(key, key)
        if key not in self.orders:
            raise ParseError(f"sort by {' or '.join(self.orders)}, not {text.strip()!r}")
        return key


def _tiles_by_colour(tiles: Sequence[Tile]) -> list[list[Tile]]:
    groups: dict[Any, list[Tile]] = {}
    for t in sorted(tiles):
        groups.setdefault(t.colour, []).append(t)
    return list(groups.values())


def _tiles_by_number(tiles: Sequence[Tile]) -> list[list[Tile]]:
    groups: dict[int, list[Tile]] = {}
    for t in sorted(tiles, key=number_order):
        groups.setdefault(number_order(t)[0], []).append(t)
    return list(groups.values())


def _rummikub_hint(view: Mapping[str, Any]) -> str | None:
    seat = view.get("seat")
    points = int(view.get("options", {}).get("initial_meld_points", 0))
    if seat is None or view["down"][seat] or not points:
        return None
    return (
        f"You are not down yet: your initial meld is one or more new sets from your rack"
        f" worth at least {points} points, without touching the table."
    )


RUMMIKUB_KIT: TableKit[Tile] = TableKit(
    piece="tile",
    parse_pieces=parse_tiles,
    draft_from_view=rummikub.draft_from_view,
    draft_action=rummikub.draft_action,
    orders={"colour": _tiles_by_colour, "number": _tiles_by_number},
    default_order="colour",
    aliases={"color": "colour", "colours": "colour", "colors": "colour", "numbers": "number", "num": "number"},
    penalty=rummikub.PENALTY_TILES,
    hint=_rummikub_hint,
    best_play=hint_lines,
    example="R1 R2 R3",
)

def _dominoes_by_low(dominoes: Sequence[Domino]) -> list[list[Domino]]:
    groups: dict[int, list[Domino]] = {}
    for d in sorted(dominoes):
        groups.setdefault(d.low, []).append(d)
    return list(groups.values())


def _dominoes_by_pips(dominoes: Sequence[Domino]) -> list[list[Domino]]:
    groups: dict[int, list[Domino]] = {}
    for d in sorted(dominoes, key=lambda d: (d.pips, d)):
        groups.setdefault(d.pips, []).append(d)
    return list(groups.values())


def _domino_hint(view: Mapping[str, Any]) -> str | None:
    seat = view.get("seat")
    if seat is None or view["down"][seat]:
        return None
    size = view.get("options", {}).get("starting_group_size")
    count = "exactly 3" if size == domino_rummikub.EXACTLY_3 else "3 or more"
    return (
        f"You are not down yet: your first play is a starting group, one new set of {count}"
        " dominoes from your rack, without touching the table."
    )


DOMINO_KIT: TableKit[Domino] = TableKit(
    piece="domino",
    parse_pieces=parse_dominoes,
    draft_from_view=domino_rummikub.draft_from_view,
    draft_action=freetable.draft_action,
    orders={"low": _dominoes_by_low, "pips": _dominoes_by_pips},
    default_order="low",
    aliases={"half": "low", "number": "low", "sum": "pips", "spots": "pips"},
    penalty=None,
    hint=_domino_hint,
    example="5-3 5-4 5-5",
)

TABLE_KITS: dict[str, TableKit[Any]] = {"rummikub": RUMMIKUB_KIT, "domino-rummikub": DOMINO_KIT}
"""Games people can play interactively, by game id, with their drafting kit."""


# -- one person's turn -------------------------------------------------------------

def help_lines(kit: TableKit[Any]) -> list[str]:
    """The command list, worded for the kit's pieces."""
    piece, example = kit.piece, kit.example
    first = example.split()[0]
    rows = [
        (f"new {example}", f"make a new set from {piece}s in your rack"),
        (f"add 2 {first}", f"add {piece}s from your rack to set 2"),
        (f"move {first} 2 3", f"move {first} from set 2 to set 3 (`move {first} 2 new`: a new set)"),
        (f"back {first}", f"take a {piece} you placed this turn back to your rack"),
        ("split 2 3", f"split set 2 before its 3rd {piece}"),
        ("merge 2 3", "put set 3 on the end of set 2"),
        ("undo | reset", "undo the last step | start the turn again"),
        ("check", "list what is wrong with the table now"),
        ("commit (or done)", "end your turn with the table as it is"),
    ]
    if kit.penalty is not None:
        rows.append(("penalty", f"commit an invalid table anyway: it is restored, you draw {kit.penalty}"))
    if kit.best_play is not None:
        rows.append(("hint", "show the best play as steps (it plays nothing for you)"))
    rows += [
        ("draw | pass", f"draw a {piece} (ends the turn) | pass when none are left"),
        (f"sort {'|'.join(kit.orders)}", "order your rack"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]
    width = max(len(left) for left, _ in rows)
    head = f"Commands (set numbers start at 1; {piece}s are written like {example}):"
    return [head, *(f"  {left:<{width}}  {right}" for left, right in rows)]


class DraftTurn(Generic[P]):
    """One person's turn: a draft of the table driven by typed commands.

    :meth:`command` runs one line. It returns the :class:`Action` to commit
    (or ``None`` to keep drafting), raises :class:`~rummykit.errors.RummykitError`
    for bad input (the draft is unchanged), or :class:`Quit`.
    """

    def __init__(
        self,
        kit: TableKit[P],
        view: Mapping[str, Any],
        *,
        parse_action: Callable[[str], Action],
        say: Callable[..., None],
        style: Style,
        labels: Sequence[str],
        order: str | None = None,
    ) -> None:
        self.kit = kit
        self.view = view
        self.seat = int(view["seat"])
        self.parse_action = parse_action
        self.say = say
        self.style = style
        self.labels = labels
        self.order = order or kit.default_order
        self.draft: TableDraft[P] = kit.draft_from_view(view)
        self.ended_by: str | None = None
        """The command that produced the last action returned (``commit``, ``draw``...)."""

    # -- screens ----------------------------------------------------------------

    def rack_text(self) -> str:
        """The draft's rack, in the chosen order."""
        groups = self.kit.orders[self.order](self.draft.rack)
        text = rack_line([[str(p) for p in g] for g in groups], self.style)
        return f"Your rack (by {self.order}): {text or '(empty)'}  [{plural(len(self.draft.rack), self.kit.piece)}]"

    def table_lines(self) -> list[str]:
        """The draft table with invalid sets marked, the placed pieces and the rack."""
        problems = self.draft.problems()
        marks = {p.index: p.reason for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        lines = ["Table:", *table_lines(sets, self.style, problems=marks)]
        placed = self.draft.placed()
        if placed:
            lines.append(f"Placed this turn: {self.style.pieces(str(p) for p in placed)}")
        if self.draft.changed or placed:
            if not problems:
                lines.append("Ready: `commit` ends your turn with this table.")
            else:
                for p in problems:
                    if p.index is None:
                        lines.append(self.style.warn(f"Not yet: {p.reason}"))
        lines.append(self.rack_text())
        return lines

    def screen(self) -> list[str]:
        """Everything: status of every seat, the table, the rack and a reminder."""
        lines = status_lines(self.view, self.labels, self.style)
        lines += self.table_lines()
        hint = self.kit.hint(self.view)
        if hint and not self.draft.placed():
            lines.append(hint)
        return lines

    # -- commands ---------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command (see :data:`HELP`)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise ParseError(f"unknown command {words[0]!r}; type `help` for the commands")
        action = handler(args)
        if action is not None:
            self.ended_by = verb
        return action

    def _handlers(self) -> dict[str, Callable[[list[str]], Action | None]]:
        h: dict[str, Callable[[list[str]], Action | None]] = {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "new": self._new,
            "add": self._add,
            "move": self._move,
            "back": self._back,
            "split": self._split,
            "merge": self._merge,
            "undo": self._undo,
            "reset": self._reset,
            "check": self._check,
            "commit": self._commit,
            "done": self._commit,
            "draw": self._draw,
            "pass": self._pass,
            "quit": self._quit,
            "exit": self._quit,
        }
        if self.kit.penalty is not None:
            h["penalty"] = self._penalty
        if self.kit.best_play is not None:
            h["hint"] = self._hint
        return h

    def _hint(self, args: list[str]) -> None:
        _no_args("hint", args)
        assert self.kit.best_play is not None
        # the first line already says "hint:"; the steps below it are indented
        self.say(*(f"  {line}" for line in self.kit.best_play(self.view)))

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.kit))
        return None

    def _show(self, args: list[str]) -> None:
        _no_args("show", args)
        self.say(*self.screen())
        return None

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(self.kit.orders)}")
        self.order = self.kit.order_name(args[0])
        self.say(self.rack_text())
        return None

    def _pieces(self, args: list[str], usage: str) -> list[P]:
        if not args:
            raise ParseError(f"usage: {usage}")
        return self.kit.parse_pieces(" ".join(args))

    def _changed(self) -> None:
        self.say(*self.table_lines())

    def _new(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"new {self.kit.example}")
        self.draft.new_set(pieces)
        self._changed()
        return None

    def _add(self, args: list[str]) -> None:
        usage = f"add SET {self.kit.piece.upper()}... (e.g. add 2 {self.kit.example.split()[0]})"
        if len(args) < 2:
            raise ParseError(f"usage: {usage}")
        index = self._set_index(args[0])
        pieces = self._pieces(args[1:], usage)
        self.draft.add(index, pieces)
        self._changed()
        return None

    def _move(self, args: list[str]) -> None:
        if len(args) != 3:
            raise ParseError(f"usage: move {self.kit.piece.upper()} FROM TO (TO may be `new`)")
        pieces = self.kit.parse_pieces(args[0])
        if len(pieces) != 1:
            raise ParseError(f"move one {self.kit.piece} at a time, got {args[0]!r}")
        source = self._set_index(args[1])
        target = None if args[2].lower() == "new" else self._set_index(args[2])
        self.draft.move(pieces[0], source, target)
        self._changed()
        return None

    def _back(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"back {self.kit.piece.upper()}")
        if len(pieces) != 1:
            raise ParseError(f"take back one {self.kit.piece} at a time")
        self.draft.take_back(pieces[0])
        self._changed()
        return None

    def _split(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError(f"usage: split SET POSITION (split 2 3: before the 3rd {self.kit.piece} of set 2)")
        index = self._set_index(args[0])
        size = len(self.draft.sets[index])
        before = _whole_number(args[1], "a position")
        if not 2 <= before <= size:
            if size < 2:
                raise ParseError(f"set {index + 1} has only {plural(size, self.kit.piece)}: nothing to split")
            raise ParseError(
                f"set {index + 1} has {plural(size, self.kit.piece)}: split it before {self.kit.piece} 2..{size}"
            )
        self.draft.split(index, before - 1)
        self._changed()
        return None

    def _merge(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: merge SET SET (merge 2 3: put set 3 on the end of set 2)")
        self.draft.merge(self._set_index(args[0]), self._set_index(args[1]))
        self._changed()
        return None

    def _undo(self, args: list[str]) -> None:
        _no_args("undo", args)
        self.draft.undo()
        self._changed()
        return None

    def _reset(self, args: list[str]) -> None:
        _no_args("reset", args)
        if not self.draft.changed and not self.draft.placed():
            raise ParseError("nothing to reset: the table is as the turn began")
        self.draft.reset()
        self._changed()
        return None

    def _check(self, args: list[str]) -> None:
        _no_args("check", args)
        problems = self.draft.problems()
        if not problems:
            self.say("The table is valid: `commit` ends your turn with it.")
        else:
            self.say(*(f"  {p}" for p in problems))
        return None

    def _commit(self, args: list[str]) -> Action | None:
        _no_args("commit", args)
        if not self.draft.placed():
            raise ParseError(f"nothing placed from your rack yet: place {self.kit.piece}s, or `draw`")
        problems = self.draft.problems()
        if problems:
            if self.kit.penalty is not None:
                anyway = f"fix it, or `penalty` commits anyway (table restored, you draw {self.kit.penalty})"
            else:
                anyway = "fix it, `reset`, or `draw`"
            if len(problems) == 1:
                self.say(f"! Cannot commit: {problems[0]}; {anyway}.")
            else:
                self.say(f"! Cannot commit, {len(problems)} problems ({anyway}):")
                self.say(*(f"    {p}" for p in problems))
            return None
        return self.kit.draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        _no_args("penalty", args)
        return self.kit.draft_action(self.seat, self.draft, accept_penalty=True)

    def _draw(self, args: list[str]) -> Action:
        _no_args("draw", args)
        return self.parse_action(f"{self.seat} draw")

    def _pass(self, args: list[str]) -> Action:
        _no_args("pass", args)
        return self.parse_action(f"{self.seat} pass")

    def _quit(self, args: list[str]) -> None:
        raise Quit

    def _set_index(self, text: str) -> int:
        n = _whole_number(text, "a set number")
        if n < 1:
            raise ParseError(f"set numbers start at 1, got {text!r}")
        if n > len(self.draft.sets):
            count = len(self.draft.sets)
            raise ParseError(
                f"there is no set {n}" + (f" (sets are 1..{count})" if count else " (the table is empty)")
            )
        return n - 1


def _whole_number(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParseError(f"{what} is a whole number, got {text!r}") from None


def _no_args(verb: str, args: list[str]) -> None:
    if args:
        raise ParseError(f"`{verb}` takes nothing after it, got {' '.join(args)!r}")


def one_line(exc: BaseException) -> str:
    """An error as one line for a person (draft bookkeeping rule ids left out)."""
    text = exc.reason if isinstance(exc, RuleError) and exc.rule.endswith("-DRAFT") else str(exc)
    return "! " + " ".join(text.split())


# -- a whole game ------------------------------------------------------------------


class Session:
    """One game at the terminal: some seats people, the others bots.

    ``bots`` has one entry per seat: a :class:`Bot`, or ``None`` for a person.
    Call :meth:`run`; it returns the exit status and always saves the record.
    A game with its own way of taking people's turns subclasses this, overrides
    :meth:`person_turn` and sets :attr:`needs_kit` to False.
    """

    needs_kit: ClassVar[bool] = True
    """People's turns are drafted with a :class:`TableKit` (so one is needed to seat people)."""

    def __init__(
        self,
        state: GameState,
        bots: Sequence[Bot | None],
        console: Console,
        style: Style,
        *,
        record_path: Path | None = None,
        kit: TableKit[Any] | None = None,
    ) -> None:
        if len(bots) != len(state.players):
            raise ValueError(f"{len(state.players)} seats need {len(state.players)} entries in bots")
        self.state = state
        self.bots = list(bots)
        self.console = console
        self.style = style
        self.record_path = record_path
        self.kit = kit
        self.names = list(state.players)
        self.words = words_for(state.info.id)
        self.people = [seat for seat, bot in enumerate(self.bots) if bot is None]
        if self.people and kit is None and self.needs_kit:
            raise RuleError("CLI", f"{state.info.id} cannot be played by people here yet; seat only bots")
        self.rngs: list[Rng] = [bot_rng(state.seed, seat) for seat in range(len(self.bots))]
        self.orders: dict[int, str] = {}
        self.shown = 0
        self.saved: Path | None = None

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
        lines = []
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
            lines.append("Type `help` at the prompt for the commands; `quit` saves the game and stops.")
        lines.append(f"Seed {seed} (play this deal again with --seed {seed}).")
        return lines

    def run(self) -> int:
        """Play to the end (or until the person quits); save the record; the exit status."""
        status = 0
        try:
            self.console.say(*self.welcome())
            self._show_events(None)
            while self.state.outcome is None:
                seat = min(self.state.to_act)
                if self.bots[seat] is None:
                    self.person_turn(seat)
                else:
                    self.bot_turn(seat)
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

    # -- turns -----------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        """Let the bot in ``seat`` act on its view; print what everyone may see."""
        bot = self.bots[seat]
        assert bot is not None
        action = bot.choose(self.state.view(seat), self.rngs[seat])
        self.state.apply(action)
        self._show_events(None)

    def person_turn(self, seat: int) -> None:
        """Let the person in ``seat`` draft and commit a turn (or draw, pass, quit)."""
        assert self.kit is not None
        hot_seat = len(self.people) > 1
        name = self.names[seat]
        if hot_seat:
            self.console.clear()
            answer = self.console.ask(f"Pass the screen to {name}; {name}, press Enter when ready. ")
            if answer.strip().lower() in ("quit", "exit"):
                raise Quit
        view = self.state.view(seat)
        turn: DraftTurn[Any] = DraftTurn(
            self.kit,
            view,
            parse_action=self.state.parse_action,
            say=self.console.say,
            style=self.style,
            labels=self.labels,
            order=self.orders.get(seat),
        )
        self.console.say("", self.style.bold(f"--- {name}'s turn ---"), *turn.screen())
        prompt = f"{name}'s turn> "
        while True:
            try:
                line = self.console.ask(prompt)
                action = turn.command(line)
                if action is None:
                    continue
                self.state.apply(action)
            except RummykitError as exc:
                self.console.say(one_line(exc))
                continue
            finally:
                self.orders[seat] = turn.order
            break
        if turn.ended_by in ("draw", "pass") and (turn.draft.changed or turn.draft.placed()):
            self.console.say("(your unfinished moves were put back)")
        self._show_events(seat)
        if hot_seat and self.state.outcome is None:
            self.console.ask("End of your turn: press Enter to hide your rack. ")
            self.console.clear()

    def _show_events(self, seat: int | None) -> None:
        events: list[Event] = self.state.history[self.shown :]
        self.shown = len(self.state.history)
        for event in events:
            self.console.say(*describe_event(event.seen_by(seat), self.names, self.style, words=self.words))

    # -- the record ------------------------------------------------------------

    def default_record_path(self) -> Path:
        """``rummykit-<game>-<seed>.txt`` in the current directory (``-2``, ``-3``... if taken)."""
        base = f"rummykit-{self.state.info.id}-{self.state.seed}"
        path = Path(f"{base}.txt")
        n = 2
        while path.exists():
            path = Path(f"{base}-{n}.txt")
            n += 1
        return path

    def save(self) -> bool:
        """Write the record (the whole text at once, then renamed into place); say where."""
        path = self.record_path or self.default_record_path()
        try:
            save_text(path, write_record(self.state))
        except OSError as exc:
            self.console.error(f"rummykit: could not save the record to {path}: {exc.strerror or exc}")
            return False
        self.saved = path
        self.console.say(f"Record saved to {path} (replay it with: rummykit replay {path})")
        return True


def save_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
