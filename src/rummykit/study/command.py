"""The ``simulate``, ``tournament`` and ``report`` commands of ``rummykit`` (docs/study.md).

:func:`add_commands` adds them to the ``rummykit`` parser and :func:`run`
carries one out. Game options are read by the same
:func:`~rummykit.cli.start.parse_options` as ``play``; every bad argument is
an :class:`~rummykit.errors.OptionError` (one line, exit status 2). Only the
standard library is imported here: pyarrow, rich and matplotlib are loaded
by the command that needs them.
"""

from __future__ import annotations

import argparse
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rummykit.bots.registry import bot_levels
from rummykit.catalogue import find_game
from rummykit.cli.start import DEFAULT_BOT, FALLBACK_BOT, RANDOM_SEEDS, parse_options
from rummykit.errors import OptionError

if TYPE_CHECKING:
    from rummykit.cli.main import Parser, Streams

__all__ = ["COMMANDS", "add_commands", "bot_plan", "parse_vary", "run"]

COMMANDS = ("simulate", "tournament", "report")
EXIT_INTERRUPTED = 130


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``simulate`` and ``tournament``: options, seed, workers, backend, output."""
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="set a game option (repeatable)"
    )
    parser.add_argument(
        "--seed", type=int, metavar="S", help="the study's seed; each game's seed comes from it (default: random, printed)"
    )
    parser.add_argument("--workers", type=int, metavar="N", help="processes to play in (default: all cores)")
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="local processes, or a Ray cluster (rummykit[ray])"
    )
    parser.add_argument("--address", metavar="ADDR", help="the Ray cluster's address (--backend ray; default: a local one)")
    parser.add_argument("--out", metavar="FILE", help="write one row per game to FILE (.parquet or .csv)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_commands(sub: argparse._SubParsersAction[Parser], streams: Streams) -> None:
    """Add ``simulate``, ``tournament`` and ``report`` to the subparsers ``sub`` of the ``rummykit`` parser."""
    simulate = sub.add_parser(
        "simulate",
        **streams,
        help="play many seeded bot games and write one row per game",
        description=(
            "Play many seeded games between bots on all cores (or a Ray cluster) and write one row per game"
            " (Parquet or CSV by --out's extension); the rows are the same whatever the number of workers."
        ),
    )
    simulate.add_argument("game", help="game id (see `rummykit games`)")
    simulate.add_argument("--players", type=int, metavar="N", help="seats (default: as many as --bot gives, else the least)")
    simulate.add_argument(
        "--bot",
        action="append",
        metavar="LEVEL",
        help="one bot level per seat (repeat it), or one comma list turned through the seats from game to game"
        f" (default: {DEFAULT_BOT}, or {FALLBACK_BOT} where there is no {DEFAULT_BOT} bot)",
    )
    simulate.add_argument("--games", type=int, default=100, metavar="N", help="games per option setting (default 100)")
    simulate.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="compare these values of an option (repeatable: every combination is a setting)",
    )
    simulate.add_argument("--report", metavar="DIR", help="also write the report (as `rummykit report`) into DIR")
    _add_run_arguments(simulate)

    tournament = sub.add_parser(
        "tournament",
        **streams,
        help="play bots against each other: ratings and head-to-head",
        description=(
            "Play every pairing of the bots (2 players) or every table of them with the seats rotated (3+),"
            " on the same deals, then fit Bradley-Terry (Elo-scale) ratings with 95% intervals and show the"
            " head-to-head matrix."
        ),
    )
    tournament.add_argument("game", help="game id (see `rummykit games`)")
    tournament.add_argument("--bots", required=True, metavar="A,B,...", help="the bot levels, comma-separated")
    tournament.add_argument("--players", type=int, metavar="N", help="seats per table (default: the game's least)")
    count = tournament.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, metavar="N", help="games per pairing or table")
    count.add_argument(
        "--width",
        type=float,
        default=0.2,
        metavar="W",
        help="games enough for a 95%% interval at most W wide on each head-to-head score (default 0.2)",
    )
    tournament.add_argument(
        "--resamples", type=int, default=200, metavar="N", help="bootstrap resamples for the rating intervals"
    )
    tournament.add_argument("--report", metavar="DIR", help="also write the report (as `rummykit report`) into DIR")
    _add_run_arguments(tournament)

    report = sub.add_parser(
        "report",
        **streams,
        help="an HTML report with plots of a simulate file",
        description=(
            "Summarise a file written by simulate or tournament: win rates by seat, by position in the"
            " playing order and by bot with 95% intervals, score and game-length distributions, option"
            " settings side by side. Writes report.html (pictures embedded) and the PNG files."
        ),
    )
    report.add_argument("file", help="a .parquet or .csv file written by rummykit simulate")
    report.add_argument("--out", metavar="DIR", help="the report's folder (default: FILE's name + -report)")


def bot_plan(game: str, given: list[str] | None, players: int | None) -> tuple[list[str], bool, int]:
    """(levels, rotate, seats) from ``--bot`` and ``--players``.

    >>> bot_plan("rummikub", ["greedy,random"], 4)
    (['greedy', 'random'], True, 4)
    >>> bot_plan("rummikub", ["greedy", "solver"], None)
    (['greedy', 'solver'], False, 2)
    >>> bot_plan("conveyor", None, 3)
    (['greedy'], True, 3)
    """
    info = find_game(game)
    if not given:
        level = DEFAULT_BOT if DEFAULT_BOT in bot_levels(info.id) else FALLBACK_BOT
        return [level], True, info.min_players if players is None else players
    lists = [[part.strip() for part in text.split(",")] for text in given]
    if any(not part for parts in lists for part in parts):
        raise OptionError(f"--bot {' '.join(given)}: an empty level")
    if len(lists) == 1:
        levels = lists[0]
        seats = players if players is not None else (len(levels) if len(levels) > 1 else info.min_players)
        return levels, len(levels) > 1 or seats > 1, seats
    if any(len(parts) > 1 for parts in lists):
        raise OptionError("give --bot once per seat, or once with a comma list to turn through the seats")
    levels = [parts[0] for parts in lists]
    if players is not None and players != len(levels):
        raise OptionError(f"{len(levels)} --bot levels for --players {players}: give one per seat")
    return levels, False, len(levels)


def parse_vary(pairs: list[str]) -> dict[str, list[str]]:
    """``KEY=V1,V2`` strings to the values of each option to compare (repeating a key adds values).

    >>> parse_vary(["set=6,9", "set=12", "partners=true,false"])
    {'set': ['6', '9', '12'], 'partners': ['true', 'false']}
    """
    varied: dict[str, list[str]] = {}
    for pair in pairs:
        key, sep, values = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"write --vary as KEY=V1,V2 (e.g. initial_meld_points=0,30), got {pair!r}")
        parts = [v.strip() for v in values.split(",")]
        if not all(parts):
            raise OptionError(f"--vary {pair}: an empty value")
        varied.setdefault(key, []).extend(parts)
    return varied


def _seed(args: argparse.Namespace, err: TextIO) -> int:
    if args.seed is not None:
        return int(args.seed)
    seed = secrets.randbelow(RANDOM_SEEDS)
    err.write(f"study seed {seed} (repeat the study with --seed {seed})\n")
    return seed


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Carry out ``args.command`` (one of :data:`COMMANDS`); the exit status."""
    if args.command == "simulate":
        return cmd_simulate(args, out, err)
    if args.command == "tournament":
        from rummykit.study.tournament import cmd_tournament

        return cmd_tournament(args, out, err, seed=_seed)
    if args.command == "report":
        from rummykit.study.report import cmd_report

        return cmd_report(args.file, args.out, out)
    raise OptionError(f"unknown study command {args.command!r}")


def check_run_arguments(args: argparse.Namespace) -> Path | None:
    """Refuse bad --workers, --backend/--address and --out before any game is played; the out path."""
    from rummykit.study.table import check_out_path

    if args.workers is not None and args.workers < 1:
        raise OptionError(f"--workers needs a whole number 1 or more, got {args.workers}")
    if args.address is not None and args.backend != "ray":
        raise OptionError("--address goes with --backend ray")
    if args.backend == "ray":
        from rummykit.study.ray_backend import check_ray

        check_ray()
    return None if args.out is None else check_out_path(args.out)


def cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``rummykit simulate``: play the study, write the rows, print the summary."""
    from rummykit.study.progress import progress_bar
    from rummykit.study.runner import make_study, run_studies

    levels, rotate, seats = bot_plan(args.game, args.bot, args.players)
    options = parse_options(args.option)
    study = make_study(
        args.game,
        players=seats,
        bots=levels,
        rotate=rotate,
        options=options,
        vary=parse_vary(args.vary),
        games=args.games,
        seed=args.seed if args.seed is not None else 0,
    )
    path = check_run_arguments(args)
    report_dir = None if args.report is None else Path(args.report).expanduser()
    if report_dir is not None and report_dir.exists() and not report_dir.is_dir():
        raise OptionError(f"--report {args.report} is a file: name a folder")
    if args.seed is None:
        from dataclasses import replace

        study = replace(study, seed=_seed(args, err))
    started = time.perf_counter()
    with progress_bar(study.total, err, label=study.game, enabled=not args.no_progress) as advance:
        result = run_studies([study], workers=args.workers, backend=args.backend, address=args.address, progress=advance)
    elapsed = time.perf_counter() - started
    rows = result.rows[0]
    if path is not None and rows:
        from rummykit.study.table import write_rows

        write_rows(rows, path)
    rate = len(rows) / elapsed if elapsed > 0 else 0.0
    where = f"; rows written to {path}" if path is not None and rows else ""
    if result.interrupted:
        out.write(f"interrupted: {len(rows)} of {study.total} games finished and kept{where}\n")
    else:
        out.write(f"{len(rows)} games of {study.game} in {elapsed:.1f} s ({rate:,.1f} games/s){where}\n")
    if rows:
        from rummykit.study.report import summary_lines, write_report

        out.write("".join(line + "\n" for line in summary_lines(rows)))
        if report_dir is not None:
            page = write_report(rows, report_dir, title=f"rummykit simulate {study.game}")
            out.write(f"report: {page}\n")
    return EXIT_INTERRUPTED if result.interrupted else 0
