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

Moves of one colour at one number. From its open runs, each run continues
with a numbered tile or a joker, ends (a run of one or two is completed with
jokers, a run ending in jokers may not end), or merges into a kept run that
starts here; the table's tiles of that colour and number must all be used and
the rack's may be; new runs start with the remaining tiles, and the rest go
to groups. Moves that are worse than another in every respect are dropped.

The model (moves, the problem, values and rebuilding a table) is in
:mod:`rummykit.solve.tilemodel`; this module runs the search.

The search is compiled with numba (:mod:`rummykit.solve.kernel`). It first
asks for the best play placing every placeable rack tile, the answer in most
positions: a depth-first branch and bound with a node limit (most tiles
first, a state expanded again only with a better value, a branch cut when
even every rack tile still ahead could not reach the target or beat the best
play found) settles most positions in well under a millisecond. When it
cannot finish, the program works out a *relaxation*: for each colour alone,
and each number of jokers left, whether its open runs can still be completed
with that colour's own tiles (groups allowed only where the other colours
have tiles) and the most its rack tiles can still add to the whole value
(objective, jokers, second objective). From then on a state is dropped when a
colour cannot finish or when its value plus the sum of those maxima cannot
reach the target, or in a depth-first search cannot beat the best play found
so far. The relaxation only ever allows more than the real problem, so
nothing optimal is lost, and it removes most of the states of the hard
positions. Then a depth-first search again.

If no play places every tile (or none was found), a depth-first probe
without a target looks for a good play (both ways when nothing yet says which
is easier, going on the way whose probe did better), then, relaxed, for a better one; if
it searched everything, its play is the optimum, otherwise a beam finds a
better one fast and one breadth-first sweep over the states (each once) keeps
every state that could still beat the play in hand, which is exact. The tidy
step's trials (:mod:`rummykit.solve.play`) know the value they want: they cut
every branch that cannot reach it and stop at the first play that does.

The answer is the best by the whole value (the objective, then fewer rack
jokers, then the secondary objective), not only by the objective: every path
above ends with a search that finished or with a sweep, and a sweep started
with a play in hand keeps exactly the states that can beat it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from rummykit.solve.tilearrays import _kernel_problem, _result_of
from rummykit.solve.tilemodel import (
    COLOURS,
    END,
    JOK,
    JOKER_SHIFT,
    MAX_THRESHOLD,
    MERGE,
    MIN_SET,
    NAT,
    PRIMARY_SHIFT,
    TOP,
    Built,
    ColourMove,
    GroupBlock,
    Problem,
    Result,
    RunBlock,
    flipped,
    group_partitions,
    primary_of,
    rebuild,
    secondary_of,
    upper_bound,
    value_of,
)

if TYPE_CHECKING:
    from types import ModuleType


class Ints(Protocol):
    """One of the kernel's arrays (problem, work, path, result) as this module uses it: 64-bit integers.

    The arrays are numpy's (made by :mod:`rummykit.solve.kernel`, the one module
    that imports numpy); their int64 items act as whole numbers here.
    """

    def __getitem__(self, index: int, /) -> int: ...

    def __setitem__(self, index: int | slice, value: int | Sequence[int], /) -> None: ...

    def copy(self) -> Ints: ...

    def tolist(self) -> list[list[int]]: ...

__all__ = [
    "COLOURS",
    "END",
    "JOK",
    "JOKER_SHIFT",
    "MAX_THRESHOLD",
    "MERGE",
    "MIN_SET",
    "NAT",
    "PRIMARY_SHIFT",
    "TOP",
    "Built",
    "ColourMove",
    "GroupBlock",
    "Problem",
    "Result",
    "RunBlock",
    "group_partitions",
    "primary_of",
    "rebuild",
    "secondary_of",
    "solve_best",
    "solve_problem",
    "upper_bound",
    "value_of",
]


# -- the compiled search ------------------------------------------------------------------


# Table sizes and search limits: they decide how fast an answer comes and which of several
# equally good plays it is, never the answer's value.
DEFAULT_MEMO = 1 << 14  # memo of moves (a power of two)
DEFAULT_POOL = 1 << 15  # rows of moves
DEFAULT_STATES = 1 << 15  # states a layer of the sweep starts with room for (a power of two)
MAX_MEMO = 1 << 18  # a shared memo grown past this is dropped before the next problem
RELAX_MEMO = 1 << 16  # memo entries to start the relaxation with
KERNEL_DIVE = 10000  # depth-first nodes before a position counts as hard one way (a millisecond or two)
KERNEL_SHORT_DIVE = 30000  # depth-first nodes once relaxed (it cuts hard, and finds plays far faster than a sweep)
KERNEL_QUICK_PROBE = 1000  # depth-first nodes of the probe before it works out the relaxation
KERNEL_SMALL_PROBE = 10000  # the same on a small table, where the relaxation costs as much as the probe
SMALL_TABLE = 24  # table tiles (not in kept sets) up to which a table counts as small
KERNEL_PROBE = 15000  # depth-first nodes of the relaxed probe (for a play better than the quick probe's)
BEAM_WIDTH = 300  # states a layer of the beam keeps (a good play for the sweep to beat)


class _SharedWork(threading.local):
    """The work array the searches of one thread share.

    Its memo of moves stays valid from one problem to the next (a move list depends
    only on what its key encodes), so later searches start warm; the relaxation's
    table belongs to one problem at a time (see ``_Kernel.relax``).
    """

    def __init__(self) -> None:
        self.work: Ints | None = None
        self.memo_size = DEFAULT_MEMO
        self.pool_size = DEFAULT_POOL
        self.owner = 0  # the kernel whose relaxation the table holds
        self.path: Ints | None = None  # see _Kernel.__init__
        self.result: Ints | None = None
        self.path_kernel: ModuleType | None = None


_SHARED = _SharedWork()
_KERNELS = itertools.count(1)


class _Kernel:
    """Searches of one problem with the compiled kernel."""

    def __init__(
        self, problem: Problem, sizes: tuple[int, int, int] | None = None, module: ModuleType | None = None
    ) -> None:
        from rummykit.solve.compiled import kernel_module

        kernel = module if module is not None else kernel_module()
        self.k = kernel
        self.P = _kernel_problem(problem, kernel)
        self.id = next(_KERNELS)
        self.relaxed = False
        # the path and the answer are read back as soon as a search returns (see run): the
        # searches of one thread share them
        path, result = _SHARED.path, _SHARED.result
        if path is None or result is None or _SHARED.path_kernel is not kernel:
            path, result = kernel.new_path(), kernel.new_result()
            _SHARED.path, _SHARED.result, _SHARED.path_kernel = path, result, kernel
        self.path: Ints = path
        self.result: Ints = result
        # memo of moves (a power of two) and rows of moves, each grown fourfold whenever a
        # search finds it too small; the size the searches' state tables start with (a power
        # of two; they grow in place)
        self.shared = sizes is None
        if sizes is None:
            if _SHARED.work is None or _SHARED.memo_size > MAX_MEMO:
                # first use, or grown large for a past problem: start with the usual sizes
                _SHARED.memo_size, _SHARED.pool_size = DEFAULT_MEMO, DEFAULT_POOL
                _SHARED.work = kernel.new_work(DEFAULT_MEMO, DEFAULT_POOL)
                _SHARED.owner = 0
            self.size = DEFAULT_STATES
        else:
            memo_size, pool_size, self.size = sizes
            self._private = kernel.new_work(memo_size, pool_size)
            self._private_sizes = (memo_size, pool_size)

    @property
    def W(self) -> Ints:
        work = _SHARED.work if self.shared else self._private
        assert work is not None, "the shared work array is made with the kernel"
        return work

    def _sizes(self) -> tuple[int, int]:
        return (_SHARED.memo_size, _SHARED.pool_size) if self.shared else self._private_sizes

    def _renew(self, memo_size: int, pool_size: int) -> None:
        """Start over with an empty work array of these sizes (the memo is only a cache)."""
        work = self.k.new_work(memo_size, pool_size)
        if self.shared:
            _SHARED.work, _SHARED.memo_size, _SHARED.pool_size = work, memo_size, pool_size
            _SHARED.owner = 0
        else:
            self._private, self._private_sizes = work, (memo_size, pool_size)
        self.relaxed = False
        self.P[self.k.P_RELAXED] = 0

    def _owns_relaxation(self) -> bool:
        return not self.shared or _SHARED.owner == self.id

    def relax(self) -> None:
        """Prune with the per-colour relaxation from now on (worth it for hard positions)."""
        if (self.relaxed and self._owns_relaxation()) or self.P[self.k.P_TOTAL] >= self.k.JOKER_SLOTS:
            return
        memo_size, pool_size = self._sizes()
        if memo_size < RELAX_MEMO:
            # the relaxation computes the moves of thousands of colour states: start it
            # with room for them rather than run out half-way
            self._renew(RELAX_MEMO, 2 * RELAX_MEMO)
        for _attempt in range(3):
            try:
                self.k.relax(self.P, self.W)
                break
            except OverflowError:  # colour states used up: start afresh once, else go without
                if self.W[self.k.W_SIDS] < self.k.MAX_SIDS // 2 or _attempt:
                    return
                self._renew(*self._sizes())
            except IndexError:
                memo_size, pool_size = self._sizes()
                self._renew(memo_size * 4, pool_size * 4)
        else:
            return
        self.relaxed = True
        if self.shared:
            _SHARED.owner = self.id
        self.P[self.k.P_RELAXED] = 1

    def run(
        self, strategy: int, target: int, node_limit: int = -1, incumbent: int = -(1 << 62), want: int | None = None
    ) -> tuple[Result | None, bool]:
        """(best play reaching ``target`` or None, whether the search finished); with
        ``want``, a play whose whole value is not ``want`` counts as None."""
        k = self.k
        renewed = False
        while True:
            if self.relaxed and not self._owns_relaxation():
                # another problem's relaxation has replaced this one's table since
                self.relaxed = False
                self.P[k.P_RELAXED] = 0
                self.relax()
            if not self.relaxed and self.shared and _SHARED.owner:
                _SHARED.owner = 0  # this problem must never read another one's bounds
                self.W[k.W_RELAX_SIDS] = 0
            self.result[:] = 0
            try:
                k.search(
                    strategy, target, node_limit, incumbent, self.P, self.W, self.size, self.path, self.result
                )
                break
            except IndexError:  # the memo or the rows of moves were too small: enlarge them
                memo_size, pool_size = self._sizes()
                self._renew(memo_size * 4, pool_size * 4)
            except OverflowError:  # colour states used up by earlier problems: start afresh
                if renewed:
                    raise
                renewed = True
                self._renew(*self._sizes())
        found, value, finished = self.result[0], self.result[1], bool(self.result[4])
        if want is not None and (not finished or (found and value != want)):
            return None, finished  # the caller drops this play: it is not decoded
        return _result_of(self.path, self.result, k), finished


def _reach(kernel: _Kernel, target: int) -> Result | None:
    """The best play whose primary value reaches ``target``, or None (exact)."""
    found, finished = kernel.run(kernel.k.REACH, target, KERNEL_DIVE)
    if not finished and not kernel.relaxed:
        kernel.relax()
        found, finished = kernel.run(kernel.k.REACH, target, KERNEL_SHORT_DIVE)
    if not finished:
        # the sweep is exact; a play found already lets it drop every worse state
        incumbent = found.value if found is not None else -(1 << 62)
        found, _ = kernel.run(kernel.k.SWEEP, target, incumbent=incumbent)
    return found


class _Mirrored(_Kernel):
    """Searches of a problem with its numbers mirrored (:func:`flipped`): every play found
    is marked so that ``rebuild`` turns it back."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(flipped(problem))

    def run(
        self, strategy: int, target: int, node_limit: int = -1, incumbent: int = -(1 << 62), want: int | None = None
    ) -> tuple[Result | None, bool]:
        found, finished = super().run(strategy, target, node_limit, incumbent, want)
        if found is not None:
            found.mirrored = True
        return found, finished


def solve_best(problem: Problem) -> Result | None:
    """The optimal play (None when no play places a tile).

    The searches run on the problem as it is and, where that does not settle it, with its
    numbers mirrored (13 first); both have the same best value, and a position hard one
    way is most often easy the other. First the best play placing every placeable rack
    tile: a depth-first search, and when it cannot finish the same mirrored; the rest
    goes the way whose search finished, and when neither did, forward: relaxed,
    another. Failing that, a probe without a target; when only the forward dive ran (it
    proved at once that no play places every tile) and the probe cannot finish, the same
    probe mirrored, and the rest goes the way whose probe found the play of higher
    primary value (forward on a tie). Then (relaxed, unless the relaxed search for
    every tile could not finish) a probe for a strictly better play, that way and then
    the other: one that finishes proves the best play found.
    Otherwise a beam (a sweep keeping the most promising states of each layer) finds a
    better play fast, and one sweep keeps every state that could still beat the play in
    hand (exact; none: the play in hand is the best)."""
    everything = upper_bound(problem)
    if everything < 1:
        return None
    # an initial meld is searched mirrored always (see tilearrays); kept sets come with the tidy step only
    mirrorable = problem.threshold is None and not (problem.run_blocks or problem.group_blocks)
    kernel = _Kernel(problem)
    other: _Kernel | None = None  # the searches the other way, once one ran
    found, finished = kernel.run(kernel.k.REACH, everything, KERNEL_DIVE)
    if not finished and mirrorable:
        # hard from 1 up is most often easy from 13 down (where the colours compete for the
        # same high tiles and jokers), and the other way round
        mirrored = other = _Mirrored(problem)
        found_there, finished_there = mirrored.run(mirrored.k.REACH, everything, KERNEL_DIVE)
        if finished_there:
            # the best play placing every tile, or none: the rest goes on mirrored
            kernel, other, found, finished = mirrored, kernel, found_there, True
    if not finished:
        kernel.relax()
        found, finished = kernel.run(kernel.k.REACH, everything, KERNEL_SHORT_DIVE)
    if found is not None:
        return found
    # a relaxed depth-first search that could not finish: a long probe would not either
    hopeless = not finished and kernel.relaxed
    small = sum(map(sum, problem.table)) + problem.table_jokers <= SMALL_TABLE
    quick = KERNEL_SMALL_PROBE if small else KERNEL_QUICK_PROBE
    probe, done = kernel.run(kernel.k.REACH, -(1 << 62), quick)
    if not done and mirrorable and other is None:
        # the forward dive proved at once that no play places every tile, so nothing says
        # which way is easier: the same quick probe mirrored, and the rest goes on the way
        # whose probe found the better play (forward on a tie)
        other = _Mirrored(problem)
        probe_there, done_there = other.run(other.k.REACH, -(1 << 62), quick)
        if done_there or _primary(probe_there) > _primary(probe):
            kernel, other, probe, done = other, kernel, probe_there, done_there
    if not done:
        kernel.relax()
        probe, done = (probe, False) if hopeless else _above(probe, kernel, kernel.k.ABOVE, KERNEL_PROBE, 0)
    if not done and mirrorable and not hopeless:
        # the other way often proves at once what this one cannot; if not, the beam and
        # the sweep go on that way, whose relaxation the work array then holds
        if other is None:
            other = _Kernel(problem) if isinstance(kernel, _Mirrored) else _Mirrored(problem)
        kernel = other
        kernel.relax()
        probe, done = _above(probe, kernel, kernel.k.ABOVE, KERNEL_PROBE, 0)
    if not done:
        probe = _above(probe, kernel, kernel.k.BEAM, BEAM_WIDTH, 1)[0]  # they keep what can reach
        probe = _above(probe, kernel, kernel.k.SWEEP, -1, 1)[0]  # their incumbent: one above the play
    return probe if probe is not None and primary_of(probe.value) >= 1 else None


def _primary(found: Result | None) -> int:
    """The primary value of a play (-1: no play)."""
    return -1 if found is None else primary_of(found.value)


def _above(known: Result | None, kernel: _Kernel, strategy: int, limit: int, up: int) -> tuple[Result | None, bool]:
    """(the better of ``known`` and what a search for a strictly better play finds, whether it finished)."""
    low, incumbent = (1, -(1 << 62)) if known is None else (max(1, primary_of(known.value)), known.value + up)
    found, finished = kernel.run(strategy, low, limit, incumbent=incumbent)
    return (found if found is not None and (known is None or found.value > known.value) else known), finished


def solve_problem(
    problem: Problem, *, target: int, node_limit: int | None = None, value: int | None = None
) -> Result | None:
    """The best play of a problem whose primary value reaches ``target``, or None.

    With ``node_limit``, only a depth-first search of that many nodes: None also when it
    could not finish (the tidy step's trials, which may fail without changing any value);
    with ``value`` as well, None also when the best play's whole value is not ``value``
    (the play is then not rebuilt at all).
    """
    kernel = _Kernel(problem)
    if node_limit is None:
        return _reach(kernel, target)
    if value is None:
        found, finished = kernel.run(kernel.k.REACH, target, node_limit)
    else:
        # the best value there is, known: the search ends at the first play that has it
        found, finished = kernel.run(kernel.k.REACH, target, node_limit, incumbent=value, want=value)
    return found if finished else None
