"""Test set-ups made from the catalogue, so that a new game is tested with no edit here.

Tests that play every game take the games, their seat counts, bot levels and
one-round options from here instead of keeping a table of the games by hand.
Data only tests know (a game's bad commands, say) stays in a table of the
test, and :func:`missing_from` makes that test fail, naming the game, when a
catalogued game is not in it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rummykit.bots.registry import bot_levels
from rummykit.catalogue import find_game, games
from rummykit.engine.match import one_round_options

GAME_IDS: list[str] = [info.id for info in games()]
"""Every game of the catalogue, by id."""


def one_round(game: str) -> dict[str, object]:
    """The options that make ``game`` one round (from its option specs)."""
    return dict(one_round_options(find_game(game).options))


def seats(game: str, wanted: int) -> int:
    """``wanted`` players, or the nearest count the game allows."""
    info = find_game(game)
    return max(info.min_players, min(wanted, info.max_players))


def mixed_levels(game: str, players: int) -> list[str]:
    """One bot level per seat: greedy and random in turn where the game has greedy, else its first level."""
    levels = bot_levels(game)
    cycle = [level for level in ("greedy", "random") if level in levels] or levels[:1]
    return [cycle[seat % len(cycle)] for seat in range(players)]


def option_args(game: str, options: Mapping[str, object]) -> list[str]:
    """``--option name=value`` for each option, written as the command line takes it."""
    specs = {spec.name: spec for spec in find_game(game).options}
    out: list[str] = []
    for name, value in options.items():
        out += ["--option", f"{name}={specs[name].format(value)}"]
    return out


def bot_game_args(game: str, players: int, options: Mapping[str, object], *, mixed: bool = False) -> list[str]:
    """The ``rummykit play`` arguments of a game of bots only (greedy and random in turn with ``mixed``)."""
    if mixed:
        seats_args = [arg for level in mixed_levels(game, players) for arg in ("--bot", level)]
    else:
        seats_args = ["--bots", str(players)]
    return ["--players", str(players), *seats_args, *option_args(game, options)]


def missing_from(table: Collection[str], what: str) -> str:
    """A failure message naming the catalogued games a test's own table lacks ('' when none)."""
    missing = [game for game in GAME_IDS if game not in table]
    return f"add {', '.join(missing)} to {what}" if missing else ""
