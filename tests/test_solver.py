"""The exact solver: cross-checked against independent exact methods, plus hand-made cases.

Every play the solver returns is checked by the engine's own turn checks
(conservation, every set valid, the initial-meld rule). Its value is compared
with the set-by-set search (``rummykit.solve.search``), itself compared with
a plain brute force on tiny positions. The long cross-check (thousands of
positions) is ``python bench/bench_solver.py --crosscheck``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.blocks.table import Opening
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile, parse_tiles
from rummykit.rulesets.domino_rummikub import MELDS
from rummykit.rulesets.domino_rummikub import TABLE as DOMINO_TABLE
from rummykit.rulesets.rummikub import TABLE, parse_table
from rummykit.solve import solve_dominoes, solve_tiles
from rummykit.solve.candidates import domino_sets, tile_meld_value, tile_sets
from rummykit.solve.command import hint_lines, solve_command
from rummykit.solve.play import TileSolution, _weights
from rummykit.solve.search import SetSearch
from rummykit.solve.tiles import JOKER_SHIFT, PRIMARY_SHIFT, primary_of

TileSet = tuple[Tile, ...]

# -- positions --------------------------------------------------------------------------


def random_position(
    rng: random.Random, table_tiles: int, rack_size: int, jokers: int
) -> tuple[list[TileSet], list[Tile]]:
    """A valid table of about ``table_tiles`` tiles (random runs and groups, jokers in some)
    and a rack drawn from what is left."""
    stock = Counter({Tile(c, n): 2 for c in COLOURS for n in range(1, MAX_NUMBER + 1)})
    stock[JOKER] = jokers
    table: list[TileSet] = []
    size = 0
    for _ in range(200):
        if size + 3 > table_tiles:
            break
        if rng.random() < 0.5:
            colour = rng.choice(COLOURS)
            length = rng.randint(3, min(5, table_tiles - size))
            start = rng.randint(1, MAX_NUMBER - length + 1)
            s = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(1, MAX_NUMBER)
            k = rng.randint(3, min(4, table_tiles - size))
            s = [Tile(c, number) for c in rng.sample(COLOURS, k)]
        if stock[JOKER] and rng.random() < 0.25:
            s[rng.randrange(len(s))] = JOKER
        need = Counter(s)
        if any(stock[t] < k for t, k in need.items()) or not check_tiles(s).valid:
            continue
        stock -= need
        table.append(check_tiles(s).pieces)
        size += len(s)
    pool = list(stock.elements())
    rng.shuffle(pool)
    return table, pool[:rack_size]


def value_of(solution: TileSolution | None, objective: str) -> int:
    """The solver's value of a play (primary, minus a unit per rack joker, plus secondary)."""
    if solution is None:
        return 0
    primary, secondary, jp, js = _weights(objective)
    total = 0
    for t in solution.placed:
        if t.colour is None:
            total += (jp << PRIMARY_SHIFT) - (1 << JOKER_SHIFT) + js
        else:
            total += (primary[t.number] << PRIMARY_SHIFT) + secondary[t.number]
    return total


def oracle(table: Sequence[TileSet], rack: Sequence[Tile], objective: str) -> int:
    """The best value by the set-by-set search (0 when nothing can be placed)."""
    primary, secondary, jp, js = _weights(objective)

    def weight(t: Tile) -> int:
        if t.colour is None:
            return (jp << PRIMARY_SHIFT) - (1 << JOKER_SHIFT) + js
        return (primary[t.number] << PRIMARY_SHIFT) + secondary[t.number]

    mandatory = Counter(t for s in table for t in s)
    found = SetSearch(
        mandatory, Counter(rack), tile_sets(mandatory + Counter(rack)), weight, order=lambda t: t.code
    ).solve()
    assert found is not None, "a valid table can always be kept as it is"
    return found[0]


def assert_legal(table: Sequence[TileSet], rack: Sequence[Tile], solution: TileSolution, opening: Opening | None = None) -> None:
    """The engine's own checks accept the play."""
    TABLE.verify_pieces(table, rack, solution.placed, solution.table)
    fault = TABLE.turn_fault(table, solution.placed, solution.table, opening)
    assert fault is None, str(fault)
    assert all(check_tiles(s).valid for s in solution.table)


def check_position(table: list[TileSet], rack: list[Tile], objective: str) -> None:
    expected = oracle(table, rack, objective)
    for tidy in (False, True):
        solution = solve_tiles(table, rack, objective=objective, tidy=tidy)
        if solution is not None:
            assert_legal(table, rack, solution)
        got = value_of(solution, objective)
        assert got == expected, (
            f"{objective} tidy={tidy}: table {[' '.join(map(str, s)) for s in table]} rack "
            f"{' '.join(map(str, rack))}: solver {got >> PRIMARY_SHIFT}, search {expected >> PRIMARY_SHIFT}"
        )


# -- cross-checks ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(120))
def test_matches_set_search_on_seeded_positions(seed: int) -> None:
    rng = random.Random(seed)
    jokers = rng.choice((0, 1, 2, 2, 3, 4))
    table, rack = random_position(rng, rng.choice((0, 3, 6, 9, 12, 15, 18)), rng.randint(1, 9), jokers)
    check_position(table, rack, rng.choice(("tiles", "points")))


@given(st.integers(0, 2**32), st.integers(0, 15), st.integers(1, 8), st.integers(0, 4))
def test_matches_set_search_hypothesis(seed: int, size: int, rack_size: int, jokers: int) -> None:
    table, rack = random_position(random.Random(seed), size, rack_size, jokers)
    check_position(table, rack, "tiles")


def brute_force(table: Sequence[TileSet], rack: Sequence[Tile]) -> int:
    """Most rack tiles placeable: every sub-multiset of the rack, largest first, tried by
    partitioning the pieces into valid sets in every possible way."""
    table_tiles = [t for s in table for t in s]

    def partitions(pieces: list[Tile]) -> bool:
        if not pieces:
            return True
        first, rest = pieces[0], pieces[1:]
        for k in range(2, min(len(rest), 12) + 1):
            for combo in set(itertools.combinations(rest, k)):
                cand = (first, *combo)
                if check_tiles(_arranged(cand)).valid:
                    left = list(rest)
                    for t in combo:
                        left.remove(t)
                    if partitions(left):
                        return True
        return False

    for size in range(len(rack), 0, -1):
        for chosen in set(itertools.combinations(sorted(rack), size)):
            if partitions(sorted([*table_tiles, *chosen])):
                return size
    return 0


def _arranged(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    naturals = sorted((t for t in tiles if not t.is_joker), key=lambda t: (t.number, t.code))
    return tuple(naturals) + (JOKER,) * (len(tiles) - len(naturals))


@pytest.mark.parametrize("seed", range(40))
def test_set_search_and_solver_match_brute_force_on_tiny_positions(seed: int) -> None:
    rng = random.Random(1000 + seed)
    table, rack = random_position(rng, rng.choice((0, 3, 4, 6)), rng.randint(1, 5), rng.choice((0, 1, 2)))
    expected = brute_force(table, rack)
    assert primary_of(oracle(table, rack, "tiles")) == expected
    solution = solve_tiles(table, rack)
    assert (solution.tiles_placed if solution else 0) == expected


# -- hand-made cases -------------------------------------------------------------------


def sets_text(solution: TileSolution) -> list[str]:
    return [" ".join(map(str, s)) for s in solution.table]


def test_a_joker_that_must_move() -> None:
    table = list(parse_table("K3 K4 J"))
    rack = parse_tiles("K5 B9 O9")
    solution = solve_tiles(table, rack)
    assert solution is not None and solution.tiles_placed == 3
    assert_legal(table, rack, solution)
    assert sorted(sets_text(solution)) == ["J B9 O9", "K3 K4 K5"]


def test_a_group_of_four_with_a_joker() -> None:
    solution = solve_tiles([], parse_tiles("K5 B5 O5 J"))
    assert solution is not None and solution.tiles_placed == 4
    assert len(solution.table) == 1 and check_tiles(solution.table[0]).kind == "group"


def test_jokers_that_need_groups_of_three() -> None:
    # A group of four has no room for a joker; two groups of three (one a joker pair) do.
    solution = solve_tiles([], parse_tiles("K5 B5 O5 R5 J J"))
    assert solution is not None and solution.tiles_placed == 6
    assert solve_tiles([], parse_tiles("K5 B5 O5 R5 J")).tiles_placed == 4  # type: ignore[union-attr]


def test_a_full_run_with_a_joker() -> None:
    rack = [Tile(COLOURS[3], n) for n in range(1, MAX_NUMBER + 1) if n != 7] + [JOKER]
    solution = solve_tiles([], rack)
    assert solution is not None and solution.tiles_placed == 13
    assert_legal([], rack, solution)
    # As one set it is the full run 1..13 with the joker as R7.
    assert check_tiles(rack).valid and check_tiles(rack).jokers == ("R7",)


def test_groups_split_to_free_tiles() -> None:
    table = list(parse_table("K7 B7 O7 R7 | K8 B8 O8 R8"))
    rack = parse_tiles("K9")
    solution = solve_tiles(table, rack)
    assert solution is not None and solution.tiles_placed == 1
    assert_legal(table, rack, solution)
    assert "K7 K8 K9" in sets_text(solution)


def test_a_run_end_joker_freed_and_reused() -> None:
    table = list(parse_table("R9 R10 R11 J | K2 B2 O2"))
    rack = parse_tiles("R12 R2")
    solution = solve_tiles(table, rack)
    assert solution is not None and solution.tiles_placed == 2
    assert_legal(table, rack, solution)


def test_no_play() -> None:
    assert solve_tiles(list(parse_table("R1 R2 R3")), parse_tiles("K9 B11")) is None
    assert solve_tiles([], parse_tiles("K9")) is None


def test_table_jokers_must_stay() -> None:
    # The table's joker cannot go back to a rack: the play must still hold it.
    table = list(parse_table("K1 K2 J"))
    solution = solve_tiles(table, parse_tiles("K3"))
    assert solution is not None
    assert Counter(t for s in solution.table for t in s)[JOKER] == 1


@pytest.mark.parametrize(("threshold", "ok"), [(29, True), (30, True), (31, False)])
def test_initial_meld_threshold(threshold: int, ok: bool) -> None:
    rack = parse_tiles("K10 B10 O10 R1 K3")
    solution = solve_tiles([], rack, objective="initial", threshold=threshold)
    assert (solution is not None) is ok
    if solution is not None:
        assert solution.meld_points == 30
        assert_legal([], rack, solution, Opening(min_points=threshold))


@pytest.mark.parametrize(("threshold", "ok"), [(26, True), (27, True), (28, False)])
def test_initial_meld_values_jokers_as_what_they_stand_for(threshold: int, ok: bool) -> None:
    rack = parse_tiles("R8 R9 J K1")  # R8 R9 J reads as R8 R9 R10: 27; J R8 R9 only 24
    table = list(parse_table("B1 B2 B3"))
    solution = solve_tiles(table, [*rack, Tile(COLOURS[0], 3)], objective="initial", threshold=threshold)
    assert (solution is not None) is ok
    if solution is not None:
        assert solution.meld_points >= threshold
        assert solution.table[: len(table)] == tuple(table)
        assert_legal(table, [*rack, Tile(COLOURS[0], 3)], solution, Opening(min_points=threshold))


@pytest.mark.parametrize(
    ("rack", "best"),
    [
        ("R11 R12 R13 J J", 55),  # J J R11 R12 R13: both jokers below the run, 9 + 10
        ("R11 R12 R13 R11 R12 R13 J J", 92),  # one joker below each run (46 + 46), not both on one (91)
        ("R12 J J", 36),  # J R12 J: 11 12 13
        ("K5 B5 O5 J", 20),  # the joker as the fourth tile of the group
        ("K5 J J J", 26),  # a run K5 J J J (5 6 7 8), worth more than a group of four 5s
        ("K1 J J J", 10),
        # one run reads the joker as the 1 (91); split, it stands for R11 after R2..R10 (101)
        ("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", 101),
    ],
)
def test_initial_meld_reads_jokers_at_their_best(rack: str, best: int) -> None:
    tiles = parse_tiles(rack)
    solution = solve_tiles([], tiles, objective="initial", threshold=best)
    assert solution is not None and solution.tiles_placed == len(tiles)
    assert solution.meld_points == best
    assert_legal([], tiles, solution, Opening(min_points=best))
    assert solve_tiles([], tiles, objective="initial", threshold=best + 1) is None


@pytest.mark.parametrize("seed", range(12))
def test_initial_meld_on_long_racks_matches_the_set_search(seed: int) -> None:
    rng = random.Random(900 + seed)
    _table, rack = random_position(rng, 0, rng.randint(14, 24), rng.choice((1, 2, 2, 3, 4)))
    threshold = rng.choice((20, 30, 40, 60, 80))
    weight = _value_weight("tiles")
    found = SetSearch(
        Counter(),
        Counter(rack),
        tile_sets(Counter(rack)),
        weight,
        order=lambda t: t.code,
        meld_value=tile_meld_value,
        threshold=threshold,
    ).solve()
    expected = found[0] if found is not None and found[1] else 0
    solution = solve_tiles([], rack, objective="initial", threshold=threshold)
    assert value_of(solution, "tiles") == expected
    if solution is not None:
        assert solution.meld_points >= threshold
        assert_legal([], rack, solution, Opening(min_points=threshold))


def _value_weight(objective: str) -> Callable[[Tile], int]:
    primary, secondary, jp, js = _weights(objective)

    def weight(t: Tile) -> int:
        if t.colour is None:
            return (jp << PRIMARY_SHIFT) - (1 << JOKER_SHIFT) + js
        return (primary[t.number] << PRIMARY_SHIFT) + secondary[t.number]

    return weight


def test_initial_meld_prefers_most_tiles() -> None:
    rack = parse_tiles("K10 B10 O10 R10 K1 K2 K3 B12")
    solution = solve_tiles([], rack, objective="initial", threshold=30)
    assert solution is not None and solution.tiles_placed == 7


@pytest.mark.parametrize("seed", range(25))
def test_initial_meld_matches_brute_force(seed: int) -> None:
    rng = random.Random(500 + seed)
    _table, rack = random_position(rng, 0, rng.randint(3, 9), rng.choice((0, 1, 2)))
    threshold = rng.choice((10, 20, 30))
    solution = solve_tiles([], rack, objective="initial", threshold=threshold)
    best = 0
    sets = tile_sets(Counter(rack))
    for k in range(1, 4):
        for combo in itertools.combinations(sets, k):
            if Counter() + sum((Counter(s) for s in combo), Counter()) - Counter(rack):
                continue
            if sum(tile_meld_value(s) for s in combo) >= threshold:
                best = max(best, sum(len(s) for s in combo))
    assert (solution.tiles_placed if solution else 0) == best
    if solution is not None:
        assert_legal([], rack, solution, Opening(min_points=threshold))


def test_points_objective_prefers_high_tiles() -> None:
    rack = parse_tiles("K1 K2 K3 B11 B12 B13 O11")
    table = list(parse_table("R11 R12 R13"))
    by_tiles = solve_tiles(table, rack, objective="tiles")
    by_points = solve_tiles(table, rack, objective="points")
    assert by_tiles is not None and by_points is not None
    assert by_points.points_placed >= by_tiles.points_placed
    assert by_points.points_placed == 1 + 2 + 3 + 11 + 12 + 13  # O11 would need R11 from the run


def test_tidy_keeps_the_table_when_lay_offs_suffice() -> None:
    table = list(parse_table("R1 R2 R3 | K5 B5 O5 | B7 B8 B9"))
    rack = parse_tiles("R4 R5 B10 K11 B11 O11")
    solution = solve_tiles(table, rack)
    assert solution is not None and solution.tiles_placed == 6
    assert solution.kept == (0, 1, 2)
    texts = [s.text for s in solution.steps]
    assert "add R4 R5 from your rack to set 1: R1 R2 R3 R4 R5" in texts


def test_steps_account_for_every_tile() -> None:
    rng = random.Random(7)
    for _ in range(30):
        table, rack = random_position(rng, 15, 8, 2)
        solution = solve_tiles(table, rack)
        if solution is None:
            continue
        from_rack = Counter(p for step in solution.steps for p, src in step.sources if src is None)
        assert from_rack == Counter(solution.placed)
        for step in solution.steps:
            if step.sources:
                assert step.result in solution.table


# -- the command line function and hints ------------------------------------------------


def test_solve_command_json() -> None:
    status, out = solve_command("R1 R2 R3 | K5 B5 O5", "R4 J K7", as_json=True)
    assert status == 0
    data = json.loads(out)
    assert data["tiles_placed"] == 2 and data["points_placed"] == 34
    assert data["placed"] == ["R4", "J"]
    assert data["table"] == [["R1", "R2", "R3", "R4", "J"], ["K5", "B5", "O5"]]
    assert data["steps"][0]["moves"] == [{"piece": "R4", "from": "rack"}, {"piece": "J", "from": "rack"}]


@pytest.mark.parametrize(
    ("table", "rack", "words"),
    [
        ("R1 R2 R3", "X9", "bad tile"),
        ("R1 R2 R3 | R1 R2 R3", "R1", "more copies"),
        ("R1 R2 | K5 B5 O5", "R4", "table set 1"),
        ("R1 R2 R3", "", "rack is empty"),
        ("R1 R2 R3 || K1 B1 O1", "R4", "empty"),
    ],
)
def test_solve_command_bad_positions(table: str, rack: str, words: str) -> None:
    status, out = solve_command(table, rack)
    assert status == 2
    assert words in out and "\n" not in out


def test_solve_command_initial_and_no_play() -> None:
    status, out = solve_command("", "K10 B10 O10 R2", initial=True, as_json=True)
    assert status == 0
    data = json.loads(out)
    assert data["tiles_placed"] == 3 and data["meld_points"] == 30
    status, out = solve_command("R1 R2 R3", "K9")
    assert status == 0 and out.startswith("no play")


def test_hint_lines_from_a_view() -> None:
    from rummykit.rulesets.rummikub import from_position

    state = from_position("table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; down: 11")
    lines = hint_lines(state.view(0))
    assert lines[0] == "hint: place 1 tile (4 points): R4"
    assert any("add R4 from your rack to set 1" in line for line in lines)
    state = from_position("racks: R4 K9 / B1 B2; pool: seed 5; down: 00")
    assert hint_lines(state.view(0)) == ["hint: no initial meld of 30+ points in your rack: draw a tile"]


# -- dominoes --------------------------------------------------------------------------


def domino_brute_force(table: Sequence[tuple[Domino, ...]], rack: Sequence[Domino]) -> int:
    table_pieces = [d for s in table for d in s]
    candidates = domino_sets(Counter(table_pieces) + Counter(rack), MELDS)

    def cover(pieces: Counter[Domino]) -> bool:
        if not +pieces:
            return True
        first = min(+pieces, key=lambda d: d.code)
        for cand in candidates:
            need = Counter(cand)
            if need[first] and not need - pieces and cover(pieces - need):
                return True
        return False

    for size in range(len(rack), 0, -1):
        for chosen in set(itertools.combinations(sorted(rack), size)):
            if cover(Counter(table_pieces) + Counter(chosen)):
                return size
    return 0


@pytest.mark.parametrize("seed", range(30))
def test_dominoes_match_brute_force(seed: int) -> None:
    from rummykit.rulesets.domino_rummikub import full_set

    rng = random.Random(seed)
    pool = full_set()
    rng.shuffle(pool)
    table: list[tuple[Domino, ...]] = []
    stock = Counter(pool)
    for _ in range(rng.randint(0, 3)):
        sets = [s for s in domino_sets(stock, MELDS) if len(s) <= 4]
        s = rng.choice(sets)
        table.append(MELDS.check(s).pieces)
        stock -= Counter(s)
    rack = list(stock.elements())
    rng.shuffle(rack)
    rack = rack[: rng.randint(1, 5)]
    expected = domino_brute_force(table, rack)
    solution = solve_dominoes(table, rack)
    assert (solution.pieces_placed if solution else 0) == expected
    if solution is not None:
        DOMINO_TABLE.verify_pieces(table, rack, solution.placed, solution.table)
        assert DOMINO_TABLE.turn_fault(table, solution.placed, solution.table, None) is None


def test_domino_starting_group() -> None:
    rack = parse_dominoes("5-3 5-4 5-5 4-3 5-2 6-1 0-1")
    solution = solve_dominoes([], rack, objective="initial")
    assert solution is not None and solution.pieces_placed == 3
    wide = solve_dominoes([], rack, objective="initial", starting_group_size="3-or-more")
    assert wide is not None and wide.pieces_placed == 4  # 2-5 3-5 4-5 5-5
    jokers = solve_dominoes([], parse_dominoes("5-3 5-4 0-0 6-6"), objective="initial", starting_group_size="3-or-more")
    assert jokers is not None and jokers.pieces_placed == 4
    assert len(jokers.table) == 1
