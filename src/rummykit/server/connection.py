"""One WebSocket connection of ``rummykit serve``: its hello, its frames read and answered, its writer.

:func:`serve_connection` runs a connection from its ``hello`` to its end: it
takes the seat the token opens (or watches), then reads each frame (refusing
what is too big, malformed, too fast or too deep) and hands it to the room,
while a writer task sends what the room queued for it. See ``docs/online.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Message

from rummykit.server import protocol as p
from rummykit.server.frames import (
    CheckedFrame,
    ErrorFrame,
    HintFrame,
    LegalFrame,
    PongFrame,
    ServerFrameJSON,
)
from rummykit.server.outbox import Bucket, Conn, frame_text
from rummykit.server.refusals import Refusal, error_frame
from rummykit.server.rooms import (
    Room,
)

if TYPE_CHECKING:
    from rummykit.server.app import Hall

__all__ = ["HELLO_TIMEOUT", "MAX_FRAME", "MAX_REFUSED", "MAX_TRANSPORT", "serve_connection"]

log = logging.getLogger("rummykit.server")

MAX_FRAME = 64 * 1024
"""The largest frame a client may send, in bytes: a larger one gets a ``TOO-BIG`` error frame."""
MAX_TRANSPORT = 4 * MAX_FRAME
"""The largest frame the WebSocket layer reads (``serve.py`` gives it to uvicorn): above it, close 1009."""
MAX_REFUSED = 50
"""Refused frames (flood) after which a connection is closed."""
HELLO_TIMEOUT = 30.0
"""Seconds from the WebSocket's opening to its ``hello`` frame (not restarted by other frames)."""


def _err(rule: str, message: str, rid: p.RequestId = None) -> ErrorFrame:
    return error_frame(rule, message, rid)


class _Bad(Exception):
    """A frame refused before it reached a room: the error frame to answer with."""

    def __init__(self, frame: ErrorFrame) -> None:
        super().__init__(frame["message"])
        self.frame = frame


def _read(message: Message) -> p.ClientModel:
    """The client frame a WebSocket message carries; :class:`_Bad` with the error frame when it is not one.

    Checked in order: the size (``TOO-BIG``), the nesting depth before any
    decoding, the JSON, the frame's shape (``PROTOCOL``).
    """
    text = message.get("text")
    if text is None:
        raw = message.get("bytes")
        if raw is None:
            raise _Bad(_err("PROTOCOL", "a frame is a message holding a JSON object"))
        if len(raw) > MAX_FRAME:
            raise _Bad(_err("TOO-BIG", f"a frame is at most {MAX_FRAME} bytes"))
        text = bytes(raw).decode("utf-8", "replace")
    elif len(text) > MAX_FRAME or len(text.encode()) > MAX_FRAME:
        raise _Bad(_err("TOO-BIG", f"a frame is at most {MAX_FRAME} bytes"))
    try:
        data = p.decode_json(str(text))
    except p.FrameError as exc:
        raise _Bad(_err("PROTOCOL", str(exc))) from None
    try:
        return p.client_frame(data)
    except p.FrameError as exc:
        rid = data.get("id") if isinstance(data, dict) else None
        raise _Bad(_err("PROTOCOL", str(exc), rid if isinstance(rid, str | int) else None)) from None


async def _send_now(websocket: WebSocket, frame: ServerFrameJSON) -> None:
    await websocket.send_text(frame_text(frame))


async def _hello(
    websocket: WebSocket, hall: Hall, table_id: str, bucket: Bucket
) -> tuple[Room, int | None] | None:
    """Wait for the hello frame; the room and seat, or None (an error was sent and the socket closed).

    The wait is :data:`HELLO_TIMEOUT` seconds from now whatever arrives
    meanwhile, and the flood bucket counts every frame from the first.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HELLO_TIMEOUT
    while True:
        try:
            message = await asyncio.wait_for(websocket.receive(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            await _send_now(websocket, _err("PROTOCOL", f"no hello frame within {HELLO_TIMEOUT:g} seconds"))
            await websocket.close(code=1008)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        if not bucket.take():
            await _send_now(websocket, _err("FLOOD", "too many frames: slow down"))
            if bucket.refused >= MAX_REFUSED:
                await websocket.close(code=1008)
                return None
            continue
        try:
            frame = _read(message)
        except _Bad as bad:
            await _send_now(websocket, bad.frame)
            continue
        if not isinstance(frame, p.Hello):
            await _send_now(websocket, _err("PROTOCOL", "the first frame is hello", frame.id))
            continue
        room = hall.rooms.get(table_id)
        if room is None:
            await _send_now(websocket, _err("TABLE", hall.missing(table_id), frame.id))
            await websocket.close(code=1008)
            return None
        try:
            seat = room.seat_for(frame.token)
        except Refusal as exc:
            await _send_now(websocket, exc.frame(frame.id))
            await websocket.close(code=1008)
            return None
        return room, seat


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            if conn.queue.dropped is not None:  # too far behind: closed with a code it may reconnect after
                with contextlib.suppress(Exception):
                    await websocket.close(code=conn.queue.dropped)
            return
        await websocket.send_text(text)


async def serve_connection(websocket: WebSocket, hall: Hall, table_id: str, flood_rate: float) -> None:
    bucket = Bucket(capacity=2 * flood_rate, rate=flood_rate, tokens=2 * flood_rate)
    found = await _hello(websocket, hall, table_id, bucket)
    if found is None:
        return
    room, seat = found
    conn = Conn(seat, flood_rate)
    conn.bucket = bucket  # the frames before hello count
    writer = asyncio.get_running_loop().create_task(_writer(websocket, conn))
    await room.join(conn)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect" or conn.dropped:  # dropped: the writer closes it
                break
            if not conn.bucket.take():
                conn.send(_err("FLOOD", "too many frames: slow down"))
                if conn.bucket.refused >= MAX_REFUSED:
                    break
                continue
            try:
                frame = _read(message)
            except _Bad as bad:
                conn.send(bad.frame)
                continue
            if isinstance(frame, p.Leave):
                break
            try:
                reply = await _answer(room, conn, frame)
            except Refusal as exc:
                conn.send(exc.frame(frame.id))
                continue
            except Exception:  # a fault of the server's: logged, answered, and the connection stays
                log.exception("table %s: answering a %r frame failed", room.id, frame.type)
                conn.send(_err("SERVER", "the server failed to answer this frame; the fault is logged", frame.id))
                continue
            if reply is not None:
                conn.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        await room.leave(conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 5)
        if conn.bucket.refused >= MAX_REFUSED:
            with contextlib.suppress(BaseException):
                await websocket.close(code=1008)
        else:
            with contextlib.suppress(BaseException):
                await websocket.close(code=conn.queue.dropped or 1000)


async def _answer(room: Room, conn: Conn, frame: p.ClientModel) -> CheckedFrame | LegalFrame | HintFrame | PongFrame | None:
    if isinstance(frame, p.Ping):
        return {"type": "pong", "id": frame.id}
    if isinstance(frame, p.Hello):
        raise Refusal("PROTOCOL", "hello is the first frame only")
    seat = conn.seat
    if seat is None:
        raise Refusal("SPECTATOR", "a spectator watches: only a seat may act or ask about its plays")
    if isinstance(frame, p.Act):
        await room.play(seat, frame)
        conn.bucket.refund()  # an accepted action is paced by the game, not counted as flooding
        return None
    if isinstance(frame, p.Pass):
        await room.let_pass(seat, frame)
        conn.bucket.refund()  # paced by the game, as an accepted action is
        return None
    if isinstance(frame, p.Check):
        return await room.check(seat, frame)
    if isinstance(frame, p.Legal):
        return await room.legal(seat, frame)
    if isinstance(frame, p.Hint):
        return await room.hint(seat, frame)
    raise Refusal("PROTOCOL", f"unknown frame type {frame.type!r}")
