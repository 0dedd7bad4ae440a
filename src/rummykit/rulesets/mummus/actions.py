"""Mummus's actions and their notation.

Every action is a frozen dataclass with the two serial forms of the engine's
contract: its text (``str(action)``, read back by :func:`parse_action_text`
after the seat) and its JSON object (read back by ``INFO.action_from_json``
with :func:`parse_piece` for the cards). Neither needs a game state.

A meld on the table is named by **any card it holds** (``to 5H``): cards are
unique and melds never split, so the name stays right however the table
grows, and a record never depends on how melds are numbered on a screen.

>>> str(Addon(2, parse_cards('8H 9H'), Card.parse('5H')))
'2 addon 8H 9H to 5H'
>>> Rummy(1, parse_cards('8C 8D 8S')).to_json()
{'type': 'rummy', 'player': 1, 'cards': ['8C', '8D', '8S'], 'meld': None}
>>> parse_action_text(0, 'TAKE th')
Take(player=0, card=Card.parse('10H'))
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card, format_cards, parse_cards

__all__ = [
    "ACTIONS",
    "VERBS",
    "Addon",
    "Cards",
    "Discard",
    "Draw",
    "Meld",
    "Rummy",
    "Take",
    "parse_action_text",
    "parse_piece",
]

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Start a turn with the top card of the stock."""

    def text(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Start a turn from the discard pile: ``card`` and every card above it.

    The top card is an ordinary draw; a deeper card must be used in a meld or
    add-on in the same turn.
    """

    card: Card

    def text(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """Lay down a new meld of 3 or more cards from the hand (own turn, after the draw)."""

    cards: Cards

    def text(self) -> str:
        return f"meld {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Addon(Action):
    """Add one or more cards from the hand to the meld holding ``meld`` (any time, also out of turn)."""

    cards: Cards
    meld: Card

    def text(self) -> str:
        return f"addon {format_cards(self.cards)} to {self.meld}"


@dataclass(frozen=True, slots=True)
class Rummy(Action):
    """Call "rummy": claim discard-pile cards that extend the meld holding ``meld``, or form a new meld (None)."""

    cards: Cards
    meld: Card | None = None

    def text(self) -> str:
        where = "" if self.meld is None else f" to {self.meld}"
        return f"rummy {format_cards(self.cards)}{where}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """End the turn: put a card from the hand on top of the discard pile."""

    card: Card

    def text(self) -> str:
        return f"discard {self.card}"


ACTIONS: tuple[type[Action], ...] = (Draw, Take, Meld, Addon, Rummy, Discard)
"""Every action class of mummus (``GameInfo.actions``), in the order of a turn."""

VERBS = tuple(cls.type for cls in ACTIONS)
"""The verbs of the notation: draw, take, meld, addon, rummy, discard."""


def parse_piece(text: str) -> Card:
    """One card in notation (``AS``, ``10H``; ``TH`` reads as ``10H``).

    >>> parse_piece('td')
    Card.parse('10D')
    """
    return Card.parse(text)


def _cards(words: list[str], text: str) -> Cards:
    try:
        return tuple(parse_cards(words))
    except ParseError as exc:
        raise ParseError(f"{exc} (in {text.strip()!r})") from None


def _target(words: list[str], usage: str, text: str, *, optional: bool) -> tuple[Cards, Card | None]:
    """``CARDS [to CARD]``: the cards and the card naming the meld."""
    lowered = [w.lower() for w in words]
    if "to" in lowered:
        i = lowered.index("to")
        if i == 0 or len(words) != i + 2:
            raise ParseError(f"write '{usage}', got {text.strip()!r}")
        return _cards(words[:i], text), _cards(words[i + 1 :], text)[0]
    if not optional or not words:
        raise ParseError(f"write '{usage}', got {text.strip()!r}")
    return _cards(words, text), None


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in mummus notation.

    >>> parse_action_text(1, 'addon 9h to 5h')
    Addon(player=1, cards=(Card.parse('9H'),), meld=Card.parse('5H'))
    >>> parse_action_text(0, 'rummy 7C 7D 7S').text()
    'rummy 7C 7D 7S'
    >>> parse_action_text(0, 'addon 9H')
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: write 'addon CARD ... to CARD-OF-THE-MELD', got 'addon 9H'
    """
    words = text.split()
    if not words:
        raise ParseError(f"an empty action: use {', '.join(VERBS)}")
    verb, args = words[0].lower(), words[1:]

    def need(count: int, usage: str) -> None:
        if len(args) != count:
            raise ParseError(f"write '{usage}', got {text.strip()!r}")

    if verb == "draw":
        need(0, "draw")
        return Draw(seat)
    if verb == "take":
        need(1, "take CARD")
        return Take(seat, _cards(args, text)[0])
    if verb == "meld":
        if not args:
            raise ParseError(f"write 'meld CARD CARD CARD ...', got {text.strip()!r}")
        return Meld(seat, _cards(args, text))
    if verb == "addon":
        cards, meld = _target(args, "addon CARD ... to CARD-OF-THE-MELD", text, optional=False)
        assert meld is not None
        return Addon(seat, cards, meld)
    if verb == "rummy":
        cards, meld = _target(args, "rummy CARD ... [to CARD-OF-THE-MELD]", text, optional=True)
        return Rummy(seat, cards, meld)
    if verb == "discard":
        need(1, "discard CARD")
        return Discard(seat, _cards(args, text)[0])
    raise ParseError(f"unknown action {verb!r}: use {', '.join(VERBS)}")
