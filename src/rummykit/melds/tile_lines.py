"""Tiles laid in a fixed order: reading a line of a two-tray grid as a run or a group, never rearranged.

A free table's sets (:mod:`rummykit.melds.tiles`) may be put in any order; a
grid's lines are read exactly as laid, left to right or top to bottom. The
grid games (two-tray) and the grid's blocks use :func:`read_line`.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from rummykit.melds.base import MIN_SET, LineReading, LineVerdict
from rummykit.melds.tiles import MAX_GROUP, _LazyText
from rummykit.pieces.tiles import COLOURS, MAX_NUMBER, Tile, format_tiles, parse_tiles
from rummykit.words import counted, times

__all__ = ["format_tiles", "line_valid", "parse_tiles", "read_line"]  # the first two for the examples


@lru_cache(maxsize=1 << 13)
def read_line(tiles: tuple[Tile, ...]) -> LineVerdict[Tile]:
    """Every reading of tiles lying in a row (left to right) or a column (top to bottom).

    A line is read as laid, never rearranged: a group is 3 or 4 tiles of one
    number in different colours (in any order), each joker any missing colour;
    a run is 3 or more tiles of one colour whose numbers go up by one from each
    tile to the next, a joker standing for the number of its own place, within
    1..13. When a line reads both ways (one numbered tile and jokers), both
    readings are kept. Failures name the rule without a game prefix (see
    :class:`~rummykit.melds.base.LineVerdict`).

    >>> [(r.kind, format_tiles(r.pieces), r.points) for r in read_line(tuple(parse_tiles('R5 J R7'))).readings]
    [('run', 'R5 R6 R7', 18)]
    >>> sorted(format_tiles(r.pieces) for r in read_line(tuple(parse_tiles('K9 J B9'))).readings)
    ['K9 O9 B9', 'K9 R9 B9']
    >>> v = read_line(tuple(parse_tiles('R7 R6 R5')))
    >>> v.valid, v.rule, v.reason
    (False, 'RUN', 'a run goes up by one from each tile to the next in reading order: R7 R6 R5 does not')
    >>> read_line(tuple(parse_tiles('R12 R13 J'))).reason
    'a run stops at 13 (13-1 does not wrap): R12 R13 J would go past it'
    """
    n = len(tiles)
    text = _LazyText(tiles)
    if n < MIN_SET:
        return LineVerdict((), "LINE-SIZE", f"a line of touching tiles needs at least {MIN_SET}: {text}")
    natural = [(i, t) for i, t in enumerate(tiles) if t.colour is not None]
    if not natural:
        return LineVerdict((), "LINE-JOKERS", f"a line needs at least one numbered tile: {text}")
    numbers = {t.number for _, t in natural}
    colours = {t.colour for _, t in natural}
    readings: list[LineReading[Tile]] = []
    failures: list[tuple[str, str]] = []
    if len(colours) == 1:
        run = _line_run(tiles, natural, text)
        if isinstance(run, LineReading):
            readings.append(run)
        else:
            failures.append(run)
    if len(numbers) == 1:
        groups = _line_groups(tiles, natural, text)
        if isinstance(groups, tuple):
            failures.append(groups)
        else:
            readings.extend(groups)
    if readings:
        return LineVerdict(tuple(readings))
    if failures:
        rule, reason = failures[0]
        return LineVerdict((), rule, reason)
    return LineVerdict(
        (),
        "LINE-KIND",
        f"{text} is neither a group (one number, different colours) nor a run (one colour, numbers going up)",
    )


def line_valid(tiles: tuple[Tile, ...]) -> bool:
    """``read_line(tiles).valid``, worked out without the readings or the words of a failure.

    A line is valid when it has at least 3 tiles and a numbered one, and reads
    as a run (one colour; each numbered tile's number its place's, no number
    repeated; within 1..13) or as a group (one number, at most 4 tiles, no
    colour repeated: a joker takes a missing colour, and 4 tiles leave enough).

    >>> [line_valid(tuple(parse_tiles(t))) for t in ('R5 J R7', 'K9 J B9', 'R7 R6 R5', 'R12 R13 J', 'J J J')]
    [True, True, False, False, False]
    """
    n = len(tiles)
    if n < MIN_SET:
        return False
    first = -1
    colour = None
    number = 0
    one_colour = one_number = True
    previous_place = previous_number = 0
    run = True
    for i, t in enumerate(tiles):
        if t.colour is None:
            continue
        if first < 0:
            first, colour, number = i, t.colour, t.number
        else:
            if t.colour is not colour:
                one_colour = False
            if t.number != number:
                one_number = False
            if t.number - previous_number != i - previous_place:
                run = False
        previous_place, previous_number = i, t.number
    if first < 0:
        return False
    if one_colour and run:
        start = number - first
        if start >= 1 and start + n - 1 <= MAX_NUMBER:
            return True
    if one_number and n <= MAX_GROUP:
        # One number: the numbered tiles differ exactly when their colours do.
        naturals = [t for t in tiles if t.colour is not None]
        return len(set(naturals)) == len(naturals)
    return False


def _line_run(
    tiles: tuple[Tile, ...], natural: list[tuple[int, Tile]], text: _LazyText
) -> LineReading[Tile] | tuple[str, str]:
    n = len(tiles)
    colour = natural[0][1].colour
    assert colour is not None
    first, tile = natural[0]
    start = tile.number - first
    for (i, a), (j, b) in itertools.pairwise(natural):
        if b.number == a.number:
            repeated = sum(1 for _, t in natural if t == a)
            return "RUN", f"a run cannot repeat a number: {text} has {a} {times(repeated)}"
        if b.number - a.number != j - i:
            if b.number < a.number:
                return "RUN", f"a run goes up by one from each tile to the next in reading order: {text} does not"
            return (
                "RUN",
                f"a run goes up by one from each tile to the next: in {text}, {a} and {b} are"
                f" {counted(j - i, 'place')} apart but {counted(b.number - a.number, 'number')} apart",
            )
    if start < 1:
        return "RUN", f"a run starts at 1 at the lowest: {text} would start at {start}"
    if start + n - 1 > MAX_NUMBER:
        return "RUN", f"a run stops at {MAX_NUMBER} ({MAX_NUMBER}-1 does not wrap): {text} would go past it"
    pieces = tuple(Tile(colour, start + i) for i in range(n))
    return LineReading("run", pieces, n * start + n * (n - 1) // 2)


def _line_groups(
    tiles: tuple[Tile, ...], natural: list[tuple[int, Tile]], text: _LazyText
) -> list[LineReading[Tile]] | tuple[str, str]:
    n = len(tiles)
    if n > MAX_GROUP:
        return "GROUP", f"a group has at most {MAX_GROUP} tiles: {text}"
    seen: set[Tile] = set()
    for _, t in natural:
        if t in seen:
            return "GROUP", f"a group's colours must all differ: {text} has {t} {times(sum(1 for _, u in natural if u == t))}"
        seen.add(t)
    number = natural[0][1].number
    missing = [Tile(c, number) for c in COLOURS if Tile(c, number) not in seen]
    holes = [i for i, t in enumerate(tiles) if t.colour is None]
    out = []
    for fill in itertools.permutations(missing, len(holes)):
        pieces = list(tiles)
        for i, t in zip(holes, fill, strict=True):
            pieces[i] = t
        out.append(LineReading("group", tuple(pieces), number * n))
    return out
