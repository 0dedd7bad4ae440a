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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.card_bits import CODE, MeldReach, mask_of, melds_of
from rummykit.melds.cover import Candidate, CoverProblem, best_cover
from rummykit.pieces.cards import DECK, Card
from rummykit.rulesets.mummus import (
    MELDS,
    Addon,
    Discard,
    Meld,
    Rummy,
    Take,
    actions_seen,
    card_values,
)
from rummykit.rulesets.mummus.listing import read_cards
from rummykit.rulesets.mummus.seen import WRAP, chains, reach_of
from rummykit.rulesets.mummus.views import MummusView

__all__ = ["MummusGreedy", "mummus_greedy", "plan"]

LEFT_WEIGHT = 0.4
"""How much a point left in the hand counts against a draw, against a point the draw lets the bot play."""
STOCK_ALLOWANCE = 2.0
"""What drawing an unknown card from the stock costs, in plan points (its likely points left in hand)."""
NODE_LIMIT = 4000
"""The set cover's node limit per plan (hands are small; this only guards against a huge one)."""

Cards = tuple[Card, ...]
A = TypeVar("A", bound=Action)


_cards = read_cards
"""The cards of a view's texts."""


def _meld_cards(texts: Sequence[str]) -> Cards:
    return tuple(read_cards(texts))


def _text(action: Action) -> str:
    return action.text()


def _draw_order(action: Action) -> str:
    """Sorts a draw and takes as their texts do (``draw`` before ``take``, takes by card), without writing them."""
    return str(action.card) if isinstance(action, Take) else ""


def _best(actions: Sequence[A], key: Callable[[A], Any]) -> A:
    """The action with the largest ``key``; of several, the one whose text sorts first.

    The bot's choices are defined over its listing sorted by text (the first
    of equals wins), so this is ``max(sorted(actions, key=text), key=key)``,
    with texts written only for the equals.
    """
    best: list[A] = []
    top: Any = None
    for action in actions:
        k = key(action)
        if not best or k > top:
            top = k
            best = [action]
        elif k == top:
            best.append(action)
    return best[0] if len(best) == 1 else min(best, key=_text)


def _least(actions: Sequence[A], key: Callable[[A], Any]) -> A:
    """The action with the smallest ``key``; of several, the one whose text sorts first (see :func:`_best`)."""
    least: list[A] = []
    low: Any = None
    for action in actions:
        k = key(action)
        if not least or k < low:
            low = k
            least = [action]
        elif k == low:
            least.append(action)
    return least[0] if len(least) == 1 else min(least, key=_text)


def plan(hand: Sequence[Card], table: Sequence[Cards], values: Mapping[Card, int]) -> tuple[int, tuple[Cards, ...]]:
    """The most points ``hand`` can put on the table now (melds and add-ons), and the sets that do it."""
    return _plan(hand, mask_of(hand), [reach_of(m) for m in table], values)


def _plan(
    hand: Sequence[Card], have: int, reaches: Sequence[MeldReach | None], values: Mapping[Card, int]
) -> tuple[int, tuple[Cards, ...]]:
    """:func:`plan` with the hand's mask and the table's melds' reaches."""
    value, sets, _exact = _cover(hand, _candidates(have, reaches, values), values)
    return value, sets


def _candidates(have: int, reaches: Sequence[MeldReach | None], values: Mapping[Card, int]) -> list[Candidate[Card]]:
    """The melds of the cards of ``have`` and their add-ons to the table, as ``MELDS.enumerate`` and
    ``addon_chains`` list them (from masks: the same candidates in the same order)."""
    value = values.__getitem__
    candidates: list[Candidate[Card]] = [Candidate(m, value=sum(map(value, m))) for m in melds_of(have, WRAP)]
    for reach in reaches:
        if reach is not None and reach.fits & have:
            candidates.extend(Candidate(ch, value=sum(map(value, ch))) for ch in chains(reach, have))
    return candidates


def _cover(
    hand: Sequence[Card], candidates: list[Candidate[Card]], values: Mapping[Card, int]
) -> tuple[int, tuple[Cards, ...], bool]:
    """The best cover's points and sets, and whether the search was complete (so the points are the most)."""
    if not candidates:
        return 0, (), True
    value = values.__getitem__
    best = best_cover(CoverProblem(Counter(hand), candidates, order=CODE, potential=value, node_limit=NODE_LIMIT))
    if best is None:
        return 0, (), False
    return best.value, best.sets, best.complete


def _keep_value(card: Card, hand: Sequence[Card], values: Mapping[Card, int], claimable: set[Card]) -> float:
    """How much ``card`` is worth keeping: partners toward a meld, less its points; fitting cards are never given away.

    Each other card of its rank counts 3, of its suit next to it 3, two
    away 1.5 (sums of halves, exact in any order).
    """
    partners = _PARTNERS[card.code]
    worth = 0.0
    for other in hand:
        weight = partners.get(other)
        if weight is not None:
            worth += weight
    if card in claimable:
        worth += 20.0
    return worth - 0.3 * values[card]


def _partners() -> list[dict[Card, float]]:
    """For each card (by code): every other card that counts toward keeping it, and how much."""
    out = []
    for card in DECK:
        weights: dict[Card, float] = {}
        for other in DECK:
            if other is card:
                continue
            if other.rank == card.rank:
                weights[other] = 3.0
            elif other.suit is card.suit:
                worth = 0.0
                for step, weight in ((1, 3.0), (2, 1.5)):
                    if other in (MELDS.neighbour(card, step), MELDS.neighbour(card, -step)):
                        worth += weight
                if worth:
                    weights[other] = worth
        out.append(weights)
    return out


_PARTNERS = _partners()


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
        hand = _cards(view["hand"])
        table = [_meld_cards(m["cards"]) for m in view["melds"]]
        actions = actions_seen(view, hand, table, _cards(view["discard"]))  # choices as over them sorted by text (_best)
        if not actions:
            return None
        values = card_values(view["options"]["card_points"])
        calls = [a for a in actions if isinstance(a, Rummy)]
        if calls:
            return _best(calls, lambda a: _points(a, values))
        in_melds = {c for m in MELDS.enumerate(hand) for c in m}
        addons = [a for a in actions if isinstance(a, Addon) and not in_melds.intersection(a.cards)]
        if addons:
            return _best(addons, lambda a: (len(a.cards), _points(a, values)))
        return None

    # -- the turn --------------------------------------------------------------------

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(MummusView, view)  # the view of this game
        hand = _cards(view["hand"])
        table = [_meld_cards(m["cards"]) for m in view["melds"]]
        discard = _cards(view["discard"])
        actions = actions_seen(view, hand, table, discard)  # each choice as over them sorted by text (see _best)
        if not actions:
            raise RuleError("BOT", f"seat {view.get('seat')} has nothing to do now")
        values = card_values(view["options"]["card_points"])
        # The actions by kind (their order within a kind does not matter: _best and _least break ties by text).
        draws: list[Action] = []
        calls: list[Rummy] = []
        lays: list[Meld | Addon] = []
        discards: list[Discard] = []
        for a in actions:
            if type(a) is Discard:
                discards.append(a)
            elif type(a) is Meld or type(a) is Addon:
                lays.append(a)
            elif type(a) is Rummy:
                calls.append(a)
            else:
                draws.append(a)
        if draws:
            return self._draw(sorted(draws, key=_draw_order), hand, table, discard, values)
        if calls:
            return _best(calls, lambda a: _points(a, values))
        deep = view["deep"]
        if deep is not None:
            card = Card.parse(deep)
            uses = [a for a in lays if card in a.cards]
            if uses:
                return _best(uses, lambda a: (_points(a, values), len(a.cards)))
        _value, sets = plan(hand, table, values) if lays else (0, ())  # a plan only picks among lays
        if sets:
            planned = {frozenset(s) for s in sets}
            planned_lays = [a for a in lays if frozenset(a.cards) in planned]
            if planned_lays:
                return _best(planned_lays, lambda a: (_points(a, values), len(a.cards)))
        in_plan = {c for s in sets for c in s}
        extra = [a for a in lays if isinstance(a, Addon) and not in_plan.intersection(a.cards)]
        if extra:
            return _best(extra, lambda a: (_points(a, values), len(a.cards)))
        if discards:
            claimable = set(_cards(view["claimable"])) | {c for m in table for c in MELDS.fits(m)}
            return _least(discards, lambda a: _keep_value(a.card, hand, values, claimable))
        return min(actions, key=_text)

    def _draw(
        self,
        draws: Sequence[Action],
        hand: list[Card],
        table: list[Cards],
        discard: list[Card],
        values: Mapping[Card, int],
    ) -> Action:
        have = mask_of(hand)
        reaches = [reach_of(m) for m in table]
        candidates = _candidates(have, reaches, values)
        playable, _sets, exact = _cover(hand, candidates, values)
        left = sum(values[c] for c in hand) - playable
        best: Action | None = None
        best_score = 0.0
        for action in draws:
            if isinstance(action, Take):
                taken = discard[discard.index(action.card) :]
                more_candidates = _candidates(have | mask_of(taken), reaches, values)
                if exact and len(more_candidates) == len(candidates):
                    # The same candidates (they only grow with the cards): no cover can be worth more than the
                    # most the hand alone lays, so the plan below would find ``more <= playable``.
                    continue
                more, _sets, _exact = _cover([*hand, *taken], more_candidates, values)
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
