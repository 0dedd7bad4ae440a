"""A turn on a grid table built one step at a time: place, move, back, undo, reset, check.

Every refusal carries the cells it names as params counted from 0 (see
:mod:`rummykit.blocks.grid_rules`); an interface words them for its people.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from rummykit.blocks.grid_cells import Cell, Grid, Put, cell_words
from rummykit.blocks.grid_rules import GridProblem, GridRules, refusal, sorted_pieces
from rummykit.errors import RuleError
from rummykit.words import plural_of

P = TypeVar("P")

__all__ = ["GridDraft"]

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

    >>> from rummykit.melds.tile_lines import read_line
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
            raise refusal(self.rules.rule("DRAFT"), f"there is no {self.rules.piece} at {{}}", cell_words(source))
        self._need_empty(target)
        self._push()
        self.cells[target] = self.cells.pop(source)
        self._note_down()

    def back(self, cell: Cell) -> P:
        """Take the piece in ``cell`` back to the tray (only a piece placed this turn); returns it."""
        piece = self.cells.get(cell)
        if piece is None:
            raise refusal(self.rules.rule("DRAFT"), f"there is no {self.rules.piece} at {{}}", cell_words(cell))
        now = sum(1 for p in self.cells.values() if p == piece)
        then = sum(1 for p in self.original.cells.values() if p == piece)
        if now <= then:
            raise refusal(
                self.rules.rule("TABLE-KEEP"),
                f"{{piece}} at {{}} was on the table when the turn began; table {plural_of(self.rules.piece)} stay on"
                " the table",
                cell_words(cell),
                piece=str(piece),
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
        refused. A cell changed twice (or named twice in ``down``) is refused
        with ``<prefix>-DRAFT``.
        """
        changes = tuple(changes)
        for puts, what in ((changes, "changed twice in one turn"), (tuple(down), "named twice in the going-down lines")):
            seen: set[Cell] = set()
            for put in puts:
                if put.cell in seen:
                    raise refusal(self.rules.rule("DRAFT"), f"cell {{}} is {what}", cell_words(put.cell))
                seen.add(put.cell)
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
        return sorted_pieces(Counter(self.original_tray) - Counter(self.tray))

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
                return [GridProblem(opening.fault, ())]
        verdict = self.rules.verdict(grid)
        out = list(verdict.problems)
        if not placed:
            empty = RuleError(self.rules.rule("PLAY-EMPTY"), f"no {self.rules.piece} placed from your tray yet (draw instead)")
            out.append(GridProblem(empty, ()))
        if not out and opening is not None and opening.fault is not None:
            out.append(GridProblem(opening.fault, ()))
        return out

    def is_valid(self) -> bool:
        """True when the draft can be committed as a play."""
        return not self.problems()

    # -- internals -----------------------------------------------------------------

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
            raise refusal(self.rules.rule("DRAFT"), "{} already holds {piece}", cell_words(cell), piece=str(held))

    def _need_in_tray(self, piece: P, tray: Sequence[P] | None = None) -> None:
        if piece in (self.tray if tray is None else tray):
            return
        for name, pieces in self.others.items():
            if piece in pieces:
                raise RuleError(
                    self.rules.rule("WRONG-TRAY"),
                    "{piece} is on tray {tray}; this turn plays from tray {playing}",
                    piece=str(piece),
                    tray=name,
                    playing=self.tray_name,
                )
        where = "tray {playing}" if self.tray_name else "your tray"
        raise RuleError(self.rules.rule("TRAY"), f"{{piece}} is not on {where}", piece=str(piece), playing=self.tray_name)
