"""The steps of a drafted turn, declared once like actions: their words, help rows and Tab words.

A person builds some turns before sending them (a game's ``info.draft``):
on a free table by making, adding to, splitting and merging sets, on a grid
by placing tiles in cells. Each step is declared here as the game's actions
are (:mod:`rummykit.engine.commands`), so the words a person types, their
reading (set numbers and positions counted from 1, as the screen counts
them), the help rows and Tab's words come from one place, for every
interface. A step is never sent to the game: the interface takes it on its
draft (:class:`~rummykit.blocks.draft.Draft`), and only the draft's commit
is an action. ``undo`` and ``reset``, which every draft takes, are the
turn's own.

The free table's pieces are read by the game's reader (tiles in one game,
dominoes in another: ``command_table(TABLE_STEPS, parse_pieces)``).

>>> from rummykit.engine.commands import command_table
>>> from rummykit.pieces.tiles import parse_tiles
>>> table = command_table(TABLE_STEPS, parse_tiles)
>>> table.read_typed(0, 'move R4 2 new'), table.read_typed(0, 'split 2 3')
(Move(player=0, piece=Tile.parse('R4'), source=1, target=None), Split(player=0, set=1, before=2))
>>> table.typed_text(Add(0, 0, tuple(parse_tiles('R4 R5')))), table.read_typed(0, 'done')
('add 1 R4 R5', Commit(player=0))
>>> [usage for usage, _ in table.rows({})][:4]
['new PIECE ...', 'add SET PIECE ...', 'move PIECE FROM TO|new', 'back PIECE']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.engine.commands import Command, Declared, GamePiece, GamePieces, Position, Target
from rummykit.engine.core import Action

__all__ = [
    "TABLE_STEPS",
    "Add",
    "Back",
    "Check",
    "Commit",
    "Hint",
    "Merge",
    "Move",
    "New",
    "Penalty",
    "Split",
]

PieceSet = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Check(Declared):
    """List what is wrong with the draft now."""

    COMMAND = Command()


@dataclass(frozen=True, slots=True)
class Commit(Declared):
    """End your turn with the draft as it is."""

    COMMAND = Command(aliases=("done",))


@dataclass(frozen=True, slots=True)
class New(Declared):
    """Make a new set (at the end of the table) from pieces of your rack."""

    pieces: PieceSet

    COMMAND = Command(GamePieces("pieces", "PIECE", "piece"))


@dataclass(frozen=True, slots=True)
class Add(Declared):
    """Add pieces from your rack to a set."""

    set: int
    pieces: PieceSet

    COMMAND = Command(Position("set"), GamePieces("pieces", "PIECE", "piece"))


@dataclass(frozen=True, slots=True)
class Move(Declared):
    """Move a piece from one set to another (``new``: to a new set at the end)."""

    piece: object
    source: int
    target: int | None

    COMMAND = Command(GamePiece("piece"), Position("source", "FROM", "set"), Target("target", "TO", "set"))


@dataclass(frozen=True, slots=True)
class Back(Declared):
    """Take a piece you placed this turn back to your rack."""

    piece: object

    COMMAND = Command(GamePiece("piece"))


@dataclass(frozen=True, slots=True)
class Split(Declared):
    """Split a set before its piece at POSITION (the rest becomes a new set at the end)."""

    set: int
    before: int

    COMMAND = Command(Position("set"), Position("before", "POSITION", "position"))


@dataclass(frozen=True, slots=True)
class Merge(Declared):
    """Put the second set on the end of the first (it stays empty until you commit)."""

    set: int
    other: int

    COMMAND = Command(Position("set"), Position("other", "SET", "set"))


@dataclass(frozen=True, slots=True)
class Penalty(Declared):
    """Commit an invalid table anyway: it is restored, and you draw the game's penalty."""

    COMMAND = Command()


@dataclass(frozen=True, slots=True)
class Hint(Declared):
    """Show the best play as steps (it plays nothing for you)."""

    COMMAND = Command()


TABLE_STEPS: tuple[type[Action], ...] = (New, Add, Move, Back, Split, Merge, Check, Commit, Penalty, Hint)
"""The steps of a free-table turn (``penalty`` and ``hint`` only in a game that has them)."""
