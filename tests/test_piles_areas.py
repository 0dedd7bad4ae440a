"""The piles block (stock and spread discard pile) and the meld-area block: moves, refusals, copies."""

from __future__ import annotations

import pytest

from rummykit.blocks.areas import LaidMeld, MeldArea
from rummykit.blocks.piles import Piles
from rummykit.engine.core import clone
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.cards import DECK, Card, format_cards, parse_cards


def piles(stock: str, discard: str) -> Piles[Card]:
    return Piles(parse_cards(stock), parse_cards(discard), rule="T-PILE")


def test_the_stock_is_drawn_from_its_top_and_dealt_top_first() -> None:
    p = piles("2C 3C 4C 5C", "")
    assert format_cards(p.deal(2)) == "5C 4C" and str(p.draw()) == "3C" and p.stock_size == 1
    with pytest.raises(RuleError, match="holds 1 card, not 2"):
        p.deal(2)
    p.draw()
    with pytest.raises(RuleError) as err:
        p.draw()
    assert err.value.rule == "T-PILE"


def test_a_deep_take_takes_everything_above_and_a_claim_takes_only_its_cards() -> None:
    p = piles("", "9H 10S JD QC KD")
    assert p.top == Card.parse("KD") and p.position(Card.parse("JD")) == 2
    assert format_cards(p.above(Card.parse("JD"))) == "JD QC KD" and p.above(Card.parse("2C")) == []
    p.remove(parse_cards("10S QC"))
    assert format_cards(p.discard) == "9H JD KD"
    assert format_cards(p.take_from(1)) == "JD KD" and format_cards(p.discard) == "9H"
    before = p.copy()
    with pytest.raises(RuleError, match="not in the discard pile: QC"):
        p.remove(parse_cards("9H QC"))
    with pytest.raises(RuleError, match=r"places 0\.\.0"):
        p.take_from(3)
    assert p == before


def test_the_discard_pile_is_shuffled_into_an_empty_stock_the_same_way_for_the_same_seed() -> None:
    a, b = piles("", format_cards(DECK[:20])), piles("", format_cards(DECK[:20]))
    assert a.reshuffle(Rng(4)) == 20 and b.reshuffle(Rng(4)) == 20
    assert a.stock == b.stock and a.discard == [] and sorted(a.stock) == list(DECK[:20])
    assert a.stock != list(DECK[:20])
    with pytest.raises(RuleError, match="only once empty"):
        piles("2C", "3C").reshuffle(Rng(1))


def test_piles_copy_share_nothing_mutable() -> None:
    p = piles("2C 3C", "4C")
    q = clone(p)
    q.draw()
    q.put(Card.parse("5C"))
    assert p.stock_size == 2 and format_cards(p.discard) == "4C" and p != q
    assert p.counts()[Card.parse("2C")] == 1


def test_a_meld_area_tags_every_piece_with_who_laid_it() -> None:
    area: MeldArea[Card] = MeldArea()
    assert area.lay("set", parse_cards("7C 7D 7H"), seat=1) == 0
    area.grow(0, "set", parse_cards("7C 7D 7H 7S"), parse_cards("7S"), seat=0)
    meld = area[0]
    assert meld.laid_by == (1, 1, 1, 0) and meld.seat_of(Card.parse("7S")) == 0
    assert format_cards(meld.by_seat(1)) == "7C 7D 7H" and len(area) == 1
    assert area.points(3, lambda c: c.rank) == [7, 7 * 3, 0]
    copy = area.copy()
    copy.lay("run", parse_cards("2S 3S 4S"), seat=2)
    assert len(area) == 1 and area.holding(Card.parse("3S")) is None and copy.holding(Card.parse("3S")) == 1
    with pytest.raises(ValueError, match="exactly the old pieces"):
        meld.grown("set", parse_cards("7C 7D 7H"), parse_cards("7S"), 0)
    with pytest.raises(ValueError, match="need 2 seats"):
        LaidMeld("set", tuple(parse_cards("7C 7D")), (0,))
    area.clear()
    assert list(area) == []
