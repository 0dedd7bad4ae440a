"""The seed's two example layouts (seed 002), redrawn as grids, and every "may move / may not move" sentence.

The seed's pictures were lost (its text keeps only the numbers of each row);
``docs/games/two-tray.md`` redraws both layouts so that every sentence of the
seed holds, reading runs as the project's ruling does (ascending left to
right and top to bottom). Each test below is one sentence of the seed, played
on the real engine: seat 0 is down and plays from tray A, which holds the
tiles the sentence needs; a turn must place at least one tile from the tray,
so a sentence about moving table tiles is played together with one tray tile
that changes nothing else.
"""

from __future__ import annotations

import pytest
from conftest import Rejecter

from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray import TwoTray, call_options, from_position, group_options, joker_options

EXAMPLE_1 = "0,0: . . . . O7 / B3 B4 B5 B6 B7 / J . K5 K6 K7 / R3 R4 R5 R6"
"""Example 1 redrawn: the blue run 3-7 above the black run 5-7 above the red run 3-6; the columns of
fives, sixes and sevens are groups, and the joker joins the blue 3 and the red 3 into a group of threes."""

EXAMPLE_2 = "1,0: . . O11 . O13 / . . O12 . B13 / B13 R13 J . K13 / . / . . . . . . R10 R11 J R13"
"""Example 2 redrawn (turned half round, so that its runs ascend): the orange run 11-12-joker down
column 2, whose joker closes the group of thirteens B13 R13 J across row 3; the thirteens O13 B13 K13
down column 4; the red run 10-11-joker-13 along row 5."""


def example(grid: str, tray_a: str, *, jokers: int = 2, tray_b: str = "K1") -> TwoTray:
    """The layout with seat 0 down and to play from tray A (``tray_a``); seat 1 holds a tile or two."""
    return from_position(
        f"grid: {grid}; trays: A[{tray_a}] B[{tray_b}] / A[K2] B[B2]; pool: seed 1; next: A A; down: 11",
        jokers=jokers,
    )


def play(state: TwoTray, changes: str) -> None:
    state.apply(state.parse_action(f"0 play A {changes}"))


# -- example 1 -------------------------------------------------------------------------------


def test_example_1_is_a_valid_grid_with_a_joker_callable_black_or_orange() -> None:
    state = example(EXAMPLE_1, "K4")
    assert state.grid.text() == EXAMPLE_1
    assert joker_options(state.view(0)) == {(2, 0): ["K3", "O3"]}


def test_e1_a_black_4_can_be_placed_in_the_open_central_slot() -> None:
    state = example(EXAMPLE_1, "K4")
    play(state, "2,1=K4")
    assert state.grid[(2, 1)] == Tile.parse("K4")
    # The joker now completes the black run J K4 K5 K6 K7 as well as the group B3 J R3: it is K3.
    assert joker_options(state.view(0)) == {(2, 0): ["K3"]}


@pytest.mark.parametrize("colour", ["K3", "O3"])
def test_e1_the_joker_can_be_called_black_or_orange_by_each_player(colour: str) -> None:
    state = example(EXAMPLE_1, "K4 R2")
    state.apply(state.parse_action(f"0 call 2,0 {colour}"))
    assert state.grid.calls == {(2, 0): Tile.parse(colour)}
    state.apply(state.parse_action("0 draw A"))
    other = "O3" if colour == "K3" else "K3"
    state.apply(state.parse_action(f"1 call 2,0 {other}"))  # the next player calls it on their turn
    assert state.grid.calls == {(2, 0): Tile.parse(other)}


@pytest.mark.parametrize("colour", ["B3", "R3"])
def test_e1_the_joker_cannot_be_called_a_colour_its_group_holds(colour: str, assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_1, "K4")
    assert_rejected(state, f"0 call 2,0 {colour}", "TT-CALL-COLOUR")


def test_e1_a_joker_called_orange_no_longer_fits_the_black_slot(assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_1, "K4")
    state.apply(state.parse_action("0 call 2,0 O3"))
    error = assert_rejected(state, "0 play A 2,1=K4", "TT-CALLED")
    assert "row 2, columns 0-4" in error.reason and "called O3" in error.reason


def test_e1_the_joker_can_be_placed_as_a_red_7_after_the_red_6() -> None:
    state = example(EXAMPLE_1, "R2")
    play(state, "2,0=. 3,-1=R2 3,4=J")  # R2 only lengthens the red run
    assert joker_options(state.view(0)) == {(3, 4): ["R7"]}


def test_e1_which_frees_the_orange_7_for_a_new_meld() -> None:
    state = example(EXAMPLE_1, "O5 O6")
    play(state, "0,4=. 2,0=. 3,4=J 5,0=O5 5,1=O6 5,2=O7")
    assert state.grid.get((0, 4)) is None and state.grid[(5, 2)] == Tile.parse("O7")


def test_e1_the_blue_4_can_be_removed_to_be_used_elsewhere() -> None:
    state = example(EXAMPLE_1, "K4 O4")
    play(state, "1,1=. 5,0=K4 5,1=B4 5,2=O4")
    assert state.grid.get((1, 1)) is None


def test_e1_the_black_5_and_6_can_be_removed_to_be_used_elsewhere() -> None:
    state = example(EXAMPLE_1, "K4")
    play(state, "2,2=. 2,3=. 5,0=K4 5,1=K5 5,2=K6")
    assert state.grid.get((2, 2)) is None and state.grid.get((2, 3)) is None


@pytest.mark.parametrize(
    ("moved", "changes", "broken"),
    [
        ("blue 5", "1,2=. 5,0=B5 5,1=O5 5,2=R5", "row 1, columns 0-1: a line of 2 tiles (B3 B4)"),
        ("blue 6", "1,3=. 5,0=B6 5,1=O6 5,2=R6", "column 3, rows 2-3: a line of 2 tiles (K6 R6)"),
        ("orange 7", "0,4=. 5,0=O5 5,1=O6 5,2=O7", "column 4, rows 1-2: a line of 2 tiles (B7 K7)"),
    ],
)
def test_e1_the_blue_5_or_6_or_the_orange_7_cannot_be_moved(
    moved: str, changes: str, broken: str, assert_rejected: Rejecter
) -> None:
    state = example(EXAMPLE_1, "O5 O6 R5 R6")
    error = assert_rejected(state, f"0 play A {changes}", "TT-LINE-SIZE")
    assert error.reason.startswith(broken), (moved, error.reason)


def test_e1_the_black_5_cannot_be_moved_alone_it_would_leave_black_6_7(assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_1, "K3 K4")
    error = assert_rejected(state, "0 play A 2,2=. 5,0=K3 5,1=K4 5,2=K5", "TT-LINE-SIZE")
    assert error.reason.startswith("row 2, columns 3-4: a line of 2 tiles (K6 K7)")


def test_e1_the_black_5_can_be_moved_when_the_7s_are_moved_too() -> None:
    state = example(EXAMPLE_1, "K3 K4")
    play(state, "0,4=. 1,4=. 2,2=. 2,4=. 5,0=K3 5,1=K4 5,2=K5 7,0=O7 7,1=B7 7,2=K7")
    assert [str(t) for t in state.grid.pieces()][-3:] == ["O7", "B7", "K7"]


def test_e1_the_blue_3_cannot_be_moved_alone_it_would_leave_two_tiles_of_its_group(
    assert_rejected: Rejecter,
) -> None:
    state = example(EXAMPLE_1, "O3 K3")
    error = assert_rejected(state, "0 play A 1,0=. 5,0=B3 5,1=O3 5,2=K3", "TT-LINE-SIZE")
    assert error.reason.startswith("column 0, rows 2-3: a line of 2 tiles (J R3)")


def test_e1_the_blue_3_can_be_moved_with_the_joker() -> None:
    state = example(EXAMPLE_1, "O3")
    play(state, "1,0=. 2,0=. 5,0=B3 5,1=J 5,2=O3")
    assert joker_options(state.view(0)) == {(5, 1): ["K3", "R3"]}


# -- example 2 -------------------------------------------------------------------------------


def test_example_2_is_a_valid_grid() -> None:
    state = example(EXAMPLE_2, "R9")
    assert state.grid.text() == EXAMPLE_2
    # The top-left joker of the seed (here at 3,2) is the orange 13; the red run's joker is R12.
    assert joker_options(state.view(0)) == {(3, 2): ["O13"], (5, 8): ["R12"]}


def test_e2_the_orange_13_cannot_simply_replace_the_joker(assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_2, "R8")
    # The freed joker would fit the red run (R8 J R10 R11 J R13), but the thirteens lose their orange.
    error = assert_rejected(state, "0 play A 1,4=. 3,2=O13 5,4=R8 5,5=J", "TT-LINE-SIZE")
    assert error.reason.startswith("column 4, rows 2-3: a line of 2 tiles (B13 K13)")


def test_e2_once_the_red_run_is_moved_the_orange_13_replaces_the_joker_which_is_used_elsewhere() -> None:
    state = example(EXAMPLE_2, "R9")
    # The red run gives its 13 to the thirteens and takes the freed joker (R9 only lengthens it).
    play(state, "1,4=. 3,2=O13 4,4=R13 5,5=R9 5,9=J")
    assert state.grid[(3, 2)] == Tile.parse("O13")
    assert joker_options(state.view(0)) == {(5, 8): ["R12"], (5, 9): ["R13"]}


@pytest.mark.parametrize(
    ("end", "changes", "reads"),
    [
        ("high end", "4,4=R13 5,5=R9 5,9=.", {(5, 8): ["R12"]}),
        ("low end", "4,4=R13 5,5=J 5,8=R12 5,9=.", {(5, 5): ["R9"]}),
    ],
)
def test_e2_the_red_joker_11_10_can_be_split_off_with_the_joker_on_either_end(
    end: str, changes: str, reads: dict[tuple[int, int], list[str]]
) -> None:
    state = example(EXAMPLE_2, "R9 R12")
    play(state, changes)
    options = joker_options(state.view(0))
    assert {c: o for c, o in options.items() if c[0] == 5} == reads, end


def test_e2_the_13s_can_be_split_off_as_a_separate_group_which_then_takes_the_red_13() -> None:
    state = example(EXAMPLE_2, "R9")
    play(state, "1,4=. 2,4=. 3,4=. 5,5=R9 5,9=. 7,0=O13 7,1=B13 7,2=K13 7,3=R13")
    assert [str(state.grid[(7, c)]) for c in range(4)] == ["O13", "B13", "K13", "R13"]


@pytest.mark.parametrize(
    ("where", "changes"),
    [("top", "3,6=R8 4,6=R9"), ("end", "5,4=R8 5,5=R9")],
)
def test_e2_a_red_8_9_can_be_added_on_top_of_or_at_the_end_of_the_red_10(where: str, changes: str) -> None:
    state = example(EXAMPLE_2, "R8 R9")
    play(state, changes)
    assert state.grid.counts()[Tile.parse("R8")] == 1, where


def test_e2_below_the_red_10_a_run_would_descend_which_the_ruling_forbids(assert_rejected: Rejecter) -> None:
    # The seed also allows "the bottom": its pictures read runs either way; the rules notes rule that
    # runs ascend downwards, so R10 R9 R8 down column 6 is refused.
    state = example(EXAMPLE_2, "R8 R9")
    error = assert_rejected(state, "0 play A 6,6=R9 7,6=R8", "TT-RUN")
    assert error.reason.startswith("column 6, rows 5-7 (R10 R9 R8)")


def test_e2_the_black_13_can_be_moved_to_the_13_group() -> None:
    state = example(EXAMPLE_2, "R9")
    # Read with the sentence before it: the thirteens take the red 13, then give their black 13
    # to the group B13 R13 J, which lacks black.
    play(state, "0,4=R13 3,3=K13 3,4=. 5,5=R9 5,9=.")
    assert [str(state.grid[(3, c)]) for c in range(4)] == ["B13", "R13", "J", "K13"]


def test_e2_the_orange_12_can_be_moved_to_make_the_orange_11_13_a_run() -> None:
    state = example(EXAMPLE_2, "R9 O1", tray_b="O10")
    play(state, "1,3=O12 2,2=. 5,5=R9")
    assert [str(state.grid[(1, c)]) for c in range(2, 5)] == ["O11", "O12", "O13"]
    # ... which frees the group B13 R13 J: the joker may now be black or orange, and the group can move.
    assert joker_options(state.view(0))[(3, 2)] == ["K13", "O13"]
    state.apply(state.parse_action("1 draw A"))
    state.apply(state.parse_action("0 play B 1,1=O10 3,0=. 3,1=. 3,2=. 9,0=B13 9,1=R13 9,2=J"))
    assert state.grid[(9, 2)] == Tile.parse("J")


def test_e2_the_orange_13_cannot_be_moved_by_itself(assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_2, "O11 O12")
    error = assert_rejected(state, "0 play A 1,4=. 7,0=O11 7,1=O12 7,2=O13", "TT-LINE-SIZE")
    assert error.reason.startswith("column 4, rows 2-3: a line of 2 tiles (B13 K13)")


def test_e2_the_joker_completing_the_orange_run_cannot_be_called_another_colour(assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_2, "R9")
    # The group B13 R13 J lacks black and orange, but the orange run down column 2 needs the joker to be
    # O13: that, and nothing else, is why black is refused, and orange is the only call offered.
    error = assert_rejected(state, "0 call 3,2 K13", "TT-CALL-FIXED")
    assert error.reason == (
        "the joker at 3,2 cannot be called K13: column 2, rows 1-3 (O11 O12 J) needs it to be O13;"
        " it can be called only O13"
    )
    # Red is no colour this group lacks (the redrawn group holds the red 13); the refusal offers only
    # the call that is allowed.
    error = assert_rejected(state, "0 call 3,2 R13", "TT-CALL-COLOUR")
    assert error.reason == (
        "the joker at 3,2 cannot be called R13: its group, row 3, columns 0-2 (B13 R13 J), has R13 already;"
        " it can be called only O13"
    )
    assert call_options(state.grid, (3, 2)) == [Tile.parse("O13")]
    assert group_options(state.grid, (3, 2)) == [Tile.parse("K13"), Tile.parse("O13")]
    assert [a.text() for a in state.legal_actions(0) if a.type == "call"] == ["call 3,2 O13"]
    state.apply(state.parse_action("0 call 3,2 O13"))  # what the run already fixes may be called
    assert state.grid.calls == {(3, 2): Tile.parse("O13")}


@pytest.mark.parametrize("after", ["J", "R1"])
def test_e2_neither_a_joker_nor_a_1_follows_a_13_in_a_run(after: str, assert_rejected: Rejecter) -> None:
    state = example(EXAMPLE_2, after, jokers=3)
    error = assert_rejected(state, f"0 play A 5,10={after}", "TT-RUN")
    assert error.reason.startswith(f"row 5, columns 6-10 (R10 R11 J R13 {after})")
    assert "stops at 13" in error.reason or "goes up by one" in error.reason
