"""Where the server keeps its tables: SQLAlchemy 2 over SQLite (default) or PostgreSQL.

Two tables: ``tables`` (one row per game table, with the engine's state
fingerprint after ``seq`` actions) and ``actions`` (every accepted action, in
order). :meth:`Store.record_action` writes an action and the table's new
``seq`` and snapshot in one transaction; the caller tells clients only after
it returns.

The actions of a table are chained: each row's ``chain`` is the hash of the
previous row's (:func:`chain_start` before the first) and its own action
text, and the table row holds the last one, so a restore finds any stored
action changed afterwards (:func:`chain_next`, one hash per action).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    BindParameter,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

from rummykit.engine.core import ViewHeader
from rummykit.engine.options import OptionValue
from rummykit.server.batchsql import batch_sql
from rummykit.server.frames import SeatKind, Status
from rummykit.server.outbox import frame_text

DEFAULT_DB = "sqlite:///rummykit-server.db"

log = logging.getLogger("rummykit.server")

metadata = MetaData()

tables_table = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("clock", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("snapshot", String(64), nullable=False),
    Column("spectator_view", JSON, nullable=False),
    Column("bot_draws", JSON, nullable=False),
    Column("chain", String(64), nullable=True),  # null only in databases of earlier servers, until migrated
    Column("name", String(80), nullable=True),  # null in databases of earlier servers: a name made from the id
    Column("host", String(64), nullable=True),  # the hash of the host token; null: nobody hosts the table
)

LATER_COLUMNS = {"name": "VARCHAR(80)", "host": "VARCHAR(64)"}
"""Columns of ``tables`` added after the first servers, each nullable: added to an older database when missing."""

CLOSED = "closed"
"""The stored status of a table closed by its host or expired: it is never restored (see :meth:`Store.close_table`)."""

actions_table = Table(
    "actions",
    metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("chain", String(64), nullable=True),
)


def chain_start(table_id: str) -> str:
    """The chain hash of a table before its first action."""
    return hashlib.blake2b(f"rummykit actions of table {table_id}".encode(), digest_size=24).hexdigest()


def chain_next(previous: str, action: str) -> str:
    """The chain hash after ``action`` (its text as stored): BLAKE2b of the previous hash and the text.

    >>> first = chain_next(chain_start("t"), "0 draw")
    >>> len(first), first != chain_next(chain_start("t"), "1 draw"), first != chain_next(chain_start("u"), "0 draw")
    (48, True, True)
    """
    return hashlib.blake2b(f"{previous}\n{action}".encode("utf-8", "surrogatepass"), digest_size=24).hexdigest()


class StoreError(RuntimeError):
    """The database refused a write (the action it carried is not accepted)."""


class SeatRow(TypedDict):
    """A seat as the ``seats`` column keeps it: a person with the hash of its token, or a bot with its level."""

    kind: SeatKind
    name: str
    level: str | None
    token_hash: str | None


class TableRow(TypedDict):
    """A new row of ``tables`` (:meth:`Store.create_table`)."""

    id: str
    game: str
    options: dict[str, OptionValue]
    seed: int
    seats: list[SeatRow]
    clock: float | None
    status: Status
    created: float
    seq: int
    snapshot: str
    spectator_view: ViewHeader
    bot_draws: list[int]
    chain: NotRequired[str]
    name: NotRequired[str]
    host: NotRequired[str | None]


class ActionRow(TypedDict):
    """An action to write and the table's state after it (:meth:`Store.record_action`'s arguments)."""

    table_id: str
    seq: int
    action: str
    chain: str
    snapshot: str | None
    spectator_view: ViewHeader
    status: Status
    bot_draws: list[int]


@dataclass
class StoredTable:
    """A row of ``tables`` and its actions, in order."""

    id: str
    game: str
    options: dict[str, OptionValue]
    seed: int
    seats: list[SeatRow]
    clock: float | None
    status: Status
    created: float
    seq: int
    snapshot: str
    bot_draws: list[int]
    actions: list[str]
    chain: str | None = None
    """The chain hash after the last action, as the table row holds it."""
    chains: list[str | None] = field(default_factory=list)
    """Each action row's chain hash, in order."""
    name: str | None = None
    """The table's name as its creator chose or the server made it (None: stored by an earlier server)."""
    host: str | None = None
    """The hash of the table's host token (None: nobody hosts it)."""


def make_engine(url: str, schema: str | None = None) -> Engine:
    """An engine for ``url`` (SQLite in WAL mode); ``schema`` puts the tables in that PostgreSQL schema."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, json_serializer=frame_text)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True, json_serializer=frame_text)
    if schema is not None:
        engine = engine.execution_options(schema_translate_map={None: schema})
    return engine


class Store:
    """The server's database: create tables, record actions, load unfinished tables."""

    def __init__(self, url: str = DEFAULT_DB, *, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self.engine = make_engine(url, schema)
        # SQLite lets one writer in at a time and makes the others sleep and retry (its busy handler
        # sleeps up to 100 ms a time), so the server's own writers queue here instead, in order.
        self._write_lock: threading.Lock | None = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else None
        )
        self._batch = batch_sql(self.engine, schema)
        """The batch's statements written for the driver (see :mod:`~rummykit.server.batchsql`), or None."""
        metadata.create_all(self.engine)
        self._add_chains()
        self._add_later_columns()

    def _add_later_columns(self) -> None:
        """Add the nullable columns of :data:`LATER_COLUMNS` a database of an earlier server lacks."""
        with self._writing() as conn:
            have = {c["name"] for c in inspect(conn).get_columns(tables_table.name, schema=self.schema)}
            quote = self.engine.dialect.identifier_preparer.quote
            where = f"{quote(self.schema)}.{quote(tables_table.name)}" if self.schema else quote(tables_table.name)
            for name, kind in LATER_COLUMNS.items():
                if name not in have:
                    conn.execute(text(f"ALTER TABLE {where} ADD COLUMN {name} {kind}"))

    def _add_chains(self) -> None:
        """Bring a database of an earlier server up to date: add the ``chain`` columns and fill them in.

        Done once, in one transaction, when the columns are missing: every
        table's stored actions are chained as they stand (they were checked
        only by the fingerprint until then, which a restore still checks).
        From then on every row has its chain, and a missing one is refused
        like a wrong one.
        """
        with self._writing() as conn:
            names = {t.name: {c["name"] for c in inspect(conn).get_columns(t.name, schema=self.schema)}
                     for t in (tables_table, actions_table)}
            missing = [name for name, columns in names.items() if "chain" not in columns]
            if not missing:
                return
            quote = self.engine.dialect.identifier_preparer.quote
            for name in missing:
                where = f"{quote(self.schema)}.{quote(name)}" if self.schema else quote(name)
                conn.execute(text(f"ALTER TABLE {where} ADD COLUMN chain VARCHAR(64)"))
            ids = conn.execute(select(tables_table.c.id)).scalars().all()
            for table_id in ids:
                head = chain_start(table_id)
                rows = []
                for seq, action in conn.execute(
                    select(actions_table.c.seq, actions_table.c.action)
                    .where(actions_table.c.table_id == table_id)
                    .order_by(actions_table.c.seq)
                ):
                    head = chain_next(head, action)
                    rows.append({"b_id": table_id, "b_seq": seq, "b_chain": head})
                if rows:
                    conn.execute(
                        update(actions_table)
                        .where(actions_table.c.table_id == bindparam("b_id"), actions_table.c.seq == bindparam("b_seq"))
                        .values(chain=bindparam("b_chain")),
                        rows,
                    )
                conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(chain=head))
            log.warning("the database was written by an earlier server: the actions of its %d tables are chained now", len(ids))

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction (committed on leaving), one at a time on SQLite."""
        with self._write_lock or contextlib.nullcontext(), self.engine.begin() as conn:
            yield conn

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    def create_table(self, row: TableRow) -> None:
        """Insert a new table row (``seq`` 0; its ``chain`` is :func:`chain_start` unless given)."""
        with self._writing() as conn:
            conn.execute(insert(tables_table).values(**{"chain": chain_start(row["id"]), **row}))

    def record_action(
        self,
        table_id: str,
        seq: int,
        action: str,
        *,
        chain: str,
        snapshot: str | None,
        spectator_view: ViewHeader,
        status: Status,
        bot_draws: list[int],
    ) -> None:
        """Write action number ``seq`` (from 1) and the table's state after it, in one transaction.

        ``snapshot`` None keeps the stored fingerprint (it says after which action it was taken);
        ``chain`` is the chain hash after this action (:func:`chain_next`).

        Raises :class:`StoreError` when the row was not at ``seq - 1`` (another
        writer) or the database refused.
        """
        try:
            with self._writing() as conn:
                conn.execute(
                    insert(actions_table).values(table_id=table_id, seq=seq, action=action, at=time.time(), chain=chain)
                )
                done = conn.execute(
                    update(tables_table)
                    .where(tables_table.c.id == table_id, tables_table.c.seq == seq - 1)
                    .values(
                        seq=seq,
                        spectator_view=spectator_view,
                        status=status,
                        bot_draws=bot_draws,
                        chain=chain,
                        **({} if snapshot is None else {"snapshot": snapshot}),
                    )
                )
                if done.rowcount != 1:
                    raise StoreError(f"table {table_id} is not at action {seq - 1} in the database")
        except StoreError:
            raise
        except Exception as exc:  # the driver's own errors: the action is not accepted
            raise StoreError(f"could not store action {seq} of table {table_id}: {exc}") from exc

    def record_batch(self, items: list[ActionRow]) -> None:
        """Write several actions (of any tables, each as :meth:`record_action`'s arguments) in one transaction.

        All or nothing: :class:`StoreError` when any of them cannot be written.
        The rows go as one insert and one update for the batch on SQLite and
        PostgreSQL (:mod:`~rummykit.server.batchsql`), else as one multi-row
        insert and (at most) two many-row updates; never two statements per action.
        """
        if len({item["table_id"] for item in items}) != len(items):
            raise StoreError("a batch holds two actions of one table")  # the Writer then writes them one by one
        try:
            with self._writing() as conn:
                now = time.time()
                if self._batch is not None:
                    updated = self._batch(conn, items, now)
                    if updated != len(items):
                        raise StoreError(f"{len(items) - updated} of {len(items)} tables were not at the action before")
                    return
                conn.execute(
                    insert(actions_table),
                    [{"table_id": i["table_id"], "seq": i["seq"], "action": i["action"], "at": now, "chain": i["chain"]}
                     for i in items],
                )
                for with_snapshot in (False, True):
                    rows = [
                        {"b_id": i["table_id"], "b_prev": i["seq"] - 1, "b_seq": i["seq"], "b_view": i["spectator_view"],
                         "b_status": i["status"], "b_draws": i["bot_draws"], "b_snapshot": i["snapshot"],
                         "b_chain": i["chain"]}
                        for i in items
                        if (i["snapshot"] is not None) == with_snapshot
                    ]
                    if not rows:
                        continue
                    values: dict[str, BindParameter[object]] = {
                        "seq": bindparam("b_seq"),
                        "spectator_view": bindparam("b_view"),
                        "status": bindparam("b_status"),
                        "bot_draws": bindparam("b_draws"),
                        "chain": bindparam("b_chain"),
                    }
                    if with_snapshot:
                        values["snapshot"] = bindparam("b_snapshot")
                    else:
                        for row in rows:
                            del row["b_snapshot"]
                    done = conn.execute(
                        update(tables_table)
                        .where(tables_table.c.id == bindparam("b_id"), tables_table.c.seq == bindparam("b_prev"))
                        .values(**values),
                        rows,
                    )
                    if done.rowcount != len(rows):
                        raise StoreError(f"{len(rows) - done.rowcount} of {len(rows)} tables were not at the action before")
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"could not store a batch of {len(items)} actions: {exc}") from exc

    def set_status(self, table_id: str, status: str) -> None:
        """Change a table's status (waiting -> playing) outside an action."""
        with self._writing() as conn:
            conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(status=status))

    def set_seats(self, table_id: str, seats: list[SeatRow]) -> None:
        """Change who sits in a table's seats (a person's seat handed to a bot)."""
        with self._writing() as conn:
            conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(seats=seats))

    def close_table(self, table_id: str) -> None:
        """Mark a table closed (:data:`CLOSED`): its rows stay, it is never restored. A finished table stays over."""
        with self._writing() as conn:
            conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.status != "over")
                .values(status=CLOSED)
            )

    def set_snapshot(self, table_id: str, snapshot: str) -> None:
        """Overwrite a table's stored snapshot (tests use it to simulate a corrupt row)."""
        with self._writing() as conn:
            conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(snapshot=snapshot))

    def load(self, *, unfinished_only: bool = True, table_id: str | None = None) -> list[StoredTable]:
        """Every table (by default only those not over; with ``table_id`` only that one), with its actions in order."""
        out: list[StoredTable] = []
        with self.engine.connect() as conn:
            query = select(tables_table).order_by(tables_table.c.created)
            if unfinished_only:
                query = query.where(tables_table.c.status.not_in(["over", CLOSED]))
            if table_id is not None:
                query = query.where(tables_table.c.id == table_id)
            rows = conn.execute(query).mappings().all()
            for row in rows:
                acts = conn.execute(
                    select(actions_table.c.action, actions_table.c.chain)
                    .where(actions_table.c.table_id == row["id"])
                    .order_by(actions_table.c.seq)
                ).all()
                out.append(
                    StoredTable(
                        id=row["id"],
                        game=row["game"],
                        options=_json(row["options"]),
                        seed=row["seed"],
                        seats=_json(row["seats"]),
                        clock=row["clock"],
                        status=row["status"],
                        created=row["created"],
                        seq=row["seq"],
                        snapshot=row["snapshot"],
                        bot_draws=_json(row["bot_draws"]),
                        actions=[a for a, _ in acts],
                        chain=row["chain"],
                        chains=[c for _, c in acts],
                        name=row["name"],
                        host=row["host"],
                    )
                )
        return out


def store_error(item: ActionRow, exc: BaseException) -> StoreError:
    """The :class:`StoreError` refusing ``item`` for ``exc``."""
    return StoreError(f"could not store action {item.get('seq')} of table {item.get('table_id')}: {exc!r}")


T = TypeVar("T")


def _json(value: T | str) -> T:
    """A JSON column's value: the value itself, or (as some drivers hand it back) its JSON text."""
    if isinstance(value, str):
        decoded: T = json.loads(value)
        return decoded
    return value
