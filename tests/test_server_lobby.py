"""The lobby's side of a table's life: readable names, the host's token (close a table, hand a seat to a bot), expiry."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect
from test_server_support import Db, create, db, receive, sqlite_db, until

from rummykit.server.app import Hall
from rummykit.server.names import table_name
from rummykit.server.store import Store

__all__ = ["db", "sqlite_db"]

TWO_PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]


def _hall(client: TestClient) -> Hall:
    hall: Hall = client.app.state.hall  # type: ignore[attr-defined]
    return hall


def _listed(client: TestClient) -> dict[str, dict[str, Any]]:
    return {t["table"]: t for t in client.get("/api/tables").json()}


def _error(answer: Any, status: int, rule: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["rule"] == rule, error
    message: str = error["message"]
    return message


def _join(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome = until(ws, "welcome")
    return welcome


def _state_where(ws: Any, test: Any) -> dict[str, Any]:
    for _ in range(200):
        frame = until(ws, "state")
        if test(frame):
            return frame
    raise AssertionError("no state frame passed the test")


def test_tables_have_readable_names(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", TWO_PEOPLE)
        assert made["name"] == table_name(made["table"]) and len(made["name"].split()) == 2
        assert made["name"] != made["table"]
        chosen = create(client, "mummus", TWO_PEOPLE, name="  Friday   night ")
        assert chosen["name"] == "Friday night"
        listed = _listed(client)
        assert listed[made["table"]]["name"] == made["name"] and listed[chosen["table"]]["name"] == "Friday night"
        assert client.get(f"/api/tables/{chosen['table']}").json()["name"] == "Friday night"
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            assert _join(ws, None)["table"]["name"] == made["name"]
        message = _error(client.post("/api/tables", json={"game": "rummikub", "seats": TWO_PEOPLE, "name": "a|b"}), 400, "NAME")
        assert "table name" in message
    assert table_name("same id") == table_name("same id")
    assert len({table_name(f"id{i}") for i in range(200)}) > 150, "names made from ids mostly differ"


def test_the_host_closes_a_table_and_its_pages_are_told(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", TWO_PEOPLE)
        table = made["table"]
        assert isinstance(made["host"], str) and len(made["host"]) > 20
        assert made["host"] not in {s["token"] for s in made["seats"]}
        # refused: no host token, a wrong one, a seat's token, an unknown table
        assert _error(client.post(f"/api/tables/{table}/close", json={}), 422, "REQUEST").startswith("host")
        assert "host token" in _error(client.post(f"/api/tables/{table}/close", json={"host": "nope"}), 403, "HOST")
        _error(client.post(f"/api/tables/{table}/close", json={"host": made["seats"][0]["token"]}), 403, "HOST")
        _error(client.post("/api/tables/nosuch/close", json={"host": made["host"]}), 404, "TABLE")
        assert table in _listed(client)
        with client.websocket_connect(f"/ws/{table}") as ws:
            _join(ws, made["seats"][0]["token"])
            until(ws, "state")
            answer = client.post(f"/api/tables/{table}/close", json={"host": made["host"]})
            assert answer.status_code == 200, answer.text
            assert answer.json()["table"] == table
            told = until(ws, "error")
            assert told["rule"] == "TABLE" and "closed by its host" in told["message"]
            with pytest.raises(WebSocketDisconnect):
                for _ in range(50):
                    receive(ws, 10)
        assert table not in _listed(client)
        assert "closed by its host" in _error(client.get(f"/api/tables/{table}"), 404, "TABLE")
        # a page opened later is told why, not just "no such table"
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][1]["token"]})
            frame = receive(ws)
            assert frame["rule"] == "TABLE" and "closed by its host" in frame["message"]
        _error(client.post(f"/api/tables/{table}/close", json={"host": made["host"]}), 404, "TABLE")
    # closed stays closed: the next server does not restore it
    with TestClient(sqlite_db.app()) as client:
        assert table not in _hall(client).rooms and table not in _listed(client)


def test_the_host_hands_an_absent_seat_to_a_bot_and_the_game_goes_on(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", TWO_PEOPLE, seed=4)
        table, host = made["table"], made["host"]
        url = f"/api/tables/{table}/seats/1/bot"
        # refused, each with a clear message
        _error(client.post(url, json={"host": "wrong"}), 403, "HOST")
        assert "levels are" in _error(client.post(url, json={"host": host, "level": "grandmaster"}), 400, "SEATS")
        assert "seats 1 to 2" in _error(client.post(f"/api/tables/{table}/seats/5/bot", json={"host": host}), 400, "SEATS")
        with client.websocket_connect(f"/ws/{table}") as ann:
            _join(ann, made["seats"][0]["token"])
            assert until(ann, "state")["status"] == "waiting"  # Bob never came
            answer = client.post(url, json={"host": host, "level": "greedy"})
            assert answer.status_code == 200, answer.text
            bob = answer.json()["seats"][1]
            assert (bob["seat"], bob["kind"], bob["level"], bob["name"]) == (1, "bot", "greedy", "Bob")
            assert "a bot already" in _error(client.post(url, json={"host": host}), 400, "SEATS")
            # Ann's page starts: the table plays; whoever begins, the bot takes its turns
            state = _state_where(ann, lambda f: f["status"] == "playing")
            assert state["seats"][1]["kind"] == "bot"
            room = _hall(client).rooms[table]
            assert room.session.bots[1] is not None and room.session.bots[0] is None
            state = _state_where(ann, lambda f: f["view"]["turn"] == 0 and f["legal"]["actions"])
            for _ in range(3):  # Ann draws, the bot answers, three times
                draw = next(a for a in state["legal"]["actions"] if a["text"] in ("draw", "pass"))
                ann.send_json({"type": "act", "action": draw["json"], "seq": state["seq"]})
                seq = state["seq"]
                state = _state_where(ann, lambda f, s=seq: f["seq"] > s and f["view"]["turn"] == 0 and f["legal"]["actions"])
                assert state["seq"] >= seq + 2, "the bot in seat 2 played"
        # Bob's old link opens no seat now
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][1]["token"]})
            assert receive(ws)["rule"] == "TOKEN"


def test_a_seat_handed_to_a_bot_while_its_page_is_open_is_told(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "mummus", TWO_PEOPLE, seed=2)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ann, client.websocket_connect(f"/ws/{table}") as bob:
            _join(ann, made["seats"][0]["token"])
            _join(bob, made["seats"][1]["token"])
            _state_where(bob, lambda f: f["status"] == "playing")
            answer = client.post(f"/api/tables/{table}/seats/1/bot", json={"host": made["host"]})
            assert answer.status_code == 200, answer.text
            assert answer.json()["seats"][1]["level"] in ("greedy", "random")
            told = until(bob, "error")
            assert told["rule"] == "TOKEN" and "to a bot" in told["message"]
            state = _state_where(ann, lambda f: f["seats"][1]["kind"] == "bot")
            assert state["status"] == "playing"


def test_untouched_tables_expire(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app(expire_after=0.3)) as client:
        made = create(client, "rummikub", TWO_PEOPLE)
        table = made["table"]
        deadline = time.monotonic() + 30
        while table in _listed(client):
            assert time.monotonic() < deadline, "the table did not expire"
            time.sleep(0.05)
        assert "expired" in _error(client.get(f"/api/tables/{table}"), 404, "TABLE")
    with TestClient(sqlite_db.app()) as client:
        assert table not in _hall(client).rooms, "an expired table is not restored"


def test_a_table_with_a_page_open_does_not_expire(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app(expire_after=3600)) as client:
        hall = _hall(client)
        made = create(client, "rummikub", TWO_PEOPLE)
        other = create(client, "rummikub", TWO_PEOPLE)
        table = made["table"]
        later = time.time() + 7200
        with client.websocket_connect(f"/ws/{table}") as ws:
            _join(ws, made["seats"][0]["token"])
            until(ws, "state")
            assert client.portal.call(hall.expire, later) == [other["table"]]  # type: ignore[union-attr]
            assert table in hall.rooms
        # the page closed: that touched the table, and an hour after that it expires
        deadline = time.monotonic() + 30
        while hall.rooms[table].conns:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert client.portal.call(hall.expire, time.time() + 60) == []  # type: ignore[union-attr]
        assert client.portal.call(hall.expire, time.time() + 3601) == [table]  # type: ignore[union-attr]


def test_finished_tables_leave_the_list(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "mummus", [{"kind": "bot"}, {"kind": "bot"}], seed=3)
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{made['table']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "two bots did not finish a game of mummus in 60 s"
            time.sleep(0.1)
        assert made["table"] not in _listed(client)


def test_names_hosts_and_handed_seats_come_back_after_a_restart(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", TWO_PEOPLE, name="Kept")
        plain = create(client, "rummikub", TWO_PEOPLE)
        answer = client.post(f"/api/tables/{made['table']}/seats/1/bot", json={"host": made["host"]})
        assert answer.status_code == 200, answer.text
    with TestClient(db.app()) as client:
        listed = _listed(client)
        assert listed[made["table"]]["name"] == "Kept" and listed[plain["table"]]["name"] == plain["name"]
        assert listed[made["table"]]["seats"][1]["kind"] == "bot"
        assert _hall(client).rooms[made["table"]].session.bots[1] is not None
        _error(client.post(f"/api/tables/{plain['table']}/close", json={"host": made["host"]}), 403, "HOST")
        assert client.post(f"/api/tables/{plain['table']}/close", json={"host": plain["host"]}).status_code == 200
    with TestClient(db.app()) as client:
        assert set(_listed(client)) == {made["table"]}


def test_a_database_of_an_earlier_server_gets_the_new_columns(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(Db(url).app()) as client:
        made = create(client, "rummikub", TWO_PEOPLE)
    store = Store(url)
    with store.engine.begin() as conn:
        conn.execute(text("ALTER TABLE tables DROP COLUMN name"))
        conn.execute(text("ALTER TABLE tables DROP COLUMN host"))
    store.close()
    with TestClient(Db(url).app()) as client:
        assert _listed(client)[made["table"]]["name"] == table_name(made["table"])
        # stored before there were hosts: nobody may close it
        _error(client.post(f"/api/tables/{made['table']}/close", json={"host": made["host"]}), 403, "HOST")


def test_games_and_tables_say_which_pieces_are_wild_and_whether_there_is_a_hint(sqlite_db: Db) -> None:
    """The client marks domino jokers and shows a hint button from what the server says, never from a game id."""
    from rummykit.catalogue import find_game
    from rummykit.presenters.registry import presenter_for
    from rummykit.rulesets.domino_rummikub.options import JOKERS

    with TestClient(sqlite_db.app()) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert sorted(games["domino-rummikub"]["jokers"]) == sorted(str(d) for d in JOKERS) == ["0-0", "6-6"]
        assert games["conveyor"]["jokers"] == [] and games["rummikub"]["jokers"] == []
        # every game has a hint today (its strong bot's advice); the flag follows the presenter, not the game id
        assert all(g["hint"] is presenter_for(g["id"]).hint for g in games.values())
        assert games["rummikub"]["hint"] is True and games["mummus"]["hint"] is True
        made = create(client, "domino-rummikub", TWO_PEOPLE)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            table = _join(ws, made["seats"][0]["token"])["table"]
        assert table["jokers"] == list(find_game("domino-rummikub").wild_pieces) and table["hint"] is True
