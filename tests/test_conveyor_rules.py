"""Every rule of ``conveyor`` (seed 000, RULES-NOTES section 4), per rule and per variant.

Most tests set up an exact position with ``from_position`` (built by
:func:`position` below from hands and melds; the other dominoes fill the
conveyors) and check what the engine accepts, refuses and changes. A refused
action must raise ``RuleError`` naming the rule and leave the snapshot
identical (the ``assert_rejected`` fixture checks both).
"""
# mypy: disable-error-code="operator,index,arg-type,union-attr"
# (these tests read view fields typed optional, such as turn, drawn and jump_window, in positions
#  where the rules make them present; a wrong guess fails the test itself)

from __future__ import annotations

import doctest
import itertools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import rummykit.rulesets.conveyor as cv
from rummykit import OptionError, ParseError
from rummykit.bots.conveyor import conveyor_greedy
from rummykit.bots.random import RandomBot
from rummykit.catalogue import find_game, new_game
from rummykit.engine.core import Action, GameState
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.dominoes import Domino, double_set, parse_dominoes
from rummykit.records import read_record, write_record
from rummykit.rulesets.conveyor import (
    Claim,
    Close,
    Conveyor,
    Decline,
    Discard,
    Draw,
    Jump,
    Layoff,
    Meld,
    Reveal,
    actions_from_view,
    default_layout,
    from_position,
)
from rummykit.sim import run_bots

Rejecter = Callable[[GameState, Action | str, str], RuleError]
ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "games" / "conveyor.md"


def position(
    hands: Sequence[str],
    *,
    melds: str = "",
    top: int = 6,
    tops: Sequence[str] = (),
    bottoms: Sequence[str] = (),
    turn: int = 0,
    known: str = "",
    turns: int = 0,
) -> str:
    """A position string: seats claimed columns 0..n-1, the other dominoes fill the conveyors.

    ``tops``/``bottoms`` put face-up dominoes at the ends of conveyors n, n+1...;
    every other conveyor domino is face down, in sorted order.
    """
    n = len(hands)
    columns, length = default_layout(top, n)
    used = [d for h in hands for d in parse_dominoes(h)]
    used += [d for part in melds.split("|") if part.strip() for d in parse_dominoes(part.split(":")[1])]
    fixed = [Domino.parse(x) for x in (*tops, *bottoms)]
    rest = [d for d in double_set(top) if d not in used and d not in fixed]
    conveyor_count = columns - n
    cols: list[list[str]] = []
    for i in range(conveyor_count):
        col_top = [tops[i]] if i < len(tops) else []
        col_bottom = [bottoms[i]] if i < len(bottoms) else []
        middle = length - len(col_top) - len(col_bottom)
        body = [f"?{d}" for d in rest[:middle]]
        rest = rest[middle:]
        cols.append(col_top + body + col_bottom)
    assert not rest, f"{len(rest)} dominoes left over: hands and melds must leave {conveyor_count * length}"
    parts = [f"claimed {s}" for s in range(n)] + [" ".join(c) for c in cols]
    text = f"columns: {' / '.join(parts)}; hands: {' / '.join(hands)}; turn: {turn}; turns: {turns}"
    if melds:
        text += f"; melds: {melds}"
    if known:
        text += f"; known: {known}"
    return text


def d(text: str) -> Domino:
    return Domino.parse(text)


def play(state: GameState, *lines: str) -> None:
    for line in lines:
        state.apply(state.parse_action(line))


def every_domino(state: Conveyor) -> list[Domino]:
    out = [x for col in state.belt.columns for x in col]
    out += [x for h in state.hands for x in h]
    out += [x for m in state.table for x in m.dominoes]
    return sorted(out)


# -- options and layouts -------------------------------------------------------------


def test_default_layouts_follow_the_seed() -> None:
    two = new_game("conveyor", players=2, seed=1)
    assert (two.options["set"], two.options["columns"], two.options["column_length"]) == (9, 5, 11)
    assert two.options["target"] == 120
    for players in (3, 4):
        s = new_game("conveyor", players=players, seed=1)
        assert (s.options["set"], s.options["columns"], s.options["column_length"]) == (12, 7, 13)
        assert s.options["target"] == 240
    six = new_game("conveyor", players=2, seed=1, set=6)
    assert (six.options["columns"], six.options["column_length"]) == (4, 7)
    six4 = new_game("conveyor", players=4, seed=1, set=6)
    assert (six4.options["columns"], six4.options["column_length"]) == (7, 4)
    assert new_game("conveyor", players=2, seed=1, set=12).options["columns"] == 7


def test_one_layout_option_derives_the_other() -> None:
    s = new_game("conveyor", players=3, seed=1, columns=13)
    assert s.options["column_length"] == 7
    s = new_game("conveyor", players=2, seed=1, column_length=5)
    assert s.options["columns"] == 11


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (2, {"set": 7}, "6, 9 or 12"),
        (2, {"set": 5}, "option set needs 6, 9 or 12, or none, got 5"),
        (2, {"columns": 5, "column_length": 7}, "5 columns of 7 hold 35 dominoes, but a double-9 set has 55"),
        (2, {"columns": 6}, "option columns needs 4, 5, 7, 11 or 13, or none, got 6"),
        (2, {"columns": 4}, "equal columns"),
        (2, {"column_length": 4}, "columns of 4"),
        (4, {"set": 6, "columns": 4}, "4 columns are too few for 4 players"),
        (2, {"set": 6, "column_length": 2}, "option column_length needs 4, 5, 7, 11 or 13"),
        (2, {"jump_ins": True}, "3 or 4 players"),
        (3, {"jump_in_only_on_completion": True}, "needs jump_ins"),
        (2, {"branch_on_doubles": True}, "needs domino_runs"),
        (3, {"partners": True}, "exactly 4"),
        (2, {"max_turns": 0}, "max_turns"),
        (2, {"target": -1}, "target"),
        (2, {"milling": True}, "unknown option"),
    ],
)
def test_impossible_options_are_refused_with_a_clear_message(
    players: int, options: dict[str, object], words: str
) -> None:
    with pytest.raises(OptionError) as info:
        new_game("conveyor", players=players, seed=0, **options)
    assert words in str(info.value)


def test_four_players_may_share_one_conveyor() -> None:
    s = new_game("conveyor", players=4, seed=0, set=9)  # 5 columns of 11: 4 claimed, 1 conveyor
    assert (s.options["columns"], s.options["column_length"]) == (5, 11)


def test_options_from_text_as_on_a_command_line() -> None:
    s = new_game("conveyor", players=3, seed=0, set="6", jump_ins="true", target="0")
    assert s.options["set"] == 6 and s.options["jump_ins"] is True and s.options["target"] == 0


def test_game_is_registered_with_its_rules_page() -> None:
    info = find_game("conveyor")
    assert info is cv.INFO and find_game("conveyor-rummy") is info
    assert info.rules_page == "docs/games/conveyor.md"
    names = {o.name for o in info.options}
    assert {
        "set", "columns", "column_length", "target", "max_turns", "max_rounds", "domino_runs",
        "branch_on_doubles", "no_milling", "never_close_on_pickup", "jump_ins",
        "jump_in_only_on_completion", "partners",
    } == names


# -- setup and the selection round ---------------------------------------------------------


def test_setup_every_domino_once_face_down_but_the_middles() -> None:
    s = new_game("conveyor", players=2, seed=3)
    assert isinstance(s, Conveyor)
    assert every_domino(s) == double_set(9)
    for c in range(5):
        assert len(s.belt.columns[c]) == 11
        assert s.belt.up[c] == [i == 5 for i in range(11)]
    view = s.view(None)
    for col in view["columns"]:
        assert col["cells"][5] != "??" and col["cells"].count("??") == 10
        assert col["top"] == "??" and col["bottom"] == "??"
    assert view["phase"] == "select" and "hand" not in view
    first = [e for e in s.history if e.kind == "first-player"]
    assert len(first) == 1 and first[0].player == view["turn"] and first[0].data["by"] == "lot"


def test_first_player_is_drawn_by_the_seeded_generator() -> None:
    firsts = {new_game("conveyor", players=3, seed=seed).view(None)["turn"] for seed in range(30)}
    assert firsts == {0, 1, 2}
    again = [new_game("conveyor", players=3, seed=seed).view(None)["turn"] for seed in range(30)]
    assert again == [new_game("conveyor", players=3, seed=seed).view(None)["turn"] for seed in range(30)]


def test_reveal_turns_a_domino_up_for_everyone(assert_rejected: Rejecter) -> None:
    s = new_game("conveyor", players=2, seed=3)
    seat = s.view(None)["turn"]
    hidden = s.belt.columns[2][0]
    play(s, f"{seat} reveal 2 0")
    for who in (None, 0, 1):
        assert s.view(who)["columns"][2]["cells"][0] == str(hidden)
    assert s.view(None)["turn"] == 1 - seat  # each player reveals or claims once per pass
    assert_rejected(s, f"{1 - seat} reveal 2 0", "CV-REVEAL")  # already face up
    assert_rejected(s, f"{1 - seat} reveal 2 5", "CV-REVEAL")  # a middle domino
    assert_rejected(s, f"{1 - seat} reveal 2 11", "CV-REVEAL")
    assert_rejected(s, f"{1 - seat} reveal 9 0", "CV-COLUMN")
    assert_rejected(s, f"{seat} reveal 2 1", "TURN")
    assert_rejected(s, f"{1 - seat} draw 2 top", "CV-PHASE")


def test_claim_takes_the_column_and_the_claimer_leaves_the_selection(assert_rejected: Rejecter) -> None:
    s = new_game("conveyor", players=3, seed=5)
    first = s.view(None)["turn"]
    column = list(s.belt.columns[4])
    play(s, f"{first} reveal 4 0", f"{(first + 1) % 3} claim 4")
    claimer = (first + 1) % 3
    assert sorted(s.hands[claimer]) == sorted(column)
    assert s.view(claimer)["hand"] == [str(x) for x in sorted(column)]
    others = s.view(first)
    assert others["hand_sizes"][claimer] == 13
    assert others["hand_known"][claimer] == sorted({str(column[0]), str(column[6])}, key=lambda t: d(t).code)
    assert others["columns"][4]["claimed_by"] == claimer and others["columns"][4]["cells"] == []
    assert_rejected(s, f"{(first + 2) % 3} claim 4", "CV-COLUMN-CLAIMED")
    assert_rejected(s, f"{(first + 2) % 3} reveal 4 0", "CV-COLUMN-CLAIMED")
    play(s, f"{(first + 2) % 3} reveal 0 0")
    assert s.view(None)["turn"] == first  # the claimer is skipped from now on
    play(s, f"{first} claim 0")
    assert s.view(None)["turn"] == (first + 2) % 3
    play(s, f"{(first + 2) % 3} claim 1")
    view = s.view(None)
    assert view["phase"] == "draw"
    assert view["turn"] == claimer  # play starts with the first player to claim
    assert view["first_claimer"] == claimer and view["open_columns"] == [2, 3, 5, 6]


def test_forced_claim_is_the_only_listed_action() -> None:
    s = new_game("conveyor", players=2, seed=9, set=6)
    while s.belt.any_face_down():
        seat = s.view(None)["turn"]
        reveals = [a for a in s.legal_actions(seat) if isinstance(a, Reveal)]
        s.apply(reveals[0])
    seat = s.view(None)["turn"]
    actions = s.legal_actions(seat)
    assert actions and all(isinstance(a, Claim) for a in actions)
    assert len(actions) == 4
    assert all(isinstance(a, Claim) for a in actions_from_view(s.view(seat)))
    with pytest.raises(RuleError) as info:
        s.apply(Reveal(seat, 0, 0))
    assert info.value.rule == "CV-REVEAL"


def test_others_learn_only_the_count_and_the_face_up_dominoes_of_a_claim() -> None:
    s = new_game("conveyor", players=2, seed=2, set=6)
    seat = s.view(None)["turn"]
    middle = s.belt.columns[1][3]
    play(s, f"{seat} claim 1", f"{1 - seat} claim 3")
    assert s.view(1 - seat)["hand_known"][seat] == [str(middle)]
    assert s.view(1 - seat)["hand_sizes"][seat] == 7
    claims = [e for e in s.history if e.kind == "claim"]
    assert "hand" not in claims[0].seen_by(1 - seat) and "hand" in claims[0].seen_by(seat)


# -- a turn: draw and discard -----------------------------------------------------------------

HANDS_7 = ["0-0 0-1 0-2 1-1 1-2 2-2 0-3", "3-3 4-4 5-5 6-6 0-6 1-6 2-6"]


def test_draw_from_one_end_discard_to_the_opposite_end(assert_rejected: Rejecter) -> None:
    s = from_position(position(HANDS_7, tops=["3-4"], bottoms=["4-5"]))
    assert s.view(0)["columns"][2]["top"] == "3-4"
    assert_rejected(s, "0 discard 0-0", "CV-PHASE")
    assert_rejected(s, "0 meld 0-0 1-1 2-2", "CV-PHASE")
    assert_rejected(s, "0 draw 0 top", "CV-COLUMN")  # a claimed column
    assert_rejected(s, "0 draw 7 top", "CV-COLUMN")
    assert_rejected(s, "1 draw 2 top", "TURN")
    play(s, "0 draw 2 top")
    assert d("3-4") in s.hands[0] and len(s.belt.columns[2]) == 6
    assert_rejected(s, "0 draw 3 top", "CV-PHASE")
    assert_rejected(s, "0 discard 5-6", "CV-HAND")
    play(s, "0 discard 0-3")
    col = s.view(None)["columns"][2]
    assert col["bottom"] == "0-3" and len(col["cells"]) == 7  # the opposite end; length kept
    assert s.view(None)["turn"] == 1 and s.view(None)["phase"] == "draw"
    play(s, "1 draw 2 bottom", "1 discard 0-6")
    assert s.view(None)["columns"][2]["top"] == "0-6"
    assert every_domino(s) == double_set(6)


def test_face_down_draw_is_seen_only_by_the_drawer() -> None:
    s = from_position(position(HANDS_7))
    hidden = s.belt.columns[3][0]
    play(s, "0 draw 3 top")
    assert s.view(0)["drawn"]["piece"] == str(hidden)
    assert s.view(1)["drawn"]["piece"] == "??" and s.view(None)["drawn"]["piece"] == "??"
    event = s.history[-1]
    assert "domino" not in event.seen_by(1) and event.seen_by(0)["domino"] == str(hidden)


def test_milling_is_allowed_by_default(assert_rejected: Rejecter) -> None:
    s = from_position(position(HANDS_7, tops=["3-4"]))
    play(s, "0 draw 2 top", "0 discard 3-4")
    assert s.history[-1].data["milled"] is True
    assert s.view(None)["columns"][2]["bottom"] == "3-4"  # the conveyor moved on by one


def test_no_milling_forbids_discarding_a_face_up_pickup(assert_rejected: Rejecter) -> None:
    s = from_position(position(HANDS_7, tops=["3-4"]), no_milling=True)
    play(s, "0 draw 2 top")
    assert_rejected(s, "0 discard 3-4", "CV-MILLING")
    assert Discard(0, d("3-4")) not in s.legal_actions(0)
    play(s, "0 discard 0-3")
    # a face-down pickup is not milling: it may go straight back
    hidden = s.belt.columns[3][0]
    play(s, "1 draw 3 top", f"1 discard {hidden}")
    assert s.history[-1].data["milled"] is False


# -- melds and lay-offs -------------------------------------------------------------------------


def test_meld_from_the_hand(assert_rejected: Rejecter) -> None:
    s = from_position(position(HANDS_7, tops=["3-4"]))
    play(s, "0 draw 2 top")
    assert_rejected(s, "0 meld 0-0 0-1", "CV-MELD-SIZE")
    assert_rejected(s, "0 meld 0-0 1-1 2-2 5-5", "CV-HAND")
    assert_rejected(s, "0 meld 0-0 0-1 1-2", "CV-MELD-KIND")
    assert_rejected(s, "0 meld 0-0 0-2 0-3", "CV-RUN")
    play(s, "0 meld 2-2 0-0 1-1")
    view = s.view(1)
    assert view["melds"] == [
        {"index": 0, "owner": 0, "kind": "pairs", "pieces": ["0-0", "1-1", "2-2"], "layout": None,
         "royal": False, "score": 3}
    ]
    assert view["hand_sizes"][0] == 5
    play(s, "0 meld 0-1 0-2 0-3", "0 discard 1-2")
    assert s.view(None)["turn"] == 1


def test_layoff_at_either_end_of_any_meld(assert_rejected: Rejecter) -> None:
    s = from_position(position(["1-3 1-4 5-6 2-3 0-6", "0-0 0-1 0-2 0-3 4-4 6-6"], melds="1: 1-5 2-4 3-3"))
    play(s, "0 draw 2 top")
    assert_rejected(s, "0 layoff 1 1-3 low", "CV-LAYOFF-MELD")
    assert_rejected(s, "0 layoff 0 1-3 low", "CV-LAYOFF-FIT")
    assert_rejected(s, "0 layoff 0 6-6 low", "CV-HAND")
    play(s, "0 layoff 0 0-6 low")  # onto seat 1's sum of 6: any domino of 6 pips, either end
    meld = s.view(None)["melds"][0]
    assert meld["pieces"] == ["0-6", "1-5", "2-4", "3-3"] and meld["owner"] == 1  # the owner stays
    assert meld["royal"] is True and meld["score"] == 2 + 10


def test_layoff_on_a_run_names_the_right_end(assert_rejected: Rejecter) -> None:
    s = from_position(position(["1-3 1-4 5-6 0-4 4-5", "0-0 0-1 0-2 0-3 6-6 1-6"], melds="1: 2-4 3-4 4-4"))
    play(s, "0 draw 2 top")
    error = assert_rejected(s, "0 layoff 0 4-5 low", "CV-LAYOFF-FIT")
    assert "high end" in error.reason
    play(s, "0 layoff 0 4-5 high", "0 layoff 0 1-4 low")
    assert s.view(None)["melds"][0]["pieces"] == ["1-4", "2-4", "3-4", "4-4", "4-5"]
    assert Layoff(0, 0, d("0-4"), "low") in s.legal_actions(0)
    assert Layoff(0, 0, d("0-4"), "high") not in s.legal_actions(0)


# -- closing and scoring ---------------------------------------------------------------------------


ELEVEN = "0-0 0-1 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4 1-6"  # seat 1's hand in several closing positions
ELEVEN_B = "0-0 0-1 0-2 0-3 0-5 0-6 1-1 1-2 1-4 1-5 1-6"  # the same, for seat 0 hands holding 0-4 and 1-3


def test_close_by_discarding_the_last_domino_scores_the_closer_only() -> None:
    text = position(["1-2 1-3 1-4 0-5", "0-0 0-1 0-2 0-3 0-4 1-1"], melds="0: 3-3 4-4 5-5 6-6", tops=["1-5"])
    s = from_position(text, target=0)
    play(s, "0 draw 2 top", "0 meld 1-2 1-3 1-4 1-5", "0 discard 0-5")
    assert s.outcome is not None
    assert s.outcome.winners == (0,) and s.outcome.reason == "closed"
    # pairs of 4: 3 x max(1, 1); run of 4: 1; seat 1 holds 6 dominoes: 6
    assert s.outcome.scores == (3 + 1 + 6, 0)
    end = next(e for e in s.history if e.kind == "round-end")
    assert end.data["how"] == "discard" and end.data["dominoes_left"] == 6
    assert [m["kind"] for m in end.data["melds"]] == ["pairs", "run"]


def test_only_the_closers_own_melds_score_even_when_others_extended_them() -> None:
    text = position(
        ["0-6 2-4 1-5", "0-0 0-1 0-2 1-1 1-2"], melds="1: 0-3 1-3 2-3 | 0: 4-4 5-5 6-6", tops=["3-3"]
    )
    s = from_position(text, target=0)
    play(s, "0 draw 2 top", "0 layoff 0 3-3 high", "0 meld 0-6 1-5 2-4")
    # closing on the pickup: the hand is empty without a discard
    assert s.outcome is not None and s.outcome.winners == (0,)
    # seat 0's melds: pairs of 3 (3), a sum of 6 without 3-3 (2, not royal); seat 1's longer run scores nothing
    assert s.outcome.scores == (3 + 2 + 5, 0)
    assert next(e for e in s.history if e.kind == "round-end").data["how"] == "pickup"


def test_royal_melds_add_ten() -> None:
    s = from_position(position(["0-4 1-3 2-2", ELEVEN_B], tops=["5-6"]), target=0)
    play(s, "0 draw 2 top", "0 meld 0-4 1-3 2-2", "0 discard 5-6")
    assert s.outcome is not None
    assert s.outcome.scores == (2 + 10 + 11, 0)  # a royal sum of 4: value 2, +10; 11 dominoes left


def test_never_close_on_pickup(assert_rejected: Rejecter) -> None:
    text = position(
        ["0-6 2-4 1-5", "0-0 0-1 0-2 1-1 1-2"], melds="1: 0-3 1-3 2-3 | 0: 4-4 5-5 6-6", tops=["3-3"]
    )
    s = from_position(text, target=0, never_close_on_pickup=True)
    play(s, "0 draw 2 top", "0 layoff 0 3-3 high")
    assert_rejected(s, "0 meld 0-6 1-5 2-4", "CV-PICKUP-CLOSE")
    assert Meld(0, (d("0-6"), d("1-5"), d("2-4"))) not in s.legal_actions(0)
    play(s, "0 discard 2-4")
    assert s.outcome is None
    # closing by discarding is still fine
    s = from_position(position(["2-4 3-3 1-5", ELEVEN], tops=["0-6"]), target=0, never_close_on_pickup=True)
    play(s, "0 draw 2 top", "0 meld 0-6 1-5 2-4", "0 discard 3-3")
    assert s.outcome is not None and s.outcome.winners == (0,)


def test_keep_a_domino_you_may_discard_under_no_milling(assert_rejected: Rejecter) -> None:
    s = from_position(position(["1-5 2-4 3-3", ELEVEN], tops=["0-6"]), no_milling=True, target=0)
    play(s, "0 draw 2 top")
    # melding 1-5 2-4 3-3 would leave only 0-6, just drawn face up: it could not be discarded
    assert_rejected(s, "0 meld 1-5 2-4 3-3", "CV-KEEP-DISCARD")
    assert all(not isinstance(a, Meld) or d("0-6") in a.dominoes for a in s.legal_actions(0))
    play(s, "0 meld 0-6 1-5 2-4", "0 discard 3-3")
    assert s.outcome is not None


def test_max_turns_ends_a_round_without_score() -> None:
    s = from_position(position(HANDS_7), max_turns=3, target=0)
    for seat in (0, 1, 0):
        play(s, f"{seat} draw 2 top")
        drawn = s.view(seat)["drawn"]["piece"]
        play(s, f"{seat} discard {drawn}")
    assert s.outcome is not None
    assert s.outcome.reason == "max-turns" and s.outcome.winners == () and s.outcome.scores == (0, 0)


def test_a_match_plays_rounds_to_the_target() -> None:
    text = position(["0-4 1-3 2-2", ELEVEN_B], tops=["5-6"])
    s = from_position(text, target=30, seed=4)
    play(s, "0 draw 2 top", "0 meld 0-4 1-3 2-2", "0 discard 5-6")
    assert s.outcome is None and len(s.rounds) == 1 and s.rounds[0].scores == (23, 0)
    view = s.view(None)
    assert view["round"] == 2 and view["phase"] == "select" and view["totals"] == [23, 0]
    assert view["turn"] == 1  # the next round's selection starts with the next seat
    assert view["melds"] == [] and view["hand_sizes"] == [0, 0]
    assert every_domino(s) == double_set(6)
    bots = [conveyor_greedy(cv.INFO), conveyor_greedy(cv.INFO)]
    run_bots(s, bots)
    assert s.outcome is not None and s.outcome.match_over and s.outcome.reason == "target"
    assert max(s.outcome.totals) >= 30
    best = max(s.outcome.totals)
    assert s.outcome.winners == tuple(i for i, t in enumerate(s.outcome.totals) if t == best)


def test_max_rounds_ends_a_match() -> None:
    s = new_game("conveyor", players=2, seed=1, set=6, max_turns=2, max_rounds=3, target=500)
    run_bots(s, [RandomBot(cv.INFO), RandomBot(cv.INFO)])
    assert s.outcome is not None and len(s.rounds) == 3 and s.outcome.reason == "max-rounds"
    best = max(s.outcome.totals)
    assert s.outcome.winners == tuple(i for i, t in enumerate(s.outcome.totals) if t == best)


# -- domino runs -------------------------------------------------------------------------------------


def test_domino_runs_close_with_a_line(assert_rejected: Rejecter) -> None:
    base = position(["1-3 3-5 5-5 2-5 4-6 0-6 1-6", "0-0 0-1 0-2 0-3 1-1 1-2 1-4"], tops=["6-6"])
    plain = from_position(base, target=0)
    play(plain, "0 draw 2 top")
    assert_rejected(plain, "0 close 4-6", "CV-LINE-OFF")
    s = from_position(base, target=0, domino_runs=True)
    play(s, "0 draw 2 top")
    assert_rejected(s, "0 close 1-3", "CV-LINE")
    assert_rejected(s, "0 close 9-9", "CV-HAND")
    assert Close(0, d("4-6")) in s.legal_actions(0)
    play(s, "0 close 4-6")  # 1-3 3-5 5-5 5-2 ... a line of the other seven
    assert s.outcome is not None and s.outcome.winners == (0,)
    line = s.view(None)["melds"][-1]
    assert line["kind"] == "line" and len(line["pieces"]) == 7
    assert line["score"] == 7 - 3  # a run of 7
    assert s.outcome.scores == (4 + 7, 0)
    halves = [tuple(int(x) for x in w.split("-")) for w in line["layout"].split()]
    assert all(a[1] == b[0] for a, b in itertools.pairwise(halves))


def test_line_close_on_the_pickup_and_its_refusal(assert_rejected: Rejecter) -> None:
    # A whole hand of 7 and the pickup 6-6 form one line of 8: closing on the pickup (ruled: allowed).
    base = position(["1-3 3-5 5-5 2-5 0-2 0-6 4-6", "0-0 0-1 1-1 1-2 1-4 2-2 0-3"], tops=["6-6"])
    s = from_position(base, target=0, domino_runs=True)
    play(s, "0 draw 2 top")
    assert Close(0) in s.legal_actions(0)
    play(s, "0 close")
    assert s.outcome is not None and next(e for e in s.history if e.kind == "round-end").data["how"] == "line"
    assert len(s.view(None)["melds"][-1]["pieces"]) == 8 and s.outcome.scores == (8 - 3 + 7, 0)
    s = from_position(base, target=0, domino_runs=True, never_close_on_pickup=True)
    play(s, "0 draw 2 top")
    assert Close(0) not in s.legal_actions(0)
    assert_rejected(s, Close(0), "CV-PICKUP-CLOSE")
    # Before issue 10 this test closed on the pickup with a hand of 6 (a line of 7 in a game of hands of 7):
    # that hand is not whole, so the line is refused.
    short = position(["1-3 3-5 5-5 2-5 0-2 0-6", "0-0 0-1 1-1 1-2 1-4 2-2 0-3 0-4"], tops=["6-6"])
    s = from_position(short, target=0, domino_runs=True)
    play(s, "0 draw 2 top")
    assert not [a for a in s.legal_actions(0) if isinstance(a, Close)]
    error = assert_rejected(s, Close(0), "CV-LINE-SIZE")
    assert "8 dominoes" in str(error) and "yours would hold 7" in str(error)


def test_a_closing_line_is_a_whole_hand_so_never_after_melding(assert_rejected: Rejecter) -> None:
    # The case: 8 dominoes melded, then 3-4 4-5 5-6 (double-9, hands of 11) as a closing line.
    hands = ["3-4 4-5 5-6", "1-5 1-6 1-7 1-8 1-9 2-3 2-4 2-5 2-6 2-7 2-8"]
    text = position(hands, top=9, melds="0: 0-1 0-2 0-3 0-4 | 0: 1-1 2-2 3-3 4-4", tops=["6-7", "9-9"])
    s = from_position(text, target=0, domino_runs=True)
    play(s, "0 draw 2 top")  # 6-7: the hand 3-4 4-5 5-6 6-7 is one line of 4
    assert not [a for a in s.legal_actions(0) if isinstance(a, Close)]
    assert_rejected(s, "0 close", "CV-LINE-SIZE")
    error = assert_rejected(s, "0 close 6-7", "CV-LINE-SIZE")
    assert "11 dominoes" in str(error) and "yours would hold 3" in str(error)
    s = from_position(text, target=0, domino_runs=True)
    play(s, "0 draw 3 top")  # 9-9 fits nothing
    assert_rejected(s, "0 close 9-9", "CV-LINE-SIZE")
    # A lay-off spends the whole hand too: a line of the other six, after the discard, is refused.
    base = position(["1-3 3-5 5-5 2-5 4-6 0-6 1-6", "0-0 0-1 0-2 0-3"], melds="1: 2-2 3-3 4-4", tops=["6-6"])
    s = from_position(base, target=0, domino_runs=True)
    play(s, "0 draw 2 top")
    assert Close(0, d("4-6")) in s.legal_actions(0)
    play(s, "0 layoff 0 5-5 high")
    assert not [a for a in s.legal_actions(0) if isinstance(a, Close)]
    assert_rejected(s, "0 close 4-6", "CV-LINE-SIZE")


def test_bots_close_with_whole_hands_only() -> None:
    found = 0
    for seed in range(6):
        s = new_game("conveyor", players=2, seed=seed, set=6, target=30, domino_runs=True)
        run_bots(s, [conveyor_greedy(cv.INFO), RandomBot(cv.INFO)])
        hand = s.options["column_length"]
        for at, e in enumerate(s.history):
            if e.kind != "meld" or e.data["meld_kind"] != "line":
                continue
            found += 1
            # nothing of the closer's went on the table earlier in that round
            start = max(i for i, x in enumerate(s.history[:at]) if x.kind == "layout")
            assert not [x for x in s.history[start:at] if x.player == e.player and x.kind in ("meld", "layoff")]
            assert len(e.data["dominoes"]) in (hand, hand + 1)
    assert found >= 3, found


def test_branch_on_doubles_allows_a_branching_line() -> None:
    # Hands of 7 (before issue 10 this test closed with a line of 5, not a whole hand).
    base = position(["0-1 1-3 3-3 3-5 3-4 5-5 0-2", "0-0 1-1 1-2 1-4 2-2 0-3 0-4"], tops=["4-6"])
    s = from_position(base, target=0, domino_runs=True)
    play(s, "0 draw 2 top")
    with pytest.raises(RuleError) as info:
        s.apply(Close(0, d("0-2")))
    assert info.value.rule == "CV-LINE"
    s = from_position(base, target=0, domino_runs=True, branch_on_doubles=True)
    play(s, "0 draw 2 top", "0 close 0-2")
    assert s.outcome is not None
    assert "[" in s.view(None)["melds"][-1]["layout"]


# -- jump-ins ------------------------------------------------------------------------------------------

def four_player(**options: Any) -> Conveyor:
    """4 players, double-6 (7 columns of 4): hands of 4; conveyors 4 (0-3 on top), 5 (2-5 on top) and 6."""
    hands = ["0-1 0-2 5-5 6-6", "0-4 4-4 1-4 3-6", "1-1 1-2 1-3 4-6", "2-2 2-3 2-4 5-6"]
    return from_position(position(hands, tops=["0-3", "2-5"]), **options)


def test_without_jump_ins_out_of_turn_actions_are_refused(assert_rejected: Rejecter) -> None:
    s = four_player()
    play(s, "0 draw 4 top", "0 discard 6-6")
    assert s.to_act == frozenset({1})
    assert_rejected(s, "2 jump 6-6", "TURN")
    assert_rejected(s, "1 jump 6-6", "CV-PHASE")
    assert_rejected(s, "1 decline", "CV-PHASE")


def test_jump_in_window_takes_answers_out_of_turn_in_any_order(assert_rejected: Rejecter) -> None:
    s = four_player(jump_ins=True)
    play(s, "0 draw 4 top", "0 discard 6-6")
    assert s.to_act == frozenset({1, 2, 3}) and s.view(None)["phase"] == "jump"
    window = s.view(2)["jump_window"]
    assert window["piece"] == "6-6" and window["discarder"] == 0 and window["end"] == "bottom"
    assert_rejected(s, "0 jump 6-6", "TURN")
    assert_rejected(s, "3 jump 5-5", "CV-JUMP-DOMINO")
    assert_rejected(s, "3 jump 6-6 with 5-6 4-6", "CV-JUMP-WITH")
    assert_rejected(s, "3 draw 5 top", "CV-PHASE")
    play(s, "3 jump 6-6")
    assert s.to_act == frozenset({1, 2})
    assert s.view(1)["jump_window"]["answered"] == [3]
    assert "my_answer" not in s.view(1)["jump_window"]  # answers are sealed until all are in
    assert s.view(3)["jump_window"]["my_answer"] == "jump 6-6"
    assert "claim" not in s.history[-1].seen_by(1) and s.history[-1].seen_by(3)["claim"] == "jump 6-6"
    play(s, "2 jump 6-6", "1 decline")
    # seat 2 is nearer after the discarder (0) than seat 3: seat 2 wins
    view = s.view(None)
    assert view["phase"] == "play" and view["turn"] == 2 and s.to_act == frozenset({2})
    assert d("6-6") in s.hands[2] and s.hands[3] == parse_dominoes("2-2 2-3 2-4 5-6")
    assert view["drawn"]["jumped"] is True and view["drawn"]["discard_end"] == "top"
    resolved = next(e for e in reversed(s.history) if e.kind == "jump-resolved")
    assert resolved.data["claimers"] == [2, 3] and resolved.data["winner"] == 2
    play(s, "2 discard 1-1")
    assert s.view(None)["columns"][4]["top"] == "1-1"  # the opposite end of the same conveyor
    play(s, "0 decline", "1 decline", "3 decline")
    assert s.view(None)["turn"] == 3  # play continues from the jumper


def test_all_declines_let_the_next_player_draw() -> None:
    s = four_player(jump_ins=True)
    play(s, "0 draw 4 top", "0 discard 6-6", "2 decline", "3 decline", "1 decline")
    assert s.view(None)["phase"] == "draw" and s.view(None)["turn"] == 1


def test_jump_in_only_on_completion(assert_rejected: Rejecter) -> None:
    s = four_player(jump_ins=True, jump_in_only_on_completion=True)
    play(s, "0 draw 6 top", "0 discard 0-1")
    assert_rejected(s, "2 jump 0-1", "CV-JUMP-COMPLETE")
    assert_rejected(s, "2 jump 0-1 with 0-1 1-2", "CV-HAND")
    assert_rejected(s, "2 jump 0-1 with 1-2 5-5", "CV-HAND")
    assert_rejected(s, "2 jump 0-1 with 1-3 4-6", "CV-MELD-KIND")
    assert Jump(2, d("0-1"), (d("1-1"), d("1-2"))) in s.legal_actions(2)
    assert [a for a in s.legal_actions(1) if isinstance(a, Jump)] == []
    play(s, "2 jump 0-1 with 1-1 1-2", "1 decline", "3 decline")
    view = s.view(None)
    assert view["turn"] == 2 and view["melds"][-1]["pieces"] == ["0-1", "1-1", "1-2"]
    assert view["melds"][-1]["owner"] == 2 and view["hand_sizes"][2] == 2


def test_jump_ins_need_three_players() -> None:
    with pytest.raises(OptionError):
        new_game("conveyor", players=2, seed=0, jump_ins=True)


# -- partners ------------------------------------------------------------------------------------------


def test_partners_close_scores_the_other_teams_dominoes() -> None:
    hands = ["0-4 1-3 2-2", "0-0 0-1 5-5 3-6 4-4", "1-1 1-2 1-4 4-6", "0-2 2-3 2-4 5-6"]
    # double-6, 7 columns of 4: 4 claimed, three conveyors of 4 = 12; hands 3+5+4+4 = 16
    s = from_position(position(hands, tops=["6-6", "2-5"]), partners=True, target=0)
    assert s.view(None)["teams"] == [[0, 2], [1, 3]]
    play(s, "0 draw 4 top", "0 meld 0-4 1-3 2-2", "0 discard 6-6")
    assert s.outcome is not None
    # royal sum of 4 (2 + 10) and seats 1 and 3 hold 5 + 4 dominoes; seat 2's do not count.
    # The points are the closer's seat's; the team's score is one number, 21 (before issue 10 both
    # partners' seats got 21 each, so adding them counted the round twice).
    assert s.outcome.scores == (21, 0, 0, 0) and s.outcome.winners == (0, 2)
    assert s.outcome.team_totals == (21, 0) and s.team_totals == (21, 0)
    assert s.view(None)["team_totals"] == [21, 0]
    end = next(e for e in s.history if e.kind == "round-end")
    assert end.data["team_scores"] == [21, 0] and end.data["team_totals"] == [21, 0]
    assert end.data["teams"] == [[0, 2], [1, 3]]
    with pytest.raises(OptionError):
        new_game("conveyor", players=3, seed=0, partners=True)


def test_partners_team_score_is_compared_with_the_target_once() -> None:
    hands = ["0-4 1-3 2-2", "0-0 0-1 5-5 3-6 4-4", "1-1 1-2 1-4 4-6", "0-2 2-3 2-4 5-6"]
    s = from_position(position(hands, tops=["6-6", "2-5"]), partners=True, target=30)
    play(s, "0 draw 4 top", "0 meld 0-4 1-3 2-2", "0 discard 6-6")
    # 21 for seats 0 and 2 together: below 30, so a new round is dealt
    assert s.outcome is None and s.totals == [21, 0, 0, 0] and s.team_totals == (21, 0)
    assert s.view(None)["round"] == 2


@pytest.mark.parametrize("seed", [1, 20])
def test_partners_match_totals_add_up_and_the_best_team_wins(seed: int) -> None:
    s = new_game("conveyor", players=4, seed=seed, set=6, partners=True, target=25, max_rounds=6)
    run_bots(s, [conveyor_greedy(cv.INFO) for _ in range(4)])
    assert s.outcome is not None
    totals = [0, 0, 0, 0]
    for i, r in enumerate(s.rounds):
        closers = [seat for seat, points in enumerate(r.scores) if points]
        assert len(closers) <= 1  # one seat scores a round: nothing is counted twice
        totals = [t + p for t, p in zip(totals, r.scores, strict=True)]
        assert list(r.totals) == totals
        team = (totals[0] + totals[2], totals[1] + totals[3])
        assert r.team_totals == team and r.team_scores == (r.scores[0] + r.scores[2], r.scores[1] + r.scores[3])
        # the match goes on exactly while no team total has reached the target
        assert r.match_over == (max(team) >= 25 or i + 1 == 6)
    final = s.outcome.team_totals
    assert final is not None
    best = max(final)
    assert s.outcome.winners == tuple(sorted(seat for k, t in enumerate(((0, 2), (1, 3))) if final[k] == best for seat in t))


# -- views, records, positions, listing ----------------------------------------------------------------


def test_views_show_only_what_a_seat_may_see() -> None:
    s = from_position(position(HANDS_7, tops=["3-4"]))
    assert "hand" not in s.view(None)
    assert s.view(0)["hand"] == sorted(HANDS_7[0].split(), key=lambda t: d(t).code)
    assert s.view(1)["hand"] != s.view(0)["hand"]
    text = json.dumps(s.view(1))
    for hidden in HANDS_7[0].split():
        assert f'"{hidden}"' not in text
    with pytest.raises(RuleError) as info:
        s.view(5)
    assert info.value.rule == "SEAT"


def test_record_replays_to_the_identical_snapshot() -> None:
    s = new_game("conveyor", players=3, seed=21, jump_ins=True, target=0)
    bots = [conveyor_greedy(cv.INFO) for _ in range(3)]
    run_bots(s, bots)
    text = write_record(s)
    again = read_record(text)
    assert again.snapshot() == s.snapshot()
    assert write_record(again) == text
    assert any(" jump " in line or line.endswith(" decline") for line in text.splitlines())


def test_position_round_trip() -> None:
    text = position(HANDS_7, tops=["3-4"], known="0-0 / 6-6", turn=1, turns=4)
    s = from_position(text)
    again = from_position(s.position())
    assert again.position() == s.position()
    assert again.view(0) == s.view(0) and again.view(None) == s.view(None)
    assert s.view(None)["turn_number"] == 5 and s.view(0)["hand_known"] == [["0-0"], ["6-6"]]
    play(s, "1 draw 2 top")
    with pytest.raises(RuleError) as info:
        s.position()
    assert info.value.rule == "CV-POSITION"


def test_a_record_can_start_from_a_position() -> None:
    s = from_position(position(HANDS_7, tops=["3-4"]), target=0, no_milling=True)
    play(s, "0 draw 2 top", "0 discard 0-3", "1 draw 3 bottom")
    text = write_record(s)
    assert "\nposition: columns: claimed 0 / claimed 1 / 3-4 " in text
    again = read_record(text)
    assert again.snapshot() == s.snapshot() and write_record(again) == text
    with pytest.raises(ParseError):
        from_position(position(HANDS_7), set=9)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hands: 0-0", "needs 'columns"),
        ("columns: claimed 0 / claimed 1; hands: 0-0 / 1-1; bogus: 1", "bad position field"),
        (position(HANDS_7).replace("0-0 0-1", "0-1 0-1"), "exactly once"),
        (position(HANDS_7).replace("claimed 1", "claimed 0"), "exactly one column"),
        (position(HANDS_7).replace("turn: 0", "turn: 4"), "turn must be a seat"),
        (position(HANDS_7).replace("turns: 0", "turns: 500"), "max_turns"),
    ],
)
def test_bad_positions_are_refused(text: str, words: str) -> None:
    with pytest.raises(ParseError) as info:
        from_position(text)
    assert words in str(info.value)


def test_actions_read_back_exactly() -> None:
    s = new_game("conveyor", players=3, seed=2)
    for action in [
        Reveal(1, 3, 5), Claim(0, 2), Draw(2, 4, "bottom"), Meld(0, tuple(parse_dominoes("3-4 4-4 4-5"))),
        Layoff(1, 2, d("3-6"), "high"), Discard(0, d("2-5")), Close(1), Close(1, d("0-9")),
        Jump(2, d("3-5")), Jump(2, d("3-5"), tuple(parse_dominoes("3-3 3-4"))), Decline(1),
    ]:
        assert s.parse_action(str(action)) == action
        assert repr(action).startswith(type(action).__name__)
    for bad in ["0 draw 2 middle", "0 layoff 0 3-4 left", "0 jump 3-5 3-3", "0 fly", "0 reveal x 1", "0 meld"]:
        with pytest.raises(ParseError):
            s.parse_action(bad)


def test_listed_actions_are_all_accepted_and_views_list_the_same() -> None:
    for seed, options in [(1, {}), (2, {"jump_ins": True, "jump_in_only_on_completion": True}),
                          (3, {"domino_runs": True, "branch_on_doubles": True, "no_milling": True})]:
        players = 2 if not options.get("jump_ins") else 4
        s = new_game("conveyor", players=players, seed=seed, target=0, set=6, **options)
        rng = Rng(seed)
        steps = 0
        while s.outcome is None and steps < 120:
            for seat in sorted(s.to_act):
                listed = s.legal_actions(seat)
                assert listed == actions_from_view(s.view(seat))
                for action in listed:
                    s.copy().apply(action)
            for seat in range(players):
                if seat not in s.to_act:
                    assert s.legal_actions(seat) == [] and actions_from_view(s.view(seat)) == []
            seat = min(s.to_act)
            s.apply(rng.choice(s.legal_actions(seat)))
            steps += 1


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(12):
        s = new_game("conveyor", players=2, seed=seed, target=0)
        run_bots(s, [conveyor_greedy(cv.INFO), RandomBot(cv.INFO)])
        assert s.outcome is not None
        wins += s.outcome.winners == (0,)
    assert wins >= 10


def test_greedy_claims_useful_jump_ins() -> None:
    s = four_player(jump_ins=True)
    play(s, "0 draw 6 top", "0 discard 0-1")
    bot = conveyor_greedy(cv.INFO)
    assert str(bot.choose(s.view(2), Rng(0))) == "2 jump 0-1"  # 0-1 1-1 1-2... 1-1 1-2 1-3 + 0-1 runs
    assert str(bot.choose(s.view(3), Rng(0))) == "3 decline"


# -- the rules page ------------------------------------------------------------------------------------


def test_rules_page_explains_every_option_and_rule_id() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for spec in cv.INFO.options:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{spec.name}` |")), None)
        assert row is not None, f"the options table has no row for {spec.name}"
        assert row.split("|")[2].strip() == spec.format(spec.default), row
    pkg = ROOT / "src" / "rummykit"
    paths = [*sorted((pkg / "rulesets" / "conveyor").glob("*.py"))]
    paths += [pkg / p for p in ("melds/conveyor.py", "blocks/conveyor.py", "bots/conveyor.py")]
    source = "".join(p.read_text(encoding="utf-8") for p in paths)
    ids = set(re.findall(r'"(CV-[A-Z0-9-]+)"', source)) | {
        f"CV-{x}" for x in re.findall(r'f"\{PREFIX\}-([A-Z0-9-]+)"', source)
    }
    assert len(ids) >= 20
    missing = sorted(i for i in ids if f"`{i}`" not in text)
    assert not missing, missing


def test_rules_page_examples_run() -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {"__name__": "__docs__"}, "conveyor.md", str(PAGE), 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_rules_page_records_replay() -> None:
    text = PAGE.read_text(encoding="utf-8")
    records = re.findall(r"```text\n(rummykit record 1\n.*?)```", text, flags=re.DOTALL)
    assert records
    for record in records:
        state = read_record(record)
        assert state.actions


# -- refusals carry their data ------------------------------------------------------------------


def test_column_and_cell_refusals_carry_their_positions_from_0_and_word_them_from_1() -> None:
    from rummykit.catalogue import new_game
    from rummykit.errors import RuleError
    from rummykit.presenters.base import word_refusal

    s = new_game("conveyor", players=2, seed=4, set=6)
    seat = min(s.to_act)

    def refusal(text: str) -> RuleError:
        before = s.snapshot()
        with pytest.raises(RuleError) as caught:
            s.apply(s.parse_action(text))
        assert s.snapshot() == before
        return caught.value

    up = next(i for i, c in enumerate(s.view(seat)["columns"][2]["cells"]) if c != "??")
    face_up = refusal(f"{seat} reveal 2 {up}")
    assert face_up.rule == "CV-REVEAL" and face_up.params["cell"] == up and face_up.params["column"] == 2
    assert str(face_up).startswith(f"cell {up} of column 2 is already face up")
    assert word_refusal(face_up).startswith(f"cell {up + 1} of column 3 is already face up")
    no_cell = refusal(f"{seat} reveal 2 7")
    assert (no_cell.rule, no_cell.params) == ("CV-REVEAL", {"cell": 7, "first": 0, "last": 6, "column": 2})
    assert word_refusal(no_cell) == "there is no cell 8 in column 3: the cells are 1..7 (rule CV-REVEAL)"
    s.apply(s.parse_action(f"{seat} claim 1"))
    other = min(s.to_act)
    claimed = refusal(f"{other} claim 1")
    assert (claimed.rule, claimed.params) == ("CV-COLUMN-CLAIMED", {"column": 1, "seat": seat})
    assert str(claimed) == f"column 1 was claimed by seat {seat}: claim an unclaimed column (rule CV-COLUMN-CLAIMED)"
    assert word_refusal(claimed, ["Ann", "Bo"], viewer=other) == (
        f"column 2 was claimed by {['Ann', 'Bo'][seat]}: claim an unclaimed column (rule CV-COLUMN-CLAIMED)"
    )
    assert word_refusal(claimed, ["Ann", "Bo"], viewer=seat).startswith("column 2 was claimed by you:")
