"""The group commit's writer thread (session 10): one turn's actions in one batch, ``then`` before the caller
resumes, fingerprints worked out in the thread, failures refused one by one.

Each short cut is held to the plain outcome: the rows stored are those the
actions name, and a failed write neither calls ``then`` nor leaves anyone waiting.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, cast

import pytest

from rummykit.catalogue import new_game
from rummykit.engine.core import ViewHeader
from rummykit.server.integrity import fingerprint
from rummykit.server.store import Store, StoreError
from rummykit.server.writer import Writer

VIEW = cast("ViewHeader", {})


def _store(tmp_path: Path, tables: int) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    state = new_game("rummikub", players=2, seed=1)
    for n in range(tables):
        store.create_table({
            "id": f"t{n}", "game": "rummikub", "options": dict(state.options), "seed": 1, "seats": [],
            "clock": None, "status": "playing", "created": 0.0, "seq": 0, "snapshot": fingerprint(state),
            "spectator_view": VIEW, "bot_draws": [0, 0],
        })
    return store


def _item(table: str, seq: int, action: str = "0 draw") -> dict[str, Any]:
    return {"table_id": table, "seq": seq, "action": action, "chain": "c", "snapshot": None, "spectator_view": VIEW,
            "status": "playing", "bot_draws": [0, 0]}


def test_one_turns_writes_go_in_one_batch_and_then_runs_before_the_caller_resumes(tmp_path: Path) -> None:
    store = _store(tmp_path, 20)
    writer = Writer(store)
    order: list[str] = []

    async def one(n: int) -> None:
        def then(n: int = n) -> None:
            assert threading.current_thread() is threading.main_thread()  # in the event loop's thread
            order.append(f"then {n}")

        await writer.write(then=then, **_item(f"t{n}", 1))
        order.append(f"resumed {n}")

    async def all_of_them() -> None:
        await asyncio.gather(*(one(n) for n in range(20)))

    try:
        asyncio.run(all_of_them())
        stored = {t.id: t for t in store.load()}
    finally:
        store.close()
    assert writer.batches == 1 and writer.written == 20  # every table played in the same turn of the loop
    assert all(order.index(f"then {n}") < order.index(f"resumed {n}") for n in range(20))
    assert all((stored[f"t{n}"].seq, stored[f"t{n}"].actions) == (1, ["0 draw"]) for n in range(20))


def test_the_fingerprint_is_worked_out_in_the_writers_thread_and_stored(tmp_path: Path) -> None:
    store = _store(tmp_path, 1)
    writer = Writer(store)
    state = new_game("rummikub", players=2, seed=1)
    threads: list[threading.Thread] = []

    def snapshot() -> str:
        threads.append(threading.current_thread())
        return fingerprint(state)

    async def write() -> None:
        await writer.write(snapshot_of=snapshot, **_item("t0", 1))

    try:
        asyncio.run(write())
        stored = store.load()[0]
    finally:
        store.close()
    assert threads and threads[0] is not threading.main_thread()
    assert stored.snapshot == fingerprint(state)  # the same text the room's own call would have given


def test_a_failed_write_calls_no_then_and_only_the_faulty_action_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, 2)
    writer = Writer(store)
    called: list[str] = []

    async def both() -> list[BaseException | None]:
        results = await asyncio.gather(
            writer.write(then=lambda: called.append("a"), **_item("t0", 1)),
            writer.write(then=lambda: called.append("b"), **_item("t1", 5)),  # not at action 4: refused
            return_exceptions=True,
        )
        return list(results)

    try:
        results = asyncio.run(both())
        stored = {t.id: t for t in store.load()}
    finally:
        store.close()
    assert results[0] is None and isinstance(results[1], StoreError)
    assert called == ["a"]
    assert (stored["t0"].seq, stored["t1"].seq) == (1, 0)


def test_what_then_raises_is_raised_to_the_caller_and_a_failing_fingerprint_refuses_its_action(tmp_path: Path) -> None:
    store = _store(tmp_path, 2)
    writer = Writer(store)

    def broken() -> str:
        raise ValueError("no fingerprint")

    def bad_then() -> None:
        raise KeyError("told badly")

    async def both() -> list[BaseException | None]:
        results = await asyncio.gather(
            writer.write(then=bad_then, **_item("t0", 1)),
            writer.write(snapshot_of=broken, **_item("t1", 1)),
            return_exceptions=True,
        )
        return list(results)

    try:
        results = asyncio.run(both())
        stored = {t.id: t for t in store.load()}
    finally:
        store.close()
    assert isinstance(results[0], KeyError) and stored["t0"].seq == 1  # committed; the caller's fault raised
    assert isinstance(results[1], StoreError) and "no fingerprint" in str(results[1]) and stored["t1"].seq == 0


def test_the_writers_thread_ends_when_idle_and_starts_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path, 1)
    writer = Writer(store, idle=0.05)

    async def twice() -> None:
        await writer.write(**_item("t0", 1))
        for _ in range(200):
            if not writer.busy:
                break
            await asyncio.sleep(0.01)
        assert not writer.busy  # the thread ended
        await writer.write(**_item("t0", 2, "1 draw"))

    try:
        asyncio.run(twice())
        stored = store.load()[0]
    finally:
        store.close()
    assert (stored.seq, stored.actions) == (2, ["0 draw", "1 draw"])
    assert writer.written == 2
