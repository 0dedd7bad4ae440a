"""What greedy's simple moves can do with one table set, and the sets a rack can make around a tile.

:class:`Shape` is worked out once per set (and cached): the tiles a set
accepts, gives up, splits on, frees a joker for or bridges to, each with a bit
mask of tile codes, so a step of :mod:`rummykit.bots.greedy` passes over a set
none of whose tiles is in the rack with one ``&`` against the rack's mask
(:func:`rack_mask`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Sequence
from typing import cast

from rummykit.melds.base import MIN_SET
from rummykit.melds.tiles import MAX_GROUP, check_tiles
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, MAX_NUMBER, Tile, parse_tiles

__all__ = [
    "NEAR",
    "SHAPES_LIMIT",
    "Shape",
    "extend",
    "makes_set",
    "rack_mask",
    "seen_set",
    "seen_sets",
    "set_around",
    "shape_of",
    "tiles_mask",
    "view_set",
]

TileSet = tuple[Tile, ...]

# -- what can be done with one table set ------------------------------------------


class Shape:
    """What the simple moves can do with one valid table set (computed once per set, cached).

    ``accepts``: (tile, new set) for each numbered tile that can join the set;
    ``donors``: (tile, rest) for each tile that can leave it, the rest staying valid;
    ``splits``: (tile, left, right) for each tile that splits a run in two valid runs;
    ``roles``: (tile, new set) for each tile that can replace one of its jokers;
    ``ends``: (tile, new set) for a run, each tile two steps beyond an end that a
    joker can bring in (the joker fills the gap).

    Each list's tiles also as a bit mask of tile codes (``accept_mask`` and so
    on), so a step can pass over a set none of whose tiles is in the rack
    with one ``&`` against the rack's mask (:func:`rack_mask`).
    """

    __slots__ = (
        "accept_mask",
        "accepts",
        "donor_mask",
        "donors",
        "end_mask",
        "ends",
        "memo_mask",
        "role_mask",
        "roles",
        "split_mask",
        "splits",
        "step_mask",
        "touch_mask",
    )

    def __init__(self, s: TileSet) -> None:
        check = check_tiles(s)
        n = len(s)
        accepts: list[tuple[Tile, TileSet]] = []
        donors: list[tuple[Tile, TileSet]] = []
        splits: list[tuple[Tile, TileSet, TileSet]] = []
        roles: list[tuple[Tile, TileSet]] = []
        ends: list[tuple[Tile, TileSet]] = []
        if check.kind == "run":
            first = next(i for i, t in enumerate(s) if t.colour is not None)
            base = s[first].code - s[first].number  # code of this colour's tile 0
            start = s[first].number - first
            stop = start + n - 1
            wanted = [v for v in (start - 1, stop + 1) if 1 <= v <= MAX_NUMBER]
            wanted += [start + i for i, t in enumerate(s) if t.colour is None]
            for v in wanted:
                _add(accepts, ALL_TILES[base + v], s, (ALL_TILES[base + v],))
            if n > MIN_SET:
                for k in (0, n - 1):
                    if s[k].colour is not None:
                        _add(donors, s[k], s[1:] if k == 0 else s[:-1], ())
            for k in range(MIN_SET - 1, n - MIN_SET + 1):
                t = ALL_TILES[base + start + k]
                left, right = check_tiles(s[: k + 1]), check_tiles((t, *s[k + 1 :]))
                if left.valid and right.valid:
                    splits.append((t, left.pieces, right.pieces))
            for k, t in enumerate(s):
                if t.colour is None:
                    tile = ALL_TILES[base + start + k]
                    _add(roles, tile, s[:k] + (tile,) + s[k + 1 :], ())
            if stop + 2 <= MAX_NUMBER:
                _add(ends, ALL_TILES[base + stop + 2], s, (JOKER, ALL_TILES[base + stop + 2]))
            if start - 2 >= 1:
                _add(ends, ALL_TILES[base + start - 2], s, (ALL_TILES[base + start - 2], JOKER))
        elif check.kind == "group":
            number = next(t.number for t in s if t.colour is not None)
            present = {t.colour for t in s}
            missing = [Tile(c, number) for c in COLOURS if c not in present]
            if n < MAX_GROUP:
                for t in missing:
                    _add(accepts, t, s, (t,))
            if n == MAX_GROUP:
                for k, t in enumerate(s):
                    if t.colour is not None:
                        _add(donors, t, s[:k] + s[k + 1 :], ())
            if JOKER in s:
                k = s.index(JOKER)
                for t in missing:
                    _add(roles, t, s[:k] + (t,) + s[k + 1 :], ())
        self.accepts = tuple(accepts)
        self.donors = tuple(donors)
        self.splits = tuple(splits)
        self.roles = tuple(roles)
        self.ends = tuple(ends)
        self.accept_mask = tiles_mask(t for t, _ in accepts)
        self.donor_mask = tiles_mask(t for t, _ in donors)
        self.split_mask = tiles_mask(t for t, _, _ in splits)
        self.role_mask = tiles_mask(t for t, _ in roles)
        self.end_mask = tiles_mask(t for t, _ in ends)
        self.step_mask = self.accept_mask | self.split_mask | self.role_mask
        """The tiles a lay-off, a split or a freed joker could use (for :mod:`rummykit.bots.greedy_memo`)."""
        near = 0
        for t, _ in donors:
            near |= NEAR[t.code]
        self.touch_mask = self.step_mask | near
        """:attr:`step_mask` and the tiles near a donor: no tile outside it can make a step use this set
        (with no rack joker; with one, :attr:`memo_mask`), as :mod:`rummykit.bots.greedy_memo` asks."""
        self.memo_mask = self.touch_mask | self.end_mask


def tiles_mask(tiles: Iterable[Tile]) -> int:
    """The bit mask of the tiles' codes."""
    mask = 0
    for t in tiles:
        mask |= 1 << t.code
    return mask


def rack_mask(rack: Counter[Tile]) -> int:
    """The bit mask of the codes of the tiles in ``rack`` (a counter never holds a zero count here)."""
    mask = 0
    for t in rack:
        mask |= 1 << t.code
    return mask


def _add(out: list[tuple[Tile, TileSet]], tile: Tile, s: TileSet, added: TileSet) -> None:
    """Append (tile, the set ``s`` with ``added`` after or before it) when that is a valid set."""
    for cand in ((*s, *added), (*added, *s)) if added else (s,):
        c = check_tiles(cand)
        if c.valid:
            out.append((tile, c.pieces))
            return


_SHAPES: dict[TileSet, Shape] = {}
SHAPES_LIMIT = 1 << 13


def shape_of(s: TileSet) -> Shape:
    """The cached :class:`Shape` of a valid set in normal form."""
    found = _SHAPES.get(s)
    if found is None:
        if len(_SHAPES) >= SHAPES_LIMIT:
            _SHAPES.clear()
        found = _SHAPES[s] = Shape(s)
    return found


_VIEW_SETS: dict[tuple[str, ...], tuple[TileSet, TileSet, Shape]] = {}


def view_set(texts: Sequence[str]) -> tuple[TileSet, TileSet, Shape]:
    """A table set as a view writes it: its tiles, its normal form and that form's :class:`Shape` (cached,
    bounded; a view's sets are valid, so the normal form holds the same tiles)."""
    key = tuple(texts)
    found = _VIEW_SETS.get(key)
    if found is None:
        if len(_VIEW_SETS) >= SHAPES_LIMIT:
            _VIEW_SETS.clear()
        tiles = tuple(parse_tiles(key))
        normal = check_tiles(tiles).pieces
        found = _VIEW_SETS[key] = (tiles, normal, shape_of(normal))
    return found


_SEEN_SETS: dict[TileSet, tuple[TileSet, Shape]] = {}


def seen_set(pieces: TileSet) -> tuple[TileSet, Shape]:
    """:func:`view_set`'s normal form and shape of a table set given as its tiles (a typed seat view's, the
    state's own tuple) instead of its texts (cached, bounded)."""
    found = _SEEN_SETS.get(pieces)
    if found is None:
        if len(_SEEN_SETS) >= SHAPES_LIMIT:
            _SEEN_SETS.clear()
        normal = check_tiles(pieces).pieces
        found = _SEEN_SETS[pieces] = (normal, shape_of(normal))
    return found


def seen_sets(sets: Sequence[TileSet]) -> tuple[list[TileSet], list[Shape]]:
    """:func:`seen_set` of each set: the normal forms and the shapes (every set looked up at once)."""
    if not sets:
        return [], []
    found = list(map(_SEEN_SETS.get, sets))
    if None in found:
        found = list(map(seen_set, sets))
    normal, shapes = zip(*cast("list[tuple[TileSet, Shape]]", found), strict=True)
    return list(normal), list(shapes)


def extend(s: TileSet, tiles: TileSet) -> TileSet | None:
    """``s`` with ``tiles`` added (after or before), in normal form, or None if that is no set."""
    for cand in ((*s, *tiles), (*tiles, *s)):
        c = check_tiles(cand)
        if c.valid:
            return c.pieces
    return None


SAME_NUMBER = {n: tuple(Tile(c, n) for c in COLOURS) for n in range(1, MAX_NUMBER + 1)}
"""The tiles of each number, one per colour."""

NEAR = [
    tiles_mask(
        [u for u in SAME_NUMBER[t.number] if u is not t]
        + [ALL_TILES[t.code + d] for d in (-2, -1, 1, 2) if 1 <= t.number + d <= MAX_NUMBER]
    )
    if t.colour is not None
    else 0
    for t in ALL_TILES
]
"""For each numbered tile's code, the tiles a set around it needs two of: its number in the other
colours, and its colour two either side (a run through it holds two of those)."""


_ROW = (1 << MAX_NUMBER) - 1
_JOKER_BIT = 1 << JOKER.code


def makes_set(mask: int, jokers: int) -> bool:
    """True when the tiles of ``mask`` (bits by tile code) and ``jokers`` jokers make some set, that is
    when :func:`~rummykit.melds.tiles.hand_sets` of them is not empty: with no joker, a number in three
    colours or three numbers in a row of one colour; with one, a number in two colours or two numbers of
    one colour at most two apart; with two or more, any numbered tile."""
    mask &= ~_JOKER_BIT
    if jokers >= 2:
        return mask != 0
    # numbers held, per colour (written out: no generator, the same values)
    a, b, c, d = mask & _ROW, mask >> MAX_NUMBER & _ROW, mask >> 2 * MAX_NUMBER & _ROW, mask >> 3 * MAX_NUMBER & _ROW
    if jokers:
        return bool(
            (a & (b | c | d)) | (b & (c | d)) | (c & d)
            or (a & (a >> 1 | a >> 2)) | (b & (b >> 1 | b >> 2)) | (c & (c >> 1 | c >> 2)) | (d & (d >> 1 | d >> 2))
        )
    return bool(
        (a & b & (c | d)) | (c & d & (a | b))
        or (a & a >> 1 & a >> 2) | (b & b >> 1 & b >> 2) | (c & c >> 1 & c >> 2) | (d & d >> 1 & d >> 2)
    )


def set_around(donor: Tile, rack: Container[Tile]) -> TileSet | None:
    """The largest set of ``donor`` (first) and 2+ numbered rack tiles, or None."""
    code = donor.code
    number = donor.number
    base = code - number  # code of this colour's tile 0
    group = [donor]
    for t in SAME_NUMBER[number]:
        if t is not donor and t in rack:
            group.append(t)
    lo = number
    while lo > 1 and ALL_TILES[base + lo - 1] in rack:
        lo -= 1
    hi = number
    while hi < MAX_NUMBER and ALL_TILES[base + hi + 1] in rack:
        hi += 1
    if hi - lo + 1 >= len(group) and hi - lo + 1 >= MIN_SET:
        return (donor, *(ALL_TILES[base + v] for v in range(lo, hi + 1) if v != number))
    if len(group) >= MIN_SET:
        return tuple(group)
    return None
