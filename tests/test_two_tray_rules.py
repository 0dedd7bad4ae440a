"""Two-tray's rules, one test (or more) per rule and per rule id of ``docs/games/two-tray.md``.

Every refusal goes through ``assert_rejected`` (tests/conftest.py): the rule id
is the one named, and the snapshot, every view and the history are exactly
as before the refused action.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import Rejecter

from rummykit.catalogue import find_game, new_game
from rummykit.errors import OptionError, ParseError
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray import TRAY_SIZE, TwoTray, from_position, joker_options

PAGE = Path(__file__).resolve().parents[1] / "docs" / "games" / "two-tray.md"


def pos(
    trays: str,
    *,
    grid: str = "",
    nxt: str = "A A",
    down: str = "11",
    pool: str = "seed 1",
    turn: int = 0,
    **options: Any,
) -> TwoTray:
    text = f"grid: {grid}; trays: {trays}; pool: {pool}; turn: {turn}; next: {nxt}; down: {down}"
    return from_position(text, **options)


def act(state: TwoTray, text: str) -> None:
    state.apply(state.parse_action(text))


def tiles(state: TwoTray, seat: int, tray: str) -> list[str]:
    return sorted(str(t) for t in state.trays.rack(seat, tray))


# -- setting up ---------------------------------------------------------------------------------


def test_two_players_each_get_two_trays_of_14_from_the_106_tiles() -> None:
    state = new_game("two-tray", seed=5)
    assert isinstance(state, TwoTray)
    assert state.view(None)["tray_sizes"] == [{"A": TRAY_SIZE, "B": TRAY_SIZE}] * 2
    assert state.view(None)["pool_size"] == 106 - 4 * TRAY_SIZE
    every = Counter(state.pool) + state.trays.counts()
    assert sum(every.values()) == 106 and every[Tile.parse("J")] == 2
    kinds = [e.kind for e in state.history]
    assert kinds[:1] == ["first-draw"] and "first-player" in kinds and kinds[-3:] == ["deal", "trays", "trays"]


@pytest.mark.parametrize("players", [1, 3, 4])
def test_two_tray_is_for_exactly_two_players(players: int) -> None:
    with pytest.raises(OptionError, match="two-tray is for 2 players"):
        new_game("two-tray", players=players)


def test_trays_are_private_their_sizes_and_the_playing_tray_public() -> None:
    state = pos("A[R1 R2] B[K5] / A[O9] B[B1 B2 B3]", nxt="A B")
    assert state.view(0)["trays"] == {"A": ["R1", "R2"], "B": ["K5"]}
    assert "trays" not in state.view(None) and "O9" not in str(state.view(0))
    assert state.view(1)["tray_sizes"] == [{"A": 2, "B": 1}, {"A": 1, "B": 3}]
    assert state.view(None)["playing"] == ["A", "B"]


# -- drawing, passing, tray turns ------------------------------------------------------------------


def test_first_turn_draws_onto_a_chosen_tray_then_the_trays_alternate_from_it() -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]", nxt="- -", down="00")
    act(state, "0 draw B")
    assert len(state.trays.rack(0, "B")) == 2 and state.playing[0] == "A"
    act(state, "1 draw A")
    assert state.playing[1] == "B"
    act(state, "0 draw A")
    act(state, "1 draw B")
    act(state, "0 draw B")
    assert state.playing == ["A", "A"]
    assert [a.text() for a in state.actions] == ["draw B", "draw A", "draw A", "draw B", "draw B"]


def test_drawing_onto_the_tray_that_does_not_play_is_refused(assert_rejected: Rejecter) -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]", nxt="A A")
    error = assert_rejected(state, "0 draw B", "TT-WRONG-TRAY")
    assert "plays from tray A" in error.reason


def test_a_tray_the_player_does_not_have_is_refused(assert_rejected: Rejecter) -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]")
    assert_rejected(state, "0 draw C", "TT-TRAY")
    assert_rejected(state, "0 play AB 0,0=R1", "TT-TRAY")


def test_draw_needs_tiles_in_the_pool(assert_rejected: Rejecter) -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]", pool="")
    assert_rejected(state, "0 draw A", "TT-POOL-EMPTY")


def test_pass_only_with_an_empty_pool(assert_rejected: Rejecter) -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]")
    assert_rejected(state, "0 pass", "TT-DRAW")
    empty = pos("A[R1] B[K5] / A[O9] B[B1]", pool="")
    act(empty, "0 pass")
    assert empty.current == 1 and empty.playing[0] == "B"


def test_a_turn_plays_at_least_one_tile(assert_rejected: Rejecter) -> None:
    state = pos("A[R1] B[K5] / A[O9] B[B1]", grid="0,0: K1 K2 K3")
    assert_rejected(state, "0 play A", "TT-PLAY-EMPTY")
    assert_rejected(state, "0 play A 0,0=. 1,0=K1", "TT-PLAY-EMPTY")  # moving a table tile places nothing


# -- going down --------------------------------------------------------------------------------------


def test_going_down_needs_30_points_from_one_tray(assert_rejected: Rejecter) -> None:
    state = pos("A[K9 B9 O9 R1] B[K10 B10 O10] / A[O1] B[B1]", nxt="- -", down="00")
    error = assert_rejected(state, "0 play A 0,0=K9 0,1=B9 0,2=O9", "TT-OPENING-POINTS")
    assert "totals 27" in error.reason
    act(state, "0 play B 0,0=K10 0,1=B10 0,2=O10")
    assert state.down == [True, False] and state.playing[0] == "A"


def test_going_down_counts_a_tile_in_two_lines_once(assert_rejected: Rejecter) -> None:
    # K5 B5 O5 across and B4 B5 B6 down: 15 + 4 + 6 = 25 (counting B5 twice would make 30).
    state = pos("A[K5 B5 O5 B4 B6 R1] B[K1] / A[O1] B[B1]", nxt="- -", down="00")
    error = assert_rejected(state, "0 play A 0,1=B4 1,0=K5 1,1=B5 1,2=O5 2,1=B6", "TT-OPENING-POINTS")
    assert "totals 25" in error.reason
    state = pos("A[K7 B7 O7 B6 B8 R1] B[K1] / A[O1] B[B1]", nxt="- -", down="00")
    act(state, "0 play A 0,1=B6 1,0=K7 1,1=B7 1,2=O7 2,1=B8")  # 21 + 6 + 8 = 35
    assert state.down[0]


def test_a_joker_in_the_first_play_counts_what_it_stands_for() -> None:
    state = pos("A[K10 J O10 R1] B[K1] / A[O1] B[B1]", nxt="- -", down="00")
    act(state, "0 play A 0,0=K10 0,1=J 0,2=O10")
    assert state.down[0]


def test_going_down_lines_may_not_touch_the_table(assert_rejected: Rejecter) -> None:
    table = "0,0: R1 R2 R3"
    state = pos("A[R4 K10 B10 O10 R11 R12 R13] B[K1] / A[O1] B[B1]", grid=table, nxt="- -", down="00")
    # A new line laid so that it touches table tiles joins them (here into two-tile columns): the lines
    # R11 R12 R13 are worth 36 on their own, so the turn goes down, but the grid it leaves is invalid.
    error = assert_rejected(state, "0 play A 1,0=R11 1,1=R12 1,2=R13", "TT-LINE-SIZE")
    assert error.reason.startswith("column 0, rows 0-1: a line of 2 tiles (R1 R11)")
    act(state, "0 play A 2,0=K10 2,1=B10 2,2=O10")
    assert state.down[0]


# -- going down, then a normal turn (seed 002: "in the same turn") ------------------------------------

SEED_TABLE = "0,0: R1 R2 R3 / . / K13 B13 O13 R13"
"""A red run and a group of four thirteens (which may give up a tile)."""


def test_a_player_may_manipulate_the_table_in_the_turn_they_go_down() -> None:
    """The seed: "After first going down, but not before, a player can in the same turn ... manipulate all
    tiles on the table and play from the playing tray before and after such manipulation"."""
    state = pos("A[R4 K10 B10 O10 R11 R12 K1] B[K1] / A[O1] B[B1]", grid=SEED_TABLE, nxt="- -", down="00")
    # Go down with K10 B10 O10 (30), then lay R4 on the table's red run, take R13 out of the thirteens
    # and make R11 R12 R13 with two more tiles of the same tray.
    act(state, "0 play A 0,3=R4 2,3=. 4,0=K10 4,1=B10 4,2=O10 6,0=R11 6,1=R12 6,2=R13")
    assert state.down == [True, False] and state.playing[0] == "B"
    assert state.grid.text() == "0,0: R1 R2 R3 R4 / . / K13 B13 O13 / . / K10 B10 O10 / . / R11 R12 R13"
    assert tiles(state, 0, "A") == ["K1"]
    play = state.history[-1]
    assert play.kind == "play" and play.data["opening"] is True
    assert sorted(play.data["placed"]) == ["B10", "K10", "O10", "R11", "R12", "R4"]


def test_going_down_and_playing_on_may_come_in_any_order_in_the_one_play() -> None:
    # The going-down lines need not be kept apart from the rest: R11 R12 R13 K... the new run is extended
    # by the table's R13 moved onto it; the tray's own R10 R11 R12 are the going-down line (33).
    state = pos("A[R10 R11 R12 K1] B[K1] / A[O1] B[B1]", grid=SEED_TABLE, nxt="A A", down="00")
    act(state, "0 play A 2,3=. 4,0=R10 4,1=R11 4,2=R12 4,3=R13")
    assert state.down[0] and state.grid.text() == "0,0: R1 R2 R3 / . / K13 B13 O13 / . / R10 R11 R12 R13"


def test_the_going_down_lines_alone_must_total_30(assert_rejected: Rejecter) -> None:
    state = pos("A[R4 K9 B9 O9 K13 B13 K1 K2 K3] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3 / . / R13 O13 B13 K13",
                nxt="A A", down="00")
    # Nothing new from the tray: touching the table is refused first.
    error = assert_rejected(state, "0 play A 0,3=R4", "TT-OPENING-TABLE")
    assert "before going down you may not touch the table (row 0, columns 0-3 joins your tiles" in error.reason
    # K9 B9 O9 is worth 27 on its own: not enough to go on and touch the table.
    error = assert_rejected(state, "0 play A 0,3=R4 4,0=K9 4,1=B9 4,2=O9", "TT-OPENING-POINTS")
    assert "total 27 on their own" in error.reason and "at least 30 points before you may touch the table" in error.reason


def test_table_tiles_do_not_count_towards_going_down(assert_rejected: Rejecter) -> None:
    # R13 moved from the thirteens makes K13 B13 R13 a group worth 39, but only K13 B13 are the tray's:
    # the tray's own lines are K1 K2 K3, 6 points.
    state = pos("A[K13 B13 K1 K2 K3] B[K1] / A[O1] B[B1]", grid="0,0: R10 R11 R12 R13 / . / O11 O12 O13",
                nxt="A A", down="00")
    error = assert_rejected(state, "0 play A 0,3=. 4,0=K13 4,1=B13 4,2=R13 6,0=K1 6,1=K2 6,2=K3", "TT-OPENING-POINTS")
    assert "total 6 on their own" in error.reason


def test_going_down_lines_moved_on_are_named_with_down(assert_rejected: Rejecter) -> None:
    table = "0,0: K10 B10 O10 / . / K13 B13 O13 R13"
    state = pos("A[R10 R11 R12 K1] B[K1] / A[O1] B[B1]", grid=table, nxt="A A", down="00")
    # Go down with R10 R11 R12 (33), then R10 joins the tens and R11 R12 take R13 from the thirteens:
    # the grid no longer shows the going-down line, so the play names it as first laid.
    turn = "0 play A 0,3=R10 2,3=. 4,0=R11 4,1=R12 4,2=R13"
    assert_rejected(state, turn, "TT-OPENING-TABLE")
    error = assert_rejected(state, turn + " down 6,0=R10 6,1=R11 6,3=R12", "TT-ALONE")
    assert error.reason.startswith("your going-down lines on their own: row 6, column 3: R12 touches no other tile")
    error = assert_rejected(state, turn + " down 6,0=R10 6,1=R11 6,2=K1", "TT-DOWN")
    assert "K1, which the turn does not place" in error.reason
    act(state, turn + " down 6,0=R10 6,1=R11 6,2=R12")
    assert state.down[0] and str(state.actions[-1]).endswith("down 6,0=R10 6,1=R11 6,2=R12")
    assert state.grid.text() == "0,0: K10 B10 O10 R10 / . / K13 B13 O13 / . / R11 R12 R13"


def test_down_is_only_for_the_turn_a_player_goes_down(assert_rejected: Rejecter) -> None:
    state = pos("A[R4 K10 B10 O10] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3", nxt="A A", down="10")
    error = assert_rejected(state, "0 play A 0,3=R4 down 0,3=R4", "TT-DOWN")
    assert "you are down already" in error.reason
    state = pos("A[K9 B9 O9 R4] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3", nxt="A A", down="00")
    error = assert_rejected(state, "0 play A 0,3=R4 2,0=K9 2,1=B9 2,2=O9 down 2,0=K9 2,1=B9 2,2=O9", "TT-OPENING-POINTS")
    assert "your going-down lines total 27" in error.reason


def test_the_listing_offers_going_down_and_playing_on_and_each_is_legal() -> None:
    state = pos("A[R4 K10 B10 O10] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3", nxt="A A", down="00")
    listed = [a.text() for a in state.legal_actions(0)]
    assert listed == ["draw A", "play A 2,0=K10 2,1=B10 2,2=O10", "play A 0,3=R4 2,0=K10 2,1=B10 2,2=O10"]
    for text in listed[1:]:
        trial = state.copy()
        act(trial, f"0 {text}")
        assert trial.down[0]


def test_a_player_who_is_down_rearranges_the_whole_grid_freely() -> None:
    state = pos("A[R4 K9] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3 / / K1 K2 K3")
    # Move the black run anywhere, split nothing, add R4: every line valid at the end of the turn.
    act(state, "0 play A 0,3=R4 2,0=. 2,1=. 2,2=. 7,7=K1 7,8=K2 7,9=K3")
    assert state.grid.text() == "0,0: R1 R2 R3 R4 / . / . / . / . / . / . / . . . . . . . K1 K2 K3"


def test_tiles_on_the_table_stay_on_the_table(assert_rejected: Rejecter) -> None:
    state = pos("A[R4] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3 / / K1 K2 K3 K4")
    error = assert_rejected(state, "0 play A 0,3=R4 2,3=.", "TT-TABLE-KEEP")
    assert "K4" in error.reason


def test_tiles_must_be_on_the_players_trays(assert_rejected: Rejecter) -> None:
    state = pos("A[R4] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3")
    error = assert_rejected(state, "0 play A 0,3=R4 0,4=R5", "TT-TRAY")
    assert "R5" in error.reason


# -- the grid ----------------------------------------------------------------------------------------

GRID_FAULTS = [
    ("0,0: R1 R2 R3", "0 play A 2,0=K9 2,1=K10", "TT-LINE-SIZE", "row 2, columns 0-1: a line of 2 tiles (K9 K10)"),
    ("0,0: R1 R2 R3", "0 play A 2,5=K9", "TT-ALONE", "row 2, column 5: K9 touches no other tile"),
    ("0,0: R1 R2 R3", "0 play A 0,3=R5", "TT-RUN", "row 0, columns 0-3 (R1 R2 R3 R5)"),
    ("0,0: K5 B5 O5", "0 play A 0,3=K5", "TT-GROUP", "row 0, columns 0-3 (K5 B5 O5 K5)"),
    ("0,0: R1 R2 R3", "0 play A 2,0=K9 2,1=B10 2,2=O11", "TT-LINE-KIND", "row 2, columns 0-2 (K9 B10 O11)"),
    ("0,0: R1 R2 R3", "0 play A 2,0=J 2,1=J 2,2=J", "TT-LINE-JOKERS", "row 2, columns 0-2 (J J J)"),
    ("0,0: R5 R6 R7", "0 play A 0,3=R9", "TT-RUN", "row 0, columns 0-3 (R5 R6 R7 R9)"),
    ("0,0: R7 R8 R9", "0 play A 1,0=R6 2,0=R5", "TT-RUN", "column 0, rows 0-2 (R7 R6 R5)"),
    # A joker that the blue run across needs as B6 and the group of sixes down needs as R6.
    (
        "-3,0: . . . O6 / . . . K6 / . . . B6 / B3 B4 B5 . B7 B8 B9",
        "0 play A 0,3=J",
        "TT-JOKER-CROSS",
        "row 0, column 3: a joker in two lines must be one tile that fits both",
    ),
]


@pytest.mark.parametrize(("grid", "action", "rule", "start"), GRID_FAULTS, ids=[f[2] + ":" + f[1] for f in GRID_FAULTS])
def test_every_line_of_two_or_more_tiles_is_a_group_or_run_as_laid(
    grid: str, action: str, rule: str, start: str, assert_rejected: Rejecter
) -> None:
    state = pos("A[K9 K10 B10 O11 K5 R9 R6 R5 J J J] B[K1] / A[O1] B[B1]", grid=grid, jokers=3)
    error = assert_rejected(state, action, rule)
    assert error.reason.startswith(start), error.reason


def test_a_tile_alone_in_one_direction_is_fine_and_a_tile_may_lie_in_two_lines() -> None:
    state = pos("A[K2 K3] B[K9] / A[O9] B[B9]", grid="0,0: K1 B1 O1")
    act(state, "0 play A 1,0=K2 2,0=K3")  # K1 is in the group across and the run down; K2, K3 alone across
    assert len(state.grid) == 5


def test_a_joker_in_two_lines_stands_for_one_tile_that_fits_both() -> None:
    # Down: the red run R4 R5 R6 J R8 R9 R10 needs R7; across, the group K7 J B7 takes O7 or R7.
    grid = "-3,0: . R4 / K5 R5 B5 / K6 R6 B6 / K7 . B7 / . R8 / . R9 / . R10"
    state = pos("A[J K1] B[K1] / A[O1] B[B1]", grid=grid)
    act(state, "0 play A 0,1=J")
    assert joker_options(state.view(0)) == {(0, 1): ["R7"]}


# -- calls ---------------------------------------------------------------------------------------


CALL_GRID = "0,0: K9 B9 J / . . . / R1 R2 R3 J"


def test_a_call_names_a_colour_the_three_tile_group_lacks(assert_rejected: Rejecter) -> None:
    state = pos("A[O9 R9 K13] B[K1] / A[O1] B[B1]", grid=CALL_GRID)
    assert_rejected(state, "0 call 0,2 K9", "TT-CALL-COLOUR")
    assert_rejected(state, "0 call 0,2 O8", "TT-CALL-COLOUR")
    assert_rejected(state, "0 call 0,2 J", "TT-CALL-COLOUR")
    assert_rejected(state, "0 call 0,1 O9", "TT-CALL")  # no joker there
    assert_rejected(state, "0 call 2,3 R4", "TT-CALL")  # a joker in a run is no group's
    act(state, "0 call 0,2 O9")
    assert state.grid.calls == {(0, 2): Tile.parse("O9")} and state.current == 0  # a call does not end the turn
    assert [e.kind for e in state.history[-1:]] == ["call"]


def test_each_joker_is_called_once_a_turn(assert_rejected: Rejecter) -> None:
    state = pos("A[O9 R9] B[K1] / A[O1] B[B1]", grid=CALL_GRID)
    act(state, "0 call 0,2 O9")
    assert_rejected(state, "0 call 0,2 R9", "TT-CALL-ONCE")


def test_a_joker_in_a_group_of_four_cannot_be_called(assert_rejected: Rejecter) -> None:
    state = pos("A[O9] B[K1] / A[O1] B[B1]", grid="0,0: K9 B9 J R9")
    assert_rejected(state, "0 call 0,2 O9", "TT-CALL")


def test_a_called_joker_must_stand_for_the_called_tile_and_the_called_tile_may_replace_it(
    assert_rejected: Rejecter,
) -> None:
    state = pos("A[O9 R9 K1] B[K1] / A[O1] B[B1]", grid=CALL_GRID)
    act(state, "0 call 0,2 O9")
    # The joker now stands for O9: adding the red 9 to the group is fine, adding the orange 9 is not.
    assert_rejected(state, "0 play A 0,3=O9", "TT-CALLED")
    # The called tile replaces it, and the joker moves on (here to the end of the red run).
    act(state, "0 play A 0,2=O9 2,4=J")
    assert state.grid.calls == {} and state.grid[(0, 2)] == Tile.parse("O9")


def test_a_call_stays_with_its_joker_into_later_turns_and_the_next_player_may_call_again() -> None:
    state = pos("A[O9 R9] B[K1] / A[O1] B[B1]", grid=CALL_GRID)
    act(state, "0 call 0,2 O9")
    act(state, "0 draw A")
    assert state.view(1)["grid"][2] == {"row": 0, "col": 2, "tile": "J", "called": "O9"}
    assert state.view(1)["called_this_turn"] == []
    act(state, "1 call 0,2 R9")
    assert state.grid.calls == {(0, 2): Tile.parse("R9")}


def test_a_crossing_line_can_fix_a_joker_so_it_cannot_be_called_otherwise(assert_rejected: Rejecter) -> None:
    # The joker ends the group K9 B9 J across and the orange run O7 O8 J down: it is O9.
    state = pos("A[R9] B[K1] / A[O1] B[B1]", grid="0,0: . . O7 / . . O8 / K9 B9 J")
    error = assert_rejected(state, "0 call 2,2 R9", "TT-CALL-FIXED")
    assert error.reason == (
        "the joker at 2,2 cannot be called R9: column 2, rows 0-2 (O7 O8 J) needs it to be O9; it can be called only O9"
    )
    # A colour the group holds is refused for that reason, and the message offers only what may be called.
    error = assert_rejected(state, "0 call 2,2 K9", "TT-CALL-COLOUR")
    assert error.reason == (
        "the joker at 2,2 cannot be called K9: its group, row 2, columns 0-2 (K9 B9 J), has K9 already;"
        " it can be called only O9"
    )
    assert [a.text() for a in state.legal_actions(0) if a.type == "call"] == ["call 2,2 O9"]


# -- penalties ---------------------------------------------------------------------------------------


def test_playing_from_the_wrong_tray_is_refused_and_fail_takes_the_seeds_penalty(assert_rejected: Rejecter) -> None:
    state = pos("A[R4 K2] B[R5 K3] / A[O1] B[B1]", grid="0,0: R1 R2 R3", pool="O13 B13 K13 R12")
    assert_rejected(state, "0 play B 0,3=R4", "TT-WRONG-TRAY")
    error = assert_rejected(state, "0 play A 0,3=R4 0,4=R5", "TT-WRONG-TRAY")
    assert "R5 is on tray B" in error.reason
    act(state, "0 fail A 0,3=R4 0,4=R5")
    # The tiles stay on their trays, the table is as it was, one penalty tile goes onto tray A.
    assert state.grid.text() == "0,0: R1 R2 R3"
    assert tiles(state, 0, "A") == ["K2", "R12", "R4"] and tiles(state, 0, "B") == ["K3", "R5"]
    assert state.current == 1 and state.playing[0] == "A"  # "the marker remains by the correct tray"
    penalty = state.history[-1]
    assert penalty.kind == "penalty" and penalty.data["penalty"] == "wrong-tray" and penalty.data["drawn"] == 1
    assert "pieces" not in penalty.seen_by(1) and penalty.seen_by(0)["pieces"] == ["R12"]
    # The reason names R5, which never reached the table: only the player who erred reads it.
    assert "R5" in penalty.seen_by(0)["reason"] and "R5" not in json.dumps(penalty.seen_by(1))
    assert penalty.seen_by(None)["rule"] == "TT-WRONG-TRAY"


def test_after_the_wrong_tray_penalty_the_correct_tray_plays_again(assert_rejected: Rejecter) -> None:
    """The seed: "draw one penalty tile from the pool to be placed on the correct playing tray, and forfeit
    the rest of that turn. The marker remains by the correct tray." """
    state = pos("A[R4 K2] B[R5 K3] / A[O1] B[B1]", grid="0,0: R1 R2 R3", pool="O13 B13 K13 R12")
    act(state, "0 fail A 0,4=R5")
    assert state.playing == ["A", "A"] and state.view(None)["playing"] == ["A", "A"]
    act(state, "1 draw A")
    # Seat 0's next turn plays from tray A again; tray B waits for the turn after.
    error = assert_rejected(state, "0 play B 0,3=R5", "TT-WRONG-TRAY")
    assert "this turn plays from tray A" in error.reason
    act(state, "0 play A 0,3=R4")
    assert state.playing[0] == "B"


def test_after_an_invalid_table_penalty_the_trays_alternate_as_usual() -> None:
    state = pos("A[R5 K2] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3", pool="B1 B2 B3 B4")
    act(state, "0 fail A 0,4=R5")
    assert state.playing[0] == "B"


def test_mixing_both_trays_on_the_first_turn_is_the_wrong_tray_case() -> None:
    state = pos("A[K10 B10] B[O10 R1] / A[O1] B[B1]", nxt="- -", down="00", pool="K1 K2")
    act(state, "0 fail A 0,0=K10 0,1=B10 0,2=O10")
    # The play named tray A, so tray A is the correct tray: it takes the penalty tile and plays next turn.
    assert tiles(state, 0, "A") == ["B10", "K10", "K2"] and state.playing[0] == "A"


def test_an_invalid_table_committed_with_fail_restores_it_and_draws_three(assert_rejected: Rejecter) -> None:
    state = pos("A[R5 K2] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3", pool="B1 B2 B3 B4")
    act(state, "0 fail A 0,4=R5")
    assert state.grid.text() == "0,0: R1 R2 R3" and tiles(state, 0, "A") == ["B2", "B3", "B4", "K2", "R5"]
    assert state.history[-1].data["penalty"] == "invalid-table" and state.history[-1].data["rule"] == "TT-ALONE"


def test_a_failed_first_play_keeps_the_player_not_down() -> None:
    state = pos("A[K5 B5 O5 R1] B[K1] / A[O1] B[B1]", nxt="- -", down="00")
    act(state, "0 fail A 0,0=K5 0,1=B5 0,2=O5")
    assert state.down == [False, False] and state.history[-1].data["rule"] == "TT-OPENING-POINTS"


def test_fail_of_a_valid_play_is_refused(assert_rejected: Rejecter) -> None:
    state = pos("A[R4 K2] B[K1] / A[O1] B[B1]", grid="0,0: R1 R2 R3")
    assert_rejected(state, "0 fail A 0,3=R4", "TT-FAIL-VALID")


# -- the end game ------------------------------------------------------------------------------------


def test_emptying_a_tray_plays_on_at_once_from_the_other(assert_rejected: Rejecter) -> None:
    state = pos("A[R4] B[R5 K9] / A[O1 O2] B[B1 B2]", grid="0,0: R1 R2 R3")
    turn = state.turn_no
    act(state, "0 play A 0,3=R4")
    assert state.continuing and state.current == 0 and state.turn_no == turn and state.playing[0] == "B"
    assert state.view(None)["phase"] == "second-tray" and state.history[-1].kind == "tray-empty"
    assert_rejected(state, "0 draw B", "TT-CONTINUE")
    assert_rejected(state, "0 play A 0,4=R5", "TT-WRONG-TRAY")
    act(state, "0 play B 0,4=R5")
    # Not out: the opponent combines both trays; from now on each player has one tray.
    assert not state.continuing and state.current == 1
    assert state.trays.names_of(0) == ("B",) and state.trays.names_of(1) == ("AB",)
    assert tiles(state, 1, "AB") == ["B1", "B2", "O1", "O2"] and state.playing == ["B", "AB"]
    assert [e.kind for e in state.history[-2:]] == ["play", "merge"]
    act(state, "1 draw AB")
    act(state, "0 draw B")
    assert state.playing == ["B", "AB"] and len(state.trays.rack(0, "B")) == 2


def test_end_stops_after_emptying_a_tray_and_only_then(assert_rejected: Rejecter) -> None:
    state = pos("A[R4] B[K9] / A[O1] B[B1]", grid="0,0: R1 R2 R3")
    assert_rejected(state, "0 end", "TT-END")
    act(state, "0 play A 0,3=R4")
    act(state, "0 end")
    assert state.trays.names_of(1) == ("AB",) and state.current == 1 and state.playing[0] == "B"


def test_emptying_both_trays_wins_the_round_scored_as_rummikub() -> None:
    state = pos("A[R4] B[R5] / A[O1 J] B[B2 K9]", grid="0,0: R1 R2 R3")
    act(state, "0 play A 0,3=R4")
    act(state, "0 play B 0,4=R5")
    assert state.outcome is not None and state.outcome.reason == "trays-empty"
    assert state.outcome.winners == (0,) and state.outcome.scores == (42, -42)  # 1 + 30 + 2 + 9, joker 30


def test_going_down_with_a_whole_tray_plays_on_from_the_other() -> None:
    state = pos("A[K10 B10 O10] B[R1 R2 R3 K4] / A[O1] B[B1]", nxt="- -", down="00")
    act(state, "0 play A 0,0=K10 0,1=B10 0,2=O10")
    assert state.continuing and state.down[0]
    act(state, "0 play B 2,0=R1 2,1=R2 2,2=R3")
    assert state.trays.names_of(0) == ("B",) and state.trays.names_of(1) == ("AB",)


def test_a_blocked_round_needs_a_turn_without_a_play_for_every_tray() -> None:
    state = pos("A[R9] B[K9] / A[O1] B[B1 B2]", pool="")
    for text in ("0 pass", "1 pass", "0 pass"):
        act(state, text)
        assert state.outcome is None
    act(state, "1 pass")
    assert state.outcome is not None and state.outcome.reason == "blocked"
    assert state.outcome.winners == (1,) and state.outcome.scores == (-18, 14)  # 18 - (1 + 1 + 2)


def test_after_the_merge_two_turns_without_a_play_block_the_round() -> None:
    state = pos("B[R9] / AB[O1]", nxt="B AB", pool="")
    act(state, "0 pass")
    assert state.outcome is None
    act(state, "1 pass")
    assert state.outcome is not None and state.outcome.reason == "blocked" and state.outcome.winners == (1,)


def test_a_match_deals_fresh_trays_each_round() -> None:
    state = from_position("grid: 0,0: R1 R2 R3; trays: A[R4] B[R5] / A[O1] B[B2]; pool: seed 2; down: 11", target=500)
    act(state, "0 play A 0,3=R4")
    act(state, "0 play B 0,4=R5")
    assert state.outcome is None and state.round_no == 2 and state.totals == [3, -3]
    assert state.view(None)["tray_sizes"] == [{"A": 14, "B": 14}] * 2 and state.grid.text() == ""
    assert state.down == [False, False] and state.playing == [None, None] and state.current == 1


# -- notation and positions --------------------------------------------------------------------------


def test_actions_read_and_write_their_text_and_json() -> None:
    info = find_game("two-tray")
    for text in ("0 draw A", "1 pass", "0 end", "1 call 2,0 O3", "0 play B 0,0=R5 1,0=.", "1 fail A -3,2=J"):
        action = info.parse_action(text)
        assert str(action) == text and info.action_from_json(action.to_json()) == action
    assert str(info.parse_action("0 play a 2,2=r1 0,0=J")) == "0 play A 0,0=J 2,2=R1"


def test_a_play_names_its_going_down_lines_after_down_in_text_and_json() -> None:
    info = find_game("two-tray")
    text = "0 play A 0,3=R10 2,3=. 4,0=R11 4,1=R12 4,2=R13 down 6,0=R10 6,1=R11 6,2=R12"
    action = info.parse_action(text)
    assert str(action) == text and info.action_from_json(action.to_json()) == action
    assert action.to_json()["down"] == ["6,0=R10", "6,1=R11", "6,2=R12"]
    # A play without going-down lines may leave the field out of its JSON (what the browser sends).
    plain = info.action_from_json({"type": "play", "player": 0, "tray": "A", "changes": ["0,3=R4"]})
    assert plain == info.parse_action("0 play A 0,3=R4") and plain.to_json()["down"] == []
    for bad, words in [
        ("0 play A 0,3=R4 down", "write the going-down lines after 'down'"),
        ("0 play A 0,3=R4 down 1,1=.", "none empties a cell"),
        ("0 play A 0,3=R4 down 1,1=R4 down 1,2=R5", "'down' comes once in a play"),
    ]:
        with pytest.raises(ParseError, match=re.escape(words)):
            info.parse_action(bad)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("0 play A 2;3=R5", "a cell is written ROW,COLUMN"),
        ("0 play A 2,3", "a change is written ROW,COLUMN=PIECE"),
        ("0 play A 2,3=Z9", "bad tile"),
        ("0 play A 2,3=R5 2,3=R6", "changed twice"),
        ("0 play 1 2,3=R5", "a tray is named by its letters"),
        ("0 draw", "draw T"),
        ("0 call 2,3", "call ROW,COLUMN TILE"),
        ("0 jump", "unknown action"),
    ],
)
def test_malformed_actions_are_parse_errors(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=re.escape(words)):
        find_game("two-tray").parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "grid: 0,0: R1 R2 R3 / . . J=R4 / . . R5; trays: A[R4] B[K9] / A[O1] B[B1]; pool: O5 O6; turn: 1;"
        " next: B -; down: 10; idle: 0",
        "grid: ; trays: B[R9] / AB[O1 O2]; pool: ; turn: 0; next: B AB; down: 11; idle: 1",
        "grid: 0,0: K1 K2 K3; trays: A[] B[R4] / A[O1] B[B1]; pool: B13; turn: 0; next: B A; down: 11; idle: 0;"
        " continue: 1",
    ],
)
def test_position_strings_round_trip(text: str) -> None:
    state = from_position(text)
    assert state.position() == text
    assert from_position(state.position()).snapshot() == state.snapshot()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("grid: 0,0: R1 R2; trays: A[] B[] / A[] B[]", "the grid is not valid"),
        ("trays: A[R1] B[R2] / A[O1]", "in the end game every seat has one tray"),
        ("trays: A[R1] C[R2] / A[O1] B[O2]", "seat 0's trays are A and B"),
        ("trays: A[R1] B[R2] / A[O1] B[O2] / A[K1] B[K2]", "for 2 players"),
        ("trays: A[R1] B[R2] / A[O1] B[O2]; next: C -", "has no tray 'C'"),
        ("trays: A[R1 R1 R1] B[R2] / A[O1] B[O2]", "more copies than the set holds"),
        ("trays: A[R1] B[R2] / A[O1] B[O2]; colour: red", "bad position field"),
        ("grid: 0,0: J=J K1 K2; trays: A[] B[] / A[] B[]", "only a joker is called"),
    ],
)
def test_bad_positions_are_parse_errors(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=re.escape(words)):
        from_position(text)


# -- the rules page explains every rule id ------------------------------------------------------------

RAISED = {
    "TT-TRAY", "TT-WRONG-TRAY", "TT-CONTINUE", "TT-END", "TT-PLAY-EMPTY", "TT-POOL-EMPTY", "TT-DRAW",
    "TT-FAIL-VALID", "TT-TABLE-KEEP", "TT-OPENING-TABLE", "TT-OPENING-POINTS", "TT-LINE-SIZE", "TT-ALONE",
    "TT-GROUP", "TT-RUN", "TT-LINE-KIND", "TT-LINE-JOKERS", "TT-JOKER-CROSS", "TT-CALLED", "TT-CALL",
    "TT-CALL-ONCE", "TT-CALL-COLOUR", "TT-CALL-FIXED", "TT-DRAFT", "TT-DOWN",
}


def test_the_rules_page_explains_every_rule_id_including_the_line_rules() -> None:
    text = PAGE.read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `(TT-[A-Z-]+)` \|", text, flags=re.MULTILINE))
    assert table == RAISED
