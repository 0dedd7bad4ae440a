"""Short garbage-collector pauses for a server that holds many long-lived games.

CPython's cyclic collector runs a *full* pass over every object it tracks
each time the objects that survived younger passes reach a quarter of those
in the oldest generation. A server with 200 tables in play holds 200k-450k
such objects (the games' histories, the narrators' logs, every connection's
coroutines), and a full pass over them took 50-150 ms of CPU (up to 0.8 s of
wall time on the loaded 2-core machine): every action that arrived meanwhile
waited, which was the largest part of the p99 latency at 200 tables
(``bench/bench_server.py``).

:class:`GcPacer` keeps the full passes short:

- every :attr:`~GcPacer.freeze_every` seconds it moves every tracked object
  into the collector's permanent generation (``gc.freeze()``, which takes no
  time whatever the number of objects), so a pass looks only at what was
  made since the last freeze: at most a quarter of a second's allocations;
- every :attr:`~GcPacer.reclaim_every` seconds it unfreezes everything and
  runs one full pass, so the reference cycles that became garbage after they
  were frozen (a finished connection's objects, a closed room) are freed. The
  games themselves hold no reference cycle, so a finished table's game is
  freed at once by reference counting, frozen or not; what waits for the
  reclaim is measured in thousands of objects per minute of play;
- the youngest generation's threshold is raised from 700 to
  :data:`YOUNG_THRESHOLD` allocations: what an action allocates (its
  frames, views, JSON) is freed by reference counting, none of it in a
  reference cycle (``tests/test_server13_fingerprint.py``), and what
  outlives it is frozen before a pass would look at it: at 200 tables flat
  out (under 100,000 net allocations between two freezes) the passes over
  the youngest generation, 10% of the server's CPU at 10,000, are gone.

Nothing here changes what the server does, only when the collector runs.
``rummykit serve`` turns it on; :func:`~rummykit.server.app.create_app`
leaves the collector alone unless asked (``gc_pacing=True``), so a program
or a test that makes an app in its own process keeps its own settings.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from dataclasses import dataclass, field

__all__ = ["FREEZE_EVERY", "RECLAIM_EVERY", "YOUNG_THRESHOLD", "GcPacer"]

log = logging.getLogger("rummykit.server")

FREEZE_EVERY = 0.25
"""Seconds between freezes: a full pass looks at no more than this much time's surviving allocations."""
RECLAIM_EVERY = 600.0
"""Seconds between the full passes over everything (the only long pauses left: one every 10 minutes)."""
YOUNG_THRESHOLD = 100_000
"""Allocations (net of frees) of tracked objects between two passes over the youngest generation."""


@dataclass
class GcPacer:
    """Freezes the collector's generations every :attr:`freeze_every` s, reclaims every :attr:`reclaim_every` s."""

    freeze_every: float = FREEZE_EVERY
    reclaim_every: float = RECLAIM_EVERY
    young_threshold: int = YOUNG_THRESHOLD
    reclaims: int = 0
    """Full passes made so far (after the first)."""
    collected: int = 0
    """Objects the reclaims freed."""
    _old_threshold: tuple[int, int, int] = field(default=(700, 10, 10), repr=False)
    _last_reclaim: float = field(default=0.0, repr=False)

    def start(self) -> None:
        """Collect once, freeze what is left (the modules, the restored tables) and raise the young threshold."""
        self._old_threshold = gc.get_threshold()
        _, middle, old = self._old_threshold
        gc.set_threshold(self.young_threshold, middle, old)
        gc.collect()
        gc.freeze()
        self._last_reclaim = time.monotonic()

    def tick(self, now: float | None = None) -> None:
        """Freeze what survived since the last tick; unfreeze and collect everything when a reclaim is due."""
        now = time.monotonic() if now is None else now
        if now - self._last_reclaim >= self.reclaim_every:
            self.reclaim()
            self._last_reclaim = now
        gc.freeze()

    def reclaim(self) -> int:
        """One full pass over every object (frozen ones included); the number of unreachable objects found."""
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.reclaims += 1
        self.collected += found
        log.debug("garbage collector: full pass %d found %d unreachable objects", self.reclaims, found)
        return found

    def stop(self) -> None:
        """Unfreeze everything and put the thresholds back (the collector as it was)."""
        gc.unfreeze()
        gc.set_threshold(*self._old_threshold)

    async def run(self) -> None:
        """:meth:`start`, then :meth:`tick` every :attr:`freeze_every` seconds until cancelled (then :meth:`stop`)."""
        self.start()
        try:
            while True:
                await asyncio.sleep(self.freeze_every)
                self.tick()
        finally:
            self.stop()
