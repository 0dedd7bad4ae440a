"""Commands: an action's words, declared once.

An action class that subclasses :class:`Declared` names its words in one
class attribute, ``COMMAND``: the parts that follow the verb, in order, each
saying which field it writes and what kind of thing it is. Everything else
is derived from that declaration:

* the record notation (:meth:`Syntax.text`, which is ``action.text()``) and
  its parser (:meth:`Syntax.read`, and :func:`read_action` for a game's
  action classes): the form records keep, positions counted from 0;
* the words a person types (:meth:`Syntax.typed_text` and
  :meth:`Commands.read_typed`): the same parts, with every position counted
  from 1 as screens show it, the verb a person says (``penalty`` for a play
  that takes its penalty) and its aliases (``lay off``, ``mine``);
* a help row (the typed usage and the first line of the class's docstring)
  and the words Tab offers (the verbs, the choice words, the keywords);
* the JSON form needs no declaration: :meth:`~rummykit.engine.core.Action.to_json`
  and :meth:`~rummykit.engine.core.GameInfo.action_from_json` read the
  dataclass fields themselves, with positions counted from 0 as in records.

The kinds of part: :class:`Position` (a column, meld, cell row... stored from
0, typed from 1), :class:`Cell` (two such numbers written ``ROW,COLUMN``),
:class:`Piece` and :class:`Pieces` (one piece, several pieces), :class:`Changes`
(grid cells changed by a turn, ``ROW,COLUMN=PIECE``), :class:`Choice` (one of a
few words), :class:`Word` (a word read by the game, such as a tray's letters),
and :class:`Tail`: a keyword and the parts after it (``jump 3-5 with 3-3 3-4``).
A part whose fields all have a default, last in its section, may be left out
(it is written only when its value is not the default).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Move(Declared):
...     '''Move the counter to a column, going up or down.'''
...     column: int
...     way: str
...     COMMAND = Command(Position("column"), Choice("way", words=("up", "down"), aliases={"u": "up"}))
>>> move = Move(0, 2, "up")
>>> move.text(), str(move)
('move 2 up', '0 move 2 up')
>>> syntax(Move).read(1, 'MOVE 4 down')
Move(player=1, column=4, way='down')
>>> syntax(Move).typed_text(move), command_table((Move,)).read_typed(0, 'move 3 u') == move
('move 3 up', True)
>>> command_table((Move,)).rows({})
[('move COLUMN up|down', 'Move the counter to a column, going up or down.')]
>>> syntax(Move).read(0, 'move 2 sideways')
Traceback (most recent call last):
...
rummykit.errors.ParseError: the ways are 'up' and 'down', got 'sideways'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, cast

from rummykit.engine.core import Action
from rummykit.errors import ParseError

__all__ = [
    "SHOWN_FROM",
    "Choice",
    "Command",
    "Commands",
    "Declared",
    "Part",
    "Piece",
    "Pieces",
    "Position",
    "Reading",
    "Syntax",
    "Tail",
    "View",
    "Word",
    "command_table",
    "read_action",
    "syntax",
]

View = Mapping[str, Any]
"""A seat's view, as a game's ``view()`` returns it (for parts a screen's numbers may name)."""

SHOWN_FROM = 1
"""The number a person sees for position 0: every typed position counts from here."""


class Reading(NamedTuple):
    """What a part reads words for: the whole text (for messages), typed by a person or not, the view."""

    text: str
    typed: bool = False
    view: View | None = None


# -- the parts ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part of an action's words after the verb: the field it fills and its placeholder in usages.

    A subclass says how one value is written (:meth:`word`) and read
    (:meth:`value`); ``many`` parts take every word up to the next keyword,
    at least ``least`` of them.
    """

    field: str
    name: str = ""
    """The placeholder in usages (by default the field's name in capitals)."""
    what: str = ""
    """The thing, in words, for messages (by default the field's name)."""

    many: ClassVar[bool] = False
    least: ClassVar[int] = 0
    plain: ClassVar[bool] = True
    """The record writes each value as its own text, ``str(value)`` (False: :meth:`write` says how)."""

    @property
    def fields(self) -> tuple[str, ...]:
        """The action's fields this part fills."""
        return (self.field,)

    def label(self, typed: bool) -> str:
        """The placeholder of one value (typed: as a person types it)."""
        return self.name or self.field.upper()

    def usage(self, typed: bool) -> str:
        """The part in a usage line: its placeholder, then ``...`` for several."""
        return f"{self.label(typed)} ..." if self.many else self.label(typed)

    def thing(self) -> str:
        """What the part is, in words."""
        return self.what or self.field.replace("_", " ")

    def choices(self) -> tuple[str, ...]:
        """The literal words the part may be (Tab offers them)."""
        return ()

    def word(self, value: object, typed: bool) -> str:
        """One value's word."""
        return str(value)

    def value(self, word: str, reading: Reading) -> object:
        """One word's value (a :class:`ParseError` saying what is wrong if it is not one)."""
        raise NotImplementedError

    def write(self, values: Sequence[object], typed: bool) -> list[str]:
        """The words of this part's field values."""
        if self.many:
            return [self.word(v, typed) for v in cast("Iterable[object]", values[0])]
        return [self.word(values[0], typed)]

    def read(self, words: Sequence[str], reading: Reading) -> tuple[object, ...]:
        """The field values of this part's words (one word, or all of a ``many`` part's)."""
        if self.many:
            return (tuple(self.value(w, reading) for w in words),)
        return (self.value(words[0], reading),)


@dataclass(frozen=True)
class Position(Part):
    """A column, meld, cell or set number: stored and recorded from 0, shown to people from 1."""

    def word(self, value: object, typed: bool) -> str:
        return str(cast(int, value) + SHOWN_FROM if typed else value)

    def value(self, word: str, reading: Reading) -> object:
        what = self.thing()
        if not reading.typed:
            if not word.isdigit():
                raise ParseError(
                    f"the {what} must be a whole number from 0, got {word!r} in {reading.text.strip()!r}"
                )
            return int(word)
        if not word.isdigit():
            raise ParseError(f"a {what} number is a whole number, as on the screen; got {word!r}")
        n = int(word)
        if n < SHOWN_FROM:
            raise ParseError(f"{what}s are numbered from {SHOWN_FROM}, as on the screen; got {word!r}")
        return n - SHOWN_FROM


@dataclass(frozen=True)
class Piece(Part):
    """A piece, read by ``parse`` (the game's piece notation).

    ``numbered`` (optional) lets a person type a number instead, which stands
    for a piece a screen numbers from 1 (``take 3``: the third card of the
    discard pile): it returns that piece's text in the view, or raises
    :class:`ParseError` for a number the screen does not show.
    """

    parse: Callable[[str], object] = str
    numbered: Callable[[View, int], str] | None = None

    def label(self, typed: bool) -> str:
        name = super().label(typed)
        return f"{name}|N" if typed and self.numbered is not None else name

    def value(self, word: str, reading: Reading) -> object:
        if reading.typed and self.numbered is not None and word.isdigit():
            if reading.view is None:
                raise ParseError(
                    f"a number stands for a {self.thing()} only against what the screen shows, got {word!r}"
                )
            word = self.numbered(reading.view, int(word))
        try:
            return self.parse(word)
        except ParseError as exc:
            raise ParseError(f"{exc} (in {reading.text.strip()!r})") from None


@dataclass(frozen=True)
class Pieces(Piece):
    """Several pieces (at least one), up to the next keyword."""

    many: ClassVar[bool] = True
    least: ClassVar[int] = 1


@dataclass(frozen=True)
class Choice(Part):
    """One of a few words (any case); ``aliases`` are short forms a person may type (``t`` for ``top``).

    ``what`` names the choices for messages, in the plural (``a conveyor's
    ends``: "a conveyor's ends are 'top' and 'bottom', got 'middle'").
    """

    words: tuple[str, ...] = ()
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def label(self, typed: bool) -> str:
        return "|".join(self.words)

    def choices(self) -> tuple[str, ...]:
        return self.words

    def value(self, word: str, reading: Reading) -> object:
        lowered = word.lower()
        if reading.typed:
            lowered = self.aliases.get(lowered, lowered)
        if lowered not in self.words:
            spelled = " and ".join(f"'{w}'" for w in self.words)
            raise ParseError(f"{self.what or f'the {self.field}s'} are {spelled}, got {word!r}")
        return lowered


@dataclass(frozen=True)
class Word(Part):
    """A word the game reads itself (``read``: a tray's letters, say), written as its value's text."""

    read_word: Callable[[str], object] = str

    def value(self, word: str, reading: Reading) -> object:
        return self.read_word(word)


@dataclass(frozen=True)
class Tail:
    """A keyword and the parts after it (``with 3-3 3-4``): left out when its fields have their defaults."""

    keyword: str
    parts: tuple[Part, ...]
    what: str = ""
    """The parts in words, for messages (``going-down lines``; by default their usage)."""

    def __init__(self, keyword: str, *parts: Part, what: str = "") -> None:
        object.__setattr__(self, "keyword", keyword)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "what", what)


# -- the declaration --------------------------------------------------------------------


class Command:
    """An action's words, as its class declares them (``COMMAND = Command(...)``).

    ``parts`` follow the verb in order; :class:`Tail` parts come last.
    ``verb`` is the record's verb (by default the action's ``type``),
    ``said`` the verb a person types (by default the same), ``aliases`` other
    words a person may type for it (two words allowed: ``lay off``),
    ``option`` the game option that must be on for the command to be
    offered, and ``help`` its help line (by default the first line of the
    class's docstring).
    """

    __slots__ = ("aliases", "help", "option", "parts", "said", "verb")

    def __init__(
        self,
        *parts: Part | Tail,
        verb: str = "",
        said: str = "",
        aliases: tuple[str, ...] = (),
        option: str = "",
        help: str = "",
    ) -> None:
        self.parts = parts
        self.verb = verb
        self.said = said
        self.aliases = aliases
        self.option = option
        self.help = help


class Declared(Action):
    """An action whose words are declared by its class's ``COMMAND``: ``text()`` is derived from it.

    The first call reads the declaration (:func:`syntax`), which then puts
    its compiled writer in the class as ``text``: writing an action costs
    about what a hand-written f-string does.
    """

    __slots__ = ()
    COMMAND: ClassVar[Command] = Command()

    def text(self) -> str:
        """The action in record notation, without the seat (see :meth:`Syntax.text`)."""
        return syntax(type(self)).text(self)


@dataclass(frozen=True)
class _Section:
    """The words before the first keyword (``keyword`` empty), or a keyword and the words after it.

    ``optional``: the keyword and its words may be left out; ``last``: the
    section's last part, which may be left out (the words before any keyword
    only); ``fixed``: the count of one-word parts; ``many``: the part of
    several words, if any.
    """

    keyword: str
    parts: tuple[Part, ...]
    optional: bool
    what: str
    last: Part | None = None
    fixed: int = 0
    many: Part | None = None


class Syntax:
    """An action class's declaration, checked against its fields and ready to write and read words."""

    def __init__(self, cls: type[Action]) -> None:
        command = cast("Command", getattr(cls, "COMMAND", None))
        if not isinstance(command, Command):
            raise TypeError(f"{cls.__name__} declares no COMMAND")
        self.cls = cls
        self.command = command
        self.verb = command.verb or cls.type
        self.said = command.said or self.verb
        self.aliases = command.aliases
        self.option = command.option
        fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "player"}
        self.defaults: dict[str, object] = {
            name: f.default
            if f.default is not dataclasses.MISSING
            else cast("Callable[[], object]", f.default_factory)()
            for name, f in fields.items()
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        }
        main = [p for p in command.parts if isinstance(p, Part)]
        tails = [p for p in command.parts if isinstance(p, Tail)]
        if command.parts[: len(main)] != tuple(main):
            raise TypeError(f"{cls.__name__}: a keyword's parts come after the others")
        self.sections = tuple(
            self._section(*args)
            for args in [
                ("", tuple(main), False, ""),
                *((t.keyword, t.parts, self._defaulted(t.parts), t.what) for t in tails),
            ]
        )
        self.keywords = tuple(s.keyword for s in self.sections[1:])
        named = [name for s in self.sections for p in s.parts for name in p.fields]
        if sorted(named) != sorted(fields):
            raise TypeError(f"{cls.__name__}: COMMAND names fields {named}, the class has {sorted(fields)}")
        for section in self.sections:
            self._check(section)
        self.write = self._compile()
        if issubclass(cls, Declared) and "text" not in cls.__dict__:
            setattr(cls, "text", self.write)  # noqa: B010 - the class's own method, from now on

    def _defaulted(self, parts: Iterable[Part]) -> bool:
        return all(name in self.defaults for p in parts for name in p.fields)

    def _check(self, section: _Section) -> None:
        many = [p for p in section.parts if p.many]
        if len(many) > 1:
            raise TypeError(f"{self.cls.__name__}: one part of several words per section")
        if not section.keyword and any(self._defaulted([p]) for p in section.parts[:-1]):
            raise TypeError(f"{self.cls.__name__}: only the last part of a section may be left out")

    def _section(self, keyword: str, parts: tuple[Part, ...], optional: bool, what: str) -> _Section:
        last = parts[-1] if parts and not keyword else None
        if last is not None and (last.many or not self._defaulted([last])):
            last = None  # a keyword's parts are left out with their keyword
        many = next((p for p in parts if p.many), None)
        return _Section(keyword, parts, optional, what, last, sum(1 for p in parts if not p.many), many)

    @staticmethod
    def _optional(section: _Section) -> Part | None:
        """The part at the end of a section that may be left out (not a keyword's: the keyword says it)."""
        return section.last

    # -- usage and help -------------------------------------------------------------

    def usage(self, typed: bool = False) -> str:
        """The command's form: ``draw COLUMN top|bottom``; a part that may be left out in brackets."""
        words = [self.said if typed else self.verb]
        for section in self.sections:
            parts = [p.usage(typed) for p in section.parts]
            optional = self._optional(section)
            if optional is not None:
                parts[-1] = f"[{parts[-1]}]"
            if section.keyword:
                tail = " ".join([section.keyword, *parts])
                parts = [f"[{tail}]" if section.optional else tail]
            words += parts
        return " ".join(words)

    def help(self) -> str:
        """The help line: the declared one, or the docstring's first line (its ``code`` marks as `code`)."""
        line = self.command.help or (self.cls.__doc__ or "").strip().splitlines()[0]
        line = line.replace("``", "`")
        if self.aliases:
            line += " (also " + ", ".join(f"`{a}`" for a in self.aliases) + ")"
        return line

    def row(self) -> tuple[str, str]:
        """The help row: the typed usage and the help line."""
        return self.usage(typed=True), self.help()

    # -- writing ----------------------------------------------------------------------

    def _words(self, action: Action, typed: bool) -> list[str]:
        words = [self.said if typed else self.verb]
        for section in self.sections:
            parts = section.parts
            if section.keyword and section.optional and self._at_default(action, parts):
                continue
            optional = self._optional(section)
            if optional is not None and self._at_default(action, [optional]):
                parts = parts[:-1]
            if section.keyword:
                words.append(section.keyword)
            for part in parts:
                words += part.write([getattr(action, name) for name in part.fields], typed)
        return words

    def _at_default(self, action: Action, parts: Iterable[Part]) -> bool:
        return all(getattr(action, name) == self.defaults[name] for p in parts for name in p.fields)

    def _compile(self) -> Callable[[Action], str]:
        """The record writer, made once per class as Python source (as :mod:`dataclasses` makes ``__init__``).

        Every value is written as its own text, or by its part's :meth:`Part.write`
        when the part is not ``plain``; a section that may be left out is
        written only when its fields differ from their defaults. The source
        holds nothing but the class's field names (identifiers) and the
        names of the values passed in ``scope``.
        """
        scope: dict[str, object] = {"_verb": self.verb}
        items: list[str] = ["_verb"]
        for k, section in enumerate(self.sections):
            parts, optional = section.parts, self._optional(section)
            kept = parts[:-1] if optional is not None else parts
            words = ([f"_kw{k}"] if section.keyword else []) + [self._expression(p, scope) for p in kept]
            scope[f"_kw{k}"] = section.keyword
            if section.keyword and section.optional:
                items.append(f"*(({', '.join(words)},) if {self._changed(parts, scope)} else ())")
                continue
            items += words
            if optional is not None:
                items.append(
                    f"*(({self._expression(optional, scope)},) if {self._changed([optional], scope)} else ())"
                )
        if all(not item.startswith("*") for item in items[1:]) and all(
            p.plain for p in self.sections[0].parts
        ):
            fields = [p.field for p in self.sections[0].parts]  # one plain word each: an f-string
            body = "f" + repr(" ".join(["{_verb}", *(f"{{a.{name}}}" for name in fields)]))
        else:
            body = f"' '.join([{', '.join(items)}])"
        code = compile(f"lambda a: {body}", f"<{self.cls.__name__}.text>", "eval")
        return cast("Callable[[Action], str]", eval(code, scope))

    @staticmethod
    def _expression(part: Part, scope: dict[str, object]) -> str:
        """The source of one part's words in the record writer (one word, or ``*`` several)."""
        if not part.plain:
            scope[f"_part_{part.field}"] = part
            values = ", ".join(f"a.{name}" for name in part.fields)
            return f"*_part_{part.field}.write(({values},), False)"
        return f"*map(str, a.{part.field})" if part.many else f"str(a.{part.field})"

    def _changed(self, parts: Iterable[Part], scope: dict[str, object]) -> str:
        """The source of the test that a part left out by default is to be written."""
        tests = []
        for part in parts:
            for name in part.fields:
                scope[f"_default_{name}"] = self.defaults[name]
                tests.append(f"a.{name} != _default_{name}")
        return " or ".join(tests)

    def text(self, action: Action) -> str:
        """The action in record notation, without the seat (positions from 0)."""
        return self.write(action)

    def typed_text(self, action: Action) -> str:
        """The command a person types for the action: the said verb, positions counted from 1."""
        return " ".join(self._words(action, typed=True))

    # -- reading ----------------------------------------------------------------------

    def read(self, seat: int, text: str) -> Action:
        """The action ``text`` writes in record notation (verb included, seat not)."""
        return self.read_words(seat, text.split()[1:], Reading(text))

    def read_words(self, seat: int, args: Sequence[str], reading: Reading) -> Action:
        """The action of the words after the verb (record notation, or typed: see :class:`Reading`)."""
        values: dict[str, object] = {}
        for section, words in zip(self.sections, self._split(args, reading), strict=True):
            if words is None:
                if not section.optional:
                    raise self._malformed(reading)
                continue
            if section.keyword and not words:
                what = section.what or " ".join(p.usage(reading.typed) for p in section.parts)
                body = " ".join(p.usage(reading.typed) for p in section.parts)
                raise ParseError(f"write the {what} after '{section.keyword}': {body}")
            for part, chunk in self._assign(section, words, reading):
                values.update(zip(part.fields, part.read(chunk, reading), strict=True))
        make = cast("Callable[..., Action]", self.cls)
        return make(seat, **values)

    def _malformed(self, reading: Reading) -> ParseError:
        return ParseError(f"write '{self.usage(reading.typed)}', got {reading.text.strip()!r}")

    def _split(self, args: Sequence[str], reading: Reading) -> list[list[str] | None]:
        """The words of each section (None: a keyword section not written)."""
        keywords = self.keywords
        if not keywords:
            return [list(args)]
        cuts: list[tuple[int, int]] = []  # (word index, section index)
        for i, word in enumerate(args):
            lowered = word.lower()
            if lowered in keywords:
                k = keywords.index(lowered) + 1
                if any(s == k for _, s in cuts):
                    article = "an" if self.verb[0] in "aeiou" else "a"
                    what = self.sections[k].what or "rest"
                    raise ParseError(f"'{lowered}' comes once in {article} {self.verb}, before the {what}")
                if cuts and cuts[-1][1] > k:
                    raise self._malformed(reading)
                cuts.append((i, k))
        out: list[list[str] | None] = [None] * len(self.sections)
        ends = [i for i, _ in cuts] + [len(args)]
        out[0] = list(args[: ends[0]])
        for (i, k), end in zip(cuts, ends[1:], strict=True):
            out[k] = list(args[i + 1 : end])
        return out

    def _assign(self, section: _Section, words: list[str], reading: Reading) -> list[tuple[Part, list[str]]]:
        """Each part of a section with its words (a :class:`ParseError` with the usage if they do not fit)."""
        parts = list(section.parts)
        optional, fixed, many = section.last, section.fixed, section.many
        if many is None and len(words) == fixed:
            return list(zip(parts, ([w] for w in words), strict=True))
        if many is not None:
            extra = len(words) - fixed
            if extra < many.least:
                raise self._malformed(reading)
        else:
            extra = 0
            if optional is not None and len(words) == fixed - 1:
                parts.pop()
            elif len(words) != fixed:
                raise self._malformed(reading)
        out: list[tuple[Part, list[str]]] = []
        at = 0
        for part in parts:
            take = extra if part.many else 1
            out.append((part, words[at : at + take]))
            at += take
        return out

    # -- completion ---------------------------------------------------------------------

    def expects(self, args: Sequence[str]) -> list[Part | str]:
        """What may come after ``args`` (the words typed after the verb): parts, or keywords as text."""
        lowered = [a.lower() for a in args]
        present = [k for k, s in enumerate(self.sections) if k and s.keyword in lowered]
        current = present[-1] if present else 0
        section = self.sections[current]
        start = lowered.index(section.keyword) + 1 if current else 0
        count = len(args) - start
        later: list[Part | str] = [s.keyword for s in self.sections[current + 1 :]]
        fixed = [p for p in section.parts if not p.many]
        many = next((p for p in section.parts if p.many), None)
        optional = self._optional(section)
        if many is not None:
            before = section.parts.index(many)
            if count < before:
                return [section.parts[count]]
            filled = count - before
            after = list(section.parts[before + 1 :])
            done = filled >= many.least and not after
            return [many, *after[:1], *(later if done else [])]
        if count < len(fixed):
            nxt: list[Part | str] = [fixed[count]]
            if optional is not None and count == len(fixed) - 1:
                nxt += later
            return nxt
        return later if count == len(fixed) else []


# -- a game's commands ----------------------------------------------------------------------


_SYNTAX: dict[type[Action], Syntax] = {}


def syntax(cls: type[Action]) -> Syntax:
    """The checked declaration of a :class:`Declared` action class (read once per class)."""
    found = _SYNTAX.get(cls)
    if found is None:
        found = _SYNTAX[cls] = Syntax(cls)
    return found


class Commands:
    """A game's command table: the declared actions of ``GameInfo.actions``, by verb.

    What a turn of any interface needs: the record parser (:meth:`read`),
    the typed commands (:meth:`find`, :meth:`read_typed`, :meth:`typed_text`),
    the help rows of the commands a game's options offer (:meth:`rows`) and
    Tab's words (:meth:`completions`, :meth:`expects`).
    """

    def __init__(self, actions: Sequence[type[Action]]) -> None:
        self.syntaxes = tuple(syntax(cls) for cls in actions if issubclass(cls, Declared))
        self.by_verb = {s.verb: s for s in self.syntaxes}
        self.by_word: dict[tuple[str, ...], Syntax] = {}
        for s in self.syntaxes:
            for word in (s.said, *s.aliases):
                self.by_word[tuple(word.split())] = s
        self.verbs = tuple(self.by_verb)

    def offered(self, options: Mapping[str, object]) -> list[Syntax]:
        """The commands a game with these options offers (a variant's only when its option is on)."""
        return [s for s in self.syntaxes if not s.option or options.get(s.option)]

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
        return found.read_words(seat, words[1:], Reading(text))

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
            said = [s.said for s in self.syntaxes]
            raise ParseError(f"unknown command {words[0] if words else ''!r}: use {', '.join(said)}")
        command, size = found
        return command.read_words(seat, words[size:], Reading(line, typed=True, view=view))

    def typed_text(self, action: Action) -> str:
        """The command a person types for ``action`` (its record text if the class declares none)."""
        if isinstance(action, Declared):
            return syntax(type(action)).typed_text(action)
        return action.text()

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


_TABLES: dict[tuple[type[Action], ...], Commands] = {}


def command_table(actions: Sequence[type[Action]]) -> Commands:
    """The command table of a game's action classes (``GameInfo.actions``), built once per game."""
    key = tuple(actions)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = Commands(key)
    return found


def read_action(actions: Sequence[type[Action]], seat: int, text: str) -> Action:
    """Read an action (without its seat) in the record notation of these action classes."""
    return command_table(actions).read(seat, text)
