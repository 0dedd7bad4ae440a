"""A table being played on the server: its game session, seats, connections and frames.

A :class:`Room` holds one game as a :class:`~rummykit.session.GameSession`
(the state, the bots of the bot seats, every seat's generator). Every change
goes through :meth:`Room.apply` under the room's lock: the session checks
(a stale action is refused ``STALE``) and the engine applies the action, the
store writes it (and the new state's fingerprint) in one transaction, and
only then are the connections told. Bots and the turn clock act through the
same path (:mod:`rummykit.server.driving`); questions that change nothing are
answered in :mod:`rummykit.server.questions`. Nothing here knows a game: the
game, its bots and its presenter come from the catalogue, and every frame to
a seat is built from that seat's view and the events as that seat may see
them.
"""

from __future__ import annotations

import asyncio
import hmac
import importlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from rummykit.bots.registry import make_bot
from rummykit.engine.core import Action, Event, GameInfo, GameState, ViewHeader
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.presenters.base import Presenter
from rummykit.presenters.registry import presenter_module
from rummykit.presenters.text import Style
from rummykit.server import protocol as p
from rummykit.server import questions
from rummykit.server.driving import Driver, person_asked
from rummykit.server.frames import (
    CheckedFrame,
    HintFrame,
    LegalFrame,
    LegalJSON,
    RoundFrame,
    SeatJSON,
    SeatKind,
    StateFrame,
    Status,
    WelcomeFrame,
)
from rummykit.server.integrity import (
    RestoreError,
    fingerprint,
    fingerprint_due,
    token_hash,
)
from rummykit.server.names import table_name
from rummykit.server.outbox import BEHIND, LOG_TAIL, SPECTATORS, Conn, Outbox
from rummykit.server.refusals import Refusal, error_frame
from rummykit.server.store import SeatRow, Store, StoreError, chain_next, chain_start
from rummykit.server.telling import Teller
from rummykit.server.writer import Writer
from rummykit.session import GameSession, StaleAction
from rummykit.sim import bot_rng

__all__ = [
    "BEHIND",
    "LOG_TAIL",
    "Conn",
    "Outbox",
    "Refusal",
    "RestoreError",
    "Room",
    "Seat",
    "fingerprint",
    "rngs_at",
    "token_hash",
]

log = logging.getLogger("rummykit.server")

STYLE = Style(color=False, width=0)


def load_presenter(game_id: str) -> Presenter:
    """The game's presenter, by the catalogue's name for it."""
    presenter: Presenter = importlib.import_module(presenter_module(game_id)).PRESENTER
    return presenter


@dataclass
class Seat:
    """One seat as the table shows it: a person (with the hash of its token) or a bot (its level)."""

    kind: SeatKind
    name: str
    level: str | None
    token_hash: str | None
    joined: bool = False

    def record(self) -> SeatRow:
        return {"kind": self.kind, "name": self.name, "level": self.level, "token_hash": self.token_hash}


class Room:
    """One table: the game session and everything around it."""

    def __init__(
        self,
        *,
        table_id: str,
        info: GameInfo,
        session: GameSession,
        seats: list[Seat],
        clock: float | None,
        status: Status,
        created: float,
        store: Store,
        writer: Writer | None = None,
        bot_delay: float = 0.0,
        chain: str | None = None,
        name: str | None = None,
        host: str | None = None,
    ) -> None:
        self.id = table_id
        self.name = name or table_name(table_id)
        self.host = host
        """The hash of the host token (None: nobody hosts this table)."""
        self.touched = time.time()
        """When the table was last touched: made or restored, a connection opened or closed, an action applied."""
        self.shut = False
        """True once the table is closed (by its host, or expired): it takes no action and drives no bot."""
        self.info = info
        self.session = session
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
        self.teller = Teller(self.presenter, STYLE, session)
        """Each audience's log, and the position's views and legal actions (made once per position)."""
        self.driver = Driver(self)
        self.chain = chain or chain_start(table_id)
        """The chain hash after the last stored action (see ``store.chain_next``)."""
        self.told: tuple[int, int, bool] | None = None
        """The person the last state frames said is asked (seq, seat, claim), or None (see :meth:`tell_asked`)."""
        self.texts: list[str] = []
        """The record text (``str``) of each action of the game, in order, for its fingerprints (worked out again
        from the state when it does not count as many: after a restore or a failed write)."""

    # -- facts ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.session.state

    @property
    def seq(self) -> int:
        return self.session.seq

    def seat_infos(self) -> list[p.SeatInfo]:
        return [p.SeatInfo.model_validate(seat) for seat in self._seat_dicts()]

    def info_model(self) -> p.TableInfo:
        return p.TableInfo(
            table=self.id,
            name=self.name,
            game=self.info.id,
            status=self.status,
            seats=self.seat_infos(),
            created=self.created,
            options=dict(self.state.options),
            clock=self.clock,
            seq=self.seq,
            spectators=sum(1 for c in self.conns if c.seat is None),
            draft=self.info.draft,
            hint=self.presenter.hint,
            jokers=list(self.info.wild_pieces),
        )

    def describe(self) -> str:
        """The table's state in one line, for logs and test failures: who it waits for, and whether a bot is thinking."""
        state = self.state
        waiting = sorted(state.must_act)
        who = ", ".join(
            f"seat {s} ({self.seats[s].kind}{' ' + str(self.seats[s].level) if self.seats[s].level else ''})"
            for s in waiting
        ) or "nobody"
        ask = self.session.ask()
        asked = "nobody" if ask is None else f"seat {ask.seat}{' out of turn' if ask.claim else ''}"
        driver = "a bot is thinking" if self.driver.driving() else "no bot is thinking"
        return (
            f"table {self.id} ({self.info.id}, {self.status}, {self.seq} actions): waiting for {who}; asking {asked};"
            f" {driver}; {len(self.conns)} connections"
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
        self.driver.start()

    def kick(self) -> None:
        """Let the bots play while the game waits for them (see :meth:`Driver.kick <rummykit.server.driving.Driver.kick>`)."""
        if not self.shut:
            self.driver.kick()

    def hosted_by(self, token: str) -> bool:
        """Whether ``token`` is this table's host token."""
        return self.host is not None and hmac.compare_digest(self.host, token_hash(token))

    async def hand_to_bot(self, seat: int, level: str) -> None:
        """A person's seat becomes a bot of ``level``: the seat's token opens nothing from now on, and the game goes on.

        The seat's connections are told and closed; a table that waited only
        for that person starts. :class:`Refusal` when the seat is not a
        person's or the game is over.
        """
        async with self.lock:
            if self.shut or self.status == "over":
                raise Refusal("OVER", "the game at this table is over: its seats stay as they are")
            if not 0 <= seat < len(self.seats):
                raise Refusal("SEATS", f"this table has seats 1 to {len(self.seats)}, not seat {seat + 1}")
            old = self.seats[seat]
            if old.kind != "person":
                raise Refusal("SEATS", f"seat {seat + 1} ({old.name}) is a bot already")
            bot = make_bot(level, self.info.id)
            rows = [s.record() for s in self.seats]
            rows[seat] = {"kind": "bot", "name": old.name, "level": level, "token_hash": None}
            await asyncio.to_thread(self.store.set_seats, self.id, rows)
            self.seats[seat] = Seat("bot", old.name, level, None, joined=True)
            self.session.bots[seat] = bot
            self.touched = time.time()
            for conn in [c for c in self.conns if c.seat == seat]:
                self.conns.discard(conn)
                conn.send(error_frame("TOKEN", f"the host handed seat {seat + 1} ({old.name}) to a bot; this link opens no seat now"))
                conn.queue.close(code=1000)
            if self.status == "waiting" and all(s.joined for s in self.seats if s.kind == "person"):
                self.status = "playing"
                await asyncio.to_thread(self.store.set_status, self.id, "playing")
            self.driver.set_clock()
            self._broadcast_state()
        self.kick()

    async def shut_down(self, message: str) -> None:
        """Close the table: every connection gets ``message`` (rule ``TABLE``) and is closed; no bot plays on."""
        async with self.lock:
            self.shut = True
            for task in list(self.driver.tasks):  # none of them can be between an action and its frames: the lock is held
                task.cancel()
            for conn in list(self.conns):
                conn.send(error_frame("TABLE", message))
                conn.queue.close(code=1000)
            self.conns.clear()
        await self.driver.close()

    def bot_due(self) -> bool:
        """Whether a bot should be acting now."""
        return self.driver.bot_due()

    # -- connections ---------------------------------------------------------------------

    async def join(self, conn: Conn) -> None:
        """Register a connection: welcome, then its first state frame."""
        async with self.lock:
            if self.shut:  # closed while this connection said hello
                conn.send(error_frame("TABLE", f"table {self.name} was closed"))
                conn.queue.close(code=1000)
                return
            self.touched = time.time()
            self.conns.add(conn)
            if conn.seat is not None:
                self.seats[conn.seat].joined = True
            welcome = p.Welcome(seat=conn.seat, table=self.info_model())
            conn.send(cast("WelcomeFrame", welcome.model_dump(mode="json")))
            became_playing = False
            if self.status == "waiting" and all(s.joined for s in self.seats if s.kind == "person"):
                self.status = "playing"
                await asyncio.to_thread(self.store.set_status, self.id, "playing")
                became_playing = True
                self.driver.set_clock()
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
            self.touched = time.time()
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

    def _seat_dicts(self) -> list[SeatJSON]:
        """The seats as the JSON a state frame carries, built without pydantic (it is on every frame)."""
        connected = {c.seat for c in self.conns}
        return [
            {"seat": i, "kind": s.kind, "name": s.name, "level": s.level,
             "connected": s.kind == "bot" or i in connected}
            for i, s in enumerate(self.seats)
        ]

    def _asked(self) -> tuple[int, int, bool] | None:
        """The person the session asks now, while the table plays: (seq, seat, claim), or None."""
        return person_asked(self.session) if self.status == "playing" else None

    def _state_frame(
        self,
        conn: Conn,
        view: ViewHeader,
        seats: list[SeatJSON],
        legal: LegalJSON | None,
        asked: tuple[int, int, bool] | None,
    ) -> StateFrame:
        lines = self.teller.lines(conn.audience)
        start = max(0, len(lines) - LOG_TAIL) if conn.log_pos is None else conn.log_pos
        conn.log_pos = len(lines)
        deadline = self.driver.deadline
        return {
            "type": "state",
            "seq": self.seq,
            "view": view,
            "log": lines[start:],
            "seats": seats,
            "clock": None if deadline is None else {"seat": deadline[0], "deadline": deadline[1]},
            "status": self.status,
            "legal": legal,
            "asked": {"claim": asked[2]} if asked is not None and asked[1] == conn.seat else None,
        }

    def _view(self, audience: int) -> ViewHeader:
        """The audience's view of the position (made once per position: read-only)."""
        return self.teller.view(audience, self.seq, self.status)

    def _legal(self, seat: int | None) -> LegalJSON | None:
        """The seat's legal actions for its state frame (None for a spectator; none while the table waits)."""
        return self.teller.legal(seat, self.seq, self.status)

    def _send_state(self, conn: Conn) -> None:
        frame = self._state_frame(conn, self._view(conn.audience), self._seat_dicts(), self._legal(conn.seat), self._asked())
        conn.send(frame)

    def _broadcast_state(self) -> None:
        seats = self._seat_dicts()
        asked = self.told = self._asked()
        self.teller.prepare((c.audience for c in self.conns), self.seq, self.status)
        views: dict[int, tuple[ViewHeader, LegalJSON | None]] = {}
        for conn in list(self.conns):
            if conn.dropped:  # given up for being too far behind: it gets nothing more
                self.conns.discard(conn)
                continue
            if conn.audience not in views:
                views[conn.audience] = (self._view(conn.audience), self._legal(conn.seat))
            view, legal = views[conn.audience]
            conn.send(self._state_frame(conn, view, seats, legal, asked))

    def _broadcast_seats(self, exclude: Conn | None = None) -> None:
        """A seat connected or left: everyone gets a state frame (same seq, new seats)."""
        for conn in list(self.conns):
            if conn is not exclude:
                self._send_state(conn)

    def _round_frames(self, events: list[Event]) -> list[RoundFrame]:
        """The round frames of new events (a round or the match ended), from their public parts."""
        rounds: list[RoundFrame] = []
        names = list(self.state.players)
        for event in events:
            if event.kind not in ("round-end", "match-end"):
                continue
            public = event.seen_by(None)
            over = event.kind == "match-end"
            frame = p.Round(
                round=_round_no(public, self.state.round_no),
                match_over=over or bool(public.get("match_over")),
                lines=(self.presenter.outcome_lines if over else self.presenter.round_end_lines)(public, names, STYLE),
            )
            rounds.append(cast("RoundFrame", frame.model_dump(mode="json")))
        return rounds

    # -- acting ----------------------------------------------------------------------------

    def refusal(self, exc: RuleError, seat: int | None) -> Refusal:
        """The engine's refusal as the seat is told it (positions from 1, seats by name)."""
        return Refusal.of(exc, list(self.state.players), seat)

    def read_action(self, seat: int, action: Mapping[str, object] | str | None, text: str | None) -> Action:
        """The action a seat's frame names (JSON form, ``player`` defaulting to the seat, or text)."""
        try:
            if isinstance(action, Mapping):
                data = dict(action)
                data.setdefault("player", seat)
                if data["player"] != seat:
                    raise Refusal("TURN", f"this connection plays seat {seat}, not seat {data['player']!r}")
                listed = self.teller.listed_action(seat, data)  # an action as it was listed: read already
                return listed if listed is not None else self.info.action_from_json(data)
            if isinstance(action, str):
                text = action
            if text is not None:
                # as a person types it: a game may read the screen's numbers against the seat's view
                return self.info.parse_typed(seat, text, self.state.view(seat))
        except RummykitError as exc:
            raise Refusal("PARSE", str(exc)) from None
        raise Refusal("PROTOCOL", "give the action as 'action' (its JSON form) or 'text'")

    async def play(self, seat: int, frame: p.Act) -> None:
        """A seat's ``act`` frame: read its action and apply it, refused ``STALE`` if made against an old ``seq``.

        The ``seq`` is looked at before the action is read, since a typed
        action may name pieces by their place in the seat's view as it was.
        """
        if frame.seq is not None and frame.seq != self.seq:
            raise self.refusal(StaleAction(frame.seq, self.seq), seat)
        await self.act(seat, self.read_action(seat, frame.action, frame.text), seq=frame.seq)

    async def act(self, seat: int, action: Action, seq: int | None = None) -> None:
        """Apply a person's action (refusals raise :class:`Refusal`), then let bots play."""
        async with self.lock:
            if self.status == "waiting":
                raise Refusal("WAITING", "the table is waiting for its players to join")
            await self.apply(action, seq=seq, seat=seat)
        self.kick()

    async def let_pass(self, seat: int, frame: p.Pass) -> None:
        """A seat's ``pass`` frame: it lets the chance out of turn it is asked about pass; the session goes on.

        Refused ``STALE`` when made against an old ``seq``, ``NOT-ASKED`` when
        the seat is not being asked about a chance out of turn now.
        """
        async with self.lock:
            if self.status == "waiting":
                raise Refusal("WAITING", "the table is waiting for its players to join")
            if frame.seq != self.seq:
                raise self.refusal(StaleAction(frame.seq, self.seq), seat)
            asked = self._asked()
            if asked is None or asked[1] != seat or not asked[2]:
                raise Refusal("NOT-ASKED", "you are not being asked about a chance to act out of turn now")
            self.session.let_pass(seat)
            self.tell_asked()
        self.kick()

    def tell_asked(self) -> None:
        """Who is asked changed with no action (a chance let pass): run its clock, and tell the seats (under the lock).

        Every connection gets a state frame (the same ``seq``) when the person
        asked differs from what the last state frames said, so the seat asked
        now knows it, and the seat no longer asked stops offering its chance.
        """
        self.driver.set_clock()
        if self._asked() != self.told:
            self._broadcast_state()

    async def apply(self, action: Action, *, seq: int | None = None, seat: int | None = None) -> None:
        """Apply, store, then tell (the lock is held); :class:`Refusal` worded for ``seat`` when refused.

        With ``seq``, an action made against another position is refused
        ``STALE``. When the store fails the game is put back to what the
        database holds, every generator where it stood before, so the bots
        choose again exactly as a restored table would.
        """
        if self.shut:
            raise Refusal("TABLE", "this table was closed")
        session = self.session
        start = len(self.state.history)
        settled = list(session.settled)
        try:
            session.apply(action, seq=seq)
        except RuleError as exc:
            raise self.refusal(exc, seat) from None
        except RummykitError as exc:
            raise Refusal("PARSE", str(exc)) from None
        seq = self.seq
        over = self.state.outcome is not None
        text = self.teller.record_text(action)
        chain = chain_next(self.chain, text)
        texts = self.texts
        if len(texts) == len(self.state.actions) - 1:
            texts.append(text)
        else:  # restored, or rebuilt: written again from the state once
            texts[:] = [str(a) for a in self.state.actions]

        def tell() -> None:  # once committed, in the event loop: the connections are told (the lock still held)
            self.chain = chain
            self.touched = time.time()
            if over:
                self.status = "over"
            rounds = self._round_frames(self.state.history[start:])
            self.driver.set_clock()
            for frame in rounds:
                for conn in list(self.conns):
                    conn.send(frame)
            self._broadcast_state()

        try:
            self.teller.prepare([SPECTATORS, *(c.audience for c in self.conns)], seq, self.status)
            # The lock is held until the write returns, so the state cannot change while the writer's
            # thread fingerprints it (with the batch it writes: no hand-over of its own).
            state = self.state
            await self.writer.write(
                snapshot_of=(lambda: fingerprint(state, texts)) if fingerprint_due(seq, over) else None,
                then=tell,
                table_id=self.id,
                seq=seq,
                action=text,
                chain=chain,
                snapshot=None,
                spectator_view=self._view(SPECTATORS),
                status="over" if over else self.status,
                bot_draws=list(session.settled),
            )
        except StoreError as exc:
            log.error("%s", exc)
            self._rebuild(settled)
            raise Refusal("SERVER", "the server could not store this action; nothing was played") from None

    def _rebuild(self, draws: list[int]) -> None:
        """Put the game back to the actions the database holds, each generator at ``draws`` (after a failed write)."""
        stored = [t for t in self.store.load(unfinished_only=False) if t.id == self.id]
        state = self.info.new(players=list(self.state.players), seed=self.state.seed, **dict(self.state.options))
        for text in stored[0].actions if stored else []:
            state.apply(self.info.parse_action(text))
        session = self.session
        session.state = state
        session.rngs = rngs_at(state.seed, draws)
        session.settled = list(draws)
        self.texts = [str(a) for a in state.actions]
        self.teller = Teller(self.presenter, STYLE, session)

    # -- questions (see rummykit.server.questions) -------------------------------------------

    async def check(self, seat: int, frame: p.Check) -> CheckedFrame:
        """Would the engine accept this action (or this draft table) now? Nothing changes."""
        return await questions.check(self, seat, frame)

    async def legal(self, seat: int, frame: p.Legal) -> LegalFrame:
        """The seat's legal actions (the list its state frames carry)."""
        return await questions.legal(self, seat, frame)

    async def hint(self, seat: int, frame: p.Hint) -> HintFrame:
        """The game's hint for the seat (see :func:`rummykit.server.questions.hint`)."""
        return await questions.hint(self, seat, frame)

    async def close(self) -> None:
        await self.driver.close()


def _round_no(event: Mapping[str, object], default: int) -> int:
    value = event.get("round")
    return value if isinstance(value, int) else default


def rngs_at(seed: int, draws: list[int] | None, seats: int | None = None) -> list[Rng]:
    """Every seat's generator (:func:`~rummykit.sim.bot_rng`), each moved on by its count in ``draws``."""
    count = len(draws) if seats is None and draws is not None else seats or 0
    rngs: list[Rng] = []
    for i in range(count):
        rng = bot_rng(seed, i)
        if draws is not None and i < len(draws) and draws[i]:
            rng.skip(draws[i])
        rngs.append(rng)
    return rngs
