"""How fast the terminal app answers (run by hand, not part of the tests).

    python bench/bench_tui.py              # both measures
    python bench/bench_tui.py --presses 50

1. **Start**: a fresh Python process imports ``rummykit``, sets up a rummikub
   game from a command line as ``rummykit tui`` does and runs the app
   headless until the first screen (the person's turn) is drawn. It also
   says whether the solver (numba) was loaded: it must not be, until a hint.
2. **Key press to repaint** on an 80-tile table (16 runs of 5 tiles, every
   tile 1..10 of each colour twice): the time from a key press on the table
   or the rack until the app has handled it and its screen is updated
   (Textual's pilot, headless at 100x32: ``press`` then ``pause``, which
   returns once the app's message queues are empty, the repaint included).
   Keys: Right (table cursor), Space (select), Down (target set), and a
   draft step through the presenter's turn and the engine's checks (``n``
   on the rack: a new set of one tile, then ``u`` to undo it).

Goals (issue 13): under 50 ms per key, under 1 s to the first screen.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rummykit.cli.main import build_parser
from rummykit.cli.start import game_setup
from rummykit.tui.app import BoardPanel, GameApp, RackBar

SRC = Path(__file__).resolve().parent.parent / "src"

COLOURS = "KBOR"
TABLE = " | ".join(
    " ".join(f"{c}{n}" for n in range(first, first + 5)) for _copy in range(2) for c in COLOURS for first in (1, 6)
)
POSITION = f"table: {TABLE}; racks: K11 K12 K13 B11 B12 B13 R11 J / O11 O12; pool: seed 5; down: 1 1"

START = """
import time
t0 = time.perf_counter()
import asyncio, io, sys
from rummykit.cli.main import build_parser
from rummykit.cli.start import game_setup
from rummykit.tui.app import GameApp

args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", "rummikub", "--seed", "4", "--no-record"])
app = GameApp(game_setup(args, {}), bot_delay=0, color=True)

async def run() -> float:
    async with app.run_test(size=(100, 32)) as pilot:
        while app.turn is None:
            await pilot.pause()
        await pilot.pause()
        return time.perf_counter() - t0

seconds = asyncio.run(run())
print(f"{seconds:.3f} {'numba' in sys.modules} {'rummykit.solve.play' in sys.modules}")
"""


def start_times(runs: int) -> list[tuple[float, bool, bool]]:
    """Seconds from a new process to the first screen, and whether numba / the solver were imported."""
    out = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", START], capture_output=True, text=True, env={"PYTHONPATH": str(SRC)}, check=True
        )
        seconds, numba, solver = done.stdout.split()
        out.append((float(seconds), numba == "True", solver == "True"))
    return out


async def key_times(presses: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Milliseconds per key press, by key, on the 80-tile table: elapsed, and this process's CPU time."""
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", "rummikub", "--no-record"])
    setup = game_setup(args, {})
    from_position = setup.state.info.from_position
    assert from_position is not None
    setup = dataclasses.replace(setup, state=from_position(POSITION, players=2, seed=4))
    app = GameApp(setup, bot_delay=0, color=True)
    names = ["x (no binding)", "right (table)", "space (table)", "down (table)", "n + u (rack)"]
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    async with app.run_test(size=(100, 32)) as pilot:
        while app.turn is None:
            await pilot.pause()
        assert app.board_now is not None
        tiles = sum(len(s.pieces) for s in app.board_now.sets)
        assert tiles == 80, tiles
        app.query_one(BoardPanel).focus()
        await pilot.pause()

        async def timed(name: str, *keys: str) -> None:
            t, c = time.perf_counter(), time.process_time()
            await pilot.press(*keys)
            await pilot.pause()
            times[name].append((time.perf_counter() - t) * 1000 / len(keys))
            cpu[name].append((time.process_time() - c) * 1000 / len(keys))

        for _ in range(presses):
            await timed("x (no binding)", "x")
        for _ in range(presses):
            await timed("right (table)", "right")
            await timed("space (table)", "space")
            await timed("down (table)", "down")
        app.query_one(RackBar).focus()
        await pilot.pause()
        for _ in range(presses):
            await timed("n + u (rack)", "n", "u")
        assert len(app.state.actions) == 0
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=30, help="presses of each key (default 30)")
    parser.add_argument("--starts", type=int, default=3, help="fresh processes started (default 3)")
    args = parser.parse_args()
    print("start to the first screen (a new process each time):")
    for seconds, numba, solver in start_times(args.starts):
        print(f"  {seconds * 1000:7.0f} ms   numba loaded: {numba}   solver loaded: {solver}")
    print(f"key press to repaint on an 80-tile table ({args.presses} presses each, ms):")
    print(f"  {'key':<16} {'median':>7} {'p90':>7} {'max':>7}   {'CPU median':>10} {'CPU p90':>8}")
    elapsed, cpu = asyncio.run(key_times(args.presses))
    for name, values in elapsed.items():
        used = sorted(cpu[name])
        values.sort()
        print(
            f"  {name:<16} {statistics.median(values):7.1f} {p90(values):7.1f} {max(values):7.1f}"
            f"   {statistics.median(used):10.1f} {p90(used):8.1f}"
        )
    print("(elapsed includes the pilot's own wait for an idle app: compare with the key with no binding)")


def p90(values: list[float]) -> float:
    return values[int(0.9 * (len(values) - 1))]

if __name__ == "__main__":
    main()
