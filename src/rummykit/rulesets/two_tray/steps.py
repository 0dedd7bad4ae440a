"""The steps of a two-tray turn drafted on the grid, declared like actions (see :mod:`rummykit.rulesets.draft_steps`).

Cells are written ``ROW,COLUMN`` and typed as the grid is labelled (from 1).

>>> STEPS.read_typed(0, 'place R7 3,4 R8 3,5')
Place(player=0, puts=(Put(row=2, col=3, piece=Tile.parse('R7')), Put(row=2, col=4, piece=Tile.parse('R8'))))
>>> STEPS.typed_text(Move(0, 2, 3, 4, 0)), STEPS.read_typed(0, 'back 1,1'), STEPS.read_typed(0, 'tray b')
('move 3,4 5,1', Back(player=0, row=0, col=0), Tray(player=0, tray='B'))
>>> STEPS.read_typed(0, 'place R4 1,1 R5')
Traceback (most recent call last):
...
rummykit.errors.ParseError: write 'place TILE ROW,COLUMN ...': each tile, then its cell (place R7 3,4 R8 3,5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from rummykit.blocks.grid import Put
from rummykit.engine.commands import SHOWN_FROM, Command, Declared, Part, Reading, Word, command_table
from rummykit.errors import ParseError
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.draft_steps import Check, Commit
from rummykit.rulesets.two_tray.actions import Cell, parse_tray

__all__ = ["STEPS", "Back", "Move", "Place", "Placements", "Tray"]


@dataclass(frozen=True)
class Placements(Part):
    """Tiles and the cells they go to, in pairs: ``R7 3,4 R8 3,5`` (typed cells from 1)."""

    name: str = "TILE ROW,COLUMN"
    many: ClassVar[bool] = True
    least: ClassVar[int] = 2
    plain: ClassVar[bool] = False

    def write(self, values: Sequence[object], typed: bool) -> list[str]:
        """Each tile, then its cell."""
        shift = SHOWN_FROM if typed else 0
        words: list[str] = []
        for put in cast("Sequence[Put[Tile]]", values[0]):
            words += [str(put.piece), f"{put.row + shift},{put.col + shift}"]
        return words

    def read(self, words: Sequence[str], reading: Reading) -> tuple[object, ...]:
        """The tiles and their cells (a :class:`ParseError` unless the words come in pairs)."""
        if len(words) % 2:
            raise ParseError("write 'place TILE ROW,COLUMN ...': each tile, then its cell (place R7 3,4 R8 3,5)")
        cell = Cell("row")
        puts = []
        for i in range(0, len(words), 2):
            row, col = cast("tuple[int, int]", cell.read([words[i + 1]], reading))
            puts.append(Put(row, col, Tile.parse(words[i])))
        return (tuple(puts),)


@dataclass(frozen=True, slots=True)
class Place(Declared):
    """Put tiles from your playing tray in empty cells (place R7 3,4; several: place R7 3,4 R8 3,5)."""

    puts: tuple[Put[Tile], ...]

    COMMAND = Command(Placements("puts"))


@dataclass(frozen=True, slots=True)
class Move(Declared):
    """Move the tile in one cell to an empty cell (move 3,4 5,1)."""

    row: int
    col: int
    to_row: int
    to_col: int

    COMMAND = Command(Cell("row", name="FROM"), Cell("to_row", col="to_col", name="TO"))


@dataclass(frozen=True, slots=True)
class Back(Declared):
    """Take a tile you placed this turn back to your tray (back 3,4)."""

    row: int
    col: int

    COMMAND = Command(Cell("row"))


@dataclass(frozen=True, slots=True)
class Tray(Declared):
    """On your first turn: play from this tray (tray B)."""

    tray: str

    COMMAND = Command(Word("tray", "A|B", read_word=parse_tray))


STEPS = command_table((Place, Move, Back, Tray, Check, Commit))
"""The steps of a two-tray turn drafted on the grid (``undo`` and ``reset`` are the turn's own)."""

