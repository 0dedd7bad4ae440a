"""The kinds of part an action's words are made of (see :mod:`rummykit.engine.commands`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, cast

from rummykit.errors import ParseError

View = Mapping[str, object]
"""A seat's view, as a game's ``view()`` returns it (for parts a screen's numbers may name)."""

SHOWN_FROM = 1
"""The number a person sees for position 0: every typed position counts from here."""


class Reading(NamedTuple):
    """What a part reads words for: the whole text (for messages), typed by a person or not, the view,
    and the game's reader of pieces (a text of pieces to the pieces) for parts shared by games whose
    pieces differ (a free table's play: tiles in one game, dominoes in another)."""

    text: str
    typed: bool = False
    view: View | None = None
    pieces: Callable[[str], Sequence[object]] | None = None


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
class Target(Position):
    """A position, or a word that stands for none (None): ``new`` for a set not made yet."""

    none: str = "new"
    plain: ClassVar[bool] = False

    def label(self, typed: bool) -> str:
        return f"{super().label(typed)}|{self.none}"

    def choices(self) -> tuple[str, ...]:
        return (self.none,)

    def word(self, value: object, typed: bool) -> str:
        return self.none if value is None else super().word(value, typed)

    def value(self, word: str, reading: Reading) -> object:
        return None if word.lower() == self.none else super().value(word, reading)


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
class GamePiece(Part):
    """A piece read by the game's reader (:attr:`Reading.pieces`): a part shared by games whose pieces differ."""

    def value(self, word: str, reading: Reading) -> object:
        if reading.pieces is None:
            raise ParseError(f"a {self.thing()} is read with its game's pieces")
        found = list(reading.pieces(word))
        if len(found) != 1:
            raise ParseError(f"one {self.thing()} per word, got {word!r}")
        return found[0]


@dataclass(frozen=True)
class GamePieces(GamePiece):
    """Several pieces (at least one) read by the game's reader, up to the next keyword."""

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
