"""The game server's CPU per action without the network: rooms played in one process, every frame written.

Run by hand (not a test)::

    .venv/bin/python bench/bench_room_cpu.py --tables 200 --actions 20000
    .venv/bin/python bench/bench_room_cpu.py --src /path/to/other/checkout/src   # another tree's server code

It makes ``--tables`` rooms of 2-seat ``rummikub`` (single rounds) over a
fresh SQLite database, each seat with one connection (a
:class:`~rummykit.server.outbox.Conn`, no socket), and plays random legal
actions round the tables through :meth:`Room.act <rummykit.server.rooms.Room.act>`
(the engine's full check, the group-commit write, the fingerprint, the
views, the listings, the narration), taking every connection's frames as
JSON text as its writer would. A finished table is replaced by a new one.
Every table acts at once (as at 200 tables flat out, so the writes share
their commits), then the next round. Reported: the process's CPU
milliseconds per action over the measured actions (after ``--warmup``),
the random choices' own time left out. With ``--frames`` each action goes as
the client's ``act`` frame (its JSON text), read and checked as the server
reads it; ``--db postgresql`` writes to a fresh schema of the local
PostgreSQL; ``--gc-pacing`` paces the garbage collector as ``rummykit serve``
does. ``bench/bench_server.py`` measures
the whole server over WebSockets; this one leaves out the WebSocket stack and
the clients, so two trees compare on the same machine load without the
clients' share.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000, help="actions measured (after a warm-up)")
    parser.add_argument("--warmup", type=int, default=2000, help="actions played before measuring")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the rummykit sources to measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="sqlite", help="sqlite (a fresh file), or postgresql (a fresh schema in --pg)")
    parser.add_argument("--pg", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    parser.add_argument("--frames", action="store_true",
                        help="send each action as the client's act frame (JSON text), read as the server reads it")
    parser.add_argument("--gc-pacing", action="store_true",
                        help="pace the garbage collector as `rummykit serve` does (the tree's GcPacer, ticked each round)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.src))
    asyncio.run(run(args))
    return 0


async def run(args: argparse.Namespace) -> None:
    from rummykit.catalogue import find_game
    from rummykit.engine.core import Action
    from rummykit.server.integrity import fingerprint
    from rummykit.server.outbox import Conn
    from rummykit.server.rooms import Room, Seat
    from rummykit.server.store import Store

    try:
        from rummykit.server.writer import Writer  # session 10 on
    except ImportError:  # an earlier tree (--src): the writer was in the store's module
        from rummykit.server.store import Writer  # type: ignore[attr-defined,no-redef]
    from rummykit.session import GameSession

    info = find_game("rummikub")
    schema = None
    if args.db == "postgresql":
        import uuid

        from sqlalchemy import create_engine, text

        schema = f"rk_roomcpu_{uuid.uuid4().hex[:8]}"
        admin = create_engine(args.pg)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        store = Store(args.pg, schema=schema)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="rk-roomcpu-"))
        store = Store(f"sqlite:///{tmp / 'bench.db'}")
    pacer = None
    if args.gc_pacing:
        from rummykit.server.gcpace import GcPacer

        pacer = GcPacer()
        pacer.start()
    writer = Writer(store)
    rng = random.Random(args.seed)
    made = [0]

    async def new_room() -> tuple[Room, list[Conn]]:
        made[0] += 1
        table_id = f"t{made[0]:06d}"
        state = info.new(players=["ann", "bob"], seed=made[0], max_rounds=1)
        seats = [{"kind": "person", "name": n, "level": None, "token_hash": None} for n in ("ann", "bob")]
        store.create_table({
            "id": table_id, "game": info.id, "options": dict(state.options), "seed": made[0], "seats": seats,
            "clock": None, "status": "waiting", "created": time.time(), "seq": 0, "snapshot": fingerprint(state),
            "spectator_view": state.view(None), "bot_draws": [0, 0], "name": table_id, "host": None,
        })
        room = Room(table_id=table_id, info=info, session=GameSession(state, [None, None]),
                    seats=[Seat("person", n, None, None) for n in ("ann", "bob")], clock=None, status="waiting",
                    created=time.time(), store=store, writer=writer)
        conns = [Conn(0), Conn(1)]
        for conn in conns:
            await room.join(conn)
        return room, conns

    async def drain(conns: list[Conn]) -> None:
        for conn in conns:
            while len(conn.queue):
                await conn.queue.get()

    tables = [await new_room() for _ in range(args.tables)]
    for _, conns in tables:
        await drain(conns)
    played = 0
    measured_cpu = 0.0
    measured = 0
    wall = time.perf_counter()

    from rummykit.server.connection import _read

    async def step(room: Room, conns: list[Conn], seat: int, action: Action, sent: str | None) -> None:
        if sent is not None:  # as the server takes an act frame: read, checked, its action read, then played
            await room.play(seat, _read({"type": "websocket.receive", "text": sent}))  # type: ignore[arg-type]
        else:
            await room.act(seat, action)
        await drain(conns)

    ticked = time.monotonic()
    while measured < args.actions:
        # Every table acts at once, as 200 tables flat out do (the writes then share their commits).
        for k in range(len(tables)):
            if tables[k][0].state.outcome is not None:
                tables[k] = await new_room()
                await drain(tables[k][1])
        moves = []
        for room, conns in tables:
            seat = min(room.state.must_act)
            action = rng.choice(room.state.legal_actions(seat))  # the client's: not counted
            sent = json.dumps({"type": "act", "action": action.to_json(), "seq": room.seq}) if args.frames else None
            moves.append((room, conns, seat, action, sent))
        start = time.process_time()
        if pacer is not None and time.monotonic() - ticked >= pacer.freeze_every:
            ticked = time.monotonic()
            pacer.tick()  # as the server's pacing task does, each second (counted)
        await asyncio.gather(*(step(*move) for move in moves))
        spent = time.process_time() - start
        played += len(moves)
        if played > args.warmup:
            measured_cpu += spent
            measured += len(moves)
    wall = time.perf_counter() - wall
    if schema is not None:
        store.close()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()
    print(f"{args.src} ({args.db}{', gc paced' if pacer else ''}{', act frames' if args.frames else ''}):"
          f" {measured} actions measured at {args.tables} tables (after {args.warmup}),"
          f" {1000 * measured_cpu / measured:.3f} CPU ms per action ({wall:.1f} s wall in all)")


if __name__ == "__main__":
    raise SystemExit(main())
