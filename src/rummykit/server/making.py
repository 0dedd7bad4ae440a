"""Making a room for a new or stored table: its seats, its game session (a bot per bot seat, every seat's
generator where it stood), and a stored table's record or room (replayed and checked)."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.bots.registry import make_bot
from rummykit.engine.core import GameInfo, GameState
from rummykit.engine.driver import Agent
from rummykit.server.integrity import replay
from rummykit.server.rooms import Room, Seat, rngs_at
from rummykit.server.store import SeatRow, Store, StoredTable
from rummykit.server.writer import Writer
from rummykit.session import GameSession

__all__ = ["make_seats", "make_session", "restore", "stored_record"]


def make_seats(seats: Sequence[SeatRow]) -> list[Seat]:
    """Seats from their stored form."""
    return [Seat(s["kind"], s["name"], s["level"], s["token_hash"]) for s in seats]


def make_session(
    info: GameInfo, state: GameState, seats: Sequence[SeatRow], draws: list[int] | None = None
) -> GameSession:
    """The game session of a table: a bot for each bot seat, every seat's generator moved on by ``draws``.

    Every seat has a generator, a person's too: the turn clock's stand-in
    plays from it.
    """
    bots: list[Agent | None] = [_bot(s, info.id) for s in seats]
    return GameSession(state, bots, rngs_at(state.seed, draws, len(seats)))


def _bot(seat: SeatRow, game_id: str) -> Agent | None:
    """The bot of a bot seat, at its level; None for a person's seat."""
    if seat["kind"] != "bot":
        return None
    level = seat["level"]
    assert level is not None, "a bot seat has a level"
    return make_bot(level, game_id)


def stored_record(stored: StoredTable) -> str:
    """The record of a stored table, as ``rummykit play`` writes one: its actions, and who plays each seat
    (each bot with where its generator stood after the last action); checked as a restore is (:class:`RestoreError`)."""
    info, state = replay(stored)
    return make_session(info, state, stored.seats, stored.bot_draws).record_text()


def restore(stored: StoredTable, store: Store, bot_delay: float = 0.0, writer: Writer | None = None) -> Room:
    """A room from the database: replay its actions and check the stored snapshot (:class:`RestoreError`)."""
    info, state = replay(stored)
    seats = make_seats(stored.seats)
    status = stored.status
    if status == "playing":
        for seat in seats:
            seat.joined = True
    return Room(
        table_id=stored.id,
        info=info,
        session=make_session(info, state, stored.seats, stored.bot_draws),
        seats=seats,
        clock=stored.clock,
        status=status,
        created=stored.created,
        store=store,
        writer=writer,
        bot_delay=bot_delay,
        chain=stored.chain,
        name=stored.name,
        host=stored.host,
    )
