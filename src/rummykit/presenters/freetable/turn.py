"""The free-table part of a typed turn (:class:`TableDisplay`): the table draft, its steps and its display.

A free-table turn is drafted: ``new``, ``add``, ``move``, ``back``,
``split``, ``merge`` build it on a :class:`~rummykit.blocks.table.TableDraft`
(the shared :class:`~rummykit.blocks.draft.Draft` steps ``undo`` and
``reset`` too), ``commit`` sends it. ``draw`` and ``pass`` are the game's
own commands, read by its command table. The generic
:class:`~rummykit.presenters.turn.Turn` drives it all.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic

from rummykit.blocks.table import TableDraft
from rummykit.engine.commands import SHOWN_FROM
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.presenters.base import Board, BoardSet, View
from rummykit.presenters.changes import table_changes
from rummykit.presenters.freetable.view import LEGEND, P, TableKit, rack_lines, status_lines
from rummykit.presenters.text import (
    HelpRow,
    no_args,
    plural,
    table_lines,
    whole_number,
)
from rummykit.presenters.turn import Display, Handler, Turn
from rummykit.rulesets.freetable import Draw, Pass

# -- commands ----------------------------------------------------------------------


def step_rows(kit: TableKit[Any]) -> list[HelpRow]:
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
            ("check", "list what is wrong with the table now"),
        ("commit (or done)", "end your turn with the table as it is"),
    ]
    if kit.penalty is not None:
        rows.append(("penalty", f"commit an invalid table anyway: it is restored, you draw {kit.penalty}"))
    if kit.best_play is not None:
        rows.append(("hint", "show the best play as steps (it plays nothing for you)"))
    return rows


def help_head(kit: TableKit[Any]) -> str:
    """The heading of the command list, worded for the kit's pieces."""
    return (
        f"Commands (set numbers start at 1 and keep their place all turn; new sets go at the end;"
        f" {kit.words.plural} are written like {kit.example}):"
    )


class TableDisplay(Display, Generic[P]):
    """A free-table turn's draft, its steps and its display (see the module's docstring).

    >>> from rummykit.presenters.rummikub import PRESENTER
    >>> from rummykit.presenters.text import Style
    >>> from rummykit.rulesets.rummikub import INFO
    >>> view = INFO.new(players=2, seed=4).view(1)
    >>> turn = PRESENTER.turn(view, say=print, style=Style())
    >>> turn.echo = False
    >>> turn.command('new R5 R6 K6')
    >>> board = turn.board()
    >>> board.sets[0].pieces, board.sets[0].marks, board.ready
    (('R5', 'R6', 'K6'), ('+', '+', '+'), False)
    >>> board.sets[0].problem.endswith('(rule RK-SET-KIND)')
    True
    >>> turn.completions([])[:8]
    ['new', 'add', 'move', 'back', 'split', 'merge', 'check', 'commit']
    >>> turn.completions(['new', 'k10'])
    ['K2', 'B6', 'B8', 'B10', 'O1', 'R3', 'R9', 'R10', 'R11', 'R13']
    """

    moves = False
    draft: TableDraft[P]

    def __init__(self, kit: TableKit[P]) -> None:
        self.kit = kit
        self.words = kit.words
        self.orders = tuple(kit.orders)
        self.order_aliases = kit.aliases
        self.rack = kit.words.rack
        self.head = help_head(kit)

    def start(self, turn: Turn) -> None:
        """A fresh draft from the turn's view."""
        self.draft = self.kit.draft_from_view(turn.view)

    # -- screens ----------------------------------------------------------------

    def table_lines(self, turn: Turn) -> list[str]:
        """The draft table with invalid sets and changed pieces marked, the placed pieces and the rack."""
        style = turn.style
        problems = self.draft.problems()
        faults = {p.index: p.reason for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = self.draft.placed()
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, [str(p) for p in placed])
        empty = "(empty: left out when you commit)"
        lines = ["Table:", *table_lines(sets, style, problems=faults, marks=change.marks, empty=empty)]
        if change.any:
            lines.append(f"  {LEGEND}")
        if placed:
            lines.append(f"Placed this turn: {style.pieces(str(p) for p in placed)}")
        if self.draft.changed or placed:
            if not problems:
                lines.append("Ready: `commit` ends your turn with this table.")
            else:
                for p in problems:
                    if p.index is None:
                        lines.append(style.warn(f"Not yet: {p.reason}"))
        lines += rack_lines(self.kit, self.draft.rack, turn.order, style)
        return style.fit(lines)

    def board(self, turn: Turn) -> Board:
        """The draft as data: every set with its change marks and the engine's reason when invalid,
        the rack in the seat's order, what is wrong with the turn, and whether it can be committed."""
        problems = self.draft.problems()
        faults = {p.index: f"{p.reason} (rule {p.rule})" for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = [str(p) for p in self.draft.placed()]
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, placed)
        rack = tuple(str(p) for group in self.kit.orders[turn.order](self.draft.rack) for p in group)
        return Board(
            sets=tuple(
                BoardSet(i + SHOWN_FROM, tuple(s), tuple(change.marks[i]), faults.get(i)) for i, s in enumerate(sets)
            ),
            rack=rack,
            placed=tuple(placed),
            problems=tuple(f"{p.reason} (rule {p.rule})" for p in problems if p.index is None),
            ready=not problems,
            changed=self.draft.changed or bool(placed),
        )

    def hint_sets(self, turn: Turn) -> list[list[str]] | None:
        """The table the best play would leave (as :meth:`board` numbers sets; None: no play, or no
        solver): the sets of the ``hint``, as data. It plays nothing."""
        if self.kit.best_table is None:
            return None
        return self.kit.best_table(turn.view)

    def screen(self, turn: Turn) -> list[str]:
        """Everything: status of every seat, the table, the rack and a reminder."""
        lines = status_lines(turn.view, turn.labels, turn.style, self.words)
        lines += self.table_lines(turn)
        reminder = self.kit.reminder(turn.view)
        if reminder and not self.draft.placed():
            lines.append(reminder)
        return turn.style.fit(lines)

    def accepted(self, turn: Turn) -> list[str]:
        """A note when a draw or pass put unfinished moves back."""
        if turn.ended_by in (Draw.type, Pass.type) and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, turn: Turn, before: View) -> list[str]:
        """A fresh draft from the new view, and the whole screen."""
        self.start(turn)
        return self.screen(turn)

    def order_lines(self, turn: Turn) -> list[str]:
        """The rack in the new order."""
        return rack_lines(self.kit, self.draft.rack, turn.order, turn.style)

    def changed(self, turn: Turn) -> None:
        """Say the drafted table after a step (unless an interface draws :meth:`board` itself)."""
        if turn.echo:
            turn.say(*self.table_lines(turn))

    # -- the draft's commands -------------------------------------------------------

    def step_rows(self) -> list[HelpRow]:
        """See :func:`step_rows`."""
        return step_rows(self.kit)

    def steps(self, turn: Turn) -> Mapping[str, Handler]:
        """The drafting commands (see :func:`step_rows`); ``penalty`` and ``hint`` where the game has them."""
        def bind(method: Callable[[Turn, list[str]], Action | None]) -> Handler:
            return functools.partial(method, turn)

        h: dict[str, Handler] = {
            "new": bind(self._new),
            "add": bind(self._add),
            "move": bind(self._move),
            "back": bind(self._back),
            "split": bind(self._split),
            "merge": bind(self._merge),
            "check": bind(self._check),
            "commit": bind(self._commit),
            "done": bind(self._commit),
        }
        if self.kit.penalty is not None:
            h["penalty"] = bind(self._penalty)
        if self.kit.best_play is not None:
            h["hint"] = bind(self._hint)
        return h

    def _hint(self, turn: Turn, args: list[str]) -> None:
        no_args("hint", args)
        assert self.kit.best_play is not None
        # the first line already says "hint:"; the steps below it are indented
        turn.say(*turn.style.fit(f"  {line}" for line in self.kit.best_play(turn.view)))

    def _pieces(self, args: list[str], usage: str) -> list[P]:
        if not args:
            raise ParseError(f"usage: {usage}")
        return self.kit.parse_pieces(" ".join(args))

    def _new(self, turn: Turn, args: list[str]) -> None:
        pieces = self._pieces(args, f"new {self.kit.example}")
        self.draft.new_set(pieces)
        self.changed(turn)

    def _add(self, turn: Turn, args: list[str]) -> None:
        usage = f"add SET {self.words.piece.upper()}... (e.g. add 2 {self.kit.example.split()[0]})"
        if len(args) < 2:
            raise ParseError(f"usage: {usage}")
        index = self._set_index(args[0])
        pieces = self._pieces(args[1:], usage)
        self.draft.add(index, pieces)
        self.changed(turn)

    def _move(self, turn: Turn, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 3:
            raise ParseError(f"usage: move {piece.upper()} FROM TO (TO may be `new`)")
        pieces = self.kit.parse_pieces(args[0])
        if len(pieces) != 1:
            raise ParseError(f"move one {piece} at a time, got {args[0]!r}")
        source = self._set_index(args[1])
        target = None if args[2].lower() == "new" else self._set_index(args[2])
        self.draft.move(pieces[0], source, target)
        self.changed(turn)

    def _back(self, turn: Turn, args: list[str]) -> None:
        pieces = self._pieces(args, f"back {self.words.piece.upper()}")
        if len(pieces) != 1:
            raise ParseError(f"take back one {self.words.piece} at a time")
        self.draft.take_back(pieces[0])
        self.changed(turn)

    def _split(self, turn: Turn, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 2:
            raise ParseError(f"usage: split SET POSITION (split 2 3: before the 3rd {piece} of set 2)")
        index = self._set_index(args[0])
        size = len(self.draft.sets[index])
        before = whole_number(args[1], "a position")
        shown = index + SHOWN_FROM
        if not 2 <= before <= size:
            if not size:
                raise ParseError(f"set {shown} is empty: nothing to split")
            if size < 2:
                raise ParseError(f"set {shown} has only {plural(size, piece)}: nothing to split")
            raise ParseError(f"set {shown} has {plural(size, piece)}: split it before {piece} 2..{size}")
        self.draft.split(index, before - SHOWN_FROM)
        self.changed(turn)

    def _merge(self, turn: Turn, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: merge SET SET (merge 2 3: put set 3 on the end of set 2)")
        self.draft.merge(self._set_index(args[0]), self._set_index(args[1]))
        self.changed(turn)

    def _check(self, turn: Turn, args: list[str]) -> None:
        no_args("check", args)
        problems = self.draft.problems()
        if not problems:
            turn.say("The table is valid: `commit` ends your turn with it.")
        else:
            turn.say(*turn.style.fit((f"  {p}" for p in problems), hang=4))

    def _commit(self, turn: Turn, args: list[str]) -> Action | None:
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
                turn.say(*turn.style.fit([f"! Cannot commit: {problems[0]}; {anyway}."], hang=4))
            else:
                turn.say(*turn.style.fit([f"! Cannot commit, {len(problems)} problems ({anyway}):"], hang=4))
                turn.say(*turn.style.fit((f"    {p}" for p in problems), hang=6))
            return None
        return self.kit.draft_action(turn.seat, self.draft)

    def _penalty(self, turn: Turn, args: list[str]) -> Action:
        no_args("penalty", args)
        return self.kit.draft_action(turn.seat, self.draft, accept_penalty=True)

    # -- completion -------------------------------------------------------------

    def step_words(self, turn: Turn, verb: str, args: Sequence[str]) -> list[str]:
        """After a drafting command, the pieces it takes: the rack's left (``new``, ``add N``), the
        table's (``move``), those placed this turn (``back``); ``new`` as a target."""
        if verb == "new":
            return self._rack_left(turn, args)
        if verb == "add" and args:
            return self._rack_left(turn, args[1:])
        if verb == "move" and not args:
            return list(dict.fromkeys(str(p) for s in self.draft.sets for p in s))
        if verb == "move" and len(args) == 2:
            return ["new"]
        if verb == "back" and not args:
            return list(dict.fromkeys(str(p) for p in self.draft.placed()))
        return []

    def _rack_left(self, turn: Turn, typed: Sequence[str]) -> list[str]:
        """The rack's pieces (each kind once, in the rack's order) not all named in ``typed`` yet."""
        left = Counter(str(p) for p in self.draft.rack)
        for word in typed:
            try:
                left.subtract(str(p) for p in self.kit.parse_pieces(word))
            except ParseError:
                continue
        shown = [str(p) for group in self.kit.orders[turn.order](self.draft.rack) for p in group]
        return [p for p in dict.fromkeys(shown) if left[p] > 0]

    def _set_index(self, text: str) -> int:
        n = whole_number(text, "a set number")
        if n < SHOWN_FROM:
            raise ParseError(f"set numbers start at {SHOWN_FROM}, got {text!r}")
        if n - SHOWN_FROM >= len(self.draft.sets):
            count = len(self.draft.sets)
            raise ParseError(
                f"there is no set {n}" + (f" (sets are 1..{count})" if count else " (the table is empty)")
            )
        return n - SHOWN_FROM
