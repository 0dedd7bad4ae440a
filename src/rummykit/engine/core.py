"""The contract every game keeps: actions, events, outcomes and the state machine.

A game is a :class:`GameState` subclass registered with a :class:`GameInfo`.
``apply`` validates an action completely before changing anything; a rejected
action raises :class:`~rummykit.errors.RuleError` (a ``ValueError``) naming the
rule and leaves the state exactly as it was.
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rummykit.engine.options import OptionSpec, resolve_options
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, ParseError, RuleError, UnknownGameError

JSON = Any
"""Plain data made of dicts, lists, strings, numbers, booleans and None."""


@dataclass(frozen=True, slots=True)
class Action:
    """Something a player does. Every game's actions subclass this and name their player."""

    player: int

    def text(self) -> str:
        """The action in record notation, without the seat (e.g. ``draw``)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return f"{self.player} {self.text()}"


@dataclass(frozen=True, slots=True)
class Event:
    """What happened, appended to the state's history.

    ``data`` is public; ``secret`` is known only to ``player`` (say, the tile
    a player drew). Both hold plain JSON data.
    """

    kind: str
    player: int | None
    data: Mapping[str, JSON] = field(default_factory=dict)
    secret: Mapping[str, JSON] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> dict[str, JSON]:
        """The event as the given seat (or a spectator, ``None``) may see it."""
        out: dict[str, JSON] = {"kind": self.kind, "player": self.player, **self.data}
        if seat is not None and seat == self.player:
            out.update(self.secret)
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round or a match ended.

    ``scores`` are this round's (or, for a match, the last round's) points per
    seat; ``totals`` the match totals so far.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    match_over: bool
    round: int = 1

    def to_json(self) -> dict[str, JSON]:
        """The outcome as plain data."""
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "match_over": self.match_over,
            "round": self.round,
        }


class GameState(abc.ABC):
    """A game in progress. Subclasses implement the rules of one game.

    Public contract: :attr:`to_act`, :meth:`apply`, :meth:`legal_actions`,
    :meth:`view`, :attr:`outcome`, :attr:`history`, :meth:`parse_action`,
    :meth:`snapshot` and :meth:`copy`.
    """

    game_id: ClassVar[str]
    info: ClassVar[GameInfo]

    def __init__(self, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.seed = seed
        self.options: dict[str, Any] = dict(options)
        self.rng = Rng(seed)
        self.history: list[Event] = []
        self.actions: list[Action] = []
        self.rounds: list[Outcome] = []
        self.outcome: Outcome | None = None
        self.position_text: str | None = None

    # -- the contract -------------------------------------------------------

    @property
    @abc.abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now (empty once the match is over)."""

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
            raise RuleError("TURN", f"it is not seat {action.player}'s turn: {self.describe_turn()}")
        start = len(self.history)
        self._apply(action)
        self.actions.append(action)
        return self.history[start:]

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
    def view(self, player: int | None) -> dict[str, JSON]:
        """Exactly what ``player`` may see, as JSON-able data (``None``: a spectator)."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action written ``<seat> <action>`` in this game's notation."""

    @abc.abstractmethod
    def snapshot(self) -> dict[str, JSON]:
        """The complete state (hidden parts included) as plain data, for comparisons."""

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
        event = Event(kind, player, dict(data or {}), dict(secret or {}))
        self.history.append(event)
        return event

    def copy(self) -> GameState:
        """An independent deep copy (for search and what-if checks)."""
        return copy.deepcopy(self)

    def events_for(self, seat: int | None, last: int | None = None) -> list[dict[str, JSON]]:
        """The history as ``seat`` may see it (the last ``last`` events if given)."""
        events = self.history if last is None else self.history[-last:]
        return [e.seen_by(seat) for e in events]

    def split_seat(self, text: str) -> tuple[int, str]:
        """Split ``'<seat> rest'`` into the seat number and the rest."""
        head, _, rest = text.strip().partition(" ")
        if not head.isdigit():
            raise ParseError(f"an action starts with the seat number, e.g. '0 draw': got {text!r}")
        seat = int(head)
        if seat >= len(self.players):
            raise ParseError(f"there is no seat {seat} in a {len(self.players)}-player game")
        return seat, rest.strip()


@dataclass(frozen=True)
class GameInfo:
    """A registered game: its id, names, player range, options and constructors."""

    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    factory: Callable[[tuple[str, ...], int, dict[str, Any]], GameState]
    aliases: tuple[str, ...] = ()
    from_position: Callable[..., GameState] | None = None
    view_actions: Callable[[Mapping[str, Any]], list[Action]] | None = None
    rules_page: str = ""

    def new(
        self, *, players: int | Sequence[str] = 2, seed: int = 0, **options: Any
    ) -> GameState:
        """Start a game; ``players`` is a count or a list of names."""
        names = default_names(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise OptionError(
                f"{self.id} is for {self.min_players} to {self.max_players} players,"
                f" not {len(names)}"
            )
        check_seed(seed)
        return self.factory(names, seed, resolve_options(self.options, options))


def default_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """Player names from a count (``P1``, ``P2``...) or a list of names."""
    if isinstance(players, bool):
        raise OptionError("players must be a number of players or a list of names")
    if isinstance(players, int):
        return tuple(f"P{i + 1}" for i in range(players))
    if isinstance(players, str):
        raise OptionError("players must be a number of players or a list of names")
    names = tuple(str(p).strip() for p in players)
    for name in names:
        if not name or any(ch in name for ch in "\n\r|#"):
            raise OptionError(f"a player name must be non-empty, on one line and without '|' or '#': {name!r}")
    if len(set(names)) != len(names):
        raise OptionError(f"player names must differ: {', '.join(names)}")
    return names


def check_seed(seed: Any) -> int:
    """Accept a seed (a whole number 0..2**63-1) or raise :class:`OptionError`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"a seed is a whole number from 0 to {2**63 - 1}, got {seed!r}")
    return seed


_REGISTRY: dict[str, GameInfo] = {}
_ALIASES: dict[str, str] = {}


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry (done by each game module on import)."""
    _REGISTRY[info.id] = info
    for alias in (info.id, *info.aliases):
        _ALIASES[alias.lower()] = info.id
    return info


def find_game(game_id: str) -> GameInfo:
    """The registered game with this id or alias.

    >>> find_game('RUMMIKUB').id
    'rummikub'
    """
    _load_games()
    key = _ALIASES.get(str(game_id).strip().lower())
    if key is None:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGameError(f"unknown game {game_id!r}; the games are: {known}")
    return _REGISTRY[key]


def games() -> list[GameInfo]:
    """Every registered game, by id."""
    _load_games()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def new_game(game_id: str, *, players: int | Sequence[str] = 2, seed: int = 0, **options: Any) -> GameState:
    """Start a new game of ``game_id``.

    >>> state = new_game('rummikub', players=3, seed=1)
    >>> len(state.players), sorted(state.to_act) == [state.view(None)['turn']]
    (3, True)
    """
    return find_game(game_id).new(players=players, seed=seed, **options)


def _load_games() -> None:
    import rummykit.rulesets  # noqa: F401  (registers every game)
