"""``solver``: a rummikub bot that plays the exact solver's best play every turn.

From its seat's view alone: before its initial meld it plays the initial meld
with the most tiles (then points) whenever one reaches the threshold; once
down it plays the play that places the most tiles. It holds back its jokers
unless spending them places more numbered tiles (or empties the rack): a
joker kept is worth more later than one laid off for a single tile now.
Every play is checked with the meld checker before it is committed; with
nothing to play it draws (or passes when the pool is empty).

>>> from rummykit.catalogue import find_game
>>> from rummykit.engine.rng import Rng
>>> from rummykit.rulesets.rummikub import from_position
>>> state = from_position('racks: K10 B10 O10 R2 / B1 B2; pool: seed 1; down: 00')
>>> str(solver_bot(find_game('rummikub')).choose(state.view(0), Rng(0)))
'0 play K10 B10 O10 : K10 B10 O10'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import cast

from rummykit.bots.base import whole_option
from rummykit.bots.strong import Advice, Budget
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RuleError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets.freetable import FreeTableView
from rummykit.rulesets.rummikub import Draw, Pass, Play, play_from_table
from rummykit.solve.play import TileSolution, solve_tiles

__all__ = ["SolverBot", "StrongSolverBot", "choose_play", "solver_bot", "strong_solver_bot"]


def choose_play(
    table: list[tuple[Tile, ...]], rack: list[Tile], *, down: bool, threshold: int
) -> TileSolution | None:
    """The play the solver bot makes from this position (None: draw or pass)."""
    if not down and threshold > 0:
        return solve_tiles(table, rack, objective="initial", threshold=threshold)
    best = solve_tiles(table, rack, objective="tiles", tidy=False)
    if best is None:
        return None
    jokers = sum(1 for t in best.placed if t.is_joker)
    if jokers and len(best.placed) < len(rack):
        naturals = [t for t in rack if not t.is_joker]
        without = solve_tiles(table, naturals, objective="tiles", tidy=False) if naturals else None
        if without is not None and without.tiles_placed >= len(best.placed) - jokers:
            return without
        if without is None and len(best.placed) == jokers:
            return None
    return best


class SolverBot:
    """Plays the solver's best play (initial meld first); draws or passes when there is none."""

    level = "solver"

    def __init__(self, info: GameInfo) -> None:
        if info.id != "rummikub":
            raise OptionError(f"the solver bot plays rummikub only, not {info.id}")
        self.fallbacks = 0
        """How many planned plays failed the final check (and became draws); should stay 0."""

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(FreeTableView, view)  # the view of this game
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        table = [tuple(parse_tiles(s)) for s in view["table"]]
        rack = parse_tiles(view["rack"])
        threshold = whole_option(view, "initial_meld_points")
        plan = choose_play(table, rack, down=bool(view["down"][seat]), threshold=threshold)
        if plan is not None:
            play = play_from_table(seat, table, plan.table)
            if _checks(table, rack, play):
                return play
            self.fallbacks += 1
        return Draw(seat) if view["pool_size"] else Pass(seat)


def _checks(table: list[tuple[Tile, ...]], rack: list[Tile], play: Play) -> bool:
    """Conservation and valid sets, as the engine will check them."""
    before = Counter(t for s in table for t in s) + Counter(play.placed)
    after = Counter(t for s in play.table for t in s)
    if before != after or Counter(play.placed) - Counter(rack) or not play.placed:
        return False
    return all(check_tiles(s).valid for s in play.table)


def solver_bot(info: GameInfo) -> SolverBot:
    """The ``solver`` bot for a game (rummikub)."""
    return SolverBot(info)


class StrongSolverBot(SolverBot):
    """rummikub's ``strong`` bot: the solver bot, which also advises (the hint says why).

    Its search is exact, so it needs no iterations: the budget is accepted
    (as every strong bot's is) and the solver's own search is well inside it
    (see ``bench/bench_solver.py``).
    """

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        super().__init__(info)
        self.budget = Budget.of(iterations, think, default_iterations=1)

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """The solver's play with what it gains (or why it draws)."""
        action = self.choose(view, rng)
        if isinstance(action, Play):
            tiles = len(action.placed)
            points = sum(t.number for t in action.placed if not t.is_joker)
            sets = len(action.table)
            return Advice(
                action,
                f"it places {tiles} tile{'s' * (tiles != 1)} worth {points} points, the most the rack can place,"
                f" leaving {sets} valid set{'s' * (sets != 1)} on the table",
                exact=True,
            )
        view = cast(FreeTableView, view)
        seat = view["seat"]
        assert seat is not None
        if not view["down"][seat]:
            why = f"no initial meld of {whole_option(view, 'initial_meld_points')} points or more is in the rack"
        else:
            why = "no tile of the rack fits the table, even with the table rearranged"
        return Advice(action, f"{why}: {'draw' if isinstance(action, Draw) else 'pass'}", exact=True)


def strong_solver_bot(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> StrongSolverBot:
    """The ``strong`` bot for rummikub (the solver bot with a budget and advice)."""
    return StrongSolverBot(info, iterations=iterations, think=think)
