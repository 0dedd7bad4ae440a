"""A grid table: pieces in the cells of an unbounded board, read like a crossword.

Any game whose table is laid out in two dimensions builds on this block
(``two-tray`` is the first). Cells are ``(row, column)`` pairs of integers,
negative ones included; rows grow downwards, columns to the right.

* A **line** is a maximal run of two or more occupied cells next to each
  other in one row (read left to right) or one column (read top to bottom).
* Every line must have at least 3 pieces and be a valid set *as laid*; what
  that means is the meld family's answer (:class:`~rummykit.melds.base.LineVerdict`).
  A piece may lie in one row line and one column line at once.
* A joker lying in two lines must stand for one piece that fits both; a
  joker that a player has *called* must stand for the called piece.
* Every piece must belong to at least one line.

Cells are numbered as the game's notation numbers them (records, actions,
views). Messages name cells and lines in one of two numberings: the
notation's (``base`` 0, the default) or the one people see at an interface,
where every row and column number is ``base`` more (an interface for people
passes ``base=1``: the notation's cell 0,0 is the person's 1,1). Only the
names in messages change; the cells themselves never do.

:class:`GridRules` judges a grid and names each problem by its cells and
line (``row 2, columns 4-5: a line of 2 tiles ...``); a :class:`Grid` has a
one-line text form that round-trips; :class:`GridDraft` lets an interface
build a turn one step at a time (place, move, back, undo, reset, check).

>>> from rummykit.melds.tiles import read_line
>>> from rummykit.pieces.tiles import Tile, format_tiles
>>> rules = GridRules(read_line, value=lambda t: t.number, is_joker=Tile.is_joker.fget, fmt=format_tiles, prefix='XX')
>>> grid = Grid.parse('0,0: R3 R4 R5 / . . K5 / . . K5', Tile.parse)
>>> [str(p) for p in rules.problems(grid)]
["column 2, rows 0-2 (R5 K5 K5): a group's colours must all differ: R5 K5 K5 has K5 twice (rule XX-GROUP)"]
>>> grid = Grid.parse('0,0: R3 R4 R5 / . K4 K5', Tile.parse)
>>> [p.reason for p in rules.problems(grid)]
['row 1, columns 1-2: a line of 2 tiles (K4 K5); every line of touching tiles needs 3 or more', ...]
>>> Grid.parse(grid.text(), Tile.parse) == grid, grid.text()
(True, '0,0: R3 R4 R5 / . K4 K5')
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from rummykit.errors import ParseError, RuleError
from rummykit.melds.base import MIN_SET, LineReader, LineReading
from rummykit.words import counted, plural_of

P = TypeVar("P")

Cell = tuple[int, int]
"""A cell: (row, column). Rows grow downwards, columns to the right."""

EMPTY = "."
"""An empty cell in a grid's text form (and in a :class:`Put` that empties a cell)."""


def cell_text(cell: Cell, base: int = 0) -> str:
    """A cell in notation: ``ROW,COLUMN`` (each number ``base`` more: the numbering people see).

    >>> cell_text((2, -3)), cell_text((2, -3), base=1)
    ('2,-3', '3,-2')
    """
    return f"{cell[0] + base},{cell[1] + base}"


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


def where_cell(cell: Cell, base: int = 0) -> str:
    """``row 2, column 3``: a cell in words (each number ``base`` more)."""
    return f"row {cell[0] + base}, column {cell[1] + base}"


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
    def from_notation(cls, text: str, parse_piece: Callable[[str], Any]) -> Put[Any]:
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
        if self.across:
            return tuple((self.fixed, c) for c in range(self.start, self.end + 1))
        return tuple((r, self.fixed) for r in range(self.start, self.end + 1))

    def __len__(self) -> int:
        return self.end - self.start + 1

    def where(self, base: int = 0) -> str:
        """The line in words: ``row 2, columns 4-5`` or ``column 3, rows 1-4`` (each number ``base`` more)."""
        fixed, start, end = self.fixed + base, self.start + base, self.end + base
        if self.across:
            return f"row {fixed}, columns {start}-{end}"
        return f"column {fixed}, rows {start}-{end}"


class Grid(Generic[P]):
    """An immutable arrangement of pieces in cells, with the calls made on its jokers.

    ``calls`` maps the cell of a joker a player has called to the piece it was
    called; a call stays with its cell while that cell holds a joker. Changing
    a grid makes a new one (:meth:`changed`, :meth:`with_call`).
    """

    __slots__ = ("_calls", "_cells", "_lines")
    IMMUTABLE: ClassVar[bool] = True
    """Grids never change (``rummykit.engine.core.clone`` shares them)."""

    def __init__(self, cells: Mapping[Cell, P] | None = None, calls: Mapping[Cell, P] | None = None) -> None:
        self._cells: dict[Cell, P] = dict(cells or {})
        self._calls: dict[Cell, P] = {}
        for cell, piece in (calls or {}).items():
            if cell not in self._cells:
                raise ValueError(f"a call on the empty cell {cell_text(cell)}")
            self._calls[cell] = piece
        self._lines: tuple[Line, ...] | None = None

    # -- reading ---------------------------------------------------------------

    @property
    def cells(self) -> Mapping[Cell, P]:
        """Every occupied cell and its piece (do not change it)."""
        return self._cells

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
            found = [Line(True, r, a, b) for r in sorted(rows) for a, b in _spans(rows[r]) if b > a]
            found += [Line(False, c, a, b) for c in sorted(cols) for a, b in _spans(cols[c]) if b > a]
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
            out.append(Line(True, r, left, right))
        top, bottom = r, r
        while (top - 1, c) in self._cells:
            top -= 1
        while (bottom + 1, c) in self._cells:
            bottom += 1
        if bottom > top:
            out.append(Line(False, c, top, bottom))
        return out

    # -- changing --------------------------------------------------------------

    def changed(self, changes: Iterable[Put[P]], is_joker: Callable[[P], bool]) -> Grid[P]:
        """The grid after ``changes`` (each sets one cell's content); calls stay on cells still holding a joker."""
        cells = dict(self._cells)
        for put in changes:
            if put.piece is None:
                cells.pop(put.cell, None)
            else:
                cells[put.cell] = put.piece
        calls = {c: p for c, p in self._calls.items() if c in cells and is_joker(cells[c])}
        return Grid(cells, calls)

    def with_call(self, cell: Cell, piece: P) -> Grid[P]:
        """The same grid with the joker in ``cell`` called ``piece``."""
        return Grid(self._cells, {**self._calls, cell: piece})

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
        return hash((frozenset(self._cells.items()), frozenset(self._calls.items())))

    def __repr__(self) -> str:
        return f"Grid.parse({self.text()!r})"

    def copy(self) -> Grid[P]:
        """The grid itself (grids never change)."""
        return self


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


# -- judging a grid ---------------------------------------------------------------------


@dataclass(frozen=True)
class GridProblem:
    """One thing wrong with a grid: the rule, the reason (starting with where) and the cells concerned."""

    rule: str
    reason: str
    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        return f"{self.reason} (rule {self.rule})"

    def error(self) -> RuleError:
        """The problem as an exception."""
        return RuleError(self.rule, self.reason)


@dataclass(frozen=True)
class GridVerdict(Generic[P]):
    """What :meth:`GridRules.verdict` found: the problems, and what each joker stands for.

    ``roles`` holds, for every joker of a valid line, the piece it stands for
    in the reading worth the most points (consistent across crossing lines);
    ``options`` every piece it could stand for in some consistent reading.
    """

    problems: tuple[GridProblem, ...]
    roles: Mapping[Cell, P]
    options: Mapping[Cell, frozenset[P]]

    @property
    def valid(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems


@dataclass(frozen=True)
class GridRules(Generic[P]):
    """The grid rules of one game: how a line is read, what pieces are worth, notation and rule ids.

    ``read_line`` is the meld family's reading of a line as laid;
    ``value`` what a numbered piece counts (a joker counts as the piece it
    stands for); ``prefix`` the game's rule-id prefix.
    """

    read_line: LineReader[P]
    value: Callable[[P], int]
    is_joker: Callable[[P], bool]
    fmt: Callable[[Iterable[P]], str]
    prefix: str
    piece: str = "tile"
    base: int = 0
    """What the messages add to every row and column number: 0 names cells as the notation does,
    1 as people count them at an interface (``dataclasses.replace(rules, base=1)``)."""

    def rule(self, name: str) -> str:
        """The game's id for a grid rule (``XX-LINE-SIZE``...)."""
        return f"{self.prefix}-{name}"

    # -- the whole grid ----------------------------------------------------------

    def problems(self, grid: Grid[P]) -> list[GridProblem]:
        """Everything wrong with ``grid``, in reading order (tiles alone first, then lines, then jokers)."""
        return list(self.verdict(grid).problems)

    def verdict(self, grid: Grid[P], focus: Collection[Cell] | None = None) -> GridVerdict[P]:
        """Judge ``grid`` (or only what touches the cells of ``focus``).

        With ``focus``, only the lines through those cells (and the lines
        joined to them by jokers) and the isolation of those cells are
        judged: enough when the rest of the grid was valid before pieces were
        *added* at those cells (the listing of lay-offs uses it).
        """
        if focus is None:
            lines = list(grid.lines())
            alone = [c for c in sorted(grid.cells) if not _covered(grid, c)]
        else:
            lines = self._linked_lines(grid, focus)
            alone = [c for c in sorted(focus) if c in grid and not _covered(grid, c)]
        problems = [
            GridProblem(
                self.rule("ALONE"),
                f"{where_cell(c, self.base)}: {grid[c]} touches no other {self.piece}; every {self.piece}"
                f" must be part of a line of {MIN_SET} or more",
                (c,),
            )
            for c in alone
        ]
        readings: dict[int, tuple[LineReading[P], ...]] = {}
        for i, line in enumerate(lines):
            found = self._read(grid, line, problems)
            if found:
                readings[i] = found
        roles, options = self._jokers(grid, lines, readings, problems)
        return GridVerdict(tuple(problems), roles, options)

    def _read(self, grid: Grid[P], line: Line, problems: list[GridProblem]) -> tuple[LineReading[P], ...]:
        cells = line.cells
        pieces = tuple(grid[c] for c in cells)
        where = line.where(self.base)
        if len(pieces) < MIN_SET:
            problems.append(
                GridProblem(
                    self.rule("LINE-SIZE"),
                    f"{where}: a line of {counted(len(pieces), self.piece)} ({self.fmt(pieces)}); every line of"
                    f" touching {plural_of(self.piece)} needs {MIN_SET} or more",
                    cells,
                )
            )
            return ()
        verdict = self.read_line(pieces)
        if not verdict.valid:
            problems.append(GridProblem(self.rule(verdict.rule or "LINE"), f"{where} ({self.fmt(pieces)}): {verdict.reason}", cells))
            return ()
        found = verdict.readings
        for pos, cell in enumerate(cells):
            called = grid.calls.get(cell)
            if called is None:
                continue
            kept = tuple(r for r in found if r.pieces[pos] == called)
            if not kept:
                could = " or ".join(sorted({str(r.pieces[pos]) for r in found}))
                problems.append(
                    GridProblem(
                        self.rule("CALLED"),
                        f"{where} ({self.fmt(pieces)}): the joker at {cell_text(cell, self.base)} was called {called},"
                        f" but this line needs it to be {could}",
                        cells,
                    )
                )
                return ()
            found = kept
        return found

    def _linked_lines(self, grid: Grid[P], focus: Collection[Cell]) -> list[Line]:
        """The lines through the focus cells, and every line joined to them through a joker."""
        seen: dict[Line, None] = {}
        todo = [line for c in focus for line in grid.lines_through(c)]
        while todo:
            line = todo.pop()
            if line in seen:
                continue
            seen[line] = None
            for c in line.cells:
                if self.is_joker(grid[c]):
                    todo.extend(other for other in grid.lines_through(c) if other != line)
        return sorted(seen, key=lambda ln: (not ln.across, ln.fixed, ln.start))

    def _jokers(
        self,
        grid: Grid[P],
        lines: list[Line],
        readings: dict[int, tuple[LineReading[P], ...]],
        problems: list[GridProblem],
    ) -> tuple[dict[Cell, P], dict[Cell, frozenset[P]]]:
        """Choose one reading per valid line so that every joker in two lines is the same piece in both."""
        holders: dict[Cell, list[tuple[int, int]]] = {}
        for i in readings:
            for pos, c in enumerate(lines[i].cells):
                if self.is_joker(grid[c]):
                    holders.setdefault(c, []).append((i, pos))
        roles: dict[Cell, P] = {}
        options: dict[Cell, set[P]] = {}
        # Lines joined by a shared joker form one component, judged together.
        parent = {i: i for i in readings}

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for held in holders.values():
            if len(held) == 2:
                parent[find(held[0][0])] = find(held[1][0])
        components: dict[int, list[int]] = {}
        for i in readings:
            components.setdefault(find(i), []).append(i)
        for members in components.values():
            jokers = [c for c, held in holders.items() if find(held[0][0]) == find(members[0])]
            if not jokers:
                continue
            best: tuple[int, dict[Cell, P]] | None = None
            for choice in itertools.product(*(readings[i] for i in members)):
                assigned: dict[Cell, P] = {}
                ok = True
                for i, reading in zip(members, choice, strict=True):
                    for pos, c in enumerate(lines[i].cells):
                        if c in holders:
                            piece = reading.pieces[pos]
                            if assigned.setdefault(c, piece) != piece:
                                ok = False
                                break
                    if not ok:
                        break
                if not ok:
                    continue
                for c, piece in assigned.items():
                    options.setdefault(c, set()).add(piece)
                score = sum(self.value(p) for p in assigned.values())
                if best is None or score > best[0]:
                    best = (score, assigned)
            if best is None:
                problems.append(self._cross_problem(grid, lines, readings, holders, jokers))
            else:
                roles.update(best[1])
        return roles, {c: frozenset(v) for c, v in options.items()}

    def _cross_problem(
        self,
        grid: Grid[P],
        lines: list[Line],
        readings: dict[int, tuple[LineReading[P], ...]],
        holders: dict[Cell, list[tuple[int, int]]],
        jokers: list[Cell],
    ) -> GridProblem:
        shared = sorted(c for c in jokers if len(holders[c]) == 2)
        for c in shared:
            needs = []
            for i, pos in holders[c]:
                wanted = sorted({r.pieces[pos] for r in readings[i]}, key=str)
                needs.append((lines[i], wanted))
            (first, a), (second, b) = needs
            if not set(a) & set(b):
                return GridProblem(
                    self.rule("JOKER-CROSS"),
                    f"{where_cell(c, self.base)}: a joker in two lines must be one {self.piece} that fits both;"
                    f" {first.where(self.base)} needs it to be {' or '.join(map(str, a))},"
                    f" {second.where(self.base)} needs {' or '.join(map(str, b))}",
                    (c,),
                )
        c = shared[0]
        return GridProblem(
            self.rule("JOKER-CROSS"),
            f"{where_cell(c, self.base)}: the jokers of these crossing lines cannot each be one {self.piece} that fits"
            " both of its lines at the same time",
            tuple(shared),
        )

    # -- a turn ------------------------------------------------------------------

    def placed(self, old: Grid[P], new: Grid[P]) -> list[P]:
        """The pieces a turn added to the grid (raises ``<prefix>-TABLE-KEEP`` if any piece left it)."""
        before, after = old.counts(), new.counts()
        gone = before - after
        if gone:
            raise RuleError(
                self.rule("TABLE-KEEP"),
                f"every {self.piece} on the table stays on the table; missing at the end of the turn:"
                f" {self.fmt(_sorted(gone))}",
            )
        return _sorted(after - before)

    def going_down(
        self,
        old: Grid[P],
        new: Grid[P],
        placed: Sequence[P],
        min_points: int,
        down: Sequence[Put[P]] = (),
        name: str = "initial meld",
    ) -> GoingDown[P]:
        """Judge the turn in which a player goes down (the grid ``new`` itself is judged apart).

        A player goes down with new lines of pieces from one tray, not
        touching the table's, worth at least ``min_points`` on their own
        (each piece counted once, a joker as what it stands for); after them,
        the same turn may do whatever a later turn may. ``down`` names those
        lines as laid (see :meth:`named_down_fault` for its form); without it
        they are looked for in ``new`` (:meth:`find_down`). ``placed`` are the
        pieces the turn added to the grid.
        """
        touch = self._touch(old, new)
        if down:
            sub = Grid({put.cell: put.piece for put in down if put.piece is not None})
            verdict = self.verdict(sub)
            if verdict.problems:
                problem = verdict.problems[0]
                wrong = RuleError(problem.rule, f"your going-down lines on their own: {problem.reason}")
                return GoingDown(wrong, touch is not None, tuple(down), 0)
            points = self.points(sub, verdict, sub.cells)
            short = None if points >= min_points else self._points_fault(points, min_points, name, "your going-down lines")
            return GoingDown(short, touch is not None, tuple(down), points)
        lines, points = self.find_down(old, new, placed, min_points)
        if min_points <= 0 or (lines and points >= min_points):
            return GoingDown(None, touch is not None, lines, points)
        if touch is None:
            return GoingDown(self._points_fault(points, min_points, name, "this one"), False, lines, points)
        if not lines:
            fault = RuleError(
                self.rule("OPENING-TABLE"),
                f"before going down you may not touch the table ({touch}): in the {name}, new lines of"
                f" {plural_of(self.piece)} from one tray worth at least {counted(min_points, 'point')} on their own"
                " come first; after them the same turn may rearrange the table",
            )
        else:
            fault = RuleError(
                self.rule("OPENING-POINTS"),
                f"your new lines of {plural_of(self.piece)} from the tray total {points} on their own (each"
                f" {self.piece} counted once); the {name} needs at least {counted(min_points, 'point')} before you"
                f" may touch the table ({touch})",
            )
        return GoingDown(fault, True, lines, points)

    def _points_fault(self, points: int, min_points: int, name: str, what: str) -> RuleError:
        return RuleError(
            self.rule("OPENING-POINTS"),
            f"the {name} must total at least {counted(min_points, 'point')} (each {self.piece} counted once,"
            f" jokers as what they stand for); {what} {'totals' if what == 'this one' else 'total'} {points}",
        )

    def named_down_fault(self, down: Sequence[Put[P]], placed: Sequence[P]) -> RuleError | None:
        """What is wrong with the form of going-down lines a turn names, or None.

        They are pieces laid in cells (never an emptied cell), and each is a
        piece the turn places. Their cells only give their shape: the lines
        are judged on their own, wherever the rest of the turn took them.
        """
        if any(put.piece is None for put in down):
            return RuleError(self.rule("DOWN"), "the going-down lines lay pieces in cells: none of them empties a cell")
        extra = Counter(put.piece for put in down if put.piece is not None) - Counter(placed)
        if extra:
            return RuleError(
                self.rule("DOWN"),
                f"the going-down lines hold {self.fmt(_sorted(extra))}, which the turn does not place from the tray",
            )
        return None

    def find_down(
        self, old: Grid[P], new: Grid[P], placed: Sequence[P], min_points: int
    ) -> tuple[tuple[Put[P], ...], int]:
        """The going-down lines of a turn, found in the grid it leaves: the lines its own pieces form among themselves.

        The candidates are the cells whose content the turn changed to a
        piece of a kind it placed. Cells that lie in no line of 3 or more
        candidates are dropped (again and again, as dropping one may leave
        another alone); what is left must make a valid grid on its own, hold
        no more of a kind than the turn placed, and be worth ``min_points``.
        Where it does not, the search drops one cell of the first thing wrong
        (a short or invalid line, a kind held too often) in every way and
        tries again, a bounded number of times (:data:`DOWN_SEARCH`). Returns
        the lines as puts and their points: the first found worth
        ``min_points``, else the best found (no puts and 0: none).
        """
        kinds = Counter(placed)
        start = frozenset(c for c, p in new.cells.items() if old.get(c) != p and kinds[p] > 0)
        best: tuple[int, frozenset[Cell]] = (0, frozenset())
        seen: set[frozenset[Cell]] = set()
        todo = [start]
        budget = DOWN_SEARCH
        while todo and budget:
            cells = _supported(new, todo.pop())
            if not cells or cells in seen:
                continue
            seen.add(cells)
            budget -= 1
            order = sorted(cells, reverse=True)
            held = Counter(new[c] for c in cells)
            over = next((new[c] for c in order if held[new[c]] > kinds[new[c]]), None)
            if over is not None:
                todo.extend(cells - {c} for c in order if new[c] == over)
                continue
            sub = new.only(cells)
            verdict = self.verdict(sub)
            if verdict.problems:
                todo.extend(cells - {c} for c in sorted(verdict.problems[0].cells, reverse=True))
                continue
            points = self.points(sub, verdict, cells)
            if points > best[0]:
                best = (points, cells)
            if points >= min_points:
                break
        return tuple(Put(r, c, new[(r, c)]) for r, c in sorted(best[1])), best[0]

    def _touch(self, old: Grid[P], new: Grid[P]) -> str | None:
        """How a turn touched the table (a table piece moved, or a line joining new pieces to table pieces), or None."""
        for cell, piece in old.cells.items():
            if new.get(cell) != piece:
                return f"{piece} at {cell_text(cell, self.base)} was moved"
        fresh = {c for c in new.cells if c not in old.cells}
        for line in new.lines():
            cells = line.cells
            if any(c in fresh for c in cells) and any(c not in fresh for c in cells):
                return (
                    f"{line.where(self.base)} joins your {plural_of(self.piece)} to {plural_of(self.piece)} that"
                    " were on the table"
                )
        return None

    def points(self, grid: Grid[P], verdict: GridVerdict[P], cells: Iterable[Cell]) -> int:
        """What the pieces in ``cells`` are worth, each once (a joker as what it stands for in ``verdict``)."""
        total = 0
        for c in cells:
            piece = grid[c]
            if self.is_joker(piece):
                role = verdict.roles.get(c)
                total += 0 if role is None else self.value(role)
            else:
                total += self.value(piece)
        return total


DOWN_SEARCH = 256
"""How many sets of cells :meth:`GridRules.find_down` judges at most (a turn of one rack rarely needs more than one)."""


@dataclass(frozen=True)
class GoingDown(Generic[P]):
    """A turn in which a player goes down, judged (:meth:`GridRules.going_down`).

    ``fault`` is what is wrong (None: the player goes down); ``touched``
    whether the turn touched the table's pieces (then a fault comes before
    the grid's own problems); ``lines`` the going-down lines found or named
    (as puts) and ``points`` what they are worth.
    """

    fault: RuleError | None
    touched: bool
    lines: tuple[Put[P], ...]
    points: int


def _supported(grid: Grid[Any], cells: frozenset[Cell]) -> frozenset[Cell]:
    """The cells of ``cells`` that lie in a line of 3 or more of them (dropping cells until none is left alone)."""
    while cells:
        sub = grid.only(cells)
        kept = frozenset(c for line in sub.lines() if len(line) >= MIN_SET for c in line.cells)
        if kept == cells:
            break
        cells = kept
    return cells


def _covered(grid: Grid[Any], cell: Cell) -> bool:
    r, c = cell
    cells = grid.cells
    return (r, c - 1) in cells or (r, c + 1) in cells or (r - 1, c) in cells or (r + 1, c) in cells


def _sorted(counter: Counter[P]) -> list[P]:
    return sorted(counter.elements())  # type: ignore[type-var]


# -- drafts -----------------------------------------------------------------------------


class GridDraft(Generic[P]):
    """A turn on a grid being built one step at a time, for people (and bots that like steps).

    Start from the grid and the playing tray (rack) a player sees; ``place``
    pieces from the tray in empty cells, ``move`` table pieces between cells,
    take back (``back``) a piece placed this turn, ``undo`` a step or
    ``reset`` the turn; ask :meth:`problems` at any time; finally take
    :meth:`changes` (and :meth:`placed`) to build the game's action. Every step
    checks its input and raises ``RuleError`` without changing the draft when
    it cannot be done. ``opening`` is the least total of an opening play, or
    None once the player is down. ``others`` names the player's other racks
    and their pieces, so that placing one of those is refused with the game's
    wrong-rack rule.

    >>> from rummykit.melds.tiles import read_line
    >>> from rummykit.pieces.tiles import Tile, format_tiles, parse_tiles
    >>> rules = GridRules(read_line, value=lambda t: t.number, is_joker=Tile.is_joker.fget, fmt=format_tiles, prefix='XX')
    >>> draft = GridDraft(rules, parse_tiles('R5 R6 R7 K1'), Grid(), opening=None)
    >>> for tile, cell in (('R5', (0, 0)), ('R6', (0, 1))):
    ...     draft.place(Tile.parse(tile), cell)
    >>> [str(p) for p in draft.problems()]
    ['row 0, columns 0-1: a line of 2 tiles (R5 R6); every line of touching tiles needs 3 or more (rule XX-LINE-SIZE)']
    >>> draft.place(Tile.parse('R7'), (0, 2)); draft.problems(), [str(c) for c in draft.changes()]
    ([], ['0,0=R5', '0,1=R6', '0,2=R7'])
    """

    def __init__(
        self,
        rules: GridRules[P],
        tray: Sequence[P],
        grid: Grid[P],
        *,
        opening: int | None,
        tray_name: str = "",
        others: Mapping[str, Sequence[P]] | None = None,
        opening_name: str = "initial meld",
    ) -> None:
        self.rules = rules
        self.opening = opening
        self.opening_name = opening_name
        self.tray_name = tray_name
        self.others = {name: tuple(pieces) for name, pieces in (others or {}).items()}
        self.original_tray: tuple[P, ...] = tuple(tray)
        self.original: Grid[P] = grid
        self.tray: list[P] = list(tray)
        self.cells: dict[Cell, P] = dict(grid.cells)
        self.down: tuple[Put[P], ...] = ()
        """While going down: the going-down lines as the draft first held them (see :meth:`down_changes`)."""
        self._undo: list[tuple[list[P], dict[Cell, P], tuple[Put[P], ...]]] = []

    # -- steps ---------------------------------------------------------------------

    def place(self, piece: P, cell: Cell) -> None:
        """Put a piece from the tray into an empty cell."""
        self._need_in_tray(piece)
        self._need_empty(cell)
        self._push()
        self.tray.remove(piece)
        self.cells[cell] = piece
        self._note_down()

    def move(self, source: Cell, target: Cell) -> None:
        """Move the piece in ``source`` to the empty cell ``target``."""
        if source not in self.cells:
            raise RuleError(self.rules.rule("DRAFT"), f"there is no {self.rules.piece} at {self._cell(source)}")
        self._need_empty(target)
        self._push()
        self.cells[target] = self.cells.pop(source)
        self._note_down()

    def back(self, cell: Cell) -> P:
        """Take the piece in ``cell`` back to the tray (only a piece placed this turn); returns it."""
        piece = self.cells.get(cell)
        if piece is None:
            raise RuleError(self.rules.rule("DRAFT"), f"there is no {self.rules.piece} at {self._cell(cell)}")
        now = sum(1 for p in self.cells.values() if p == piece)
        then = sum(1 for p in self.original.cells.values() if p == piece)
        if now <= then:
            raise RuleError(
                self.rules.rule("TABLE-KEEP"),
                f"{piece} at {self._cell(cell)} was on the table when the turn began; table {plural_of(self.rules.piece)}"
                " stay on the table",
            )
        self._push()
        del self.cells[cell]
        self.tray.append(piece)
        self._note_down()
        return piece

    def apply(self, changes: Iterable[Put[P]], down: Sequence[Put[P]] = ()) -> None:
        """Make a whole turn as one step: the grid as the turn began, with ``changes`` made to it.

        The pieces the changed grid holds beyond the old one come from the
        tray (refused as :meth:`place` refuses a piece that is not there); a
        piece that was on the table must stay on it (``<prefix>-TABLE-KEEP``).
        ``down`` names the turn's going-down lines, as a play may (refused
        with ``<prefix>-DOWN`` when they are not among the pieces placed, or
        when the player is down already). Nothing changes when the step is
        refused.
        """
        cells = dict(self.original.cells)
        for put in changes:
            if put.piece is None:
                cells.pop(put.cell, None)
            else:
                cells[put.cell] = put.piece
        placed = self.rules.placed(self.original, Grid(cells))
        tray = list(self.original_tray)
        for piece in placed:
            if piece not in tray:
                self._need_in_tray(piece, tray)
            tray.remove(piece)
        if down:
            if self.opening is None:
                raise RuleError(self.rules.rule("DOWN"), "you are down already: only the turn you go down names its lines")
            fault = self.rules.named_down_fault(down, placed)
            if fault is not None:
                raise fault
        self._push()
        self.tray, self.cells = tray, cells
        self.down = tuple(down)
        self._note_down()

    def undo(self) -> None:
        """Take back the last step."""
        if not self._undo:
            raise RuleError(self.rules.rule("DRAFT"), "nothing to undo")
        self.tray, self.cells, self.down = self._undo.pop()

    def reset(self) -> None:
        """Back to the grid and tray as the turn began (can itself be undone)."""
        self._push()
        self.tray = list(self.original_tray)
        self.cells = dict(self.original.cells)
        self.down = ()

    # -- questions -----------------------------------------------------------------

    @property
    def grid(self) -> Grid[P]:
        """The grid as drafted (calls kept on cells that still hold a joker)."""
        return self.original.changed(self.changes(), self.rules.is_joker)

    def changes(self) -> tuple[Put[P], ...]:
        """The cells changed so far, in cell order (the body of the game's play action)."""
        return self.original.diff(Grid(self.cells))

    def placed(self) -> list[P]:
        """The pieces moved from the tray to the grid so far."""
        return _sorted(Counter(self.original_tray) - Counter(self.tray))

    @property
    def changed(self) -> bool:
        """True once the grid differs from the start of the turn."""
        return self.cells != dict(self.original.cells)

    def down_changes(self) -> tuple[Put[P], ...]:
        """The going-down lines the action committing this draft names: none when the game finds them in
        the drafted grid itself (or the player is down), else the lines as the draft first held them."""
        if self.opening is None or not self.down:
            return ()
        found, points = self.rules.find_down(self.original, self.grid, self.placed(), self.opening)
        return () if found and points >= self.opening else self.down

    def problems(self) -> list[GridProblem]:
        """Everything that would make committing this draft fail: the grid's problems, then the turn's.

        Before going down, a turn that touches the table without going-down
        lines worth the threshold is told that alone (as the game checks it first).
        """
        grid = self.grid
        placed = self.placed()
        opening = None
        if self.opening is not None:
            down = self.down_changes()
            opening = self.rules.going_down(self.original, grid, placed, self.opening, down, self.opening_name)
            if opening.fault is not None and (opening.touched or down):
                return [GridProblem(opening.fault.rule, opening.fault.reason, ())]
        verdict = self.rules.verdict(grid)
        out = list(verdict.problems)
        if not placed:
            out.append(
                GridProblem(
                    self.rules.rule("PLAY-EMPTY"),
                    f"no {self.rules.piece} placed from your tray yet (draw instead)",
                    (),
                )
            )
        if not out and opening is not None and opening.fault is not None:
            out.append(GridProblem(opening.fault.rule, opening.fault.reason, ()))
        return out

    def is_valid(self) -> bool:
        """True when the draft can be committed as a play."""
        return not self.problems()

    # -- internals -----------------------------------------------------------------

    def _cell(self, cell: Cell) -> str:
        """A cell as the draft's messages name it (in the numbering of its rules' ``base``)."""
        return cell_text(cell, self.rules.base)

    def _push(self) -> None:
        self._undo.append((list(self.tray), dict(self.cells), self.down))

    def _note_down(self) -> None:
        """Keep the going-down lines while they are the draft's: note them when the draft first holds lines
        of its own worth the threshold, forget them when a piece of theirs goes back to the tray."""
        if self.opening is None:
            return
        placed = self.placed()
        if self.down and self.rules.named_down_fault(self.down, placed) is not None:
            self.down = ()
        if not self.down and placed:
            found, points = self.rules.find_down(self.original, self.grid, placed, self.opening)
            if found and points >= self.opening:
                self.down = found

    def _need_empty(self, cell: Cell) -> None:
        held = self.cells.get(cell)
        if held is not None:
            raise RuleError(self.rules.rule("DRAFT"), f"{self._cell(cell)} already holds {held}")

    def _need_in_tray(self, piece: P, tray: Sequence[P] | None = None) -> None:
        if piece in (self.tray if tray is None else tray):
            return
        for name, pieces in self.others.items():
            if piece in pieces:
                raise RuleError(
                    self.rules.rule("WRONG-TRAY"),
                    f"{piece} is on tray {name}; this turn plays from tray {self.tray_name}",
                )
        where = f"tray {self.tray_name}" if self.tray_name else "your tray"
        raise RuleError(self.rules.rule("TRAY"), f"{piece} is not on {where}")
