"""Commands: an action's words, declared once.

An action class that subclasses :class:`Declared` names its words in one
class attribute, ``COMMAND``: the parts that follow the verb, in order, each
saying which field it writes and what kind of thing it is. Everything else
is derived from that declaration:

* the record notation (:meth:`Syntax.text`, which is ``action.text()``) and
  its parser (:meth:`Syntax.read`, and :func:`read_action` for a game's
  action classes): the form records keep, positions counted from 0;
* the words a person types (:meth:`Syntax.typed_text` and
  :meth:`Commands.read_typed`): the same parts, with every position counted
  from 1 as screens show it, the verb a person says (``penalty`` for a play
  that takes its penalty) and its aliases (``lay off``, ``mine``);
* a help row (the typed usage and the first line of the class's docstring)
  and the words Tab offers (the verbs, the choice words, the keywords);
* the JSON form needs no declaration: :meth:`~rummykit.engine.core.Action.to_json`
  and :meth:`~rummykit.engine.core.GameInfo.action_from_json` read the
  dataclass fields themselves, with positions counted from 0 as in records.

The kinds of part: :class:`Position` (a column, meld, cell row... stored from
0, typed from 1), :class:`Cell` (two such numbers written ``ROW,COLUMN``),
:class:`Piece` and :class:`Pieces` (one piece, several pieces), :class:`Changes`
(grid cells changed by a turn, ``ROW,COLUMN=PIECE``), :class:`Choice` (one of a
few words), :class:`Word` (a word read by the game, such as a tray's letters),
and :class:`Tail`: a keyword and the parts after it (``jump 3-5 with 3-3 3-4``).
A part whose fields all have a default, last in its section, may be left out
(it is written only when its value is not the default).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Move(Declared):
...     '''Move the counter to a column, going up or down.'''
...     column: int
...     way: str
...     COMMAND = Command(Position("column"), Choice("way", words=("up", "down"), aliases={"u": "up"}))
>>> move = Move(0, 2, "up")
>>> move.text(), str(move)
('move 2 up', '0 move 2 up')
>>> syntax(Move).read(1, 'MOVE 4 down')
Move(player=1, column=4, way='down')
>>> syntax(Move).typed_text(move), command_table((Move,)).read_typed(0, 'move 3 u') == move
('move 3 up', True)
>>> command_table((Move,)).rows({})
[('move COLUMN up|down', 'Move the counter to a column, going up or down.')]
>>> syntax(Move).read(0, 'move 2 sideways')
Traceback (most recent call last):
...
rummykit.errors.ParseError: the ways are 'up' and 'down', got 'sideways'
"""

from __future__ import annotations

from rummykit.engine.commands.parts import (
    SHOWN_FROM,
    Choice,
    GamePiece,
    GamePieces,
    Part,
    Piece,
    Pieces,
    Position,
    Reading,
    Tail,
    Target,
    View,
    Word,
)
from rummykit.engine.commands.said import name_piece, name_pieces, natural_key, said_text
from rummykit.engine.commands.syntax import Command, Declared, Syntax, syntax
from rummykit.engine.commands.table import Commands, command_table, read_action

__all__ = [
    "SHOWN_FROM",
    "Choice",
    "Command",
    "Commands",
    "Declared",
    "GamePiece",
    "GamePieces",
    "Part",
    "Piece",
    "Pieces",
    "Position",
    "Reading",
    "Syntax",
    "Tail",
    "Target",
    "View",
    "Word",
    "command_table",
    "name_piece",
    "name_pieces",
    "natural_key",
    "read_action",
    "said_text",
    "syntax",
]
