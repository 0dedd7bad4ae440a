"""Properties of whole two-tray games played by the random and greedy bots.

Hypothesis chooses the seed, the bots and the options; each example plays one
game (a single round unless stated) and checks an invariant after every
action: the 106 tiles are conserved, no view and no event shows a seat what
it may not know, a record replays to the identical state, listed actions are
legal, and copies are independent.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from conftest import changed, state_data
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import new_game
from rummykit.blocks.grid import Put
from rummykit.bots.base import make_bot
from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.driver import Agent
from rummykit.engine.rng import Rng
from rummykit.errors import ParseError, RuleError
from rummykit.pieces.tiles import Tile
from rummykit.records import read_record, write_record
from rummykit.rulesets.tilerummy import full_set
from rummykit.rulesets.two_tray import (
    GRID,
    Fail,
    Play,
    Situation,
    TwoTray,
    actions_from_view,
    free_row,
    grid_from_view,
    listable_actions,
)
from rummykit.sim import run_bots

# Whole games are slow: a fifth of the profile's examples.
GAMES = settings(max_examples=max(6, settings().max_examples // 5))

seeds = st.integers(min_value=0, max_value=2**32)
levels = st.sampled_from([("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("clumsy", "greedy")])
joker_counts = st.integers(min_value=0, max_value=4)


class Clumsy:
    """The random bot, except that now and then it commits a wrong turn knowingly (``fail``): a tile of
    its other tray (the wrong-tray penalty) or a tile alone on the grid (the invalid-table penalty)."""

    level = "clumsy"

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        actions = actions_from_view(view)
        plays = [a for a in actions if isinstance(a, Play)]
        if not plays or rng.below(4):
            return rng.choice(actions)
        play = rng.choice(plays)
        trays = view["trays"]
        others = [t for name, tiles in trays.items() if name != play.tray for t in tiles]
        box = grid_from_view(view).bounds()
        far = (0, 0) if box is None else (box[2] + 5, box[1])
        wrong = others and rng.below(2)
        tile = rng.choice(others) if wrong else rng.choice(trays[play.tray])
        return Fail(view["seat"], play.tray, (Put(far[0], far[1], Tile.parse(tile)),))


def bot(level: str) -> Agent:
    return Clumsy() if level == "clumsy" else make_bot(level, "two-tray")


def play(
    seed: int,
    bots: tuple[str, str],
    check: Callable[[TwoTray, list[Event]], None] | None = None,
    **options: Any,
) -> TwoTray:
    state = new_game("two-tray", seed=seed, **options)
    assert isinstance(state, TwoTray)

    def on_event(s: GameState, events: list[Event]) -> None:
        assert isinstance(s, TwoTray)
        if check is not None:
            check(s, events)

    if check is not None:
        check(state, list(state.history))
    run_bots(state, [bot(level) for level in bots], on_event=on_event, max_actions=5_000)
    assert state.outcome is not None
    return state


def tile_words(data: Any) -> Iterator[str]:
    """Every tile named anywhere in plain data, also inside longer texts (``2,3=R5``)."""
    for word in re.findall(r"[A-Za-z0-9]+", json.dumps(data)):
        try:
            Tile.parse(word)
        except ParseError:
            continue
        if word.upper() == word:
            yield word


def every_tile(state: TwoTray) -> Counter[Tile]:
    return Counter(state.pool) + state.trays.counts() + state.grid.counts()


# -- conservation ------------------------------------------------------------------------------


@GAMES
@given(seeds, levels, joker_counts)
def test_every_tile_is_somewhere_exactly_once_after_every_action(seed: int, bots: tuple[str, str], jokers: int) -> None:
    expected = Counter(full_set(jokers))

    def check(s: TwoTray, _events: list[Event]) -> None:
        assert every_tile(s) == expected
        assert GRID.verdict(s.grid).valid, s.grid.text()
        view = s.view(None)
        assert sum(sum(t.values()) for t in view["tray_sizes"]) + view["pool_size"] + len(view["grid"]) == sum(
            expected.values()
        )

    play(seed, bots, check, jokers=jokers)


@GAMES
@given(seeds)
def test_every_tile_is_present_in_each_round_of_a_match(seed: int) -> None:
    rounds: set[int] = set()

    def check(s: TwoTray, _events: list[Event]) -> None:
        assert sum(every_tile(s).values()) == 106
        rounds.add(s.round_no)

    state = play(seed, ("greedy", "random"), check, target=30, max_rounds=3)
    assert len(state.rounds) == len(rounds) >= 1


# -- hidden information --------------------------------------------------------------------------


def check_views(s: TwoTray, rng: Rng) -> None:
    grid_words = Counter(str(t) for t in s.grid.cells.values())
    for seat in (0, 1, None):
        view = s.view(seat)
        assert json.loads(json.dumps(view)) == view
        body = {k: v for k, v in view.items() if k not in ("grid", "trays", "last_move")}
        assert list(tile_words(body)) == [], f"tiles outside the grid, the seat's trays and the last move: {body}"
        # The last move names only tiles its public events show (the grid's, or the trays' for its own seat).
        last = view["last_move"]
        if last is not None and last["seat"] != seat:
            assert set(tile_words(last["text"])) <= set(tile_words(last["events"])), last["text"]
        assert Counter(c["tile"] for c in view["grid"]) == grid_words
        if seat is None:
            assert "trays" not in view
            continue
        assert view["trays"] == s.trays_json(seat)
        # What the seat cannot see may be anything: the view does not change with it.
        other = s.redeal_hidden(seat, rng)
        assert every_tile(other) == every_tile(s)
        assert other.view(seat) == view


@GAMES
@given(seeds, levels, st.integers(min_value=0, max_value=2**16))
def test_a_view_shows_no_tray_but_the_seats_own(seed: int, bots: tuple[str, str], pick: int) -> None:
    rng = Rng(pick)
    play(seed, bots, lambda s, _events: check_views(s, rng))


SECRET_KINDS = {"draw", "trays", "penalty"}


def check_events(s: TwoTray, events: list[Event]) -> None:
    for event in events:
        for viewer in (0, 1, None):
            seen = event.seen_by(viewer)
            assert json.loads(json.dumps(seen)) == seen
            if viewer is not None and viewer == event.player:
                assert all(seen[k] == v for k, v in event.secret.items())
                continue
            assert not set(event.secret) & (set(seen) - {"kind", "player"})
            if event.kind in SECRET_KINDS:
                assert list(tile_words(seen)) == [], (event.kind, seen)
            if event.kind == "play":
                # A play shows only tiles now on the grid.
                assert set(tile_words(seen)) <= {str(t) for t in s.grid.cells.values()}


@GAMES
@given(seeds, levels)
def test_no_event_shows_a_seat_the_other_seats_tiles(seed: int, bots: tuple[str, str]) -> None:
    secrets = 0

    def check(s: TwoTray, events: list[Event]) -> None:
        nonlocal secrets
        check_events(s, events)
        secrets += sum(1 for e in events if e.secret)

    play(seed, bots, check)
    assert secrets >= 2  # at least both seats' trays were dealt in secret


# -- records, copies and the listing ----------------------------------------------------------


@GAMES
@given(seeds, levels, st.sampled_from([None, 40]))
def test_a_bot_game_replays_to_the_identical_state(seed: int, bots: tuple[str, str], target: int | None) -> None:
    state = play(seed, bots, target=target, max_rounds=2)
    text = write_record(state)
    replayed = read_record(text)
    assert replayed.snapshot() == state.snapshot()
    assert write_record(replayed) == text
    assert [e.seen_by(None) for e in replayed.history] == [e.seen_by(None) for e in state.history]
    # The same bots with the same seed play the same game again.
    assert play(seed, bots, target=target, max_rounds=2).snapshot() == state.snapshot()


@GAMES
@given(seeds, st.integers(min_value=0, max_value=2**16))
def test_listed_actions_are_legal_and_copies_are_independent(seed: int, pick: int) -> None:
    rng = Rng(pick)
    tried = 0

    def check(s: TwoTray, _events: list[Event]) -> None:
        nonlocal tried
        if s.outcome is not None or rng.below(3):
            return
        seat = s.current
        listed = s.legal_actions(seat)
        assert listed and s.legal_actions(1 - seat) == []
        assert sorted(map(str, listed)) == sorted(map(str, make_listing(s, seat)))
        before = state_data(s)
        for action in [rng.choice(listed) for _ in range(min(3, len(listed)))]:
            trial = s.copy()
            trial.apply(action)
            assert trial.actions[-1] == action
            tried += 1
        after = state_data(s)
        assert after == before, f"playing on in a copy changed the original's {changed(before, after)}"

    play(seed, ("random", "greedy"), check)
    assert tried >= 1


def make_listing(s: TwoTray, seat: int) -> list[Any]:
    """The listing from the seat's view (what bots get) is the state's listing."""
    return list(s.info.view_actions(s.view(seat))) if s.info.view_actions else []


# -- the turn a player goes down (seed 002: "in the same turn") --------------------------------------


def going_down_and_on(s: TwoTray, rng: Rng) -> tuple[Play, Play] | None:
    """A turn of the seat to move, not down yet, built as the seed tells it: a going-down line the listing
    offers, then up to three plays a player who is down could make from the rest of the same tray.

    Returns the turn as one play naming its going-down line, and the same play without it (None when
    the seat cannot go down now)."""
    seat = s.current
    if s.down[seat] or s.continuing:
        return None
    situation = s.situation(seat)
    row = free_row(s.grid)[0]
    lines = [a for a in listable_actions(situation) if isinstance(a, Play) and all(p.row == row for p in a.changes)]
    if not lines:
        return None
    line = rng.choice(lines)
    tray = line.tray
    grid = s.grid.changed(line.changes, GRID.is_joker)
    rest = Counter(s.trays.rack(seat, tray)) - Counter(p.piece for p in line.changes if p.piece is not None)
    for _ in range(rng.below(4)):
        later = Situation(seat, {tray: list(rest.elements())}, grid, down=True, threshold=s.threshold, playing=tray,
                          pool_size=0)
        plays = [a for a in listable_actions(later) if isinstance(a, Play)]
        if not plays:
            break
        more = rng.choice(plays)
        after = grid.changed(more.changes, GRID.is_joker)
        rest -= Counter(GRID.placed(grid, after))
        grid = after
    changes = s.grid.diff(grid)
    return Play(seat, tray, changes, line.changes), Play(seat, tray, changes)


@GAMES
@given(seeds, st.integers(min_value=0, max_value=2**16))
def test_going_down_and_playing_on_in_the_same_turn_is_one_legal_play(seed: int, pick: int) -> None:
    rng = Rng(pick)
    tried = 0

    def check(s: TwoTray, _events: list[Event]) -> None:
        nonlocal tried
        if s.outcome is not None:
            return
        built = going_down_and_on(s, rng)
        if built is None:
            return
        named, found = built
        trial = s.copy()
        trial.apply(named)  # named going-down lines: always legal
        assert trial.down[named.player]
        tried += 1
        other = s.copy()
        try:
            other.apply(found)  # found in the grid: legal, unless the rest of the turn hid the lines
        except RuleError as refused:
            assert refused.rule in ("TT-OPENING-TABLE", "TT-OPENING-POINTS"), refused
        else:
            assert other.snapshot()["grid"] == trial.snapshot()["grid"]

    play(seed, ("random", "random"), check)
    assert tried >= 1


@GAMES
@given(seeds)
def test_after_a_wrong_tray_penalty_the_same_tray_plays_next(seed: int) -> None:
    """The seed: "The marker remains by the correct tray" (the clumsy bots take the penalty now and then)."""

    def check(s: TwoTray, events: list[Event]) -> None:
        for e in events:
            if e.kind == "penalty" and e.data["penalty"] == "wrong-tray" and s.outcome is None and s.round_no == 1:
                assert e.player is not None and s.playing[e.player] == e.data["tray"]

    play(seed, ("clumsy", "clumsy"), check)
