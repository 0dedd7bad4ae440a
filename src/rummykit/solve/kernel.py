"""The compiled search of the number-tile solver (numba).

This module holds the hot part of :mod:`rummykit.solve.tiles`: the moves of one
colour at one number, the successors of a state, and the two searches over the
states (a depth-first branch and bound, and a breadth-first sweep). The model,
the state layout and the argument that the joker handling is exact are in
:mod:`rummykit.solve.tiles`; this file follows the same steps in the same order,
so that it makes the same choices among equally good plays.

Everything here works on integers and flat numpy arrays so that numba can
compile it (``cache=True`` keeps the machine code between runs). The hot
helpers take few arrays on purpose: every array handed to a compiled function
costs two atomic reference-count updates, which dominated the run time when
the helpers took two dozen of them. So the problem is one read-only array
``P`` and all the mutable bookkeeping one array ``W``, both at fixed offsets.

Encodings
---------
* A *run code* is ``class | trailing_jokers << 2`` (class 1, 2 or 3 for 3+).
* The open runs of one colour are their codes sorted ascending, packed five
  bits each (``packed``), and numbered per search (``sid``).
* A state key packs four sids, the structural jokers used, the parking room,
  the number of colours giving one or two tiles to groups at this number and
  the kept-group slots filled at this number.
* A value packs the primary objective (high bits), a penalty per rack joker and
  the secondary objective.

The memo of moves and the rows of moves have a fixed size chosen by the
caller; when one is full the search raises ``IndexError`` and
:mod:`rummykit.solve.tiles` runs it again with larger ones. The searches'
tables of states grow in place.

Hash tables hold records (key, stamp, values side by side: one cache line per
probe). The helpers called for every state (:func:`_successors_py` and what it
calls) are compiled once each and inlined by LLVM into the searches, without
numba's reference counting (``_hot``); a literal argument would make numba
compile a second copy of a helper, so the callers pass typed values
(``_as_int(0)``, ``_as_bool(False)``). The parts called a few times a search or
less (``BY_ADDRESS``) are called through their address instead (see
:mod:`rummykit.solve.byaddress`), so that no compiled caller holds their code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import numpy.typing as npt
from numba.core.types import Array, NoneType, Tuple, UniTuple, boolean, int64

from rummykit.solve import tiles as model
from rummykit.solve.byaddress import address_of, call_at
from rummykit.solve.tiles import COLOURS, END, JOK, JOKER_SHIFT, MERGE, MIN_SET, NAT, PRIMARY_SHIFT, TOP

if TYPE_CHECKING:
    from numba.core.decorators import _JITWrapper
    from numba.core.dispatcher import Dispatcher

STEPS = TOP * 5

CODE_BITS = 5
CODE_MASK = (1 << CODE_BITS) - 1
MAX_RUNS = 12

SID_BITS = 11
SID_MASK = (1 << SID_BITS) - 1
MAX_SIDS = 1 << SID_BITS
SID_TABLE = MAX_SIDS * 2
J_SHIFT = SID_BITS * COLOURS
CAP_SHIFT = J_SHIFT + 4
P_SHIFT = CAP_SHIFT + 4
Q_SHIFT = P_SHIFT + 3
M_SHIFT = Q_SHIFT + 3
COLOUR_BITS = (1 << J_SHIFT) - 1
# The initial meld has no parking room and no kept groups: its key holds the meld value
# reached so far (capped at the threshold) in those fields, the low bits in the room's.
MELD_LOW = 4
MELD_FIELDS = (15 << CAP_SHIFT) | (((1 << (63 - M_SHIFT)) - 1) << M_SHIFT)
MAX_THRESHOLD = model.MAX_THRESHOLD
if MAX_THRESHOLD >> MELD_LOW >= 1 << (63 - M_SHIFT):
    raise AssertionError("the initial meld's value does not fit in a state key")

NEG = -(1 << 62)

# -- the problem array P (read-only) ------------------------------------------------------
CELLS = TOP + 2  # numbers 0..14, index [colour * CELLS + number]
MAX_SLOTS = 8
P_TABLE = 0
P_RACK = P_TABLE + COLOURS * CELLS
P_ARR = P_RACK + COLOURS * CELLS
P_DEP = P_ARR + COLOURS * CELLS
P_SLOT_BITS = P_DEP + COLOURS * CELLS  # [number * MAX_SLOTS + i]
P_SLOT_ACC = P_SLOT_BITS + CELLS * MAX_SLOTS
P_NSLOTS = P_SLOT_ACC + CELLS * MAX_SLOTS
P_PRIMARY = P_NSLOTS + CELLS
P_SECONDARY = P_PRIMARY + CELLS
P_AHEAD = P_SECONDARY + CELLS
P_AHEAD_FULL = P_AHEAD + STEPS + 1
P_GP_OFF = P_AHEAD_FULL + STEPS + 1  # [ones * 5 + twos], 26 entries
MAX_PARTITIONS = 96
P_GP_K = P_GP_OFF + 26
P_GP_T = P_GP_K + MAX_PARTITIONS
P_TOTAL = P_GP_T + MAX_PARTITIONS
P_TABLE_JOKERS = P_TOTAL + 1
P_JP = P_TOTAL + 2
P_JS = P_TOTAL + 3
P_START = P_TOTAL + 4
P_RELAXED = P_TOTAL + 5
P_RACK_JOKERS_FULL = P_TOTAL + 6  # the most the rack's jokers can add to the whole value
P_INITIAL = P_TOTAL + 7  # 1: the initial meld (jokers explicit, the meld value in the key)
P_THRESHOLD = P_TOTAL + 8  # the meld value the initial meld must reach
P_MELD_AHEAD = P_TOTAL + 9  # [step]: the most the rack's numbered tiles can still add to it
P_SIZE = P_MELD_AHEAD + STEPS + 1

# -- the work array W (mutable) -----------------------------------------------------------
W_POOL_USED = 0
W_MEMO_USED = 1
W_SIDS = 2
W_MEMO_SIZE = 3
W_POOL_SIZE = 4
W_RELAX_SIDS = 5  # colour states numbered when the relaxation was worked out (0: not yet)
W_RELAX_GEN = 6  # how many relaxations this work array has held (the current one's rows carry it)
# the addresses of the compiled functions called through them (see BY_ADDRESS)
W_AT_OPTIONS = 7
W_AT_DEPTH_FIRST_LOOP = 8
W_AT_SWEEP_ROWS = 9
W_AT_FILL_PATH_ROW = 10
W_AT_INITIAL_SUCCESSORS = 11
W_AT_SUCCESSORS = 12
W_AT_REACHABLE_RUNS = 13
W_AT_GROUP_NEED = 14
W_SCRATCH = 16  # 80 cells for the successors
# scratch arrays of the move generator (views into the work array, so nothing is allocated)
OPT_KEYS = 256
OPT_ENTRIES = 1024
ENT_WIDTH = 9
W_OPT_RUNS = 96
W_OPT_ALLOWED = W_OPT_RUNS + MAX_RUNS
W_OPT_NALLOWED = W_OPT_ALLOWED + MAX_RUNS * 4
W_OPT_IDX = W_OPT_NALLOWED + MAX_RUNS
W_OPT_KEPT = W_OPT_IDX + MAX_RUNS
W_OPT_CODES = W_OPT_KEPT + MAX_RUNS
W_OPT_ROW = W_OPT_CODES + MAX_RUNS * 2 + 8
W_OPT_KEYS = W_OPT_ROW + 16
W_OPT_ENT = W_OPT_KEYS + OPT_KEYS * 5
W_OPT_OUT = W_OPT_ENT + OPT_ENTRIES * ENT_WIDTH
# Columns of an option row.
O_SID, O_GROUPS, O_USED, O_DJ, O_CAP, O_CHOICES, O_NAT, O_NEW, O_DROPPED = range(9)
O_WIDTH = 9
# The choices column also holds, for the initial meld, what the move's jokers add to the
# meld value and the leading jokers of its first two new runs (the rows stay narrow).
CHOICE_BITS = (1 << 32) - 1
LEAD_SHIFT = 32
MELD_SHIFT = 40
# Written with the relaxation: at [(number * COLOURS + colour) * 25 + ones * 5 + twos], the
# fewest jokers that can complete the groups of that number once that colour has moved and
# ``ones`` colours give one tile to them, ``twos`` two (the colours still to move there
# adding what their tiles allow).
W_GROUP_NEED = W_OPT_OUT + OPT_ENTRIES * O_WIDTH  # the out rows are option rows
W_HEADER = W_GROUP_NEED + CELLS * COLOURS * 25

# Columns of a path row (one per step).
PATH_WIDTH = 9

# Strategies of :func:`search`.
REACH = 1
SWEEP = 2
BEAM = 3  # a sweep keeping the ``node_limit`` most promising states of each layer: a good play, fast
ABOVE = 4  # depth-first for a play strictly better than ``incumbent`` (a play known already)

MAX_SUCC = 1024
REC = 4  # cells per record of the memo and the searches' state tables: key, stamp, two values
DEPTH_FIRST_START = 1 << 10  # records the depth-first search's table starts with (it grows)

IntArray = npt.NDArray[np.int64]
"""Every array of the kernel: flat or two-dimensional, of 64-bit integers."""
_A1 = Array(int64, 1, "C")
_A2 = Array(int64, 2, "C")



def _njit(**options: object) -> _JITWrapper:
    """``numba.njit`` with options its type stubs leave out (``_nrt``)."""
    wrapper: _JITWrapper = numba.njit(**options)  # type: ignore[call-overload]
    return wrapper


_jit = _njit(cache=True, nogil=True, _nrt=True)  # explicit: not inherited from a caller
_inline = numba.njit(cache=True, nogil=True, inline="always")
# Compiled once, then inlined by LLVM into each caller: no copy of the function's typing and
# lowering per caller (as ``inline="always"`` makes), no call in the hot loop. These helpers
# allocate nothing, so they run without numba's reference counting (``_nrt=False``): the
# arrays they take are borrowed from the caller, and no atomic count is touched per call.
_hot = _njit(cache=True, nogil=True, forceinline=True, _nrt=False)


JOKER_SLOTS = 5  # jokers left 0..4 (the relaxation is skipped with more jokers)
# A row of the relaxation's table: the relaxation that wrote it (see W_RELAX_GEN), then one
# cell per number of jokers left. Rows of an earlier relaxation are stale; nothing is zeroed
# between two relaxations.
RELAX_ROW = JOKER_SLOTS + 1
RELAX_CELLS = COLOURS * CELLS * MAX_SIDS * RELAX_ROW


def work_size(memo_size: int, pool_size: int) -> int:
    """Cells of a work array for a memo of ``memo_size`` (a power of two) and a pool of rows."""
    return W_HEADER + REC * memo_size + 3 * SID_TABLE + MAX_SIDS + RELAX_CELLS + pool_size * O_WIDTH


def new_problem() -> IntArray:
    """An empty problem array (filled by :mod:`rummykit.solve.tiles`)."""
    return np.zeros(P_SIZE, np.int64)


def new_path() -> IntArray:
    """An array for a path: one row per step."""
    return np.zeros((STEPS, PATH_WIDTH), np.int64)


def new_result() -> IntArray:
    """An array for a search's answer (found, full value, jokers placed, structural jokers, finished,
    states visited)."""
    return np.zeros(6, np.int64)


def new_work(memo_size: int, pool_size: int) -> IntArray:
    """A work array, initialised only where a search reads before it writes.

    It is allocated uninitialised on purpose: zeroing several megabytes per solve
    cost more than most solves once the C library stopped mapping fresh pages
    for blocks this size."""
    w = np.empty(work_size(memo_size, pool_size), np.int64)
    w[:W_SCRATCH] = 0
    for cell, address in _addresses():
        w[cell] = address
    w[W_MEMO_SIZE] = memo_size
    w[W_POOL_SIZE] = pool_size
    w[W_HEADER + 1 : W_HEADER + REC * memo_size : REC] = -1  # the memo's records: no stamp
    sid_keys = W_HEADER + REC * memo_size
    sid_stamps = sid_keys + SID_TABLE
    w[sid_stamps : sid_stamps + SID_TABLE] = -1
    # colour state 0 is "no open runs", the start of every colour: number it here, as
    # _sid would (in plain Python, so that making a work array compiles nothing)
    at = _slot_py(w, sid_keys, sid_stamps, SID_TABLE, 0, 0, False)
    w[sid_keys + at] = 0
    w[sid_stamps + at] = 0
    w[sid_stamps + SID_TABLE + at] = 0
    w[sid_stamps + 2 * SID_TABLE] = 0
    w[W_SIDS] = 1
    relaxed = sid_stamps + 2 * SID_TABLE + MAX_SIDS
    w[relaxed : relaxed + RELAX_CELLS : RELAX_ROW] = -1  # no row written by any relaxation
    return w


# -- hash tables on flat arrays --------------------------------------------------------------

_MIX1 = 0x5851F42D4C957F2D
_MIX2 = 0x2545F4914F6CDD1D
_LOW31 = (1 << 31) - 1
_LOW32 = (1 << 32) - 1
_LOW35 = (1 << 35) - 1


def _slot_py(a: IntArray, keys: int, stamps: int, size: int, key: int, stamp: int, generational: bool) -> int:
    """The slot (0..size-1) holding (key, stamp) in the table whose keys start at ``a[keys]``
    and stamps at ``a[stamps]``, or the free slot where it belongs. A slot is free when its
    stamp is -1; in a *generational* table also when its stamp differs (an earlier layer)."""
    mask = size - 1
    h = key + stamp * _MIX2
    h ^= (h >> 33) & _LOW31
    h *= _MIX1
    h ^= (h >> 29) & _LOW35
    h *= _MIX2
    h ^= (h >> 32) & _LOW32
    i = h & mask
    while True:
        st = a[stamps + i]
        if generational:
            if st != stamp or a[keys + i] == key:
                return i
        elif st == -1 or (st == stamp and a[keys + i] == key):
            return i
        i = (i + 1) & mask


_slot = _inline(_slot_py)


def _as_int_py(x: int) -> int:
    """``x`` typed as a plain 64-bit integer: a literal argument (``0``) would make numba
    compile a second copy of the function it is passed to."""
    return int(np.int64(x))


_as_int = _inline(_as_int_py)


def _as_bool_py(x: bool) -> bool:
    """``x`` typed as a plain truth value (see :func:`_as_int_py`)."""
    return bool(np.bool_(x))


_as_bool = _inline(_as_bool_py)

def _slot_rec_py(a: IntArray, base: int, size: int, key: int, stamp: int, generational: bool) -> int:
    """:func:`_slot_py` for a table of records from ``a[base]`` on (``a[base + REC * i]`` the
    key, the stamp next to it, then the values): one cache line per probe, not one per field."""
    mask = size - 1
    h = key + stamp * _MIX2
    h ^= (h >> 33) & _LOW31
    h *= _MIX1
    h ^= (h >> 29) & _LOW35
    h *= _MIX2
    h ^= (h >> 32) & _LOW32
    i = h & mask
    while True:
        st = a[base + REC * i + 1]
        if generational:
            if st != stamp or a[base + REC * i] == key:
                return i
        elif st == -1 or (st == stamp and a[base + REC * i] == key):
            return i
        i = (i + 1) & mask


_slot_rec = _inline(_slot_rec_py)


def _new_records_py(size: int) -> IntArray:
    """A table of ``size`` empty records (stamp -1)."""
    t = np.empty(REC * size, np.int64)
    for i in range(size):
        t[REC * i + 1] = -1
    return t


_new_records = _inline(_new_records_py)


def _after_memo_py(w: IntArray) -> int:
    """Where the segments after the memo start in ``w``: the table numbering the colour
    states (keys, stamps, numbers, then the packed runs of each number), the
    relaxation's table, then the pool of moves."""
    return int(W_HEADER + REC * w[W_MEMO_SIZE])


_after_memo = _inline(_after_memo_py)


def _sid_py(w: IntArray, packed: int) -> int:
    """The number of a set of open runs (numbered in order of first use)."""
    keys = _after_memo(w)
    stamps = keys + SID_TABLE
    vals = stamps + SID_TABLE
    i = _slot(w, keys, stamps, SID_TABLE, packed, 0, False)
    if w[stamps + i] == 0:
        return int(w[vals + i])
    sid = w[W_SIDS]
    if sid >= MAX_SIDS:
        raise OverflowError("too many distinct colour states")
    w[W_SIDS] = sid + 1
    w[keys + i] = packed
    w[stamps + i] = 0
    w[vals + i] = sid
    w[vals + SID_TABLE + sid] = packed
    return int(sid)


_sid = _jit(_sid_py)


def _packed_of_py(w: IntArray, sid: int) -> int:
    return int(w[_after_memo(w) + 3 * SID_TABLE + sid])


_packed_of = _inline(_packed_of_py)


def _relaxed_py(w: IntArray) -> int:
    """Where the relaxation's table starts in ``w``: at ``((colour * CELLS + number) *
    MAX_SIDS + sid) * RELAX_ROW``: the relaxation that wrote it (the row is not worked out
    unless that is ``w[W_RELAX_GEN]``), then at ``1 + jokers_left``: -1 if that colour
    cannot be completed from there, else 1 + the most primary value its rack tiles can
    still add from that number on."""
    return _after_memo(w) + 3 * SID_TABLE + MAX_SIDS


_relaxed = _inline(_relaxed_py)


def _pool_py(w: IntArray) -> int:
    """Where the option rows start in ``w``."""
    return _relaxed(w) + RELAX_CELLS


_pool = _inline(_pool_py)


def _unpack_py(packed: int, out: IntArray) -> int:
    n = 0
    while packed:
        out[n] = packed & CODE_MASK
        packed >>= CODE_BITS
        n += 1
    return n


_unpack = _jit(_unpack_py)


def _pack_sorted_py(codes: IntArray, n: int) -> int:
    """Sort ``codes[:n]`` ascending and pack them (smallest in the low bits)."""
    for i in range(1, n):
        x = codes[i]
        k = i - 1
        while k >= 0 and codes[k] > x:
            codes[k + 1] = codes[k]
            k -= 1
        codes[k + 1] = x
    packed = 0
    for i in range(n - 1, -1, -1):
        packed = (packed << CODE_BITS) | codes[i]
    return packed


_pack_sorted = _jit(_pack_sorted_py)


def _run_counts_py(packed: int) -> tuple[int, int, int, int]:
    """Open runs as (the runs ending in jokers, packed; runs of 1, of 2, of 3+ that do not)."""
    jokered = 0
    ones = twos = threes = 0
    while packed:
        code = packed & CODE_MASK
        packed >>= CODE_BITS
        if code >> 2:
            jokered = (jokered << CODE_BITS) | code
        elif code == 1:
            ones += 1
        elif code == 2:
            twos += 1
        else:
            threes += 1
    return jokered, ones, twos, threes


_run_counts = _inline(_run_counts_py)


def _popcount_py(x: int) -> int:
    count = 0
    while x:
        count += x & 1
        x >>= 1
    return count


_popcount = _inline(_popcount_py)


def _dominates_py(a: int, b: int) -> bool:
    """Open runs ``a`` are at least as good as ``b`` (runs ending in jokers must agree)."""
    if a == b:
        return True
    ja, a1, a2, a3 = _run_counts(a)
    jb, b1, b2, b3 = _run_counts(b)
    if ja != jb:
        return False
    return (
        a1 <= b1
        and a1 + a2 <= b1 + b2
        and b3 <= a3
        and b2 + b3 <= a2 + a3
        and b1 + b2 + b3 <= a1 + a2 + a3
    )


_dominates = _jit(_dominates_py)


def _grow_py(rows: IntArray) -> IntArray:
    bigger = np.empty((rows.shape[0] * 2, rows.shape[1]), np.int64)
    for i in range(rows.shape[0]):
        for col in range(rows.shape[1]):
            bigger[i, col] = rows[i, col]
    return bigger


_grow = _jit(_grow_py)


def _options_py(
    packed: int,
    table: int,
    rack: int,
    jleft: int,
    last: bool,
    arrivals: int,
    departures: int,
    next_supply: int,
    jokers: int,
    prune: bool,
    explicit: bool,
    v: int,
    work: IntArray,
) -> tuple[int, int]:
    """Every useful move of one colour at number ``v`` from its open runs ``packed``,
    appended to the pool of ``work``; returns (first row, number of rows).

    ``table`` numbered tiles of this colour and number must be used and up to ``rack``
    more may be; ``arrivals`` kept runs start here and ``departures`` end here;
    ``next_supply`` is how many runs could go on at the next number without jokers.
    Of moves reaching the same runs, groups and jokers, only those not beaten in rack
    tiles used, parking room and meld value together are kept. With ``prune`` (parking
    room already plentiful) a move is also dropped when another of the same groups uses
    as many rack tiles, no more jokers, and leaves open runs at least as good.

    With ``explicit`` (the initial meld, see :mod:`rummykit.solve.tiles`) every joker
    stands at a number: runs may end in jokers, new runs may start with jokers (at
    most two runs, the copies of a tile), there is no parking room, and each move
    records what its jokers add to the meld value. The initial meld's numbers are
    mirrored (the search goes from 13 down), so a tile at ``x`` is worth ``14 - x``.

    Rows: new sid, tiles to groups, rack tiles used, structural jokers, parking room,
    choices (two bits per open run; above them the leading jokers of the first two new
    runs, 3 bits each, and what the jokers add to the meld value), numbered tiles used,
    runs started, runs dropped.
    """
    runs = work[W_OPT_RUNS : W_OPT_RUNS + MAX_RUNS]
    n = _unpack(packed, runs)
    room = 0 if explicit else jokers
    allowed = work[W_OPT_ALLOWED : W_OPT_ALLOWED + MAX_RUNS * 4].reshape((MAX_RUNS, 4))
    nallowed = work[W_OPT_NALLOWED : W_OPT_NALLOWED + MAX_RUNS]
    for i in range(n):
        k = 0
        allowed[i, k] = NAT
        k += 1
        allowed[i, k] = JOK
        k += 1
        if explicit or runs[i] >> 2 == 0:
            allowed[i, k] = END
            k += 1
        if arrivals:
            allowed[i, k] = MERGE
            k += 1
        nallowed[i] = k
    # keys: new runs, groups, jokers, first and last of the chain of its live entries
    keys = work[W_OPT_KEYS : W_OPT_KEYS + OPT_KEYS * 5].reshape((OPT_KEYS, 5))
    nkeys = 0
    # entries: rack tiles used, cap, choices, naturals, runs started, runs dropped, next in
    # chain, meld value of the jokers, leading jokers
    ent = work[W_OPT_ENT : W_OPT_ENT + OPT_ENTRIES * ENT_WIDTH].reshape((OPT_ENTRIES, ENT_WIDTH))
    nent = 0
    idx = work[W_OPT_IDX : W_OPT_IDX + MAX_RUNS]
    for i in range(MAX_RUNS):
        idx[i] = 0
    kept = work[W_OPT_KEPT : W_OPT_KEPT + MAX_RUNS]
    codes = work[W_OPT_CODES : W_OPT_CODES + MAX_RUNS * 2 + 8]
    while True:
        # one combination: idx[i] indexes allowed[i]
        nat = 0
        merges = 0
        dj = 0
        jm = 0  # what the jokers placed add to the meld value (explicit only)
        nkept = 0
        choices = 0
        for i in range(n):
            ch = allowed[i, idx[i]]
            choices |= ch << (2 * i)
            code = runs[i]
            cls = code & 3
            w = code >> 2
            if ch == NAT:
                nat += 1
                kept[nkept] = min(cls + 1, 3)
                nkept += 1
            elif ch == JOK:
                dj += 1
                jm += TOP + 1 - v
                kept[nkept] = min(cls + 1, 3) | ((w + 1) << 2)
                nkept += 1
            elif ch == END:
                # the run ended at v - 1; a short one is completed with jokers at v, v + 1
                # (or, past the top, before its start)
                if cls < 3:
                    dj += MIN_SET - cls
                    jm += TOP + 1 - v
                    if cls == 1:
                        jm += TOP + 1 - (v + 1 if v < TOP else v - 2)
            else:
                merges += 1
        if merges <= arrivals and dj <= jleft:
            standalone = arrivals - merges
            for used_here in range(max(table, nat), table + rack + 1):
                rest = used_here - nat
                for new_runs in range(rest + 1):
                    groups = rest - new_runs
                    # leading jokers of the first two new runs (explicit only)
                    most_lead = min(jleft - dj, v - 1) if explicit and new_runs else 0
                    for lead1 in range(most_lead + 1):
                        for lead2 in range(min(lead1, jleft - dj - lead1) + 1 if new_runs >= 2 else 1):
                            ncodes = 0
                            for i in range(nkept):
                                codes[ncodes] = kept[i]
                                ncodes += 1
                            for r in range(new_runs):
                                lead = lead1 if r == 0 else lead2 if r == 1 else 0
                                codes[ncodes] = min(1 + lead, 3)
                                ncodes += 1
                            for _ in range(departures):
                                codes[ncodes] = 3
                                ncodes += 1
                            djx = dj + lead1 + lead2
                            meld = jm
                            if explicit:
                                meld += lead1 * (TOP + 1 - v) + lead1 * (lead1 + 1) // 2
                                meld += lead2 * (TOP + 1 - v) + lead2 * (lead2 + 1) // 2
                            else:
                                meld = 0
                            capx = room if new_runs + standalone else 0
                            dropped = 0
                            ok = True
                            if last:
                                # every run ends here; a short one is completed before its start
                                for i in range(ncodes):
                                    if codes[i] >> 2 and not explicit:
                                        ok = False
                                        break
                                    cls = codes[i] & 3
                                    if cls < 3:
                                        djx += MIN_SET - cls
                                        if explicit:
                                            meld += TOP + 1 - (v - 2)
                                            if cls == 1:
                                                meld += TOP + 1 - (v - 1)
                                ncodes = 0
                            else:
                                waiting = 0
                                threes = 0
                                for i in range(ncodes):
                                    if codes[i] >> 2:
                                        waiting += 1
                                    elif codes[i] == 3:
                                        threes += 1
                                supply = next_supply + jleft - djx
                                if waiting > supply and not explicit:
                                    ok = False
                                elif threes > supply:
                                    dropped = threes - supply
                                    # remove `dropped` codes equal to 3
                                    left = dropped
                                    m = 0
                                    for i in range(ncodes):
                                        if left and codes[i] == 3:
                                            left -= 1
                                            continue
                                        codes[m] = codes[i]
                                        m += 1
                                    ncodes = m
                            if not ok or djx > jleft:
                                continue
                            new_packed = _pack_sorted(codes, _as_int(ncodes))
                            # the key's index
                            kidx = -1
                            for q in range(nkeys):
                                if keys[q, 0] == new_packed and keys[q, 1] == groups and keys[q, 2] == djx:
                                    kidx = q
                                    break
                            if kidx < 0:
                                if nkeys == keys.shape[0]:
                                    keys = _grow(keys)
                                keys[nkeys, 0] = new_packed
                                keys[nkeys, 1] = groups
                                keys[nkeys, 2] = djx
                                keys[nkeys, 3] = -1
                                keys[nkeys, 4] = -1
                                kidx = nkeys
                                nkeys += 1
                            used = used_here - table
                            # a live entry of the same key as good in every respect beats this one
                            beaten = False
                            e = keys[kidx, 3]
                            while e >= 0:
                                if ent[e, 0] >= used and ent[e, 1] >= capx and ent[e, 7] >= meld:
                                    beaten = True
                                    break
                                e = ent[e, 6]
                            if beaten:
                                continue
                            # drop the live entries this one beats, keeping the others in order
                            before = -1
                            e = keys[kidx, 3]
                            while e >= 0:
                                after = ent[e, 6]
                                if used >= ent[e, 0] and capx >= ent[e, 1] and meld >= ent[e, 7]:
                                    if before < 0:
                                        keys[kidx, 3] = after
                                    else:
                                        ent[before, 6] = after
                                    if keys[kidx, 4] == e:
                                        keys[kidx, 4] = before
                                else:
                                    before = e
                                e = after
                            if nent == ent.shape[0]:
                                ent = _grow(ent)
                            ent[nent, 0] = used
                            ent[nent, 1] = capx
                            ent[nent, 2] = choices
                            ent[nent, 3] = used_here
                            ent[nent, 4] = new_runs
                            ent[nent, 5] = dropped
                            ent[nent, 6] = -1
                            ent[nent, 7] = meld
                            ent[nent, 8] = lead1 | (lead2 << 3)
                            if keys[kidx, 4] < 0:
                                keys[kidx, 3] = nent
                            else:
                                ent[keys[kidx, 4], 6] = nent
                            keys[kidx, 4] = nent
                            nent += 1
        # next combination (the last run's choice moves fastest)
        i = n - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < nallowed[i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            break
    # Rows in order of keys, then of entries; then a stable sort.
    if nent <= OPT_ENTRIES:
        out = work[W_OPT_OUT : W_OPT_OUT + OPT_ENTRIES * O_WIDTH].reshape((OPT_ENTRIES, O_WIDTH))
    else:
        out = np.empty((nent, O_WIDTH), np.int64)
    nout = 0
    for q in range(nkeys):
        e = keys[q, 3]
        while e >= 0:
            out[nout, O_SID] = _sid(work, keys[q, 0])
            out[nout, O_GROUPS] = keys[q, 1]
            out[nout, O_USED] = ent[e, 0]
            out[nout, O_DJ] = keys[q, 2]
            out[nout, O_CAP] = min(ent[e, 1], jokers)
            out[nout, O_CHOICES] = ent[e, 2] | (ent[e, 8] << LEAD_SHIFT) | (ent[e, 7] << MELD_SHIFT)
            out[nout, O_NAT] = ent[e, 3]
            out[nout, O_NEW] = ent[e, 4]
            out[nout, O_DROPPED] = ent[e, 5]
            nout += 1
            e = ent[e, 6]
    # stable insertion sort by (-used, dj, -cap)
    row = work[W_OPT_ROW : W_OPT_ROW + O_WIDTH]
    for i in range(1, nout):
        for col in range(O_WIDTH):
            row[col] = out[i, col]
        k = i - 1
        while k >= 0 and (
            out[k, O_USED] < row[O_USED]
            or (
                out[k, O_USED] == row[O_USED]
                and (out[k, O_DJ] > row[O_DJ] or (out[k, O_DJ] == row[O_DJ] and out[k, O_CAP] < row[O_CAP]))
            )
        ):
            for col in range(O_WIDTH):
                out[k + 1, col] = out[k, col]
            k -= 1
        for col in range(O_WIDTH):
            out[k + 1, col] = row[col]
    if prune:
        m = 0
        for i in range(nout):
            drop = False
            for k in range(m):
                if (
                    out[k, O_GROUPS] == out[i, O_GROUPS]
                    and out[k, O_DJ] <= out[i, O_DJ]
                    and out[k, O_USED] >= out[i, O_USED]
                    and _dominates(_packed_of(work, out[k, O_SID]), _packed_of(work, out[i, O_SID]))
                ):
                    drop = True
                    break
            if not drop:
                for col in range(O_WIDTH):
                    out[m, col] = out[i, col]
                m += 1
        nout = m
    start = work[W_POOL_USED]
    if start + nout > work[W_POOL_SIZE]:
        raise IndexError("solver tables full")
    base = _pool(work) + start * O_WIDTH
    for i in range(nout):
        for col in range(O_WIDTH):
            work[base + i * O_WIDTH + col] = out[i, col]
    work[W_POOL_USED] = start + nout
    return int(start), nout


_options = _jit(_options_py)
_OPTIONS_ARGS = (*(int64,) * 4, boolean, *(int64,) * 4, boolean, boolean, int64, _A1)
_OPTIONS_TYPES = (UniTuple(int64, 2), _OPTIONS_ARGS)  # type: ignore[no-untyped-call]
_options_at = call_at(*_OPTIONS_TYPES)


def _colour_options_py(
    v: int, c: int, sid: int, jleft: int, prune: bool, p: IntArray, w: IntArray
) -> tuple[int, int]:
    """The moves of colour ``c`` at number ``v`` from its open runs ``sid`` with ``jleft``
    jokers left (memoised in ``w``): (first pool row, count)."""
    total = p[P_TOTAL]
    cell = c * CELLS + v
    table = p[P_TABLE + cell]
    rack = p[P_RACK + cell]
    arrivals = p[P_ARR + cell]
    departures = p[P_DEP + cell]
    supply = p[P_TABLE + cell + 1] + p[P_RACK + cell + 1] + p[P_ARR + cell + 1] if v < TOP else 0
    last = v == TOP
    explicit = p[P_INITIAL] != 0
    mk = (
        sid
        | (table << 11)
        | (rack << 13)
        | (jleft << 15)
        | (int(last) << 19)
        | (arrivals << 20)
        | (departures << 23)
        | (supply << 26)
        | (total << 31)
        | (int(prune) << 35)
    )
    if explicit:
        mk |= (1 << 36) | (v << 37)  # explicit jokers' moves depend on the number
    memo_size = w[W_MEMO_SIZE]
    at = W_HEADER + REC * _slot_rec(w, W_HEADER, memo_size, mk, 0, False)
    if w[at + 1] == 0:
        found = w[at + 2]
        return found >> 16, found & 0xFFFF
    start, n = _new_options(v, c, sid, jleft, _as_bool(prune), mk, at, p, w)
    return start, n


_colour_options = _hot(_colour_options_py)


def _new_options_py(
    v: int, c: int, sid: int, jleft: int, prune: bool, mk: int, at: int, p: IntArray, w: IntArray
) -> tuple[int, int]:
    """:func:`_colour_options_py` when the memo does not have the moves yet: work them out
    and remember them under key ``mk`` at ``w[at]`` (compiled once, called only then)."""
    if (w[W_MEMO_USED] + 1) * 2 > w[W_MEMO_SIZE]:
        raise IndexError("solver tables full")
    total = p[P_TOTAL]
    cell = c * CELLS + v
    supply = p[P_TABLE + cell + 1] + p[P_RACK + cell + 1] + p[P_ARR + cell + 1] if v < TOP else 0
    start, n = _options_at(
        w[W_AT_OPTIONS],
        (
            _packed_of(w, sid),
            p[P_TABLE + cell],
            p[P_RACK + cell],
            jleft,
            v == TOP,
            p[P_ARR + cell],
            p[P_DEP + cell],
            supply,
            total,
            prune,
            p[P_INITIAL] != 0,
            v,
            w,
        ),
    )
    w[W_MEMO_USED] += 1
    w[at] = mk
    w[at + 1] = 0
    w[at + 2] = (start << 16) | n
    return start, n


_new_options = _jit(_new_options_py)


def _step_options_py(v: int, c: int, key: int, p: IntArray, w: IntArray) -> tuple[int, int]:
    """The moves of colour ``c`` at number ``v`` from state ``key``: (first pool row, count)."""
    total = p[P_TOTAL]
    sid = (key >> (SID_BITS * c)) & SID_MASK
    j = (key >> J_SHIFT) & 15
    # parking room already plentiful (the initial meld has none: its key holds the meld value there)
    prune = p[P_INITIAL] == 0 and ((key >> CAP_SHIFT) & 15) >= total
    return _colour_options(v, c, sid, total - j, prune, p, w)


_step_options = _hot(_step_options_py)


# the value encoding of rummykit.solve.tiles, compiled
_value = _inline(model.value_of)
_primary_of = _inline(model.primary_of)


def _meld_of_py(key: int) -> int:
    """The meld value an initial-meld state has reached (capped at the threshold)."""
    return int(((key >> CAP_SHIFT) & 15) | ((key >> M_SHIFT) << MELD_LOW))


_meld_of = _inline(_meld_of_py)


def _meld_bits_py(meld: int) -> int:
    """The key fields that hold an initial meld's value (see ``MELD_LOW``)."""
    return ((meld & 15) << CAP_SHIFT) | ((meld >> MELD_LOW) << M_SHIFT)


_meld_bits = _inline(_meld_bits_py)


UNBOUNDED = 1 << 58  # a bound on the whole value larger than any value (and far from overflowing)


def _floor_full_py(floor: int) -> int:
    """The least whole value a play whose primary value reaches ``floor`` can have, less a
    little (a floor below every value for a very low ``floor``)."""
    if floor < -(1 << 20):
        return NEG
    return (floor << PRIMARY_SHIFT) - (1 << (PRIMARY_SHIFT - 1))


_floor_full = _inline(_floor_full_py)


def _bound_py(key: int, c: int, v: int, nsid: int, jokers_left: int, w: IntArray) -> int:
    """The relaxation's bound on the whole value the rack's numbered tiles can still add
    after colour ``c`` moved at number ``v`` to open runs ``nsid`` (-1: a colour cannot
    finish; a large number when some colour's state was not worked out)."""
    total = 0
    known = w[W_RELAX_SIDS]
    gen = w[W_RELAX_GEN]
    for c2 in range(COLOURS):
        if c2 == c:
            sid = nsid
            at = (c2 * CELLS + v + 1) * MAX_SIDS
        elif c2 < c:
            sid = (key >> (SID_BITS * c2)) & SID_MASK
            at = (c2 * CELLS + v + 1) * MAX_SIDS
        else:
            sid = (key >> (SID_BITS * c2)) & SID_MASK
            at = (c2 * CELLS + v) * MAX_SIDS
        if sid >= known:
            return UNBOUNDED  # numbered after the relaxation: nothing known about it
        row = _relaxed(w) + (at + sid) * RELAX_ROW
        if w[row] != gen:
            return UNBOUNDED
        x = w[row + 1 + jokers_left]
        if x < 0:
            return -1
        total += x - 1
    return total


_bound = _hot(_bound_py)
# the same, called rather than inlined where it is rarely needed (less code for LLVM to compile)
_bound_called = _njit(cache=True, nogil=True, _nrt=False)(_bound_py)


def _key_bound_py(key: int, s: int, p: IntArray, w: IntArray) -> int:
    """The relaxation's bound on the whole value the rack's numbered tiles can still add
    from state ``key`` before step ``s`` (as :func:`_bound_py`: -1 when a colour cannot
    finish, ``UNBOUNDED`` when a colour's state was not worked out)."""
    if s >= STEPS:
        return 0
    v = s // 5 + 1
    c = s % 5
    jokers_left = p[P_TOTAL] - ((key >> J_SHIFT) & 15)
    known = w[W_RELAX_SIDS]
    gen = w[W_RELAX_GEN]
    total = 0
    for c2 in range(COLOURS):
        number = v + 1 if c2 < c else v
        if number > TOP:
            continue
        sid = (key >> (SID_BITS * c2)) & SID_MASK
        if sid >= known:
            return UNBOUNDED
        row = _relaxed(w) + ((c2 * CELLS + number) * MAX_SIDS + sid) * RELAX_ROW
        if w[row] != gen:
            return UNBOUNDED
        x = w[row + 1 + jokers_left]
        if x < 0:
            return -1
        total += x - 1
    return total


_key_bound = _hot(_key_bound_py)


NO_WAY = 1 << 20  # jokers "needed" where no way exists
GROUP_JOKERS = np.array(
    [
        min((k for k, _t, _g in model.group_partitions(ones, twos)), default=NO_WAY) if ones + twos <= COLOURS else NO_WAY
        for ones in range(5)
        for twos in range(5)
    ],
    np.int64,
)
"""At ``ones * 5 + twos``: the fewest jokers that complete the groups of a number where ``ones``
colours give one tile and ``twos`` two (``NO_WAY`` when none)."""


def _group_jokers_py(ones: int, twos: int, p: IntArray) -> int:
    """``GROUP_JOKERS`` for (``ones``, ``twos``)."""
    return int(GROUP_JOKERS[ones * 5 + twos])


_group_jokers = _hot(_group_jokers_py)


def _successors_py(s: int, key: int, val: int, low: int, p: IntArray, w: IntArray, out: IntArray, base: int) -> int:
    """Write the successors of ``key`` (value ``val``) at step ``s`` to rows ``base``
    onwards of ``out`` (next key, value gained, option or partition index, slot mask);
    returns how many. With the relaxation worked out, successors that cannot reach the
    whole value ``low`` are left out."""
    if p[P_INITIAL]:
        count: int = _successors_at(w[W_AT_INITIAL_SUCCESSORS], (s, key, val, low, p, w, out, base))
        return count
    v = s // 5 + 1
    c = s % 5
    total = p[P_TOTAL]
    j = (key >> J_SHIFT) & 15
    cap = (key >> CAP_SHIFT) & 15
    ones = (key >> P_SHIFT) & 7
    twos = (key >> Q_SHIFT) & 7
    mask = key >> M_SHIFT
    count = 0
    nslots = p[P_NSLOTS + v]
    if c == COLOURS:
        all_slots = 0
        for i in range(nslots):
            all_slots |= p[P_SLOT_BITS + v * MAX_SLOTS + i]
        free_slots = _popcount(all_slots & ~mask)
        core = key & COLOUR_BITS
        saturated = cap >= total
        g = ones * 5 + twos
        first = p[P_GP_OFF + g]
        for pi in range(p[P_GP_OFF + g + 1] - first):
            k = p[P_GP_K + first + pi]
            threes = p[P_GP_T + first + pi]
            if j + k > total or (saturated and pi):
                continue
            ncap = min(cap + threes + free_slots, total)
            out[base + count, 0] = core | ((j + k) << J_SHIFT) | (ncap << CAP_SHIFT)
            out[base + count, 1] = 0
            out[base + count, 2] = pi
            out[base + count, 3] = mask
            count += 1
        return count
    shift = SID_BITS * c
    gain_p = p[P_PRIMARY + v]
    gain_s = p[P_SECONDARY + v]
    naccepts = 0
    nfree = 0
    for i in range(nslots):
        if p[P_SLOT_ACC + v * MAX_SLOTS + i] >> c & 1:
            naccepts += 1
            bit = p[P_SLOT_BITS + v * MAX_SLOTS + i]
            if not mask & bit:
                w[W_SCRATCH + nfree] = bit
                nfree += 1
    colours_only = key & COLOUR_BITS & ~(SID_MASK << shift)
    start, nopts = _step_options(v, c, key, p, w)
    pool = _pool(w)
    relaxed = p[P_RELAXED] and v < TOP
    last_colour = c == COLOURS - 1  # the groups of this number are then complete
    choices = W_SCRATCH + 16
    for oi in range(nopts):
        row = pool + (start + oi) * O_WIDTH
        nsid = w[row + O_SID]
        groups = w[row + O_GROUPS]
        used = w[row + O_USED]
        gain = _value(used * gain_p, used * gain_s)
        if relaxed:
            bound = _bound(key, c, v, nsid, total - j - w[row + O_DJ], w)
            if bound < 0 or val + gain + bound + p[P_RACK_JOKERS_FULL] < low:
                continue  # by the relaxation, this cannot reach the target
        ncap = min(cap + w[row + O_CAP], total)
        core = colours_only | (nsid << shift) | ((j + w[row + O_DJ]) << J_SHIFT) | (ncap << CAP_SHIFT)
        # kept-group slots to fill: none, then one free slot, then two (in order)
        nch = 1
        w[choices] = 0
        if groups and naccepts:
            for a in range(nfree):
                w[choices + nch] = w[W_SCRATCH + a]
                nch += 1
            if groups >= 2:
                for a in range(nfree):
                    for b in range(a + 1, nfree):
                        w[choices + nch] = w[W_SCRATCH + a] | w[W_SCRATCH + b]
                        nch += 1
        for q in range(nch):
            slot_mask = w[choices + q]
            rest = groups - _popcount(slot_mask)
            nones = ones + (1 if rest == 1 else 0)
            ntwos = twos + (1 if rest == 2 else 0)
            if (relaxed or last_colour) and nones + ntwos:
                # groups of this number that need more jokers than the state has left
                if relaxed:
                    need = w[W_GROUP_NEED + (v * COLOURS + c) * 25 + nones * 5 + ntwos]
                else:
                    need = _group_jokers(nones, ntwos, p)
                left = total - j - w[row + O_DJ] - need
                if left < 0:
                    continue
                if relaxed and need and last_colour:
                    # every colour's row is past this number: the jokers the groups need are spent
                    # (not so for a colour still to move here: its row counts on them for its groups)
                    bound = _bound_called(key, c, v, nsid, left, w)
                    if bound < 0 or val + gain + bound + p[P_RACK_JOKERS_FULL] < low:
                        continue
            if count >= MAX_SUCC:
                raise OverflowError("too many successors")
            out[base + count, 0] = (
                core
                | (nones << P_SHIFT)
                | (ntwos << Q_SHIFT)
                | ((mask | slot_mask) << M_SHIFT)
            )
            out[base + count, 1] = gain
            out[base + count, 2] = oi
            out[base + count, 3] = slot_mask
            count += 1
    return count


_successors = _hot(_successors_py)


def _initial_successors_py(s: int, key: int, val: int, low: int, p: IntArray, w: IntArray, out: IntArray, base: int) -> int:
    """:func:`_successors_py` for the initial meld: every joker stands at a number, so each
    move adds what its tiles and jokers stand for to the meld value in the key (capped at
    the threshold), and a state that cannot reach the threshold any more is left out
    (the rack's numbered tiles still ahead at their numbers, each joker left at 13). The
    numbers are mirrored (``x`` is worth ``14 - x``): the search meets the high numbers
    first, so the meld value reaches the threshold, where it stops counting, early."""
    v = s // 5 + 1
    c = s % 5
    total = p[P_TOTAL]
    threshold = p[P_THRESHOLD]
    j = (key >> J_SHIFT) & 15
    meld = _meld_of(key)
    ahead = p[P_MELD_AHEAD + s + 1]
    count = 0
    if c == COLOURS:
        ones = (key >> P_SHIFT) & 7
        twos = (key >> Q_SHIFT) & 7
        core = key & COLOUR_BITS
        g = ones * 5 + twos
        first = p[P_GP_OFF + g]
        for pi in range(p[P_GP_OFF + g + 1] - first):
            k = p[P_GP_K + first + pi]
            threes = p[P_GP_T + first + pi]
            # k jokers complete groups to three, `extra` more make groups of three four
            for extra in range(min(threes, total - j - k) + 1):
                nj = j + k + extra
                nmeld = min(threshold, meld + (k + extra) * (TOP + 1 - v))
                if nmeld + ahead + TOP * (total - nj) < threshold:
                    continue
                if count >= MAX_SUCC:
                    raise OverflowError("too many successors")
                out[base + count, 0] = core | (nj << J_SHIFT) | _meld_bits(nmeld)
                out[base + count, 1] = 0
                out[base + count, 2] = pi | (extra << 8)
                out[base + count, 3] = 0
                count += 1
        return count
    shift = SID_BITS * c
    gain_p = p[P_PRIMARY + v]
    gain_s = p[P_SECONDARY + v]
    ones = (key >> P_SHIFT) & 7
    twos = (key >> Q_SHIFT) & 7
    colours_only = key & COLOUR_BITS & ~(SID_MASK << shift)
    start, nopts = _step_options(v, c, key, p, w)
    pool = _pool(w)
    relaxed = p[P_RELAXED] and v < TOP
    for oi in range(nopts):
        row = pool + (start + oi) * O_WIDTH
        nsid = w[row + O_SID]
        groups = w[row + O_GROUPS]
        used = w[row + O_USED]
        nj = j + w[row + O_DJ]
        nmeld = min(threshold, meld + used * (TOP + 1 - v) + (w[row + O_CHOICES] >> MELD_SHIFT))
        if nmeld + ahead + TOP * (total - nj) < threshold:
            continue
        gain = _value(used * gain_p, used * gain_s)
        if relaxed:
            bound = _bound(key, c, v, nsid, total - nj, w)
            if bound < 0 or val + gain + bound + p[P_RACK_JOKERS_FULL] < low:
                continue  # by the relaxation, this cannot reach the target
        if count >= MAX_SUCC:
            raise OverflowError("too many successors")
        out[base + count, 0] = (
            colours_only
            | (nsid << shift)
            | (nj << J_SHIFT)
            | _meld_bits(nmeld)
            | ((ones + (1 if groups == 1 else 0)) << P_SHIFT)
            | ((twos + (1 if groups == 2 else 0)) << Q_SHIFT)
        )
        out[base + count, 1] = gain
        out[base + count, 2] = oi
        out[base + count, 3] = 0
        count += 1
    return count


_initial_successors = _jit(_initial_successors_py)
_SUCCESSORS_TYPES = (int64, (int64, int64, int64, int64, _A1, _A1, _A2, int64))
_successors_at = call_at(*_SUCCESSORS_TYPES)  # both successor functions have these types


def _finish_py(key: int, val: int, p: IntArray) -> tuple[int, int]:
    """(full value, jokers placed) of a complete table, or (NEG, -1) when a table joker
    has no place. Jokers not used in sets are parked while there is room."""
    total = p[P_TOTAL]
    j = (key >> J_SHIFT) & 15
    if p[P_INITIAL]:
        if _meld_of(key) < p[P_THRESHOLD]:
            return NEG, -1
        placed = j  # every joker placed stands at a number
    else:
        cap = (key >> CAP_SHIFT) & 15
        placed = min(total, j + cap)
    if placed < p[P_TABLE_JOKERS]:
        return NEG, -1
    rack_jokers = placed - p[P_TABLE_JOKERS]
    full = val + _value(rack_jokers * p[P_JP], rack_jokers * p[P_JS]) - (rack_jokers << JOKER_SHIFT)
    return full, placed


_finish = _hot(_finish_py)


def _fill_path_row_py(path: IntArray, s: int, key: int, index: int, slot_mask: int, p: IntArray, w: IntArray) -> None:
    """Row ``s`` of a path: what the step did, in terms the rebuilding code uses."""
    v = s // 5 + 1
    c = s % 5
    for i in range(PATH_WIDTH):
        path[s, i] = 0
    if c == COLOURS:
        path[s, 0] = (key >> P_SHIFT) & 7
        path[s, 1] = (key >> Q_SHIFT) & 7
        path[s, 2] = index & 255
        path[s, 3] = slot_mask
        path[s, 4] = index >> 8  # the initial meld's jokers making groups of three four
        return
    start, _n = _step_options(v, c, key, p, w)
    row = _pool(w) + (start + index) * O_WIDTH
    path[s, 0] = _packed_of(w, (key >> (SID_BITS * c)) & SID_MASK)
    path[s, 1] = w[row + O_CHOICES] & CHOICE_BITS
    path[s, 2] = w[row + O_NAT]
    path[s, 3] = w[row + O_NEW]
    path[s, 4] = w[row + O_GROUPS]
    path[s, 5] = w[row + O_DROPPED]
    path[s, 6] = w[row + O_USED]
    path[s, 7] = slot_mask
    path[s, 8] = (w[row + O_CHOICES] >> LEAD_SHIFT) & 255


_fill_path_row = _jit(_fill_path_row_py)
_FILL_PATH_ROW_TYPES = (NoneType("none"), (_A2, int64, int64, int64, int64, _A1, _A1))
_fill_path_row_at = call_at(*_FILL_PATH_ROW_TYPES)


def _groups_possible_py(c: int, v: int, groups: int, jokers: int, p: IntArray) -> bool:
    """Whether colour ``c`` could give ``groups`` tiles to groups at number ``v`` as far as
    the other colours' tiles there and ``jokers`` allow (optimistic: nothing is charged)."""
    if groups == 0 or p[P_NSLOTS + v] > 0:
        return True
    others = 0
    tiles = 0
    for c2 in range(COLOURS):
        if c2 != c:
            k = p[P_TABLE + c2 * CELLS + v] + p[P_RACK + c2 * CELLS + v]
            if k > 0:
                others += 1
                tiles += min(k, 2)
    if others + jokers < 2:
        return False
    return groups == 1 or tiles + jokers >= 4


_groups_possible = _hot(_groups_possible_py)


def _reachable_runs_py(p: IntArray, w: IntArray) -> tuple[IntArray, IntArray]:
    """The relaxation's forward pass: for each colour and number, the open runs (states of
    that colour alone) it can reach from the start. ``levels[c, v, :counts[c, v]]`` are
    their numbers, each once."""
    total = p[P_TOTAL]
    pool = _pool(w)
    levels = np.empty((COLOURS, CELLS + 1, MAX_SIDS), np.int64)
    counts = np.zeros((COLOURS, CELLS + 1), np.int64)
    mark = np.full(MAX_SIDS, -1, np.int64)
    for c in range(COLOURS):
        levels[c, 1, 0] = 0
        counts[c, 1] = 1
        for v in range(1, TOP):
            stamp = c * CELLS + v + 1
            for q in range(counts[c, v]):
                sid = levels[c, v, q]
                for jl in range(total + 1):
                    start, n = _colour_options(v, c, sid, jl, _as_bool(False), p, w)
                    for oi in range(n):
                        nsid = w[pool + (start + oi) * O_WIDTH + O_SID]
                        if mark[nsid] != stamp:
                            mark[nsid] = stamp
                            levels[c, v + 1, counts[c, v + 1]] = nsid
                            counts[c, v + 1] += 1
    return levels, counts


reachable_runs = _jit(_reachable_runs_py)
"""The open runs each colour can reach at each number (see :func:`_reachable_runs_py`)."""
_REACHABLE_RUNS_TYPES = (Tuple((Array(int64, 3, "C"), _A2)), (_A1, _A1))  # type: ignore[no-untyped-call]
_reachable_runs_at = call_at(*_REACHABLE_RUNS_TYPES)


def _group_need_py(v: int, c: int, p: IntArray, w: IntArray) -> None:
    """The rows of ``W_GROUP_NEED`` for number ``v`` once colour ``c`` has moved."""
    # the group tiles each colour still to move can add (colour 0 never is)
    most1 = min(2, p[P_TABLE + CELLS + v] + p[P_RACK + CELLS + v]) if c < 1 else 0
    most2 = min(2, p[P_TABLE + 2 * CELLS + v] + p[P_RACK + 2 * CELLS + v]) if c < 2 else 0
    most3 = min(2, p[P_TABLE + 3 * CELLS + v] + p[P_RACK + 3 * CELLS + v]) if c < 3 else 0
    for ones in range(COLOURS + 1):
        for twos in range(COLOURS + 1 - ones):
            least = NO_WAY
            for a1 in range(most1 + 1):
                for a2 in range(most2 + 1):
                    for a3 in range(most3 + 1):
                        o = ones + (1 if a1 == 1 else 0) + (1 if a2 == 1 else 0) + (1 if a3 == 1 else 0)
                        t = twos + (1 if a1 == 2 else 0) + (1 if a2 == 2 else 0) + (1 if a3 == 2 else 0)
                        if o + t <= COLOURS:
                            least = min(least, _group_jokers(o, t, p))
            w[W_GROUP_NEED + (v * COLOURS + c) * 25 + ones * 5 + twos] = least


_group_need = _jit(_group_need_py)
_GROUP_NEED_TYPES = (NoneType("none"), (int64, int64, _A1, _A1))
_group_need_at = call_at(*_GROUP_NEED_TYPES)


def _relax_py(p: IntArray, w: IntArray) -> None:
    """Work out the relaxation's table (see :func:`_relaxed_py`): for each colour, number,
    open runs reachable in that colour alone and jokers left, whether that colour's own
    tiles (the table's all used) can still be laid in runs and in groups that the other
    colours' tiles could complete, and the most its rack tiles can add doing so. It
    relaxes the whole problem, so the sum over the colours bounds what any play can
    still add, and a state that cannot reach the target by it can be dropped."""
    total = p[P_TOTAL]
    bounds = _relaxed(w)
    pool = _pool(w)
    levels, counts = _reachable_runs_at(w[W_AT_REACHABLE_RUNS], (p, w))
    for v in range(1, TOP + 1):
        for c in range(COLOURS):
            _group_need_at(w[W_AT_GROUP_NEED], (v, c, p, w))
    # the table covers the states numbered so far; later ones count as unknown, and so do
    # the rows this relaxation does not write (they carry an earlier one's number)
    w[W_RELAX_SIDS] = w[W_SIDS]
    gen = w[W_RELAX_GEN] + 1
    w[W_RELAX_GEN] = gen
    # whether a colour may give 0, 1 or 2+ tiles to groups at a number with so many jokers
    # left (_groups_possible, looked up once per colour, number, count and jokers)
    possible = np.empty(3 * RELAX_ROW, np.bool_)
    # backward: the most each state can still add
    for c in range(COLOURS):
        for v in range(TOP, 0, -1):
            for groups in range(3):
                for jl in range(total + 1):
                    possible[groups * RELAX_ROW + jl] = _groups_possible(c, v, groups, jl, p)
            gain = _value(p[P_PRIMARY + v], p[P_SECONDARY + v])
            later_rows = bounds + (c * CELLS + v + 1) * MAX_SIDS * RELAX_ROW
            for q in range(counts[c, v]):
                sid = levels[c, v, q]
                here = bounds + ((c * CELLS + v) * MAX_SIDS + sid) * RELAX_ROW
                for jl in range(total + 1):
                    start, n = _colour_options(v, c, sid, jl, _as_bool(False), p, w)
                    best = -1
                    for oi in range(n):
                        row = pool + (start + oi) * O_WIDTH
                        rest = jl - w[row + O_DJ]
                        if not possible[min(w[row + O_GROUPS], 2) * RELAX_ROW + rest]:
                            continue
                        if v == TOP:
                            later = 0
                        else:
                            later_at = later_rows + w[row + O_SID] * RELAX_ROW
                            x = w[later_at + 1 + rest]
                            if w[later_at] != gen or x <= 0:
                                continue
                            later = x - 1
                        best = max(best, w[row + O_USED] * gain + later)
                    w[here + 1 + jl] = best + 1 if best >= 0 else -1
                w[here] = gen


relax = _jit(_relax_py)
"""Work out the relaxation's table in ``w`` (see :func:`_relax_py`)."""


def _enlarged_py(t: IntArray, size: int) -> IntArray:
    """The depth-first search's table of states, four times larger, with every state kept."""
    big = 4 * size
    bigger = _new_records(big)
    for i in range(size):
        stamp = t[REC * i + 1]
        if stamp >= 0:
            at = REC * _slot_rec(bigger, 0, big, t[REC * i], stamp, False)
            bigger[at] = t[REC * i]
            bigger[at + 1] = stamp
            bigger[at + 2] = t[REC * i + 2]
            bigger[at + 3] = t[REC * i + 3]
    return bigger


_enlarged = _jit(_enlarged_py)


DF_DEPTH, DF_BEST, DF_LOW, DF_COUNT, DF_EXPANSIONS, DF_CEILING, DF_FLOOR, DF_LIMIT = range(8)
DF_FIELDS = 8
DF_DONE, DF_STOPPED, DF_GROW = range(3)


def _depth_first_loop_py(
    t: IntArray,
    size: int,
    st: IntArray,
    frames: IntArray,
    out: IntArray,
    path: IntArray,
    result: IntArray,
    p: IntArray,
    w: IntArray,
) -> int:
    """The loop of :func:`_depth_first_py`, its scalars in ``st`` (``DF_*``): ``DF_DONE``
    when the search finished (or reached the ceiling), ``DF_STOPPED`` at the node limit,
    ``DF_GROW`` when the table of ``size`` records must be enlarged before the next step
    (the caller does, then calls again: the search goes on where it was).

    Compiled without reference counting: in the search itself, which replaces its table
    when it grows, numba counted references to the table at every new state."""
    depth = st[DF_DEPTH]
    best_full = st[DF_BEST]
    low = st[DF_LOW]
    t_count = st[DF_COUNT]
    expansions = st[DF_EXPANSIONS]
    ceiling = st[DF_CEILING]
    floor = st[DF_FLOOR]
    node_limit = st[DF_LIMIT]
    initial = p[P_INITIAL] != 0
    code = DF_DONE
    while depth >= 0:
        if (t_count + 1) * 2 > size:
            code = DF_GROW
            break
        i = frames[3, depth]
        if i >= frames[2, depth]:
            depth -= 1
            continue
        frames[3, depth] = i + 1
        base = depth * MAX_SUCC
        nkey = out[base + i, 0]
        nval = frames[1, depth] + out[base + i, 1]
        s = depth + 1
        if s == STEPS:
            full, placed = _finish(nkey, nval, p)
            if placed < 0:
                continue
            if full > best_full and _primary_of(full) >= floor:
                best_full = full
                result[0] = 1
                result[1] = full
                result[2] = placed
                result[3] = (nkey >> J_SHIFT) & 15
                for d in range(STEPS):
                    k = frames[3, d] - 1
                    _fill_path_row_at(
                        w[W_AT_FILL_PATH_ROW],
                        (path, d, frames[0, d], out[d * MAX_SUCC + k, 2], out[d * MAX_SUCC + k, 3], p, w),
                    )
                if full >= ceiling:
                    depth = -1
                    break
                low = max(low, best_full + 1)
            continue
        if (nval >> PRIMARY_SHIFT) + p[P_AHEAD + s] < floor or nval + p[P_AHEAD_FULL + s] <= best_full:
            continue
        hkey = nkey
        meld = 0
        if initial:
            hkey = nkey & ~MELD_FIELDS
            meld = _meld_of(nkey)
        at = REC * _slot_rec(t, 0, size, hkey, s, False)
        if t[at + 1] == s:
            if t[at + 2] >= nval and (not initial or t[at + 3] >= meld):
                continue
            # expanded again; remembered instead of the earlier state (only a state
            # expanded before ever cuts another, so the search stays exact)
            t[at + 2] = nval
            if initial:
                t[at + 3] = meld
        else:
            t[at] = hkey
            t[at + 1] = s
            t[at + 2] = nval
            if initial:
                t[at + 3] = meld
            t_count += 1
        expansions += 1
        result[5] = expansions
        if node_limit >= 0 and expansions > node_limit:
            code = DF_STOPPED
            break
        frames[0, s] = nkey
        frames[1, s] = nval
        frames[3, s] = 0
        frames[2, s] = _successors(s, nkey, nval, low, p, w, out, s * MAX_SUCC)
        depth = s
    st[DF_DEPTH] = depth
    st[DF_BEST] = best_full
    st[DF_LOW] = low
    st[DF_COUNT] = t_count
    st[DF_EXPANSIONS] = expansions
    return code


_depth_first_loop = _njit(cache=True, nogil=True, _nrt=False)(_depth_first_loop_py)
_DEPTH_FIRST_LOOP_TYPES = (int64, (_A1, int64, _A1, _A2, _A2, _A2, _A1, _A1, _A1))
_depth_first_loop_at = call_at(*_DEPTH_FIRST_LOOP_TYPES)


def _depth_first_py(
    size: int,
    floor: int,
    node_limit: int,
    incumbent: int,
    above: int,
    path: IntArray,
    result: IntArray,
    p: IntArray,
    w: IntArray,
) -> bool:
    """Depth-first branch and bound (``node_limit`` < 0: none) for the best play whose
    primary value reaches ``floor``: moves are tried most tiles first, a state is
    expanded again only with a better value, and a branch is cut when even every rack
    tile still ahead could not beat the best play found (from the start, ``above``: the
    whole value of a play known already, which only a better one replaces). Fills
    ``path`` and ``result`` (found, full value, jokers placed, structural jokers);
    returns whether it finished."""
    result[0] = 0
    best_full = max(NEG, above)
    ceiling = p[P_AHEAD_FULL]
    if incumbent > NEG:
        # the best value there is, known: only a play reaching it counts, and the first ends the search
        best_full = incumbent - 1
        ceiling = incumbent
    # with the relaxation, a branch is also cut when its whole value cannot beat the best
    # play found so far (nor reach the floor)
    low = max(_floor_full(floor), best_full + 1)
    # seen: keys, stamps (the step), values, and for the initial meld the meld value (the
    # key is then hashed without it: a state is dominated by one as good in both)
    size = min(size, DEPTH_FIRST_START)
    t = _new_records(size)
    t_count = 0
    frames = np.zeros((4, STEPS + 1), np.int64)  # key, value, successors, next successor
    out = np.empty(((STEPS + 1) * MAX_SUCC, 4), np.int64)  # per depth: its successors
    start_key = p[P_START]
    if p[P_AHEAD] < floor:
        return True
    at = REC * _slot_rec(t, 0, size, start_key, 0, False)
    t[at] = start_key
    t[at + 1] = 0
    t[at + 2] = 0
    t[at + 3] = 0
    t_count += 1
    expansions = 1
    if node_limit >= 0 and expansions > node_limit:
        return False
    frames[0, 0] = start_key
    frames[1, 0] = 0
    frames[3, 0] = 0
    frames[2, 0] = _successors_at(w[W_AT_SUCCESSORS], (0, start_key, 0, low, p, w, out, 0))
    st = np.empty(DF_FIELDS, np.int64)
    st[DF_DEPTH] = 0
    st[DF_BEST] = best_full
    st[DF_LOW] = low
    st[DF_COUNT] = t_count
    st[DF_EXPANSIONS] = expansions
    st[DF_CEILING] = ceiling
    st[DF_FLOOR] = floor
    st[DF_LIMIT] = node_limit
    while True:
        code: int = _depth_first_loop_at(w[W_AT_DEPTH_FIRST_LOOP], (t, size, st, frames, out, path, result, p, w))
        if code != DF_GROW:
            return code == DF_DONE
        t = _enlarged(t, size)
        size *= 4


_depth_first = _inline(_depth_first_py)  # one call site, in ``search``



def _layer_enlarged_py(t: IntArray, size: int, stamp: int) -> IntArray:
    """The sweep's table of one layer's states, four times larger, with that layer's kept."""
    big = 4 * size
    bigger = _new_records(big)
    for i in range(size):
        if t[REC * i + 1] == stamp:
            at = REC * _slot_rec(bigger, 0, big, t[REC * i], stamp, False)
            bigger[at] = t[REC * i]
            bigger[at + 1] = stamp
            bigger[at + 2] = t[REC * i + 2]
    return bigger


_layer_enlarged = _jit(_layer_enlarged_py)


def _rows_enlarged_py(layer: IntArray, rows: int) -> IntArray:
    """The sweep's rows of states, twice as many, the first ``rows`` kept."""
    bigger = np.empty(2 * REC * rows, np.int64)
    for i in range(REC * rows):
        bigger[i] = layer[i]
    return bigger


_rows_enlarged = _jit(_rows_enlarged_py)


def _sweep_rows_py(
    s: int,
    row: int,
    end: int,
    size: int,
    rows: int,
    low: int,
    low_full: int,
    incumbent: int,
    t: IntArray,
    layer: IntArray,
    counts: IntArray,
    out: IntArray,
    p: IntArray,
    w: IntArray,
) -> int:
    """The sweep's work on rows ``row`` to ``end`` - 1 of layer ``s``: each row's successors
    added to the next layer (``counts``: the next layer's states so far and the rows in
    all). Returns the row it stopped at: ``end``, or an earlier one when the layer's table
    (``size`` records) or the rows (``rows``) might not hold that row's successors, which
    the caller then enlarges (earlier than needed, which changes nothing else).

    Compiled without reference counting: in the sweep itself, which replaces its tables
    when they grow, numba counted references to them at every new state (four atomic
    operations), about a tenth of a slow call's time."""
    t_count = counts[0]
    n = counts[1]
    bound = p[P_AHEAD + s + 1]
    bound_full = p[P_AHEAD_FULL + s + 1]
    while row < end:
        if (t_count + MAX_SUCC + 1) * 2 > size or n + MAX_SUCC > rows:
            break
        key = layer[REC * row]
        val = layer[REC * row + 1]
        count = _successors(s, key, val, low_full, p, w, out, _as_int(0))
        for q in range(count):
            nval = val + out[q, 1]
            if (nval >> PRIMARY_SHIFT) + bound < low or nval + bound_full < incumbent:
                continue
            nkey = out[q, 0]
            at = REC * _slot_rec(t, 0, size, nkey, s, True)
            if t[at + 1] == s:
                r = REC * t[at + 2]
                if layer[r + 1] < nval:
                    layer[r + 1] = nval
                    layer[r + 2] = row
                    layer[r + 3] = out[q, 2] | (out[q, 3] << 32)
                continue
            t[at] = nkey
            t[at + 1] = s
            t[at + 2] = n
            t_count += 1
            r = REC * n
            layer[r] = nkey
            layer[r + 1] = nval
            layer[r + 2] = row
            layer[r + 3] = out[q, 2] | (out[q, 3] << 32)
            n += 1
        row += 1
    counts[0] = t_count
    counts[1] = n
    return row


_sweep_rows = _njit(cache=True, nogil=True, _nrt=False)(_sweep_rows_py)
_SWEEP_ROWS_TYPES = (int64, (*(int64,) * 8, _A1, _A1, _A1, _A2, _A1, _A1))
_sweep_rows_at = call_at(*_SWEEP_ROWS_TYPES)


def _kth_highest_py(a: IntArray, n: int, k: int) -> int:
    """The ``k``-th highest of ``a[:n]`` (1 <= k <= n), which it reorders (a selection by
    halving around the middle element: numba's ``np.partition`` costs seconds to compile)."""
    lo = 0
    hi = n - 1
    want = k - 1  # the index the answer has in a[lo..hi] sorted from the highest
    while lo < hi:
        pivot = a[(lo + hi) // 2]
        i = lo
        j = hi
        while i <= j:
            while a[i] > pivot:
                i += 1
            while a[j] < pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if want <= j:
            hi = j
        elif want >= i:
            lo = i
        else:
            return int(a[want])
    return int(a[want])


_kth_highest = _jit(_kth_highest_py)


def _beam_cut_py(first: int, n: int, width: int, s: int, layer: IntArray, p: IntArray, w: IntArray) -> int:
    """Keep the ``width`` most promising of the ``n`` rows of layer ``s`` from row ``first``
    on (value so far plus the relaxation's bound; ties to the row reached first), in
    their order; returns how many are kept."""
    score = np.empty(n, np.int64)
    for i in range(n):
        r = REC * (first + i)
        bound = _key_bound(layer[r], s, p, w) if p[P_RELAXED] else 0
        score[i] = NEG if bound < 0 else layer[r + 1] + bound
    line = _kth_highest(score.copy(), n, width)
    above = 0
    for i in range(n):
        if score[i] > line:
            above += 1
    level = width - above  # rows scored at the line that still fit
    m = 0
    for i in range(n):
        if score[i] > line or (score[i] == line and level > 0):
            if score[i] == line:
                level -= 1
            src = REC * (first + i)
            dst = REC * (first + m)
            for col in range(REC):
                layer[dst + col] = layer[src + col]
            m += 1
    return m


_beam_cut = _jit(_beam_cut_py)


def _breadth_first_py(
    size: int, low: int, incumbent: int, width: int, path: IntArray, result: IntArray, p: IntArray, w: IntArray
) -> None:
    """A sweep over every state, number by number (each state once); states that
    cannot reach primary value ``low``, or whose full value cannot reach ``incumbent``
    (the value of a play already found), are dropped. Fills ``path`` and ``result``
    as :func:`_depth_first` does. Its tables start with room for ``size`` states a
    layer and grow as needed. With ``width`` > 0 (a beam, only with the relaxation
    worked out), each layer keeps only its ``width`` most promising states: a good
    play fast, not always the best."""
    result[0] = 0
    low_full = max(_floor_full(low), incumbent)
    rows = 16 * size
    # per state, one record: key, value, previous row, option index | slot mask << 32
    layer = np.empty(REC * rows, np.int64)
    starts = np.zeros(STEPS + 2, np.int64)
    # this layer's states: keys, stamps (the step), rows
    t = _new_records(size)
    out = np.empty((MAX_SUCC, 4), np.int64)
    counts = np.zeros(2, np.int64)  # the next layer's states so far, the rows in all
    layer[0] = p[P_START]
    layer[1] = 0
    layer[2] = -1
    layer[3] = 0
    starts[1] = 1
    counts[1] = 1
    for s in range(STEPS):
        counts[0] = 0
        row = starts[s]
        end = starts[s + 1]
        while True:
            row = _sweep_rows_at(
                w[W_AT_SWEEP_ROWS], (s, row, end, size, rows, low, low_full, incumbent, t, layer, counts, out, p, w)
            )
            if row >= end:
                break
            while (counts[0] + MAX_SUCC + 1) * 2 > size:
                t = _layer_enlarged(t, size, s)
                size *= 4
            while counts[1] + MAX_SUCC > rows:
                layer = _rows_enlarged(layer, rows)
                rows *= 2
        if width > 0 and counts[1] - starts[s + 1] > width:
            counts[1] = starts[s + 1] + _beam_cut(starts[s + 1], counts[1] - starts[s + 1], width, s + 1, layer, p, w)
        starts[s + 2] = counts[1]
        result[5] = counts[1]
        if starts[s + 2] == starts[s + 1]:
            return
    best_full = NEG
    best_row = -1
    best_placed = 0
    for row in range(starts[STEPS], starts[STEPS + 1]):
        full, placed = _finish(layer[REC * row], layer[REC * row + 1], p)
        if placed >= 0 and _primary_of(full) >= low and (best_row < 0 or full > best_full):
            best_full = full
            best_row = row
            best_placed = placed
    if best_row < 0:
        return
    result[0] = 1
    result[1] = best_full
    result[2] = best_placed
    result[3] = (layer[REC * best_row] >> J_SHIFT) & 15
    row = best_row
    for s in range(STEPS - 1, -1, -1):
        before = layer[REC * row + 2]
        how = layer[REC * row + 3]
        _fill_path_row_at(w[W_AT_FILL_PATH_ROW], (path, s, layer[REC * before], how & _LOW32, how >> 32, p, w))
        row = before


_breadth_first = _inline(_breadth_first_py)  # one call site, in ``search``


def _search_py(
    strategy: int,
    target: int,
    node_limit: int,
    incumbent: int,
    p: IntArray,
    w: IntArray,
    size: int,
    path: IntArray,
    result: IntArray,
) -> None:
    """``REACH``: depth-first for the best play whose primary value reaches ``target``
    (``node_limit`` < 0: no limit; ``result[4]`` says whether the search finished);
    with ``incumbent`` (a whole value, ``NEG``: none), the best value there is: only a
    play that has it counts, and the first one found ends the search (the tidy step's
    trials). ``SWEEP``: the same, breadth-first, which always finishes; ``incumbent`` is
    the whole value of a play already known (states that cannot match it are
    dropped). ``BEAM``: the sweep keeping only the ``node_limit`` most promising
    states of each layer (value so far plus the relaxation's bound): a good play
    fast, never counted as finished. ``ABOVE``: depth-first for the best play whose
    whole value is strictly above ``incumbent`` (the value of a play in hand; a
    finished search that finds none proves that play the best). ``result[5]``: the
    states expanded."""
    beam = strategy == BEAM
    if beam or strategy == SWEEP:
        width = max(node_limit, 1) if beam else 0
        _breadth_first(min(size, DEPTH_FIRST_START) if beam else size, target, incumbent, width, path, result, p, w)
        result[4] = 0 if beam else 1
    else:
        # one call site with typed values: a literal ``NEG`` in either place made numba
        # compile (and LLVM optimise) ``_depth_first`` twice
        first, above = (_as_int(NEG), incumbent) if strategy == ABOVE else (incumbent, _as_int(NEG))
        result[4] = 1 if _depth_first(size, target, node_limit, first, above, path, result, p, w) else 0


search = _jit(_search_py)
"""Run one search over the states of a problem (see :func:`_search_py`)."""

BY_ADDRESS = (
    (W_AT_OPTIONS, _options, *_OPTIONS_TYPES),
    (W_AT_DEPTH_FIRST_LOOP, _depth_first_loop, *_DEPTH_FIRST_LOOP_TYPES),
    (W_AT_SWEEP_ROWS, _sweep_rows, *_SWEEP_ROWS_TYPES),
    (W_AT_FILL_PATH_ROW, _fill_path_row, *_FILL_PATH_ROW_TYPES),
    (W_AT_INITIAL_SUCCESSORS, _initial_successors, *_SUCCESSORS_TYPES),
    (W_AT_SUCCESSORS, _successors, *_SUCCESSORS_TYPES),
    (W_AT_REACHABLE_RUNS, reachable_runs, *_REACHABLE_RUNS_TYPES),
    (W_AT_GROUP_NEED, _group_need, *_GROUP_NEED_TYPES),
)
"""The compiled functions called through their address (cell of the work array, function,
its return and argument types): see :mod:`rummykit.solve.byaddress`. Each is compiled on
its own, once; :func:`new_work` writes their addresses."""

_cells_and_addresses: list[tuple[int, int]] = []


def _addresses() -> list[tuple[int, int]]:
    """(cell, address) of each function of ``BY_ADDRESS``, found once per process."""
    if not _cells_and_addresses:
        _cells_and_addresses[:] = [(cell, address_of(f, restype, argtypes)) for cell, f, restype, argtypes in BY_ADDRESS]
    return _cells_and_addresses


ENTRIES: tuple[Dispatcher[Any], ...] = (search, relax, *(function for _cell, function, _r, _a in BY_ADDRESS))
"""What Python calls: the rest is compiled into these."""

PYTHON_CALLS = {search: (int64, int64, int64, int64, _A1, _A1, int64, _A2, _A1), relax: (_A1, _A1)}
"""The argument types :mod:`rummykit.solve.tiles` calls ``search`` and ``relax`` with: a
process compiling them ahead of the call (:func:`rummykit.solve.compiled.compile_cold`)
compiles these, so that numba's cache holds what the call asks for."""
