"""The group commit: the actions of every table written together, on a thread of the writer's own.

A :class:`Writer` stands between the rooms and the :class:`~rummykit.server.store.Store`:
a room's action waits in :meth:`Writer.write` until the transaction holding
it has committed (see ``docs/online.md``, Persistence and recovery, and the
"fourth round" of issue 25 for why it has a thread of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Unpack

from rummykit.server.store import ActionRow, Store, StoreError, store_error

__all__ = ["Writer"]


class Writer:
    """Group commit: the actions of every table that arrive while a transaction is being written go in the next one.

    :meth:`write` returns once the action is committed (or raises
    :class:`StoreError`); a table's action and its new state are always in
    the same transaction. The transactions are written one at a time by a
    thread of the writer's own, so SQLite never waits on its own lock and
    PostgreSQL syncs its log once per batch. An idle writer starts a batch at
    the event loop's next turn (so the actions of every table that played in
    this turn go together); while it writes, what arrives waits for the next
    batch, which the thread takes as soon as one is committed (the event loop
    is not needed between two batches). It works out the fingerprints the batch's actions are due for
    (``snapshot_of``: the table's lock is held by the caller until the
    write returns, so its state does not change meanwhile), and hands each
    batch's outcome back to the waiting callers' event loop at once. It ends
    after :attr:`idle` seconds with nothing to write and is started again by
    the next write. When a batch fails, its actions are written one by one so
    that only the faulty one is refused.
    """

    def __init__(self, store: Store, max_batch: int = 256, idle: float = 1.0) -> None:
        self.store = store
        self.max_batch = max_batch
        self.idle = idle
        self.pending: list[_Job] = []
        """The actions waiting for the next transaction."""
        self.busy = False
        """True while the writer's thread runs (writing, or waiting for :attr:`idle` seconds for more)."""
        self.batches = 0
        self.written = 0
        self._ready = threading.Condition(threading.Lock())
        self._writing = False
        """True while the thread writes batches (what arrives then goes in the next one, with no kick)."""
        self._kicking = False
        """True while a kick (the loop's next turn starting a batch) is scheduled."""

    async def write(
        self,
        *,
        snapshot_of: Callable[[], str] | None = None,
        then: Callable[[], None] | None = None,
        **item: Unpack[ActionRow],
    ) -> None:
        """Write one action in the next transaction.

        ``snapshot_of`` (called in the writer's thread) gives the action's
        ``snapshot`` when a fingerprint is due: the caller keeps the state
        unchanged until this returns. ``then`` is called in the event loop the
        moment the transaction has committed, before this coroutine resumes (a
        room tells its connections there, a turn of the loop sooner); what it
        raises, this raises. It is not called when the write fails.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._ready:
            self.pending.append(_Job(item, snapshot_of, then, future, loop))
            if not self.busy:
                self.busy = True
                threading.Thread(target=self._run, name="rummykit-writer", daemon=True).start()
            kick = not self._writing and not self._kicking
            self._kicking = self._kicking or kick
        if kick:
            loop.call_soon(self._kick)
        await future

    def _kick(self) -> None:
        """Start a batch of what is waiting (at the turn of the loop after the first write queued)."""
        with self._ready:
            self._kicking = False
            if self.pending:
                self._writing = True
                self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not (self._writing and self.pending):
                    self._writing = False
                    if not self._ready.wait(self.idle) and not self.pending and not self._kicking:
                        self.busy = False
                        return
                batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
            try:
                self._write(batch)
            except BaseException as exc:  # a fault of the writer's own: nobody is left waiting for ever
                for job in batch:
                    if job.outcome is _WAITING:
                        job.outcome = store_error(job.item, exc)
            _hand_back(batch)

    def _write(self, batch: list[_Job]) -> None:
        """Write a batch in one transaction (each job's :attr:`_Job.outcome` set), or its jobs one by one."""
        ready: list[_Job] = []
        for job in batch:
            if job.snapshot_of is not None:
                try:
                    job.item["snapshot"] = job.snapshot_of()
                except Exception as exc:
                    job.outcome = store_error(job.item, exc)
                    continue
            ready.append(job)
        if not ready:
            return
        try:
            self.store.record_batch([job.item for job in ready])
        except Exception:
            for job in ready:
                try:
                    self._one(job.item)
                except Exception as exc:
                    job.outcome = exc if isinstance(exc, StoreError) else store_error(job.item, exc)
                else:
                    job.outcome = None
            return
        self.batches += 1
        self.written += len(ready)
        for job in ready:
            job.outcome = None

    def _one(self, item: ActionRow) -> None:
        self.store.record_action(**item)


_WAITING = object()
"""A job's outcome before its transaction was written."""


class _Job:
    """One action handed to a :class:`Writer`: its row, its fingerprint to work out, and who waits for it."""

    __slots__ = ("future", "item", "loop", "outcome", "snapshot_of", "then")

    def __init__(
        self,
        item: ActionRow,
        snapshot_of: Callable[[], str] | None,
        then: Callable[[], None] | None,
        future: asyncio.Future[None],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.item = item
        self.snapshot_of = snapshot_of
        self.then = then
        self.future = future
        self.loop = loop
        self.outcome: object = _WAITING
        """None once written, the exception refusing it, or :data:`_WAITING`."""


def _hand_back(batch: list[_Job]) -> None:
    """Tell each job's event loop its outcome: one call per loop for the whole batch (from the writer's thread)."""
    loops: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
    for job in batch:
        loops.setdefault(job.loop, []).append(job)
    for loop, jobs in loops.items():
        with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody waits there any more
            loop.call_soon_threadsafe(_settle, jobs)


def _settle(jobs: list[_Job]) -> None:
    """Set each job's future (in its event loop), a written job's ``then`` called first (what it raises is the
    future's exception); a future cancelled meanwhile is left as it is, its ``then`` not called."""
    for job in jobs:
        future = job.future
        if future.done():
            continue
        outcome = job.outcome
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        elif outcome is _WAITING:
            future.set_exception(store_error(job.item, RuntimeError("the writer stopped")))
        elif job.then is None:
            future.set_result(None)
        else:
            try:
                job.then()
            except BaseException as exc:  # the caller's own fault: raised where it awaits
                future.set_exception(exc)
            else:
                future.set_result(None)
