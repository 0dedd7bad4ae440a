"""The free-table part of a typed turn (:class:`TableDisplay`): the table draft, its steps and its display.

A free-table turn is drafted: ``new``, ``add``, ``move``, ``back``,
``split``, ``merge`` build it on a :class:`~rummykit.blocks.table.TableDraft`
(the shared :class:`~rummykit.blocks.draft.Draft` steps ``undo`` and
``reset`` too), ``commit`` sends it. ``draw`` and ``pass`` are the game's
own commands, read by its command table. The generic
:class:`~rummykit.presenters.turn.Turn` drives it all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Generic, cast

from rummykit.blocks.table import TableDraft
from rummykit.engine.commands import SHOWN_FROM, Part, Syntax, command_table
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.presenters.base import Board, BoardSet, View
from rummykit.presenters.changes import table_changes
from rummykit.presenters.freetable.view import LEGEND, P, TableKit, rack_lines, status_lines
from rummykit.presenters.text import (
    HelpRow,
    plural,
    table_lines,
)
from rummykit.presenters.turn import Display, Turn
from rummykit.rulesets.draft_steps import (
    TABLE_STEPS,
    Add,
    Back,
    Check,
    Commit,
    Hint,
    Merge,
    Move,
    New,
    Penalty,
    Split,
)
from rummykit.rulesets.freetable import Draw, Pass

# -- commands ----------------------------------------------------------------------


def step_rows(kit: TableKit[Any]) -> list[HelpRow]:
    """The drafting steps' help rows (from their declarations), worded for the kit's pieces and rack;
    ``penalty`` and ``hint`` only where the game has them.

    >>> from rummykit.presenters.domino_rummikub import KIT
    >>> step_rows(KIT)[0]
    ('new DOMINO ...', 'Make a new set (at the end of the table) from dominoes of your rack.')
    """
    words = kit.words
    rows = []
    for s in command_table(TABLE_STEPS, kit.parse_pieces).syntaxes:
        if (s.cls is Penalty and kit.penalty is None) or (s.cls is Hint and kit.best_play is None):
            continue
        usage, text = s.row()
        text = text.replace("pieces", words.plural).replace("piece", words.piece).replace("rack", words.rack)
        if s.cls is Penalty:
            text = text.replace("the game's penalty", f"{kit.penalty}")
        rows.append((usage.replace("PIECE", words.piece.upper()), text))
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
        self.step_table = command_table(TABLE_STEPS, self.kit.parse_pieces)

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
        rack = tuple(p for group in self.kit.orders[turn.order](self.draft.rack) for p in group)
        return Board(
            sets=tuple(
                BoardSet(i + SHOWN_FROM, tuple(s), tuple(change.marks[i]), faults.get(i), tuple(self.draft.sets[i]))
                for i, s in enumerate(sets)
            ),
            rack=tuple(str(p) for p in rack),
            rack_items=rack,
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

    # -- the draft's steps -------------------------------------------------------

    def step_offered(self, command: Syntax) -> bool:
        """Every step, but ``penalty`` and ``hint`` only where the game has them."""
        if command.cls is Penalty:
            return self.kit.penalty is not None
        return command.cls is not Hint or self.kit.best_play is not None

    def step_rows(self) -> list[HelpRow]:
        """See :func:`step_rows`."""
        return step_rows(self.kit)

    def take(self, turn: Turn, step: Action) -> Action | None:
        """Take one step on the table draft (a commit or a penalty: the action to send)."""
        draft = self.draft
        match step:
            case New(pieces=pieces):
                draft.new_set(list(pieces))
            case Add(set=index, pieces=pieces):
                draft.add(self._need_set(index), list(pieces))
            case Move(piece=piece, source=source, target=target):
                draft.move(cast(P, piece), self._need_set(source), None if target is None else self._need_set(target))
            case Back(piece=piece):
                draft.take_back(cast(P, piece))
            case Split(set=index, before=before):
                self._split(self._need_set(index), before)
            case Merge(set=index, other=other):
                draft.merge(self._need_set(index), self._need_set(other))
            case Check():
                self._check(turn)
                return None
            case Commit():
                return self._commit(turn)
            case Penalty():
                return self.kit.draft_action(turn.seat, draft, accept_penalty=True)
            case Hint():
                assert self.kit.best_play is not None
                # the first line already says "hint:"; the steps below it are indented
                turn.say(*turn.style.fit(f"  {line}" for line in self.kit.best_play(turn.view)))
                return None
        self.changed(turn)
        return None

    def _split(self, index: int, before: int) -> None:
        """Split set ``index`` before its piece ``before`` (from 0), worded as the screen counts."""
        piece, size, shown = self.words.piece, len(self.draft.sets[index]), index + SHOWN_FROM
        if not 0 < before < size:
            if not size:
                raise ParseError(f"set {shown} is empty: nothing to split")
            if size < 2:
                raise ParseError(f"set {shown} has only {plural(size, piece)}: nothing to split")
            first, last = 1 + SHOWN_FROM, size - 1 + SHOWN_FROM
            raise ParseError(f"set {shown} has {plural(size, piece)}: split it before {piece} {first}..{last}")
        self.draft.split(index, before)

    def _check(self, turn: Turn) -> None:
        problems = self.draft.problems()
        if not problems:
            turn.say("The table is valid: `commit` ends your turn with it.")
        else:
            turn.say(*turn.style.fit((f"  {p}" for p in problems), hang=4))

    def _commit(self, turn: Turn) -> Action | None:
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

    def _need_set(self, index: int) -> int:
        """``index`` if the draft has that set (a refusal counted as the screen counts, else)."""
        count = len(self.draft.sets)
        if index >= count:
            n = index + SHOWN_FROM
            raise ParseError(
                f"there is no set {n}" + (f" (sets are {SHOWN_FROM}..{count})" if count else " (the table is empty)")
            )
        return index

    # -- completion -------------------------------------------------------------

    def pieces(self, turn: Turn, command: Syntax, part: Part, args: Sequence[str]) -> list[str]:
        """The pieces a step takes: the rack's left (``new``, ``add N``), the table's (``move``), those
        placed this turn (``back``)."""
        if command.cls is New:
            return self._rack_left(turn, args)
        if command.cls is Add:
            return self._rack_left(turn, args[1:])
        if command.cls is Move:
            return list(dict.fromkeys(str(p) for s in self.draft.sets for p in s))
        if command.cls is Back:
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
