"""The contract every game keeps: the state machine (:class:`GameState`) and the game (:class:`GameInfo`).

A game is a :class:`GameState` subclass registered with a :class:`GameInfo`.
Actions and events are defined in :mod:`rummykit.engine.actions`, snapshot
declarations in :mod:`rummykit.engine.snapshot`, plain values in
:mod:`rummykit.engine.values` and the views' common header in
:mod:`rummykit.engine.views`; their names are imported here too.
``apply`` validates an action completely before changing anything; a rejected
action raises :class:`~rummykit.errors.RuleError` (a ``ValueError``) naming the
rule and leaves the state exactly as it was.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self

from rummykit.engine.actions import Action, Event, decode_field, field_hints, new_event
from rummykit.engine.hidden import HiddenPieces
from rummykit.engine.match import Match, Outcome
from rummykit.engine.options import OptionSpec, OptionValue, check_seed, default_names, resolve_options
from rummykit.engine.rng import Rng
from rummykit.engine.snapshot import Field, Omit, Saved, SavedAs, match_fields, rng_digest
from rummykit.engine.values import JSON, clone, plain, texts
from rummykit.engine.views import LastMove, ViewHeader
from rummykit.errors import OptionError, ParseError, RuleError

__all__ = [
    "JSON",
    "OVER",
    "Action",
    "Event",
    "Field",
    "GameInfo",
    "GameState",
    "LastMove",
    "Omit",
    "Saved",
    "SavedAs",
    "ViewHeader",
    "check_seed",
    "clone",
    "default_names",
    "plain",
    "split_seat",
    "texts",
]

_FIELDS: dict[type, dict[str, Field]] = {}
"""Each state class's :meth:`GameState.position_fields`, merged once."""
_ACTION_TEXTS = Saved(encode=texts)
"""How the snapshot writes :attr:`GameState.actions` (each action's ``str``)."""


_NOBODY: frozenset[int] = frozenset()

OVER = "over"
"""The phase of every game once the match is over."""


class GameState(HiddenPieces):
    """A game in progress. Subclasses implement the rules of one game.

    Public contract: :attr:`must_act`, :attr:`may_act`, :attr:`to_act`,
    :meth:`act_order`, :meth:`apply`, :meth:`legal_actions`,
    :meth:`indexed_actions`, :meth:`view`, :attr:`outcome`, :attr:`rounds`,
    :attr:`history`, :meth:`parse_action`, :meth:`snapshot`, :meth:`copy` and
    :meth:`redeal_hidden` (:class:`~rummykit.engine.hidden.HiddenPieces`: a
    game implements its ``hidden_slots``). The match (rounds, totals, target,
    round limit) is kept by :attr:`match`.
    """

    game_id: ClassVar[str]
    info: ClassVar[GameInfo]

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "players": Saved(encode=list),
        "seed": Saved(),
        "options": Saved(encode=dict),
        "rng": Saved(encode=rng_digest),
        "history": Saved(encode=len),
        "actions": _ACTION_TEXTS,
        "match": SavedAs(("first", "round", "totals", "rounds"), match_fields),
        "outcome": Saved(encode=lambda outcome: None if outcome is None else outcome.to_json()),
        "move_start": Omit(
            "where the last action's events begin in the history, for the view's last move: replaying the"
            " actions sets it again, and the stored fingerprints were taken without it"
        ),
        "position_text": Omit(
            "the text of the position a game was started from: it never changes in play, the rest of the"
            " snapshot holds the position itself, and the stored fingerprints of such games were taken without it"
        ),
    }
    """How :meth:`snapshot` writes each attribute, or why it leaves it out.

    A game declares its own attributes in its own ``SNAPSHOT``; the
    declarations of its base classes hold for it too (:meth:`position_fields`).
    """

    def __init__(self, players: Sequence[str], seed: int, options: Mapping[str, OptionValue]) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.seed = seed
        self.options: dict[str, Any] = dict(options)
        """The resolved options (each game reads its own by name, with the type its spec declares)."""
        self.rng = Rng(seed)
        self.history: list[Event] = []
        self.actions: list[Action] = []
        self.match = Match(
            len(self.players), self.options.get("target"), self.options.get("max_rounds"), teams=self.teams
        )
        self.outcome: Outcome | None = None
        self.move_start = 0
        self.position_text: str | None = None

    # -- the match ------------------------------------------------------------

    @property
    def rounds(self) -> list[Outcome]:
        """The outcome of every round played so far."""
        return self.match.rounds

    @property
    def totals(self) -> list[int]:
        """The match totals so far, per seat (with teams: what each seat scored itself)."""
        return self.match.totals

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """The teams of a partnership game (the seats of each), or None: every seat plays for itself.

        The match loop reads it once, when the game is made, so it may depend
        on the players and options only. With teams, a team's score is the
        sum of its seats' totals (:attr:`team_totals`), compared with the target.
        """
        return None

    @property
    def team_totals(self) -> tuple[int, ...] | None:
        """Each team's match total (the sum of its seats' totals), or None without teams."""
        return self.match.team_totals()

    @property
    def round_no(self) -> int:
        """The number of the round being played (from 1)."""
        return self.match.round_no

    @property
    def first(self) -> int:
        """The seat that starts the current round."""
        return self.match.first

    @first.setter
    def first(self, seat: int) -> None:
        self.match.first = seat

    def finish_round(
        self, winners: tuple[int, ...], scores: tuple[int, ...], reason: str, detail: Mapping[str, JSON]
    ) -> bool:
        """End the round through the match loop: emit ``round-end`` (and ``match-end``).

        Returns True when the match is over (:attr:`outcome` is then set);
        otherwise the game deals the next round, whose first player is
        already :attr:`first`.
        """
        result, match = self.match.end_round(winners, scores, reason)
        self.emit("round-end", None, {**result.to_json(), **detail})
        if match is None:
            return False
        self.outcome = match
        self.emit("match-end", None, match.to_json())
        return True

    # -- who acts -------------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        """The seats that may act now: :attr:`must_act` and :attr:`may_act` (empty once over)."""
        may = self.may_act
        return self.must_act | may if may else self.must_act

    @property
    @abc.abstractmethod
    def must_act(self) -> frozenset[int]:
        """The seats the game is waiting for (empty once the match is over)."""

    @property
    def may_act(self) -> frozenset[int]:
        """Seats that may act now although the game does not wait for them (claims, calls)."""
        return _NOBODY

    def may_act_seen_by(self, player: int | None) -> frozenset[int]:
        """The seats of :attr:`may_act` that ``player`` (None: a spectator) can tell may act.

        A view shows only these: a seat may see that it may act itself, but
        whether another seat may act must not give away that seat's hidden
        pieces. The default shows them all (a game whose out-of-turn chances
        follow from the table alone); a game where they follow from a hand
        shows each seat only the public ones and its own.
        """
        return self.may_act

    @property
    def turn_seat(self) -> int | None:
        """The seat whose turn it is, from which :meth:`act_order` counts (None: none)."""
        seats = self.must_act
        return min(seats) if seats else None

    def act_order(self, seats: Iterable[int]) -> list[int]:
        """The priority of ``seats`` when several act at once: turn order from :attr:`priority_seat`.

        The driver offers the action to seats in this order, and a game that
        resolves competing calls uses the same order, so no seat wins merely
        by its number.
        """
        chosen = set(seats)
        if len(chosen) == 1:
            return list(chosen)
        start = self.priority_seat
        n = len(self.players)
        return sorted(chosen, key=lambda s: (s - start) % n)

    @property
    def priority_seat(self) -> int:
        """The seat first in :meth:`act_order` (by default the seat whose turn it is)."""
        seat = self.turn_seat
        return 0 if seat is None else seat

    # -- the contract -------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check ``action`` against the rules and carry it out.

        Raises :class:`RuleError` naming the broken rule, with the state
        unchanged; otherwise returns the events it produced (also appended to
        :attr:`history`).
        """
        if self.outcome is not None:
            raise RuleError("GAME-OVER", f"the game is over; {action} cannot be played")
        if not isinstance(action, Action):
            raise RuleError("ACTION", f"{action!r} is not an action of this game")
        if not 0 <= action.player < len(self.players):
            raise RuleError("SEAT", f"there is no seat {action.player} in this game")
        if action.player not in self.to_act:
            self.explain_out_of_turn(action)
            raise RuleError("TURN", f"it is not seat {action.player}'s turn: {self.describe_turn()}")
        start = len(self.history)
        self._apply(action)
        self.actions.append(action)
        self.move_start = start
        return self.history[start:]

    def explain_out_of_turn(self, action: Action) -> None:
        """Called before ``apply`` refuses (rule ``TURN``) an action of a seat not in :attr:`to_act`.

        A game where seats may act out of turn only when they have something
        to do (their :attr:`may_act` is worked out from the position) raises a
        :class:`RuleError` naming its own rule here, so that the refusal says
        what is wrong with the action rather than only "not your turn". It
        must not change the state. By default it does nothing.
        """
        return None

    def indexed_actions(self, player: int) -> list[Action]:
        """:meth:`legal_actions` in their stable order: by the action's text.

        The index of an action in this list is its number in this position
        (for RL action masks): the same position gives the same list on any
        machine, whatever order the game lists them in.
        """
        return sorted(self.legal_actions(player), key=_action_text)

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would accept ``action`` (the state is not changed)."""
        try:
            self.copy().apply(action)
        except RuleError:
            return False
        return True

    @abc.abstractmethod
    def _apply(self, action: Action) -> None:
        """Validate fully, then change the state and emit events (game-specific)."""

    @abc.abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """The listable legal actions of ``player`` now (see each game's docs)."""

    @abc.abstractmethod
    def view(self, player: int | None) -> ViewHeader:
        """Exactly what ``player`` may see, as JSON-able data (``None``: a spectator).

        Every view starts with the :class:`ViewHeader` (see :meth:`view_header`);
        each game declares its whole view as a TypedDict extending it, and its
        ``view`` returns that type (``tools/gen_schema.py`` reads it there).
        """

    @abc.abstractmethod
    def piece_counts(self) -> list[int]:
        """How many pieces each seat holds hidden from the others (its rack, hand or trays), by seat."""

    @abc.abstractmethod
    def stock_count(self) -> int | None:
        """How many pieces are left to draw from (the pool, boneyard or stock); None in a game without one."""

    def move_text(self, action: Action, seat: int | None) -> str:
        """The text of an accepted ``action`` (without its seat) as ``seat`` may read it (``None``: a spectator).

        By default the action's own text, which every seat saw played. A game
        whose actions may hold what others must not learn (pieces still in a
        rack, a sealed answer) gives the other seats less here.
        """
        return action.text()

    def last_move(self, player: int | None) -> LastMove | None:
        """The last accepted action as ``player`` may know it (see :class:`LastMove`); None before the first.

        Its events are :meth:`events_for`'s: each a fresh dict whose values are
        shared with the history, to be read, not changed.
        """
        if not self.actions:
            return None
        action = self.actions[-1]
        events = [e.seen_by(player) for e in self.history[self.move_start :]]
        return {"seat": action.player, "text": self.move_text(action, player), "events": events}

    def current_phase(self) -> str:
        """The phase of the game, as the view shows it (``over`` once the match is over)."""
        return OVER if self.outcome is not None else "play"

    @property
    def turn_number(self) -> int:
        """The number of the turn being played in this round."""
        return 0

    def view_header(self, player: int | None) -> ViewHeader:
        """The common part of every view; checks the seat."""
        if player is not None and not 0 <= player < len(self.players):
            raise RuleError("SEAT", f"there is no seat {player} in this game")
        outcome = self.outcome
        must_set, may_set = self.must_act, self.may_act_seen_by(player)
        must = sorted(must_set) if len(must_set) > 1 else list(must_set)
        may = sorted(may_set) if may_set else []
        return {
            "game": self.game_id,
            "seat": player,
            "players": list(self.players),
            "options": dict(self.options),
            "phase": self.current_phase(),
            "turn": None if outcome is not None else self.turn_seat,
            "turn_number": self.turn_number,
            "to_act": sorted(must_set | may_set) if may else must.copy(),
            "must_act": must,
            "may_act": may,
            "round": self.round_no,
            "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds] if self.rounds else [],  # no comprehension for none
            "outcome": None if outcome is None else outcome.to_json(),
            "piece_counts": self.piece_counts(),
            "stock_count": self.stock_count(),
            "last_move": self.last_move(player),
        }

    @classmethod
    def position_fields(cls) -> Mapping[str, Field]:
        """Every declared attribute of this game's states: how the snapshot writes it, or why it is left out.

        The :attr:`SNAPSHOT` declarations of the class and its bases, merged
        (the class's own win).
        """
        fields = _FIELDS.get(cls)
        if fields is None:
            fields = {}
            for klass in reversed(cls.__mro__):
                fields.update(klass.__dict__.get("SNAPSHOT", {}))
            _FIELDS[cls] = fields
        return fields

    def snapshot(self, action_texts: Sequence[str] | None = None) -> dict[str, JSON]:
        """The complete state (hidden parts included) as plain data, for comparisons and fingerprints.

        Derived from the attributes, like :meth:`copy`: the game's id, then
        every attribute as :meth:`position_fields` declares it. An attribute
        not declared is written all the same, under its own name by
        :func:`plain`, so nothing the state holds is left out by mistake
        (``tests/test_contract.py`` names it until it is declared: the
        snapshot's form is stored, in the server's fingerprints and the golden
        tests' digests, so any change to it must be deliberate).

        ``action_texts`` (``str`` of each of :attr:`actions`, in order, which
        the server keeps as its record) are written as ``actions`` instead of
        writing every action again, most of the work late in a game; only when
        as many and ``actions`` is written as texts.
        """
        out: dict[str, JSON] = {"game": self.game_id}
        fields = self.position_fields()
        for name, value in self.__dict__.items():
            how = fields.get(name)
            if how is None:
                out[name] = plain(value)
            elif name == "actions" and action_texts is not None and how is _ACTION_TEXTS and len(action_texts) == len(value):
                out["actions"] = list(action_texts)
            else:
                how.write(name, value, out)
        return out

    def describe_turn(self) -> str:
        """A short phrase saying who may act now."""
        seats = sorted(self.to_act)
        if not seats:
            return "nobody may act"
        names = ", ".join(f"seat {s} ({self.players[s]})" for s in seats)
        return f"{names} to act"

    # -- helpers for games --------------------------------------------------

    def emit(
        self,
        kind: str,
        player: int | None,
        data: Mapping[str, JSON] | None = None,
        secret: Mapping[str, JSON] | None = None,
    ) -> Event:
        """Append an event to the history and return it."""
        for part in (data, secret):
            if part and ("kind" in part or "player" in part):
                raise ValueError(f"event data may not use the keys 'kind' or 'player': {sorted(part)}")
        event = new_event(kind, player, dict(data) if data else {}, dict(secret) if secret else {})
        self.history.append(event)
        return event

    def copy(self) -> Self:
        """An independent copy (for search and what-if checks), derived from the attributes.

        Every attribute is copied by :func:`clone`: immutable values are
        shared, containers copied level by level and objects with a ``copy``
        method copied by it, so a new attribute can never be shared by mistake.
        """
        other = object.__new__(type(self))
        other.__dict__.update({k: clone(v) for k, v in self.__dict__.items()})
        return other

    def events_for(self, seat: int | None, last: int | None = None) -> list[dict[str, JSON]]:
        """The history as ``seat`` may see it (the last ``last`` events if given)."""
        events = self.history if last is None else self.history[-last:]
        return [e.seen_by(seat) for e in events]

    def parse_action(self, text: str) -> Action:
        """Read an action written ``<seat> <action>`` in this game's notation (the seat checked)."""
        seat, rest = self.split_seat(text)
        return self.info.parse_action_text(seat, rest)

    def split_seat(self, text: str) -> tuple[int, str]:
        """Split ``'<seat> rest'`` into the seat number and the rest (the seat must exist)."""
        seat, rest = split_seat(text)
        if seat >= len(self.players):
            raise ParseError(f"there is no seat {seat} in a {len(self.players)}-player game")
        return seat, rest


def split_seat(text: str) -> tuple[int, str]:
    """Split ``'<seat> rest'`` into the seat number and the rest."""
    head, _, rest = text.strip().partition(" ")
    if not head.isdigit():
        raise ParseError(f"an action starts with the seat number, e.g. '0 draw': got {text!r}")
    return int(head), rest.strip()


@dataclass(frozen=True)
class GameInfo:
    """A game: its id, names, player range, options, constructors and notation.

    ``parse_action_text`` reads an action's text without its seat, and
    ``actions`` lists the game's action classes; with them
    :meth:`parse_action` and :meth:`action_from_json` read both serial forms
    of an action with no game state at hand. ``read_typed`` (optional) reads
    an action as a person types it, against the view of the seat typing it,
    where the numbers a screen shows (counted from 1) may stand for pieces;
    :meth:`parse_typed` uses it, or the notation when the game has none.
    ``draft`` names how a person builds a turn before sending it, for
    interfaces to ask instead of testing the state's class: ``"table"`` (the
    free table: every set of the table rearranged at will, checked as a
    whole), ``"grid"`` (pieces placed on grid cells), or None (a turn is one
    action chosen at a time).
    """

    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    factory: Callable[[tuple[str, ...], int, dict[str, OptionValue]], GameState]
    parse_action_text: Callable[[int, str], Action]
    actions: tuple[type[Action], ...]
    parse_piece: Callable[[str], object]
    aliases: tuple[str, ...] = ()
    from_position: Callable[..., GameState] | None = None
    view_actions: Callable[[Mapping[str, object]], list[Action]] | None = None
    rules_page: str = ""
    read_typed: Callable[[int, str, Mapping[str, object]], Action] | None = None
    draft: Literal["table", "grid"] | None = None
    draft_lines: Callable[[Mapping[str, object], Action], Sequence[Mapping[str, object]] | None] | None = None
    """For a grid draft: each line a drafted action touches, judged by the game's rules from the seat's view
    (None for an action that drafts nothing), so an interface can mark lines while a person builds a turn: each
    a :class:`~rummykit.blocks.grid_lines.LineJudgement`."""
    wild_pieces: tuple[str, ...] = ()
    """Pieces (in the game's notation) that are wild although their notation does not say so, for interfaces
    to mark them: domino-rummikub's 0-0 and 6-6. A tile joker (``J``) says so itself and is not listed."""

    @property
    def player_span(self) -> str:
        """How many players the game is for, in words: ``2 to 4``, or ``2`` for a game of one count."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def new(
        self, *, players: int | Sequence[str] = 2, seed: int = 0, **options: object
    ) -> GameState:
        """Start a game; ``players`` is a count or a list of names."""
        names = default_names(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise OptionError(f"{self.id} is for {self.player_span} players, not {len(names)}")
        check_seed(seed)
        return self.factory(names, seed, resolve_options(self.options, options))

    def parse_action(self, text: str) -> Action:
        """Read ``<seat> <action>`` in this game's notation (no state needed).

        >>> from rummykit.catalogue import find_game
        >>> find_game('rummikub').parse_action('1 play R4 : R1 R2 R3 R4').to_json()['placed']
        ['R4']
        """
        seat, rest = split_seat(text)
        return self.parse_action_text(seat, rest)

    def parse_typed(self, seat: int, text: str, view: Mapping[str, object]) -> Action:
        """Read an action typed by a person in ``seat`` (without the seat), who sees ``view``.

        A game with ``read_typed`` reads the screen's numbers there too (mummus:
        ``take 3`` is the third card of the discard pile from the bottom); any
        other game reads its notation, as :attr:`parse_action_text` does.

        >>> from rummykit.catalogue import find_game
        >>> mummus = find_game('mummus')
        >>> state = mummus.from_position('hands: 4H 8C / 4S 9S; discard: 9H JC 10D')
        >>> mummus.parse_typed(0, 'take 2', state.view(0)).text()
        'take JC'
        """
        if self.read_typed is None:
            return self.parse_action_text(seat, text)
        return self.read_typed(seat, text, view)

    def action_from_json(self, data: Mapping[str, object]) -> Action:
        """Read an action's JSON form (see :meth:`Action.to_json`); :class:`ParseError` if malformed.

        Every field is needed, except one with a default (``to_json`` always
        writes it), which may be left out.

        >>> from rummykit.catalogue import find_game
        >>> info = find_game('conveyor')
        >>> action = info.parse_action('2 draw 3 top')
        >>> info.action_from_json(action.to_json()) == action
        True
        """
        if not isinstance(data, Mapping):
            raise ParseError(f"an action is a JSON object, got {type(data).__name__}")
        kind = data.get("type")
        by_type = {a.type: a for a in self.actions}
        cls = by_type.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ParseError(f"unknown action type {kind!r}; {self.id} has: {', '.join(sorted(by_type))}")
        player = data.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or player < 0:
            raise ParseError(f"an action's 'player' is a seat number, got {player!r}")
        hints = field_hints(cls)
        fields = [f for f in dataclasses.fields(cls) if f.name != "player"]
        unknown = sorted(set(data) - {"type", "player", *(f.name for f in fields)})
        if unknown:
            raise ParseError(f"{kind} has no field {', '.join(map(repr, unknown))}")
        values: dict[str, object] = {}
        for f in fields:
            if f.name not in data:
                if f.default is not dataclasses.MISSING:
                    continue  # a field with a default may be left out
                raise ParseError(f"{kind} needs the field {f.name!r}")
            values[f.name] = decode_field(data[f.name], hints[f.name], self.parse_piece, f"{kind}.{f.name}")
        return cls(player, **values)


def _action_text(action: Action) -> str:
    return action.text()
