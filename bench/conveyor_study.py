"""Design study: how long is a round of Conveyor Rummy with a double-6 set versus a double-9 set?

The seed's designers wrote that with a double-6 set, even with two players,
"rounds would be over in just one or two turns". This script plays seeded
single-round games between bots (greedy by default) and reports the mean and
median round length in turns, for each set.

A *turn* is one player's draw, melds and discard (or close); the closing turn
counts. "Turns per player" divides by the number of players, which is what a
player at the table would call "my turns". Rounds that hit ``max_turns``
without a close are counted at ``max_turns`` and reported separately.

Run from the repository root::

    .venv/bin/python bench/conveyor_study.py --games 1000 --sets 6 9

It prints a Markdown table (and, with ``--json FILE``, writes the raw numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import rummykit.rulesets.conveyor as cv
from rummykit.bots.conveyor import conveyor_greedy
from rummykit.bots.random import RandomBot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots


def play_one(args: tuple[int, int, int, str, int]) -> dict[str, Any]:
    """Play one seeded single-round game; return its length and how it ended."""
    seed, top, players, level, max_turns = args
    state = new_game("conveyor", players=players, seed=seed, set=top, target=0, max_turns=max_turns)
    assert isinstance(state, cv.Conveyor)
    make = conveyor_greedy if level == "greedy" else RandomBot
    run_bots(state, [make(cv.INFO) for _ in range(players)])
    end = next(e for e in reversed(state.history) if e.kind == "round-end")
    reveals = sum(1 for e in state.history if e.kind == "reveal")
    return {
        "seed": seed,
        "turns": state.turn_no,
        "reason": end.data["reason"],
        "how": end.data.get("how"),
        "score": max(end.data["scores"]),
        "reveals": reveals,
        "closer": end.data.get("closer"),
    }


def summarise(top: int, players: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    turns = [r["turns"] for r in results]
    closed = [r for r in results if r["reason"] == "closed"]
    hows = Counter(r["how"] for r in closed)
    columns, length = cv.default_layout(top, players)
    return {
        "set": top,
        "layout": f"{columns} x {length}",
        "games": len(results),
        "mean_turns": statistics.mean(turns),
        "median_turns": statistics.median(turns),
        "mean_per_player": statistics.mean(turns) / players,
        "median_per_player": statistics.median(turns) / players,
        "closed_turns_mean": statistics.mean(r["turns"] for r in closed) if closed else None,
        "closed_turns_median": statistics.median(r["turns"] for r in closed) if closed else None,
        "share_closed": len(closed) / len(results),
        "share_one_each": sum(1 for r in closed if r["turns"] <= players) / len(results),
        "share_two_each": sum(1 for r in closed if r["turns"] <= 2 * players) / len(results),
        "pickup_closes": hows.get("pickup", 0),
        "mean_reveals": statistics.mean(r["reveals"] for r in results),
        "mean_score": statistics.mean(r["score"] for r in closed) if closed else 0.0,
    }


def table(rows: list[dict[str, Any]], players: int, level: str, max_turns: int) -> str:
    lines = [
        "| set | layout | games | mean turns | median turns | mean / player | median / player"
        " | closed | closed within 1 turn each | within 2 turns each | mean reveals | mean winning score |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| double-{r['set']} | {r['layout']} | {r['games']} | {r['mean_turns']:.1f} | {r['median_turns']:g}"
            f" | {r['mean_per_player']:.1f} | {r['median_per_player']:g} | {100 * r['share_closed']:.1f}%"
            f" | {100 * r['share_one_each']:.1f}% | {100 * r['share_two_each']:.1f}% | {r['mean_reveals']:.1f}"
            f" | {r['mean_score']:.1f} |"
        )
    lines.append("")
    lines.append(
        f"{players} players, {level} bots, one round per game (target 0), max_turns {max_turns};"
        f" a round that reaches max_turns counts as {max_turns} turns."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per set (default 1000)")
    parser.add_argument("--sets", type=int, nargs="+", default=[6, 9], help="domino sets to compare (default 6 9)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--max-turns", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the summaries and per-game results to this file")
    args = parser.parse_args(argv)
    rows = []
    raw: dict[str, Any] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for top in args.sets:
            jobs = [
                (seed, top, args.players, args.bots, args.max_turns)
                for seed in range(args.first_seed, args.first_seed + args.games)
            ]
            results = list(pool.map(play_one, jobs, chunksize=20))
            rows.append(summarise(top, args.players, results))
            raw[str(top)] = results
            print(f"double-{top}: {len(results)} games done", file=sys.stderr)
    print(table(rows, args.players, args.bots, args.max_turns))
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summaries": rows, "games": raw}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
