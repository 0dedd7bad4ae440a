"""The published JSON schemas (``docs/schema``) match the code, and real views, events and actions fit them.

* The committed files are exactly what ``tools/gen_schema.py`` writes now; when
  this fails, run ``.venv/bin/python tools/gen_schema.py`` and commit the result.
* Every view of several random bot games of every game, for each seat and for
  the spectator, validates (strictly, no undeclared keys) against the game's
  view TypedDict, and against the common header; every event as each of them
  sees it validates against the event form.
* Every listed action's JSON validates against the game's action schema and
  reads back to the same action with ``info.action_from_json`` (its text with
  ``info.parse_action``); one example of each action type does too.

The validators are the pydantic adapters the generator derives the files from
(``jsonschema`` is not a dependency).
"""

from __future__ import annotations

import doctest
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import ValidationError

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, games
from rummykit.engine.core import Event, GameState
from rummykit.errors import ParseError
from rummykit.sim import run_bots

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "docs" / "schema"
REGENERATE = "run `.venv/bin/python tools/gen_schema.py` and commit docs/schema"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_schema", ROOT / "tools" / "gen_schema.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
GAME_IDS = [info.id for info in games()]


# -- (a) the committed files --------------------------------------------------------------


def test_committed_schemas_are_what_the_generator_writes() -> None:
    wanted: dict[str, dict[str, Any]] = gen.schemas()
    committed = sorted(p.name for p in SCHEMA_DIR.glob("*.json"))
    assert committed == sorted(wanted), f"docs/schema has other files than the generator writes: {REGENERATE}"
    stale = [name for name, schema in wanted.items() if (SCHEMA_DIR / name).read_text("utf-8") != gen.render(schema)]
    assert not stale, f"stale schema files {stale}: {REGENERATE}"


def test_there_is_a_view_and_an_action_schema_per_game() -> None:
    names = set(gen.schemas())
    assert {"view-header.json", "event.json"} <= names
    for game_id in GAME_IDS:
        assert {f"{game_id}-view.json", f"{game_id}-actions.json"} <= names
    header = json.loads((SCHEMA_DIR / "view-header.json").read_text("utf-8"))
    assert {"must_act", "may_act", "to_act", "turn", "outcome"} <= set(header["required"])


# -- (b) views and events of real games ---------------------------------------------------

PLAYED = [
    ("rummikub", 2, {}, ("random",)),
    ("rummikub", 4, {"target": 150, "max_rounds": 2}, ("random",)),
    ("domino-rummikub", 2, {"target": 50, "max_rounds": 2}, ("random",)),
    ("domino-rummikub", 3, {"target": None}, ("greedy", "random")),
    ("conveyor", 2, {"set": 6, "target": 25}, ("random",)),
    ("conveyor", 3, {"jump_ins": True, "target": 0}, ("random",)),
    ("conveyor", 3, {"jump_ins": True, "jump_in_only_on_completion": True, "target": 0, "set": 6}, ("greedy", "random")),
    ("conveyor", 4, {"partners": True, "target": 0}, ("random",)),
    ("conveyor", 2, {"domino_runs": True, "target": 0, "set": 6}, ("greedy", "random")),
    ("two-tray", 2, {}, ("random",)),
    ("two-tray", 2, {"target": 100, "max_rounds": 2, "jokers": 4}, ("greedy", "random")),
    ("mummus", 2, {"target": 150, "max_rounds": 2}, ("greedy", "random")),
    ("mummus", 4, {"target": 0}, ("random", "greedy")),
]


def _new(game_id: str, players: int, seed: int, options: dict[str, Any]) -> GameState:
    return find_game(game_id).new(players=players, seed=seed, **options)


def _check_views(state: GameState) -> None:
    view_adapter = gen.view_adapter(state.game_id)
    header_adapter = gen.header_adapter()
    for seat in (None, *range(len(state.players))):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "a view is plain JSON data"
        view_adapter.validate_python(view, strict=True)
        header_adapter.validate_python(view, strict=True)


def _check_events(state: GameState, events: list[Event]) -> None:
    adapter = gen.event_adapter()
    for event in events:
        for seat in (None, *range(len(state.players))):
            seen = event.seen_by(seat)
            assert json.loads(json.dumps(seen)) == seen
            adapter.validate_python(seen, strict=True)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("game_id", "players", "options", "levels"), PLAYED)
def test_every_view_and_event_of_a_bot_game_validates(
    game_id: str, players: int, options: dict[str, Any], levels: tuple[str, ...], seed: int
) -> None:
    state = _new(game_id, players, seed, options)
    _check_views(state)
    _check_events(state, state.history)

    def check(state: GameState, events: list[Event]) -> None:
        _check_views(state)
        _check_events(state, events)

    bots = [make_bot(levels[i % len(levels)], game_id) for i in range(players)]
    run_bots(state, bots, on_event=check)
    assert state.outcome is not None and state.view(None)["outcome"] is not None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_view_with_a_wrong_or_undeclared_key_is_refused(game_id: str) -> None:
    adapter = gen.view_adapter(game_id)
    view = _new(game_id, 2, 1, {}).view(0)
    adapter.validate_python(view, strict=True)
    with pytest.raises(ValidationError):
        adapter.validate_python({**view, "secret_pool": []}, strict=True)
    with pytest.raises(ValidationError):
        adapter.validate_python({**view, "round": "1"}, strict=True)
    missing = dict(view)
    del missing["must_act"]
    with pytest.raises(ValidationError):
        adapter.validate_python(missing, strict=True)
    with pytest.raises(ValidationError):
        gen.header_adapter().validate_python({**view, "seat": True}, strict=True)


# -- (c) actions --------------------------------------------------------------------------

EXAMPLES = {
    "rummikub": ["0 draw", "1 pass", "1 play R4 : R1 R2 R3 R4", "0 fail R4 : R4 R5"],
    "domino-rummikub": ["0 draw", "1 pass", "2 play 3-5 4-5 5-5 : 1-2 1-3 1-4 | 3-5 4-5 5-5", "0 fail 1-5 : 1-5 2-6"],
    "conveyor": [
        "0 reveal 3 5",
        "1 claim 3",
        "0 draw 2 top",
        "0 meld 3-4 4-4 4-5",
        "0 layoff 1 4-6 high",
        "0 discard 2-5",
        "0 close 2-5",
        "0 close",
        "2 jump 3-5",
        "2 jump 3-5 with 3-3 3-4",
        "1 decline",
    ],
    "two-tray": [
        "0 draw A",
        "1 pass",
        "1 play B 0,0=R5 0,1=R6 0,2=R7",
        "1 play B 0,3=R10 2,3=. 4,0=R11 4,1=R12 4,2=R13 down 6,0=R10 6,1=R11 6,2=R12",
        "0 fail A 0,0=R5 1,0=.",
        "1 call 2,0 O3",
        "0 end",
    ],
    "mummus": [
        "0 draw",
        "0 take 8H",
        "0 meld 8H 9H 10H",
        "2 addon JH 10H to 9H",
        "1 rummy 7C 7D 7S",
        "1 rummy 7H to 9H",
        "0 discard 2D",
    ],
}


def _check_action_json(game_id: str, data: dict[str, Any]) -> None:
    gen.action_adapter(game_id).validate_python(data, strict=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_one_example_of_every_action_type_fits_the_schema_and_reads_back(game_id: str) -> None:
    info = find_game(game_id)
    assert info.actions, f"{game_id}: INFO.actions lists no action classes"
    seen: set[str] = set()
    for text in EXAMPLES[game_id]:
        action = info.parse_action(text)
        assert str(action) == text
        data = json.loads(json.dumps(action.to_json()))
        _check_action_json(game_id, data)
        assert info.action_from_json(data) == action
        seen.add(action.type)
    assert seen == {cls.type for cls in info.actions}, "give every action type an example"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_malformed_action_json_is_refused_by_the_schema(game_id: str) -> None:
    info = find_game(game_id)
    data = info.parse_action(EXAMPLES[game_id][-1]).to_json()
    _check_action_json(game_id, data)
    for bad in (
        {**data, "type": "teleport"},
        {**data, "player": -1},
        {**data, "player": "0"},
        {**data, "extra": 1},
        {k: v for k, v in data.items() if k != "type"},
    ):
        with pytest.raises(ValidationError):
            _check_action_json(game_id, bad)
    with pytest.raises(ParseError):
        info.action_from_json({**data, "type": "teleport"})


@pytest.mark.parametrize(("game_id", "players", "options", "levels"), PLAYED)
def test_every_listed_action_fits_the_schema_and_reads_back(
    game_id: str, players: int, options: dict[str, Any], levels: tuple[str, ...]
) -> None:
    info = find_game(game_id)
    state = _new(game_id, players, 3, options)
    types: set[str] = set()

    def check(state: GameState, events: list[Event] | None = None) -> None:
        for seat in sorted(state.to_act):
            for action in state.indexed_actions(seat):
                data = json.loads(json.dumps(action.to_json()))
                _check_action_json(game_id, data)
                assert info.action_from_json(data) == action
                assert info.parse_action(str(action)) == action
                types.add(action.type)

    check(state)
    bots = [make_bot(levels[i % len(levels)], game_id) for i in range(players)]
    run_bots(state, bots, on_event=check)
    assert len(types) >= 2


# -- the contract page ----------------------------------------------------------------------


def test_the_contract_page_examples_run() -> None:
    """docs/contract.md is doctested like the other pages (see tests/test_docs.py)."""
    from test_docs import doctest_source

    path = ROOT / "docs" / "contract.md"
    source = doctest_source(path.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(source, {"__name__": "__docs__"}, "docs/contract.md", str(path), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_the_contract_page_links_every_schema_file() -> None:
    text = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    for name in gen.schemas():
        assert f"(schema/{name})" in text, f"docs/contract.md should link schema/{name}"
