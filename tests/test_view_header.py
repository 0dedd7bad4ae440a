"""The header every view starts with, in every game: the pieces each seat holds, the stock, the last move.

* ``piece_counts`` and ``stock_count`` agree with the state and with the
  game's own keys, for every seat and the spectator, after every action of
  random bot games (conveyor with jump-ins, so sealed answers come up).
* ``last_move`` names the seat that acted; its events are that action's
  events as the viewer sees them; its text is the action's own for the
  seat that acted, and to any other viewer names no piece that the rest of
  its view does not show (a drawn piece, a failed turn's pieces still held,
  a sealed jump-in answer).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from test_conveyor_rules import four_player
from test_rummikub_rules import down_position, fail

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, games, new_game
from rummykit.engine.core import Event, GameInfo, GameState, LastMove
from rummykit.engine.driver import step
from rummykit.rulesets.freetable import Play
from rummykit.rulesets.two_tray import from_position as two_tray_position
from rummykit.sim import bot_rng

GAME_IDS = [info.id for info in games()]
OPTIONS: dict[str, dict[str, object]] = {"conveyor": {"jump_ins": True}}
"""Options that make the hidden parts come up in a few random games."""

HIDDEN_KEYS = {"rack", "hand", "trays"}
"""A seat's own pieces in its view (the key differs by game; the header's piece_counts do not)."""

_TOKENS = re.compile(r"[^\s,=:|\[\]]+")


def words(data: object) -> Iterator[str]:
    """Every word of every string in JSON-like data (split at spaces and the notation's separators)."""
    if isinstance(data, str):
        yield from _TOKENS.findall(data)
    elif isinstance(data, Mapping):
        for key, value in data.items():
            yield from words(key)
            yield from words(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from words(value)


def pieces_in(info: GameInfo, data: object) -> set[str]:
    """The pieces (in their normal notation) that any word of ``data`` reads as."""
    out: set[str] = set()
    for word in words(data):
        try:
            out.add(str(info.parse_piece(word)))
        except ValueError:
            continue
    return out


def leaked(info: GameInfo, view: Mapping[str, Any]) -> set[str]:
    """The pieces the last move's text names that nothing else in the view shows (its events included)."""
    last = view["last_move"]
    if last is None:
        return set()
    rest = {**view, "last_move": {**last, "text": ""}}
    return pieces_in(info, last["text"]) - pieces_in(info, rest)


def check_header(state: GameState, events: list[Event]) -> None:
    info = state.info
    counts = state.piece_counts()
    action = state.actions[-1] if state.actions else None
    for seat in (None, *range(len(state.players))):
        view = state.view(seat)
        assert view["piece_counts"] == counts and len(counts) == len(state.players)
        assert view["stock_count"] == state.stock_count()
        for key in HIDDEN_KEYS & set(view):
            own = view[key]  # type: ignore[literal-required]
            held = sum(map(len, own.values())) if isinstance(own, dict) else len(own)
            assert seat is not None and held == counts[seat], key
        for key in ("rack_sizes", "hand_sizes"):
            if key in view:
                assert view[key] == counts  # type: ignore[literal-required]
        if "tray_sizes" in view:
            assert [sum(t.values()) for t in view["tray_sizes"]] == counts  # type: ignore[typeddict-item]
        for key in ("pool_size", "stock_size"):
            if key in view:
                assert view[key] == view["stock_count"]  # type: ignore[literal-required]
        last = view["last_move"]
        if action is None:
            assert last is None
            continue
        assert last is not None and last["seat"] == action.player
        assert last["events"] == [e.seen_by(seat) for e in events]
        if seat == action.player and not isinstance(action, Play):
            assert last["text"] == action.text()
        elif isinstance(action, Play):  # the pieces it laid; the table it left is the view's
            assert last["text"] == f"play {' '.join(map(str, action.placed)) or '-'}"
        else:
            assert not leaked(info, view), (last["text"], action.text())


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_header_counts_the_pieces_and_hides_what_the_last_move_hid(game_id: str, seed: int) -> None:
    info = find_game(game_id)
    players = min(3, info.max_players)
    state = new_game(game_id, players=players, seed=seed, **OPTIONS.get(game_id, {}))
    bots = [make_bot("random", game_id) for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    check_header(state, [])
    kinds: set[str] = set()
    while state.outcome is None and len(state.actions) < 400:
        events = step(state, bots, rngs)
        kinds.add(state.actions[-1].type)
        check_header(state, events)
    assert "draw" in kinds  # every game has a draw whose piece only the drawer learns


def test_the_check_finds_a_piece_the_last_move_names_and_nothing_else_shows() -> None:
    """The check above can fail: a text naming a tile of another rack is caught."""
    state = new_game("rummikub", players=2, seed=3)
    seat = min(state.to_act)
    state.apply(state.parse_action(f"{seat} draw"))
    view = state.view(1 - seat)
    last = view["last_move"]
    assert last is not None and last["text"] == "draw" and not leaked(state.info, view)
    drawn = str(state.racks[seat][-1])
    if drawn in pieces_in(state.info, {**view, "last_move": None}):
        pytest.fail("the seed's drawn tile is also on the table or the viewer's rack: choose another seed")
    leaky: LastMove = {**last, "text": f"draw {drawn}"}
    assert leaked(state.info, {**view, "last_move": leaky}) == {drawn}


def _others(state: GameState, actor: int) -> list[int | None]:
    return [None, *(s for s in range(len(state.players)) if s != actor)]


def test_a_failed_turn_reads_fail_to_the_others_its_pieces_unseen() -> None:
    state = down_position("R1 R2 R3 R4 R5 | K7 B7 O7", "R9 K9", pool="O2 B12 K1 R13 O13")
    bad = fail(0, "R9", "R1 R2 R3 | R4 R5 R9 | K7 B7 O7")
    state.apply(bad)
    mine = state.view(0)["last_move"]
    assert mine is not None and mine["text"] == bad.text() and "R9" in mine["text"]
    for seat in _others(state, 0):
        view = state.view(seat)
        last = view["last_move"]
        assert last is not None and last["seat"] == 0 and last["text"] == "fail"
        assert "R9" not in str(last) and not leaked(state.info, view)


def test_a_two_tray_penalty_reads_fail_to_the_others() -> None:
    state = two_tray_position(
        "grid: 0,0: R1 R2 R3; trays: A[R4 K2] B[R5 K3] / A[O1] B[B1]; pool: O13 B13 K13 R12; turn: 0;"
        " next: A A; down: 11"
    )
    state.apply(state.parse_action("0 fail A 0,3=R4 0,4=R5"))
    mine = state.view(0)["last_move"]
    assert mine is not None and mine["text"] == "fail A 0,3=R4 0,4=R5"
    for seat in _others(state, 0):
        last = state.view(seat)["last_move"]
        assert last is not None and last["text"] == "fail" and "R5" not in str(last)


def test_a_jump_in_answer_stays_sealed_in_the_last_move() -> None:
    """Conveyor with jump-ins: the others read ``answer`` for a jump and for a decline alike."""
    state = four_player(jump_ins=True)
    for line in ("0 draw 4 top", "0 discard 6-6"):
        state.apply(state.parse_action(line))
    for line in ("3 jump 6-6", "1 decline", "2 jump 6-6"):  # the last answer closes the window
        action = state.parse_action(line)
        state.apply(action)
        own = state.view(action.player)["last_move"]
        assert own is not None and own["text"] == action.text()
        for seat in _others(state, action.player):
            view = state.view(seat)
            last = view["last_move"]
            assert last is not None and last["seat"] == action.player and last["text"] == "answer"
            assert all("claim" not in event for event in last["events"]) and not leaked(state.info, view)
    assert state.view(None)["turn"] == 2  # the window was resolved: seat 2 won the discard
