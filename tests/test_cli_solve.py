"""`rummykit solve` and the in-game `hint` command."""

from __future__ import annotations

import io
import json

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
