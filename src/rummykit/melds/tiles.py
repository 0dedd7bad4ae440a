"""Groups and runs of number tiles with jokers (rummikub, two-tray).

A *group* is 3 or 4 tiles of one number, every colour different. A *run* is
3 or more tiles of one colour with consecutive numbers, 1..13, no wrap. A
joker stands for any tile; a set needs at least one numbered tile.

A run is read as written when its tiles ascend; otherwise the numbered tiles
are sorted, jokers fill the gaps and any spare joker goes on the high end
(then the low end). When a set reads both as a group and as a run (one
numbered tile and two or more jokers), it takes its higher value.

>>> check_tiles(parse_tiles('R5 J R7')).jokers
('R6',)
>>> c = check_tiles(parse_tiles('K9 B9 J'))
>>> c.kind, c.points, c.jokers
('group', 27, ('9 in O/R',))
>>> check_tiles(parse_tiles('R12 R13 R1')).reason
'a run cannot wrap from 13 to 1 nor have gaps: R12 R13 R1 has 10 missing numbers and 0 jokers'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from rummykit.melds.base import MeldCheck
from rummykit.pieces.tiles import (
    COLOURS,
    JOKER,
    MAX_NUMBER,
    Colour,
    Tile,
    format_tiles,
    parse_tiles,
)

__all__ = ["check_tiles", "parse_tiles"]

MIN_SET = 3
MAX_GROUP = len(COLOURS)

TileCheck = MeldCheck[Tile]


def check_tiles(tiles: Sequence[Tile]) -> TileCheck:
    """Judge a set of tiles: group or run, what each joker stands for, or why not."""
    return _check(tuple(tiles))


def _bad(tiles: tuple[Tile, ...], rule: str, reason: str) -> TileCheck:
    return MeldCheck(False, None, tiles, rule=rule, reason=reason)


@lru_cache(maxsize=1 << 17)
def _check(tiles: tuple[Tile, ...]) -> TileCheck:
    n = len(tiles)
    text = _LazyText(tiles)
    if n < MIN_SET:
        return _bad(tiles, "RK-SET-SIZE", f"a set needs at least {MIN_SET} tiles: {text}")
    natural = [t for t in tiles if t.colour is not None]
    jokers = n - len(natural)
    if not natural:
        return _bad(tiles, "RK-SET-JOKERS", f"a set needs at least one numbered tile: {text}")
    numbers = {t.number for t in natural}
    colours = {t.colour for t in natural}
    group = _as_group(tiles, natural, jokers, text) if len(numbers) == 1 else None
    run = _as_run(tiles, natural, jokers, text) if len(colours) == 1 else None
    valid = [c for c in (run, group) if c is not None and c.valid]
    if valid:
        return max(valid, key=lambda c: c.points)
    for c in (group, run):
        if c is not None:
            return c
    return _bad(
        tiles,
        "RK-SET-KIND",
        f"{text} is neither a group (one number, different colours)"
        " nor a run (one colour, consecutive numbers)",
    )


class _LazyText:
    """A set's notation, formatted only if an error message needs it."""

    __slots__ = ("tiles",)

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        self.tiles = tiles

    def __str__(self) -> str:
        return format_tiles(self.tiles) or "empty"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _as_group(
    tiles: tuple[Tile, ...], natural: list[Tile], jokers: int, text: _LazyText
) -> TileCheck:
    n = len(tiles)
    if n > MAX_GROUP:
        return _bad(tiles, "RK-GROUP", f"a group has at most {MAX_GROUP} tiles: {text}")
    seen: set[Tile] = set()
    for t in natural:
        if t in seen:
            return _bad(tiles, "RK-GROUP", f"a group's colours must all differ: {t} twice in {text}")
        seen.add(t)
    number = natural[0].number
    missing = "/".join(c.letter for c in COLOURS if c not in {t.colour for t in natural})
    # Jokers first: the normal form then never reads as a better run.
    ordered = (JOKER,) * jokers + tuple(sorted(natural))
    return MeldCheck(
        True, "group", ordered, points=number * n, jokers=(f"{number} in {missing}",) * jokers
    )


def _as_run(tiles: tuple[Tile, ...], natural: list[Tile], jokers: int, text: _LazyText) -> TileCheck:
    n = len(tiles)
    colour = natural[0].colour
    assert colour is not None
    if n > MAX_NUMBER:
        return _bad(tiles, "RK-RUN", f"a run has at most {MAX_NUMBER} tiles: {text}")
    # As written: every numbered tile sits where its number says.
    first = next(i for i, t in enumerate(tiles) if t.colour is not None)
    start = tiles[first].number - first
    if start >= 1 and start + n - 1 <= MAX_NUMBER and all(
        t.colour is None or t.number == start + i for i, t in enumerate(tiles)
    ):
        return _run_result(tiles, colour, start)
    numbers = sorted(t.number for t in natural)
    for a, b in itertools.pairwise(numbers):
        if a == b:
            return _bad(tiles, "RK-RUN", f"a run cannot repeat a number: {colour.letter}{a} twice in {text}")
    gaps = numbers[-1] - numbers[0] + 1 - len(numbers)
    if gaps > jokers:
        return _bad(
            tiles,
            "RK-RUN",
            f"a run cannot wrap from 13 to 1 nor have gaps: {text} has {gaps} missing"
            f" numbers and {jokers} jokers",
        )
    spare = jokers - gaps
    high = min(spare, MAX_NUMBER - numbers[-1])
    start = numbers[0] - (spare - high)
    present = set(numbers)
    ordered = tuple(
        Tile(colour, v) if v in present else JOKER for v in range(start, start + n)
    )
    return _run_result(ordered, colour, start)


def _run_result(ordered: tuple[Tile, ...], colour: Colour, start: int) -> TileCheck:
    n = len(ordered)
    roles = tuple(str(Tile(colour, start + i)) for i, t in enumerate(ordered) if t.colour is None)
    return MeldCheck(True, "run", ordered, points=n * start + n * (n - 1) // 2, jokers=roles)


def tile_set(text: str) -> TileCheck:
    """Judge a set written in notation (a convenience for tests and the REPL).

    >>> tile_set('J B2 B3').jokers
    ('B1',)
    """
    return check_tiles(parse_tiles(text))
