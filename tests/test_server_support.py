"""Shared fixtures and helpers of the server tests (no tests here).

``db`` is parametrised over SQLite (a file in the test's folder) and
PostgreSQL (``RUMMYKIT_TEST_PG``, default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``,
each test in a schema of its own, dropped afterwards). When PostgreSQL cannot
be reached its cases skip with the reason, except with ``CI=true``, where they
fail: CI must test both databases.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from rummykit.server.app import create_app

PG_URL = os.environ.get("RUMMYKIT_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@dataclass(frozen=True)
class Db:
    """A database for one test: its URL and, for PostgreSQL, the schema that holds its tables."""

    url: str
    schema: str | None = None

    def app(self, **kwargs: Any) -> FastAPI:
        """The server on this database; a testing server, so chosen seeds are allowed unless ``chosen_seeds=False``."""
        kwargs.setdefault("chosen_seeds", True)
        return create_app(self.url, schema=self.schema, **kwargs)


def _postgres(schema: str) -> None:
    engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()


def _drop(schema: str) -> None:
    engine = create_engine(PG_URL)
    try:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Db]:
    if request.param == "sqlite":
        yield Db(f"sqlite:///{tmp_path / 'server.db'}")
        return
    schema = f"rk_test_{uuid.uuid4().hex[:12]}"
    try:
        _postgres(schema)
    except Exception as exc:
        reason = f"PostgreSQL at {PG_URL} is unreachable: {' '.join(str(exc).split())[:200]}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: the PostgreSQL tests must run)")
        pytest.skip(reason)
    try:
        yield Db(PG_URL, schema)
    finally:
        _drop(schema)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Db:
    return Db(f"sqlite:///{tmp_path / 'server.db'}")


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Create a table; the answer's JSON (asserting HTTP 200)."""
    answer = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


RECEIVE_TIMEOUT = 60.0
"""Seconds a test waits for any one frame before it fails (naming the table's state)."""


def table_state(ws: Any) -> str:
    """The server's one-line account of the table a TestClient WebSocket is connected to."""
    scope = getattr(ws, "scope", {})
    table = scope.get("path_params", {}).get("table_id") or str(scope.get("path", "")).rsplit("/", 1)[-1]
    app = scope.get("app")
    rooms = getattr(getattr(getattr(app, "state", None), "hall", None), "rooms", {})
    room = rooms.get(table)
    if room is None:
        return f"table {table!r} (not on the server)"
    describe = getattr(room, "describe", None)
    return str(describe()) if describe is not None else f"table {table!r} at {room.seq} actions, {room.status}"


def receive(ws: Any, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next frame of a TestClient WebSocket, or an AssertionError naming the table's state after ``timeout`` s.

    Starlette's ``receive_json`` waits for ever; this waits on the same
    stream through the session's portal with a deadline. A closed
    connection raises ``WebSocketDisconnect`` as ``receive_json`` does.
    """

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"no frame within {timeout:g} s; the server says: {table_state(ws)}") from None
    ws._raise_on_close(message)
    frame: dict[str, Any] = json.loads(message["text"])
    return frame


def until(ws: Any, kind: str, limit: int = 2000, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """Receive frames until one of ``kind`` (returned); each frame within ``timeout`` seconds."""
    for _ in range(limit):
        frame = receive(ws, timeout)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame in {limit} frames; the server says: {table_state(ws)}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(app: FastAPI, **settings: Any) -> Iterator[str]:
    """Run ``app`` on uvicorn in a thread on a free port (``settings``: more of uvicorn's Config); yields
    ``host:port``."""
    port = free_port()
    config = uvicorn.Config(app, **{"host": "127.0.0.1", "port": port, "log_level": "warning", "ws_max_size": 4 * 65536, **settings})
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
