"""Pieces found in lists by identity: the answers of ``in``, ``count``, ``index`` and ``remove`` without ``==``.

Tiles, dominoes and cards are interned (equal pieces are one object) and
define their orderings (``<``, ``<=``, ...) in Python. That makes CPython
compare two *different* pieces for equality the slow way: ``==`` looks up
``__eq__`` in Python on one side, then (it answers NotImplemented) on the
other, and only then falls back to identity (a few hundred instructions,
where two ints or two identical objects take a few). ``piece in hand``,
``hand.remove(piece)``, ``hand.count(piece)`` and ``hand.index(piece)`` pay
that for every other piece they pass. For these kinds equality *is*
identity, so the functions below give the same answers by comparing
identities in C.

They take a list (or tuple) of the game's pieces and a piece; for a piece of
any other kind (``None`` aside, which is also equal only to itself) they fall
back to the list's own ``==``, so they may be used on any pieces.

>>> from rummykit.pieces.tiles import JOKER, parse_tiles
>>> rack = parse_tiles('R1 J K5 J')
>>> holds(rack, JOKER), count_of(rack, JOKER), index_of(rack, JOKER)
(True, 2, 1)
>>> remove_each(rack, parse_tiles('J K5')); rack
[Tile.parse('R1'), Tile.parse('J')]
>>> holds(rack, None), holds(['a', 'b'], 'b')
(False, True)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from operator import indexOf
from typing import Any

from rummykit.pieces.cards import Card
from rummykit.pieces.dominoes import Domino
from rummykit.pieces.tiles import Tile

__all__ = ["BY_IDENTITY", "count_of", "holds", "index_of", "remove_each", "remove_one"]

BY_IDENTITY: frozenset[type] = frozenset({Tile, Domino, Card, type(None)})
"""The kinds whose values are equal only to themselves (interned pieces, and None)."""

_is = operator.is_


def _same(items: Sequence[Any], piece: object) -> list[bool]:
    """For each item, whether it is ``piece`` (a list of that many copies of ``piece`` costs less to make than
    ``itertools.repeat``, whose arguments are parsed by keyword)."""
    return list(map(_is, items, [piece] * len(items)))


def holds(items: Sequence[Any], piece: object) -> bool:
    """``piece in items``."""
    if type(piece) in BY_IDENTITY:
        return True in map(_is, items, [piece] * len(items))
    return piece in items


def count_of(items: Sequence[Any], piece: object) -> int:
    """``items.count(piece)``."""
    if type(piece) in BY_IDENTITY:
        return _same(items, piece).count(True)
    return items.count(piece)


def index_of(items: Sequence[Any], piece: object) -> int:
    """``items.index(piece)`` (ValueError when it is not there); the items after it are not looked at."""
    if type(piece) in BY_IDENTITY:
        return indexOf(map(_is, items, [piece] * len(items)), True)
    return items.index(piece)


def remove_one(items: list[Any], piece: object) -> None:
    """``items.remove(piece)`` (ValueError when it is not there)."""
    del items[index_of(items, piece)]


def remove_each(items: list[Any], pieces: Iterable[object]) -> None:
    """``items.remove(p)`` for each ``p`` of ``pieces`` in turn (ValueError at the first that is not there, the
    pieces before it removed)."""
    for p in pieces:
        del items[index_of(items, p)]
