"""One game run for people and programs: who is asked next, bots' choices, applying actions, the record.

Every interface (the line prompt, the terminal app, the server) plays a game
through a :class:`GameSession`; none keeps a loop of its own. The session
answers one question again and again, :meth:`GameSession.ask`: *who is to
act now?* The rule is the step driver's (:mod:`rummykit.engine.driver`),
with what people at a screen need on top:

1. seats that *may* act out of turn (claims, calls, jump-ins) are offered the
   chance first, in the game's priority order (``act_order``). Each seat is
   offered it once per position (per ``seq``): a bot that declines, or a
   person who lets it pass, is not asked again until an action is applied;
2. then the seat the game waits for; when several seats must act at once
   (answers the game seals), the bots among them go first, so nobody at the
   keyboard waits on a bot.

An :class:`Ask` names the seat and whether it is a claim. For a bot the
caller lets the session choose (:meth:`GameSession.choose`, which may run in
a worker thread, or :meth:`GameSession.choose_async`); for a person the
interface collects an action and hands it to :meth:`GameSession.apply`, with
the ``seq`` it was made against: an action against a position that has
since changed is refused as stale (:class:`StaleAction`, rule ``STALE``) and
changes nothing.

Each bot's generator is the session's; the record keeps where it stood after
the last applied action (:attr:`GameSession.settled`), so that a game saved
in the middle of a bot's thinking, or just after a bot let a claim pass,
resumes with the same question put to the same bot from the same point.

The session knows no game; any catalogued game is run the same way:

>>> from rummykit.catalogue import games, new_game
>>> from rummykit.bots.registry import make_bot
>>> for info in games():
...     state = new_game(info.id, players=2, seed=3)
...     session = GameSession(state, [make_bot('greedy', info.id), None])
...     events = session.play_bots()  # the bot plays until the person is asked
...     ask = session.ask()
...     assert ask is not None and ask.seat == 1 and ask.bot is None, (info.id, ask)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rummykit.bots.registry import make_bot
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.driver import Agent, Claimer, claims_open, next_seat
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.records import Seat, write_record
from rummykit.session.saving import Resumed, Saved, save_record
from rummykit.sim import bot_rng

__all__ = ["Ask", "GameSession", "SeatError", "StaleAction", "record_seats", "seat_to_ask", "settled_draws"]


class StaleAction(RuleError):
    """An action made against a position that has changed since (rule ``STALE``)."""

    def __init__(self, made_at: int, now: int) -> None:
        super().__init__(
            "STALE",
            "this action was made at move {made_at} and the game has moved on to move {now}; "
            "look at the table again",
            made_at=made_at,
            now=now,
        )


class SeatError(RummykitError):
    """A record's seat that cannot be played again (a bot level the game does not have); ``seat`` names it."""

    def __init__(self, seat: int, reason: str) -> None:
        self.seat = seat
        super().__init__(reason)


@dataclass(frozen=True)
class Ask:
    """A seat to act now: ``claim`` when it may act out of turn (and may let the chance pass).

    ``bot`` is the seat's bot, or None for a person (whom the interface asks).
    """

    seat: int
    claim: bool
    bot: Agent | None


def seat_to_ask(state: GameState, bots: Sequence[object | None]) -> int | None:
    """:func:`~rummykit.engine.driver.next_seat`, except that bots waited for at once go before people.

    ``bots[seat]`` is None for a person. When several seats must act at once
    (their answers sealed by the game), the bots answer first, so nobody at
    the keyboard waits on a bot.
    """
    seat = next_seat(state)
    if seat is None or bots[seat] is not None:
        return seat
    return next((s for s in state.act_order(state.must_act) if bots[s] is not None), seat)


def settled_draws(rngs: Sequence[Rng]) -> list[int]:
    """Where each generator stands: taken just after an action is applied, it is what a record keeps."""
    return [rng.draws for rng in rngs]


def record_seats(bots: Sequence[Agent | None], rngs: Sequence[Rng], draws: Sequence[int] | None = None) -> list[Seat]:
    """Who plays each seat, with each bot's level and where its generator stands (for the record).

    ``draws`` gives each generator's position to record (default: where it
    stands now), e.g. as it was after the last action applied.
    """
    used = [rng.draws for rng in rngs] if draws is None else draws
    return [
        Seat() if bot is None else Seat(bot.level, rng.seed, n)
        for bot, rng, n in zip(bots, rngs, used, strict=True)
    ]


class GameSession:
    """A game with its seats: ``bots[seat]`` is a bot, or None for a seat people (or clients) play.

    ``rngs`` are the bots' generators (default: :func:`~rummykit.sim.bot_rng`
    of the game's seed, one per seat; a resumed game passes them where its
    record left them).
    """

    def __init__(self, state: GameState, bots: Sequence[Agent | None], rngs: Sequence[Rng] | None = None) -> None:
        if len(bots) != len(state.players):
            raise ValueError(f"{len(state.players)} seats need {len(state.players)} entries in bots")
        if rngs is not None and len(rngs) != len(bots):
            raise ValueError(f"{len(bots)} seats need {len(bots)} generators in rngs")
        self.state = state
        self.bots: list[Agent | None] = list(bots)
        self.rngs: list[Rng] = list(rngs) if rngs is not None else [bot_rng(state.seed, s) for s in range(len(bots))]
        self.passed: set[tuple[int, int]] = set()
        """(seat, seq) of every out-of-turn chance a seat let pass (a bot's None, a person's empty answer)."""
        self.settled: list[int] = settled_draws(self.rngs)
        """Where each bot's generator stood after the last applied action (what the record keeps)."""

    @classmethod
    def resume(cls, state: GameState, seats: Sequence[Seat]) -> GameSession:
        """A saved game going on from its record's seats: each bot at its recorded level, its generator
        where the record left it (a person's seat: the game's default generator); :class:`SeatError` for
        a seat whose bot the game does not have.

        >>> from rummykit.catalogue import games, new_game
        >>> state = new_game(games()[0].id, players=2, seed=4)
        >>> session = GameSession.resume(state, [Seat(), Seat('random', 99, 5)])
        >>> session.people, session.rngs[1].draws, session.seats()[1]
        ([0], 5, Seat(bot='random', seed=99, draws=5))
        """
        if len(seats) != len(state.players):
            raise SeatError(len(seats), f"the record names {len(seats)} seats for {len(state.players)} players")
        bots: list[Agent | None] = []
        rngs: list[Rng] = []
        for n, seat in enumerate(seats):
            if seat.bot is None:
                bots.append(None)
                rngs.append(bot_rng(state.seed, n))
                continue
            try:
                bots.append(make_bot(seat.bot, state.info.id))
            except RummykitError as exc:
                raise SeatError(n, str(exc)) from None
            rng = Rng(seat.seed)
            rng.skip(seat.draws)
            rngs.append(rng)
        return cls(state, bots, rngs)

    # -- facts ------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many actions the game has had: the position an action is made against."""
        return len(self.state.actions)

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    @property
    def people(self) -> list[int]:
        """The seats no bot plays."""
        return [seat for seat, bot in enumerate(self.bots) if bot is None]

    # -- who acts ---------------------------------------------------------------------

    def ask(self) -> Ask | None:
        """Who is to act now (see the module's rule); None once nobody must act (the game is over)."""
        state = self.state
        if state.outcome is not None:
            return None
        seq = self.seq
        if state.may_act:
            for seat in claims_open(state):
                bot = self.bots[seat]
                if (seat, seq) in self.passed:
                    continue
                if bot is None or isinstance(bot, Claimer):
                    return Ask(seat, True, bot)
        waiting = seat_to_ask(state, self.bots)
        return None if waiting is None else Ask(waiting, False, self.bots[waiting])

    def bot_due(self) -> bool:
        """Whether the seat to act now is a bot."""
        ask = self.ask()
        return ask is not None and ask.bot is not None

    def let_pass(self, seat: int) -> None:
        """The seat lets its out-of-turn chance at this position pass (it is not offered again until a move)."""
        self.passed.add((seat, self.seq))

    def choose(self, ask: Ask) -> Action | None:
        """The bot's answer to ``ask`` from its view (None: it lets a claim pass, which is remembered).

        Safe to run in a worker thread while nothing else changes the state.
        """
        bot = ask.bot
        if bot is None:
            raise ValueError(f"seat {ask.seat} is played by a person, not a bot")
        view = self.state.view(ask.seat)
        rng = self.rngs[ask.seat]
        if not ask.claim:
            return bot.choose(view, rng)
        assert isinstance(bot, Claimer)
        action = bot.claim(view, rng)
        if action is None:
            self.let_pass(ask.seat)
        return action

    async def choose_async(self, ask: Ask) -> Action | None:
        """:meth:`choose` in a worker thread (the server's and the terminal app's event loops stay free)."""
        return await asyncio.to_thread(self.choose, ask)

    def play_bot(self, ask: Ask) -> list[Event]:
        """Let the bot of ``ask`` act and apply its action; the events (none if it let a claim pass)."""
        action = self.choose(ask)
        return [] if action is None else self.apply(action)

    def play_bots(self) -> list[Event]:
        """Let bots act while a bot is to act; every event applied meanwhile."""
        events: list[Event] = []
        ask = self.ask()
        while ask is not None and ask.bot is not None:
            events += self.play_bot(ask)
            ask = self.ask()
        return events

    # -- acting -----------------------------------------------------------------------

    def apply(self, action: Action, *, seq: int | None = None) -> list[Event]:
        """Apply an action (the engine may refuse it, changing nothing); its events.

        With ``seq`` the action was made against that position: if the game
        has moved since, it is refused as :class:`StaleAction`.
        """
        if seq is not None and seq != self.seq:
            raise StaleAction(seq, self.seq)
        events = self.state.apply(action)
        self.settled = settled_draws(self.rngs)
        return events

    def events(self, start: int, audience: int | None) -> list[dict[str, object]]:
        """The events from index ``start`` of the history, as ``audience`` (a seat, None: a spectator) sees them."""
        return [dict(event.seen_by(audience)) for event in self.state.history[start:]]

    # -- the record ---------------------------------------------------------------------

    def seats(self) -> list[Seat]:
        """Who plays each seat, each bot with where its generator stood after the last action applied."""
        return record_seats(self.bots, self.rngs, self.settled)

    def record_text(self) -> str:
        """The game's record so far, with its seats."""
        return write_record(self.state, self.seats())

    def save(
        self,
        *,
        record: bool = True,
        record_path: Path | None = None,
        records_dir: Path | None = None,
        resumed: Resumed | None = None,
        command: str = "play",
    ) -> Saved:
        """Save the record for a person (:func:`~rummykit.session.saving.save_record`); what was done."""
        return save_record(
            self.state,
            self.seats(),
            record=record,
            record_path=record_path,
            records_dir=records_dir,
            resumed=resumed,
            command=command,
        )
