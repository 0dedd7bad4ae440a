"""Shared fixtures and helpers of the server tests (no tests here).

``db`` is parametrised over SQLite (a file in the test's folder) and
PostgreSQL (``RUMMYKIT_TEST_PG``, default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``,
each test in a schema of its own, dropped afterwards). When PostgreSQL cannot
be reached its cases skip with the reason, except with ``CI=true``, where they
fail: CI must test both databases.
"""

from __future__ import annotations

import asyncio
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


def until(ws: Any, kind: str, limit: int = 2000) -> dict[str, Any]:
    """Receive frames until one of ``kind`` (returned)."""
    for _ in range(limit):
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame in {limit} frames")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Run ``app`` on uvicorn in a thread on a free port; yields ``host:port``."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=4 * 65536)
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
