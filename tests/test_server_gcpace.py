"""The garbage collector's pacing on the server (``rummykit.server.gcpace``): what it freezes, reclaims and restores.

No timing is asserted: the pauses it shortens are measured by ``bench/bench_server.py``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from test_server_support import Db, create, sqlite_db, until

from rummykit.server.gcpace import YOUNG_THRESHOLD, GcPacer

__all__ = ["sqlite_db"]


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as the test found it, whatever the test did to it."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


class Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_start_freezes_what_is_alive_and_raises_the_young_threshold(collector: None) -> None:
    pacer = GcPacer()
    pacer.start()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    pacer.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == pacer._old_threshold


def test_a_tick_freezes_and_a_due_reclaim_frees_frozen_cycles(collector: None) -> None:
    pacer = GcPacer(reclaim_every=100.0)
    pacer.start()
    made = Cycle()
    pacer.tick(now=pacer._last_reclaim + 1)  # not due: the cycle is frozen with the rest
    frozen = gc.get_freeze_count()
    assert frozen > 0
    del made
    assert gc.collect() == 0  # a frozen cycle is out of the collector's sight ...
    pacer.tick(now=pacer._last_reclaim + 100)  # ... until the reclaim
    assert pacer.reclaims == 1
    assert pacer.collected >= 1
    assert gc.get_freeze_count() > 0  # frozen again after the full pass
    pacer.stop()


def test_an_object_freed_by_reference_counting_leaves_the_frozen_generation(collector: None) -> None:
    pacer = GcPacer()
    pacer.start()
    payload = [[i] for i in range(10_000)]
    pacer.tick(now=pacer._last_reclaim)
    frozen = gc.get_freeze_count()
    del payload
    assert gc.get_freeze_count() <= frozen - 10_000  # a game without cycles is freed at once, frozen or not
    pacer.stop()


def test_the_app_paces_the_collector_only_when_asked(sqlite_db: Db, collector: None) -> None:
    threshold = gc.get_threshold()
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot", "level": "random"}])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][0]["token"]})
            until(ws, "state")
        assert gc.get_freeze_count() == 0
    with TestClient(sqlite_db.app(gc_pacing=True)) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot", "level": "random"}])
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][0]["token"]})
            until(ws, "state")
    assert gc.get_freeze_count() == 0  # the app's end puts the collector back
    assert gc.get_threshold() == threshold
