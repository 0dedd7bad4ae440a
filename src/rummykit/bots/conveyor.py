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

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from rummykit.bots.base import Bot, whole_option
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.conveyor import ConveyorMelds, by_code
from rummykit.melds.cover import Candidate, CoverProblem, best_cover, rank
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

Pieces = tuple[Domino, ...]


@functools.lru_cache(maxsize=1 << 14)
def _relations(a: Domino, b: Domino, top: int) -> tuple[tuple[float, tuple[Domino, ...]], ...]:
    """Each way two dominoes could share a meld: its weight and the dominoes that would complete it."""
    if a is b:
        return ()
    out: list[tuple[float, tuple[Domino, ...]]] = []
    if a.pips == b.pips:
        total = a.pips
        others = tuple(
            Domino(x, total - x) for x in range(max(0, total - top), total // 2 + 1) if Domino(x, total - x) not in (a, b)
        )
        out.append((2.5, others))

    def near(lo: int, hi: int, make: Callable[[int], Domino]) -> None:
        gap = hi - lo
        if gap == 1:
            ends = [v for v in (lo - 1, hi + 1) if 0 <= v <= top]
            out.append((3.0, tuple(make(v) for v in ends)))
        elif gap == 2:
            out.append((1.5, (make(lo + 1),)))

    if a.is_double and b.is_double:
        near(min(a.low, b.low), max(a.low, b.low), lambda v: Domino(v, v))
    for suit in {a.low, a.high} & {b.low, b.high}:
        va, vb = a.other(suit), b.other(suit)

        def in_suit(v: int, s: int = suit) -> Domino:
            return Domino(s, v)

        near(min(va, vb), max(va, vb), in_suit)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _related(top: int) -> dict[Domino, frozenset[Domino]]:
    """For each domino of the double-``top`` set, the dominoes it has some relation with.

    Most pairs have none, so a sum over a hand of pair weights need only
    visit these (the weights of the others are 0).
    """
    every = double_set(top)
    return {a: frozenset(b for b in every if _relations(a, b, top)) for a in every}


def pair_weight(a: Domino, b: Domino, dead: frozenset[Domino] = frozenset(), top: int = 12) -> float:
    """How much two dominoes help each other toward a meld whose missing dominoes are not all ``dead``.

    A run partner (one half shared, the other halves 1 apart) weighs 3, or
    1.5 when 2 apart; a sum partner (equal pips) 2.5; doubles 1 or 2 apart
    3 or 1.5. A relation counts only while some domino that would complete
    it is not in ``dead`` (say, already in a meld on the table).

    >>> pair_weight(Domino(3, 4), Domino(3, 5)), pair_weight(Domino(2, 6), Domino(3, 5)), pair_weight(Domino(0, 1), Domino(5, 6))
    (3.0, 2.5, 0.0)
    >>> pair_weight(Domino(3, 4), Domino(3, 5), frozenset({Domino(3, 3), Domino(3, 6)}))
    0.0
    """
    relations = _relations(a, b, top)
    if not relations:  # most pairs: nothing in common
        return 0.0
    total = 0.0
    for w, completers in relations:
        if not dead.issuperset(completers):  # some completer is not dead
            total += w
    return total


def worth(d: Domino, hand: Sequence[Domino], dead: frozenset[Domino] = frozenset(), top: int = 12) -> float:
    """A domino's worth among the others of a hand (the sum of its live pair weights)."""
    related = _related(top).get(d, _NONE)
    return sum((pair_weight(d, x, dead, top) for x in hand if x in related), 0.0)


_NONE: frozenset[Domino] = frozenset()


def best_partition(rules: ConveyorMelds, hand: Sequence[Domino]) -> list[Pieces]:
    """Disjoint melds from ``hand`` covering the most dominoes (then scoring the most).

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> def show(text):
    ...     return [' '.join(map(str, m)) for m in best_partition(ConveyorMelds(6), parse_dominoes(text))]
    >>> show('1-1 1-2 1-3 2-2 3-3 4-4 0-4')
    ['1-1 1-2 1-3', '2-2 3-3 4-4']
    >>> show('1-1 1-2 1-3 2-2 3-3 0-4')  # one meld only: the royal sum of 4 scores most
    ['0-4 1-3 2-2']
    """
    return list(_best_partition(rules, tuple(sorted(set(hand), key=by_code))))


SCORE_PER_DOMINO = 5
"""No meld scores more than this per domino it holds (13 for three dominoes, at most 3n + 1 for n >= 4)."""
_DOMINO_POTENTIAL = rank(1, SCORE_PER_DOMINO)
"""The most one domino still undecided could add to :func:`best_partition`'s objective."""


@functools.lru_cache(maxsize=1 << 12)
def _best_partition(rules: ConveyorMelds, hand: Pieces) -> tuple[Pieces, ...]:
    melds = rules.hand_melds(hand)
    if not melds:
        return ()
    cands: list[Candidate[Domino]] = []
    for m in melds:
        kind = rules.check(m).kind
        assert kind is not None
        cands.append(Candidate(m, rank(len(m), rules.score(kind, m))))
    found = best_cover(
        CoverProblem(
            dict.fromkeys((d for m in melds for d in m), 1),
            cands,
            order=by_code,
            potential=lambda _d: _DOMINO_POTENTIAL,
        )
    )
    return found.sets if found is not None else ()


def line_closable(rules: ConveyorMelds, hand: Sequence[Domino], options: Mapping[str, OptionValue]) -> bool:
    """True when ``hand`` (after a draw) closes as a line under ``domino_runs``: a whole hand.

    The line holds ``column_length`` dominoes after a discard, or the whole
    hand on the pickup where that is allowed; a hand that has melded or
    laid off anything is too short.

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> opts = {'domino_runs': True, 'branch_on_doubles': False, 'column_length': 3,
    ...         'never_close_on_pickup': False, 'no_milling': False}
    >>> line_closable(ConveyorMelds(6), parse_dominoes('1-2 2-3 3-4 6-6'), opts)
    True
    >>> line_closable(ConveyorMelds(6), parse_dominoes('1-2 2-3 3-4'), opts)  # a short hand
    False
    """
    if not options["domino_runs"]:
        return False
    whole = options["column_length"]
    if not isinstance(whole, int):  # a started game's options are resolved: a whole number here
        raise TypeError(f"column_length is {whole!r}, not a whole number")
    if len(hand) != whole + 1:
        return False
    branching = bool(options["branch_on_doubles"])
    if not options["never_close_on_pickup"] and rules.line(hand, branching=branching) is not None:
        return True
    return any(
        rules.line([x for x in hand if x is not d], branching=branching) is not None for d in dict.fromkeys(hand)
    )


def meld_ends(
    rules: ConveyorMelds, melds: Sequence[tuple[str, Pieces]], takes: dict[Domino, tuple[int, str]] | None = None,
    first: int = 0,
) -> dict[Domino, tuple[int, str]]:
    """Which meld end takes which domino: the first (meld index, end) in order, for melds from ``first`` on.

    Adds to ``takes`` (a new dict by default) without replacing an entry, so
    the table's ends can be worked out once and extended by each hand's melds.
    """
    out: dict[Domino, tuple[int, str]] = {} if takes is None else takes
    for i in range(first, len(melds)):
        kind, pieces = melds[i]
        for end in ("low", "high"):
            for d in rules.fits(kind, pieces, end):
                out.setdefault(d, (i, end))
    return out


def closable(
    rules: ConveyorMelds,
    hand: Sequence[Domino],
    table: Sequence[tuple[str, Pieces]],
    table_ends: Mapping[Domino, tuple[int, str]] | None = None,
    partition: Sequence[Pieces] | None = None,
) -> bool:
    """True when melding the best partition and laying off what fits leaves at most one domino.

    ``table_ends`` is :func:`meld_ends` of ``table``, when the caller has it
    already (it asks about many hands against one table); ``partition`` is
    :func:`best_partition` of ``hand``, likewise.

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> closable(ConveyorMelds(9), parse_dominoes('4-7 0-0'), [('run', tuple(parse_dominoes('0-1 0-2 0-3')))])
    True
    """
    melds = [*table]
    rest = list(hand)
    for m in best_partition(rules, hand) if partition is None else partition:
        kind = rules.check(m).kind
        assert kind is not None
        melds.append((kind, m))
        rest = [d for d in rest if d not in m]
    if len(rest) <= 1:
        return True
    # which meld end takes which domino; refreshed for a meld when it grows
    if table_ends is None:
        takes = meld_ends(rules, melds)
    else:
        takes = meld_ends(rules, melds, dict(table_ends), first=len(table))
    _lay_off(rules, melds, rest, takes, keep=1)
    return len(rest) <= 1


def _lay_off(
    rules: ConveyorMelds, melds: list[tuple[str, Pieces]], rest: list[Domino], takes: dict[Domino, tuple[int, str]],
    keep: int,
) -> dict[Domino, tuple[int, str]]:
    """:func:`closable`'s layoff loop: lays off the first domino of ``rest`` that fits, again and again.

    Stops when nothing in ``rest`` fits or at most ``keep`` dominoes are left;
    ``melds`` and ``rest`` change in place, ``takes`` (which meld end takes
    which domino) is left alone: the ends at the stop are returned.
    """
    grew = True
    while grew and len(rest) > keep:
        grew = False
        for d in rest:
            spot = takes.get(d)
            if spot is None:
                continue
            i, end = spot
            kind, pieces = melds[i]
            melds[i] = (kind, (d, *pieces) if end == "low" else (*pieces, d))
            rest.remove(d)
            takes = {x: where for x, where in takes.items() if where[0] != i}
            for e in ("low", "high"):
                for x in rules.fits(kind, melds[i][1], e):
                    takes.setdefault(x, (i, e))
            grew = True
            break
    return takes


Stall = tuple[tuple[tuple[str, Pieces], ...], tuple[Domino, ...], dict[Domino, tuple[int, str]]]
"""The melds, the rest of the hand and the meld ends where :func:`closable`'s layoff loop stalls on a hand alone."""


def hand_stall(
    rules: ConveyorMelds, hand: Sequence[Domino], table: Sequence[tuple[str, Pieces]],
    table_ends: Mapping[Domino, tuple[int, str]], partition: Sequence[Pieces],
) -> Stall:
    """Where :func:`closable`'s layoff loop stops on ``hand`` alone (melded by ``partition``), with nothing left over.

    With a domino ``d`` appended that is in no meld with the hand, the loop
    takes the very same steps as long as some hand domino fits (``d`` comes
    last in the hand): :func:`closable_with` goes on from here.
    """
    melds = [*table]
    rest = list(hand)
    for m in partition:
        kind = rules.check(m).kind
        assert kind is not None
        melds.append((kind, m))
        rest = [d for d in rest if d not in m]
    takes = meld_ends(rules, melds, dict(table_ends), first=len(table)) if rest else {}
    takes = _lay_off(rules, melds, rest, takes, keep=0)
    return tuple(melds), tuple(rest), takes


def closable_with(rules: ConveyorMelds, stall: Stall, d: Domino) -> bool:
    """:func:`closable` of the hand and ``d`` (appended), for a ``d`` in no meld with the hand.

    ``stall`` is :func:`hand_stall` of the hand with its best partition (which
    ``d`` leaves as it is): the hand empties before ``d`` is looked at, or
    ``d`` does not fit where the hand stalls, or the loop goes on from there.
    """
    melds, rest, takes = stall
    if not rest:
        return True
    if d not in takes:
        return False
    grown = [*rest, d]
    _lay_off(rules, list(melds), grown, takes, keep=1)
    return len(grown) <= 1


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
             table_ends: Mapping[Domino, tuple[int, str]], stall: Stall, order: Sequence[Domino]) -> float:
        """What drawing ``d`` adds to the hand, once the least useful domino is discarded again.

        ``base`` holds each hand domino's worth in the hand as it is; ``table_ends``
        is :func:`meld_ends` of ``table``; ``stall`` is :func:`hand_stall` of ``hand`` with its best partition;
        ``order`` is the hand from the least useful domino up (by worth, more pips, code).
        """
        grown = [*hand, d]
        top = rules.top
        related = _related(top).get(d, _NONE)  # the weights of all other pairs are 0
        # Every meld is a run in a suit, a run of doubles or a sum, whose dominoes are all related to each
        # other: a meld of d and the hand needs two hand dominoes related to d.
        completes = rules.melds_with(hand, d) if len(related.intersection(hand)) >= 2 else []
        # A domino in no meld with the hand leaves the hand's melds as they were: so is their best partition,
        # and the layoff loop goes as on the hand alone until that stalls (``stall``).
        closes = closable(rules, grown, table, table_ends) if completes else closable_with(rules, stall, d)
        if closes or line_closable(rules, grown, options):
            return CLOSE_VALUE
        # The domino to drop: the least useful of the grown hand, by (worth with d, more pips, code).
        # A hand domino unrelated to d keeps its worth, so the least of those is the first in ``order``.
        own = 0.0
        least: tuple[float, int, int] | None = None
        drop: Domino | None = None
        for x in hand:
            if x in related:
                own += pair_weight(d, x, dead, top)
                key = (base[x] + pair_weight(x, d, dead, top), -x.pips, x.code)
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
        table_ends = meld_ends(rules, table)
        stall = hand_stall(rules, hand, table, table_ends, best_partition(rules, hand))
        order = sorted(hand, key=lambda x: (base[x], -x.pips, x.code))
        known: dict[Domino, float] = {}

        def net(x: Domino) -> float:
            value = known.get(x)
            if value is None:
                value = known[x] = self._net(
                    x, hand, rules, table, base, dead, options, table_ends, stall, order
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
            gains = [max(0.0, net(u)) for u in unseen]
            expected = sum(gains) / len(gains) if gains else 0.0
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
