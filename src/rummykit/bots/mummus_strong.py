"""``strong`` for ``mummus``: determinized Monte Carlo over the draws and the discards.

From its seat's view alone. Its **iterations** are sampled deals: in each, the
cards it cannot see (neither in its hand, the discard pile, the melds nor
among the cards everyone saw another seat take from the pile) are shuffled
with the bot's Rng and dealt to the other hands (each keeps the cards it was
seen taking, and gets as many cards as the view says it holds) and to the
stock. Each candidate action is then played out in that same deal (common
random numbers) to the end of the round, every seat, its own included,
following ``greedy`` (whose plans come from the shared set cover,
:mod:`rummykit.melds.cover`), and the candidate that wins the round most
often (ties broken by the points it scores against the best other seat) is
chosen. The default is 10 sampled deals, capped at one second.

Where it searches:

* **the draw** (the stock, the top discard, each deep discard it may take);
* **the discard** (every card of its hand, or the few ``greedy`` would keep
  least when the hand is large);
* everything else, within a turn and out of turn (``claim``), follows
  ``greedy``'s plan: rummy calls whenever it can (the one with the most points),
  a deep discard used at once, the melds and add-ons of the plan that puts
  the most points on the table, and add-ons out of turn of cards no meld in
  its hand needs. A single legal action, or one forced, is played without search.

:meth:`MummusStrong.advise` gives the same action with why (the points it puts
down, the melds it completes, the points left in the hand, the duty of a deep
take) and, after a draw, the steps of the rest of the turn.

>>> from rummykit.rulesets.mummus import INFO, from_position
>>> state = from_position('hands: 5H 6H 7H 9C 2D / 2C 3C 4D KS; discard: 9S 8H; melds: 1: 2S 3S 4S', target=0)
>>> bot = mummus_strong(INFO, iterations=4)
>>> str(bot.choose(state.view(0), Rng(1)))
'0 take 8H'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.blocks.areas import LaidMeld, MeldArea
from rummykit.blocks.piles import Piles
from rummykit.bots.mummus import MummusGreedy, _keep_value, plan
from rummykit.bots.mummus_eval import Deadwood, unseen_cards
from rummykit.bots.mummus_hold import held_discard, held_play
from rummykit.bots.mummus_sim import Sim, playout
from rummykit.bots.strong import Advice, Budget
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.cards import DECK, Card, format_cards
from rummykit.rulesets.mummus import (
    MELDS,
    OVER,
    PREFIX,
    Addon,
    Discard,
    Draw,
    Meld,
    Mummus,
    Rummy,
    Take,
    actions_from_view,
    card_values,
)
from rummykit.rulesets.mummus.views import MummusView

__all__ = ["DEFAULT_ITERATIONS", "MummusStrong", "determinize", "mummus_strong"]

DEFAULT_ITERATIONS = 10
"""Sampled deals per searched decision at the default budget."""
DISCARD_CANDIDATES = 6
"""At most this many discards are searched: the ones ``greedy`` would keep least."""
ROLLOUT_STEPS = 400
"""A rollout stops after this many actions (a round this long is scored as it stands)."""
POINTS_WEIGHT = 0.002
"""How much a point of margin counts against a round won (1.0): a tie-break between candidates."""

Cards = tuple[Card, ...]


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def determinize(view: MummusView, rng: Rng) -> Mummus:
    """A full game state consistent with ``view``: the unseen cards dealt at random to the other hands and the stock.

    Every other hand keeps the cards its seat was seen taking from the pile
    and has the size the view gives; the rest of the unseen cards, shuffled,
    make the stock. The state plays one round (option ``target`` 0).
    """
    seat = view["seat"]
    assert seat is not None
    n = len(view["hand_sizes"])
    hand = _cards(view["hand"])
    discard = _cards(view["discard"])
    melds = [
        LaidMeld(m["kind"], tuple(_cards(m["cards"])), tuple(m["laid_by"])) for m in view["melds"]
    ]
    known = [set(_cards(k)) for k in view["hand_known"]]
    seen = set(hand) | set(discard) | {c for m in melds for c in m.pieces}
    for s in range(n):
        if s != seat:
            seen |= known[s]
    unseen = [c for c in DECK if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == seat:
            hands.append(list(hand))
            continue
        need = view["hand_sizes"][s] - len(known[s])
        hands.append(sorted(known[s]) + unseen[:need])
        unseen = unseen[need:]
    options = dict(view["options"])
    options["target"] = 0
    state = Mummus(list(view["players"]), rng.below(2**31), options, deal=False)
    state.piles = Piles(unseen, discard, rule=f"{PREFIX}-PILE")
    state.hands = hands
    state.known = [set(k) for k in known]
    state.area = MeldArea(melds)
    turn = view["turn"]
    assert turn is not None
    state.current = turn
    state.first = turn
    state.dealer = view["dealer"]
    state.phase = view["phase"]
    state.turn_no = view["turn_number"]
    state.deep = None if view["deep"] is None else Card.parse(view["deep"])
    return state


def _margin(state: Mummus, seat: int) -> float:
    """A finished round's worth to ``seat``: 1 for a round won, plus a little for its score against the best other."""
    _laid, _left, scores = state.round_scores()
    emptied = [s for s, h in enumerate(state.hands) if not h]
    if emptied:
        won = 1.0 if emptied[0] == seat else 0.0
    else:
        won = 1.0 if scores[seat] == max(scores) else 0.0
    best_other = max(v for s, v in enumerate(scores) if s != seat)
    return won + POINTS_WEIGHT * (scores[seat] - best_other)


def _pairs(card: Card, cards: set[Card]) -> bool:
    """True when ``card`` and two of ``cards`` would make a meld (the other seat was seen to want it)."""
    return any(card in m for m in MELDS.enumerate([card, *cards], max_size=3))


def _danger(card: Card, unseen: Sequence[Card], held: int) -> float:
    """The expected number of three-card melds ``card`` completes with two cards of the other hands.

    Each unseen card is in another hand with the same chance (``held`` of the unseen cards are there).
    """
    if not unseen:
        return 0.0
    p = min(1.0, held / len(unseen))
    pool = set(unseen)
    melds = [m for m in MELDS.enumerate([card, *pool], max_size=3) if card in m and len(m) == 3]
    return len(melds) * p * p


def _points(action: Action, values: Mapping[Card, int]) -> int:
    cards: Sequence[Card] = getattr(action, "cards", ())
    return sum(values[c] for c in cards)


class MummusStrong:
    """``strong``: determinized Monte Carlo over draws and discards, ``greedy`` otherwise (see the module docs)."""

    level = "strong"
    search_draws = True
    """Search the draw (else follow ``greedy``)."""
    search_discards = True
    """Search the discard (else follow ``greedy``)."""
    hold = True
    """Hold new melds back until they take the hand out (:mod:`rummykit.bots.mummus_hold`)."""
    deadwood = True
    """Draw and discard by the deadwood measure (:mod:`rummykit.bots.mummus_eval`)."""
    take_bias = 0.1
    """What taking a known card from the pile must gain over the stock's average, in deadwood cards."""
    feed_penalty = 0.5
    two_ply = True
    """Judge a draw by the best discard after it and the draw after that (else by the deadwood it leaves)."""
    stock_samples = 10
    """Cards from the stock sampled to judge drawing from it two plies deep."""
    danger = 0.0
    """What a discard costs per expected meld it completes in the other hands, in deadwood cards."""
    """What discarding a card that fits a meld on the table costs, in deadwood cards."""

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=DEFAULT_ITERATIONS)
        self.greedy = MummusGreedy(info)
        self.last_scores: dict[str, float] = {}
        """The search's mean value per candidate (its text) at the last searched decision."""
        self.last_samples = 0
        """The sampled deals behind :attr:`last_scores`."""

    # -- out of turn -------------------------------------------------------------

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        """Rummy calls whenever it can, add-ons of cards its hand does not need (``greedy``'s rule)."""
        return self.greedy.claim(view, rng)

    # -- the turn ----------------------------------------------------------------

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        mview = cast(MummusView, view)  # the view of this game
        actions = sorted(actions_from_view(mview), key=lambda a: a.text())
        if not actions:
            raise RuleError("BOT", f"seat {mview.get('seat')} has nothing to do now")
        self.last_scores, self.last_samples = {}, 0
        candidates = self._candidates(mview, actions, rng)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(mview, candidates, rng)

    def _candidates(self, view: MummusView, actions: list[Action], rng: Rng) -> list[Action]:
        """The actions worth searching here (one: the move is settled without search)."""
        if view["turn"] != view["seat"]:
            return [self.greedy.choose(view, rng)]
        draws = [a for a in actions if isinstance(a, Draw | Take)]
        if draws:
            if self.search_draws:
                return draws
            self._rng = rng
            return [self._draw(view, draws) if self.deadwood else self.greedy.choose(view, rng)]
        fixed = self._play(view, actions, rng)
        if not isinstance(fixed, Discard) or not self.search_discards:
            return [fixed]
        discards = [a for a in actions if isinstance(a, Discard)]
        if len(discards) <= DISCARD_CANDIDATES:
            return discards
        values = card_values(view["options"]["card_points"])
        hand = _cards(view["hand"])
        table = [tuple(_cards(m["cards"])) for m in view["melds"]]
        claimable = set(_cards(view["claimable"])) | {c for m in table for c in MELDS.fits(m)}
        ranked = sorted(discards, key=lambda a: (_keep_value(a.card, hand, values, claimable), a.text()))
        return sorted(ranked[:DISCARD_CANDIDATES], key=lambda a: a.text())

    def _play(self, view: MummusView, actions: list[Action], rng: Rng) -> Action:
        """The play phase's step without search: rummy, the deep discard, then the held play, then a discard."""
        fixed = self.greedy.choose(view, rng)
        if not self.hold or isinstance(fixed, Rummy) or view["deep"] is not None:
            return fixed
        values = card_values(view["options"]["card_points"])
        hand = _cards(view["hand"])
        table = [tuple(_cards(m["cards"])) for m in view["melds"]]
        claimable = set(_cards(view["claimable"])) | {c for m in table for c in MELDS.fits(m)}
        step = held_play(actions, hand, table, values, claimable)
        if step is not None:
            return step
        if self.deadwood:
            discard = self._discard(view, actions, hand, table, values)
        else:
            discard = held_discard(actions, hand, values, claimable)
        return discard if discard is not None else fixed

    def _measure(self, view: MummusView) -> tuple[Deadwood, list[Card], list[Card], list[Cards]]:
        values = card_values(view["options"]["card_points"])
        hand = _cards(view["hand"])
        table = [tuple(_cards(m["cards"])) for m in view["melds"]]
        seat = view["seat"]
        known = [Card.parse(c) for s, k in enumerate(view["hand_known"]) if s != seat for c in k]
        unseen = unseen_cards(hand, table, _cards(view["discard"]), known)
        return Deadwood(table, values), hand, unseen, table

    def _draw(self, view: MummusView, draws: list[Action]) -> Action:
        """The draw that leaves the least deadwood: the stock's average against each card the pile offers."""
        dw, hand, unseen, _table = self._measure(view)
        pile = _cards(view["discard"])
        best: Action | None = None
        best_score = 0.0
        for action in draws:
            if isinstance(action, Take):
                taken = pile[pile.index(action.card) :]
                if self.two_ply:
                    score = dw.best_discard([*hand, *taken], unseen) + self.take_bias
                else:
                    score = dw.score([*hand, *taken]) + self.take_bias
            elif self.two_ply:
                sample = list(unseen)
                self._rng.shuffle(sample)
                sample = sample[: self.stock_samples]
                score = sum(dw.best_discard([*hand, u], unseen) for u in sample) / max(1, len(sample))
            else:
                score = dw.after_draw(hand, unseen)
            if best is None or score < best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _discard(
        self, view: MummusView, actions: list[Action], hand: list[Card], table: list[Cards], values: Mapping[Card, int]
    ) -> Action | None:
        """The discard that leaves the least deadwood expected after the next draw; feeding the table costs."""
        discards = [a for a in actions if isinstance(a, Discard)]
        if not discards:
            return None
        dw, _hand, unseen, _table = self._measure(view)
        fits = {c for m in table for c in MELDS.fits(m)}
        opponents = {Card.parse(c) for s, k in enumerate(view["hand_known"]) if s != view["seat"] for c in k}
        others = sum(n for s, n in enumerate(view["hand_sizes"]) if s != view["seat"]) - len(opponents)

        def cost(a: Discard) -> tuple[float, str]:
            rest = [c for c in hand if c != a.card]
            penalty = self.feed_penalty if a.card in fits or _pairs(a.card, opponents) else 0.0
            if self.danger:
                penalty += self.danger * _danger(a.card, unseen, others)
            return dw.after_draw(rest, unseen) + penalty, a.text()

        return min((a for a in discards if isinstance(a, Discard)), key=cost)

    def _search(self, view: MummusView, candidates: list[Action], rng: Rng) -> Action:
        seat = view["seat"]
        assert seat is not None
        totals = [0.0] * len(candidates)
        clock = self.budget.start()
        samples = 0
        while clock.more():
            base = determinize(view, rng)
            seed = rng.below(2**31)
            for i, action in enumerate(candidates):
                state = base.copy()
                state.apply(action)
                totals[i] += self._rollout(state, seat, seed)
            samples += 1
        self.last_samples = samples
        self.last_scores = {c.text(): t / samples for c, t in zip(candidates, totals, strict=True)}
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _rollout(self, state: Mummus, seat: int, seed: int) -> float:
        """Finish the turn under way with ``greedy`` on the real rules, then play the round out fast."""
        n = len(state.players)
        agents = [self.greedy] * n
        rngs = [Rng(seed + s) for s in range(n)]
        mover = state.current
        for _ in range(ROLLOUT_STEPS):
            if state.phase == OVER or state.outcome is not None:
                return _margin(state, seat)
            if state.current != mover:
                break
            step(state, agents, rngs)
        if state.phase == OVER or state.outcome is not None:
            return _margin(state, seat)
        sim = Sim(
            current=state.current,
            hands=[list(h) for h in state.hands],
            table=[m.pieces for m in state.area],
            discard=list(state.piles.discard),
            stock=list(state.piles.stock),
            laid=state.laid_points(),
            values=state.values,
        )
        return playout(sim, seat, Rng(seed), POINTS_WEIGHT)

    # -- advice ------------------------------------------------------------------

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """:meth:`choose`'s action with why, and the rest of the turn as steps after a draw."""
        mview = cast(MummusView, view)
        action = self.choose(view, rng)
        scores, samples = dict(self.last_scores), self.last_samples
        values = card_values(mview["options"]["card_points"])
        hand = _cards(mview["hand"])
        table = [tuple(_cards(m["cards"])) for m in mview["melds"]]
        odds = ""
        if samples and action.text() in scores:
            won = max(0.0, min(1.0, scores[action.text()]))
            odds = f"; it won about {round(100 * won)}% of {samples} sampled deals of the unseen cards"
        reason = self._reason(mview, action, hand, table, values) + odds
        steps = self._steps(mview, action, hand, table, values)
        return Advice(action, reason, steps, exact=False)

    def _reason(
        self, view: MummusView, action: Action, hand: list[Card], table: list[Cards], values: Mapping[Card, int]
    ) -> str:
        held = sum(values[c] for c in hand)
        if isinstance(action, Rummy):
            return f"call rummy: {format_cards(action.cards)} from the discard pile score {_points(action, values)} points for you"
        if isinstance(action, Meld | Addon):
            what = "completes a meld" if isinstance(action, Meld) else "adds on to a meld"
            left = held - _points(action, values)
            deep = view["deep"]
            duty = ""
            if deep is not None and Card.parse(deep) in action.cards:
                duty = f", and uses {deep}, the deep discard you must play this turn"
            return (
                f"{format_cards(action.cards)} {what} for {_points(action, values)} points{duty},"
                f" leaving {left} points in your hand"
            )
        if isinstance(action, Discard):
            return (
                f"discard {action.card}: the card your hand needs least and that helps the others least,"
                f" leaving {held - values[action.card]} points in your hand"
            )
        now, _sets = plan(hand, table, values)
        if isinstance(action, Take):
            pile = _cards(view["discard"])
            taken = pile[pile.index(action.card) :]
            more, sets = plan([*hand, *taken], table, values)
            melds = sum(1 for s in sets if len(s) >= 3 and MELDS.check(s).valid)
            deep = " (a deep card: you must meld it or add it on this turn)" if len(taken) > 1 else ""
            return (
                f"take {action.card}{deep}: with {format_cards(taken)} your hand can put {more} points on the table"
                f" ({melds} meld{'s' * (melds != 1)} or add-ons), against {now} without"
            )
        return f"draw from the stock: no discard lets you play more than the {now} points your hand can put down now"

    def _steps(
        self, view: MummusView, action: Action, hand: list[Card], table: list[Cards], values: Mapping[Card, int]
    ) -> tuple[str, ...]:
        """After a take from the pile, the melds and add-ons the taken cards allow (a person's steps)."""
        if not isinstance(action, Take):
            return ()
        pile = _cards(view["discard"])
        taken = pile[pile.index(action.card) :]
        _more, sets = plan([*hand, *taken], table, values)
        steps = [f"take {action.card}" + (f" (and {format_cards(taken[1:])} above it)" if len(taken) > 1 else "")]
        for s in sets:
            if MELDS.check(s).valid:
                steps.append(f"meld {format_cards(s)}")
            else:
                steps.append(f"add on {format_cards(s)}")
        if len(steps) == 1:
            return ()
        steps.append("discard the card you need least")
        return tuple(steps)


def mummus_strong(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> MummusStrong:
    """The ``strong`` bot for mummus (see the module docs)."""
    return MummusStrong(info, iterations=iterations, think=think)

