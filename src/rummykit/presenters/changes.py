"""What a play changed on a free table: which pieces are new, which moved, from which set to which.

A presenter knows the table before a play (from the last view or event it
showed) and the table after it (from the ``play`` event); this module
compares the two, as plain lists of piece texts. It judges nothing: a set is
followed from one table to the next by the pieces it keeps.

Each set after the play is matched with the set before it that it keeps most
of, preferring an identical set, then the set in the same place; the pieces a
set gained are *new* (:data:`~rummykit.presenters.text.NEW`) when they came
from the player's rack and *moved* (:data:`~rummykit.presenters.text.MOVED`)
when they came from another set.

>>> before = [['R1', 'R2', 'R3'], ['K4', 'K5', 'K6', 'K7']]
>>> after = [['R1', 'R2', 'R3', 'R4'], ['K5', 'K6', 'K7'], ['K4', 'B4', 'O4']]
>>> change = table_changes(before, after, placed=['R4', 'B4', 'O4'])
>>> change.marks
[['', '', '', '+'], ['', '', ''], ['*', '+', '+']]
>>> change.moved, change.new_sets, change.gone
([('K4', 2, 3)], [3], [])
>>> moved_text(change)
'K4 from set 2 to set 3'
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rummykit.engine.commands import SHOWN_FROM
from rummykit.presenters.text import MOVED, NEW

__all__ = ["TableChange", "match_sets", "moved_text", "table_changes"]

Sets = Sequence[Sequence[str]]


@dataclass(frozen=True)
class TableChange:
    """How one table became the next.

    ``marks`` has one list per set after the play, one mark per piece (``+``
    new from the rack, ``*`` moved from another set, ``""`` kept);
    ``moved`` lists (piece, set before, set after) for every moved piece,
    sets numbered from 1 as on the screen; ``new_sets`` the numbers of the
    sets that were not there before; ``gone`` those of the sets before that
    no set continues.
    """

    marks: list[list[str]]
    moved: list[tuple[str, int, int]] = field(default_factory=list)
    new_sets: list[int] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)

    @property
    def any(self) -> bool:
        """True when some piece is marked."""
        return any(m for marks in self.marks for m in marks)


def match_sets(before: Sets, after: Sets) -> dict[int, int]:
    """Each set after (index) matched with the set before it continues (index), one to one.

    Identical sets first (in the same place first), then sets in the same
    place that share a piece, then by the most pieces shared.

    >>> match_sets([['A', 'B', 'C'], ['D', 'E', 'F']], [['D', 'E', 'F'], ['A', 'B', 'C', 'G']])
    {0: 1, 1: 0}
    """
    return _match(before, after, _kept(before, after))


def _kept(before: Sets, after: Sets) -> set[int]:
    """The places whose set a play left as it was (and not empty): each is matched with itself, ahead of any other pair.

    Most of a table is kept by a play, so only the rest is compared piece by piece.
    """
    return {
        i for i in range(min(len(before), len(after)))
        if after[i] and (after[i] == before[i] or (type(after[i]) is not type(before[i]) and list(after[i]) == list(before[i])))
    }


def _match(before: Sets, after: Sets, kept: set[int]) -> dict[int, int]:
    """:func:`match_sets`, the places ``kept`` matched with themselves already."""
    # Where each piece lies before (set, copies), so only the pairs of sets that share a piece are looked at.
    holders: dict[str, list[tuple[int, int]]] = {}
    for k, old in enumerate(before):
        if k in kept:
            continue
        for piece, copies in Counter(old).items():
            holders.setdefault(piece, []).append((k, copies))
    pairs = []
    for i, new in enumerate(after):
        if i in kept:
            continue
        common: dict[int, int] = {}
        for piece, copies in Counter(new).items():
            for k, there in holders.get(piece, ()):
                common[k] = common.get(k, 0) + min(copies, there)
        for k, shared in common.items():
            same = list(new) == list(before[k])
            pairs.append((not same, i != k, -shared, abs(i - k), i, k))
    pairs.sort()
    matched: dict[int, int] = {i: i for i in sorted(kept)}
    used: set[int] = set(kept)
    for *_, i, k in pairs:
        if i not in matched and k not in used:
            matched[i] = k
            used.add(k)
    return matched


def table_changes(before: Sets, after: Sets, placed: Sequence[str]) -> TableChange:
    """The marks and moves that turn ``before`` into ``after``, ``placed`` being the pieces from the rack.

    The answer (which nobody changes: treat it as read-only) is kept for the
    last few tables asked about, since every seat's narrator and the
    spectators' ask about each play.
    """
    return _table_changes(tuple(map(tuple, before)), tuple(map(tuple, after)), tuple(placed))


@functools.lru_cache(maxsize=64)
def _table_changes(before: Sets, after: Sets, placed: Sequence[str]) -> TableChange:
    kept = _kept(before, after)
    matched = _match(before, after, kept)
    rack = Counter(placed)
    # What each set before lost to the set that continues it: the pieces free to have moved elsewhere
    # (a kept set keeps them all: it has none to give).
    left = {k: Counter(s) for k, s in enumerate(before) if k not in kept}
    for i, k in matched.items():
        if i not in kept:
            left[k] -= Counter(after[i])
    marks: list[list[str]] = []
    moved: list[tuple[str, int, int]] = []
    for i, new in enumerate(after):
        if i in kept:
            marks.append([""] * len(new))
            continue
        gained = Counter(new) - (Counter(before[matched[i]]) if i in matched else Counter())
        row: list[str] = []
        for piece in new:
            if not gained[piece]:
                row.append("")
                continue
            gained[piece] -= 1
            if rack[piece]:
                rack[piece] -= 1
                row.append(NEW)
                continue
            row.append(MOVED)
            source = next((k for k, rest in left.items() if rest[piece]), None)
            if source is not None:
                left[source][piece] -= 1
                moved.append((piece, source + SHOWN_FROM, i + SHOWN_FROM))
        marks.append(row)
    new_sets = [i + SHOWN_FROM for i in range(len(after)) if i not in matched]
    used = set(matched.values())
    gone = [k + SHOWN_FROM for k in range(len(before)) if k not in used]
    return TableChange(marks, moved, new_sets, gone)


def moved_text(change: TableChange) -> str:
    """The moves in words, pieces grouped by the sets they moved between (``""`` when nothing moved).

    >>> moved_text(TableChange([], [('B6', 4, 12), ('B7', 4, 12), ('K4', 8, 13)]))
    'B6 B7 from set 4 to set 12; K4 from set 8 to set 13'
    """
    groups: dict[tuple[int, int], list[str]] = {}
    for piece, source, target in change.moved:
        groups.setdefault((source, target), []).append(piece)
    return "; ".join(f"{' '.join(pieces)} from set {a} to set {b}" for (a, b), pieces in groups.items())
