"""Card melds: sets of one rank and runs of one suit whose order may wrap (``Q K A 2 3``).

One deck is in play, so a meld never holds the same card twice.

* A **set** (kind ``set``) is 3 or more cards of one rank (at most 4, one
  per suit). Its normal order is by suit: C, D, H, S.
* A **run** (kind ``run``) is 3 or more cards of one suit in sequence. With
  ``wrap`` (the default) the order goes round: Aces follow Kings and come
  before Twos, so ``Q K A 2 3`` is a run; a run may not go round the whole
  suit onto itself, which one deck makes impossible anyway (13 cards at
  most). Its normal order starts at its low end: ``QH KH AH 2H``; a run of
  all 13 cards of a suit starts at the Ace.

The kinds never overlap (a set's suits all differ, a run's ranks all
differ), so a valid meld has one kind.

A meld on the table grows by **add-ons**: one or more cards at one end of a
run (:meth:`CardMelds.extend` works out which end), or cards of the set's
rank. It is never split or rearranged.

:class:`CardMelds` is a :class:`~rummykit.melds.base.MeldFamily`; the rule
ids of its refusals carry the game's ``prefix`` (``MU-RUN``...).

>>> melds = CardMelds()
>>> c = melds.check(parse_cards('2H KH AH QH'))
>>> c.kind, format_cards(c.pieces)
('run', 'QH KH AH 2H')
>>> melds.check(parse_cards('7S 7C 7H')).kind, format_cards(melds.check(parse_cards('7S 7C 7H')).pieces)
('set', '7C 7H 7S')
>>> melds.check(parse_cards('5H 6H 8H')).reason
'a run needs cards of one suit in sequence (the order wraps: ... Q K A 2 3 ...): 5H 6H 8H has 5, 6, 8'
>>> sorted(map(str, melds.fits(parse_cards('QH KH AH'))))
['2H', 'JH']
>>> format_cards(melds.extend(parse_cards('QH KH AH'), parse_cards('3H 2H')).pieces)
'QH KH AH 2H 3H'
>>> CardMelds(wrap=False).check(parse_cards('KH AH 2H')).valid
False
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummykit.melds.base import MIN_SET as MIN_MELD
from rummykit.melds.base import MeldCheck
from rummykit.melds.card_bits import has_meld, mask_of, melds_of
from rummykit.pieces.cards import (
    ACE,
    DECK,
    KING,
    RANKS,
    SUITS,
    Card,
    by_rank,
    format_cards,
    parse_cards,
    rank_plural,
    rank_text,
)

if TYPE_CHECKING:
    from rummykit.melds.base import MeldFamily

__all__ = [
    "KINDS",
    "MAX_RUN",
    "MAX_SET",
    "MIN_MELD",
    "RUN",
    "SET",
    "CardMelds",
    "format_cards",
    "parse_cards",
]

SET = "set"
RUN = "run"
KINDS = (SET, RUN)
MAX_SET = len(SUITS)
"""The most cards a set can hold: one of each suit."""
MAX_RUN = len(RANKS)
"""The most cards a run can hold: every rank of its suit once."""

Pieces = tuple[Card, ...]
CardCheck = MeldCheck[Card]


def _next(rank: int, wrap: bool) -> int | None:
    """The rank after ``rank`` (King to Ace when the order wraps), or None."""
    if rank < KING:
        return rank + 1
    return ACE if wrap else None


def _prev(rank: int, wrap: bool) -> int | None:
    """The rank before ``rank`` (Ace to King when the order wraps), or None."""
    if rank > ACE:
        return rank - 1
    return KING if wrap else None


@dataclass(frozen=True)
class CardMelds:
    """The card meld rules: ``wrap`` lets runs go round (K A 2); ``prefix`` starts every rule id."""

    wrap: bool = True
    prefix: str = "MU"

    # -- the family's three answers ------------------------------------------------

    def check(self, pieces: Iterable[Card], called: Mapping[int, Card] | None = None) -> CardCheck:
        """Judge a would-be meld: its kind and normal order, or the rule it breaks and why.

        A deck has no jokers, so ``called`` must be empty (ValueError otherwise).
        """
        if called:
            raise ValueError(f"only a joker can be called, and cards have none (position {min(called)})")
        return _check(self.wrap, self.prefix, tuple(pieces))

    def enumerate(self, hand: Iterable[Card], max_size: int | None = None) -> list[Pieces]:
        """Every valid meld (normal order, no repeats) of cards from ``hand``, up to ``max_size`` cards.

        >>> [format_cards(m) for m in CardMelds().enumerate(parse_cards('KS AS 2S 3S 9D 9C 9H'))]
        ['9C 9D 9H', 'AS 2S 3S', 'KS AS 2S', 'KS AS 2S 3S']
        """
        melds = melds_of(mask_of(hand), self.wrap)
        return melds if max_size is None else [m for m in melds if len(m) <= max_size]

    def has_meld(self, cards: Iterable[Card]) -> bool:
        """True when some cards of ``cards`` form a meld (:meth:`enumerate` would list one), read from bit masks.

        >>> CardMelds(wrap=False).has_meld(parse_cards('KS AS 2S 9D')), CardMelds(wrap=True).has_meld(parse_cards('KS AS 2S 9D'))
        (False, True)
        """
        return has_meld(mask_of(cards), self.wrap)

    def extensions(self, meld: Sequence[Card]) -> tuple[tuple[Card, Pieces], ...]:
        """Every card that grows ``meld`` by one at an end, with the grown meld in normal order."""
        out = []
        for card in sorted(self.fits(meld)):
            grown = self.extend(meld, (card,))
            if grown.valid:
                out.append((card, grown.pieces))
        return tuple(out)

    # -- add-ons -------------------------------------------------------------------

    def fits(self, meld: Sequence[Card]) -> frozenset[Card]:
        """The cards that can be added, one at a time, to a valid ``meld`` (empty for an invalid one).

        >>> sorted(map(str, CardMelds().fits(parse_cards('9C 9D 9H'))))
        ['9S']
        """
        return _fits(self.wrap, self.prefix, tuple(meld))

    def extend(self, meld: Sequence[Card], cards: Sequence[Card]) -> CardCheck:
        """The add-on of ``cards`` to the valid ``meld``: the grown meld, or the rule it breaks and why.

        The cards go to a set of their rank, or to **one** end of a run (worked
        out from the cards; adding at both ends at once is refused).

        >>> melds = CardMelds()
        >>> melds.extend(parse_cards('5H 6H 7H'), parse_cards('4H 8H')).reason
        'an add-on goes to one end of a run: 4H 8H would extend both ends of 5H 6H 7H; add them one end at a time'
        >>> melds.extend(parse_cards('5H 6H 7H'), parse_cards('9H')).reason
        '9H does not fit the run of hearts 5H 6H 7H, which takes 4H or 8H at its ends'
        """
        return _extend(self.wrap, self.prefix, tuple(meld), tuple(cards))

    def chain_to(self, meld: Sequence[Card], card: Card, available: Iterable[Card]) -> Pieces | None:
        """The fewest cards of ``available`` (``card`` among them) that add ``card`` to ``meld``, or None.

        For a run, the cards between its end and ``card`` must all be available.

        >>> chain = CardMelds().chain_to(parse_cards('5H 6H 7H'), Card.parse('9H'), parse_cards('8H 9H 2C'))
        >>> format_cards(chain)
        '8H 9H'
        """
        return self.chain_in(meld, card, set(available))

    def chain_in(self, meld: Sequence[Card], card: Card, have: Set[Card]) -> Pieces | None:
        """:meth:`chain_to` with the available cards as a set (not copied: for callers that ask often)."""
        if card not in have:
            return None
        check = self.check(meld)
        if not check.valid or card in check.pieces:
            return None
        pieces = check.pieces
        if check.kind == SET:
            return (card,) if card.rank == pieces[0].rank and len(pieces) < MAX_SET else None
        suit = pieces[0].suit
        if card.suit is not suit:
            return None
        inside = {c.rank for c in pieces}
        best: Pieces | None = None
        for step, end in ((_next, pieces[-1].rank), (_prev, pieces[0].rank)):
            chain: list[Card] = []
            rank: int | None = end
            while True:
                rank = step(rank, self.wrap) if rank is not None else None
                if rank is None or rank in inside or len(pieces) + len(chain) >= MAX_RUN:
                    chain = []
                    break
                nxt = Card(rank, suit)
                if nxt not in have:
                    chain = []
                    break
                chain.append(nxt)
                if nxt is card:
                    break
            if chain and (best is None or len(chain) < len(best)):
                best = tuple(chain)
        return best

    def neighbour(self, card: Card, step: int) -> Card | None:
        """The card next to ``card`` in run order: ``step`` 1 the one after, -1 the one before (None off the end).

        >>> melds = CardMelds()
        >>> melds.neighbour(Card.parse('KS'), 1), CardMelds(wrap=False).neighbour(Card.parse('KS'), 1)
        (Card.parse('AS'), None)
        """
        if step == 1 or step == -1:
            return _NEIGHBOURS[self.wrap, step][card.code]
        rank = _shift(card.rank, step, self.wrap)
        return None if rank is None else Card(rank, card.suit)

    def smallest_with(self, card: Card, hand: Iterable[Card]) -> Pieces | None:
        """A meld of 3 cards holding ``card`` and two other cards of ``hand``, or None.

        >>> format_cards(CardMelds().smallest_with(Card.parse('AS'), parse_cards('KS 2S 9D')))
        'KS AS 2S'
        """
        return self.smallest_in(card, set(hand))

    def smallest_in(self, card: Card, have: Set[Card]) -> Pieces | None:
        """:meth:`smallest_with` with the hand as a set (``card`` may be in it; not copied)."""
        rank = card.rank
        # The other cards of the rank, in card order (the suits' order).
        same_rank = [c for c in _OF_RANK[rank] if c is not card and c in have]
        if len(same_rank) >= MIN_MELD - 1:
            return _check(self.wrap, self.prefix, (card, *same_rank[: MIN_MELD - 1])).pieces
        suit = card.suit
        for offsets in ((-2, -1), (-1, 1), (1, 2)):
            ranks = [_shift(rank, k, self.wrap) for k in offsets]
            if None in ranks:
                continue
            others = [Card(r, suit) for r in ranks if r is not None]
            if all(c is not card and c in have for c in others):
                return _check(self.wrap, self.prefix, (card, *others)).pieces
        return None

    def describe(self, meld: Sequence[Card]) -> str:
        """A valid meld in words: ``the set of 7s``, ``the run of hearts``.

        >>> CardMelds().describe(parse_cards('7C 7D 7H')), CardMelds().describe(parse_cards('AS 2S 3S'))
        ('the set of 7s', 'the run of spades')
        """
        check = self.check(meld)
        if not check.valid:
            return format_cards(meld)
        first = check.pieces[0]
        if check.kind == SET:
            return f"the set of {rank_plural(first.rank)}"
        return f"the run of {first.suit.word}"


_CODE = operator.attrgetter("code")
"""Sort key for cards: their order, faster than ``<``."""

_OF_RANK: dict[int, tuple[Card, ...]] = {r: tuple(sorted((c for c in DECK if c.rank == r), key=_CODE)) for r in RANKS}
"""Every card of each rank, in card order."""


def _shift(rank: int, k: int, wrap: bool) -> int | None:
    """The rank ``k`` steps after (before, for negative ``k``) ``rank``, or None off the end."""
    out: int | None = rank
    for _ in range(abs(k)):
        if out is None:
            return None
        out = _next(out, wrap) if k > 0 else _prev(out, wrap)
    return out


_NEIGHBOURS: dict[tuple[bool, int], tuple[Card | None, ...]] = {
    (wrap, step): tuple(
        None if (rank := _shift(c.rank, step, wrap)) is None else Card(rank, c.suit) for c in DECK
    )
    for wrap in (False, True)
    for step in (-1, 1)
}
"""The card next to each card (by code) in run order, per order (wraps or not) and direction."""


def _bad(pieces: Pieces, rule: str, reason: str) -> CardCheck:
    return MeldCheck(False, None, pieces, rule=rule, reason=reason)


def _run_order(ranks: set[int], wrap: bool) -> list[int] | None:
    """The ranks of one suit in run order (from the low end), or None when they are not one sequence."""
    n = len(ranks)
    if n == len(RANKS):
        return list(RANKS)
    starts = [r for r in ranks if _prev(r, wrap) not in ranks]
    if len(starts) != 1:
        return None
    order = [starts[0]]
    while len(order) < n:
        nxt = _next(order[-1], wrap)
        if nxt is None or nxt not in ranks:
            return None
        order.append(nxt)
    return order


@functools.lru_cache(maxsize=1 << 12)
def _check(wrap: bool, prefix: str, pieces: Pieces) -> CardCheck:
    n = len(pieces)
    text = format_cards(pieces)
    if n < MIN_MELD:
        return _bad(pieces, f"{prefix}-MELD-SIZE", f"a meld needs at least {MIN_MELD} cards: {text or 'none given'}")
    if len(set(pieces)) != n:
        return _bad(pieces, f"{prefix}-MELD-REPEAT", f"a meld cannot hold the same card twice: {text}")
    ranks = {c.rank for c in pieces}
    suits = {c.suit for c in pieces}
    if len(ranks) == 1:
        return MeldCheck(True, SET, tuple(sorted(pieces)))
    if len(suits) == 1:
        order = _run_order(ranks, wrap)
        if order is None:
            listed = ", ".join(rank_text(c.rank) for c in sorted(pieces, key=by_rank))
            how = "the order wraps: ... Q K A 2 3 ..." if wrap else "the order does not wrap: A 2 3 ... Q K"
            return _bad(
                pieces, f"{prefix}-RUN", f"a run needs cards of one suit in sequence ({how}): {text} has {listed}"
            )
        suit = next(iter(suits))
        return MeldCheck(True, RUN, tuple(Card(r, suit) for r in order))
    listed_ranks = ", ".join(rank_text(r) for r in sorted(ranks))
    listed_suits = ", ".join(s.letter for s in SUITS if s in suits)
    return _bad(
        pieces,
        f"{prefix}-MELD-KIND",
        f"{text} is no meld: not a set (ranks {listed_ranks} differ) and not a run (suits {listed_suits} differ)",
    )


@functools.lru_cache(maxsize=1 << 12)
def _fits(wrap: bool, prefix: str, meld: Pieces) -> frozenset[Card]:
    check = _check(wrap, prefix, meld)
    if not check.valid:
        return frozenset()
    pieces = check.pieces
    if check.kind == SET:
        if len(pieces) >= MAX_SET:
            return frozenset()
        rank = pieces[0].rank
        return frozenset(Card(rank, s) for s in SUITS if Card(rank, s) not in pieces)
    if len(pieces) >= MAX_RUN:
        return frozenset()
    suit = pieces[0].suit
    out = set()
    for end in (_prev(pieces[0].rank, wrap), _next(pieces[-1].rank, wrap)):
        if end is not None:
            out.add(Card(end, suit))
    return frozenset(out)


@functools.lru_cache(maxsize=1 << 12)
def _extend(wrap: bool, prefix: str, meld: Pieces, cards: Pieces) -> CardCheck:
    check = _check(wrap, prefix, meld)
    if not check.valid:
        return check
    pieces = check.pieces
    added = format_cards(cards)
    if not cards:
        return _bad(cards, f"{prefix}-ADDON-FIT", "an add-on needs at least one card")
    if len(set(cards)) != len(cards) or set(cards) & set(pieces):
        return _bad(cards, f"{prefix}-MELD-REPEAT", f"a meld cannot hold the same card twice: {format_cards(pieces)} + {added}")
    wanted = " or ".join(str(c) for c in sorted(_fits(wrap, prefix, pieces))) or "nothing more"
    describe = CardMelds(wrap, prefix).describe(pieces)
    grown = _check(wrap, prefix, (*pieces, *cards))
    if not grown.valid or grown.kind != check.kind:
        if len(cards) == 1:
            reason = f"{added} does not fit {describe} {format_cards(pieces)}, which takes {wanted}"
            reason += " at its ends" if check.kind == RUN else ""
        else:
            reason = (
                f"{added} do not extend {describe} {format_cards(pieces)} (it takes {wanted}"
                f"{' at its ends' if check.kind == RUN else ''}, then what follows those)"
            )
        return _bad(cards, f"{prefix}-ADDON-FIT", reason)
    if check.kind == RUN and len(grown.pieces) < MAX_RUN:
        # the old run must stay at one end of the new one
        order = grown.pieces
        i = order.index(pieces[0])
        if i != 0 and i + len(pieces) != len(order):
            return _bad(
                cards,
                f"{prefix}-ADDON-END",
                f"an add-on goes to one end of a run: {added} would extend both ends of {format_cards(pieces)};"
                " add them one end at a time",
            )
    return grown


if TYPE_CHECKING:
    _family: MeldFamily[Card] = CardMelds()
