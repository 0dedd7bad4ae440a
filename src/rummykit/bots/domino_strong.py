"""``strong`` for ``domino-rummikub``: the exact solver's best play, jokers held back when they gain little.

Draft (method described once measured).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.bots.strong import Advice, Budget
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RuleError
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets import domino_rummikub as dr
from rummykit.rulesets.freetable import Draw, FreeTableView, Pass, Play, play_from_table
from rummykit.solve.dominoes import DominoSolution, solve_dominoes

__all__ = ["DominoStrongBot", "domino_strong_bot", "plan_play"]

DSet = tuple[Domino, ...]

NODE_LIMIT = 20_000
"""Search nodes one solver call may visit before it settles for the best play found."""


def plan_play(
    table: Sequence[DSet], rack: Sequence[Domino], *, down: bool, size_rule: str, node_limit: int | None = NODE_LIMIT
) -> DominoSolution | None:
    """The play the strong bot makes from this position (None: draw or pass)."""
    if not down:
        return solve_dominoes(table, rack, objective="initial", starting_group_size=size_rule)
    best = solve_dominoes(table, rack, objective="dominoes", node_limit=node_limit)
    if best is None:
        return None
    jokers = sum(1 for d in best.placed if d in dr.JOKERS)
    if jokers and len(best.placed) < len(rack):
        naturals = [d for d in rack if d not in dr.JOKERS]
        without = solve_dominoes(table, naturals, objective="dominoes", node_limit=node_limit) if naturals else None
        if without is not None and without.pieces_placed >= best.pieces_placed - jokers:
            return without
        if without is None and best.pieces_placed == jokers:
            return None
    return best


def _checks(table: Sequence[DSet], rack: Sequence[Domino], play: Play) -> bool:
    """Conservation and valid sets, as the engine will check them."""
    before = Counter(d for s in table for d in s) + Counter(play.placed)
    after = Counter(d for s in play.table for d in s)
    if before != after or Counter(play.placed) - Counter(rack) or not play.placed:
        return False
    return all(dr.MELDS.check(cast(DSet, s)).valid for s in play.table)


class DominoStrongBot:
    """domino-rummikub's ``strong`` bot."""

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        if info.id != dr.GAME_ID:
            raise OptionError(f"this strong bot plays {dr.GAME_ID} only, not {info.id}")
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=1)
        self.fallbacks = 0

    def _plan(self, view: FreeTableView, rng: Rng) -> tuple[Action, DominoSolution | None]:
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        table: list[DSet] = [tuple(parse_dominoes(s)) for s in view["table"]]
        rack = parse_dominoes(view["rack"])
        fallback: Action = Draw(seat) if view["pool_size"] else Pass(seat)
        plan = plan_play(
            table, rack, down=bool(view["down"][seat]), size_rule=str(view["options"]["starting_group_size"])
        )
        if plan is None:
            return fallback, None
        play = play_from_table(seat, table, plan.table)
        if not _checks(table, rack, play):
            self.fallbacks += 1
            return fallback, None
        return play, plan

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        return self._plan(cast(FreeTableView, view), rng)[0]

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        free = cast(FreeTableView, view)
        action, plan = self._plan(free, rng)
        if isinstance(action, Play) and plan is not None:
            n = len(action.placed)
            points = sum(d.pips for d in action.placed)
            sets = len(action.table)
            return Advice(
                action,
                f"it places {n} domino{'es' * (n != 1)} worth {points} points, leaving {sets} valid set{'s' * (sets != 1)}",
                exact=plan.exact,
            )
        return Advice(action, "nothing to play: " + ("draw" if isinstance(action, Draw) else "pass"), exact=True)


def domino_strong_bot(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> DominoStrongBot:
    """The ``strong`` bot for domino-rummikub."""
    return DominoStrongBot(info, iterations=iterations, think=think)
