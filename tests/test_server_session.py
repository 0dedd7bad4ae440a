"""The server plays through the game session: stale actions refused, the seat's actions in its state frame,
refusals with their data, bots before people, and the draft capability in the lobby.

``STALE`` is tested on SQLite and on PostgreSQL (the ``db`` fixture: PostgreSQL
runs whenever it is reachable, and must be under ``CI=true``).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_server_support import Db, create, db, receive, sqlite_db, until

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, games
from rummykit.engine.driver import next_seat
from rummykit.engine.rng import Rng
from rummykit.presenters import presenter_for
from rummykit.records import parse_record, read_record
from rummykit.server import protocol as p
from rummykit.server.rooms import Room

__all__ = ["db", "sqlite_db"]


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    until(ws, "welcome")
    return until(ws, "state")


def room_of(client: TestClient, table: str) -> Room:
    room: Room = client.app.state.hall.rooms[table]  # type: ignore[attr-defined]
    return room


def next_state(ws: Any) -> dict[str, Any]:
    """The next state frame; an error frame on the way fails."""
    while True:
        frame = receive(ws, timeout=30)
        assert frame["type"] != "error", frame
        if frame["type"] == "state":
            return frame


def next_reply(ws: Any, kind: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The next frame of ``kind``, and the last state frame that came before it (None if none did)."""
    newer = None
    while True:
        frame = receive(ws, timeout=30)
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame, newer
        if frame["type"] == "state":
            newer = frame


def test_an_action_made_against_an_old_seq_is_refused_stale(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "person"}], seed=4)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
            hello(a, made["seats"][0]["token"])
            state = hello(b, made["seats"][1]["token"])
            while state["status"] != "playing":
                state = until(b, "state")
            first = state["view"]["turn"]
            mover, other = (a, b) if first == 0 else (b, a)
            mover.send_json({"type": "act", "text": "draw", "seq": 0, "id": "fresh"})
            while next_state(other)["seq"] != 1:
                pass
            # The other seat's action, made against the position before the draw: refused, nothing changes.
            other.send_json({"type": "act", "text": "draw", "seq": 0, "id": "old"})
            error = until(other, "error")
            p.server_frame(error)
            assert (error["id"], error["rule"]) == ("old", "STALE")
            assert error["params"] == {"made_at": 0, "now": 1}
            assert "move 0" in error["message"] and "move 1" in error["message"]
            room = room_of(client, table)
            assert room.seq == 1 and len(room.state.actions) == 1
            assert client.get(f"/api/tables/{table}").json()["seq"] == 1
            # The same action against the position it sees now is played.
            other.send_json({"type": "act", "text": "draw", "seq": 1})
            assert next_state(other)["seq"] == 2
            assert [str(x) for x in room.state.actions] == [f"{first} draw", f"{1 - first} draw"]
            # Without a seq (older clients) the action is judged against the game as it is.
            mover.send_json({"type": "act", "action": {"type": "draw"}})
            while next_state(mover)["seq"] != 3:
                pass
            assert client.get(f"/api/tables/{table}").json()["seq"] == 3


def test_a_stale_action_is_stale_even_when_it_would_be_legal_now(sqlite_db: Db) -> None:
    """Seat 0 draws twice in a row from two tabs: the second tab's draw was made against the first position."""
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "rummikub", [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=4)
        table = made["table"]
        token = made["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{table}") as tab1, client.websocket_connect(f"/ws/{table}") as tab2:
            state = hello(tab1, token)
            hello(tab2, token)
            while 0 not in state["view"]["must_act"]:
                state = until(tab1, "state")
            seq = state["seq"]
            tab1.send_json({"type": "act", "text": "draw", "seq": seq})
            tab2.send_json({"type": "act", "text": "draw", "seq": seq, "id": 2})
            error = until(tab2, "error")
            assert error["rule"] == "STALE" and error["params"]["made_at"] == seq and error["params"]["now"] > seq
            room = room_of(client, table)
            assert [str(a) for a in room.state.actions[seq:]].count("0 draw") == 1


def test_the_state_frame_lists_what_the_legal_frame_lists(sqlite_db: Db) -> None:
    """At every position of a few turns of every game, the seat's state frame carries its `legal` reply."""
    with TestClient(sqlite_db.app(flood_rate=1000)) as client:
        for info in games():
            made = create(client, info.id, [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=3)
            me, rng = make_bot("random", info.id), Rng(7)
            compared = 0
            with client.websocket_connect(f"/ws/{made['table']}") as ws:
                state = hello(ws, made["seats"][0]["token"])
                while compared < 6 and state["status"] != "over":
                    ws.send_json({"type": "legal", "id": state["seq"]})
                    reply, newer = next_reply(ws, "legal")
                    if newer is None and reply["id"] == room_of(client, made["table"]).seq:
                        assert state["legal"] == {"actions": reply["actions"], "truncated": reply["truncated"]}
                        for listed in reply["actions"]:  # a button's label: the command a person types
                            action = info.action_from_json(listed["json"])
                            assert listed["typed"] == presenter_for(info.id).command_text(action)
                            assert info.parse_typed(0, listed["typed"], state["view"]) == action
                        compared += 1
                    if newer is not None:  # the game moved meanwhile: look again
                        state = newer
                        continue
                    if 0 in state["view"]["must_act"]:
                        ws.send_json({"type": "act", "action": me.choose(state["view"], rng).to_json(),
                                      "seq": state["seq"]})
                    elif state["asked"] is not None:  # a chance out of turn: the table waits for the answer
                        ws.send_json({"type": "pass", "seq": state["seq"]})
                    state = next_state(ws)
            assert compared >= 3, info.id


def test_a_spectator_gets_no_legal_actions(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "bot"}], seed=2)
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            assert hello(ws, None)["legal"] is None


def test_a_refusal_carries_its_data_and_is_worded_from_1(db: Db) -> None:
    with TestClient(db.app()) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "person"}], seed=1)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
            hello(a, made["seats"][0]["token"])
            state = hello(b, made["seats"][1]["token"])
            columns = len(state["view"]["columns"])
            seat = next_seat(room_of(client, table).state)
            ws = a if seat == 0 else b
            ws.send_json({"type": "act", "text": "claim 10", "id": "far"})  # typed as a person counts: from 1
            error = until(ws, "error")
            p.server_frame(error)
            assert (error["rule"], error["params"]) == ("CV-COLUMN", {"column": 9, "first": 0, "last": columns - 1})
            assert error["message"] == f"there is no column 9: the columns are 0..{columns - 1}"
            assert error["worded"] == f"there is no column 10: the columns are 1..{columns}"
            # A check says it the same way.
            ws.send_json({"type": "check", "text": "claim 10"})
            checked = until(ws, "checked")
            assert (checked["ok"], checked["params"], checked["worded"]) == (False, error["params"], error["worded"])
            assert room_of(client, table).seq == 0


def test_bots_answer_before_a_person_waited_for_at_the_same_time(sqlite_db: Db) -> None:
    """Conveyor's jump-in windows wait for every seat at once: the bots answer first even when the person's
    turn to answer comes first, so the person never waits on a bot (the server once stalled there)."""
    info = find_game("conveyor")
    options = {"jump_ins": True, "target": 0}
    with TestClient(sqlite_db.app(flood_rate=1000)) as client:
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot", "level": "random"},
                                           {"kind": "bot", "level": "random"}], seed=1, options=options)
        room = room_of(client, made["table"])
        me, rng = make_bot("random", "conveyor"), Rng(5)
        seen = 0
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            for _ in range(400):
                if seen >= 2 or state["status"] == "over":
                    break
                view = state["view"]
                if 0 in view["must_act"] and len(view["must_act"]) > 1:
                    # The person does not answer while a bot must: the bots answer first. Was the person first
                    # in the game's order (where the step driver alone would ask the person)? Replay to see.
                    replayed = info.new(players=3, seed=1, **options)
                    for action in room.state.actions[: state["seq"]]:
                        replayed.apply(action)
                    later = next_state(ws)
                    assert later["seq"] > state["seq"] and 0 in later["view"]["must_act"]
                    seen += next_seat(replayed) == 0
                    state = later
                    continue
                if 0 in view["must_act"]:
                    ws.send_json({"type": "act", "action": me.choose(view, rng).to_json(), "seq": state["seq"]})
                state = next_state(ws)
        assert seen >= 2


def test_the_lobby_names_each_games_draft() -> None:
    with TestClient(Db("sqlite:///:memory:").app()) as client:
        listed = {g["id"]: g for g in client.get("/api/games").json()}
    for info in games():
        assert listed[info.id]["draft"] == info.draft
        assert listed[info.id]["free_table"] == (info.draft == "table")
    assert {g["draft"] for g in listed.values()} == {"table", "grid", None}


# -- a person's chance out of turn -------------------------------------------------------------------


def asked_to_claim(ws: Any, state: dict[str, Any], me: Any, rng: Rng, limit: int = 3000) -> dict[str, Any]:
    """Play the person's turns (``me`` choosing) until a state frame asks the person about a chance out of turn."""
    answered = -1
    for _ in range(limit):
        assert state["status"] != "over", "the game ended before the person was asked about a claim"
        asked = state["asked"]
        if asked is not None and asked["claim"]:
            return state
        if asked is not None and answered != state["seq"]:
            answered = state["seq"]
            ws.send_json({"type": "act", "action": me.choose(state["view"], rng).to_json(), "seq": state["seq"]})
        state = next_state(ws)
    raise AssertionError("the person was never asked about a claim")


def no_frame_within(ws: Any, seconds: float) -> bool:
    """Whether no frame arrives within ``seconds``."""
    try:
        frame = receive(ws, timeout=seconds)
    except AssertionError:
        return True
    raise AssertionError(f"a frame came while the table should wait: {str(frame)[:300]}")


MUMMUS_CLAIM = {"game": "mummus", "seed": 5, "options": {"target": 0}}
"""A mummus table (a person at seat 0, two random bots) where the person is soon asked about a call or add-on."""


def test_the_table_waits_for_a_persons_chance_out_of_turn_and_a_pass_lets_it_go_on(db: Db) -> None:
    """Against bots at machine speed, a person is asked about each call and add-on as at the prompt: the
    table waits for the answer; a pass against an old seq is STALE, one not asked is NOT-ASKED."""
    with TestClient(db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "bot", "level": "random"},
                                         {"kind": "bot", "level": "random"}], seed=MUMMUS_CLAIM["seed"],
                      options=MUMMUS_CLAIM["options"])
        room = room_of(client, made["table"])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            while state["asked"] is None:
                state = next_state(ws)
            assert state["asked"] == {"claim": False}, "this seed asks the person about its turn first"
            # Asked about its turn, not a chance out of turn: a pass is refused and changes nothing.
            ws.send_json({"type": "pass", "seq": state["seq"], "id": "turn"})
            error = until(ws, "error")
            assert (error["id"], error["rule"]) == ("turn", "NOT-ASKED") and room.seq == state["seq"]
            state = asked_to_claim(ws, state, make_bot("random", "mummus"), Rng(3))
            p.server_frame(state)
            seq = state["seq"]
            assert 0 in state["view"]["may_act"] and 0 not in state["view"]["must_act"]
            assert state["legal"]["actions"], "a chance out of turn lists what may be done"
            # The bots wait for the answer; the watchdog sees a table waiting for a person, not a stalled one.
            assert no_frame_within(ws, 0.5)
            assert room.seq == seq and not room.bot_due() and "asking seat 0 out of turn" in room.describe()
            ws.send_json({"type": "pass", "seq": seq - 1, "id": "old"})
            error = until(ws, "error")
            assert (error["id"], error["rule"], error["params"]) == ("old", "STALE", {"made_at": seq - 1, "now": seq})
            assert room.seq == seq
            ws.send_json({"type": "pass", "seq": seq, "id": "now"})
            later = next_state(ws)
            p.server_frame(later)
            assert later["seq"] > seq or later["asked"] is None
            assert (0, seq) in room.session.passed and all(a.player != 0 for a in room.state.actions[seq:])


def test_the_clock_lets_a_persons_chance_out_of_turn_pass(sqlite_db: Db) -> None:
    """A person who does not answer a claim in time lets it pass: the clock claims nothing for anyone."""
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "bot", "level": "random"},
                                         {"kind": "bot", "level": "random"}], seed=MUMMUS_CLAIM["seed"],
                      options=MUMMUS_CLAIM["options"], clock=2)
        room = room_of(client, made["table"])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = asked_to_claim(ws, hello(ws, made["seats"][0]["token"]), make_bot("random", "mummus"), Rng(3))
            seq = state["seq"]
            assert state["clock"] is not None and state["clock"]["seat"] == 0
            later = next_state(ws)  # within the clock's 2 seconds and the receive timeout
            assert (0, seq) in room.session.passed
            assert later["asked"] is None or later["seq"] > seq
            assert all(a.player != 0 for a in room.state.actions[seq:]), "the clock acted for the person out of turn"


def test_a_finished_tables_record_is_given_and_an_unfinished_ones_is_not(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        assert client.get("/api/tables/nothing/record").json()["error"]["rule"] == "TABLE"
        made = create(client, "conveyor", [{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=2,
                      options={"target": 0})
        answer = client.get(f"/api/tables/{made['table']}/record")
        assert answer.status_code == 409 and answer.json()["error"]["rule"] == "NOT-OVER"
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            me, rng = make_bot("random", "conveyor"), Rng(4)
            while state["status"] != "over":
                if state["asked"] is not None:
                    ws.send_json({"type": "act", "action": me.choose(state["view"], rng).to_json(), "seq": state["seq"]})
                state = next_state(ws)
        answer = client.get(f"/api/tables/{made['table']}/record")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
        room = room_of(client, made["table"])
    record = parse_record(answer.text)
    assert (record.game, record.seed, record.players) == ("conveyor", 2, ["player 1", "bot 2"])
    assert record.seats is not None and [s.bot for s in record.seats] == [None, "random"]
    assert read_record(answer.text).snapshot() == room.state.snapshot()
    assert answer.text == room.session.record_text()


def test_a_table_restored_while_a_person_is_asked_out_of_turn_asks_again(sqlite_db: Db) -> None:
    """What a seat let pass is not stored: after a restart the person is asked about the same chance again."""
    with TestClient(sqlite_db.app()) as client:
        made = create(client, "mummus", [{"kind": "person"}, {"kind": "bot", "level": "random"},
                                         {"kind": "bot", "level": "random"}], seed=MUMMUS_CLAIM["seed"],
                      options=MUMMUS_CLAIM["options"])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            asked = asked_to_claim(ws, hello(ws, made["seats"][0]["token"]), make_bot("random", "mummus"), Rng(3))
    with TestClient(sqlite_db.app()) as client:
        room = room_of(client, made["table"])
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            state = hello(ws, made["seats"][0]["token"])
            while state["asked"] is None:  # the bots' chances before the person's are put to them again first
                state = next_state(ws)
            assert (state["seq"], state["asked"], state["view"]) == (asked["seq"], {"claim": True}, asked["view"])
            assert no_frame_within(ws, 0.5) and room.seq == asked["seq"]
            ws.send_json({"type": "pass", "seq": state["seq"]})
            later = next_state(ws)
            assert later["seq"] > state["seq"] or later["asked"] is None
