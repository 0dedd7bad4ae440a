"""A protocol client that plays one seat with a bot: for tests, the benchmark, and as an example.

:func:`play_seat` connects to ``/ws/{table}``, says hello with the seat's
token and answers every state frame in which the table asks the seat (its
turn, or a chance out of turn: the frame's ``asked``) with the bot's choice, sent as the action's JSON
with the ``seq`` it was made against (so one that lost a race is refused
``STALE``); a chance the bot does not take is let pass (a ``pass`` frame). It returns every
frame it received, and the latency of each accepted action (from sending it
to receiving the state frame that carries it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import orjson
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from rummykit.bots.registry import make_bot
from rummykit.engine.driver import Claimer
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.server.frames import ErrorFrame, ServerFrameJSON


@dataclass
class SeatRun:
    """What one seat's client saw: every frame, and the latency of each of its accepted actions."""

    frames: list[ServerFrameJSON] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)
    """When (``time.perf_counter()``) each action of ``latencies`` was sent."""
    errors: list[ErrorFrame] = field(default_factory=list)


async def play_seat(
    url: str,
    token: str | None,
    *,
    game: str,
    level: str = "random",
    seed: int = 0,
    timeout: float = 60.0,
    on_frame: Callable[[ServerFrameJSON], None] | None = None,
    headers: dict[str, str] | None = None,
    run: SeatRun | None = None,
    keep_frames: bool = True,
    think: float = 0.0,
    inline: bool = False,
) -> SeatRun:
    """Play the seat ``token`` opens (watch with None) at ``url`` (``ws://host:port/ws/<table>``) to the end.

    ``run`` is filled as frames arrive (so a caller that cancels the play keeps
    what was measured); ``keep_frames`` False keeps only latencies and errors;
    ``think`` is how long the seat waits before each action, like a person would;
    ``inline`` runs the bot's choice in the event loop rather than a worker thread
    (for a bot that chooses in well under a millisecond, such as ``random``: the
    benchmark's hundreds of seats then cost no thread hand-over per action).
    """
    run = run if run is not None else SeatRun()
    bot = make_bot(level, game)
    rng = Rng(seed)
    async with websockets.connect(url, max_size=2**22, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        answered = -1
        sent: tuple[int, float] | None = None
        last: str | None = None
        while True:
            async with asyncio.timeout(timeout):  # a timer, not a task per frame (as wait_for makes)
                raw = await ws.recv()
            frame: ServerFrameJSON = orjson.loads(raw)
            if keep_frames:
                run.frames.append(frame)
            if on_frame is not None:
                on_frame(frame)
            if frame["type"] == "error":
                run.errors.append(frame)
                if frame["rule"] in ("TOKEN", "TABLE"):
                    return run
                if frame["rule"] == "FLOOD" and last is not None:
                    await asyncio.sleep(0.2)
                    await ws.send(last)
                continue
            if frame["type"] != "state":
                continue
            seq = frame["seq"]
            if sent is not None and seq > sent[0]:
                run.latencies.append(time.perf_counter() - sent[1])
                run.sent_at.append(sent[1])
                sent = None
            if frame["status"] == "over":
                return run
            view = frame["view"]
            seat = view["seat"]
            if seat is None or frame["status"] != "playing" or answered == seq:
                continue
            asked = frame["asked"]
            if asked is None:  # the table asks another seat now
                continue
            action = None
            if not asked["claim"]:
                action = bot.choose(view, rng) if inline else await asyncio.to_thread(bot.choose, view, rng)
            elif isinstance(bot, Claimer):
                action = bot.claim(view, rng) if inline else await asyncio.to_thread(bot.claim, view, rng)
            answered = seq
            if action is None:  # the table waits for the answer: let the chance pass
                await ws.send(json.dumps({"type": "pass", "seq": seq}))
                continue
            if think:
                await asyncio.sleep(think)
            sent = (seq, time.perf_counter())
            last = json.dumps({"type": "act", "action": action.to_json(), "seq": seq})
            await ws.send(last)


async def play_listed(
    url: str,
    token: str,
    *,
    seed: int = 0,
    timeout: float = 60.0,
    run: SeatRun | None = None,
    think: float = 0.0,
) -> SeatRun:
    """Play the seat ``token`` opens at ``url`` to the end, choosing uniformly among the actions its frames list.

    The benchmark's lean client (``bench/bench_server.py``): a WebSocket
    client (``websockets``' sans-I/O protocol, frames masked as a client's
    are) driven from the event loop's callbacks, with no coroutine, task or
    timer per frame. It reads every frame it is sent as JSON, acts only when
    a state frame asks its seat, and then sends back the JSON form of one of
    the frame's ``legal`` actions, chosen uniformly (a chance out of turn is
    taken on a coin toss, else let pass), with the frame's ``seq``: the
    server checks it as it checks any action. What it measures is what
    :func:`play_seat` measures (latencies, errors; no frames kept).
    """
    loop = asyncio.get_running_loop()
    seat = _ListedSeat(url, token, Rng(seed), run if run is not None else SeatRun(), think, timeout, loop)
    uri = parse_uri(url)
    transport, _ = await loop.create_connection(lambda: seat, uri.host, uri.port)
    try:
        return await seat.done
    finally:
        transport.close()


class _ListedSeat(asyncio.Protocol):
    """The connection of :func:`play_listed`: its WebSocket protocol and the seat's play, in callbacks."""

    def __init__(
        self, url: str, token: str, rng: Rng, run: SeatRun, think: float, timeout: float,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.token = token
        self.rng = rng
        self.run = run
        self.think = think
        self.timeout = timeout
        self.loop = loop
        self.done: asyncio.Future[SeatRun] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.answered = -1
        self.sent: tuple[int, float] | None = None
        self.last: bytes | None = None
        self.heard = loop.time()
        self.watch = loop.call_later(timeout, self._watch)

    # -- the connection --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast("asyncio.Transport", transport)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        ws = self.ws
        ws.receive_data(data)
        for event in ws.events_received():
            if isinstance(event, Frame):
                if event.opcode is Opcode.TEXT or event.opcode is Opcode.BINARY:
                    self.heard = self.loop.time()
                    try:
                        self._frame(orjson.loads(event.data))
                    except Exception as exc:  # a frame it cannot read or answer: the play ends with it
                        self._end(exc)
                elif event.opcode is Opcode.CLOSE:
                    self._end(None)
            elif isinstance(event, Response):
                if ws.handshake_exc is not None:
                    self._end(ws.handshake_exc)
                else:
                    self._send({"type": "hello", "token": self.token})
        if ws.parser_exc is not None:
            self._end(ws.parser_exc)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(exc if exc is not None else ConnectionError("the server closed the connection"))

    def _flush(self) -> None:
        out = self.ws.data_to_send()
        if out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(out))

    def _send(self, frame: object) -> bytes:
        text = orjson.dumps(frame)
        self._write(text)
        return text

    def _write(self, text: bytes) -> None:
        self.ws.send_text(text)
        self._flush()

    def _watch(self) -> None:
        idle = self.loop.time() - self.heard
        if idle >= self.timeout:
            self._end(TimeoutError(f"no frame for {idle:.0f} s"))
        else:
            self.watch = self.loop.call_later(self.timeout - idle, self._watch)

    def _end(self, exc: BaseException | None) -> None:
        """The play is over: the seat's run, or ``exc``; the connection closed."""
        self.watch.cancel()
        if not self.done.done():
            if exc is None:
                self.done.set_result(self.run)
            else:
                self.done.set_exception(exc)
        if self.transport is not None and not self.transport.is_closing():
            with contextlib.suppress(Exception):
                self.ws.send_close()
                self._flush()
            self.transport.close()

    # -- the seat --------------------------------------------------------------------------

    def _frame(self, frame: ServerFrameJSON) -> None:
        run = self.run
        if frame["type"] == "error":
            run.errors.append(frame)
            if frame["rule"] in ("TOKEN", "TABLE"):
                self._end(None)
            elif frame["rule"] == "FLOOD" and self.last is not None:
                self.loop.call_later(0.2, self._write, self.last)
            return
        if frame["type"] != "state":
            return
        seq = frame["seq"]
        sent = self.sent
        if sent is not None and seq > sent[0]:
            run.latencies.append(time.perf_counter() - sent[1])
            run.sent_at.append(sent[1])
            self.sent = None
        if frame["status"] == "over":
            self._end(None)
            return
        asked = frame["asked"]
        if frame["view"]["seat"] is None or frame["status"] != "playing" or self.answered == seq or asked is None:
            return
        self.answered = seq
        legal = frame["legal"]
        listed = legal["actions"] if legal is not None else []
        if asked["claim"]:  # a chance out of turn: taken on a coin toss (as the random bot does), else let pass
            entry = None if not listed or self.rng.below(2) else self.rng.choice(listed)
        else:
            if not listed:
                raise RuleError("BOT", f"the server asks seat {frame['view']['seat']} but lists nothing")
            entry = self.rng.choice(listed)
        if entry is None:
            self._send({"type": "pass", "seq": seq})
        elif self.think:
            self.loop.call_later(self.think, self._act, seq, entry["json"])
        else:
            self._act(seq, entry["json"])

    def _act(self, seq: int, action: object) -> None:
        if self.done.done():
            return
        self.sent = (seq, time.perf_counter())
        self.last = self._send({"type": "act", "action": action, "seq": seq})
