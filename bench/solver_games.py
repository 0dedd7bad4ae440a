"""One digest of 400 seeded rummikub games with the ``solver`` bot, to compare two trees.

    PYTHONPATH=/path/to/tree/src:bench .venv/bin/python bench/solver_games.py

200 games of the solver against greedy and 100 of the solver against itself (2
players), and 100 of 3 players (two solvers and a greedy), seeds 1000 upwards, the
seats rotating with the seed. Every event (kind, player, public and secret data) and
each outcome go into one sha256, printed at the end: a change that keeps the solver's
answers keeps the digest. (Session 10 computed its digest the same way by hand.)
"""

from __future__ import annotations

import hashlib
import json
import time

from rummykit.bots.base import make_bot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

GAME = "rummikub"


def lineups() -> list[tuple[int, list[str]]]:
    """(seed, bot level per seat) of the 400 games."""
    games: list[tuple[int, list[str]]] = []
    for i in range(200):
        seats = ["solver", "greedy"]
        games.append((1000 + i, seats[i % 2 :] + seats[: i % 2]))
    for i in range(100):
        games.append((1200 + i, ["solver", "solver"]))
    for i in range(100):
        seats = ["solver", "solver", "greedy"]
        k = i % 3
        games.append((1300 + i, seats[k:] + seats[:k]))
    return games


def main() -> None:
    digest = hashlib.sha256()
    started = time.perf_counter()
    for seed, levels in lineups():
        state = new_game(GAME, players=len(levels), seed=seed)
        bots = [make_bot(level, GAME) for level in levels]

        def record(_state: object, events: list[object]) -> None:
            for e in events:
                line = json.dumps(
                    [e.kind, e.player, e.data, e.secret],  # type: ignore[attr-defined]
                    sort_keys=True,
                    default=str,
                )
                digest.update(line.encode())
                digest.update(b"\n")

        run_bots(state, bots, on_event=record)
        assert state.outcome is not None
        digest.update(repr((seed, sorted(state.outcome.winners))).encode())
    print(f"{digest.hexdigest()}  (400 games, {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
