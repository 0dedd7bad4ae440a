"""One action class's declaration, checked and compiled into a writer and a reader of its words."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from rummykit.engine.commands.parts import Part, Reading, Tail
from rummykit.engine.commands.said import said_text
from rummykit.engine.core import Action
from rummykit.errors import ParseError

# -- the declaration --------------------------------------------------------------------


class Command:
    """An action's words, as its class declares them (``COMMAND = Command(...)``).

    ``parts`` follow the verb in order; :class:`Tail` parts come last.
    ``verb`` is the record's verb (by default the action's ``type``),
    ``said`` the verb a person types (by default the same), ``aliases`` other
    words a person may type for it (two words allowed: ``lay off``),
    ``option`` the game option that must be on for the command to be
    offered, ``help`` its help line (by default the first line of the
    class's docstring), and ``typed`` False for an action a person never
    types whole (a free table's play, which a person drafts step by step):
    it has no help row and no typed word.
    """

    __slots__ = ("aliases", "help", "option", "parts", "said", "typed", "verb")

    def __init__(
        self,
        *parts: Part | Tail,
        verb: str = "",
        said: str = "",
        aliases: tuple[str, ...] = (),
        option: str = "",
        help: str = "",
        typed: bool = True,
    ) -> None:
        self.parts = parts
        self.typed = typed
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
        self.typed = command.typed
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

    def said_text(self, action: Action) -> str:
        """The action in a person's words, for a list of moves (see :mod:`rummykit.engine.commands.said`)."""
        return said_text(self, action)

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
