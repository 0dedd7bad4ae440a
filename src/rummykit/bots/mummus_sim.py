"""A fast, simplified playout of a mummus round for the ``strong`` bot's rollouts.

It plays on plain lists (hands, melds on the table, discard pile, stock), not
on a :class:`~rummykit.rulesets.mummus.Mummus` state, and every seat follows
a cheap version of ``greedy``: take the top discard when it lets the hand put
more points down (else draw), lay the plan of the shared set cover
(:func:`rummykit.bots.mummus.plan`) keeping a card to discard, add on out of
turn what fits the table, discard the card the hand needs least. It leaves out
deep takes and rummy calls (neither empties a hand), so it is a rollout
policy, not the rules: the real actions are always checked by the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.bots.mummus import LEFT_WEIGHT, STOCK_ALLOWANCE, _keep_value, plan
from rummykit.engine.rng import Rng
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus import MELDS, addon_chains

__all__ = ["Sim", "playout"]

Cards = tuple[Card, ...]
MAX_TURNS = 60
"""A playout stops after this many turns and is scored as it stands."""


@dataclass
class Sim:
    """A round in plain lists: whose turn, the hands, the table, the piles, the points each seat laid."""

    current: int
    hands: list[list[Card]]
    table: list[Cards]
    discard: list[Card]
    stock: list[Card]
    laid: list[int]
    values: Mapping[Card, int]


def _lay(sim: Sim, seat: int, sets: Sequence[Cards]) -> None:
    """Put the plan's sets on the table (new melds, or add-ons to the meld they extend)."""
    hand = sim.hands[seat]
    for s in sets:
        if len(s) >= len(hand) or any(c not in hand for c in s):
            continue
        check = MELDS.check(s)
        placed = False
        if check.valid:
            sim.table.append(check.pieces)
            placed = True
        else:
            for i, meld in enumerate(sim.table):
                if s in addon_chains(meld, hand):
                    grown = MELDS.extend(meld, s)
                    if grown.valid:
                        sim.table[i] = grown.pieces
                        placed = True
                        break
        if placed:
            for c in s:
                hand.remove(c)
            sim.laid[seat] += sum(sim.values[c] for c in s)


def _addons(sim: Sim, seat: int) -> None:
    """Single-card add-ons of ``seat``'s cards that no meld of its hand needs (out of turn)."""
    hand = sim.hands[seat]
    if len(hand) < 2:
        return
    in_melds = {c for m in MELDS.enumerate(hand) for c in m}
    for i, meld in enumerate(sim.table):
        for chain in addon_chains(meld, hand):
            if len(chain) >= len(hand) or in_melds.intersection(chain):
                continue
            grown = MELDS.extend(meld, chain)
            if grown.valid:
                sim.table[i] = grown.pieces
                for c in chain:
                    hand.remove(c)
                sim.laid[seat] += sum(sim.values[c] for c in chain)
                break


def _turn(sim: Sim, seat: int, rng: Rng) -> bool:
    """Play ``seat``'s turn; True when it went out."""
    values = sim.values
    hand = sim.hands[seat]
    if not sim.stock:
        if len(sim.discard) > 1:
            top = sim.discard.pop()
            sim.stock = sim.discard
            rng.shuffle(sim.stock)
            sim.discard = [top]
    took = False
    if sim.discard:
        now, _s = plan(hand, sim.table, values)
        top = sim.discard[-1]
        more, _s = plan([*hand, top], sim.table, values)
        if more > now and (more - now) - LEFT_WEIGHT * (values[top] - (more - now)) > -STOCK_ALLOWANCE:
            hand.append(sim.discard.pop())
            took = True
    if not took:
        if not sim.stock:
            return False
        hand.append(sim.stock.pop())
    _value, sets = plan(hand, sim.table, values)
    _lay(sim, seat, sets)
    _addons(sim, seat)
    claimable = {c for m in sim.table for c in MELDS.fits(m)}
    card = min(hand, key=lambda c: (_keep_value(c, hand, values, claimable), c.code))
    hand.remove(card)
    sim.discard.append(card)
    return not hand


def playout(sim: Sim, seat: int, rng: Rng, weight: float) -> float:
    """Play the round out from the start of ``sim.current``'s turn; its worth to ``seat``.

    1 for a round won (out first, or the best score when the turns run out),
    plus ``weight`` per point of ``seat``'s score over the best other seat's.
    """
    n = len(sim.hands)
    out: int | None = None
    for _ in range(MAX_TURNS):
        p = sim.current
        if _turn(sim, p, rng):
            out = p
            break
        for k in range(1, n):
            _addons(sim, (p + k) % n)
        sim.current = (p + 1) % n
    scores = [sim.laid[s] - sum(sim.values[c] for c in sim.hands[s]) for s in range(n)]
    won = (out == seat) if out is not None else scores[seat] == max(scores)
    best_other = max(v for s, v in enumerate(scores) if s != seat)
    return (1.0 if won else 0.0) + weight * (scores[seat] - best_other)
