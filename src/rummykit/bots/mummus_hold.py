"""The ``strong`` mummus bot's play within a turn: hold melds and add-ons back until they take it out.

A meld laid early shrinks the hand but opens the table to the others: every
card that fits it is one they can add on (at any time, out of turn too), and
one they no longer throw away. An add-on to a run does the same at the run's
new end. Holding the cards in the hand changes nothing about what going out
needs (every card but the last in a meld or an add-on; no other seat can
take the place of a card the hand holds), so this policy lays its own new
melds and add-ons only on the turn they take it out, or when a deep discard
must be used now; it calls rummy and uses the pile as ``greedy`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rummykit.bots.mummus import NODE_LIMIT
from rummykit.engine.core import Action
from rummykit.melds.cover import Candidate, CoverProblem, best_cover
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus import MELDS, Addon, Meld, addon_chains

__all__ = ["going_out", "held_play"]

Cards = tuple[Card, ...]


def _full_cover(hand: Sequence[Card], table: Sequence[Cards], values: Mapping[Card, int]) -> tuple[Cards, ...] | None:
    """Melds and add-ons that use every card of ``hand`` (None: there are none)."""
    candidates: list[Candidate[Card]] = [Candidate(m, value=1000 * len(m) + sum(values[c] for c in m)) for m in MELDS.enumerate(hand)]
    for meld in table:
        candidates.extend(Candidate(ch, value=1000 * len(ch) + sum(values[c] for c in ch)) for ch in addon_chains(meld, hand))
    if not candidates:
        return None
    best = best_cover(
        CoverProblem(Counter(hand), candidates, order=lambda c: c.code, potential=lambda c: 1000 + values[c], node_limit=NODE_LIMIT)
    )
    if best is None or sum(len(s) for s in best.sets) != len(hand):
        return None
    return best.sets


def going_out(hand: Sequence[Card], table: Sequence[Cards], values: Mapping[Card, int]) -> tuple[Card, tuple[Cards, ...]] | None:
    """A way to go out this turn: the card left to discard and the melds and add-ons that lay every other card.

    The card discarded is the one worth least (the others score when laid); None: the hand cannot go out now.
    """
    if len(hand) < 2:
        return None
    for last in sorted(hand, key=lambda c: (values[c], c.code)):
        sets = _full_cover([c for c in hand if c != last], table, values)
        if sets is not None:
            return last, sets
    return None


def held_play(
    actions: Sequence[Action],
    hand: Sequence[Card],
    table: Sequence[Cards],
    values: Mapping[Card, int],
    claimable: set[Card],
) -> Action | None:
    """The play phase's next step when no rummy call or deep discard decides it (None: nothing; discard next).

    Going out: the first meld or add-on of the way out. Else None: the hand
    keeps its melds and add-ons.
    """
    out = going_out(hand, table, values)
    if out is not None:
        _last, sets = out
        wanted = {frozenset(s) for s in sets}
        lays = [a for a in actions if isinstance(a, Meld | Addon) and frozenset(a.cards) in wanted]
        if lays:
            return max(lays, key=lambda a: (len(a.cards), a.text()))
    return None
