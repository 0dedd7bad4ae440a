"""How ``rummykit play`` starts a session: who sits where, where the record goes, and resuming.

:func:`seat_bots` reads ``--players``, ``--bots`` and ``--bot`` into one entry
per seat (``None`` for a person, then the bots) and refuses every count that
does not fit the game with one line saying what is wrong. :func:`record_plan`
decides where the record will be saved (``--record``, ``--no-record``, the
records folder). :func:`resume_session` continues a saved game: the record
says who sat in each seat and where each bot's random generator stood, so the
game goes on exactly as it would have without the break.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rummykit.bots.base import Bot, bot_levels, make_bot
from rummykit.catalogue import find_game
from rummykit.cli.play import Console, Session
from rummykit.cli.render import make_style
from rummykit.cli.saving import RECORDS_ENV, free_path, records_folder
from rummykit.engine.core import GameInfo, GameState, check_seed
from rummykit.engine.options import resolve_options
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RecordError, RummykitError
from rummykit.presenters import Presenter, presenter_for
from rummykit.presenters.text import plural
from rummykit.records import Record, parse_record, read_record
from rummykit.session import GameSession, Resumed, SeatError
from rummykit.sim import bot_rng

__all__ = [
    "DEFAULT_BOT",
    "FALLBACK_BOT",
    "RANDOM_SEEDS",
    "GameSetup",
    "RecordPlan",
    "default_bot",
    "game_setup",
    "parse_options",
    "play_session",
    "record_plan",
    "resume_session",
    "resume_setup",
    "seat_bots",
]

DEFAULT_BOT = "greedy"
RANDOM_SEEDS = 10**9
"""A seed not given is drawn below this."""
FALLBACK_BOT = "random"


def default_bot(game_id: str) -> Bot:
    """A ``greedy`` bot when that level is registered and plays this game, else a ``random`` one."""
    if DEFAULT_BOT in bot_levels():
        try:
            return make_bot(DEFAULT_BOT, game_id)
        except RummykitError:
            pass  # greedy does not play this game
    return make_bot(FALLBACK_BOT, game_id)


# -- seats ----------------------------------------------------------------------------


def seat_bots(args: argparse.Namespace, info: GameInfo, seats: int | None = None) -> list[Bot | None]:
    """The seats from ``--players``, ``--bots`` and ``--bot``: ``None`` for each person, then the bots.

    Without ``--players`` there is one person and the bots (one bot when no
    bot is asked for). ``seats`` fixes the number of seats (a saved game's).
    """
    span = f"{info.id} is for {info.player_span} players"
    if args.bots is not None and args.bots < 0:
        raise OptionError(f"--bots needs 0 or more, got {args.bots}")
    if args.players is not None:
        if seats is not None and args.players != seats:
            raise OptionError(f"--players {args.players}: the saved game has {seats} seats")
        if not info.min_players <= args.players <= info.max_players:
            raise OptionError(f"--players {args.players}: {span} (people and bots together)")
    total = args.players if args.players is not None else seats
    if args.bot:
        wanted = len(args.bot)
    elif args.bots is not None:
        wanted = args.bots
    elif total is None:
        wanted = max(1, info.min_players - 1)  # `rummykit play GAME` alone: you against bots
    else:
        wanted = 0 if args.players is not None else total - 1
    asked = f"--bots {wanted}" if not args.bot else f"{plural(wanted, 'bot')} (--bot)"
    if total is None:
        if not info.min_players <= wanted + 1 <= info.max_players:
            watch = " (to watch bots only: --players N --bots N)" if wanted >= info.max_players else ""
            raise OptionError(f"{asked} and you make {plural(wanted + 1, 'player')}, but {span}{watch}")
        total = wanted + 1
    elif wanted > total:
        where = f"--players {total}" if seats is None else "the saved game"
        raise OptionError(
            f"{plural(wanted, 'bot')} do not fit in {plural(total, 'seat')}"
            f" ({where}: a seat is a person or a bot)"
        )
    if args.bot:
        bots: list[Bot] = [make_bot(level, info.id) for level in args.bot]
    else:
        bots = [default_bot(info.id) for _ in range(wanted)]
    return [None] * (total - len(bots)) + list(bots)


# -- where the record goes -----------------------------------------------------------


@dataclass(frozen=True)
class RecordPlan:
    """Where a session saves its record: ``path`` (a file), else a default name in ``folder``; or not at all."""

    save: bool = True
    path: Path | None = None
    folder: Path | None = None
    note: str | None = None
    """A line for the person before the game starts (the name chosen when the one asked for is taken)."""


def record_plan(args: argparse.Namespace, environ: Mapping[str, str] | None) -> RecordPlan:
    """The record's place from ``--record`` / ``--no-record`` (checked before the game starts).

    ``--record`` names a file, or a folder for the default name. A file that
    exists already is never overwritten: the game will be saved under the next
    free name, and the note says so. Without ``--record`` the record goes to
    the records folder, created here if need be.
    """
    if args.no_record:
        return RecordPlan(save=False)
    if args.record is None:
        folder = records_folder(environ)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(
                f"cannot create the records folder {folder}: {exc.strerror or exc}; choose another with"
                f" {RECORDS_ENV}=FOLDER or --record FILE, or play with --no-record"
            ) from None
        return RecordPlan(folder=folder)
    path = Path(args.record).expanduser()
    if path.is_dir():
        return RecordPlan(folder=path)
    if not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise OptionError(f"cannot save a record as {args.record!r}: not a file in an existing folder")
    free = free_path(path)
    if free != path:
        note = f"{path} already exists: this game will be saved as {free} (a record is never overwritten)."
        return RecordPlan(path=path, note=note)
    return RecordPlan(path=path)


# -- resuming ---------------------------------------------------------------------------


def read_saved_game(file: str) -> tuple[Path, str, Record, GameState]:
    """The file, its text, its parsed record and the game replayed to where it stopped."""
    path = Path(file).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OptionError(f"cannot resume {file}: no such file") from None
    except UnicodeDecodeError:
        raise OptionError(f"cannot resume {file}: not a game record (not text)") from None
    except OSError as exc:
        raise OptionError(f"cannot resume {file}: {exc.strerror or exc}") from None
    try:
        record = parse_record(text)
        state = read_record(text)
    except RecordError as exc:
        raise OptionError(f"cannot resume {file}: {exc}") from None
    if state.outcome is not None:
        raise OptionError(f"{file} holds a finished game: nothing to resume (see it with: rummykit replay {file})")
    return path, text, record, state


def saved_seats(file: str, record: Record, state: GameState) -> tuple[list[Bot | None], list[Rng]]:
    """The people and bots of a record's seat lines, each bot's generator where it stood (the session's
    :meth:`~rummykit.session.GameSession.resume`)."""
    assert record.seats is not None
    try:
        session = GameSession.resume(state, record.seats)
    except SeatError as exc:
        line = record.lines.get(f"seat {exc.seat}")
        raise OptionError(f"cannot resume {file}: line {line}: {exc}") from None
    return session.bots, session.rngs


@dataclass
class GameSetup:
    """A game ready to be played at an interface: the state, who sits where, where the record goes.

    ``bots`` has one entry per seat (``None`` for a person); ``rngs`` are the
    bots' generators (None: fresh ones from the seed); ``resumed`` is the
    record a resumed game continues; ``notes`` are lines for the person
    before the game starts.
    """

    state: GameState
    bots: list[Bot | None]
    presenter: Presenter
    plan: RecordPlan
    rngs: list[Rng] | None = None
    resumed: Resumed | None = None
    notes: list[str] = field(default_factory=list)


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings to a dict (values are checked by the game).

    >>> parse_options(['jokers=4', 'target = 100'])
    {'jokers': '4', 'target': '100'}
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"write options as KEY=VALUE (e.g. jokers=4), got {pair!r}")
        if key in options:
            raise OptionError(f"option {key!r} given twice")
        options[key] = value.strip()
    return options


def game_setup(args: argparse.Namespace, environ: Mapping[str, str] | None) -> GameSetup:
    """The game the command line asks for (``play`` and ``tui`` alike): a new one, or a saved one resumed.

    Every bad option is reported (:class:`OptionError`) before a game starts.
    """
    if args.resume is not None:
        return resume_setup(args, environ)
    if args.game is None:
        raise OptionError(
            f"name a game (rummykit {args.command} GAME; see rummykit games) or a saved one (--resume FILE)"
        )
    info = find_game(args.game)
    options = parse_options(args.option)
    resolve_options(info.options, options)  # report a bad option before anything else
    if args.seed is not None:
        check_seed(args.seed)
    seated = seat_bots(args, info)
    seats = len(seated)
    presenter = presenter_for(info.id)
    if None in seated and not presenter.playable:
        raise OptionError(
            f"{info.id} cannot be played by people here yet; watch bots play it with --players N --bots N"
        )
    players: int | list[str] = seats
    if args.names is not None:
        players = [n.strip() for n in args.names.split(",")]
        if len(players) != seats:
            raise OptionError(f"--names gives {plural(len(players), 'name')} for {plural(seats, 'seat')}")
    seed = secrets.randbelow(RANDOM_SEEDS) if args.seed is None else args.seed
    plan = record_plan(args, environ)
    state = info.new(players=players, seed=seed, **options)
    return GameSetup(state, seated, presenter, plan, notes=[plan.note] if plan.note else [])


def resume_setup(args: argparse.Namespace, environ: Mapping[str, str] | None) -> GameSetup:
    """``--resume FILE``: the saved game, its seats and bots, each bot's generator where it stood."""
    file = str(args.resume)
    path, text, record, state = read_saved_game(file)
    info = state.info
    if args.game is not None and find_game(args.game).id != info.id:
        raise OptionError(f"{file} is a game of {info.id}, not {find_game(args.game).id}")
    fixed = [("--seed", args.seed is not None), ("--option", bool(args.option)), ("--names", args.names is not None)]
    if record.seats is not None:
        fixed += [("--players", args.players is not None), ("--bots", args.bots is not None), ("--bot", bool(args.bot))]
    given = [flag for flag, present in fixed if present]
    if given:
        what = "seed, options, names and seats" if record.seats is not None else "seed, options and names"
        raise OptionError(f"--resume continues the game as saved (its {what} come from {file}): drop {given[0]}")
    note = None
    if record.seats is not None:
        bots, rngs = saved_seats(file, record, state)
    else:
        bots = seat_bots(args, info, seats=len(state.players))
        rngs = [bot_rng(state.seed, seat) for seat in range(len(bots))]
        who = ", ".join(
            f"{name} ({'person' if bot is None else 'bot ' + bot.level})"
            for name, bot in zip(state.players, bots, strict=True)
        )
        note = (
            f"{file} does not say who sat where (an older record), so the seats are: {who}"
            " (choose with --players, --bots or --bot)."
        )
    presenter = presenter_for(info.id)
    if None in bots and not presenter.playable:
        raise OptionError(f"{info.id} cannot be played by people here yet")
    plan = record_plan(args, environ) if (args.record is not None or args.no_record) else RecordPlan()
    done = plural(len(state.actions), "action")
    going_on = f"Continuing the game saved in {path} ({done} so far, round {state.round_no})."
    notes = [line for line in (going_on, note, plan.note) if line]
    return GameSetup(state, bots, presenter, plan, rngs=rngs, resumed=Resumed(path, text), notes=notes)


def resume_session(args: argparse.Namespace, console: Console, environ: Mapping[str, str] | None) -> int:
    """``rummykit play --resume FILE``: the saved game, its seats and bots, continued where it stopped."""
    return play_session(resume_setup(args, environ), args, console, environ)


def play_session(
    setup: GameSetup, args: argparse.Namespace, console: Console, environ: Mapping[str, str] | None
) -> int:
    """Run a :class:`~rummykit.cli.play.Session` (the line prompt) for a game set up; the exit status."""
    style = make_style(console.stdout, no_color=args.no_color, environ=environ)
    plan = setup.plan
    session = Session(
        setup.state,
        setup.bots,
        console,
        style,
        presenter=setup.presenter,
        rngs=setup.rngs,
        record=plan.save,
        record_path=plan.path,
        records_dir=plan.folder,
        resumed=setup.resumed,
    )
    for line in setup.notes:
        console.say(line)
    return session.run()
