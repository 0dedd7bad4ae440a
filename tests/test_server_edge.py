"""The server's edge under bad input, from the outside: real uvicorn, HTTP and WebSockets (issue 21).

Every test runs on SQLite and on PostgreSQL (``db`` fixture), through
uvicorn with the WebSocket settings ``rummykit serve`` uses, and checks that
nothing a client sent put a traceback (or any error) in the server's log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi import FastAPI
from sqlalchemy import update
from test_server_support import Db, db, serving

from rummykit.catalogue import find_game
from rummykit.server import connection as server_connection
from rummykit.server import protocol as p
from rummykit.server.app import MAX_BODY, create_app
from rummykit.server.connection import MAX_FRAME, MAX_REFUSED, MAX_TRANSPORT
from rummykit.server.rooms import fingerprint
from rummykit.server.serve import WEBSOCKET_SETTINGS
from rummykit.server.store import Store, tables_table

__all__ = ["db"]  # the fixture, imported for pytest

WAIT = 20.0
"""The longest any single receive or request in these tests waits."""

TWO = [{"kind": "person", "name": "ann"}, {"kind": "bot", "level": "random"}]


def live(app: FastAPI) -> AbstractContextManager[str]:
    """``app`` on uvicorn (``rummykit serve``'s WebSocket settings, logging left to pytest); yields ``host:port``."""
    return serving(app, log_config=None, **WEBSOCKET_SETTINGS)


@pytest.fixture
def quiet_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The server's log during the test: afterwards, no traceback and nothing at ERROR or above."""
    caplog.set_level(logging.WARNING)
    yield caplog
    records = caplog.get_records("call")  # (``caplog.records`` would be the teardown's, none)
    bad = [r for r in records if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()]
    assert not bad, "the server logged: " + "\n".join(f"{r.name}: {r.getMessage()}" for r in bad)


def post(base: str, body: Any = None, *, content: bytes | None = None, **kw: Any) -> httpx.Response:
    headers = {"content-type": "application/json"}
    with httpx.Client(timeout=WAIT) as http:
        if content is None:
            return http.post(f"http://{base}/api/tables", json=body, headers=headers, **kw)
        return http.post(f"http://{base}/api/tables", content=content, headers=headers, **kw)


def get(base: str, path: str) -> httpx.Response:
    with httpx.Client(timeout=WAIT) as http:
        return http.get(f"http://{base}{path}")


def refusal(answer: httpx.Response, status: int, rule: str) -> str:
    """The message of an HTTP refusal, checking its status, shape and rule."""
    assert answer.status_code == status, answer.text
    error = p.ErrorBody.model_validate(answer.json()).error
    assert error.rule == rule, error
    assert error.message and len(error.message) <= p.MAX_MESSAGE
    return error.message


async def recv(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    p.server_frame(frame)
    return frame


async def until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        frame = await recv(ws)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame in 200 frames")


@contextmanager
def table(base: str, seats: list[dict[str, Any]] = TWO, **extra: Any) -> Iterator[dict[str, Any]]:
    answer = post(base, {"game": "rummikub", "seats": seats, **extra})
    assert answer.status_code == 200, answer.text
    yield answer.json()


def connect(base: str, table_id: str) -> Any:
    return websockets.connect(f"ws://{base}/ws/{table_id}", max_size=2**24, open_timeout=WAIT, close_timeout=WAIT)


async def closed_code(ws: Any) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes: its close code and the frames before it."""
    frames: list[dict[str, Any]] = []
    try:
        while True:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), WAIT)))
    except websockets.ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), frames


async def still_open(ws: Any) -> None:
    await ws.send(json.dumps({"type": "ping", "id": "alive"}))
    assert await until(ws, "pong") == {"type": "pong", "id": "alive"}


# -- 1. options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"seed": 5},
        {"players": 3},
        {"players": ["a", "b"]},
        {"jokers": [1]},
        {"jokers": {"x": 1}},
        {"jokers": 10**30},
        {"jokers": 1.5},
        {"jokers": "9" * 5000},
        {"": 1},
    ],
)
def test_every_bad_option_is_a_400(db: Db, quiet_log: Any, options: dict[str, Any]) -> None:
    """An option the game does not have (``seed``, ``players`` too) or a bad value: 400 OPTION, nothing stored."""
    with live(db.app()) as base:
        message = refusal(post(base, {"game": "rummikub", "seats": TWO, "options": options}), 400, "OPTION")
        assert next(iter(options)) in message or "option" in message
        assert get(base, "/api/tables").json() == []


# -- 2. names ----------------------------------------------------------------------------------


def test_names_are_checked_and_normalised_before_anything_is_stored(db: Db, quiet_log: Any) -> None:
    with live(db.app()) as base:
        # A lone surrogate (JSON can carry one as an escape): refused at the edge, stored nowhere.
        raw = b'{"game": "rummikub", "seats": [{"kind": "person", "name": "\\ud800 ann"}, {"kind": "bot"}]}'
        assert "surrogate" in refusal(post(base, content=raw), 422, "REQUEST")
        for name in ("ann\x07", "a|b", "x#y", "zero\u200bwidth", "\u202eevil", "del\x7f", "\x00"):
            seats = [{"kind": "person", "name": name}, {"kind": "bot"}]
            assert "seat 0" in refusal(post(base, {"game": "rummikub", "seats": seats}), 400, "NAME"), name
        same = [{"kind": "person", "name": "ann"}, {"kind": "person", "name": " ann "}]
        assert "differ" in refusal(post(base, {"game": "rummikub", "seats": same}), 400, "NAME")
        listed = get(base, "/api/tables")
        assert listed.status_code == 200 and listed.json() == []
        # Good names: NFC, white space made plain and single, trimmed, cut to MAX_NAME characters.
        seats = [{"kind": "person", "name": "  Zoe\u0301\n\t\u00a0Ray "}, {"kind": "person", "name": "a" * 40},
                 {"kind": "bot", "name": "   "}]
        expected = ["Zo\u00e9 Ray", "a" * p.MAX_NAME, "bot 3"]
        with table(base, seats) as made:
            assert [s["name"] for s in made["seats"]] == expected
            assert [s["name"] for s in get(base, "/api/tables").json()[0]["seats"]] == expected


def test_a_bad_stored_row_does_not_break_the_lobby(db: Db, caplog: pytest.LogCaptureFixture) -> None:
    """Rows written before names were checked: shown escaped or left out, each with a log line; the lobby answers."""
    caplog.set_level(logging.WARNING)
    with live(db.app()) as base:
        with table(base) as made:
            legacy = made["table"]
        with table(base, [{"kind": "person", "name": "cat"}, {"kind": "bot"}]) as other:
            broken = other["table"]
        with table(base, [{"kind": "person", "name": "dan"}, {"kind": "bot"}]) as fine:
            good = fine["table"]
    # Write the rows as an older server could have: a seat name with a lone surrogate, a seat of no known kind.
    store = Store(db.url, schema=db.schema)
    try:
        info = find_game("rummikub")
        rows = {row.id: row for row in store.load()}
        for table_id, seat0 in ((legacy, {"name": "\ud800 ann"}), (broken, {"kind": "alien"})):
            row = rows[table_id]
            seats = [dict(row.seats[0], **seat0), row.seats[1]]
            state = info.new(players=[str(s["name"]) for s in seats], seed=row.seed, **row.options)
            with store.engine.begin() as conn:
                conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(seats=seats))
            store.set_snapshot(table_id, fingerprint(state))
    finally:
        store.close()
    caplog.clear()
    with live(db.app()) as base:
        for _ in range(2):
            listed = get(base, "/api/tables")
            assert listed.status_code == 200, listed.text
            by_id = {t["table"]: t for t in listed.json()}
            assert set(by_id) == {legacy, good}
            assert by_id[legacy]["seats"][0]["name"] == "\\ud800 ann"
        assert get(base, f"/api/tables/{legacy}").json()["seats"][0]["name"] == "\\ud800 ann"
        assert get(base, f"/api/tables/{broken}").status_code == 404

        async def watch() -> None:
            async with connect(base, legacy) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                welcome = await until(ws, "welcome")
                assert welcome["table"]["seats"][0]["name"] == "\\ud800 ann"
                state = await until(ws, "state")
                assert state["seats"][0]["name"] == "\\ud800 ann"

        asyncio.run(watch())
    logged = caplog.text
    assert legacy in logged and broken in logged
    assert "Traceback" not in logged and not any(r.exc_info for r in caplog.records)


# -- 4. nesting --------------------------------------------------------------------------------


def nested(depth: int) -> Any:
    value: Any = "R1"
    for _ in range(depth):
        value = [value]
    return value


def test_deep_nesting_gets_an_error_frame_and_the_connection_stays(db: Db, quiet_log: Any) -> None:
    with live(db.app()) as base, table(base) as made:

        async def go() -> None:
            async with connect(base, made["table"]) as ws:
                # Before hello.
                await ws.send("[" * 30000)
                error = await until(ws, "error")
                assert error["rule"] == "PROTOCOL" and f"{p.MAX_DEPTH} levels" in error["message"]
                await ws.send(json.dumps({"type": "hello", "token": made["seats"][0]["token"]}))
                await until(ws, "welcome")
                # After hello: a bare deep array, an action nested 900 deep (2 KB), a check's deep table.
                await ws.send("[" * 30000)
                assert (await until(ws, "error"))["rule"] == "PROTOCOL"
                deep_act = json.dumps({"type": "act", "id": 7, "action": {"type": "play", "placed": nested(900)}})
                assert len(deep_act) < 4000
                await ws.send(deep_act)
                assert (await until(ws, "error"))["rule"] == "PROTOCOL"
                await ws.send(json.dumps({"type": "check", "table": nested(p.MAX_DEPTH + 1)}))
                assert (await until(ws, "error"))["rule"] == "PROTOCOL"
                await ws.send('{"type": "ping", "id": "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')  # brackets in a string do not count
                assert (await until(ws, "pong"))["id"].startswith("[[[")
                # Legal depth: an action is read as before (refused by the game's rules, not the edge).
                await ws.send(json.dumps({"type": "check", "action": {"type": "play", "placed": ["R1"], "table": [["R1"]]}}))
                assert (await until(ws, "checked"))["ok"] is False
                await still_open(ws)

        asyncio.run(go())
        assert f"{p.MAX_DEPTH} levels" in refusal(post(base, content=b"[" * 10000), 422, "REQUEST")
        deep = json.dumps({"game": "rummikub", "seats": TWO, "options": {"jokers": nested(900)}}).encode()
        assert f"{p.MAX_DEPTH} levels" in refusal(post(base, content=deep), 422, "REQUEST")


# -- 5. sizes ----------------------------------------------------------------------------------


def test_frames_over_the_limit_get_too_big_and_over_the_transport_cap_a_close(db: Db, quiet_log: Any) -> None:
    with live(db.app()) as base, table(base) as made:

        async def go() -> None:
            async with connect(base, made["table"]) as ws:
                await ws.send(json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME + 1)}))
                assert (await until(ws, "error"))["rule"] == "TOO-BIG"
                await ws.send(json.dumps({"type": "hello", "token": None}))
                await until(ws, "welcome")
                for size in (MAX_FRAME + 1, MAX_TRANSPORT - 100):
                    await ws.send(json.dumps({"type": "ping", "pad": "x" * size}))
                    error = await until(ws, "error")
                    assert error["rule"] == "TOO-BIG" and str(MAX_FRAME) in error["message"]
                    await still_open(ws)
                await ws.send("x" * (MAX_TRANSPORT + 1))
                code, _ = await closed_code(ws)
                assert code == 1009

        asyncio.run(go())


def test_request_bodies_are_bounded(db: Db, quiet_log: Any) -> None:
    body = {"game": "rummikub", "seats": TWO, "pad": "x" * MAX_BODY}
    with live(db.app()) as base:
        assert str(MAX_BODY) in refusal(post(base, body), 413, "REQUEST")

        def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts what arrives
            data = json.dumps(body).encode()
            for i in range(0, len(data), 1000):
                yield data[i : i + 1000]

        assert str(MAX_BODY) in refusal(post(base, content=chunks()), 413, "REQUEST")  # type: ignore[arg-type]
        assert get(base, "/api/tables").json() == []
        # Just under the limit is read as usual.
        small = {"game": "rummikub", "seats": TWO, "pad": "x" * (MAX_BODY - 200)}
        assert post(base, small).status_code == 200


def test_error_messages_do_not_echo_the_input(db: Db, quiet_log: Any) -> None:
    long = "q" * 20000
    with live(db.app()) as base:
        for body, status, rule in (
            ({"game": long[:10000], "seats": TWO}, 400, "GAME"),
            ({"game": "rummikub", "seats": [{"kind": "person"}, {"kind": "bot", "level": long[:10000]}]}, 400, "SEATS"),
            ({"game": "rummikub", "seats": TWO, "options": {long[:10000]: 1}}, 400, "OPTION"),
            ({"game": "rummikub", "seats": [{"kind": "person", "name": "\x07" + long[:10000]}, {"kind": "bot"}]}, 400, "NAME"),
        ):
            assert long[:500] not in refusal(post(base, body), status, rule)
        with table(base) as made:

            async def go() -> None:
                async with connect(base, made["table"]) as ws:
                    await ws.send(json.dumps({"type": long}))
                    error = await until(ws, "error")
                    assert len(error["message"]) <= p.MAX_MESSAGE and long[:100] not in error["message"]
                    await ws.send(json.dumps({"type": "hello", "token": made["seats"][0]["token"]}))
                    await until(ws, "welcome")
                    for frame in ({"type": long}, {"type": "act", "text": long}, {"type": "act", "text": "play " + long},
                                  {"type": "check", "table": [[long]]}, {"type": "act", "action": {"type": long}}):
                        await ws.send(json.dumps(frame))
                        error = await until(ws, "error")
                        assert len(error["message"]) <= p.MAX_MESSAGE and long[:500] not in error["message"], frame

            asyncio.run(go())


# -- 6. before hello ---------------------------------------------------------------------------


def test_a_flood_before_hello_is_cut_off(db: Db, quiet_log: Any) -> None:
    with live(db.app()) as base, table(base) as made:

        async def go() -> None:
            async with connect(base, made["table"]) as ws:
                for _ in range(400):
                    await ws.send(json.dumps({"type": "ping"}))
                code, frames = await closed_code(ws)
                rules = [f.get("rule") for f in frames]
                assert code == 1008
                assert rules.count("FLOOD") == MAX_REFUSED and rules.count("PROTOCOL") <= 40
            # A client that floods and drops the connection while it is being answered: the server stops
            # quietly (no traceback in the log), before hello and after.
            for hello, count in ((False, 10), (False, 60), (False, 400), (True, 400)):
                async with connect(base, made["table"]) as ws:
                    if hello:
                        await ws.send(json.dumps({"type": "hello", "token": None}))
                    for _ in range(count):
                        await ws.send(json.dumps({"type": "ping"}))
                    ws.transport.abort()
            await asyncio.sleep(1)

        asyncio.run(go())


def test_the_hello_deadline_does_not_restart(db: Db, quiet_log: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_connection, "HELLO_TIMEOUT", 1.0)
    with live(db.app()) as base, table(base) as made:

        async def go() -> float:
            async with connect(base, made["table"]) as ws:
                start = time.monotonic()

                async def keep_talking() -> None:
                    while True:
                        await ws.send(json.dumps({"type": "ping"}))
                        await asyncio.sleep(0.2)

                talker = asyncio.get_running_loop().create_task(keep_talking())
                try:
                    code, frames = await asyncio.wait_for(closed_code(ws), 5)
                finally:
                    talker.cancel()
                assert code == 1008
                assert any("no hello" in f.get("message", "") for f in frames)
                return time.monotonic() - start

        assert asyncio.run(go()) < 3


# -- chosen seeds ------------------------------------------------------------------------------


def test_a_chosen_seed_is_for_a_table_of_at_most_one_person(db: Db, quiet_log: Any) -> None:
    """Whoever chooses a seed can work out every hidden piece: by default only for a table with one person or none."""
    people = [{"kind": "person", "name": "ann"}, {"kind": "person", "name": "bob"}]
    with live(create_app(db.url, schema=db.schema)) as base:
        assert "hidden" in refusal(post(base, {"game": "rummikub", "seats": people, "seed": 4}), 400, "SEED")
        assert get(base, "/api/tables").json() == []
        assert post(base, {"game": "rummikub", "seats": people}).status_code == 200
        assert post(base, {"game": "rummikub", "seats": TWO, "seed": 4}).status_code == 200
        bots = [{"kind": "bot"}, {"kind": "bot"}]
        assert post(base, {"game": "rummikub", "seats": bots, "seed": 4}).status_code == 200
    with live(db.app(chosen_seeds=True)) as base:  # a practice or testing server (``--chosen-seeds``)
        assert post(base, {"game": "rummikub", "seats": people, "seed": 4}).status_code == 200


# -- the page states the limits ----------------------------------------------------------------


def test_online_md_states_the_limits_as_enforced() -> None:
    page = " ".join((Path(__file__).resolve().parents[1] / "docs" / "online.md").read_text().split())
    for fact in (
        f"{MAX_FRAME // 1024} KiB",
        f"{MAX_TRANSPORT // 1024} KiB",
        "1009",
        f"{p.MAX_DEPTH} levels",
        f"{MAX_BODY // 1024} KiB",
        f"{p.MAX_NAME} characters",
        f"{server_connection.HELLO_TIMEOUT:g} seconds",
        f"after {MAX_REFUSED} refused frames",
        f"{p.MAX_MESSAGE} characters",
    ):
        assert fact in page, fact
    assert "`NAME`" in page and "`MU-TURN`" in page
    assert not re.search(r"sends `action: null` for now", page)

