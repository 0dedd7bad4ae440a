"""Rules of ``domino-rummikub`` (seed 001, RULES-NOTES section 3), one test or more per rule."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from conftest import changed, state_data
from hypothesis import given
from hypothesis import strategies as st

import rummykit
from rummykit.bots.base import make_bot
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RuleError
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.records import read_record, write_record
from rummykit.rulesets import domino_rummikub as dr
from rummykit.rulesets.freetable import Draw, Fail, Pass, Play, play_from_table
from rummykit.sim import run_bots

D = Domino.parse


def ds(text: str) -> tuple[Domino, ...]:
    return tuple(parse_dominoes(text))


def check(text: str) -> rummykit.melds.base.MeldCheck[Domino]:  # type: ignore[name-defined]
    return dr.MELDS.check(ds(text))


def assert_rejected(state: rummykit.GameState, action: rummykit.Action, rule: str) -> None:
    before = state_data(state)
    with pytest.raises(RuleError) as info:
        state.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert f"rule {rule}" in str(info.value)
    after = state_data(state)
    assert after == before, f"the refused {action} changed {changed(before, after)}"


# -- components ----------------------------------------------------------------


def test_two_double_six_sets_with_four_jokers() -> None:
    pieces = dr.full_set()
    assert len(pieces) == 56
    counts = Counter(pieces)
    assert set(counts.values()) == {2}
    assert len(counts) == 28
    assert sorted(d for d in pieces if d in dr.JOKERS) == [D("0-0"), D("0-0"), D("6-6"), D("6-6")]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_eight_each_and_the_rest_is_the_boneyard(players: int) -> None:
    state = rummykit.new_game("domino-rummikub", players=players, seed=players)
    view = state.view(None)
    assert view["rack_sizes"] == [8] * players
    assert view["pool_size"] == 56 - 8 * players


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_is_two_to_six(players: int) -> None:
    with pytest.raises(OptionError):
        rummykit.new_game("domino-rummikub", players=players, seed=0)


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="starting_group_size"):
        rummykit.new_game("domino-rummikub", players=2, seed=0, starting_group_size="4")
    with pytest.raises(OptionError, match="unknown option"):
        rummykit.new_game("domino-rummikub", players=2, seed=0, jokers=2)
    state = rummykit.new_game("domino-rummikub", players=2, seed=0, target="50")
    assert state.options["target"] == 50


# -- sets ----------------------------------------------------------------------


def test_consecutive_run_example_from_the_original_page() -> None:
    c = check("5-3 5-4 5-5")
    assert c.valid and c.kind == "run"


def test_same_points_example_from_the_original_page() -> None:
    c = check("4-3 5-2 6-1")
    assert c.valid and c.kind == "sum"


def test_sum_allows_the_same_domino_twice_but_a_run_does_not() -> None:
    assert check("2-4 2-4 1-5").kind == "sum"
    c = check("5-3 5-3 5-4")
    assert not c.valid


@pytest.mark.parametrize(
    "text",
    [
        "0-1 0-1 0-0",  # both 0-1 are there: the joker would be a third
        "5-6 5-6 6-6 6-6 0-0 0-0",  # 5-6 is the only domino of 11 pips
        "0-1 0-1 0-0 6-6",
        "1-2 1-2 0-3 0-3 6-6",  # every domino of 3 pips twice already
        "1-2 1-2 0-3 6-6 0-0",  # room for one more 0-3 only, two jokers
        "3-4 3-4 3-4",  # three of one domino, jokers or not
    ],
)
def test_a_sum_holds_no_domino_more_than_twice_counting_jokers(text: str) -> None:
    c = check(text)
    assert not c.valid and c.rule == "DR-SUM-COPIES", c.reason
    assert "at most twice" in (c.reason or "")


def test_a_sum_joker_stands_for_a_domino_with_a_copy_left() -> None:
    c = check("1-2 1-2 0-0")  # the joker can only be a 0-3
    assert c.valid and c.kind == "sum" and c.jokers == ("a domino of 3 pips: 0-3",)
    two = check("1-2 1-2 0-3 0-0 6-6")
    assert not two.valid and "room for only 1 more domino of 3 pips (0-3)" in (two.reason or "")
    assert check("2-3 2-3 1-4 1-4 0-0 6-6").jokers == ("a domino of 5 pips: 0-5",) * 2
    assert check("2-5 3-4 0-0 6-6").jokers == ("any domino of 7 pips",) * 2
    # A called joker counts as the domino it was called.
    called = dr.MELDS.check(ds("1-2 1-2 0-0"), called={2: D("1-2")})
    assert not called.valid and called.rule == "DR-SUM-COPIES"
    assert dr.MELDS.check(ds("1-2 1-2 0-0"), called={2: D("0-3")}).valid


def test_a_third_copy_is_refused_in_play_and_never_listed() -> None:
    state = dr.from_position("table: 1-2 1-2 0-3 0-3; racks: 0-0 2-5 3-4 / 2-2; pool: seed 1; turn: 0; down: 11")
    assert_rejected(state, Play(0, ds("0-0"), (ds("1-2 1-2 0-3 0-3 0-0"),)), "DR-SUM-COPIES")
    # the one play listed is the new sum of 7; no lay-off of the joker onto the full sum of 3
    assert [a.text() for a in state.legal_actions(0) if isinstance(a, Play)] == [
        "play 2-5 3-4 0-0 : 0-3 0-3 1-2 1-2 | 2-5 3-4 0-0"
    ]
    rack = dr.from_position("table: ; racks: 0-1 0-1 0-0 / 2-2; pool: seed 1; turn: 0; down: 11")
    assert_rejected(rack, Play(0, ds("0-1 0-1 0-0"), (ds("0-1 0-1 0-0"),)), "DR-SUM-COPIES")
    assert [a for a in rack.legal_actions(0) if isinstance(a, Play)] == []
    bot = make_bot("greedy", "domino-rummikub")
    assert isinstance(bot.choose(rack.view(0), Rng(0)), Draw)


def test_run_has_no_wrap_and_needs_consecutive_values() -> None:
    assert not check("5-6 5-0 5-1").valid
    bad = check("5-1 5-2 5-4")
    assert not bad.valid and bad.rule == "DR-RUN"
    assert "consecutive" in (bad.reason or "")


def test_sets_need_three_dominoes_and_a_non_joker() -> None:
    assert check("5-3 5-4").rule == "DR-SET-SIZE"
    assert check("0-0 6-6 6-6").rule == "DR-SET-JOKERS"


def test_jokers_stand_for_any_domino_that_fits() -> None:
    assert check("5-3 0-0 5-5").jokers == ("4-5",)
    run = check("1-2 1-3 6-6")
    assert run.valid and run.jokers == ("1-4",)
    total = check("2-5 3-4 0-0 6-6")
    assert total.kind == "sum" and len(total.jokers) == 2


def test_mixed_set_is_invalid_with_a_reason() -> None:
    c = check("5-3 5-4 4-4")
    assert not c.valid and c.rule == "DR-SET-KIND"
    assert "neither a run" in (c.reason or "")


@given(st.lists(st.sampled_from(dr.full_set()), min_size=3, max_size=7))
def test_normal_form_is_a_fixed_point(pieces: list[Domino]) -> None:
    c = dr.MELDS.check(pieces)
    if c.valid:
        again = dr.MELDS.check(c.pieces)
        assert (again.valid, again.kind, again.pieces) == (True, c.kind, c.pieces)
        assert Counter(c.pieces) == Counter(pieces)


# -- the starting group --------------------------------------------------------

POSITION = "table: 1-2 1-3 1-4; racks: 5-3 5-4 5-5 5-6 2-2 / 2-3 3-3 4-4 1-1; pool: seed 3; turn: {turn}; down: {down}"


def test_starting_group_is_one_new_set_of_exactly_three() -> None:
    state = dr.from_position(POSITION.format(turn=0, down="01"))
    four = Play(0, ds("5-3 5-4 5-5 5-6"), (ds("1-2 1-3 1-4"), ds("5-3 5-4 5-5 5-6")))
    assert_rejected(state, four, "DR-OPENING-SIZE")
    three = Play(0, ds("5-3 5-4 5-5"), (ds("1-2 1-3 1-4"), ds("5-3 5-4 5-5")))
    state.apply(three)
    assert state.down[0] and sorted(state.racks[0]) == [D("2-2"), D("5-6")]


def test_starting_group_size_option_allows_more() -> None:
    state = dr.from_position(POSITION.format(turn=0, down="01"), starting_group_size="3-or-more")
    state.apply(Play(0, ds("5-3 5-4 5-5 5-6"), (ds("1-2 1-3 1-4"), ds("5-3 5-4 5-5 5-6"))))
    assert state.down[0]


def test_starting_group_is_a_single_set() -> None:
    position = "racks: 5-3 5-4 5-5 1-2 1-3 1-4 / 2-3; pool: seed 3; turn: 0"
    state = dr.from_position(position)
    assert_rejected(
        state, Play(0, ds("5-3 5-4 5-5 1-2 1-3 1-4"), (ds("5-3 5-4 5-5"), ds("1-2 1-3 1-4"))), "DR-OPENING-SETS"
    )


def test_starting_group_may_not_touch_the_table() -> None:
    state = dr.from_position("table: 1-2 1-3 1-4; racks: 1-5 5-3 5-4 5-5 / 2-3; pool: seed 3; turn: 0; down: 01")
    extend_only = Play(0, ds("1-5"), (ds("1-2 1-3 1-4 1-5"),))
    assert_rejected(state, extend_only, "DR-OPENING-TABLE")
    group_and_extend = Play(0, ds("1-5 5-3 5-4 5-5"), (ds("1-2 1-3 1-4 1-5"), ds("5-3 5-4 5-5")))
    assert_rejected(state, group_and_extend, "DR-OPENING-TABLE")
    state.apply(Play(0, ds("5-3 5-4 5-5"), (ds("1-2 1-3 1-4"), ds("5-3 5-4 5-5"))))
    assert state.table == [ds("1-2 1-3 1-4"), ds("3-5 4-5 5-5")]


def test_after_the_starting_group_the_table_is_free() -> None:
    state = dr.from_position("table: 1-2 1-3 1-4 1-5; racks: 1-6 2-4 3-3 / 2-2; pool: seed 1; turn: 0; down: 11")
    # Take 1-5 off the run (it keeps 3) and build a sum of six with two rack dominoes.
    twice = (ds("1-2 1-3 1-4"), ds("1-5 2-4 3-3 2-4"))
    assert_rejected(state, play_from_table(0, state.table, twice), "DR-RACK")
    new = (ds("1-2 1-3 1-4"), ds("1-5 2-4 3-3"))
    bad = (ds("1-2 1-3 1-4"), ds("1-5 1-6"))
    assert_rejected(state, play_from_table(0, state.table, bad), "DR-SET-SIZE")
    state.apply(play_from_table(0, state.table, new))
    assert state.table == [ds("1-2 1-3 1-4"), ds("1-5 2-4 3-3")]
    assert sorted(state.racks[0]) == [D("1-6")]


def test_joker_freed_from_the_table_must_stay_on_it() -> None:
    state = dr.from_position("table: 1-2 0-0 1-4; racks: 1-3 2-5 / 2-2; pool: seed 1; turn: 0; down: 11")
    lost = Play(0, ds("1-3"), (ds("1-2 1-3 1-4"),))
    assert_rejected(state, lost, "DR-JOKER-REUSE")
    reused = Play(0, ds("1-3"), (ds("1-2 1-3 1-4 0-0"),))
    state.apply(reused)
    assert Counter(d for s in state.table for d in s)[D("0-0")] == 1


# -- turns ---------------------------------------------------------------------


def test_invalid_end_of_turn_table_is_refused_without_penalty() -> None:
    state = dr.from_position("table: 1-2 1-3 1-4; racks: 3-6 2-2 / 2-2; pool: seed 1; turn: 0; down: 11")
    bad = (ds("1-2 1-3 1-4 3-6"),)
    assert_rejected(state, play_from_table(0, state.table, bad), "DR-SET-KIND")
    assert_rejected(state, Fail(0, ds("3-6"), bad), "DR-TABLE-INVALID")
    assert state.to_act == frozenset({0})


def test_draw_when_not_playing_and_pass_only_with_an_empty_boneyard() -> None:
    state = rummykit.new_game("domino-rummikub", players=2, seed=4)
    seat = state.view(None)["turn"]
    assert seat is not None
    assert_rejected(state, Pass(seat), "DR-DRAW")
    size = len(state.racks[seat])
    state.apply(Draw(seat))
    assert len(state.racks[seat]) == size + 1
    empty = dr.from_position("racks: 2-3 / 4-5; pool: ; turn: 0")
    assert_rejected(empty, Draw(0), "DR-POOL-EMPTY")
    empty.apply(Pass(0))
    assert empty.to_act == frozenset({1})


def test_round_ends_when_all_pass_and_fewest_spots_scores_the_others() -> None:
    state = dr.from_position("racks: 1-2 / 3-4 6-6 / 0-0 2-2; pool: ; turn: 0", target=None)
    for seat in (0, 1, 2):
        state.apply(Pass(seat))
    assert state.outcome is not None
    assert state.outcome.reason == "blocked"
    # spots: 3, 7 + 12 (a 6-6 joker counts its spots), 0 + 4 -> seat 0 has fewest.
    assert state.outcome.winners == (0,)
    assert state.outcome.scores == (19 + 4, 0, 0)


def test_going_out_scores_every_other_hand_including_jokers() -> None:
    state = dr.from_position(
        "table: 1-2 1-3 1-4; racks: 1-5 / 6-6 0-0 2-3; pool: seed 2; turn: 0; down: 11", target=None
    )
    state.apply(play_from_table(0, state.table, [ds("1-2 1-3 1-4 1-5")]))
    assert state.outcome is not None and state.outcome.reason == "rack-empty"
    assert state.outcome.winners == (0,)
    assert state.outcome.scores == (12 + 0 + 5, 0)


def test_match_to_target_deals_new_rounds() -> None:
    state = rummykit.new_game("domino-rummikub", players=3, seed=9, target=50)
    bots = [make_bot("random", "domino-rummikub") for _ in range(3)]
    run_bots(state, bots)
    assert state.outcome is not None and state.outcome.match_over
    assert max(state.totals) >= 50
    assert state.outcome.winners == tuple(i for i, t in enumerate(state.totals) if t == max(state.totals))
    assert sum(r.scores[i] for r in state.rounds for i in range(3)) == sum(state.totals)


def test_default_target_is_one_hundred() -> None:
    assert rummykit.new_game("domino-rummikub", players=2, seed=0).options["target"] == 100


# -- properties over random games -----------------------------------------------


@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_random_games_conserve_pieces_hide_racks_and_replay(seed: int, players: int) -> None:
    state = rummykit.new_game("domino-rummikub", players=players, seed=seed, target=None)
    full = Counter(dr.full_set())
    bot = make_bot("random", "domino-rummikub")
    from rummykit.sim import bot_rng

    rngs = [bot_rng(seed, s) for s in range(players)]
    while state.outcome is None:
        seat = min(state.to_act)
        view = state.view(seat)
        assert "pool" not in view and "racks" not in view and set(view) >= {"rack", "table"}
        assert Counter(view["rack"]) == Counter(str(d) for d in state.racks[seat])
        assert "rack" not in state.view(None)
        # Apart from the seat's own rack, the public table and the last move (whose text and events name what
        # the table saw: tests/test_view_header.py), no domino is named anywhere in the view.
        rest = {k: v for k, v in view.items() if k not in ("rack", "table", "last_move")}
        assert not re.search(r"\b\d-\d\b", json.dumps(rest))
        state.apply(bot.choose(view, rngs[seat]))
        pieces: Counter[Domino] = Counter(state.pool)
        for r in state.racks:
            pieces.update(r)
        for s in state.table:
            pieces.update(s)
        assert pieces == full
        assert all(dr.MELDS.check(s).valid for s in state.table)
    assert read_record(write_record(state)).snapshot() == state.snapshot()


def test_listed_actions_are_all_legal() -> None:
    for seed in range(15):
        state = rummykit.new_game("domino-rummikub", players=3, seed=seed, target=None)
        bots = [make_bot("random", "domino-rummikub") for _ in range(3)]
        steps = 0
        while state.outcome is None and steps < 60:
            seat = min(state.to_act)
            for action in state.legal_actions(seat):
                assert state.is_legal(action), str(action)
            state.apply(bots[seat].choose(state.view(seat), Rng(seed + steps)))
            steps += 1


def test_position_round_trip() -> None:
    state = dr.from_position(POSITION.format(turn=1, down="01"))
    again = dr.from_position(state.position())
    assert again.position() == state.position()
    assert again.snapshot()["pool"] == state.snapshot()["pool"]


def test_greedy_bot_plays_whole_games_legally_and_beats_random() -> None:
    wins = 0
    for seed in range(20):
        state = rummykit.new_game("domino-rummikub", players=2, seed=seed, target=None)
        bots = [make_bot("greedy", "domino-rummikub"), make_bot("random", "domino-rummikub")]
        run_bots(state, bots)  # run_bots raises if a bot makes an illegal move
        assert state.outcome is not None
        wins += 0 in state.outcome.winners
    assert wins >= 14, wins


def test_greedy_bot_makes_its_starting_group_and_lays_off() -> None:
    bot = make_bot("greedy", "domino-rummikub")
    state = dr.from_position("table: 1-2 1-3 1-4; racks: 5-3 5-4 5-5 2-6 / 2-2; pool: seed 1; turn: 0")
    action = bot.choose(state.view(0), Rng(0))
    assert isinstance(action, Play) and sorted(action.placed) == [D("3-5"), D("4-5"), D("5-5")]
    later = dr.from_position("table: 1-2 1-3 1-4; racks: 1-5 2-6 / 2-2; pool: seed 1; turn: 0; down: 11")
    action = bot.choose(later.view(0), Rng(0))
    assert isinstance(action, Play) and action.placed == (D("1-5"),)
    later.apply(action)
    assert later.table == [ds("1-2 1-3 1-4 1-5")]


@pytest.mark.parametrize(
    ("rack_text", "down"),
    [
        ("5-3 5-4 5-5 6-6 2-4 1-5", True),
        ("1-2 1-3 0-0 6-6 3-3 2-4", False),
        ("2-2 2-3 2-4 4-4 0-0 1-3", True),
    ],
)
def test_listed_new_sets_are_exactly_the_single_sets_apply_accepts(rack_text: str, down: bool) -> None:
    import itertools

    flag = "1" if down else "0"
    state = dr.from_position(f"table: 0-1 0-2 0-3; racks: {rack_text} / 4-5; pool: seed 2; turn: 0; down: {flag}1")
    base = tuple(state.table)
    accepted: set[tuple[Domino, ...]] = set()
    rack = state.racks[0]
    for size in range(3, len(rack) + 1):
        for combo in set(itertools.combinations(sorted(rack), size)):
            for order in {combo, tuple(reversed(combo))}:
                try:
                    state.copy().apply(Play(0, order, (*base, order)))
                except RuleError:
                    continue
                accepted.add(tuple(sorted(order)))
    listed = {
        tuple(sorted(a.placed))
        for a in state.legal_actions(0)
        if isinstance(a, Play) and a.table[: len(base)] == base and len(a.table) == len(base) + 1
    }
    assert accepted
    assert listed >= accepted, sorted(accepted - listed)
    assert listed <= accepted
