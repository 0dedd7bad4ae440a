"""The open cells next to a two-tray grid: the empty cells where some tile fits both lines through it as laid.

The listing (:mod:`rummykit.rulesets.two_tray.listing`) lists each tile of
the playing tray that fits alone next to the grid; these are the cells it
looks at, each with the tiles that fit there and the jokers near it, kept
with the grid's tiles and worked out again only where a change reaches
(``tests/test_two_tray_listing_speed.py`` compares them with a fresh
reading of the whole grid). With them each grid keeps its frontier (every
empty cell next to a tile and the tiles touching it on each side), from
which a change that only puts tiles in empty cells reads the new segments
without walking the grid (``tests/test_two_tray11_frontier.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from operator import itemgetter

from rummykit.blocks.grid import Cell
from rummykit.melds.tile_lines import line_valid
from rummykit.melds.tiles import MAX_GROUP
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, MAX_NUMBER, Tile
from rummykit.rulesets.two_tray.options import TileGrid

__all__ = [
    "INCREMENTAL",
    "JOKER_BIT",
    "NUMBERED",
    "Codes",
    "Fits",
    "Frontier",
    "OpenCell",
    "OpenCells",
    "Segments",
    "codes",
    "fit_tiles",
    "frontier",
    "open_cells",
    "open_cells_near",
    "tiles_of",
]


Codes = tuple[int, ...]
"""Tiles in a row as their codes (``Tile.code``): a tuple of ints, which the cyclic garbage collector stops
tracking, where a tuple of tiles stays tracked (the fitting tiles' cache below holds 16,384 segment pairs)."""

Fits = int
"""A set of tiles as a bit mask of their codes (``1 << tile.code``; the joker's is :data:`JOKER_BIT`): read in
code order, which is the tiles' own order."""

JOKER_BIT = 1 << JOKER.code
NUMBERED: Fits = JOKER_BIT - 1
"""Every numbered tile's bit."""
_EVERY: Fits = NUMBERED | JOKER_BIT
_JOKER_THERE = 1 << (JOKER.code + 1)
"""In :func:`_fit_codes`'s answer (above the tiles' bits): a joker is among the segments' tiles."""
_JOKER_CODE = JOKER.code
_COLOUR_OF: tuple[int, ...] = tuple(-1 if t.colour is None else t.colour.index for t in ALL_TILES)
_NUMBER_OF: tuple[int, ...] = tuple(t.number for t in ALL_TILES)


_FIT_SETS: dict[Fits, frozenset[Tile]] = {}
"""The tiles of each bit mask an open cell was found to fit (few: a group's missing colours, a run's tile, a
joker), made once each and shared by the open cells."""


def fit_tiles(fits: Fits) -> tuple[Tile, ...]:
    """The tiles of a bit mask, in code order (the tiles' own order)."""
    out = []
    while fits:
        low = fits & -fits
        fits ^= low
        out.append(ALL_TILES[low.bit_length() - 1])
    return tuple(out)


def codes(tiles: tuple[Tile, ...]) -> Codes:
    """The codes of tiles in a row."""
    return tuple([t.code for t in tiles])


def tiles_of(row: Codes) -> tuple[Tile, ...]:
    """The tiles of codes in a row."""
    return tuple(map(_TILE_AT, row))


_TILE_AT = ALL_TILES.__getitem__


@lru_cache(maxsize=1 << 14)
def _fit_codes(before: Codes, after: Codes) -> int:
    """:func:`_fitting` of a segment pair as a bit mask, with :data:`_JOKER_THERE` set when a joker is among its
    tiles, kept together (keys and answers are ints and tuples of ints: nothing the garbage collector walks)."""
    fits = _fitting_mask(before, after)
    if _JOKER_CODE in before or _JOKER_CODE in after:
        fits |= _JOKER_THERE
    return fits


def _fit(before: tuple[Tile, ...], after: tuple[Tile, ...]) -> tuple[frozenset[Tile], bool]:
    """:func:`_fit_codes` for tiles: the tiles that fit, and whether a joker is among the segments' tiles."""
    found = _fit_codes(codes(before), codes(after))
    return frozenset(fit_tiles(found & _EVERY)), found > _EVERY


def _fitting(before: tuple[Tile, ...], after: tuple[Tile, ...]) -> frozenset[Tile]:
    """Every tile that makes ``before + tile + after`` a tile alone or a valid line as laid (jokers aside)."""
    return frozenset(fit_tiles(_fitting_mask(codes(before), codes(after))))


def _fitting_mask(before: Codes, after: Codes) -> Fits:
    """:func:`_fitting` of the tiles of these codes, as a bit mask."""
    if not before and not after:
        return _EVERY
    if len(before) + len(after) < 2:
        return 0
    # One pass over the tiles there (the cell at place len(before)): whether the numbered ones share a number, a
    # colour, and their number less their place (a run's start). A line reads as a group (one number: the tile
    # must have it) or a run (one colour: the tile must have it, and the number its place says); a joker may
    # fit either. Only these can possibly fit (line_valid's own tests, read once for every candidate).
    cut = len(before)
    colour = -1
    number = start = 0
    one_number = one_colour = run = True
    there = 0
    repeated = False
    for i, code in enumerate((*before, *after)):
        c = _COLOUR_OF[code]
        if c < 0:
            continue
        place = i if i < cut else i + 1
        n = _NUMBER_OF[code]
        if colour < 0:
            colour, number, start = c, n, n - place
        else:
            if c != colour:
                one_colour = False
            if n != number:
                one_number = False
                if not one_colour:
                    # Neither a group nor a run, whatever tile (or joker) comes between.
                    return 0
            if n - place != start:
                run = False
        bit = 1 << code
        if there & bit:
            repeated = True
        there |= bit
    if colour < 0:
        row = tiles_of(before), tiles_of(after)
        return sum([1 << t.code for t in ALL_TILES if line_valid((*row[0], t, *row[1]))])
    size = cut + len(after) + 1
    fits = 0
    if one_number and size <= MAX_GROUP and not repeated:
        # A tile of the number in a colour no tile there has makes a group (one number, at most 4 tiles, no
        # colour repeated) when the tiles there repeat none; one in a colour there repeats it (and cannot
        # make a run: a run repeats no number).
        for ci in range(len(COLOURS)):
            bit = 1 << (ci * MAX_NUMBER + number - 1)
            if not there & bit:
                fits |= bit
    if one_colour and run and start >= 1 and start + size - 1 <= MAX_NUMBER:
        # The run's tile at the cell's place: one colour, each number its place's, all within 1..13 (the
        # places differ, so no number repeats; it has the colour, so it is no group's tile).
        fits |= 1 << (colour * MAX_NUMBER + start + cut - 1)
    # A joker fits exactly when a numbered tile does: it reads as that tile (the line keeps a numbered tile);
    # and a line valid with the joker reads it as a tile that makes it valid (its run's number, or a group's
    # missing colour), one of those listed.
    if fits:
        fits |= JOKER_BIT
    return fits


def open_cells(grid: TileGrid) -> tuple[OpenCell, ...]:
    """Every empty cell next to ``grid`` (in cell order) where some tile fits both lines through it as laid.

    With each: the tiles that fit (whoever holds them), the jokers in its
    lines, whether a joker laid there alone keeps the grid valid when none
    touches it, and whether it lies in one line only (:data:`OpenCell`);
    from these the lay-offs are judged as the grid rules judge them
    (tests/test_two_tray_listing_speed.py). It depends on
    the grid's tiles alone (not its calls), so it is kept with them
    (:meth:`~rummykit.blocks.grid.Grid.cells_memo`) for every listing until
    the grid changes; a grid changed from one whose open cells are known
    works them out again only where the change reaches (:func:`open_cells_near`),
    and when the change only put tiles in empty cells, reads the cells' new
    segments from that grid's :data:`Frontier` without walking the grid.
    """
    memo = grid.cells_memo()
    # The memo's look-ups are typed by ignoring, not by cast(): a call per look-up, on the listing's path.
    known: _Known | None = memo.get(_OPEN)  # type: ignore[assignment]
    if known is None:
        origin = grid.origin()
        previous: _Known | None = None if origin is None else origin[0].get(_OPEN)  # type: ignore[assignment]
        if previous is not None and origin is not None and len(origin[1]) <= INCREMENTAL:
            known = _worked_out(grid.cells, previous, origin[1], take=True)
            if previous[1] is not None:
                # This grid took the frontier over (changed in place, not copied): the grid it came from keeps
                # its open cells, and a second grid changed from it is walked (a game's grids come one from
                # another; a bot's plans fork from the grid they start from, and are walked as before).
                origin[0][_OPEN] = (previous[0], None, previous[2])
        else:
            known = _worked_out(grid.cells, None, frozenset())
        memo[_OPEN] = known
    return known[0]


Segments = tuple[Codes, Codes, Codes, Codes]
"""The tiles touching a cell on its left, right, up and down, in reading order (left and up read towards it), as
codes."""

OpenCell = tuple[Cell, frozenset[Tile], tuple[Cell, ...] | None, bool, bool, Segments | None]
"""An open cell: the cell; the tiles that fit; the cells of the jokers in its lines if each lies in that line
only (``()`` if some joker there lies in a line across, None if no joker is there); whether a lone joker fits
(with no joker near); whether the cell lies in one line only (see :func:`open_cells`); its segments when a
joker is in its lines (else None)."""

OpenCells = tuple[OpenCell, ...]
"""A grid's open cells, in cell order."""

_OPEN = "two-tray open cells"
"""The name of the open cells in a grid's :meth:`~rummykit.blocks.grid.Grid.cells_memo`."""

INCREMENTAL = 12
"""At most this many changed cells since a grid whose open cells are known: only the cells the change reaches
are worked out again."""


_cell_of = itemgetter(0)
"""An open cell's cell (the sort key of the open cells: a C-level look-up, no Python call per cell)."""

Frontier = dict[Cell, Segments]
"""Every empty cell next to a tile, with its segments (whether open or not): a tile put in an empty cell changes
only the segments of the cells at the ends of the two lines it makes, read from here without walking the grid."""

_Known = tuple[OpenCells, Frontier | None, int]
"""What is kept with a grid's tiles: its open cells, its frontier (None: not kept, see :data:`FRESH_FRONTIER`)
and its number of tiles."""

FRESH_FRONTIER = 16
"""A grid worked out afresh keeps a frontier only up to this many tiles. A game's grids are worked out afresh
near its start (then each from the last), a bot's plans' grids afresh in mid-game, and most of these are never
changed and listed again: walking a large grid for every cell's four segments costs more there than it saves.
A grid without a frontier, and those changed from it, are worked out as :func:`open_cells_near` does."""

_NO_SEGMENTS: Segments = ((), (), (), ())
"""The segments of an empty cell next to no tile."""


def open_cells_near(
    cells: Mapping[Cell, Tile], previous: OpenCells | None, changed: Iterable[Cell]
) -> OpenCells:
    """The open cells of the grid whose tiles are ``cells``: worked out afresh (``previous`` None), or from
    those of a grid that differed from it only in the ``changed`` cells, by walking the grid (the tests' reference
    for :func:`open_cells`, which keeps a :data:`Frontier` with the grid instead)."""
    get = cells.get
    if previous is not None:
        # An open cell depends on the tiles touching it in a row on each side (its segments), on the cell just
        # past each segment's end (empty), and on the cells across each joker in them. So only these cells can
        # see that change: the empty cells reached from a changed cell through tiles in a row, left, right,
        # up or down (the changed cell itself if empty), and those reached so from a joker next to a changed
        # cell. Every other cell is open or not as before: a cell next to a tile (a candidate) that is not
        # next to a changed cell was one before (only a changed cell gains or loses a tile).
        touched = set(changed)
        redo = _reached(cells, touched)
        # Every cell that may have changed: those and the changed cells. A changed cell's neighbour holds what
        # it held: a tile stays out of the open cells; an empty one is in ``redo`` (each walk stops at the first
        # empty cell), and worked out again (a tile taken off may leave it next to no tile).
        affected = redo | touched
        kept = [found for found in previous if found[0] not in affected]
        added = False
        for cell in redo:
            # Each is empty (a walk stops at the first empty cell; a changed cell is taken only when empty);
            # _open_cell refuses one next to no tile.
            found = _open_cell(get, cell)
            if found is not None:
                kept.append(found)
                added = True
        if added:
            kept.sort(key=_cell_of)
        return tuple(kept)
    candidates: set[Cell] = set()
    for r, c in cells:
        candidates.update(((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)))
    candidates.difference_update(cells)
    out = []
    for cell in sorted(candidates):
        found = _open_cell(get, cell)
        if found is not None:
            out.append(found)
    return tuple(out)


def _open_cell(get: Callable[[Cell], Tile | None], cell: Cell) -> OpenCell | None:
    """The open cell ``cell`` (empty) of the grid whose tiles ``get`` reads, or None if it is next to no tile or
    no tile fits there."""
    r, c = cell
    # A cell touched on one side only, by a single tile, would make a line of 2: nothing fits there.
    west, east = get((r, c - 1)), get((r, c + 1))
    north, south = get((r - 1, c)), get((r + 1, c))
    if west is None:
        if east is None:
            if north is None and south is None:
                return None  # next to no tile
        elif get((r, c + 2)) is None:
            return None
    elif east is None and get((r, c - 2)) is None:
        return None
    if north is None:
        if south is not None and get((r + 2, c)) is None:
            return None
    elif south is None and get((r - 2, c)) is None:
        return None
    # The tiles touching the cell on each side, in reading order (left and up read towards the cell).
    return _open_from(get, cell, _segments(get, cell))


def _worked_out(
    cells: Mapping[Cell, Tile], previous: _Known | None, changed: frozenset[Cell], *, take: bool = False
) -> _Known:
    """The open cells, frontier and size of the grid whose tiles are ``cells``: afresh (``previous`` None), or
    from those of a grid that differed from it only in the ``changed`` cells (see :func:`open_cells_near` for
    which cells a change reaches); ``take``: change that grid's frontier in place (the caller drops it there)."""
    get = cells.get
    if previous is None and len(cells) > FRESH_FRONTIER:
        return open_cells_near(cells, None, ()), None, len(cells)
    if previous is not None and previous[1] is None:
        return open_cells_near(cells, previous[0], changed), None, len(cells)
    if previous is None:
        front = frontier(cells)
        out = []
        for cell in sorted(front):
            found = _open_from(get, cell, front[cell])
            if found is not None:
                out.append(found)
        return tuple(out), front, len(cells)
    known, kept_front, size = previous
    assert kept_front is not None
    # (``take``: the previous grid's frontier is changed in place; else a dict's own copy, far cheaper than
    # dict(front), which inserts key by key.)
    front = kept_front if take else kept_front.copy()
    if len(cells) == size + len(changed):
        # Tiles put in empty cells only (each changed cell gained a tile). Put one at a time, each joins the
        # segments touching its cell (the cell's own, read from the frontier; none if it is not there) into
        # one line across and one down: only the empty cells past those lines' ends see new segments (their
        # other three stay). The order does not matter: each step leaves the frontier of the grid so far.
        redo: set[Cell] = set()
        jokers: list[Cell] = []
        pop, find, add = front.pop, front.get, redo.add
        for cell in changed:
            r, c = cell
            tile = cells[cell].code
            left, right, up, down = pop(cell, _NO_SEGMENTS)
            across = (*left, tile, *right)
            end = (r, c - len(left) - 1)
            s = find(end, _NO_SEGMENTS)
            front[end] = (s[0], across, s[2], s[3])
            add(end)
            end = (r, c + len(right) + 1)
            s = find(end, _NO_SEGMENTS)
            front[end] = (across, s[1], s[2], s[3])
            add(end)
            line = (*up, tile, *down)
            end = (r - len(up) - 1, c)
            s = find(end, _NO_SEGMENTS)
            front[end] = (s[0], s[1], s[2], line)
            add(end)
            end = (r + len(down) + 1, c)
            s = find(end, _NO_SEGMENTS)
            front[end] = (s[0], s[1], line, s[3])
            add(end)
            # A joker next to the cell (the segments' tiles next to it; a changed one is put in its turn): the
            # cells whose lines hold it see the cell across it filled.
            if left and left[-1] == _JOKER_CODE:
                jokers.append((r, c - 1))
            if right and right[0] == _JOKER_CODE:
                jokers.append((r, c + 1))
            if up and up[-1] == _JOKER_CODE:
                jokers.append((r - 1, c))
            if down and down[0] == _JOKER_CODE:
                jokers.append((r + 1, c))
        for joker in jokers:
            if joker not in changed:
                redo.update(_line_ends(cells, joker))
        redo -= changed
    else:
        # Tiles taken off or replaced: the cells a change reaches found by walking the grid, their segments too.
        redo = _reached(cells, changed)
        for cell in changed:
            front.pop(cell, None)
        for cell in redo:
            segments = _segments(get, cell)
            if segments == _NO_SEGMENTS:
                front.pop(cell, None)
            else:
                front[cell] = segments
    affected = redo | changed
    kept = [found for found in known if found[0] not in affected]
    added = False
    for cell in redo:
        around = front.get(cell)
        if around is not None:
            left, right, up, down = around
            if len(left) + len(right) == 1 or len(up) + len(down) == 1:
                continue  # a line of 2 across or down: nothing fits (_open_from's first answer, without the call)
            found = _open_from(get, cell, around)
            if found is not None:
                kept.append(found)
                added = True
    if added:
        kept.sort(key=_cell_of)
    return tuple(kept), front, len(cells)


def frontier(cells: Mapping[Cell, Tile]) -> Frontier:
    """The :data:`Frontier` of the grid whose tiles are ``cells``, walked afresh."""
    get = cells.get
    front: Frontier = {}
    for r, c in cells:
        for cell in ((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)):
            if cell not in cells and cell not in front:
                front[cell] = _segments(get, cell)
    return front


def _line_ends(cells: Mapping[Cell, Tile], cell: Cell) -> list[Cell]:
    """The empty cells just past the tiles in a row from ``cell`` (a tile) left, right, up and down."""
    r, c = cell
    x = c + 1
    while (r, x) in cells:
        x += 1
    out = [(r, x)]
    x = c - 1
    while (r, x) in cells:
        x -= 1
    out.append((r, x))
    y = r + 1
    while (y, c) in cells:
        y += 1
    out.append((y, c))
    y = r - 1
    while (y, c) in cells:
        y -= 1
    out.append((y, c))
    return out


def _reached(cells: Mapping[Cell, Tile], changed: Iterable[Cell]) -> set[Cell]:
    """The empty cells whose segments, or the cells across the jokers in them, a change of the ``changed``
    cells may have touched (see :func:`open_cells_near`): the changed cells left empty, the empty cells past the
    tiles in a row from each, and those from each joker next to one."""
    redo: set[Cell] = set()
    for r, c in changed:
        if (r, c) not in cells:
            redo.add((r, c))
        redo.update(_line_ends(cells, (r, c)))
        for near in ((r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)):
            if cells.get(near) is JOKER:
                redo.update(_line_ends(cells, near))
    return redo


def _segments(get: Callable[[Cell], Tile | None], cell: Cell) -> Segments:
    """The tiles touching the empty ``cell`` on its left, right, up and down (:data:`Segments`)."""
    r, c = cell
    walked: list[int] = []
    x = c - 1
    tile = get((r, x))
    while tile is not None:
        walked.append(tile.code)
        x -= 1
        tile = get((r, x))
    walked.reverse()
    left = tuple(walked)
    walked = []
    x = c + 1
    tile = get((r, x))
    while tile is not None:
        walked.append(tile.code)
        x += 1
        tile = get((r, x))
    right = tuple(walked)
    walked = []
    y = r - 1
    tile = get((y, c))
    while tile is not None:
        walked.append(tile.code)
        y -= 1
        tile = get((y, c))
    walked.reverse()
    up = tuple(walked)
    walked = []
    y = r + 1
    tile = get((y, c))
    while tile is not None:
        walked.append(tile.code)
        y += 1
        tile = get((y, c))
    return (left, right, up, tuple(walked))


def _open_from(get: Callable[[Cell], Tile | None], cell: Cell, segments: Segments) -> OpenCell | None:
    """The open cell ``cell`` (empty, next to a tile) with these segments (a line of no tiles lets any tile fit
    it), or None if no tile fits there; ``get`` reads the cells across jokers. :func:`_open_cell` walks the
    segments first, :func:`_worked_out` reads them from the frontier."""
    left, right, up, down = segments
    # Each answer of _fit_codes: the tiles' bits, and _JOKER_THERE above them (a joker in the segments).
    fitting = _EVERY
    jokers_there = False
    if left or right:
        if len(left) + len(right) < 2:
            return None  # a line of 2: nothing fits
        found = _fit_codes(left, right)
        if not found & _EVERY:
            return None
        fitting = found & _EVERY
        jokers_there = found > _EVERY
    if up or down:
        if len(up) + len(down) < 2:
            return None
        found = _fit_codes(up, down)
        fitting &= found
        if not fitting:
            return None
        if found > _EVERY:
            jokers_there = True
    one_line = not (left or right) or not (up or down)
    # A joker laid here with no joker near reads as any tile that fits both lines: it fits when the cell
    # lies in one line only, or when some numbered tile fits both.
    joker_fits = one_line or fitting & NUMBERED != 0
    tiles = _FIT_SETS.get(fitting)
    if tiles is None:
        tiles = _FIT_SETS[fitting] = frozenset(fit_tiles(fitting))
    if not jokers_there:
        return (cell, tiles, None, joker_fits, one_line, None)
    r, c = cell
    # The jokers of the two lines through the cell, if none of them lies in a line across (else ()).
    lone: list[Cell] = []
    across = [((r, c - len(left) + k), (1, 0)) for k, t in enumerate(left) if t == _JOKER_CODE]
    across += [((r, c + 1 + k), (1, 0)) for k, t in enumerate(right) if t == _JOKER_CODE]
    across += [((r - len(up) + k, c), (0, 1)) for k, t in enumerate(up) if t == _JOKER_CODE]
    across += [((r + 1 + k, c), (0, 1)) for k, t in enumerate(down) if t == _JOKER_CODE]
    for (y, x), (dr, dc) in across:
        # (dr, dc) steps across the joker's line: from a row's joker up and down, from a column's left and right.
        if get((y - dr, x - dc)) is not None or get((y + dr, x + dc)) is not None:
            return (cell, tiles, (), joker_fits, one_line, segments)
        lone.append((y, x))
    return (cell, tiles, tuple(lone), joker_fits, one_line, segments)
