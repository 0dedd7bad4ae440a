"""Throughput of every game between bots on one core, and memory growth (run by hand, not a test).

    python bench/bench_throughput.py                        # every configuration, about 3 CPU seconds each
    python bench/bench_throughput.py --seconds 1 --only rummikub
    python bench/bench_throughput.py --openspiel            # and OpenSpiel's gin_rummy in the same run
    python bench/bench_throughput.py --memory 2000          # memory growth over 2,000 games per random line
    python bench/bench_throughput.py --memory 2000 --only rummikub:random:4 --tracemalloc
    python bench/bench_throughput.py --openspiel --before ../main   # the old code too, each line just before
    python bench/bench_throughput.py --openspiel --before ../main --rounds 5 --seconds 1   # a noisy machine

Each configuration (game, bots, players) runs in a fresh child process on one
core: one warm-up game (not counted), then seeded games (game ``i`` uses seed
``i``) until about ``--seconds`` CPU seconds have passed, or exactly
``--games``. Rates are per CPU second of the child. The resident memory (RSS)
is read after the warm-up and after the last game. ``--openspiel`` also runs
bench/openspiel/gin_rummy_random.py in bench/.openspiel-venv (made by
bench/openspiel/setup_venv.sh) for the same CPU time and prints every random
line's actions per second as a multiple of OpenSpiel's. ``--rounds N`` measures
everything N times over, interleaved, and prints the median of each ratio, each
taken within its own round (with OpenSpiel measured again just before each
random line): on a machine whose speed swings from minute to minute that is
steadier than one long run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENSPIEL_PYTHON = HERE / ".openspiel-venv" / "bin" / "python"
OPENSPIEL_DRIVER = HERE / "openspiel" / "gin_rummy_random.py"

OPTIONS: dict[str, dict[str, object]] = {"conveyor": {"target": 0}, "mummus": {"target": 0}}
"""Options that make one game one round (rummikub, domino-rummikub and two-tray play one round by default)."""

CONFIGS: tuple[tuple[str, str, int], ...] = (
    *((game, level, players) for game in ("rummikub", "domino-rummikub", "conveyor", "mummus")
      for level in ("random", "greedy") for players in (2, 4)),
    ("rummikub", "solver-greedy", 2),
    ("two-tray", "random", 2),
    ("two-tray", "greedy", 2),
)
"""(game, bots, players); ``solver-greedy`` puts the solver bot in seat ``seed % 2`` and greedy in the other."""

RSS_MARKS = (1_000, 2_000, 5_000)
"""After this many games the resident memory is read too (``--memory`` prints it)."""

WARM_UP_SEED = 999_999
MAX_GAMES = 1_000_000


def rss_mib() -> float:
    """The current resident memory of this process, in MiB (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(game: str, level: str, players: int, seconds: float, games: int | None, trace: bool) -> dict[str, object]:
    """Play one configuration in this process; the figures as a dict."""
    try:
        from rummykit.bots.registry import make_bot
    except ImportError:  # trees before the bot registry (e.g. 1875aa8, where issue 25 was measured)
        from rummykit.catalogue import make_bot  # type: ignore[attr-defined,no-redef]
    from rummykit.catalogue import new_game
    from rummykit.sim import run_bots

    def play(seed: int) -> int:
        state = new_game(game, players=players, seed=seed, **OPTIONS.get(game, {}))
        if level == "solver-greedy":
            bots = [make_bot("solver" if s == seed % 2 else "greedy", game) for s in range(players)]
        else:
            bots = [make_bot(level, game) for _ in range(players)]
        run_bots(state, bots)
        return len(state.actions)

    play(WARM_UP_SEED)
    if trace:
        import tracemalloc

        tracemalloc.start(3)
        before = tracemalloc.take_snapshot()
    rss_before = rss_mib()
    limit = games if games is not None else MAX_GAMES
    played = actions = 0
    marks: dict[int, float] = {}
    cpu, wall = time.process_time(), time.perf_counter()
    while played < limit:
        actions += play(played)
        played += 1
        if played in RSS_MARKS:
            marks[played] = rss_mib()
        if games is None and time.process_time() - cpu >= seconds:
            break
    used = time.process_time() - cpu
    out: dict[str, object] = {
        "games": played,
        "actions": actions,
        "seconds": used,
        "wall": time.perf_counter() - wall,
        "rss_before": rss_before,
        "rss_after": rss_mib(),
        "rss_marks": marks,
    }
    if trace:
        import gc

        gc.collect()
        grown = tracemalloc.take_snapshot().compare_to(before, "traceback")
        out["traced"] = [
            f"{stat.size_diff / 1024:+.0f} KiB {stat.count_diff:+d} blocks at "
            + " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in stat.traceback)
            for stat in grown[:12]
        ]
    return out


def run_child(config: tuple[str, str, int], args: argparse.Namespace, tree: Path) -> dict[str, object]:
    game, level, players = config
    command = [sys.executable, __file__, "--child", game, level, str(players), "--seconds", str(args.seconds)]
    if args.games is not None:
        command += ["--games", str(args.games)]
    if args.tracemalloc:
        command.append("--tracemalloc")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    src = str(tree / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout))


def run_openspiel(seconds: float) -> dict[str, object] | None:
    if not OPENSPIEL_PYTHON.exists():
        print(f"(no {OPENSPIEL_PYTHON}: run bench/openspiel/setup_venv.sh first)", file=sys.stderr)
        return None
    command = [str(OPENSPIEL_PYTHON), str(OPENSPIEL_DRIVER), "--seconds", str(seconds)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout))


def selected(only: list[str]) -> list[tuple[str, str, int]]:
    """The configurations named by ``--only`` (``game``, ``game:bots`` or ``game:bots:players``)."""
    if not only:
        return list(CONFIGS)
    keep = []
    for config in CONFIGS:
        parts = [config[0], config[1], str(config[2])]
        if any(parts[: len(want.split(":"))] == want.split(":") for want in only):
            keep.append(config)
    return keep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per configuration (default 3)")
    parser.add_argument("--games", type=int, help="exactly this many games per configuration")
    parser.add_argument("--memory", type=int, metavar="N", help="play N games per random line, for memory growth")
    parser.add_argument("--only", action="append", default=[], help="game[:bots[:players]]; may repeat")
    parser.add_argument("--openspiel", action="store_true", help="run OpenSpiel's gin_rummy in the same run")
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="the source tree to measure (default: this one)")
    parser.add_argument(
        "--before", type=Path, help="also measure this source tree (the old code) on each configuration, just before"
    )
    parser.add_argument("--tracemalloc", action="store_true", help="list where memory grew (slow)")
    parser.add_argument(
        "--rounds", type=int, default=1,
        help="measure every line this many times, interleaved, and print each ratio's median (for a noisy machine)",
    )
    parser.add_argument("--child", nargs=3, metavar=("GAME", "BOTS", "PLAYERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        game, level, players = args.child
        print(json.dumps(child(game, level, int(players), args.seconds, args.games, args.tracemalloc)))
        return

    configs = selected(args.only)
    if args.memory is not None:
        args.games = args.memory
        if not args.only:
            configs = [c for c in configs if c[1] == "random"]
    load = os.getloadavg()[0]
    print(f"tree {args.tree.resolve()}" + (f", before: {args.before.resolve()}" if args.before else ""))
    print(f"Python {platform.python_version()} {platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f}")
    ratios: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
    for number in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"\nround {number} of {args.rounds} (load {os.getloadavg()[0]:.1f})")
        for config, pair in one_round(args, configs).items():
            ratios.setdefault(config, []).append(pair)
    if args.rounds > 1:
        summary(args, ratios)
    print(f"(child peak RSS of this run: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.1f} MiB)")


def summary(args: argparse.Namespace, ratios: dict[tuple[str, str, int], list[tuple[float, float]]]) -> None:
    """Each line's ratios over the rounds: the median, and the least and greatest."""
    print(f"\nover {args.rounds} rounds (each ratio within its own round): median [least, greatest]")
    print("| game | bots | players | vs OpenSpiel | × before |")
    print("|---|---|---|---|---|")
    for (game, level, players), pairs in ratios.items():
        cells = []
        for k in (0, 1):
            values = sorted(p[k] for p in pairs if p[k] > 0)
            cells.append(
                f"{statistics.median(values):.2f} [{values[0]:.2f}, {values[-1]:.2f}]" if values else ""
            )
        print(f"| {game} | {level} | {players} | {cells[0]} | {cells[1]} |")


def reference_line(reference: dict[str, object], args: argparse.Namespace) -> float:
    """Print OpenSpiel's row; its actions per CPU second."""
    rate = float(reference["actions"]) / float(reference["seconds"])  # type: ignore[arg-type]
    games = int(reference["games"])  # type: ignore[call-overload]
    print(
        f"| OpenSpiel gin_rummy | random | 2 | {games} | {games / float(reference['seconds']):.1f} |"  # type: ignore[arg-type]
        f" {int(reference['actions']) / games:.1f} | {rate:,.0f} | 1.00 |"  # type: ignore[call-overload]
        + (" |" if args.before else "")
        + f" – → {float(reference['max_rss_mib']):.1f} (peak) | {float(reference['wall']):.1f} |"  # type: ignore[arg-type]
    )
    return rate


def one_round(
    args: argparse.Namespace, configs: list[tuple[str, str, int]]
) -> dict[tuple[str, str, int], tuple[float, float]]:
    """Every line measured once (OpenSpiel first when asked): its table printed, and each line's ratios to
    OpenSpiel and to the tree before (0 where not measured)."""
    measured: dict[tuple[str, str, int], tuple[float, float]] = {}
    reference = run_openspiel(args.seconds) if args.openspiel else None
    reference_rate = 0.0
    header = "| game | bots | players | games | games/s | actions/game | actions/s |"
    header += " vs OpenSpiel |" if reference else ""
    header += " × before |" if args.before else ""
    header += " RSS MiB start → end | wall s |"
    header += " RSS MiB after " + " / ".join(f"{k:,}" for k in RSS_MARKS) + " games |" if args.memory else ""
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    if reference:
        reference_rate = reference_line(reference, args)
    for config in configs:
        if reference and args.rounds > 1 and "random" in config[1] and config != configs[0]:
            # Several rounds: OpenSpiel again just before each random line, so each ratio is taken within seconds.
            again = run_openspiel(args.seconds)
            if again:
                reference_rate = reference_line(again, args)
        runs = [("before", args.before), ("", args.tree)] if args.before else [("", args.tree)]
        base_rate = 0.0
        for label, tree in runs:
            out = run_child(config, args, tree)
            games, actions, seconds = int(out["games"]), int(out["actions"]), float(out["seconds"])  # type: ignore[call-overload, arg-type]
            rate = actions / seconds
            bots = f"{config[1]} ({label})" if label else config[1]
            line = f"| {config[0]} | {bots} | {config[2]} | {games} | {games / seconds:.1f} |"
            line += f" {actions / games:.1f} | {rate:,.0f} |"
            if reference:
                line += f" {rate / reference_rate:.2f} |" if "random" in config[1] else " |"
            if args.before:
                line += f" {rate / base_rate:.2f} |" if base_rate and not label else " |"
            line += f" {float(out['rss_before']):.1f} → {float(out['rss_after']):.1f} | {float(out['wall']):.1f} |"  # type: ignore[arg-type]
            if args.memory:
                marks = dict(out.get("rss_marks", {}))  # type: ignore[call-overload]
                line += " " + " / ".join(f"{float(marks[str(k)]):.1f}" if str(k) in marks else "–" for k in RSS_MARKS) + " |"
            print(line, flush=True)
            for traced in out.get("traced", []):  # type: ignore[attr-defined]
                print("    ", traced)
            if not label:
                measured[config] = (
                    rate / reference_rate if reference and "random" in config[1] else 0.0,
                    rate / base_rate if args.before else 0.0,
                )
            base_rate = rate
    return measured


if __name__ == "__main__":
    main()
