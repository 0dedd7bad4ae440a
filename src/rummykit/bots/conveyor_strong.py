"""``strong`` for ``conveyor``: it counts how many turns its hand is from closing, over sampled hidden dominoes.

The bot chooses from its seat's view alone (never the state) and only ever
plays an action of the view's legal list.

* **Turns to close.** A hand's *shape* is the number of turns it still
  needs: its best meld partition (:func:`rummykit.bots.conveyor.best_partition`,
  the meld search) covers some dominoes, others lay off on a meld end (on
  the table or of its own partition), and of the rest, two dominoes that one
  live domino would complete into a meld are a *pair* (one turn: draw the
  third) and every other domino is a *single* (one turn: discard it while
  drawing something that fits). The turns are the larger of the two counts;
  ties are broken by the *outs*: the live dominoes that would fill a need,
  weighted by how easily they come (face up at a conveyor end first).
* **Determinization.** What the seat cannot see (the face-down conveyor
  dominoes, the unknown part of every other hand) is sampled from the
  dominoes it has not seen. A face-down draw is valued over a sample of
  those dominoes (one *iteration* is one sampled domino, drawn with the
  game's Rng, so the same view, Rng and iterations give the same action);
  a face-up draw is valued exactly. Each draw is valued by the best discard
  that follows it (or by closing, which wins the round at once); a face-up
  domino it keeps that would feed an opponent (see *Discards*) is worth a
  little more for being out of their reach.
* **Discards** keep the hand nearest to closing and, among equals, avoid
  feeding an opponent: a discard lies face up at a conveyor end, so one that
  fits a meld on the table or works with the dominoes seen going into an
  opponent's hand is held back.
* **Melds are held** until the hand closes (laid down then, all in one
  turn): a meld on the table only gives the others somewhere to lay off.
  Dominoes outside its melds that fit a meld on the table are laid off at
  once (the hand gets shorter).
* **Selection round.** Each unclaimed column is valued as a hand by sampling
  its face-down cells; it claims the best once it looks good enough, else
  reveals in it; once the others have claimed (no one is left to take a
  column from it) it reveals the two best columns fully, then claims.
* **Jump-ins** (``claim``): it takes a discard when drawing it is worth at
  least as much as the best draw it would have on its own turn, and lets it
  pass otherwise.

Budget: ``iterations`` is the number of sampled hidden dominoes per decision
(default :data:`DEFAULT_ITERATIONS`); ``think`` caps the seconds.

>>> import rummykit.rulesets.conveyor as cv
>>> state = cv.from_position('columns: claimed 0 / ?0-0 ?0-1 ?0-2 0-3 ?0-4 ?0-5 1-3 / '
...     '?1-1 ?1-2 0-6 1-4 ?1-5 ?1-6 3-4 / claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / '
...     '2-3 2-2 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 0')
>>> bot = conveyor_strong(cv.INFO, iterations=8)
>>> advice = bot.advise(state.view(0), Rng(1))
>>> str(advice.action), advice.steps
('0 draw 2 bottom', ('draw 3-4', 'then discard 4-5'))
>>> advice.reason
'3-4 brings your hand to about 1 turn from closing (now 3), more than a face-down domino is expected to'
>>> advice.action == bot.choose(state.view(0), Rng(1))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from rummykit.bots.base import whole_option
from rummykit.bots.conveyor import ConveyorGreedy
from rummykit.bots.conveyor_hand import _best_partition, _relations, closable, line_closable, meld_ends
from rummykit.bots.strong import Advice, Budget, Clock
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.conveyor import ConveyorMelds, by_code
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

__all__ = ["DEFAULT_ITERATIONS", "ConveyorStrong", "conveyor_strong"]

DEFAULT_ITERATIONS = 24
"""Sampled hidden dominoes per decision at the default budget."""
WIN = 1000.0
"""The value of a draw after which the hand closes."""
OUT_WEIGHT = 0.03
"""What one weighted out is worth, in turns (outs only break ties between equal turn counts)."""
MAX_OUTS = 20.0
POTENTIAL_WEIGHT = 0.005
"""What each live completer of every two dominoes that could share a meld adds (the hand's potential,
beyond the pairs counted)."""
END_OUT, HIDDEN_OUT, MIDDLE_OUT = 3.0, 1.0, 0.5
"""Weights of a live domino as an out: face up at a conveyor end, unseen, face up inside a conveyor."""
FEEDS_LAYOFF = 0.6
FEEDS_MELD = 0.6
FEEDS_PARTNER = 0.15
"""What a discard costs (in turns) when it fits a meld on the table, completes a meld with an
opponent's seen dominoes, or works with one of them."""
DENY_WEIGHT = 2.0
"""What taking a face-up domino that would feed the others is worth besides what it brings the hand."""
ALONE_REVEALS = 2
"""Once no one else is left to claim, the best columns it turns fully face up before claiming."""
CLAIM_AT = -3.6
"""Claim a column (while others may still take it) once its expected shape is this good (minus turns)."""
SELECT_SAMPLES = 6
"""Sampled fillings of a column's face-down cells when it is valued in the selection round."""
JUMP_MARGIN = 0.05
"""A jump-in must beat the best own draw by this much (it gives away what the view would learn by waiting)."""

Pieces = tuple[Domino, ...]


@dataclass
class _Seen:
    """One decision's reading of the view: the hand, the table, what is live and where."""

    rules: ConveyorMelds
    hand: list[Domino]
    table: list[tuple[str, Pieces]]
    table_ends: dict[Domino, tuple[int, str]]
    unseen: list[Domino]
    out_weight: dict[Domino, float]
    danger: dict[Domino, float]
    cache: dict[Pieces, tuple[float, int, int]] = field(default_factory=dict)
    kinds: dict[Pieces, str] = field(default_factory=dict)


def _read(view: ConveyorView, rules: ConveyorMelds) -> _Seen:
    seat = view["seat"]
    assert seat is not None
    hand = [Domino.parse(x) for x in view.get("hand", [])]
    table = [(m["kind"], tuple(Domino.parse(x) for x in m["pieces"])) for m in view["melds"]]
    seen = set(hand)
    weight: dict[Domino, float] = {}
    for col in view["columns"]:
        cells = col["cells"]
        for i, cell in enumerate(cells):
            if cell == UNKNOWN:
                continue
            d = Domino.parse(cell)
            seen.add(d)
            if col["claimed_by"] is None:
                weight[d] = END_OUT if i in (0, len(cells) - 1) else MIDDLE_OUT
    for _kind, pieces in table:
        seen.update(pieces)
    held: set[Domino] = set()
    for s, known in enumerate(view["hand_known"]):
        if s != seat:
            held.update(Domino.parse(x) for x in known)
    seen |= held
    unseen = [d for d in double_set(rules.top) if d not in seen]
    for d in unseen:
        weight[d] = HIDDEN_OUT
    # what a discard would give the others
    team = {seat}
    if view["teams"]:
        team = next(set(t) for t in view["teams"] if seat in t)
    table_ends = meld_ends(rules, table)
    danger: dict[Domino, float] = {}
    for d in double_set(rules.top):
        cost = FEEDS_LAYOFF if d in table_ends else 0.0
        for s, known in enumerate(view["hand_known"]):
            if s in team or not known:
                continue
            theirs = [Domino.parse(x) for x in known]
            if rules.melds_with(theirs, d):
                cost += FEEDS_MELD
            cost += FEEDS_PARTNER * sum(1 for x in theirs if _relations(d, x, rules.top))
        danger[d] = cost
    return _Seen(rules, hand, table, table_ends, unseen, weight, danger)


def _kind(seen: _Seen, meld: Pieces) -> str:
    kind = seen.kinds.get(meld)
    if kind is None:
        found = seen.rules.check(meld).kind
        assert found is not None
        kind = seen.kinds[meld] = found
    return kind


def shape(seen: _Seen, hand: Sequence[Domino]) -> tuple[float, int, int]:
    """(value, turns, melded): the value is minus the turns to close plus a little for the outs."""
    key = tuple(sorted(hand, key=by_code))
    found = seen.cache.get(key)
    if found is not None:
        return found
    rules = seen.rules
    parts = _best_partition(rules, key)
    covered = {d for m in parts for d in m}
    ends = seen.table_ends
    if parts:
        ends = dict(ends)
        for m in parts:
            kind = _kind(seen, m)
            for e in ("low", "high"):
                for x in rules.fits(kind, m, e):
                    ends.setdefault(x, (-1, e))
    rest = [d for d in key if d not in covered and d not in ends]
    weight = seen.out_weight
    # pairs: two dominoes one live domino completes, the best-served first
    options: list[tuple[float, int, int]] = []
    for i, a in enumerate(rest):
        for j in range(i + 1, len(rest)):
            rel = _relations(a, rest[j], rules.top)
            if not rel:
                continue
            live = sum(weight.get(c, 0.0) for _w, completers in rel for c in completers)
            if live > 0:
                options.append((live, i, j))
    potential = sum(live for live, _i, _j in options)
    options.sort(key=lambda o: (-o[0], o[1], o[2]))
    used: set[int] = set()
    pairs = 0
    outs = 0.0
    for live, i, j in options:
        if i in used or j in used:
            continue
        used.update((i, j))
        pairs += 1
        outs += live
    singles = len(rest) - 2 * pairs
    if singles:
        outs += sum(weight.get(x, 0.0) for x in ends)
    turns = max(singles, pairs)
    value = -float(turns) + OUT_WEIGHT * min(outs, MAX_OUTS) + POTENTIAL_WEIGHT * potential
    result = (value, turns, len(covered))
    seen.cache[key] = result
    return result


def _without(hand: Sequence[Domino], d: Domino) -> list[Domino]:
    out = list(hand)
    out.remove(d)
    return out


class ConveyorStrong:
    """The strong conveyor bot (see the module docs)."""

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        if info.id != "conveyor":
            raise RuleError("BOT", f"this strong bot plays conveyor, not {info.id}")
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=DEFAULT_ITERATIONS)
        self.greedy = ConveyorGreedy(info)

    # -- the bot's interface ---------------------------------------------------------

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        """The action for the view's seat (see the module docs)."""
        return self._decide(cast(ConveyorView, view), rng).action

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        """In a jump-in window: the jump when it is worth it, else None (let the discard pass)."""
        seen = cast(ConveyorView, view)
        window = seen["jump_window"]
        if window is None or seen["seat"] not in window["waiting"]:
            return None
        action = self._decide(seen, rng).action
        return None if isinstance(action, Decline) else action

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """The choice with why (see :meth:`choose`)."""
        return self._decide(cast(ConveyorView, view), rng)

    # -- deciding --------------------------------------------------------------------

    def _decide(self, view: ConveyorView, rng: Rng) -> Advice:
        actions = actions_from_view(view)
        if not actions:
            raise RuleError("BOT", f"seat {view.get('seat')} has nothing to do now")
        rules = ConveyorMelds(whole_option(view, "set"))
        phase = view["phase"]
        clock = self.budget.start()
        if phase == "select":
            return self._select(view, rules, actions, rng, clock)
        seen = _read(view, rules)
        if phase == "draw":
            return self._draw(view, seen, actions, rng, clock)
        if phase == "play":
            return self._play(view, seen, actions)
        return self._jump(view, seen, actions, rng, clock)

    # -- selection -------------------------------------------------------------------

    def _select(
        self, view: ConveyorView, rules: ConveyorMelds, actions: list[Action], rng: Rng, clock: Clock
    ) -> Advice:
        claims = [a for a in actions if isinstance(a, Claim)]
        reveals = [a for a in actions if isinstance(a, Reveal)]
        seen = _read(view, rules)
        pool = list(seen.unseen)
        values: dict[int, float] = {}
        hidden: dict[int, int] = {}
        for col in view["columns"]:
            if col["claimed_by"] is not None:
                continue
            shown = [Domino.parse(x) for x in col["cells"] if x != UNKNOWN]
            missing = len(col["cells"]) - len(shown)
            hidden[col["column"]] = missing
            total = 0.0
            samples = 0
            for _ in range(SELECT_SAMPLES if missing else 1):
                if samples and not clock.more():
                    break
                fill: list[Domino] = []
                if missing:
                    rng.shuffle(pool)
                    fill = pool[:missing]
                total += shape(seen, [*shown, *fill])[0]
                samples += 1
            values[col["column"]] = total / samples
        ranked = sorted(values, key=lambda c: (-values[c], c))
        best = ranked[0]
        claim = next(a for a in claims if a.column == best)
        seat = view["seat"]
        alone = all(s == seat or s in [c["claimed_by"] for c in view["columns"]] for s in range(len(view["players"])))
        turns = -values[best]
        if alone:
            for c in ranked[:ALONE_REVEALS]:
                if hidden[c]:
                    return self._reveal_in(c, reveals, values, rng)
            return Advice(claim, f"column {best + 1} is the best hand left: about {turns:.1f} turns from closing")
        if not reveals or values[best] >= CLAIM_AT:
            return Advice(
                claim, f"column {best + 1} looks like the best hand: about {turns:.1f} turns from closing, before"
                " someone else takes it"
            )
        return self._reveal_in(best, reveals, values, rng)

    def _reveal_in(self, column: int, reveals: list[Reveal], values: dict[int, float], rng: Rng) -> Advice:
        mine = [a for a in reveals if a.column == column] or reveals
        action = rng.choice(mine)
        return Advice(
            action, f"column {action.column + 1} may be the best hand (about {-values[action.column]:.1f} turns"
            " from closing): see more of it before claiming"
        )

    # -- a turn ----------------------------------------------------------------------

    def _after_draw(self, view: ConveyorView, seen: _Seen, d: Domino, face_up: bool) -> tuple[float, Domino | None]:
        """The value of the hand once ``d`` is drawn and the best discard made (None: it closes)."""
        grown = [*seen.hand, d]
        if closable(seen.rules, grown, seen.table, seen.table_ends) or line_closable(
            seen.rules, grown, view["options"]
        ):
            return WIN, None
        best = -WIN
        drop: Domino | None = None
        no_milling = bool(view["options"]["no_milling"])
        for y in sorted(set(grown), key=by_code):
            if y == d and face_up and no_milling:
                continue
            value = shape(seen, _without(grown, y))[0] - seen.danger.get(y, 0.0)
            if value > best:
                best, drop = value, y
        return best, drop

    def _draw_values(
        self, view: ConveyorView, seen: _Seen, actions: Sequence[Action], rng: Rng, clock: Clock
    ) -> tuple[list[tuple[float, Draw, str | None]], float]:
        """Each draw's value and the domino it takes (None: face down); and the face-down value."""
        cells = {c["column"]: c["cells"] for c in view["columns"] if c["claimed_by"] is None}
        up: list[tuple[float, Draw, str | None]] = []
        hidden: list[Draw] = []
        for a in actions:
            if not isinstance(a, Draw):
                continue
            column = cells[a.column]
            cell = column[0] if a.end == "top" else column[-1]
            if cell == UNKNOWN:
                hidden.append(a)
            else:
                x = Domino.parse(cell)
                value, drop = self._after_draw(view, seen, x, True)
                if drop != x:  # kept: the others cannot have it
                    value += DENY_WEIGHT * seen.danger.get(x, 0.0)
                up.append((value, a, cell))
        blind = -WIN
        if hidden and seen.unseen:
            pool = list(seen.unseen)
            rng.shuffle(pool)
            total = 0.0
            count = 0
            for u in pool:
                if not clock.more():
                    break
                total += self._after_draw(view, seen, u, False)[0]
                count += 1
            if count == 0:
                total, count = self._after_draw(view, seen, pool[0], False)[0], 1
            blind = total / count
            # a face-down draw: prefer one whose next cell does not hand the others a good domino
            for a in hidden:
                up.append((blind, a, None))
        return up, blind

    def _draw(self, view: ConveyorView, seen: _Seen, actions: list[Action], rng: Rng, clock: Clock) -> Advice:
        values, _blind = self._draw_values(view, seen, actions, rng, clock)
        best = max(v for v, _a, _c in values)
        top = [(a, c) for v, a, c in values if v == best]
        now = shape(seen, seen.hand)[1]
        if all(c is None for _a, c in top):
            action = rng.choice([a for a, _c in top])
            if best >= WIN / 2:
                why = "a face-down domino is sure to close your hand"
            else:
                why = (
                    "no face-up end helps more than a face-down domino is expected to"
                    f" (your hand is about {now} turn{'s' * (now != 1)} from closing)"
                )
            return Advice(action, why)
        action, cell = next((a, c) for a, c in top if c is not None)
        if best >= WIN / 2:
            return Advice(action, f"{cell} lets you close your hand this turn and win the round")
        assert cell is not None
        after = self._after_draw(view, seen, Domino.parse(cell), True)
        drop = after[1]
        turns = shape(seen, _without([*seen.hand, Domino.parse(cell)], drop))[1] if drop is not None else now
        if drop is not None and str(drop) == cell:
            why = f"nothing helps your hand now: take {cell} and put it back (milling) to keep your hand as it is"
        else:
            why = (
                f"{cell} brings your hand to about {turns} turn{'s' * (turns != 1)} from closing"
                f" (now {now}), more than a face-down domino is expected to"
            )
        steps = (f"draw {cell}", f"then discard {drop}") if drop is not None else ()
        return Advice(action, why, steps)

    def _play(self, view: ConveyorView, seen: _Seen, actions: list[Action]) -> Advice:
        rules = seen.rules
        hand = seen.hand
        closes = [a for a in actions if isinstance(a, Close)]
        if closes:
            return Advice(closes[0], "your whole hand makes one line of play: close and win the round")
        if closable(rules, hand, seen.table, seen.table_ends):
            action = self.greedy._play(view, rules, hand, actions)
            parts = _best_partition(rules, tuple(sorted(set(hand), key=by_code)))
            steps = tuple(f"meld {' '.join(map(str, m))}" for m in parts)
            if isinstance(action, Meld):
                why = (
                    f"your hand closes this turn: lay down {len(parts)} meld{'s' * (len(parts) != 1)}, lay off"
                    " what fits and discard the last domino to win the round"
                )
            elif isinstance(action, Layoff):
                why = f"your hand closes this turn: {action.domino} fits meld {action.meld + 1}, then discard the last domino"
            else:
                why = "your hand closes: this is its last domino, discard it and win the round"
            return Advice(action, why, steps if isinstance(action, Meld) and len(steps) > 1 else ())
        parts = _best_partition(rules, tuple(sorted(set(hand), key=by_code)))
        covered = {d for m in parts for d in m}
        layoffs = [a for a in actions if isinstance(a, Layoff) and a.domino not in covered]
        if layoffs:
            action = min(layoffs, key=lambda a: (a.domino.code, a.meld, a.end))
            return Advice(
                action, f"{action.domino} is in none of your melds and fits meld {action.meld + 1}:"
                f" your hand drops to {len(hand) - 1} dominoes"
            )
        discards = [a for a in actions if isinstance(a, Discard)]
        scored = [(shape(seen, _without(hand, a.domino))[0] - seen.danger.get(a.domino, 0.0), a) for a in discards]
        best = max(v for v, _a in scored)
        action = min((a for v, a in scored if v == best), key=lambda a: a.domino.code)
        turns = shape(seen, _without(hand, action.domino))[1]
        held = len(covered)
        melded = (
            f"{held} of your dominoes already make melds (kept in hand until you can close)"
            if held else "none of your dominoes make a meld yet"
        )
        why = (
            f"{action.domino} is the domino your hand needs least ({melded}); your hand is about {turns}"
            f" turn{'s' * (turns != 1)} from closing"
        )
        if seen.danger.get(action.domino, 0.0) == 0.0 and any(seen.danger.get(a.domino, 0.0) for a in discards):
            why += ", and it gives your opponents nothing they can use"
        return Advice(action, why)

    def _jump(self, view: ConveyorView, seen: _Seen, actions: list[Action], rng: Rng, clock: Clock) -> Advice:
        decline = next(a for a in actions if isinstance(a, Decline))
        jumps = [a for a in actions if isinstance(a, Jump)]
        if not jumps:
            return Advice(decline, "you cannot take this discard")
        window = view["jump_window"]
        assert window is not None
        domino = Domino.parse(window["piece"])
        take, _drop = self._after_draw(view, seen, domino, True)
        draws = [Draw(view["seat"] or 0, c["column"], end) for c in view["columns"] if c["claimed_by"] is None
                 for end in ("top", "bottom")]
        values, _blind = self._draw_values(view, seen, draws, rng, clock)
        own = max((v for v, _a, c in values if c != str(domino)), default=-WIN)
        if take < WIN and take < own + JUMP_MARGIN:
            return Advice(
                decline, f"{domino} helps you less than the draw you can make on your own turn: let it pass"
            )
        if view["options"]["jump_in_only_on_completion"]:
            action = max(jumps, key=lambda a: (len(a.rest), a.text()))
        else:
            action = jumps[0]
        if take >= WIN:
            return Advice(action, f"{domino} lets you close your hand at once: jump in and win the round")
        return Advice(
            action, f"{domino} helps your hand more than any draw of your own turn would, and jumping in skips"
            " the players in between"
        )


def conveyor_strong(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> ConveyorStrong:
    """The strong bot for ``conveyor`` (for the bot registry)."""
    return ConveyorStrong(info, iterations=iterations, think=think)
