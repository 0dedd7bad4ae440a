"""A connection's side of a table: its flood bucket and its bounded box of frames waiting to be sent.

A :class:`Conn` is one WebSocket connection to a room. What the room tells it
waits in its :class:`Outbox` until the connection's writer sends it; a
reader that falls behind gets the latest state only, and one that falls too
far behind is given up (it may reconnect). Its :class:`Bucket` limits the
frames it may send.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field

import orjson

from rummykit.server.frames import ServerFrameJSON, StateFrame

__all__ = ["BEHIND", "LOG_TAIL", "QUEUE_LIMIT", "SPECTATORS", "Bucket", "Conn", "Outbox", "frame_text"]

LOG_TAIL = 100
"""Log lines a connection's first state frame carries."""
SPECTATORS = -1
"""The audience key of spectators (seats are 0, 1, ...)."""
QUEUE_LIMIT = 256 * 1024
"""Characters of frames other than ``state`` one connection may have waiting to be sent; past it, it is given up."""
BEHIND = 1013
"""The close code (Try Again Later) of a connection given up for being too far behind: it may reconnect."""


def frame_text(frame: object) -> str:
    """A frame as compact JSON text, as it goes on the wire.

    orjson writes it (a state frame of a few kilobytes in a tenth of the time
    of ``json.dumps``): the same JSON values, with text other than ASCII
    written as UTF-8 rather than ``\\u`` escapes. What orjson refuses (a lone
    surrogate, an integer beyond 64 bits) is written by ``json.dumps`` as before.

    >>> frame_text({"type": "pong", "id": 1, "n": {2: "é"}})
    '{"type":"pong","id":1,"n":{"2":"é"}}'
    >>> frame_text({"big": 2**70, "odd": "\\ud800"})
    '{"big":1180591620717411303424,"odd":"\\\\ud800"}'
    """
    try:
        return orjson.dumps(frame).decode()  # keys are text in nearly every frame: the faster way first
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))


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

    def put(self, frame: ServerFrameJSON) -> None:
        """Queue a frame (nothing happens once the box is closed)."""
        if self.closed:
            return
        if frame["type"] == "state":
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
            text = frame_text(frame)
            self.waiting += len(text)
            if self.waiting > self.limit:
                self.drop(BEHIND)
                return
            self.items.append(text)
        self._wake()

    def close(self, code: int | None = None) -> None:
        """No more frames: :meth:`get` returns None once those waiting are taken.

        With ``code`` the connection is ended after them: :attr:`dropped` holds
        the code the writer closes it with (a table closed, a seat handed on).
        """
        if not self.closed:
            self.closed = True
            if code is not None:
                self.dropped = code
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
                    return frame_text(item.frame)
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

    def __init__(self, frame: StateFrame) -> None:
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

    def send(self, frame: ServerFrameJSON) -> None:
        self.queue.put(frame)
