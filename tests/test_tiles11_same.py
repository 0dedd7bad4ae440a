"""Pieces found by identity (rummykit.pieces.same) give the answers of the list's own ``==``; racks that use them
take and refuse as before; the discard pile and the meld area (which keep ``==``) find cards (issue 25, session 11)."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from rummykit.blocks.areas import MeldArea
from rummykit.blocks.piles import Piles
from rummykit.blocks.racks import Racks
from rummykit.errors import RuleError
from rummykit.pieces.cards import DECK, Card, parse_cards
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.pieces.same import BY_IDENTITY, count_of, holds, index_of, remove_each, remove_one
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile

KINDS: list[list[object]] = [list(ALL_TILES), list[object](double_set(6)), list(DECK)]


def test_equal_pieces_are_one_object() -> None:
    # The premise of pieces.same: equality of these kinds is identity (made anew, parsed, unpickled).
    for t in ALL_TILES:
        assert Tile(t.colour, t.number) is t and Tile.parse(str(t)) is t and pickle.loads(pickle.dumps(t)) is t
        assert [u for u in ALL_TILES if u == t] == [t]
    for d in double_set(9):
        assert Domino(d.high, d.low) is d and pickle.loads(pickle.dumps(d)) is d
    for c in DECK:
        assert Card.parse(str(c)) is c and pickle.loads(pickle.dumps(c)) is c
    assert {Tile, Domino, Card} < BY_IDENTITY


@pytest.mark.parametrize("kind", range(len(KINDS)))
def test_the_answers_of_the_lists_own_methods(kind: int) -> None:
    rng = random.Random(kind)
    pool = KINDS[kind]
    for _ in range(300):
        items = [rng.choice(pool) for _ in range(rng.randrange(0, 16))]
        for piece in rng.sample(pool, 6) + items[:3]:
            assert holds(items, piece) == (piece in items)
            assert holds(tuple(items), piece) == (piece in items)
            assert count_of(items, piece) == items.count(piece)
            if piece in items:
                assert index_of(items, piece) == items.index(piece)
                mine, theirs = list(items), list(items)
                remove_one(mine, piece)
                theirs.remove(piece)
                assert mine == theirs
            else:
                with pytest.raises(ValueError):
                    index_of(items, piece)
        taken = rng.sample(items, rng.randrange(0, len(items) + 1)) if items else []
        mine, theirs = list(items), list(items)
        remove_each(mine, taken)
        for p in taken:
            theirs.remove(p)
        assert [id(p) for p in mine] == [id(p) for p in theirs]  # the same objects left, in the same order


def test_other_kinds_and_none_fall_back_or_hold_by_identity() -> None:
    words = ["ab", "c"]
    made = "".join(["a", "b"])  # equal to "ab", maybe another object: found by ==
    assert holds(words, made) and count_of(words, made) == 1 and index_of(words, made) == 0
    remove_one(words, made)
    assert words == ["c"]
    assert not holds(list(ALL_TILES), None) and holds([JOKER, None], None) and count_of([None, None], None) == 2
    with pytest.raises(ValueError):
        remove_each(["a"], ["a", "a"])


def test_racks_take_and_refuse_as_before() -> None:
    rng = random.Random(11)
    full = [t for t in ALL_TILES for _ in range(2)]
    for _ in range(200):
        rack = rng.sample(full, rng.randrange(1, 20))
        racks: Racks[Tile] = Racks.of([rack], rule="RK-RACK")
        wanted = rng.sample(rack, rng.randrange(1, len(rack) + 1))
        expected = list(rack)
        for t in wanted:
            expected.remove(t)
        racks.take(0, wanted)
        assert racks[0] == expected and [id(t) for t in racks[0]] == [id(t) for t in expected]
        # a piece more than the rack holds: refused, naming it, the rack unchanged
        extra = [*racks[0], rng.choice(ALL_TILES)]
        short = Counter(extra) - Counter(racks[0])
        before = list(racks[0])
        with pytest.raises(RuleError) as refused:
            racks.take(0, extra)
        assert refused.value.rule == "RK-RACK" and racks[0] == before
        assert all(str(t) in str(refused.value) for t in short)
        assert racks.where(0, extra[-1]) == ("rack" if extra[-1] in before else None)


def test_the_pile_and_the_area_find_cards() -> None:
    piles: Piles[Card] = Piles(parse_cards("2C 3C"), parse_cards("5H 7S 5D 9C"), rule="MU-PILE")
    assert piles.position(Card.parse("5D")) == 2 and piles.position(Card.parse("KH")) is None
    assert [str(c) for c in piles.above(Card.parse("7S"))] == ["7S", "5D", "9C"]
    piles.remove(parse_cards("9C 5H"))
    assert [str(c) for c in piles.discard] == ["7S", "5D"]
    with pytest.raises(RuleError):
        piles.remove(parse_cards("KH"))
    assert [str(c) for c in piles.discard] == ["7S", "5D"]
    area: MeldArea[Card] = MeldArea()
    area.lay("run", parse_cards("5H 6H 7H"), seat=0)
    area.lay("set", parse_cards("9C 9D 9S"), seat=1)
    area.grow(0, "run", parse_cards("4H 5H 6H 7H"), parse_cards("4H"), seat=2)
    assert area.holding(Card.parse("9D")) == 1 and area.holding(Card.parse("6H")) == 0
    assert area.holding(Card.parse("9H")) is None
    assert area[0].seat_of(Card.parse("4H")) == 2 and area[0].seat_of(Card.parse("7H")) == 0
    with pytest.raises(ValueError):
        area[0].seat_of(Card.parse("9H"))
