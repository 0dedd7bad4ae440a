"""A game's command table: its declared actions by verb, for records and for people."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rummykit.engine.commands.parts import Part, Reading, View
from rummykit.engine.commands.syntax import Declared, Syntax, syntax
from rummykit.engine.core import Action
from rummykit.errors import ParseError


class Commands:
    """A game's command table: the declared actions of ``GameInfo.actions``, by verb.

    What a turn of any interface needs: the record parser (:meth:`read`),
    the typed commands (:meth:`find`, :meth:`read_typed`, :meth:`typed_text`),
    the help rows of the commands a game's options offer (:meth:`rows`) and
    Tab's words (:meth:`completions`, :meth:`expects`). ``pieces`` reads a
    text of pieces for the parts that name no reader of their own (see
    :class:`~rummykit.engine.commands.parts.Reading`).
    """

    def __init__(
        self, actions: Sequence[type[Action]], pieces: Callable[[str], Sequence[object]] | None = None
    ) -> None:
        self.syntaxes = tuple(syntax(cls) for cls in actions if issubclass(cls, Declared))
        self.pieces = pieces
        self.by_verb = {s.verb: s for s in self.syntaxes}
        self.by_word: dict[tuple[str, ...], Syntax] = {}
        for s in self.syntaxes:
            if not s.typed:
                continue
            for word in (s.said, *s.aliases):
                self.by_word[tuple(word.split())] = s
        self.verbs = tuple(self.by_verb)

    def offered(self, options: Mapping[str, object]) -> list[Syntax]:
        """The commands a game with these options offers (a variant's only when its option is on)."""
        return [s for s in self.syntaxes if s.typed and (not s.option or options.get(s.option))]

    def rows(self, options: Mapping[str, object]) -> list[tuple[str, str]]:
        """The help rows (typed usage, help line) of the commands offered."""
        return [s.row() for s in self.offered(options)]

    def read(self, seat: int, text: str) -> Action:
        """Read an action (without its seat) in record notation; a :class:`ParseError` says what is wrong."""
        words = text.split()
        if not words:
            raise ParseError(f"an empty action: use {self._list()}")
        found = self.by_verb.get(words[0].lower())
        if found is None:
            raise ParseError(f"unknown action {words[0].lower()!r}: use {self._list()}")
        return found.read_words(seat, words[1:], Reading(text, pieces=self.pieces))

    def _list(self) -> str:
        verbs = list(self.verbs)
        return verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} or {verbs[-1]}"

    def find(self, words: Sequence[str]) -> tuple[Syntax, int] | None:
        """The command a typed line starts with, and how many of its words name it (None: no command)."""
        lowered = tuple(w.lower() for w in words[:2])
        for size in (2, 1):
            found = self.by_word.get(lowered[:size]) if len(lowered) >= size else None
            if found is not None:
                return found, size
        return None

    def read_typed(self, seat: int, line: str, view: View | None = None) -> Action:
        """The action a person typed (positions counted from 1); ``view`` resolves screen numbers of pieces."""
        words = line.split()
        found = self.find(words)
        if found is None:
            said = [s.said for s in self.syntaxes if s.typed]
            raise ParseError(f"unknown command {words[0] if words else ''!r}: use {', '.join(said)}")
        command, size = found
        return command.read_words(seat, words[size:], Reading(line, typed=True, view=view, pieces=self.pieces))

    def typed_text(self, action: Action) -> str:
        """The command a person types for ``action`` (its record text if the class declares none)."""
        if isinstance(action, Declared) and syntax(type(action)).typed:
            return syntax(type(action)).typed_text(action)
        return action.text()

    def typed_text_given(self, action: Action, text: str) -> str:
        """:meth:`typed_text`, ``text`` being the action's record text (what it is for a class that declares no typed form)."""
        if isinstance(action, Declared) and syntax(type(action)).typed:
            return syntax(type(action)).typed_text(action)
        return text

    def said_text(self, action: Action) -> str:
        """``action`` in a person's words, for a list of moves: ``reveal column 3, cell 4`` (counted from 1)."""
        if isinstance(action, Declared):
            return syntax(type(action)).said_text(action)
        return action.text()

    def listed(self, actions: Sequence[Action]) -> list[tuple[str, Action]]:
        """Actions in a person's words, grouped by kind (the game's order of its action classes) and
        sorted by their numbers within a kind (``column 2`` before ``column 10``)."""
        from rummykit.engine.commands.said import natural_key

        order = {s.cls: i for i, s in enumerate(self.syntaxes)}
        said = [(self.said_text(a), a) for a in actions]
        return sorted(said, key=lambda pair: (order.get(type(pair[1]), len(order)), natural_key(pair[0])))

    def expects(self, words: Sequence[str]) -> list[Part | str]:
        """What may come after the typed ``words`` (a command first): parts, or keywords as text."""
        found = self.find(words)
        if found is None:
            return []
        command, size = found
        return command.expects(words[size:])

    def completions(self, words: Sequence[str], options: Mapping[str, object]) -> list[str]:
        """The words Tab offers after ``words``: the verbs, then the choice words and keywords that may come.

        Pieces are not offered here (a turn offers them from its view; see :meth:`expects`).
        """
        if not words:
            return [s.said for s in self.offered(options)]
        out: list[str] = []
        for item in self.expects(words):
            out += [item] if isinstance(item, str) else list(item.choices())
        return out


_TABLES: dict[tuple[tuple[type[Action], ...], object], Commands] = {}


def command_table(
    actions: Sequence[type[Action]], pieces: Callable[[str], Sequence[object]] | None = None
) -> Commands:
    """The command table of a game's action classes (``GameInfo.actions``), built once per game.

    ``pieces``: the game's reader of pieces, for actions shared by games whose pieces differ.
    """
    key = (tuple(actions), pieces)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = Commands(key[0], pieces)
    return found


def read_action(actions: Sequence[type[Action]], seat: int, text: str) -> Action:
    """Read an action (without its seat) in the record notation of these action classes."""
    return command_table(actions).read(seat, text)
