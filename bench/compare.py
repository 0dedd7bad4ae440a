"""Benchmark: the same bot games under two source trees, side by side in one run.

Use it to check that a change made no game slower. It plays a fixed set of
seeded one-round games (every game, ``random`` and ``greedy`` bots, 2 and 4
players) with the source tree of this checkout and with another one (a git
worktree of an older commit), alternating the two so that both see the same
machine load::

    git worktree add /tmp/base <commit>
    .venv/bin/python bench/compare.py /tmp/base                 # CPU seconds, 3 rounds
    .venv/bin/python bench/compare.py /tmp/base --instructions  # instruction counts (valgrind)

CPU time moves with the machine's load; instruction counts (``valgrind
--tool=cachegrind``, about 50 times slower) do not, so prefer them on a busy
or shared machine. An instruction count is that of the games alone: a run
with no games (start-up, imports, the warm-up game) is subtracted. Each configuration runs in a fresh process per tree; the
games are seeded, so both trees must report the same number of actions
unless the change altered how games are played (then the ratio compares
different games, and the script says so).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = ("rummikub", "domino-rummikub", "conveyor", "mummus")
CONFIGS = [(game, level, players) for game in GAMES for level in ("random", "greedy") for players in (2, 4)]
OPTIONS = {"conveyor": {"target": 0}, "mummus": {"target": 0}}
"""Options that make one game one round (the free-table games play one round by default)."""


def has_game(tree: Path, game: str) -> bool:
    """True when ``tree`` holds the game (an older tree may predate it)."""
    return (tree / "src" / "rummykit" / "rulesets" / game.replace("-", "_")).exists()

# Run inside the child process, with only the tree under test on sys.path: it
# uses nothing newer than the oldest tree this script compares with.
CHILD = """
import json, resource, sys
import rummykit
from rummykit.bots.base import make_bot
from rummykit.sim import run_bots
game, level, players, games, options = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5])
run_bots(rummykit.new_game(game, players=players, seed=999999, **options), [make_bot(level, game) for _ in range(players)])
start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
actions = 0
for seed in range(games):
    state = rummykit.new_game(game, players=players, seed=seed, **options)
    state = run_bots(state, [make_bot(level, game) for _ in range(players)])
    actions += len(state.actions)
used = resource.getrusage(resource.RUSAGE_SELF).ru_utime - start
print(json.dumps({"seconds": used, "actions": actions}))
"""


def run(tree: Path, config: tuple[str, str, int], games: int, instructions: bool) -> dict[str, float]:
    game, level, players = config
    args = [sys.executable, "-c", CHILD, game, level, str(players), str(games), json.dumps(OPTIONS.get(game, {}))]
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}
    if not instructions:
        out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
        return dict(json.loads(out))
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "cachegrind.out"
        out = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={report}", *args],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if found is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
        result = dict(json.loads(out.stdout))
        result["instructions"] = int(found.group(1).replace(",", ""))
        return result


def measure(tree: Path, config: tuple[str, str, int], games: int, instructions: bool) -> dict[str, float]:
    """One configuration's games under ``tree``; instruction counts leave out start-up and the warm-up game."""
    result = run(tree, config, games, instructions)
    if instructions:
        result["instructions"] -= run(tree, config, 0, instructions)["instructions"]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="the other source tree (a checkout with src/rummykit)")
    parser.add_argument("--games", type=int, default=10, help="games per configuration (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per tree, best kept (default 3)")
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind instead")
    parser.add_argument("--only", default="", help="run configurations whose name contains this text")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent.parent
    if not (args.base / "src" / "rummykit").is_dir():
        parser.error(f"{args.base} has no src/rummykit")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt install valgrind)")
    rounds = 1 if args.instructions else args.rounds
    key = "instructions" if args.instructions else "seconds"
    print(f"{'configuration':<28}{'this':>14}{'base':>14}{'ratio':>8}  actions")
    for config in CONFIGS:
        name = f"{config[0]} {config[1]} {config[2]}p"
        if args.only not in name:
            continue
        if not has_game(args.base, config[0]):
            print(f"{name:<28}{'':>14}{'no such game':>14}", flush=True)
            continue
        best: dict[str, dict[str, float]] = {}
        for _ in range(rounds):
            for label, tree in (("this", here), ("base", args.base)):
                result = measure(tree, config, args.games, args.instructions)
                if label not in best or result[key] < best[label][key]:
                    best[label] = result
        mine, theirs = best["this"], best["base"]
        same = "same" if mine["actions"] == theirs["actions"] else f"DIFFER {mine['actions']} vs {theirs['actions']}"
        scale = 1e6 if args.instructions else 1.0
        unit = "M" if args.instructions else "s"
        print(
            f"{name:<28}{mine[key] / scale:>13.1f}{unit}{theirs[key] / scale:>13.1f}{unit}"
            f"{mine[key] / theirs[key]:>8.3f}  {same}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
