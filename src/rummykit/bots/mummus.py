"""``greedy`` for ``mummus``: plays the most points it can, and acts out of turn too.

It works from its seat's view alone and only ever plays an action of the
view's legal list (:func:`rummykit.rulesets.mummus.actions_from_view`). It
has ``claim`` (the driver's :class:`~rummykit.engine.driver.Claimer`): when
the game does not wait for it but it may add on or call rummy, the driver
asks it first. (``random``, the generic :class:`~rummykit.bots.random.RandomBot`,
also acts out of turn, on a coin toss.)

It plans with the shared set cover (:mod:`rummykit.melds.cover`): the most
points its hand can put on the table now, as melds and add-ons.

* **Draw.** It values the stock, the top discard and every deep discard it
  may take by that plan, less a part of the points it would be left holding
  (a card from the stock is valued at the plan of the hand as it is, minus a
  small allowance for the unknown card), and takes from the discard pile only
  what lets it play more.
* **Play.** It calls rummy whenever it can (the claim with the most points),
  uses a deep discard at once (its best meld or add-on with it), lays the
  melds and add-ons of its plan, adds on whatever else fits, and discards the
  card that works least with the rest of its hand, avoiding cards that others
  could claim.
* **Out of turn.** It calls rummy whenever it can, and adds on any card that
  fits a meld on the table and is not part of a meld its hand could make.

>>> from rummykit.rulesets.mummus import INFO, from_position
>>> state = from_position('hands: 5H 6H 7H 9C 2D / 2C 3C 4D; discard: 9S 8H; melds: 1: 2S 3S 4S', target=0)
>>> bot = mummus_greedy(INFO)
>>> str(bot.choose(state.view(0), Rng(1)))
'0 take 8H'
>>> _ = state.apply(state.parse_action('0 take 8H'))
>>> str(bot.choose(state.view(0), Rng(1)))
'0 meld 5H 6H 7H 8H'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.cover import Candidate, CoverProblem, best_cover
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus import (
    MELDS,
    Addon,
    Discard,
    Draw,
    Meld,
    Rummy,
    Take,
    actions_from_view,
    addon_chains,
    card_values,
)
from rummykit.rulesets.mummus.views import MummusView

__all__ = ["MummusGreedy", "mummus_greedy", "plan"]

LEFT_WEIGHT = 0.4
"""How much a point left in the hand counts against a draw, against a point the draw lets the bot play."""
STOCK_ALLOWANCE = 2.0
"""What drawing an unknown card from the stock costs, in plan points (its likely points left in hand)."""
NODE_LIMIT = 4000
"""The set cover's node limit per plan (hands are small; this only guards against a huge one)."""

Cards = tuple[Card, ...]


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def plan(hand: Sequence[Card], table: Sequence[Cards], values: Mapping[Card, int]) -> tuple[int, tuple[Cards, ...]]:
    """The most points ``hand`` can put on the table now (melds and add-ons), and the sets that do it."""
    candidates: list[Candidate[Card]] = [
        Candidate(m, value=sum(values[c] for c in m)) for m in MELDS.enumerate(hand)
    ]
    for meld in table:
        candidates.extend(Candidate(ch, value=sum(values[c] for c in ch)) for ch in addon_chains(meld, hand))
    if not candidates:
        return 0, ()
    best = best_cover(
        CoverProblem(
            Counter(hand),
            candidates,
            order=lambda c: c.code,
            potential=lambda c: values[c],
            node_limit=NODE_LIMIT,
        )
    )
    if best is None:
        return 0, ()
    return best.value, best.sets


def _keep_value(card: Card, hand: Sequence[Card], values: Mapping[Card, int], claimable: set[Card]) -> float:
    """How much ``card`` is worth keeping: partners toward a meld, less its points; fitting cards are never given away."""
    worth = 0.0
    for other in hand:
        if other is card:
            continue
        if other.rank == card.rank:
            worth += 3.0
        elif other.suit is card.suit:
            for step, weight in ((1, 3.0), (2, 1.5)):
                if other in (MELDS.neighbour(card, step), MELDS.neighbour(card, -step)):
                    worth += weight
    if card in claimable:
        worth += 20.0
    return worth - 0.3 * values[card]


def _points(action: Action, values: Mapping[Card, int]) -> int:
    cards: Sequence[Card] = getattr(action, "cards", ())
    return sum(values[c] for c in cards)


class MummusGreedy:
    """``greedy``: plays the most points it can, calls rummy whenever it can (see the module docs)."""

    level = "greedy"

    def __init__(self, info: GameInfo) -> None:
        self.info = info

    # -- out of turn ---------------------------------------------------------------

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:

        view = cast(MummusView, view)  # the view of this game
        actions = sorted(actions_from_view(view), key=lambda a: a.text())
        if not actions:
            return None
        values = card_values(view["options"]["card_points"])
        calls = [a for a in actions if isinstance(a, Rummy)]
        if calls:
            return max(calls, key=lambda a: _points(a, values))
        hand = _cards(view["hand"])
        in_melds = {c for m in MELDS.enumerate(hand) for c in m}
        addons = [a for a in actions if isinstance(a, Addon) and not in_melds.intersection(a.cards)]
        if addons:
            return max(addons, key=lambda a: (len(a.cards), _points(a, values)))
        return None

    # -- the turn --------------------------------------------------------------------

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(MummusView, view)  # the view of this game
        actions = sorted(actions_from_view(view), key=lambda a: a.text())
        if not actions:
            raise RuleError("BOT", f"seat {view.get('seat')} has nothing to do now")
        values = card_values(view["options"]["card_points"])
        hand = _cards(view["hand"])
        table = [tuple(_cards(m["cards"])) for m in view["melds"]]
        draws = [a for a in actions if isinstance(a, Draw | Take)]
        if draws:
            return self._draw(draws, hand, table, _cards(view["discard"]), values)
        calls = [a for a in actions if isinstance(a, Rummy)]
        if calls:
            return max(calls, key=lambda a: _points(a, values))
        deep = view["deep"]
        if deep is not None:
            card = Card.parse(deep)
            uses = [a for a in actions if isinstance(a, Meld | Addon) and card in a.cards]
            if uses:
                return max(uses, key=lambda a: (_points(a, values), len(a.cards)))
        _value, sets = plan(hand, table, values)
        planned = {frozenset(s) for s in sets}
        lays = [a for a in actions if isinstance(a, Meld | Addon) and frozenset(a.cards) in planned]
        if lays:
            return max(lays, key=lambda a: (_points(a, values), len(a.cards)))
        in_plan = {c for s in sets for c in s}
        extra = [a for a in actions if isinstance(a, Addon) and not in_plan.intersection(a.cards)]
        if extra:
            return max(extra, key=lambda a: (_points(a, values), len(a.cards)))
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            claimable = set(_cards(view["claimable"])) | {c for m in table for c in MELDS.fits(m)}
            return min(discards, key=lambda a: _keep_value(a.card, hand, values, claimable))
        return actions[0]

    def _draw(
        self,
        draws: Sequence[Action],
        hand: list[Card],
        table: list[Cards],
        discard: list[Card],
        values: Mapping[Card, int],
    ) -> Action:
        playable, _sets = plan(hand, table, values)
        left = sum(values[c] for c in hand) - playable
        best: Action | None = None
        best_score = 0.0
        for action in draws:
            if isinstance(action, Take):
                taken = discard[discard.index(action.card) :]
                more, _sets = plan([*hand, *taken], table, values)
                if more <= playable:
                    continue  # a card that lets it play nothing more is not worth taking
                more_left = sum(values[c] for c in hand) + sum(values[c] for c in taken) - more
                score = (more - playable) - LEFT_WEIGHT * (more_left - left)
            else:
                score = -STOCK_ALLOWANCE
            if best is None or score > best_score:
                best, best_score = action, score
        return best if best is not None else draws[0]


def mummus_greedy(info: GameInfo) -> MummusGreedy:
    """The ``greedy`` bot for mummus."""
    return MummusGreedy(info)
