"""The exact arrangement solver for number tiles: a dynamic program over tile numbers.

The final table is built number by number (1..13) and, within a number,
colour by colour. Between steps the program remembers, for each colour, the
runs still open (their length so far: 1, 2 or 3+, and how many jokers they
end in) plus the jokers used, the parking room made so far (see below) and,
within a number, how many colours gave one or two tiles to groups. That is
the state of van Rijn, Takes and Vis (2015), with jokers handled as follows.

Jokers in canonical form. Any valid table can be rewritten, without changing
its tiles, so that every joker is either

* *structural*: bridging a gap inside a run, completing a run of one or two
  numbered tiles to three, or completing a group of one or two numbered tiles
  to three; or
* *parked*: an extra joker at either end of a run or as the fourth tile of a
  group of three, where it is not needed for the set to be valid.

The program places structural jokers only and counts the parking room of the
table it builds: a table with any run has room for every joker (a run of up
to 9 tiles has 4 free places at its ends, and a longer one, which holds at
least 6 numbered tiles, splits into two runs with 13 or more), and a table of
groups only has one place per group of three. At the end, every joker not
used structurally is parked while room lasts. This is exact (a table joker
that cannot be parked makes the branch invalid) and removes most of the
states that explicit joker positions create.

Kept sets (blocks). A set of the existing table may be kept as a block: its
tiles stay together and only gain tiles (at a run's ends, or as the fourth
tile of a group of three). The solver uses blocks to prefer plays that disturb
the table least.

The search is a forward sweep over the states, pruned by a bound: a state
that cannot reach the target value any more (tiles so far plus every rack
tile still ahead) is dropped. The target starts at "every placeable rack
tile" and is lowered step by step until a play is found, so typical positions
(where most of the rack can be placed) touch only a few hundred states.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

COLOURS = 4
TOP = 13
MIN_SET = 3
MAX_GROUP = 4

# A run code: class (1, 2 or 3 meaning 3+) + 4 * trailing jokers (0..7).
_CLASS_MASK = 3

# Bit layout of a state key.
_CS_BITS = 10  # per-colour state id
_J_SHIFT = _CS_BITS * COLOURS
_CAP_SHIFT = _J_SHIFT + 4
_P_SHIFT = _CAP_SHIFT + 4
_Q_SHIFT = _P_SHIFT + 3
_M_SHIFT = _Q_SHIFT + 3
_CS_MASK = (1 << _CS_BITS) - 1

# Bit layout of a value: primary objective, rack-joker penalty, secondary objective.
PRIMARY_SHIFT = 32
JOKER_SHIFT = 16


# -- per-colour states ----------------------------------------------------------------

_STATES: list[tuple[int, ...]] = [()]
_STATE_ID: dict[tuple[int, ...], int] = {(): 0}


def _sid(runs: tuple[int, ...]) -> int:
    sid = _STATE_ID.get(runs)
    if sid is None:
        sid = len(_STATES)
        if sid > _CS_MASK:
            raise OverflowError("too many distinct colour states")
        _STATES.append(runs)
        _STATE_ID[runs] = sid
    return sid


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


Option = tuple[int, int, int, int, int, ColourMove]
"""(new state id, tiles to groups, rack tiles used, structural jokers, parking room gained, move)."""


@lru_cache(maxsize=1 << 16)
def _options(
    sid: int,
    table: int,
    rack: int,
    jleft: int,
    number: int,
    arrivals: int,
    departures: int,
    next_supply: int,
    jokers: int,
    prune: bool,
) -> tuple[Option, ...]:
    """Every useful move of one colour at ``number`` from per-colour state ``sid``.

    ``table`` numbered tiles must be used, up to ``rack`` more may be; ``arrivals``
    kept runs start here, ``departures`` kept runs end here; ``next_supply`` is how
    many runs could continue at the next number without jokers. With ``prune``
    (parking room already plentiful) a move is dropped when another move of the
    same groups uses as many rack tiles, no more jokers and leaves open runs at
    least as good (each at least as long, extra ones of 3+).
    """
    runs = _STATES[sid]
    last = number == TOP
    room = jokers  # any run makes room for every joker (see the module notes)
    found: dict[tuple[int, int, int], list[tuple[int, int, ColourMove]]] = {}
    per_run: list[tuple[int, ...]] = []
    for code in runs:
        w = code >> 2
        allowed = [NAT, JOK]
        if w == 0:
            allowed.append(END)
        if arrivals:
            allowed.append(MERGE)
        per_run.append(tuple(allowed))
    for combo in itertools.product(*per_run):
        nat = combo.count(NAT)
        merges = combo.count(MERGE)
        if merges > arrivals:
            continue
        dj = 0
        cap = 0
        kept: list[int] = []
        for code, ch in zip(runs, combo, strict=True):
            cls = code & _CLASS_MASK
            w = code >> 2
            if ch == NAT:
                kept.append(min(cls + 1, 3))
            elif ch == JOK:
                dj += 1
                kept.append(min(cls + 1, 3) | ((w + 1) << 2))
            elif ch == END and cls < 3:
                dj += MIN_SET - cls
        if dj > jleft:
            continue
        standalone = arrivals - merges
        for used_here in range(max(table, nat), table + rack + 1):
            rest = used_here - nat
            for new_runs in range(rest + 1):
                groups = rest - new_runs
                codes = kept + [1] * new_runs + [3] * departures
                djx = dj
                capx = cap + (room if new_runs + standalone else 0)
                dropped = 0
                if last:
                    ok = True
                    for code in codes:
                        if code >> 2:
                            ok = False
                            break
                        cls = code & _CLASS_MASK
                        if cls < 3:
                            djx += MIN_SET - cls
                    if not ok:
                        continue
                    codes = []
                else:
                    waiting = sum(1 for code in codes if code >> 2)
                    supply = next_supply + jleft - djx
                    if waiting > supply:
                        continue
                    threes = codes.count(3)
                    if threes > supply:
                        dropped = threes - supply
                        for _ in range(dropped):
                            codes.remove(3)
                if djx > jleft:
                    continue
                new_sid = _sid(tuple(sorted(codes)))
                key = (new_sid, groups, djx)
                move = ColourMove(combo, used_here, new_runs, groups, dropped)
                entry = (used_here - table, capx, move)
                lst = found.setdefault(key, [])
                if any(u >= entry[0] and c >= entry[1] for u, c, _ in lst):
                    continue
                lst[:] = [e for e in lst if not (entry[0] >= e[0] and entry[1] >= e[1])]
                lst.append(entry)
    out: list[Option] = []
    for (new_sid, groups, djx), lst in found.items():
        for used, capx, move in lst:
            out.append((new_sid, groups, used, djx, min(capx, jokers), move))
    out.sort(key=lambda o: (-o[2], o[3], -o[4]))
    if prune:
        kept_opts: list[Option] = []
        for o in out:
            if any(
                k[1] == o[1] and k[3] <= o[3] and k[2] >= o[2] and _dominates(_STATES[k[0]], _STATES[o[0]])
                for k in kept_opts
            ):
                continue
            kept_opts.append(o)
        out = kept_opts
    return tuple(out)


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Open runs ``a`` are at least as good as ``b`` (runs ending in jokers must agree)."""
    if a == b:
        return True
    if tuple(r for r in a if r >> 2) != tuple(r for r in b if r >> 2):
        return False
    n = [0, 0, 0, 0]
    m = [0, 0, 0, 0]
    for r in a:
        if not r >> 2:
            n[r] += 1
    for r in b:
        if not r >> 2:
            m[r] += 1
    return (
        n[1] <= m[1]
        and n[1] + n[2] <= m[1] + m[2]
        and m[3] <= n[3]
        and m[2] + m[3] <= n[2] + n[3]
        and m[1] + m[2] + m[3] <= n[1] + n[2] + n[3]
    )


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


@dataclass
class Result:
    """The best play found: rack tiles used per cell, jokers placed, and the moves to rebuild it."""

    value: int
    used: list[list[int]]
    jokers_placed: int
    structural_jokers: int
    moves: list[tuple[int, int, int, ColourMove, int]]  # (number, colour, old sid, move, slot mask)
    closures: list[tuple[int, int, int, int, int]]  # (number, ones, twos, partition index, slot mask)


def _value(primary: int, secondary: int) -> int:
    return (primary << PRIMARY_SHIFT) + secondary


def primary_of(value: int) -> int:
    """The primary objective of a value (the lower parts are less than half a unit)."""
    return (value + (1 << (PRIMARY_SHIFT - 1))) >> PRIMARY_SHIFT


def secondary_of(value: int) -> int:
    """The tie-break part of a value: secondary objective minus a penalty per rack joker."""
    return value - (primary_of(value) << PRIMARY_SHIFT)


class _Search:
    """One search over the states of a problem: transitions, bounds and the best play found."""

    def __init__(self, problem: Problem) -> None:
        p = problem
        self.p = p
        self.block_jokers = sum(b.jokers for b in p.run_blocks) + sum(b.jokers for b in p.group_blocks)
        self.total_jokers = p.table_jokers + p.rack_jokers + self.block_jokers
        self.table_jokers_all = p.table_jokers + self.block_jokers
        self.arrivals = [[0] * (TOP + 2) for _ in range(COLOURS)]
        self.departures = [[0] * (TOP + 2) for _ in range(COLOURS)]
        for rb in p.run_blocks:
            self.arrivals[rb.colour][rb.lo] += 1
            self.departures[rb.colour][rb.hi] += 1
        # Slots of kept groups of three, per number: (bit, colours they accept).
        self.slots: list[list[tuple[int, int]]] = [[] for _ in range(TOP + 2)]
        for gb in sorted(p.group_blocks, key=lambda b: b.source):
            if gb.size == MIN_SET:
                missing = (~gb.colours) & ((1 << COLOURS) - 1)
                self.slots[gb.number].append((1 << len(self.slots[gb.number]), missing))
        # Optimistic value still to come from each step on (steps: 5 per number, the
        # fifth closing the groups): primary only, and primary with secondary.
        steps = TOP * 5
        self.ahead = [0] * (steps + 1)
        self.ahead_full = [0] * (steps + 1)
        acc = p.rack_jokers * p.joker_primary
        full = p.rack_jokers * (_value(p.joker_primary, p.joker_secondary) - (1 << JOKER_SHIFT))
        for s in range(steps, -1, -1):
            if s < steps:
                v, c = divmod(s, 5)
                if c < COLOURS:
                    k = p.rack[c][v + 1]
                    acc += k * p.primary[v + 1]
                    full += k * _value(p.primary[v + 1], p.secondary[v + 1])
            self.ahead[s] = acc
            self.ahead_full[s] = full
        self.start_key = self.block_jokers << _J_SHIFT

    def options(self, v: int, c: int, key: int) -> tuple[Option, ...]:
        p = self.p
        sid = (key >> (_CS_BITS * c)) & _CS_MASK
        j = (key >> _J_SHIFT) & 15
        cap = (key >> _CAP_SHIFT) & 15
        supply = (p.table[c][v + 1] + p.rack[c][v + 1] + self.arrivals[c][v + 1]) if v < TOP else 0
        return _options(
            sid,
            p.table[c][v],
            p.rack[c][v],
            self.total_jokers - j,
            v,
            self.arrivals[c][v],
            self.departures[c][v],
            supply,
            self.total_jokers,
            cap >= self.total_jokers,
        )

    def successors(self, s: int, key: int) -> list[tuple[int, int, int, int]]:
        """(next key, value gained, option or partition index, slot mask) from step ``s``."""
        v, c = divmod(s, 5)
        v += 1
        p = self.p
        out: list[tuple[int, int, int, int]] = []
        j = (key >> _J_SHIFT) & 15
        cap = (key >> _CAP_SHIFT) & 15
        ones = (key >> _P_SHIFT) & 7
        twos = (key >> _Q_SHIFT) & 7
        mask = key >> _M_SHIFT
        total = self.total_jokers
        if c == COLOURS:
            all_slots = 0
            for bit, _ in self.slots[v]:
                all_slots |= bit
            free_slots = bin(all_slots & ~mask).count("1")
            core = key & ((1 << _J_SHIFT) - 1)
            saturated = cap >= total
            for pi, (k, threes, _groups) in enumerate(group_partitions(ones, twos)):
                if j + k > total or (saturated and pi):
                    continue
                ncap = min(cap + threes + free_slots, total)
                out.append((core | ((j + k) << _J_SHIFT) | (ncap << _CAP_SHIFT), 0, pi, mask))
            return out
        shift = _CS_BITS * c
        gain_p = p.primary[v]
        gain_s = p.secondary[v]
        accepts = [(bit, acc) for bit, acc in self.slots[v] if acc >> c & 1]
        colours_only = key & ((1 << _J_SHIFT) - 1) & ~(_CS_MASK << shift)
        for oi, (nsid, groups, used, dj, capg, _move) in enumerate(self.options(v, c, key)):
            gain = _value(used * gain_p, used * gain_s)
            ncap = min(cap + capg, total)
            core = colours_only | (nsid << shift) | ((j + dj) << _J_SHIFT) | (ncap << _CAP_SHIFT)
            for slot_mask in _slot_choices(groups, mask, accepts):
                rest = groups - bin(slot_mask).count("1")
                nkey = (
                    core
                    | ((ones + (rest == 1)) << _P_SHIFT)
                    | ((twos + (rest == 2)) << _Q_SHIFT)
                    | ((mask | slot_mask) << _M_SHIFT)
                )
                out.append((nkey, gain, oi, slot_mask))
        return out

    def finish(self, key: int, val: int) -> tuple[int, int] | None:
        """The full value of a complete table (spare jokers parked) and jokers placed, or None."""
        p = self.p
        j = (key >> _J_SHIFT) & 15
        cap = (key >> _CAP_SHIFT) & 15
        placed = min(self.total_jokers, j + cap)
        if placed < self.table_jokers_all:
            return None
        rack_jokers = placed - self.table_jokers_all
        full = (
            val
            + _value(rack_jokers * p.joker_primary, rack_jokers * p.joker_secondary)
            - (rack_jokers << JOKER_SHIFT)
        )
        return full, placed

    def result(self, path: list[tuple[int, int, int, int]], key: int, full: int, placed: int) -> Result:
        """Rebuild a Result from the path of (step, key before, index, slot mask)."""
        moves: list[tuple[int, int, int, ColourMove, int]] = []
        closures: list[tuple[int, int, int, int, int]] = []
        used = [[0] * (TOP + 2) for _ in range(COLOURS)]
        for s, before, index, slot_mask in path:
            v, c = divmod(s, 5)
            v += 1
            if c == COLOURS:
                closures.append((v, (before >> _P_SHIFT) & 7, (before >> _Q_SHIFT) & 7, index, slot_mask))
            else:
                opt = self.options(v, c, before)[index]
                used[c][v] = opt[2]
                sid = (before >> (_CS_BITS * c)) & _CS_MASK
                moves.append((v, c, sid, opt[5], slot_mask))
        return Result(full, used, placed, (key >> _J_SHIFT) & 15, moves, closures)


def solve_problem(problem: Problem, *, target: int | None = None, node_limit: int | None = None) -> Result | None:
    """The best play of a problem whose primary value reaches ``target`` (None: any); see
    :func:`depth_first`. With ``node_limit``, None also when the limit stopped the search."""
    result, complete = depth_first(problem, target=target, node_limit=node_limit)
    return result if complete else None


def depth_first(
    problem: Problem, *, target: int | None = None, node_limit: int | None = None
) -> tuple[Result | None, bool]:
    """The best play of a problem whose primary value reaches ``target`` (None: any).

    A depth-first branch and bound over the states: options are tried most tiles
    first, each (step, state) is expanded again only with a better value, and a
    state is cut when even every rack tile still ahead could not beat the best
    play found (or reach ``target``). Returns None when no arrangement reaches
    the target (or, with no target, when the table cannot be arranged at all).
    ``node_limit`` stops early after that many expansions: the second item of the
    answer says whether the search finished (the first is then exact).
    """
    search = _Search(problem)
    steps = TOP * 5
    floor = -(1 << 62) if target is None else target
    best_full = -(1 << 62)
    best: Result | None = None
    seen: dict[tuple[int, int], int] = {}
    path: list[tuple[int, int, int, int]] = []
    ahead = search.ahead
    ahead_full = search.ahead_full
    expansions = 0

    class _Stop(Exception):
        pass

    class _Limit(Exception):
        pass

    ceiling = search.ahead_full[0]

    def visit(s: int, key: int, val: int) -> None:
        nonlocal best_full, best, expansions
        if s == steps:
            done = search.finish(key, val)
            if done is None:
                return
            full, placed = done
            if full > best_full and primary_of(full) >= floor:
                best_full = full
                best = search.result(path, key, full, placed)
                if full >= ceiling:
                    raise _Stop
            return
        if (val >> PRIMARY_SHIFT) + ahead[s] < floor or val + ahead_full[s] <= best_full:
            return
        mk = (s, key)
        if seen.get(mk, -(1 << 62)) >= val:
            return
        seen[mk] = val
        expansions += 1
        if node_limit is not None and expansions > node_limit:
            raise _Limit
        for nkey, gain, index, slot_mask in search.successors(s, key):
            path.append((s, key, index, slot_mask))
            visit(s + 1, nkey, val + gain)
            path.pop()

    try:
        visit(0, search.start_key, 0)
    except _Stop:
        pass
    except _Limit:
        return best, False
    return best, True


def breadth_first(problem: Problem, *, floor: int | None = None) -> Result | None:
    """The optimal play by a sweep over all states, number by number (each state once).

    States that cannot reach primary value ``floor`` any more are dropped; the
    answer is exact whenever the optimum reaches ``floor``.
    """
    search = _Search(problem)
    steps = TOP * 5
    low = -(1 << 62) if floor is None else floor
    ahead = search.ahead
    layer: dict[int, int] = {search.start_key: 0}
    back: list[dict[int, tuple[int, int, int]]] = []
    for s in range(steps):
        nxt: dict[int, int] = {}
        bp: dict[int, tuple[int, int, int]] = {}
        bound = ahead[s + 1]
        for key, val in layer.items():
            for nkey, gain, index, slot_mask in search.successors(s, key):
                nval = val + gain
                if (nval >> PRIMARY_SHIFT) + bound < low:
                    continue
                if nxt.get(nkey, -(1 << 62)) < nval:
                    nxt[nkey] = nval
                    bp[nkey] = (key, index, slot_mask)
        if not nxt:
            return None
        layer = nxt
        back.append(bp)
    best: tuple[int, int, int] | None = None
    for key, val in layer.items():
        done = search.finish(key, val)
        if done is not None and primary_of(done[0]) >= low and (best is None or done[0] > best[0]):
            best = (done[0], key, done[1])
    if best is None:
        return None
    full, key, placed = best
    path: list[tuple[int, int, int, int]] = []
    for s in range(steps - 1, -1, -1):
        prev, index, slot_mask = back[s][key]
        path.append((s, prev, index, slot_mask))
        key = prev
    path.reverse()
    return search.result(path, best[1], full, placed)


def _slot_choices(groups: int, mask: int, accepts: Sequence[tuple[int, int]]) -> list[int]:
    """Which free kept-group slots the ``groups`` tiles of one colour may fill (bit masks)."""
    if not groups or not accepts:
        return [0]
    free = [bit for bit, _ in accepts if not mask & bit]
    out = [0]
    for k in range(1, min(groups, len(free)) + 1):
        for combo in itertools.combinations(free, k):
            m = 0
            for bit in combo:
                m |= bit
            out.append(m)
    return out


def upper_bound(problem: Problem) -> int:
    """The primary value if every rack tile in the problem were placed."""
    p = problem
    total = p.rack_jokers * p.joker_primary
    for c in range(COLOURS):
        for v in range(1, TOP + 1):
            total += p.rack[c][v] * p.primary[v]
    return total


DIVE_LIMIT = 4000
PROBE_LIMIT = 1500


def solve_best(problem: Problem) -> Result | None:
    """The optimal play.

    First a depth-first look for a play placing every rack tile (found at once in
    most positions with a large table); then a short depth-first probe for a good
    play; then a sweep over every state that could still match the probe's value,
    which is exact (the optimum reaches that value, so it survives).
    """
    full, _finished = depth_first(problem, target=upper_bound(problem), node_limit=DIVE_LIMIT)
    if full is not None:
        return full
    probe, done = depth_first(problem, node_limit=PROBE_LIMIT)
    if done:
        return probe
    return breadth_first(problem, floor=None if probe is None else primary_of(probe.value))


# -- rebuilding the table ---------------------------------------------------------------


@dataclass
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
        return min(self.cls, 3) | (self.waiting << 2)


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
    for rb in sorted(p.run_blocks, key=lambda b: b.source):
        arrivals.setdefault((rb.colour, rb.lo), []).append(rb)
    kept_groups: dict[int, list[GroupBlock]] = {}
    for gb in sorted(p.group_blocks, key=lambda b: b.source):
        kept_groups.setdefault(gb.number, []).append(gb)

    def finish(run: _Run, end: int) -> None:
        cells = list(run.cells)
        if run.cls < MIN_SET:
            for _ in range(MIN_SET - run.cls):
                last = cells[-1][0]
                if last < TOP:
                    cells.append((last + 1, True))
                else:
                    cells.insert(0, (cells[0][0] - 1, True))
        finished.append((run.colour, cells, run.sources))

    moves_by_number: dict[int, list[tuple[int, int, ColourMove, int]]] = {}
    for v, c, sid, move, slot_mask in result.moves:
        moves_by_number.setdefault(v, []).append((c, sid, move, slot_mask))
    closure_by_number = {v: (ones, twos, pi, mask) for v, ones, twos, pi, mask in result.closures}
    for v in range(1, TOP + 1):
        to_groups: list[tuple[int, int]] = []  # (colour, count) for new groups
        slot_fill: dict[int, int] = {}  # slot bit -> colour
        for c, sid, move, slot_mask in moves_by_number[v]:
            runs = sorted(active[c], key=lambda r: r.code)
            if tuple(r.code for r in runs) != _STATES[sid]:
                raise AssertionError("rebuild out of step with the solver's states")
            arriving = list(arrivals.get((c, v), []))
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
                    finish(run, v - 1)
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
            for _ in range(move.new_runs):
                nxt.append(_Run(c, [(v, False)], 1, 0, []))
            for run in list(waiting_blocks[c]):
                if run.back == v:
                    waiting_blocks[c].remove(run)
                    nxt.append(run)
            for _ in range(move.dropped):
                run = next(r for r in nxt if r.code == 3)
                nxt.remove(run)
                finish(run, v)
            if v == TOP:
                for run in nxt:
                    finish(run, TOP)
                nxt = []
            active[c] = nxt
            in_slots = 0
            for bit in _bits(slot_mask):
                slot_fill[bit] = c
                in_slots += 1
            if move.groups - in_slots:
                to_groups.append((c, move.groups - in_slots))
        # Groups of this number.
        ones_colours = [c for c, k in to_groups if k == 1]
        twos_colours = [c for c, k in to_groups if k == 2]
        ones, twos, pi, _mask = closure_by_number[v]
        if (len(ones_colours), len(twos_colours)) != (ones, twos):
            raise AssertionError("rebuild out of step with the solver's groups")
        _k, _threes, template = group_partitions(ones, twos)[pi]
        slot_colour = ones_colours + twos_colours
        for g in template:
            colours = [slot_colour[i] for i in g]
            groups.append((v, colours, max(0, MIN_SET - len(colours)), None))
        bit = 1
        for gb in kept_groups.get(v, []):
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
    return Built(finished, groups)


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
