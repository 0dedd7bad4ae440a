"""No frame to a seat holds a piece hidden from it: every frame of many games of all five games.

Each game runs on the real server (uvicorn on a free port) with every seat
played by a protocol client (a bot choosing from the views it receives, see
``rummykit.server.client``) and a spectator. Afterwards the game's record is
replayed, and for every frame a seat (or the spectator) received at ``seq`` n:

* its view is exactly the engine's ``view(seat)`` after n actions;
* it holds no *hidden piece*: a piece text that another seat holds privately
  after n actions (in that seat's view and not in the spectator's) and that
  this seat has not seen, neither in its own view nor in any event it was
  shown up to then. Every string of the frame is looked at, and every word of
  its log lines.

A frame built from another seat's view is caught by the same check
(:func:`test_the_check_catches_a_leak`), so the test can fail.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from conftest import as_game
from test_server_support import Db, serving, sqlite_db

from rummykit.catalogue import find_game
from rummykit.engine.commands import command_table
from rummykit.engine.core import GameInfo, GameState
from rummykit.rulesets.mummus import Mummus
from rummykit.server import protocol as p
from rummykit.server.client import SeatRun, play_seat

__all__ = ["sqlite_db"]

GAMES = [
    ("rummikub", 2, {"max_rounds": 1}),
    ("rummikub", 3, {"max_rounds": 1}),
    ("domino-rummikub", 2, {"target": 50, "max_rounds": 2}),
    ("domino-rummikub", 3, {"max_rounds": 1}),
    ("conveyor", 2, {"set": 6, "target": 25}),
    ("conveyor", 3, {"jump_ins": True, "target": 0}),
    ("two-tray", 2, {}),
    ("two-tray", 2, {"max_rounds": 2}),
    ("mummus", 2, {}),
    ("mummus", 4, {}),
]

WORD = re.compile(r"[^\s,;()\[\]{}|'\"]+")


def piece_texts(data: Any, info: GameInfo) -> set[str]:
    """Every string in ``data`` (recursively) that is a piece in its canonical notation."""
    out: set[str] = set()

    def visit(x: Any) -> None:
        if isinstance(x, str):
            for word in WORD.findall(x):
                word = word.rstrip(".:!?")
                try:
                    if str(info.parse_piece(word)) == word:
                        out.add(word)
                except Exception:
                    continue
        elif isinstance(x, dict):
            for v in x.values():
                visit(v)
        elif isinstance(x, list | tuple):
            for v in x:
                visit(v)

    visit(data)
    return out


@dataclass
class Moment:
    """The engine after n actions: each audience's view and the pieces it may name."""

    views: dict[int | None, Any] = field(default_factory=dict)
    hidden: dict[int | None, set[str]] = field(default_factory=dict)


def moments(info: GameInfo, state: GameState) -> list[Moment]:
    """Replay ``state``'s record; for every n, the views and each audience's hidden pieces."""
    replay = info.new(players=list(state.players), seed=state.seed, **dict(state.options))
    audiences: list[int | None] = [None, *range(len(state.players))]
    seen: dict[int | None, set[str]] = {a: set() for a in audiences}
    told = 0
    out: list[Moment] = []
    for n in range(len(state.actions) + 1):
        if n:
            replay.apply(state.actions[n - 1])
        for event in replay.history[told:]:
            for a in audiences:
                seen[a] |= piece_texts(event.seen_by(a), info)
        told = len(replay.history)
        moment = Moment()
        for a in audiences:
            moment.views[a] = json.loads(json.dumps(replay.view(a)))
        public = piece_texts(moment.views[None], info)
        private = {s: piece_texts(moment.views[s], info) - public for s in range(len(state.players))}
        for a in audiences:
            mine = piece_texts(moment.views[a], info) | seen[a]
            others = set().union(*(private[s] for s in private if s != a))
            moment.hidden[a] = others - mine
        out.append(moment)
    return out


def from_view(view: Mapping[str, object], audience: int | None, info: GameInfo) -> dict[str, Any] | None:
    """The listed actions a seat's state frame should carry, worked out from that seat's view only."""
    if audience is None:
        return None
    assert info.view_actions is not None
    actions = sorted(info.view_actions(view), key=lambda a: a.text())
    table = command_table(info.actions)
    return {
        "actions": [{"json": a.to_json(), "text": a.text(), "typed": table.typed_text(a), "said": table.said_text(a)}
                    for a in actions[: p.MAX_LEGAL]],
        "truncated": len(actions) > p.MAX_LEGAL,
    }


def leaks(frame: Mapping[str, object], audience: int | None, moment: Moment, info: GameInfo) -> set[str]:
    """The hidden pieces a frame names."""
    return piece_texts(frame, info) & moment.hidden[audience]


async def _play(base: str, game: str, players: int, options: dict[str, Any], seed: int) -> tuple[str, list[SeatRun]]:
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        answer = await http.post(
            "/api/tables",
            json={"game": game, "seats": [{"kind": "person"}] * players, "seed": seed, "options": options},
        )
        made = answer.json()
    url = f"ws://{base}/ws/{made['table']}"
    tokens = [s["token"] for s in made["seats"]]
    seats = [
        play_seat(url, token, game=game, level="random", seed=seed * 10 + i, timeout=60)
        for i, token in enumerate(tokens)
    ]
    runs = await asyncio.wait_for(asyncio.gather(*seats, play_seat(url, None, game=game, timeout=60)), 600)
    return made["table"], list(runs)


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_no_frame_holds_another_seats_hidden_pieces(
    sqlite_db: Db, game: str, players: int, options: dict[str, Any]
) -> None:
    info = find_game(game)
    app = sqlite_db.app(flood_rate=1000)
    with serving(app) as base:
        table, runs = asyncio.run(_play(base, game, players, options, seed=players + len(options)))
        state = app.state.hall.rooms[table].state
    assert state.outcome is not None
    timeline = moments(info, state)
    audiences: list[int | None] = [*range(players), None]
    assert all(any(m.hidden[a] for m in timeline) for a in audiences), "pieces were hidden from every audience"
    checked = 0
    for audience, run in zip(audiences, runs, strict=True):
        last = run.frames[-1] if run.frames else None
        assert last is not None and last["type"] == "state" and last["status"] == "over"
        # A frame other than state (welcome, round, error...) is judged at the seq of the next state frame.
        at: list[int] = []
        upcoming = last["seq"]
        for frame in reversed(run.frames):
            if frame["type"] == "state":
                upcoming = frame["seq"]
            at.append(upcoming)
        at.reverse()
        for frame, seq in zip(run.frames, at, strict=True):
            p.server_frame(frame)
            if frame["type"] == "error":
                # A claim that lost a race is refused; it names nobody's pieces either.
                assert frame["rule"] != "PROTOCOL", frame
            if frame["type"] == "state":
                assert frame["view"] == timeline[seq].views[audience], f"seat {audience}, seq {seq}"
                # The seat's listed actions are worked out from its own view alone (as view_actions does), so they
                # can hold nothing hidden from it, though a call may name any piece the grid allows.
                # (None are listed while the table waits for its players: nobody may act yet.)
                listed = from_view(frame["view"], audience, info) if frame["status"] != "waiting" else (
                    None if audience is None else {"actions": [], "truncated": False})
                assert frame["legal"] == listed, f"seat {audience}, seq {seq}"
            sent: Mapping[str, object] = {k: v for k, v in frame.items() if k != "legal"}
            if frame["type"] == "welcome":
                # the table's wild pieces are a fact of the game (its rules name them), not where any piece is
                assert frame["table"]["jokers"] == list(info.wild_pieces)
                sent = {**sent, "table": {k: v for k, v in frame["table"].items() if k != "jokers"}}
            found = leaks(sent, audience, timeline[seq], info)
            assert not found, f"seat {audience} was sent {sorted(found)} at seq {seq}: {json.dumps(sent)[:300]}"
            checked += 1
    assert checked > 20


def test_the_check_catches_a_leak() -> None:
    """Another seat's view, sent to seat 0, is found out."""
    info = find_game("mummus")
    state = info.new(players=2, seed=3)
    timeline = moments(info, state)
    frame = {"type": "state", "seq": 0, "view": state.view(1), "log": []}
    assert leaks(frame, 0, timeline[0], info)
    assert leaks({"type": "state", "seq": 0, "view": state.view(0), "log": []}, 0, timeline[0], info) == set()
    hand = as_game(state, Mummus).view(1)["hand"]
    assert leaks({"type": "hint", "lines": [f"play {hand[0]} now."]}, 0, timeline[0], info) == {hand[0]} - set(
        as_game(state, Mummus).view(0)["hand"]
    )
