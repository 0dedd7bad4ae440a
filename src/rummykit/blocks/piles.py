"""Piles: a face-down stock and a face-up discard pile spread so that every card shows.

A :class:`Piles` block holds the two piles of a card rummy. The **stock**
is drawn from its top and nobody sees its order. The **discard pile** lies
spread: every player sees all of it, bottom to top, and a player may take
a card from deep down together with every card above it
(:meth:`Piles.take_from`), or a card may leave it from anywhere
(:meth:`Piles.remove`, a claim). When the stock runs out, the discard pile
is shuffled into a new stock (:meth:`Piles.reshuffle`) with the game's
seeded generator, so a replay shuffles the same way.

Lists run bottom first: ``stock[-1]`` is the next card drawn and
``discard[-1]`` the top of the discard pile. The block knows nothing about
players or turns; refusals carry the game's rule id and change nothing.

>>> from rummykit.pieces.cards import parse_cards, format_cards
>>> piles = Piles(parse_cards('2C 3C 4C'), parse_cards('9H 10S JD QC'), rule='MU-PILE')
>>> str(piles.draw()), piles.stock_size
('4C', 2)
>>> format_cards(piles.take_from(1))
'10S JD QC'
>>> piles.remove(parse_cards('QC'))
Traceback (most recent call last):
...
rummykit.errors.RuleError: not in the discard pile: QC (rule MU-PILE)
>>> piles.put(parse_cards('5D')[0]); format_cards(piles.discard)
'9H 5D'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Generic, Protocol, TypeVar

from rummykit.errors import RuleError
from rummykit.words import counted

__all__ = ["Piles", "Shuffler"]

P = TypeVar("P")


class Shuffler(Protocol):
    """Anything that shuffles a list in place (the game's seeded generator)."""

    def shuffle(self, items: list[P]) -> None: ...


class Piles(Generic[P]):
    """The stock (face down) and the discard pile (face up, spread), both listed bottom first."""

    __slots__ = ("discard", "rule", "stock")

    def __init__(self, stock: Iterable[P] = (), discard: Iterable[P] = (), *, rule: str = "PILE") -> None:
        self.stock: list[P] = list(stock)
        self.discard: list[P] = list(discard)
        self.rule = rule
        """The rule id of a refusal (the game's own, e.g. ``MU-TAKE``)."""

    def copy(self) -> Piles[P]:
        """An independent copy (pieces are immutable and shared)."""
        return Piles(self.stock, self.discard, rule=self.rule)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piles) and self.stock == other.stock and self.discard == other.discard

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Piles(stock={self.stock!r}, discard={self.discard!r})"

    # -- questions -------------------------------------------------------------------

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds (public; its order is not)."""
        return len(self.stock)

    @property
    def top(self) -> P | None:
        """The top of the discard pile, or None when it is empty."""
        return self.discard[-1] if self.discard else None

    def position(self, piece: P) -> int | None:
        """Where ``piece`` lies in the discard pile (0 is the bottom), or None."""
        try:
            return self.discard.index(piece)
        except ValueError:
            return None

    def above(self, piece: P) -> list[P]:
        """``piece`` and every card above it in the discard pile (empty when it is not there)."""
        i = self.position(piece)
        return [] if i is None else list(self.discard[i:])

    def counts(self) -> Counter[P]:
        """Every card in both piles, counted (for conservation checks)."""
        return Counter(self.stock) + Counter(self.discard)

    # -- moves (checked first; a refusal changes nothing) -----------------------------

    def deal(self, count: int) -> list[P]:
        """Take ``count`` cards off the top of the stock, the top one first."""
        if count > len(self.stock):
            raise RuleError(self.rule, f"the stock holds {counted(len(self.stock), 'card')}, not {count}")
        taken = self.stock[len(self.stock) - count :]
        del self.stock[len(self.stock) - count :]
        return taken[::-1]

    def draw(self) -> P:
        """Take the top card of the stock."""
        if not self.stock:
            raise RuleError(self.rule, "the stock is empty")
        return self.stock.pop()

    def take_from(self, index: int) -> list[P]:
        """Take the discard at ``index`` (0 is the bottom) and every card above it, bottom first."""
        if not 0 <= index < len(self.discard):
            raise RuleError(self.rule, f"the discard pile has places 0..{len(self.discard) - 1}, not {index}")
        taken = self.discard[index:]
        del self.discard[index:]
        return taken

    def remove(self, pieces: Sequence[P]) -> None:
        """Take ``pieces`` out of the discard pile from wherever they lie; the rest keeps its order."""
        missing = list((Counter(pieces) - Counter(self.discard)).elements())
        if missing:
            raise RuleError(self.rule, f"not in the discard pile: {' '.join(map(str, missing))}")
        rest = list(self.discard)
        for p in pieces:
            rest.remove(p)
        self.discard[:] = rest

    def put(self, piece: P) -> None:
        """Lay ``piece`` face up on top of the discard pile."""
        self.discard.append(piece)

    def reshuffle(self, rng: Shuffler) -> int:
        """Shuffle the whole discard pile into a new stock (the stock must be empty); returns its size."""
        if self.stock:
            raise RuleError(self.rule, f"the stock still holds {counted(len(self.stock), 'card')}; it is reshuffled only once empty")
        cards = list(self.discard)
        rng.shuffle(cards)
        self.stock = cards
        self.discard = []
        return len(cards)
