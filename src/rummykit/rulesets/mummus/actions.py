"""Mummus's actions and their notation.

Every action is a frozen dataclass that declares its words once, in
``COMMAND`` (:mod:`rummykit.engine.commands`). From that come its text
(``str(action)``, read back by :func:`parse_action_text` after the seat), the
command a person types (see :data:`COMMANDS`) and its help row; its JSON object
(read back by ``INFO.action_from_json`` with :func:`parse_piece` for the cards)
comes from its fields. None of them needs a game state.

A meld on the table is named by **any card it holds** (``to 5H``): cards are
unique and melds never split, so the name stays right however the table
grows, and a record never depends on how melds are numbered on a screen. A
person may type the numbers a screen shows instead (counted from 1): ``take 3``
is the third card of the discard pile from the bottom, ``to 2`` the second
meld. Those are read against the view of the seat typing them
(``COMMANDS.read_typed(seat, line, view)``; the shortcuts that also need the
game's listing, such as leaving the meld out, are in
:mod:`~rummykit.rulesets.mummus.typed`).

>>> str(Addon(2, parse_cards('8H 9H'), Card.parse('5H')))
'2 addon 8H 9H to 5H'
>>> Rummy(1, parse_cards('8C 8D 8S')).to_json()
{'type': 'rummy', 'player': 1, 'cards': ['8C', '8D', '8S'], 'meld': None}
>>> parse_action_text(0, 'TAKE th')
Take(player=0, card=Card.parse('10H'))
>>> view = {'discard': ['9H', 'JC'], 'melds': [{'cards': ['5H', '6H', '7H']}]}
>>> COMMANDS.read_typed(0, 'take 2', view).text(), COMMANDS.read_typed(0, 'add on 8H to 1', view).text()
('take JC', 'addon 8H to 5H')
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.engine.commands import SHOWN_FROM, Command, Declared, Piece, Tail, View, command_table
from rummykit.engine.commands import Pieces as Several
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card, parse_cards
from rummykit.rulesets.mummus.views import mummus_view

__all__ = [
    "ACTIONS",
    "COMMANDS",
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

FIRST = SHOWN_FROM
"""The number a screen gives the bottom card of the discard pile and the first meld."""


def parse_piece(text: str) -> Card:
    """One card in notation (``AS``, ``10H``; ``TH`` reads as ``10H``).

    >>> parse_piece('td')
    Card.parse('10D')
    """
    return Card.parse(text)


def _card(word: str) -> Card:
    return parse_cards([word])[0]


def pile_card(view: View, n: int) -> str:
    """The card a screen numbers ``n`` in the discard pile (from 1, at the bottom)."""
    pile = mummus_view(view)["discard"]
    if not FIRST <= n < len(pile) + FIRST:
        if not pile:
            raise ParseError(f"the discard pile is empty: there is no card {n} to take")
        raise ParseError(f"the discard pile has cards {FIRST}..{len(pile)}, not {n}")
    return str(pile[n - FIRST])


def meld_card(view: View, n: int) -> str:
    """The card naming the meld a screen numbers ``n`` (from 1, in the order laid down): its first card."""
    melds = mummus_view(view)["melds"]
    if not melds:
        raise ParseError(f"there is no meld {n}: no meld is on the table yet")
    if not FIRST <= n < len(melds) + FIRST:
        raise ParseError(f"the melds are numbered {FIRST}..{len(melds)}, not {n}")
    return str(melds[n - FIRST]["cards"][0])


_MELD = Piece("meld", "CARD-OF-THE-MELD", parse=_card, numbered=meld_card)
_CARDS = Several("cards", "CARD", parse=_card)


@dataclass(frozen=True, slots=True)
class Draw(Declared):
    """Start a turn with the top card of the stock."""

    COMMAND = Command(aliases=("stock",))


@dataclass(frozen=True, slots=True)
class Take(Declared):
    """Start a turn from the discard pile: a card and every card above it.

    The top card is an ordinary draw; a deeper card must be used in a meld or
    add-on in the same turn.
    """

    card: Card

    COMMAND = Command(Piece("card", "CARD", parse=_card, numbered=pile_card))


@dataclass(frozen=True, slots=True)
class Meld(Declared):
    """Lay down a new meld of 3 or more cards from the hand (own turn, after the draw)."""

    cards: Cards

    COMMAND = Command(_CARDS)


@dataclass(frozen=True, slots=True)
class Addon(Declared):
    """Add cards from the hand to the meld holding a card (any time, also out of turn)."""

    cards: Cards
    meld: Card

    COMMAND = Command(_CARDS, Tail("to", _MELD), aliases=("add on",))


@dataclass(frozen=True, slots=True)
class Rummy(Declared):
    """Call "rummy": claim discard-pile cards that extend the meld holding a card, or form a new meld."""

    cards: Cards
    meld: Card | None = None

    COMMAND = Command(_CARDS, Tail("to", _MELD))


@dataclass(frozen=True, slots=True)
class Discard(Declared):
    """End the turn: put a card from the hand on top of the discard pile."""

    card: Card

    COMMAND = Command(Piece("card", "CARD", parse=_card))


ACTIONS: tuple[type[Action], ...] = (Draw, Take, Meld, Addon, Rummy, Discard)
"""Every action class of mummus (``GameInfo.actions``), in the order of a turn."""

VERBS = tuple(cls.type for cls in ACTIONS)
"""The verbs of the notation: draw, take, meld, addon, rummy, discard."""

COMMANDS = command_table(ACTIONS)
"""Mummus's command table (:class:`~rummykit.engine.commands.Commands`): typed commands, help rows, Tab's words."""


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
    return COMMANDS.read(seat, text)
