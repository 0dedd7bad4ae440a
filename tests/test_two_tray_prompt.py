"""Two-tray as a full citizen of the interfaces: people's numbers, marked grids, widths, completion, words.

* **Numbers**: the screen and what a person types count rows and columns from
  1 (the record's cell 0,0 is the screen's 1,1); every message a person reads
  at the prompt names cells that way, while records, actions and events keep
  the notation's.
* **Following the game**: each play is drawn on the grid it leaves, its new
  tiles marked ``+`` and its moved tiles ``*``, and the moves are said.
* **Width**: a grid wider than the screen comes in blocks of columns, each
  under its own column numbers, no tile broken.
* **Completion**, the whole-turn ``play`` command, ``penalty`` and the
  grammar of the game's own messages.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

import rummykit
from rummykit.blocks.grid import GridDraft
from rummykit.bots.base import make_bot
from rummykit.cli.lineedit import complete_word
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.engine.core import GameState
from rummykit.engine.driver import step
from rummykit.errors import RuleError
from rummykit.melds.tile_lines import read_line
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.presenters import presenter_for
from rummykit.presenters.base import word_refusal
from rummykit.presenters.text import MOVED, NEW, Style
from rummykit.presenters.turn import Turn
from rummykit.presenters.two_tray import LEGEND, GridDisplay, command_text, describe_event, draw_grid
from rummykit.records import read_record
from rummykit.rulesets.two_tray import INFO, TwoTray, from_position
from rummykit.sim import bot_rng

PRESENTER = presenter_for("two-tray")
POSITION = "grid: 0,0: R1 R2 R3; trays: A[R4 K9 K10 K11] B[O1 O2 O3 B5] / A[K1 B1 O1] B[K2 B2 O2]; pool: seed 3; next: A B; down: 11"
GRAMMAR = re.compile(r"(?<![\w.-])1 (?:[a-z]+ )?(?:tile|place|number|line|problem|point)s\b|\(s\)|\btwice in\b")


def turn_for(state: GameState, seat: int = 0, width: int = 0) -> tuple[Turn, list[str]]:
    said: list[str] = []
    turn = PRESENTER.turn(state.view(seat), say=lambda *lines: said.extend(lines), style=Style(width=width))
    assert isinstance(turn, Turn) and isinstance(turn.display, GridDisplay)
    return turn, said


def grid_draft(turn: Turn) -> GridDraft[Tile]:
    """The grid draft a two-tray turn builds."""
    assert isinstance(turn.display, GridDisplay)
    return turn.display.draft


def drawn_grids(lines: list[str]) -> list[dict[tuple[int, int], str]]:
    """Every grid drawn in ``lines``, read back: (screen row, screen column) -> the token shown there.

    A grid is a header of column numbers followed by rows that start with their number; a grid in
    blocks has one header per block (the blocks are separated by an empty line).
    """
    grids: list[dict[tuple[int, int], str]] = []
    columns: list[int] | None = None
    current: dict[tuple[int, int], str] = {}
    for line in [*lines, "end"]:
        words = line.split()
        if words and all(re.fullmatch(r"-?\d+", w) for w in words):
            columns = [int(w) for w in words]  # a header: a grid, or its next block, starts
            continue
        if columns is not None and len(words) == len(columns) + 1 and re.fullmatch(r"-?\d+", words[0]):
            for col, token in zip(columns, words[1:], strict=True):
                current[(int(words[0]), col)] = token
            continue
        if columns is not None and not line.strip():
            continue  # between two blocks
        if current:
            grids.append(current)
        columns, current = None, {}
    return grids


def tiles_of(grid: dict[tuple[int, int], str]) -> dict[tuple[int, int], str]:
    """The tiles of a drawn grid, marks left out, by screen cell."""
    return {cell: token.lstrip(NEW + MOVED) for cell, token in grid.items() if token != "."}


def on_screen(state: GameState) -> dict[tuple[int, int], str]:
    """The engine's grid, each cell as people number it (one more than the notation)."""
    assert isinstance(state, TwoTray)
    return {(r + 1, c + 1): str(t) for (r, c), t in state.grid.cells.items()}


# -- numbers: the screen counts from 1, the record from 0 ------------------------------------------


def test_the_screen_and_the_prompt_count_from_1_and_the_record_from_0(tmp_path: Path) -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    turn, said = turn_for(state)
    (grid,) = drawn_grids(turn.screen())
    assert tiles_of(grid) == {(1, 1): "R1", (1, 2): "R2", (1, 3): "R3"} == on_screen(state)
    assert min(grid) == (0, 0)  # the empty border above and left of the first cell
    assert turn.command("place R4 1,4") is None
    assert "Placed or moved this turn (+ placed, * moved): R4 at 1,4" in said
    action = turn.command("commit")
    assert action is not None and str(action) == "0 play A 0,3=R4"  # the record's numbers
    assert command_text(action) == "play A 1,4=R4"
    events = state.apply(action)
    told = describe_event(events[0].seen_by(None), ["P1", "P2"], Style())
    assert told[-1] == "    cells: 1,4=R4"


def test_a_grid_that_grows_up_and_left_numbers_those_cells_0_and_below() -> None:
    state = from_position("grid: 0,0: R5 R6 R7; trays: A[R4 R3] B[K1] / A[O1] B[B1]; next: A B; down: 11")
    turn, said = turn_for(state)
    assert turn.command("place R4 1,0 R3 1,-1") is None
    (grid,) = drawn_grids(said)
    assert tiles_of(grid) == {(1, -1): "R3", (1, 0): "R4", (1, 1): "R5", (1, 2): "R6", (1, 3): "R7"}
    assert grid[(1, -1)] == "+R3" and min(c for _, c in grid) == -2
    action = turn.command("commit")
    assert action is not None and str(action) == "0 play A 0,-2=R3 0,-1=R4"


@pytest.mark.parametrize(
    ("line", "said", "cell"),
    [
        ("place R4 1,1", "1,1 already holds R1", (0, 0)),
        ("move 4,4 5,5", "there is no tile at 4,4", (3, 3)),
        ("back 1,2", "R2 at 1,2 was on the table when the turn began", (0, 1)),
    ],
)
def test_refusals_at_the_prompt_name_cells_as_the_screen_does(line: str, said: str, cell: tuple[int, int]) -> None:
    """The grid draft refuses with the cell as data (from 0); the person reads it as the screen counts (from 1)."""
    state = from_position(POSITION, players=["P1", "P2"])
    turn, _ = turn_for(state)
    before = (grid_draft(turn).changes(), list(grid_draft(turn).tray))
    with pytest.raises(RuleError) as refused:
        turn.command(line)
    error = refused.value
    assert (error.params["row"], error.params["col"]) == cell and {"row", "col"} <= set(error.counted)
    assert word_refusal(error).startswith(said), word_refusal(error)
    assert (grid_draft(turn).changes(), list(grid_draft(turn).tray)) == before  # refused: the draft is as it was


def test_a_call_is_judged_by_the_engine_alone_and_worded_as_the_screen_counts() -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    turn, _ = turn_for(state)
    action = turn.command("call 1,3 O3")  # the prompt no longer judges the call itself
    assert action is not None and str(action) == "0 call 0,2 O3"
    before = state.snapshot()
    with pytest.raises(RuleError) as refused:
        state.apply(action)
    assert state.snapshot() == before
    assert (refused.value.rule, refused.value.params) == ("TT-CALL", {"row": 0, "col": 2})
    assert str(refused.value) == "there is no joker at 0,2: only a joker can be called (rule TT-CALL)"
    assert word_refusal(refused.value) == "there is no joker at 1,3: only a joker can be called (rule TT-CALL)"


def test_the_drafts_problems_and_check_name_cells_as_the_screen_does() -> None:
    state = from_position(
        "grid: 0,0: K9 B9 J / . / R1 R2 R3; trays: A[R4 O9 K5 K6] B[K1] / A[O1] B[B1]; next: A B; down: 11"
    )
    turn, said = turn_for(state)
    turn.command("place K5 5,1 K6 5,2")
    assert "Not yet: row 5, columns 1-2: a line of 2 tiles (K5 K6); every line of touching tiles needs 3 or more" \
        " (rule TT-LINE-SIZE)" in said
    said.clear()
    turn.command("check")
    assert "  The joker at 1,3 can stand for O9 or R9." in said
    # the engine's own refusal of the same call names the record's cell; the prompt never shows it
    with pytest.raises(RuleError, match="the joker at 0,2 cannot be called K9: its group, row 0, columns 0-2"):
        state.apply(state.parse_action("0 call 0,2 K9"))
    wrong = turn.command("call 1,3 K9")
    assert wrong is not None
    with pytest.raises(RuleError) as refused:
        state.apply(wrong)
    assert refused.value.rule == "TT-CALL-COLOUR"
    assert refused.value.params == {"row": 0, "col": 2, "line_fixed": 0, "line_start": 0, "line_end": 2}
    assert word_refusal(refused.value) == (
        "the joker at 1,3 cannot be called K9: its group, row 1, columns 1-3 (K9 B9 J), has K9 already;"
        " it can be called only O9 or R9 (rule TT-CALL-COLOUR)"
    )
    action = turn.command("call 1,3 O9")
    assert action is not None and str(action) == "0 call 0,2 O9"
    (event,) = state.apply(action)
    assert describe_event(event.seen_by(1), list(state.players), Style()) == ["P1 calls the joker at 1,3 O9"]


def test_every_listed_action_is_typed_with_the_screens_numbers() -> None:
    state = rummykit.new_game("two-tray", seed=8)
    bots = [make_bot("greedy", "two-tray"), make_bot("greedy", "two-tray")]
    rngs = [bot_rng(8, s) for s in range(2)]
    typed = 0
    for _ in range(30):
        seat = min(state.to_act)
        for action in state.legal_actions(seat):
            text = command_text(action)
            turn, _ = turn_for(state, seat)
            assert turn.command(text) == action, text
            typed += 1
        step(state, bots, rngs)
    assert typed > 50


# -- following the game -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 5])
def test_every_play_of_a_bot_game_is_drawn_on_the_grid_it_leaves_with_its_tiles_marked(seed: int) -> None:
    state = rummykit.new_game("two-tray", seed=seed)
    bots = [make_bot("greedy", "two-tray"), make_bot("random", "two-tray")]
    rngs = [bot_rng(seed, s) for s in range(2)]
    narrator = PRESENTER.narrator(list(state.players), Style(width=0))
    plays = explained = 0
    shown = 0
    while state.outcome is None:
        if shown:
            step(state, bots, rngs)
        events, shown = state.history[shown:], len(state.history)
        for event in events:
            lines = narrator.describe(event.seen_by(None))
            explained += sum(LEGEND in line for line in lines)
            if event.kind != "play":
                continue
            plays += 1
            (grid,) = drawn_grids(lines)
            assert tiles_of(grid) == on_screen(state)  # the grid the play left, in the screen's numbers
            marked = Counter(token[1:] for token in grid.values() if token.startswith(NEW))
            assert marked == Counter(event.data["placed"]), lines
            assert not any(token.startswith(MOVED) for token in grid.values())  # these bots never move tiles
    assert plays > 5 and explained == 1


def test_a_move_is_marked_and_said_from_cell_to_cell() -> None:
    state = from_position("grid: 0,0: K5 K6 K7 K8; trays: A[B8 O8 R1] B[K1] / A[O1] B[B1]; next: A B; down: 11")
    narrator = PRESENTER.narrator(list(state.players), Style(width=0))
    for event in state.history:
        narrator.describe(event.seen_by(None))
    (event,) = state.apply(state.parse_action("0 play A 0,3=. 2,0=K8 2,1=B8 2,2=O8"))
    lines = narrator.describe(event.seen_by(None))
    assert "    moved: K8 from 1,4 to 3,1" in lines
    (grid,) = drawn_grids(lines)
    assert grid[(3, 1)] == "*K8" and grid[(3, 2)] == "+B8" and grid[(3, 3)] == "+O8"
    assert grid[(1, 4)] == "." and grid[(1, 1)] == "K5"
    assert any(LEGEND in line for line in lines)


def test_a_turn_marks_what_it_placed_and_moved_so_far() -> None:
    state = from_position("grid: 0,0: K5 K6 K7 K8; trays: A[B8 O8 R1] B[K1] / A[O1] B[B1]; next: A B; down: 11")
    turn, said = turn_for(state)
    turn.command("move 1,4 3,1")
    turn.command("place B8 3,2 O8 3,3")
    last = max(i for i, line in enumerate(said) if line == "Grid:")
    (grid,) = drawn_grids(said[last:])
    assert (grid[(3, 1)], grid[(3, 2)], grid[(3, 3)]) == ("*K8", "+B8", "+O8")
    assert turn.completions(["back"]) == ["3,2", "3,3"]  # only the tiles placed from the tray go back


def test_a_resumed_narrator_that_never_saw_the_grid_lists_the_cells() -> None:
    state = from_position(POSITION)
    narrator = PRESENTER.narrator(list(state.players), Style())
    (event,) = state.apply(state.parse_action("0 play A 0,3=R4"))
    assert narrator.describe(event.seen_by(None))[-1] == "    cells: 1,4=R4"


# -- the width ---------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [30, 40, 80])
def test_a_grid_wider_than_the_screen_comes_in_blocks_of_whole_columns(width: int) -> None:
    row = {(0, c): f"R{c % 13 + 1}" for c in range(24)} | {(1, 23): "K13", (2, 23): "B13"}
    marks = {(2, 23): NEW}
    whole = draw_grid(row, {}, Style(width=0), marks)
    lines = draw_grid(row, {}, Style(width=width), marks)
    assert all(len(line) <= width for line in lines)
    assert len(lines) > len(whole) and lines.count("") == len(drawn_headers(lines)) - 1
    (blocks,) = drawn_grids(lines)
    (one,) = drawn_grids(whole)
    assert blocks == one  # every cell once, in its row and column, mark and all: no tile broken
    widths = {len(line) for line in lines if line}
    assert max(widths) - min(widths) <= 5  # blocks of even size: one column (5 wide here) more or less


def drawn_headers(lines: list[str]) -> list[str]:
    return [line for line in lines if line.split() and all(re.fullmatch(r"-?\d+", w) for w in line.split())]


def test_a_whole_game_at_the_prompt_fits_40_columns(tmp_path: Path) -> None:
    state = from_position(POSITION, players=["Ann", "Bob"])
    out = io.StringIO()
    script = "help\nplace K9 3,1 K10 3,2\ncheck\ncommit\nundo\nplace K11 3,3\ncommit\n" + "draw\npass\n" * 60
    console = Console(io.StringIO(script), out, io.StringIO())
    status = Session(state, [None, make_bot("greedy", "two-tray")], console, Style(width=40), record=False).run()
    assert status == 0
    text = out.getvalue()
    assert "Game over:" in text
    for line in text.splitlines():
        assert len(line) <= 40 or " " not in line.strip() or line.startswith("! "), line


# -- completion, the whole-turn play and the penalty ----------------------------------------------


def test_completion_offers_tray_tiles_trays_jokers_and_their_calls() -> None:
    state = from_position(
        "grid: 0,0: K9 B9 J / . / R1 R2 R3; trays: A[R4 O9 K5 K6] B[K1] / A[O1] B[B1]; next: A B; down: 11"
    )
    turn, _ = turn_for(state)
    commands = turn.completions([])
    assert {"place", "move", "back", "commit", "play", "penalty", "call", "draw", "tray", "end", "check"} <= set(commands)
    assert turn.completions(["place"]) == ["K5", "K6", "O9", "R4"]
    assert turn.completions(["place", "K5", "5,1"]) == ["K6", "O9", "R4"]
    assert turn.completions(["place", "K5"]) == []  # a cell comes next: not offered
    assert complete_word(turn.completions, "place k", "k") == ["K5", "K6"]
    assert turn.completions(["draw"]) == ["A"] and turn.completions(["tray"]) == ["A"]
    assert turn.completions(["call"]) == ["1,3"] and turn.completions(["call", "1,3"]) == ["O9", "R9"]
    assert turn.completions(["call", "x"]) == [] and turn.completions(["sort"]) == ["colour", "number"]
    first = rummykit.new_game("two-tray", seed=3)
    seat = first.view(None)["turn"]
    assert seat is not None
    first_turn, _ = turn_for(first, seat)
    assert first_turn.completions(["draw"]) == ["A", "B"] and first_turn.completions(["tray"]) == ["A", "B"]


def test_play_commits_a_whole_turn_typed_in_one_line() -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    turn, said = turn_for(state)
    assert turn.command("play A 1,4=R4 3,1=K9 3,2=K10 3,3=K11") == state.parse_action(
        "0 play A 0,3=R4 2,0=K9 2,1=K10 2,2=K11"
    )
    turn, said = turn_for(state)
    assert turn.command("play A 1,4=R4 3,1=K9") is None  # K9 alone: the problem is said, nothing committed
    assert any("row 3, column 1: K9 touches no other tile" in line for line in said)
    for line, needle in [
        ("play B 1,4=O1", "this turn plays from tray A"),
        ("play A 1,4=O1", "O1 is on tray B; this turn plays from tray A"),
        ("play A 1,1=.", "every tile on the table stays on the table; missing at the end of the turn: R1"),
        ("play A 1,4=R4 1,4=K9", "cell 1,4 is changed twice in one turn"),
        ("play A", "usage: play TRAY ROW,COLUMN=TILE"),
    ]:
        fresh, _ = turn_for(state)
        with pytest.raises(rummykit.RummykitError) as refused:
            fresh.command(line)
        assert needle in word_refusal(refused.value), word_refusal(refused.value)  # worded as the screen counts
        assert grid_draft(fresh).changes() == ()


def test_a_penalty_says_what_it_was_taken_for_in_the_screens_numbers(tmp_path: Path) -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    out = io.StringIO()
    script = ["place R4 1,4 K9 3,1", "penalty", "quit"]
    console = Console(io.StringIO("\n".join(script) + "\n"), out, io.StringIO())
    Session(state, [None, make_bot("greedy", "two-tray")], console, Style(width=0), record=False).run()
    text = out.getvalue()
    assert "You took the penalty for: row 3, column 1: K9 touches no other tile" in text
    assert "P1 committed an invalid table (rule TT-ALONE): the table is restored and P1 draws 3 penalty tiles" \
        " onto tray A" in text
    assert "row 2, column 0" not in text  # the record's numbering of the same cell is never shown
    (penalty,) = [e for e in state.history if e.kind == "penalty"]
    assert "row 2, column 0" in penalty.seen_by(0)["reason"] and "reason" not in penalty.seen_by(1)


# -- going down and playing on in one turn (seed 002) ----------------------------------------------

GOING_DOWN = (
    "grid: 0,0: K10 B10 O10 / . / K13 B13 O13 R13; trays: A[R10 R11 R12 K1] B[K2] / A[O1] B[B1];"
    " pool: seed 3; next: A A; down: 00"
)
"""Seat 0 not down, tray A's R10 R11 R12 worth 33; the tens lack red, the thirteens may give up R13."""


def test_a_draft_goes_down_then_rearranges_its_lines_and_commit_names_them() -> None:
    state = from_position(GOING_DOWN, players=["P1", "P2"])
    turn, _ = turn_for(state)
    turn.command("place R10 7,1 R11 7,2 R12 7,3")  # the going-down line (the record's row 6)
    # Then, in the same turn: R10 joins the tens, R11 R12 take the R13 of the thirteens.
    for line in ("move 7,1 1,4", "move 3,4 5,3", "move 7,2 5,1", "move 7,3 5,2"):
        turn.command(line)
    assert grid_draft(turn).problems() == []
    action = turn.command("commit")
    assert str(action) == "0 play A 0,3=R10 2,3=. 4,0=R11 4,1=R12 4,2=R13 down 6,0=R10 6,1=R11 6,2=R12"
    assert action is not None and state.apply(action) and state.down[0]
    assert command_text(action) == "play A 1,4=R10 3,4=. 5,1=R11 5,2=R12 5,3=R13 down 7,1=R10 7,2=R11 7,3=R12"


def test_a_draft_that_touches_the_table_before_going_down_is_told_so() -> None:
    state = from_position(GOING_DOWN, players=["P1", "P2"])
    turn, said = turn_for(state)
    turn.command("place R10 1,4")
    assert [p.rule for p in grid_draft(turn).problems()] == ["TT-OPENING-TABLE"]
    assert any("before going down you may not touch the table (row 1, columns 1-4 joins" in line for line in said)
    turn.command("place R11 7,1 R12 7,2 K1 7,3")  # R11 R12 K1 is no line: nothing goes down yet
    assert [p.rule for p in grid_draft(turn).problems()] == ["TT-OPENING-TABLE"]


def test_a_whole_going_down_turn_typed_in_one_line_may_name_its_lines() -> None:
    state = from_position(GOING_DOWN, players=["P1", "P2"])
    turn, said = turn_for(state)
    typed = "play A 1,4=R10 3,4=. 5,1=R11 5,2=R12 5,3=R13"
    assert turn.command(typed) is None  # the grid shows no going-down line: not committed
    assert any("TT-OPENING-TABLE" in line for line in said)
    turn, said = turn_for(state)
    action = turn.command(typed + " down 7,1=R10 7,2=R11 7,3=R12")
    assert str(action) == "0 play A 0,3=R10 2,3=. 4,0=R11 4,1=R12 4,2=R13 down 6,0=R10 6,1=R11 6,2=R12"
    fresh, _ = turn_for(state)
    with pytest.raises(rummykit.RummykitError, match="the turn does not place from the tray"):
        fresh.command(typed + " down 7,1=R10 7,2=R11 7,3=K1")


def test_the_wrong_tray_penalty_says_the_marker_stays() -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    (penalty,) = [e for e in state.apply(state.parse_action("0 fail A 0,3=R4 0,4=O1")) if e.kind == "penalty"]
    assert describe_event(penalty.seen_by(1), list(state.players), Style(width=0)) == [
        "P1 played from the wrong tray (rule TT-WRONG-TRAY): the table is restored and P1 draws 1 penalty tile"
        " onto tray A; the marker stays by tray A, which plays again next turn"
    ]
    assert state.playing[0] == "A"


def test_completion_offers_only_the_calls_allowed() -> None:
    # The seed's example 2: the joker closes B13 R13 J and the orange run O11 O12 J: it may be called O13 only.
    state = from_position(
        "grid: 1,0: . . O11 / . . O12 / B13 R13 J; trays: A[R9] B[K1] / A[O1] B[B1]; next: A B; down: 11"
    )
    turn, _ = turn_for(state)
    assert turn.completions(["call", "4,3"]) == ["O13"]
    wrong = turn.command("call 4,3 K13")
    assert wrong is not None
    with pytest.raises(RuleError) as refused:
        state.apply(wrong)
    assert refused.value.rule == "TT-CALL-FIXED"
    assert word_refusal(refused.value).startswith("the joker at 4,3 cannot be called K13: column 3, rows 2-4")


# -- words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "words"),
    [
        ("R5 R5 R6", "R5 R5 R6 has R5 twice"),
        ("K7 B7 K7", "K7 B7 K7 has K7 twice"),
        ("R5 R7 R8", "in R5 R7 R8, R5 and R7 are 1 place apart but 2 numbers apart"),
        ("R5 J R9", "R5 and R9 are 2 places apart but 4 numbers apart"),
    ],
)
def test_grid_line_messages_count_what_they_name(tiles: str, words: str) -> None:
    verdict = read_line(tuple(parse_tiles(tiles)))
    assert not verdict.readings and verdict.reason is not None
    assert words in verdict.reason and not GRAMMAR.search(verdict.reason), verdict.reason


def test_the_rules_and_a_whole_bot_game_have_no_grammar_fault(tmp_path: Path) -> None:
    text = " ".join([*PRESENTER.rules_lines(), *PRESENTER.notation_lines()])
    assert "numbered from 1" in text and "the screen's cell 1,1 is the record's 0,0" in text
    record = tmp_path / "g.txt"
    out = io.StringIO()
    argv = ["play", "two-tray", "--players", "2", "--bots", "2", "--seed", "2", "--record", str(record)]
    assert main(argv, stdin=io.StringIO(), stdout=out, stderr=io.StringIO(), environ={}) == 0
    assert not GRAMMAR.search(" ".join(out.getvalue().split()))
    assert read_record(record.read_text()).outcome is not None
    assert INFO.id == "two-tray"
