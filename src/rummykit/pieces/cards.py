"""Playing cards: the 52 cards of a French-suited deck, written rank then suit (``AS``, ``10H``, ``QD``).

Ranks are ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K`` (the value 1 .. 13);
suits are ``C`` (clubs), ``D`` (diamonds), ``H`` (hearts) and ``S``
(spades). Reading ignores case and also accepts ``T`` for ten and the suit
symbols ``♣ ♦ ♥ ♠``; writing is canonical (``10H``, never ``TH``). Cards
are interned, immutable values that hash, compare and sort by suit (in the
order C, D, H, S), then rank.

Every card text names its suit by a letter, so a display never tells suits
apart by colour alone (:attr:`Suit.red` and :attr:`Suit.symbol` are there for
interfaces that want to add colour or symbols on top of the letter).

>>> Card.parse('th')
Card.parse('10H')
>>> Card.parse('as') is Card(1, Suit.SPADES), str(Card(12, Suit.DIAMONDS))
(True, 'QD')
>>> format_cards(sorted(parse_cards('KS 2C 10h A♦ jc')))
'2C JC AD 10H KS'
>>> Card.parse('QD').rank_text, Card.parse('QD').suit.symbol, Card.parse('QD').suit.red
('Q', '♦', True)
>>> len(DECK), DECK[0], DECK[-1]
(52, Card.parse('AC'), Card.parse('KS'))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar

from rummykit.errors import ParseError

__all__ = [
    "ACE",
    "DECK",
    "JACK",
    "KING",
    "QUEEN",
    "RANKS",
    "SUITS",
    "Card",
    "Suit",
    "by_rank",
    "format_cards",
    "parse_cards",
    "rank_plural",
    "rank_text",
]

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(ACE, KING + 1))
"""The ranks, as values: Ace 1, 2 .. 10, Jack 11, Queen 12, King 13."""

_RANK_TEXT = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}
_RANK_WORDS = {ACE: "ace", JACK: "jack", QUEEN: "queen", KING: "king"}


def rank_text(rank: int) -> str:
    """A rank as written in a card: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``.

    >>> [rank_text(r) for r in (1, 10, 13)]
    ['A', '10', 'K']
    """
    return _RANK_TEXT.get(rank, str(rank))


def rank_plural(rank: int) -> str:
    """A rank in the plural, as in "a set of ...": ``aces``, ``7s``, ``10s``, ``kings``.

    >>> [rank_plural(r) for r in (1, 7, 10, 11, 13)]
    ['aces', '7s', '10s', 'jacks', 'kings']
    """
    word = _RANK_WORDS.get(rank)
    return f"{word}s" if word else f"{rank_text(rank)}s"


class Suit(enum.Enum):
    """The four suits, in canonical order. ``value`` is the notation letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    __hash__ = object.__hash__

    @property
    def letter(self) -> str:
        """The notation letter (``C``, ``D``, ``H`` or ``S``)."""
        return self.value

    @property
    def index(self) -> int:
        """Position in the canonical suit order (0..3)."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol (``♣ ♦ ♥ ♠``), for displays that show one next to the letter."""
        return _SYMBOLS[self]

    @property
    def red(self) -> bool:
        """True for diamonds and hearts (an interface may colour them; the letter always shows)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def word(self) -> str:
        """The suit's name in the plural: ``clubs``, ``diamonds``, ``hearts``, ``spades``."""
        return self.name.lower()


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Card:
    """One card: a rank 1..13 (Ace 1, King 13) and a suit.

    Cards are interned, so equal cards are the same object; they sort by
    suit, then rank (:func:`by_rank` sorts by rank, then suit).
    """

    __slots__ = ("_text", "code", "rank", "suit")
    IMMUTABLE: ClassVar[bool] = True
    """Cards never change (``rummykit.engine.core.clone`` shares them)."""
    _interned: ClassVar[dict[tuple[int, Suit], Card]] = {}

    rank: int
    suit: Suit
    code: int
    _text: str

    def __new__(cls, rank: int, suit: Suit) -> Card:
        key = (rank, suit)
        card = cls._interned.get(key)
        if card is not None:
            return card
        if isinstance(rank, bool) or not isinstance(rank, int) or not ACE <= rank <= KING:
            raise ParseError(f"card ranks run from 1 (ace) to 13 (king), got {rank!r}")
        if not isinstance(suit, Suit):
            raise ParseError(f"a card's suit is a Suit, got {suit!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", suit.index * KING + rank - 1)
        object.__setattr__(card, "_text", f"{rank_text(rank)}{suit.letter}")
        cls._interned[key] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in notation (``AS``, ``10h``, ``TH``, ``q♦``).

        >>> Card.parse('1S')
        Traceback (most recent call last):
        ...
        rummykit.errors.ParseError: bad card '1S': write a rank (A, 2-10, J, Q, K; T also means 10) and a suit letter C, D, H or S, e.g. AS, 10H, QD
        """
        card = _PARSE.get(text)
        if card is not None:
            return card
        card = _PARSE.get(text.strip().upper())
        if card is not None:
            return card
        raise ParseError(
            f"bad card {text!r}: write a rank (A, 2-10, J, Q, K; T also means 10) and a suit letter"
            " C, D, H or S, e.g. AS, 10H, QD"
        )

    @property
    def rank_text(self) -> str:
        """The rank as written: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
        return rank_text(self.rank)

    @property
    def name(self) -> str:
        """The card in words: ``ace of spades``, ``10 of hearts``."""
        return f"{_RANK_WORDS.get(self.rank, str(self.rank))} of {self.suit.word}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __le__(self, other: Card) -> bool:
        return self.code <= other.code

    def __gt__(self, other: Card) -> bool:
        return self.code > other.code

    def __ge__(self, other: Card) -> bool:
        return self.code >= other.code


DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
"""The 52 cards in their canonical order (indexed by ``Card.code``)."""


def _readings() -> dict[str, Card]:
    out: dict[str, Card] = {}
    for card in DECK:
        ranks = [card.rank_text] + (["T"] if card.rank == 10 else [])
        suits = [card.suit.letter, card.suit.symbol]
        for r in ranks:
            for s in suits:
                out[f"{r}{s}"] = card
    return out


_PARSE: dict[str, Card] = _readings()


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or an iterable of card texts).

    >>> parse_cards('AS, 10h td')
    [Card.parse('AS'), Card.parse('10H'), Card.parse('10D')]
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else text
    return [_PARSE.get(w) or Card.parse(w) for w in words]


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in notation, separated by single spaces.

    >>> format_cards(parse_cards('th as'))
    '10H AS'
    """
    return " ".join(c._text for c in cards)


def by_rank(card: Card) -> tuple[int, int]:
    """Sort key: rank first (Ace low), then suit.

    >>> format_cards(sorted(parse_cards('2S AH 2C'), key=by_rank))
    'AH 2C 2S'
    """
    return (card.rank, card.suit.index)
