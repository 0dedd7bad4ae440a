"""``strong`` for ``mummus``: races to go out, judging draws and discards by the deadwood they leave.

From its seat's view alone (never the hidden cards). A round is won by the
first player out, and a hand goes out once every card but the last is in a
meld or an add-on, so the bot measures a hand by its **deadwood**: the cards
that the best cover of the hand (the shared set cover,
:mod:`rummykit.melds.cover`; melds of the hand and add-ons to the table's
melds, the most cards first) leaves out (:mod:`rummykit.bots.mummus_eval`).
The cards it cannot see (not in its hand, on the table, in the discard pile,
nor seen taken by another seat) are what the stock and the other hands may
hold, each equally likely.

* **Draw.** Each card the pile offers (the top one, and each deep one it
  could use) is judged by the best discard after taking it and the deadwood
  expected after the next draw; the stock by the same, averaged over a
  Monte Carlo sample of the unseen cards it may give (its **iterations**:
  the sampled stock cards, 10 by default, drawn with the bot's Rng, so the
  choice is the same for the same view, Rng and iterations). It takes the
  least deadwood.
* **Play.** It calls rummy whenever it can and uses a deep discard at once,
  as ``greedy`` does. It holds its own new melds and add-ons back until they
  take it out (:mod:`rummykit.bots.mummus_hold`): a meld on the table is a
  place for the others to add on, and shows them which cards not to throw
  away, and an add-on to a run opens its new end to them.
* **Discard.** The card whose loss leaves the least deadwood expected after
  the next draw (averaged exactly over the unseen cards); a card that fits a
  meld on the table, or that makes a meld with cards another seat was seen
  to take, counts half a card more.
* **Out of turn** (``claim``). Rummy calls whenever it can (the one with the
  most points); no add-ons, for the same reason it holds them in its turn.

A Monte Carlo evaluation with rollouts (deals of the hidden cards sampled,
each candidate played out by ``greedy``) was tried first and measured weaker
than ``greedy`` itself at a budget that fits a decision in a fraction of a
second: its noise outweighed its foresight. The deadwood measure is exact in
the next draw and cheap.

:meth:`MummusStrong.advise` gives the same action with why (the deadwood
left, the points laid, the duty of a deep take) and, after a take from the
pile, the steps of the rest of the turn.

>>> from rummykit.rulesets.mummus import INFO, from_position
>>> state = from_position('hands: 5H 6H 7H 9C 2D / 2C 3C 4D KS; discard: 9S 8H; melds: 1: 2S 3S 4S', target=0)
>>> bot = mummus_strong(INFO, iterations=4)
>>> str(bot.choose(state.view(0), Rng(1)))
'0 take 8H'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.bots.mummus import MummusGreedy, plan
from rummykit.bots.mummus_eval import Deadwood, unseen_cards
from rummykit.bots.mummus_hold import going_out, held_play
from rummykit.bots.strong import Advice, Budget
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.cards import Card, format_cards
from rummykit.rulesets.mummus import (
    MELDS,
    Addon,
    Discard,
    Draw,
    Meld,
    Rummy,
    Take,
    actions_from_view,
    card_values,
)
from rummykit.rulesets.mummus.views import MummusView

__all__ = ["DEFAULT_ITERATIONS", "MummusStrong", "mummus_strong"]

DEFAULT_ITERATIONS = 10
"""Stock cards sampled to judge a draw from the stock, at the default budget."""
TAKE_BIAS = 0.1
"""What taking a known card from the pile must gain over the stock, in deadwood cards (it shows the card)."""
FEED_PENALTY = 0.5
"""What discarding a card another seat could use at once costs, in deadwood cards."""

Cards = tuple[Card, ...]


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def _pairs(card: Card, cards: set[Card]) -> bool:
    """True when ``card`` and two of ``cards`` would make a meld (another seat was seen to want it)."""
    return bool(cards) and any(card in m for m in MELDS.enumerate([card, *cards], max_size=3))


def _points(action: Action, values: Mapping[Card, int]) -> int:
    cards: Sequence[Card] = getattr(action, "cards", ())
    return sum(values[c] for c in cards)


class _Seen:
    """What one decision reads off the view, once."""

    def __init__(self, view: MummusView) -> None:
        self.values = card_values(view["options"]["card_points"])
        self.hand = _cards(view["hand"])
        self.table = [tuple(_cards(m["cards"])) for m in view["melds"]]
        self.pile = _cards(view["discard"])
        seat = view["seat"]
        self.known = {Card.parse(c) for s, k in enumerate(view["hand_known"]) if s != seat for c in k}
        self.unseen = unseen_cards(self.hand, self.table, self.pile, self.known)
        self.deadwood = Deadwood(self.table, self.values)
        self.fits = {c for m in self.table for c in MELDS.fits(m)}


class MummusStrong:
    """``strong``: the deadwood race (see the module docs)."""

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=DEFAULT_ITERATIONS)
        self.greedy = MummusGreedy(info)
        self.last_scores: dict[str, float] = {}
        """The deadwood expected for each candidate (its text) at the last draw or discard judged."""

    # -- out of turn -------------------------------------------------------------

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        """Rummy calls whenever it can (``greedy``'s choice of call); never an add-on (it holds them)."""
        found = self.greedy.claim(view, rng)
        return found if isinstance(found, Rummy) else None

    # -- the turn ----------------------------------------------------------------

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        mview = cast(MummusView, view)  # the view of this game
        actions = sorted(actions_from_view(mview), key=lambda a: a.text())
        if not actions:
            raise RuleError("BOT", f"seat {mview.get('seat')} has nothing to do now")
        self.last_scores = {}
        if mview["turn"] != mview["seat"]:
            claim = self.claim(view, rng)
            return claim if claim is not None else actions[0]
        seen = _Seen(mview)
        draws = [a for a in actions if isinstance(a, Draw | Take)]
        if draws:
            return self._draw(seen, draws, rng)
        fixed = self.greedy.choose(view, rng)
        if isinstance(fixed, Rummy) or mview["deep"] is not None:
            return fixed
        step = held_play(actions, seen.hand, seen.table, seen.values, seen.fits)
        if step is not None:
            return step
        discard = self._discard(seen, actions)
        return discard if discard is not None else fixed

    def _draw(self, seen: _Seen, draws: Sequence[Action], rng: Rng) -> Action:
        """The draw after which the best discard leaves the least deadwood expected after the next draw."""
        dw, hand, unseen = seen.deadwood, seen.hand, seen.unseen
        best: Action | None = None
        best_score = 0.0
        for action in draws:
            if isinstance(action, Take):
                taken = seen.pile[seen.pile.index(action.card) :]
                score = dw.best_discard([*hand, *taken], unseen) + TAKE_BIAS
            else:
                sample: list[Card] = []
                pool = list(unseen)
                rng.shuffle(pool)
                clock = self.budget.start()
                while clock.more() and len(sample) < len(pool):
                    sample.append(pool[len(sample)])
                if not sample:
                    score = dw.score(hand)
                else:
                    score = sum(dw.best_discard([*hand, u], unseen) for u in sample) / len(sample)
            self.last_scores[action.text()] = score
            if best is None or score < best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _discard(self, seen: _Seen, actions: list[Action]) -> Action | None:
        """The discard that leaves the least deadwood expected after the next draw; feeding another seat costs."""
        discards = [a for a in actions if isinstance(a, Discard)]
        if not discards:
            return None
        dw, hand, unseen = seen.deadwood, seen.hand, seen.unseen

        def cost(a: Discard) -> tuple[float, str]:
            rest = [c for c in hand if c != a.card]
            feeds = a.card in seen.fits or _pairs(a.card, seen.known)
            score = dw.after_draw(rest, unseen) + (FEED_PENALTY if feeds else 0.0)
            self.last_scores[a.text()] = score
            return score, a.text()

        return min(discards, key=cost)

    # -- advice ------------------------------------------------------------------

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """:meth:`choose`'s action with why, and the rest of the turn as steps after a take from the pile."""
        mview = cast(MummusView, view)
        action = self.choose(view, rng)
        seen = _Seen(mview)
        if mview["turn"] != mview["seat"] and self.claim(view, rng) is None:
            reason = (
                "out of turn, nothing here brings you closer to going out: let the chance pass (an empty line);"
                " if you act anyway, this is the move"
            )
            return Advice(action, reason, exact=False)
        reason = self._reason(mview, seen, action)
        return Advice(action, reason, self._steps(seen, action), exact=False)

    def _reason(self, view: MummusView, seen: _Seen, action: Action) -> str:
        values, hand = seen.values, seen.hand
        held = sum(values[c] for c in hand)
        if isinstance(action, Rummy):
            return f"call rummy: {format_cards(action.cards)} from the discard pile score {_points(action, values)} points for you"
        if isinstance(action, Meld | Addon):
            left = held - _points(action, values)
            deep = view["deep"]
            if deep is not None and Card.parse(deep) in action.cards:
                why = f"it uses {deep}, the deep discard you took and must meld or add on this turn"
            elif going_out(hand, seen.table, values) is not None:
                why = "with it you can lay every card but one and go out this turn"
            else:
                why = "no meld of your hand needs these cards, and adding them on shrinks your hand"
            what = "lay the meld" if isinstance(action, Meld) else "add on"
            return f"{what} {format_cards(action.cards)} for {_points(action, values)} points: {why}; {left} points stay in your hand"
        if isinstance(action, Discard):
            rest = [c for c in hand if c != action.card]
            count, _points_left = seen.deadwood.of(rest)
            if not rest:
                return f"discard {action.card}, your last card: you go out and win the round"
            return (
                f"discard {action.card}: the card your hand needs least; {count} card{'s' * (count != 1)} of your hand"
                f" fit no meld yet, and {held - values[action.card]} points stay in your hand"
            )
        before = seen.deadwood.of(hand)[0]
        if isinstance(action, Take):
            taken = seen.pile[seen.pile.index(action.card) :]
            after = seen.deadwood.of([*hand, *taken])[0]
            more, _sets = plan([*hand, *taken], seen.table, values)
            deep = (
                f" (it lies under {len(taken) - 1} card{'s' * (len(taken) != 2)}: you must meld it or add it on this turn)"
                if len(taken) > 1
                else ""
            )
            return (
                f"take {action.card}{deep}: then {after} card{'s' * (after != 1)} of your hand fit no meld, against"
                f" {before} now, and your hand can put {more} points on the table; the stock would do less on average"
            )
        return (
            f"draw from the stock: no card of the discard pile brings your hand closer to going out"
            f" ({before} card{'s' * (before != 1)} fit no meld yet)"
        )

    def _steps(self, seen: _Seen, action: Action) -> tuple[str, ...]:
        """After a take from the pile, the melds and add-ons the taken cards allow (a person's steps)."""
        if not isinstance(action, Take):
            return ()
        taken = seen.pile[seen.pile.index(action.card) :]
        _more, sets = plan([*seen.hand, *taken], seen.table, seen.values)
        if len(taken) == 1:
            return ()
        steps = [f"take {action.card} (and {format_cards(taken[1:])} above it)"]
        for s in sets:
            if action.card in s:
                steps.append(f"{'meld' if MELDS.check(s).valid else 'add on'} {format_cards(s)}")
        steps.append("discard the card your hand needs least")
        return tuple(steps)


def mummus_strong(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> MummusStrong:
    """The ``strong`` bot for mummus (see the module docs)."""
    return MummusStrong(info, iterations=iterations, think=think)
