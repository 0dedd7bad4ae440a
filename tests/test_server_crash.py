"""The crash test: ``rummykit serve`` killed with SIGKILL mid-game loses no accepted action.

The server runs as a real subprocess on a free port with a temporary SQLite
file; two seats play over real WebSockets (the ``websockets`` client). After
the kill, a new process on the same file restores the table, and both seats
reconnect with their tokens to the same ``seq`` and the same views, and play on.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from test_server_support import free_port

ROOT = Path(__file__).resolve().parent.parent


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "serve", "--port", str(port), "--db", f"sqlite:///{db}", "--chosen-seeds"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start within 60 s")


async def recv_state(ws: Any, newer_than: int = -1) -> dict[str, Any]:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if frame["type"] == "state" and frame["seq"] > newer_than and frame["status"] != "waiting":
            return dict(frame)


async def connect(port: int, table: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}")
    await ws.send(json.dumps({"type": "hello", "token": token}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert welcome["type"] == "welcome"
    return ws, welcome


async def play(port: int, table: str, tokens: list[str], actions: int) -> dict[int, dict[str, Any]]:
    """Both seats connect and draw in turn until ``actions`` actions were accepted; the last state per seat."""
    socks = {}
    for seat, token in enumerate(tokens):
        socks[seat], _ = await connect(port, table, token)
    last = {seat: await recv_state(ws) for seat, ws in socks.items()}
    # The first seat to connect saw the table waiting; wait for both to see it playing.
    while last[0]["seq"] < actions:
        seq = last[0]["seq"]
        turn = last[0]["view"]["turn"]
        await socks[turn].send(json.dumps({"type": "act", "text": "draw"}))
        for seat, ws in socks.items():
            last[seat] = await recv_state(ws, seq)
    for ws in socks.values():
        await ws.close()
    return last


def test_kill_9_loses_no_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    proc = start(db, port)
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "rummikub", "seats": [{"kind": "person"}, {"kind": "person"}], "seed": 21},
        ).json()
        tokens = [s["token"] for s in made["seats"]]
        last = asyncio.run(play(port, made["table"], tokens, 9))
        assert last[0]["seq"] == 9
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL

    port = free_port()
    proc = start(db, port)
    try:
        table = httpx.get(f"http://127.0.0.1:{port}/api/tables/{made['table']}").json()
        assert table["seq"] == 9 and table["status"] == "playing"

        async def back() -> None:
            for seat, token in enumerate(tokens):
                ws, welcome = await connect(port, made["table"], token)
                assert welcome["seat"] == seat
                state = await recv_state(ws)
                assert state["seq"] == 9
                assert state["view"] == last[seat]["view"]
                await ws.close()

        asyncio.run(back())
        after = asyncio.run(play(port, made["table"], tokens, 12))
        assert after[0]["seq"] == 12 and after[0]["view"]["rack_sizes"] != last[0]["view"]["rack_sizes"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_kill_9_while_bots_play_keeps_every_action_told(tmp_path: Path) -> None:
    """Bots play flat out; whatever seq a spectator was told before the kill, the database holds."""
    db = tmp_path / "server.db"
    port = free_port()
    proc = start(db, port)
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            # a match far longer than the watch (a faster server once finished the default match inside it)
            json={"game": "mummus", "options": {"target": 100000, "max_rounds": 1000},
                  "seats": [{"kind": "bot", "level": "random"}] * 3, "seed": 5},
        ).json()

        async def watch() -> int:
            ws, _ = await connect(port, made["table"], None)
            seen = 0
            end = time.monotonic() + 1.5
            while (left := end - time.monotonic()) > 0 or seen == 0:
                try:  # until the window closes (or, on a slow machine, the first state frame)
                    frame = json.loads(await asyncio.wait_for(ws.recv(), max(left, 20.0 if seen == 0 else 0.01)))
                except TimeoutError:  # the bots' match may end inside the window: no frame comes then
                    break
                if frame["type"] == "state":
                    seen = frame["seq"]
            return seen

        seen = asyncio.run(watch())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert seen > 0
    port = free_port()
    proc = start(db, port)
    try:
        table = httpx.get(f"http://127.0.0.1:{port}/api/tables/{made['table']}").json()
        assert table["status"] == "playing" and table["seq"] >= seen, table  # killed mid-match, nothing lost
    finally:
        proc.terminate()
        proc.wait(10)
