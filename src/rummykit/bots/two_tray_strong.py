"""``strong`` for ``two-tray``: the grid solver's best placement, with the trays kept in mind.

It works from its seat's view alone. Each turn it asks the grid solver
(:func:`rummykit.solve.grid.solve_grid`) for the placement of the playing
tray (on the first turn, of either tray) that plays the most tiles, ties
broken by points: new lines in free space, crossings through the table's
tiles and single tiles that extend, join or fill lines, searched together,
where the ``greedy`` bot takes the first move that helps. Before going down
the solver's placement starts with new lines worth the threshold and goes on
in the same turn.

Tray keeping: it holds a joker back when a placement without it plays as
many numbered tiles (a joker kept is worth more on a later turn than one
laid off now), unless the joker empties the tray. With nothing to play it
draws (on its first turn, onto the tray whose tiles make fewer sets, so the
stronger tray plays next), passes on an empty pool, or ends a turn after
emptying a tray. It never calls a joker's colour: the solver does not
rearrange the table, and a call only helps a rearrangement.

Its budget unit is the solver's **node** (one placement judged): the
default is 60 nodes a tray, capped at one second a decision
(``strong:iterations=N`` for exactly N nodes, ``strong:think=S``). Most
turns finish their search well inside it, and then the play is exact (no
placement the solver's moves build plays more). The generator is unused:
the search is deterministic.

>>> from rummykit.rulesets.two_tray import from_position
>>> state = from_position('trays: A[K10 B10 O10 R2] B[B1 B2] / A[K1] B[K2]; pool: seed 1')
>>> bot = two_tray_strong_bot(state.info)
>>> str(bot.choose(state.view(0), Rng(0)))
'0 play A 0,0=K10 0,1=B10 0,2=O10 down 0,0=K10 0,1=B10 0,2=O10'
>>> bot.advise(state.view(0), Rng(0)).reason
'it goes down from tray A with 3 tiles worth 30 points (the threshold is 30), taking the most points off the tray'
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import cast

from rummykit.blocks.grid import Cell
from rummykit.bots.greedy import best_meld
from rummykit.bots.strong import Advice, Budget
from rummykit.engine.commands.parts import SHOWN_FROM
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.rulesets.two_tray import Draw, End, Pass, Play, Situation, TileGrid, situation_from_view
from rummykit.rulesets.two_tray.views import TwoTrayView
from rummykit.solve.grid import GridPlay, solve_grid

__all__ = ["DEFAULT_NODES", "TwoTrayStrongBot", "placement_steps", "plan", "two_tray_strong_bot"]

DEFAULT_NODES = 60
"""The default budget: grid-solver nodes per tray searched."""
OBJECTIVE = "held"


def _score(play: GridPlay) -> tuple[int, int]:
    return (play.tiles, play.points)


def plan(s: Situation, nodes: int, think: float | None) -> tuple[str, GridPlay] | None:
    """The tray and placement the strong bot plays in situation ``s`` (None: it draws, passes or ends)."""
    best: tuple[tuple[int, int, int], str, GridPlay] | None = None
    started = time.perf_counter()
    for name in s.playable_trays():
        tray = list(s.trays[name])
        if not tray:
            continue
        left = None if think is None else max(think - (time.perf_counter() - started), 0.01)
        play = solve_grid(
            s.grid, tray, down=s.down, threshold=s.threshold, exact=False, nodes=nodes, think=left, objective=OBJECTIVE
        )
        if play is None:
            continue
        held = sum(t.points for t in play.placed)
        score = (held, play.tiles, play.points)
        if best is None or score > best[0]:
            best = (score, name, play)
    return None if best is None else (best[1], best[2])


class TwoTrayStrongBot:
    """The strong bot for two-tray (see the module's docstring)."""

    level = "strong"

    def __init__(self, info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> None:
        self.info = info
        self.budget = Budget.of(iterations, think, default_iterations=DEFAULT_NODES)
        self.last: tuple[str, GridPlay] | None = None
        """The tray and placement of the last choice (None: it drew, passed or ended)."""

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        view = cast(TwoTrayView, view)  # the view of this game
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        s = situation_from_view(view)
        found = plan(s, self.budget.iterations, self.budget.think)
        self.last = found
        if found is not None:
            name, play = found
            return Play(seat, name, play.puts, () if s.down else play.down)
        if s.continuing:
            return End(seat)
        if s.playing is not None:
            name = s.playing
        else:
            strength = {n: sum(len(x) for x in best_meld(Counter(t), count_jokers=False)) for n, t in s.trays.items()}
            name = min(strength, key=lambda n: (strength[n], n))
        return Draw(seat, name) if s.pool_size else Pass(seat)

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """The play with what it places (or why it draws), as steps a person can follow."""
        action = self.choose(view, rng)
        seen = cast(TwoTrayView, view)
        seat = seen["seat"]
        assert seat is not None
        s = situation_from_view(seen)
        if isinstance(action, Play) and self.last is not None:
            name, play = self.last
            steps = placement_steps(name, s.grid, play.grid)
            tiles = f"{play.tiles} tile{'s' * (play.tiles != 1)} worth {play.points} points"
            if not s.down:
                reason = (
                    f"it goes down from tray {name} with {tiles} (the threshold is {s.threshold}),"
                    " taking the most points off the tray"
                )
            else:
                reason = f"it places {tiles} from tray {name}, taking the most points off the tray"
            moved = sum(1 for step in steps if step.startswith("move"))
            if moved:
                reason += f" ({moved} table tile{'s' * (moved != 1)} moved)"
            left = len(s.trays[name]) - play.tiles
            if left == 0:
                reason += f", emptying tray {name}"
            return Advice(action, reason, steps, exact=play.exact)
        if not s.down:
            why = f"no first play of {s.threshold} points or more is on a tray"
        else:
            why = f"no tile of tray {s.playing} fits the table"
        word = {Draw: "draw", Pass: "pass", End: "end the turn"}.get(type(action), "draw")
        return Advice(action, f"{why}: {word}", exact=None)


def _shown(cell: Cell) -> str:
    return f"{cell[0] + SHOWN_FROM},{cell[1] + SHOWN_FROM}"


def placement_steps(tray: str, old: TileGrid, new: TileGrid) -> tuple[str, ...]:
    """The draft steps a person takes to turn ``old`` into ``new`` playing from ``tray``: the table's tiles
    moved first (each to an empty cell), then the tray's tiles placed, cells as the screen counts them (from 1).

    >>> from rummykit.pieces.tiles import Tile
    >>> old = TileGrid.parse('0,0: R3 J R5', Tile.parse)
    >>> new = TileGrid.parse('0,0: R3 R4 R5 / . / B9 K9 J', Tile.parse)
    >>> for step in placement_steps('A', old, new):
    ...     print(step)
    move the J at 1,2 to 3,3 (type: move 1,2 3,3)
    place R4 from tray A at 1,2 (type: place R4 1,2)
    place B9 from tray A at 3,1 (type: place B9 3,1)
    place K9 from tray A at 3,2 (type: place K9 3,2)
    """
    now = dict(old.cells)
    goal = new.cells
    # Table tiles to move: each leaves a cell whose content changes, for a new cell holding the same tile.
    leaving = sorted(c for c in now if goal.get(c) != now[c])
    arriving = [c for c in sorted(goal) if now.get(c) != goal[c]]
    moves: list[tuple[Cell, Cell]] = []
    for cell in leaving:
        tile = now[cell]
        to = next((c for c in arriving if goal[c] == tile and c not in [m[1] for m in moves]), None)
        if to is not None:
            moves.append((cell, to))
    steps: list[str] = []
    pending = list(moves)
    while pending:  # each move to a cell that is empty by then
        ready = next((m for m in pending if m[1] not in now), pending[0])
        pending.remove(ready)
        src, dst = ready
        tile = now.pop(src)
        now[dst] = tile
        steps.append(f"move the {tile} at {_shown(src)} to {_shown(dst)} (type: move {_shown(src)} {_shown(dst)})")
    for cell in sorted(goal):
        if now.get(cell) != goal[cell]:
            tile = goal[cell]
            now[cell] = tile
            steps.append(f"place {tile} from tray {tray} at {_shown(cell)} (type: place {tile} {_shown(cell)})")
    return tuple(steps)


def two_tray_strong_bot(info: GameInfo, *, iterations: int | None = None, think: float | None = None) -> TwoTrayStrongBot:
    """The ``strong`` bot for two-tray (the grid solver's placement; budget in solver nodes per tray)."""
    return TwoTrayStrongBot(info, iterations=iterations, think=think)
