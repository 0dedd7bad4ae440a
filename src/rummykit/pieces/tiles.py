"""Number tiles and jokers for tile rummy.

A tile is written as a colour letter and a number, a joker as ``J``::

    K = black, B = blue, O = orange, R = red        e.g. R7, K13, J

Parsing ignores case; printing is canonical. Tiles are interned, immutable
values: ``Tile.parse('r7') is Tile.parse('R7')``.

>>> Tile.parse('r7')
Tile.parse('R7')
>>> str(Tile(Colour.BLACK, 13)), str(JOKER)
('K13', 'J')
>>> sorted(parse_tiles('J R7 K13 b2'))
[Tile.parse('K13'), Tile.parse('B2'), Tile.parse('R7'), Tile.parse('J')]
>>> Tile.parse('R7').points, JOKER.points
(7, 30)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar

from rummykit.errors import ParseError

MAX_NUMBER = 13
JOKER_POINTS = 30


class Colour(enum.Enum):
    """The four tile colours, in canonical order. ``value`` is the notation letter."""

    BLACK = "K"
    BLUE = "B"
    ORANGE = "O"
    RED = "R"

    # Members are singletons: identity hashing is exact and much cheaper than Enum's.
    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        """The notation letter (``K``, ``B``, ``O`` or ``R``)."""
        return self.value

    @property
    def index(self) -> int:
        """Position in the canonical colour order (0..3)."""
        return _COLOUR_INDEX[self]

    @property
    def palette_name(self) -> str:
        """The seed's display name (a palette an interface may use instead of hue names)."""
        return _PALETTE[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
_PALETTE = {
    Colour.BLACK: "cornflower",
    Colour.BLUE: "cobalt",
    Colour.ORANGE: "chartreuse",
    Colour.RED: "pink",
}


class Tile:
    """A number tile (colour, 1..13) or the joker (``colour`` None, ``number`` 0).

    Tiles are interned, so equal tiles are the same object; they hash, compare
    and sort (by colour, then number, jokers last). They hash by identity (the
    fastest hash), so a set of tiles iterates in an order that changes from
    process to process: never let that order decide anything (sort by
    ``code``, or dedupe with ``dict.fromkeys``; see docs/architecture.md).
    """

    __slots__ = ("_text", "code", "colour", "number")
    IMMUTABLE: ClassVar[bool] = True
    """Tiles never change (``rummykit.engine.core.clone`` shares them)."""
    _interned: ClassVar[dict[tuple[Colour | None, int], Tile]] = {}

    colour: Colour | None
    number: int
    code: int
    _text: str

    def __new__(cls, colour: Colour | None, number: int) -> Tile:
        key = (colour, number)
        tile = cls._interned.get(key)
        if tile is not None:
            return tile
        if colour is None:
            if number != 0:
                raise ParseError(f"a joker has no number, got {number}")
        elif not isinstance(number, int) or not 1 <= number <= MAX_NUMBER:
            raise ParseError(f"tile numbers run from 1 to {MAX_NUMBER}, got {number!r}")
        tile = object.__new__(cls)
        object.__setattr__(tile, "colour", colour)
        object.__setattr__(tile, "number", number)
        if colour is None:
            object.__setattr__(tile, "code", len(COLOURS) * MAX_NUMBER)
            object.__setattr__(tile, "_text", "J")
        else:
            object.__setattr__(tile, "code", colour.index * MAX_NUMBER + number - 1)
            object.__setattr__(tile, "_text", f"{colour.letter}{number}")
        cls._interned[key] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[Colour | None, int]]:
        return (Tile, (self.colour, self.number))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile in notation (``R7``, ``k13``, ``J``)."""
        tile = _PARSE_CACHE.get(text)
        if tile is not None:
            return tile
        t = text.strip().upper()
        tile = _PARSE_CACHE.get(t)
        if tile is not None:
            return tile
        raise ParseError(
            f"bad tile {text!r}: write a colour letter K, B, O or R and a number 1..13"
            " (e.g. R7, K13), or J for a joker"
        )

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.colour is None

    @property
    def points(self) -> int:
        """Penalty value in a rack: the number, or 30 for a joker."""
        return JOKER_POINTS if self.colour is None else self.number

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile.parse({self._text!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.code < other.code

    def __le__(self, other: Tile) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Tile) -> bool:
        return self.code > other.code

    def __ge__(self, other: Tile) -> bool:
        return self.code >= other.code


JOKER = Tile(None, 0)
ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(c, n) for c in COLOURS for n in range(1, MAX_NUMBER + 1)
) + (JOKER,)
"""Every distinct tile, indexed by ``Tile.code``."""

_PARSE_CACHE: dict[str, Tile] = {str(t): t for t in ALL_TILES}


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Read tiles separated by spaces or commas (or an iterable of tile texts).

    >>> parse_tiles('R1, r2 J')
    [Tile.parse('R1'), Tile.parse('R2'), Tile.parse('J')]
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else text
    get = _PARSE_CACHE.get
    out = []
    for w in words:
        tile = get(w)
        out.append(tile if tile is not None else Tile.parse(w))
    return out


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in notation, separated by single spaces.

    >>> format_tiles(parse_tiles('r1 j'))
    'R1 J'
    """
    return " ".join(t._text for t in tiles)


def number_order(tile: Tile) -> tuple[int, int]:
    """Sort key: number first, then colour (jokers last)."""
    return (tile.number if tile.colour is not None else MAX_NUMBER + 1, tile.code)
