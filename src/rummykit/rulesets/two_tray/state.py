"""The state of a two-tray game: trays, the crossword grid, tray turns, calls, penalties and the end game.

Every rule is described in ``docs/games/two-tray.md``, under the rule id the
error names. Each ``_apply`` branch checks everything first and changes the
state only once the action is known to be legal (a penalty turn is a legal
action that carries its own consequence).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, cast

from rummykit.blocks.grid import Cell, Put, cell_text
from rummykit.blocks.grid_near import holds_near
from rummykit.blocks.racks import Racks
from rummykit.engine.core import OVER, Action, Field, GameState, Saved, texts
from rummykit.engine.hidden import Slot, every_slot
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.text import piece_texts
from rummykit.pieces.tiles import Tile, format_tiles
from rummykit.rulesets.tilerummy import choose_first, full_set, round_scores
from rummykit.rulesets.two_tray.actions import Call, Draw, End, Fail, Pass, Play
from rummykit.rulesets.two_tray.calls import call_fault
from rummykit.rulesets.two_tray.listing import Situation, judged_lay_off, listed_call, listed_holds, listing
from rummykit.rulesets.two_tray.opening import opens_plainly
from rummykit.rulesets.two_tray.options import (
    GAME_ID,
    GRID,
    INVALID_TABLE_PENALTY,
    MERGED,
    PREFIX,
    TRAY_SIZE,
    TRAYS,
    WRONG_TRAY_PENALTY,
    TileGrid,
)
from rummykit.rulesets.two_tray.picking import pick
from rummykit.rulesets.two_tray.trays import holds_all, placed_tiles, take, tile_code
from rummykit.rulesets.two_tray.views import CellView, TwoTrayView

__all__ = ["PlayCheck", "TwoTray"]

TRAY_RULE = "TT-TRAY"
OPENING = "first play"
"""What the rules call a player's first play (going down)."""
CONTINUING = "second-tray"
"""The phase while the seat to move, having emptied a tray, plays on from its other tray."""


def _tiles(tiles: Sequence[Tile] | Counter[Tile]) -> str:
    if isinstance(tiles, Counter):
        return format_tiles(sorted(tiles.elements()))
    return format_tiles(sorted(tiles))


_NOBODY: frozenset[int] = frozenset()


@lru_cache(maxsize=64)
def _seat_set(seat: int) -> frozenset[int]:
    """``frozenset((seat,))`` (made once per seat)."""
    return frozenset((seat,))


_HOLDS = "two-tray holds"
"""The name, in a grid's cells memo, of whether the grid holds with each set of calls."""


def _grid_holds(new: TileGrid, old: TileGrid, changes: Sequence[Put[Tile]], cells: list[Cell]) -> bool:
    """Whether the grid ``new``, which is ``old`` with ``changes``, holds (every grid rule, the whole grid).

    When ``old`` is known to hold (judged so before, with its calls), only the
    lines and tiles near the changes can differ, and only they are judged
    (:func:`~rummykit.blocks.grid_near.holds_near`, the same answer);
    otherwise the whole grid is. Either way the answer is kept with ``new``.
    """
    if old.cells_memo().get(_holds_key(old)) is True:
        known = None
        if isinstance(changes, tuple) and listed_holds(old, changes):
            # A play the listing listed on this grid: judged there (a line laid apart, a lay-off judged near it).
            known = True
        elif len(changes) == 1 and cells[0] not in old and changes[0].piece is not None:
            # One tile put in an empty cell: holds_near judges exactly what the listing judged for this lay-off
            # (the lines through the cell and those joined to them by jokers), if it did.
            known = judged_lay_off(old, cells[0], changes[0].piece)
        ok = holds_near(GRID, new, cells, old) if known is None else known
    else:
        ok = GRID.holds(new)
    new.cells_memo()[_holds_key(new)] = ok
    return ok


def _holds_key(grid: TileGrid) -> tuple[str, tuple[tuple[Cell, Tile], ...]]:
    """The name, in a grid's cells memo, of whether the grid holds with its calls."""
    return (_HOLDS, grid.calls_key() if grid.calls else ())


@dataclass(frozen=True)
class PlayCheck:
    """A committed turn judged: the grid it makes, the tiles it places, the tray it should have used,
    and what is wrong with it (None: a valid play)."""

    grid: TileGrid
    placed: list[Tile]
    correct_tray: str
    fault: RuleError | None
    wrong_tray: bool


class TwoTray(GameState):
    """A game (a round, or a match of rounds) of Two-Tray Tile Rummy."""

    game_id = GAME_ID
    PREFIX = PREFIX

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "pool": Saved(encode=texts),
        "trays": Saved(encode=lambda trays: [{name: texts(trays.rack(s, name)) for name in trays.names_of(s)} for s in range(len(trays))]),
        "grid": Saved(encode=lambda grid: grid.text()),
        "down": Saved(encode=list),
        "playing": Saved(encode=list),
        "current": Saved(),
        "continuing": Saved(),
        "called": Saved(encode=lambda called: [cell_text(c) for c in called]),
        "idle_turns": Saved(),
        "turn_no": Saved("turn_number"),
    }

    def __init__(self, players: Sequence[str], seed: int, options: Mapping[str, OptionValue], *, deal: bool = True) -> None:
        super().__init__(players, seed, options)
        n = len(self.players)
        self.pool: list[Tile] = []
        self.trays: Racks[Tile] = Racks(n, names=TRAYS, rule=TRAY_RULE)
        self.grid: TileGrid = TileGrid()
        self.down: list[bool] = [False] * n
        self.playing: list[str | None] = [None] * n
        self.current = 0
        self.turn_no = 1
        self.idle_turns = 0
        self.continuing = False
        self.called: tuple[Cell, ...] = ()
        if deal:
            self.first = choose_first(self, self.full_set())
            self._deal_round()

    # -- rules in force --------------------------------------------------------------

    @property
    def threshold(self) -> int:
        """The least total of a first play (0: no such rule)."""
        return int(self.options["initial_meld_points"])

    def full_set(self) -> list[Tile]:
        """Every tile in play (the rummikub set)."""
        return full_set(int(self.options["jokers"]))

    def other_tray(self, seat: int, name: str) -> str | None:
        """The seat's tray that is not ``name`` (None once it has only one)."""
        names = self.trays.names_of(seat)
        if len(names) != 2:
            return None
        return names[1] if names[0] == name else names[0]

    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows when it is its turn (for the listing; the same as from its view)."""
        return Situation(
            seat,
            {name: list(self.trays.rack(seat, name)) for name in self.trays.names_of(seat)},
            self.grid,
            down=self.down[seat],
            threshold=self.threshold,
            playing=self.playing[seat],
            pool_size=len(self.pool),
            continuing=self.continuing,
            called=self.called,
        )

    # -- setup -----------------------------------------------------------------------

    def _deal_round(self) -> None:
        self.pool = self.full_set()
        self.rng.shuffle(self.pool)
        n = len(self.players)
        self.trays = Racks(n, names=TRAYS, rule=TRAY_RULE)
        for i in range(n):
            seat = (self.first + i) % n
            for name in TRAYS:
                self.trays.add(seat, [self.pool.pop() for _ in range(TRAY_SIZE)], name)
        self.grid = TileGrid()
        self.down = [self.threshold == 0] * n
        self.playing = [None] * n
        self.current = self.first
        self.idle_turns = 0
        self.continuing = False
        self.called = ()
        self.emit("deal", None, {"round": self.round_no, "first": self.first, "tray_size": TRAY_SIZE, "trays": list(TRAYS)})
        for seat in range(n):
            self.emit("trays", seat, {}, {"trays": self.trays_json(seat)})

    def trays_json(self, seat: int) -> dict[str, list[str]]:
        """A seat's trays by name, each sorted, as text."""
        return {name: piece_texts(sorted(self.trays.rack(seat, name), key=tile_code)) for name in self.trays.names_of(seat)}

    # -- the contract ----------------------------------------------------------------

    @property
    def must_act(self) -> frozenset[int]:
        return _NOBODY if self.outcome is not None else _seat_set(self.current)

    @property
    def turn_seat(self) -> int | None:
        return self.current

    @property
    def turn_number(self) -> int:
        return self.turn_no

    def current_phase(self) -> str:
        if self.outcome is not None:
            return OVER
        return CONTINUING if self.continuing else "play"

    def _apply(self, action: Action) -> None:
        if isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, Pass):
            self._pass(action.player)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Fail):
            self._fail(action)
        elif isinstance(action, Call):
            self._call(action)
        elif isinstance(action, End):
            self._end(action.player)
        else:
            raise RuleError("ACTION", f"{action!r} is not an action of {self.game_id}")

    def legal_actions(self, player: int) -> list[Action]:
        """Draw (or pass, or end), the allowed calls and the simple plays (see ``docs/games/two-tray.md``).

        Plays that rearrange the grid or lay several lines cannot all be
        listed; they are still legal when committed with :class:`Play`.
        """
        if player not in self.to_act:
            return []
        # listable_actions(self.situation(player)), without copying the trays into a Situation (only read).
        playing = self.playing[player]
        racks = self.trays
        names = racks.names_of(player) if playing is None else (playing,)
        return listing(
            player,
            [(name, racks.rack(player, name)) for name in names],
            self.grid,
            down=self.down[player],
            threshold=self.threshold,
            pool_size=len(self.pool),
            continuing=self.continuing,
            called=self.called,
        )

    def pick_listed(self, player: int, choose: Callable[[int, int, Rng], int], rng: Rng) -> Action:
        """``legal_actions(player)[choose(player, n, rng)]``, ``n`` the listing's length, making only the action
        chosen (:func:`~rummykit.rulesets.two_tray.picking.pick`; the driver's path for a bot that chooses by
        index)."""
        if player != self.current or self.outcome is not None:  # not in must_act (= to_act: nobody acts out of turn)
            nothing: list[Action] = []
            return nothing[choose(player, 0, rng)]  # the listing's own answer: nothing listed
        playing = self.playing[player]
        racks = self.trays
        if playing is None:
            trays = [(name, racks.rack(player, name)) for name in racks.names_of(player)]
        else:
            trays = [(playing, racks.rack(player, playing))]
        return pick(
            player,
            trays,
            self.grid,
            choose,
            rng,
            down=self.down[player],
            threshold=int(self.options["initial_meld_points"]),  # (threshold, read in place)
            pool_size=len(self.pool),
            continuing=self.continuing,
            called=self.called,
        )

    # -- checks shared by several actions ----------------------------------------------

    def _need_tray(self, seat: int, name: str) -> None:
        names = self.trays.names_of(seat)
        if name not in names:
            raise RuleError(TRAY_RULE, f"you have no tray {name} (your trays: {', '.join(names)})")

    def _not_continuing(self, seat: int, what: str) -> None:
        if self.continuing:
            playing = self.playing[seat]
            raise RuleError(
                "TT-CONTINUE",
                f"you emptied a tray this turn and play on from tray {playing}: play from it or `end`"
                f" your turn ({what} is not allowed now)",
            )

    def verify_play(self, action: Play | Fail) -> PlayCheck:
        """Judge a committed turn.

        Raises for what no turn can do (a tray the player lacks, tiles taken
        off the table, no tile placed, tiles the player does not hold,
        going-down lines named out of place); otherwise returns the
        :class:`PlayCheck`, whose ``fault`` is the first rule the turn breaks
        (the wrong tray, touching the table before going down, an invalid
        grid, the going-down rule) or None.

        A player who is not down goes down in this turn: among the tiles it
        places, new lines from the one tray worth the threshold on their own
        (named by the action's ``down``, or found in the grid it leaves:
        :meth:`~rummykit.blocks.grid.GridRules.going_down`); the rest of the
        turn is then judged as any later turn.
        """
        seat = action.player
        if action.tray not in self.trays.names_of(seat):
            self._need_tray(seat, action.tray)
        cells = [(put.row, put.col) for put in action.changes]  # (Put.cell is a property: a call each)
        new = self.grid.changed(action.changes, GRID.is_joker)
        placed = placed_tiles(self.grid, new, cells)
        if not placed:
            raise RuleError("TT-PLAY-EMPTY", "a play must place at least one tile from the playing tray (draw instead)")
        tray = self.trays.rack(seat, action.tray)
        # Tiles all on the named tray are on the trays (the usual case: the trays are not looked at together).
        on_tray = holds_all(tray, placed)
        if not on_tray and not holds_all(self.trays.pieces(seat), placed):
            short = Counter(placed) - Counter(self.trays.pieces(seat))
            raise RuleError(TRAY_RULE, f"not on your trays: {_tiles(short)}")
        if action.down:
            if self.down[seat]:
                raise RuleError(
                    "TT-DOWN", "you are down already: only the turn in which you go down names its going-down lines"
                )
            named = GRID.named_down_fault(action.down, placed)
            if named is not None:
                raise named
        correct = self.playing[seat] or action.tray
        elsewhere: Counter[Tile] | None = None if on_tray else Counter(placed) - Counter(tray)
        fault: RuleError | None = None
        if action.tray != correct:
            fault = RuleError(
                "TT-WRONG-TRAY", f"this turn plays from tray {correct}, not from tray {action.tray}"
            )
        elif elsewhere:
            other = self.other_tray(seat, action.tray)
            fault = RuleError(
                "TT-WRONG-TRAY",
                f"{_tiles(elsewhere)} {'is' if sum(elsewhere.values()) == 1 else 'are'} on tray {other};"
                f" this turn plays from tray {correct} only",
            )
        if fault is not None:
            return PlayCheck(new, placed, correct, fault, wrong_tray=True)
        opening = None
        # A going-down line plain to see (opening.py: the search's own answer, no fault) needs no search.
        if not self.down[seat] and (action.down or not opens_plainly(self.grid, action.changes, self.threshold)):
            opening = GRID.going_down(self.grid, new, placed, self.threshold, action.down, OPENING)
            if opening.fault is not None and (opening.touched or action.down):
                # Touching the table before going down is told first, rather than what the touching broke.
                return PlayCheck(new, placed, correct, opening.fault, wrong_tray=False)
        if not _grid_holds(new, self.grid, action.changes, cells):
            # The whole grid is judged; its first problem is worded only when there is one.
            fault = GRID.verdict(new).problems[0].error
        elif opening is not None:
            fault = opening.fault
        return PlayCheck(new, placed, correct, fault, wrong_tray=False)

    # -- actions -------------------------------------------------------------------------

    def _draw(self, action: Draw) -> None:
        seat = action.player
        if self.continuing:
            self._not_continuing(seat, "drawing")
        if action.tray not in self.trays.names_of(seat):
            self._need_tray(seat, action.tray)
        playing = self.playing[seat]
        if playing is not None and action.tray != playing:
            raise RuleError(
                "TT-WRONG-TRAY", f"this turn plays from tray {playing}: a drawn tile goes onto it, not onto tray {action.tray}"
            )
        if not self.pool:
            raise RuleError("TT-POOL-EMPTY", "the pool is empty: play or pass")
        tile = self.pool.pop()
        self.trays.add(seat, (tile,), action.tray)
        self.emit("draw", seat, {"tray": action.tray, "pool_size": len(self.pool)}, {"piece": str(tile)})
        self._end_turn(seat, action.tray, played=False, pool_was_empty=False)

    def _pass(self, seat: int) -> None:
        if self.continuing:
            self._not_continuing(seat, "passing")
        if self.pool:
            raise RuleError("TT-DRAW", "a player who does not play draws from the pool; pass only when it is empty")
        self.emit("pass", seat, {"tray": self.playing[seat]})
        self._end_turn(seat, self.playing[seat], played=False, pool_was_empty=True)

    def _end(self, seat: int) -> None:
        if not self.continuing:
            raise RuleError(
                "TT-END", "`end` only ends a turn in which you emptied a tray; otherwise play, draw or pass"
            )
        self.emit("end", seat)
        self._merge(seat)
        self._end_turn(seat, self.playing[seat], played=True, pool_was_empty=False)

    def _call(self, action: Call) -> None:
        cell = (action.row, action.col)
        if cell in self.called or not listed_call(self.grid, cell, action.tile):
            # Unless the listing on this grid allowed this very call (the same judgement: call_options are the
            # calls call_fault allows when the joker was not called this turn), judged here, and worded.
            fault = call_fault(self.grid, cell, action.tile, self.called)
            if fault is not None:
                raise fault
        old = self.grid
        self.grid = old.with_call(cell, action.tile)
        if old.cells_memo().get(_holds_key(old)) is True:
            # The call fits every line joined to the joker (call_fault judged the grid with it near the joker,
            # as _fits does); the rest of the grid reads as before. So the grid with the call holds too.
            self.grid.cells_memo()[_holds_key(self.grid)] = True
        self.called = (*self.called, cell)
        self.emit("call", action.player, {"cell": cell_text(cell), "tile": str(action.tile)})

    def _play(self, action: Play) -> None:
        check = self.verify_play(action)
        if check.fault is not None:
            raise check.fault
        seat, tray = action.player, action.tray
        take(self.trays, seat, check.placed, tray)
        self.grid = check.grid
        opening = not self.down[seat]
        self.down[seat] = True
        sizes = self.sizes(seat)
        self.emit(
            "play",
            seat,
            {
                "tray": tray,
                "changes": [str(p) for p in action.changes],
                "placed": [str(t) for t in check.placed],
                "opening": opening,
                "tray_sizes": sizes,
            },
        )
        if not any(sizes.values()):
            self._end_round(seat, "trays-empty")
            return
        # The tray played from emptied, with another one (other_tray) and not already playing on: sizes has both.
        if not sizes[tray] and len(sizes) == 2 and not self.continuing:
            other = next(name for name in sizes if name != tray)
            # The seed's end game: play on at once, in the same turn, from the other tray.
            self.continuing = True
            self.playing[seat] = other
            self.emit("tray-empty", seat, {"tray": tray, "next": other})
            return
        if self.continuing:
            self._merge(seat)
        self._end_turn(seat, tray, played=True, pool_was_empty=False)

    def _fail(self, action: Fail) -> None:
        check = self.verify_play(action)
        fault = check.fault
        if fault is None:
            raise RuleError("TT-FAIL-VALID", "this turn is valid: commit it as a play, not as a failed turn")
        seat = action.player
        pool_was_empty = not self.pool
        count = WRONG_TRAY_PENALTY if check.wrong_tray else INVALID_TABLE_PENALTY
        drawn = [self.pool.pop() for _ in range(min(count, len(self.pool)))]
        self.trays.add(seat, drawn, check.correct_tray)
        self.emit(
            "penalty",
            seat,
            {
                "rule": fault.rule,
                "penalty": "wrong-tray" if check.wrong_tray else "invalid-table",
                "tray": check.correct_tray,
                "drawn": len(drawn),
                "pool_size": len(self.pool),
            },
            # The reason may name tiles that never reached the table: only the player learns it.
            {"reason": fault.reason, "pieces": [str(t) for t in drawn]},
        )
        if self.continuing:
            self._merge(seat)
        # The seed: after the wrong-tray penalty "the marker remains by the correct tray", which plays next turn too.
        self._end_turn(
            seat, check.correct_tray, played=False, pool_was_empty=pool_was_empty, same_tray=check.wrong_tray
        )

    # -- turns, the end game and the end of a round ----------------------------------------

    def sizes(self, seat: int) -> dict[str, int]:
        """Each of a seat's trays and its size."""
        return {name: len(self.trays.rack(seat, name)) for name in self.trays.names_of(seat)}

    def _merge(self, seat: int) -> None:
        """The end game: ``seat`` emptied a tray and did not go out; from now on each player has one tray."""
        left = next(name for name in self.trays.names_of(seat) if self.trays.rack(seat, name))
        self.trays.merge(seat, left)
        self.playing[seat] = left
        for other in range(len(self.players)):
            if other != seat and len(self.trays.names_of(other)) > 1:
                self.trays.merge(other, MERGED)
                self.playing[other] = MERGED
                self.emit("merge", other, {"tray": MERGED, "tray_size": len(self.trays.rack(other, MERGED))})

    def _end_turn(
        self, seat: int, used: str | None, *, played: bool, pool_was_empty: bool, same_tray: bool = False
    ) -> None:
        """End ``seat``'s turn, which played from (or drew onto) tray ``used``: the other tray plays next,
        unless ``same_tray`` (the wrong-tray penalty keeps the marker by the correct tray)."""
        if used is not None:
            names = () if same_tray else self.trays.names_of(seat)
            # The other tray (other_tray) when the seat has two, else the same one.
            if len(names) == 2:
                self.playing[seat] = names[1] if names[0] == used else names[0]
            else:
                self.playing[seat] = used
        if played:
            self.idle_turns = 0
        elif pool_was_empty:
            self.idle_turns += 1
            # Blocked once every tray in play has had a turn without a play since the pool emptied.
            if self.idle_turns >= sum(len(self.trays.names_of(s)) for s in range(len(self.players))):
                self._end_round(None, "blocked")
                return
        self.current = (seat + 1) % len(self.players)
        self.turn_no += 1
        self.continuing = False
        self.called = ()

    def _end_round(self, winner: int | None, reason: str) -> None:
        totals = [sum(t.points for t in self.trays.pieces(s)) for s in range(len(self.players))]
        winners, scores = round_scores(totals, winner)
        racks = [[str(t) for t in sorted(self.trays.pieces(s), key=tile_code)] for s in range(len(self.players))]
        if self.finish_round(winners, scores, reason, {"racks": racks}):
            return
        self.turn_no = 1
        self._deal_round()

    def position(self) -> str:
        """This position as a one-line string (see :func:`~rummykit.rulesets.two_tray.position.from_position`)."""
        from rummykit.rulesets.two_tray.position import position

        return position(self)

    # -- views -----------------------------------------------------------------------------

    def grid_json(self) -> list[CellView]:
        """The grid's occupied cells, row by row, as a view shows them."""
        calls = self.grid.calls
        return [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in calls else str(calls[(r, c)])}
            for (r, c), t in sorted(self.grid.cells.items())
        ]

    def piece_counts(self) -> list[int]:
        """The tiles each seat holds in its trays (both trays together)."""
        return self.trays.sizes()

    def stock_count(self) -> int | None:
        """The tiles left in the pool."""
        return len(self.pool)

    def hidden_slots(self, seat: int | None) -> list[Slot]:
        """Both trays of each other seat, then the pool (for :meth:`redeal_hidden`)."""
        return [*self.trays.slots_of_others(seat), *every_slot(self.pool)]

    def move_text(self, action: Action, seat: int | None) -> str:
        """A failed turn reads ``fail`` to the other seats: its tiles went back to the trays unseen."""
        if isinstance(action, Fail) and seat != action.player:
            return "fail"
        return action.text()

    def view(self, player: int | None) -> TwoTrayView:
        v = cast(
            TwoTrayView,
            {
                **self.view_header(player),
                "grid": self.grid_json(),
                "tray_sizes": [self.sizes(s) for s in range(len(self.players))],
                "playing": list(self.playing),
                "pool_size": len(self.pool),
                "down": list(self.down),
                "idle_turns": self.idle_turns,
                "continuing": self.continuing,
                "called_this_turn": [cell_text(c) for c in self.called],
            },
        )
        if player is not None:
            v["trays"] = self.trays_json(player)
        return v
