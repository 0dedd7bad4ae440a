"""Conveyor's actions and their notation.

Every action is a frozen dataclass that declares its words once, in
``COMMAND`` (:mod:`rummykit.engine.commands`). From that come its text
(``str(action)``, read back by :func:`parse_action_text` after the seat), the
command a person types (columns, cells and melds counted from 1, see
:data:`COMMANDS`) and its help row; its JSON object
(:meth:`~rummykit.engine.core.Action.to_json`, read back by
``INFO.action_from_json`` with :func:`parse_piece` for the dominoes) comes from
its fields. None of them needs a game state.

>>> str(Jump(2, Domino(3, 5), (Domino(3, 3), Domino(3, 4))))
'2 jump 3-5 with 3-3 3-4'
>>> Layoff(1, 0, Domino(4, 6), 'high').to_json()
{'type': 'layoff', 'player': 1, 'meld': 0, 'domino': '4-6', 'end': 'high'}
>>> Close(0).to_json()
{'type': 'close', 'player': 0, 'discard': None}
>>> COMMANDS.typed_text(Reveal(0, 4, 0)), COMMANDS.read_typed(1, 'lay off 1 4-6 h')
('reveal 5 1', Layoff(player=1, meld=0, domino=Domino.parse('4-6'), end='high'))
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.blocks.conveyor import ENDS
from rummykit.engine.commands import Choice, Command, Declared, Piece, Position, Tail, command_table
from rummykit.engine.commands import Pieces as Several
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.melds.conveyor import END_NAMES
from rummykit.pieces.dominoes import Domino

__all__ = [
    "ACTIONS",
    "COMMANDS",
    "Claim",
    "Close",
    "Decline",
    "Discard",
    "Draw",
    "Jump",
    "Layoff",
    "Meld",
    "Pieces",
    "Reveal",
    "parse_action_text",
    "parse_piece",
]

Pieces = tuple[Domino, ...]


def parse_piece(text: str) -> Domino:
    """One domino in notation (``3-5``; ``5:3`` and ``5/3`` read the same).

    >>> parse_piece('5:3')
    Domino.parse('3-5')
    """
    return Domino.parse(text)


def _domino_word(word: str) -> Domino:
    try:
        return Domino.parse(word)
    except ParseError:
        raise ParseError(f"bad domino {word!r}: write its halves like 3-5") from None


def _domino(field: str) -> Piece:
    return Piece(field, "DOMINO", parse=_domino_word)


def _dominoes(field: str) -> Several:
    return Several(field, "DOMINO", parse=_domino_word)


_SHORT_ENDS = {"t": "top", "b": "bottom", "l": "low", "lo": "low", "h": "high", "hi": "high"}
"""The ends a person may type for short."""


@dataclass(frozen=True, slots=True)
class Reveal(Declared):
    """Selection round: turn up a face-down domino of an unclaimed column (cells count from the top)."""

    column: int
    index: int

    COMMAND = Command(Position("column"), Position("index", "CELL", "cell"))


@dataclass(frozen=True, slots=True)
class Claim(Declared):
    """Selection round: take an unclaimed column as your hand."""

    column: int

    COMMAND = Command(Position("column"))


@dataclass(frozen=True, slots=True)
class Draw(Declared):
    """Start a turn: take the domino at one end (top or bottom) of a conveyor."""

    column: int
    end: str

    COMMAND = Command(
        Position("column"), Choice("end", what="a conveyor's ends", words=ENDS, aliases=_SHORT_ENDS)
    )


@dataclass(frozen=True, slots=True)
class Meld(Declared):
    """Lay down a meld of 3 or more dominoes from your hand (any order; the table keeps its normal order)."""

    dominoes: Pieces

    COMMAND = Command(_dominoes("dominoes"))


@dataclass(frozen=True, slots=True)
class Layoff(Declared):
    """Add a domino from your hand at one end (low or high) of a meld on the table."""

    meld: int
    domino: Domino
    end: str

    COMMAND = Command(
        Position("meld"),
        _domino("domino"),
        Choice("end", what="a meld's ends", words=END_NAMES, aliases=_SHORT_ENDS),
        aliases=("lay off",),
    )


@dataclass(frozen=True, slots=True)
class Discard(Declared):
    """End the turn: the domino goes face up to the other end of the conveyor drawn from."""

    domino: Domino

    COMMAND = Command(_domino("domino"))


@dataclass(frozen=True, slots=True)
class Close(Declared):
    """Domino runs: close with the rest of the hand as one line (after discarding a domino, if given)."""

    discard: Domino | None = None

    COMMAND = Command(_domino("discard"), option="domino_runs")


@dataclass(frozen=True, slots=True)
class Jump(Declared):
    """Jump-in window: claim the domino just discarded (``with`` the ``rest`` of the meld it completes, if required)."""

    domino: Domino
    rest: Pieces = ()

    COMMAND = Command(
        _domino("domino"), Tail("with", _dominoes("rest")), aliases=("mine",), option="jump_ins"
    )


@dataclass(frozen=True, slots=True)
class Decline(Declared):
    """Jump-in window: let the discard go."""

    COMMAND = Command(aliases=("pass",), option="jump_ins")


ACTIONS: tuple[type[Action], ...] = (Reveal, Claim, Draw, Meld, Layoff, Discard, Close, Jump, Decline)
"""Every action class of conveyor (``GameInfo.actions``), in the order of a round."""


COMMANDS = command_table(ACTIONS)
"""Conveyor's command table (:class:`~rummykit.engine.commands.Commands`): typed commands, help rows, Tab's words."""


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in conveyor notation.

    >>> parse_action_text(1, 'layoff 0 4-6 HIGH')
    Layoff(player=1, meld=0, domino=Domino.parse('4-6'), end='high')
    >>> parse_action_text(0, 'jump 5:3 with 3-3 3-4').text()
    'jump 3-5 with 3-3 3-4'
    >>> parse_action_text(0, 'draw 2 middle')
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: a conveyor's ends are 'top' and 'bottom', got 'middle'
    """
    return COMMANDS.read(seat, text)
