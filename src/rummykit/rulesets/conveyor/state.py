"""The conveyor state machine: :class:`Conveyor`, with the table's melds and the turn's records.

A round is a selection round (``select``), then turns (``draw``, ``play``)
and, with ``jump_ins``, a claim window (``jump``) after each discard; the
round ends through the shared match loop
(:meth:`~rummykit.engine.core.GameState.finish_round`). Every attribute of a
state is a list, dict or set of immutable values, a frozen dataclass or an
object with a ``copy`` method, so :meth:`~rummykit.engine.core.GameState.copy`
(derived from the attributes) shares nothing mutable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar

from rummykit.blocks.conveyor import ENDS, Conveyors
from rummykit.engine.core import JSON, Action, Field, GameState, Omit, Saved, SavedAs, texts
from rummykit.engine.hidden import Slot, unseen_slots
from rummykit.engine.options import OptionValue
from rummykit.errors import RuleError
from rummykit.melds.conveyor import END_NAMES, LINE, ConveyorMelds, by_code
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes
from rummykit.pieces.same import holds, remove_one
from rummykit.rulesets.conveyor.actions import (
    Claim,
    Close,
    Decline,
    Discard,
    Draw,
    Jump,
    Layoff,
    Meld,
    Pieces,
    Reveal,
)
from rummykit.rulesets.conveyor.jumps import check_jump, resolve_window
from rummykit.rulesets.conveyor.listing import (
    KEEP_DISCARD,
    PICKUP_CLOSE,
    hand_left_fault,
    line_size,
    list_actions,
)
from rummykit.rulesets.conveyor.options import (
    DRAW,
    GAME_ID,
    JUMP,
    MAX_PLAYERS,
    OVER,
    PLAY,
    PREFIX,
    SELECT,
    resolve_options,
    rules_for,
)
from rummykit.rulesets.conveyor.parts import (
    TableMeld,
    _belt_json,
    _Drawn,
    _err,
    _line_size_reason,
    _meld_event,
    _no_such,
    _Window,
    misfit,
)
from rummykit.rulesets.conveyor.selection import claim, reveal
from rummykit.rulesets.conveyor.views import ConveyorView, build_view

__all__ = ["Conveyor", "TableMeld"]


_NOBODY: frozenset[int] = frozenset()
_ONLY = tuple(frozenset((seat,)) for seat in range(MAX_PLAYERS))
"""Each seat alone (``must_act`` outside a claim window, without building a set each time)."""


class Conveyor(GameState):
    """A match (or one round, with ``target`` 0) of Conveyor Rummy.

    Who acts (the engine's out-of-turn contract): in the selection round and
    on a turn, the one seat :attr:`current`; in a claim window (``jump_ins``,
    phase ``jump``) every seat but the discarder *must* answer, ``jump`` or
    ``decline``, in any order, so they are all in :attr:`must_act` until they
    have answered (:attr:`may_act` is always empty: no answer is optional).
    :attr:`priority_seat` is then the seat after the discarder, so
    :meth:`act_order` lists the seats in turn order from it: the driver asks
    them in that order, and the window is resolved in that order too (the
    claimer *nearest in turn order after the discarder* wins).
    """

    game_id = GAME_ID
    PREFIX = PREFIX

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "top": Omit("the set's highest number: the option 'set', which the snapshot holds"),
        "rules": Omit("the meld rules of the set in play, made from the option 'set'"),
        "belt": SavedAs(("columns", "face_up", "claimed_by", "pending"), _belt_json),
        "hands": Saved(encode=lambda hands: [texts(h) for h in hands]),
        "known": Saved(encode=lambda known: [texts(sorted(k, key=by_code)) for k in known]),
        "table": Saved("melds", lambda table: [[m.owner, m.kind, texts(m.dominoes), m.layout] for m in table]),
        "phase": Saved(),
        "current": Saved(),
        "first_claimer": Saved(),
        "turn_no": Saved("turn_number"),
        "drawn": Saved(encode=lambda drawn: None if drawn is None else drawn.to_json()),
        "window": Saved(encode=lambda window: None if window is None else window.to_json()),
    }
    """The snapshot's form (``royal`` and ``score`` of a meld follow from its kind and dominoes)."""

    def __init__(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, OptionValue],
        *,
        deal: bool = True,
    ) -> None:
        super().__init__(players, seed, resolve_options(len(players), options))
        n = len(self.players)
        self.top: int = self.options["set"]
        self.rules: ConveyorMelds = rules_for(self.top)
        self.belt: Conveyors[Domino] = Conveyors([], [], [], self.options["column_length"])
        self.hands: list[list[Domino]] = [[] for _ in range(n)]
        self.known: list[set[Domino]] = [set() for _ in range(n)]
        self.table: list[TableMeld] = []
        self.phase = SELECT
        self.current = 0
        self.first_claimer: int | None = None
        self.turn_no = 0
        self.drawn: _Drawn | None = None
        self.window: _Window | None = None
        if deal:
            self.first = self.rng.below(n)
            self.emit("first-player", self.first, {"by": "lot"})
            self._deal_round()

    # -- setup ---------------------------------------------------------------------

    def _deal_round(self) -> None:
        pieces = double_set(self.top)
        self.rng.shuffle(pieces)
        self.belt = Conveyors.layout(pieces, columns=self.options["columns"], length=self.options["column_length"])
        n = len(self.players)
        self.hands = [[] for _ in range(n)]
        self.known = [set() for _ in range(n)]
        self.table = []
        self.phase = SELECT
        self.current = self.first
        self.first_claimer = None
        self.turn_no = 0
        self.drawn = None
        self.window = None
        self.emit(
            "layout",
            None,
            {
                "round": self.round_no,
                "first": self.first,
                "columns": [self.belt.public_cells(c) for c in range(self.belt.count)],
            },
        )

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The partnerships (``partners``): seats across the table, 0 and 2 against 1 and 3; else None."""
        if not self.options["partners"]:
            return None
        return ((0, 2), (1, 3))

    def team_of(self, seat: int) -> set[int]:
        """The seats that score together with ``seat`` (itself alone without ``partners``)."""
        if self.options["partners"]:
            return {seat, (seat + 2) % 4}
        return {seat}

    # -- the contract ----------------------------------------------------------------

    @property
    def turn_seat(self) -> int | None:
        """The seat selecting or playing its turn (in a claim window, still the discarder)."""
        return self.current

    @property
    def turn_number(self) -> int:
        """Turns begun this round (0 during the selection round)."""
        return self.turn_no

    def current_phase(self) -> str:
        """``select``, ``draw``, ``play``, ``jump`` (a claim window) or ``over``."""
        return self.phase

    @property
    def priority_seat(self) -> int:
        """The seat first in :meth:`act_order`.

        In a claim window, the seat after the discarder: the seats that
        answer are ordered by turn order from there, and the claimer nearest
        in that order wins the discard. Otherwise the seat to act.
        """
        if self.window is not None:
            return (self.window.discarder + 1) % len(self.players)
        return self.current

    @property
    def must_act(self) -> frozenset[int]:
        """The seat to select or play; in a claim window, every seat that has not answered yet."""
        if self.outcome is not None:
            return _NOBODY
        window = self.window
        if window is not None:
            return frozenset(window.waiting)
        return _ONLY[self.current]

    @property
    def to_act(self) -> frozenset[int]:
        """:attr:`must_act` (conveyor has no :attr:`may_act` seats: every answer is awaited)."""
        return self.must_act

    def _apply(self, action: Action) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise RuleError("ACTION", f"{action!r} is not an action of {GAME_ID}")
        handler(self, action)

    def _phase_is(self, action: Action, *phases: str) -> None:
        if self.phase in phases:
            return
        expected = {
            SELECT: "it is the selection round; reveal a domino or claim a column",
            DRAW: "your turn starts with a draw from an end of a conveyor",
            PLAY: "you have drawn; now meld, lay off, then discard (or close)",
            JUMP: "a discard is on offer; jump in or decline",
        }[self.phase]
        verb = {"layoff": "lay off", "jump": "jump in"}.get(action.type, action.type)
        raise _err(f"{PREFIX}-PHASE", f"you cannot {verb} now: {expected}")

    # -- selection round -----------------------------------------------------------

    def _reveal(self, action: Reveal) -> None:
        reveal(self, action)

    def _claim(self, action: Claim) -> None:
        claim(self, action)

    # -- a turn ------------------------------------------------------------------------

    def _draw(self, action: Draw) -> None:
        self._phase_is(action, DRAW)
        c = action.column
        if not self.belt.has_column(c):
            raise _no_such(f"{PREFIX}-COLUMN", "column", c, self.belt.count)
        if not self.belt.is_open(c):
            raise _err(
                f"{PREFIX}-COLUMN",
                "column {column} is not a conveyor: the conveyors are columns {conveyors}",
                counted=("column", "conveyors"),
                column=c,
                conveyors=list(self.belt.open_columns()),
            )
        if action.end not in ENDS:
            raise _err(f"{PREFIX}-COLUMN", f"a conveyor's ends are top and bottom, not {action.end!r}")
        seat = action.player
        domino, was_up = self.belt.draw(c, action.end)
        self.hands[seat].append(domino)
        if was_up:
            self.known[seat].add(domino)
        self.drawn = _Drawn(c, action.end, domino, was_up)
        self.phase = PLAY
        public: dict[str, JSON] = {"column": c, "end": action.end, "face_up": was_up}
        if was_up:
            public["domino"] = str(domino)
        self.emit("draw", seat, public, {"domino": str(domino)})

    def _in_hand(self, seat: int, dominoes: Iterable[Domino]) -> None:
        hand = self.hands[seat]
        for d in dominoes:
            if not holds(hand, d):
                raise _err(f"{PREFIX}-HAND", f"{d} is not in your hand")

    def _keeps_discard(self, seat: int, removed: Sequence[Domino], what: str) -> None:
        """Check what a meld or lay-off leaves in the hand (the rule is :func:`hand_left_fault`, as the listing's).

        Either nothing (closing on the pickup, refused under
        ``never_close_on_pickup``) or at least one domino the player may
        discard (under ``no_milling``, not only the face-up domino just drawn).
        """
        gone, drawn = set(removed), self.drawn
        rest = [d for d in self.hands[seat] if d not in gone]
        milled = drawn.domino if drawn is not None and drawn.face_up else None
        fault = hand_left_fault(self.options, len(rest), holds(rest, milled))
        if fault == PICKUP_CLOSE:
            raise _err(
                f"{PREFIX}-{fault}",
                f"{what} would empty your hand without a discard; with never_close_on_pickup a player closes"
                " only by discarding",
            )
        if fault == KEEP_DISCARD:
            raise _err(
                f"{PREFIX}-{fault}",
                f"{what} would leave only {{domino}}, which no_milling forbids discarding this turn;"
                " keep a domino you may discard",
                domino=str(milled),
            )

    def _checked_meld(self, seat: int, dominoes: Pieces) -> Pieces:
        self._in_hand(seat, dominoes)
        check = self.rules.check(dominoes)
        if not check.valid:
            raise check.error()
        return check.pieces

    def _meld(self, action: Meld) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        pieces = self._checked_meld(seat, action.dominoes)
        self._keeps_discard(seat, pieces, "this meld")
        self._lay_meld(seat, pieces)
        if not self.hands[seat]:
            self._end_round(seat, "pickup")

    def _lay_meld(self, seat: int, pieces: Pieces) -> None:
        check = self.rules.check(pieces)
        assert check.kind is not None
        meld = TableMeld.make(self.rules, seat, check.kind, check.pieces)
        self._take(seat, pieces)
        self.table.append(meld)
        self.emit("meld", seat, {**_meld_event(meld.to_json(len(self.table) - 1)), "hand_size": len(self.hands[seat])})

    def _take(self, seat: int, dominoes: Iterable[Domino]) -> None:
        hand, known = self.hands[seat], self.known[seat]
        for d in dominoes:
            remove_one(hand, d)
            known.discard(d)

    def _layoff(self, action: Layoff) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        if not 0 <= action.meld < len(self.table):
            raise _no_such(f"{PREFIX}-LAYOFF-MELD", "meld", action.meld, len(self.table))
        self._in_hand(seat, (action.domino,))
        meld = self.table[action.meld]
        if meld.kind == LINE:
            raise _err(f"{PREFIX}-LAYOFF-LINE", "a closing line of play takes no lay-offs")
        if action.end not in END_NAMES:
            raise _err(f"{PREFIX}-LAYOFF-FIT", f"a meld's ends are low and high, not {action.end!r}")
        grown = self.rules.extend(meld.kind, meld.dominoes, action.domino, action.end)
        if grown is None:
            raise misfit(self.rules, action, meld)
        self._keeps_discard(seat, (action.domino,), "this lay-off")
        self._take(seat, (action.domino,))
        self.table[action.meld] = TableMeld.make(self.rules, meld.owner, meld.kind, grown, meld.layout)
        self.emit(
            "layoff",
            seat,
            {
                "meld": action.meld,
                "domino": str(action.domino),
                "end": action.end,
                "dominoes": [str(d) for d in grown],
                "hand_size": len(self.hands[seat]),
            },
        )
        if not self.hands[seat]:
            self._end_round(seat, "pickup")

    def _check_discard(self, seat: int, domino: Domino) -> None:
        self._in_hand(seat, (domino,))
        drawn = self.drawn
        if self.options["no_milling"] and drawn is not None and drawn.face_up and drawn.domino == domino:
            raise _err(
                f"{PREFIX}-MILLING",
                f"{domino} was face up when you took it; with no_milling it cannot go straight back",
            )

    def _discard(self, action: Discard) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        self._check_discard(seat, action.domino)
        column, end = self._put_discard(seat, action.domino)
        if not self.hands[seat]:
            self._end_round(seat, "discard")
        else:
            self._end_turn(seat, column, end)

    def _put_discard(self, seat: int, domino: Domino) -> tuple[int, str]:
        """Discard to the end opposite the draw; returns (column, end) where it now lies."""
        drawn = self.drawn
        assert drawn is not None
        self._take(seat, (domino,))
        to = self.belt.discard(domino)
        self.emit(
            "discard",
            seat,
            {
                "column": drawn.column,
                "end": to,
                "domino": str(domino),
                "milled": drawn.face_up and drawn.domino is domino,
                "hand_size": len(self.hands[seat]),
            },
        )
        self.drawn = None
        return drawn.column, to

    def _close(self, action: Close) -> None:
        self._phase_is(action, PLAY)
        seat = action.player
        if not self.options["domino_runs"]:
            raise _err(f"{PREFIX}-LINE-OFF", "closing with a line of play needs the domino_runs variant")
        hand = list(self.hands[seat])
        if action.discard is None:
            self._keeps_discard(seat, hand, "closing with the whole hand as a line")
        else:
            self._check_discard(seat, action.discard)
            hand.remove(action.discard)
        whole = line_size(self.options, pickup=action.discard is None)
        if len(hand) != whole:
            raise _err(f"{PREFIX}-LINE-SIZE", _line_size_reason(self.options, len(hand), pickup=action.discard is None))
        layout = self.rules.line(hand, branching=self.options["branch_on_doubles"])
        if layout is None:
            how = "with branches at doubles" if self.options["branch_on_doubles"] else "in one line"
            raise _err(
                f"{PREFIX}-LINE", f"{format_dominoes(sorted(hand, key=by_code))} cannot be laid end to end {how} with matching halves"
            )
        if action.discard is not None:
            self._put_discard(seat, action.discard)
        meld = TableMeld.make(self.rules, seat, LINE, tuple(sorted(hand, key=by_code)), layout)
        self._take(seat, hand)
        self.table.append(meld)
        self.emit("meld", seat, {**_meld_event(meld.to_json(len(self.table) - 1)), "hand_size": 0})
        self._end_round(seat, "line")

    def _end_turn(self, seat: int, column: int, end: str) -> None:
        if self.turn_no >= self.options["max_turns"]:
            self._end_round(None, "max-turns")
            return
        if self.options["jump_ins"]:
            domino = self.belt.at_end(column, end)[0]
            others = {s for s in range(len(self.players)) if s != seat}
            self.window = _Window(domino, column, end, seat, others, {})
            self.phase = JUMP
            self.emit("jump-window", None, {"domino": str(domino), "column": column, "end": end, "discarder": seat})
            return
        self._next_turn((seat + 1) % len(self.players))

    def _next_turn(self, seat: int) -> None:
        self.current = seat
        self.turn_no += 1
        self.phase = DRAW

    # -- jump-ins ------------------------------------------------------------------------

    def _jump(self, action: Jump) -> None:
        check_jump(self, action)
        self._answer(action.player, action)

    def _decline(self, action: Decline) -> None:
        self._phase_is(action, JUMP)
        self._answer(action.player, None)

    def _answer(self, seat: int, claim: Jump | None) -> None:
        window = self.window
        assert window is not None
        window.waiting.discard(seat)
        window.claims[seat] = claim
        self.emit("jump-answer", seat, {}, {"claim": None if claim is None else claim.text()})
        if not window.waiting:
            self._resolve_window()

    def _resolve_window(self) -> None:
        resolve_window(self)

    # -- the end of a round ------------------------------------------------------------

    def round_scores(self, closer: int) -> tuple[tuple[int, ...], list[JSON], int]:
        """Per-seat scores of a close, the scored melds, and the dominoes counted from opponents.

        Only the closer scores: their own melds and one point per domino in
        an opponent's hand (with ``partners``, the other team's hands). The
        points go to the closer's seat alone; their team's score is the sum
        of its seats' totals (the match loop's ``team_totals``), so nothing
        is counted twice.
        """
        n = len(self.players)
        team = self.team_of(closer)
        scored: list[JSON] = []
        points = 0
        for i, meld in enumerate(self.table):
            if meld.owner == closer:
                points += meld.score
                scored.append(meld.to_json(i))
        left = sum(len(self.hands[s]) for s in range(n) if s not in team)
        points += left
        return tuple(points if s == closer else 0 for s in range(n)), scored, left

    def _end_round(self, closer: int | None, how: str) -> None:
        n = len(self.players)
        if closer is None:
            scores: tuple[int, ...] = (0,) * n
            winners: tuple[int, ...] = ()
            reason = "max-turns"
            detail: dict[str, JSON] = {}
        else:
            scores, scored, left = self.round_scores(closer)
            winners = tuple(sorted(self.team_of(closer)))
            reason = "closed"
            detail = {"closer": closer, "how": how, "melds": scored, "dominoes_left": left}
            self.emit("close", closer, {"how": how})
        self.phase = OVER
        self.drawn = None
        self.window = None
        if self.finish_round(winners, scores, reason, {**detail, "hand_sizes": [len(h) for h in self.hands]}):
            return
        self._deal_round()

    # -- listing ------------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of ``player`` now (see :func:`list_actions`); empty if it may not act."""
        if player not in self.to_act:
            return []
        drawn = self.drawn
        phase = self.phase
        if phase == SELECT:
            belt = self.belt
            columns: list[tuple[int, list[int]]] = [(c, belt.face_down(c)) for c in belt.open_columns()]
        elif phase == DRAW:
            columns = [(c, []) for c in self.belt.open_columns()]
        else:
            columns = []  # the other phases list no column
        return list_actions(
            player,
            phase=phase,
            hand=self.hands[player],
            rules=self.rules,
            options=self.options,
            open_columns=columns,
            melds=[(m.kind, m.dominoes) for m in self.table] if phase == PLAY else [],
            milled=drawn.domino if drawn is not None and drawn.face_up else None,
            window_domino=None if self.window is None else self.window.domino,
        )

    # -- views ---------------------------------------------------------------------------

    def piece_counts(self) -> list[int]:
        """The dominoes in each seat's hand."""
        return [len(h) for h in self.hands]

    def stock_count(self) -> int | None:
        """None: conveyor has no stock (the face-down dominoes of the conveyors show as ``??`` in the layout)."""
        return None

    def hidden_slots(self, seat: int | None) -> list[Slot]:
        """The face-down cells of the conveyors, then the dominoes of the other hands that no seat saw taken
        (for :meth:`redeal_hidden`)."""
        belt = self.belt
        cells = [(belt.columns[c], i) for c in range(belt.count) for i in belt.face_down(c)]
        return [*cells, *unseen_slots(self.hands, self.known, seat)]

    def drop_caches(self) -> None:
        """Forget the caches, the conveyors' public cells too."""
        super().drop_caches()
        self.belt.forget_cells()

    def move_text(self, action: Action, seat: int | None) -> str:
        """A jump-in answer (a jump or a decline) is sealed: the other seats read ``answer``, whichever it was."""
        if isinstance(action, Jump | Decline) and seat != action.player:
            return "answer"
        return action.text()

    def view(self, player: int | None) -> ConveyorView:
        """What ``player`` may see (``None``: a spectator): see :class:`ConveyorView`.

        Face-down dominoes are ``??`` for everyone; a seat sees its own hand
        and, for every hand, the dominoes all players saw go into it
        (``hand_known``); the spectator sees no hand.
        """
        return build_view(self, player)

    def position(self) -> str:
        """This position as a one-line string (the start of a turn only; see :func:`from_position`)."""
        from rummykit.rulesets.conveyor.position import position_text

        return position_text(self)


_HANDLERS: dict[type[Action], Callable[..., None]] = {
    Reveal: Conveyor._reveal,
    Claim: Conveyor._claim,
    Draw: Conveyor._draw,
    Meld: Conveyor._meld,
    Layoff: Conveyor._layoff,
    Discard: Conveyor._discard,
    Close: Conveyor._close,
    Jump: Conveyor._jump,
    Decline: Conveyor._decline,
}
