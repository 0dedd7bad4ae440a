"""Invariants of ``conveyor`` over many random games (Hypothesis).

* Conservation: every domino of the set is exactly once in the columns, the
  hands or the melds, and every conveyor has its full length whenever no
  draw is waiting for its discard.
* Views never leak: a face-down domino, or a domino in another seat's hand
  that was never shown, appears in no view or history event that seat gets.
* Random bots never make an illegal move; every listed action is accepted.
* Rejected actions change nothing; records replay to the identical snapshot.
"""
# mypy: disable-error-code="operator,index,arg-type,union-attr"
# (these tests read view fields typed optional, such as turn, drawn and jump_window, in positions
#  where the rules make them present; a wrong guess fails the test itself)

from __future__ import annotations

import json
import re
from typing import Any

from conftest import changed, state_data
from hypothesis import given, settings
from hypothesis import strategies as st

import rummykit.rulesets.conveyor as cv
from rummykit.bots.random import RandomBot
from rummykit.catalogue import new_game
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.records import read_record, write_record
from rummykit.rulesets.conveyor import Claim, Conveyor, Discard, Draw, Jump, Layoff, Meld, Reveal

DOMINO_TEXT = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")

variants = st.fixed_dictionaries(
    {},
    optional={
        "no_milling": st.booleans(),
        "never_close_on_pickup": st.booleans(),
        "domino_runs": st.booleans(),
        "max_turns": st.integers(1, 60),
    },
)


@st.composite
def games(draw: Any) -> Conveyor:
    players = draw(st.integers(2, 4))
    top = draw(st.sampled_from([6, 9, 12]))
    options = dict(draw(variants))
    if options.get("domino_runs"):
        options["branch_on_doubles"] = draw(st.booleans())
    if players >= 3 and draw(st.booleans()):
        options["jump_ins"] = True
        options["jump_in_only_on_completion"] = draw(st.booleans())
    if players == 4:
        options["partners"] = draw(st.booleans())
    if top == 9 and players == 4:
        top = 12
    options.setdefault("max_turns", 40)
    seed = draw(st.integers(0, 2**32))
    state = new_game("conveyor", players=players, seed=seed, set=top, target=draw(st.sampled_from([0, 25])),
                     max_rounds=2, **options)
    assert isinstance(state, Conveyor)
    return state


def check_conservation(state: Conveyor) -> None:
    every = [d for col in state.belt.columns for d in col]
    every += [d for h in state.hands for d in h]
    every += [d for m in state.table for d in m.dominoes]
    assert sorted(every) == double_set(state.top), "a domino is missing or doubled"
    for c in state.belt.open_columns():
        assert len(state.belt.up[c]) == len(state.belt.columns[c])
    pending = state.belt.pending
    for c in state.belt.open_columns():
        short = pending is not None and pending[0] == c
        assert len(state.belt.columns[c]) == state.options["column_length"] - short
    if state.phase in ("select", "draw", "jump"):
        assert state.belt.lengths_constant()
    for c in range(state.belt.count):
        if state.belt.claimed_by[c] is not None:
            assert state.belt.columns[c] == []


def dominoes_in(data: Any) -> set[Domino]:
    """Every domino named anywhere in some plain data (layouts and action texts included)."""
    text = json.dumps(data)
    return {Domino(int(a), int(b)) for a, b in DOMINO_TEXT.findall(text) if int(a) <= 18 and int(b) <= 18}


def check_no_leak(state: Conveyor) -> None:
    face_down = {d for c in state.belt.open_columns() for d, up in zip(state.belt.columns[c], state.belt.up[c],
                                                                        strict=True) if not up}
    for seat in [None, *range(len(state.players))]:
        secret = set(face_down)
        for other, hand in enumerate(state.hands):
            if other != seat:
                secret |= set(hand) - state.known[other]
        view = state.view(seat)
        leaked = dominoes_in({k: v for k, v in view.items() if k != "last_move"}) & secret
        assert not leaked, f"view of {seat} shows {sorted(map(str, leaked))}"
        # The last move too, unless it ended a round: then its events name the old round's hands (public
        # at its end), whose dominoes are dealt anew in this round's layout.
        last = view["last_move"]
        if last is not None and not any(e["kind"] in ("layout", "position") for e in last["events"]):
            shown = dominoes_in(last) & secret
            assert not shown, f"the last move shows {sorted(map(str, shown))} to {seat}"
        if seat is None:
            assert "hand" not in view
        else:
            assert sorted(view["hand"]) == sorted(str(d) for d in state.hands[seat])
        this_round = max(i for i, e in enumerate(state.history) if e.kind in ("layout", "position"))
        for event in state.history[max(this_round, len(state.history) - 12) :]:
            shown = dominoes_in(event.seen_by(seat)) & secret
            assert not shown, f"event {event.kind} shows {sorted(map(str, shown))} to {seat}"
        # every "??" stands for a face-down domino, and every face-down domino is a "??"
        for col in view["columns"]:
            c = col["column"]
            if col["claimed_by"] is None:
                ups = state.belt.up[c]
                assert [x == "??" for x in col["cells"]] == [not u for u in ups]


@settings(max_examples=120)
@given(games(), st.integers(0, 2**31))
def test_random_games_conserve_dominoes_and_never_leak(state: Conveyor, bot_seed: int) -> None:
    bot = RandomBot(cv.INFO)
    rngs = [Rng(bot_seed + seat) for seat in range(len(state.players))]
    steps = 0
    while state.outcome is None:
        check_conservation(state)
        if steps % 7 == 0:
            check_no_leak(state)
        seat = min(state.to_act) if steps % 2 else max(state.to_act)  # out-of-turn answers in either order
        action = bot.choose(state.view(seat), rngs[seat])
        state.apply(action)  # a random bot never makes an illegal move
        steps += 1
    assert state.to_act == frozenset()
    assert state.outcome.match_over
    assert len(state.rounds) >= 1 and state.outcome.totals == tuple(state.totals)


@given(games(), st.integers(0, 2**31))
def test_listed_actions_are_accepted_and_rejected_ones_change_nothing(state: Conveyor, bot_seed: int) -> None:
    rng = Rng(bot_seed)
    for _ in range(60):
        if state.outcome is not None:
            break
        for seat in range(len(state.players)):
            listed = state.legal_actions(seat)
            if seat not in state.to_act:
                assert listed == []
                continue
            assert listed, "a seat that may act always has something to do"
            assert listed == cv.actions_from_view(state.view(seat))
            for action in listed[:: max(1, len(listed) // 6)]:
                state.copy().apply(action)
        seat = rng.choice(sorted(state.to_act))
        probes: list[Any] = [
            Reveal(seat, 0, 0), Claim(seat, state.belt.count), Draw(seat, 0, "top"),
            Discard(seat, Domino(0, 0)), Meld(seat, (Domino(0, 1), Domino(0, 2))),
            Layoff(seat, 99, Domino(0, 0), "low"), Jump(seat, Domino(5, 6)),
            Reveal((seat + 1) % len(state.players), 0, 0),
        ]
        listed = state.legal_actions(seat)
        for probe in probes:
            if probe in listed:
                continue
            before = state_data(state)
            try:
                state.apply(probe)
            except RuleError as error:
                assert error.rule
                after = state_data(state)
                assert after == before, f"the refused {probe} changed {changed(before, after)}"
            else:
                raise AssertionError(f"{probe} was accepted but not listed")
        state.apply(rng.choice(listed))


@given(games(), st.integers(0, 2**31))
def test_records_replay_exactly(state: Conveyor, bot_seed: int) -> None:
    bot = RandomBot(cv.INFO)
    rng = Rng(bot_seed)
    for _ in range(150):
        if state.outcome is not None:
            break
        seat = rng.choice(sorted(state.to_act))
        state.apply(bot.choose(state.view(seat), rng))
    text = write_record(state)
    again = read_record(text)
    assert again.snapshot() == state.snapshot()
    assert write_record(again) == text
    copy = state.copy()
    assert copy.snapshot() == state.snapshot()


def test_copies_are_independent() -> None:
    state = new_game("conveyor", players=3, seed=4, jump_ins=True)
    assert isinstance(state, Conveyor)
    seat = state.view(None)["turn"]
    copy = state.copy()
    copy.apply(Claim(seat, 0))
    assert state.belt.claimed_by[0] is None and state.hands[seat] == []
    assert copy.snapshot() != state.snapshot()
