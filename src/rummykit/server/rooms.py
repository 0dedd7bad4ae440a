"""A table being played on the server: its game state, seats, connections, bots and clock.

A :class:`Room` holds one game. Every change goes through :meth:`Room.act`
under the room's lock: the engine checks and applies the action, the store
writes it (and the new state's fingerprint) in one transaction, and only then
are the connections told. Bots and the turn clock act through the same path.
Nothing here knows a game: the game, its bots and its presenter come from the
catalogue, and every frame to a seat is built from that seat's view and the
events as that seat may see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import importlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.catalogue import find_game
from rummykit.engine.core import Action, Event, GameInfo, GameState
from rummykit.engine.driver import Agent, Claimer, claims_open, next_seat
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.presenters.base import Narrator, Presenter
from rummykit.presenters.registry import presenter_module
from rummykit.presenters.text import Style
from rummykit.rulesets.freetable import FreeTableGame, play_from_table
from rummykit.server import protocol as p
from rummykit.server.store import Store, StoredTable, StoreError, Writer, chain_next, chain_start
from rummykit.sim import bot_rng

log = logging.getLogger("rummykit.server")

LOG_TAIL = 100
"""Log lines a connection's first state frame carries."""

STYLE = Style(color=False, width=0)
HINT_LEVEL = "solver"
"""The bot level whose choice a hint frame suggests as an action, when the game has that level."""
SPECTATORS = -1
"""The audience key of spectators (seats are 0, 1, ...)."""
QUEUE_LIMIT = 256 * 1024
"""Characters of frames other than ``state`` one connection may have waiting to be sent; past it, it is given up."""
BEHIND = 1013
"""The close code (Try Again Later) of a connection given up for being too far behind: it may reconnect."""
WATCHDOG_EVERY = 5.0
"""Seconds between two looks of a table's watchdog for a bot that should be playing and is not."""


class RestoreError(RuntimeError):
    """A stored table does not replay to its stored snapshot (or cannot be replayed at all)."""


class Refusal(Exception):
    """A request refused with a rule id and a message (sent as an ``error`` frame)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


FINGERPRINT_EVERY = 16
"""A table's stored fingerprint is renewed after every this many actions, and after its last one."""


def fingerprint(state: GameState) -> str:
    """``<actions>:<digest>``: the number of actions applied and a BLAKE2b digest of the engine's complete state.

    The state is the game's ``snapshot()`` (hidden parts included) as canonical
    JSON. It costs milliseconds late in a game (the snapshot lists every
    action), so a room renews it only every :data:`FINGERPRINT_EVERY` actions
    and at the end; the count says where a restore must check it.
    """
    text = json.dumps(state.snapshot(), sort_keys=True, separators=(",", ":"), default=str)
    return f"{len(state.actions)}:{hashlib.blake2b(text.encode(), digest_size=24).hexdigest()}"


def legacy_fingerprint(state: GameState) -> str:
    """The SHA-256 form stored (after every action) by earlier servers, still checked on restore."""
    text = json.dumps(state.snapshot(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def fingerprint_due(seq: int, over: bool) -> bool:
    """Whether the action that brought a table to ``seq`` renews its stored fingerprint."""
    return over or seq % FINGERPRINT_EVERY == 0


def load_presenter(game_id: str) -> Presenter:
    """The game's presenter, by the catalogue's name for it."""
    presenter: Presenter = importlib.import_module(presenter_module(game_id)).PRESENTER
    return presenter


def clock_bot_level(game_id: str) -> str:
    """The bot level that moves for a person whose clock ran out: greedy when the game has it, else random."""
    levels = bot_levels(game_id)
    return "greedy" if "greedy" in levels else levels[0]


@dataclass
class Seat:
    """One seat: a person (with the hash of its token) or a bot."""

    kind: str
    name: str
    level: str | None
    token_hash: str | None
    agent: Agent | None = None
    rng: Rng | None = None
    joined: bool = False

    def record(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level, "token_hash": self.token_hash}


@dataclass
class Bucket:
    """A token bucket: ``capacity`` frames, refilled at ``rate`` per second."""

    capacity: float = 30.0
    rate: float = 15.0
    tokens: float = 30.0
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def refund(self) -> None:
        """Give back the token of a frame that played an accepted action (the game itself paces those)."""
        self.tokens = min(self.capacity, self.tokens + 1)


class Outbox:
    """The frames waiting to be sent on one connection, bounded whatever the reader does.

    A ``state`` frame supersedes the one still waiting, if any: a reader that
    is behind gets the latest state only, with the log lines of the frames it
    missed carried over (the last :data:`LOG_TAIL` of them). Other frames keep
    their order; when more than ``limit`` characters of them wait, the
    connection is given up: the box is emptied, takes nothing more, and
    :attr:`dropped` holds the close code (:data:`BEHIND`) the writer closes
    the connection with once it can. Frames are turned into JSON text only
    when they are taken, so a superseded frame costs nothing more.
    """

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.limit = limit
        self.items: deque[_Slot | str | None] = deque()
        self.state: _Slot | None = None
        """The slot of the state frame waiting, if any (it is in :attr:`items`)."""
        self.waiting = 0
        """Characters of the other frames waiting."""
        self.closed = False
        self.dropped: int | None = None
        self._getter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self.items)

    def put(self, frame: dict[str, Any]) -> None:
        """Queue a frame (nothing happens once the box is closed)."""
        if self.closed:
            return
        if frame.get("type") == "state":
            old = self.state
            if old is not None:
                # The waiting state frame is superseded; its log lines are not lost (the last LOG_TAIL kept).
                frame["log"] = (old.frame["log"] + frame["log"])[-LOG_TAIL:]
                if self.items[-1] is old:
                    self.items.pop()
                else:  # frames came after it: the newer state goes after them, as it would have
                    self.items.remove(old)
            self.state = _Slot(frame)
            self.items.append(self.state)
        else:
            text = json.dumps(frame, separators=(",", ":"))
            self.waiting += len(text)
            if self.waiting > self.limit:
                self.drop(BEHIND)
                return
            self.items.append(text)
        self._wake()

    def close(self) -> None:
        """No more frames: :meth:`get` returns None once those waiting are taken."""
        if not self.closed:
            self.closed = True
            self.items.append(None)
            self._wake()

    def drop(self, code: int) -> None:
        """Give the connection up: forget every waiting frame and take no more."""
        self.items.clear()
        self.items.append(None)
        self.state = None
        self.waiting = 0
        self.dropped = code
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        if self._getter is not None and not self._getter.done():
            self._getter.set_result(None)

    async def get(self) -> str | None:
        """The next frame as JSON text, waiting for one; None once closed (see :attr:`dropped`)."""
        while True:
            while self.items:
                item = self.items.popleft()
                if item is None:
                    return None
                if isinstance(item, _Slot):
                    self.state = None
                    return json.dumps(item.frame, separators=(",", ":"))
                self.waiting -= len(item)
                return item
            self._getter = asyncio.get_running_loop().create_future()
            try:
                await self._getter
            finally:
                self._getter = None


class _Slot:
    """The place in an :class:`Outbox` of its waiting state frame (compared by identity)."""

    __slots__ = ("frame",)

    def __init__(self, frame: dict[str, Any]) -> None:
        self.frame = frame


class Conn:
    """One WebSocket connection: its seat (None: spectator) and its bounded :class:`Outbox` of frames to send."""

    def __init__(self, seat: int | None, flood_rate: float = 15.0) -> None:
        self.seat = seat
        self.queue = Outbox()
        self.log_pos: int | None = None
        self.bucket = Bucket(capacity=2 * flood_rate, rate=flood_rate, tokens=2 * flood_rate)

    @property
    def audience(self) -> int:
        return SPECTATORS if self.seat is None else self.seat

    @property
    def dropped(self) -> bool:
        """True once the connection was given up for being too far behind."""
        return self.queue.dropped is not None

    def send(self, frame: dict[str, Any]) -> None:
        self.queue.put(frame)


class Room:
    """One table: the game state and everything around it."""

    def __init__(
        self,
        *,
        table_id: str,
        info: GameInfo,
        state: GameState,
        seats: list[Seat],
        clock: float | None,
        status: str,
        created: float,
        store: Store,
        writer: Writer | None = None,
        bot_delay: float = 0.0,
        chain: str | None = None,
    ) -> None:
        self.id = table_id
        self.info = info
        self.state = state
        self.seats = seats
        self.clock = clock
        self.status = status
        self.created = created
        self.store = store
        self.writer = writer or Writer(store)
        self.bot_delay = bot_delay
        self.presenter = load_presenter(info.id)
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.narrators: dict[int, Narrator] = {}
        self.logs: dict[int, list[str]] = {}
        self.narrated: dict[int, int] = {}
        self._new_narrators()
        self.deadline: tuple[int, float] | None = None
        self.declined: set[tuple[int, int]] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.driver: asyncio.Task[None] | None = None
        """The task letting the bots play, while it runs (see :meth:`kick`)."""
        self.watchdog: asyncio.Task[None] | None = None
        self.chain = chain or chain_start(table_id)
        """The chain hash after the last stored action (see ``store.chain_next``)."""
        self.on_change: Callable[[Room], None] | None = None

    # -- facts ---------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.state.actions)

    def seat_infos(self) -> list[p.SeatInfo]:
        connected = {c.seat for c in self.conns}
        return [
            p.SeatInfo(seat=i, kind=s.kind, name=s.name, level=s.level, connected=s.kind == "bot" or i in connected)  # type: ignore[arg-type]
            for i, s in enumerate(self.seats)
        ]

    def info_model(self) -> p.TableInfo:
        return p.TableInfo(
            table=self.id,
            game=self.info.id,
            status=self.status,  # type: ignore[arg-type]
            seats=self.seat_infos(),
            created=self.created,
            options=dict(self.state.options),
            clock=self.clock,
            seq=self.seq,
            spectators=sum(1 for c in self.conns if c.seat is None),
        )

    def describe(self) -> str:
        """The table's state in one line, for logs and test failures: who it waits for, and whether a bot is thinking."""
        state = self.state
        waiting = sorted(state.must_act)
        who = ", ".join(
            f"seat {s} ({self.seats[s].kind}{' ' + str(self.seats[s].level) if self.seats[s].level else ''})"
            for s in waiting
        ) or "nobody"
        driver = "a bot is thinking" if self._driving() else "no bot is thinking"
        return (
            f"table {self.id} ({self.info.id}, {self.status}, {self.seq} actions): waiting for {who}; {driver};"
            f" {len(self.conns)} connections"
        )

    def seat_for(self, token: str | None) -> int | None:
        """The seat a token opens (None for no token); :class:`Refusal` (TOKEN) when it opens none."""
        if token is None:
            return None
        given = token_hash(token)
        found: int | None = None
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, given):
                found = i
        if found is None:
            raise Refusal("TOKEN", "this seat token opens no seat of this table")
        return found

    def start(self) -> None:
        """Start the clock, the bots and the watchdog (in the running event loop)."""
        self._set_clock()
        self.kick()
        if self.watchdog is None:
            self.watchdog = asyncio.get_running_loop().create_task(self._watch())
            self.tasks.add(self.watchdog)
            self.watchdog.add_done_callback(self._done)

    # -- connections ---------------------------------------------------------------------

    async def join(self, conn: Conn) -> None:
        """Register a connection: welcome, then its first state frame."""
        async with self.lock:
            self.conns.add(conn)
            if conn.seat is not None:
                self.seats[conn.seat].joined = True
            conn.send(p.Welcome(seat=conn.seat, table=self.info_model()).model_dump(mode="json"))
            became_playing = False
            if self.status == "waiting" and all(s.joined for s in self.seats if s.kind == "person"):
                self.status = "playing"
                await asyncio.to_thread(self.store.set_status, self.id, "playing")
                became_playing = True
                self._set_clock()
            if became_playing:
                self._broadcast_state()
            else:
                self._send_state(conn)
                if self._first_of_seat(conn):
                    self._broadcast_seats(exclude=conn)
        if became_playing:
            self.kick()

    async def leave(self, conn: Conn) -> None:
        async with self.lock:
            if conn in self.conns:
                self.conns.discard(conn)
                if self._first_of_seat(conn):
                    self._broadcast_seats()
        conn.queue.close()

    def _first_of_seat(self, conn: Conn) -> bool:
        """Whether ``conn`` is its seat's only connection (so the seat's ``connected`` changes with it).

        A spectator changes nobody's state frame: telling every connection
        again of a spectator's coming and going cost each spectator's
        arrival or departure a frame to every other connection.
        """
        return conn.seat is not None and not any(c.seat == conn.seat for c in self.conns if c is not conn)

    # -- frames ----------------------------------------------------------------------------

    def _new_narrators(self) -> None:
        names = list(self.state.players)
        audiences = [SPECTATORS, *range(len(self.seats))]
        self.narrators = {a: self.presenter.narrator(names, STYLE) for a in audiences}
        self.logs = {a: [] for a in audiences}
        self.narrated = {a: 0 for a in audiences}

    def _catch_up(self, audience: int) -> None:
        """Tell an audience's narrator the events it has not heard yet (lazily: only when a frame needs them)."""
        history = self.state.history
        start = self.narrated[audience]
        if start >= len(history):
            return
        seat = None if audience == SPECTATORS else audience
        narrator = self.narrators[audience]
        lines = self.logs[audience]
        for event in history[start:]:
            lines.extend(narrator.describe(event.seen_by(seat)))
        self.narrated[audience] = len(history)

    def _seat_dicts(self) -> list[dict[str, Any]]:
        """:meth:`seat_infos` as the JSON a state frame carries, built without pydantic (it is on every frame)."""
        connected = {c.seat for c in self.conns}
        return [
            {"seat": i, "kind": s.kind, "name": s.name, "level": s.level,
             "connected": s.kind == "bot" or i in connected}
            for i, s in enumerate(self.seats)
        ]

    def _state_frame(self, conn: Conn, view: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
        self._catch_up(conn.audience)
        lines = self.logs[conn.audience]
        start = max(0, len(lines) - LOG_TAIL) if conn.log_pos is None else conn.log_pos
        conn.log_pos = len(lines)
        frame = {
            "type": "state",
            "seq": self.seq,
            "view": view,
            "log": lines[start:],
            "seats": seats,
            "clock": None if self.deadline is None else {"seat": self.deadline[0], "deadline": self.deadline[1]},
            "status": self.status,
        }
        return frame

    def _send_state(self, conn: Conn) -> None:
        conn.send(self._state_frame(conn, self.state.view(conn.seat), self._seat_dicts()))

    def _broadcast_state(self) -> None:
        seats = self._seat_dicts()
        views: dict[int, Any] = {}
        for conn in list(self.conns):
            if conn.dropped:  # given up for being too far behind: it gets nothing more
                self.conns.discard(conn)
                continue
            if conn.audience not in views:
                views[conn.audience] = self.state.view(conn.seat)
            conn.send(self._state_frame(conn, views[conn.audience], seats))
        if self.on_change is not None:
            self.on_change(self)

    def _broadcast_seats(self, exclude: Conn | None = None) -> None:
        """A seat connected or left: everyone gets a state frame (same seq, new seats)."""
        for conn in list(self.conns):
            if conn is not exclude:
                self._send_state(conn)

    def _round_frames(self, events: list[Event]) -> list[dict[str, Any]]:
        """The round frames of new events (a round or the match ended), from their public parts."""
        rounds: list[dict[str, Any]] = []
        names = list(self.state.players)
        for event in events:
            if event.kind == "round-end":
                public = event.seen_by(None)
                rounds.append(
                    p.Round(
                        round=_round_no(public, self.state.round_no),
                        match_over=bool(public.get("match_over")),
                        lines=self.presenter.round_end_lines(public, names, STYLE),
                    ).model_dump(mode="json")
                )
            elif event.kind == "match-end":
                public = event.seen_by(None)
                rounds.append(
                    p.Round(
                        round=_round_no(public, self.state.round_no),
                        match_over=True,
                        lines=self.presenter.outcome_lines(public, names, STYLE),
                    ).model_dump(mode="json")
                )
        return rounds

    # -- acting ----------------------------------------------------------------------------

    def read_action(self, seat: int, action: dict[str, Any] | str | None, text: str | None) -> Action:
        """The action a seat's frame names (JSON form, ``player`` defaulting to the seat, or text)."""
        try:
            if isinstance(action, dict):
                data = dict(action)
                data.setdefault("player", seat)
                if data["player"] != seat:
                    raise Refusal("TURN", f"this connection plays seat {seat}, not seat {data['player']!r}")
                return self.info.action_from_json(data)
            if isinstance(action, str):
                text = action
            if text is not None:
                # as a person types it: a game may read the screen's numbers against the seat's view
                return self.info.parse_typed(seat, text, self.state.view(seat))
        except RummykitError as exc:
            raise Refusal("PARSE", str(exc)) from None
        raise Refusal("PROTOCOL", "give the action as 'action' (its JSON form) or 'text'")

    async def act(self, seat: int, action: Action) -> None:
        """Apply a person's action (refusals raise :class:`Refusal`), then let bots play."""
        async with self.lock:
            if self.status == "waiting":
                raise Refusal("WAITING", "the table is waiting for its players to join")
            await self._apply(action)
        self.kick()

    async def _apply(self, action: Action) -> None:
        """Apply, store, then tell (the lock is held)."""
        start = len(self.state.history)
        try:
            self.state.apply(action)
        except RuleError as exc:
            raise Refusal(exc.rule, exc.reason) from None
        except RummykitError as exc:
            raise Refusal("PARSE", str(exc)) from None
        seq = self.seq
        over = self.state.outcome is not None
        text = str(action)
        chain = chain_next(self.chain, text)
        try:
            # The lock is held, so the state cannot change while another thread fingerprints it.
            snapshot = await asyncio.to_thread(fingerprint, self.state) if fingerprint_due(seq, over) else None
            await self.writer.write(
                table_id=self.id,
                seq=seq,
                action=text,
                chain=chain,
                snapshot=snapshot,
                spectator_view=self.state.view(None),
                status="over" if over else self.status,
                bot_draws=[s.rng.draws if s.rng is not None else 0 for s in self.seats],
            )
        except StoreError as exc:
            log.error("%s", exc)
            self._rebuild()
            raise Refusal("SERVER", "the server could not store this action; nothing was played") from None
        self.chain = chain
        if over:
            self.status = "over"
        rounds = self._round_frames(self.state.history[start:])
        self._set_clock()
        for frame in rounds:
            for conn in list(self.conns):
                conn.send(frame)
        self._broadcast_state()

    def _rebuild(self) -> None:
        """Put the state back to the actions the database holds (after a failed write)."""
        stored = [t for t in self.store.load(unfinished_only=False) if t.id == self.id]
        state = self.info.new(players=list(self.state.players), seed=self.state.seed, **dict(self.state.options))
        for text in stored[0].actions if stored else []:
            state.apply(self.info.parse_action(text))
        self.state = state
        self._new_narrators()

    def _set_clock(self) -> None:
        """Start (or stop) the turn clock for the person the game waits for."""
        self.deadline = None
        if self.clock is None or self.status != "playing":
            return
        seat = next_seat(self.state)
        if seat is None or self.seats[seat].kind != "person":
            return
        self.deadline = (seat, time.time() + self.clock)
        self._spawn(self._expire(self.seq, seat, self.clock))

    async def _expire(self, seq: int, seat: int, after: float) -> None:
        await asyncio.sleep(after)
        async with self.lock:
            if self.seq != seq or self.status != "playing" or next_seat(self.state) != seat:
                return
            bot = make_bot(clock_bot_level(self.info.id), self.info.id)
            rng = self.seats[seat].rng or bot_rng(self.state.seed, seat)
            action = await asyncio.to_thread(bot.choose, self.state.view(seat), rng)
            with contextlib.suppress(Refusal):
                await self._apply(action)
        self.kick()

    # -- bots ------------------------------------------------------------------------------

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: %s", self.id, task.exception(), exc_info=task.exception())

    def kick(self) -> None:
        """Let the bots play while the game waits for them (in a task; one at a time per table).

        A driver that has returned counts for nothing, even before its
        done-callback has run: only a running one stops another from starting.
        """
        if self.status == "playing" and not self._driving():
            self.driver = asyncio.get_running_loop().create_task(self._drive())
            self.tasks.add(self.driver)
            self.driver.add_done_callback(self._done)

    def _driving(self) -> bool:
        return self.driver is not None and not self.driver.done()

    async def _drive(self) -> None:
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if self.status != "playing" or self.state.outcome is not None:
                    return
                action = await self._bot_choice()
                if action is None:
                    return
                await self._apply(action)

    def bot_due(self) -> bool:
        """Whether a bot should be acting now: the bot the game waits for, or a bot's claim not yet declined."""
        state = self.state
        if self.status != "playing" or state.outcome is not None:
            return False
        if state.may_act:
            for seat in claims_open(state):
                if isinstance(self.seats[seat].agent, Claimer) and (seat, self.seq) not in self.declined:
                    return True
        waiting = next_seat(state)
        return waiting is not None and self.seats[waiting].agent is not None

    async def _watch(self) -> None:
        """Every :data:`WATCHDOG_EVERY` seconds: a table waiting for a bot that no driver moves is an error; restart it.

        It looks under the lock, so never between an action and the kick that
        follows it. What it catches is a driver that died (a bot or the
        database failing) or any path that changed the state and kicked no
        driver: the table would otherwise wait forever.
        """
        while self.status != "over":
            await asyncio.sleep(WATCHDOG_EVERY)
            async with self.lock:
                stalled = self.bot_due() and not self._driving()
                what = self.describe() if stalled else ""
            if stalled:
                log.error("%s: the table waits for a bot that is not thinking; starting its bots again", what)
                self.kick()

    async def _bot_choice(self) -> Action | None:
        """The driver's rule for the bots: claims first, then the bot the game waits for (None: a person)."""
        state = self.state
        if state.may_act:
            for seat in claims_open(state):
                agent = self.seats[seat].agent
                key = (seat, self.seq)
                if isinstance(agent, Claimer) and key not in self.declined:
                    rng = self.seats[seat].rng
                    assert rng is not None
                    claim = await asyncio.to_thread(agent.claim, state.view(seat), rng)
                    if claim is not None:
                        return claim
                    self.declined.add(key)
        waiting = next_seat(state)
        if waiting is None:
            return None
        agent = self.seats[waiting].agent
        rng = self.seats[waiting].rng
        if agent is None or rng is None:
            return None
        return await asyncio.to_thread(agent.choose, state.view(waiting), rng)

    # -- questions -------------------------------------------------------------------------

    async def check(self, seat: int, frame: p.Check) -> dict[str, Any]:
        """Would the engine accept this action (or this draft table) now? Nothing changes."""
        if frame.table is not None:
            return await self._check_table(seat, frame)
        action = self.read_action(seat, frame.action, frame.text)
        async with self.lock:
            trial = self.state.copy()
        try:
            await asyncio.to_thread(trial.apply, action)
        except RuleError as exc:
            return p.Checked(
                id=frame.id, ok=False, rule=exc.rule, message=exc.reason, sets=None, action=action.to_json()
            ).model_dump(mode="json")
        return p.Checked(id=frame.id, ok=True, rule=None, message=None, sets=None, action=action.to_json()).model_dump(
            mode="json"
        )

    async def _check_table(self, seat: int, frame: p.Check) -> dict[str, Any]:
        async with self.lock:
            trial = self.state.copy()
        if not isinstance(trial, FreeTableGame):
            raise Refusal("FREE-TABLE", f"{self.info.id} has no free table to draft; check an action instead")
        assert frame.table is not None
        try:
            table = [tuple(self.info.parse_piece(t) for t in s) for s in frame.table]
        except RummykitError as exc:
            raise Refusal("PARSE", str(exc)) from None
        sets: list[p.SetVerdict] = []
        for i, pieces in enumerate(table):
            verdict = trial.TABLE.check(pieces)
            sets.append(p.SetVerdict(index=i, ok=verdict.valid, rule=verdict.rule, message=verdict.reason))
        play = play_from_table(seat, trial.table, table)
        try:
            await asyncio.to_thread(trial.apply, play)
        except RuleError as exc:
            return p.Checked(
                id=frame.id, ok=False, rule=exc.rule, message=exc.reason, sets=sets, action=play.to_json()
            ).model_dump(mode="json")
        return p.Checked(id=frame.id, ok=True, rule=None, message=None, sets=sets, action=play.to_json()).model_dump(
            mode="json"
        )

    async def legal(self, seat: int, frame: p.Legal) -> dict[str, Any]:
        async with self.lock:
            trial = self.state.copy()
        actions = await asyncio.to_thread(trial.indexed_actions, seat)
        listed = [p.ListedAction(json=a.to_json(), text=a.text()) for a in actions[: p.MAX_LEGAL]]
        return p.LegalList(id=frame.id, actions=listed, truncated=len(actions) > p.MAX_LEGAL).model_dump(
            mode="json", by_alias=True
        )

    async def hint(self, seat: int, frame: p.Hint) -> dict[str, Any]:
        """The game's hint for the seat, from its own view; out of turn, the best play from the table as it stands.

        Out of turn the lines say so first, and the suggested action (the
        ``solver`` bot's choice, asked as if it were the seat's turn) is for
        when the turn comes, if the table has not changed by then. A game
        that is over, or a hint that cannot be worked out, gets a
        :class:`Refusal` saying why (an error frame), never a closed connection.
        """
        async with self.lock:
            state = self.state
            view = state.view(seat)
            over = state.outcome is not None
            yours = seat in state.to_act
            turn = state.describe_turn()
        if over:
            raise Refusal("GAME-OVER", "the game is over: there is no play left to hint")
        if not self.presenter.hint:
            raise Refusal("NO-HINT", f"no hint for {self.info.id} yet")
        suggestion: dict[str, Any] | None = None
        try:
            lines = list(await asyncio.to_thread(self.presenter.hint_lines, view))
            if HINT_LEVEL in bot_levels(self.info.id):
                # The game's strongest bot, choosing from this seat's view only, names the action.
                bot = make_bot(HINT_LEVEL, self.info.id)
                chosen = await asyncio.to_thread(bot.choose, view if yours else as_at_turn(view, seat), Rng(0))
                suggestion = chosen.to_json()
        except RummykitError as exc:
            raise Refusal("HINT", f"no hint now: {exc}") from None
        if not yours:
            lines.insert(
                0,
                f"It is not your turn ({turn}): this is the best play from the table as it is now;"
                " the table may change before your turn.",
            )
        return p.HintOut(id=frame.id, lines=lines, action=suggestion).model_dump(mode="json")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task


def as_at_turn(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seat's view with only the header changed to say it is that seat's turn (for a hint asked out of turn)."""
    return {**view, "turn": seat, "to_act": [seat], "must_act": [seat], "may_act": []}


def _round_no(event: dict[str, Any], default: int) -> int:
    value = event.get("round")
    return value if isinstance(value, int) else default


# -- making and restoring rooms ----------------------------------------------------------------


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def make_seats(info: GameInfo, seats: list[dict[str, Any]], seed: int, draws: list[int] | None = None) -> list[Seat]:
    """Seats from their stored form, each with a bot (bots) and a generator (all seats, for the clock)."""
    out: list[Seat] = []
    for i, s in enumerate(seats):
        agent = make_bot(s["level"], info.id) if s["kind"] == "bot" else None
        rng = bot_rng(seed, i)
        if draws is not None and i < len(draws) and draws[i]:
            rng.skip(draws[i])
        out.append(Seat(s["kind"], s["name"], s["level"], s["token_hash"], agent=agent, rng=rng))
    return out


def restore(stored: StoredTable, store: Store, bot_delay: float = 0.0, writer: Writer | None = None) -> Room:
    """A room from the database: replay its actions and check the stored snapshot (:class:`RestoreError`)."""
    if len(stored.actions) != stored.seq:
        raise RestoreError(f"table {stored.id}: {len(stored.actions)} actions stored but the table says {stored.seq}")
    # Where the stored fingerprint was taken: ``<actions>:<digest>``, or (earlier servers) a SHA-256 after all.
    count, colon, _ = stored.snapshot.partition(":")
    at = int(count) if colon and count.isdigit() else stored.seq
    if at > stored.seq:
        raise RestoreError(f"table {stored.id}: its snapshot is after action {at} but only {stored.seq} are stored")
    mismatch = RestoreError(f"table {stored.id} does not replay to its stored snapshot (after {at} actions)")
    check_chain(stored)

    def matches(state: GameState) -> bool:
        return (fingerprint(state) if colon else legacy_fingerprint(state)) == stored.snapshot

    try:
        info = find_game(stored.game)
        names = [s["name"] for s in stored.seats]
        state = info.new(players=names, seed=stored.seed, **stored.options)
        for number, text in enumerate(stored.actions, 1):
            if number - 1 == at and not matches(state):
                raise mismatch
            try:
                state.apply(info.parse_action(text))
            except RummykitError as exc:
                raise RestoreError(f"table {stored.id}: action {number} ({text!r}) does not replay: {exc}") from None
    except RummykitError as exc:
        raise RestoreError(f"table {stored.id}: cannot set the game up again: {exc}") from None
    if at == stored.seq and not matches(state):
        raise mismatch
    seats = make_seats(info, stored.seats, stored.seed, stored.bot_draws)
    status = stored.status
    if status == "playing":
        for seat in seats:
            seat.joined = True
    room = Room(
        table_id=stored.id,
        info=info,
        state=state,
        seats=seats,
        clock=stored.clock,
        status=status,
        created=stored.created,
        store=store,
        writer=writer,
        bot_delay=bot_delay,
        chain=stored.chain,
    )
    return room


def check_chain(stored: StoredTable) -> None:
    """Every stored action is the one written there: its row's chain hash, and the table's, match (:class:`RestoreError`).

    Each action row holds the hash of the previous row's hash and its own
    action text (the first from :func:`~rummykit.server.store.chain_start`),
    and the table row the last one, so any change to any stored action
    (even a legal one after the last fingerprint) breaks the chain there.
    """
    head = chain_start(stored.id)
    for number, (text, chain) in enumerate(zip(stored.actions, stored.chains, strict=True), 1):
        head = chain_next(head, text)
        if chain != head:
            raise RestoreError(
                f"table {stored.id}: action {number} ({text!r}) is not the action stored there"
                " (its chain hash does not match: the record was changed after it was written)"
            )
    if stored.chain != head:
        raise RestoreError(
            f"table {stored.id}: its chain hash does not match its {len(stored.actions)} stored actions"
            " (the record was changed after it was written)"
        )
