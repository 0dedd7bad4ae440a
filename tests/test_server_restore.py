"""Restoring tables on start: replayed from the database and checked against the stored snapshot."""

from __future__ import annotations

from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from test_server_support import Db, create, db, until

from rummykit.engine.core import ViewHeader
from rummykit.server.rooms import RestoreError, Room, fingerprint
from rummykit.server.store import Store, actions_table

__all__ = ["db"]


def _play(client: TestClient, made: dict[str, Any], actions: int) -> dict[int, dict[str, Any]]:
    """Both seats connect; the seat to act draws (or passes) until ``actions`` were accepted. The last states."""
    last: dict[int, dict[str, Any]] = {}
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        socks = {0: a, 1: b}
        for seat, ws in socks.items():
            ws.send_json({"type": "hello", "token": made["seats"][seat]["token"]})
            until(ws, "welcome")
        for seat, ws in socks.items():
            last[seat] = until(ws, "state")
            while last[seat]["status"] != "playing":
                last[seat] = until(ws, "state")
        while last[0]["seq"] < actions:
            turn = last[0]["view"]["turn"]
            socks[turn].send_json({"type": "legal"})
            legal = until(socks[turn], "legal")["actions"]
            pick = next(x for x in legal if x["text"] in ("draw", "pass"))
            socks[turn].send_json({"type": "act", "action": pick["json"]})
            seq = last[0]["seq"]
            for seat, ws in socks.items():
                frame = until(ws, "state")
                while frame["seq"] == seq:
                    frame = until(ws, "state")
                last[seat] = frame
    return last


def test_tables_come_back_at_the_same_state(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=8)
        last = _play(client, made, 6)
        before: Room = client.app.state.hall.rooms[made["table"]]  # type: ignore[attr-defined]
        print_before = fingerprint(before.state)
    assert last[0]["seq"] == 6
    with TestClient(db.app()) as client:
        room: Room = client.app.state.hall.rooms[made["table"]]  # type: ignore[attr-defined]
        assert room.seq == 6 and fingerprint(room.state) == print_before
        assert client.get(f"/api/tables/{made['table']}").json()["status"] == "playing"
        for seat in (0, 1):
            with client.websocket_connect(f"/ws/{made['table']}") as ws:
                ws.send_json({"type": "hello", "token": made["seats"][seat]["token"]})
                assert until(ws, "welcome")["seat"] == seat
                state = until(ws, "state")
                assert state["seq"] == 6 and state["view"] == last[seat]["view"]
                assert state["log"], "the log is told again after a restart"
        last = _play(client, made, 8)
        assert last[1]["seq"] == 8


def test_a_snapshot_mismatch_stops_the_server(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 3)
    store = Store(db.url, schema=db.schema)
    try:
        store.set_snapshot(made["table"], "0" * 64)
    finally:
        store.close()
    with pytest.raises(RestoreError, match=f"table {made['table']} does not replay to its stored snapshot"):
        db.app()


@pytest.mark.parametrize(("stored", "message"), [
    ("0:" + "0" * 48, "does not replay to its stored snapshot \\(after 0 actions\\)"),
    ("2:" + "0" * 48, "does not replay to its stored snapshot \\(after 2 actions\\)"),
    ("9:" + "0" * 48, "its snapshot is after action 9 but only 3 are stored"),
])
def test_a_counted_snapshot_is_checked_where_it_was_taken(db: Db, stored: str, message: str) -> None:
    """The fingerprint names the action after which it was taken; the replay is checked there."""
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 3)
    store = Store(db.url, schema=db.schema)
    try:
        assert store.load()[0].snapshot.startswith("0:"), "renewed only every FINGERPRINT_EVERY actions"
        store.set_snapshot(made["table"], stored)
    finally:
        store.close()
    with pytest.raises(RestoreError, match=f"table {made['table']}.*{message}"):
        db.app()


def test_a_record_that_does_not_replay_stops_the_server(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 3)
    store = Store(db.url, schema=db.schema)
    try:
        with store.engine.begin() as conn:
            conn.execute(
                update(actions_table)
                .where(actions_table.c.table_id == made["table"], actions_table.c.seq == 2)
                .values(action="0 play R1 R2 R3 : R1 R2 R3")
            )
    finally:
        store.close()
    with pytest.raises(RestoreError, match="action 2"):
        db.app()


def test_group_commit_refuses_only_the_faulty_action(db: Db) -> None:
    """A batch with one action at the wrong seq: the others are committed, that one raises StoreError."""
    import asyncio

    from rummykit.catalogue import new_game
    from rummykit.server.store import StoreError
    from rummykit.server.writer import Writer

    store = Store(db.url, schema=db.schema)
    try:
        state = new_game("rummikub", players=2, seed=1)
        view = cast("ViewHeader", {})  # the store keeps a spectator's view as it is given
        for table in ("a", "b"):
            store.create_table({
                "id": table, "game": "rummikub", "options": dict(state.options), "seed": 1,
                "seats": [], "clock": None, "status": "playing", "created": 0.0, "seq": 0,
                "snapshot": fingerprint(state), "spectator_view": view, "bot_draws": [0, 0],
            })
        writer = Writer(store)

        async def write(table_id: str, seq: int, action: str) -> None:
            await writer.write(table_id=table_id, seq=seq, action=action, snapshot="x", spectator_view=view,
                               status="playing", bot_draws=[0, 0], chain="c")

        async def both() -> list[BaseException | None]:
            results = await asyncio.gather(
                write("a", 1, "0 draw"),
                write("b", 5, "0 draw"),
                write("b", 1, "1 draw"),
                return_exceptions=True,
            )
            return list(results)

        results = asyncio.run(both())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StoreError)
        stored = {t.id: t for t in store.load()}
        assert (stored["a"].seq, stored["a"].actions) == (1, ["0 draw"])
        assert (stored["b"].seq, stored["b"].actions) == (1, ["1 draw"])
    finally:
        store.close()
