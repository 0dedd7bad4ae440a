"""The tiles solver's model: per-colour moves, groups, the problem, its values and rebuilding a table.

:mod:`rummykit.solve.tiles` describes the dynamic program and runs its
compiled search; this module holds what the search is given and what its
answer is turned back into (:func:`rebuild`). Every name here is also
imported by :mod:`rummykit.solve.tiles`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

from rummykit.melds.base import MIN_SET as MIN_SET
from rummykit.melds.tiles import MAX_GROUP
from rummykit.pieces.tiles import COLOURS as TILE_COLOURS
from rummykit.pieces.tiles import MAX_NUMBER

COLOURS = len(TILE_COLOURS)
TOP = MAX_NUMBER

# A run code: class (1, 2 or 3 meaning 3+) + 4 * trailing jokers (0..7).
_CLASS_MASK = 3

# Bit layout of a value: primary objective, rack-joker penalty, secondary objective.
PRIMARY_SHIFT = 32
JOKER_SHIFT = 16

MAX_THRESHOLD = 511
"""The highest initial-meld threshold the kernel's state holds (see ``kernel.MAX_THRESHOLD``)."""


# -- per-colour states ----------------------------------------------------------------

# A choice for one open run at a number: continue with a numbered tile, continue with a
# joker, end (completing a short run with jokers), or merge into a kept run arriving here.
NAT, JOK, END, MERGE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class ColourMove:
    """What one colour does at one number (for rebuilding the sets)."""

    choices: tuple[int, ...]  # per open run, in code order
    naturals: int  # numbered tiles of this colour and number used
    new_runs: int  # runs started here with a numbered tile
    groups: int  # numbered tiles given to groups (or to kept groups)
    dropped: int  # runs of 3+ ended here because they could not go on
    leads: tuple[int, int] = (0, 0)  # jokers before the first two runs started here (initial meld)


# -- groups ---------------------------------------------------------------------------


@cache
def group_partitions(ones: int, twos: int) -> tuple[tuple[int, int, tuple[tuple[int, ...], ...]], ...]:
    """Ways to make groups of numbered tiles of one number: ``ones`` colours give one tile,
    ``twos`` colours give two. Each way is (structural jokers, groups of three, groups),
    a group being a tuple of colour slots (0..ones-1 single, ones.. double); only ways
    that are best for some trade-off of jokers against parking room are kept.
    """
    counts = [1] * ones + [2] * twos
    found: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}

    def place(i: int, groups: list[list[int]]) -> None:
        if i == len(counts):
            if any(len(g) > MAX_GROUP for g in groups):
                return
            k = sum(max(0, MIN_SET - len(g)) for g in groups)
            threes = sum(1 for g in groups if max(len(g), MIN_SET) == MIN_SET)
            key = (k, threes)
            if key not in found:
                found[key] = tuple(tuple(g) for g in groups)
            return
        need = counts[i]
        for fresh in range(need + 1):
            for chosen in itertools.combinations(range(len(groups)), need - fresh):
                nxt = [list(g) for g in groups]
                for gi in chosen:
                    nxt[gi].append(i)
                nxt.extend([i] for _ in range(fresh))
                place(i + 1, nxt)

    place(0, [])
    pareto = [
        (k, t, g)
        for (k, t), g in found.items()
        if not any((k2 <= k and k2 + t2 >= k + t and (k2, t2) != (k, t)) for (k2, t2) in found)
    ]
    pareto.sort()
    return tuple(pareto)


# -- the problem ----------------------------------------------------------------------


@dataclass(frozen=True)
class RunBlock:
    """A kept run: colour index, first and last number it covers, its jokers, its table set."""

    colour: int
    lo: int
    hi: int
    jokers: int
    source: int


@dataclass(frozen=True)
class GroupBlock:
    """A kept group: its number, the colours of its numbered tiles (bit mask), size, jokers, set."""

    number: int
    colours: int
    size: int
    jokers: int
    source: int


@dataclass
class Problem:
    """Counts for the dynamic program (index ``[colour][number]``, numbers 1..13)."""

    table: list[list[int]]
    rack: list[list[int]]
    table_jokers: int
    rack_jokers: int
    run_blocks: tuple[RunBlock, ...] = ()
    group_blocks: tuple[GroupBlock, ...] = ()
    primary: tuple[int, ...] = field(default_factory=lambda: (0,) + (1,) * TOP)
    secondary: tuple[int, ...] = field(default_factory=lambda: tuple(range(TOP + 1)))
    joker_primary: int = 1
    joker_secondary: int = 30
    threshold: int | None = None
    """The initial meld: the meld value the new sets must reach (None: any play)."""


@dataclass
class Result:
    """The best play found: rack tiles used per cell, jokers placed, and the moves to rebuild it."""

    value: int
    used: list[list[int]]
    jokers_placed: int
    structural_jokers: int
    moves: list[
        tuple[int, int, tuple[int, ...], ColourMove, int]
    ]  # (number, colour, old runs, move, slot mask)
    closures: list[tuple[int, int, int, int, int, int]]  # (number, ones, twos, partition, slot mask, fourths)
    mirrored: bool = False
    """Found on the problem with its numbers mirrored (:func:`flipped`): ``rebuild`` turns it back."""


def value_of(primary: int, secondary: int) -> int:
    """A value from its parts: the primary objective first, then the secondary (and the joker penalty)."""
    return (primary << PRIMARY_SHIFT) + secondary


def primary_of(value: int) -> int:
    """The primary objective of a value (the lower parts are less than half a unit)."""
    return (value + (1 << (PRIMARY_SHIFT - 1))) >> PRIMARY_SHIFT


def secondary_of(value: int) -> int:
    """The tie-break part of a value: secondary objective minus a penalty per rack joker."""
    return value - (primary_of(value) << PRIMARY_SHIFT)


def upper_bound(problem: Problem) -> int:
    """The primary value if every rack tile in the problem were placed."""
    p = problem
    total = p.rack_jokers * p.joker_primary
    for c in range(COLOURS):
        for v in range(1, TOP + 1):
            total += p.rack[c][v] * p.primary[v]
    return total


@dataclass(slots=True)
class _Run:
    """A run being rebuilt: its cells (number, joker?) in order, class, trailing jokers."""

    colour: int
    cells: list[tuple[int, bool]]
    cls: int
    waiting: int
    sources: list[int]
    back: int = 0  # number at which a kept run rejoins the open runs

    @property
    def code(self) -> int:
        return _code_of(self)


def _code_of(run: _Run) -> int:
    """A run's code: its class (3 meaning 3+) and its trailing jokers."""
    cls = run.cls
    return (cls if cls < 3 else 3) | (run.waiting << 2)


@dataclass
class Built:
    """A rebuilt table: runs as (colour, cells) and groups as (number, colours, jokers)."""

    runs: list[tuple[int, list[tuple[int, bool]], list[int]]]
    groups: list[tuple[int, list[int], int, int | None]]  # number, colours, jokers, kept source


def rebuild(problem: Problem, result: Result, run_cells: dict[int, list[tuple[int, bool]]]) -> Built:
    """Turn the moves of a result into explicit runs and groups, jokers parked."""
    p = problem
    active: list[list[_Run]] = [[] for _ in range(COLOURS)]
    waiting_blocks: list[list[_Run]] = [[] for _ in range(COLOURS)]
    finished: list[tuple[int, list[tuple[int, bool]], list[int]]] = []
    groups: list[tuple[int, list[int], int, int | None]] = []
    arrivals: dict[tuple[int, int], list[RunBlock]] = {}
    if p.run_blocks:
        for rb in sorted(p.run_blocks, key=lambda b: b.source):
            arrivals.setdefault((rb.colour, rb.lo), []).append(rb)
    kept_groups: dict[int, list[GroupBlock]] = {}
    if p.group_blocks:
        for gb in sorted(p.group_blocks, key=lambda b: b.source):
            kept_groups.setdefault(gb.number, []).append(gb)

    def finish(run: _Run) -> None:
        cells = list(run.cells)
        if run.cls < MIN_SET:
            for _ in range(MIN_SET - run.cls):
                last = cells[-1][0]
                if last < TOP:
                    cells.append((last + 1, True))
                else:
                    cells.insert(0, (cells[0][0] - 1, True))
        finished.append((run.colour, cells, run.sources))

    moves_by_number: list[list[tuple[int, int, tuple[int, ...], ColourMove, int]]] = [
        [] for _ in range(TOP + 1)
    ]
    for m in result.moves:
        moves_by_number[m[0]].append(m)
    closure_by_number = {
        v: (ones, twos, pi, fourths) for v, ones, twos, pi, _mask, fourths in result.closures
    }
    for v in range(1, TOP + 1):
        to_groups: list[tuple[int, int]] = []  # (colour, count) for new groups
        slot_fill: dict[int, int] = {}  # slot bit -> colour
        for _v, c, codes, move, slot_mask in moves_by_number[v]:
            runs = active[c]
            if not (
                codes
                or runs
                or waiting_blocks[c]
                or slot_mask
                or move.new_runs
                or move.groups
                or move.dropped
                or move.choices
            ) and (not arrivals or (c, v) not in arrivals):
                continue  # nothing open, arriving or placed: nothing changes
            if len(runs) > 1:
                runs = sorted(runs, key=_code_of)
            if (
                tuple([(r.cls if r.cls < 3 else 3) | (r.waiting << 2) for r in runs]) if runs else ()
            ) != codes:
                raise AssertionError("rebuild out of step with the solver's states")
            arriving = list(arrivals.get((c, v), ())) if arrivals else []
            nxt: list[_Run] = []
            for run, ch in zip(runs, move.choices, strict=True):
                if ch == NAT:
                    run.cells.append((v, False))
                    run.cls += 1
                    run.waiting = 0
                    nxt.append(run)
                elif ch == JOK:
                    run.cells.append((v, True))
                    run.cls += 1
                    run.waiting += 1
                    nxt.append(run)
                elif ch == END:
                    finish(run)
                else:
                    block = arriving.pop(0)
                    run.cells.extend(run_cells[block.source])
                    run.sources.append(block.source)
                    run.cls = 3
                    run.waiting = 0
                    run.back = block.hi
                    waiting_blocks[c].append(run)
            for block in arriving:
                waiting_blocks[c].append(
                    _Run(c, list(run_cells[block.source]), 3, 0, [block.source], block.hi)
                )
            if move.new_runs:
                leads = move.leads
                for r in range(move.new_runs):
                    lead = leads[r] if r < len(leads) else 0
                    cells = (
                        [*((v - lead + i, True) for i in range(lead)), (v, False)] if lead else [(v, False)]
                    )
                    nxt.append(_Run(c, cells, 1 + lead, 0, []))
            blocks = waiting_blocks[c]
            if blocks:
                for run in list(blocks):
                    if run.back == v:
                        blocks.remove(run)
                        nxt.append(run)
            for _ in range(move.dropped):
                run = next(r for r in nxt if _code_of(r) == 3)
                nxt.remove(run)
                finish(run)
            if v == TOP:
                for run in nxt:
                    finish(run)
                nxt = []
            active[c] = nxt
            in_slots = 0
            if slot_mask:
                for bit in _bits(slot_mask):
                    slot_fill[bit] = c
                    in_slots += 1
            if move.groups - in_slots:
                to_groups.append((c, move.groups - in_slots))
        # Groups of this number.
        ones, twos, pi, fourths = closure_by_number[v]
        if to_groups:
            ones_colours = [c for c, k in to_groups if k == 1]
            twos_colours = [c for c, k in to_groups if k == 2]
        else:
            ones_colours = twos_colours = []
        if len(ones_colours) != ones or len(twos_colours) != twos:
            raise AssertionError("rebuild out of step with the solver's groups")
        if ones or twos:
            _k, _threes, template = group_partitions(ones, twos)[pi]
            slot_colour = ones_colours + twos_colours
            for g in template:
                colours = [slot_colour[i] for i in g]
                jokers = max(0, MIN_SET - len(colours))
                if fourths and len(colours) + jokers == MIN_SET:
                    fourths -= 1  # an initial meld's joker standing as the fourth tile
                    jokers += 1
                groups.append((v, colours, jokers, None))
        if fourths:
            raise AssertionError("rebuild out of step with the solver's groups of four")
        if kept_groups and v in kept_groups:
            bit = 1
            for gb in kept_groups[v]:
                colours = [c for c in range(COLOURS) if gb.colours >> c & 1]
                if gb.size == MIN_SET:
                    if bit in slot_fill:
                        colours.append(slot_fill[bit])
                    bit <<= 1
                groups.append((v, colours, gb.jokers, gb.source))
    # Park the jokers that are not structural: at run ends, then in groups of three; if
    # neither has room, split a long run (it has at least 6 numbered tiles).
    spare = result.jokers_placed - result.structural_jokers
    while spare:
        spare -= 1
        run_i = next((i for i, r in enumerate(finished) if len(r[1]) < TOP), None)
        if run_i is not None:
            cells = finished[run_i][1]
            if cells[-1][0] < TOP:
                cells.append((cells[-1][0] + 1, True))
            else:
                cells.insert(0, (cells[0][0] - 1, True))
            continue
        group_i = next((i for i, g in enumerate(groups) if len(g[1]) + g[2] == MIN_SET), None)
        if group_i is not None:
            v, colours, jokers, source = groups[group_i]
            groups[group_i] = (v, colours, jokers + 1, source)
            continue
        if not _split_a_run(finished):
            raise AssertionError("no room left to park a joker")
        spare += 1
    if p.threshold is not None or result.mirrored:  # searched mirrored: x stands for 14 - x
        finished = [(c, [(TOP + 1 - x, j) for x, j in reversed(cells)], src) for c, cells, src in finished]
        groups = [(TOP + 1 - v, colours, jokers, src) for v, colours, jokers, src in groups]
    return Built(finished, groups)


def flipped(problem: Problem) -> Problem:
    """The same problem with its numbers mirrored (x becomes 14 - x; blocks not allowed).

    Runs read the same both ways and so do the jokers' canonical places, so both
    problems have the same best value; a play found on the mirrored one is turned
    back by :func:`rebuild` (its result marked ``mirrored``, or an initial meld's).
    """
    p = problem
    if p.run_blocks or p.group_blocks:
        raise ValueError("kept sets are not mirrored")

    def flip(cells: list[int] | tuple[int, ...]) -> list[int]:
        return [cells[0], *(cells[TOP + 1 - x] for x in range(1, TOP + 1)), *cells[TOP + 1 :]]

    return Problem(
        [flip(row) for row in p.table],
        [flip(row) for row in p.rack],
        p.table_jokers,
        p.rack_jokers,
        primary=tuple(flip(p.primary)),
        secondary=tuple(flip(p.secondary)),
        joker_primary=p.joker_primary,
        joker_secondary=p.joker_secondary,
        threshold=p.threshold,
    )


def _split_a_run(runs: list[tuple[int, list[tuple[int, bool]], list[int]]]) -> bool:
    """Split some run into two valid runs (each 3+ tiles with a numbered tile); True if done."""
    for i, (colour, cells, sources) in enumerate(runs):
        for k in range(MIN_SET, len(cells) - MIN_SET + 1):
            left, right = cells[:k], cells[k:]
            if any(not j for _, j in left) and any(not j for _, j in right):
                runs[i] = (colour, left, sources)
                runs.append((colour, right, []))
                return True
    return False


def _bits(mask: int) -> list[int]:
    out = []
    bit = 1
    while bit <= mask:
        if mask & bit:
            out.append(bit)
        bit <<= 1
    return out
