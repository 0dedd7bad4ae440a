"""The cells of a grid table: cells, lines, changes (:class:`Put`) and the :class:`Grid` itself.

Cells are ``(row, column)`` pairs of integers, negative ones included, as the
game's notation numbers them (records, actions, views); rows grow
downwards, columns to the right. Nothing here judges a grid
(:mod:`rummykit.blocks.grid_rules` does) or numbers cells for people (an
interface does, from the positions a refusal carries: see
:func:`line_words`).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import ClassVar, Generic, TypeAlias, TypeVar

from rummykit.errors import Param, ParseError

P = TypeVar("P")

Cell = tuple[int, int]
"""A cell: (row, column). Rows grow downwards, columns to the right."""

EMPTY = "."
"""An empty cell in a grid's text form (and in a :class:`Put` that empties a cell)."""


def cell_text(cell: Cell) -> str:
    """A cell in notation: ``ROW,COLUMN``.

    >>> cell_text((2, -3))
    '2,-3'
    """
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """Read a cell written ``ROW,COLUMN`` (whole numbers, negative allowed).

    >>> parse_cell(' 2, -3 ')
    (2, -3)
    >>> parse_cell('b4')
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: a cell is written ROW,COLUMN with whole numbers (e.g. 2,3 or -1,0), got 'b4'
    """
    row, sep, col = text.strip().partition(",")
    try:
        if not sep:
            raise ValueError
        return int(row), int(col)
    except ValueError:
        raise ParseError(
            f"a cell is written ROW,COLUMN with whole numbers (e.g. 2,3 or -1,0), got {text.strip()!r}"
        ) from None


Words: TypeAlias = tuple[str, dict[str, Param]]
"""A place in a refusal's words: a template naming its params in braces, and the params (positions from 0)."""


def cell_words(cell: Cell, name: str = "") -> Words:
    """A cell as a refusal names it, ``{row},{col}`` (params ``row``/``col``, or ``NAME_row``/``NAME_col``).

    The params are positions counted from 0 (the notation's numbers): an
    interface words them as its people count (:meth:`rummykit.errors.RuleError.worded`).

    >>> cell_words((2, -3))
    ('{row},{col}', {'row': 2, 'col': -3})
    """
    row, col = (f"{name}_row", f"{name}_col") if name else ("row", "col")
    return f"{{{row}}},{{{col}}}", {row: cell[0], col: cell[1]}


def where_words(cell: Cell, name: str = "") -> Words:
    """A cell in words, ``row {row}, column {col}`` (the params as :func:`cell_words` names them).

    >>> text, params = where_words((2, 3)); text.format_map(params)
    'row 2, column 3'
    """
    row, col = (f"{name}_row", f"{name}_col") if name else ("row", "col")
    return f"row {{{row}}}, column {{{col}}}", {row: cell[0], col: cell[1]}


def where_cell(cell: Cell) -> str:
    """``row 2, column 3``: a cell in words, as the notation numbers it."""
    text, params = where_words(cell)
    return text.format_map(params)


def line_words(line: Line, name: str = "line") -> Words:
    """A line in words as a template (``row {line_fixed}, columns {line_start}-{line_end}``) and its params.

    >>> text, params = line_words(Line(False, 3, 0, 2)); text, params
    ('column {line_fixed}, rows {line_start}-{line_end}', {'line_fixed': 3, 'line_start': 0, 'line_end': 2})
    """
    fixed, start, end = f"{name}_fixed", f"{name}_start", f"{name}_end"
    if line.across:
        text = f"row {{{fixed}}}, columns {{{start}}}-{{{end}}}"
    else:
        text = f"column {{{fixed}}}, rows {{{start}}}-{{{end}}}"
    return text, {fixed: line.fixed, start: line.start, end: line.end}


@dataclass(frozen=True, slots=True)
class Put(Generic[P]):
    """One cell of a turn's changes: what the cell holds at the end of the turn (``None``: empty).

    >>> from rummykit.pieces.tiles import Tile
    >>> put = Put.from_notation('2,3=r7', Tile.parse)
    >>> str(put), put.cell, str(Put(0, 1, None))
    ('2,3=R7', (2, 3), '0,1=.')
    """

    row: int
    col: int
    piece: P | None

    NOTATION: ClassVar[str] = (
        "a cell's content at the end of the turn: ROW,COLUMN=PIECE, or ROW,COLUMN=. for a cell left empty"
    )

    @property
    def cell(self) -> Cell:
        """The (row, column) of the change."""
        return (self.row, self.col)

    def __str__(self) -> str:
        return f"{self.row},{self.col}={EMPTY if self.piece is None else self.piece}"

    @classmethod
    def from_notation(cls, text: str, parse_piece: Callable[[str], P]) -> Put[P]:
        """Read ``ROW,COLUMN=PIECE`` (or ``ROW,COLUMN=.``) with the game's piece parser."""
        where, sep, what = text.strip().partition("=")
        if not sep or not what.strip():
            raise ParseError(f"a change is written ROW,COLUMN=PIECE (e.g. 2,3=R7) or ROW,COLUMN=., got {text!r}")
        row, col = parse_cell(where)
        what = what.strip()
        return cls(row, col, None if what == EMPTY else parse_piece(what))


@dataclass(frozen=True, slots=True)
class Line:
    """A maximal line of touching cells: a row read left to right (``across``) or a column read top to bottom.

    >>> Line(True, 2, 4, 5).where(), Line(False, 3, 0, 2).cells
    ('row 2, columns 4-5', ((0, 3), (1, 3), (2, 3)))
    """

    across: bool
    fixed: int
    """The row of a line across, the column of a line down."""
    start: int
    end: int
    """The first and last column (across) or row (down), inclusive."""

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells in reading order."""
        return _line_cells(self.across, self.fixed, self.start, self.end)

    def __len__(self) -> int:
        return self.end - self.start + 1

    def where(self) -> str:
        """The line in words, as the notation numbers it: ``row 2, columns 4-5`` or ``column 3, rows 1-4``."""
        text, params = line_words(self)
        return text.format_map(params)


_first = itemgetter(0)
"""A (cell, piece) pair's cell (calls sort by cell: one piece per cell)."""


class Grid(Generic[P]):
    """An immutable arrangement of pieces in cells, with the calls made on its jokers.

    ``calls`` maps the cell of a joker a player has called to the piece it was
    called; a call stays with its cell while that cell holds a joker. Changing
    a grid makes a new one (:meth:`changed`, :meth:`with_call`).
    """

    __slots__ = ("_calls", "_calls_key", "_cells", "_cells_memo", "_hash", "_key", "_lines", "_origin")
    IMMUTABLE: ClassVar[bool] = True
    """Grids never change (``rummykit.engine.core.clone`` shares them)."""

    def __init__(self, cells: Mapping[Cell, P] | None = None, calls: Mapping[Cell, P] | None = None) -> None:
        self._cells: dict[Cell, P] = dict(cells or {})
        self._calls: dict[Cell, P] = {}
        for cell, piece in (calls or {}).items():
            if cell not in self._cells:
                raise ValueError(f"a call on the empty cell {cell_text(cell)}")
            self._calls[cell] = piece
        self._calls_key: tuple[tuple[Cell, P], ...] | None = None
        self._lines: tuple[Line, ...] | None = None
        self._hash: int | None = None
        self._key: frozenset[tuple[Cell, P]] | None = None
        self._cells_memo: dict[object, object] | None = None
        self._origin: tuple[dict[object, object], frozenset[Cell]] | None = None

    # -- reading ---------------------------------------------------------------

    @property
    def cells(self) -> Mapping[Cell, P]:
        """Every occupied cell and its piece (do not change it)."""
        return self._cells

    def cells_key(self) -> frozenset[tuple[Cell, P]]:
        """The occupied cells and their pieces as a hashable value (made once per grid), for caches that
        depend on the pieces' places alone, not on the calls."""
        if self._key is None:
            self._key = frozenset(self._cells.items())
        return self._key

    def calls_key(self) -> tuple[tuple[Cell, P], ...]:
        """The calls as (cell, piece) pairs in cell order (made once per grid), for caches that depend on them."""
        key = self._calls_key
        if key is None:
            key = self._calls_key = tuple(sorted(self._calls.items(), key=_first))
        return key

    def cells_memo(self) -> dict[object, object]:
        """A place for what a game works out from the pieces' places alone (not the calls), by a name of its
        own (a key no other game uses): grids with the same pieces made by :meth:`with_call` share it."""
        if self._cells_memo is None:
            self._cells_memo = {}
        return self._cells_memo

    def origin(self) -> tuple[dict[object, object], frozenset[Cell]] | None:
        """For a grid made by :meth:`changed`: the :meth:`cells_memo` of the grid it was changed from, and the
        cells the changes set (so what was worked out there can be worked out again near them only)."""
        return self._origin

    @property
    def calls(self) -> Mapping[Cell, P]:
        """The called jokers: cell -> the piece it was called."""
        return self._calls

    def __getitem__(self, cell: Cell) -> P:
        return self._cells[cell]

    def get(self, cell: Cell) -> P | None:
        """The piece in ``cell``, or None."""
        return self._cells.get(cell)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self._cells))

    def pieces(self) -> list[P]:
        """Every piece on the grid, in reading order (row by row)."""
        return [self._cells[c] for c in sorted(self._cells)]

    def counts(self) -> Counter[P]:
        """The pieces on the grid as a multiset."""
        return Counter(self._cells.values())

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(top, left, bottom, right) of the occupied cells, or None for an empty grid."""
        if not self._cells:
            return None
        rows = [r for r, _ in self._cells]
        cols = [c for _, c in self._cells]
        return min(rows), min(cols), max(rows), max(cols)

    def lines(self) -> tuple[Line, ...]:
        """Every maximal line of 2 or more touching cells: rows first (top to bottom), then columns."""
        if self._lines is None:
            rows: dict[int, list[int]] = {}
            cols: dict[int, list[int]] = {}
            for r, c in self._cells:
                rows.setdefault(r, []).append(c)
                cols.setdefault(c, []).append(r)
            found = [_line(True, r, a, b) for r in sorted(rows) for a, b in _spans(rows[r]) if b > a]
            found += [_line(False, c, a, b) for c in sorted(cols) for a, b in _spans(cols[c]) if b > a]
            self._lines = tuple(found)
        return self._lines

    def lines_through(self, cell: Cell) -> list[Line]:
        """The (at most two) lines of 2+ cells that pass through ``cell``."""
        out: list[Line] = []
        r, c = cell
        if cell not in self._cells:
            return out
        left, right = c, c
        while (r, left - 1) in self._cells:
            left -= 1
        while (r, right + 1) in self._cells:
            right += 1
        if right > left:
            out.append(_line(True, r, left, right))
        top, bottom = r, r
        while (top - 1, c) in self._cells:
            top -= 1
        while (bottom + 1, c) in self._cells:
            bottom += 1
        if bottom > top:
            out.append(_line(False, c, top, bottom))
        return out

    # -- changing --------------------------------------------------------------

    def changed(self, changes: Iterable[Put[P]], is_joker: Callable[[P], bool]) -> Grid[P]:
        """The grid after ``changes`` (each sets one cell's content); calls stay on cells still holding a joker."""
        cells = self._cells.copy()  # (a dict's own copy: dict(...) would insert the cells one by one)
        touched = []
        for put in changes:
            cell = put.cell
            touched.append(cell)
            if put.piece is None:
                cells.pop(cell, None)
            else:
                cells[cell] = put.piece
        calls = {c: p for c, p in self._calls.items() if c in cells and is_joker(cells[c])}
        # Grid(cells, calls) without copying the new cells again (every call is on one of them).
        new: Grid[P] = object.__new__(Grid)
        new._cells = cells
        new._calls = calls
        new._calls_key = None
        new._lines = None
        new._hash = None
        new._key = None
        new._cells_memo = None
        new._origin = (self.cells_memo(), frozenset(touched))
        return new

    def with_call(self, cell: Cell, piece: P) -> Grid[P]:
        """The same grid with the joker in ``cell`` called ``piece``."""
        new = Grid(self._cells, {**self._calls, cell: piece})
        new._cells_memo = self.cells_memo()
        new._origin = self._origin
        return new

    def only(self, cells: Iterable[Cell]) -> Grid[P]:
        """The grid of ``cells`` alone (each an occupied cell of this one), with their calls."""
        kept = {c: self._cells[c] for c in cells}
        return Grid(kept, {c: p for c, p in self._calls.items() if c in kept})

    def diff(self, other: Grid[P]) -> tuple[Put[P], ...]:
        """The fewest changes that turn this grid into ``other`` (calls aside), in cell order."""
        out = []
        for cell in sorted(set(self._cells) | set(other._cells)):
            mine, theirs = self._cells.get(cell), other._cells.get(cell)
            if mine != theirs:
                out.append(Put(cell[0], cell[1], theirs))
        return tuple(out)

    # -- text ------------------------------------------------------------------

    def rows(self) -> list[tuple[int, list[P | None]]]:
        """Each row from the top one to the bottom one: (row, its cells from the leftmost column of the
        grid to the row's last piece, None for an empty cell)."""
        box = self.bounds()
        if box is None:
            return []
        top, left, bottom, _ = box
        out: list[tuple[int, list[P | None]]] = []
        for r in range(top, bottom + 1):
            cols = [c for rr, c in self._cells if rr == r]
            last = max(cols) if cols else left - 1
            out.append((r, [self._cells.get((r, c)) for c in range(left, last + 1)]))
        return out

    def _token(self, cell: Cell, piece: P | None) -> str:
        if piece is None:
            return EMPTY
        called = self._calls.get(cell)
        return f"{piece}={called}" if called is not None else str(piece)

    def text(self) -> str:
        """The one-line text form: ``TOP,LEFT: row / row / ...`` (``.`` an empty cell; ``J=R7`` a called
        joker); an empty grid is the empty text. :meth:`parse` reads it back."""
        box = self.bounds()
        if box is None:
            return ""
        top, left, _, _ = box
        rows = [
            " ".join(self._token((r, left + i), p) for i, p in enumerate(cells)) or EMPTY for r, cells in self.rows()
        ]
        return f"{top},{left}: " + " / ".join(rows)

    def layout(self) -> list[str]:
        """The text form on several lines, cells in aligned columns (also read by :meth:`parse`)."""
        box = self.bounds()
        if box is None:
            return []
        top, left, _, _ = box
        tokens = {cell: self._token(cell, p) for cell, p in self._cells.items()}
        width = max(len(t) for t in tokens.values())
        out = [f"{top},{left}:"]
        for r, cells in self.rows():
            line = " ".join(f"{tokens.get((r, left + i), EMPTY):<{width}}" for i in range(len(cells)))
            out.append(line.rstrip() or EMPTY)
        return out

    @classmethod
    def parse(cls, text: str, parse_piece: Callable[[str], P]) -> Grid[P]:
        """Read a grid's text form (rows separated by ``/`` or new lines; the origin defaults to 0,0).

        >>> from rummykit.pieces.tiles import Tile
        >>> g = Grid.parse('-1,2: K5 . J=O5 / . / B5', Tile.parse)
        >>> sorted(g.cells.items())[:2], {k: str(v) for k, v in g.calls.items()}
        ([((-1, 2), Tile.parse('K5')), ((-1, 4), Tile.parse('J'))], {(-1, 4): 'O5'})
        """
        body = text.strip()
        if not body:
            return cls()
        top, left = 0, 0
        head, sep, rest = body.partition(":")
        if sep:
            top, left = parse_cell(head)
            body = rest.lstrip(" \t")
            if body.startswith("\n"):
                body = body[1:]  # the origin on a line of its own
        cells: dict[Cell, P] = {}
        calls: dict[Cell, P] = {}
        rows = re.split(r"[/\n]", body)
        for i, row in enumerate(rows):
            for j, token in enumerate(row.split()):
                if token == EMPTY:
                    continue
                cell = (top + i, left + j)
                shown, eq, called = token.partition("=")
                try:
                    cells[cell] = parse_piece(shown)
                    if eq:
                        calls[cell] = parse_piece(called)
                except ParseError as exc:
                    raise ParseError(f"grid cell {cell_text(cell)}: {exc}") from None
        return cls(cells, calls)

    # -- values ----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self._cells == other._cells and self._calls == other._calls

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.cells_key(), frozenset(self._calls.items())))
        return self._hash

    def __repr__(self) -> str:
        return f"Grid.parse({self.text()!r})"

    def copy(self) -> Grid[P]:
        """The grid itself (grids never change)."""
        return self


@functools.lru_cache(maxsize=1 << 12)
def _line(across: bool, fixed: int, start: int, end: int) -> Line:
    """The line (lines are immutable and recur from grid to grid: kept, as making one costs more than finding it)."""
    return Line(across, fixed, start, end)


@functools.lru_cache(maxsize=1 << 12)
def _line_cells(across: bool, fixed: int, start: int, end: int) -> tuple[Cell, ...]:
    """The cells of a line in reading order (lines recur from grid to grid: kept)."""
    if across:
        return tuple([(fixed, c) for c in range(start, end + 1)])
    return tuple([(r, fixed) for r in range(start, end + 1)])


def _spans(values: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Maximal runs of consecutive integers, as (first, last)."""
    ordered = sorted(values)
    if not ordered:
        return
    first = prev = ordered[0]
    for v in ordered[1:]:
        if v != prev + 1:
            yield first, prev
            first = v
        prev = v
    yield first, prev

