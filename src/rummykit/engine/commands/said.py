"""An action in a person's words: what a moves list shows for it (the browser's and the terminal app's).

The typed command (``reveal 3 4``) is what a person types; the said text is
what a person reads in a list of moves: the same parts, each named, every
position counted from 1 as screens count, pieces by name rather than by
notation (``reveal column 3, cell 4``; ``meld 3 dominoes: 3-4, 3-5, 3-6``;
``play 3 tiles: red 9, red 10, red 11 (table of 4 sets)``). It is derived
from the action class's ``COMMAND`` declaration, like the other forms; no
game writes it by hand.

>>> from rummykit.pieces.tiles import parse_tiles
>>> name_piece(parse_tiles("R7")[0]), name_piece(parse_tiles("J")[0])
('red 7', 'joker')
>>> name_pieces(parse_tiles("R9 R10 R11"))
'3 tiles: red 9, red 10, red 11'
>>> natural_key("reveal column 10, cell 2") > natural_key("reveal column 2, cell 10")
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING, cast

from rummykit.engine.commands.parts import SHOWN_FROM, Choice, Part, Piece, Position, Target, Word
from rummykit.pieces.text import keeps_notation

if TYPE_CHECKING:
    from rummykit.engine.commands.syntax import Syntax
    from rummykit.engine.core import Action

__all__ = ["name_piece", "name_pieces", "natural_key", "said_text"]

_COLOUR_WORDS = {"K": "black", "B": "blue", "O": "orange", "R": "red"}
_TILE = re.compile(r"^([KBOR])(\d{1,2})$")
_DOMINO = re.compile(r"^\d{1,2}-\d{1,2}$")


def _fields(obj: object, *names: str) -> tuple[object, ...]:
    """Some attributes of an object whose class this module does not import (a grid's change)."""
    return tuple(getattr(obj, name) for name in names)


def _kind(piece: object) -> str:
    """The kind of piece, as a plural noun: tiles, dominoes, cards (pieces when unknown)."""
    if hasattr(piece, "row") and hasattr(piece, "col") and hasattr(piece, "piece"):
        return _kind(_fields(piece, "piece")[0])
    text = str(piece)
    if hasattr(piece, "suit") and hasattr(piece, "rank"):
        return "cards"
    if _DOMINO.match(text):
        return "dominoes"
    if _TILE.match(text) or text == "J":
        return "tiles"
    return "pieces"


def name_piece(piece: object) -> str:
    """One piece by name: ``red 7``, ``joker``, ``3-6`` (a domino), ``queen of hearts``; a grid change with its cell.

    A piece of a kind that keeps its notation (:mod:`rummykit.pieces.text`: every tile, domino and card,
    each made once) is named once and its name kept (:data:`_NAMES`, as many as there are pieces).
    """
    try:
        name = _NAMES.get(piece)
    except TypeError:  # a value that does not hash
        name = None
    if name is None:
        name = _name_of(piece)
        if keeps_notation(type(piece)):
            _NAMES[piece] = name
    return name


_NAMES: dict[object, str] = {}
"""Each piece's name (see :func:`name_piece`)."""


def _name_of(piece: object) -> str:
    if hasattr(piece, "row") and hasattr(piece, "col") and hasattr(piece, "piece"):
        row, col, inner = _fields(piece, "row", "col", "piece")
        what = "empty" if inner is None or str(inner) == "." else name_piece(inner)
        return f"{what} at {cast(int, row) + SHOWN_FROM},{cast(int, col) + SHOWN_FROM}"
    if hasattr(piece, "suit") and hasattr(piece, "rank"):
        name = getattr(piece, "name", None)
        if isinstance(name, str):
            return name
    text = str(piece)
    tile = _TILE.match(text)
    if tile:
        return f"{_COLOUR_WORDS[tile.group(1)]} {int(tile.group(2))}"
    if text in ("J", "JOKER"):
        return "joker"
    return text


def name_pieces(pieces: Sequence[object]) -> str:
    """Several pieces by name, counted: ``3 tiles: red 9, red 10, red 11`` (one piece: its name)."""
    if len(pieces) == 1:
        return _one(pieces[0])
    kind = _kind(pieces[0]) if pieces else "pieces"
    return f"{len(pieces)} {kind}: {', '.join(name_piece(p) for p in pieces)}"


def _one(piece: object) -> str:
    """One piece alone in a sentence: a domino says it is one (``domino 3-6``)."""
    name = name_piece(piece)
    return f"domino {name}" if _DOMINO.match(name) else name


def _is_table(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and all(map(isinstance, value, repeat(tuple)))


def _part_said(part: Part, values: Sequence[object]) -> str:
    """One part's values in words."""
    if isinstance(part, Target) and values[0] is None:
        return f"a {part.none} {part.thing()}"
    if isinstance(part, Position):
        return f"{part.thing()} {cast(int, values[0]) + SHOWN_FROM}"
    if isinstance(part, Choice):
        return str(values[0])
    if isinstance(part, Word):
        return f"{part.thing()} {values[0]}"
    if isinstance(part, Piece) and not part.many:
        if part.thing() == "meld":
            return f"the meld with {name_piece(values[0])}"
        return _one(values[0])
    if part.many and len(values) == 1 and isinstance(values[0], tuple):
        return name_pieces(values[0]) if values[0] else "nothing"
    # a part of several fields: pieces, then whatever the rest says (a free table's whole table)
    words: list[str] = []
    for value in values:
        if _is_table(value):
            sets = len(cast("tuple[object, ...]", value))
            words.append(f"(table of {sets} set{'s' if sets != 1 else ''})")
        elif isinstance(value, tuple):
            words.append(name_pieces(value) if value else "no piece")
        elif value is None:
            continue
        elif isinstance(value, int) and not isinstance(value, bool):
            return " ".join(part.write(values, True))  # numbers only the part itself knows how to show
        else:
            words.append(name_piece(value))
    return " ".join(words) if words else " ".join(part.write(values, True))


def _verb(syntax: Syntax) -> str:
    """The verb as a person reads it: a two-word alias when there is one (``lay off``), else the said verb."""
    spaced = [a for a in syntax.aliases if " " in a]
    return spaced[0] if spaced else syntax.said


def said_text(syntax: Syntax, action: Action) -> str:
    """``action`` in a person's words: the verb, then each part named, positions from 1, pieces by name."""
    main: list[str] = []
    tails: list[str] = []
    for section in syntax.sections:
        parts = list(section.parts)
        if section.keyword and section.optional and all(
            getattr(action, name) == syntax.defaults[name] for p in parts for name in p.fields
        ):
            continue
        said = []
        for part in parts:
            if part is section.last and all(
                getattr(action, name) == syntax.defaults.get(name, object()) for name in part.fields
            ):
                continue
            said.append(_part_said(part, [getattr(action, name) for name in part.fields]))
        if section.keyword:
            tails.append(f"{section.keyword} {', '.join(said)}")
        else:
            main = said
    return " ".join([_verb(syntax), ", ".join(main), *tails]).replace("  ", " ").strip()


_NUMBER = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers in a text as numbers (``column 2`` before ``column 10``)."""
    return tuple((0, int(chunk)) if chunk.isdigit() else (1, chunk) for chunk in _NUMBER.split(text) if chunk)
