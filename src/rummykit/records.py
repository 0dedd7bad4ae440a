"""Game records: a small text file that replays to the identical state.

A record has a header of ``key: value`` lines, a blank line, then one action
per line as ``<seat> <action>`` in the game's notation. Lines starting with
``#`` are comments. See ``docs/notation.md``.

A record written by ``rummykit play`` also says who sat in each seat (a
person, or a bot with its level and where its random generator stood), so
that ``rummykit play --resume`` can continue the game exactly; replaying
ignores those lines.

>>> import rummykit
>>> state = rummykit.new_game('rummikub', players=['ann', 'bob'], seed=11)
>>> _ = state.apply(state.parse_action(f"{state.view(None)['turn']} draw"))
>>> text = write_record(state)
>>> print(text)  # doctest: +ELLIPSIS
rummykit record 1
game: rummikub
seed: 11
players: ann | bob
option jokers: 2
option initial_meld_points: 30
option target: none
option max_rounds: 50
<BLANKLINE>
... draw
<BLANKLINE>
>>> read_record(text).snapshot() == state.snapshot()
True
>>> write_record(read_record(text)) == text
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rummykit.catalogue import find_game
from rummykit.engine.core import GameState, check_seed, default_names
from rummykit.engine.options import resolve_options
from rummykit.errors import OptionError, RecordError, RummykitError

MAGIC = "rummykit record 1"


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person (``bot`` is None), or a bot of level ``bot``.

    A bot's random generator started from ``seed`` and had used ``draws``
    32-bit words of it (:attr:`rummykit.engine.rng.Rng.draws`) when the record
    was written, so a resumed bot goes on exactly where it stopped.

    >>> Seat.parse(Seat('greedy', 12, 3).text()), Seat.parse('person')
    (Seat(bot='greedy', seed=12, draws=3), Seat(bot=None, seed=0, draws=0))
    """

    bot: str | None = None
    seed: int = 0
    draws: int = 0

    def text(self) -> str:
        """``person``, or ``bot LEVEL, seed S, draws N``."""
        if self.bot is None:
            return "person"
        return f"bot {self.bot}, seed {self.seed}, draws {self.draws}"

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read :meth:`text` back (``ValueError`` saying what is wrong)."""
        words = text.replace(",", " ").split()
        if [w.lower() for w in words] == ["person"]:
            return cls()
        if len(words) != 6 or words[0].lower() != "bot" or [w.lower() for w in words[2::2]] != ["seed", "draws"]:
            raise ValueError(f"a seat is 'person' or 'bot LEVEL, seed S, draws N', got {text.strip()!r}")
        try:
            seed, draws = int(words[3]), int(words[5])
        except ValueError:
            raise ValueError(f"a bot's seed and draws are whole numbers, got {text.strip()!r}") from None
        if not 0 <= seed <= 2**63 - 1 or draws < 0:
            raise ValueError(f"a bot's seed is 0 to {2**63 - 1} and its draws 0 or more, got {text.strip()!r}")
        return cls(words[1], seed, draws)


@dataclass
class Record:
    """A parsed record before replay: header fields and (line number, action text) pairs."""

    game: str
    seed: int
    players: list[str]
    options: dict[str, str] = field(default_factory=dict)
    position: str | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    """The line of each header field (``option NAME`` for options, ``seat N`` for seats), for error reports."""
    seats: list[Seat] | None = None
    """Who plays each seat, when the record says (records of ``rummykit play``); None otherwise."""


def write_record(state: GameState, seats: Sequence[Seat] | None = None) -> str:
    """The record of a game so far (every option written out; ``seats``: who plays each seat)."""
    info = state.info
    lines = [
        MAGIC,
        f"game: {info.id}",
        f"seed: {state.seed}",
        f"players: {' | '.join(state.players)}",
    ]
    for spec in info.options:
        lines.append(f"option {spec.name}: {spec.format(state.options[spec.name])}")
    if state.position_text is not None:
        lines.append(f"position: {state.position_text}")
    if seats is not None:
        if len(seats) != len(state.players):
            raise ValueError(f"{len(state.players)} seats need {len(state.players)} entries in seats")
        lines.extend(f"seat {n}: {seat.text()}" for n, seat in enumerate(seats))
    lines.append("")
    lines.extend(str(a) for a in state.actions)
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> Record:
    """Read a record's header and action lines (actions are not checked yet)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    if i >= len(lines) or lines[i].strip() != MAGIC:
        raise RecordError(f"a record starts with the line {MAGIC!r}", i + 1 if i < len(lines) else 1)
    header: dict[str, tuple[int, str]] = {}
    options: dict[str, str] = {}
    seats: dict[int, Seat] = {}
    header_lines: dict[str, int] = {}
    i += 1
    while i < len(lines) and lines[i].strip():
        line = lines[i].strip()
        if line.startswith("#"):
            i += 1
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep:
            raise RecordError(f"expected 'key: value' in the header, got {line!r}", i + 1)
        if key.startswith("option "):
            name = key[len("option ") :].strip()
            if name in options:
                raise RecordError(f"option {name!r} given twice", i + 1)
            options[name] = value.strip()
            header_lines[f"option {name}"] = i + 1
        elif key.startswith("seat "):
            number = key[len("seat ") :].strip()
            if not number.isdigit():
                raise RecordError(f"a seat line is 'seat N: ...' with N from 0, got {line!r}", i + 1)
            if int(number) in seats:
                raise RecordError(f"seat {int(number)} given twice", i + 1)
            try:
                seats[int(number)] = Seat.parse(value)
            except ValueError as exc:
                raise RecordError(str(exc), i + 1) from None
            header_lines[f"seat {int(number)}"] = i + 1
        elif key in ("game", "seed", "players", "position"):
            if key in header:
                raise RecordError(f"header field {key!r} given twice", i + 1)
            header[key] = (i + 1, value.strip())
        else:
            raise RecordError(
                f"unknown header field {key!r} (fields: game, seed, players, option NAME, position, seat N)", i + 1
            )
        i += 1
    for needed in ("game", "seed", "players"):
        if needed not in header:
            raise RecordError(f"the header lacks '{needed}: ...'", i + 1 if i < len(lines) else len(lines))
    seed_line, seed_text = header["seed"]
    try:
        seed = int(seed_text)
    except ValueError:
        raise RecordError(f"the seed must be a whole number, got {seed_text!r}", seed_line) from None
    header_lines.update({key: line for key, (line, _) in header.items()})
    players = [p.strip() for p in header["players"][1].split("|")]
    if seats and sorted(seats) != list(range(len(players))):
        extra = sorted(set(seats) - set(range(len(players))))
        if extra:
            where, what = f"seat {extra[0]}", f"there is no seat {extra[0]} among {len(players)} players"
        else:
            missing = min(set(range(len(players))) - set(seats))
            where, what = "players", f"seat {missing} has no line"
        raise RecordError(f"the seat lines describe every seat (from 0) or none: {what}", header_lines[where])
    record = Record(
        game=header["game"][1],
        seed=seed,
        players=players,
        options=options,
        position=header["position"][1] if "position" in header else None,
        lines=header_lines,
        seats=[seats[n] for n in range(len(players))] if seats else None,
    )
    for j in range(i, len(lines)):
        line = lines[j].strip()
        if line and not line.startswith("#"):
            record.actions.append((j + 1, line))
    return record


def start_state(record: Record) -> GameState:
    """The state a record starts from (before its actions); errors name the header line."""

    def fail(key: str, exc: Exception) -> RecordError:
        return RecordError(f"bad {key}: {exc}", record.lines.get(key, 1))

    try:
        info = find_game(record.game)
    except RummykitError as exc:
        raise fail("game", exc) from None
    try:
        check_seed(record.seed)
    except RummykitError as exc:
        raise fail("seed", exc) from None
    try:
        names = default_names(record.players)
        if not info.min_players <= len(names) <= info.max_players:
            raise OptionError(f"{info.id} is for {info.player_span} players, not {len(names)}")
    except RummykitError as exc:
        raise fail("players", exc) from None
    for name, value in record.options.items():
        try:
            resolve_options(info.options, {name: value})
        except RummykitError as exc:
            raise fail(f"option {name}", exc) from None
    options = dict(record.options)
    try:
        if record.position is not None:
            if info.from_position is None:
                raise RecordError(f"{info.id} has no position strings")
            return info.from_position(record.position, players=names, seed=record.seed, **options)
        return info.new(players=names, seed=record.seed, **options)
    except RummykitError as exc:
        raise fail("position" if record.position is not None else "game", exc) from None


def read_record(text: str) -> GameState:
    """Replay a record to its final state; any malformed or illegal line is reported by number."""
    record = parse_record(text)
    state = start_state(record)
    for number, line in record.actions:
        try:
            state.apply(state.parse_action(line))
        except RummykitError as exc:
            raise RecordError(f"{line!r}: {exc}", number) from None
    return state
