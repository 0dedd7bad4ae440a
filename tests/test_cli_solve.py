"""`rummykit solve` and the in-game `hint` command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummykit.cli.main import main
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import parse_tiles


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={})
    return status, out.getvalue(), err.getvalue()


def test_solve_json_gives_the_whole_valid_table() -> None:
    status, out, err = run(["solve", "rummikub", "--table", "R1 R2 R3 | K5 B5 O5", "--rack", "R4 J K7", "--json"])
    assert status == 0, err
    data = json.loads(out)
    assert data["tiles_placed"] == 2 and sorted(data["placed"]) == ["J", "R4"]
    assert data["points_placed"] == 4 + 30  # points placed count a joker at its rack value, 30
    tiles = sorted(t for s in data["table"] for t in s)
    assert tiles == sorted(["R1", "R2", "R3", "K5", "B5", "O5", "R4", "J"])
    assert all(check_tiles(parse_tiles(s)).valid for s in data["table"])
    assert data["steps"]


def test_solve_initial_meld_and_no_play() -> None:
    status, out, _ = run(["solve", "rummikub", "--rack", "R10 R11 R12 K1", "--initial"])
    assert status == 0 and "R10 R11 R12" in out
    status, out, _ = run(["solve", "rummikub", "--rack", "R1 R2 R3 K1", "--initial"])
    assert status == 0 and "no" in out.lower()


def test_solve_bad_positions_exit_2_with_one_line() -> None:
    for argv in (
        ["solve", "rummikub", "--table", "R1 R2", "--rack", "R4"],
        ["solve", "rummikub", "--table", "R1 R2 R3", "--rack", "R4 X9"],
        ["solve", "rummikub", "--table", "R1 R2 R3 | R1 R2 R3", "--rack", "R1"],
        ["solve", "conveyor", "--rack", "1-2"],
    ):
        status, out, err = run(argv)
        assert status == 2, argv
        assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_hint_shows_steps_and_plays_nothing() -> None:
    # Seed 5: P1 is not down; the hint must not change the game (the next command still draws).
    status, out, _ = run(
        ["play", "rummikub", "--bots", "2", "--seed", "5", "--no-color", "--record", "/dev/null"],
        "hint\ndraw\nquit\n",
    )
    assert status == 0
    hint = [line for line in out.splitlines() if "hint:" in line]
    assert len(hint) == 1 and "hint: hint" not in hint[0], hint  # one heading, said once
    assert "initial meld" in hint[0] or "no " in hint[0]
    assert "P1 draws" in out


# -- refused requests: one line, exit 2; under --json a JSON object too --------------------


REFUSED = [
    (["--rack", "J J J"], "J x3: the game has 2 jokers"),
    (["--table", "K1 K2 J", "--rack", "J J"], "J x3: the game has 2 jokers"),
    (["--rack", "R1 R2 R3", "--initial", "--threshold", "-5"], "--threshold must be 0..300, not -5"),
    (["--rack", "R1 R2 R3", "--initial", "--threshold", "abc"], "--threshold needs a whole number"),
    (["--rack", "R1 R2 R3", "--threshold", "40"], "--threshold is for an initial meld: add --initial"),
    (["--rack", "R1 R2 R3", "--objective", "dominoes"], "unknown objective 'dominoes' for rummikub"),
    (["--rack", "R1 R2 R3", "--option", "jokers=9"], "jokers"),
    (["--table", "R1 R2 R3"], "give the rack with --rack"),
]


@pytest.mark.parametrize(("args", "reason"), REFUSED)
def test_solve_refuses_with_one_line_and_exit_2(args: list[str], reason: str) -> None:
    status, out, err = run(["solve", "rummikub", *args])
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and reason in err and "Traceback" not in err


@pytest.mark.parametrize(("args", "reason"), REFUSED)
def test_solve_json_refusals_are_json_objects(args: list[str], reason: str) -> None:
    status, out, err = run(["solve", "rummikub", *args, "--json"])
    assert status == 2
    assert reason in json.loads(out)["error"]
    assert out.count("\n") == 1 and err.count("\n") == 1


def test_solve_accepts_what_the_game_allows() -> None:
    status, out, _ = run(["solve", "rummikub", "--rack", "J J J R5", "--option", "jokers=4", "--json"])
    assert status == 0 and json.loads(out)["tiles_placed"] == 4
    status, out, _ = run(["solve", "rummikub", "--rack", "K10 B10 O10", "--initial", "--threshold", "0"])
    assert status == 0 and out.startswith("place 3 tiles as an initial meld worth 30 points")
    status, out, _ = run(["solve", "rummikub", "--rack", "K10 B10 O10", "--initial", "--threshold", "31"])
    assert status == 0 and out.startswith("no initial meld reaches 31 points")
    status, out, _ = run(["solve", "rummikub", "--rack", "K10 B10 O10", "--initial", "-o", "initial_meld_points=31"])
    assert status == 0 and out.startswith("no initial meld reaches 31 points")


def test_unknown_game_under_json_is_a_json_error() -> None:
    status, out, err = run(["solve", "nosuchgame", "--rack", "R1", "--json"])
    assert status == 2 and "nosuchgame" in json.loads(out)["error"] and err.count("\n") == 1


# -- domino-rummikub -----------------------------------------------------------------------


def test_solve_domino_rummikub() -> None:
    status, out, err = run(["solve", "domino-rummikub", "--table", "3-5 4-5 5-5", "--rack", "5-6 1-1 2-3", "--json"])
    assert status == 0, err
    data = json.loads(out)
    assert data["dominoes_placed"] == 1 and data["placed"] == ["5-6"]
    assert data["table"] == [["3-5", "4-5", "5-5", "5-6"]]
    status, out, _ = run(["solve", "domino-rummikub", "--rack", "3-5 4-5 5-5 1-2", "--initial"])
    assert status == 0 and out.startswith("place 3 dominoes as your starting group: 3-5 4-5 5-5")
    for args, reason in (
        (["--rack", "3-5", "--initial", "--threshold", "30"], "--threshold is not used in domino-rummikub"),
        (["--rack", "3-5 3-5 3-5"], "more copies than the game has: 3-5 x3"),
        (["--table", "1-2 5-6 0-3", "--rack", "3-5"], "table set 1"),
        (["--rack", "3-5", "--objective", "tiles"], "use dominoes or points"),
    ):
        status, out, err = run(["solve", "domino-rummikub", *args])
        assert status == 2 and out == "" and reason in err and err.count("\n") == 1, (args, err)


def test_domino_rummikub_hint_shows_the_best_play() -> None:
    # seed 3: P1 holds 3-3 3-4 3-5, a starting group of three (a run in the suit of threes)
    status, out, _ = run(
        ["play", "domino-rummikub", "--bots", "1", "--seed", "3", "--no-color", "--record", "/dev/null"],
        "hint\ndraw\nquit\n",
    )
    assert status == 0
    hint = [line for line in out.splitlines() if "hint:" in line]
    assert len(hint) == 1 and "unknown command" not in out.lower()
    assert "place 3 dominoes as your starting group" in hint[0]


# -- --batch -------------------------------------------------------------------------------


def test_batch_answers_every_line_in_order_with_clear_errors() -> None:
    lines = [
        json.dumps({"table": "R1 R2 R3 | K5 B5 O5", "rack": "R4 J K7", "id": "a"}),
        json.dumps({"table": [["R1", "R2", "R3"]], "rack": ["R4"]}),
        "",
        json.dumps({"rack": "J J J"}),
        "not json",
        json.dumps({"rack": "K10 B10 O10 R2", "initial": True, "threshold": 31}),
        json.dumps({"rack": "K10 B10 O10 R2", "initial": True}),
        json.dumps({"rack": "R1", "colour": "red"}),
        json.dumps({"rack": "R1 R2 R3", "threshold": 5}),
    ]
    status, out, err = run(["solve", "rummikub", "--batch"], "\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert [a["line"] for a in answers] == [1, 2, 4, 5, 6, 7, 8, 9]
    assert answers[0]["id"] == "a" and answers[0]["tiles_placed"] == 2
    assert answers[1]["table"] == [["R1", "R2", "R3", "R4"]]
    assert "the game has 2 jokers" in answers[2]["error"]
    assert "not a JSON object" in answers[3]["error"]
    assert answers[4]["play"] is None and answers[5]["meld_points"] == 30
    assert "unknown field 'colour'" in answers[6]["error"]
    assert '"threshold" is for an initial meld: add "initial"' in answers[7]["error"]
    assert [line.split(":")[1] for line in err.splitlines()] == [" line 4", " line 5", " line 8", " line 9"]


def test_batch_defaults_from_the_command_line_and_a_file(tmp_path: Path) -> None:
    source = tmp_path / "positions.jsonl"
    source.write_text('{"rack": "K10 B10 O10 K11 K12 K13"}\n{"rack": "K1 K2 K3", "objective": "tiles"}\n')
    status, out, err = run(["solve", "rummikub", "--objective", "points", "--batch", str(source)])
    assert status == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["objective"] == "points" and second["objective"] == "tiles"
    status, out, err = run(["solve", "rummikub", "--batch", str(tmp_path / "missing.jsonl")])
    assert status == 2 and "no such file" in err and "no such file" in json.loads(out)["error"]
    status, out, err = run(["solve", "rummikub", "--rack", "R1", "--batch"])
    assert status == 2 and "leave out --table and --rack" in err
