"""Conveyor's actions and their notation.

Every action is a frozen dataclass with the two serial forms of the engine's
contract: its text (``str(action)``, read back by :func:`parse_action_text`
after the seat) and its JSON object (:meth:`~rummykit.engine.core.Action.to_json`,
read back by ``INFO.action_from_json`` with :func:`parse_piece` for the
dominoes). Neither needs a game state.

>>> str(Jump(2, Domino(3, 5), (Domino(3, 3), Domino(3, 4))))
'2 jump 3-5 with 3-3 3-4'
>>> Layoff(1, 0, Domino(4, 6), 'high').to_json()
{'type': 'layoff', 'player': 1, 'meld': 0, 'domino': '4-6', 'end': 'high'}
>>> Close(0).to_json()
{'type': 'close', 'player': 0, 'discard': None}
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.blocks.conveyor import ENDS
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.melds.conveyor import END_NAMES
from rummykit.pieces.dominoes import Domino, format_dominoes

__all__ = [
    "ACTIONS",
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


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Selection round: turn a face-down domino of an unclaimed column face up."""

    column: int
    index: int

    def text(self) -> str:
        return f"reveal {self.column} {self.index}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Selection round: take an unclaimed column as your hand."""

    column: int

    def text(self) -> str:
        return f"claim {self.column}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Start a turn: take the domino at ``end`` (``top``/``bottom``) of a conveyor."""

    column: int
    end: str

    def text(self) -> str:
        return f"draw {self.column} {self.end}"


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """Lay down a meld from your hand (any order; the table keeps its normal order)."""

    dominoes: Pieces

    def text(self) -> str:
        return f"meld {format_dominoes(self.dominoes)}"


@dataclass(frozen=True, slots=True)
class Layoff(Action):
    """Add one domino from your hand at one end (``low``/``high``) of a meld on the table."""

    meld: int
    domino: Domino
    end: str

    def text(self) -> str:
        return f"layoff {self.meld} {self.domino} {self.end}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """End the turn: put a domino face up at the opposite end of the conveyor drawn from."""

    domino: Domino

    def text(self) -> str:
        return f"discard {self.domino}"


@dataclass(frozen=True, slots=True)
class Close(Action):
    """``domino_runs``: close with the hand as one line (after discarding ``discard``, if given)."""

    discard: Domino | None = None

    def text(self) -> str:
        return "close" if self.discard is None else f"close {self.discard}"


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """``jump_ins``: claim the domino just discarded, with the ``rest`` of a meld it completes if required."""

    domino: Domino
    rest: Pieces = ()

    def text(self) -> str:
        if not self.rest:
            return f"jump {self.domino}"
        return f"jump {self.domino} with {format_dominoes(self.rest)}"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """``jump_ins``: let the discard go."""

    def text(self) -> str:
        return "decline"


ACTIONS: tuple[type[Action], ...] = (Reveal, Claim, Draw, Meld, Layoff, Discard, Close, Jump, Decline)
"""Every action class of conveyor (``GameInfo.actions``), in the order of a round."""


def parse_piece(text: str) -> Domino:
    """One domino in notation (``3-5``; ``5:3`` and ``5/3`` read the same).

    >>> parse_piece('5:3')
    Domino.parse('3-5')
    """
    return Domino.parse(text)


def _int(word: str, what: str, text: str) -> int:
    if not word.isdigit():
        raise ParseError(f"{what} must be a whole number from 0, got {word!r} in {text!r}")
    return int(word)


def _domino_word(word: str, text: str) -> Domino:
    try:
        return Domino.parse(word)
    except ParseError:
        raise ParseError(f"bad domino {word!r}: write its halves like 3-5") from None


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in conveyor notation.

    >>> parse_action_text(1, 'layoff 0 4-6 HIGH')
    Layoff(player=1, meld=0, domino=Domino.parse('4-6'), end='high')
    >>> parse_action_text(0, 'jump 5:3 with 3-3 3-4').text()
    'jump 3-5 with 3-3 3-4'
    """
    words = text.split()
    if not words:
        raise ParseError("an empty action: use reveal, claim, draw, meld, layoff, discard, close, jump or decline")
    verb, args = words[0].lower(), words[1:]

    def need(count: int, usage: str) -> None:
        if len(args) != count:
            raise ParseError(f"write '{usage}', got {text.strip()!r}")

    if verb == "reveal":
        need(2, "reveal COLUMN INDEX")
        return Reveal(seat, _int(args[0], "the column", text), _int(args[1], "the index", text))
    if verb == "claim":
        need(1, "claim COLUMN")
        return Claim(seat, _int(args[0], "the column", text))
    if verb == "draw":
        need(2, "draw COLUMN top|bottom")
        end = args[1].lower()
        if end not in ENDS:
            raise ParseError(f"a conveyor's ends are 'top' and 'bottom', got {args[1]!r}")
        return Draw(seat, _int(args[0], "the column", text), end)
    if verb == "meld":
        if not args:
            raise ParseError(f"write 'meld DOMINO DOMINO DOMINO ...', got {text.strip()!r}")
        return Meld(seat, tuple(_domino_word(w, text) for w in args))
    if verb == "layoff":
        need(3, "layoff MELD DOMINO low|high")
        end = args[2].lower()
        if end not in END_NAMES:
            raise ParseError(f"a meld's ends are 'low' and 'high', got {args[2]!r}")
        return Layoff(seat, _int(args[0], "the meld number", text), _domino_word(args[1], text), end)
    if verb == "discard":
        need(1, "discard DOMINO")
        return Discard(seat, _domino_word(args[0], text))
    if verb == "close":
        if len(args) > 1:
            raise ParseError(f"write 'close' or 'close DOMINO-TO-DISCARD', got {text.strip()!r}")
        return Close(seat, _domino_word(args[0], text) if args else None)
    if verb == "jump":
        if not args or (len(args) > 1 and (args[1].lower() != "with" or len(args) < 3)):
            raise ParseError(f"write 'jump DOMINO' or 'jump DOMINO with DOMINO DOMINO ...', got {text.strip()!r}")
        return Jump(seat, _domino_word(args[0], text), tuple(_domino_word(w, text) for w in args[2:]))
    if verb == "decline":
        need(0, "decline")
        return Decline(seat)
    raise ParseError(
        f"unknown action {verb!r}: use reveal, claim, draw, meld, layoff, discard, close, jump or decline"
    )
