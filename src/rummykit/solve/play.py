"""Best plays for number tiles (``rummikub``): the objectives, tie-breaks and the final table.

>>> from rummykit.pieces.tiles import parse_tiles
>>> from rummykit.rulesets.rummikub import parse_table
>>> s = solve_tiles(parse_table('R1 R2 R3 | K5 B5 O5'), parse_tiles('R4 J K7'))
>>> s.tiles_placed, [str(t) for t in s.placed]
(2, ['R4', 'J'])
>>> [' '.join(map(str, x)) for x in s.table]
['R1 R2 R3 R4 J', 'K5 B5 O5']
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rummykit.melds.tiles import check_tiles, check_tuple
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, JOKER_POINTS, MAX_NUMBER, Tile
from rummykit.solve import tiles as dp
from rummykit.solve.steps import Step, plan_steps

Objective = Literal["tiles", "points", "initial"]
OBJECTIVES: tuple[str, ...] = ("tiles", "points", "initial")

TileSet = tuple[Tile, ...]


@dataclass(frozen=True)
class TileSolution:
    """An optimal play: the rack tiles placed and the complete final table.

    ``kept`` lists the existing sets (0-based) that stay together in the final
    table (possibly extended); ``steps`` turns the play into moves a person can
    follow.
    """

    objective: str
    placed: tuple[Tile, ...]
    table: tuple[TileSet, ...]
    old_table: tuple[TileSet, ...]
    kept: tuple[int, ...] = ()
    stats: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def tiles_placed(self) -> int:
        """How many rack tiles the play places (jokers included)."""
        return len(self.placed)

    @property
    def points_placed(self) -> int:
        """The rack value the play removes (a joker counts 30, as in a rack)."""
        return sum(t.points for t in self.placed)

    @property
    def meld_points(self) -> int:
        """The value of the new sets for an initial meld (jokers as what they stand for)."""
        return sum(check_tiles(s).points for s in self.table[len(self.old_table) :])

    @property
    def steps(self) -> list[Step[Tile]]:
        """The play as moves from the current table."""
        return plan_steps(self.old_table, self.table, self.placed)


def _weights(objective: str) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """(primary per number, secondary per number, primary per joker, secondary per joker)."""
    numbers = tuple(range(MAX_NUMBER + 1))
    if objective == "points":
        return numbers, (0,) + (1,) * MAX_NUMBER, JOKER_POINTS, 1
    return (0,) + (1,) * MAX_NUMBER, numbers, 1, JOKER_POINTS


def _counts(tiles: Sequence[Tile]) -> tuple[list[list[int]], int]:
    by_code = [0] * (len(COLOURS) * MAX_NUMBER + 1)  # a tile's code: colour * 13 + number - 1, the joker last
    for t in tiles:
        by_code[t.code] += 1
    grid = [[0, *by_code[c * MAX_NUMBER : (c + 1) * MAX_NUMBER], 0] for c in range(len(COLOURS))]
    return grid, by_code[-1]


def placeable(table_tiles: Sequence[Tile], rack: Sequence[Tile]) -> list[Tile]:
    """The rack's numbered tiles that belong to at least one set the pieces could form.

    A tile for which no group and no run can be made from the table, the rack and
    every joker can never be placed; the solver leaves such tiles out.
    """
    grid, jokers = _counts([*table_tiles, *rack])
    colours_at = [(a > 0) + (b > 0) + (c > 0) + (d > 0) for a, b, c, d in zip(*grid, strict=True)]
    out = []
    for t in rack:
        if t.colour is None:
            continue
        c, n = t.code // MAX_NUMBER, t.number
        others = colours_at[n] - 1  # the other colours with a tile at n (t's own is there)
        ok = others + jokers >= 2
        if not ok:
            for lo in range(max(1, n - 2), min(n, MAX_NUMBER - 2) + 1):
                missing = sum(1 for x in range(lo, lo + 3) if x != n and not grid[c][x])
                if missing <= jokers:
                    ok = True
                    break
        if ok:
            out.append(t)
    return out


def _problem(
    free_table: Sequence[Tile],
    rack: Sequence[Tile],
    objective: str,
    run_blocks: tuple[dp.RunBlock, ...] = (),
    group_blocks: tuple[dp.GroupBlock, ...] = (),
) -> dp.Problem:
    table_grid, table_jokers = _counts(free_table)
    rack_grid, rack_jokers = _counts(rack)
    primary, secondary, jp, js = _weights(objective)
    return dp.Problem(
        table_grid,
        rack_grid,
        table_jokers,
        rack_jokers,
        run_blocks,
        group_blocks,
        primary,
        secondary,
        jp,
        js,
    )


def _tiles_of(built: dp.Built) -> list[tuple[TileSet, tuple[int, ...]]]:
    """The rebuilt sets as tiles (runs ascending, jokers where they stand), with kept sources."""
    out: list[tuple[TileSet, tuple[int, ...]]] = []
    by_code = ALL_TILES  # a tile's code: colour * 13 + number - 1
    for colour, cells, sources in built.runs:
        base = colour * MAX_NUMBER - 1
        out.append((tuple([JOKER if joker else by_code[base + n] for n, joker in cells]), tuple(sources)))
    for number, colours, jokers, source in built.groups:
        at = number - 1
        tiles = tuple([by_code[c * MAX_NUMBER + at] for c in sorted(colours)]) + (JOKER,) * jokers
        out.append((tiles, () if source is None else (source,)))
    return out


def _order_table(
    old: Sequence[TileSet], sets: list[tuple[TileSet, tuple[int, ...]]]
) -> tuple[list[TileSet], tuple[int, ...]]:
    """Final sets in a readable order: successors of kept sets in their old places, then new ones."""
    placed_at: dict[int, TileSet] = {}
    rest: list[TileSet] = []
    kept: list[int] = []
    for tiles, sources in sets:
        if sources:
            placed_at[min(sources)] = tiles
            kept.extend(sources)
        else:
            rest.append(tiles)
    ordered = [placed_at[k] for k in sorted(placed_at)]
    rest.sort(key=lambda s: (check_tuple(s).kind != "run", min([t.code for t in s])))
    return ordered + rest, tuple(sorted(kept))


def _intact(old: Sequence[TileSet], final: Sequence[TileSet]) -> dict[int, int]:
    """The existing sets that stay together in ``final`` (final index -> existing index): a
    run as an unbroken stretch of a final run (grown at its ends or not), a group inside
    a final group of at most one tile more. Each final set keeps at most one: the first
    one (in ``final``'s order) not kept yet that has it."""
    finals = [check_tuple(tuple(s)) for s in final]
    # the final sets holding each numbered tile, in order: an existing set can only be in
    # a final set that holds its first numbered tile, so only those are looked at
    holding: dict[Tile, list[int]] = {}
    for k, f in enumerate(finals):
        for t in f.pieces:
            if t.colour is not None:
                at = holding.get(t)
                if at is None:
                    holding[t] = [k]
                elif at[-1] != k:
                    at.append(k)
    everything = range(len(finals))
    kept: dict[int, int] = {}
    for i, s in enumerate(old):
        c = check_tuple(tuple(s))
        first = next((t for t in c.pieces if t.colour is not None), None)
        for k in everything if first is None else holding.get(first, ()):
            f = finals[k]
            if k in kept or f.kind != c.kind:
                continue
            if c.kind == "run":
                n = len(c.pieces)
                together = any(f.pieces[a : a + n] == c.pieces for a in range(len(f.pieces) - n + 1))
            else:
                together = len(f.pieces) <= len(c.pieces) + 1 and _within(c.pieces, f.pieces)
            if together:
                kept[k] = i
                break
    return kept


def _within(part: Sequence[Tile], whole: Sequence[Tile]) -> bool:
    """Whether every tile of ``part`` is in ``whole`` as many times (a few tiles each)."""
    return all(whole.count(t) >= part.count(t) for t in part)


def _finish(
    objective: str,
    old: Sequence[TileSet],
    rack: Sequence[Tile],
    rebuilt: list[tuple[TileSet, tuple[int, ...]]],
    stats: dict[str, float],
) -> TileSolution | None:
    sets, kept = _order_table(old, rebuilt)
    final = [check_tuple(s).pieces for s in sets]
    # tiles counted by their code: the final table's minus the existing table's
    count = [0] * len(ALL_TILES)
    for s in final:
        for t in s:
            count[t.code] += 1
    for s in old:
        for t in s:
            count[t.code] -= 1
    if min(count) < 0:
        raise AssertionError("the solver lost table tiles")
    for t in rack:
        count[t.code] -= 1
    if max(count) > 0:
        raise AssertionError("the solver placed tiles that are not in the rack")
    for s in final:
        if not check_tuple(s).valid:
            raise AssertionError(f"the solver built an invalid set: {' '.join(map(str, s))}")
    for t in rack:
        count[t.code] += 1
    if not any(count):
        return None
    placed = [t for t, n in zip(ALL_TILES, count, strict=True) if n for _ in range(n)]
    return TileSolution(
        objective,
        tuple(placed),
        tuple(final),
        tuple(tuple(s) for s in old),
        kept,
        stats,
    )


def solve_tiles(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    *,
    objective: str = "tiles",
    threshold: int = 30,
    tidy: bool = True,
) -> TileSolution | None:
    """The best play of ``rack`` onto ``table`` (a list of valid sets), or None if there is none.

    ``objective``: ``tiles`` (most tiles, jokers included), ``points`` (most rack
    value, a joker 30) or ``initial`` (new sets from the rack alone reaching
    ``threshold``, jokers valued as what they stand for; most tiles, then most
    points). Ties go, in order, to placing fewer rack jokers, to more points
    (tiles objective) or more tiles (points objective), and then (``tidy``) to
    keeping more of the existing sets together.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    old = [tuple(s) for s in table]
    rack = list(rack)
    if objective == "initial":
        return _initial(old, rack, threshold)
    started = time.perf_counter()
    table_tiles = [t for s in old for t in s]
    usable = placeable(table_tiles, rack) + [t for t in rack if t.is_joker]
    problem = _problem(table_tiles, usable, objective)
    result = dp.solve_best(problem)
    stats = {"solve_ms": (time.perf_counter() - started) * 1000}
    if result is None:
        return None
    if not (tidy and old):
        return _finish(objective, old, rack, _tiles_of(dp.rebuild(problem, result, {})), stats)
    own = _Own(old, problem, result)
    sets: list[tuple[TileSet, tuple[int, ...]]]
    best = _tidy(old, usable, objective, problem, result, own)
    stats["tidy_ms"] = (time.perf_counter() - started) * 1000 - stats["solve_ms"]
    if best is None:
        # the solver's own arrangement stands: say which sets it keeps together
        intact = own.intact
        sets = [(tiles, (intact[k],) if k in intact else ()) for k, (tiles, _) in enumerate(own.sets)]
    else:
        sets = _tiles_of(dp.rebuild(*best))
    return _finish(objective, old, rack, sets, stats)


class _Own:
    """The solver's own arrangement and the existing sets it keeps together, worked out
    when first asked for (the tidy step often does without them)."""

    def __init__(self, old: list[TileSet], problem: dp.Problem, result: dp.Result) -> None:
        self.old, self.problem, self.result = old, problem, result
        self._sets: list[tuple[TileSet, tuple[int, ...]]] | None = None
        self._intact: dict[int, int] | None = None

    @property
    def sets(self) -> list[tuple[TileSet, tuple[int, ...]]]:
        if self._sets is None:
            self._sets = _tiles_of(dp.rebuild(self.problem, self.result, {}))
        return self._sets

    @property
    def intact(self) -> dict[int, int]:
        if self._intact is None:
            self._intact = _intact(self.old, [tiles for tiles, _ in self.sets])
        return self._intact


TIDY_SINGLE_TRIES = 12
TIDY_NODES = 20000
"""The depth-first nodes one tidy trial may search (a trial that cannot finish counts as failed)."""


def _tidy(
    old: list[TileSet],
    rack: list[Tile],
    objective: str,
    problem: dp.Problem,
    result: dp.Result,
    own: _Own,
) -> tuple[dp.Problem, dp.Result, dict[int, list[tuple[int, bool]]]] | None:
    """Among plays as good as ``result``, one that keeps as many existing sets together as it
    can (None: the solver's own arrangement ``own`` stands).

    First every set is kept (lay-offs and new sets only); then, unless the solver's
    own arrangement keeps every set but one already, every set but one (trying the
    sets nearest the rack's tiles first, a fixed number of them); otherwise the
    solver's own arrangement stands.
    """
    target = dp.primary_of(result.value)
    trials = _Trials(old, rack, objective, problem)
    trial = trials.solve(None, target, result.value)
    if trial is not None:
        return trial
    if len(own.intact) >= len(old) - 1:
        return None
    for i in _nearest_sets(old, rack)[:TIDY_SINGLE_TRIES]:
        trial = trials.solve(i, target, result.value)
        if trial is not None:
            return trial
    return None


class _Trials:
    """The tidy step's trials on one position: each set's block worked out once, the rack's
    counts and weights shared by every trial."""

    def __init__(self, old: list[TileSet], rack: list[Tile], objective: str, problem: dp.Problem) -> None:
        self.old = old
        self.blocks = [_block(i, s) for i, s in enumerate(old)]
        self.problem = problem  # the rack's counts and the weights are the same in every trial

    def solve(
        self, left_out: int | None, target: int, value: int
    ) -> tuple[dp.Problem, dp.Result, dict[int, list[tuple[int, bool]]]] | None:
        """The best play keeping every set as a block but ``left_out`` (None: every set), if its
        value is ``value`` and the search finished within :data:`TIDY_NODES` nodes; else None."""
        runs: list[dp.RunBlock] = []
        groups: list[dp.GroupBlock] = []
        cells: dict[int, list[tuple[int, bool]]] = {}
        for i, (block, run_cells) in enumerate(self.blocks):
            if i == left_out:
                continue
            if run_cells is None:
                assert isinstance(block, dp.GroupBlock)
                groups.append(block)
            else:
                assert isinstance(block, dp.RunBlock)
                runs.append(block)
                cells[i] = run_cells
        p = self.problem
        table_grid, table_jokers = _counts(() if left_out is None else self.old[left_out])
        problem = dp.Problem(
            table_grid,
            p.rack,
            table_jokers,
            p.rack_jokers,
            tuple(runs),
            tuple(groups),
            p.primary,
            p.secondary,
            p.joker_primary,
            p.joker_secondary,
        )
        found = dp.solve_problem(problem, target=target, node_limit=TIDY_NODES, value=value)
        if found is None:
            return None
        return problem, found, cells


_BLOCKS: dict[TileSet, tuple[int, int, int, int, int, tuple[tuple[int, bool], ...] | None]] = {}
"""What :func:`_block` works out from a set's tiles alone, by the set: a run's (colour, lo,
hi, jokers, 0, cells), a group's (number, colours, size, jokers, 0, None)."""
_BLOCKS_KEPT = 1 << 12


def _block(i: int, s: TileSet) -> tuple[dp.RunBlock | dp.GroupBlock, list[tuple[int, bool]] | None]:
    """Existing set ``i`` kept as a block: a run (with its cells) or a group (cells None)."""
    shape = _BLOCKS.get(s)
    if shape is None:
        shape = _shape(s)
        if len(_BLOCKS) >= _BLOCKS_KEPT:
            _BLOCKS.clear()
        _BLOCKS[s] = shape
    a, b, c, d, _, cells = shape
    if cells is None:
        return dp.GroupBlock(a, b, c, d, i), None
    return dp.RunBlock(a, b, c, d, i), list(cells)


def _shape(s: TileSet) -> tuple[int, int, int, int, int, tuple[tuple[int, bool], ...] | None]:
    """The block of a set, without its index (see :func:`_block`)."""
    check = check_tuple(tuple(s))
    jokers = sum(1 for t in s if t.is_joker)
    naturals = [t for t in s if t.colour is not None]
    if check.kind == "run" and not (
        len(s) <= 4 and len({t.number for t in naturals}) == 1 and len(naturals) == 1
    ):
        colour = naturals[0].colour
        assert colour is not None
        first = next(i2 for i2, t in enumerate(check.pieces) if t.colour is not None)
        lo = check.pieces[first].number - first
        run_cells = tuple((lo + k, t.is_joker) for k, t in enumerate(check.pieces))
        return colour.index, lo, lo + len(s) - 1, jokers, 0, run_cells
    mask = 0
    for t in naturals:
        assert t.colour is not None
        mask |= 1 << t.colour.index
    return naturals[0].number, mask, len(s), jokers, 0, None


def _nearest_sets(old: Sequence[TileSet], rack: Sequence[Tile]) -> list[int]:
    """Existing sets ordered by how close their tiles are to the rack's (same number, or same
    colour within two): a set scores 2 per joker and, per numbered tile, 1 per rack tile
    that is close to it."""
    by_number = [0] * (MAX_NUMBER + 1)
    by_cell = [[0] * (MAX_NUMBER + 5) for _ in COLOURS]  # numbers shifted by 2: no bounds to check
    for r in rack:
        if r.colour is not None:
            by_number[r.number] += 1
            by_cell[r.colour.index][r.number + 2] += 1

    def score(s: TileSet) -> int:
        total = 0
        for t in s:
            if t.colour is None:
                total += 2
                continue
            n = t.number
            row = by_cell[t.colour.index]
            # same number (any colour), or same colour and another number within two
            total += by_number[n] + row[n] + row[n + 1] + row[n + 3] + row[n + 4]
        return total

    return sorted(range(len(old)), key=lambda i: (-score(old[i]), i))


# -- the initial meld -------------------------------------------------------------------


def _initial(old: list[TileSet], rack: list[Tile], threshold: int) -> TileSolution | None:
    """New sets from the rack alone whose value reaches ``threshold``: most tiles, then most points.

    The same compiled search as every other play, with the table empty, each joker at
    the number it stands for and the meld value reached so far in the state (see
    :mod:`rummykit.solve.tiles`).
    """
    started = time.perf_counter()
    threshold = max(0, threshold)
    usable = placeable([], rack) + [t for t in rack if t.is_joker]
    most = sum(t.number for t in usable if not t.is_joker) + MAX_NUMBER * sum(1 for t in usable if t.is_joker)
    if threshold > most:
        return None  # even every tile at its best reading falls short
    problem = _problem([], usable, "tiles")
    problem.threshold = threshold
    result = dp.solve_best(problem)
    stats = {"solve_ms": (time.perf_counter() - started) * 1000}
    if result is None:
        return None
    new_sets = [check_tiles(s).pieces for s, _sources in _tiles_of(dp.rebuild(problem, result, {}))]
    new_sets.sort(key=lambda s: (check_tiles(s).kind != "run", min(t.code for t in s)))
    placed = Counter(t for s in new_sets for t in s)
    if placed - Counter(rack) or not all(check_tiles(s).valid for s in new_sets):
        raise AssertionError("the solver built an invalid initial meld")
    solution = TileSolution(
        "initial",
        tuple(sorted(placed.elements())),
        (*old, *new_sets),
        tuple(old),
        tuple(range(len(old))),
        stats,
    )
    if solution.meld_points < threshold:
        raise AssertionError("the solver's initial meld falls short of the threshold")
    return solution
