"""Short cuts of the served action: each held to the plain computation it replaces.

- A seat's listing with its kept forms (:class:`~rummykit.server.questions.ListedForms`)
  is :func:`~rummykit.server.questions.listing`'s plain one, key for key and
  in order, at every position of seeded random games of every game, each
  seat asked at every position (out of turn too) or at random ones.
- An action sent back in its listed JSON form is found in the kept listing
  (``ListedForms.action_for``) only when the game reads that form as that
  very action; the record text taken from the listing is ``str(action)``.
- The views of a position made together (``views_of``) are each audience's
  own view, JSON text for JSON text; ``frame_text``'s first try writes what
  the way it stood wrote; ``decode_json``'s short cuts refuse and accept what
  the plain checks do.
- A group commit's rows written by the driver's own statements
  (:mod:`rummykit.server.batchsql`) are the rows SQLAlchemy's statements
  write, column for column (the JSON columns as stored text), on SQLite and
  PostgreSQL; a batch with a table not at the action before is refused by
  both and leaves nothing written.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from sqlalchemy import select, text
from test_server_support import Db, db

from rummykit.catalogue import find_game, games, new_game
from rummykit.engine.core import Action
from rummykit.errors import RuleError
from rummykit.rulesets.rummikub import Play, parse_table
from rummykit.server import protocol
from rummykit.server.integrity import fingerprint
from rummykit.server.outbox import frame_text
from rummykit.server.questions import ListedForms, listing
from rummykit.server.store import (
    ActionRow,
    Store,
    StoreError,
    actions_table,
    chain_next,
    chain_start,
    tables_table,
)

__all__ = ["db"]

GAMES = [info.id for info in games()]


@pytest.mark.parametrize("game", GAMES)
def test_kept_forms_list_what_the_plain_listing_lists(game: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        info = find_game(game)
        players = 3 if seed == 3 and info.max_players >= 3 else 2
        state = new_game(game, players=players, seed=seed)
        kept = [ListedForms(state) for _ in range(players)]
        every = seed % 2 == 0  # every seat at every position, or some seats now and then
        for _ in range(150):
            if state.outcome is not None:
                break
            for seat in range(players):
                if every or rng.random() < 0.4:
                    fast = listing(state, seat, kept[seat])
                    assert fast == listing(state, seat), (game, seed, seat, len(state.actions))
                    assert len(kept[seat].forms) <= len(state.legal_actions(seat)) or not state.legal_actions(seat)
            seat = rng.choice(sorted(state.must_act or state.may_act))
            state.apply(rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("game", GAMES)
def test_an_action_sent_back_as_listed_is_the_one_the_game_reads(game: str) -> None:
    """Every listed JSON form reads back as its action; ``action_for`` finds exactly those, in any key order."""
    for seed in range(3):
        rng = random.Random(seed)
        info = find_game(game)
        state = new_game(game, players=2, seed=seed)
        kept = [ListedForms(state), ListedForms(state)]
        for _ in range(120):
            if state.outcome is not None:
                break
            for seat in (0, 1):
                listed = listing(state, seat, kept[seat])
                for entry in listed["actions"]:
                    data = json.loads(json.dumps(entry["json"]))  # as a client sends it back
                    read = info.action_from_json(data)
                    assert read.text() == entry["text"]
                    found = kept[seat].action_for(data)
                    assert found is not None and found == read and str(found) == str(read), (game, seed, data)
                    assert kept[seat].action_for(dict(reversed(list(data.items())))) is found
                    other = {**data, "player": 1 - seat}
                    assert kept[seat].action_for(other) is None or kept[seat].action_for(other) == info.action_from_json(other)
                    assert kept[seat].action_for({**data, "extra": 1}) is None
            seat = rng.choice(sorted(state.must_act or state.may_act))
            state.apply(rng.choice(state.legal_actions(seat)))


def test_a_form_of_another_json_type_is_not_taken_for_a_listed_one() -> None:
    state = new_game("rummikub", players=2, seed=1)
    kept = ListedForms(state)
    listed = listing(state, min(state.must_act), kept)["actions"]
    draw = listed[0]["json"]
    assert kept.action_for(draw) is not None
    player = draw["player"]
    assert kept.action_for({**draw, "player": float(player)}) is None and kept.action_for({**draw, "player": bool(player)}) is None
    assert kept.action_for({**draw, "player": 2**70}) is None


def test_equal_actions_share_forms_and_only_the_last_listing_is_kept() -> None:
    state = new_game("rummikub", players=2, seed=1)
    kept = ListedForms(state)
    table = parse_table("R1 R2 R3 | K5 B5 O5")
    first = [Play(0, (), table), Play(0, (), table[:1])]
    again = [Play(0, (), tuple(tuple(s) for s in table)), first[1]]  # an equal action, and the same one
    one = kept.listing(list[Action](first))
    two = kept.listing(list[Action](again))
    assert one == two and two["actions"][0] is one["actions"][0] and two["actions"][1] is one["actions"][1]
    assert kept.listing([]) == {"actions": [], "truncated": False} and len(kept.forms) == 2  # out of turn: kept
    kept.listing([first[1]])
    assert list(kept.forms) == [first[1]]


def test_more_than_the_listed_actions_are_sorted_and_cut_as_the_plain_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "MAX_LEGAL", 2)
    state = new_game("rummikub", players=2, seed=3)
    kept = ListedForms(state)
    rng = random.Random(3)
    seen_cut = False
    for _ in range(200):
        if state.outcome is not None:
            break
        seat = min(state.must_act)
        fast = listing(state, seat, kept)
        assert fast == listing(state, seat)
        seen_cut = seen_cut or fast["truncated"]
        state.apply(rng.choice(state.legal_actions(seat)))
    assert seen_cut


def _rows(store: Store, prefix: str) -> list[list[tuple[Any, ...]]]:
    """The rows of the tables named ``prefix...`` (without it): tables, actions (but ``at``), the JSON columns' text."""
    with store.engine.connect() as conn:
        tables = [tuple(r) for r in conn.execute(select(tables_table).order_by(tables_table.c.id))]
        acts = [tuple(r) for r in conn.execute(select(actions_table).order_by(actions_table.c.table_id, actions_table.c.seq))]
        where = f'"{store.schema}".tables' if store.schema else "tables"
        raw = [tuple(r) for r in conn.execute(text(
            f"SELECT id, CAST(spectator_view AS TEXT), CAST(bot_draws AS TEXT) FROM {where} ORDER BY id"))]
    parts = [tables, [a[:3] + a[4:] for a in acts], raw]
    return [[(r[0].removeprefix(prefix), *r[1:]) for r in part if r[0].startswith(prefix)] for part in parts]


def test_the_drivers_statements_write_what_sqlalchemys_write(db: Db) -> None:
    stores = [Store(db.url, schema=db.schema), Store(db.url, schema=db.schema)]
    plain = stores[1]
    try:
        assert stores[0]._batch is not None  # the short cut under test
        plain._batch = None
        info = find_game("rummikub")
        states = {f"t{k}": info.new(players=["a", "b"], seed=k) for k in range(12)}
        prefixes = ["fast-", "plain-"]
        for store, prefix in zip(stores, prefixes, strict=True):
            for table_id, state in states.items():
                store.create_table({
                    "id": prefix + table_id, "game": info.id, "options": dict(state.options), "seed": 1, "seats": [],
                    "clock": None, "status": "playing", "created": 0.0, "seq": 0, "snapshot": fingerprint(state),
                    "spectator_view": state.view(None), "bot_draws": [0, 0], "name": table_id, "host": None,
                })
        chains = {t: chain_start(t) for t in states}
        rng = random.Random(5)
        for round_no in range(40):
            items: list[ActionRow] = []
            for table_id, state in states.items():
                if state.outcome is not None or rng.random() < 0.3:
                    continue
                action = rng.choice(state.legal_actions(min(state.must_act)))
                state.apply(action)
                seq = len(state.actions)
                chains[table_id] = chain_next(chains[table_id], str(action))
                items.append({
                    "table_id": table_id, "seq": seq, "action": str(action), "chain": chains[table_id],
                    "snapshot": fingerprint(state) if seq % 4 == 0 else None, "spectator_view": state.view(None),
                    "status": "over" if state.outcome is not None else "playing", "bot_draws": [round_no, seq],
                })
            for store, prefix in zip(stores, prefixes, strict=True):
                store.record_batch([{**item, "table_id": prefix + item["table_id"]} for item in items])
        stale = [items[0].copy(), items[1].copy()]
        stale[0]["seq"] += 1
        stale[1]["seq"] += 3
        before = [_rows(store, prefix) for store, prefix in zip(stores, prefixes, strict=True)]
        for store, prefix in zip(stores, prefixes, strict=True):
            with pytest.raises(StoreError, match="were not at the action before"):
                store.record_batch([{**item, "table_id": prefix + item["table_id"]} for item in stale])
        assert [_rows(store, prefix) for store, prefix in zip(stores, prefixes, strict=True)] == before  # all or nothing
        fast_rows, plain_rows = before
        assert fast_rows == plain_rows
        assert len(fast_rows[0]) == len(states) and len(fast_rows[1]) > 100
        for table_id, view, draws in fast_rows[2]:  # the JSON columns hold frame_text's text of each value
            assert view == frame_text(json.loads(view)) and draws == frame_text(json.loads(draws))
            assert table_id in states
    finally:
        for store in stores:
            store.close()


TEXTS = [
    '{"type": "act", "action": {"type": "play", "player": 0, "placed": ["R1"], "table": [["R1", "R2", "R3"]]}}',
    '{"a": "\\ud800"}', '{"a": "\\\\ud800"}', '{"a": "\\u00e9\\ud83d\\ude00"}', '{"a": "\\ude00\\ud83d"}',
    '{"a": "\ud800"}', '{"a\ud800": 1}', '{"a": ["[[[[", "\\"]]]]"]}', '[' * 17 + ']' * 17, '[' * 16 + ']' * 16,
    '{"a": "\\"[[[[[[[[[[[[[[[[[[\\""}', '{"a": [' * 9 + '1' + ']}' * 9, '{"a": [' * 8 + '1' + ']}' * 8, '"\\\\"',
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_frame_is_read_as_the_plain_checks_read_it(text: str) -> None:
    """decode_json's short cuts (no walk over the strings without a \\u escape or a surrogate in the text;
    no escapes cut out of a text without a backslash) refuse and accept what the plain checks do."""
    from rummykit.server import edgetext

    def deep(text: str, limit: int = edgetext.MAX_DEPTH) -> bool:  # too_deep with the escapes always cut out
        if text.count("[") + text.count("{") <= limit:
            return False
        if '"' in text:
            text = "".join(re.sub(r"\\.", "", text, flags=re.DOTALL).split('"')[::2])
        brackets = text.encode("utf-8", "surrogatepass").translate(bytes.maketrans(b"{}", b"[]"), bytes(range(256)).translate(None, b"[]{}"))
        if b"[" * (limit + 1) in brackets:
            return True
        for _ in range(limit):
            brackets = brackets.replace(b"[]", b"")
        return b"[]" in brackets or (brackets.startswith(b"[") and len(brackets) > limit)

    def plain(text: str) -> object:
        if deep(text):
            return "deep"
        try:
            data = json.loads(text)
        except ValueError:
            return "not json"
        return data if edgetext._real_text(data) else "surrogate"

    try:
        got: object = edgetext.decode_json(text)
    except edgetext.FrameError as exc:
        got = "deep" if "deep" in str(exc) else "surrogate" if "surrogate" in str(exc) else "not json"
    assert got == plain(text)


@pytest.mark.parametrize("game", GAMES)
def test_views_made_together_are_each_audiences_own_view(game: str) -> None:
    """views_of: each view equals state.view(player), key for key and in order (the JSON text), whatever the game."""
    from rummykit.rulesets.freetable_views import views_of

    for seed in range(3):
        rng = random.Random(seed)
        info = find_game(game)
        players = 3 if seed == 2 and info.max_players >= 3 else 2
        state = new_game(game, players=players, seed=seed)
        audiences: list[int | None] = [None, *range(players)]
        for _ in range(150):
            for chosen in (audiences, rng.sample(audiences, rng.randint(1, len(audiences)))):
                made = views_of(state, chosen)
                assert [frame_text(v) for v in made] == [frame_text(state.view(p)) for p in chosen], (game, seed)
            if state.outcome is not None:
                break
            seat = rng.choice(sorted(state.must_act or state.may_act))
            state.apply(rng.choice(state.legal_actions(seat)))
        with pytest.raises(RuleError):
            views_of(state, [None, players])


@pytest.mark.parametrize("value", [
    {"type": "pong", "id": 1}, {"n": {2: "é"}}, {"big": 2**70, "odd": "\ud800"}, {"a": [1, 2.5, None, True, "ü"]},
    {1: {"x": [{3: 4}]}}, {"s": "\u2028\x00"},
])
def test_frame_text_is_what_orjson_with_any_keys_or_json_writes(value: object) -> None:
    """frame_text tries orjson without OPT_NON_STR_KEYS first: the same text as the way it stood."""
    import orjson

    try:
        plain = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        plain = json.dumps(value, separators=(",", ":"))
    assert frame_text(value) == plain


def test_the_record_text_of_a_listed_action_is_str_of_it() -> None:
    from rummykit.presenters.registry import presenter_for
    from rummykit.presenters.text import Style
    from rummykit.server.telling import Teller
    from rummykit.session import GameSession

    for game in GAMES:
        state = new_game(game, players=2, seed=5)
        teller = Teller(presenter_for(game), Style(color=False, width=0), GameSession(state, [None, None]))
        rng = random.Random(5)
        for seq in range(60):
            if state.outcome is not None:
                break
            for seat in (0, 1):
                teller.legal(seat, seq, "playing")
            seat = rng.choice(sorted(state.must_act or state.may_act))
            action = rng.choice(state.legal_actions(seat))
            assert teller.record_text(action) == str(action)
            state.apply(action)
        narrator = presenter_for(game).narrator(["a", "b"], Style())
        if hasattr(narrator, "fork"):
            twin = narrator.fork()
            assert type(twin) is type(narrator) and vars(twin) == vars(narrator) and (twin is narrator or vars(twin) is not vars(narrator))
