"""How far a mummus hand is from going out: its deadwood, now and after the next draw.

Going out needs every card of the hand but the last in a meld or an add-on,
so the ``strong`` bot measures a hand by its **deadwood**: the cards the best
cover (the most cards, then the most points; the shared set cover,
:mod:`rummykit.melds.cover`) leaves out, counting the melds on the table for
add-ons. A discard is judged by the deadwood expected after the next card
from the stock, averaged exactly over the cards the seat has not seen; a
draw by the deadwood it leaves against that average.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from rummykit.melds.cover import Candidate, CoverProblem, best_cover
from rummykit.pieces.cards import DECK, Card
from rummykit.rulesets.mummus import MELDS, addon_chains

__all__ = ["Deadwood", "unseen_cards"]

Cards = tuple[Card, ...]
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
        return count + points / 1000

    def after_draw(self, hand: Sequence[Card], unseen: Sequence[Card]) -> float:
        """The mean :meth:`score` of ``hand`` with one more card, over ``unseen`` (each equally likely)."""
        if not unseen:
            return self.score(hand)
        return sum(self.score([*hand, u]) for u in unseen) / len(unseen)


def unseen_cards(hand: Iterable[Card], table: Iterable[Cards], discard: Iterable[Card], known: Iterable[Card]) -> list[Card]:
    """The cards the seat cannot see: not in its hand, on the table, in the pile, or seen taken by another."""
    seen = set(hand) | {c for m in table for c in m} | set(discard) | set(known)
    return [c for c in DECK if c not in seen]
