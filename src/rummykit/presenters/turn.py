"""What every typed turn shares: reading a command line, and the commands that only show something.

Each game's turn (:class:`~rummykit.presenters.base.Turn`) turns typed
commands into the game's actions. The plumbing around its own commands is
the same for every game and lives here once, in :class:`CommandTurn`: a line
is split into its verb and arguments (a two-word command such as ``lay off``
read as one), the verb's handler runs, an unknown verb is refused with a
pointer to ``help``, and ``help``, ``show``, ``sort`` and ``quit`` (and
``moves``, for the games that list a seat's moves) behave alike everywhere.
A game's turn names its own commands (:meth:`CommandTurn.game_handlers`) and
what the shared ones show.

>>> order_named(' Rank ', ('suit', 'rank'), {'ranks': 'rank'}), order_named('ranks', ('suit', 'rank'), {'ranks': 'rank'})
('rank', 'rank')
>>> order_named('size', ('suit', 'rank'), {})
Traceback (most recent call last):
...
rummykit.errors.ParseError: sort by suit or rank, not 'size'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Protocol

from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.presenters.base import Quit, Say, View
from rummykit.presenters.text import Style, no_args, unknown_command

__all__ = ["CommandTurn", "DraftCommands", "Handler", "StepDraft", "order_named"]

NO_PHRASES: Mapping[tuple[str, str], str] = {}
"""No two-word commands (the default of :attr:`CommandTurn.phrases`)."""

Handler = Callable[[list[str]], Action | None]
"""A command's handler: its arguments in, the action to apply (or None: it only showed or drafted something)."""


def order_named(text: str, orders: Sequence[str], aliases: Mapping[str, str]) -> str:
    """The sort order a person named (an alias allowed, case and spaces aside); ``ParseError`` if none."""
    key = text.strip().lower()
    key = aliases.get(key, key)
    if key not in orders:
        raise ParseError(f"sort by {' or '.join(orders)}, not {text.strip()!r}")
    return key


class CommandTurn:
    """The shared part of a typed turn for one seat (see the module's docstring).

    A game's turn sets :attr:`orders` and :attr:`order_aliases` (its sort
    orders), :attr:`phrases` (two-word commands), and defines
    :meth:`game_handlers`, :meth:`help_text`, :meth:`screen` and
    :meth:`order_lines` (what ``sort`` shows). :attr:`ended_by` is the
    command that produced the last action returned (``commit``, ``draw``...).
    """

    label: str = "turn"
    orders: Sequence[str]
    """The sort orders of the seat's pieces (the first is the default)."""
    order_aliases: Mapping[str, str]
    """Other names of the sort orders."""
    phrases: ClassVar[Mapping[tuple[str, str], str]] = NO_PHRASES
    """Two words read as one command: ``("lay", "off")`` is ``layoff``."""

    def __init__(
        self,
        view: View,
        *,
        parse_action: Callable[[str], Action],
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        self.view = view
        self.seat = int(view["seat"])
        self.parse_action = parse_action
        self._say = say
        self.style = style
        self.labels = list(labels)
        self.names = list(view["players"])
        self.order = order if order is not None and order in self.orders else self.orders[0]
        """The sort order of the seat's pieces (the first of :attr:`orders` unless another is named)."""
        self.ended_by: str | None = None
        self.echo = True
        """True (the line prompt): a drafting step says the new draft (see :class:`~rummykit.presenters.base.Turn`)."""

    def say(self, *lines: str) -> None:
        """Show lines (screens, racks and lists come laid out to the width; a refusal stays one line)."""
        self._say(*lines)

    # -- what a game's turn supplies ---------------------------------------------------

    def game_handlers(self) -> dict[str, Handler]:
        """The game's own commands (and their aliases) by verb."""
        raise NotImplementedError

    def help_text(self) -> list[str]:
        """What ``help`` shows."""
        raise NotImplementedError

    def screen(self) -> list[str]:
        """What ``show`` shows: the whole game as this seat sees it."""
        raise NotImplementedError

    def order_lines(self) -> list[str]:
        """What ``sort`` shows once the order changed: the seat's pieces in it."""
        raise NotImplementedError

    def moves_text(self) -> list[str]:
        """What ``moves`` shows, for a game whose turn lists the seat's moves."""
        raise NotImplementedError

    # -- reading a line ---------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command: the action to apply, or None (it only showed or drafted something)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        joined = self.phrases.get((verb, args[0].lower())) if args else None
        if joined is not None:
            verb, args = joined, args[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise unknown_command(words[0], str(self.view["game"]))
        action = handler(args)
        if action is not None:
            self.ended_by = verb
        return action

    def verb_and_args(self, words: Sequence[str]) -> tuple[str, list[str]]:
        """The command a list of typed words names, as :meth:`command` reads it (for completion)."""
        verb, args = words[0].lower(), list(words[1:])
        joined = self.phrases.get((verb, args[0].lower())) if args else None
        return (joined, args[1:]) if joined is not None else (verb, args)

    def _handlers(self) -> dict[str, Handler]:
        return {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            **self.game_handlers(),
            "quit": self._quit,
            "exit": self._quit,
        }

    def _action(self, verb: str, args: Sequence[str]) -> Action:
        """The game's action for ``verb args`` (the game's parser says what is malformed)."""
        return self.parse_action(" ".join([str(self.seat), verb, *args]))

    # -- the commands that only show something -----------------------------------------

    def _help(self, args: list[str]) -> None:
        self.say(*self.help_text())

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(self.orders)}")
        self.order = order_named(args[0], self.orders, self.order_aliases)
        self.say(*self.order_lines())

    def _moves(self, args: list[str]) -> None:
        no_args("moves", args)
        self.say(*self.style.fit(self.moves_text(), hang=4))

    def _quit(self, args: list[str]) -> None:
        raise Quit


class StepDraft(Protocol):
    """A turn built step by step (a table draft, a grid draft): what the shared drafting commands use."""

    @property
    def changed(self) -> bool:
        """True once the table differs from the start of the turn."""
        ...

    def placed(self) -> Sequence[object]:
        """The pieces moved from the rack to the table so far."""
        ...

    def undo(self) -> None:
        """Take back the last step (``RuleError`` when there is none)."""
        ...

    def reset(self) -> None:
        """Back to the table and rack as the turn began."""
        ...


class DraftCommands(CommandTurn):
    """The drafting commands a free table and a grid share: ``undo`` and ``reset`` (see :class:`StepDraft`).

    :attr:`surface` names what is drafted in the words (``table``, ``grid``);
    :meth:`changed` says the draft after a step, as the game's turn does it.
    """

    surface: str = "table"
    draft: StepDraft

    def changed(self) -> None:
        """Say what a drafting step changed."""
        raise NotImplementedError

    def _undo(self, args: list[str]) -> None:
        no_args("undo", args)
        self.draft.undo()
        self.changed()

    def _reset(self, args: list[str]) -> None:
        no_args("reset", args)
        if not self.draft.changed and not self.draft.placed():
            raise ParseError(f"nothing to reset: the {self.surface} is as the turn began")
        self.draft.reset()
        self.changed()
