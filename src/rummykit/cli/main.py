"""The ``rummykit`` command: ``games``, ``rules``, ``play``, ``tui``, ``solve``, ``replay``, ``serve`` and the studies.

The study commands (``simulate``, ``tournament``, ``report``) live in :mod:`rummykit.study.command`.

:func:`main` takes its arguments and streams as parameters, so tests (and
other programs) can run any command in-process::

    status = main(["play", game_id, "--bots", "2"], stdin=script, stdout=out)

Every bad input ends with one line on stderr and exit status 2; no traceback
reaches the user.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, TypedDict

from rummykit import __version__
from rummykit.catalogue import find_game, games
from rummykit.cli.play import Console
from rummykit.cli.render import make_style
from rummykit.cli.saving import RECORDS_ENV
from rummykit.cli.start import DEFAULT_BOT, FALLBACK_BOT, game_setup, parse_options, play_session
from rummykit.engine.core import GameInfo
from rummykit.errors import OptionError, RecordError, RummykitError
from rummykit.presenters import Presenter, presenter_for
from rummykit.presenters.text import Style, fit, plural, score_lines
from rummykit.records import parse_record, read_record, start_state
from rummykit.study.command import COMMANDS as STUDY_COMMANDS
from rummykit.study.command import add_commands as add_study_commands
from rummykit.study.command import run as run_study_command

if TYPE_CHECKING:
    from rummykit.presenters.base import Solver
    from rummykit.presenters.solving import Request

EXIT_USAGE = 2

class UsageError(Exception):
    """Argparse found a bad command line (already reported)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Streams(TypedDict):
    """Where a parser writes: its output and its errors."""

    out: TextIO
    err: TextIO


class Parser(argparse.ArgumentParser):
    """An argument parser that writes to given streams and raises instead of exiting.

    It takes the options the commands give it (and ``add_parser`` passes on to it): the streams,
    the program's name, the description and the epilog."""

    def __init__(
        self,
        *,
        out: TextIO,
        err: TextIO,
        prog: str | None = None,
        description: str | None = None,
        epilog: str | None = None,
    ) -> None:
        super().__init__(prog=prog, description=description, epilog=epilog)
        self.out = out
        self.err = err

    def _print_message(self, message: str, file: object = None) -> None:
        if message:
            (self.err if file is sys.stderr else self.out).write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self.err.write(message)
        raise UsageError(status)

    def error(self, message: str) -> NoReturn:
        self.err.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise UsageError(EXIT_USAGE)


def build_parser(out: TextIO, err: TextIO) -> Parser:
    """The argument parser of the ``rummykit`` command."""

    streams: Streams = {"out": out, "err": err}
    parser = Parser(
        **streams,
        prog="rummykit",
        description="Play, replay and look up rummy-family games, exactly by their rules.",
        epilog="Start with: rummykit games, then: rummykit play GAME --bots 2",
    )
    parser.add_argument("--version", action="version", version=f"rummykit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("games", **streams, help="list the games", description="List every game rummykit knows.")

    rules = sub.add_parser(
        "rules", **streams, help="a game's summary and options", description="Show a game's rules summary and options."
    )
    rules.add_argument("game", help="game id (see `rummykit games`)")

    play = sub.add_parser(
        "play",
        **streams,
        help="play a game against bots, hot-seat, or watch bots play",
        description=(
            "Play a game at the terminal. Seats are people first, then bots. With no people"
            " (every seat a bot) the game runs unattended and prints every turn."
        ),
    )
    add_game_arguments(play)

    tui = sub.add_parser(
        "tui",
        **streams,
        help="play a game in a full-screen terminal app",
        description=(
            "Play a game in a full-screen terminal app (Textual): the table, your rack, the other players"
            " and a log at once; type the same commands as in `play`, or pick tiles with keys and mouse."
            " Takes the same options as play."
        ),
    )
    add_game_arguments(tui)
    tui.add_argument("--replay", metavar="FILE", help="open a saved game record in the replay viewer")
    tui.add_argument(
        "--speed", choices=("fast", "normal", "slow", "step"), default="normal", help="how fast the bots move"
    )
    tui.add_argument("--theme", choices=("dark", "light"), help="the colour theme (F4 switches it)")

    serve = sub.add_parser(
        "serve",
        **streams,
        help="run the game server for playing in the browser",
        description=(
            "Run the game server: tables, invite links and games in the browser, with bots on the server."
            " See docs/online.md."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--db", metavar="URL", default=None,
        help="the database: sqlite:///FILE (default sqlite:///rummykit-server.db) or postgresql+psycopg://...",
    )
    serve.add_argument(
        "--allow-origin", metavar="ORIGIN", action="append", default=[],
        help="a browser origin allowed to open WebSockets besides the server's own (repeatable)",
    )
    serve.add_argument("--bot-delay", type=float, default=0.0, metavar="SECONDS", help="how long a bot waits before it acts")
    serve.add_argument(
        "--flood-rate", type=float, default=15.0, metavar="N",
        help="frames per second a connection may send, twice that at once (default 15)",
    )
    serve.add_argument(
        "--chosen-seeds", action="store_true",
        help="let tables with two or more people have a chosen seed (practice and testing: whoever chose it"
        " can work out every hidden piece)",
    )
    serve.add_argument(
        "--expire-after", type=float, default=7200.0, metavar="SECONDS",
        help="close a table nobody has touched (no page open on it, no page opened or closed, no action played)"
        " for this long (default 7200: 2 hours)",
    )

    solve = sub.add_parser(
        "solve",
        **streams,
        help="the best play from a position (games with a solver)",
        description=(
            "Find the best play (most pieces or most points placed) for a rack and a table, with the whole"
            " rearranged table and the steps to get there. Sets are separated by '|'. With --batch, read"
            " many positions as JSON lines and write one JSON answer per line."
        ),
    )
    solve.add_argument("game", help="game id (a game with a solver)")
    solve.add_argument("--table", metavar="SETS", help='the table, e.g. "R1 R2 R3 | K5 B5 O5" (default: empty)')
    solve.add_argument("--rack", metavar="PIECES", help='the rack, e.g. "R4 J K7" (required without --batch)')
    solve.add_argument(
        "--initial", action="store_true", help="an initial meld (starting group): new sets from the rack only"
    )
    solve.add_argument(
        "--threshold", metavar="N", help="the initial meld's least value, where the game has one (with --initial)"
    )
    solve.add_argument(
        "--objective", metavar="WHAT", help="what to maximise: the pieces placed (named by the game's word for them, e.g. tiles; the default) or points"
    )
    solve.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="a game option, e.g. jokers=4"
    )
    solve.add_argument("--json", action="store_true", help="print one JSON object (errors too)")
    solve.add_argument(
        "--batch",
        nargs="?",
        const="-",
        metavar="FILE",
        help="read positions as JSON lines from FILE (default: standard input); one JSON answer per line",
    )

    replay = sub.add_parser(
        "replay", **streams, help="replay a game record", description="Replay a game record and check every line."
    )
    replay.add_argument("file", help="a record written by `rummykit play`")
    replay.add_argument("--verbose", "-v", action="store_true", help="print every action")
    replay.add_argument("--no-color", action="store_true", help="no ANSI colours")
    add_study_commands(sub, streams)  # simulate, tournament, report (docs/study.md)
    return parser


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that set up a game, shared by ``play`` and ``tui``: game, seats, seed, options, record."""
    parser.add_argument("game", nargs="?", help="game id (see `rummykit games`); not needed with --resume")
    parser.add_argument(
        "--players", type=int, metavar="N", help="number of seats in all (default: 1 person + the bots; one bot if none given)"
    )
    bots = parser.add_mutually_exclusive_group()
    bots.add_argument("--bots", type=int, metavar="N", help=f"add N bots of level {DEFAULT_BOT} (or {FALLBACK_BOT})")
    bots.add_argument("--bot", action="append", metavar="LEVEL", help="add one bot of LEVEL (repeatable)")
    parser.add_argument("--seed", type=int, metavar="S", help="the deal's seed (default: a random one, printed)")
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="set a game option (repeatable)"
    )
    parser.add_argument(
        "--resume", metavar="FILE", help="continue the game saved in FILE, with the same people and bots in their seats"
    )
    saving = parser.add_mutually_exclusive_group()
    saving.add_argument(
        "--record",
        metavar="FILE",
        help=f"save the game record as FILE, or in FILE if it is a folder (default: the folder ${RECORDS_ENV},"
        " else rummykit/records in your user data folder); an existing file is never overwritten",
    )
    saving.add_argument("--no-record", action="store_true", help="do not save a game record")
    parser.add_argument("--names", metavar="A,B,...", help="player names, one per seat, comma-separated")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours (also: NO_COLOR=1)")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run the ``rummykit`` command; returns the exit status."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser(out, err)
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except UsageError as exc:
        return exc.status
    try:
        if args.command == "games":
            return cmd_games(out)
        if args.command == "rules":
            return cmd_rules(args.game, out, width=make_style(out, environ=environ).width)
        if args.command == "play":
            console = Console(stdin or sys.stdin, out, err)
            return cmd_play(args, console, environ)
        if args.command == "tui":
            return cmd_tui(args, out, err, environ)
        if args.command == "serve":
            from rummykit.server.serve import cmd_serve

            return cmd_serve(args, out, err)
        if args.command == "solve":
            return cmd_solve(args, stdin or sys.stdin, out, err)
        if args.command == "replay":
            return cmd_replay(args.file, out, err, verbose=args.verbose, style=_style(out, args.no_color, environ))
        if args.command in STUDY_COMMANDS:
            return run_study_command(args, out, err)
    except RummykitError as exc:
        err.write(f"rummykit: {' '.join(str(exc).split())}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("rummykit: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `rummykit replay x -v | head`): stop quietly.
        _silence(out)
        return 1
    parser.print_usage(err)
    err.write("rummykit: name a command: games, rules, play, tui, solve, replay, serve, simulate, tournament or report (see rummykit --help)\n")
    return EXIT_USAGE


def _silence(out: TextIO) -> None:
    """Point a real stdout at /dev/null so the final flush at exit cannot fail again."""
    if out is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def _style(out: TextIO, no_color: bool, environ: Mapping[str, str] | None) -> Style:
    return make_style(out, no_color=no_color, environ=environ)


def player_range(info: GameInfo) -> str:
    """``2-4 players`` (or ``2 players``)."""
    if info.min_players == info.max_players:
        return f"{info.min_players} players"
    return f"{info.min_players}-{info.max_players} players"


# -- games and rules ---------------------------------------------------------------


def cmd_games(out: TextIO) -> int:
    """One line per game: id, name, player range, summary."""
    infos = games()
    width = max((len(i.id) for i in infos), default=0)
    for info in infos:
        out.write(f"{info.id:<{width}}  {info.name} ({player_range(info)}): {info.summary}\n")
    return 0


def rules_page_location(info: GameInfo) -> str:
    """Where the game's full rules are: the page in the source tree (absolute when it is there)."""
    if not info.rules_page:
        return "(no rules page yet)"
    checkout = Path(__file__).resolve().parents[3] / info.rules_page
    if checkout.is_file():
        return str(checkout)
    return f"{info.rules_page} in the rummykit source"


def cmd_rules(game: str, out: TextIO, width: int = 0) -> int:
    """A game's name, summary, players, rules in brief, notation, options (default, values, help) and rules page.

    The rules in brief and the notation are the game's presenter's; the
    options are the game's own declarations, so the values listed are exactly
    those the game accepts. Lines are laid out to ``width`` (0: not broken).
    """
    info = find_game(game)
    presenter = presenter_for(info.id)
    aliases = f" (also: {', '.join(info.aliases)})" if info.aliases else ""
    lines: list[str] = []

    def say(text: str = "", hang: int = 0) -> None:
        lines.extend(fit(text, width, hang))

    say(f"{info.name}  [id: {info.id}{aliases}]")
    say(info.summary)
    players = info.player_span
    say(f"Players: {players}")
    for head, paragraphs in (
        ("The rules in brief:", presenter.rules_lines()),
        ("How pieces are written:", presenter.notation_lines()),
    ):
        say()
        say(head)
        for paragraph in paragraphs:
            say(f"  - {paragraph}", 4)
    say()
    if info.options:
        say("Options (set with --option NAME=VALUE):")
        column = max(len(o.name) for o in info.options)
        hang = column + 4 if not width or column + 4 <= width // 2 else 6
        for spec in info.options:
            if hang == column + 4:
                say(f"  {spec.name:<{column}}  default {spec.format(spec.default)}; allowed: {spec.describe_range()}", hang)
            else:
                say(f"  {spec.name}")
                say(f"{'':<{hang}}default {spec.format(spec.default)}; allowed: {spec.describe_range()}", hang)
            say(f"{'':<{hang}}{spec.help}", hang)
    else:
        say("Options: none")
    say()
    say(f"Full rules: {rules_page_location(info)}", 4)
    out.write("".join(line + "\n" for line in lines))
    return 0


# -- play -------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace, console: Console, environ: Mapping[str, str] | None) -> int:
    """Set up the seats and the game from the command line (or a saved game), then run the session."""
    return play_session(game_setup(args, environ), args, console, environ)


def cmd_tui(args: argparse.Namespace, out: TextIO, err: TextIO, environ: Mapping[str, str] | None) -> int:
    """``rummykit tui``: the same set-up as ``play``, then the full-screen app (Textual, loaded only here).

    With no game and no ``--resume`` the app opens on its start screen.
    """
    if args.replay is not None:
        from rummykit.tui.replay import load_replay

        load_replay(args.replay)  # a bad record is refused here, before the screen is taken
        setup = None
    else:
        setup = game_setup(args, environ) if args.game is not None or args.resume is not None else None
    from rummykit.tui.app import run_app

    return run_app(setup, out=out, err=err, no_color=args.no_color, args=args, environ=environ)


# -- replay -----------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    """``rummykit solve``: the exact best play for one position (or a batch) of a game with a solver.

    A refused request gives one line on stderr and exit status 2; with ``--json`` (and
    in a batch) the same reason also goes to stdout as ``{"error": ...}``.
    """
    from rummykit.presenters.solving import notices_to

    as_json = args.json or args.batch is not None
    try:
        solver, defaults = _solve_request(args)
        with notices_to(err):
            if args.batch is not None:
                return _solve_batch(solver, defaults, args.batch, stdin, out, err)
            answer = solver(defaults)
    except RummykitError as exc:
        return _solve_refused(" ".join(str(exc).split()), as_json, out, err)
    out.write((json.dumps(answer.data) if args.json else "\n".join(answer.lines)) + "\n")
    return 0


def _solve_request(args: argparse.Namespace) -> tuple[Solver, Request]:
    """The game's solver and the request the command line makes (``SolveError`` if refused)."""
    from rummykit.presenters.solving import Request, SolveError

    info = find_game(args.game)
    solver = presenter_for(info.id).solver
    if solver is None:
        solvable = " or ".join(g.id for g in games() if presenter_for(g.id).solver is not None) or "no"
        raise SolveError(f"the solver plays {solvable} positions, not {info.id}")
    threshold = None
    if args.threshold is not None:
        try:
            threshold = int(args.threshold)
        except ValueError:
            raise SolveError(f"--threshold needs a whole number, not {args.threshold!r}") from None
    if args.batch is not None:
        if args.table is not None or args.rack is not None:
            raise SolveError("--batch reads the positions from its input: leave out --table and --rack")
    elif args.rack is None:
        raise SolveError("give the rack with --rack (or positions with --batch)")
    request = Request(
        table=args.table or "",
        rack=args.rack or "",
        initial=args.initial,
        objective=args.objective,
        threshold=threshold,
        options=parse_options(args.option),
    )
    return solver, request


def _solve_refused(reason: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    if as_json:
        out.write(json.dumps({"error": reason}) + "\n")
    err.write(f"rummykit: {reason}\n")
    return EXIT_USAGE


def _solve_batch(solver: Solver, defaults: Request, source: str, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    """Answer every JSON line of ``source`` (``-``: stdin) with one JSON line, in order.

    Blank lines are skipped. Each answer carries ``line`` (the input line number) and the
    line's ``id`` if it has one; a refused line gets ``{"line": N, "error": ...}`` and a
    line on stderr. The status is 2 when any line was refused, else 0.
    """
    if source == "-":
        return _solve_lines(solver, defaults, stdin, out, err)
    try:
        with open(source, encoding="utf-8") as lines:
            return _solve_lines(solver, defaults, lines, out, err)
    except FileNotFoundError:
        raise OptionError(f"--batch {source}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OptionError(f"--batch {source}: cannot read: {reason}") from None


def _solve_lines(solver: Solver, defaults: Request, lines: Iterable[str], out: TextIO, err: TextIO) -> int:
    from dataclasses import replace

    from rummykit.presenters.solving import request_from_json

    batch_defaults = replace(defaults, batch=True)
    refused = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        answer: dict[str, object] = {"line": number}
        try:
            data = json.loads(line)
            if isinstance(data, dict) and "id" in data:
                answer["id"] = data["id"]
        except ValueError:
            pass
        try:
            answer.update(solver(request_from_json(line, batch_defaults)).data)
        except RummykitError as exc:
            reason = " ".join(str(exc).split())
            answer["error"] = reason
            err.write(f"rummykit: line {number}: {reason}\n")
            refused += 1
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return EXIT_USAGE if refused else 0


def cmd_replay(file: str, out: TextIO, err: TextIO, *, verbose: bool, style: Style) -> int:
    """Replay a record: every action (``verbose``) or a summary, then the outcome."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except FileNotFoundError:
        err.write(f"{file}: no such file\n")
        return EXIT_USAGE
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        err.write(f"{file}: cannot read: {reason}\n")
        return EXIT_USAGE
    try:
        state = read_record(text)
    except RecordError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        err.write(f"{file}: {where}{' '.join(exc.reason.split())}\n")
        return EXIT_USAGE
    names = list(state.players)
    info = state.info
    presenter = presenter_for(info.id)
    options = ", ".join(f"{s.name}={s.format(state.options[s.name])}" for s in info.options)

    def say(*lines: str) -> None:
        out.write("".join(line + "\n" for line in style.fit(lines)))

    say(
        f"{info.name}: {', '.join(names)}; seed {state.seed}" + (f"; options {options}" if options else ""),
    )
    if verbose:
        _replay_verbose(text, names, say, style, presenter)
    else:
        say(f"{plural(len(state.actions), 'action')}, {plural(len(state.rounds), 'round')} finished.")
        for r in state.rounds:
            if not state.outcome or len(state.rounds) > 1:
                winners = " and ".join(names[w] for w in r.winners)
                say(f"Round {r.round}: {winners} {presenter.words.reason(r.reason)}.")
                say(*score_lines(r.to_json(), names))
    if state.outcome is not None:
        say(*presenter.outcome_lines(state.outcome.to_json(), names, style))
    else:
        who = ", ".join(names[s] for s in sorted(state.to_act))
        say(f"The record stops before the end of the game; {who} to act.")
    return 0


def _replay_verbose(
    text: str,
    names: list[str],
    say: Callable[..., None],
    style: Style,
    presenter: Presenter,
) -> None:
    """Print the (already checked) record action by action, as a spectator sees it."""
    record = parse_record(text)
    state = start_state(record)
    # every line is prefixed with its record line ("line 12: "): the events get the width left
    narrator = presenter.narrator(names, replace(style, width=style.width and max(20, style.width - 11)))
    for event in state.history:
        say(*narrator.describe(event.seen_by(None)))
    for number, line in record.actions:
        events = state.apply(state.parse_action(line))
        prefix = f"line {number}: "
        described = [
            text
            for event in events
            if event.kind != "match-end"
            for text in narrator.describe(event.seen_by(None))
        ]
        for i, text in enumerate(described):
            say((prefix if i == 0 else " " * len(prefix)) + text)
