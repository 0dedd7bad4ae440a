"""The grid block: lines, verdicts, the text form and drafts, checked against deliberately simple versions.

* Line extraction on random layouts equals a second implementation that walks
  from every cell whose left (upper) neighbour is empty.
* Validity on random layouts equals a brute force that tries every numbered
  tile for every joker and checks each line with no joker at all.
* A line's readings equal the brute force's for random short lines.
* The text form round-trips.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.blocks.grid import Cell, Grid, GridDraft, Line, Put, parse_cell
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.errors import ParseError, RuleError
from rummykit.melds.tile_lines import read_line
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, Tile, parse_tiles
from rummykit.rulesets.two_tray import GRID, TileGrid, TwoTray
from rummykit.sim import run_bots

NUMBERED = [t for t in ALL_TILES if t.colour is not None]

# -- deliberately simple second implementations ------------------------------------------------------


def simple_lines(cells: set[Cell]) -> set[tuple[bool, tuple[Cell, ...]]]:
    """Every maximal line of 2+ cells: walk right (down) from each cell whose left (upper) cell is empty."""
    out = set()
    for r, c in cells:
        if (r, c - 1) not in cells:
            run = [(r, c)]
            while (r, run[-1][1] + 1) in cells:
                run.append((r, run[-1][1] + 1))
            if len(run) >= 2:
                out.add((True, tuple(run)))
        if (r - 1, c) not in cells:
            run = [(r, c)]
            while (run[-1][0] + 1, c) in cells:
                run.append((run[-1][0] + 1, c))
            if len(run) >= 2:
                out.add((False, tuple(run)))
    return out


def plain_line_ok(tiles: tuple[Tile, ...]) -> bool:
    """A line of numbered tiles only: 3+ tiles, a group (3-4, one number, colours differ) or a run going up by one."""
    if len(tiles) < 3:
        return False
    if len({t.number for t in tiles}) == 1:
        return len(tiles) <= 4 and len(set(tiles)) == len(tiles)
    if len({t.colour for t in tiles}) == 1:
        return all(b.number == a.number + 1 for a, b in itertools.pairwise(tiles))
    return False


def brute_valid(grid: TileGrid) -> bool:
    """Some numbered tile for each joker (its call, if called) makes every line valid, and no tile is alone."""
    cells = set(grid.cells)
    for r, c in cells:
        if not ({(r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)} & cells):
            return False
    lines = simple_lines(cells)
    jokers = sorted(c for c in cells if grid[c].colour is None)
    choices = [[grid.calls[c]] if c in grid.calls else NUMBERED for c in jokers]
    for fill in itertools.product(*choices):
        read = dict(grid.cells)
        read.update(zip(jokers, fill, strict=True))
        if all(plain_line_ok(tuple(read[c] for c in line)) for _, line in lines):
            return True
    return False


def brute_readings(tiles: tuple[Tile, ...]) -> set[tuple[Tile, ...]]:
    holes = [i for i, t in enumerate(tiles) if t.colour is None]
    out = set()
    for fill in itertools.product(NUMBERED, repeat=len(holes)):
        read = list(tiles)
        for i, t in zip(holes, fill, strict=True):
            read[i] = t
        if plain_line_ok(tuple(read)):
            out.add(tuple(read))
    return out


# -- strategies ----------------------------------------------------------------------------------------

small_tiles = st.sampled_from(
    [Tile(c, n) for c in COLOURS[:3] for n in range(3, 8)] + [Tile(COLOURS[0], 13), Tile(COLOURS[3], 1), JOKER]
)
cells_st = st.tuples(st.integers(-3, 3), st.integers(-3, 3))


@st.composite
def layouts(draw: st.DrawFn, max_jokers: int = 2) -> TileGrid:
    cells = draw(st.dictionaries(cells_st, small_tiles, min_size=1, max_size=14))
    jokers = [c for c, t in cells.items() if t is JOKER]
    for c in jokers[max_jokers:]:
        del cells[c]
    return TileGrid(cells)


@st.composite
def lined_layouts(draw: st.DrawFn) -> TileGrid:
    """Grids built from a few lines (so that a good share is valid), with a joker or two and the odd call."""
    grid: dict[Cell, Tile] = {}
    for _ in range(draw(st.integers(1, 4))):
        across = draw(st.booleans())
        r, c = draw(cells_st)
        colour = draw(st.sampled_from(COLOURS))
        if draw(st.booleans()):
            start = draw(st.integers(1, 11))
            tiles = [Tile(colour, start + i) for i in range(draw(st.integers(3, min(5, 14 - start))))]
        else:
            number = draw(st.integers(1, 13))
            tiles = [Tile(k, number) for k in draw(st.permutations(COLOURS))[: draw(st.integers(3, 4))]]
        for i, t in enumerate(tiles):
            grid[(r, c + i) if across else (r + i, c)] = t
    for cell in draw(st.lists(st.sampled_from(sorted(grid)), max_size=2, unique=True)):
        grid[cell] = JOKER
    calls = {}
    if draw(st.booleans()):
        joker_cells = [c for c, t in grid.items() if t is JOKER]
        if joker_cells:
            calls[joker_cells[0]] = draw(st.sampled_from(NUMBERED))
    return TileGrid(grid, calls)


# -- lines --------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(layouts())
def test_line_extraction_matches_the_simple_walk(grid: TileGrid) -> None:
    mine = {(line.across, line.cells) for line in grid.lines()}
    assert mine == simple_lines(set(grid.cells))
    for line in grid.lines():
        for cell in line.cells:
            assert line in grid.lines_through(cell)


def test_lines_are_named_by_their_cells() -> None:
    assert Line(True, 2, 4, 5).where() == "row 2, columns 4-5"
    assert Line(False, -1, -3, 0).where() == "column -1, rows -3-0"
    grid = Grid.parse("2,4: K5 B5", Tile.parse)
    problems = GRID.problems(grid)
    assert [p.rule for p in problems] == ["TT-LINE-SIZE"]
    assert problems[0].reason.startswith("row 2, columns 4-5: a line of 2 tiles")
    assert problems[0].cells == ((2, 4), (2, 5))


def test_grid_refusals_carry_their_cells_counted_from_0_and_are_worded_from_1() -> None:
    """The block knows no screen: a problem's cells and lines are params, which people read from 1."""
    line = GRID.problems(Grid.parse("2,4: K5 B5", Tile.parse))[0].error
    assert {k: line.params[k] for k in ("line_fixed", "line_start", "line_end")} == {
        "line_fixed": 2,
        "line_start": 4,
        "line_end": 5,
    }
    assert {"line_fixed", "line_start", "line_end"} <= set(line.counted) and "pieces" not in line.counted
    assert line.worded(1).startswith("row 3, columns 5-6: a line of 2 tiles (K5 B5)")
    alone = GRID.problems(Grid.parse("0,0: R1 R2 R3 / . . . / K9", Tile.parse))[0].error
    assert alone.rule == "TT-ALONE" and (alone.params["row"], alone.params["col"]) == (2, 0)
    assert alone.reason.startswith("row 2, column 0: K9") and alone.worded(1).startswith("row 3, column 1: K9")
    clash = Grid.parse("-3,0: . . . O6 / . . . K6 / . . . B6 / B3 B4 B5 J B7 B8 B9", Tile.parse)
    (cross,) = (p.error for p in GRID.problems(clash))
    assert cross.rule == "TT-JOKER-CROSS" and (cross.params["row"], cross.params["col"]) == (0, 3)
    assert cross.params["second_fixed"] == 3 and cross.params["second_start"] == -3
    assert "column 3, rows -3-0 needs R6" in cross.reason and "column 4, rows -2-1 needs R6" in cross.worded(1)


def test_a_draft_refuses_a_cell_changed_twice_with_its_cell() -> None:
    d = draft()
    with pytest.raises(RuleError) as refused:
        d.apply([Put(0, 3, Tile.parse("R4")), Put(0, 3, Tile.parse("R5"))])
    assert refused.value.rule == "TT-DRAFT" and refused.value.params == {"row": 0, "col": 3}
    assert refused.value.worded(1) == "cell 1,4 is changed twice in one turn"
    assert d.changes() == () and not d.placed()


def test_a_later_turn_cannot_draft_from_the_other_tray() -> None:
    """The trays take turns: the game refuses a draft from the tray that is not playing (no presenter check)."""
    from rummykit.rulesets.two_tray import draft_from_view, from_position

    state = from_position("grid: 0,0: R1 R2 R3; trays: A[R4] B[O1] / A[K1] B[B1]; next: A A; down: 11")
    with pytest.raises(RuleError) as refused:
        draft_from_view(state.view(0), "B")
    assert refused.value.rule == "TT-WRONG-TRAY" and refused.value.params == {"tray": "B", "playing": "A"}
    assert draft_from_view(state.view(0)).tray_name == "A"


# -- validity ------------------------------------------------------------------------------------------


@settings(max_examples=150)
@given(st.one_of(layouts(max_jokers=1), lined_layouts()))
def test_validity_matches_the_brute_force(grid: TileGrid) -> None:
    assert GRID.verdict(grid).valid == brute_valid(grid), grid.text()


def test_validity_matches_the_brute_force_on_bot_grids() -> None:
    checked = 0
    for seed in (1, 2):
        state = new_game("two-tray", seed=seed)
        assert isinstance(state, TwoTray)
        run_bots(state, [make_bot("greedy", "two-tray")] * 2)
        grid = state.grid
        assert GRID.verdict(grid).valid
        # Every tile taken away or moved one cell breaks the grid or not, exactly as the brute force says.
        for cell in list(grid.cells)[:25]:
            removed = grid.changed([Put(cell[0], cell[1], None)], GRID.is_joker)
            assert GRID.verdict(removed).valid == brute_valid(removed)
            checked += 1
    assert checked >= 40


@settings(max_examples=200)
@given(st.lists(small_tiles, min_size=1, max_size=5))
def test_a_lines_readings_are_the_brute_forces(tiles: list[Tile]) -> None:
    line = tuple(tiles)
    if sum(t is JOKER for t in line) > 2:
        line = tuple(t for t in line if t is not JOKER) or (JOKER,)
    verdict = read_line(line)
    assert {r.pieces for r in verdict.readings} == brute_readings(line)
    assert verdict.valid or (verdict.rule and verdict.reason)


def test_a_joker_in_two_lines_must_be_one_tile_for_both() -> None:
    fits = Grid.parse("-3,0: . R4 / K5 R5 B5 / K6 R6 B6 / K7 J B7 / . R8 / . R9 / . R10", Tile.parse)
    verdict = GRID.verdict(fits)
    assert verdict.valid and verdict.roles == {(0, 1): Tile.parse("R7")}
    clash = Grid.parse("-3,0: . . . O6 / . . . K6 / . . . B6 / B3 B4 B5 J B7 B8 B9", Tile.parse)
    problems = GRID.problems(clash)
    assert [p.rule for p in problems] == ["TT-JOKER-CROSS"]
    assert "row 0, columns 0-6 needs it to be B6" in problems[0].reason
    assert "column 3, rows -3-0 needs R6" in problems[0].reason


def test_points_count_a_crossing_tile_once_and_a_joker_as_what_it_stands_for() -> None:
    grid = Grid.parse("0,0: . B4 / K5 B5 O5 / . B6", Tile.parse)
    assert GRID.points(grid, GRID.verdict(grid), grid.cells) == 25
    grid = Grid.parse("0,0: K7 J J", Tile.parse)  # read both ways: the run K7 K8 K9 is worth more
    assert GRID.points(grid, GRID.verdict(grid), grid.cells) == 24


def test_calls_bind_the_joker_in_every_line() -> None:
    grid = Grid.parse("0,0: K9 B9 J=O9", Tile.parse)
    assert GRID.verdict(grid).valid
    wrong = Grid.parse("0,0: K9 B9 J=K9", Tile.parse)
    assert [p.rule for p in GRID.problems(wrong)] == ["TT-CALLED"]
    grid = grid.changed([Put(0, 2, None), Put(0, 3, JOKER)], GRID.is_joker)
    assert grid.calls == {}, "a call leaves with its joker"


# -- the text form -----------------------------------------------------------------------------------


@settings(max_examples=150)
@given(st.one_of(layouts(), lined_layouts()))
def test_the_text_form_round_trips(grid: TileGrid) -> None:
    assert Grid.parse(grid.text(), Tile.parse) == grid
    assert Grid.parse("\n".join(grid.layout()), Tile.parse) == grid
    assert "\n" not in grid.text()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("0,0: R1 Q2", "grid cell 0,1: bad tile 'Q2'"),
        ("x,0: R1", "a cell is written ROW,COLUMN"),
        ("0,0: R1=", "grid cell 0,0: bad tile ''"),
    ],
)
def test_bad_grid_texts_are_parse_errors(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=re.escape(words)):
        Grid.parse(text, Tile.parse)


def test_cells_and_changes_have_a_text_form() -> None:
    assert parse_cell("-2,7") == (-2, 7)
    for bad in ("2", "2,", "a,b", "2,3,4"):
        with pytest.raises(ParseError):
            parse_cell(bad)
    assert str(Put.from_notation("1,-1=j", Tile.parse)) == "1,-1=J"
    with pytest.raises(ParseError):
        Put.from_notation("1,1", Tile.parse)


# -- drafts --------------------------------------------------------------------------------------------


def draft(grid: str = "0,0: R1 R2 R3", tray: str = "R4 R5 K9 K10 K11", opening: int | None = None) -> GridDraft[Tile]:
    return GridDraft(
        GRID, parse_tiles(tray), Grid.parse(grid, Tile.parse), opening=opening, tray_name="A", others={"B": parse_tiles("O1")}
    )


def test_a_draft_places_moves_takes_back_undoes_and_resets() -> None:
    d = draft()
    d.place(Tile.parse("R4"), (0, 3))
    d.move((0, 0), (5, 5))
    assert [p.rule for p in d.problems()] == ["TT-ALONE"]
    d.undo()
    assert d.problems() == [] and [str(c) for c in d.changes()] == ["0,3=R4"]
    assert d.back((0, 3)) == Tile.parse("R4") and not d.placed()
    assert [p.rule for p in d.problems()] == ["TT-PLAY-EMPTY"]
    d.place(Tile.parse("K9"), (2, 0))
    d.place(Tile.parse("K10"), (2, 1))
    d.reset()
    assert d.cells == dict(Grid.parse("0,0: R1 R2 R3", Tile.parse).cells) and len(d.tray) == 5
    d.undo()
    assert d.placed() == parse_tiles("K9 K10")


@pytest.mark.parametrize(
    ("step", "rule"),
    [
        (lambda d: d.place(Tile.parse("O1"), (2, 0)), "TT-WRONG-TRAY"),
        (lambda d: d.place(Tile.parse("B7"), (2, 0)), "TT-TRAY"),
        (lambda d: d.place(Tile.parse("R4"), (0, 0)), "TT-DRAFT"),
        (lambda d: d.move((9, 9), (2, 0)), "TT-DRAFT"),
        (lambda d: d.move((0, 0), (0, 1)), "TT-DRAFT"),
        (lambda d: d.back((0, 0)), "TT-TABLE-KEEP"),
        (lambda d: d.back((7, 7)), "TT-DRAFT"),
        (lambda d: d.undo(), "TT-DRAFT"),
    ],
)
def test_a_refused_draft_step_changes_nothing(step: object, rule: str) -> None:
    d = draft()
    before = (list(d.tray), dict(d.cells), len(d._undo))
    with pytest.raises(RuleError) as refused:
        step(d)  # type: ignore[operator]
    assert refused.value.rule == rule
    assert (list(d.tray), dict(d.cells), len(d._undo)) == before


def test_a_draft_checks_the_first_play() -> None:
    d = draft(tray="K9 K10 K11 R4", opening=30)
    d.place(Tile.parse("R4"), (0, 3))
    assert [p.rule for p in d.problems()] == ["TT-OPENING-TABLE"]
    d.undo()
    for i, t in enumerate(("K9", "K10", "K11")):
        d.place(Tile.parse(t), (2, i))
    assert d.problems() == []
    d.undo()
    d.place(Tile.parse("K11"), (2, 3))
    assert [p.rule for p in d.problems()] == ["TT-ALONE", "TT-LINE-SIZE"]


def test_a_draft_notes_its_going_down_lines_and_names_them_only_when_the_grid_hides_them() -> None:
    d = draft(grid="0,0: K10 B10 O10 / . / K13 B13 O13 R13", tray="R10 R11 R12 K1", opening=30)
    for i, t in enumerate(("R10", "R11", "R12")):
        d.place(Tile.parse(t), (6, i))
    assert [str(p) for p in d.down] == ["6,0=R10", "6,1=R11", "6,2=R12"] and d.down_changes() == ()
    d.move((6, 0), (0, 3))  # R10 joins the tens: the grid shows no going-down line any more
    assert [p.rule for p in d.problems()] == ["TT-LINE-SIZE"]  # R11 R12 alone are too short
    assert [str(p) for p in d.down_changes()] == ["6,0=R10", "6,1=R11", "6,2=R12"]
    d.move((2, 3), (6, 0))  # the thirteens' R13 in front of R11 R12 is no run ...
    assert [p.rule for p in d.problems()] == ["TT-RUN"]
    d.undo()
    d.move((2, 3), (6, 3))  # ... after them it is: R11 R12 R13
    assert d.problems() == [] and len(d.down_changes()) == 3
    d.undo()
    d.back((6, 2))  # R12 back on the tray: the noted lines are gone, and R10 touched the table
    assert d.down == () and [p.rule for p in d.problems()] == ["TT-OPENING-TABLE"]
    d.undo()
    assert len(d.down) == 3
