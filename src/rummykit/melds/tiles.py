"""Groups and runs of number tiles with jokers (rummikub, two-tray).

A *group* is 3 or 4 tiles of one number, every colour different. A *run* is
3 or more tiles of one colour with consecutive numbers, 1..13, no wrap. A
joker stands for any tile; a set needs at least one numbered tile.

A run is read as written when its tiles ascend; otherwise the numbered tiles
are sorted, jokers fill the gaps and any spare joker goes on the high end
(then the low end). When a set reads both as a group and as a run (one
numbered tile and two or more jokers), it takes its higher value. A joker a
player has *called* (declared to stand for one tile) must stand for exactly
that tile.

The family (:data:`TILES`, a :class:`~rummykit.melds.base.MeldFamily`) also
lists every set a rack can make (:func:`hand_sets`) and every tile that grows
a set at one end (:func:`set_extensions`). Lines laid in a fixed order (a
grid's) are read by :mod:`rummykit.melds.tile_lines`.

>>> check_tiles(parse_tiles('R5 J R7')).jokers
('R6',)
>>> c = check_tiles(parse_tiles('K9 B9 J'))
>>> c.kind, c.points, c.jokers
('group', 27, ('9 in O/R',))
>>> check_tiles(parse_tiles('K9 B9 J'), called={2: Tile.parse('R9')}).jokers
('R9',)
>>> check_tiles(parse_tiles('R12 R13 R1')).reason
'a run cannot wrap from 13 to 1 nor have gaps: R12 R13 R1 has 10 missing numbers and no jokers to fill them'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rummykit.melds.base import MIN_SET, MeldCheck
from rummykit.pieces.tiles import (
    ALL_TILES,
    COLOURS,
    JOKER,
    MAX_NUMBER,
    Colour,
    Tile,
    format_tiles,
    parse_tiles,
)
from rummykit.words import counted, times

if TYPE_CHECKING:
    from rummykit.melds.base import MeldFamily

__all__ = [
    "MAX_GROUP",
    "TILES",
    "TileMelds",
    "check_tiles",
    "check_tuple",
    "hand_sets",
    "parse_tiles",
    "set_extensions",
    "sets_from_masks",
]

MAX_GROUP = len(COLOURS)
"""The most tiles in a group: one of each colour."""

TileSet = tuple[Tile, ...]
TileCheck = MeldCheck[Tile]


def check_tiles(tiles: Sequence[Tile], called: Mapping[int, Tile] | None = None) -> TileCheck:
    """Judge a set of tiles: group or run, what each joker stands for, or why not.

    ``called`` maps the position of a joker in ``tiles`` to the numbered tile
    a player has called it: that joker then stands for exactly that tile, and
    a set where it cannot is invalid under the rule that reading breaks.

    >>> print(check_tiles(parse_tiles('K5 B5 J'), called={2: Tile.parse('K5')}).reason)
    the joker called K5 cannot stand in K5 B5 J: a group's colours must all differ: K5 B5 K5 has K5 twice
    """
    if called:
        return _check_called(tuple(tiles), tuple(sorted(called.items())))
    return _check(tuple(tiles))


def _bad(tiles: tuple[Tile, ...], rule: str, reason: str) -> TileCheck:
    return MeldCheck(False, None, tiles, rule=rule, reason=reason)


@lru_cache(maxsize=1 << 14)
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


check_tuple = _check
""":func:`check_tiles` of a set given as a tuple, with no joker called: the cache's own call, quicker."""


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
            return _bad(tiles, "RK-GROUP", f"a group's colours must all differ: {text} has {t} {times(natural.count(t))}")
        seen.add(t)
    number = natural[0].number
    missing = "/".join(c.letter for c in COLOURS if c not in {t.colour for t in natural})
    points = number * n
    ordered = _group_order(natural, jokers, points, text)
    return MeldCheck(True, "group", ordered, points=points, jokers=(f"{number} in {missing}",) * jokers)


def _group_order(natural: list[Tile], jokers: int, points: int, text: _LazyText) -> tuple[Tile, ...]:
    """A group's normal form: jokers first, unless that would read as a better run.

    With two numbered tiles or more no run can be read. With one, jokers
    first read as a run below the group's points whenever the number is above
    the count of jokers; otherwise (three jokers and a 3, say) the numbered tile
    goes where the group is still the better reading, as in the set judged.
    """
    tiles = tuple(sorted(natural))
    if len(natural) > 1:
        return (JOKER,) * jokers + tiles
    for before in range(jokers, -1, -1):
        ordered = (JOKER,) * before + tiles + (JOKER,) * (jokers - before)
        run = _as_run(ordered, natural, jokers, text)
        if not run.valid or run.points < points:
            return ordered
    return (JOKER,) * jokers + tiles


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
            repeated = f"{colour.letter}{a} {times(numbers.count(a))}"
            return _bad(tiles, "RK-RUN", f"a run cannot repeat a number: {text} has {repeated}")
    gaps = numbers[-1] - numbers[0] + 1 - len(numbers)
    if gaps > jokers:
        return _bad(
            tiles,
            "RK-RUN",
            f"a run cannot wrap from 13 to 1 nor have gaps: {text} has {counted(gaps, 'missing number')}"
            f" and {'only ' if jokers else ''}{counted(jokers, 'joker', zero='no')} to fill {'it' if gaps == 1 else 'them'}",
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


# -- called jokers ----------------------------------------------------------------


@lru_cache(maxsize=1 << 12)
def _check_called(tiles: TileSet, calls: tuple[tuple[int, Tile], ...]) -> TileCheck:
    """:func:`check_tiles` with jokers called: read each called joker as its tile, then put the joker back.

    A call that names no joker (a position out of range or holding a numbered
    tile) or calls a joker a joker is a mistake of the caller: ValueError.
    """
    read = list(tiles)
    for pos, tile in calls:
        if not 0 <= pos < len(tiles) or tiles[pos].colour is not None:
            raise ValueError(f"only a joker can be called: {format_tiles(tiles)} has no joker at position {pos}")
        if tile.colour is None:
            raise ValueError("a joker is called a numbered tile, not a joker")
        read[pos] = tile
    plain = _check(tiles)
    if not plain.valid:
        return plain  # no reading at all, so none with the calls either
    as_read = _check(tuple(read))
    if not as_read.valid:
        names = ", ".join(str(t) for _, t in calls)
        which = "the joker" if len(calls) == 1 else "the jokers"
        assert as_read.rule is not None
        text = format_tiles(tiles)
        return _bad(tiles, as_read.rule, f"{which} called {names} cannot stand in {text}: {as_read.reason}")
    # A valid set never holds a numbered tile twice, so each called tile appears once.
    called = {t for _, t in calls}
    free_roles = iter(as_read.jokers)
    ordered: list[Tile] = []
    roles: list[str] = []
    for t in as_read.pieces:
        if t.colour is None:
            ordered.append(JOKER)
            roles.append(next(free_roles))
        elif t in called:
            ordered.append(JOKER)
            roles.append(str(t))
        else:
            ordered.append(t)
    return MeldCheck(True, as_read.kind, tuple(ordered), points=as_read.points, jokers=tuple(roles))


# -- every set of a rack ------------------------------------------------------------


def hand_sets(hand: Iterable[Tile], max_size: int | None = None) -> list[TileSet]:
    """Every valid set (in normal form) that can be made from the tiles of ``hand``.

    A joker may stand in a gap, at an end, or for a tile the hand holds
    (keeping that tile back). Groups come first (by number), then runs (by
    colour). ``max_size`` leaves out longer sets.

    >>> [format_tiles(s) for s in hand_sets(parse_tiles('R1 R2 R3 B3 K3'))]
    ['K3 B3 R3', 'R1 R2 R3']
    >>> len(hand_sets(parse_tiles('R1 R2 R3 R4 J'))), len(hand_sets(parse_tiles('R1 R2 R3 R4 J'), max_size=3))
    (16, 9)
    """
    jokers = 0
    numbers_mask = [0] * (MAX_NUMBER + 1)
    colour_mask = [0] * len(COLOURS)
    bits = _TILE_BITS
    for t in hand:
        found_bits = bits[t.code]
        if found_bits is None:
            jokers += 1
            continue
        number, colour_bit, ci, number_bit = found_bits
        numbers_mask[number] |= colour_bit
        colour_mask[ci] |= number_bit
    found = sets_from_masks(jokers, numbers_mask, colour_mask)
    if max_size is not None:
        found = [s for s in found if len(s) <= max_size]
    return found


def sets_from_masks(jokers: int, numbers_mask: Sequence[int], colour_mask: Sequence[int]) -> list[TileSet]:
    """:func:`hand_sets` of a hand given as masks: its jokers, the colours (bits by colour index) held of each
    number (``numbers_mask[number]``, index 0 unused) and the numbers (bits by number) held of each colour.

    Kept racks (:class:`rummykit.rulesets.rummikub.listing.KeptListings`) update the masks as tiles come and go.
    """
    found: list[TileSet] = []
    # A set needs MIN_SET tiles, jokers included: a number or colour with fewer makes none (not looked up).
    group_jokers = jokers if jokers < MAX_GROUP else MAX_GROUP - 1
    # The numbers held in enough colours (a bit per number): with no joker three of the four colour masks,
    # with one two of them, with more any one.
    a, b, c, d = colour_mask  # MAX_GROUP colours
    if group_jokers == 0:
        enough = (a & b & (c | d)) | (c & d & (a | b))
    elif group_jokers == 1:
        enough = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    else:
        enough = a | b | c | d
    while enough:
        low = enough & -enough
        number = low.bit_length() - 1
        enough ^= low
        found.extend(_groups_from(number, numbers_mask[number], group_jokers))
    run_jokers = jokers if jokers < MAX_NUMBER else MAX_NUMBER - 1
    if run_jokers:
        for ci, mask in enumerate(colour_mask):
            if mask and mask.bit_count() + run_jokers >= MIN_SET:
                found.extend(_runs_from(ci, mask, run_jokers))
    else:
        # Without a joker a run is a stretch of three numbers or more of one colour, which most racks lack.
        for ci, mask in enumerate(colour_mask):
            if mask & mask >> 1 & mask >> 2:
                row = _COLOUR_ROWS[ci]
                found.extend([row[a : b + 1] for a, b in _stretches(mask)])
    # A group and a run coincide only for one numbered tile with two or more jokers.
    return list(dict.fromkeys(found)) if jokers >= 2 else found


_TILE_BITS: tuple[tuple[int, int, int, int] | None, ...] = tuple(
    None if t.colour is None else (t.number, 1 << t.colour.index, t.colour.index, 1 << t.number) for t in ALL_TILES
)
"""By tile code: (number, colour bit, colour index, number bit), None for the joker (for :func:`hand_sets`)."""
TILE_BITS = _TILE_BITS
"""The same, for code that keeps a hand's masks itself (:func:`sets_from_masks`)."""


@lru_cache(maxsize=4096)
def _groups_from(number: int, colours: int, jokers: int) -> tuple[TileSet, ...]:
    """Every group of ``number`` from the colours in the bit mask plus up to ``jokers`` jokers."""
    tiles = [Tile(c, number) for c in COLOURS if colours >> c.index & 1]
    found: dict[TileSet, None] = {}
    for size in range(MIN_SET, MAX_GROUP + 1):
        for k in range(max(1, size - jokers), min(size, len(tiles)) + 1):
            for combo in itertools.combinations(tiles, k):
                c = _check((JOKER,) * (size - k) + combo)
                if c.valid:
                    found[c.pieces] = None
    return tuple(found)


@lru_cache(maxsize=1 << 11)
def _runs_from(colour_index: int, numbers: int, jokers: int) -> tuple[TileSet, ...]:
    """Every run of one colour from the numbers in the bit mask plus up to ``jokers`` jokers.

    Runs come by first number, then by last, then with fewer jokers standing
    for tiles the rack holds first. A run with two numbered tiles or more, each
    where its number says, is its own normal form (no group has two numbers);
    one with a single numbered tile is judged by :func:`_check`, which may
    read it as a group.
    """
    row = _COLOUR_ROWS[colour_index]
    found: dict[TileSet, None] = {}
    for start in range(1, MAX_NUMBER - MIN_SET + 2):
        missing = 0
        present: list[int] = []
        for end in range(start, MAX_NUMBER + 1):
            if numbers >> end & 1:
                present.append(end)
            else:
                missing += 1
                if missing > jokers:
                    break
            if end - start + 1 < MIN_SET or not present:
                continue
            if missing:
                base = tuple(row[v] if numbers >> v & 1 else JOKER for v in range(start, end + 1))
            else:
                base = row[start : end + 1]
            # A joker may also stand where the rack has the tile (keeping that tile back).
            for extra in range(0, min(jokers - missing, len(present) - 1) + 1):
                for swapped in itertools.combinations(present, extra):
                    if extra:
                        tiles = list(base)
                        for v in swapped:
                            tiles[v - start] = JOKER
                        cand = tuple(tiles)
                    else:
                        cand = base
                    if len(present) - extra > 1:
                        found[cand] = None
                        continue
                    c = _check(cand)
                    if c.valid:
                        found[c.pieces] = None
    return tuple(found)


@lru_cache(maxsize=1 << 12)
def _stretches(numbers: int) -> tuple[tuple[int, int], ...]:
    """Every (first, last) run of three numbers or more all in the bit mask, by first then last (what
    :func:`_runs_from` finds without a joker)."""
    out: list[tuple[int, int]] = []
    for first in range(1, MAX_NUMBER - MIN_SET + 2):
        last = first
        while last <= MAX_NUMBER and numbers >> last & 1:
            if last - first + 1 >= MIN_SET:
                out.append((first, last))
            last += 1
    return tuple(out)


_COLOUR_ROWS: tuple[tuple[Tile, ...], ...] = tuple(
    (JOKER, *(Tile(c, v) for v in range(1, MAX_NUMBER + 1))) for c in COLOURS
)
"""Per colour, its tiles by number (index 0 holds the joker, never read)."""


# -- growing a set ------------------------------------------------------------------


@lru_cache(maxsize=1 << 12)
def set_extensions(s: TileSet) -> tuple[tuple[Tile, TileSet], ...]:
    """Every tile that makes a valid set when added at one end of the set ``s`` (a tuple), with that set.

    Only a joker, a tile of the set's number (a group's missing colour) or a
    tile of the set's colour next to or inside its span (a run's end, or a
    tile that frees a joker to the end) can possibly fit, and a run's tile
    only within ``len(s)`` of each of its numbered tiles: those are tried, in
    tile order.

    >>> [(str(t), format_tiles(new)) for t, new in set_extensions(tuple(parse_tiles('K5 B5 O5')))]
    [('R5', 'K5 B5 O5 R5'), ('J', 'J K5 B5 O5')]
    """
    natural = [t for t in s if t.colour is not None]
    candidates: set[Tile] = {JOKER}
    if natural:
        numbers = {t.number for t in natural}
        colours = {t.colour for t in natural}
        if len(numbers) == 1:
            n = natural[0].number
            candidates.update(Tile(c, n) for c in COLOURS if c not in colours)
        if len(colours) == 1:
            # A run of len(s) + 1 tiles spans that many numbers, so its numbered tiles lie at most len(s) apart.
            colour = natural[0].colour
            lo = max(1, max(numbers) - len(s))
            hi = min(MAX_NUMBER, min(numbers) + len(s))
            candidates.update(Tile(colour, v) for v in range(lo, hi + 1) if v not in numbers)
    out = []
    for t in sorted(candidates):
        for cand in ((*s, t), (t, *s)):
            c = _check(cand)
            if c.valid:
                out.append((t, c.pieces))
                break
    return tuple(out)


# -- the family ---------------------------------------------------------------------


class TileMelds:
    """The tile meld family: :func:`check_tiles`, :func:`hand_sets` and :func:`set_extensions`.

    >>> [format_tiles(s) for s in TILES.enumerate(parse_tiles('K5 B5 J'))]
    ['J K5 B5']
    >>> [str(t) for t, _grown in TILES.extensions(parse_tiles('J K5 B5'))]
    ['O5', 'R5', 'J']
    """

    __slots__ = ()

    def check(self, pieces: Sequence[Tile], called: Mapping[int, Tile] | None = None) -> TileCheck:
        """Judge a set (see :func:`check_tiles`)."""
        return check_tiles(pieces, called)

    def enumerate(self, hand: Iterable[Tile], max_size: int | None = None) -> list[TileSet]:
        """Every set a hand can make (see :func:`hand_sets`)."""
        return hand_sets(hand, max_size)

    def extensions(self, meld: Sequence[Tile]) -> tuple[tuple[Tile, TileSet], ...]:
        """Every tile that grows the set at one end (see :func:`set_extensions`)."""
        return set_extensions(tuple(meld))

    def __repr__(self) -> str:
        return "TILES"


TILES = TileMelds()
"""The tile meld family (groups and runs, up to four colours, 1..13)."""

if TYPE_CHECKING:
    _family: MeldFamily[Tile] = TILES
