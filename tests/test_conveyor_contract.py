"""``conveyor`` keeps the engine's contract (``rummykit.engine.core``), checked during bot games.

* Both serial forms of every listed legal action read back to the same
  action with no state at hand: ``INFO.action_from_json(a.to_json())`` (also
  through JSON text) and ``INFO.parse_action(str(a))``.
* Every view starts with the common header, and the whole view has the
  types :class:`~rummykit.rulesets.conveyor.ConveyorView` declares.
* ``must_act``, ``may_act`` and ``to_act`` agree, in the state and its views;
  in a claim window every seat but the discarder must answer, and
  ``act_order`` starts at the seat after the discarder, who wins the discard
  when several claim it.
* ``copy()`` (derived from the attributes) shares no mutable object with the
  state, so changing the copy never changes the original.
"""

from __future__ import annotations

import functools
import json
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass
from typing import Any, NotRequired, Required, get_args, get_origin, get_type_hints

import pytest
from conftest import changed, state_data

import rummykit.rulesets.conveyor as cv
from rummykit.bots.registry import make_bot
from rummykit.engine.core import Action, Event, ViewHeader
from rummykit.engine.driver import Agent, next_seat, step
from rummykit.engine.rng import Rng
from rummykit.rulesets.conveyor import INFO, JUMP, OVER, PHASES, Conveyor, ConveyorView, Decline, Jump

# (players, options, bot level): both bot levels, every variant that adds actions (closes,
# jumps with and without a meld), jump-ins with 3 and 4 players.
GAMES: list[tuple[int, dict[str, Any], str]] = [
    (2, {}, "random"),
    (2, {"set": 6, "domino_runs": True, "branch_on_doubles": True}, "greedy"),
    (2, {"set": 6, "domino_runs": True, "no_milling": True}, "random"),
    (3, {"jump_ins": True}, "random"),
    (3, {"jump_ins": True, "jump_in_only_on_completion": True}, "greedy"),
    (4, {"jump_ins": True, "partners": True}, "greedy"),
    (4, {"jump_ins": True, "jump_in_only_on_completion": True, "no_milling": True}, "random"),
]
SEEDS = (1, 2, 3)


def new(players: int, seed: int, **options: Any) -> Conveyor:
    options.setdefault("max_turns", 40)
    state = INFO.new(players=players, seed=seed, target=0, **options)
    assert isinstance(state, Conveyor)
    return state


def play(state: Conveyor, level: str, seed: int) -> Iterator[Conveyor]:
    """Yield the state before every step of a bot game, then once more at its end."""
    agents: list[Agent | None] = [make_bot(level, "conveyor") for _ in state.players]
    rngs = [Rng(seed * 10 + seat) for seat in range(len(state.players))]
    for _ in range(5000):
        yield state
        if state.outcome is not None:
            return
        step(state, agents, rngs)
    raise AssertionError("the game did not end")


# -- a runtime check of the declared view types ---------------------------------------------


Check = Callable[[Any, str], None]


def conforms(value: Any, hint: Any, where: str) -> None:
    """Assert that ``value`` has the type ``hint`` (TypedDicts, lists, dicts, unions, Any)."""
    checker(hint)(value, where)


@functools.cache
def checker(hint: Any) -> Check:
    """A function asserting that a value has the type ``hint`` (built once per type)."""
    origin, args = get_origin(hint), get_args(hint)

    def anything(value: Any, where: str) -> None:
        pass

    def none(value: Any, where: str) -> None:
        assert value is None, f"{where}: {value!r} is not None"

    def whole(value: Any, where: str) -> None:
        assert type(value) is int, f"{where}: {value!r} is not an int"

    def instance(value: Any, where: str) -> None:
        assert isinstance(value, hint), f"{where}: {value!r} is not a {hint}"

    if hint is Any:
        return anything
    if origin in (NotRequired, Required):
        return checker(args[0])
    if hint is type(None):
        return none
    if hint is int:
        return whole
    if origin in (typing.Union, types.UnionType):
        options = [checker(a) for a in args]

        def union(value: Any, where: str) -> None:
            errors = []
            for check in options:
                try:
                    check(value, where)
                    return
                except AssertionError as exc:
                    errors.append(str(exc))
            raise AssertionError(f"{where}: {value!r} is none of {hint}: {errors}")

        return union
    if isinstance(hint, type) and typing.is_typeddict(hint):
        hints = get_type_hints(hint, include_extras=True)
        # (not __required_keys__: with postponed annotations Python 3.11 counts NotRequired keys in it)
        required = {k for k, h in hints.items() if get_origin(h) is not NotRequired}
        keys = {k: checker(h) for k, h in hints.items()}

        def typed(value: Any, where: str) -> None:
            assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
            assert required <= value.keys(), f"{where}: missing {sorted(required - set(value))}"
            assert value.keys() <= keys.keys(), f"{where}: undeclared {sorted(set(value) - set(keys))}"
            for key, item in value.items():
                keys[key](item, f"{where}.{key}")

        return typed
    if origin is list:
        item_hint = args[0]
        each = checker(item_hint)

        def listed(value: Any, where: str) -> None:
            assert isinstance(value, list), f"{where}: {value!r} is not a list"
            if item_hint in (int, str) and all(type(item) is item_hint for item in value):
                return
            for i, item in enumerate(value):
                each(item, f"{where}[{i}]")

        return listed
    if origin is dict or hint is dict:
        key_check, value_check = (checker(args[0]), checker(args[1])) if args else (anything, anything)

        def mapping(value: Any, where: str) -> None:
            assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
            for key, item in value.items():
                key_check(key, f"{where} key")
                value_check(item, f"{where}[{key!r}]")

        return mapping
    return instance


def test_the_type_check_catches_mistakes() -> None:
    view = new(2, 1).view(0)
    conforms(view, ConveyorView, "view")
    for broken in (
        {**view, "turn": "0"},
        {**view, "to_act": [True]},
        {**view, "columns": [{**view["columns"][0], "cells": "??"}]},
        {**view, "extra": 1},
        {k: v for k, v in view.items() if k != "must_act"},
    ):
        with pytest.raises(AssertionError):
            conforms(broken, ConveyorView, "view")


# -- the checks -------------------------------------------------------------------------------


def check_round_trips(state: Conveyor, seen: set[str]) -> None:
    for seat in state.act_order(state.to_act):
        for action in state.legal_actions(seat):
            seen.add(action.type)
            data = action.to_json()
            assert data["type"] == action.type and data["player"] == seat
            assert INFO.action_from_json(data) == action, data
            assert INFO.action_from_json(json.loads(json.dumps(data))) == action, data
            assert INFO.parse_action(str(action)) == action, str(action)
            assert state.parse_action(str(action)) == action


def check_who_acts(state: Conveyor) -> None:
    must, may, to_act = state.must_act, state.may_act, state.to_act
    assert to_act == must | may
    assert may == frozenset(), "conveyor waits for every seat that may act"
    n = len(state.players)
    if state.outcome is not None:
        assert not to_act and state.current_phase() == OVER
        assert next_seat(state) is None
        return
    assert next_seat(state) == state.act_order(must)[0]
    if state.phase == JUMP:
        window = state.window
        assert window is not None
        assert must == frozenset(range(n)) - {window.discarder} - set(window.claims)
        after = (window.discarder + 1) % n
        assert state.priority_seat == after
        assert state.act_order(range(n)) == [(after + k) % n for k in range(n)]
        assert state.act_order(must)[0] == min(must, key=lambda s: (s - after) % n)
    else:
        assert state.window is None
        assert must == {state.current} and state.priority_seat == state.current
    for seat in range(n):
        assert bool(state.legal_actions(seat)) == (seat in to_act), (seat, state.phase)


HEADER_KEYS = list(get_type_hints(ViewHeader))


def check_views(state: Conveyor) -> None:
    header_keys = HEADER_KEYS
    for seat in (None, *range(len(state.players))):
        view = state.view(seat)
        assert list(view)[: len(header_keys)] == header_keys, "the view starts with the common header"
        # every type of the acting seats' and the spectator's views (the other seats' differ only in the hand)
        if seat is None or seat in state.to_act:
            conforms(view, ConveyorView, f"view({seat})")
        else:
            data: dict[str, Any] = dict(view)
            conforms({k: data[k] for k in header_keys}, ViewHeader, f"view({seat}) header")
        assert view["game"] == "conveyor" and view["seat"] == seat
        assert view["phase"] in PHASES and view["phase"] == state.current_phase()
        assert view["must_act"] == sorted(state.must_act) and view["may_act"] == sorted(state.may_act)
        assert view["to_act"] == sorted(set(view["must_act"]) | set(view["may_act"]))
        assert view["turn_number"] == state.turn_number == state.turn_no
        assert view["turn"] == (None if state.outcome is not None else state.current)
        assert ("hand" in view) == (seat is not None)
        window = view["jump_window"]
        assert (window is not None) == (view["phase"] == JUMP)
        if window is not None:
            assert window["waiting"] == view["must_act"]


@pytest.mark.parametrize(("players", "options", "level"), GAMES)
def test_contract_during_bot_games(players: int, options: dict[str, Any], level: str) -> None:
    seen: set[str] = set()
    windows = 0
    for seed in SEEDS:
        for state in play(new(players, seed, **options), level, seed):
            check_who_acts(state)
            check_views(state)
            check_round_trips(state, seen)
            windows += state.phase == JUMP
    expected = {"reveal", "claim", "draw", "discard"}
    if options.get("jump_ins"):
        expected |= {"jump", "decline"}
        assert windows, "no claim window opened"
    if options.get("domino_runs"):
        expected.add("close")
    assert expected <= seen, sorted(expected - seen)
    assert seen <= {a.type for a in INFO.actions}


def test_every_action_type_is_listed_somewhere() -> None:
    # Over the games above, melds, lay-offs and jumps naming a meld all turn up as well.
    seen: set[str] = set()
    jumps_with: list[Action] = []
    for players, options, level in GAMES:
        for state in play(new(players, 1, **options), level, 1):
            for seat in state.to_act:
                for action in state.legal_actions(seat):
                    seen.add(action.type)
                    if isinstance(action, Jump) and action.rest:
                        jumps_with.append(action)
    assert seen == {a.type for a in INFO.actions}
    assert jumps_with
    action = jumps_with[0]
    assert INFO.action_from_json(action.to_json()) == action == INFO.parse_action(str(action))


def test_info_reads_actions_with_no_state() -> None:
    assert INFO.parse_action_text is cv.parse_action_text and INFO.parse_piece is cv.parse_piece
    assert {a.type for a in INFO.actions} == {
        "reveal", "claim", "draw", "meld", "layoff", "discard", "close", "jump", "decline",
    }
    jump = INFO.parse_action("3 jump 5:3 with 3-3 3-4")
    assert jump.to_json() == {"type": "jump", "player": 3, "domino": "3-5", "rest": ["3-3", "3-4"]}
    assert INFO.action_from_json({"type": "close", "player": 1, "discard": None}) == cv.Close(1)
    assert str(INFO.action_from_json({"type": "meld", "player": 0, "dominoes": ["4:3", "3-3", "3-5"]})) == (
        "0 meld 3-4 3-3 3-5"
    )


# -- the claim window ---------------------------------------------------------------------


def open_window(players: int, seed: int, **options: Any) -> Conveyor:
    """A game with ``jump_ins`` played by bots until a claim window opens."""
    state = new(players, seed, jump_ins=True, **options)
    agents: list[Agent | None] = [make_bot("greedy", "conveyor") for _ in range(players)]
    rngs = [Rng(seat) for seat in range(players)]
    while state.phase != JUMP:
        assert state.outcome is None
        step(state, agents, rngs)
    return state


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_in_a_claim_window_the_seat_after_the_discarder_comes_first(players: int, seed: int) -> None:
    state = open_window(players, seed)
    window = state.window
    assert window is not None
    discarder = window.discarder
    order = [(discarder + k) % players for k in range(1, players)]
    assert state.must_act == set(order) and state.may_act == frozenset()
    assert state.act_order(state.must_act) == order
    assert next_seat(state) == order[0]
    view = state.view(order[0])
    assert view["jump_window"] is not None and view["jump_window"]["discarder"] == discarder
    assert view["must_act"] == sorted(order) and view["turn"] == discarder
    # Everybody claims, the farthest seat first: the nearest after the discarder still wins.
    for seat in reversed(order):
        assert state.act_order(state.must_act)[0] == order[0]
        state.apply(Jump(seat, window.domino))
    resolved = [e for e in state.history if e.kind == "jump-resolved"][-1]
    assert resolved.data["claimers"] == order and resolved.data["winner"] == order[0]
    assert state.current == order[0] and state.must_act == {order[0]}


def test_a_decline_leaves_the_discard_to_the_next_claimer() -> None:
    state = open_window(4, 5)
    window = state.window
    assert window is not None
    first, second, third = ((window.discarder + k) % 4 for k in (1, 2, 3))
    state.apply(Jump(third, window.domino))
    state.apply(Decline(first))
    assert state.act_order(state.must_act) == [second]
    state.apply(Jump(second, window.domino))
    assert state.current == second and state.phase == "play"


# -- copies ---------------------------------------------------------------------------------

ATOMS = (int, float, bool, str, bytes, type(None), types.FunctionType, types.BuiltinFunctionType, type)


def mutable_objects(root: Any) -> dict[int, str]:
    """Every mutable object reachable from ``root`` (by id), with a path to it.

    Lists, dicts, sets and objects that are not frozen are mutable; tuples,
    frozensets and frozen dataclasses are walked through. Pieces (their class
    says ``IMMUTABLE``) are values. History events are the engine's frozen
    records: a copy shares them by design (``engine.core.clone``), so they
    are not walked.
    """
    found: dict[int, str] = {}
    seen: set[int] = set()
    todo: list[tuple[Any, str]] = [(root, "state")]
    while todo:
        obj, path = todo.pop()
        kind = type(obj)
        if isinstance(obj, ATOMS) or getattr(kind, "IMMUTABLE", False) or isinstance(obj, Event):
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        frozen = is_dataclass(obj) and kind.__dataclass_params__.frozen
        if not (isinstance(obj, tuple | frozenset) or frozen):
            found[id(obj)] = f"{path} ({kind.__name__})"
        if isinstance(obj, dict):
            todo.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
            todo.extend((k, f"{path} key {k!r}") for k in obj)
        elif isinstance(obj, list | tuple | set | frozenset):
            todo.extend((v, f"{path}[{i}]") for i, v in enumerate(obj))
        else:
            names = [f.name for f in fields(obj)] if is_dataclass(obj) else []
            names += list(getattr(obj, "__dict__", {}))
            for cls in kind.__mro__:
                slots = cls.__dict__.get("__slots__", ())
                names += [slots] if isinstance(slots, str) else list(slots)
            for name in dict.fromkeys(names):
                if name != "__weakref__" and hasattr(obj, name):
                    todo.append((getattr(obj, name), f"{path}.{name}"))
    return found


def played_states() -> Iterator[Conveyor]:
    """States after random bot play: in every phase, claim windows included."""
    for players, options, level in GAMES:
        for i, state in enumerate(play(new(players, 7, **options), level, 7)):
            if i % 11 == 3 or (state.phase == JUMP and i % 3 == 0) or state.outcome is not None:
                yield state


def test_the_walk_finds_shared_objects() -> None:
    state = new(2, 1)
    other = state.copy()
    other.hands = state.hands
    shared = set(mutable_objects(state)) & set(mutable_objects(other))
    assert id(state.hands) in shared and id(state.hands[0]) in shared


def test_a_copy_shares_no_mutable_object() -> None:
    phases: set[str] = set()
    for state in played_states():
        phases.add(state.current_phase())
        mine = mutable_objects(state)
        copy = state.copy()
        assert copy.snapshot() == state.snapshot()
        theirs = mutable_objects(copy)
        shared = sorted(mine[i] for i in set(mine) & set(theirs))
        assert not shared, f"shared with the copy in phase {state.phase}: {shared}"
    assert phases == set(PHASES)


def test_changing_a_copy_leaves_the_original_alone() -> None:
    for state in played_states():
        before = state_data(state)
        views = [state.view(s) for s in (None, *range(len(state.players)))]
        copy = state.copy()
        for hand in copy.hands:
            hand.reverse()
            hand.append(hand[0] if hand else copy.belt.columns[copy.belt.open_columns()[0]][0])
        for known in copy.known:
            known.clear()
        for c in range(copy.belt.count):
            copy.belt.columns[c].reverse()
            copy.belt.up[c][:] = [not u for u in copy.belt.up[c]]
            copy.belt.claimed_by[c] = 9
            copy.belt.public_cells(c).clear()
        copy.table.reverse()
        copy.table.clear()
        if copy.window is not None:
            copy.window.waiting.clear()
            copy.window.claims[0] = None
        copy.options["max_turns"] = 1
        copy.match.totals[0] += 50
        copy.match.rounds.clear()
        copy.actions.clear()
        copy.history.clear()
        copy.rng.below(100)
        after = state_data(state)
        assert after == before, f"changing the copy changed the original's {changed(before, after)}"
        assert [state.view(s) for s in (None, *range(len(state.players)))] == views


def test_a_copy_plays_on_like_the_original() -> None:
    state = new(4, 11, jump_ins=True)
    agents: list[Agent | None] = [make_bot("random", "conveyor") for _ in range(4)]
    for _ in range(40):
        step(state, agents, [Rng(s) for s in range(4)])
    copy = state.copy()
    for game in (state, copy):
        rngs = [Rng(9 + s) for s in range(4)]
        while game.outcome is None:
            step(game, agents, rngs)
    assert copy.snapshot() == state.snapshot()
