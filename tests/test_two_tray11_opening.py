"""A going-down play whose line is plain to see (``two_tray.opening``) gets the grid rules' own answer; the
lay-offs after each going-down line are those ``going_on`` finds for it.

:func:`~rummykit.rulesets.two_tray.opening.opens_plainly` says a going-down
turn has no fault without ``GridRules.going_down``'s search; each time it
says so, the search must find none either, and it must say so for the
listing's going-down plays (else it is no short cut).
"""

from __future__ import annotations

import random

from two_tray_games import play_seeded

from rummykit.blocks.grid import Put
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile
from rummykit.rulesets.two_tray.actions import Play
from rummykit.rulesets.two_tray.listing import free_row, going_on, going_on_each, laid_line, line_sets
from rummykit.rulesets.two_tray.opening import opens_plainly
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray

_BAG: list[Tile] = [*ALL_TILES[:52], *ALL_TILES[:52], JOKER, JOKER]


def _no_fault(grid: TileGrid, changes: tuple[Put[Tile], ...], threshold: int) -> bool:
    new = grid.changed(changes, GRID.is_joker)
    placed = [put.piece for put in changes if put.piece is not None]
    return GRID.going_down(grid, new, placed, threshold).fault is None


def _positions(games: int) -> list[tuple[TileGrid, list[tuple[Put[Tile], ...]], int]]:
    """Each position of a seat not yet down in seeded games: the grid, the listed plays' changes, the threshold."""
    seen: list[tuple[TileGrid, list[tuple[Put[Tile], ...]], int]] = []

    def keep(state: TwoTray) -> None:
        for seat in state.to_act:
            if not state.down[seat]:
                plays = [a.changes for a in state.legal_actions(seat) if isinstance(a, Play)]
                seen.append((state.grid, plays, state.threshold))

    play_seeded(games, keep)
    return seen


def test_listed_going_down_plays_are_plain_and_the_search_agrees() -> None:
    plain = 0
    for grid, plays, threshold in _positions(40):
        for changes in plays:
            if opens_plainly(grid, changes, threshold):
                plain += 1
                assert _no_fault(grid, changes, threshold), (grid.text(), [str(p) for p in changes])
            else:
                # Only a line worth less than the threshold is not plain (the listing lists none such).
                assert not _no_fault(grid, changes, threshold), (grid.text(), [str(p) for p in changes])
    assert plain > 100


def test_made_up_turns_plain_only_when_the_search_finds_no_fault() -> None:
    rng = random.Random(11)
    grids = [grid for grid, _, _ in _positions(6)] + [TileGrid()]
    plain = 0
    for _ in range(3000):
        grid = rng.choice(grids)
        row, col = free_row(grid)
        # A line near or in the grid, or apart from it; then a few more tiles anywhere near, some touching it.
        row += rng.choice((0, 0, -1, -2, -3, 1))
        col += rng.randrange(-2, 4)
        size = rng.randrange(2, 6)
        start = rng.randrange(1, 12)
        colour = rng.randrange(4)
        tiles = [
            JOKER if rng.random() < 0.15 else (ALL_TILES[colour * 13 + min(start + i, 13) - 1] if rng.random() < 0.8 else rng.choice(_BAG))
            for i in range(size)
        ]
        changes = [Put(row, col + i, t) for i, t in enumerate(tiles)]
        for _ in range(rng.choice((0, 0, 1, 2))):
            changes.append(Put(row + rng.randrange(-3, 3), col + rng.randrange(-2, size + 2), rng.choice(_BAG)))
        if rng.random() < 0.05:
            changes.append(Put(row, col + size, None))
        if len({p.cell for p in changes}) < len(changes):
            continue
        if any(p.piece is None and p.cell not in grid for p in changes):
            continue
        threshold = rng.choice((0, 10, 20, 30, 40))
        if opens_plainly(grid, tuple(changes), threshold):
            plain += 1
            assert _no_fault(grid, tuple(changes), threshold), (grid.text(), [str(p) for p in changes], threshold)
    assert plain > 200


def test_not_plain_shapes() -> None:
    grid = TileGrid.parse("0,0: R1 R2 R3", Tile.parse)
    r10, r11, r12, b12 = (Tile.parse(t) for t in ("R10", "R11", "R12", "B12"))
    line = [Put(2, 0, r10), Put(2, 1, r11), Put(2, 2, r12)]
    assert opens_plainly(grid, tuple(line), 30)
    assert not opens_plainly(grid, tuple(line), 34)  # worth 33
    assert not opens_plainly(grid, tuple(line[:2]), 0)  # a line of 2
    assert not opens_plainly(grid, (*line, Put(3, 2, b12)), 30)  # a tile touching the line
    assert opens_plainly(grid, (*line, Put(0, 3, Tile.parse("R4"))), 30)  # one away from it
    assert opens_plainly(grid, (Put(0, 3, Tile.parse("R4")), *line), 30)  # in any order
    assert not opens_plainly(grid, (*line, Put(2, 4, r10), Put(2, 5, r11), Put(2, 6, r12)), 30)  # two lines in a row
    assert not opens_plainly(grid, (*line, Put(3, 0, b12)), 30)  # an L
    assert not opens_plainly(grid, (Put(2, 0, r10), Put(3, 0, r11), Put(4, 0, r12)), 0)  # a line down
    assert not opens_plainly(grid, (*line, Put(0, 2, None)), 0)  # a cell emptied
    assert not opens_plainly(grid, (Put(0, 0, r10), Put(0, 1, r11), Put(0, 2, r12)), 0)  # filled cells


def test_going_on_each_is_going_on_for_each_line() -> None:
    rng = random.Random(13)
    grids = [grid for grid, _, _ in _positions(10)] + [TileGrid()]
    compared = 0
    for k, grid in enumerate(grids):
        for _ in range(3):
            tiles = rng.sample(_BAG, rng.randrange(6, 16))
            if k % 3 == 0:
                tiles += tiles[:2]  # repeats: a line's tile may stay on the tray
            sets = line_sets(tiles, down=False, threshold=rng.choice((0, 20, 30)))
            each = going_on_each(grid, tiles, sets)
            assert each == [going_on(grid, tiles, laid_line(grid, s)) for s in sets]
            compared += sum(len(ons) for ons in each)
    assert compared > 200
