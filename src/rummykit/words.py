"""Counted nouns for every message rummykit writes: ``1 tile``, ``2 tiles``, ``3 dominoes``, ``twice``.

Every layer words its messages with these (the engine's refusals, the meld
checks, the presenters), so a count never reads "1 missing numbers" or
"3 dominos".

>>> counted(1, 'tile'), counted(2, 'tile'), counted(3, 'domino'), counted(0, 'joker', zero='no')
('1 tile', '2 tiles', '3 dominoes', 'no jokers')
>>> counted(1, 'missing number'), counted(2, 'gap'), counted(2, 'new set')
('1 missing number', '2 gaps', '2 new sets')
>>> times(1), times(2), times(3)
('once', 'twice', '3 times')
"""

from __future__ import annotations

__all__ = ["counted", "plural_of", "times"]

_IRREGULAR = {"domino": "dominoes"}


def plural_of(noun: str) -> str:
    """The plural of a noun or of a phrase ending in one (``penalty domino`` -> ``penalty dominoes``).

    >>> plural_of('tile'), plural_of('penalty domino'), plural_of('column'), plural_of('pass')
    ('tiles', 'penalty dominoes', 'columns', 'passes')
    """
    head, sep, last = noun.rpartition(" ")
    if last in _IRREGULAR:
        return f"{head}{sep}{_IRREGULAR[last]}"
    if last.endswith(("s", "x", "ch", "sh")):
        return f"{noun}es"
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        return f"{noun[:-1]}ies"
    return f"{noun}s"


def counted(n: int, noun: str, plural: str | None = None, *, zero: str | None = None) -> str:
    """``n`` and the noun in the right number; ``plural`` overrides the derived plural form.

    ``zero`` replaces the number 0 by a word (``no jokers``).
    """
    word = noun if n == 1 else (plural or plural_of(noun))
    number = zero if n == 0 and zero is not None else str(n)
    return f"{number} {word}"


def times(n: int) -> str:
    """How often something occurs: ``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
