"""A grid game's ``check``: the engine's verdict on each line the drafted play touches (``lines``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_server_support import Db, create, db, sqlite_db, until

from rummykit.blocks.grid_lines import grid_lines
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.two_tray import GRID, TileGrid
from rummykit.server import protocol as p

__all__ = ["db", "sqlite_db"]


def grid(text: str) -> TileGrid:
    return TileGrid.parse(text, Tile.parse)


def verdicts(old: str, new: str) -> list[tuple[bool | None, list[str], bool, str | None, str | None]]:
    return [(v["across"], v["cells"], v["ok"], v["rule"], v["says"]) for v in grid_lines(GRID, grid(old), grid(new))]


def test_a_valid_extension_is_one_valid_line() -> None:
    assert verdicts("0,0: R1 R2 R3", "0,0: R1 R2 R3 R4") == [(True, ["0,0", "0,1", "0,2", "0,3"], True, None, None)]


def test_each_touched_line_across_and_down_gets_its_own_verdict() -> None:
    # the row R1 R2 R3 is unchanged: only the new column through R3 is the play's
    only = verdicts("0,0: R1 R2 R3", "0,0: R1 R2 R3 / . . K4 / . . K5")
    assert len(only) == 1
    found = verdicts("0,0: R1 R2", "0,0: R1 R2 R3 / . . K4 / . . K5")
    assert found[0] == (True, ["0,0", "0,1", "0,2"], True, None, None)
    across, cells, ok, rule, says = found[1]
    assert (across, cells, ok, rule) == (False, ["0,2", "1,2", "2,2"], False, "TT-LINE-KIND")
    # the reason without the line's place (the client outlines the cells): no notation numbers in it
    assert says is not None and says.startswith("R3 K4 K5 is neither a group") and "row" not in says


def test_two_tiles_a_bad_group_and_a_lone_tile() -> None:
    found = verdicts("0,0: R1 R2 R3", "0,0: R1 R2 R3 / . / B4 K4 K4 / . / O9 O10 / . / . . . . K9")
    assert [(v[0], v[2], v[3]) for v in found] == [
        (True, False, "TT-GROUP"),
        (True, False, "TT-LINE-SIZE"),
        (None, False, "TT-ALONE"),
    ]
    assert found[1][4] == "a line of 2 tiles (O9 O10); every line of touching tiles needs 3 or more"
    assert found[2][1] == ["6,4"] and found[2][4] is not None and found[2][4].startswith("K9 touches no other tile")


def test_lines_the_play_does_not_touch_are_left_out() -> None:
    # the old 2-tile line K6 B6 is not the play's business; the new run is
    found = verdicts("0,0: K6 B6", "0,0: K6 B6 / . / R5 R6 R7")
    assert found == [(True, ["2,0", "2,1", "2,2"], True, None, None)]


def test_a_tile_moved_away_judges_the_line_it_left() -> None:
    found = verdicts("0,0: R1 R2 R3 R4", "0,0: R1 R2 R3 / . / . . . . R4")
    assert (True, ["0,0", "0,1", "0,2"], True, None, None) in found
    assert found[-1][:4] == (None, ["2,4"], False, "TT-ALONE")


def test_a_joker_in_two_lines_names_what_each_line_needs() -> None:
    found = verdicts("0,0: . . R4 / K6 B6 / . . R6", "0,0: . . R4 / K6 B6 J / . . R6")
    assert [v[3] for v in found] == ["TT-JOKER-CROSS", "TT-JOKER-CROSS"]
    assert found[0][4] is not None and "this line needs it to be O6 or R6, the crossing line R5" in found[0][4]
    assert found[1][4] is not None and "this line needs it to be R5, the crossing line O6 or R6" in found[1][4]


def test_the_checked_frame_carries_the_lines_of_a_two_tray_play(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "two-tray", [{"kind": "person"}, {"kind": "person"}], seed=3)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
            states: list[dict[str, Any]] = []
            for ws, seat in ((ws0, 0), (ws1, 1)):
                ws.send_json({"type": "hello", "token": made["seats"][seat]["token"]})
                until(ws, "welcome")
                states.append(until(ws, "state"))
            turn = states[0]["view"]["turn"]
            ws = (ws0, ws1)[turn]
            tray = states[turn]["view"]["trays"]["A"]
            # two tiles side by side: one line of 2, refused, with the line's verdict
            changes = [f"0,0={tray[0]}", f"0,1={tray[1]}"]
            ws.send_json({"type": "check", "id": "c", "action": {"type": "play", "tray": "A", "changes": changes}})
            checked = until(ws, "checked")
            p.server_frame(checked)
            assert checked["ok"] is False
            assert checked["lines"] == [
                {
                    "across": True,
                    "cells": ["0,0", "0,1"],
                    "ok": False,
                    "rule": "TT-LINE-SIZE",
                    "message": checked["lines"][0]["message"],
                    "says": f"a line of 2 tiles ({tray[0]} {tray[1]}); every line of touching tiles needs 3 or more",
                }
            ]
            # a draw is no grid play: no lines
            ws.send_json({"type": "check", "id": "d", "action": {"type": "draw", "tray": "A"}})
            assert until(ws, "checked")["lines"] is None
