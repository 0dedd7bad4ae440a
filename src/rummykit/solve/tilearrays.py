"""The tiles solver's problem and path arrays: what the compiled search reads, and its answer decoded.

:func:`_kernel_problem` fills the kernel's read-only problem array (its layout is in
:mod:`rummykit.solve.kernel`) from a :class:`~rummykit.solve.tilemodel.Problem`, and
:func:`_result_of` turns the path a search leaves behind into a
:class:`~rummykit.solve.tilemodel.Result`; :mod:`rummykit.solve.tiles` runs the searches.

A solver call makes several problems with one rack (the best play, then the tidy
step's trials, which differ only in their table and kept sets), so what depends on
the rack, the weights and the threshold alone (the *rack part*) is made once and
copied: the part used last is found by comparing what it was made from with the
problem (a copy of the rack's counts, the weights, the jokers, the threshold), the
few before it by a key holding all of that. Nothing here imports numpy: the arrays
come from the kernel module.
"""

from __future__ import annotations

import itertools
import threading
from functools import cache
from typing import TYPE_CHECKING

from rummykit.solve.tilemodel import (
    COLOURS,
    JOKER_SHIFT,
    MAX_THRESHOLD,
    MIN_SET,
    TOP,
    ColourMove,
    GroupBlock,
    Problem,
    Result,
    flipped,
    group_partitions,
    value_of,
)

if TYPE_CHECKING:
    from types import ModuleType

    from rummykit.solve.tiles import Ints


@cache
def _partition_table() -> tuple[list[int], list[int], list[int]]:
    """group_partitions for every (ones, twos), flattened for the kernel: offsets, jokers, threes."""
    offsets = [0]
    ks: list[int] = []
    threes: list[int] = []
    for ones in range(5):
        for twos in range(5):
            if ones + twos <= COLOURS:
                for k, t, _g in group_partitions(ones, twos):
                    ks.append(k)
                    threes.append(t)
            offsets.append(len(ks))
    return offsets, ks, threes


def _kernel_problem(problem: Problem, k: ModuleType) -> Ints:
    """The read-only problem array of the kernel (layout in :mod:`rummykit.solve.kernel`)."""
    p = problem if problem.threshold is None else _mirrored(problem)
    P = _rack_part(p, k).copy()  # its table cells, blocks and jokers are zero: set the others only
    cells = k.CELLS
    at = k.P_TABLE
    for row in p.table:
        if any(row):
            for v, n in enumerate(row):
                if n:
                    P[at + v] = n
        at += cells
    block_jokers = 0
    if p.run_blocks:
        ends: dict[int, int] = {}  # kept runs starting and ending at each cell, counted here
        arr, dep = k.P_ARR, k.P_DEP
        for rb in p.run_blocks:
            block_jokers += rb.jokers
            base = rb.colour * cells
            i = arr + base + rb.lo
            ends[i] = ends.get(i, 0) + 1
            i = dep + base + rb.hi
            ends[i] = ends.get(i, 0) + 1
        for i, n in ends.items():
            P[i] = n
    groups = p.group_blocks
    if groups:
        if len(groups) > 1:
            groups = tuple(sorted(groups, key=_source_of))
        slots: dict[int, int] = {}  # the slots of each number so far
        bits, acc, most = k.P_SLOT_BITS, k.P_SLOT_ACC, k.MAX_SLOTS
        for gb in groups:
            block_jokers += gb.jokers
            if gb.size == MIN_SET:
                i = slots.get(gb.number, 0)
                P[bits + gb.number * most + i] = 1 << i
                P[acc + gb.number * most + i] = (~gb.colours) & ((1 << COLOURS) - 1)
                slots[gb.number] = i + 1
        nslots = k.P_NSLOTS
        for number, n in slots.items():
            P[nslots + number] = n
    P[k.P_TOTAL] = p.table_jokers + p.rack_jokers + block_jokers
    if block_jokers or p.table_jokers:
        P[k.P_TABLE_JOKERS] = p.table_jokers + block_jokers
        P[k.P_START] = block_jokers << k.J_SHIFT
    return P


def _source_of(block: GroupBlock) -> int:
    return block.source


_RACK_PARTS_KEPT = 8
_chain = itertools.chain.from_iterable
_accumulate = itertools.accumulate


class _RackParts(threading.local):
    """The rack parts one thread keeps (see _rack_part): the one used last, with what it was
    made from, and a few before it by key."""

    def __init__(self) -> None:
        self.last: tuple[object, ...] | None = None
        self.parts: dict[tuple[object, ...], Ints] = {}


_RACK_PARTS = _RackParts()


def _rack_part(p: Problem, k: ModuleType) -> Ints:
    """A problem array holding what depends on the rack, the weights and the threshold
    only (the table's cells, blocks and jokers zero), kept for the next problems with the
    same rack (the tidy step's trials, a solve with and without it).

    The part used last is found by comparing what it was made from (a copy of the
    rack's counts, the weights, the jokers, the threshold) with the problem's, which is
    quicker than hashing the key of the others."""
    store = _RACK_PARTS  # one thread's
    made_from = (p.rack_jokers, p.primary, p.secondary, p.joker_primary, p.joker_secondary, p.threshold)
    last = store.last
    if last is not None and last[0] is k and last[2] == made_from and last[1] == p.rack:
        return last[3]  # type: ignore[return-value]
    key = (id(k), tuple(_chain(p.rack)), *made_from)
    parts = store.parts
    part = parts.get(key)
    if part is None:
        part = _rack_part_of(p, k)
        if len(parts) >= _RACK_PARTS_KEPT:
            del parts[next(iter(parts))]
        parts[key] = part
    # a copy of the rack's counts: the problem's rack may change afterwards
    store.last = (k, [list(row) for row in p.rack], made_from, part)
    return part


def _rack_part_of(p: Problem, k: ModuleType) -> Ints:
    P = _problem_template(k).copy()
    cells = k.CELLS
    P[k.P_RACK : k.P_RACK + COLOURS * cells] = list(_chain(p.rack))
    P[k.P_PRIMARY : k.P_PRIMARY + TOP + 1] = p.primary
    P[k.P_SECONDARY : k.P_SECONDARY + TOP + 1] = p.secondary
    # what the rack's tiles at each step onwards add (steps: number-major, colour-minor,
    # the fifth "colour" of a number being its groups, which adds nothing): the sums of
    # what each step adds, from the last step back, starting with the rack's jokers
    steps = TOP * 5
    jokers = p.rack_jokers * p.joker_primary
    jokers_full = p.rack_jokers * (value_of(p.joker_primary, p.joker_secondary) - (1 << JOKER_SHIFT))
    gain = [0] * steps
    gain_full = [0] * steps
    gain_meld = [0] * steps
    primary, secondary = p.primary, p.secondary
    for c, row in enumerate(p.rack):
        for v, n in enumerate(row):
            if n and 1 <= v <= TOP:
                at = (v - 1) * 5 + c
                gain[at] = n * primary[v]
                gain_full[at] = n * value_of(primary[v], secondary[v])
                gain_meld[at] = n * (
                    TOP + 1 - v
                )  # the initial meld's numbers are mirrored: x is worth 14 - x
    ahead = list(_accumulate(reversed(gain), initial=jokers))[::-1]
    ahead_full = list(_accumulate(reversed(gain_full), initial=jokers_full))[::-1]
    P[k.P_AHEAD : k.P_AHEAD + steps + 1] = ahead
    P[k.P_AHEAD_FULL : k.P_AHEAD_FULL + steps + 1] = ahead_full
    P[k.P_JP] = p.joker_primary
    P[k.P_JS] = p.joker_secondary
    P[k.P_RACK_JOKERS_FULL] = ahead_full[steps]  # the jokers' part of the whole value, every one placed
    if p.threshold is not None:
        P[k.P_INITIAL] = 1
        P[k.P_THRESHOLD] = p.threshold
        P[k.P_MELD_AHEAD : k.P_MELD_AHEAD + steps + 1] = list(_accumulate(reversed(gain_meld), initial=0))[
            ::-1
        ]
    return P


_TEMPLATES: dict[int, Ints] = {}


def _problem_template(k: ModuleType) -> Ints:
    """A problem array holding what every problem shares (the group partitions)."""
    template = _TEMPLATES.get(id(k))
    if template is None:
        template = k.new_problem()
        offsets, ks, threes = _partition_table()
        template[k.P_GP_OFF : k.P_GP_OFF + len(offsets)] = offsets
        template[k.P_GP_K : k.P_GP_K + len(ks)] = ks
        template[k.P_GP_T : k.P_GP_T + len(threes)] = threes
        _TEMPLATES[id(k)] = template
    return template


def _mirrored(problem: Problem) -> Problem:
    """An initial-meld problem with its numbers mirrored (x becomes 14 - x), checked.

    The kernel searches an initial meld from 13 down (it values a tile at ``x`` as
    ``14 - x``): the meld value then reaches the threshold, where the state stops
    counting it, after a few numbers, which keeps the states few.
    """
    p = problem
    if p.run_blocks or p.group_blocks or p.table_jokers or any(any(row) for row in p.table):
        raise ValueError("an initial meld is made from the rack alone")
    if p.threshold is None or not 0 <= p.threshold <= MAX_THRESHOLD:
        raise ValueError(f"an initial-meld threshold must be 0..{MAX_THRESHOLD}, not {p.threshold}")
    return flipped(p)


_DECODED: dict[tuple[int, ...], tuple[tuple[int, ...], ColourMove]] = {}
"""A path row's old runs and move, by the row (without the step: the same row means the
same thing at every step); moves are frozen, so decoded ones are shared."""
_DECODED_KEPT = 1 << 14


def _decoded(row: list[int], k: ModuleType) -> tuple[tuple[int, ...], ColourMove]:
    key = tuple(row)
    found = _DECODED.get(key)
    if found is None:
        packed = row[0]
        codes: list[int] = []
        while packed:
            codes.append(packed & k.CODE_MASK)
            packed >>= k.CODE_BITS
        choices = tuple((row[1] >> (2 * i)) & 3 for i in range(len(codes)))
        move = ColourMove(choices, row[2], row[3], row[4], row[5], (row[8] & 7, row[8] >> 3))
        if len(_DECODED) >= _DECODED_KEPT:
            _DECODED.clear()
        found = _DECODED[key] = (tuple(codes), move)
    return found


def _result_of(path: Ints, result: Ints, k: ModuleType) -> Result | None:
    if not result[0]:
        return None
    moves: list[tuple[int, int, tuple[int, ...], ColourMove, int]] = []
    closures: list[tuple[int, int, int, int, int, int]] = []
    used = [[0] * (TOP + 2) for _ in range(COLOURS)]
    append = moves.append
    rows = path.tolist()  # one row per step: number-major, the fifth of a number its groups
    get = _DECODED.get
    s = 0
    for v in range(1, TOP + 1):
        for c in range(COLOURS):
            row = rows[s]
            s += 1
            found = get(tuple(row))
            codes, move = found if found is not None else _decoded(row, k)
            used[c][v] = row[6]
            append((v, c, codes, move, row[7]))
        row = rows[s]
        s += 1
        closures.append((v, row[0], row[1], row[2], row[3], row[4]))
    return Result(int(result[1]), used, int(result[2]), int(result[3]), moves, closures)
