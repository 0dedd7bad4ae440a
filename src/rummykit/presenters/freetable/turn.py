"""The free-table turn: a table draft driven by typed commands (:class:`DraftTurn`), and the help."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Generic

from rummykit.blocks.table import TableDraft
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.presenters.base import Board, BoardSet, Say, View
from rummykit.presenters.changes import table_changes
from rummykit.presenters.freetable.view import LEGEND, P, TableKit, rack_lines, status_lines
from rummykit.presenters.text import (
    HelpRow,
    Style,
    help_table,
    no_args,
    plural,
    table_lines,
    whole_number,
)
from rummykit.presenters.turn import DraftCommands, Handler

# -- commands ----------------------------------------------------------------------


def help_rows(kit: TableKit[Any]) -> list[HelpRow]:
    """The drafting commands, worded for the kit's pieces."""
    piece, pieces, example = kit.words.piece, kit.words.plural, kit.example
    first = example.split()[0]
    rows = [
        (f"new {example}", f"make a new set from {pieces} in your {kit.words.rack}"),
        (f"add 2 {first}", f"add {pieces} from your {kit.words.rack} to set 2"),
        (f"move {first} 2 3", f"move {first} from set 2 to set 3 (`move {first} 2 new`: a new set)"),
        (f"back {first}", f"take a {piece} you placed this turn back to your {kit.words.rack}"),
        ("split 2 3", f"split set 2 before its 3rd {piece} (the rest becomes a new set at the end)"),
        ("merge 2 3", "put set 3 on the end of set 2 (set 3 stays empty until you commit)"),
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
        (f"sort {'|'.join(kit.orders)}", f"order your {kit.words.rack}"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]
    return rows


def help_lines(kit: TableKit[Any], width: int = 0) -> list[str]:
    """The command list, worded for the kit's pieces (laid out to ``width``)."""
    head = (
        f"Commands (set numbers start at 1 and keep their place all turn; new sets go at the end;"
        f" {kit.words.plural} are written like {kit.example}):"
    )
    return help_table(head, help_rows(kit), width)


class DraftTurn(DraftCommands, Generic[P]):
    """One person's turn: a draft of the table driven by typed commands.

    :meth:`command` runs one line. It returns the :class:`Action` to commit
    (or ``None`` to keep drafting), raises :class:`~rummykit.errors.RummykitError`
    for bad input (the draft is unchanged), or :class:`Quit`.
    """

    def __init__(
        self,
        kit: TableKit[P],
        view: View,
        *,
        parse_action: Callable[[str], Action],
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        self.kit = kit
        self.words = kit.words
        self.orders = tuple(kit.orders)
        self.order_aliases = kit.aliases
        super().__init__(view, parse_action=parse_action, say=say, style=style, labels=labels, order=order)
        self.draft: TableDraft[P] = kit.draft_from_view(view)

    # -- screens ----------------------------------------------------------------

    def table_lines(self) -> list[str]:
        """The draft table with invalid sets and changed pieces marked, the placed pieces and the rack."""
        problems = self.draft.problems()
        faults = {p.index: p.reason for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = self.draft.placed()
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, [str(p) for p in placed])
        empty = "(empty: left out when you commit)"
        lines = ["Table:", *table_lines(sets, self.style, problems=faults, marks=change.marks, empty=empty)]
        if change.any:
            lines.append(f"  {LEGEND}")
        if placed:
            lines.append(f"Placed this turn: {self.style.pieces(str(p) for p in placed)}")
        if self.draft.changed or placed:
            if not problems:
                lines.append("Ready: `commit` ends your turn with this table.")
            else:
                for p in problems:
                    if p.index is None:
                        lines.append(self.style.warn(f"Not yet: {p.reason}"))
        lines += rack_lines(self.kit, self.draft.rack, self.order, self.style)
        return self.style.fit(lines)

    def board(self) -> Board:
        """The draft as data: every set with its change marks and the engine's reason when invalid,
        the rack in the seat's order, what is wrong with the turn, and whether it can be committed.

        >>> from rummykit.presenters.rummikub import KIT
        >>> from rummykit.rulesets.rummikub import INFO
        >>> view = INFO.new(players=2, seed=4).view(1)
        >>> turn = DraftTurn(KIT, view, parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.echo = False
        >>> turn.command('new R5 R6 K6')
        >>> board = turn.board()
        >>> board.sets[0].pieces, board.sets[0].marks, board.ready
        (('R5', 'R6', 'K6'), ('+', '+', '+'), False)
        >>> board.sets[0].problem.endswith('(rule RK-SET-KIND)')
        True
        """
        problems = self.draft.problems()
        faults = {p.index: f"{p.reason} (rule {p.rule})" for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = [str(p) for p in self.draft.placed()]
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, placed)
        rack = tuple(str(p) for group in self.kit.orders[self.order](self.draft.rack) for p in group)
        return Board(
            sets=tuple(
                BoardSet(i + 1, tuple(s), tuple(change.marks[i]), faults.get(i)) for i, s in enumerate(sets)
            ),
            rack=rack,
            placed=tuple(placed),
            problems=tuple(f"{p.reason} (rule {p.rule})" for p in problems if p.index is None),
            ready=not problems,
            changed=self.draft.changed or bool(placed),
        )

    def hint_sets(self) -> list[list[str]] | None:
        """The table the best play would leave (as :meth:`board` numbers sets; None: no play, or no
        solver): the sets of the ``hint``, as data. It plays nothing."""
        if self.kit.best_table is None:
            return None
        return self.kit.best_table(self.view)

    def screen(self) -> list[str]:
        """Everything: status of every seat, the table, the rack and a reminder."""
        lines = status_lines(self.view, self.labels, self.style, self.words)
        lines += self.table_lines()
        reminder = self.kit.reminder(self.view)
        if reminder and not self.draft.placed():
            lines.append(reminder)
        return self.style.fit(lines)

    def accepted(self) -> list[str]:
        """A note when a draw or pass put unfinished moves back."""
        if self.ended_by in ("draw", "pass") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, view: View) -> list[str]:
        """A new view of the same seat: a fresh draft from it, and the whole screen."""
        self.view = view
        self.draft = self.kit.draft_from_view(view)
        self.ended_by = None
        return self.screen()

    # -- commands ---------------------------------------------------------------

    def help_text(self) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(self.kit, self.style.width)

    def order_lines(self) -> list[str]:
        """The rack in the new order."""
        return rack_lines(self.kit, self.draft.rack, self.order, self.style)

    def game_handlers(self) -> dict[str, Handler]:
        """The drafting commands (see :func:`help_lines`); ``penalty`` and ``hint`` where the game has them."""
        h: dict[str, Handler] = {
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
        }
        if self.kit.penalty is not None:
            h["penalty"] = self._penalty
        if self.kit.best_play is not None:
            h["hint"] = self._hint
        return h

    def _hint(self, args: list[str]) -> None:
        no_args("hint", args)
        assert self.kit.best_play is not None
        # the first line already says "hint:"; the steps below it are indented
        self.say(*self.style.fit(f"  {line}" for line in self.kit.best_play(self.view)))

    def _pieces(self, args: list[str], usage: str) -> list[P]:
        if not args:
            raise ParseError(f"usage: {usage}")
        return self.kit.parse_pieces(" ".join(args))

    def changed(self) -> None:
        """Say the drafted table after a step (unless an interface draws :meth:`board` itself)."""
        if self.echo:
            self.say(*self.table_lines())

    def _new(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"new {self.kit.example}")
        self.draft.new_set(pieces)
        self.changed()

    def _add(self, args: list[str]) -> None:
        usage = f"add SET {self.words.piece.upper()}... (e.g. add 2 {self.kit.example.split()[0]})"
        if len(args) < 2:
            raise ParseError(f"usage: {usage}")
        index = self._set_index(args[0])
        pieces = self._pieces(args[1:], usage)
        self.draft.add(index, pieces)
        self.changed()

    def _move(self, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 3:
            raise ParseError(f"usage: move {piece.upper()} FROM TO (TO may be `new`)")
        pieces = self.kit.parse_pieces(args[0])
        if len(pieces) != 1:
            raise ParseError(f"move one {piece} at a time, got {args[0]!r}")
        source = self._set_index(args[1])
        target = None if args[2].lower() == "new" else self._set_index(args[2])
        self.draft.move(pieces[0], source, target)
        self.changed()

    def _back(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"back {self.words.piece.upper()}")
        if len(pieces) != 1:
            raise ParseError(f"take back one {self.words.piece} at a time")
        self.draft.take_back(pieces[0])
        self.changed()

    def _split(self, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 2:
            raise ParseError(f"usage: split SET POSITION (split 2 3: before the 3rd {piece} of set 2)")
        index = self._set_index(args[0])
        size = len(self.draft.sets[index])
        before = whole_number(args[1], "a position")
        if not 2 <= before <= size:
            if not size:
                raise ParseError(f"set {index + 1} is empty: nothing to split")
            if size < 2:
                raise ParseError(f"set {index + 1} has only {plural(size, piece)}: nothing to split")
            raise ParseError(f"set {index + 1} has {plural(size, piece)}: split it before {piece} 2..{size}")
        self.draft.split(index, before - 1)
        self.changed()

    def _merge(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: merge SET SET (merge 2 3: put set 3 on the end of set 2)")
        self.draft.merge(self._set_index(args[0]), self._set_index(args[1]))
        self.changed()

    def _check(self, args: list[str]) -> None:
        no_args("check", args)
        problems = self.draft.problems()
        if not problems:
            self.say("The table is valid: `commit` ends your turn with it.")
        else:
            self.say(*self.style.fit((f"  {p}" for p in problems), hang=4))

    def _commit(self, args: list[str]) -> Action | None:
        no_args("commit", args)
        if not self.draft.placed():
            raise ParseError(f"nothing placed from your {self.words.rack} yet: place {self.words.plural}, or `draw`")
        problems = self.draft.problems()
        if problems:
            if self.kit.penalty is not None:
                anyway = f"fix it, or `penalty` commits anyway (table restored, you draw {self.kit.penalty})"
            else:
                anyway = "fix it, `reset`, or `draw`"
            # laid out to the width like every other line of the turn (as two-tray says it)
            if len(problems) == 1:
                self.say(*self.style.fit([f"! Cannot commit: {problems[0]}; {anyway}."], hang=4))
            else:
                self.say(*self.style.fit([f"! Cannot commit, {len(problems)} problems ({anyway}):"], hang=4))
                self.say(*self.style.fit((f"    {p}" for p in problems), hang=6))
            return None
        return self.kit.draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        no_args("penalty", args)
        return self.kit.draft_action(self.seat, self.draft, accept_penalty=True)

    def _draw(self, args: list[str]) -> Action:
        no_args("draw", args)
        return self.parse_action(f"{self.seat} draw")

    def _pass(self, args: list[str]) -> Action:
        no_args("pass", args)
        return self.parse_action(f"{self.seat} pass")

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The commands; after one, the pieces it takes: the rack's left (``new``, ``add N``), the
        table's (``move``), those placed this turn (``back``); ``new`` as a target; the sort orders.

        >>> from rummykit.presenters.rummikub import KIT
        >>> from rummykit.rulesets.rummikub import INFO
        >>> view = INFO.new(players=2, seed=4).view(1)
        >>> turn = DraftTurn(KIT, view, parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.completions([])[:6]
        ['add', 'back', 'check', 'commit', 'done', 'draw']
        >>> turn.completions(['new', 'k10'])
        ['K2', 'K6', 'B6', 'B8', 'B10', 'O1', 'R3', 'R5', 'R6', 'R9', 'R10', 'R11', 'R13']
        >>> turn.completions(['sort'])
        ['colour', 'number']
        """
        if not words:
            return sorted(verb for verb in self._handlers() if verb.isalpha())
        verb, args = words[0].lower(), list(words[1:])
        if verb == "new":
            return self._rack_left(args)
        if verb == "add" and args:
            return self._rack_left(args[1:])
        if verb == "move" and not args:
            return list(dict.fromkeys(str(p) for s in self.draft.sets for p in s))
        if verb == "move" and len(args) == 2:
            return ["new"]
        if verb == "back" and not args:
            return list(dict.fromkeys(str(p) for p in self.draft.placed()))
        if verb == "sort" and not args:
            return list(self.kit.orders)
        return []

    def _rack_left(self, typed: Sequence[str]) -> list[str]:
        """The rack's pieces (each kind once, in the rack's order) not all named in ``typed`` yet."""
        left = Counter(str(p) for p in self.draft.rack)
        for word in typed:
            try:
                left.subtract(str(p) for p in self.kit.parse_pieces(word))
            except ParseError:
                continue
        shown = [str(p) for group in self.kit.orders[self.order](self.draft.rack) for p in group]
        return [p for p in dict.fromkeys(shown) if left[p] > 0]

    def _set_index(self, text: str) -> int:
        n = whole_number(text, "a set number")
        if n < 1:
            raise ParseError(f"set numbers start at 1, got {text!r}")
        if n > len(self.draft.sets):
            count = len(self.draft.sets)
            raise ParseError(
                f"there is no set {n}" + (f" (sets are 1..{count})" if count else " (the table is empty)")
            )
        return n - 1
