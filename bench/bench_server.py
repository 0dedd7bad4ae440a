"""Load on the game server: many tables of bot clients over loopback WebSockets against one server process.

Run by hand (not a test)::

    .venv/bin/python bench/bench_server.py --tables 20 --seconds 20
    .venv/bin/python bench/bench_server.py --tables 200 --seconds 30 --db postgresql
    .venv/bin/python bench/bench_server.py --tables 20 --profile     # py-spy on the server, if installed

It starts ``rummykit serve`` as a subprocess on a free port with a fresh
database (a temporary SQLite file, or a new schema in the PostgreSQL database
``--pg``), creates ``--tables`` tables of ``--game`` whose seats are all
"persons", and plays every seat from this process with
:func:`rummykit.server.client.play_listed` (a lean WebSocket client that reads
every frame as JSON and, when its seat is asked, sends back one of the actions
the frame lists, chosen uniformly at random). When a table's game ends, a new
table takes its place, so the load stays at ``--tables`` tables until
``--seconds`` have passed.

``--websockets-client`` plays the seats with
:func:`rummykit.server.client.play_seat` instead (the websockets library's
client, the random bot listing its actions from the view: the clients of the
figures before session 13, three times the clients' CPU per action). The
clients run on uvloop (``--asyncio-loop`` and ``--bot-threads`` give the
clients of the figures before session 10); ``--client-procs N`` splits the
tables' clients over N processes, so that they are not held to one core::

    .venv/bin/python bench/bench_server.py --tables 200 --think 0 --client-procs 2

Reported: accepted actions per second over the run, and the latency of each
action from the moment its client sent it to the moment that client received
the state frame carrying it (p50, p90, p99, max), and the CPU seconds (and
milliseconds per action) the server and the client processes used. Both processes share the machine, so the
client's bots take CPU away from the server.

``--bot-tables K --bot-level strong`` adds K tables, beside the load, where a
person (a random client) plays the server's own bot of that level. Each state
frame that reaches the person while they had sent nothing is one of the bot's
decisions; the time since the frame before is how long that decision took as
the person saw it (thinking in the server's worker thread, plus the broadcast).
Reported as p50/p90/p99/max: whether a strong bot keeps to its time budget
while the server carries the load::

    .venv/bin/python bench/bench_server.py --tables 200 --think 1 --bot-tables 4 --bot-game two-tray
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rummykit.server.client import SeatRun, play_listed, play_seat  # noqa: E402
from rummykit.solve.compiled import idle_between  # noqa: E402

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def start_server(db_url: str, port: int, schema_env: dict[str, str], src: Path = ROOT / "src") -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src), **schema_env}
    # --chosen-seeds lets the tables be made with the seeds asked for; a tree from before it (--src) makes its own
    cli = src / "rummykit" / "cli" / "main.py"
    chosen = ["--chosen-seeds"] if cli.is_file() and "chosen-seeds" in cli.read_text() else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "serve", "--port", str(port), "--db", db_url, "--flood-rate", "100000",
         *chosen],
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def new_table(http: httpx.AsyncClient, game: str, seats: list[dict[str, str]], seed: int) -> Any:
    """Create a table of ``game`` (rummikub and domino-rummikub as single rounds); the server's answer."""
    options = {"max_rounds": 1} if game in ("rummikub", "domino-rummikub") else {}
    made = await http.post("/api/tables", json={"game": game, "seats": seats, "seed": seed, "options": options})
    return made.json()


async def until_stopped(play: asyncio.Future[Any], stopped: asyncio.Event) -> bool:
    """Wait for ``play`` or ``stopped``: True when the play ended first, False (the play cancelled) when stopped."""
    ended: asyncio.Future[Any] = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({play, ended}, return_when=asyncio.FIRST_COMPLETED)
    if not play.done():
        play.cancel()
        with contextlib.suppress(BaseException):
            await play
        return False
    ended.cancel()
    return True


async def table_slot(
    base: str, args: argparse.Namespace, slot: int, stopped: asyncio.Event, runs: list[SeatRun], counts: list[int]
) -> None:
    """Keep one table busy until ``stopped`` is set: a new table whenever the last one ended.

    With ``--stagger S`` the slot's first table starts ``S * slot / tables`` seconds late, so that the tables'
    games do not keep step (all starting at once, they reach their long late-game turns together)."""
    game_no = 0
    if args.stagger > 0:
        await asyncio.sleep(args.stagger * slot / args.tables)
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:
        while not stopped.is_set():
            made = await new_table(http, args.game, [{"kind": "person"}] * args.players, slot * 1000 + game_no)
            game_no += 1
            url = f"ws://{base}/ws/{made['table']}"
            mine = [SeatRun() for _ in made["seats"]]
            runs.extend(mine)
            plays: asyncio.Future[Any] = asyncio.ensure_future(asyncio.gather(*(
                play_seat(url, s["token"], game=args.game, seed=slot * 10 + i, run=mine[i], keep_frames=False, timeout=120,
                          think=args.think, inline=args.inline_bots)
                if args.websockets_client else
                play_listed(url, s["token"], seed=slot * 10 + i, run=mine[i], timeout=120, think=args.think)
                for i, s in enumerate(made["seats"])
            )))
            if not await until_stopped(plays, stopped):
                return
            counts[0] += 1


async def bot_table_slot(
    base: str, args: argparse.Namespace, slot: int, stopped: asyncio.Event, gaps: list[tuple[float, float]]
) -> None:
    """Keep one table of a person (random, from here) against the server's bot busy until ``stopped``.

    ``gaps`` gets (when, seconds) for each of the bot's decisions: a state frame the person received
    while it had sent nothing, timed from the frame before it.
    """
    game_no = 0
    game = args.bot_game or args.game
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:
        while not stopped.is_set():
            bots = [{"kind": "bot", "level": args.bot_level}] * (args.players - 1)
            made = await new_table(http, game, [{"kind": "person"}, *bots], 900_000 + slot * 1000 + game_no)
            game_no += 1
            run = SeatRun()
            last = [time.perf_counter()]

            def seen(frame: Any, run: SeatRun = run, last: list[float] = last) -> None:
                if frame.get("type") != "state":
                    return
                now = time.perf_counter()
                if not run.sent_at or run.sent_at[-1] < last[0]:
                    gaps.append((now, now - last[0]))
                last[0] = now

            person = made["seats"][0]
            play = asyncio.ensure_future(play_seat(
                f"ws://{base}/ws/{made['table']}", person["token"], game=game, seed=slot, run=run,
                keep_frames=False, timeout=120, on_frame=seen,
            ))
            if not await until_stopped(play, stopped):
                return
            with contextlib.suppress(BaseException):
                play.result()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Window:
    """The measured part of a run: from the end of the warm-up to the end."""

    start: float = 0.0
    wall: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    machine_busy: float = 0.0
    """Cores busy on average over the window, read from /proc/stat (every process of the machine)."""
    database_cpu: float = 0.0
    """CPU seconds of the local PostgreSQL processes alive at both ends of the window (0: none)."""


def proc_stat() -> str:
    """Linux's ``/proc/stat`` ("" where it cannot be read): the machine's ticks per core, for
    :func:`~rummykit.solve.compiled.idle_between`."""
    try:
        return Path("/proc/stat").read_text()
    except OSError:
        return ""


def database_cpu() -> dict[int, float]:
    """CPU seconds of each local PostgreSQL process by pid (the server's database runs on this machine's cores)."""
    found: dict[int, float] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (proc / "comm").read_text().strip() != "postgres":
                continue
            found[int(proc.name)] = cpu_seconds(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return found


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def drive(
    base: str, args: argparse.Namespace, server_pid: int, gaps: list[tuple[float, float]],
    begin: float, part: int = 0, parts: int = 1,
) -> tuple[list[SeatRun], int, Window]:
    """Play this process's share of the tables (slots ``part``, ``part + parts``, ...); the window starts at
    ``begin`` (``time.time()``, the same in every client process) plus the warm-up."""
    runs: list[SeatRun] = []
    counts = [0]
    window = Window()
    stopped = asyncio.Event()

    async def measure() -> None:
        # The window starts after the warm-up however late the loop wakes, and lasts --seconds.
        await asyncio.sleep(max(0.0, begin + args.warmup - time.time()))
        window.start = time.perf_counter()
        cpu0, own0 = cpu_seconds(server_pid), own_cpu()
        first = part == 0  # the machine is read by the first client process only
        stat0, db0 = (proc_stat(), database_cpu()) if first else ("", {})
        await asyncio.sleep(args.seconds)
        window.wall = time.perf_counter() - window.start
        window.server_cpu = cpu_seconds(server_pid) - cpu0
        window.client_cpu = own_cpu() - own0
        if first:
            idle = idle_between(stat0, proc_stat(), None)
            window.machine_busy = 0.0 if idle is None else (os.cpu_count() or 1) - idle
            db1 = database_cpu()
            window.database_cpu = sum(db1[pid] - db0[pid] for pid in db1.keys() & db0.keys())
        stopped.set()

    await asyncio.gather(
        measure(),
        *(table_slot(base, args, i, stopped, runs, counts) for i in range(part, args.tables, parts)),
        *(bot_table_slot(base, args, i, stopped, gaps) for i in range(part, args.bot_tables, parts)),
    )
    return runs, counts[0], window


def run_loop(main: Any) -> Any:
    """Run a coroutine on uvloop (as the server does) unless --asyncio-loop, or uvloop is missing."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def client_process(base: str, args: argparse.Namespace, server_pid: int, begin: float, part: int, out: Any) -> None:
    """One of --client-procs processes: its share of the tables; sends back what it measured in the window."""
    if args.nice:
        os.nice(args.nice)
    gaps: list[tuple[float, float]] = []
    go = drive(base, args, server_pid, gaps, begin, part, args.client_procs)
    runs, games, window = asyncio.run(go) if args.asyncio_loop else run_loop(go)
    out.send(measured(runs, window, gaps, games))
    out.close()


@dataclass
class Measured:
    """What one client process measured in the window (latencies in ms)."""

    ms: list[float]
    errors: int
    games: int
    thought: list[float]
    wall: float
    server_cpu: float
    client_cpu: float
    at: list[float] = field(default_factory=list)
    """When each of ``ms``'s actions was sent, in seconds from the window's start."""
    machine_busy: float = 0.0
    database_cpu: float = 0.0


def measured(runs: list[SeatRun], window: Window, gaps: list[tuple[float, float]], games: int) -> Measured:
    pairs = [(x * 1000, at - window.start) for r in runs for x, at in zip(r.latencies, r.sent_at, strict=True)
             if window.start <= at <= window.start + window.wall]
    ms = [x for x, _ in pairs]
    thought = [x * 1000 for at, x in gaps if window.start <= at <= window.start + window.wall]
    return Measured(ms, sum(len(r.errors) for r in runs), games, thought, window.wall, window.server_cpu,
                    window.client_cpu, [at for _, at in pairs], window.machine_busy, window.database_cpu)


def run_clients(base: str, args: argparse.Namespace, server_pid: int) -> Measured:
    """Every table's clients: in this process, or split over --client-procs processes (their figures summed)."""
    begin = time.time()
    if args.client_procs <= 1:
        gaps: list[tuple[float, float]] = []
        go = drive(base, args, server_pid, gaps, begin)
        runs, games, window = asyncio.run(go) if args.asyncio_loop else run_loop(go)
        return measured(runs, window, gaps, games)
    import multiprocessing

    context = multiprocessing.get_context("fork")  # before any event loop runs here
    pipes, procs = [], []
    for part in range(args.client_procs):
        mine, theirs = context.Pipe(duplex=False)
        proc = context.Process(target=client_process, args=(base, args, server_pid, begin, part, theirs))
        proc.start()
        theirs.close()
        pipes.append(mine)
        procs.append(proc)
    parts = [pipe.recv() for pipe in pipes]
    for proc in procs:
        proc.join(60)
    return Measured(
        ms=[x for m in parts for x in m.ms],
        errors=sum(m.errors for m in parts),
        games=sum(m.games for m in parts),
        thought=[x for m in parts for x in m.thought],
        wall=max(m.wall for m in parts),
        server_cpu=max(m.server_cpu for m in parts),  # each read the server over (nearly) the same window
        client_cpu=sum(m.client_cpu for m in parts),
        at=[x for m in parts for x in m.at],
        machine_busy=parts[0].machine_busy,
        database_cpu=parts[0].database_cpu,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="rummikub")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.0, help="seconds each seat waits before it acts (0: flat out)")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql, or an SQLAlchemy URL")
    parser.add_argument("--pg", default=PG, help="the PostgreSQL database for --db postgresql")
    parser.add_argument("--bot-tables", type=int, default=0, help="more tables: a person against the server's bots")
    parser.add_argument("--bot-level", default="strong", help="the level of the bots of --bot-tables")
    parser.add_argument("--bot-game", help="the game of --bot-tables (default: --game)")
    parser.add_argument("--stagger", type=float, default=0.0, metavar="S",
                        help="start the tables' first games spread over S seconds (default 0: all at once)")
    parser.add_argument("--by-second", action="store_true",
                        help="also the latencies second by second (a stall shows as one slow second, a slow server as all)")
    parser.add_argument("--profile", action="store_true", help="record the server with py-spy (if installed)")
    parser.add_argument("--warmup", type=float, default=20.0,
                        help="seconds to open the tables and connect before measuring (not counted)")
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the rummykit sources the server runs (to compare another checkout's server)")
    parser.add_argument("--nice", type=int, default=0,
                        help="lower the clients' priority by this much once the server runs (0: same as the server)")
    parser.add_argument("--pg-set", action="append", default=[], metavar="NAME=VALUE",
                        help="a PostgreSQL setting for the server's connections, e.g. synchronous_commit=off (repeatable)")
    parser.add_argument("--bot-threads", dest="inline_bots", action="store_false",
                        help="the load's random bots choose in a worker thread each time (the figures before"
                             " session 10), not in the clients' event loop")
    parser.add_argument("--inline-bots", dest="inline_bots", action="store_true",
                        help="(the default) the load's random bots choose in the clients' event loop")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="split the tables' clients over this many processes (1: this process plays them all)")
    parser.add_argument("--asyncio-loop", action="store_true",
                        help="the clients on asyncio's own event loop rather than uvloop (the figures before session 10)")
    parser.add_argument("--websockets-client", action="store_true",
                        help="the load's seats played by play_seat (the websockets library's client, the random bot"
                             " listing its actions from the view: the clients before session 13) rather than"
                             " play_listed (a lean client choosing among the actions each frame lists)")
    parser.add_argument("--runs", type=int, default=1, help="run this many times in a row, each with a fresh server")
    parser.add_argument("--pin", action="store_true",
                        help="the server alone on the first core, the clients on the others (Linux): what one event"
                             " loop carries with a core of its own")
    parser.set_defaults(inline_bots=True)
    args = parser.parse_args(argv)
    args.websockets_client = args.websockets_client or not args.inline_bots
    for number in range(args.runs):
        if args.runs > 1:
            print(f"run {number + 1} of {args.runs}")
        one_run(args)
    return 0


def pg_url(base: str, schema: str, settings: list[str]) -> str:
    """``base`` with libpq ``options`` putting the schema first on the search path, and each ``NAME=VALUE`` set.

    >>> pg_url("postgresql+psycopg://u@h/db", "s1", ["synchronous_commit=off"])
    'postgresql+psycopg://u@h/db?options=-csearch_path%3Ds1%20-csynchronous_commit%3Doff'
    """
    flags = [f"-csearch_path%3D{schema}", *(f"-c{s.replace('=', '%3D')}" for s in settings)]
    return base + ("&" if "?" in base else "?") + "options=" + "%20".join(flags)


def pin_apart(server_pid: int) -> None:
    """The server (every thread of it) on the first core this process may use, this process and the clients it
    starts on the others; a machine with one core, or without ``sched_setaffinity``, is left as it is."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2:
        print("  --pin: fewer than two cores to share out; nothing pinned")
        return
    for task in Path(f"/proc/{server_pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {cores[0]})
    os.sched_setaffinity(0, set(cores[1:]))  # the clients, forked or run here, inherit it


def one_run(args: argparse.Namespace) -> None:
    """One run: a fresh database and server, the load, the figures printed."""
    tmp = Path(tempfile.mkdtemp(prefix="rk-bench-"))
    schema = None
    if args.db == "sqlite":
        url = f"sqlite:///{tmp / 'bench.db'}"
    elif args.db == "postgresql":
        from sqlalchemy import create_engine, text

        schema = f"rk_bench_{uuid.uuid4().hex[:8]}"
        engine = create_engine(args.pg)
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        # The server's connections find their tables in the schema through the search path.
        url = pg_url(args.pg, schema, args.pg_set)
    else:
        url = args.db
    port = free_port()
    server = start_server(url, port, {}, args.src)
    cores = os.sched_getaffinity(0) if args.pin else None
    if args.pin:
        pin_apart(server.pid)
    if args.nice and args.client_procs <= 1:
        os.nice(args.nice)  # the server keeps its priority; the clients yield to it
    spy = None
    try:
        if args.profile:
            # py-spy samples the measured part only (the warm-up opens the tables).
            command = [shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy"), "record",
                       "-p", str(server.pid), "-d", str(int(args.seconds)), "-f", "raw", "-o", str(tmp / "profile.txt")]
            spy = subprocess.Popen(
                ["sh", "-c", f'sleep {args.warmup} && exec "$@"', "sh", *command],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        result = run_clients(f"127.0.0.1:{port}", args, server.pid)
    finally:
        if cores is not None:
            os.sched_setaffinity(0, cores)  # the next run (--runs) shares the cores out again
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        if spy is not None:
            spy.wait(60)
        if schema is not None:
            from sqlalchemy import create_engine, text

            engine = create_engine(args.pg)
            with engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            engine.dispose()
    ms, wall, games = result.ms, result.wall, result.games
    settings = f" ({', '.join(args.pg_set)})" if args.pg_set and args.db == "postgresql" else ""
    clients = (f"{args.client_procs} client processes" if args.client_procs > 1 else "1 client process") + (
        ", websockets clients" if args.websockets_client else ", lean clients") + (
        ", bots in worker threads" if not args.inline_bots else "") + (", asyncio loop" if args.asyncio_loop else "") + (
        ", the server pinned to a core of its own" if args.pin else "") + (
        f", starts spread over {args.stagger:g} s" if args.stagger > 0 else "")
    print(
        f"{args.db}{settings}: {args.tables} tables of {args.game} ({args.players} seats, think {args.think} s, {clients}),"
        f" measured {wall:.1f} s after {args.warmup:.0f} s of warm-up, {games} games finished"
    )
    print(f"  actions acknowledged: {len(ms)}  ({len(ms) / wall:.0f} actions/s)   error frames: {result.errors}")
    if ms:
        print(
            f"  latency ms: p50 {percentile(ms, 0.5):.1f}  p90 {percentile(ms, 0.9):.1f}"
            f"  p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  mean {statistics.fmean(ms):.1f}"
        )
    print(
        f"  CPU seconds: server {result.server_cpu:.1f}, clients {result.client_cpu:.1f}"
        f" (wall {wall:.1f}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f})"
    )
    if result.machine_busy:
        database = f", of which the PostgreSQL processes {result.database_cpu / wall:.2f}" if result.database_cpu else ""
        print(f"  the machine: {result.machine_busy:.2f} of {os.cpu_count()} cores busy on average{database}")
    if ms and args.by_second:
        by: dict[int, list[float]] = {}
        for x, at in zip(ms, result.at, strict=True):
            by.setdefault(int(at), []).append(x)
        print("  by second of the window (when sent): actions, latency p50 / p99 / max ms")
        for second in sorted(by):
            xs = by[second]
            print(f"    {second:3d}  {len(xs):5d}  {percentile(xs, 0.5):6.1f} {percentile(xs, 0.99):6.1f} {max(xs):6.1f}")
    if ms:
        print(f"  CPU ms per action: server {1000 * result.server_cpu / len(ms):.3f},"
              f" clients {1000 * result.client_cpu / len(ms):.3f}")
    if args.bot_tables:
        thought = result.thought
        print(f"  {args.bot_level} bot decisions at {args.bot_tables} tables of {args.bot_game or args.game}: {len(thought)}",
              end="")
        if thought:
            print(
                f", ms as the person saw them: p50 {percentile(thought, 0.5):.0f}  p90 {percentile(thought, 0.9):.0f}"
                f"  p99 {percentile(thought, 0.99):.0f}  max {max(thought):.0f}"
            )
        else:
            print()
    if args.profile:
        summarise(tmp / "profile.txt")
        print(f"  the raw profile (py-spy's collapsed stacks): {tmp / 'profile.txt'}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


CATEGORIES = (
    ("rummykit engine and game (apply, view, snapshot)", ("rummykit/rulesets", "rummykit/engine", "rummykit/blocks",
                                                         "rummykit/melds", "rummykit/pieces")),
    ("presenter narration", ("rummykit/presenters",)),
    ("database (SQLAlchemy, sqlite3, psycopg)", ("sqlalchemy", "sqlite3", "psycopg")),
    ("JSON and pydantic", ("json/", "pydantic")),
    ("WebSocket and HTTP stack (uvicorn, websockets, starlette, fastapi)",
     ("uvicorn", "websockets", "starlette", "fastapi", "h11", "httptools")),
    ("server code (rooms, app)", ("rummykit/server",)),
    ("asyncio and threads", ("asyncio", "threading", "concurrent")),
)


def summarise(path: Path, top: int = 15) -> None:
    """Where the server's samples were spent: by category of the innermost known frame, then the top leaves."""
    if not path.is_file():
        print("  (no profile: is py-spy installed?)")
        return
    by_category: dict[str, int] = {}
    leaves: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        leaf = frames[-1]
        if any(k in leaf for k in ("idle", "select", "_wait_for_tstate_lock", "wait (threading", "_worker (concurrent", "Runner.run")):
            continue
        total += n
        leaves[leaf] = leaves.get(leaf, 0) + n
        name = "other"
        for frame in reversed(frames):
            hit = next((label for label, keys in CATEGORIES if any(k in frame for k in keys)), None)
            if hit is not None:
                name = hit
                break
        by_category[name] = by_category.get(name, 0) + n
    print(f"  profile: {total} busy samples of the server, by the innermost frame's package:")
    for name, n in sorted(by_category.items(), key=lambda kv: -kv[1]):
        print(f"    {100 * n / max(total, 1):5.1f}%  {name}")
    print("  busiest functions (self time):")
    for frame, n in sorted(leaves.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {100 * n / max(total, 1):5.1f}%  {frame[:110]}")


if __name__ == "__main__":
    raise SystemExit(main())
