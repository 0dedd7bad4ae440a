"""How fast whole rummikub games run between bots (run by hand, not part of the tests).

    python bench/bench_rummikub.py                  # every configuration, about 5 CPU seconds each
    python bench/bench_rummikub.py --games 50       # exactly 50 seeded games per configuration
    python bench/bench_rummikub.py --seconds 2      # stop a configuration after about 2 CPU seconds
    python bench/bench_rummikub.py --profile greedy:4   # cProfile one configuration, top 25
    python bench/bench_rummikub.py --game domino-rummikub   # the same for another free-table game
                                                            # (one round per game: target none)

Game ``i`` of every configuration uses seed ``i``, so two runs play the same
games and their numbers can be compared. Rates are per CPU second of this
process (the elapsed time is shown too). See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import sys
import time
from dataclasses import dataclass

from rummykit.bots.base import make_bot
from rummykit.catalogue import new_game
from rummykit.sim import run_bots

GAME = "rummikub"
OPTIONS: dict[str, object] = {}
CONFIGS: tuple[tuple[str, int], ...] = (("random", 2), ("random", 4), ("greedy", 2), ("greedy", 4))
DEFAULT_MAX_GAMES = 100_000
WARM_UP_SEED = 999_999


@dataclass
class Result:
    """What one configuration measured: ``seconds`` is process CPU time, ``wall`` elapsed time."""

    level: str
    players: int
    games: int
    seconds: float
    wall: float
    actions: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def play_one(level: str, players: int, seed: int) -> int:
    """Play one seeded game between bots of one level; returns the number of actions."""
    state = new_game(GAME, players=players, seed=seed, **OPTIONS)
    bots = [make_bot(level, GAME) for _ in range(players)]
    run_bots(state, bots)
    if state.outcome is None:
        raise RuntimeError(f"game {seed} ({level}, {players} players) did not end")
    return len(state.actions)


def measure(level: str, players: int, *, games: int | None, seconds: float, first_seed: int = 0) -> Result:
    """Play seeded games until ``games`` are played, or (without a count) ``seconds`` of CPU time have passed."""
    limit = games if games is not None else DEFAULT_MAX_GAMES
    play_one(level, players, WARM_UP_SEED)  # fill the meld-check caches; not counted
    played = actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    while played < limit:
        actions += play_one(level, players, first_seed + played)
        played += 1
        if games is None and time.process_time() - cpu >= seconds:
            break
    return Result(level, players, played, time.process_time() - cpu, time.perf_counter() - start, actions)


HEADER = (
    f"{'bots':<8}{'players':>8}{'games':>8}{'seconds':>10}{'games/s':>10}{'actions/game':>14}"
    f"{'actions/s':>11}{'wall s':>9}"
)


def row(r: Result) -> str:
    """One line of the results table."""
    return (
        f"{r.level:<8}{r.players:>8}{r.games:>8}{r.seconds:>10.2f}{r.games_per_second:>10.1f}"
        f"{r.actions_per_game:>14.1f}{r.actions_per_second:>11.0f}{r.wall:>9.2f}"
    )


def profile(level: str, players: int, *, games: int, top: int = 25) -> None:
    """Run ``games`` seeded games of one configuration under cProfile; print the top functions."""
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play_one(level, players, seed)
    profiler.disable()
    print(f"cProfile: {games} {level} games, {players} players; top {top} by cumulative time")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(top)


def parse_config(text: str) -> tuple[str, int]:
    """``greedy:4`` -> ("greedy", 4)."""
    level, _, players = text.partition(":")
    try:
        return level.strip().lower(), int(players or "4")
    except ValueError:
        raise argparse.ArgumentTypeError(f"write LEVEL:PLAYERS, e.g. greedy:4; got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Full games (rounds) per second between bots.")
    parser.add_argument(
        "--games", type=int, default=None, help="seeded games per configuration (default: time-boxed)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="CPU-time box per configuration when --games is not given (default 5)",
    )
    parser.add_argument(
        "--profile",
        type=parse_config,
        nargs="?",
        const=("greedy", 4),
        default=None,
        metavar="LEVEL:PLAYERS",
        help="profile one configuration with cProfile instead (default greedy:4; 20 games unless --games)",
    )
    parser.add_argument(
        "--game", default="rummikub", help="the game to play (default rummikub; any game with bots)"
    )
    args = parser.parse_args(argv)
    global GAME
    GAME = args.game
    OPTIONS.clear()
    if GAME != "rummikub":
        OPTIONS["target"] = None  # one round per game, as in rummikub
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}",
        end="",
    )
    if hasattr(os, "getloadavg"):
        print(f", load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", end="")
    print(f" - game {GAME}")
    if args.profile is not None:
        level, players = args.profile
        profile(level, players, games=args.games or 20)
        return 0
    print(HEADER)
    print("-" * len(HEADER))
    for level, players in CONFIGS:
        print(row(measure(level, players, games=args.games, seconds=args.seconds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
