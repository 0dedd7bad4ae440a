"""The ``strong`` mummus bot: from the view only, deterministic, calls rummy, advises what it plays."""

from __future__ import annotations

from rummykit.bots.mummus_strong import MummusStrong, mummus_strong
from rummykit.bots.registry import make_bot
from rummykit.bots.strong import Advisor
from rummykit.catalogue import new_game
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus import INFO, Discard, Draw, Meld, Rummy, Take, from_position

POSITION = "hands: 5H 6H 7H 9C 2D QS / 2C 3C 4D KS 8D 8C; discard: 9S 8H; melds: 1: 2S 3S 4S"


def test_the_choice_is_the_same_when_the_hidden_cards_are_shuffled() -> None:
    # the other hand and the stock differ; seat 0 sees exactly the same thing
    one = from_position(POSITION, target=0, seed=1)
    two = from_position("hands: 5H 6H 7H 9C 2D QS / JD JC 10H AC KD 6C; discard: 9S 8H; melds: 1: 2S 3S 4S", target=0, seed=9)
    view_one, view_two = one.view(0), two.view(0)
    assert view_one == view_two
    assert one.hands[1] != two.hands[1] and one.piles.stock != two.piles.stock
    bot = mummus_strong(INFO, iterations=6)
    first = bot.choose(view_one, Rng(3))
    assert bot.choose(view_two, Rng(3)) == first
    # and in the play phase, after the same card drawn from the stock in both
    card = one.piles.stock[-1]
    assert card not in two.hands[1]
    two.piles.stock.remove(card)
    two.piles.stock.append(card)
    one.apply(Draw(0))
    two.apply(Draw(0))
    assert one.view(0)["hand"] == two.view(0)["hand"]
    assert bot.choose(one.view(0), Rng(3)) == bot.choose(two.view(0), Rng(3))


def test_the_same_view_rng_and_iterations_give_the_same_action() -> None:
    state = new_game("mummus", players=2, seed=11, target=0)
    bots = [make_bot("strong:iterations=5", "mummus"), make_bot("greedy", "mummus")]
    for _ in range(30):
        if state.outcome is not None:
            break
        seat = state.current
        if seat == 0 and not state.may_act:
            view = state.view(0)
            assert bots[0].choose(view, Rng(4)) == bots[0].choose(view, Rng(4))
        step(state, bots, [Rng(1), Rng(2)])


def test_it_calls_rummy_when_it_can_in_turn_and_out_of_turn() -> None:
    # 5S fits the run 2S 3S 4S on the table: seat 0, out of turn, claims it
    state = from_position("hands: 9C 2D QS KH / 2C 3C 4D KS; discard: 9H 5S; melds: 1: 2S 3S 4S; turn: 1", target=0)
    bot = make_bot("strong:iterations=3", "mummus")
    claim = bot.claim(state.view(0), Rng(0))  # type: ignore[attr-defined]
    assert isinstance(claim, Rummy) and [str(c) for c in claim.cards] == ["5S"]
    # in its own turn, after the draw, it calls it too
    state = from_position("hands: 9C 2D QS KH / 2C 3C 4D KS; discard: 9H 5S; melds: 1: 2S 3S 4S", target=0)
    state.apply(Draw(0))
    assert isinstance(bot.choose(state.view(0), Rng(0)), Rummy)


def test_it_goes_out_when_its_hand_can() -> None:
    # after drawing 8H the hand is two melds and KS: it lays them and discards KS
    state = from_position("hands: 5H 6H 7H 9C 9D 9S KS / 2C 3C 4D KD; discard: AC", target=0)
    state.piles.stock.remove(Card.parse("8H"))
    state.piles.stock.append(Card.parse("8H"))  # the next card drawn
    bot = mummus_strong(INFO, iterations=3)
    state.apply(bot.choose(state.view(0), Rng(0)))
    for _ in range(4):
        action = bot.choose(state.view(0), Rng(0))
        state.apply(action)
        if isinstance(action, Discard):
            break
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_it_holds_a_meld_that_does_not_take_it_out() -> None:
    state = from_position("hands: 5H 6H 7H 9C 2D QS JD / 2C 3C 4D KS; discard: AC", target=0)
    state.apply(Draw(0))
    bot = mummus_strong(INFO, iterations=3)
    action = bot.choose(state.view(0), Rng(0))
    assert not isinstance(action, Meld) and isinstance(action, Discard)


def test_advise_gives_choose_s_action_with_a_reason() -> None:
    state = new_game("mummus", players=2, seed=5, target=0)
    bots = [make_bot("strong:iterations=4", "mummus"), make_bot("greedy", "mummus")]
    advised = 0
    for _ in range(40):
        if state.outcome is not None:
            break
        if state.current == 0 and not state.may_act:
            bot = bots[0]
            assert isinstance(bot, Advisor) and isinstance(bot, MummusStrong)
            view = state.view(0)
            advice = bot.advise(view, Rng(6))
            assert advice.action == bot.choose(view, Rng(6))
            assert advice.reason and advice.exact is False
            advised += 1
        step(state, bots, [Rng(1), Rng(2)])
    assert advised >= 5


def test_a_take_from_deep_is_advised_with_its_duty_and_steps() -> None:
    state = from_position("hands: 5H 6H 9C 2D QS JD KC / 2C 3C 4D KS; discard: 7H AC 3S", target=0)
    bot = mummus_strong(INFO, iterations=3)
    advice = bot.advise(state.view(0), Rng(0))
    assert isinstance(advice.action, Take) and str(advice.action.card) == "7H"
    assert "must meld it or add it on this turn" in advice.reason
    assert advice.steps[0].startswith("take 7H") and "meld 5H 6H 7H" in advice.steps


def test_make_bot_reads_the_budget_and_plays_a_round() -> None:
    bot = make_bot("strong:iterations=3", "mummus")
    assert isinstance(bot, MummusStrong) and bot.budget.iterations == 3 and bot.budget.think is None
    assert make_bot("strong", "mummus").budget.iterations == 10  # type: ignore[attr-defined]
    state = new_game("mummus", players=3, seed=8, target=0)
    bots = [bot, make_bot("greedy", "mummus"), make_bot("strong:iterations=2", "mummus")]
    rngs = [Rng(1), Rng(2), Rng(3)]
    for _ in range(2000):
        if state.outcome is not None:
            break
        step(state, bots, rngs)
    assert state.outcome is not None


def test_out_of_turn_advice_says_when_to_let_the_chance_pass() -> None:
    # seat 0 may add 5S to the run on the table out of turn, but 5S 6S 7S is a meld of its own hand
    state = from_position("hands: 5S 6S 7S 2D QH KH / 2C 3C 4D KS; discard: 9H; melds: 1: 2S 3S 4S; turn: 1", target=0)
    assert 0 in state.may_act
    bot = mummus_strong(INFO, iterations=3)
    view = state.view(0)
    assert bot.claim(view, Rng(0)) is None  # its 5S belongs to its own run
    advice = bot.advise(view, Rng(0))
    assert "let the chance pass" in advice.reason and advice.action == bot.choose(view, Rng(0))


def test_the_deadwood_after_a_draw_is_the_plain_average_over_the_unseen_cards() -> None:
    # the shortcut for cards that touch nothing in the hand gives exactly the cover's answer
    from rummykit.bots.mummus_eval import Deadwood, unseen_cards
    from rummykit.pieces.cards import DECK
    from rummykit.rulesets.mummus import card_values

    values = card_values("standard")
    rng = Rng(5)
    for _ in range(20):
        deck = list(DECK)
        rng.shuffle(deck)
        hand, table = deck[:7], [tuple(Card.parse(t) for t in m.split()) for m in ("2S 3S 4S", "9D 9C 9H")]
        hand = [c for c in hand if all(c not in m for m in table)]
        unseen = unseen_cards(hand, table, (), ())
        dw = Deadwood(table, values)
        plain = sum(dw.score([*hand, u]) for u in unseen) / len(unseen)
        assert abs(dw.after_draw(hand, unseen) - plain) < 1e-12


def test_it_holds_its_add_ons_until_they_take_it_out() -> None:
    # 5S fits the run 2S 3S 4S and no meld of the hand: out of turn it lets the chance pass (it would open 6S)
    state = from_position("hands: 5S 9C 2D QH KH / 2C 3C 4D KS; discard: 9H; melds: 1: 2S 3S 4S; turn: 1", target=0)
    assert 0 in state.may_act
    bot = mummus_strong(INFO, iterations=3)
    assert bot.claim(state.view(0), Rng(0)) is None
    # in its own turn it keeps 5S too, and discards
    state = from_position("hands: 5S 9C 2D QH KH / 2C 3C 4D KS; discard: 9H; melds: 1: 2S 3S 4S", target=0)
    state.apply(Draw(0))
    assert isinstance(bot.choose(state.view(0), Rng(0)), Discard)
