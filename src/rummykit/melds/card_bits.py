"""Card melds read from bit masks: a set of cards as one integer, bit ``card.code`` for each card.

A card's code is ``suit index * 13 + rank - 1``, so the mask holds four rows
of 13 bits, one per suit (clubs lowest), each with the Ace at its low bit.
Three suits of one rank are three of the four rows meeting at a bit; three
cards in a row of one suit are three bits in a row of one row (round from the
King to the Ace too when the order wraps). The answers are those of
:class:`~rummykit.melds.cards.CardMelds` (``tests/test_card_melds.py``
compares them, order included); the card rummies' listings call these
instead, with masks they keep.

* :func:`mask_of`: the mask of some cards;
* :func:`has_meld`: whether the cards hold a meld (any meld holds a set or run of three);
* :func:`melds_of`: every meld of the cards, in :meth:`CardMelds.enumerate`'s order;
* :func:`meld_reach`: what a meld on the table takes, as masks (its add-ons at each end, and for each card the
  cards that must come with it).

>>> from rummykit.pieces.cards import parse_cards, format_cards
>>> mask = mask_of(parse_cards('KS AS 2S 3S 9D 9C 9H'))
>>> has_meld(mask, True), has_meld(mask_of(parse_cards('KS AS 9D')), True)
(True, False)
>>> [format_cards(m) for m in melds_of(mask, True)]
['9C 9D 9H', 'AS 2S 3S', 'KS AS 2S', 'KS AS 2S 3S']
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable
from dataclasses import dataclass

from rummykit.pieces.cards import DECK, KING, SUITS, Card

__all__ = ["BIT", "CODE", "ROW", "MeldReach", "cards_of", "has_meld", "mask_of", "meld_reach", "melds_of"]

Pieces = tuple[Card, ...]

ROW = (1 << KING) - 1
"""The 13 bits of one suit's row (shift by ``13 * suit index``)."""

BIT: dict[Card, int] = {card: 1 << card.code for card in DECK}
"""Each card's bit."""

CODE = operator.attrgetter("code")
"""Sorts cards as their own order does (by code), without calling ``<``."""

_SUIT_COUNT = len(SUITS)


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (a card given twice counts once)."""
    mask = 0
    bit = BIT
    for c in cards:
        mask |= bit[c]
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask``, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return out


def _row_runs(row: int, wrap: bool) -> bool:
    """True when three bits in a row of ``row`` are set (also round King to Ace when ``wrap``)."""
    r = row | row << KING if wrap else row
    return bool(r & r >> 1 & r >> 2)


_RUN3: dict[bool, bytes] = {wrap: bytes(_row_runs(row, wrap) for row in range(ROW + 1)) for wrap in (False, True)}
"""Per order (wraps or not), per row: 1 when the row holds three cards in a row."""


def has_meld(mask: int, wrap: bool) -> bool:
    """True when the cards of ``mask`` hold a meld: three suits of a rank, or three ranks in a row of a suit."""
    a = mask & ROW
    b = mask >> 13 & ROW
    c = mask >> 26 & ROW
    d = mask >> 39
    if a & b & (c | d) or c & d & (a | b):
        return True
    runs = _RUN3[wrap]
    return bool(runs[a] or runs[b] or runs[c] or runs[d])


def _set_combinations() -> list[list[tuple[Pieces, ...]]]:
    """Per rank index, per 4-bit subset of the suits: the sets of 3 or more of those cards, as enumerated."""
    out = []
    for r in range(KING):
        per_subset = []
        for subset in range(1 << _SUIT_COUNT):
            group = [DECK[s * KING + r] for s in range(_SUIT_COUNT) if subset >> s & 1]
            combos: list[Pieces] = []
            for size in range(3, len(group) + 1):
                combos.extend(itertools.combinations(group, size))
            per_subset.append(tuple(combos))
        out.append(per_subset)
    return out


_SETS = _set_combinations()


def _run(suit: int, start: int, length: int) -> Pieces:
    """The run of ``length`` cards of a suit from rank index ``start`` up, round the King."""
    base = suit * KING
    return tuple(DECK[base + (start + k) % KING] for k in range(length))


@functools.lru_cache(maxsize=1 << 12)
def _row_melds(row: int, suit: int, wrap: bool) -> tuple[Pieces, ...]:
    """The runs of one suit's row, in :meth:`CardMelds.enumerate`'s order: by lowest rank, then length.

    A run of the whole suit is listed once, from the Ace (the order of a
    full suit); every shorter run has one lowest rank.
    """
    if not _RUN3[wrap][row]:
        return ()
    out: list[Pieces] = []
    full = False
    for start in range(KING):
        if not row >> start & 1:
            continue
        length = 1
        while length < KING:
            nxt = start + length
            if nxt >= KING:
                if not wrap:
                    break
                nxt -= KING
            if not row >> nxt & 1:
                break
            length += 1
            if length >= 3:
                if length == KING:
                    if full:
                        continue
                    full = True
                    out.append(_run(suit, 0, KING))
                else:
                    out.append(_run(suit, start, length))
    return tuple(out)


def melds_of(mask: int, wrap: bool) -> list[Pieces]:
    """Every meld of the cards of ``mask``, as :meth:`CardMelds.enumerate` lists them (sets by rank, then runs by
    suit and lowest rank)."""
    a = mask & ROW
    b = mask >> 13 & ROW
    c = mask >> 26 & ROW
    d = mask >> 39
    out: list[Pieces] = []
    three = a & b & (c | d) | c & d & (a | b)
    while three:
        low = three & -three
        r = low.bit_length() - 1
        three ^= low
        out.extend(_SETS[r][(a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3])
    runs = _RUN3[wrap]
    for suit, row in enumerate((a, b, c, d)):
        if runs[row]:
            out.extend(_row_melds(row, suit, wrap))
    return out


@dataclass(frozen=True, slots=True)
class MeldReach:
    """What a valid meld on the table takes, as masks (see :func:`meld_reach`).

    ``fits`` holds the cards that can be added one at a time. ``ends`` lists,
    for each end the meld grows at (a set has one), the add-ons there from the
    shortest: each the cards added (in the grown meld's order) and their
    mask; a set's add-ons are its one missing card at a time. ``chains`` maps
    each card that some add-on could bring to the meld to the add-ons that
    bring it (mask, number of cards): a run's cards between its end and that
    card come too.
    """

    fits: int
    ends: tuple[tuple[tuple[Pieces, int], ...], ...]
    is_set: bool
    chains: dict[int, tuple[tuple[int, int], ...]]


@functools.lru_cache(maxsize=1 << 12)
def meld_reach(pieces: Pieces, is_set: bool, wrap: bool) -> MeldReach:
    """The add-ons of a valid meld in normal order (``is_set``: a set, else a run)."""
    if is_set:
        rank = pieces[0].rank
        missing = [DECK[s * KING + rank - 1] for s in range(_SUIT_COUNT)]
        missing = [c for c in missing if c not in pieces]
        fits = mask_of(missing)
        return MeldReach(fits, (tuple(((c,), BIT[c]) for c in missing),), True, {c.code: ((BIT[c], 1),) for c in missing})
    room = KING - len(pieces)
    base = pieces[0].suit.index * KING
    low, high = pieces[0].rank - 1, pieces[-1].rank - 1
    ends: list[tuple[tuple[Pieces, int], ...]] = []
    chains: dict[int, list[tuple[int, int]]] = {}
    fits = 0
    for start, step in ((low, -1), (high, 1)):
        grown: list[tuple[Pieces, int]] = []
        chain: list[Card] = []
        mask = 0
        rank = start
        while len(chain) < room:
            rank += step
            if not 0 <= rank < KING:
                if not wrap:
                    break
                rank %= KING
            card = DECK[base + rank]
            chain.append(card)
            mask |= BIT[card]
            if len(chain) == 1:
                fits |= mask
            grown.append((tuple(chain[::-1]) if step < 0 else tuple(chain), mask))
            chains.setdefault(card.code, []).append((mask, len(chain)))
        ends.append(tuple(grown))
    return MeldReach(fits, tuple(ends), False, {code: tuple(found) for code, found in chains.items()})
