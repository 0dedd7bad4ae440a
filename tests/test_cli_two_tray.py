"""Two-tray at the command line and the line prompt: rules, whole games, the grid commands, bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import rummykit
from rummykit.bots.base import make_bot
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.presenters import presenter_for
from rummykit.presenters.text import Style
from rummykit.records import read_record, write_record
from rummykit.rulesets.two_tray import TwoTray, from_position

PROMPT = "P1's turn> "


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={})
    return status, out.getvalue(), err.getvalue()


def replies(out: str, prompt: str = PROMPT) -> list[list[str]]:
    """What the program printed after each scripted line: [echoed line, response lines...] per prompt."""
    return [segment.splitlines() for segment in out.split(prompt)[1:]]


def session(state: TwoTray, script: list[str], tmp_path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    console = Console(io.StringIO("\n".join(script) + "\n"), out, err)
    bots = [None, make_bot("greedy", "two-tray")]
    status = Session(state, bots, console, Style(), record_path=tmp_path / "r.txt").run()
    return status, out.getvalue(), err.getvalue()


def test_rules_shows_two_players_every_option_and_the_rules_page() -> None:
    status, out, err = run(["rules", "two-tray"])
    assert status == 0 and err == ""
    assert out.startswith("Two-Tray Tile Rummy  [id: two-tray") and "Players: 2\n" in out
    for name in ("jokers", "initial_meld_points", "target", "max_rounds"):
        assert f"  {name} " in out
    assert out.rstrip().endswith("two-tray.md")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "two-tray", "--players", "3", "--bots", "2"], "--players 3: two-tray is for 2 players (people and bots together)"),
        (["play", "two-tray", "--bots", "1", "-o", "jokers=7"], "option jokers needs a whole number 0..4, got 7"),
        (["play", "two-tray", "--bot", "solver"], "there is no solver bot for two-tray"),
        (["solve", "two-tray", "--rack", "R1"], "the solver plays domino-rummikub or rummikub positions, not two-tray"),
    ],
)
def test_bad_command_lines_give_one_line_and_status_2(argv: list[str], needle: str) -> None:
    status, out, err = run(argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("0 play A 2;3=R5", "a cell is written ROW,COLUMN"),
        ("0 play A 2,3=X5", "bad tile 'X5'"),
        ("0 draw C", "you have no tray C"),
        ("0 call 0,0 R5", "there is no joker at 0,0"),
    ],
)
def test_replay_reports_a_malformed_or_illegal_line_in_one_line(line: str, needle: str, tmp_path: Path) -> None:
    state = rummykit.new_game("two-tray", seed=4)
    good = write_record(state)
    seat = state.view(None)["turn"]
    record = tmp_path / "bad.txt"
    record.write_text(good + line.replace("0 ", f"{seat} ", 1) + "\n")
    status, _out, err = run(["replay", str(record)])
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert f"line {len(good.splitlines()) + 1}:" in err and needle in err


def test_a_person_plays_a_whole_game_against_the_greedy_bot(tmp_path: Path) -> None:
    record = tmp_path / "whole.txt"
    # Draw onto tray A first, then always draw (or pass once the pool is empty).
    script = "help\ndraw A\n" + "draw\npass\n" * 120
    status, out, err = run(["play", "two-tray", "--bot", "greedy", "--seed", "3", "--record", str(record)], script)
    assert status == 0, err
    assert "Traceback" not in out + err and "Game over:" in out
    assert "place R7 3,4" in out  # the help
    state = read_record(record.read_text())
    assert state.outcome is not None
    assert next(a.text() for a in state.actions if a.player == 0) == "draw A"
    assert "Grid:" in out and "Tray A" in out


POSITION = "grid: 0,0: R1 R2 R3; trays: A[R4 K9 K10 K11] B[O1 O2 O3 B5] / A[K1 B1 O1] B[K2 B2 O2]; pool: seed 3; next: A B; down: 11"


def test_the_grid_commands_build_a_turn_cell_by_cell(tmp_path: Path) -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    script = [
        "place R4 1,4",
        "place K9 3,1 K10 3,2",
        "check",
        "place K11 3,3",
        "move 3,3 3,6",
        "undo",
        "back 1,4",
        "undo",
        "check",
        "commit",
        "quit",
    ]
    status, out, err = session(state, script, tmp_path)
    assert status == 0, err
    said = {r[0]: r[1:] for r in replies(out) if r}
    assert any("row 3, columns 1-2: a line of 2 tiles (K9 K10)" in line for line in said["check"] + out.splitlines())
    assert "The grid is valid: `commit` ends your turn with it." in out
    replayed = read_record((tmp_path / "r.txt").read_text())
    assert str(replayed.actions[0]) == "0 play A 0,3=R4 2,0=K9 2,1=K10 2,2=K11"


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("place R7 b4", "a cell is written ROW,COLUMN"),
        ("place X9 1,1", "bad tile 'X9'"),
        ("place R4", "write 'place TILE ROW,COLUMN ...'"),
        ("place O1 1,1", "O1 is on tray B; this turn plays from tray A"),
        ("place R4 1,1", "1,1 already holds R1"),
        ("move 1,1", "write 'move FROM TO'"),
        ("move 6,6 7,7", "there is no tile at 6,6"),
        ("back 1,1", "R1 at 1,1 was on the table when the turn began"),
        ("frobnicate", "unknown command 'frobnicate'"),
        ("draw C", "you have no tray C"),
        ("draw B", "this turn plays from tray A"),
        ("call 1,1 R3", "there is no joker at 1,1: only a joker can be called (rule TT-CALL)"),
        ("call 0,0 R3", "there is no joker at 0,0: only a joker can be called (rule TT-CALL)"),
        ("tray B", "this turn plays from tray A"),
        ("end", "`end` only ends a turn in which you emptied a tray"),
        ("commit", "nothing placed from your tray yet"),
        ("undo", "nothing to undo"),
        ("sort sideways", "sort by colour or number"),
    ],
)
def test_bad_input_at_the_prompt_is_one_line_and_changes_nothing(line: str, needle: str, tmp_path: Path) -> None:
    state = from_position(POSITION, players=["P1", "P2"])
    before = state.snapshot()
    status, out, err = session(state, [line, "quit"], tmp_path)
    assert status == 0, err
    said = {r[0]: r[1:] for r in replies(out) if r}
    assert len(said[line]) == 1 and said[line][0].startswith("! ") and needle in said[line][0], said[line]
    assert "Traceback" not in out + err
    assert state.snapshot() == before


def test_emptying_a_tray_at_the_prompt_goes_on_from_the_other_tray(tmp_path: Path) -> None:
    state = from_position(
        "grid: 0,0: R1 R2 R3; trays: A[R4] B[K1 K2 K3 O9] / A[O1] B[B1]; pool: seed 3; next: A B; down: 11",
        players=["P1", "P2"],
    )
    script = ["place R4 1,4", "commit", "draw", "place K1 3,1 K2 3,2 K3 3,3", "commit", "quit"]
    status, out, err = session(state, script, tmp_path)
    assert status == 0, err
    said = {r[0]: r[1:] for r in replies(out) if r}
    assert len(said["draw"]) == 1 and "play from it or `end`" in said["draw"][0]
    assert "P1 has emptied tray A and plays on at once from tray B" in out
    assert "P2 combines both trays into tray AB" in out
    assert state.trays.names_of(1) == ("AB",)


def test_a_call_at_the_prompt_keeps_the_draft(tmp_path: Path) -> None:
    state = from_position(
        "grid: 0,0: K9 B9 J / . / R1 R2 R3; trays: A[R4 O9] B[K1] / A[O1] B[B1]; pool: seed 3; next: A B; down: 11",
        players=["P1", "P2"],
    )
    status, _out, err = session(state, ["place R4 1,5", "call 1,3 O9", "back 1,5", "place R4 3,4", "commit", "quit"], tmp_path)
    assert status == 0, err
    replayed = read_record((tmp_path / "r.txt").read_text())
    assert [str(a) for a in replayed.actions[:2]] == ["0 call 0,2 O9", "0 play A 2,3=R4"]


def test_the_screen_draws_the_grid_with_labels_and_hides_the_other_trays() -> None:
    state = from_position(POSITION, players=["ann", "bob"])
    presenter = presenter_for("two-tray")
    lines = presenter.screen(state.view(0), ["you", "bot greedy"], Style())
    text = "\n".join(lines)
    # The record's row 0 is the screen's row 1; its columns 0-2 are the screen's 1-3.
    header = next(line for line in lines if line.split()[:3] == ["0", "1", "2"])
    assert header.split() == ["0", "1", "2", "3", "4"]
    row = next(line for line in lines if line.strip().startswith("1 ") and "R1" in line)
    assert row.split() == ["1", ".", "R1", "R2", "R3", "."]
    assert "Tray A (plays this turn)" in text and "K9" in text
    assert "K2" not in text and "B1" not in text  # bob's trays
    spectator = "\n".join(presenter.screen(state.view(None), ["", ""], Style()))
    assert "Tray" not in spectator


@pytest.mark.parametrize(
    ("position", "needle"),
    [
        ("grid: 0,0: R1 R2; trays: A[] B[] / A[] B[]", "row 0, columns 0-1: a line of 2 tiles"),
        ("grid: 0,0: R1 Q2 R3; trays: A[] B[] / A[] B[]", "grid cell 0,1: bad tile 'Q2'"),
        ("grid: a,b: R1 R2 R3; trays: A[] B[] / A[] B[]", "a cell is written ROW,COLUMN"),
    ],
)
def test_a_record_with_a_bad_grid_text_is_one_line_and_status_2(position: str, needle: str, tmp_path: Path) -> None:
    record = tmp_path / "pos.txt"
    record.write_text(f"rummykit record 1\ngame: two-tray\nseed: 1\nplayers: a | b\nposition: {position}\n\n")
    status, out, err = run(["replay", str(record)])
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "line 5: bad position:" in err and needle in err and "Traceback" not in err
