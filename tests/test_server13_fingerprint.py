"""Session 13's server changes: fingerprints from the room's record texts, and the benchmark's lean client.

A room keeps the record text of every action it applied (``Room.texts``) and
its fingerprints take them rather than writing every action again
(``GameState.snapshot(action_texts)``): the stored fingerprint must be the
same text as the one worked out from the state alone, or no table would
restore. ``play_listed`` (``bench/bench_server.py``'s client) must play whole
games against a real server with no refusal, choosing only listed actions.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_server_support import Db, serving, sqlite_db

from rummykit.catalogue import find_game, games
from rummykit.engine.core import GameState
from rummykit.server.client import SeatRun, play_listed
from rummykit.server.integrity import fingerprint, replay
from rummykit.server.outbox import Conn
from rummykit.server.rooms import Room, Seat
from rummykit.server.store import Store
from rummykit.server.writer import Writer
from rummykit.session import GameSession

__all__ = ["sqlite_db"]  # a fixture, imported for pytest

TESTS = Path(__file__).resolve().parent


def _played(game: str, seed: int, steps: int) -> list[GameState]:
    """The states of a seeded random game after each of its first ``steps`` actions (copies)."""
    info = find_game(game)
    state = info.new(players=2, seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if state.outcome is not None:
            break
        seats = sorted(state.must_act) or sorted(state.to_act)
        actions = state.legal_actions(seats[0]) if seats else []
        if not actions:
            break
        state.apply(rng.choice(actions))
        out.append(state.copy())
    return out


@pytest.mark.parametrize("game", [info.id for info in games()])
def test_the_fingerprint_from_record_texts_is_the_plain_one(game: str) -> None:
    states = _played(game, seed=3, steps=120)
    assert len(states) >= 20
    for state in states[::5]:
        texts = [str(a) for a in state.actions]
        assert fingerprint(state, texts) == fingerprint(state)
        assert state.snapshot(texts) == state.snapshot()
    last = states[-1]
    texts = [str(a) for a in last.actions]
    # The texts are what the snapshot writes: another text changes the digest (so the equality above is not luck) ...
    assert fingerprint(last, [*texts[:-1], texts[-1] + " x"]) != fingerprint(last)
    # ... and a list that does not count every action is not taken.
    assert fingerprint(last, texts[:-1]) == fingerprint(last)


def _room(store: Store, writer: Writer, table_id: str, state: GameState) -> Room:
    info = find_game("rummikub")
    store.create_table({
        "id": table_id, "game": info.id, "options": dict(state.options), "seed": state.seed,
        "seats": [{"kind": "person", "name": n, "level": None, "token_hash": None} for n in state.players],
        "clock": None, "status": "playing", "created": time.time(), "seq": len(state.actions),
        "snapshot": fingerprint(state), "spectator_view": state.view(None), "bot_draws": [0, 0], "name": table_id,
        "host": None,
    })
    return Room(table_id=table_id, info=info, session=GameSession(state, [None, None]),
                seats=[Seat("person", n, None, None, joined=True) for n in state.players], clock=None,
                status="playing", created=time.time(), store=store, writer=writer)


def test_a_room_keeps_every_record_text_and_stores_fingerprints_that_replay(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'rooms.db'}")
        writer = Writer(store)
        rng = random.Random(7)
        info = find_game("rummikub")
        room = _room(store, writer, "t1", info.new(players=["ann", "bob"], seed=7, max_rounds=1))
        conns = [Conn(0), Conn(1)]
        for conn in conns:
            await room.join(conn)
        for _ in range(40):
            seat = min(room.state.must_act)
            await room.act(seat, rng.choice(room.state.legal_actions(seat)))
            assert room.texts == [str(a) for a in room.state.actions]
        # A room made from a state played elsewhere (as a restore makes it) starts with no texts: its first
        # action writes them from the state, then keeps them.
        state = room.state.copy()
        again = _room(store, writer, "t2", state)
        assert again.texts == []
        seat = min(again.state.must_act)
        await again.act(seat, rng.choice(again.state.legal_actions(seat)))
        assert again.texts == [str(a) for a in again.state.actions]
        stored = {t.id: t for t in store.load(unfinished_only=False)}
        # Each table's stored fingerprint (taken from the record texts) is the one its replay works out.
        _, replayed = replay(stored["t1"])
        assert fingerprint(replayed) == fingerprint(room.state)
        assert stored["t1"].snapshot.startswith("32:")  # the 32nd action's, from the texts
        store.close()

    asyncio.run(main())


async def _play_listed(base: str, seed: int) -> tuple[dict[str, Any], list[SeatRun]]:
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        made = (await http.post("/api/tables", json={
            "game": "rummikub", "seats": [{"kind": "person"}] * 2, "seed": seed, "options": {"max_rounds": 1},
        })).json()
    url = f"ws://{base}/ws/{made['table']}"
    runs = await asyncio.wait_for(
        asyncio.gather(*(play_listed(url, s["token"], seed=seed * 10 + i, timeout=60) for i, s in enumerate(made["seats"]))),
        300,
    )
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        info = (await http.get(f"/api/tables/{made['table']}")).json()
    return info, list(runs)


def test_the_lean_client_plays_whole_games_with_listed_actions_only(sqlite_db: Db) -> None:
    app = sqlite_db.app(flood_rate=1000)
    with serving(app) as base:
        for seed in (1, 2):
            info, runs = asyncio.run(_play_listed(base, seed))
            assert info["status"] == "over"
            assert all(not run.errors for run in runs)  # no action refused: every one was listed and current
            # Every action of the game was one of theirs, each acknowledged by a state frame that carried it.
            assert sum(len(run.latencies) for run in runs) == info["seq"]
            assert all(len(run.latencies) == len(run.sent_at) for run in runs)


def test_listing_and_playing_leave_no_garbage_for_the_collector(tmp_path: Path) -> None:
    """Every object an action makes is freed by reference counting: the paced collector (a young threshold of
    100,000, a freeze every 0.25 s) may then run rarely without cyclic garbage piling up until a reclaim.

    Measured in a process of its own: the collector counts the garbage of every thread, and the test process
    may still hold other tests' threads (a served app, a browser test's server) making theirs meanwhile
    (a full run once counted 859 objects here that were not this code's)."""
    code = f"import json, test_server13_fingerprint as t; print(json.dumps(t.garbage_left({str(tmp_path)!r})))"
    path = os.pathsep.join(p for p in (str(TESTS), str(TESTS.parent / "src"), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=path),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"listings": 0, "room": 0}


def garbage_left(folder: str) -> dict[str, int]:
    """The objects the collector finds after a seat's listings (``json_forms`` of 80 positions) and after 40
    actions of a room writing to SQLite in ``folder``, with the collector off meanwhile (0: none)."""
    import gc

    from rummykit.engine.actions import json_forms

    states = _played("rummikub", seed=5, steps=80)
    gc.collect()
    gc.disable()
    try:
        kept: dict[int, tuple[object, Any]] = {}
        for state in states:
            seat = min(state.must_act)
            json_forms(state.legal_actions(seat), kept)
        listings = gc.collect()
    finally:
        gc.enable()

    async def main() -> int:
        store = Store(f"sqlite:///{Path(folder) / 'garbage.db'}")
        writer = Writer(store)
        rng = random.Random(9)
        room = _room(store, writer, "t1", find_game("rummikub").new(players=["ann", "bob"], seed=9, max_rounds=1))
        conns = [Conn(0), Conn(1)]
        for conn in conns:
            await room.join(conn)
        for _ in range(3):  # the first actions make what lasts (the writer's thread, the kept listings)
            seat = min(room.state.must_act)
            await room.act(seat, rng.choice(room.state.legal_actions(seat)))
        gc.collect()
        gc.disable()
        try:
            for _ in range(40):
                seat = min(room.state.must_act)
                await room.act(seat, rng.choice(room.state.legal_actions(seat)))
                for conn in conns:
                    while len(conn.queue):
                        await conn.queue.get()
            return gc.collect()
        finally:
            gc.enable()
            store.close()

    return {"listings": listings, "room": asyncio.run(main())}
