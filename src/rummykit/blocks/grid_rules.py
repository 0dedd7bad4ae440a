"""Judging a grid table: every line a valid set, no piece alone, jokers that fit both their lines.

:class:`GridRules` judges a grid and names each problem by its cells and
line (``row 2, columns 4-5: a line of 2 tiles ...``). A problem is a
:class:`~rummykit.errors.RuleError` with its data: the cells and lines it
names are params counted from 0, as the notation numbers them, so that an
interface words them as its people count (``worded(1)``: the notation's
cell 0,0 is a person's 1,1). Nothing here knows how a screen numbers cells.

>>> from rummykit.melds.tile_lines import read_line
>>> from rummykit.pieces.tiles import Tile, format_tiles
>>> rules = GridRules(read_line, value=lambda t: t.number, is_joker=Tile.is_joker.fget, fmt=format_tiles, prefix='XX')
>>> problem = rules.problems(Grid.parse('0,0: R3 R4 R5 / . K4 K5', Tile.parse))[0]
>>> problem.reason
'row 1, columns 1-2: a line of 2 tiles (K4 K5); every line of touching tiles needs 3 or more'
>>> problem.error.worded(1), problem.error.params['line_fixed']
('row 2, columns 2-3: a line of 2 tiles (K4 K5); every line of touching tiles needs 3 or more', 1)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rummykit.blocks.grid_cells import Cell, Grid, Line, Put, Words, cell_words, line_words, where_words
from rummykit.blocks.grid_judge import covered, lines_hold, linked_lines
from rummykit.blocks.grid_problems import GridProblem, GridVerdict, literal, refusal
from rummykit.errors import Param, RuleError
from rummykit.melds.base import MIN_SET, LineReader, LineReading
from rummykit.words import counted, plural_of

P = TypeVar("P")

__all__ = ["DOWN_SEARCH", "GoingDown", "GridProblem", "GridRules", "GridVerdict", "literal", "refusal"]


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
        problems = [self._alone(grid, c) for c in alone]
        readings: dict[int, tuple[LineReading[P], ...]] = {}
        for i, line in enumerate(lines):
            found = self._read(grid, line, problems)
            if found:
                readings[i] = found
        roles, options = self._jokers(grid, lines, readings, problems)
        return GridVerdict(tuple(problems), roles, options)

    def holds(self, grid: Grid[P], focus: Collection[Cell] | None = None) -> bool:
        """True when :meth:`verdict` finds no problem (the same judgement, without wording the problems).

        >>> from rummykit.melds.tile_lines import read_line
        >>> from rummykit.pieces.tiles import Tile, format_tiles
        >>> rules = GridRules(read_line, value=lambda t: t.number, is_joker=Tile.is_joker.fget, fmt=format_tiles, prefix='XX')
        >>> rules.holds(Grid.parse('0,0: R3 R4 R5', Tile.parse)), rules.holds(Grid.parse('0,0: R3 R4 K5', Tile.parse))
        (True, False)
        """
        on = grid.cells
        if focus is None:
            if any(not covered(on, c) for c in on):
                return False
            keys = [(ln.across, ln.fixed, ln.start, ln.end) for ln in grid.lines()]
        else:
            keys = linked_lines(self.is_joker, on, focus)
            if any(c in on and not covered(on, c) for c in focus):
                return False
        # The verdict's judgement without its words, read straight from the cells (grid_judge).
        return lines_hold(self.read_line, self.is_joker, on, grid.calls, keys)

    def _alone(self, grid: Grid[P], c: Cell) -> GridProblem:
        return GridProblem(
            lambda: refusal(
                self.rule("ALONE"),
                f"{{}}: {{piece}} touches no other {self.piece}; every {self.piece} must be part of a line of"
                f" {MIN_SET} or more",
                where_words(c),
                piece=str(grid[c]),
            ),
            (c,),
        )

    def _read(self, grid: Grid[P], line: Line, problems: list[GridProblem]) -> tuple[LineReading[P], ...]:
        cells = line.cells
        on = grid.cells
        pieces = tuple([on[c] for c in cells])
        if len(pieces) >= MIN_SET:
            verdict = self.read_line(pieces)
            if verdict.valid:
                calls = grid.calls
                if not calls or not any(c in calls for c in cells):
                    return verdict.readings
        # A problem's words are put together only when someone reads them (a listing only asks whether).
        if len(pieces) < MIN_SET:
            problems.append(
                GridProblem(
                    lambda: refusal(
                        self.rule("LINE-SIZE"),
                        f"{{}}: a line of {counted(len(pieces), self.piece)} ({{pieces}}); every line of"
                        f" touching {plural_of(self.piece)} needs {MIN_SET} or more",
                        line_words(line),
                        pieces=self.fmt(pieces),
                    ),
                    cells,
                )
            )
            return ()
        verdict = self.read_line(pieces)
        if not verdict.valid:
            problems.append(
                GridProblem(
                    lambda: refusal(
                        self.rule(verdict.rule or "LINE"),
                        f"{{}} ({{pieces}}): {literal(verdict.reason or '')}",
                        line_words(line),
                        pieces=self.fmt(pieces),
                    ),
                    cells,
                )
            )
            return ()
        where = line_words(line)
        shown = self.fmt(pieces)
        found = verdict.readings
        for pos, cell in enumerate(cells):
            called = grid.calls.get(cell)
            if called is None:
                continue
            kept = tuple(r for r in found if r.pieces[pos] == called)
            if not kept:
                could = " or ".join(sorted({str(r.pieces[pos]) for r in found}))
                wrong = refusal(
                    self.rule("CALLED"),
                    "{} ({pieces}): the joker at {} was called {called}, but this line needs it to be {could}",
                    where,
                    cell_words(cell),
                    pieces=shown,
                    called=str(called),
                    could=could,
                )
                problems.append(GridProblem(wrong, cells))
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
        *,
        quick: bool = False,
    ) -> tuple[dict[Cell, P], dict[Cell, frozenset[P]]]:
        """Choose one reading per valid line so that every joker in two lines is the same piece in both.

        ``quick``: stop at the first joker that cannot be read, marking the
        problem without wording it, and take each component's first reading
        that fits (for :meth:`holds`, which asks only whether one does; the
        roles and options returned are then not the verdict's).
        """
        holders: dict[Cell, list[tuple[int, int]]] = {}
        on = grid.cells
        is_joker = self.is_joker
        for i in readings:
            for pos, c in enumerate(lines[i].cells):
                if is_joker(on[c]):
                    holders.setdefault(c, []).append((i, pos))
        if not holders:
            return {}, {}
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
        jokers_of: dict[int, list[Cell]] = {}
        for c, held in holders.items():
            jokers_of.setdefault(find(held[0][0]), []).append(c)
        for members in components.values():
            jokers = jokers_of.get(find(members[0]))
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
                if quick:
                    # Whether the jokers can be read is all that is asked: the first reading that fits will do.
                    best = (0, assigned)
                    break
                for c, piece in assigned.items():
                    options.setdefault(c, set()).add(piece)
                score = sum(self.value(p) for p in assigned.values())
                if best is None or score > best[0]:
                    best = (score, assigned)
            if best is None:
                if quick:
                    problems.append(GridProblem(self._unreadable, ()))
                    break
                problems.append(self._cross_problem(grid, lines, readings, holders, jokers))
            else:
                roles.update(best[1])
        return roles, {c: frozenset(v) for c, v in options.items()}

    def _unreadable(self) -> RuleError:
        """The problem :meth:`holds` notes when a joker cannot be read (made only if read: holds only asks
        whether there is one)."""
        return RuleError(self.rule("JOKER-CROSS"), "a joker cannot be read")

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
                wrong = refusal(
                    self.rule("JOKER-CROSS"),
                    f"{{}}: a joker in two lines must be one {self.piece} that fits both; {{}} needs it to be"
                    " {first_needs}, {} needs {second_needs}",
                    where_words(c),
                    line_words(first, "first"),
                    line_words(second, "second"),
                    first_needs=" or ".join(map(str, a)),
                    second_needs=" or ".join(map(str, b)),
                )
                return GridProblem(wrong, (c,))
        c = shared[0]
        wrong = refusal(
            self.rule("JOKER-CROSS"),
            f"{{}}: the jokers of these crossing lines cannot each be one {self.piece} that fits both of its lines at"
            " the same time",
            where_words(c),
        )
        return GridProblem(wrong, tuple(shared))

    # -- a turn ------------------------------------------------------------------

    def placed(self, old: Grid[P], new: Grid[P]) -> list[P]:
        """The pieces a turn added to the grid (raises ``<prefix>-TABLE-KEEP`` if any piece left it)."""
        return self.placed_from(old.counts(), new.counts())

    def placed_from(self, before: Counter[P], after: Counter[P]) -> list[P]:
        """:meth:`placed` from the counts of the pieces before and after the turn (of the whole grid, or of the
        cells the turn changed: the others drop out of both differences)."""
        gone = before - after
        if gone:
            raise RuleError(
                self.rule("TABLE-KEEP"),
                f"every {self.piece} on the table stays on the table; missing at the end of the turn: {{pieces}}",
                pieces=self.fmt(sorted_pieces(gone)),
            )
        return sorted_pieces(after - before)

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
                error = verdict.problems[0].error
                wrong = RuleError(
                    error.rule,
                    f"your going-down lines on their own: {error.template}",
                    counted=error.counted,
                    **error.params,
                )
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
            fault = refusal(
                self.rule("OPENING-TABLE"),
                f"before going down you may not touch the table ({touch[0]}): in the {name}, new lines of"
                f" {plural_of(self.piece)} from one tray worth at least {counted(min_points, 'point')} on their own"
                " come first; after them the same turn may rearrange the table",
                *touch[1],
                min_points=min_points,
                **touch[2],
            )
        else:
            fault = refusal(
                self.rule("OPENING-POINTS"),
                f"your new lines of {plural_of(self.piece)} from the tray total {{points}} on their own (each"
                f" {self.piece} counted once); the {name} needs at least {counted(min_points, 'point')} before you"
                f" may touch the table ({touch[0]})",
                *touch[1],
                points=points,
                min_points=min_points,
                **touch[2],
            )
        return GoingDown(fault, True, lines, points)

    def _points_fault(self, points: int, min_points: int, name: str, what: str) -> RuleError:
        return RuleError(
            self.rule("OPENING-POINTS"),
            f"the {name} must total at least {counted(min_points, 'point')} (each {self.piece} counted once,"
            f" jokers as what they stand for); {what} {'totals' if what == 'this one' else 'total'} {{points}}",
            points=points,
            min_points=min_points,
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
                "the going-down lines hold {pieces}, which the turn does not place from the tray",
                pieces=self.fmt(sorted_pieces(extra)),
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

    def _touch(self, old: Grid[P], new: Grid[P]) -> Touch | None:
        """How a turn touched the table (a table piece moved, or a line joining new pieces to table pieces), or None.

        The words are a part of a refusal's template: its places (for :func:`refusal`) and other params.
        """
        for cell, piece in old.cells.items():
            if new.get(cell) != piece:
                return "{moved} at {} was moved", (cell_words(cell),), {"moved": str(piece)}
        fresh = {c for c in new.cells if c not in old.cells}
        for line in new.lines():
            cells = line.cells
            if any(c in fresh for c in cells) and any(c not in fresh for c in cells):
                text = f"{{}} joins your {plural_of(self.piece)} to {plural_of(self.piece)} that were on the table"
                return text, (line_words(line),), {}
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


Touch = tuple[str, tuple[Words, ...], dict[str, Param]]
"""How a turn touched the table, for a refusal: a part of a template, its places and its other params."""

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


def _supported(grid: Grid[P], cells: frozenset[Cell]) -> frozenset[Cell]:
    """The cells of ``cells`` that lie in a line of 3 or more of them (dropping cells until none is left alone)."""
    while cells:
        sub = grid.only(cells)
        kept = frozenset(c for line in sub.lines() if len(line) >= MIN_SET for c in line.cells)
        if kept == cells:
            break
        cells = kept
    return cells




def _covered(grid: Grid[P], cell: Cell) -> bool:
    r, c = cell
    cells = grid.cells
    return (r, c - 1) in cells or (r, c + 1) in cells or (r - 1, c) in cells or (r + 1, c) in cells


def sorted_pieces(counter: Counter[P]) -> list[P]:
    """The pieces of a multiset, sorted."""
    return sorted(counter.elements())  # type: ignore[type-var]
