"""The contract every game keeps: who acts, the view header, derived copies, the driver, the match loop."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, get_type_hints

import pytest
from conftest import Rejecter, changed, state_data

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, games, new_game
from rummykit.engine.core import Action, Event, GameState, Omit, Saved, SavedAs, ViewHeader, clone, plain
from rummykit.engine.driver import claims_open, next_seat, step
from rummykit.engine.match import Match, one_round_options
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.sim import bot_rng

GAME_IDS = [g.id for g in games()]
HEADER_KEYS = set(get_type_hints(ViewHeader))


def _play(game_id: str, players: int, seed: int, actions: int) -> GameState:
    state = new_game(game_id, players=players, seed=seed)
    bots = [make_bot("random", game_id) for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    for _ in range(actions):
        if state.outcome is not None:
            break
        step(state, bots, rngs)
    return state


def _mutables(value: Any, seen: dict[int, Any], path: str) -> list[tuple[int, str]]:
    """The ids of every mutable container reachable from ``value`` (lists, dicts, sets, objects)."""
    out: list[tuple[int, str]] = []
    if isinstance(value, list | dict | set) or hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        if isinstance(value, str | int | float | bool | tuple | frozenset) or getattr(value, "IMMUTABLE", False):
            return out
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            return out
        if id(value) in seen:
            return out
        seen[id(value)] = value
        out.append((id(value), path))
        items: Any
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list | set):
            items = enumerate(value)
        else:
            slots = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ())]
            items = [(k, getattr(value, k)) for k in slots if hasattr(value, k)]
            items += list(getattr(value, "__dict__", {}).items())
        for k, v in items:
            out.extend(_mutables(v, seen, f"{path}.{k}"))
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_copy_shares_no_mutable_object_with_the_original(game_id: str, seed: int) -> None:
    state = _play(game_id, min(3, find_game(game_id).max_players), seed, 25)
    other = state.copy()
    assert other.snapshot() == state.snapshot()
    mine = dict(_mutables(state.__dict__, {}, "state"))
    theirs = dict(_mutables(other.__dict__, {}, "copy"))
    shared = sorted(mine[i] for i in set(mine) & set(theirs))
    assert shared == [], f"shared with the copy: {shared[:5]}"
    # Playing on in the copy leaves the original as it was.
    before = state_data(state)
    bots = [make_bot("random", game_id) for _ in state.players]
    for _ in range(10):
        if other.outcome is not None:
            break
        step(other, bots, [Rng(9)] * len(bots))
    after = state_data(state)
    assert after == before, f"playing on in the copy changed the original's {changed(before, after)}"


def _states(game_id: str) -> list[GameState]:
    """States of a game at several points of play (the start, early, later, and the most players)."""
    info = find_game(game_id)
    states = [_play(game_id, players, seed, actions) for players in {2, info.max_players}
              for seed in (1, 2) for actions in (0, 7, 40)]
    if game_id == "conveyor":  # the claim window
        states += [_play(game_id, 3, seed, 30) for seed in (1, 2)]
    return states


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_snapshot_declares_every_attribute_of_the_state(game_id: str) -> None:
    """Each attribute is written by the snapshot as declared, or left out with a reason: nothing by chance."""
    states = _states(game_id)
    kind = type(states[0])
    fields = kind.position_fields()
    for state in states:
        undeclared = sorted(set(vars(state)) - set(fields))
        assert not undeclared, (
            f"{kind.__name__} has attributes its SNAPSHOT does not declare: {', '.join(undeclared)}. Declare how the"
            " snapshot writes each (Saved, SavedAs) or why it leaves it out (Omit with the reason). Until then it is"
            " written under its own name as plain data, which changes the fingerprints stored by the server"
            " (docs/online.md) and the golden digests (tests/golden/expected.json): decide it deliberately."
        )
    never = sorted(set(fields) - set(vars(states[0])))
    assert not never, f"{kind.__name__} declares snapshot fields it does not have: {', '.join(never)}"
    keys: dict[str, str] = {}
    for name, how in fields.items():
        if isinstance(how, Omit):
            assert len(how.reason) > 20, f"{kind.__name__}.{name} is left out without a real reason"
        for key in how.keys(name):
            assert key not in keys, f"{kind.__name__}.{name} and .{keys[key]} both write the snapshot key {key!r}"
            keys[key] = name
    for state in states:
        assert set(state.snapshot()) == {"game", *keys}


def test_an_attribute_no_snapshot_declares_is_in_it_all_the_same() -> None:
    state = new_game("rummikub", players=2, seed=5)
    before = state.snapshot()
    state.passes = {1: ["R4"], 0: []}  # type: ignore[attr-defined]  # a new attribute, as a game might add
    assert state.snapshot() == {**before, "passes": {"1": ["R4"], "0": []}}
    state.passes[0].append("K1")  # type: ignore[attr-defined]
    assert state.snapshot()["passes"] == {"1": ["R4"], "0": ["K1"]}
    assert changed(state_data(new_game("rummikub", players=2, seed=5)), state_data(state)) == ["passes"]


def test_plain_writes_values_from_what_they_hold() -> None:
    @dataclasses.dataclass
    class Box:
        items: list[Any]
        up: set[int]

    class Slotted:
        __slots__ = ("a", "b")

        def __init__(self) -> None:
            self.a = Box([(1, None)], {3, 1})
            self.b = {(0, 1): Rng(2).seed}

    assert plain(Slotted()) == {"a": {"items": [[1, None]], "up": [1, 3]}, "b": {"[0, 1]": 2}}
    assert plain(Event("draw", 0, {"n": 1}, {"tile": "R4"})) == {
        "kind": "draw", "player": 0, "data": {"n": 1}, "secret": {"tile": "R4"}
    }
    with pytest.raises(TypeError, match="declare how its snapshot writes it"):
        plain(object())
    saved, spread = Saved("n", len), SavedAs(("x", "y"), lambda v: {"x": v[0], "y": v[1]})
    out: dict[str, Any] = {}
    saved.write("items", [1, 2], out)
    spread.write("pair", (3, 4), out)
    Omit("a cache of the rest, worked out again", cache=True).write("cache", 9, out)
    assert out == {"n": 2, "x": 3, "y": 4}


def _out_of_turn(state: GameState) -> Action:
    """A listed action of the seat to act, made by a seat that may not act now."""
    actor = min(state.to_act)
    other = next(s for s in range(len(state.players)) if s not in state.to_act)
    return dataclasses.replace(state.legal_actions(actor)[0], player=other)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_refused_action_that_changes_any_attribute_is_caught(
    game_id: str, assert_rejected: Rejecter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "changes nothing" check sees every attribute, even one no snapshot declares (issue 22)."""
    state = new_game(game_id, players=2, seed=3)
    action = _out_of_turn(state)
    with pytest.raises(RuleError) as refused:
        state.copy().apply(action)
    rule = refused.value.rule
    assert_rejected(state, action, rule)  # the game itself changes nothing
    state.passes = 0  # type: ignore[attr-defined]  # a new attribute, as a game might add
    apply = type(state).apply

    def leaky(self: GameState, action: Action) -> list[Event]:
        self.passes += 1  # type: ignore[attr-defined]  # changed before the checks: the bug to catch
        return apply(self, action)

    monkeypatch.setattr(type(state), "apply", leaky)
    with pytest.raises(AssertionError, match=f"the rejected action {action} changed passes"):
        assert_rejected(state, action, rule)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refused_actions_change_nothing(game_id: str, seed: int) -> None:
    """Actions listed elsewhere (later in the game, for another seat) are refused here untouched, or legal."""
    players = min(3, find_game(game_id).max_players)
    state = _play(game_id, players, seed, 3 * seed)
    rng = Rng(seed)
    bots = [make_bot("random", game_id) for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    refused = 0
    for _ in range(12):
        if state.outcome is not None:
            break
        ahead = state.copy()
        candidates: list[Action] = []
        for _ in range(4):
            if ahead.outcome is not None:
                break
            for seat in range(players):
                listed = ahead.legal_actions(seat)
                candidates += [rng.choice(listed) for _ in range(min(3, len(listed)))]
                candidates += [dataclasses.replace(a, player=(a.player + 1) % players) for a in listed[:2]]
            step(ahead, bots, rngs)
        for action in candidates:
            if state.outcome is not None:
                break
            before = state_data(state)
            try:
                state.apply(action)  # legal here too: the game moves on
            except RuleError:
                after = state_data(state)
                assert after == before, f"the refused {action} changed {changed(before, after)}"
                refused += 1
        if state.outcome is None:
            step(state, bots, rngs)
    assert refused >= 10


def test_clone_copies_containers_and_shares_immutable_values() -> None:
    rng = Rng(3)
    value: dict[str, Any] = {"a": [1, [2]], "b": (3, 4), "r": rng, "s": {5}}
    copied = clone(value)
    assert copied == {"a": [1, [2]], "b": (3, 4), "r": copied["r"], "s": {5}}
    assert copied["a"] is not value["a"] and copied["a"][1] is not value["a"][1]
    assert copied["b"] is value["b"] and copied["r"] is not rng and copied["s"] is not value["s"]
    with pytest.raises(TypeError, match="copy"):
        clone(object())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_who_acts_and_the_view_header_agree(game_id: str) -> None:
    state = new_game(game_id, players=2, seed=4)
    bots = [make_bot("random", game_id) for _ in state.players]
    rngs = [Rng(1), Rng(2)]
    while state.outcome is None and len(state.actions) < 300:
        assert state.to_act == state.must_act | state.may_act
        assert state.must_act, "a game that is not over waits for someone"
        for seat in (None, *range(len(state.players))):
            view = state.view(seat)
            assert set(view) >= HEADER_KEYS
            assert view["seat"] == seat and view["game"] == game_id
            # a view shows the out-of-turn seats the seat can tell (its own, and those the table shows)
            shown = state.may_act_seen_by(seat)
            assert shown <= state.may_act and (seat is None or (seat in shown) == (seat in state.may_act))
            assert view["to_act"] == sorted(state.must_act | shown) and view["must_act"] == sorted(state.must_act)
            assert view["may_act"] == sorted(shown) and isinstance(view["phase"], str)
            assert view["round"] == state.round_no and view["totals"] == state.totals
        seat = next_seat(state)
        assert seat == state.act_order(state.must_act)[0]
        claimers = claims_open(state)  # offered first: one of them may act instead (a claim out of turn)
        assert seat not in claimers and claimers == state.act_order(state.may_act - state.must_act)
        events = step(state, bots, rngs)
        assert events and state.actions[-1].player in (seat, *claimers)
    if state.outcome is not None:
        assert state.view(None)["phase"] == "over" and not state.to_act


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_indexed_actions_are_the_legal_actions_in_a_stable_order(game_id: str) -> None:
    state = _play(game_id, 2, 7, 12)
    seat = next_seat(state)
    assert seat is not None
    indexed = state.indexed_actions(seat)
    assert sorted(map(str, indexed)) == sorted(map(str, state.legal_actions(seat)))
    assert [a.text() for a in indexed] == sorted(a.text() for a in indexed)
    assert [str(a) for a in state.copy().indexed_actions(seat)] == [str(a) for a in indexed]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_actions_have_a_text_and_a_json_form_read_without_a_state(game_id: str) -> None:
    state = _play(game_id, 2, 3, 8)
    info = state.info
    for seat in state.to_act:
        for action in state.legal_actions(seat):
            data = json.loads(json.dumps(action.to_json()))
            assert data["type"] == action.type and data["player"] == action.player
            assert info.action_from_json(data) == action
            assert info.parse_action(str(action)) == action


def test_the_match_loop_has_one_meaning_of_target_and_the_round_limit() -> None:
    for single in (0, None):
        m = Match(players=2, target=single, max_rounds=5)
        _, match = m.end_round((1,), (-3, 3), "rack-empty")
        assert match is not None and match.reason == "rack-empty" and match.winners == (1,)
    m = Match(players=3, target=100, max_rounds=2, first=2)
    _, match = m.end_round((0,), (10, 0, -10), "blocked")
    assert match is None and m.first == 0 and m.round_no == 2
    _, match = m.end_round((1,), (0, 20, -20), "rack-empty")
    assert match is not None and match.reason == "max-rounds" and match.winners == (1,)
    assert match.totals == (10, 20, -30) and [r.round for r in m.rounds] == [1, 2]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_ends_its_match_through_the_match_loop(game_id: str) -> None:
    # 0 asks for one round where the game's ``none`` means its recommended target (conveyor)
    state = new_game(game_id, players=2, seed=11, **one_round_options(find_game(game_id).options))
    bots = [make_bot("random", game_id) for _ in state.players]
    rngs = [bot_rng(11, s) for s in range(2)]
    while state.outcome is None:
        step(state, bots, rngs)
    assert len(state.rounds) == 1 and state.outcome.reason == state.rounds[0].reason
    kinds = [e.kind for e in state.history]
    assert kinds[-2:] == ["round-end", "match-end"]
