"""``greedy`` for ``conveyor``: keeps dominoes that build toward melds and gets rid of its hand fast.

The bot works from its seat's view alone and only ever plays an action from
the view's legal list (:func:`rummykit.rulesets.conveyor.actions_from_view`).

* **Hand value.** Two dominoes "work together" when they could sit in one
  meld: one half shared and the other halves 1 or 2 apart (a run), equal pip
  totals (a sum), or doubles 1 or 2 apart (a run of pairs). A domino's worth
  in a hand is the sum of those pair weights with the other dominoes.
* **Selection round.** It scores each unclaimed column by how well its
  face-up dominoes work together; it claims the best column when that score
  is high enough (or the reveals are running out, or by a small chance each
  turn), and otherwise reveals a face-down domino of the best column.
* **Draw.** It compares each face-up conveyor end (its worth in the hand, a
  bonus when it completes a meld or fits a meld on the table) with the
  expected worth of a face-down domino (averaged over the dominoes it has not
  seen), and draws the best; it never draws a face-up domino worth less than
  its own worst domino (that would only mill it back).
* **Play.** It closes at once when it can (with ``domino_runs``, also with a
  line: only while its hand is whole, before it has melded anything); it
  lays down the melds of the partition of its hand that covers the most
  dominoes (then scores most); it lays off whatever fits (its own and its
  partner's melds first); then it discards its least useful domino.
* **Jump-ins.** It claims a discard when the discard completes a meld with
  its hand (or, without ``jump_in_only_on_completion``, fits a meld on the
  table); with ``jump_in_only_on_completion`` it names the largest such meld.

>>> import rummykit.rulesets.conveyor as cv
>>> state = cv.from_position('columns: claimed 0 / ?0-0 ?0-1 ?0-2 0-3 ?0-4 ?0-5 1-3 / '
...     '?1-1 ?1-2 0-6 1-4 ?1-5 ?1-6 3-4 / claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / '
...     '2-3 2-2 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 0')
>>> bot = conveyor_greedy(cv.INFO)
>>> str(bot.choose(state.view(0), Rng(1)))  # 3-4 and 1-3 help little: a face-down domino
'0 draw 1 top'
>>> _ = state.apply(state.parse_action('0 draw 2 bottom'))
>>> str(bot.choose(state.view(0), Rng(1)))
'0 meld 3-6 4-6 5-6 6-6'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.bots.base import Bot, whole_option
from rummykit.bots.conveyor_hand import (
    _NONE,
    Pieces,
    Stall,
    _related,
    best_partition,
    closable,
    closable_with,
    could_close,
    ends_of_table,
    hand_stall,
    line_closable,
    meld_ends,
    pair_weight,
    worth,
)
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.conveyor import ConveyorMelds
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.rulesets.conveyor import (
    UNKNOWN,
    Claim,
    Close,
    Decline,
    Discard,
    Draw,
    Jump,
    Layoff,
    Meld,
    Reveal,
    actions_from_view,
)
from rummykit.rulesets.conveyor.views import ConveyorView

__all__ = [
    "ConveyorGreedy", "Stall", "best_partition", "closable", "closable_with", "conveyor_greedy", "hand_stall",
    "line_closable", "meld_ends", "pair_weight",
]

CLAIM_SCORE = 9.0
"""A column whose face-up dominoes work together this well is claimed at once."""
CLAIM_CHANCE = 0.2
"""Otherwise the chance, each selection turn, of claiming the best column anyway."""
COMPLETES_BONUS = 6.0
FITS_TABLE_BONUS = 5.0
CLOSE_VALUE = 1000.0

class ConveyorGreedy:
    """The greedy conveyor bot (see the module docs)."""

    level = "greedy"

    def __init__(self, info: GameInfo) -> None:
        if info.id != "conveyor":
            raise RuleError("BOT", f"this greedy bot plays conveyor, not {info.id}")
        self.info = info

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(ConveyorView, view)  # the view of this game
        actions = actions_from_view(view)
        if not actions:
            raise RuleError("BOT", f"seat {view.get('seat')} has nothing to do now")
        rules = ConveyorMelds(whole_option(view, "set"))
        hand = [Domino.parse(x) for x in view["hand"]]
        phase = view["phase"]
        if phase == "select":
            return self._select(view, actions, rng)
        if phase == "draw":
            return self._draw(view, rules, hand, actions, rng)
        if phase == "play":
            return self._play(view, rules, hand, actions)
        return self._jump(view, rules, hand, actions)

    # -- selection ---------------------------------------------------------------

    def _select(self, view: ConveyorView, actions: list[Action], rng: Rng) -> Action:
        claims = [a for a in actions if isinstance(a, Claim)]
        reveals = [a for a in actions if isinstance(a, Reveal)]
        scores: dict[int, float] = {}
        top = whole_option(view, "set")
        for col in view["columns"]:
            if col["claimed_by"] is None:
                shown = [Domino.parse(x) for x in col["cells"] if x != UNKNOWN]
                scores[col["column"]] = sum(worth(d, shown, top=top) for d in shown) / 2
        best = max(claims, key=lambda a: (scores[a.column], -a.column))
        if not reveals or scores[best.column] >= CLAIM_SCORE or rng.below(1000) < CLAIM_CHANCE * 1000:
            return best
        in_best = [a for a in reveals if a.column == best.column]
        return rng.choice(in_best or reveals)

    # -- a turn ------------------------------------------------------------------

    def _unseen(self, view: ConveyorView, hand: Sequence[Domino], rules: ConveyorMelds) -> list[Domino]:
        seen = set(hand)
        for col in view["columns"]:
            seen.update(Domino.parse(x) for x in col["cells"] if x != UNKNOWN)
        for m in view["melds"]:
            seen.update(Domino.parse(x) for x in m["pieces"])
        for known in view["hand_known"]:
            seen.update(Domino.parse(x) for x in known)
        return [d for d in double_set(rules.top) if d not in seen]

    def _net(self, d: Domino, hand: Sequence[Domino], rules: ConveyorMelds, table: list[tuple[str, Pieces]],
             base: dict[Domino, float], dead: frozenset[Domino], options: Mapping[str, OptionValue],
             table_ends: Mapping[Domino, tuple[int, str]], stall: Stall, order: Sequence[Domino],
             hand_melded: frozenset[Domino]) -> float:
        """What drawing ``d`` adds to the hand, once the least useful domino is discarded again.

        ``base`` holds each hand domino's worth in the hand as it is; ``table_ends``
        is :func:`meld_ends` of ``table``; ``stall`` is :func:`hand_stall` of ``hand`` with its best partition;
        ``order`` is the hand from the least useful domino up (by worth, more pips, code); ``hand_melded``
        the dominoes of the hand's melds.
        """
        grown = [*hand, d]
        top = rules.top
        related = _related(top).get(d, _NONE)  # the weights of all other pairs are 0
        # Every meld is a run in a suit, a run of doubles or a sum, whose dominoes are all related to each
        # other: a meld of d and the hand needs two hand dominoes related to d.
        near = related.intersection(hand)
        completes = rules.melds_with(hand, d) if len(near) >= 2 else []
        # A domino in no meld with the hand leaves the hand's melds as they were: so is their best partition,
        # and the layoff loop goes as on the hand alone until that stalls (``stall``).
        if completes:  # when some domino of the grown hand can be neither melded nor laid off, it cannot close
            in_melds = hand_melded.union(*completes)
            closes = could_close(top, grown, in_melds, dead) and closable(rules, grown, table, table_ends)
        else:
            closes = closable_with(rules, stall, d)
        if closes or line_closable(rules, grown, options):
            return CLOSE_VALUE
        # The domino to drop: the least useful of the grown hand, by (worth with d, more pips, code).
        # A hand domino unrelated to d keeps its worth, so the least of those is the first in ``order``.
        # (The keys differ in code, so the least does not depend on the order the dominoes are visited in.)
        own = 0.0
        least: tuple[float, int, int] | None = None
        drop: Domino | None = None
        for x in near:
            weight = pair_weight(d, x, dead, top)  # the same both ways round
            own += weight
            key = (base[x] + weight, -x.pips, x.code)
            if least is None or key < least:
                least, drop = key, x
        for x in order:
            if x not in related:
                key = (base[x], -x.pips, x.code)
                if least is None or key < least:
                    least, drop = key, x
                break
        if least is None or drop is None or (own, -d.pips, d.code) < least:
            return 0.0  # d itself is the least useful: drawn and dropped again
        net = own - least[0]
        if completes:
            net += COMPLETES_BONUS
        if d in table_ends:  # it fits an end of a meld on the table
            net += FITS_TABLE_BONUS
        return net

    def _draw(
        self, view: ConveyorView, rules: ConveyorMelds, hand: list[Domino], actions: list[Action], rng: Rng
    ) -> Action:
        table = [(m["kind"], tuple(Domino.parse(x) for x in m["pieces"])) for m in view["melds"]]
        cells = {c["column"]: c["cells"] for c in view["columns"] if c["claimed_by"] is None}
        dead = frozenset(x for _kind, pieces in table for x in pieces)
        base = {x: worth(x, hand, dead, rules.top) for x in hand}

        options = view["options"]
        ends = ends_of_table(rules, tuple(table))
        stall = hand_stall(rules, hand, table, ends, best_partition(rules, hand))
        order = sorted(hand, key=lambda x: (base[x], -x.pips, x.code))
        hand_melded = frozenset(x for m in rules.hand_melds(hand) for x in m)
        known: dict[Domino, float] = {}

        def net(x: Domino) -> float:
            value = known.get(x)
            if value is None:
                value = known[x] = self._net(
                    x, hand, rules, table, base, dead, options, ends, stall, order, hand_melded
                )
            return value

        up: list[tuple[float, Draw]] = []
        hidden: list[Draw] = []
        for a in actions:
            assert isinstance(a, Draw)
            column = cells[a.column]
            cell = column[0] if a.end == "top" else column[-1]
            if cell == UNKNOWN:
                hidden.append(a)
            else:
                up.append((net(Domino.parse(cell)), a))
        best = max((net for net, _a in up), default=0.0)
        if best > 0:
            unseen = self._unseen(view, hand, rules)
            # The expected gain of a face-down domino: the mean of max(0, net) over the unseen dominoes. Every
            # gain is a whole number of halves (weights 1.5, 2.5 and 3, whole bonuses), so the sums are exact
            # and only grow: once the sum so far over the whole count is past ``best``, the face-down domino
            # wins, and with one to draw the rest need no weighing.
            count = len(unseen)
            gains: list[float] = []
            total = 0.0
            for u in unseen:
                gain = max(0.0, net(u))
                gains.append(gain)
                total += gain
                if hidden and total / count > best:
                    break
            expected = sum(gains) / count if count else 0.0
            if best >= expected or not hidden:
                return next(a for net, a in up if net == best)
        if hidden:
            return rng.choice(hidden)
        # Nothing at an end helps and nothing is face down: turn a conveyor (draw, then usually
        # mill) from the end nearest a face-up domino that would help.
        wanted: list[tuple[int, Draw]] = []
        for _net, a in up:
            column = cells[a.column] if a.end == "top" else cells[a.column][::-1]
            for distance, cell in enumerate(column[1:], start=1):
                if cell != UNKNOWN and net(Domino.parse(cell)) > 0:
                    wanted.append((distance, a))
                    break
        if wanted:
            nearest = min(distance for distance, _a in wanted)
            return rng.choice([a for distance, a in wanted if distance == nearest])
        return rng.choice([a for _net, a in up])

    def _play(self, view: ConveyorView, rules: ConveyorMelds, hand: list[Domino], actions: list[Action]) -> Action:
        closes = [a for a in actions if isinstance(a, Close)]
        if closes:
            return closes[0]
        seat = view["seat"]
        melds = {a.dominoes: a for a in actions if isinstance(a, Meld)}
        if melds:
            for m in best_partition(rules, hand):
                if m in melds:
                    return melds[m]
            # the best partition would empty the hand where that is not allowed: lay the largest legal meld
            return max(melds.values(), key=lambda a: (len(a.dominoes), a.text()))
        layoffs = [a for a in actions if isinstance(a, Layoff)]
        if layoffs:
            owners = {m["index"]: m["owner"] for m in view["melds"]}
            team = {seat}
            if view["teams"]:
                team = next(set(t) for t in view["teams"] if seat in t)
            return max(layoffs, key=lambda a: (owners[a.meld] in team, -a.meld, a.text()))
        discards = [a for a in actions if isinstance(a, Discard)]
        dead = frozenset(Domino.parse(x) for m in view["melds"] for x in m["pieces"])
        top = rules.top
        return min(discards, key=lambda a: (worth(a.domino, hand, dead, top), -a.domino.pips, a.domino.code))

    def _jump(self, view: ConveyorView, rules: ConveyorMelds, hand: list[Domino], actions: list[Action]) -> Action:
        jumps = [a for a in actions if isinstance(a, Jump)]
        decline = next(a for a in actions if isinstance(a, Decline))
        if not jumps:
            return decline
        if view["options"]["jump_in_only_on_completion"]:
            return max(jumps, key=lambda a: (len(a.rest), a.text()))
        domino = jumps[0].domino
        table = [(m["kind"], tuple(Domino.parse(x) for x in m["pieces"])) for m in view["melds"]]
        fits = any(domino in rules.fits(kind, pieces, end) for kind, pieces in table for end in ("low", "high"))
        if rules.melds_with(hand, domino) or fits:
            return jumps[0]
        return decline


def conveyor_greedy(info: GameInfo) -> Bot:
    """The greedy bot for ``conveyor`` (for the bot registry)."""
    return ConveyorGreedy(info)
