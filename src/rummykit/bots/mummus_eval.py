"""How far a mummus hand is from going out: its deadwood, now and after the next draw.

Going out needs every card of the hand but the last in a meld or an add-on,
so the ``strong`` bot measures a hand by its **deadwood**: the cards the best
cover (the most cards, then the most points; the shared set cover,
:mod:`rummykit.melds.cover`) leaves out, counting the melds on the table for
add-ons. A discard is judged by the deadwood expected after the next card
from the stock, averaged exactly over the cards the seat has not seen; a
draw by the deadwood it leaves against that average. A card that shares no
meld or add-on with the hand (no card of its rank, none of its suit two steps
or less away, and it fits no meld on the table) only adds itself to the
deadwood, so the average works those out without a cover.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from rummykit.melds.cover import Candidate, CoverProblem, best_cover
from rummykit.pieces.cards import DECK, SUITS, Card
from rummykit.rulesets.mummus import MELDS, addon_chains

__all__ = ["Deadwood", "unseen_cards"]

Cards = tuple[Card, ...]
POINT_SCALE = 1000.0
"""A point of deadwood counts 1/POINT_SCALE of a deadwood card (a small part: the race is in cards)."""
NODE_LIMIT = 4000
"""The set cover's node limit per hand (hands are small; this only guards against a huge one)."""


class Deadwood:
    """Deadwood of hands against one table, remembered per hand (one decision's worth)."""

    def __init__(self, table: Sequence[Cards], values: Mapping[Card, int]) -> None:
        self.table = list(table)
        self.values = values
        self.memo: dict[frozenset[Card], tuple[int, int]] = {}
        self.loose: dict[frozenset[Card], frozenset[Card]] = {}
        """The cards of each hand measured that its best cover leaves out."""
        self.fits: frozenset[Card] = frozenset(c for m in self.table for c in MELDS.fits(m))
        """The cards that fit a meld on the table as they are."""

    def of(self, hand: Iterable[Card]) -> tuple[int, int]:
        """(cards, points) of ``hand`` that no meld or add-on of its best cover uses."""
        cards = frozenset(hand)
        found = self.memo.get(cards)
        if found is not None:
            return found
        values = self.values
        candidates: list[Candidate[Card]] = [
            Candidate(m, value=1000 * len(m) + sum(values[c] for c in m)) for m in MELDS.enumerate(cards)
        ]
        for meld in self.table:
            candidates.extend(
                Candidate(ch, value=1000 * len(ch) + sum(values[c] for c in ch)) for ch in addon_chains(meld, cards)
            )
        total = sum(values[c] for c in cards)
        result = (len(cards), total)
        left = cards
        if candidates:
            best = best_cover(
                CoverProblem(
                    Counter(cards),
                    candidates,
                    order=lambda c: c.code,
                    potential=lambda c: 1000 + values[c],
                    node_limit=NODE_LIMIT,
                )
            )
            if best is not None:
                used = {c for s in best.sets for c in s}
                result = (len(cards) - len(used), total - sum(values[c] for c in used))
                left = cards - used
        self.memo[cards] = result
        self.loose[cards] = left
        return result

    def left_out(self, hand: Iterable[Card]) -> frozenset[Card]:
        """The cards of ``hand`` its best cover leaves out."""
        cards = frozenset(hand)
        self.of(cards)
        return self.loose[cards]

    def best_discard(self, hand: Sequence[Card], unseen: Sequence[Card]) -> float:
        """The least :meth:`after_draw` over discarding one card that the best cover leaves out (any card if none)."""
        loose = self.left_out(hand) or frozenset(hand)
        return min(self.after_draw([c for c in hand if c != d], unseen) for d in loose)

    def score(self, hand: Iterable[Card]) -> float:
        """Deadwood as one number: cards, with a point of deadwood a small part of a card."""
        count, points = self.of(hand)
        return count + points / POINT_SCALE

    def touching(self, hand: Iterable[Card]) -> set[Card]:
        """The cards that could share a meld or an add-on with a card of ``hand``, or fit the table as it is.

        Any other card joins no meld or add-on of ``hand`` with it, so the best
        cover of ``hand`` with it is that of ``hand``, and it is one more card left out.
        """
        near = set(self.fits)
        for card in hand:
            near.update(Card(card.rank, s) for s in SUITS)
            for step in (-2, -1, 1, 2):
                other = MELDS.neighbour(card, step)
                if other is not None:
                    near.add(other)
        return near

    def after_draw(self, hand: Sequence[Card], unseen: Sequence[Card]) -> float:
        """The mean :meth:`score` of ``hand`` with one more card, over ``unseen`` (each equally likely)."""
        if not unseen:
            return self.score(hand)
        count, points = self.of(hand)
        near = self.touching(hand)
        values = self.values
        total = 0.0
        for u in unseen:
            total += self.score([*hand, u]) if u in near else (count + 1) + (points + values[u]) / POINT_SCALE
        return total / len(unseen)


def unseen_cards(hand: Iterable[Card], table: Iterable[Cards], discard: Iterable[Card], known: Iterable[Card]) -> list[Card]:
    """The cards the seat cannot see: not in its hand, on the table, in the pile, or seen taken by another."""
    seen = set(hand) | {c for m in table for c in m} | set(discard) | set(known)
    return [c for c in DECK if c not in seen]
