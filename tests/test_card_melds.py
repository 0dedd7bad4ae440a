"""Cards and the card meld family (melds/cards.py), checked against brute force.

* Cards: 52 distinct interned values, every reading of the notation, one clear error.
* Melds: sets of a rank, runs of a suit that wrap (Q K A 2 3), 13 at most;
  the reasons name the rule; ``enumerate``, ``extensions``, ``fits``,
  ``extend`` and ``chain_to`` agree with a brute-force search over the deck.
"""

from __future__ import annotations

import itertools
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.engine.core import clone
from rummykit.errors import ParseError
from rummykit.melds.base import MeldFamily
from rummykit.melds.cards import MAX_RUN, RUN, SET, CardMelds
from rummykit.pieces.cards import DECK, RANKS, SUITS, Card, Suit, by_rank, format_cards, parse_cards

MELDS = CardMelds()
NO_WRAP = CardMelds(wrap=False)


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


# -- cards -----------------------------------------------------------------------------------


def test_a_deck_is_52_distinct_cards_in_suit_then_rank_order() -> None:
    assert len(DECK) == len(set(DECK)) == 52 == len(SUITS) * len(RANKS)
    assert [c.code for c in DECK] == list(range(52))
    assert sorted(reversed(DECK)) == list(DECK)
    assert format_cards(sorted(cards("2S AS KC 10D"), key=by_rank)) == "AS 2S 10D KC"


def test_every_reading_of_a_card_gives_the_same_interned_value() -> None:
    ten = Card(10, Suit.HEARTS)
    for text in ("10H", "10h", "TH", "th", "t♥", " 10H "):
        assert Card.parse(text) is ten
    assert str(ten) == "10H" and repr(ten) == "Card.parse('10H')" and eval(repr(ten)) is ten
    assert pickle.loads(pickle.dumps(ten)) is ten and clone(ten) is ten
    assert {str(Card.parse(t)) for t in ("AS", "a♠", "as")} == {"AS"}
    with pytest.raises(AttributeError):
        ten.rank = 3


@pytest.mark.parametrize("text", ["", "1H", "11H", "ZZ", "10", "H10", "AX", "JOKER", "10HH"])
def test_a_bad_card_is_one_clear_error(text: str) -> None:
    with pytest.raises(ParseError, match=r"bad card .*: write a rank .* e\.g\. AS, 10H, QD$"):
        Card.parse(text)


def test_suits_are_never_told_apart_by_colour_alone() -> None:
    assert {s.letter for s in SUITS} == {"C", "D", "H", "S"} and len({s.symbol for s in SUITS}) == 4
    assert [s.red for s in SUITS] == [False, True, True, False]
    assert all(str(c).endswith(c.suit.letter) for c in DECK)


# -- checking one meld -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "normal"),
    [
        ("7S 7C 7H", SET, "7C 7H 7S"),
        ("7S 7C 7H 7D", SET, "7C 7D 7H 7S"),
        ("5H 7H 6H", RUN, "5H 6H 7H"),
        ("2H KH AH QH 3H", RUN, "QH KH AH 2H 3H"),
        ("KS AS 2S", RUN, "KS AS 2S"),
        ("QC KC AC", RUN, "QC KC AC"),
        ("AD 2D 3D", RUN, "AD 2D 3D"),
        (" ".join(f"{r}D" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]), RUN, "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"),
    ],
)
def test_valid_melds_and_their_normal_order(text: str, kind: str, normal: str) -> None:
    check = MELDS.check(cards(text))
    assert check.valid and check.kind == kind and format_cards(check.pieces) == normal


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("7S 7C", "MU-MELD-SIZE", "at least 3 cards"),
        ("", "MU-MELD-SIZE", "none given"),
        ("7S 7S 7C", "MU-MELD-REPEAT", "same card twice"),
        ("5H 6H 8H", "MU-RUN", "in sequence"),
        ("JH QH AH", "MU-RUN", "wraps"),
        ("5H 6S 7H", "MU-MELD-KIND", "not a set (ranks 5, 6, 7 differ) and not a run (suits H, S differ)"),
        ("7C 7D 8C", "MU-MELD-KIND", "no meld"),
    ],
)
def test_invalid_melds_name_their_rule(text: str, rule: str, words: str) -> None:
    check = MELDS.check(cards(text))
    assert not check.valid and check.rule == rule and words in (check.reason or "")
    assert check.error().rule == rule


def test_without_wrap_a_run_stops_at_the_ace_and_the_king() -> None:
    assert NO_WRAP.check(cards("AS 2S 3S")).valid and NO_WRAP.check(cards("JS QS KS")).valid
    bad = NO_WRAP.check(cards("KS AS 2S"))
    assert bad.rule == "MU-RUN" and "does not wrap" in (bad.reason or "")
    assert NO_WRAP.fits(cards("JS QS KS")) == {Card.parse("10S")}
    assert MELDS.fits(cards("JS QS KS")) == {Card.parse("10S"), Card.parse("AS")}


def test_a_whole_suit_is_a_run_that_takes_nothing_more() -> None:
    suit = [c for c in DECK if c.suit is Suit.CLUBS]
    assert MELDS.check(suit).valid and MELDS.fits(suit) == frozenset()
    twelve = suit[:6] + suit[7:]
    assert MELDS.check(twelve).valid and MELDS.fits(twelve) == {suit[6]}
    assert len(MELDS.extensions(twelve)) == 1


def test_jokers_cannot_be_called_with_cards() -> None:
    with pytest.raises(ValueError, match="cards have none"):
        MELDS.check(cards("5H 6H 7H"), called={0: Card.parse("5H")})
    family: MeldFamily[Card] = MELDS
    assert family.check(cards("5H 6H 7H")).valid


# -- brute force ------------------------------------------------------------------------------

hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=9, unique=True)
small_hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=7, unique=True)


def brute_melds(hand: list[Card], family: CardMelds = MELDS) -> set[tuple[Card, ...]]:
    out = set()
    for size in range(3, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            check = family.check(combo)
            if check.valid:
                out.add(check.pieces)
    return out


@given(hands, st.booleans())
def test_enumerate_finds_every_meld_a_hand_makes_and_nothing_else(hand: list[Card], wrap: bool) -> None:
    family = CardMelds(wrap=wrap)
    found = family.enumerate(hand)
    assert len(found) == len(set(found))
    assert set(found) == brute_melds(hand, family)
    assert all(family.check(m).pieces == m for m in found)
    assert family.enumerate(hand, max_size=3) == [m for m in found if len(m) == 3]


def test_enumerate_with_a_full_suit_counts_each_arc_once() -> None:
    suit = [c for c in DECK if c.suit is Suit.SPADES]
    found = MELDS.enumerate(suit)
    # arcs of 3..12 from each of the 13 starts, plus the whole suit once
    assert len(found) == 13 * 10 + 1 == len(set(found))


@st.composite
def meld_hands(draw: st.DrawFn) -> list[Card]:
    """A hand that holds a meld for sure (three cards of a rank, or three in a row of a suit) and up to six
    other cards: random hands of nine cards mostly hold none, and filtering them out tripped Hypothesis's
    health check (too much filtering) now and then."""
    if draw(st.booleans()):
        rank = draw(st.sampled_from(RANKS))
        core = [Card(rank, suit) for suit in draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=3, unique=True))]
    else:
        suit, start = draw(st.sampled_from(SUITS)), draw(st.integers(RANKS[0], RANKS[-1] - 2))
        core = [Card(start + i, suit) for i in range(3)]
    others = draw(st.lists(st.sampled_from(DECK), max_size=6, unique=True))
    return list(dict.fromkeys([*core, *others]))


# Every meld the hand makes, by brute force, so melds with the other cards come up as well.
valid_melds = meld_hands().map(lambda h: sorted(brute_melds(h))).filter(bool).flatmap(st.sampled_from)


@given(valid_melds)
def test_fits_and_extensions_are_exactly_the_cards_that_keep_a_meld_valid(meld: tuple[Card, ...]) -> None:
    brute = {c for c in DECK if c not in meld and MELDS.check((*meld, c)).valid}
    assert MELDS.fits(meld) == brute
    ext = MELDS.extensions(meld)
    assert [c for c, _ in ext] == sorted(brute)
    for card, grown in ext:
        assert MELDS.check(grown).valid and set(grown) == {*meld, card}
        assert MELDS.extend(meld, (card,)).pieces == grown


@given(valid_melds, small_hands)
def test_extend_accepts_cards_at_one_end_only(meld: tuple[Card, ...], more: list[Card]) -> None:
    extra = tuple(c for c in more if c not in meld)
    if not extra:
        return
    result = MELDS.extend(meld, extra)
    grown = MELDS.check((*meld, *extra))
    kind = MELDS.check(meld).kind
    if not grown.valid or grown.kind != kind:
        assert not result.valid and result.rule == "MU-ADDON-FIT"
        return
    if kind == RUN and len(grown.pieces) < MAX_RUN:
        order = grown.pieces
        i = order.index(MELDS.check(meld).pieces[0])
        one_end = i == 0 or i + len(meld) == len(order)
        assert result.valid == one_end
        if not one_end:
            assert result.rule == "MU-ADDON-END"
            return
    assert result.valid and result.pieces == grown.pieces


def test_extend_refuses_repeats_and_says_what_fits() -> None:
    run = cards("5H 6H 7H")
    assert MELDS.extend(run, cards("7H")).rule == "MU-MELD-REPEAT"
    assert MELDS.extend(run, cards("8H 8H")).rule == "MU-MELD-REPEAT"
    assert MELDS.extend(run, ()).rule == "MU-ADDON-FIT"
    wrong = MELDS.extend(cards("9C 9D 9H"), cards("8S"))
    assert wrong.rule == "MU-ADDON-FIT" and "takes 9S" in (wrong.reason or "")
    chain = MELDS.extend(run, cards("9H 10H"))
    assert chain.rule == "MU-ADDON-FIT" and "takes 4H or 8H" in (chain.reason or "")
    assert format_cards(MELDS.extend(cards("QH KH AH"), cards("3H 2H")).pieces) == "QH KH AH 2H 3H"
    assert format_cards(MELDS.extend(cards("QH KH AH"), cards("10H JH")).pieces) == "10H JH QH KH AH"


@given(valid_melds, st.sampled_from(DECK), small_hands)
def test_chain_to_is_the_smallest_add_on_holding_the_card(
    meld: tuple[Card, ...], card: Card, hand: list[Card]
) -> None:
    available = {*hand, card} - set(meld)
    chain = MELDS.chain_to(meld, card, available)
    best = None
    if card not in meld:
        others = sorted(available - {card})
        for size in range(len(others) + 1):
            for combo in itertools.combinations(others, size):
                if MELDS.extend(meld, (card, *combo)).valid:
                    best = size + 1
                    break
            if best is not None:
                break
    assert (None if chain is None else len(chain)) == best
    if chain is not None:
        assert card in chain and set(chain) <= available and MELDS.extend(meld, chain).valid


@given(st.sampled_from(DECK), hands)
def test_smallest_with_finds_a_three_card_meld_whenever_there_is_one(card: Card, hand: list[Card]) -> None:
    found = MELDS.smallest_with(card, hand)
    exists = any(card in m for m in brute_melds([card, *[c for c in hand if c is not card]]))
    assert (found is not None) == exists
    if found is not None:
        assert len(found) == 3 and card in found and MELDS.check(found).valid
        assert set(found) - {card} <= set(hand)


def test_describe_names_the_meld() -> None:
    assert MELDS.describe(cards("KH AH 2H")) == "the run of hearts"
    assert MELDS.describe(cards("QS QD QC")) == "the set of queens"
    assert MELDS.neighbour(Card.parse("AS"), -1) == Card.parse("KS")
    assert NO_WRAP.neighbour(Card.parse("AS"), -1) is None
