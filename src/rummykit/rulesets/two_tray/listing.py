"""Listing two-tray actions: what a seat can do, from its state or from its view alone.

A grid turn can rearrange the whole table, so only simple plays are listed
(see ``docs/games/two-tray.md``): drawing (or passing, or ending a turn
after emptying a tray), every allowed joker call, every set the playing tray
can make laid as a new line in free space below the grid, and, once down,
every single tile of the playing tray that fits in an empty cell next to the
grid (extending a line, filling the gap between two, or crossing one). A
player going down may go on in the same turn: each going-down line is also
listed with each single tile of the rest of the tray that fits next to the
table's tiles. Each play is checked with the same grid rules the engine
applies.

>>> from rummykit.pieces.tiles import ALL_TILES, Tile, parse_tiles
>>> s = Situation(0, {'A': parse_tiles('R4 K9 K10 K11'), 'B': []}, TileGrid.parse('0,0: R1 R2 R3', Tile.parse),
...               down=True, threshold=30, playing='A', pool_size=5)
>>> [a.text() for a in listable_actions(s)]
['draw A', 'play A 2,0=K9 2,1=K10 2,2=K11', 'play A 0,3=R4']
>>> s = Situation(0, {'A': parse_tiles('R4 K10 B10 O10'), 'B': []}, TileGrid.parse('0,0: R1 R2 R3', Tile.parse),
...               down=False, threshold=30, playing='A', pool_size=5)
>>> [a.text() for a in listable_actions(s)]
['draw A', 'play A 2,0=K10 2,1=B10 2,2=O10', 'play A 0,3=R4 2,0=K10 2,1=B10 2,2=O10']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rummykit.blocks.grid import Cell, Put, parse_cell
from rummykit.blocks.grid_judge import line_cells, line_through
from rummykit.blocks.grid_lines import LineJudgement, grid_lines
from rummykit.blocks.grid_near import LayOff, line_reach, reach
from rummykit.engine.core import Action
from rummykit.engine.options import int_option
from rummykit.melds.tile_lines import read_line
from rummykit.melds.tiles import TileSet, hand_sets
from rummykit.pieces.tiles import JOKER, Tile, parse_tiles
from rummykit.rulesets.two_tray.actions import Call, Draw, End, Fail, Pass, Play
from rummykit.rulesets.two_tray.calls import GROUP_SIZE, call_options
from rummykit.rulesets.two_tray.judged import _Judged as _Judged
from rummykit.rulesets.two_tray.judged import _judged as _judged
from rummykit.rulesets.two_tray.judged import judged_lay_off as judged_lay_off
from rummykit.rulesets.two_tray.judged import listed_call as listed_call
from rummykit.rulesets.two_tray.judged import listed_holds as listed_holds
from rummykit.rulesets.two_tray.open_cells import INCREMENTAL, Segments, open_cells, tiles_of
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.trays import tile_code
from rummykit.rulesets.two_tray.views import two_tray_view

__all__ = [
    "Situation",
    "actions_from_view",
    "draft_lines",
    "extensions",
    "free_row",
    "going_on",
    "going_on_cells",
    "going_on_each",
    "grid_from_view",
    "listable_actions",
    "listed_call",
    "listed_holds",
    "listing",
    "new_lines",
    "situation_from_view",
]


@dataclass(frozen=True)
class Situation:
    """What the seat to move knows that matters for its choices: its trays, the grid and the turn's state."""

    seat: int
    trays: Mapping[str, Sequence[Tile]]
    grid: TileGrid
    down: bool
    threshold: int
    playing: str | None
    """The tray this turn plays from (None: the seat's first turn, either tray)."""
    pool_size: int
    continuing: bool = False
    called: tuple[Cell, ...] = field(default=())

    def playable_trays(self) -> list[str]:
        """The trays this turn may play from: the playing tray, or both on the first turn."""
        return [self.playing] if self.playing is not None else list(self.trays)


def free_row(grid: TileGrid) -> tuple[int, int]:
    """The first cell of free space below the grid (one empty row between): where new lines are listed."""
    memo = grid.cells_memo()
    # The memo's look-ups are typed by ignoring, not by cast(): a call per look-up, on the listing's path.
    found: tuple[int, int] | None = memo.get(_FREE_ROW)  # type: ignore[assignment]
    if found is None:
        origin = grid.origin()
        before: tuple[int, int] | None = None if origin is None else origin[0].get(_FREE_ROW)  # type: ignore[assignment]
        cells = grid.cells
        if before is not None and origin is not None and origin[1] and (before != (0, 0) or len(cells) != len(origin[1])):
            # Tiles only put down (or replaced) since a grid whose free row is known (and had tiles): the box
            # only grew, to the changed cells.
            bottom, left = before[0] - 2, before[1]
            for r, c in origin[1]:
                if (r, c) not in cells:
                    break  # a tile taken off: the box is read again
                if r > bottom:
                    bottom = r
                if c < left:
                    left = c
            else:
                found = (bottom + 2, left)
        if found is None:
            box = grid.bounds()
            found = (0, 0) if box is None else (box[2] + 2, box[1])
        memo[_FREE_ROW] = found
    return found


_FREE_ROW = "two-tray free row"
"""The name of :func:`free_row`'s answer in a grid's cells memo (it depends on the tiles' places alone)."""


def new_lines(grid: TileGrid, tiles: Sequence[Tile], *, down: bool, threshold: int) -> list[tuple[Put[Tile], ...]]:
    """Each set the tiles can make, laid across in free space below the grid (before going down: each
    worth at least ``threshold`` on its own)."""
    row, col = free_row(grid)
    return [tuple([_put(row, col + i, t) for i, t in enumerate(s)]) for s in line_sets(tiles, down=down, threshold=threshold)]


def line_sets(tiles: Sequence[Tile], *, down: bool, threshold: int) -> list[TileSet]:
    """The sets of :func:`new_lines`, in its order (each laid from the free row's first cell)."""
    out = []
    for s in hand_sets(tiles):
        # The line lies one empty row below the grid, touching none of its tiles: the grid stays valid exactly
        # when the line reads as a set on its own, and its jokers count as they do in its best reading.
        line = read_line(s)
        if not line.valid:
            continue
        if not down and max(r.points for r in line.readings) < threshold:
            continue
        out.append(s)
    return out


def laid_line(grid: TileGrid, tiles: TileSet) -> tuple[Put[Tile], ...]:
    """The puts of one set of :func:`line_sets` laid in free space below ``grid``, as :func:`new_lines` lays it."""
    row, col = free_row(grid)
    return tuple([_put(row, col + i, t) for i, t in enumerate(tiles)])


@lru_cache(maxsize=1 << 12)
def _put(row: int, col: int, tile: Tile) -> Put[Tile]:
    """``Put(row, col, tile)``: the same listed changes recur from listing to listing (puts never change: kept)."""
    return Put(row, col, tile)


def _call_options(grid: TileGrid, cell: Cell, judged: _Judged) -> tuple[Tile, ...]:
    """:func:`~rummykit.rulesets.two_tray.calls.call_options`, kept with the grid (see :class:`_Judged`): they
    depend on the lines through the joker and those joined to them by jokers, the reach of
    :func:`~rummykit.blocks.grid_near.reach`."""
    found = judged.calls.get(cell)
    if found is None:
        ungrouped = _in_no_group(grid, cell)
        if ungrouped is not None:
            found = judged.calls[cell] = ((), ungrouped)
        else:
            found = judged.calls[cell] = (tuple(call_options(grid, cell)), reach(GRID, grid, (cell,)))
        judged.reached.update(found[1])
    return found[0]


def _in_no_group(grid: TileGrid, cell: Cell) -> frozenset[Cell] | None:
    """When the joker in ``cell`` lies in no line of :data:`~rummykit.rulesets.two_tray.calls.GROUP_SIZE` tiles
    that could read as a group (its other tiles numbered alike, or a joker among them), the cells that answer
    depends on: the two lines through it and the cell past each end (else None). Such a joker has no call
    options (:func:`~rummykit.rulesets.two_tray.calls.call_options` reads only those lines' group readings)."""
    on = grid.cells
    r, c = cell
    where: list[Cell] = []
    for across in (True, False):
        key = line_through(on, r, c, across)
        a, b = key[2], key[3]
        if b - a + 1 == GROUP_SIZE:
            others = [on[x] for x in line_cells(key) if x != cell]
            if any(t.colour is None for t in others) or len({t.number for t in others}) == 1:
                return None
        where += line_reach(key)
    return frozenset(where)


def extensions(grid: TileGrid, tiles: Iterable[Tile]) -> list[Put[Tile]]:
    """Every (cell, tile) of ``tiles`` that keeps the grid valid when put alone in an empty cell next to it."""
    return [_put(cell[0], cell[1], tile) for cell, tile in _extension_cells(grid, tiles)]


def _extension_cells(grid: TileGrid, tiles: Iterable[Tile], memo: _Judged | None = None) -> list[tuple[Cell, Tile]]:
    """:func:`extensions` as (cell, tile) pairs (``memo``: the grid's :class:`_Judged`, if at hand)."""
    distinct = frozenset(tiles)
    out = []
    calls = grid.calls
    for found in open_cells(grid):
        fits = found[1]
        if fits.isdisjoint(distinct):
            continue
        cell, _, jokers, joker_fits, one_line, segments = found
        fitting = distinct & fits
        frame: LayOff[Tile] | None = None
        for tile in sorted(fitting, key=tile_code) if len(fitting) > 1 else fitting:
            if jokers is not None:
                # Another joker nearby. When each lies in this cell's line alone and none was called, and a
                # joker laid here lies in one line only, no reading of one line binds another: the lines
                # read as laid (they do, by the fitting tiles) is all the grid rules ask.
                if jokers and (one_line or tile is not JOKER) and (not calls or not any(j in calls for j in jokers)):
                    out.append((cell, tile))
                    continue
                # Otherwise the grid rules judge the readings of the lines the jokers link.
                if memo is None:
                    memo = _judged(grid)
                judged = memo.lay_offs.get((cell, tile))
                if judged is None:
                    # A line through the cell that cannot read, or a joker in it that its line across cannot
                    # read as this line must: the grid rules' no, read from those lines alone.
                    assert segments is not None
                    fails = None if tile is JOKER else _fails_near(grid, memo, cell, tile, segments)
                    if fails is not None:
                        judged = memo.lay_offs[cell, tile] = (False, fails)
                    else:
                        # holds_reach(GRID, grid, (cell,), (cell, tile)), the lines and reach found once per cell.
                        if frame is None:
                            frame = LayOff(GRID, grid, cell, tile)
                        judged = memo.lay_offs[cell, tile] = (frame.holds(tile), frame.reach)
                    memo.reached.update(judged[1])
                if not judged[0]:
                    continue
            elif tile is JOKER and not joker_fits:
                continue
            out.append((cell, tile))
    return out


def _fails_near(grid: TileGrid, judged: _Judged, cell: Cell, tile: Tile, segments: Segments) -> frozenset[Cell] | None:
    """When ``tile`` (not a joker) put in the empty ``cell`` surely breaks a grid rule near it, the cells that
    answer depends on (else None): a line through the cell that does not read with its calls, or a joker in one
    whose line across (which the cell is not in, nor past its ends) has no reading with the piece this line's
    readings make of it. The grid rules judge both lines (the second is joined to the first by the joker), and
    a choice of readings must agree on the joker; another grid with the same pieces and calls in both lines,
    and empty cells past their ends, gets the same no."""
    r, c = cell
    left, right, up, down = segments
    calls = grid.calls
    for before, after, across in ((left, right, True), (up, down, False)):
        if not before and not after:
            continue
        pieces = tiles_of((*before, tile.code, *after))  # the segments are kept as codes
        start = (c if across else r) - len(before)
        key = (across, r if across else c, start, start + len(pieces) - 1)
        cells = line_cells(key)
        readings = read_line(pieces).readings
        if calls:
            for pos, x in enumerate(cells):
                called = calls.get(x)
                if called is not None:
                    readings = tuple([rd for rd in readings if rd.pieces[pos] == called])
        if not readings:
            return frozenset(line_reach(key))
        for pos, x in enumerate(cells):
            if pieces[pos] is JOKER:
                values, where = _crossing(grid, judged, x, not across)
                if values is not None and values.isdisjoint([rd.pieces[pos] for rd in readings]):
                    return frozenset((*line_reach(key), *where))
    return None


def _crossing(grid: TileGrid, judged: _Judged, joker: Cell, across: bool) -> tuple[frozenset[Tile] | None, tuple[Cell, ...]]:
    """The pieces the line ``across`` (or down) through the joker in ``joker`` can read it as, with its calls
    (None: no line of 2 or more there), and the cells that depends on (the line's and the cell past each end);
    kept with the grid (see :class:`_Judged`)."""
    found = judged.crossings.get((joker, across))
    if found is None:
        on = grid.cells
        r, c = joker
        key = line_through(on, r, c, across)
        a, b = key[2], key[3]
        where = line_reach(key)
        if a == b:
            found = (None, where)
        else:
            cells = line_cells(key)
            readings = read_line(tuple([on[x] for x in cells])).readings
            calls = grid.calls
            if calls:
                for pos, x in enumerate(cells):
                    called = calls.get(x)
                    if called is not None:
                        readings = tuple([rd for rd in readings if rd.pieces[pos] == called])
            at = cells.index(joker)
            found = (frozenset([rd.pieces[at] for rd in readings]), where)
        judged.crossings[joker, across] = found
        judged.reached.update(found[1])
    return found


@lru_cache(maxsize=256)
def _simple(kind: type[Draw | End | Pass], seat: int, tray: str) -> Action:
    """``Draw(seat, tray)``, ``End(seat)`` or ``Pass(seat)``: actions never change, made once."""
    if kind is Draw:
        return Draw(seat, tray)
    return End(seat) if kind is End else Pass(seat)


@lru_cache(maxsize=1 << 12)
def _lay_off(seat: int, tray: str, row: int, col: int, tile: Tile) -> Play:
    """The listed play of one tile put in one cell (the same lay-offs recur from listing to listing: kept)."""
    return _listed(seat, tray, (_put(row, col, tile),))


def listable_actions(s: Situation) -> list[Action]:
    """The listable actions of the seat to move in situation ``s``."""
    trays = s.trays
    return listing(
        s.seat,
        [(name, trays[name]) for name in s.playable_trays()],
        s.grid,
        down=s.down,
        threshold=s.threshold,
        pool_size=s.pool_size,
        continuing=s.continuing,
        called=s.called,
    )


def listing(
    seat: int,
    playable: Sequence[tuple[str, Sequence[Tile]]],
    grid: TileGrid,
    *,
    down: bool,
    threshold: int,
    pool_size: int,
    continuing: bool,
    called: Sequence[Cell],
) -> list[Action]:
    """:func:`listable_actions` from the situation's parts (the game's own listing, without making a
    :class:`Situation`): ``playable`` the trays this turn may play from, each with its tiles (only read)."""
    actions: list[Action] = []
    if continuing:
        actions.append(_simple(End, seat, ""))
    elif pool_size:
        actions.extend([_simple(Draw, seat, name) for name, _ in playable])
    else:
        actions.append(_simple(Pass, seat, ""))
    judged = _judged(grid)
    jokers = _joker_cells(grid)
    if jokers:
        for cell in jokers:
            if cell not in called:
                # call_options are the calls call_fault allows, but for a joker called this turn already.
                actions.extend([Call(seat, cell[0], cell[1], tile) for tile in _call_options(grid, cell, judged)])
    listed = judged.listed
    for name, tiles in playable:
        if not tiles:
            continue
        sets = line_sets(tiles, down=down, threshold=threshold)
        plays = [_listed(seat, name, laid_line(grid, s)) for s in sets]
        if down:
            plays += [
                _lay_off(seat, name, cell[0], cell[1], tile) for cell, tile in _extension_cells(grid, tiles, judged)
            ]
        for play in plays:
            # The play check takes these plays' grid judgement from here (listed_holds).
            listed[id(play.changes)] = play.changes
        if down:
            actions += plays
        else:
            for play, ons in zip(plays, going_on_each(grid, tiles, sets), strict=True):
                actions.append(play)
                puts = play.changes
                actions.extend([Play(seat, name, (*puts, put)) for put in ons])
    return actions


def _joker_cells(grid: TileGrid) -> tuple[Cell, ...]:
    """The cells of the grid's jokers, in cell order (kept with the grid's tiles)."""
    memo = grid.cells_memo()
    found: tuple[Cell, ...] | None = memo.get(_JOKERS)  # type: ignore[assignment]
    if found is None:
        origin = grid.origin()
        before: tuple[Cell, ...] | None = None if origin is None else origin[0].get(_JOKERS)  # type: ignore[assignment]
        cells = grid.cells
        if before is not None and origin is not None:
            # From the grid it was changed from: its jokers still there, and any in the changed cells.
            changed = origin[1]
            kept = [c for c in before if c not in changed]
            added = [c for c in changed if cells.get(c) is JOKER]
            found = tuple(sorted(kept + added)) if added else tuple(kept)
        else:
            found = tuple(sorted(c for c, t in cells.items() if t is JOKER))
        memo[_JOKERS] = found
    return found


_JOKERS = "two-tray jokers"
"""The name of :func:`_joker_cells`'s answer in a grid's cells memo."""


def _listed(seat: int, tray: str, puts: tuple[Put[Tile], ...]) -> Play:
    """``Play(seat, tray, puts)`` for a tray named as the game names it (capital letters) and puts in cell order,
    each cell once (a new line across, or one lay-off): what :class:`Play`'s own checks leave as they are,
    made without them (``tests/test_two_tray_listing_speed.py`` compares the two)."""
    play = object.__new__(Play)
    object.__setattr__(play, "player", seat)
    object.__setattr__(play, "tray", tray)
    object.__setattr__(play, "changes", puts)
    object.__setattr__(play, "down", ())
    return play


def going_on(grid: TileGrid, tiles: Sequence[Tile], line: Sequence[Put[Tile]]) -> list[Put[Tile]]:
    """After going down with ``line`` (a new line laid in free space), each tile of the rest of ``tiles``
    that fits alone next to the grid's own tiles (:func:`extensions`), away from the new line.

    The going-down line stands on its own and the tile keeps the grid valid,
    so the play is the seed's "after first going down ... in the same turn".
    """
    if not grid.cells:
        return []
    # The tiles left after the line, each once (extensions reads them as a set), counted by hash: list.remove
    # compares tile by tile through Tile's Python-level comparison slot.
    left = Counter(tiles)
    for put in line:
        assert put.piece is not None
        left[put.piece] -= 1
    rest = [t for t, n in left.items() if n > 0]
    near = {(p.row + dr, p.col + dc) for p in line for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))}
    return [put for put in extensions(grid, rest) if put.cell not in near]


def going_on_each(grid: TileGrid, tiles: Sequence[Tile], sets: Sequence[TileSet]) -> list[list[Put[Tile]]]:
    """:func:`going_on` for each of ``sets`` laid as :func:`laid_line` lays it, the lay-offs of all the tiles
    judged once: each (cell, tile) is judged on its own, so a line's are those of the tiles left after it, away
    from it (not in, next to or past an end of its cells), in the same order."""
    return [[_put(cell[0], cell[1], tile) for cell, tile in ons] for ons in going_on_cells(grid, tiles, sets)]


def going_on_cells(grid: TileGrid, tiles: Sequence[Tile], sets: Sequence[TileSet]) -> list[list[tuple[Cell, Tile]]]:
    """:func:`going_on_each` as (cell, tile) pairs (picking makes the one put it picks, if any)."""
    if not grid.cells or not sets:
        return [[] for _ in sets]
    every = _extension_cells(grid, tiles)
    row, col = free_row(grid)
    out = []
    for line in sets:
        left = Counter(tiles)
        for tile in line:
            left[tile] -= 1
        last = col + len(line) - 1
        out.append(
            [
                ((r, c), tile)
                for (r, c), tile in every
                if left[tile] > 0 and not ((r == row and col - 1 <= c <= last + 1) or (r - row in (1, -1) and col <= c <= last))
            ]
        )
    return out


def grid_from_view(view: Mapping[str, object]) -> TileGrid:
    """The grid of a view (with its calls)."""
    grid = two_tray_view(view)["grid"]
    cells = {(c["row"], c["col"]): Tile.parse(c["tile"]) for c in grid}
    calls = {(c["row"], c["col"]): Tile.parse(c["called"]) for c in grid if c["called"] is not None}
    return _recent_grid(cells, calls)


_RECENT: list[TileGrid] = []
"""The grids last read from views (public: every seat sees the grid), newest last, at most :data:`_RECENT_SIZE`."""

_RECENT_SIZE = 8


def _recent_grid(cells: dict[Cell, Tile], calls: dict[Cell, Tile]) -> TileGrid:
    """The grid of these tiles and calls: one read from a view lately (with what was worked out on it), or
    made from the last one by changing the cells that differ (so its open cells and judged lay-offs are
    worked out near the change only), or made afresh. Equal grids all three ways."""
    for grid in reversed(_RECENT):
        if grid.cells == cells and grid.calls == calls:
            return grid
    made: TileGrid | None = None
    if _RECENT:
        last = _RECENT[-1]
        old = last.cells
        changes = [Put(r, c, t) for (r, c), t in cells.items() if old.get((r, c)) is not t]
        changes += [Put(r, c, None) for (r, c) in old if (r, c) not in cells]
        if len(changes) <= INCREMENTAL:
            made = last.changed(changes, GRID.is_joker)
            if made.calls != calls:
                made = None
    if made is None:
        made = TileGrid(cells, calls)
    _RECENT.append(made)
    if len(_RECENT) > _RECENT_SIZE:
        del _RECENT[0]
    return made


def situation_from_view(view: Mapping[str, object]) -> Situation:
    """The :class:`Situation` of the seat whose view this is (a seat's own view: its trays are in it)."""
    seen = two_tray_view(view)
    seat = seen["seat"]
    assert seat is not None, "a seat's own view"
    return Situation(
        seat,
        {name: parse_tiles(tiles) for name, tiles in seen["trays"].items()},
        grid_from_view(seen),
        down=bool(seen["down"][seat]),
        threshold=int_option(seen["options"], "initial_meld_points"),
        playing=seen["playing"][seat],
        pool_size=int(seen["pool_size"]),
        continuing=bool(seen["continuing"]),
        called=tuple(parse_cell(c) for c in seen["called_this_turn"]),
    )


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view this is (empty if it may not act)."""
    seen = two_tray_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    return listable_actions(situation_from_view(seen))


def draft_lines(view: Mapping[str, object], action: Action) -> list[LineJudgement] | None:
    """Each line a drafted play (or a knowingly wrong turn) touches, judged by the grid rules on the grid of the
    seat's view with the play's changes (:data:`GameInfo.draft_lines <rummykit.engine.core.GameInfo.draft_lines>`);
    None for another action."""
    if not isinstance(action, Play | Fail):
        return None
    old = grid_from_view(view)
    return grid_lines(GRID, old, old.changed(action.changes, GRID.is_joker))
