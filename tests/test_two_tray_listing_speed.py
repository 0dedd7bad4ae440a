"""The two-tray listing's short cuts agree with the grid rules' own verdict on real positions.

The listing skips the grid rules' verdict where it can tell the answer from
the lines as laid (a lone joker laid where no joker touches, a new line laid
apart from the grid); here every such answer is compared with the verdict.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.blocks.grid import Put
from rummykit.blocks.grid_near import holds_near
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Event, GameState
from rummykit.melds.tile_lines import line_valid, read_line
from rummykit.melds.tiles import hand_sets
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, Tile
from rummykit.rulesets.two_tray.actions import Play
from rummykit.rulesets.two_tray.calls import call_fault, call_options
from rummykit.rulesets.two_tray.listing import (
    _call_options,
    _fails_near,
    _judged,
    extensions,
    free_row,
    listed_call,
    listed_holds,
    listing,
    new_lines,
)
from rummykit.rulesets.two_tray.open_cells import OpenCell, _fitting, open_cells_near
from rummykit.rulesets.two_tray.open_cells import open_cells as _open_cells
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray, _holds_key
from rummykit.sim import run_bots


def _valid(grid: TileGrid) -> bool:
    """The whole grid's verdict finds no problem (GRID.holds reads the same judgement its own way)."""
    return not GRID.verdict(grid).problems


def _open_cells_full(grid: TileGrid) -> tuple[OpenCell, ...]:
    """The open cells worked out from scratch (the listing works them out again only near a change)."""
    return open_cells_near(grid.cells, None, ())


def _reference_extensions(grid: TileGrid) -> list[Put[Tile]]:
    out: list[Put[Tile]] = []
    for cell, fits, *_ in _open_cells(grid):
        for tile in sorted(fits):
            put = Put(cell[0], cell[1], tile)
            if not GRID.verdict(grid.changed((put,), GRID.is_joker), focus=(cell,)).problems:
                out.append(put)
    return out


def _reference_new_lines(grid: TileGrid, tiles: Sequence[Tile], down: bool) -> list[tuple[Put[Tile], ...]]:
    row, col = free_row(grid)
    out = []
    for s in hand_sets(tiles):
        puts = tuple(Put(row, col + i, t) for i, t in enumerate(s))
        if not read_line(s).valid:
            continue
        new = grid.changed(puts, GRID.is_joker)
        cells = [p.cell for p in puts]
        verdict = GRID.verdict(new, focus=cells)
        if verdict.problems:
            continue
        if not down and GRID.points(new, verdict, cells) < 30:
            continue
        out.append(puts)
    return out


def test_lay_offs_and_new_lines_agree_with_the_verdict() -> None:
    checked = 0

    def check(state: GameState, _events: list[Event]) -> None:
        nonlocal checked
        assert isinstance(state, TwoTray)
        grid = state.grid
        assert _open_cells(grid) == _open_cells_full(grid)
        box = grid.bounds()
        assert free_row(grid) == ((0, 0) if box is None else (box[2] + 2, box[1]))
        # Tiles taken off and moved (as a rearranging turn does): worked out again near the change only.
        cells = sorted(grid.cells)
        if len(cells) > 4:
            gone = [cells[(checked * 7 + k * 13) % len(cells)] for k in range(3)]
            moved = Put(gone[0][0] + 1, gone[0][1] + 2, grid.cells[gone[0]])
            other = grid.changed((*(Put(r, c, None) for r, c in gone), moved), GRID.is_joker)
            _open_cells(grid)
            assert _open_cells(other) == _open_cells_full(other)
            free_row(grid)
            box = other.bounds()
            assert free_row(other) == ((0, 0) if box is None else (box[2] + 2, box[1]))
            # The play check judges only near the changes when the grid before holds.
            changed = [*gone, moved.cell]
            assert holds_near(GRID, other, changed, grid) == _valid(other)
            assert holds_near(GRID, other, changed, None) == _valid(other)
            assert extensions(other, ALL_TILES) == _reference_extensions(other)
        assert extensions(grid, ALL_TILES) == _reference_extensions(grid)
        # Jokers in many more places than play puts them (crossing lines, next to lay-off cells).
        if len(cells) > 2:
            picked = [cells[(checked * 5 + k * 11) % len(cells)] for k in range(1 + checked % 4)]
            jokered = grid.changed([Put(r, c, JOKER) for r, c in picked], GRID.is_joker)
            assert _open_cells(jokered) == _open_cells_full(jokered)
            assert free_row(jokered) == free_row(TileGrid(jokered.cells))
            assert extensions(jokered, ALL_TILES) == _reference_extensions(jokered)
            # A lay-off next to crossing jokers refused from two lines alone: the verdict finds a problem too.
            for cell, fits, _jokers, _joker_fits, _one_line, segments in _open_cells(jokered):
                if segments is not None:
                    for tile in sorted(fits - {JOKER}):
                        if _fails_near(jokered, _judged(jokered), cell, tile, segments) is not None:
                            put = Put(cell[0], cell[1], tile)
                            assert GRID.verdict(jokered.changed((put,), GRID.is_joker), focus=(cell,)).problems
            for cell, tile in sorted(jokered.cells.items()):
                if tile is JOKER:
                    assert _call_options(jokered, cell, _judged(jokered)) == tuple(call_options(jokered, cell))
                    for called in ALL_TILES:
                        assert listed_call(jokered, cell, called) == (call_fault(jokered, cell, called, ()) is None)
            # A lay-off next to the jokers: judged near it alone, as the play check judges it.
            for put in extensions(jokered, ALL_TILES)[:: 1 + checked % 5]:
                laid = jokered.changed((put,), GRID.is_joker)
                if GRID.holds(jokered):
                    assert holds_near(GRID, laid, [put.cell], jokered) == _valid(laid)
        for cell, tile in sorted(grid.cells.items()):
            if tile is JOKER:
                assert _call_options(grid, cell, _judged(grid)) == tuple(call_options(grid, cell))
                # The call check takes the listing's answer: call_fault's, every tile (the joker not called yet).
                for called in ALL_TILES:
                    assert listed_call(grid, cell, called) == (call_fault(grid, cell, called, ()) is None)
        assert GRID.holds(grid)
        # What the play check kept about this grid (after plays and calls) is the whole grid's verdict.
        kept = grid.cells_memo().get(_holds_key(grid))
        assert kept is None or kept == _valid(grid)
        # Every lay-off judged on this grid (or carried from the grid before): the whole grid's judgement, which
        # the play check takes from it.
        for (cell, tile), (ok, _reach) in _judged(grid).lay_offs.items():
            assert ok == _valid(grid.changed((Put(cell[0], cell[1], tile),), GRID.is_joker))
        # Single tiles put anywhere next to the grid, fitting or not: judged near the change as the whole grid.
        for k, (r, c) in enumerate(cells[:: 1 + checked % 7]):
            put = Put(r + 1, c, ALL_TILES[(checked + k * 17) % len(ALL_TILES)])
            if put.cell not in grid.cells:
                laid = grid.changed((put,), GRID.is_joker)
                assert holds_near(GRID, laid, [put.cell], grid) == _valid(laid)
        for action in state.legal_actions(state.current):
            if isinstance(action, Play):
                assert action == Play(action.player, action.tray, action.changes, action.down)
                assert action.changes == Play(action.player, action.tray, action.changes).changes
                # The play check takes a listed play's grid judgement from the listing: the whole grid's.
                if listed_holds(grid, action.changes):
                    assert _valid(grid.changed(action.changes, GRID.is_joker))
        if len(cells) > 2:
            # The same on a grid with jokers put in (lines crossing at jokers, calls), listed for both seats.
            for seat in range(len(state.players)):
                for tray in state.trays.names_of(seat):
                    tiles = [*state.trays.rack(seat, tray), JOKER]
                    listed = listing(
                        seat, [(tray, tiles)], jokered, down=True, threshold=30, pool_size=1, continuing=False, called=()
                    )
                    for action in listed:
                        if isinstance(action, Play) and GRID.holds(jokered):
                            assert listed_holds(jokered, action.changes)
                            assert _valid(jokered.changed(action.changes, GRID.is_joker))
        for seat in range(len(state.players)):
            tiles = state.trays.pieces(seat)
            for down in (False, True):
                assert new_lines(grid, tiles, down=down, threshold=30) == _reference_new_lines(grid, tiles, down)
        checked += 1

    for seed in range(6):
        state = new_game("two-tray", players=2, seed=seed)
        run_bots(state, [make_bot("random", "two-tray"), make_bot("greedy", "two-tray")], on_event=check)
    assert checked > 300


def test_line_valid_is_read_lines_validity() -> None:
    rng = random.Random(25)
    tiles = [*ALL_TILES, JOKER, JOKER, JOKER]
    numbered = [t for t in ALL_TILES if t.colour is not None]
    # Lines as the grid makes them: runs and groups with a tile or a joker changed, and any tiles at all.
    lines: list[tuple[Tile, ...]] = []
    for _ in range(20_000):
        n = rng.randint(1, 7)
        if rng.random() < 0.5:
            lines.append(tuple(rng.choice(tiles) for _ in range(n)))
            continue
        base = rng.choice(numbered)
        if rng.random() < 0.5:
            line = [Tile(base.colour, base.number + k) if base.number + k <= 13 else JOKER for k in range(n)]
        else:
            line = [Tile(c, base.number) for c in rng.sample(list(COLOURS), min(n, 4))]
        for _ in range(rng.randint(0, 2)):
            line[rng.randrange(len(line))] = rng.choice(tiles)
        lines.append(tuple(line))
    for laid in lines:
        assert line_valid(laid) == read_line(laid).valid, laid


def test_fitting_tiles_are_every_tile_that_makes_a_valid_line() -> None:
    """The tiles that fit between two segments (worked out from a few candidates) are every tile that fits."""
    rng = random.Random(27)
    tiles = [*ALL_TILES, JOKER, JOKER]
    numbered = [t for t in ALL_TILES if t.colour is not None]
    for _ in range(8_000):
        n = rng.randint(2, 6)
        base = rng.choice(numbered)
        if rng.random() < 0.4:
            line = [rng.choice(tiles) for _ in range(n)]
        elif rng.random() < 0.5:
            line = [Tile(base.colour, base.number + k) if base.number + k <= 13 else JOKER for k in range(n)]
        elif rng.random() < 0.5:
            line = [Tile(c, base.number) for c in rng.sample(list(COLOURS), min(n, 4))]
        else:
            # Groups with a colour repeated or jokers among them (a group's fitting tiles read from its colours).
            line = [rng.choice([Tile(c, base.number) for c in COLOURS] + [JOKER]) for _ in range(min(n, 4))]
        for _ in range(rng.randint(0, 1)):
            line[rng.randrange(len(line))] = rng.choice(tiles)
        cut = rng.randint(0, len(line))
        before, after = tuple(line[:cut]), tuple(line[cut:])
        expected = frozenset(t for t in ALL_TILES if line_valid((*before, t, *after)))
        assert _fitting(before, after) == expected, (before, after)


def test_fitting_tiles_at_every_place_of_short_lines() -> None:
    """Every cut of every line of 2 or 3 tiles of one colour's 1-4 and 10-13, one number's colours, and jokers
    (runs against the ends of 1..13, groups full or with a colour repeated, mixed lines): the one-pass reading of
    a cache miss gives every tile that fits, and a joker exactly when a numbered tile does (a numbered tile there)."""
    red, blue = COLOURS[0], COLOURS[1]
    pieces = [Tile(red, n) for n in (1, 2, 3, 4, 10, 11, 12, 13)] + [Tile(blue, 2), Tile(blue, 12)]
    pieces += [Tile(c, 3) for c in COLOURS[1:]] + [JOKER]
    lines: list[tuple[Tile, ...]] = [(a, b) for a in pieces for b in pieces]
    lines += [(a, b, c) for a in pieces for b in pieces for c in pieces if len({a.number, b.number, c.number}) <= 2]
    for line in lines:
        for cut in range(len(line) + 1):
            before, after = line[:cut], line[cut:]
            expected = frozenset(t for t in ALL_TILES if line_valid((*before, t, *after)))
            assert _fitting(before, after) == expected, (before, after)
            if any(t is not JOKER for t in line):
                # With a numbered tile there (three jokers make no line, so not without one).
                assert (JOKER in expected) == bool(expected - {JOKER}), (before, after)
