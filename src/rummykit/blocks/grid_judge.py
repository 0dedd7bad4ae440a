"""Whether a grid's lines hold, judged straight from its cells: the grid rules' yes-or-no, without words.

:meth:`GridRules.holds <rummykit.blocks.grid_rules.GridRules.holds>` asks
only whether a grid (or the part of it near some cells) breaks no rule; it
needs neither the problems' words nor the jokers' best readings that
:meth:`~rummykit.blocks.grid_rules.GridRules.verdict` works out. These
functions give that answer from the grid's cells and calls as plain
mappings, a line being the tuple of its cells:

* :func:`linked_lines`: the lines through some cells and every line joined
  to them through jokers (the lines a focused judgement reads);
* :func:`lines_hold`: whether every one of some lines reads validly with its
  calls and every joker lying in two of them can be one piece in both;
* :func:`covered`: whether a cell touches another piece.

``tests/test_two_tray_listing_speed.py`` and ``tests/test_grid.py`` compare
them with the verdict's judgement.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from rummykit.melds.base import MIN_SET, LineReader, LineReading

P = TypeVar("P")

Cell = tuple[int, int]

LineKey = tuple[bool, int, int, int]
"""A line as (across, row or column, first, last), as :class:`~rummykit.blocks.grid_cells.Line` holds it."""

__all__ = ["LineKey", "covered", "line_cells", "line_through", "lines_hold", "linked_lines"]


@functools.lru_cache(maxsize=1 << 12)
def line_cells(key: LineKey) -> tuple[Cell, ...]:
    """The cells of a line in reading order (lines recur from grid to grid: kept)."""
    across, fixed, start, end = key
    if across:
        return tuple([(fixed, c) for c in range(start, end + 1)])
    return tuple([(r, fixed) for r in range(start, end + 1)])


def line_through(on: Mapping[Cell, object], r: int, c: int, across: bool) -> LineKey:
    """The line ``across`` (or down) through the occupied cell ``(r, c)``: as far as the pieces run either way
    (first equal to last when the cell stands alone that way)."""
    if across:
        a = b = c
        while (r, a - 1) in on:
            a -= 1
        while (r, b + 1) in on:
            b += 1
        return (True, r, a, b)
    a = b = r
    while (a - 1, c) in on:
        a -= 1
    while (b + 1, c) in on:
        b += 1
    return (False, c, a, b)


def covered(on: Mapping[Cell, object], cell: Cell) -> bool:
    """Whether ``cell`` has an occupied neighbour (a piece there lies in a line)."""
    r, c = cell
    return (r, c - 1) in on or (r, c + 1) in on or (r - 1, c) in on or (r + 1, c) in on


def linked_lines(is_joker: Callable[[P], bool], on: Mapping[Cell, P], focus: Iterable[Cell]) -> list[LineKey]:
    """The lines of 2 or more cells through the occupied focus cells, and every line joined to those through a
    joker (the other line through it), each once (the lines of ``GridRules._linked_lines``, which the verdict reads)."""
    seen: dict[LineKey, None] = {}
    todo = []
    for cell in focus:
        if cell in on:
            todo.append((cell, True))
            todo.append((cell, False))
    while todo:
        (r, c), across = todo.pop()
        key = line_through(on, r, c, across)
        a, b = key[2], key[3]
        if b == a or key in seen:
            continue
        seen[key] = None
        for cell in line_cells(key):
            if is_joker(on[cell]):
                todo.append((cell, not across))
    return list(seen)


def lines_hold(
    read_line: LineReader[P],
    is_joker: Callable[[P], bool],
    on: Mapping[Cell, P],
    calls: Mapping[Cell, P],
    lines: Iterable[LineKey],
) -> bool:
    """Whether every one of ``lines`` reads validly (3 or more pieces, a reading that keeps each called joker's
    call) and the jokers can each be one piece in both lines through them (``lines`` hold both lines through
    each of their jokers): the verdict's judgement of those lines, without its words or the jokers' best readings."""
    found: list[tuple[tuple[Cell, ...], tuple[LineReading[P], ...]]] = []
    holders: dict[Cell, list[tuple[int, int]]] = {}
    for key in lines:
        cells = line_cells(key)
        if len(cells) < MIN_SET:
            return False
        pieces = tuple([on[c] for c in cells])
        readings = read_line(pieces).readings
        if not readings:
            return False
        jokers = [pos for pos, p in enumerate(pieces) if is_joker(p)]
        if calls:
            for pos, cell in enumerate(cells):
                called = calls.get(cell)
                if called is not None:
                    readings = tuple([r for r in readings if r.pieces[pos] == called])
                    if not readings:
                        return False
        for pos in jokers:
            holders.setdefault(cells[pos], []).append((len(found), pos))
        found.append((cells, readings))
    shared = [held for held in holders.values() if len(held) == 2]
    if not shared:
        # Each joker lies in one line only: any reading of that line reads it.
        return True
    # Lines joined by a shared joker are read together: some choice of one reading per line must give each
    # shared joker the same piece in both its lines.
    parent = list(range(len(found)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (i, _), (j, _) in shared:
        parent[find(i)] = find(j)
    components: dict[int, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    for first, second in shared:
        components.setdefault(find(first[0]), []).append((first, second))
    for pairs in components.values():
        if len(pairs) == 1:
            # Two lines sharing one joker: some reading of each gives it the same piece.
            (i, p), (j, q) = pairs[0]
            if {r.pieces[p] for r in found[i][1]}.isdisjoint([r.pieces[q] for r in found[j][1]]):
                return False
            continue
        members = sorted({i for pair in pairs for i, _ in pair})
        index = {i: k for k, i in enumerate(members)}
        checks = [(index[i], p, index[j], q) for (i, p), (j, q) in pairs]
        if not any(
            all(choice[a].pieces[p] == choice[b].pieces[q] for a, p, b, q in checks)
            for choice in itertools.product(*(found[i][1] for i in members))
        ):
            return False
    return True
