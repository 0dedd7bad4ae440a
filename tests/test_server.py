"""The game server through its real app: HTTP lobby, WebSocket games, errors and security.

Every test runs on SQLite and on PostgreSQL (``db`` fixture in
``test_server_support.py``). Frames received are validated against the
published protocol models.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import as_game
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect
from test_server_support import Db, create, db, receive, sqlite_db, table_state, until

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.catalogue import find_game, offered
from rummykit.engine.rng import Rng
from rummykit.presenters import presenter_for
from rummykit.rulesets.rummikub import Rummikub
from rummykit.server import protocol as p
from rummykit.server.app import MAX_FRAME
from rummykit.server.rooms import Room, fingerprint
from rummykit.server.store import actions_table
from rummykit.sim import run_bots

__all__ = ["db", "sqlite_db"]  # fixtures, imported for pytest


def hello(ws: Any, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    ws.send_json({"type": "hello", "token": token})
    welcome = receive(ws)
    state = until(ws, "state")
    p.server_frame(welcome)
    p.server_frame(state)
    return welcome, state


def answer(ws: Any) -> dict[str, Any]:
    """The next frame that is not news of the table (state, round): the answer to the last question asked.

    Unlike ``until``, it never waits past a wrong answer for one that will not come.
    """
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] not in ("state", "round"):
            return frame


def room_of(client: TestClient, table: str) -> Room:
    room: Room = client.app.state.hall.rooms[table]  # type: ignore[attr-defined]
    return room


# -- the lobby -------------------------------------------------------------------------------


def test_games_come_from_the_catalogue(db: Db) -> None:
    with TestClient(db.app()) as client:
        listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [info.id for info in offered()]  # the lobby's order
    assert listed[0]["id"] == "rummikub"
    for g in listed:
        p.GameOut.model_validate(g)
        info = find_game(g["id"])
        assert [o["name"] for o in g["options"]] == [s.name for s in info.options]
        assert [o["default"] for o in g["options"]] == [s.default for s in info.options]
        assert g["bot_levels"] == bot_levels(info.id)
        assert (g["min_players"], g["max_players"]) == (info.min_players, info.max_players)
    assert {g["id"]: g["free_table"] for g in listed}["rummikub"] is True
    assert {g["id"]: g["free_table"] for g in listed}["conveyor"] is False


def test_create_list_join_and_spectate(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(
            client, "rummikub", [{"kind": "person", "name": "ann"}, {"kind": "person", "name": "bob"}], seed=4,
            options={"jokers": 1},
        )
        p.CreatedTable.model_validate(made)
        table = made["table"]
        ann, bob = made["seats"]
        assert ann["invite"] == f"/t/{table}#seat=0&token={ann['token']}"
        assert ann["token"] != bob["token"] and len(ann["token"]) >= 32
        listed = client.get("/api/tables").json()
        assert [t["table"] for t in listed] == [table]
        assert listed[0]["status"] == "waiting" and listed[0]["options"]["jokers"] == 1
        with client.websocket_connect(f"/ws/{table}") as a:
            welcome, state = hello(a, ann["token"])
            assert welcome["seat"] == 0 and welcome["table"]["table"] == table
            assert state["view"]["seat"] == 0 and len(state["view"]["rack"]) == 14
            assert state["status"] == "waiting" and state["seq"] == 0
            assert client.get(f"/api/tables/{table}").json()["seats"][0]["connected"] is True
            # Acting before everybody joined is refused.
            a.send_json({"type": "act", "text": "draw", "id": "early"})
            waiting = "the table is waiting for its players to join"
            assert until(a, "error") == {"type": "error", "id": "early", "rule": "WAITING", "message": waiting,
                                          "worded": waiting, "params": None}
            with client.websocket_connect(f"/ws/{table}") as b:
                _, state_b = hello(b, bob["token"])
                assert state_b["status"] == "playing"
                assert "rack" in state_b["view"] and state_b["view"]["rack"] != state["view"]["rack"]
                with client.websocket_connect(f"/ws/{table}") as watcher:
                    welcome_w, state_w = hello(watcher, None)
                    assert welcome_w["seat"] is None and "rack" not in state_w["view"]
                    assert state_w["view"]["rack_sizes"] == [14, 14]
                    turn = state_w["view"]["turn"]
                    mover = a if turn == 0 else b
                    mover.send_json({"type": "act", "action": {"type": "draw"}})
                    after = until(watcher, "state")
                    while after["seq"] == 0:
                        after = until(watcher, "state")
                    assert after["seq"] == 1 and after["view"]["rack_sizes"][turn] == 15
                    assert any("draws" in line for line in after["log"])
                    # A spectator cannot act.
                    watcher.send_json({"type": "act", "text": "draw", "id": 9})
                    assert until(watcher, "error")["rule"] == "SPECTATOR"
        assert client.get("/api/tables/nope").status_code == 404


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        ({"game": "chess", "seats": [{"kind": "person"}, {"kind": "bot"}]}, "GAME"),
        ({"game": "rummikub", "seats": [{"kind": "person"}]}, "SEATS"),
        ({"game": "rummikub", "seats": [{"kind": "person"}, {"kind": "bot", "level": "genius"}]}, "SEATS"),
        ({"game": "conveyor", "seats": [{"kind": "person"}, {"kind": "bot", "level": "solver"}]}, "SEATS"),
        ({"game": "rummikub", "options": {"jokers": 9}, "seats": [{"kind": "person"}, {"kind": "bot"}]}, "OPTION"),
        ({"game": "rummikub", "options": {"joker": 1}, "seats": [{"kind": "person"}, {"kind": "bot"}]}, "OPTION"),
        ({"game": "rummikub", "seed": -1, "seats": [{"kind": "person"}, {"kind": "bot"}]}, "SEED"),
        ({"game": "rummikub", "clock": 0.01, "seats": [{"kind": "person"}, {"kind": "bot"}]}, "CLOCK"),
        ({"game": "rummikub", "seats": [{"kind": "alien"}]}, "REQUEST"),
        ({"seats": []}, "REQUEST"),
    ],
)
def test_bad_tables_are_refused_with_a_rule(sqlite_db: Db, body: dict[str, Any], rule: str) -> None:
    with TestClient(sqlite_db.app()) as client:
        answer = client.post("/api/tables", json=body)
        assert answer.status_code in (400, 422)
        error = p.ErrorBody.model_validate(answer.json()).error
        assert error.rule == rule and error.message
        assert "Traceback" not in answer.text
        assert client.get("/api/tables").json() == []
        assert client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}).status_code == 422


# -- whole games -----------------------------------------------------------------------------

BOT_GAMES = [
    ("rummikub", 2, {"max_rounds": 1}),
    ("domino-rummikub", 2, {"target": 50, "max_rounds": 2}),
    ("conveyor", 3, {"jump_ins": True, "target": 0}),
    ("two-tray", 2, {}),
    ("mummus", 3, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), BOT_GAMES)
def test_a_bot_table_plays_exactly_as_the_bot_loop(db: Db, game: str, players: int, options: dict[str, Any]) -> None:
    """Server bots follow the step driver with the same generators as ``sim.run_bots``: same game."""
    seed = 11
    with TestClient(db.app()) as client:
        made = create(client, game, [{"kind": "bot", "level": "random"}] * players, seed=seed, options=options)
        with client.websocket_connect(f"/ws/{made['table']}") as watcher:
            hello(watcher, None)
            rounds = []
            while True:
                frame = receive(watcher)
                p.server_frame(frame)
                if frame["type"] == "round":
                    rounds.append(frame)
                if frame["type"] == "state":
                    # Persisted before broadcast: the database holds every action the frame counts.
                    with client.app.state.store.engine.connect() as conn:  # type: ignore[attr-defined]
                        stored = conn.execute(
                            select(func.count()).select_from(actions_table).where(actions_table.c.table_id == made["table"])
                        ).scalar_one()
                    assert stored >= frame["seq"]
                    if frame["status"] == "over":
                        break
        room = room_of(client, made["table"])
    info = find_game(game)
    expected = info.new(players=[s["name"] for s in made["seats"]], seed=seed, **options)
    run_bots(expected, [make_bot("random", game) for _ in range(players)])
    assert [str(a) for a in room.state.actions] == [str(a) for a in expected.actions]
    assert fingerprint(room.state) == fingerprint(expected)
    assert frame["view"]["outcome"] is not None and frame["seq"] == len(expected.actions)
    assert rounds and rounds[-1]["match_over"] is True and rounds[-1]["lines"]


def next_state(ws: Any) -> dict[str, Any]:
    """The next state frame; an error frame on the way fails (a refused action would leave the player waiting)."""
    while True:
        frame = receive(ws)
        assert frame["type"] != "error", f"refused: {frame}; the server says: {table_state(ws)}"
        if frame["type"] == "state":
            return frame


def test_a_person_plays_against_a_bot_to_the_end(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot", "level": "greedy"}], seed=2,
                      options={"target": 0})
        me = make_bot("random", "conveyor")
        rng = Rng(5)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            _, state = hello(ws, made["seats"][0]["token"])
            answered = -1
            for _ in range(5000):
                if state["status"] == "over":
                    break
                view = state["view"]
                if 0 in view["must_act"] and answered != state["seq"]:
                    answered = state["seq"]
                    action = me.choose(view, rng)  # sent as a person types it: counted from 1
                    ws.send_json({"type": "act", "text": presenter_for("conveyor").command_text(action)})
                state = next_state(ws)
            assert state["status"] == "over" and state["view"]["outcome"] is not None
        assert client.get(f"/api/tables/{made['table']}").json()["status"] == "over"


# -- errors and questions ---------------------------------------------------------------------


def test_errors_name_the_rule_and_change_nothing(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        a_tok, b_tok = made["seats"][0]["token"], made["seats"][1]["token"]
        with client.websocket_connect(f"/ws/{made['table']}") as a, client.websocket_connect(f"/ws/{made['table']}") as b:
            hello(a, a_tok)
            _, state = hello(b, b_tok)
            turn = state["view"]["turn"]
            mover, idle = (a, b) if turn == 0 else (b, a)
            other = 1 - turn
            # Out of turn.
            idle.send_json({"type": "act", "text": "draw", "id": 1})
            err = until(idle, "error")
            assert (err["rule"], err["id"]) == ("TURN", 1) and "turn" in err["message"]
            # An action for another seat.
            mover.send_json({"type": "act", "action": {"type": "draw", "player": other}, "id": 2})
            assert until(mover, "error")["rule"] == "TURN"
            # A rule of the game: tiles not in the rack (the engine's rule id).
            mover.send_json({"type": "act", "text": "play R1 R2 R3 : R1 R2 R3", "id": 3})
            err = until(mover, "error")
            assert err["rule"].startswith("RK-") and err["id"] == 3
            # Unreadable actions.
            mover.send_json({"type": "act", "text": "dance", "id": 4})
            assert until(mover, "error")["rule"] == "PARSE"
            mover.send_json({"type": "act", "action": {"type": "teleport"}, "id": 5})
            assert until(mover, "error")["rule"] == "PARSE"
            mover.send_json({"type": "act", "id": 6})
            assert until(mover, "error")["rule"] == "PROTOCOL"
            # Malformed frames.
            for raw in ("not json", "[1, 2]", '{"type": "fly"}', '{"type": "act", "action": 5}', '{"type": "hello"}'):
                mover.send_text(raw)
                err = until(mover, "error")
                p.server_frame(err)
                assert err["rule"] == "PROTOCOL", raw
            mover.send_text(json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME + 1)}))
            assert until(mover, "error")["rule"] == "TOO-BIG"
            mover.send_json({"type": "ping", "id": "still here"})
            assert until(mover, "pong") == {"type": "pong", "id": "still here"}
        assert room_of(client, made["table"]).seq == 0


def test_check_legal_and_hint_play_nothing(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        with client.websocket_connect(f"/ws/{made['table']}") as a, client.websocket_connect(f"/ws/{made['table']}") as b:
            hello(a, made["seats"][0]["token"])
            _, state = hello(b, made["seats"][1]["token"])
            turn = state["view"]["turn"]
            ws = a if turn == 0 else b
            ws.send_json({"type": "legal", "id": "L"})
            legal = until(ws, "legal")
            p.server_frame(legal)
            room = room_of(client, made["table"])
            assert [x["text"] for x in legal["actions"]] == [x.text() for x in room.state.indexed_actions(turn)][:200]
            assert legal["truncated"] is False and "draw" in [x["text"] for x in legal["actions"]]
            ws.send_json({"type": "check", "action": "draw", "id": "c1"})
            checked = until(ws, "checked")
            assert (checked["ok"], checked["id"], checked["action"]) == (True, "c1", {"type": "draw", "player": turn})
            ws.send_json({"type": "check", "text": "play R1 R2 R3 : R1 R2 R3"})
            checked = until(ws, "checked")
            assert checked["ok"] is False and checked["rule"].startswith("RK-")
            # A draft table: per-set verdicts from the engine, and whether committing it would pass.
            rack = as_game(room.state, Rummikub).view(turn)["rack"]
            ws.send_json({"type": "check", "table": [[rack[0]], ["K1", "B1", "O1", "R1", "R2"]], "id": "t"})
            checked = until(ws, "checked")
            p.server_frame(checked)
            assert [s["ok"] for s in checked["sets"]] == [False, False]
            assert checked["sets"][0]["rule"] == "RK-SET-SIZE" and checked["ok"] is False
            ws.send_json({"type": "check", "table": [["Z9"]]})
            assert until(ws, "error")["rule"] == "PARSE"
            # The hint's action is one the engine accepts now, and asking plays nothing.
            ws.send_json({"type": "hint", "id": "h"})
            hint = until(ws, "hint")
            p.server_frame(hint)
            assert hint["lines"] and hint["action"]["player"] == turn
            ws.send_json({"type": "check", "action": hint["action"]})
            assert until(ws, "checked")["ok"] is True
            assert room.seq == 0
        conveyor = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot"}], seed=1)
        with client.websocket_connect(f"/ws/{conveyor['table']}") as c:
            hello(c, conveyor["seats"][0]["token"])
            # conveyor's hint is its strong bot's advice: lines that say why, and an action the engine accepts.
            c.send_json({"type": "hint", "id": 1})
            advised = answer(c)
            assert advised["type"] == "hint" and advised["lines"][0].startswith("hint: "), advised
            assert any(line.startswith("  why: ") for line in advised["lines"])
            c.send_json({"type": "check", "id": 2, "action": advised["action"]})
            assert answer(c)["ok"] is True
            c.send_json({"type": "check", "table": [["1-2"]]})
            assert until(c, "error")["rule"] == "FREE-TABLE"


def test_mummus_text_takes_the_screens_numbers_as_the_prompt_does(db: Db) -> None:
    """The browser's command box sends text: mummus reads `take N` (N counted from 1 at the bottom of the
    pile, as the screens number it) and meld numbers as the line prompt does, besides the card forms that
    `moves` and the server's list show. Two people (no bot), so every frame is one of theirs."""
    with TestClient(db.app(flood_rate=1000.0)) as client:  # a quick typist: no flood control in the way
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "person"}], seed=7, options={"target": 0})
        room = room_of(client, made["table"])
        with client.websocket_connect(f"/ws/{made['table']}") as a, client.websocket_connect(f"/ws/{made['table']}") as b:
            socks = [a, b]
            seen = {seat: hello(ws, made["seats"][seat]["token"])[1] for seat, ws in enumerate(socks)}

            def synced(seat: int, seq: int) -> dict[str, Any]:
                """The seat's state frame of ``seq`` (older frames skipped, none waited for twice)."""
                while seen[seat]["seq"] < seq:
                    seen[seat] = until(socks[seat], "state")
                return seen[seat]

            def listed(seat: int) -> list[str]:
                socks[seat].send_json({"type": "legal", "id": "L"})
                while True:
                    frame = socks[seat].receive_json()
                    assert frame["type"] in ("legal", "state"), frame
                    if frame["type"] == "legal":
                        return [x["text"] for x in frame["actions"]]
                    seen[seat] = frame

            def act(seat: int, text: str) -> dict[str, Any]:
                """Play ``text`` for ``seat``: the state frame it brings (a refusal fails the test)."""
                before = room.seq
                socks[seat].send_json({"type": "act", "text": text, "id": text})
                while seen[seat]["seq"] <= before:
                    frame = socks[seat].receive_json()
                    assert frame["type"] != "error", (text, frame)
                    if frame["type"] == "state":
                        seen[seat] = frame
                return seen[seat]

            taken: list[str] = []
            added: list[str] = []
            state = seen[0]
            for _ in range(200):
                if (len(taken) == 2 and added) or state["status"] == "over":
                    break
                seat = state["view"]["turn"]
                state = synced(seat, room.seq)  # every action waited for its own frame: the table stands still
                pile = state["view"]["discard"]
                takes = [t for t in listed(seat) if t.startswith("take ")]
                if seat == 0 and takes and len(taken) < 2:
                    # a number past the pile is refused with the prompt's words, and nothing is played
                    a.send_json({"type": "act", "text": f"take {len(pile) + 1}", "id": "far"})
                    refused = answer(a)
                    assert (refused["rule"], refused["message"]) == (
                        "PARSE", f"the discard pile has cards 1..{len(pile)}, not {len(pile) + 1}")
                    card = takes[0].split()[1]
                    typed = f"take {pile.index(card) + 1}" if not taken else takes[0]  # by number, then by card
                    state = act(0, typed)
                    assert str(room.state.actions[-1]) == f"0 take {card}" and card in state["view"]["hand"], typed
                    taken.append(typed)
                else:
                    state = act(seat, "draw")
                for _ in range(20):  # melds and add-ons as listed, then the first discard listed ends the turn
                    if state["status"] == "over" or state["view"]["turn"] != seat:
                        break
                    now = listed(seat)
                    addons = [t for t in now if t.startswith("addon ")]
                    melds = [t for t in now if t.startswith("meld ")]
                    if seat == 0 and addons and not added:  # a meld's number, as the screens show it
                        cards, meld = addons[0].removeprefix("addon ").split(" to ")
                        number = next(m["index"] for m in state["view"]["melds"] if meld in m["cards"]) + 1
                        state = act(0, f"addon {number} {cards}")
                        assert str(room.state.actions[-1]) == f"0 {addons[0]}"
                        added.append(f"addon {number} {cards}")
                    elif melds:
                        state = act(seat, melds[0])
                    else:
                        state = act(seat, next(t for t in now if not t.startswith(("draw", "take"))))
            assert len(taken) == 2 and taken[0].split()[1].isdigit() and added, (taken, added)
            a.send_json({"type": "hint", "id": "h"})
            advised = answer(a)  # the strong bot's advice, in or out of turn
            assert advised["type"] == "hint" and any(line.startswith("  why: ") for line in advised["lines"]), advised


# -- security ---------------------------------------------------------------------------------


def test_a_bad_token_gets_an_error_and_the_door(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot"}], seed=4)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": made["seats"][0]["token"] + "x"})
            assert receive(ws)["rule"] == "TOKEN"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 1008
        with client.websocket_connect("/ws/nosuchtable") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert receive(ws)["rule"] == "TABLE"
        # A token of another table opens nothing here.
        other = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot"}], seed=5)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            ws.send_json({"type": "hello", "token": other["seats"][0]["token"]})
            assert receive(ws)["rule"] == "TOKEN"


def test_the_origin_is_checked_on_upgrade(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app(allowed_origins=["http://localhost:5173"])) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot"}], seed=4)
        url = f"/ws/{made['table']}"
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
            receive(ws)
        assert refused.value.code == 1008
        for origin in ("http://testserver", "http://localhost:5173"):
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                hello(ws, None)


def test_a_flood_is_refused_then_closed(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot"}], seed=4)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, None)
            for _ in range(200):
                ws.send_json({"type": "ping"})
            kinds: list[str] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(400):
                    frame = receive(ws)
                    kinds.append(frame["type"] if frame["type"] != "error" else frame["rule"])
            assert closed.value.code == 1008
            assert "FLOOD" in kinds and kinds.count("pong") < 200


def test_the_clock_plays_for_a_person_who_does_not(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot"}], seed=3, clock=1)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            _, state = hello(ws, made["seats"][0]["token"])
            while not (0 in state["view"]["must_act"] and state["clock"]):
                state = until(ws, "state")
            assert state["clock"]["seat"] == 0
            seq = state["seq"]
            after = until(ws, "state")
            while after["seq"] == seq:
                after = until(ws, "state")
        room = room_of(client, made["table"])
        assert room.state.actions[seq].player == 0


def test_pages_and_assets(sqlite_db: Db, tmp_path: Any) -> None:
    with TestClient(sqlite_db.app(static_dir=tmp_path / "none")) as client:
        page = client.get("/t/abc")
        assert page.status_code == 200 and "not built" in page.text
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<html>client</html>")
    (static / "assets" / "app.js").write_text("console.log(1)")
    with TestClient(sqlite_db.app(static_dir=static)) as client:
        assert client.get("/").text == "<html>client</html>"
        assert client.get("/t/xyz").text == "<html>client</html>"
        assert client.get("/assets/app.js").text == "console.log(1)"
        assert client.get("/assets/../index.html").status_code == 404
        assert client.get("/assets/%2e%2e/index.html").status_code == 404
