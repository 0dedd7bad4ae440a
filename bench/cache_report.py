"""Every function cache of rummykit after some bot games: size, bound, hit rate (run by hand).

    python bench/cache_report.py rummikub random 4 --games 500

Plays seeded games (seed ``i`` for game ``i``) in this process, then lists
each ``functools`` cache in the loaded ``rummykit`` modules with its entries,
its bound, its hits and misses, and the resident memory before and after.
Use it with ``bench_throughput.py --memory`` to choose cache bounds.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from typing import Any

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

OPTIONS: dict[str, dict[str, object]] = {"conveyor": {"target": 0}, "mummus": {"target": 0}}


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def caches() -> list[tuple[str, Any]]:
    """(qualified name, cached function) for every lru cache in the loaded rummykit modules."""
    found = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("rummykit") or module is None:
            continue
        for attr, value in vars(module).items():
            if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == name:
                found.append((f"{name}.{attr}", value))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bots")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    before = rss_mib()
    for seed in range(args.games):
        state = new_game(args.game, players=args.players, seed=seed, **OPTIONS.get(args.game, {}))
        run_bots(state, [make_bot(args.bots, args.game) for _ in range(args.players)])
    print(f"{args.games} games of {args.game} ({args.bots}, {args.players} players): RSS {before:.1f} -> {rss_mib():.1f} MiB")
    print(f"{'cache':60} {'entries':>8} {'bound':>8} {'hit rate':>8}")
    for name, fn in caches():
        info = fn.cache_info()
        if info.hits + info.misses == 0:
            continue
        rate = info.hits / (info.hits + info.misses)
        print(f"{name:60} {info.currsize:8} {info.maxsize!s:>8} {rate:8.1%}")


if __name__ == "__main__":
    main()
