"""Two-tray's actions and their text form.

Every action is a frozen dataclass that declares its words once, in
``COMMAND`` (:mod:`rummykit.engine.commands`): its text, its parser
(:func:`parse_action_text`), the command a person types (cells counted from 1,
a play that takes its penalty said ``penalty``: see :data:`COMMANDS`) and its
help row come from there.

A turn that puts tiles on the grid is one :class:`Play`: the tray the tiles
come from and the cells that changed, each written ``ROW,COLUMN=TILE`` (or
``ROW,COLUMN=.`` for a cell the turn emptied). The tiles placed from the tray
are whatever the changed grid holds beyond the old one. A play in which the
player goes down may also name its going-down lines after the word ``down``
(each ``ROW,COLUMN=TILE``, the lines as first laid), for a turn that went on
to rearrange them; otherwise the game finds them in the grid.

>>> a = parse_action_text(0, 'play a 0,2=R7 0,0=r5 0,1=R6')
>>> str(a), a.to_json()['changes']
('0 play A 0,0=R5 0,1=R6 0,2=R7', ['0,0=R5', '0,1=R6', '0,2=R7'])
>>> str(parse_action_text(0, 'play A 0,3=R10 4,0=R11 4,1=R12 4,2=K1 down 4,0=R10 4,1=R11 4,2=R12'))
'0 play A 0,3=R10 4,0=R11 4,1=R12 4,2=K1 down 4,0=R10 4,1=R11 4,2=R12'
>>> str(parse_action_text(1, 'call 2,0 o3')), str(parse_action_text(1, 'draw b'))
('1 call 2,0 O3', '1 draw B')
>>> COMMANDS.typed_text(a), COMMANDS.read_typed(0, 'penalty a 1,1=R5').text()
('play A 1,1=R5 1,2=R6 1,3=R7', 'fail A 0,0=R5')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from rummykit.blocks.grid import Put, parse_cell
from rummykit.engine.commands import (
    SHOWN_FROM,
    Command,
    Declared,
    Part,
    Piece,
    Reading,
    Tail,
    Word,
    command_table,
)
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.tiles import Tile

__all__ = [
    "ACTIONS",
    "COMMANDS",
    "DOWN",
    "Call",
    "Cell",
    "Draw",
    "End",
    "Fail",
    "Pass",
    "Play",
    "Puts",
    "parse_action_text",
    "parse_changes",
    "parse_tray",
    "split_down",
]

Changes = tuple[Put[Tile], ...]


def parse_tray(text: str) -> str:
    """A tray's name as written in actions (letters, any case): ``A``, ``B`` or ``AB``."""
    name = text.strip().upper()
    if not name.isalpha():
        raise ParseError(f"a tray is named by its letters (A, B, or AB once merged), got {text.strip()!r}")
    return name


def _normal(changes: Changes) -> Changes:
    ordered = tuple(sorted(changes, key=lambda p: p.cell))
    for a, b in itertools.pairwise(ordered):
        if a.cell == b.cell:
            raise ParseError(f"cell {a.row},{a.col} is changed twice in one play")
    return ordered


# -- the grid's parts of a command (positions shown from 1, like every other) ----------------


@dataclass(frozen=True)
class Cell(Part):
    """A grid cell written ``ROW,COLUMN`` that fills two number fields (``field`` and ``col``).

    Rows and columns may be negative (a grid grows every way); a person sees
    and types each one more.
    """

    col: str = "col"
    name: str = "ROW,COLUMN"
    plain: ClassVar[bool] = False

    @property
    def fields(self) -> tuple[str, ...]:
        """The row's field and the column's."""
        return (self.field, self.col)

    def write(self, values: Sequence[object], typed: bool) -> list[str]:
        """``ROW,COLUMN`` (typed: each one more)."""
        shift = SHOWN_FROM if typed else 0
        return [f"{cast(int, values[0]) + shift},{cast(int, values[1]) + shift}"]

    def read(self, words: Sequence[str], reading: Reading) -> tuple[object, ...]:
        """The row and the column (typed: each one less)."""
        row, col = parse_cell(words[0])
        shift = SHOWN_FROM if reading.typed else 0
        return (row - shift, col - shift)


@dataclass(frozen=True)
class Puts(Piece):
    """Grid cells a turn changed, each ``ROW,COLUMN=PIECE`` (or ``ROW,COLUMN=.``): any number of them.

    The pieces are read by ``parse``; a person types each cell one more.
    """

    many: ClassVar[bool] = True
    least: ClassVar[int] = 0
    name: str = "ROW,COLUMN=PIECE"

    def word(self, value: object, typed: bool) -> str:
        """``ROW,COLUMN=PIECE`` (typed: the cell's numbers one more)."""
        put = cast("Put[object]", value)
        return str(Put(put.row + SHOWN_FROM, put.col + SHOWN_FROM, put.piece) if typed else put)

    def read(self, words: Sequence[str], reading: Reading) -> tuple[object, ...]:
        """The changes (typed: a cell changed twice is refused in the numbers the person typed)."""
        puts = cast("tuple[Put[object], ...]", super().read(words, reading)[0])
        seen: set[tuple[int, int]] = set()
        for put in puts:
            if reading.typed and put.cell in seen:
                raise ParseError(f"cell {put.row + SHOWN_FROM},{put.col + SHOWN_FROM} is changed twice in one turn")
            seen.add(put.cell)
        return (puts,)

    def value(self, word: str, reading: Reading) -> object:
        """The :class:`~rummykit.blocks.grid.Put` (typed: the cell's numbers one less)."""
        put = Put.from_notation(word, self.parse)
        return Put(put.row - SHOWN_FROM, put.col - SHOWN_FROM, put.piece) if reading.typed else put


@dataclass(frozen=True, slots=True)
class Draw(Declared):
    """Draw one tile from the pool onto a tray (the playing tray; either on a player's first turn)."""

    tray: str

    COMMAND = Command(Word("tray", read_word=parse_tray))

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))


@dataclass(frozen=True, slots=True)
class Pass(Declared):
    """End the turn without playing, when the pool is empty."""

    COMMAND = Command()


@dataclass(frozen=True, slots=True)
class End(Declared):
    """End a turn after emptying a tray, without playing from the other tray."""

    COMMAND = Command()


DOWN = "down"
"""The word before a play's going-down lines."""


def _down(down: Changes) -> Changes:
    down = _normal(tuple(down))
    if any(p.piece is None for p in down):
        raise ParseError("the going-down lines after 'down' lay tiles (ROW,COLUMN=TILE); none empties a cell")
    return down


def _turn(said: str = "") -> Command:
    """The words of a committed turn: the tray, the changed cells, then the going-down lines after ``down``."""
    return Command(
        Word("tray", read_word=parse_tray),
        Puts("changes", "ROW,COLUMN=TILE", parse=Tile.parse),
        Tail(DOWN, Puts("down", "ROW,COLUMN=TILE", parse=Tile.parse), what="going-down lines"),
        said=said,
    )


@dataclass(frozen=True, slots=True)
class Play(Declared):
    """Commit a turn: the tray played from and the grid cells that changed (in cell order).

    ``down`` (only in the turn a player goes down, and only when needed)
    names the going-down lines as first laid: tiles the play places, valid
    lines on their own worth the threshold. Without it the game looks for
    them in the grid the play leaves.
    """

    tray: str
    changes: Changes
    down: Changes = ()

    COMMAND = _turn()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))
        object.__setattr__(self, "changes", _normal(tuple(self.changes)))
        object.__setattr__(self, "down", _down(self.down))


@dataclass(frozen=True, slots=True)
class Fail(Declared):
    """Commit a turn that breaks a rule, knowingly, taking the penalty (wrong tray or invalid table)."""

    tray: str
    changes: Changes
    down: Changes = ()

    COMMAND = _turn(said="penalty")

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))
        object.__setattr__(self, "changes", _normal(tuple(self.changes)))
        object.__setattr__(self, "down", _down(self.down))


@dataclass(frozen=True, slots=True)
class Call(Declared):
    """Name the tile a joker of a 3-tile group stands for (a colour the group lacks)."""

    row: int
    col: int
    tile: Tile

    COMMAND = Command(Cell("row"), Piece("tile", "TILE", parse=Tile.parse))


def split_down(words: list[str]) -> tuple[list[str], list[str]]:
    """A play's words after the tray, split into its changes and its going-down lines (after ``down``)."""
    marks = [i for i, w in enumerate(words) if w.lower() == DOWN]
    if not marks:
        return words, []
    if len(marks) > 1:
        raise ParseError(f"'{DOWN}' comes once in a play, before the going-down lines")
    i = marks[0]
    if i + 1 == len(words):
        raise ParseError(f"write the going-down lines after '{DOWN}': ROW,COLUMN=TILE ...")
    return words[:i], words[i + 1 :]


def parse_changes(words: list[str]) -> Changes:
    """Read cell changes written ``ROW,COLUMN=TILE`` or ``ROW,COLUMN=.``."""
    return tuple(Put.from_notation(w, Tile.parse) for w in words)


ACTIONS: tuple[type[Action], ...] = (Draw, Pass, End, Play, Fail, Call)
"""Every action class of two-tray (``GameInfo.actions``)."""

COMMANDS = command_table(ACTIONS)
"""Two-tray's command table (:class:`~rummykit.engine.commands.Commands`): typed commands, help rows, Tab's words."""


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat): ``draw T``, ``pass``, ``end``, ``play T CHANGES [down PUTS]``,
    ``fail T CHANGES [down PUTS]`` or ``call ROW,COLUMN TILE``.

    >>> parse_action_text(0, 'call 2,0')
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: write 'call ROW,COLUMN TILE', got 'call 2,0'
    """
    return COMMANDS.read(seat, text)
