"""``rummykit tournament``: bots against each other, on the same deals, with ratings and a head-to-head matrix.

With 2 seats every pairing of the bots plays, half the games with each bot
in seat 0, game ``i`` of both halves on the same deal (a duplicate match:
the luck of the deal cancels out). With 3 or more seats every table of that
many different bots plays, each of its seat rotations on the same deals
(with fewer bots than seats, one table: the bots repeated in turn).

Ratings are Bradley-Terry strengths fitted by maximum likelihood to every
two-bot comparison inside each game (a winner beats each seat that did not
win; two winners, or two seats that both lost, draw), on the Elo scale with
mean 1500: a difference of 200 points means an expected score of 76%. Their
95% intervals come from a bootstrap that redraws whole games within each
pairing or table, so the comparisons of one multi-player game stay together.
Why this and not an online rating (Elo updates, openskill): the games are
all played before the fit, so the maximum-likelihood fit uses them all at
once and does not depend on their order; and it needs no extra library.

>>> result = play_tournament("rummikub", ["greedy", "random"], games=8, seed=3, workers=1)
>>> [pairing.games for pairing in result.pairings]
[8]
>>> result.ratings["greedy"].rating > result.ratings["random"].rating
True
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rummykit.catalogue import find_game
from rummykit.cli.start import parse_options
from rummykit.errors import OptionError
from rummykit.study.runner import Row, Study, make_study, run_studies
from rummykit.study.stats import Game, bootstrap_ratings, bradley_terry, games_for_width, pair_results, wilson

__all__ = ["HeadToHead", "Rating", "TournamentResult", "cmd_tournament", "play_tournament", "tables"]


@dataclass(frozen=True)
class Rating:
    """A bot's rating (Elo scale) with its 95% interval, and its win rate over all its games."""

    bot: str
    rating: float
    low: float
    high: float
    wins: float
    seats: int


@dataclass(frozen=True)
class HeadToHead:
    """What ``a`` scored against ``b`` (1 a game won and not by ``b``, 1/2 a draw) in ``n`` games together."""

    a: str
    b: str
    score: float
    n: int

    @property
    def share(self) -> float:
        """``a``'s share of the points."""
        return self.score / self.n if self.n else 0.0

    def text(self) -> str:
        """``64.0% [57.1, 70.4] (200)``."""
        low, high = wilson(self.score, self.n)
        return f"{100 * self.share:.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({self.n})"


@dataclass(frozen=True)
class Pairing:
    """One pairing (2 seats) or table (3+): its bots and the games it played."""

    bots: tuple[str, ...]
    games: int


@dataclass
class TournamentResult:
    """The rows (with their ``table``), the pairings, ratings and head-to-head scores."""

    rows: list[Row]
    pairings: list[Pairing]
    ratings: dict[str, Rating]
    head_to_head: dict[tuple[str, str], HeadToHead]
    interrupted: bool = False


def tables(bots: Sequence[str], players: int) -> list[tuple[tuple[str, ...], list[tuple[str, ...]]]]:
    """Each pairing or table of ``players`` different bots, with the seatings it plays.

    >>> tables(["a", "b", "c"], 2)[0]
    (('a', 'b'), [('a', 'b'), ('b', 'a')])
    >>> tables(["a", "b", "c"], 3)
    [(('a', 'b', 'c'), [('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')])]

    With fewer bots than seats there is one table, the bots repeated in turn
    to fill it, and its distinct rotations:

    >>> tables(["a", "b"], 4)
    [(('a', 'b', 'a', 'b'), [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')])]
    """
    if len(bots) < players:
        filled = tuple(bots[i % len(bots)] for i in range(players))
        return [(filled, _rotations(filled))]
    return [(tuple(combo), _rotations(tuple(combo))) for combo in itertools.combinations(bots, players)]


def _rotations(seating: tuple[str, ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for r in range(len(seating)):
        turned = seating[r:] + seating[:r]
        if turned not in out:
            out.append(turned)
    return out


def _studies(
    game: str, bots: Sequence[str], players: int, games: int, options: dict[str, str], seed: int
) -> tuple[list[Pairing], list[tuple[int, Study]]]:
    pairings: list[Pairing] = []
    studies: list[tuple[int, Study]] = []
    for number, (combo, seatings) in enumerate(tables(bots, players)):
        each = math.ceil(games / len(seatings))
        pairings.append(Pairing(combo, each * len(seatings)))
        for seating in seatings:
            study = make_study(game, players=players, bots=seating, rotate=False, options=options, games=each, seed=seed)
            studies.append((number, study))
    return pairings, studies


def analyse(bots: Sequence[str], rows: Sequence[Row], groups: int, *, resamples: int, seed: int) -> tuple[
    dict[str, Rating], dict[tuple[str, str], HeadToHead]
]:
    """Ratings and head-to-head scores from tournament rows (each with its ``table``)."""
    by_table: list[list[Game]] = [[] for _ in range(groups)]
    wins = dict.fromkeys(bots, 0.0)
    seats = dict.fromkeys(bots, 0)
    for row in rows:
        game: list[tuple[str, float]] = []
        for seat in range(int(row["players"])):
            level = str(row[f"bot_{seat}"])
            won = bool(row[f"won_{seat}"])
            game.append((level, 1.0 if won else 0.0))
            wins[level] += won
            seats[level] += 1
        by_table[int(row["table"])].append(game)
    every = [g for group in by_table for g in group]
    pairs = pair_results(every)
    fit = bradley_terry(bots, pairs)
    intervals = bootstrap_ratings(bots, by_table, resamples=resamples, seed=seed) if resamples > 0 else {}
    ratings = {
        bot: Rating(bot, fit[bot], *intervals.get(bot, (math.nan, math.nan)), wins[bot], seats[bot]) for bot in bots
    }
    h2h: dict[tuple[str, str], HeadToHead] = {}
    for (a, b), (score, n) in pairs.items():
        h2h[(a, b)] = HeadToHead(a, b, score, n)
        h2h[(b, a)] = HeadToHead(b, a, n - score, n)
    return ratings, h2h


def play_tournament(
    game: str,
    bots: Sequence[str],
    *,
    players: int | None = None,
    games: int | None = None,
    width: float = 0.2,
    options: dict[str, str] | None = None,
    seed: int = 0,
    resamples: int = 200,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play the tournament and analyse it (``games`` per pairing or table, else enough for ``width``)."""
    info = find_game(game)
    seats = info.min_players if players is None else players
    levels, games = check_tournament(info.id, bots, seats, games=games, width=width, resamples=resamples)
    pairings, studies = _studies(info.id, levels, seats, games, dict(options or {}), seed)
    result = run_studies([s for _, s in studies], workers=workers, backend=backend, address=address, progress=progress)
    rows: list[Row] = []
    for (number, _), found in zip(studies, result.rows, strict=True):
        rows.extend({"table": number, **row} for row in found)
    ratings, h2h = analyse(levels, rows, len(pairings), resamples=resamples, seed=seed)
    return TournamentResult(rows, pairings, ratings, h2h, result.interrupted)


def one_sided(result: TournamentResult, bot: str) -> bool:
    """True when ``bot`` won every game, or lost every game, against every other bot it met."""
    shares = [h.share for (a, _), h in result.head_to_head.items() if a == bot and h.n]
    return bool(shares) and (all(x == 1.0 for x in shares) or all(x == 0.0 for x in shares))


def _print_tables(result: TournamentResult, bots: Sequence[str], out: TextIO, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, width=max(100, 24 * (len(bots) + 1)))
    ratings = Table(title=f"{title}: ratings (Bradley-Terry, Elo scale, mean 1500)")
    for column in ("rank", "bot", "rating", "95% interval", "win rate", "seats played"):
        ratings.add_column(column, justify="left" if column == "bot" else "right")
    ranked = sorted(result.ratings.values(), key=lambda r: -r.rating)
    swept = [r.bot for r in ranked if one_sided(result, r.bot)]
    for rank, r in enumerate(ranked, 1):
        interval = "" if math.isnan(r.low) else f"{r.low:.0f} to {r.high:.0f}"
        if r.bot in swept:
            interval += " *"
        share = f"{100 * r.wins / r.seats:.1f}%" if r.seats else ""
        ratings.add_row(str(rank), r.bot, f"{r.rating:.0f}", interval, share, str(r.seats))
    console.print(ratings)
    if swept:
        console.print(
            f"* {', '.join(swept)}: won every game or lost every game against the others, so the fit cannot"
            " place them: such a rating is set by the prior (half a virtual win each way) and is a bound, not"
            " an estimate, and resampling cannot widen its interval. A closer opponent would rate it."
        )
    matrix = Table(title="head to head: the row's score against the column (95% interval, games)")
    matrix.add_column("")
    order = [r.bot for r in ranked]
    for bot in order:
        matrix.add_column(bot, justify="right")
    for a in order:
        cells = ["" if a == b else (result.head_to_head[(a, b)].text() if (a, b) in result.head_to_head else "") for b in order]
        matrix.add_row(a, *cells)
    console.print(matrix)


def cmd_tournament(args: argparse.Namespace, out: TextIO, err: TextIO, *, seed: Callable[[argparse.Namespace, TextIO], int]) -> int:
    """``rummykit tournament``: play, print the ratings and the matrix, write the rows (--out)."""
    from rummykit.study.command import EXIT_INTERRUPTED, check_run_arguments
    from rummykit.study.progress import progress_bar

    options = parse_options(args.option)
    levels = [b.strip() for b in args.bots.split(",")]
    # check everything (bots, seats, options, counts, output) before playing
    info = find_game(args.game)
    seats = info.min_players if args.players is None else args.players
    probe = play_tournament_plan(info.id, levels, seats, args, options)
    path = check_run_arguments(args)
    study_seed = seed(args, err)
    started = time.perf_counter()
    with progress_bar(probe, err, label=f"{info.id} tournament", enabled=not args.no_progress) as advance:
        result = play_tournament(
            info.id,
            levels,
            players=seats,
            games=args.games,
            width=args.width,
            options=options,
            seed=study_seed,
            resamples=args.resamples,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            progress=advance,
        )
    elapsed = time.perf_counter() - started
    per = sorted({p.games for p in result.pairings})
    unit = "pairing" if seats == 2 else "table"
    how = f"--games {args.games}" if args.games is not None else f"a 95% interval at most {args.width:g} wide"
    out.write(
        f"{len(result.rows)} games of {info.id} in {elapsed:.1f} s: {', '.join(map(str, per))} per {unit}"
        f" ({how}), seat order rotated on the same deals\n"
    )
    if result.interrupted:
        out.write("interrupted: the tables below count only the games finished\n")
    if result.rows:
        _print_tables(result, levels, out, info.id)
    if path is not None and result.rows:
        from rummykit.study.table import write_rows

        write_rows(result.rows, path)
        out.write(f"rows written to {path}\n")
    if args.report is not None and result.rows:
        from rummykit.study.report import write_report

        page = write_report(result.rows, Path(args.report).expanduser(), title=f"rummykit tournament {info.id}")
        out.write(f"report: {page}\n")
    return EXIT_INTERRUPTED if result.interrupted else 0


def check_tournament(
    game: str, bots: Sequence[str], seats: int, *, games: int | None, width: float, resamples: int
) -> tuple[list[str], int]:
    """Refuse a bad tournament (:class:`OptionError`); its levels and the games per pairing or table."""
    info = find_game(game)
    levels = [b.strip().lower() for b in bots]
    if len(levels) < 2 or not all(levels):
        raise OptionError("--bots needs two levels or more, comma-separated, e.g. --bots greedy,random")
    if len(set(levels)) != len(levels):
        raise OptionError(f"--bots {','.join(levels)} names a level twice")
    if not info.min_players <= seats <= info.max_players:
        raise OptionError(f"--players {seats}: {info.id} is for {info.player_span} players")
    if resamples < 0:
        raise OptionError(f"--resamples needs 0 or more, got {resamples}")
    if games is not None:
        if games < 1:
            raise OptionError(f"--games needs a whole number 1 or more, got {games}")
        return levels, games
    try:
        return levels, games_for_width(width)
    except ValueError as exc:
        raise OptionError(f"--width: {exc}") from None


def play_tournament_plan(game: str, levels: list[str], seats: int, args: argparse.Namespace, options: dict[str, str]) -> int:
    """Check the tournament's arguments by building its studies; the number of games it will play."""
    checked, games = check_tournament(
        game, levels, seats, games=args.games, width=args.width, resamples=args.resamples
    )
    _, studies = _studies(game, checked, seats, games, options, 0)
    return sum(s.total for _, s in studies)
