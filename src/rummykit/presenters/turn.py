"""The one typed turn of every game: :class:`Turn`, driven by the game's command table.

A turn turns what a person types into the game's actions. What it reads
comes from the command layer (:mod:`rummykit.engine.commands`): the game's
command table finds the command a line starts with, the game reads it
against the seat's view (:meth:`~rummykit.engine.core.GameInfo.parse_typed`,
every position counted from 1 as the screen counts it), and the same table
gives the help rows, Tab's words and the text a move list shows
(``typed_text``). Around the game's commands every turn has the same tools:
``help``, ``show``, ``sort``, ``quit`` (and ``moves``, for a game that lists
a seat's moves).

What differs from game to game is what is shown, and the draft a person
builds some turns in: a game's presenter gives the turn a :class:`Display`
(its screens, its Tab words for pieces) and, for a game whose turn is
drafted (``info.draft``), the draft's steps (``new``, ``place``...) over the
shared :class:`~rummykit.blocks.draft.Draft` protocol (``undo``, ``reset``).

>>> order_named(' Rank ', ('suit', 'rank'), {'ranks': 'rank'}), order_named('ranks', ('suit', 'rank'), {'ranks': 'rank'})
('rank', 'rank')
>>> order_named('size', ('suit', 'rank'), {})
Traceback (most recent call last):
...
rummykit.errors.ParseError: sort by suit or rank, not 'size'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from rummykit.blocks.draft import Draft
from rummykit.bots.strong import Advice
from rummykit.engine.commands import Commands, Part, Syntax, command_table
from rummykit.engine.core import Action, GameInfo
from rummykit.errors import ParseError
from rummykit.presenters.base import Board, Quit, Say, View
from rummykit.presenters.text import HelpRow, Style, help_table, no_args, unknown_command

__all__ = ["DRAFT_ROWS", "Commanded", "Display", "Turn", "help_lines", "help_rows", "order_named", "tool_rows", "typed_text"]

def order_named(text: str, orders: Sequence[str], aliases: Mapping[str, str]) -> str:
    """The sort order a person named (an alias allowed, case and spaces aside); ``ParseError`` if none."""
    key = text.strip().lower()
    key = aliases.get(key, key)
    if key not in orders:
        raise ParseError(f"sort by {' or '.join(orders)}, not {text.strip()!r}")
    return key


def tool_rows(orders: Sequence[str], rack: str, moves: bool, hint: bool = False) -> list[HelpRow]:
    """The rows of the commands that only show something (``moves`` where the game lists moves,
    ``hint`` where the strong bot advises)."""
    rows = [("moves", "list every move you may make now (also `options`)")] if moves else []
    if hint:
        rows.append(("hint", "the best play for you now, and why (nothing is played)"))
    return [
        *rows,
        (f"sort {'|'.join(orders)}", f"order your {rack}"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]


class Display:
    """A game's part of a turn: what it shows, and (for a drafted turn) its draft and the draft's steps.

    The defaults suit a game whose turn is one action at a time; a game's
    presenter subclasses it. Every method gets the :class:`Turn` (its view,
    seat, names, labels, style and order). Nothing here judges a move.
    """

    orders: Sequence[str] = ()
    """The sort orders of the seat's pieces (the first is the default)."""
    order_aliases: Mapping[str, str] = {}
    """Other names of the sort orders."""
    rack: str = "hand"
    """What the seat's pieces are called, in the help (``hand``, ``rack``, ``trays``)."""
    head: str = "Commands:"
    """The heading of the help."""
    moves: bool = False
    """True: the game lists the seat's moves (the ``moves`` command)."""
    draft: Draft | None = None
    """The turn's draft, for a game whose turn is drafted (None: none)."""
    surface: str = "table"
    """What a drafted turn builds on, in words (``table``, ``grid``)."""
    advised: str | None = None
    """The game whose strong bot's advice is the ``hint`` command (:mod:`rummykit.presenters.advice`);
    None: no such command (a free table's hint is a step of its draft instead)."""

    def start(self, turn: Turn) -> None:
        """Get ready for a turn (a drafted game makes its draft from the turn's view)."""

    def label(self, turn: Turn) -> str:
        """What the person is doing, for prompts: ``turn`` unless the game says otherwise."""
        return "turn"

    def screen(self, turn: Turn) -> list[str]:
        """The whole game as the seat sees it."""
        raise NotImplementedError

    def update(self, turn: Turn, before: View) -> list[str]:
        """The lines worth showing once the turn took a new view (``before``: the old one)."""
        return self.screen(turn)

    def order_lines(self, turn: Turn) -> list[str]:
        """The seat's pieces in the order just chosen."""
        raise NotImplementedError

    def moves_lines(self, turn: Turn, texts: Sequence[str]) -> list[str]:
        """The seat's listed moves (``texts``: each as the command that plays it)."""
        return [f"  {t}" for t in texts]

    def offer(self, turn: Turn, command: Syntax, args: Sequence[str], items: Sequence[Part | str]) -> list[str]:
        """Tab's words after a game command: keywords, choice words, and the pieces :meth:`pieces` offers."""
        out: list[str] = []
        for item in items:
            if isinstance(item, str):
                out.append(item)
            else:
                out += list(item.choices()) or self.pieces(turn, command, item, args)
        return out

    def pieces(self, turn: Turn, command: Syntax, part: Part, args: Sequence[str]) -> list[str]:
        """The words the seat may name for a part (pieces it holds, cells...); none by default."""
        return []

    # -- a drafted turn --------------------------------------------------------------

    step_table: Commands | None = None
    """The draft's steps (``new``, ``place``...), declared like actions (None: no draft)."""

    def step_offered(self, command: Syntax) -> bool:
        """True when the draft offers this step (a game without a penalty has no ``penalty`` step)."""
        return True

    def step_rows(self) -> list[HelpRow]:
        """The help rows of the draft's steps (from their declarations)."""
        steps = self.step_table
        return [] if steps is None else [s.row() for s in steps.syntaxes if self.step_offered(s)]

    def take(self, turn: Turn, step: Action) -> Action | None:
        """Take one step on the draft: the action to send (a commit), or None (the draft changed, or
        something was shown)."""
        raise NotImplementedError

    def action(self, turn: Turn, action: Action) -> Action | None:
        """A game action typed whole, as the turn sends it (a drafted game may draft it first: None)."""
        return action

    def accepted(self, turn: Turn) -> list[str]:
        """Lines to show once the engine accepted the turn's last action."""
        return []

    def changed(self, turn: Turn) -> None:
        """Say what a draft step changed."""

    def board(self, turn: Turn) -> Board | None:
        """A free table's draft as data (None: no free table)."""
        return None

    def draft_view(self, turn: Turn) -> View:
        """The seat's view as the turn has drafted it (the view itself without a grid draft)."""
        return turn.view

    def show_advice(self, turn: Turn, found: Advice) -> None:
        """A hint from the strong bot's advice is shown (a game whose interface draws it keeps what it needs)."""

    def hint_sets(self, turn: Turn) -> list[list[str]] | None:
        """The table the best play would leave (None: no hint)."""
        return None


DRAFT_ROWS: list[HelpRow] = [("undo | reset", "undo the last step | start the turn again")]
"""The steps every draft takes (:class:`~rummykit.blocks.draft.Draft`), for a game whose turn is drafted."""


def help_rows(info: GameInfo, display: Display, view: View) -> list[HelpRow]:
    """The commands: the draft's steps (and ``undo | reset``, for a game whose turn is drafted), the
    game's commands its options offer (from the command table, usage and docstring), then the tools."""
    d, options = display, dict(view.get("options", {}))
    drafted = DRAFT_ROWS if info.draft is not None else []
    rows = command_table(info.actions).rows(options)
    return [*d.step_rows(), *drafted, *rows, *tool_rows(d.orders, d.rack, d.moves, d.advised is not None)]


def help_lines(info: GameInfo, display: Display, view: View, width: int = 0) -> list[str]:
    """What ``help`` shows: the display's heading and :func:`help_rows`, laid out to ``width``."""
    return help_table(display.head, help_rows(info, display, view), width)


def typed_text(info: GameInfo, action: Action) -> str:
    """The command a person types for ``action``: the command table's typed form (positions from 1)."""
    return command_table(info.actions).typed_text(action)


class Turn:
    """One person at the keyboard for one seat: typed lines in, the game's actions out.

    :meth:`command` runs one line and returns the :class:`Action` to apply (or
    ``None`` when the line only showed or drafted something); it raises
    :class:`~rummykit.errors.RummykitError` for bad input (nothing changed),
    or :class:`~rummykit.presenters.base.Quit`. Nothing here changes the game.
    """

    def __init__(
        self,
        view: View,
        *,
        info: GameInfo,
        display: Display,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        self.view = view
        self.info = info
        self.table = command_table(info.actions)
        self.display = display
        self.seat = int(view["seat"])
        self._say = say
        self.style = style
        self.labels = list(labels)
        self.names = list(view["players"])
        orders = display.orders
        self.order = order if order is not None and order in orders else orders[0]
        """The sort order of the seat's pieces (the first of the display's orders unless another is named)."""
        self.ended_by: str | None = None
        """The command that produced the last action returned (``commit``, ``draw``...)."""
        self.echo = True
        """True (the line prompt): a drafting step says the new draft. An interface that draws the
        draft itself (:meth:`board`, :meth:`draft_view`) sets it False."""
        display.start(self)

    def say(self, *lines: str) -> None:
        """Show lines (screens, racks and lists come laid out to the width; a refusal stays one line)."""
        self._say(*lines)

    # -- what an interface asks ---------------------------------------------------------

    @property
    def label(self) -> str:
        """What the person is doing, for prompts and headings: ``turn``, ``answer``, ``call``..."""
        return self.display.label(self)

    @property
    def draft(self) -> Draft | None:
        """The turn's draft (None: the game's turns are not drafted)."""
        return self.display.draft

    @property
    def options(self) -> Mapping[str, Any]:
        """The game's options, as the view shows them."""
        return dict(self.view.get("options", {}))

    def screen(self) -> list[str]:
        """Everything the seat sees now, as lines."""
        return self.display.screen(self)

    def accepted(self) -> list[str]:
        """Lines to show once the engine accepted the action :meth:`command` returned last."""
        return self.display.accepted(self)

    def update(self, view: View) -> list[str]:
        """Take the seat's new view (it acts again); the lines worth showing."""
        before, self.view = self.view, view
        self.ended_by = None
        return self.display.update(self, before)

    def board(self) -> Board | None:
        """A free table's draft as data, for an interface that draws it itself (None: no free table)."""
        return self.display.board(self)

    def draft_view(self) -> View:
        """The seat's view as drafted so far, for an interface that draws a grid itself."""
        return self.display.draft_view(self)

    def hint_sets(self) -> list[list[str]] | None:
        """The table the best play would leave, as :meth:`board` numbers sets (None: no hint)."""
        return self.display.hint_sets(self)

    def show_advice(self, found: Advice) -> None:
        """The strong bot's advice is shown as this turn's hint (a grid keeps its cells to draw them)."""
        self.display.show_advice(self, found)

    def legal(self) -> list[Action]:
        """This seat's legal actions now, as the game lists them from the view (sorted by their text)."""
        listing = self.info.view_actions
        return [] if listing is None else sorted(listing(self.view), key=lambda a: a.text())

    def command_text(self, action: Action) -> str:
        """The command a person types for ``action`` (positions counted from 1)."""
        return self.table.typed_text(action)

    def help_lines(self) -> list[str]:
        """What ``help`` shows (see :func:`help_lines`)."""
        return help_lines(self.info, self.display, self.view, self.style.width)

    # -- reading a line ---------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed line: the action to apply, or None (it only showed or drafted something)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        tool = self._tools().get(verb)
        if tool is not None:
            tool(args)
            return None
        step = self._step(words)
        if step is not None:
            return self.step(step[0].read_typed(self.seat, line, self.view))
        if self.table.find(words) is None:
            raise unknown_command(words[0], str(self.view["game"]))
        return self.act(self.info.parse_typed(self.seat, line, self.view))

    # -- typed steps: what a typed line comes to once read --------------------------------

    def step(self, step: Action) -> Action | None:
        """Take one draft step built from typed values, as a typed step is taken once read: the action to
        apply (a commit), or None (the draft changed, or something was shown).

        ``step`` is one of the draft's declared steps (:mod:`rummykit.rulesets.draft_steps`,
        a grid's steps) for this turn's seat, its set numbers and cells counted
        from 0 as the game counts them. An interface whose keys build steps (the
        terminal app) calls this instead of writing a line for :meth:`command`:
        the refusals, the draft's undo history and what is said are the same.
        """
        said = self._said(step, self.display.step_table, "step of this turn's draft")
        action = self.display.take(self, step)
        if action is not None:
            self.ended_by = said
        return action

    def act(self, action: Action) -> Action | None:
        """A game action built from typed values (``draw``, ``pass``...), as a typed command is taken once
        read: the action to apply, or None (a drafted game drafted it, and said why it is not sent)."""
        said = self._said(action, self.table, "command of this game")
        taken = self.display.action(self, action)
        if taken is not None:
            self.ended_by = said
        return taken

    def undo(self) -> None:
        """Take back the draft's last step (``RuleError`` when there is none)."""
        draft = self._need_draft("undo")
        draft.undo()
        self.display.changed(self)

    def reset(self) -> None:
        """Start the turn again (a ``ParseError`` when nothing was drafted yet)."""
        draft = self._need_draft("reset")
        if not draft.changed and not draft.placed():
            raise ParseError(f"nothing to reset: the {self.display.surface} is as the turn began")
        draft.reset()
        self.display.changed(self)

    def _said(self, action: Action, table: Commands | None, what: str) -> str:
        """The verb of ``action`` in ``table`` (a ``ParseError`` unless the table offers it to this seat)."""
        found = [] if table is None else [s for s in table.syntaxes if s.cls is type(action)]
        if not found or (table is self.display.step_table and not self.display.step_offered(found[0])):
            raise ParseError(f"{type(action).__name__} is no {what}")
        if action.player != self.seat:
            raise ParseError(f"{type(action).__name__} is for seat {action.player}, not this turn's seat {self.seat}")
        return found[0].said

    def _need_draft(self, verb: str) -> Draft:
        draft = self.draft
        if draft is None:
            raise ParseError(f"{verb}: this game's turns are not drafted")
        return draft

    def _step(self, words: Sequence[str]) -> tuple[Commands, str] | None:
        """The draft's step table and the step's verb, when ``words`` name a step the draft offers."""
        steps = self.display.step_table
        found = steps.find(words) if steps is not None else None
        if steps is None or found is None or not self.display.step_offered(found[0]):
            return None
        return steps, found[0].said

    def _tools(self) -> dict[str, Callable[[list[str]], None]]:
        tools: dict[str, Callable[[list[str]], None]] = {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "quit": self._quit,
            "exit": self._quit,
        }
        if self.display.moves:
            tools |= {"moves": self._moves, "options": self._moves}
        if self.draft is not None:
            tools |= {"undo": self._undo, "reset": self._reset}
        if self.display.advised is not None:
            tools["hint"] = self._hint
        return tools

    def _hint(self, args: list[str]) -> None:
        from rummykit.presenters.advice import advice_lines

        no_args("hint", args)
        assert self.display.advised is not None
        self.say(*self.style.fit(advice_lines(self.display.advised, self.view)))

    def _undo(self, args: list[str]) -> None:
        no_args("undo", args)
        self.undo()

    def _reset(self, args: list[str]) -> None:
        no_args("reset", args)
        self.reset()

    def _help(self, args: list[str]) -> None:
        self.say(*self.help_lines())

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        orders = self.display.orders
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(orders)}")
        self.order = order_named(args[0], orders, self.display.order_aliases)
        self.say(*self.display.order_lines(self))

    def _moves(self, args: list[str]) -> None:
        no_args("moves", args)
        texts = [self.command_text(a) for a in self.legal()]
        self.say(*self.style.fit(self.display.moves_lines(self, texts), hang=4))

    def _quit(self, args: list[str]) -> None:
        raise Quit

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The words that may be typed next after ``words`` (see :meth:`~rummykit.presenters.base.Turn.completions`).

        With no words, the commands (the draft's steps, the game's its
        options offer, the tools); after a step or a game command, what its
        next part may be (its declaration's keywords and choice words, the
        pieces the display offers); after ``sort``, the orders.
        """
        d = self.display
        steps = d.step_table
        if not words:
            drafted = ["undo", "reset"] if self.draft is not None else []
            step_verbs = [s.said for s in steps.syntaxes if d.step_offered(s)] if steps is not None else []
            verbs = [*step_verbs, *drafted, *(s.said for s in self.table.offered(self.options))]
            tools = [*(["moves"] if d.moves else []), "sort", "show", "help", "quit"]
            return list(dict.fromkeys([*verbs, *tools]))
        verb, args = words[0].lower(), list(words[1:])
        if verb == "sort":
            return [] if args else list(d.orders)
        step = self._step(words)
        found = step[0].find(words) if step is not None else self.table.find(words)
        if found is None:
            return []
        command, size = found
        rest = list(words[size:])
        return d.offer(self, command, rest, command.expects(rest))


class _Presenting(Protocol):
    """What :class:`Commanded` needs of a presenter: its game, and a new display for a turn."""

    @property
    def info(self) -> GameInfo: ...

    def display(self) -> Display: ...


class Commanded:
    """The part of every presenter that its game's commands decide, written once.

    A presenter (a frozen dataclass with an ``info`` field) mixes this in and
    says how to make its :class:`Display`; the help, the text a person types
    for an action and the one :class:`Turn` then come from the game's command
    table alike in every game.
    """

    def help_rows(self: _Presenting, view: View) -> list[HelpRow]:
        """The commands (a variant's only when its option is on; see :func:`help_rows`)."""
        return help_rows(self.info, self.display(), view)

    def help_lines(self: _Presenting, view: View, style: Style | None = None) -> list[str]:
        """The command list with its heading, laid out to the style's width."""
        return help_lines(self.info, self.display(), view, style.width if style else 0)

    def command_text(self: _Presenting, action: Action) -> str:
        """The command a person types for ``action``: every position counted from 1 (see :func:`typed_text`)."""
        return typed_text(self.info, action)

    def turn(
        self: _Presenting,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> Turn:
        """The one :class:`Turn` for the seat whose view this is (``parse_action`` is accepted, not used)."""
        return Turn(view, info=self.info, display=self.display(), say=say, style=style, labels=labels, order=order)
