"""Slow readers: each connection's outgoing frames are bounded, so readers that stop reading cost the server nothing more.

Issue 21, item 7: every connection had an unbounded queue, so spectators
that stopped reading took the server's memory with them. Now a ``state``
frame supersedes the one still waiting (a reader behind gets the latest
state, with the log lines it missed), and a connection with more than
``QUEUE_LIMIT`` of other frames waiting is closed with 1013 (Try Again
Later), from which it can reconnect.

The outside tests run ``create_app`` on uvicorn in a separate process and
connect real WebSocket clients (the ``websockets`` library) that stop
reading. They connect over a Unix socket: over TCP on loopback the kernel
holds up to 4 MB per connection before the server's own queue grows at all,
so showing anything there takes minutes and ~400 MB of kernel memory for 100
readers; a Unix socket holds ~200 KB. The server's code path is the same.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from test_server_support import Db, create, db, receive, sqlite_db, until

from rummykit.engine.core import ViewHeader
from rummykit.server.frames import StateFrame
from rummykit.server.rooms import BEHIND, LOG_TAIL, Outbox

__all__ = ["db", "sqlite_db"]

ROOT = Path(__file__).resolve().parent.parent

# -- the outbox itself ----------------------------------------------------------------------------


def _state(seq: int, *lines: str) -> StateFrame:
    view = cast("ViewHeader", {})  # the outbox never looks into a view
    return {"type": "state", "seq": seq, "view": view, "log": list(lines), "seats": [], "clock": None, "status": "playing",
            "legal": None, "asked": None}


def _drain(box: Outbox) -> list[Any]:
    async def take() -> list[Any]:
        out: list[Any] = []
        while box.items:
            text = await asyncio.wait_for(box.get(), 1)
            out.append(None if text is None else json.loads(text))
        return out

    return asyncio.run(take())


def test_a_state_frame_supersedes_the_one_waiting_and_keeps_its_log() -> None:
    box = Outbox()
    box.put(_state(1, "a"))
    box.put({"type": "round", "round": 1, "match_over": False, "lines": ["round over"]})
    box.put(_state(2, "b"))
    box.put(_state(3, "c"))
    assert len(box) == 2
    frames = _drain(box)
    assert [f["type"] for f in frames] == ["round", "state"]
    assert frames[1]["seq"] == 3 and frames[1]["log"] == ["a", "b", "c"]


def test_a_reader_far_behind_gets_the_last_log_lines_only() -> None:
    box = Outbox()
    for n in range(3 * LOG_TAIL):
        box.put(_state(n, f"line {n}"))
    [frame] = _drain(box)
    assert frame["seq"] == 3 * LOG_TAIL - 1 and frame["log"] == [f"line {n}" for n in range(2 * LOG_TAIL, 3 * LOG_TAIL)]


def test_too_much_else_waiting_gives_the_connection_up() -> None:
    box = Outbox(limit=1000)
    box.put(_state(1, "a"))
    for n in range(100):
        box.put({"type": "pong", "id": n})
    assert box.dropped == BEHIND and box.closed
    assert _drain(box) == [None]
    box.put(_state(2, "b"))  # nothing more is taken
    assert len(box) == 0 and box.waiting == 0


def test_closing_ends_after_what_waits() -> None:
    box = Outbox()
    box.put({"type": "pong", "id": 1})
    box.close()
    assert _drain(box) == [{"type": "pong", "id": 1}, None]
    assert box.dropped is None


# -- from the outside -----------------------------------------------------------------------------


def test_spectators_coming_and_going_send_nobody_a_frame(db: Db) -> None:
    """A spectator changes nobody's state frame, so nobody is sent one when spectators come and go.

    Each arrival and departure used to send every other connection a state
    frame: 300 spectators leaving built about 45,000 frames at once, the
    ~45 MB the server kept (as freed memory the allocator did not give back)
    after they had gone. A seat's connection still tells everyone (``connected``).
    """
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as watcher:
            watcher.send_json({"type": "hello", "token": None})
            until(watcher, "welcome")
            until(watcher, "state")
            for _ in range(5):
                with client.websocket_connect(f"/ws/{table}") as other:
                    other.send_json({"type": "hello", "token": None})
                    until(other, "state")
            watcher.send_json({"type": "ping", "id": "next"})
            assert receive(watcher) == {"type": "pong", "id": "next"}
            with client.websocket_connect(f"/ws/{table}") as seat:
                seat.send_json({"type": "hello", "token": made["seats"][0]["token"]})
                until(seat, "state")
                told = until(watcher, "state")
                assert [s["connected"] for s in told["seats"]] == [True, False]

RUNNER = """
import sys, uvicorn
from rummykit.server.app import create_app
app = create_app(sys.argv[1], schema=sys.argv[2] or None, flood_rate=float(sys.argv[4]))
uvicorn.run(app, uds=sys.argv[3], log_level="warning", ws_per_message_deflate=False)
"""


@contextmanager
def server(db: Db, flood_rate: float = 15.0) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``create_app`` on uvicorn in a child process, listening on a Unix socket (its path)."""
    folder = tempfile.mkdtemp(prefix="rk-uds-")
    path = os.path.join(folder, "server.sock")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-c", RUNNER, db.url, db.schema or "", path, str(flood_rate)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(path):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
            time.sleep(0.05)
        yield path, proc
    finally:
        proc.kill()
        proc.wait(10)


def rss_mb(proc: subprocess.Popen[bytes]) -> float:
    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def bot_table(http: httpx.Client) -> str:
    """A long bot match played flat out (mummus, three random bots)."""
    made = http.post("/api/tables", json={
        "game": "mummus", "options": {"target": 100000, "max_rounds": 1000},
        "seats": [{"kind": "bot", "level": "random"}] * 3, "seed": 5,
    })
    assert made.status_code == 200, made.text
    table: str = made.json()["table"]
    return table


async def stalled_reader(path: str, table: str, token: str | None = None) -> Any:
    """A WebSocket client that says hello and then reads nothing (its library stops reading after one frame)."""
    ws = await websockets.unix_connect(path, uri=f"ws://server/ws/{table}", max_queue=1, ping_interval=None,
                                       open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_a_hundred_readers_that_stop_reading_cost_the_server_no_memory(db: Db) -> None:
    """100 spectators stop reading a table played flat out: the server's memory does not follow the game.

    Measured after the sockets' buffers have filled, over a window in which
    the table plays hundreds of actions: an unbounded queue grows by one frame
    (about 1.5 KB) per reader per action, 150 KB per action here; what a table
    keeps of its own game is about 1 KB per action. And a reader that reads
    again gets the latest state soon, not every state it missed.
    """
    with server(db) as (path, proc), httpx.Client(transport=httpx.HTTPTransport(uds=path),
                                                  base_url="http://server", timeout=60) as http:
        table = bot_table(http)

        def seq() -> int:
            value: int = http.get(f"/api/tables/{table}").json()["seq"]
            return value

        async def run() -> tuple[float, int, int, int]:
            readers = await asyncio.gather(*(stalled_reader(path, table) for _ in range(100)))
            try:
                await asyncio.sleep(3)  # the sockets' buffers fill
                start_mb, start_seq = rss_mb(proc), seq()
                end = time.monotonic() + 8
                while time.monotonic() < end:
                    await asyncio.sleep(0.5)
                grown, played = rss_mb(proc) - start_mb, seq() - start_seq
                # One reader reads again: how many frames until it sees the table as it is now?
                now, behind = seq(), 0
                while True:
                    frame = json.loads(await asyncio.wait_for(readers[0].recv(), 30))
                    behind += 1
                    if frame["type"] == "state" and frame["seq"] >= now:
                        break
                    assert behind < 2000, f"still {now - frame.get('seq', 0)} actions behind after 2000 frames"
                return grown, played, behind, now
            finally:
                await asyncio.gather(*(r.close() for r in readers), return_exceptions=True)

        grown, played, behind, now = asyncio.run(asyncio.wait_for(run(), 180))
    print(f"grew {grown:.1f} MB over {played} actions; a reader caught up in {behind} frames")
    assert played >= 200, f"the table played only {played} actions in 8 s: too few to tell"
    per_action_kb = grown * 1024 / played
    assert per_action_kb < 15, f"the server grew {grown:.1f} MB over {played} actions ({per_action_kb:.1f} KB each)"
    assert behind < 600, f"a reader that read again took {behind} frames to reach action {now}"


def test_a_seat_that_asks_and_never_reads_is_closed_with_a_code_to_come_back(sqlite_db: Db) -> None:
    """A seat sends requests and reads none of the answers: past the limit it is closed with 1013; it can come back."""
    with server(sqlite_db, flood_rate=10000) as (path, _proc), httpx.Client(
        transport=httpx.HTTPTransport(uds=path), base_url="http://server", timeout=60
    ) as http:
        made = http.post("/api/tables", json={
            "game": "rummikub", "seats": [{"kind": "person"}, {"kind": "bot"}], "seed": 4,
        }).json()
        table, token = made["table"], made["seats"][0]["token"]
        draft = [["R1"]] * 2000  # 16 KB asking; each answer judges 2000 sets: about 230 KB

        async def run() -> tuple[int | None, int]:
            ws = await stalled_reader(path, table, token)
            for _ in range(6):  # few enough that the asking itself never waits for the server to read
                await asyncio.wait_for(ws.send(json.dumps({"type": "check", "table": draft})), 30)
            await asyncio.sleep(5)
            frames = 0
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
                    frames += 1
            code = ws.close_code
            # It comes back with its token and is told the table as it is.
            again = await websockets.unix_connect(path, uri=f"ws://server/ws/{table}", open_timeout=60)
            await again.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(await asyncio.wait_for(again.recv(), 30))
            await again.close()
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            return code, frames

        code, frames = asyncio.run(asyncio.wait_for(run(), 120))
    assert code == BEHIND, f"closed with {code} after {frames} frames"
    assert frames < 8, "the answers that could not be sent were dropped with the connection"
