"""Session 14 of issue 25: which way the probes go when only the forward dive ran.

When the forward dive proves at once that no play places every tile, nothing yet
says whether the rest of the call is easier forward or with the numbers mirrored.
``solve_best`` now runs the quick probe (a depth-first search without a target)
both ways and goes on the way whose probe found the play of higher primary value,
forward on a tie. Checked here, by the searches the call makes (never by time):
on bench position 30/1007 (table 30, seed 1007; the slowest call of session 13's
tail) the forward quick probe finds no play and the mirrored one does, so the
relaxation and the relaxed probe run mirrored first; on 45/1137 neither finds a
play and the rest goes forward as before; the answers keep the sweep's value;
and with the probes' limits cut to a few nodes (so that both outcomes of the
rule and every later branch run) every answer keeps the set-by-set search's value.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from test_solver import check_position, oracle
from test_solver12_slow_calls import value
from test_solver13_mirrored import seeded
from test_solver_kernel import problem_of

from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets.rummikub import parse_table
from rummykit.solve import kernel as k
from rummykit.solve import tiles as solver
from rummykit.solve.tiles import Problem, _Kernel, _Mirrored, solve_best

TileSet = tuple[Tile, ...]
NEG = -(1 << 62)
NAMES = {k.REACH: "reach", k.ABOVE: "above", k.BEAM: "beam", k.SWEEP: "sweep"}

# bench/solver_positions.py's positions, written out so that they never drift
POSITION_30_1007 = (
    "K9 B9 O9 | J B11 O11 R11 | B9 O9 R9 | K8 B8 R8 | J K2 B2 O2 | K10 B10 R10 | B6 O6 R6 | K7 B7 O7 R7"
    " | K13 B13 R13",
    "K3 K5 K7 K11 K11 B1 B1 B5 B6 B7 B8 B10 B11 B12 B12 O1 O2 O3 O4 O8 O12 O13 O13 R1 R2 R3 R5 R8 R10 R11",
)
POSITION_45_1137 = (
    "K9 B9 R9 | J B3 B4 | K4 B4 O4 R4 | K9 O9 R9 | R4 R5 R6 R7 | O7 O8 O9 | B9 B10 B11 | K6 B6 O6 R6"
    " | B5 B6 B7 B8 | K7 B7 O7 R7 | K11 O11 R11 | K12 B12 O12 R12 | J K1 R1",
    "K1 K2 K4 K5 K8 K10 K10 K11 K13 B1 B1 B2 B3 B5 B8 B10 B11 B13 B13 O2 O4 O5 O8 O10 O12 R3 R3 R11 R12 R13",
)


def position(text: tuple[str, str]) -> tuple[list[TileSet], list[Tile]]:
    return [tuple(s) for s in parse_table(text[0])], list(parse_tiles(text[1]))


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str, int, bool]]]:
    """Every search and relaxation ``solve_best`` makes, in order: (way, kind, node limit,
    finished); way ``~`` is the problem mirrored."""
    log: list[tuple[str, str, int, bool]] = []
    run, relax = _Kernel.run, _Kernel.relax

    def logged_run(
        self: _Kernel, strategy: int, target: int, node_limit: int = -1, incumbent: int = NEG, want: int | None = None
    ) -> tuple[object, bool]:
        answer = run(self, strategy, target, node_limit, incumbent, want)
        kind = "probe" if strategy == k.REACH and target == NEG else NAMES[strategy]
        log.append(("~" if isinstance(self, _Mirrored) else "", kind, node_limit, answer[1]))
        return answer

    def logged_relax(self: _Kernel) -> None:
        relax(self)
        log.append(("~" if isinstance(self, _Mirrored) else "", "relax", 0, True))

    monkeypatch.setattr(_Kernel, "run", logged_run)
    monkeypatch.setattr(_Kernel, "relax", logged_relax)
    yield log


def swept(problem: Problem) -> int:
    """The best value by the relaxed sweep, forward and mirrored (which must agree)."""
    values = []
    for kernel in (_Kernel(problem), _Mirrored(problem)):
        kernel.relax()
        found, finished = kernel.run(k.SWEEP, 1)
        assert finished
        values.append(value(found))
    assert values[0] == values[1]
    return values[0]


def first(log: list[tuple[str, str, int, bool]], kind: str) -> tuple[str, str, int, bool]:
    return next(entry for entry in log if entry[1] == kind)


@pytest.mark.parametrize("objective", ["tiles", "points"])
def test_the_mirrored_probe_that_finds_a_play_takes_the_rest_mirrored(
    objective: str, searches: list[tuple[str, str, int, bool]]
) -> None:
    table, rack = position(POSITION_30_1007)
    problem = problem_of(table, rack, objective)
    answer = solve_best(problem)
    log = list(searches)
    # the forward dive proves at once that no play places every tile ...
    assert log[0] == ("", "reach", solver.KERNEL_DIVE, True)
    # ... the quick probe cannot finish forward and finds no play; mirrored it finds one
    assert log[1][:2] == ("", "probe") and not log[1][3]
    assert log[2][:2] == ("~", "probe")
    # so the relaxation and the probe for a better play run mirrored first
    assert first(log, "relax")[0] == "~"
    assert first(log, "above")[0] == "~"
    if objective == "points":
        # and that probe proves the best play: the forward way is never relaxed
        assert first(log, "above")[3]
        assert all(way == "~" for way, kind, _, _ in log if kind in ("relax", "above", "beam", "sweep"))
    searches.clear()
    assert value(answer) == swept(problem)


def test_a_tie_between_the_quick_probes_goes_on_forward(searches: list[tuple[str, str, int, bool]]) -> None:
    table, rack = position(POSITION_45_1137)
    problem = problem_of(table, rack, "tiles")
    answer = solve_best(problem)
    log = list(searches)
    assert log[0] == ("", "reach", solver.KERNEL_DIVE, True)
    assert [entry[:2] for entry in log[1:3]] == [("", "probe"), ("~", "probe")]
    # neither quick probe found a play: forward first, as before this rule
    assert first(log, "relax")[0] == ""
    assert first(log, "above")[0] == ""
    searches.clear()
    assert value(answer) == swept(problem)


@pytest.fixture
def tiny_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dives as usual (most finish on small positions), the quick probes cut to 100
    nodes (some find a play, some not, seldom the same both ways), the later probes to a few."""
    for name, limit in (
        ("KERNEL_QUICK_PROBE", 100),
        ("KERNEL_SMALL_PROBE", 100),
        ("KERNEL_PROBE", 4),
        ("BEAM_WIDTH", 2),
    ):
        monkeypatch.setattr(solver, name, limit)


def test_both_outcomes_of_the_rule_keep_the_optimum(
    tiny_probes: None, searches: list[tuple[str, str, int, bool]]
) -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(60):
        table, rack, objective = seeded(300 + seed)
        problem = problem_of(table, rack, objective)
        searches.clear()
        got = value(solve_best(problem))
        log = list(searches)
        at = next((i for i, (way, kind, _, _) in enumerate(log) if way == "~" and kind == "probe"), None)
        if at is not None:
            # the rule ran: the next search shows the way it chose (none: the mirrored probe finished)
            after = log[at + 1 : at + 2]
            outcomes["mirrored" if (after[0][0] == "~" if after else log[at][3]) else "forward"] += 1
        assert got == oracle(table, rack, objective), (table, rack, objective)
    assert outcomes["mirrored"] and outcomes["forward"], outcomes


@pytest.mark.parametrize("seed", range(12))
def test_the_whole_call_with_tiny_probes_is_legal_and_exact(seed: int, tiny_probes: None) -> None:
    rng = random.Random(400 + seed)
    table, rack, objective = seeded(rng.randrange(10_000))
    check_position(table, rack, objective)  # the tidy step on and off, legal plays, the oracle's value
