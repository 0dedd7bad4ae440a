"""Dominoes: an unordered pair of pip counts, written low-high (``3-5``).

A domino's identity is its canonical low/high pair: ``5-3`` and ``3-5`` are
the same domino. How a domino lies on a table (which half faces where) belongs
to the placement, never to the domino. Dominoes are interned values that hash,
compare and sort (by low half, then high half).

>>> Domino.parse('5-3')
Domino.parse('3-5')
>>> Domino.parse('5:3') is Domino(3, 5), str(Domino(6, 6)), Domino(6, 6).is_double
(True, '6-6', True)
>>> Domino(2, 4).pips, Domino(2, 4).other(4)
(6, 2)
>>> [str(d) for d in double_set(2)]
['0-0', '0-1', '0-2', '1-1', '1-2', '2-2']
>>> len(double_set(6)), len(double_set(9)), len(double_set(12))
(28, 55, 91)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from rummykit.errors import ParseError

MAX_PIPS = 18
"""The largest half any supported set uses (a double-18 set)."""

_PARSED: dict[str, Domino] = {}
"""Texts already read (bounded), so views full of dominoes parse quickly."""

_TEXT = re.compile(r"^\s*(\d{1,2})\s*[-:/]\s*(\d{1,2})\s*$")


class Domino:
    """A domino with halves ``low <= high`` (0..18).

    Interned, and hashed by identity (the fastest hash): a set of dominoes
    iterates in an order that changes from process to process, so never let
    that order decide anything (sort by ``code``, or dedupe with
    ``dict.fromkeys``; see docs/architecture.md).
    """

    __slots__ = ("_text", "code", "high", "low")
    IMMUTABLE: ClassVar[bool] = True
    """Dominoes never change (``rummykit.engine.core.clone`` shares them)."""
    _interned: ClassVar[dict[tuple[int, int], Domino]] = {}

    low: int
    high: int
    code: int
    _text: str

    def __new__(cls, a: int, b: int) -> Domino:
        low, high = (a, b) if a <= b else (b, a)
        key = (low, high)
        domino = cls._interned.get(key)
        if domino is not None:
            return domino
        for half in key:
            if isinstance(half, bool) or not isinstance(half, int) or not 0 <= half <= MAX_PIPS:
                raise ParseError(f"a domino half is a whole number 0..{MAX_PIPS}, got {half!r}")
        domino = object.__new__(cls)
        object.__setattr__(domino, "low", low)
        object.__setattr__(domino, "high", high)
        object.__setattr__(domino, "code", low * (MAX_PIPS + 1) + high)
        object.__setattr__(domino, "_text", f"{low}-{high}")
        cls._interned[key] = domino
        return domino

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Domino is immutable")

    def __reduce__(self) -> tuple[type[Domino], tuple[int, int]]:
        return (Domino, (self.low, self.high))

    @classmethod
    def parse(cls, text: str) -> Domino:
        """Read a domino: two halves separated by ``-`` (also ``:`` or ``/``), either order."""
        domino = _PARSED.get(text)
        if domino is not None:
            return domino
        m = _TEXT.match(text)
        if m is None:
            raise ParseError(f"bad domino {text!r}: write its two halves like 3-5")
        domino = cls(int(m.group(1)), int(m.group(2)))
        if len(_PARSED) < 4096:
            _PARSED[text] = domino
        return domino

    @property
    def is_double(self) -> bool:
        """True for a double (both halves equal)."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """The total of both halves."""
        return self.low + self.high

    def other(self, half: int) -> int:
        """The half opposite ``half`` (which must be one of this domino's halves)."""
        if half == self.low:
            return self.high
        if half == self.high:
            return self.low
        raise ValueError(f"{self} has no half {half}")

    def has(self, half: int) -> bool:
        """True when either half is ``half``."""
        return half in (self.low, self.high)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Domino.parse({self._text!r})"

    def __lt__(self, other: Domino) -> bool:
        return self.code < other.code

    def __le__(self, other: Domino) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Domino) -> bool:
        return self.code > other.code

    def __ge__(self, other: Domino) -> bool:
        return self.code >= other.code


def double_set(top: int) -> list[Domino]:
    """Every domino of a double-``top`` set, sorted."""
    if not 0 <= top <= MAX_PIPS:
        raise ParseError(f"a double-N set needs N in 0..{MAX_PIPS}, got {top}")
    return [Domino(a, b) for a in range(top + 1) for b in range(a, top + 1)]


def parse_dominoes(text: str | Iterable[str]) -> list[Domino]:
    """Read dominoes separated by spaces or commas.

    >>> parse_dominoes('5-3, 0-0 6:6')
    [Domino.parse('3-5'), Domino.parse('0-0'), Domino.parse('6-6')]
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Domino.parse(w) for w in words]


def format_dominoes(dominoes: Iterable[Domino]) -> str:
    """Write dominoes in notation, separated by single spaces."""
    return " ".join(d._text for d in dominoes)
