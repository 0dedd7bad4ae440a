"""The free-rearrangement table game shared by ``rummikub`` and ``domino-rummikub``.

A :class:`FreeTableGame` deals racks from a shuffled pool, lets the player to
move either draw, pass (only when the pool is empty) or commit a turn as a
:class:`Play` (the pieces taken from the rack plus the whole final table), and
ends a round when a rack empties or when, with the pool empty, a full round of
turns passes without a play. Each game supplies its pieces, its meld checker,
its opening rule, its first-player rule, its scoring and its penalty.
"""

from __future__ import annotations

import abc
import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, ClassVar, Generic, NotRequired, TypeVar, cast

from rummykit.blocks.racks import Racks
from rummykit.blocks.table import FreeTable, Opening, TableDraft
from rummykit.engine.actions import new_event, slot_setter
from rummykit.engine.commands import Command, Declared, Part, Reading, command_table
from rummykit.engine.core import JSON, Action, Field, GameState, Saved, ViewHeader, texts
from rummykit.engine.hidden import Slot, every_slot
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.errors import ParseError, RuleError
from rummykit.pieces.text import Written, joined_texts, piece_texts, set_texts

P = TypeVar("P")

BY_CODE = operator.attrgetter("code")
"""Sort key for pieces (tiles and dominoes both carry an ordering ``code``): faster than ``<``."""

PieceSet = tuple[Any, ...]
Table = tuple[PieceSet, ...]


@functools.lru_cache(maxsize=1 << 12)
def parse_view_set(parse: Callable[[str], Sequence[object]], texts: tuple[str, ...]) -> PieceSet:
    """A table set read back from a view's text forms (cached: table sets repeat from view to view)."""
    return tuple(parse(" ".join(texts)))


def one_step_plays(
    seat: int,
    new_sets: Iterable[PieceSet],
    layoffs: Iterable[tuple[object, int, PieceSet]],
    table: Sequence[PieceSet],
    pool_size: int,
) -> list[Action]:
    """Draw (or pass with an empty pool), one play per new set, one per single-piece lay-off."""
    actions: list[Action] = [Draw(seat) if pool_size else Pass(seat)]
    base = tuple(table)
    actions.extend(set_plays(seat, new_sets, base))
    actions.extend(layoff_plays(seat, layoffs, base))
    return actions


def set_plays(seat: int, new_sets: Iterable[PieceSet], base: Table) -> list[Action]:
    """One play per new set laid after the table ``base`` (as :func:`one_step_plays` lists them)."""
    return [_listed_play(seat, s, (*base, s)) for s in new_sets]


def layoff_plays(seat: int, layoffs: Iterable[tuple[object, int, PieceSet]], base: Table) -> list[Action]:
    """One play per single-piece lay-off onto the table ``base`` (as :func:`one_step_plays` lists them)."""
    plays: list[Action] = []
    for p, i, new in layoffs:
        table = [*base]
        table[i] = new
        play = _new_object(Play)
        _set_player(play, seat)
        _set_placed(play, (p,))
        _set_table(play, tuple(table))
        plays.append(play)
    return plays


def _listed_play(seat: int, placed: PieceSet, table: Table) -> Play:
    """``Play(seat, placed, table)``, made by setting its three slots (a frozen dataclass's own ``__init__``
    sets each through ``object.__setattr__``, about twice the cost; ``tests/test_freetable_shared.py`` compares)."""
    play = _new_object(Play)
    _set_player(play, seat)
    _set_placed(play, placed)
    _set_table(play, table)
    return play


def format_pieces(pieces: Iterable[object]) -> str:
    """Pieces in notation separated by single spaces (a set's texts kept: :func:`~rummykit.pieces.text.set_texts`)."""
    if type(pieces) is tuple:
        try:  # a play's text writes every set of the table, most of them written for the last turn's plays
            return " ".join(set_texts(pieces))
        except (AttributeError, TypeError):  # not all pieces, or an item that does not hash
            pass
    return joined_texts(pieces) or " ".join([str(p) for p in pieces])


def format_table(table: Iterable[Iterable[object]]) -> str:
    """Sets in notation separated by ``|``.

    >>> from rummykit.pieces.tiles import parse_tiles
    >>> format_table([parse_tiles('R1 R2 R3'), parse_tiles('K5 B5 O5')])
    'R1 R2 R3 | K5 B5 O5'
    """
    return " | ".join([format_pieces(s) for s in table])


def parse_table_with(parse: Callable[[str], list[P]], text: str) -> tuple[tuple[P, ...], ...]:
    """Read sets separated by ``|`` with a piece parser (an empty text is an empty table)."""
    if not text.strip():
        return ()
    sets = tuple(tuple(parse(p)) for p in text.split("|"))
    for i, s in enumerate(sets):
        if not s:
            raise ParseError(f"set {i + 1} of {text.strip()!r} is empty (two '|' in a row?)")
    return sets


# -- actions ------------------------------------------------------------------


@dataclass(frozen=True)
class WholeTable(Part):
    """A committed turn's words: the pieces placed, ``:``, then the whole table, sets separated by ``|``.

    It fills two fields (``field``, the placed pieces, and ``table``); the
    pieces are read by the game's reader (a free table's actions serve games
    whose pieces differ). Written as ``R4 : R1 R2 R3 R4 | K5 B5 O5``.
    """

    table: str = "table"
    name: str = "PLACED : SET | SET ..."
    many: ClassVar[bool] = True
    plain: ClassVar[bool] = False

    @property
    def fields(self) -> tuple[str, ...]:
        """The placed pieces' field and the table's."""
        return (self.field, self.table)

    def write(self, values: Sequence[object], typed: bool) -> list[str]:
        """The placed pieces, ``:`` and the table (an empty part leaves its word empty)."""
        return [format_pieces(cast("PieceSet", values[0])), ":", format_table(cast(Table, values[1]))]

    def read(self, words: Sequence[str], reading: Reading) -> tuple[object, ...]:
        """The placed pieces and the table (a :class:`ParseError` when the ``:`` is missing)."""
        text = " ".join(words)
        placed_text, sep, table_text = text.partition(":")
        if not sep:
            verb = reading.text.split()[0].lower() if reading.text.split() else "play"
            raise ParseError(
                f"write '{verb} <placed pieces> : <final table>', sets separated by '|'; got {reading.text!r}"
            )
        parse = reading.pieces
        if parse is None:
            raise ParseError("a free table's play is read with its game's pieces")
        pieces = cast("Callable[[str], list[object]]", parse)
        return tuple(pieces(placed_text)), parse_table_with(pieces, table_text)


@dataclass(frozen=True, slots=True)
class Draw(Declared):
    """Draw one piece from the pool, ending the turn."""

    COMMAND = Command()


@dataclass(frozen=True, slots=True)
class Pass(Declared):
    """End the turn without playing, when the pool is empty."""

    COMMAND = Command()


@dataclass(frozen=True, slots=True)
class Play(Declared):
    """Commit a turn: the pieces taken from the rack and the whole final table."""

    placed: PieceSet
    table: Table

    COMMAND = Command(WholeTable("placed"), typed=False)


@dataclass(frozen=True, slots=True)
class Fail(Declared):
    """Commit a turn whose table is invalid, taking the game's penalty (where it has one)."""

    placed: PieceSet
    table: Table

    COMMAND = Command(WholeTable("placed"), typed=False)


_new_object = object.__new__
_set_player = slot_setter(Action, "player")
_set_placed = slot_setter(Play, "placed")
_set_table = slot_setter(Play, "table")

ACTIONS: tuple[type[Action], ...] = (Draw, Pass, Play, Fail)
"""Every action class of a free-table game (``GameInfo.actions``)."""


def parse_turn_action(seat: int, text: str, parse: Callable[[str], Sequence[object]]) -> Action:
    """Read ``draw``, ``pass``, ``play <placed> : <table>`` or ``fail <placed> : <table>``.

    >>> from rummykit.pieces.tiles import parse_tiles
    >>> parse_turn_action(0, 'play R4:R1 R2 R3 R4', parse_tiles).text()
    'play R4 : R1 R2 R3 R4'
    >>> parse_turn_action(0, 'fail  : R1 R2', parse_tiles).text(), parse_turn_action(1, 'DRAW', parse_tiles)
    ('fail  : R1 R2', Draw(player=1))
    """
    return command_table(ACTIONS, parse).read(seat, text)


def play_from_table(seat: int, old_table: Iterable[Iterable[object]], new_table: Iterable[Iterable[object]]) -> Play:
    """The :class:`Play` that turns ``old_table`` into ``new_table`` (placed pieces derived)."""
    new = tuple(tuple(s) for s in new_table)
    old = Counter(chain.from_iterable(old_table)).get
    placed = [t for t, k in Counter(chain.from_iterable(new)).items() for _ in range(k - old(t, 0))]
    placed.sort(key=BY_CODE)
    return Play(seat, tuple(placed), new)


# -- the state ----------------------------------------------------------------


class FreeTableView(ViewHeader):
    """A free-table game's view: the common header, then the table, sizes and (for a seat) its rack.

    ``table`` lists the sets in table order, each in its normal order;
    ``rack`` (only in a seat's own view) is sorted.
    """

    table: list[list[str]]
    rack_sizes: list[int]
    pool_size: int
    down: list[bool]
    idle_turns: int
    rack: NotRequired[list[str]]


def free_table_view(view: Mapping[str, object]) -> FreeTableView:
    """``view`` read as the free-table view it is: for code given a view as plain data (a listing, a
    presenter) that is only ever given a free-table game's views. Nothing is checked or copied."""
    return cast(FreeTableView, view)



_SEAT_SETS = tuple(frozenset((seat,)) for seat in range(16))
"""One seat as a set, made once (who acts is asked several times a step)."""


class FreeTableGame(GameState, Generic[P]):
    """A round (or match of rounds) of a free-rearrangement table game.

    Subclasses set :attr:`TABLE`, :attr:`RACK_SIZE`, :attr:`PENALTY` and
    :attr:`PREFIX` and implement the hooks marked abstract.
    """

    TABLE: ClassVar[FreeTable[Any]]
    RACK_SIZE: ClassVar[int]
    PENALTY: ClassVar[int | None]
    """Pieces drawn after a failed manipulation; None: an invalid table is only refused."""
    PREFIX: ClassVar[str]
    POOL_NAME: ClassVar[str] = "pool"

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "pool": Saved(encode=texts),
        "racks": Saved(encode=lambda racks: [texts(r) for r in racks]),
        "table": Saved(encode=lambda table: [texts(s) for s in table]),
        "down": Saved(encode=list),
        "current": Saved(),
        "idle_turns": Saved(),
        "turn_no": Saved("turn_number"),
    }

    def __init__(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, OptionValue],
        *,
        deal: bool = True,
    ) -> None:
        super().__init__(players, seed, options)
        n = len(self.players)
        self.pool: list[P] = []
        self.racks: Racks[P] = Racks(n, rule=f"{self.PREFIX}-RACK")
        self.table: list[tuple[P, ...]] = []
        self.down: list[bool] = [False] * n
        self.current = 0
        self.idle_turns = 0
        self.turn_no = 1
        if deal:
            self.first = self.choose_first()
            self._deal_round()

    # -- hooks ----------------------------------------------------------------

    @abc.abstractmethod
    def full_set(self) -> list[P]:
        """Every piece in play, in a fixed order."""

    @abc.abstractmethod
    def choose_first(self) -> int:
        """The seat that starts the first round (may draw from the generator)."""

    @abc.abstractmethod
    def opening(self, seat: int) -> Opening | None:
        """The opening rule that applies to ``seat`` now (None once it is down)."""

    @abc.abstractmethod
    def round_scores(self, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The round's winners and per-seat scores (``winner`` None: the round was blocked)."""

    @abc.abstractmethod
    def parse_pieces(self, text: str) -> list[P]:
        """Read pieces in this game's notation."""

    @abc.abstractmethod
    def list_actions(self, seat: int) -> list[Action]:
        """The listable actions of the seat to move (see each game)."""

    def starts_down(self) -> bool:
        """True when players need no opening play at all (say, a threshold of 0)."""
        return False

    # -- setup ----------------------------------------------------------------

    def _deal_round(self) -> None:
        self.pool = self.full_set()
        self.rng.shuffle(self.pool)
        n = len(self.players)
        self.racks.clear()
        for i in range(n):
            seat = (self.first + i) % n
            self.racks.add(seat, [self.pool.pop() for _ in range(self.RACK_SIZE)])
        self.table = []
        self.down = [self.starts_down()] * n
        self.current = self.first
        self.idle_turns = 0
        # The game's own events, from fresh dicts: recorded without emit's copies and checks.
        record = self.history.append
        record(new_event("deal", None, {"round": self.round_no, "first": self.first, "rack_size": self.RACK_SIZE}, {}))
        for seat in range(n):
            record(new_event("rack", seat, {}, {"rack": [str(t) for t in sorted(self.racks[seat], key=BY_CODE)]}))

    # -- the contract ---------------------------------------------------------

    @property
    def must_act(self) -> frozenset[int]:
        return frozenset() if self.outcome is not None else _SEAT_SETS[self.current]

    @property
    def to_act(self) -> frozenset[int]:
        """:attr:`must_act`: nobody acts out of turn on a free table, unless a game of its own says so (its own
        :attr:`may_act`, added as every game adds it)."""
        if type(self).may_act is not GameState.may_act:
            return super().to_act
        return frozenset() if self.outcome is not None else _SEAT_SETS[self.current]

    @property
    def turn_seat(self) -> int | None:
        return self.current

    @property
    def turn_number(self) -> int:
        return self.turn_no

    def _apply(self, action: Action) -> None:
        if isinstance(action, Draw):
            self._draw(action.player)
        elif isinstance(action, Pass):
            self._pass(action.player)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Fail):
            self._fail(action)
        else:
            raise RuleError("ACTION", f"{action!r} is not an action of {self.game_id}")

    def _draw(self, seat: int) -> None:
        if not self.pool:
            raise RuleError(f"{self.PREFIX}-POOL-EMPTY", f"the {self.POOL_NAME} is empty: play or pass")
        piece = self.pool.pop()
        self.racks.add(seat, (piece,))
        self.history.append(new_event("draw", seat, {"pool_size": len(self.pool)}, {"piece": str(piece)}))
        self._end_turn(played=False, pool_was_empty=False)

    def _pass(self, seat: int) -> None:
        if self.pool:
            raise RuleError(
                f"{self.PREFIX}-DRAW",
                f"a player who does not play draws from the {self.POOL_NAME};"
                " pass only when it is empty",
            )
        self.history.append(new_event("pass", seat, {}, {}))
        self._end_turn(played=False, pool_was_empty=True)

    def verify_play(self, action: Play | Fail) -> list[tuple[P, ...]] | RuleError:
        """Check a committed turn.

        Raises for broken conservation (pieces not in the rack, table pieces
        missing or invented); returns the normalised final table when the turn
        is valid, or the table fault (an invalid set, the opening rule) otherwise.
        """
        seat = action.player
        self.TABLE.verify_pieces(self.table, self.racks[seat], action.placed, action.table)
        checks = self.TABLE.check_all(action.table)  # each set judged once, for the faults and the normal form
        fault = self.TABLE.turn_fault(self.table, action.placed, action.table, self.opening(seat), checks)
        if fault is not None:
            return fault
        return [c.pieces for c in checks]

    def _play(self, action: Play) -> None:
        result = self.verify_play(action)
        if isinstance(result, RuleError):
            raise result
        seat = action.player
        self.racks.take(seat, action.placed)
        rack = self.racks[seat]
        self.table = result
        first = not self.down[seat]
        self.down[seat] = True
        data: dict[str, JSON] = {
            "placed": [str(t) for t in action.placed],
            "table": list(map(set_texts, result)),
            "opening": first,
            "rack_size": len(rack),
        }
        self.history.append(new_event("play", seat, data, {}))
        if not rack:
            self._end_round(seat, "rack-empty")
        else:
            self._end_turn(played=True, pool_was_empty=not self.pool)

    def _fail(self, action: Fail) -> None:
        if self.PENALTY is None:
            raise RuleError(
                f"{self.PREFIX}-TABLE-INVALID",
                f"{self.game_id} has no penalty turn: an invalid table is refused; fix it or draw",
            )
        result = self.verify_play(action)
        if not isinstance(result, RuleError):
            raise RuleError(
                f"{self.PREFIX}-FAIL-VALID", "this table is valid: commit it as a play, not as a failed turn"
            )
        seat = action.player
        pool_was_empty = not self.pool
        drawn = [self.pool.pop() for _ in range(min(self.PENALTY, len(self.pool)))]
        self.racks.add(seat, drawn)
        self.emit(
            "penalty",
            seat,
            {"drawn": len(drawn), "pool_size": len(self.pool)},
            # The reason may name pieces that never reached the table (still in the rack): only the
            # player who took the penalty learns it, as only they learn the pieces drawn.
            {"reason": str(result), "pieces": [str(t) for t in drawn]},
        )
        self._end_turn(played=False, pool_was_empty=pool_was_empty)

    def _end_turn(self, *, played: bool, pool_was_empty: bool) -> None:
        n = len(self.players)
        if played:
            self.idle_turns = 0
        elif pool_was_empty:
            self.idle_turns += 1
            if self.idle_turns >= n:
                self._end_round(None, "blocked")
                return
        self.current = (self.current + 1) % n
        self.turn_no += 1

    def _end_round(self, winner: int | None, reason: str) -> None:
        winners, scores = self.round_scores(winner)
        racks = [[str(t) for t in sorted(r, key=BY_CODE)] for r in self.racks]
        if self.finish_round(winners, scores, reason, {"racks": racks}):
            return
        self.turn_no = 1
        self._deal_round()

    def rack_points(self, seat: int) -> int:
        """The penalty value of a rack (each game's piece points)."""
        return sum(self.piece_points(p) for p in self.racks[seat])

    @abc.abstractmethod
    def piece_points(self, piece: P) -> int:
        """What a piece left in a rack counts at the end of a round."""

    # -- listable actions -----------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Draw (or pass), and the simple plays the game lists (see :meth:`list_actions`).

        Plays that rearrange the table cannot be listed; they are still legal
        when committed with :class:`Play`.
        """
        if player not in self.to_act:
            return []
        return self.list_actions(player)

    def pick_listed(self, player: int, choose: Callable[[int, int, Rng], int], rng: Rng) -> Action:
        """``legal_actions(player)[choose(player, n, rng)]``, ``n`` the listing's length (the driver's path for
        a bot that chooses by index, :class:`~rummykit.engine.driver.IndexingAgent`; a game may make only the
        action chosen)."""
        actions = self.legal_actions(player)
        return actions[choose(player, len(actions), rng)]

    # -- views ----------------------------------------------------------------

    def piece_counts(self) -> list[int]:
        """The pieces in each seat's rack."""
        return self.racks.sizes()

    def stock_count(self) -> int | None:
        """The pieces left in the pool (the boneyard of domino-rummikub)."""
        return len(self.pool)

    def hidden_slots(self, seat: int | None) -> list[Slot]:
        """The racks of the other seats, then the pool (for :meth:`redeal_hidden`)."""
        return [*self.racks.slots_of_others(seat), *every_slot(self.pool)]

    def move_text(self, action: Action, seat: int | None) -> str:
        """A failed turn reads ``fail`` to the other seats: its pieces went back to the rack unseen.

        A play reads ``play`` and the pieces it laid from the rack (``play -`` when it laid none):
        the table it left is the view's ``table``, and writing the whole of it
        into every view would cost more than the rest of the view.
        """
        if isinstance(action, Play):
            return f"play {format_pieces(action.placed) or '-'}"
        if isinstance(action, Fail) and seat != action.player:
            return "fail"
        return action.text()

    def view(self, player: int | None) -> FreeTableView:
        # The header is a fresh dict: the body is added to it in place.
        v = cast(FreeTableView, self.view_header(player))
        v["table"] = list(map(list, map(set_texts, self.table)))  # copies: the view is the caller's to change
        v["rack_sizes"] = list(v["piece_counts"])  # the header counted them
        v["pool_size"] = len(self.pool)
        v["down"] = list(self.down)
        v["idle_turns"] = self.idle_turns
        if player is not None:
            v["rack"] = piece_texts(cast("list[Written]", sorted(self.racks[player], key=BY_CODE)))
        return v

    # -- notation -------------------------------------------------------------

    def position(self) -> str:
        """This position as a one-line string (see each game's ``from_position``)."""
        racks = " / ".join(format_pieces(sorted(r)) for r in self.racks)  # type: ignore[type-var]
        down = "".join("1" if d else "0" for d in self.down)
        return (
            f"table: {format_table(self.table)}; racks: {racks}; pool: {format_pieces(self.pool)};"
            f" turn: {self.current}; down: {down}; idle: {self.idle_turns}"
        )

    def draft(self, seat: int) -> TableDraft[P]:
        """A turn draft for ``seat``, built from its view."""
        return draft_from_view(self.TABLE, self.view(seat), self.parse_pieces, self.opening(seat))


def draft_from_view(
    table: FreeTable[P],
    view: Mapping[str, JSON],
    parse: Callable[[str], list[P]],
    opening: Opening | None,
) -> TableDraft[P]:
    """A turn draft for the seat whose view this is."""
    if view.get("seat") is None:
        raise RuleError(table.rule("DRAFT"), "a spectator cannot draft a turn")
    return TableDraft(
        table, parse(" ".join(view["rack"])), [parse(" ".join(s)) for s in view["table"]], opening
    )


def draft_action(seat: int, draft: TableDraft[P], *, accept_penalty: bool = False) -> Action:
    """The action committing a draft: a :class:`Play`, or with ``accept_penalty`` a :class:`Fail`."""
    table = draft.table()
    placed = tuple(draft.placed())
    if accept_penalty:
        return Fail(seat, placed, table)
    return Play(seat, placed, table)


# The position strings of the free-table games have their own module; these names stay here for callers.
from rummykit.rulesets import freetable_position as _position  # noqa: E402

game_from_position = _position.game_from_position
setup_position = _position.setup_position
position_fields = _position.position_fields
