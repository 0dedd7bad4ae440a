"""Two-tray's actions and their text form.

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
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rummykit.blocks.grid import Put, parse_cell
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.tiles import Tile

__all__ = [
    "DOWN",
    "Call",
    "Draw",
    "End",
    "Fail",
    "Pass",
    "Play",
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


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw one tile from the pool onto a tray (the playing tray; either on a player's first turn)."""

    tray: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))

    def text(self) -> str:
        return f"draw {self.tray}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn without playing, when the pool is empty."""

    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class End(Action):
    """End a turn after emptying a tray, without playing from the other tray."""

    def text(self) -> str:
        return "end"


DOWN = "down"
"""The word before a play's going-down lines."""


def _down(down: Changes) -> Changes:
    down = _normal(tuple(down))
    if any(p.piece is None for p in down):
        raise ParseError("the going-down lines after 'down' lay tiles (ROW,COLUMN=TILE); none empties a cell")
    return down


def _turn_text(verb: str, tray: str, changes: Changes, down: Changes) -> str:
    words = [verb, tray, *map(str, changes)]
    if down:
        words += [DOWN, *map(str, down)]
    return " ".join(words)


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Commit a turn: the tray played from and the grid cells that changed (in cell order).

    ``down`` (only in the turn a player goes down, and only when needed)
    names the going-down lines as first laid: tiles the play places, valid
    lines on their own worth the threshold. Without it the game looks for
    them in the grid the play leaves.
    """

    tray: str
    changes: Changes
    down: Changes = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))
        object.__setattr__(self, "changes", _normal(tuple(self.changes)))
        object.__setattr__(self, "down", _down(self.down))

    def text(self) -> str:
        return _turn_text("play", self.tray, self.changes, self.down)


@dataclass(frozen=True, slots=True)
class Fail(Action):
    """Commit a turn that breaks a rule, knowingly, taking the penalty (wrong tray or invalid table)."""

    tray: str
    changes: Changes
    down: Changes = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tray", parse_tray(self.tray))
        object.__setattr__(self, "changes", _normal(tuple(self.changes)))
        object.__setattr__(self, "down", _down(self.down))

    def text(self) -> str:
        return _turn_text("fail", self.tray, self.changes, self.down)


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Name the tile a joker of a 3-tile group stands for (a colour the group lacks)."""

    row: int
    col: int
    tile: Tile

    def text(self) -> str:
        return f"call {self.row},{self.col} {self.tile}"


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


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat): ``draw T``, ``pass``, ``end``, ``play T CHANGES [down PUTS]``,
    ``fail T CHANGES [down PUTS]`` or ``call ROW,COLUMN TILE``."""
    words = text.split()
    if not words:
        raise ParseError("an empty action: use draw, pass, end, play, fail or call")
    verb, args = words[0].lower(), words[1:]
    if verb in ("pass", "end"):
        if args:
            raise ParseError(f"'{verb}' takes nothing after it, got {' '.join(args)!r}")
        return Pass(seat) if verb == "pass" else End(seat)
    if verb == "draw":
        if len(args) != 1:
            raise ParseError("write 'draw T' with the tray T the tile goes onto (e.g. draw A)")
        return Draw(seat, args[0])
    if verb in ("play", "fail"):
        if not args:
            raise ParseError(f"write '{verb} T ROW,COLUMN=TILE ...': the tray, then each changed cell")
        cls = Play if verb == "play" else Fail
        changes, down = split_down(args[1:])
        return cls(seat, args[0], parse_changes(changes), parse_changes(down))
    if verb == "call":
        if len(args) != 2:
            raise ParseError("write 'call ROW,COLUMN TILE' (e.g. call 2,0 O3)")
        row, col = parse_cell(args[0])
        return Call(seat, row, col, Tile.parse(args[1]))
    raise ParseError(f"unknown action {verb!r}: use draw, pass, end, play, fail or call")
