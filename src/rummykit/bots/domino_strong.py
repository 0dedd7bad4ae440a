"""``strong`` for ``domino-rummikub``: the exact solver's best play, its jokers held back when they gain little.

From its seat's view alone (the table, its rack, the option
``starting_group_size``) it plays, every turn:

* before its starting group: the starting group that places the most
  dominoes (exactly three unless the option says ``3-or-more``), fewest joker
  dominoes (0-0, 6-6) first, then the most spots, whenever the rack holds one;
* once down: the play, the whole table rearranged if need be, that places the
  most dominoes (ties: fewer jokers, then more spots), found by the exact
  solver :func:`rummykit.solve.dominoes.solve_dominoes`. It holds its jokers
  back unless spending them places more of its other dominoes (or empties the
  rack): a joker kept fits almost any set later, and one laid off now for a
  single domino is gone. A play of jokers alone is then no play (it draws).

Every play is checked (the same dominoes before and after, every set valid)
before it is returned; with nothing to play it draws, or passes when the
boneyard is empty.

**Budget.** One *iteration* is one pass of the solver with a node limit
that doubles from pass to pass (:data:`FIRST_NODES`, then twice that...); the
search stops at the first pass that proves its play best. Nearly every
position is settled in the first pass in a few milliseconds; a big table
with a rack whose dominoes cannot all be placed may need the later passes.
The default is :data:`DEFAULT_PASSES` passes within the default one-second
cap (a pass likely to end past the cap, twice as long as the one before, is
not begun; the second search, without the jokers, shares the decision's
time); ``strong:iterations=N`` gives exactly N passes (replayable anywhere);
no pass goes beyond :data:`MAX_NODES` nodes.

**Hidden dominoes.** The bot uses none: its play is a function of the table
and its rack, which is why shuffling the boneyard and the other racks never
changes it. The decision that wins a race to an empty rack, placing the most
dominoes now, needs no hidden information, and the solver makes it exactly.
What a determinization (deals of the unseen dominoes sampled to fit the
view, played out) could add is second order: whether to hold dominoes back,
or which of two plays placing as many leaves the better rack. It was left
out because it cannot pay for itself here: the one such choice measured,
holding jokers back or spending them at once, won the same share of 400
games against ``greedy`` (85.8% and 86.5% on the same deals, well inside each
other's noise; ``bench/bench_strong.py``), and a played-out sample costs a
whole round of greedy play (about 10 ms of CPU, more when the machine is
busy), so the 0.3 s a decision may take buys some 30 samples in all, too few
to tell apart plays a few percent apart. As it is,
the bot beats ``greedy`` in about 83% of single rounds (see
``docs/games/domino-rummikub.md``) at a few milliseconds a decision.

>>> from rummykit.catalogue import find_game
>>> from rummykit.engine.rng import Rng
>>> from rummykit.rulesets.domino_rummikub import from_position
>>> state = from_position('racks: 5-3 5-4 5-5 1-2 / 2-2; pool: seed 1')
>>> bot = domino_strong_bot(find_game('domino-rummikub'))
>>> str(bot.choose(state.view(0), Rng(0)))
'0 play 3-5 4-5 5-5 : 3-5 4-5 5-5'
>>> bot.advise(state.view(0), Rng(0)).reason
'it plays 3 dominoes as its starting group (3-5 4-5 5-5, 27 points), leaving 1 domino in the rack'
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from rummykit.bots.strong import Advice, Budget, Clock
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RuleError
from rummykit.pieces.dominoes import Domino, format_dominoes, parse_dominoes
from rummykit.rulesets import domino_rummikub as dr
from rummykit.rulesets.freetable import Draw, FreeTableView, Pass, Play, play_from_table
from rummykit.solve.candidates import domino_sets
from rummykit.solve.dominoes import DominoSolution, solve_dominoes
from rummykit.words import counted

__all__ = ["DEFAULT_PASSES", "FIRST_NODES", "MAX_NODES", "DominoStrongBot", "Plan", "domino_strong_bot", "plan_play"]

DSet = tuple[Domino, ...]

FIRST_NODES = 2500
"""The node limit of the solver's first pass; each further pass doubles it."""

DEFAULT_PASSES = 3
"""Solver passes at the default budget (2500, 5000 and 10000 nodes at most)."""

MAX_NODES = 160_000
"""No pass searches further than this, whatever the budget (a budget in seconds alone stops here too)."""


@dataclass(frozen=True)
class Plan:
    """What the bot plays: the solver's play (None: draw or pass), whether it is proven
    best, and the jokers it keeps back that the most-dominoes play would have spent."""

    solution: DominoSolution | None
    exact: bool
    jokers_kept: tuple[Domino, ...] = ()


def _solve(table: Sequence[DSet], rack: Sequence[Domino], budget: Budget, started: float) -> DominoSolution | None:
    """The most-dominoes play, by passes of doubling node limits until one is exact or the budget ends.

    ``started`` is when the decision began: its seconds count against ``budget.think``, and a
    pass that would likely end past it (twice the last pass's time) is not begun.
    """
    clock = Clock(budget, started=started)
    found: DominoSolution | None = None
    last = 0.0
    while not (clock.used and budget.think is not None and clock.seconds + 2 * last > budget.think) and clock.more():
        limit = FIRST_NODES << (clock.used - 1)
        began = time.perf_counter()
        found = solve_dominoes(table, rack, objective="dominoes", node_limit=limit)
        last = time.perf_counter() - began
        if (found is not None and found.exact) or limit >= MAX_NODES:
            break
        # None only says that no play was found within the limit; a longer pass may find one,
        # unless no set at all can hold a rack domino
        if found is None and clock.used == 1 and not _fits_somewhere(table, rack):
            break
    return found


def _fits_somewhere(table: Sequence[DSet], rack: Sequence[Domino]) -> bool:
    """True when some set made of the table's and the rack's dominoes holds a rack domino."""
    sets = domino_sets(Counter(d for s in table for d in s) + Counter(rack), dr.MELDS)
    mine = set(rack)
    return any(d in mine for s in sets for d in s)


def plan_play(
    table: Sequence[DSet], rack: Sequence[Domino], *, down: bool, size_rule: str, budget: Budget | None = None
) -> Plan:
    """The play the strong bot makes from this position, within ``budget`` (default: the default passes, no cap)."""
    budget = budget or Budget(DEFAULT_PASSES, None)
    started = time.perf_counter()
    if not down:
        return Plan(solve_dominoes(table, rack, objective="initial", starting_group_size=size_rule), True)
    best = _solve(table, rack, budget, started)
    if best is None:
        return Plan(None, True)
    jokers = tuple(d for d in best.placed if d in dr.JOKERS)
    if jokers and len(best.placed) < len(rack):
        naturals = [d for d in rack if d not in dr.JOKERS]
        without = _solve(table, naturals, budget, started) if naturals else None
        if without is not None and without.pieces_placed >= best.pieces_placed - len(jokers):
            return Plan(without, best.exact and without.exact, jokers)
        if without is None and best.pieces_placed == len(jokers):
            return Plan(None, best.exact, jokers)
    return Plan(best, best.exact)


def _checks(table: Sequence[DSet], rack: Sequence[Domino], play: Play) -> bool:
    """Conservation and valid sets, as the engine will check them (the starting-group rule is the solver's)."""
    before = Counter(d for s in table for d in s) + Counter(play.placed)
    after = Counter(d for s in play.table for d in s)
    if before != after or Counter(play.placed) - Counter(rack) or not play.placed:
        return False
    return all(dr.MELDS.check(cast(DSet, s)).valid for s in play.table)


class DominoStrongBot:
    """domino-rummikub's ``strong`` bot: the solver's play, jokers held back when they gain little."""

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        if info.id != dr.GAME_ID:
            raise OptionError(f"this strong bot plays {dr.GAME_ID} only, not {info.id}")
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=DEFAULT_PASSES)
        self.fallbacks = 0
        """How many planned plays failed the final check (and became draws); should stay 0."""

    def _decide(self, view: FreeTableView) -> tuple[Action, Plan, list[Domino]]:
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        table: list[DSet] = [tuple(parse_dominoes(s)) for s in view["table"]]
        rack = parse_dominoes(view["rack"])
        fallback: Action = Draw(seat) if view["pool_size"] else Pass(seat)
        plan = plan_play(
            table,
            rack,
            down=bool(view["down"][seat]),
            size_rule=str(view["options"]["starting_group_size"]),
            budget=self.budget,
        )
        if plan.solution is None:
            return fallback, plan, rack
        play = play_from_table(seat, table, plan.solution.table)
        if not _checks(table, rack, play):
            self.fallbacks += 1
            return fallback, Plan(None, False), rack
        return play, plan, rack

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        """The solver's play for the view's seat (the generator is unused: the choice is a function of the view)."""
        return self._decide(cast(FreeTableView, view))[0]

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """:meth:`choose`'s action with what it places, what it leaves, and its steps."""
        free = cast(FreeTableView, view)
        action, plan, rack = self._decide(free)
        kept = f", keeping the joker {format_dominoes(plan.jokers_kept)} for later" if plan.jokers_kept else ""
        if isinstance(action, Play) and plan.solution is not None:
            solution = plan.solution
            left = len(rack) - len(action.placed)
            rest = f"leaving {counted(left, 'domino', 'dominoes')} in the rack" if left else "emptying the rack"
            if not free["down"][free["seat"] or 0]:
                reason = (
                    f"it plays {counted(len(action.placed), 'domino', 'dominoes')} as its starting group"
                    f" ({format_dominoes(action.placed)}, {solution.points_placed} points), {rest}"
                )
                return Advice(action, reason, exact=plan.exact)
            n = len(action.placed)
            reason = (
                f"it places {counted(n, 'domino', 'dominoes')} worth {solution.points_placed} points,"
                f" the most the rack can place{' without its jokers' if plan.jokers_kept else ''},"
                f" {rest}; the table keeps {counted(len(action.table), 'valid set', 'valid sets')}{kept}"
            )
            steps = tuple(s.text for s in solution.steps)
            return Advice(action, reason, steps if len(steps) > 1 else (), exact=plan.exact)
        what = "draw" if isinstance(action, Draw) else "pass"
        seat = free["seat"]
        assert seat is not None
        if not free["down"][seat]:
            size = "exactly 3" if free["options"]["starting_group_size"] == dr.EXACTLY_3 else "3 or more"
            why = f"no starting group of {size} dominoes is in the rack"
        elif plan.jokers_kept:
            why = f"only the joker {format_dominoes(plan.jokers_kept)} would fit, and it is worth more kept"
        else:
            why = "no domino of the rack fits the table, even with the table rearranged"
        return Advice(action, f"{why}: {what}", exact=plan.exact)


def domino_strong_bot(
    info: GameInfo, *, iterations: int | None = None, think: float | None = None
) -> DominoStrongBot:
    """The ``strong`` bot for domino-rummikub (``iterations``: solver passes; ``think``: seconds)."""
    return DominoStrongBot(info, iterations=iterations, think=think)
