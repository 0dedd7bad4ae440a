"""The chain of stored actions: any change to any stored action is found at start, and earlier databases are brought up to it.

The fingerprint of the engine's state is renewed every 16 actions, so a
stored action replaced after the last one by another *legal* action used
to replay silently (issue 21, item 8). Each action row now holds the hash of
the previous row's hash and its action, and the table row the last one.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text, update
from test_server_support import Db, create, db, until

from rummykit.catalogue import find_game
from rummykit.server.rooms import RestoreError, fingerprint
from rummykit.server.store import Store, actions_table, chain_next, chain_start, tables_table

__all__ = ["db"]


def _play(client: TestClient, made: dict[str, Any], actions: int) -> dict[str, Any]:
    """Both seats connect; the seat the game waits for plays draw (or pass, or its first listed action) until ``actions``."""
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        socks = {0: a, 1: b}
        last: dict[str, Any] = {}
        for seat, ws in socks.items():
            ws.send_json({"type": "hello", "token": made["seats"][seat]["token"]})
            until(ws, "welcome")
            last = until(ws, "state")
        while last["status"] != "playing":
            last = until(b, "state")
        while last["seq"] < actions:
            seat = last["view"]["must_act"][0]
            socks[seat].send_json({"type": "legal"})
            listed = until(socks[seat], "legal")["actions"]
            pick = next((x for x in listed if x["text"] in ("draw", "pass")), listed[0])
            socks[seat].send_json({"type": "act", "action": pick["json"]})
            seq = last["seq"]
            while last["seq"] == seq:
                last = until(b, "state")
    return last


def _stored_actions(store: Store, table: str) -> list[str]:
    with store.engine.connect() as conn:
        return list(conn.execute(
            select(actions_table.c.action).where(actions_table.c.table_id == table).order_by(actions_table.c.seq)
        ).scalars())


def _legal_substitute(game: str, made: dict[str, Any], seed: int, record: list[str]) -> str:
    """Another action the engine accepts in place of the last one of ``record`` (so the record still replays)."""
    info = find_game(game)
    state = info.new(players=[s["name"] for s in made["seats"]], seed=seed)
    for line in record[:-1]:
        state.apply(info.parse_action(line))
    last = info.parse_action(record[-1])
    other = next(str(a) for a in state.indexed_actions(last.player) if str(a) != record[-1])
    state.apply(info.parse_action(other))  # legal: only the chain can tell
    return other


def _replace(store: Store, table: str, seq: int, action: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            update(actions_table)
            .where(actions_table.c.table_id == table, actions_table.c.seq == seq)
            .values(action=action)
        )


def test_a_legal_substitution_after_the_last_fingerprint_is_refused_at_start(db: Db) -> None:
    """``0 discard 3C`` replaced by another legal discard: the restore names the action and refuses to start."""
    with TestClient(db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 4)
    table = made["table"]
    store = Store(db.url, schema=db.schema)
    try:
        record = _stored_actions(store, table)
        assert len(record) == 4 and store.load()[0].snapshot.startswith("0:"), "the last fingerprint is before them"
        other = _legal_substitute("mummus", made, 8, record)
        _replace(store, table, 4, other)
    finally:
        store.close()
    with pytest.raises(RestoreError, match=f"table {table}: action 4 \\('{other}'\\) is not the action stored there"):
        db.app()


def test_every_row_and_the_table_hold_the_chain(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 5)
        room = client.app.state.hall.rooms[made["table"]]  # type: ignore[attr-defined]
        live = room.chain
    table = made["table"]
    store = Store(db.url, schema=db.schema)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table.c.action, actions_table.c.chain)
                .where(actions_table.c.table_id == table).order_by(actions_table.c.seq)
            ).all()
            head = conn.execute(select(tables_table.c.chain).where(tables_table.c.id == table)).scalar_one()
        expected = chain_start(table)
        for action, chain in rows:
            expected = chain_next(expected, action)
            assert chain == expected
        assert head == expected == live and len(rows) == 5
        # A row whose chain is cleared is refused like a changed one; so is a table whose head is.
        with store.engine.begin() as conn:
            conn.execute(update(actions_table).where(actions_table.c.table_id == table, actions_table.c.seq == 2)
                         .values(chain=None))
    finally:
        store.close()
    with pytest.raises(RestoreError, match=r"action 2 .* is not the action stored there"):
        db.app()


def _drop_chain_columns(db: Db) -> None:
    """Make the database look like one an earlier server wrote: no ``chain`` columns."""
    store = Store(db.url, schema=db.schema)
    try:
        quote = store.engine.dialect.identifier_preparer.quote
        with store.engine.begin() as conn:
            for name in ("actions", "tables"):
                where = f"{quote(db.schema)}.{quote(name)}" if db.schema else quote(name)
                conn.execute(text(f"ALTER TABLE {where} DROP COLUMN chain"))
    finally:
        store.close()


def test_a_database_of_an_earlier_server_is_chained_on_start(db: Db, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "person"}], seed=8)
        _play(client, made, 3)
        before = fingerprint(client.app.state.hall.rooms[made["table"]].state)  # type: ignore[attr-defined]
    table = made["table"]
    _drop_chain_columns(db)
    with TestClient(db.app()) as client:
        room = client.app.state.hall.rooms[table]  # type: ignore[attr-defined]
        assert room.seq == 3 and fingerprint(room.state) == before
        assert "earlier server" in caplog.text
        last = _play(client, made, 4)
        assert last["seq"] == 4
    store = Store(db.url, schema=db.schema)
    try:
        with store.engine.connect() as conn:
            nulls = conn.execute(
                select(func.count()).select_from(actions_table).where(actions_table.c.chain.is_(None))
            ).scalar_one()
        assert nulls == 0
        record = _stored_actions(store, table)
        _replace(store, table, 4, _legal_substitute("mummus", made, 8, record))
    finally:
        store.close()
    with pytest.raises(RestoreError, match=r"action 4 .* is not the action stored there"):
        db.app()
