"""A table that stalls: why a person-vs-bot table once waited for ever, and the watchdog that restarts idle bots.

The stall of ``test_a_person_plays_against_a_bot_to_the_end`` (issue 20):
that game (conveyor, seed 2) needs 31 actions of the person's seat, one more
than the flood bucket's burst of 30 frames, and the test's client plays at
machine speed. Where those 31 actions took less than the 67 ms the bucket
needs to refill one token (a fast, idle machine), the last one was refused
``FLOOD``; the client ignored error frames and waited for a state frame that
could not come, while the server, rightly, waited for the person. Measured
here: the bucket's lowest point in that game was 0.54 tokens after the last
action on a loaded machine. An accepted action no longer costs a token (the
game paces those), and the tests' clients fail on an error frame and on a
frame that does not come.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from test_server_support import PG_URL, Db, create, db, receive, sqlite_db, table_state, until

from rummykit.bots.registry import make_bot
from rummykit.engine.rng import Rng
from rummykit.server import driving
from rummykit.server.store import Store, StoreError
from rummykit.server.writer import Writer

__all__ = ["db", "sqlite_db"]


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    until(ws, "welcome")
    return until(ws, "state")


def next_state(ws: Any) -> dict[str, Any]:
    """The next state frame; an error frame on the way fails (a refused action would leave the player waiting)."""
    while True:
        frame = receive(ws, timeout=30)
        assert frame["type"] != "error", f"refused: {frame}; the server says: {table_state(ws)}"
        if frame["type"] == "state":
            return frame


def test_a_person_at_machine_speed_is_never_refused_as_a_flood(db: Db) -> None:
    """The stalled game again, with a bucket of 2 frames refilled at 1 a second: every accepted action passes."""
    with TestClient(db.app(flood_rate=1)) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot", "level": "greedy"}], seed=2,
                      options={"target": 0})
        me, rng = make_bot("random", "conveyor"), Rng(5)
        acted = 0
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            answered = -1
            while state["status"] != "over":
                view = state["view"]
                if 0 in view["must_act"] and answered != state["seq"]:
                    answered = state["seq"]
                    ws.send_json({"type": "act", "action": me.choose(view, rng).to_json()})
                    acted += 1
                state = next_state(ws)
        assert acted == 31 and state["view"]["outcome"] is not None


def test_refused_frames_still_drain_the_bucket(sqlite_db: Db) -> None:
    """Only an accepted action is given its token back: refused actions and questions still count."""
    with TestClient(sqlite_db.app(flood_rate=1)) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        with client.websocket_connect(f"/ws/{made['table']}") as a, client.websocket_connect(f"/ws/{made['table']}") as b:
            hello(a, made["seats"][0]["token"])
            state = hello(b, made["seats"][1]["token"])
            idle = a if state["view"]["turn"] == 1 else b
            for _ in range(6):
                idle.send_json({"type": "act", "text": "draw"})  # out of turn: refused TURN
            rules = [until(idle, "error")["rule"] for _ in range(6)]
        # The bucket holds 2 frames and counts from the first one (hello took one): the first refused
        # action is answered TURN and takes the last token; were refused actions given it back, no FLOOD.
        assert rules[0] == "TURN" and "FLOOD" in rules[1:]


# -- the watchdog ------------------------------------------------------------------------------------


def _fail_writes_of(db: Db, seq: int) -> tuple[list[str], list[str]]:
    """SQL that makes the database refuse to store action ``seq`` of any table, and SQL that stops it."""
    if db.schema is None:
        return (
            [f"CREATE TRIGGER fail_action BEFORE INSERT ON actions WHEN NEW.seq = {seq} "
             "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"],
            ["DROP TRIGGER fail_action"],
        )
    schema = f'"{db.schema}"'
    return (
        [f"CREATE FUNCTION {schema}.fail_action() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
         f"CREATE TRIGGER fail_action BEFORE INSERT ON {schema}.actions FOR EACH ROW "
         f"WHEN (NEW.seq = {seq}) EXECUTE FUNCTION {schema}.fail_action()"],
        [f"DROP TRIGGER fail_action ON {schema}.actions"],
    )


def _run_sql(db: Db, statements: list[str]) -> None:
    engine = create_engine(db.url if db.schema is None else PG_URL)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def test_the_watchdog_restarts_bots_that_stopped(db: Db, monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    """The database refuses a bot's action once: its driver dies; the watchdog logs it and the bots play on.

    Before the watchdog the table waited for ever (no driver, nobody to kick one).
    """
    monkeypatch.setattr(driving, "WATCHDOG_EVERY", 0.3)
    caplog.set_level(logging.ERROR, logger="rummykit.server")
    failing, healing = _fail_writes_of(db, 4)
    with TestClient(db.app()) as client:
        _run_sql(db, failing)
        made = create(client, "conveyor", [{"kind": "bot", "level": "random"}] * 2, seed=7, options={"target": 0})
        table = made["table"]
        deadline = time.monotonic() + 30
        while "could not store action 4" not in caplog.text:
            assert time.monotonic() < deadline, f"the injected failure never happened: {caplog.text[-500:]}"
            time.sleep(0.05)
        assert client.get(f"/api/tables/{table}").json()["seq"] == 3
        _run_sql(db, healing)
        with client.websocket_connect(f"/ws/{table}") as ws:
            state = hello(ws, None)
            while state["seq"] <= 4 and state["status"] != "over":
                state = until(ws, "state", timeout=10)
    assert state["seq"] > 4
    assert "waits for a bot that is not thinking" in caplog.text
    assert "no bot is thinking" in caplog.text  # the log names the table's state


def test_a_writer_never_leaves_an_action_waiting(db: Db, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault in the store that is not a database error fails the write instead of leaving it waiting for ever."""
    store = Store(db.url, schema=db.schema)

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise TypeError("a fault of the server's own")

    monkeypatch.setattr(store, "record_batch", broken)
    monkeypatch.setattr(store, "record_action", broken)
    writer = Writer(store)
    item: dict[str, Any] = {"snapshot": None, "spectator_view": {}, "status": "playing", "bot_draws": [0, 0], "chain": "c"}

    async def write() -> BaseException | None:
        try:
            await asyncio.wait_for(writer.write(table_id="t", seq=1, action="0 draw", **item), 10)
        except StoreError as exc:
            return exc
        return None

    try:
        error = asyncio.run(write())
    finally:
        store.close()
    assert isinstance(error, StoreError) and "a fault of the server's own" in str(error)
    assert writer.pending == []
