"""Columns with two ends ("conveyors"): pieces face down or face up, drawn from one end.

A :class:`Conveyors` block holds a row of columns. Cell 0 of a column is its
``top`` end, the last cell its ``bottom`` end. A player may *claim* a whole
column (it leaves the table), *reveal* a face-down piece, *draw* the piece at
one end, and then must *discard* one piece, face up, to the **opposite end of
the same column**, so that every column keeps its length between turns.

The block knows nothing about players' hands or turns; a game moves pieces in
and out of it and asks it what each seat may see.

>>> from rummykit.pieces.dominoes import parse_dominoes
>>> belt = Conveyors.layout(parse_dominoes('0-0 0-1 0-2 1-1 1-2 2-2'), columns=2, length=3)
>>> belt.public_cells(0), belt.public_cells(1)
(['??', '0-1', '??'], ['??', '1-2', '??'])
>>> piece, was_up = belt.draw(1, 'top')
>>> str(piece), was_up, belt.pending
('1-1', False, (1, 'top'))
>>> belt.discard(piece)
'bottom'
>>> belt.public_cells(1)
['1-2', '??', '1-1']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from rummykit.errors import ParseError

P = TypeVar("P")

TOP = "top"
BOTTOM = "bottom"
ENDS = (TOP, BOTTOM)
UNKNOWN = "??"
"""What a face-down piece looks like to everyone."""


def opposite(end: str) -> str:
    """The other end of a column.

    >>> opposite('top'), opposite('bottom')
    ('bottom', 'top')
    """
    if end == TOP:
        return BOTTOM
    if end == BOTTOM:
        return TOP
    raise ParseError(f"a column's ends are 'top' and 'bottom', got {end!r}")


def middle(length: int) -> int:
    """The cell turned face up at the start: the middle one (of two middles, the upper).

    >>> middle(11), middle(13), middle(7), middle(4)
    (5, 6, 3, 1)
    """
    return (length - 1) // 2


class Conveyors(Generic[P]):
    """Columns of pieces with face-up marks, claim marks and one pending draw."""

    __slots__ = ("_cells", "claimed_by", "columns", "length", "pending", "up")

    def __init__(
        self,
        columns: Sequence[Sequence[P]],
        up: Sequence[Sequence[bool]],
        claimed_by: Sequence[int | None],
        length: int,
    ) -> None:
        self.columns: list[list[P]] = [list(c) for c in columns]
        self.up: list[list[bool]] = [list(u) for u in up]
        self.claimed_by: list[int | None] = list(claimed_by)
        self.length = length
        self.pending: tuple[int, str] | None = None
        """The column and end of a draw that awaits its discard."""
        self._cells: list[tuple[str, ...] | None] = [None] * len(self.columns)
        """Each column's public cells, cached until it changes (immutable, so copies may share them)."""

    @classmethod
    def layout(cls, pieces: Sequence[P], *, columns: int, length: int) -> Conveyors[P]:
        """Lay ``pieces`` (already shuffled) in columns, top to bottom, the middle cell of each face up."""
        if columns * length != len(pieces):
            raise ValueError(f"{columns} columns of {length} need {columns * length} pieces, not {len(pieces)}")
        cols = [list(pieces[c * length : (c + 1) * length]) for c in range(columns)]
        m = middle(length)
        up = [[i == m for i in range(length)] for _ in range(columns)]
        return cls(cols, up, [None] * columns, length)

    def copy(self) -> Conveyors[P]:
        """An independent copy (it shares only pieces and the immutable cached cells)."""
        other = Conveyors(self.columns, self.up, self.claimed_by, self.length)
        other.pending = self.pending
        other._cells = list(self._cells)
        return other

    # -- questions ---------------------------------------------------------------

    @property
    def count(self) -> int:
        """The number of columns (claimed ones included)."""
        return len(self.columns)

    def has_column(self, column: int) -> bool:
        """True when ``column`` is a column number of this block."""
        return 0 <= column < len(self.columns)

    def is_open(self, column: int) -> bool:
        """True for a column nobody has claimed (a conveyor, once play starts)."""
        return self.has_column(column) and self.claimed_by[column] is None

    def open_columns(self) -> list[int]:
        """The unclaimed columns, in order."""
        return [c for c, owner in enumerate(self.claimed_by) if owner is None]

    def face_down(self, column: int) -> list[int]:
        """The face-down cells of a column, top first."""
        return [i for i, up in enumerate(self.up[column]) if not up]

    def any_face_down(self) -> bool:
        """True when some unclaimed column still has a face-down piece."""
        return any(not all(self.up[c]) for c in self.open_columns())

    def end_index(self, column: int, end: str) -> int:
        """The cell at ``end`` of a column."""
        return 0 if end == TOP else len(self.columns[column]) - 1

    def at_end(self, column: int, end: str) -> tuple[P, bool]:
        """The piece at ``end`` of a column and whether it is face up."""
        i = self.end_index(column, end)
        return self.columns[column][i], self.up[column][i]

    def public_cells(self, column: int, unknown: str = UNKNOWN) -> list[str]:
        """A column as everyone sees it, top first: face-up pieces, ``??`` for face-down ones."""
        if unknown != UNKNOWN:
            return [str(p) if up else unknown for p, up in zip(self.columns[column], self.up[column], strict=True)]
        cells = self._cells[column]
        if cells is None:
            cells = tuple(str(p) if up else UNKNOWN for p, up in zip(self.columns[column], self.up[column], strict=True))
            self._cells[column] = cells
        return list(cells)

    def forget_cells(self) -> None:
        """Forget the public cells kept of every column (after its pieces were changed in place)."""
        self._cells = [None] * len(self.columns)

    def lengths_constant(self) -> bool:
        """True when every unclaimed column has its full length (no draw pending)."""
        return self.pending is None and all(len(self.columns[c]) == self.length for c in self.open_columns())

    # -- moves (the caller checks the rules first) -----------------------------------

    def reveal(self, column: int, index: int) -> P:
        """Turn a face-down piece face up and return it."""
        self.up[column][index] = True
        self._cells[column] = None
        return self.columns[column][index]

    def claim(self, column: int, seat: int) -> list[tuple[P, bool]]:
        """Take a whole column for ``seat``: its pieces, top first, with their face-up marks."""
        taken = list(zip(self.columns[column], self.up[column], strict=True))
        self.columns[column] = []
        self.up[column] = []
        self.claimed_by[column] = seat
        self._cells[column] = None
        return taken

    def draw(self, column: int, end: str) -> tuple[P, bool]:
        """Take the piece at ``end``; the column is one short until :meth:`discard`."""
        if self.pending is not None:
            raise ValueError("a draw is already waiting for its discard")
        i = self.end_index(column, end)
        piece = self.columns[column].pop(i)
        was_up = self.up[column].pop(i)
        self.pending = (column, end)
        self._cells[column] = None
        return piece, was_up

    def discard(self, piece: P) -> str:
        """Put ``piece`` face up at the end opposite the pending draw; returns that end."""
        if self.pending is None:
            raise ValueError("nothing was drawn, so there is no end to discard to")
        column, end = self.pending
        to = opposite(end)
        if to == TOP:
            self.columns[column].insert(0, piece)
            self.up[column].insert(0, True)
        else:
            self.columns[column].append(piece)
            self.up[column].append(True)
        self.pending = None
        self._cells[column] = None
        return to
