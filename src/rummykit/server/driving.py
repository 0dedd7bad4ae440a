"""Who plays a room's game when no person sends a frame: its bots, the turn clock, and the watchdog.

The rule of who acts next is the game session's
(:meth:`~rummykit.session.GameSession.ask`): claims and calls first, then
the seat the game waits for, bots before people when several must answer at
once. A :class:`Driver` asks it again and again while the answer is a bot,
lets the bot choose in a worker thread
(:meth:`~rummykit.session.GameSession.choose_async`) and applies the choice
through the room's one path (store, then tell). It stops when a person is to
act.

A person's chance to act out of turn (a claim or a call) is put to them as
the line prompt and the terminal app put it: the session asks that person,
and the table waits for the answer, as it waits for a person's turn. The
seat's state frame says it is asked (``asked``); the person takes the chance
with an ``act`` frame or lets it pass with a ``pass`` frame
(:meth:`Room.let_pass <rummykit.server.rooms.Room.let_pass>`, which calls
:meth:`~rummykit.session.GameSession.let_pass`), and the session goes on to
the next seat. So a person playing bots at machine speed has every call and
add-on a person at the prompt has, and the same typed answers make the same
record through every interface.

Two things only the server has stay here: the turn clock (a person whose time
runs out has a bot play that turn for them, from their own view and
generator, or has an out-of-turn chance let pass: the clock never claims for
a person) and the watchdog (a table waiting for a bot that no driver moves,
after a fault, is logged and its bots started again; a table waiting for a
person is not stalled).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.server.refusals import Refusal
from rummykit.session import Ask, GameSession

if TYPE_CHECKING:
    from rummykit.server.rooms import Room

__all__ = ["WATCHDOG_EVERY", "Driver", "bot_to_ask", "clock_bot_level"]

log = logging.getLogger("rummykit.server")

WATCHDOG_EVERY = 5.0
"""Seconds between two looks of a table's watchdog for a bot that should be playing and is not."""


def clock_bot_level(game_id: str) -> str:
    """The bot level that moves for a person whose clock ran out: greedy when the game has it, else its first level."""
    levels = bot_levels(game_id)
    return "greedy" if "greedy" in levels else levels[0]


def bot_to_ask(session: GameSession) -> Ask | None:
    """The session's next question when a bot is to answer it; None when a person is asked (or nobody)."""
    ask = session.ask()
    return ask if ask is not None and ask.bot is not None else None


def person_asked(session: GameSession) -> tuple[int, int, bool] | None:
    """``(seq, seat, claim)`` when the session asks a person now (their turn, or a chance out of turn); else None."""
    ask = session.ask()
    return None if ask is None or ask.bot is not None else (session.seq, ask.seat, ask.claim)


class Driver:
    """The tasks that play a room's game besides its connections: the bots, the clock, the watchdog."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.bots: asyncio.Task[None] | None = None
        """The task letting the bots play, while it runs (see :meth:`kick`)."""
        self.watchdog: asyncio.Task[None] | None = None
        self.deadline: tuple[int, float] | None = None
        """The running turn clock: (seat, epoch seconds when it runs out), or None."""
        self.timing: tuple[int, int, bool] | None = None
        """The question the running clock times: (seq, seat, claim), as :func:`person_asked` gives it."""
        self.tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start the clock, the bots and the watchdog (in the running event loop)."""
        self.set_clock()
        self.kick()
        if self.watchdog is None:
            self.watchdog = self._spawn(self._watch())

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task

    def _spawn(self, coro: Coroutine[object, None, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: %s", self.room.id, task.exception(), exc_info=task.exception())

    # -- the bots ----------------------------------------------------------------------------

    def kick(self) -> None:
        """Let the bots play while the game waits for them (in a task; one at a time per table).

        A driver that has returned counts for nothing, even before its
        done-callback has run: only a running one stops another from starting.
        At a table with no bot seat nothing is started.
        """
        room = self.room
        # A table of people only has no bot to drive (a seat handed to a bot has one in the session).
        if room.status == "playing" and not self.driving() and any(bot is not None for bot in room.session.bots):
            self.bots = self._spawn(self._drive())

    def driving(self) -> bool:
        """Whether a bot is thinking (the bots' task is running)."""
        return self.bots is not None and not self.bots.done()

    def bot_due(self) -> bool:
        """Whether a bot should be acting now (under the room's lock)."""
        room = self.room
        return room.status == "playing" and room.session.bot_due()

    async def _drive(self) -> None:
        room = self.room
        while True:
            if room.bot_delay:
                await asyncio.sleep(room.bot_delay)
            async with room.lock:
                if room.status != "playing":
                    return
                action = None
                while action is None:  # a bot that lets its claim pass is not asked again at this position
                    ask = bot_to_ask(room.session)
                    if ask is None:
                        # A person is asked now (or nobody): if bots let their chances pass to get
                        # here, the person has not been told yet.
                        room.tell_asked()
                        return
                    action = await room.session.choose_async(ask)
                await room.apply(action)

    async def _watch(self) -> None:
        """Every :data:`WATCHDOG_EVERY` seconds: a table waiting for a bot that no driver moves is an error; restart it.

        It looks under the lock, so never between an action and the kick that
        follows it. What it catches is a driver that died (a bot or the
        database failing) or any path that changed the state and kicked no
        driver: the table would otherwise wait forever.
        """
        room = self.room
        while room.status != "over":
            await asyncio.sleep(WATCHDOG_EVERY)
            async with room.lock:
                stalled = self.bot_due() and not self.driving()
                what = room.describe() if stalled else ""
            if stalled:
                log.error("%s: the table waits for a bot that is not thinking; starting its bots again", what)
                self.kick()

    # -- the turn clock ------------------------------------------------------------------------

    def set_clock(self) -> None:
        """Start the turn clock for the person the session asks now, or stop it (under the room's lock).

        The clock runs for a person's turn and for a person's chance out of
        turn alike. Asked the same question again (the same seat, position
        and kind), the running clock runs on.
        """
        room = self.room
        asked = person_asked(room.session) if room.clock is not None and room.status == "playing" else None
        if asked == self.timing:
            return
        self.timing = asked
        self.deadline = None
        if asked is None or room.clock is None:
            return
        self.deadline = (asked[1], time.time() + room.clock)
        self._spawn(self._expire(asked, room.clock))

    async def _expire(self, asked: tuple[int, int, bool], after: float) -> None:
        """The clock of a question ran out: unless it was answered meanwhile, a bot plays the turn for the
        person, or the chance out of turn is let pass (the clock makes no claim for anyone)."""
        await asyncio.sleep(after)
        room = self.room
        seq, seat, claim = asked
        async with room.lock:
            if self.timing != asked or room.status != "playing" or person_asked(room.session) != asked:
                return
            if claim:
                room.session.let_pass(seat)
                room.tell_asked()
            else:
                stand_in = make_bot(clock_bot_level(room.info.id), room.info.id)
                action = await room.session.choose_async(Ask(seat, False, stand_in))
                assert action is not None  # asked for its turn, not a claim, a bot always answers
                with contextlib.suppress(Refusal):
                    await room.apply(action, seq=seq)
        self.kick()
