"""Many seeded bot games, one row each: the study, its per-game seeds, and the runners.

A :class:`Study` says what to play: the game, the seats, the bot level in each
seat (fixed, or a list of levels turned through the seats from one game to
the next), one or more option settings, how many games per setting and the
study's seed. Game ``i`` of every setting is dealt with the same seed,
:func:`game_seed` (study seed, ``i``), so two settings are compared on the same
deals. A game is played by :func:`play_game` exactly as
:func:`rummykit.sim.run_bots` plays it (the bots' generators come from the
game's seed), so any row can be replayed alone.

The rows do not depend on how the games are spread over processes: each game
depends only on its study, setting and index, and :func:`run_studies` returns
the rows sorted by (study, setting, game). Only ``seconds`` (the game's wall
time) differs between runs.

>>> study = make_study("rummikub", players=2, bots=["random"], games=3, seed=7)
>>> rows = run_studies([study], workers=1).rows[0]
>>> [row["game"] for row in rows], rows[0]["seed"] == game_seed(7, 0)
([0, 1, 2], True)
>>> rows[0]["bot_0"], rows[0]["actions"] > 0
('random', True)
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.bots.strong import settings_of
from rummykit.catalogue import find_game
from rummykit.engine.core import Event, GameState, check_seed
from rummykit.engine.driver import Agent
from rummykit.engine.options import resolve_options
from rummykit.engine.rng import MAX_SEED
from rummykit.errors import OptionError, RummykitError
from rummykit.sim import run_bots

__all__ = [
    "Row",
    "RunResult",
    "Study",
    "StudyError",
    "game_seed",
    "make_study",
    "play_game",
    "run_studies",
    "seat_levels",
]

Row = dict[str, Any]
"""One game's row: column name to value (see docs/study.md for the columns)."""

_MASK = (1 << 64) - 1


class StudyError(RummykitError):
    """A study could not be set up or a game of it failed (the message says which)."""


def game_seed(study_seed: int, index: int) -> int:
    """The deal's seed of game ``index`` of a study seeded ``study_seed`` (splitmix64, below 2**63).

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    >>> 0 <= game_seed(2**63 - 1, 10**9) <= 2**63 - 1
    True
    """
    z = (study_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return (z >> 1) % (MAX_SEED + 1)


@dataclass(frozen=True)
class Study:
    """What to play; build one with :func:`make_study`, which checks everything.

    ``settings`` holds each option setting as ``(name, text)`` pairs (the
    values as given on a command line); ``levels`` the bot levels, one per
    seat, or, with ``rotate``, a list turned through the seats (game ``i``,
    seat ``s`` plays ``levels[(s + i) % len(levels)]``).
    """

    game: str
    players: int
    levels: tuple[str, ...]
    rotate: bool
    settings: tuple[tuple[tuple[str, str], ...], ...]
    games: int
    seed: int
    max_actions: int = 1_000_000
    option_names: tuple[str, ...] = field(default=())

    @property
    def total(self) -> int:
        """The number of games in all (every setting)."""
        return self.games * len(self.settings)


def seat_levels(study: Study, index: int) -> tuple[str, ...]:
    """The bot level in each seat of game ``index``.

    >>> s = make_study("rummikub", players=3, bots=["greedy", "random"], games=2)
    >>> seat_levels(s, 0), seat_levels(s, 1)
    (('greedy', 'random', 'greedy'), ('random', 'greedy', 'random'))
    """
    if not study.rotate:
        return study.levels
    k = len(study.levels)
    return tuple(study.levels[(seat + index) % k] for seat in range(study.players))


def make_study(
    game: str,
    *,
    players: int | None = None,
    bots: Sequence[str] = ("random",),
    rotate: bool | None = None,
    options: Mapping[str, str] | None = None,
    vary: Mapping[str, Sequence[str]] | None = None,
    games: int = 100,
    seed: int = 0,
    max_actions: int = 1_000_000,
) -> Study:
    """A checked :class:`Study` (every bad argument raises :class:`~rummykit.errors.OptionError`).

    ``bots`` are levels: one per seat (``rotate`` False), or a list turned
    through the seats (``rotate`` True; the default when their number is not
    the number of seats). ``options`` are fixed option values and ``vary``
    lists the values of options to compare: every combination is one setting,
    each played ``games`` times on the same deals.

    >>> s = make_study("rummikub", players=2, vary={"initial_meld_points": ["0", "30"]}, games=5)
    >>> s.settings, s.total
    ((((\'initial_meld_points\', \'0\'),), ((\'initial_meld_points\', \'30\'),)), 10)
    """
    info = find_game(game)
    seats = info.min_players if players is None else players
    if not info.min_players <= seats <= info.max_players:
        raise OptionError(f"--players {seats}: {info.id} is for {info.player_span} players")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError(f"--games needs a whole number 1 or more, got {games!r}")
    check_seed(seed)
    levels = tuple(level.strip().lower() for level in bots)
    if not levels:
        raise OptionError("name at least one bot level")
    known = bot_levels(info.id)
    for level in levels:
        if settings_of(level)[0] not in known:
            raise OptionError(f"there is no {level!r} bot for {info.id}; its levels are: {', '.join(known)}")
        make_bot(level, info.id)  # its settings (strong:iterations=N) are checked here, before any game
    if rotate is None:
        rotate = len(levels) != seats
    if not rotate and len(levels) != seats:
        raise OptionError(f"{len(levels)} bot levels for {seats} seats: give one per seat, or a list to rotate")
    fixed = dict(options or {})
    varied = {k: [str(v) for v in values] for k, values in (vary or {}).items()}
    for key, values in varied.items():
        if key in fixed:
            raise OptionError(f"option {key!r} is both set and varied")
        if not values:
            raise OptionError(f"--vary {key}= lists no value")
        if len(set(values)) != len(values):
            raise OptionError(f"--vary {key} lists a value twice")
    settings: list[tuple[tuple[str, str], ...]] = []
    keys = list(varied)
    for combo in itertools.product(*(varied[k] for k in keys)):
        setting = {**fixed, **dict(zip(keys, combo, strict=True))}
        resolve_options(info.options, setting)  # a bad option or value is refused here, before any game
        settings.append(tuple(sorted(setting.items())))
    return Study(
        game=info.id,
        players=seats,
        levels=levels,
        rotate=rotate,
        settings=tuple(settings),
        games=games,
        seed=seed,
        max_actions=max_actions,
        option_names=tuple(spec.name for spec in info.options),
    )


@functools.cache
def _bot(level: str, game: str) -> Agent:
    """One bot per level and game in a process: a bot chooses from the view and its generator alone."""
    return make_bot(level, game)


def play_game(study: Study, setting: int, index: int) -> Row:
    """Play game ``index`` of option setting ``setting`` to the end; its row."""
    info = find_game(study.game)
    seed = game_seed(study.seed, index)
    levels = seat_levels(study, index)
    options = dict(study.settings[setting])
    started = time.perf_counter()
    state = info.new(players=study.players, seed=seed, **options)
    first = state.first
    turns = 0
    last_turn = state.turn_number

    def count_turns(state: GameState, events: list[Event]) -> None:
        nonlocal turns, last_turn
        for event in events:
            if event.kind == "round-end":
                turns += last_turn
        last_turn = state.turn_number

    bots = [_bot(level, info.id) for level in levels]
    try:
        run_bots(state, bots, max_actions=study.max_actions, on_event=count_turns)
    except (RummykitError, RuntimeError) as exc:
        raise StudyError(f"{info.id} game {index} (seed {seed}, bots {', '.join(levels)}) failed: {exc}") from exc
    seconds = time.perf_counter() - started
    outcome = state.outcome
    assert outcome is not None
    n = study.players
    row: Row = {
        "setting": setting,
        "game": index,
        "seed": seed,
        "players": n,
        "first_seat": first,
        "seat_order": ",".join(str((first + k) % n) for k in range(n)),
        "winners": ",".join(str(s) for s in outcome.winners),
        "reason": outcome.reason,
        "round_reason": state.rounds[-1].reason if state.rounds else outcome.reason,
        "rounds": len(state.rounds),
        "turns": turns,
        "actions": len(state.actions),
        "seconds": seconds,
    }
    for seat in range(n):
        row[f"bot_{seat}"] = levels[seat]
        row[f"won_{seat}"] = seat in outcome.winners
        row[f"score_{seat}"] = outcome.scores[seat]
        row[f"total_{seat}"] = outcome.totals[seat]
    specs = {spec.name: spec for spec in info.options}
    for name in study.option_names:
        row[f"opt_{name}"] = specs[name].format(state.options.get(name))
    return row


def play_chunk(study: Study, items: Sequence[tuple[int, int]]) -> list[Row]:
    """Play the games ``(setting, index)`` of a study in turn (one task of a worker)."""
    return [play_game(study, setting, index) for setting, index in items]


def _play_job(job: tuple[int, Study, tuple[tuple[int, int], ...]]) -> tuple[int, list[Row]]:
    number, study, items = job
    return number, play_chunk(study, items)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps the finished games."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class RunResult:
    """The rows of each study (sorted) and whether the run was stopped before the end."""

    rows: list[list[Row]]
    interrupted: bool = False

    @property
    def done(self) -> int:
        """The number of games finished."""
        return sum(len(r) for r in self.rows)


Progress = Callable[[int], None]
"""Called with the number of games just finished."""


def _jobs(studies: Sequence[Study], chunk: int) -> list[tuple[int, Study, tuple[tuple[int, int], ...]]]:
    jobs: list[tuple[int, Study, tuple[tuple[int, int], ...]]] = []
    for number, study in enumerate(studies):
        items = [(s, i) for s in range(len(study.settings)) for i in range(study.games)]
        for start in range(0, len(items), chunk):
            jobs.append((number, study, tuple(items[start : start + chunk])))
    return jobs


def chunk_size(total: int, workers: int) -> int:
    """Games per task: small enough for a live progress bar and an even spread, large enough to be cheap.

    >>> chunk_size(10, 2), chunk_size(100_000, 2)
    (1, 16)
    """
    return max(1, min(16, total // (workers * 16)))


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_studies(
    studies: Sequence[Study],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Play every game of ``studies``; the rows of each, sorted by (setting, game).

    ``backend`` is ``local`` (a process pool of ``workers``, default all
    cores; 1 plays in this process) or ``ray`` (a Ray cluster at
    ``address``, default a local instance; needs ``rummykit[ray]``). Ctrl-C
    stops the run: the games finished so far are returned with
    ``interrupted`` set.
    """
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise OptionError(f"--workers needs a whole number 1 or more, got {workers!r}")
    total = sum(s.total for s in studies)
    found: list[list[Row]] = [[] for _ in studies]
    interrupted = False
    results = _results(studies, total, workers, backend, address)
    try:
        for number, rows in results:
            found[number].extend(rows)
            if progress is not None:
                progress(len(rows))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()  # stops the workers at once when the run was interrupted
    for rows in found:
        rows.sort(key=lambda row: (row["setting"], row["game"]))
    return RunResult(found, interrupted)


def _results(
    studies: Sequence[Study], total: int, workers: int | None, backend: str, address: str | None
) -> Generator[tuple[int, list[Row]], None, None]:
    if backend == "ray":
        from rummykit.study.ray_backend import ray_results

        yield from ray_results(_jobs(studies, chunk_size(total, 8)), address, _play_job)
        return
    if backend != "local":
        raise OptionError(f"--backend is local or ray, got {backend!r}")
    if address is not None:
        raise OptionError("--address goes with --backend ray")
    count = default_workers() if workers is None else workers
    if count == 1:
        for job in _jobs(studies, 1):
            yield _play_job(job)
        return
    jobs = _jobs(studies, chunk_size(total, count))
    # spawn: workers start clean (no threads or state copied from this process)
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(min(count, max(1, len(jobs))), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(_play_job, jobs)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
