"""Mummus rules, one test (or a few) per rule of docs/games/mummus.md, each named after what it enforces.

Every refusal goes through ``assert_rejected`` (tests/conftest.py): the
action must raise the named rule id, and the snapshot, every view and the
history must be exactly as before.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from conftest import Rejecter

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, ParseError, RuleError
from rummykit.pieces.cards import DECK, Card
from rummykit.records import read_record, write_record
from rummykit.rulesets.mummus import HAND_SIZE, INFO, Addon, Mummus, Rummy, from_position
from rummykit.sim import run_bots


def named_cards(text: str) -> set[str]:
    found = set()
    for word in text.replace("/", " ").replace("|", " ").replace(";", " ").split():
        head = word.split("@")[0]
        try:
            found.add(str(Card.parse(head)))
        except ParseError:
            continue
    return found


def position(text: str, top: str = "", **options: Any) -> Mummus:
    """A position whose stock holds every other card, ``top`` drawn first (its last card first)."""
    tops = top.split()
    named = named_cards(text) | set(tops)
    rest = [str(c) for c in DECK if str(c) not in named]
    options.setdefault("target", 0)
    state = from_position(f"{text}; stock: {' '.join(rest + tops[::-1])}", **options)
    return state


def play(state: Mummus, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def hand(state: Mummus, seat: int) -> list[str]:
    return list(state.view(seat)["hand"])


def mummus(players: int, seed: int, **options: Any) -> Mummus:
    state = new_game("mummus", players=players, seed=seed, **options)
    assert isinstance(state, Mummus)
    return state


# -- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seven_cards_each_the_rest_is_the_stock_and_the_discard_pile_starts_empty(players: int) -> None:
    state = mummus(players, players)
    view = state.view(None)
    assert view["hand_sizes"] == [HAND_SIZE] * players
    assert view["stock_size"] == 52 - HAND_SIZE * players and view["discard"] == [] and view["melds"] == []
    assert view["turn"] == (view["dealer"] + 1) % players  # left of the dealer starts
    every = [c for s in range(players) for c in state.view(s)["hand"]] + [str(c) for c in state.piles.stock]
    assert sorted(every) == sorted(str(c) for c in DECK)


def test_the_deal_is_one_card_at_a_time_from_the_left_of_the_dealer_and_the_seed_decides_it() -> None:
    state = mummus(3, 11)
    rng = Rng(11)
    dealer = rng.below(3)
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[Card]] = [[], [], []]
    for _ in range(HAND_SIZE):
        for k in range(3):
            hands[(dealer + 1 + k) % 3].append(deck.pop())
    assert state.dealer == dealer and state.current == (dealer + 1) % 3
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
    assert new_game("mummus", players=3, seed=11).snapshot() == state.snapshot()


def test_the_deal_rotates_each_round() -> None:
    state = new_game("mummus", players=3, seed=5, target=300)
    run_bots(state, [make_bot("greedy", "mummus") for _ in range(3)])
    deals = [e.data for e in state.history if e.kind == "deal"]
    assert len(deals) == len(state.rounds) >= 2
    for before, after in itertools.pairwise(deals):
        assert after["dealer"] == (before["dealer"] + 1) % 3 and after["first"] == (after["dealer"] + 1) % 3


def test_players_and_options_are_checked() -> None:
    with pytest.raises(OptionError, match="2 to 6 players"):
        new_game("mummus", players=7)
    with pytest.raises(OptionError, match="2 to 6 players"):
        new_game("mummus", players=1)
    with pytest.raises(OptionError, match="RANK=POINTS"):
        new_game("mummus", card_points="ace=1")
    with pytest.raises(OptionError, match="whole number"):
        new_game("mummus", card_points="A=x")
    with pytest.raises(OptionError, match="0 to 1000"):
        new_game("mummus", card_points="A=-1")
    assert new_game("mummus", card_points="k=13, a=1").options["card_points"] == "A=1,K=13"
    assert new_game("mummus", card_points="A=15,K=10").options["card_points"] == "standard"


# -- the draw -------------------------------------------------------------------------------


def test_a_turn_starts_with_a_draw(assert_rejected: Rejecter) -> None:
    state = position("hands: 5H 6H 7H 2C / 3D 4D")
    assert_rejected(state, "0 meld 5H 6H 7H", "MU-DRAW-FIRST")
    assert_rejected(state, "0 discard 2C", "MU-DRAW-FIRST")
    play(state, "0 draw")
    assert_rejected(state, "0 draw", "MU-DRAW-ONCE")


def test_one_draw_per_turn_from_the_stock_or_the_discard_pile(assert_rejected: Rejecter) -> None:
    state = position("hands: 5H 6H / 3D 4D; discard: 9S JC")
    play(state, "0 take JC")
    assert_rejected(state, "0 take 9S", "MU-DRAW-ONCE")
    assert_rejected(state, "0 draw", "MU-DRAW-ONCE")


def test_only_the_player_to_move_draws_melds_and_discards(assert_rejected: Rejecter) -> None:
    state = position("hands: 5H 6H / 3D 4D 9C; melds: 0: 10C JC QC")
    assert state.may_act == {1}  # 9C fits the clubs run: seat 1 may act, but only add on
    err = assert_rejected(state, "1 draw", "MU-TURN")
    assert "out of turn you may only add on" in err.reason
    assert err.reason.startswith(f"you cannot draw now: it is {state.players[0]}'s turn") and "seat" not in err.reason
    assert_rejected(state, "1 discard 3D", "MU-TURN")
    other = position("hands: 5H 6H / 3D 4D")
    assert other.may_act == frozenset()  # nothing to do: the refusal still names the rule
    assert_rejected(other, "1 take 3D", "MU-TURN")
    assert_rejected(other, "1 meld 3D 4D 5D", "MU-TURN")


def test_the_top_discard_is_an_ordinary_draw() -> None:
    state = position("hands: 5H 6H / 3D 4D; discard: 9S JC")
    play(state, "0 take JC")
    view = state.view(None)
    assert view["discard"] == ["9S"] and view["deep"] is None and view["hand_known"][0] == ["JC"]
    play(state, "0 discard JC")  # no obligation: it may go straight back
    assert state.view(None)["discard"] == ["9S", "JC"] and state.current == 1


def test_a_deep_take_takes_the_card_and_every_card_above_it() -> None:
    state = position("hands: 9H 10H 3S KS / 2C 3C 4D; discard: 7C 8H 2D JC")
    play(state, "0 take 8H")
    view = state.view(0)
    assert view["discard"] == ["7C"] and view["deep"] == "8H"
    assert sorted(view["hand_known"][0]) == ["2D", "8H", "JC"] and view["hand_sizes"][0] == 7
    assert {"8H", "2D", "JC"} <= set(view["hand"])
    take = state.history[-1].seen_by(1)
    assert take["kind"] == "take" and take["cards"] == ["8H", "2D", "JC"] and take["deep"] is True


def test_a_deep_take_is_refused_when_the_card_could_not_be_used_this_turn(assert_rejected: Rejecter) -> None:
    state = position("hands: 9H 3S KS 4C / 2C 3C; discard: 8H 2D JC")
    err = assert_rejected(state, "0 take 8H", "MU-DEEP-USE")
    assert "8H lies under 2 cards;" in err.reason
    one = position("hands: 9H 3S KS 4C / 2C 3C; discard: 8H JC")
    assert "8H lies under 1 card;" in assert_rejected(one, "0 take 8H", "MU-DEEP-USE").reason
    # the whole pile may be taken to reach its bottom card, when that card can be used
    whole = position("hands: 9H 10H 3S / 2C 3C; discard: 8H 2D JC KC")
    play(whole, "0 take 8H")
    assert whole.view(None)["discard"] == [] and len(hand(whole, 0)) == 7


def test_a_deep_card_must_leave_a_card_to_discard(assert_rejected: Rejecter) -> None:
    # 7H 8H 9H would use the whole hand and 7H 8H onto 10H JH QH too: no use that keeps a card
    state = position("hands: 9H / 2C 3C; melds: 1: 10H JH QH; discard: 7H 8H")
    assert_rejected(state, "0 take 7H", "MU-DEEP-USE")
    ok = position("hands: 9H 4S / 2C 3C; melds: 1: 10H JH QH; discard: 7H 8H")
    play(ok, "0 take 7H", "0 addon 7H 8H 9H to 10H", "0 discard 4S")
    assert ok.outcome is not None and ok.outcome.reason == "out"


def test_the_turn_cannot_end_until_the_deep_card_is_used(assert_rejected: Rejecter) -> None:
    state = position("hands: 9H 10H 3S KS / 2C 3C 4D; discard: 8H 2D JC")
    play(state, "0 take 8H")
    err = assert_rejected(state, "0 discard 2D", "MU-DEEP-PLAY")
    assert "the turn cannot end" in err.reason and "8H" in err.reason
    assert not any(a.text().startswith("discard") for a in state.legal_actions(0))
    play(state, "0 meld 8H 9H 10H")
    assert state.view(None)["deep"] is None
    play(state, "0 discard 2D")
    assert state.current == 1


def test_a_deep_card_may_be_used_as_an_add_on() -> None:
    state = position("hands: 2C 3C / 4D 5D; melds: 1: 5H 6H 7H; discard: 8H KD")
    play(state, "0 take 8H", "0 addon 8H to 6H", "0 discard KD")
    meld = state.view(None)["melds"][0]
    assert meld["cards"] == ["5H", "6H", "7H", "8H"] and meld["laid_by"] == [1, 1, 1, 0]


def test_nothing_may_take_away_the_deep_cards_use(assert_rejected: Rejecter) -> None:
    state = position("hands: 9H 10H 9C 9D KS / 2C 3C; discard: 8H 2D")
    play(state, "0 take 8H")
    err = assert_rejected(state, "0 meld 9C 9D 9H", "MU-DEEP-KEEP")
    assert "could no longer use 8H" in err.reason
    assert "meld 9C 9D 9H" not in [a.text() for a in state.legal_actions(0)]
    play(state, "0 meld 8H 9H 10H")
    assert state.view(None)["deep"] is None


# -- melds and add-ons ----------------------------------------------------------------------


def test_melds_are_checked_and_only_in_your_own_turn(assert_rejected: Rejecter) -> None:
    state = position("hands: 5H 6H 8H 5S 7C 2C KD / 3D 4D 5D 9S", top="AC")
    play(state, "0 draw")
    assert_rejected(state, "0 meld 5H 6H 8H", "MU-RUN")
    assert_rejected(state, "0 meld 5H 6H", "MU-MELD-SIZE")
    assert_rejected(state, "0 meld 5H 5S 7C", "MU-MELD-KIND")
    assert_rejected(state, "0 meld 5H 5H 5S", "MU-MELD-REPEAT")
    assert_rejected(state, "0 meld 5H 6H 7H", "MU-HAND")
    assert_rejected(state, "1 meld 3D 4D 5D", "MU-TURN")
    assert_rejected(state, "0 meld KD AC 2C", "MU-MELD-KIND")  # K A 2 wraps, but only within one suit


def test_a_run_wraps_round_the_ace() -> None:
    state = position("hands: KS AS 2S 9D / 3D 4D 5D 9S", top="QS")
    play(state, "0 draw", "0 meld QS KS AS 2S")
    assert state.view(None)["melds"][0]["cards"] == ["QS", "KS", "AS", "2S"]


def test_a_meld_or_add_on_may_never_empty_a_hand(assert_rejected: Rejecter) -> None:
    state = position("hands: 5H 6H / 3D 4D 8H; melds: 1: 9C 9D 9S", top="7H")
    play(state, "0 draw")
    err = assert_rejected(state, "0 meld 5H 6H 7H", "MU-KEEP-CARD")
    assert "discards their last card" in err.reason and err.reason.startswith("this meld would empty your hand")
    out = position("hands: 5H 6H 7H / 9H; melds: 1: 9C 9D 9S")
    assert out.may_act == frozenset()  # seat 1's only card fits, but adding it would empty the hand
    assert_rejected(out, "1 addon 9H to 9C", "MU-KEEP-CARD")


def test_add_ons_any_time_also_out_of_turn_and_before_your_own_draw() -> None:
    state = position("hands: 8H 2C 3C / 4H 9D KD / QC QD JS; melds: 2: 5H 6H 7H")
    assert state.may_act == {1}
    play(state, "0 addon 8H to 5H")  # the player to move, before the draw
    play(state, "1 addon 4H to 5H")  # out of turn
    play(state, "0 draw")
    meld = state.view(None)["melds"][0]
    assert meld["cards"] == ["4H", "5H", "6H", "7H", "8H"] and meld["laid_by"] == [1, 2, 2, 2, 0]
    addon = [e for e in state.history if e.kind == "addon"][-1].seen_by(None)
    assert addon["in_turn"] is False and addon["player"] == 1 and addon["points"] == 4


def test_an_add_on_goes_to_one_end_and_must_fit(assert_rejected: Rejecter) -> None:
    state = position("hands: 4H 8H 9S 2C / 3D 4D; melds: 1: 5H 6H 7H | 0: 9C 9D 9H")
    assert_rejected(state, "0 addon 4H 8H to 6H", "MU-ADDON-END")
    assert_rejected(state, "0 addon 2C to 6H", "MU-ADDON-FIT")
    assert_rejected(state, "0 addon 9S 8H to 9C", "MU-ADDON-FIT")
    assert_rejected(state, "0 addon 4H to 2C", "MU-MELD-NONE")
    assert assert_rejected(state, "0 addon 3D to 5H", "MU-HAND").reason == "3D is not in your hand"
    assert assert_rejected(state, "0 addon 3D 4D to 9C", "MU-HAND").reason == "3D 4D are not in your hand"
    play(state, "0 addon 4H to 7H", "0 addon 8H to 5H", "0 addon 9S to 9D")


def test_a_card_that_fits_two_melds_goes_where_its_player_says() -> None:
    text = "hands: 8H 2C / 3D 4D; melds: 1: 5H 6H 7H | 1: 8C 8D 8S"
    listed = {a.text() for a in position(text).legal_actions(0)}
    assert {"addon 8H to 5H", "addon 8H to 8C"} <= listed
    for target, index in (("6H", 0), ("8D", 1)):
        state = position(text)
        play(state, f"0 addon 8H to {target}")
        melds = state.view(None)["melds"]
        assert "8H" in melds[index]["cards"] and "8H" not in melds[1 - index]["cards"]


# -- rummy calls ----------------------------------------------------------------------------


CALLS = "hands: 2C 9D / 4H 9S KD / QC QD; melds: 1: 5H 6H 7H; discard: 8H 3D"


def test_anyone_may_call_rummy_out_of_turn_and_the_claim_scores_for_the_caller() -> None:
    state = position(CALLS)
    assert state.may_act == {1, 2} and state.view(None)["claimable"] == ["8H"]
    play(state, "2 rummy 8H to 5H")
    view = state.view(None)
    assert view["discard"] == ["3D"] and view["melds"][0]["laid_by"] == [1, 1, 1, 2]
    assert view["laid_points"] == [0, 18, 8] and view["hand_sizes"] == [2, 3, 2]
    assert view["claimable"] == []


def test_a_claim_is_never_automatic() -> None:
    state = position(CALLS)
    play(state, "0 draw", "0 discard 9D", "1 draw")
    assert "8H" in state.view(None)["discard"] and state.view(None)["claimable"] == ["8H"]
    assert not any(e.kind == "rummy" for e in state.history)


def test_the_first_valid_call_wins(assert_rejected: Rejecter) -> None:
    state = position(CALLS)
    play(state, "2 rummy 8H to 5H")
    err = assert_rejected(state, "1 rummy 8H to 5H", "MU-RUMMY-PILE")
    assert "another player may have claimed or taken it first" in err.reason


def test_a_call_beats_the_player_to_move_who_wanted_the_same_card(assert_rejected: Rejecter) -> None:
    state = position(CALLS)
    assert "take 8H" in [a.text() for a in state.legal_actions(0)]
    play(state, "1 rummy 8H to 7H")
    assert_rejected(state, "0 take 8H", "MU-TAKE")
    # ... and the other way round: the player to move takes it first, the call is refused
    other = position(CALLS)
    play(other, "0 take 8H")
    assert_rejected(other, "1 rummy 8H to 5H", "MU-RUMMY-PILE")


def test_a_deep_claim_takes_only_the_claimed_cards() -> None:
    state = position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 3D JC QS")
    play(state, "1 rummy 8H to 5H")
    assert state.view(None)["discard"] == ["3D", "JC", "QS"]
    assert state.view(1)["hand"] == ["KD", "4S", "9S"]  # nothing went into the caller's hand


def test_discards_that_form_a_meld_may_be_claimed_as_a_new_meld(assert_rejected: Rejecter) -> None:
    state = position("hands: 2C 9D / 4H 9S KD; discard: 4C 9C 4D 4S")
    assert state.view(None)["claimable"] == ["4C", "4D", "4S"]
    assert_rejected(state, "1 rummy 4C 4D 9C", "MU-MELD-KIND")
    assert_rejected(state, "1 rummy 4C 4D 4H", "MU-RUMMY-PILE")
    assert_rejected(state, "1 rummy 4C to 4D", "MU-MELD-NONE")
    play(state, "1 rummy 4C 4D 4S")
    view = state.view(None)
    assert view["discard"] == ["9C"] and view["melds"][0] == {
        "index": 0, "kind": "set", "cards": ["4C", "4D", "4S"], "laid_by": [1, 1, 1]
    }


def test_a_claim_may_take_several_discards_onto_one_end_of_a_run(assert_rejected: Rejecter) -> None:
    state = position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 9H KC 8H 4H")
    assert_rejected(state, "1 rummy 4H 8H to 5H", "MU-ADDON-END")
    assert_rejected(state, "1 rummy 9H to 5H", "MU-ADDON-FIT")
    play(state, "1 rummy 9H 8H to 5H")
    assert state.view(None)["melds"][0]["cards"] == ["5H", "6H", "7H", "8H", "9H"]
    assert state.view(None)["discard"] == ["KC", "4H"]


def test_the_player_to_move_may_call_too_and_out_of_turn_seats_are_ordered_after_it() -> None:
    state = position(CALLS)
    assert "rummy 8H to 5H" in [a.text() for a in state.legal_actions(0)]
    assert state.act_order(state.may_act) == [1, 2]
    later = position(CALLS.replace("hands:", "turn: 1; hands:"))
    assert later.act_order(later.may_act | {0}) == [2, 0]  # turn order after seat 1, not seat numbers


# -- the end of a round and scoring -----------------------------------------------------------


def test_the_round_ends_only_with_the_discard_of_the_last_card_and_cards_score() -> None:
    state = position("hands: 5H 6H 7H / KS AD 10C; melds: 1: 2S 3S 4S", top="2C")
    play(state, "0 draw", "0 meld 5H 6H 7H")
    assert state.outcome is None
    play(state, "0 discard 2C")
    assert state.outcome is not None and state.outcome.reason == "out" and state.outcome.winners == (0,)
    # seat 0: 5 + 6 + 7 laid; seat 1: 2 + 3 + 4 laid minus K 10 + A 15 + 10
    assert state.outcome.scores == (18, 9 - 35)
    end = next(e for e in state.history if e.kind == "round-end").seen_by(None)
    assert end["laid_points"] == [18, 9] and end["hand_points"] == [0, 35] and end["out"] == 0
    assert end["hands"] == [[], ["10C", "AD", "KS"]]


def test_card_points_change_the_scores() -> None:
    state = position("hands: 5H 6H 7H / KS AD 10C; melds: 1: 2S 3S 4S", top="2C", card_points="A=1,K=13")
    play(state, "0 draw", "0 meld 5H 6H 7H", "0 discard 2C")
    assert state.outcome is not None and state.outcome.scores == (18, 9 - (13 + 1 + 10))


def test_max_turns_ends_a_round_scored_as_it_stands() -> None:
    state = position("hands: 5H 9C / KS 2D; melds: 0: 5S 6S 7S", max_turns=2)
    play(state, "0 draw", "0 discard 9C", "1 draw")
    drawn = next(c for c in hand(state, 1) if c not in ("KS", "2D"))
    play(state, f"1 discard {drawn}")
    assert state.outcome is not None and state.outcome.reason == "max-turns"
    laid, _left, scores = state.round_scores()
    assert state.outcome.scores == scores and laid[0] == 18 and state.outcome.winners == (0,)


def test_a_match_plays_rounds_to_the_target() -> None:
    state = new_game("mummus", players=2, seed=8, target=150)
    run_bots(state, [make_bot("greedy", "mummus"), make_bot("random", "mummus")])
    assert state.outcome is not None and state.outcome.reason in ("target", "max-rounds")
    assert len(state.rounds) >= 2
    totals = [sum(r.scores[s] for r in state.rounds) for s in range(2)]
    assert list(state.outcome.totals) == totals and max(totals) >= 150
    assert state.view(None)["phase"] == "over" and state.to_act == frozenset()
    with pytest.raises(RuleError) as over:
        state.apply(state.parse_action("0 draw"))
    assert over.value.rule == "GAME-OVER"


# -- the stock runs out -----------------------------------------------------------------------


def test_an_empty_stock_is_restocked_at_once_from_the_shuffled_discard_pile() -> None:
    # every card but three is in a hand: the stock holds one card, the pile two
    cards = [str(c) for c in DECK]
    text = f"hands: {' '.join(cards[:25])} / {' '.join(cards[25:49])}; discard: {cards[49]} {cards[50]}; stock: {cards[51]}"
    state = from_position(text, target=0, seed=3)
    play(state, "0 draw")
    assert state.history[-1].kind == "reshuffle" and state.history[-1].data == {"stock_size": 2}
    assert state.view(None)["discard"] == [] and state.view(None)["stock_size"] == 2
    again = from_position(text, target=0, seed=3)
    play(again, "0 draw")
    assert again.snapshot() == state.snapshot()  # the seed shuffles the same way
    assert read_record(write_record(state)).snapshot() == state.snapshot()


def test_a_discard_onto_an_empty_pile_with_an_empty_stock_becomes_the_stock() -> None:
    cards = [str(c) for c in DECK]
    text = f"hands: {' '.join(cards[:26])} / {' '.join(cards[26:51])}; stock: {cards[51]}"
    state = from_position(text, target=0)
    play(state, "0 draw")
    assert state.view(None)["stock_size"] == 0
    play(state, f"0 discard {cards[0]}")
    assert state.view(None)["stock_size"] == 1 and state.view(None)["discard"] == []


# -- who may act ------------------------------------------------------------------------------


def test_may_act_is_every_other_seat_with_something_to_do() -> None:
    state = position("hands: 2C 9D / 4H 9S KD / QC QD; melds: 1: 5H 6H 7H")
    assert state.must_act == {0} and state.may_act == {1}
    for seat in range(3):
        listed = state.legal_actions(seat)
        assert bool(listed) == (seat in state.to_act)
        if seat != 0:
            assert all(isinstance(a, Addon | Rummy) for a in listed)
    assert position(CALLS).may_act == {1, 2}


def test_an_out_of_turn_refusal_names_the_rule_it_breaks(assert_rejected: Rejecter) -> None:
    state = position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H")
    assert 1 not in state.to_act
    assert_rejected(state, "1 addon 4S to 5H", "MU-ADDON-FIT")
    assert_rejected(state, "1 rummy 8H to 5H", "MU-RUMMY-PILE")
    assert_rejected(state, "1 addon QH to 5H", "MU-HAND")
    assert_rejected(state, "1 discard 4S", "MU-TURN")


def test_views_hide_the_hands_and_the_stock() -> None:
    state = position(CALLS)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert ("hand" in view) == (seat is not None)
        assert "stock" not in view and view["stock_size"] == 52 - 7 - 3 - 2
        shown = {c for key, value in view.items() if key != "hand" for c in named_cards(str(value))}
        others = {str(c) for s in range(3) if s != seat for c in state.hands[s]}
        assert not shown & (others | {str(c) for c in state.piles.stock})


# -- positions -----------------------------------------------------------------------------------


def test_a_position_string_reads_back_to_the_same_position() -> None:
    state = position("hands: 2C 9D / 4H 9S KD / QC QD; melds: 5H@1 6H@1 7H@2; discard: 8H 3D; turn: 2; turns: 4")
    text = state.position()
    again = from_position(text, target=0)
    assert again.position() == text and again.snapshot()["stock"] == state.snapshot()["stock"]
    assert again.view(None)["melds"][0]["laid_by"] == [1, 1, 2] and again.turn_number == 5
    play(state, "2 draw")
    with pytest.raises(RuleError) as err:
        state.position()
    assert err.value.rule == "MU-POSITION"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hands: 2C 2C / 3D", "twice: 2C"),
        ("hands: 2C / 3D; stock: 4D", "missing"),
        ("hands: 2C / 3D; melds: 0: 5H 6H 8H", "invalid"),
        ("hands: 2C / 3D; turn: 2", "turn must be a seat 0..1"),
        ("hands: 2C / 3D; colour: red", "bad position field"),
        ("hands: 2C / ", "at least one card"),
        ("hands: 2C; turn: 0", "2 to 6 players"),
        ("hands: 2C / 3D; known: 3D / ", "known cards of seat 0"),
        ("hands: 2C / 3D; melds: 5H@0 6H@0 7H", "CARD@SEAT"),
    ],
)
def test_a_bad_position_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        from_position(text)


def test_actions_are_read_in_any_case_and_written_canonically() -> None:
    assert str(INFO.parse_action("1 RUMMY th jh TO 9h")) == "1 rummy 10H JH to 9H"
    for bad, words in (
        ("0 addon 9H", "addon CARD ... to"),
        ("0 take", "take CARD"),
        ("0 rummy to 5H", "rummy CARD"),
        ("0 meld", "meld CARD"),
        ("0 fly", "unknown action"),
        ("0 discard 11H", "bad card"),
    ):
        with pytest.raises(ParseError, match=words):
            INFO.parse_action(bad)


def test_refusals_carry_their_data(assert_rejected: Rejecter) -> None:
    """A refusal carries its cards and seat as params; the words are the same in the records and for people."""
    from rummykit.presenters.base import word_refusal

    state = position("hands: 5H 6H / 3D 4D 9C; melds: 0: 10C JC QC; discard: 9S 2C")
    turn = assert_rejected(state, "1 draw", "MU-TURN")
    assert turn.params["turn_seat"] == 0 and turn.params["player"] == state.players[0]
    assert word_refusal(turn, state.players, viewer=1).startswith(f"you cannot draw now: it is {state.players[0]}'s turn")
    missing = assert_rejected(state, "0 take 8D", "MU-TAKE")
    assert missing.params == {"card": "8D", "pile": ["9S", "2C"]}
    assert missing.reason == "8D is not in the discard pile (bottom to top: 9S 2C)"
    hand_err = assert_rejected(state, "0 addon 3D to 10C", "MU-HAND")
    assert hand_err.params == {"missing": ["3D"]} and hand_err.reason == "3D is not in your hand"
    none = assert_rejected(state, "1 addon 9C to 2S", "MU-MELD-NONE")
    assert none.params == {"card": "2S"} and word_refusal(none) == (
        "no meld on the table holds 2S: name a meld by one of its cards (rule MU-MELD-NONE)"
    )


def test_a_view_shows_another_seat_may_act_only_when_the_pile_says_so() -> None:
    # Seat 1 holds 5S, which fits the run on the table: it may add on out of turn. Seat 0 cannot know that
    # (with 8S instead, seat 0 sees exactly the same), so its view and a spectator's do not show it; seat 1's does.
    fits = from_position("hands: 5H 6H 7H 9C 2D / 5S 3C 4D KD; discard: 9S 8H; melds: 1: 2S 3S 4S", target=0)
    not_fits = from_position("hands: 5H 6H 7H 9C 2D / 8S 3C 4D KD; discard: 9S 8H; melds: 1: 2S 3S 4S", target=0)
    assert fits.may_act == {1} and not_fits.may_act == set()
    assert fits.view(0) == not_fits.view(0)
    assert fits.view(None) == not_fits.view(None)
    assert fits.view(0)["may_act"] == [] and fits.view(0)["to_act"] == [0]
    assert fits.view(1)["may_act"] == [1] and fits.view(1)["to_act"] == [0, 1]
    # A rummy call is open to everyone: a discard that fits a meld on the table is public, so every view shows it.
    pile = from_position("hands: 5H 6H 7H 9C 2D / 8S 3C 4D KD; discard: 9S 5S; melds: 1: 2S 3S 4S", target=0)
    assert pile.may_act == {1}
    assert pile.view(0)["may_act"] == [1] and pile.view(None)["may_act"] == [1]


def test_has_meld_agrees_with_listing_the_melds() -> None:
    # The listing asks has_meld (bit masks) before enumerating a hand's or the pile's melds.
    import random

    from rummykit.melds.cards import CardMelds
    from rummykit.pieces.cards import DECK

    rng = random.Random(25)
    for wrap in (False, True):
        melds = CardMelds(wrap=wrap)
        for _ in range(3000):
            cards = rng.sample(DECK, rng.randint(0, 20))
            assert melds.has_meld(cards) == bool(melds.enumerate(cards))
