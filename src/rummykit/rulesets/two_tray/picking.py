"""Picking one two-tray action by its index in the listing, making only that action.

:func:`pick` answers ``listing(...)[choose(seat, len(listing(...)), rng)]`` (see
:func:`~rummykit.rulesets.two_tray.listing.listing`): the listing's parts are
counted (the draws or pass or end, each joker's call options, each playable
tray's new lines and lay-offs, or before going down each going-down line and
the lay-offs that may follow it) and only the action chosen is made.
``tests/test_two_tray_pick.py`` compares every index with the listing's own
action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.blocks.grid import Cell, Put
from rummykit.engine.core import Action
from rummykit.engine.rng import Rng
from rummykit.melds.tiles import TileSet
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray.actions import Call, Draw, End, Pass, Play
from rummykit.rulesets.two_tray.listing import (
    _call_options,
    _extension_cells,
    _joker_cells,
    _judged,
    _listed,
    _simple,
    free_row,
    going_on_cells,
    line_sets,
)
from rummykit.rulesets.two_tray.options import TileGrid

__all__ = ["pick"]


def pick(
    seat: int,
    playable: Sequence[tuple[str, Sequence[Tile]]],
    grid: TileGrid,
    choose: Callable[[int, int, Rng], int],
    rng: Rng,
    *,
    down: bool,
    threshold: int,
    pool_size: int,
    continuing: bool,
    called: Sequence[Cell],
) -> Action:
    """``actions[choose(seat, len(actions), rng)]`` for ``actions = listing(seat, playable, grid, ...)`` (the
    same keywords), making only the action chosen (``choose`` is asked once, with the listing's length)."""
    # The end, the draws (one per tray) or the pass come first; made only when chosen.
    simple = len(playable) if pool_size and not continuing else 1
    judged = _judged(grid)
    calls: list[tuple[Cell, tuple[Tile, ...]]] = []
    count = simple
    kept_calls = judged.calls
    for cell in _joker_cells(grid):
        if cell not in called:
            # The joker's options as kept with the grid (most listings), else worked out (_call_options keeps them).
            found = kept_calls.get(cell)
            options = _call_options(grid, cell, judged) if found is None else found[0]
            if options:
                calls.append((cell, options))
                count += len(options)
    trays = []
    going: list[tuple[str, list[TileSet], list[list[tuple[Cell, Tile]]]]] = []
    for name, tiles in playable:
        if not tiles:
            continue
        if down:
            lines = line_sets(tiles, down=True, threshold=threshold)
            cells = _extension_cells(grid, tiles, judged)
            trays.append((name, lines, cells))
            count += len(lines) + len(cells)
        else:
            # Each going-down line, then the line with each tile that may follow it (listing's order).
            laid = line_sets(tiles, down=False, threshold=threshold)  # each laid (made puts) only if chosen
            after = going_on_cells(grid, tiles, laid)
            going.append((name, laid, after))
            count += len(laid) + sum([len(ons) for ons in after])
    at = choose(seat, count, rng)
    if at < simple:
        if continuing:
            return _simple(End, seat, "")
        return _simple(Draw, seat, playable[at][0]) if pool_size else _simple(Pass, seat, "")
    at -= simple
    for cell, options in calls:
        if at < len(options):
            return Call(seat, cell[0], cell[1], options[at])
        at -= len(options)
    for name, lines, cells in trays:
        if at < len(lines):
            play = _listed(seat, name, _laid(grid, lines[at]))
        elif at < len(lines) + len(cells):
            (row, col), tile = cells[at - len(lines)]
            # Made afresh, not through listing's kept lay-offs: a picked one seldom comes again (14% of them in
            # random games), and each kept one is three more objects for the garbage collector to walk.
            play = _listed(seat, name, (Put(row, col, tile),))
        else:
            at -= len(lines) + len(cells)
            continue
        # The play check takes this play's grid judgement from here (listed_holds), as for a listed play.
        judged.listed[id(play.changes)] = play.changes
        return play
    for name, laid, after in going:
        for line, ons in zip(laid, after, strict=True):
            if at == 0:
                play = _listed(seat, name, _laid(grid, line))
                judged.listed[id(play.changes)] = play.changes
                return play
            if at <= len(ons):
                (row, col), tile = ons[at - 1]
                return Play(seat, name, (*_laid(grid, line), Put(row, col, tile)))
            at -= 1 + len(ons)
    raise IndexError(f"index {at} past the listing")


def _laid(grid: TileGrid, tiles: TileSet) -> tuple[Put[Tile], ...]:
    """:func:`~rummykit.rulesets.two_tray.listing.laid_line`, its puts made afresh: a picked line's seldom come
    again, and listing's kept puts would be more objects for the garbage collector to walk."""
    row, col = free_row(grid)
    return tuple([Put(row, col + i, t) for i, t in enumerate(tiles)])
