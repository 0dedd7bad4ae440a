"""Questions a seat asks out of turn, and faults while answering: an answer or an error frame, never a closed connection."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_server_support import Db, create, db, receive, sqlite_db, until

from rummykit.bots.registry import make_bot
from rummykit.engine.rng import Rng
from rummykit.server import protocol as p
from rummykit.server.rooms import Room

__all__ = ["db", "sqlite_db"]


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    until(ws, "welcome")
    return until(ws, "state")


def still_open(ws: Any) -> None:
    ws.send_json({"type": "ping", "id": "still"})
    assert until(ws, "pong") == {"type": "pong", "id": "still"}


def test_a_hint_out_of_turn_is_the_best_play_for_when_the_turn_comes(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
            hello(a, made["seats"][0]["token"])
            state = hello(b, made["seats"][1]["token"])
            turn = state["view"]["turn"]
            mover, idle = (a, b) if turn == 0 else (b, a)
            waiting = 1 - turn
            idle.send_json({"type": "hint", "id": "early"})
            hint = until(idle, "hint")
            p.server_frame(hint)
            assert hint["id"] == "early" and hint["lines"][0].startswith("It is not your turn")
            assert "the table may change before your turn" in hint["lines"][0] and len(hint["lines"]) > 1
            assert hint["action"] is not None and hint["action"]["player"] == waiting
            # Out of turn the engine refuses it (TURN); once the turn comes, with the table as it was, it is accepted.
            idle.send_json({"type": "check", "action": hint["action"]})
            assert until(idle, "checked")["rule"] == "TURN"
            mover.send_json({"type": "act", "text": "draw"})
            while until(idle, "state")["seq"] == 0:
                pass
            idle.send_json({"type": "check", "action": hint["action"]})
            assert until(idle, "checked")["ok"] is True
            # At its turn the hint is the one it always was (no "not your turn" line).
            idle.send_json({"type": "hint", "id": "now"})
            now = until(idle, "hint")
            assert now["action"] == hint["action"] and now["lines"] == hint["lines"][1:]
            still_open(idle)


def test_a_hint_after_the_end_says_why_not(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app(flood_rate=1000)) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot", "level": "greedy"}], seed=2,
                      options={"target": 0})
        me, rng = make_bot("random", "conveyor"), Rng(5)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            answered = -1
            while state["status"] != "over":
                if 0 in state["view"]["must_act"] and answered != state["seq"]:
                    answered = state["seq"]
                    ws.send_json({"type": "act", "action": me.choose(state["view"], rng).to_json()})
                state = until(ws, "state")
            ws.send_json({"type": "hint", "id": 7})
            error = until(ws, "error")
            assert (error["id"], error["rule"]) == (7, "GAME-OVER") and "over" in error["message"]
            still_open(ws)


def test_a_fault_while_answering_gets_an_error_frame_not_a_closed_connection(
    db: Db, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Room, seat: int, frame: Any) -> dict[str, Any]:
        raise RuntimeError("a fault of the server's own")

    monkeypatch.setattr(Room, "legal", broken)
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot"}], seed=4)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, made["seats"][0]["token"])
            ws.send_json({"type": "legal", "id": "L"})
            frame = receive(ws)
            while frame["type"] == "state":
                frame = receive(ws)
            assert (frame["type"], frame["id"], frame["rule"]) == ("error", "L", "SERVER")
            still_open(ws)
    assert "a fault of the server's own" in caplog.text
