"""A group commit's statements written for the driver: one insert and one update per batch, whatever its size.

:meth:`Store.record_batch <rummykit.server.store.Store.record_batch>` writes
the actions of many tables in one transaction. Through SQLAlchemy's
``executemany`` each row cost Python work in SQLAlchemy (its parameters
built and processed) and, on PostgreSQL with psycopg 3, one statement in the
pipeline per row (its result read back in Python): 36 us of the server's CPU
per action on PostgreSQL, 19 us on SQLite, at 200 tables. Here the same rows
go as the driver's own statements:

- on PostgreSQL (psycopg), one ``INSERT ... SELECT FROM unnest(...)`` and one
  ``UPDATE ... FROM unnest(...)``, each column an array parameter;
- on SQLite, the driver's ``executemany`` of one insert and one update (its
  loop is in C), the parameters as tuples.

The same rows, columns and values as SQLAlchemy's statements (the JSON
columns written by the same :func:`~rummykit.server.outbox.frame_text`), in
the same transaction: a batch is still all or nothing and the commit (and
what it keeps on a crash) is unchanged. A row whose table is not at the
action before is not updated, and the caller refuses the batch by the row
count, as before. Another database (or driver) keeps SQLAlchemy's statements
(:func:`batch_sql` is None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine

from rummykit.server.outbox import frame_text

if TYPE_CHECKING:
    from rummykit.server.store import ActionRow

__all__ = ["BatchWriter", "batch_sql"]

BatchWriter = Callable[[Connection, Sequence["ActionRow"], float], int]
"""Writes a batch's rows (the insert and the update) on a connection in a transaction; the tables updated."""


def batch_sql(engine: Engine, schema: str | None) -> BatchWriter | None:
    """The batch writer for this engine's database and driver, or None (SQLAlchemy's statements are used)."""
    dialect = engine.dialect
    quote = dialect.identifier_preparer.quote
    prefix = f"{quote(schema)}." if schema else ""
    tables, actions = f"{prefix}{quote('tables')}", f"{prefix}{quote('actions')}"
    if dialect.name == "postgresql" and dialect.driver == "psycopg":
        return _postgresql(tables, actions)
    if dialect.name == "sqlite" and dialect.driver == "pysqlite":
        return _sqlite(tables, actions)
    return None


def _postgresql(tables: str, actions: str) -> BatchWriter:
    insert = (
        f"INSERT INTO {actions} (table_id, seq, action, at, chain)"
        " SELECT * FROM unnest(%(id)b::text[], %(seq)b::int[], %(action)b::text[], %(at)b::float8[], %(chain)b::text[])"
    )
    # The snapshot stays as stored where a row brings none (it says after which action it was taken).
    update = (
        f"UPDATE {tables} AS t SET seq = v.seq, spectator_view = v.view::json, status = v.status,"
        " bot_draws = v.draws::json, chain = v.chain, snapshot = COALESCE(v.snapshot, t.snapshot)"
        " FROM unnest(%(id)b::text[], %(prev)b::int[], %(seq)b::int[], %(view)b::text[], %(status)b::text[],"
        " %(draws)b::text[], %(snapshot)b::text[], %(chain)b::text[])"
        " AS v(id, prev, seq, view, status, draws, snapshot, chain)"
        " WHERE t.id = v.id AND t.seq = v.prev"
    )

    def write(conn: Connection, items: Sequence[ActionRow], now: float) -> int:
        ids = [i["table_id"] for i in items]
        seqs = [i["seq"] for i in items]
        chains = [i["chain"] for i in items]
        conn.exec_driver_sql(
            insert, {"id": ids, "seq": seqs, "action": [i["action"] for i in items], "at": [now] * len(items), "chain": chains}
        )
        done = conn.exec_driver_sql(update, {
            "id": ids,
            "prev": [s - 1 for s in seqs],
            "seq": seqs,
            "view": [frame_text(i["spectator_view"]) for i in items],
            "status": [i["status"] for i in items],
            "draws": [frame_text(i["bot_draws"]) for i in items],
            "snapshot": [i["snapshot"] for i in items],
            "chain": chains,
        })
        return done.rowcount

    return write


def _sqlite(tables: str, actions: str) -> BatchWriter:
    insert = f"INSERT INTO {actions} (table_id, seq, action, at, chain) VALUES (?, ?, ?, ?, ?)"
    update = (
        f"UPDATE {tables} SET seq = ?, spectator_view = ?, status = ?, bot_draws = ?, chain = ?,"
        " snapshot = COALESCE(?, snapshot) WHERE id = ? AND seq = ?"
    )

    def write(conn: Connection, items: Sequence[ActionRow], now: float) -> int:
        conn.exec_driver_sql(insert, [(i["table_id"], i["seq"], i["action"], now, i["chain"]) for i in items])
        done = conn.exec_driver_sql(update, [
            (i["seq"], frame_text(i["spectator_view"]), i["status"], frame_text(i["bot_draws"]), i["chain"],
             i["snapshot"], i["table_id"], i["seq"] - 1)
            for i in items
        ])
        return done.rowcount

    return write
