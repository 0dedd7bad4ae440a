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
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson
import websockets

from rummykit.bots.registry import make_bot
from rummykit.engine.driver import Claimer
from rummykit.engine.rng import Rng
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
