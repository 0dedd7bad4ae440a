"""The meld families (``rummykit.melds``): one protocol, three families, each against brute force.

Every family answers ``check`` (with jokers a player has called),
``enumerate`` (every set a hand can make) and ``extensions`` (every piece
that grows a set at one end). Here each answer is compared with a slow,
independent reading of the rules: validity by trying every tile or domino
for every joker, enumeration by judging every ordering of every part of a
small hand, extensions by trying every piece at both ends.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.melds.base import MIN_SET, MeldFamily, layoffs
from rummykit.melds.conveyor import ConveyorMelds
from rummykit.melds.dominoes import DominoMelds
from rummykit.melds.tiles import TILES, check_tiles
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes, parse_dominoes
from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER, MAX_NUMBER, Tile, format_tiles, parse_tiles
from rummykit.rulesets.domino_rummikub import MELDS

NUMBERED = [t for t in ALL_TILES if t.colour is not None]
DOMINOES = double_set(6)
CONVEYOR = ConveyorMelds(6)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def dominoes(text: str) -> tuple[Domino, ...]:
    return tuple(parse_dominoes(text))


# -- the protocol ----------------------------------------------------------------------------


@pytest.mark.parametrize("family", [TILES, MELDS, CONVEYOR], ids=["tiles", "dominoes", "conveyor"])
def test_every_family_answers_the_protocol(family: MeldFamily[Any]) -> None:
    assert callable(family.check) and callable(family.enumerate) and callable(family.extensions)
    hand = parse_tiles("R1 R2 R3 R4") if family is TILES else parse_dominoes("3-5 4-5 5-5 5-6")
    sets = family.enumerate(hand)
    assert sets and all(family.check(s).valid and family.check(s).pieces == s for s in sets)
    assert all(len(s) >= MIN_SET for s in sets)
    assert [s for s in sets if len(s) <= 3] == family.enumerate(hand, max_size=3)
    longest = max(sets, key=len)
    assert all(family.check(grown).valid for _p, grown in family.extensions(longest))


def test_layoffs_use_the_family_extensions() -> None:
    table = [tiles("R1 R2 R3"), tiles("K5 B5 O5")]
    found = [(str(p), i, format_tiles(s)) for p, i, s in layoffs(TILES, tiles("R4 R5 J"), table)]
    assert found == [("R4", 0, "R1 R2 R3 R4"), ("J", 0, "R1 R2 R3 J"), ("R5", 1, "K5 B5 O5 R5"), ("J", 1, "J K5 B5 O5")]


# -- tiles: called jokers ------------------------------------------------------------------------


def test_a_joker_called_a_missing_colour_stands_for_it() -> None:
    c = check_tiles(tiles("K5 B5 J"), called={2: Tile.parse("R5")})
    assert c.valid and c.kind == "group" and c.jokers == ("R5",) and c.points == 15
    assert c.pieces.count(JOKER) == 1 and set(c.pieces) == {Tile.parse("K5"), Tile.parse("B5"), JOKER}


def test_a_joker_called_a_colour_the_group_has_is_refused_with_a_reason() -> None:
    c = check_tiles(tiles("K5 B5 J"), called={2: Tile.parse("K5")})
    assert not c.valid and c.rule == "RK-GROUP"
    assert c.reason is not None and "called K5" in c.reason and "K5 B5 J" in c.reason
    assert not check_tiles(tiles("K5 B5 J"), called={2: Tile.parse("R6")}).valid


def test_a_called_joker_in_a_run_must_be_the_missing_number() -> None:
    assert check_tiles(tiles("R5 J R7"), called={1: Tile.parse("R6")}).jokers == ("R6",)
    wrong = check_tiles(tiles("R5 J R7"), called={1: Tile.parse("R8")})
    assert not wrong.valid and wrong.rule == "RK-RUN" and "called R8" in (wrong.reason or "")
    assert not check_tiles(tiles("R5 J R7"), called={1: Tile.parse("B6")}).valid
    # At an end, a called joker may stand below or above the run.
    low = check_tiles(tiles("R5 R6 J"), called={2: Tile.parse("R4")})
    assert low.valid and format_tiles(low.pieces) == "J R5 R6" and low.jokers == ("R4",)
    two = check_tiles(tiles("R5 J J R8"), called={2: Tile.parse("R7")})
    assert two.valid and two.jokers == ("R6", "R7")
    assert not check_tiles(tiles("R5 J J R8"), called={1: Tile.parse("R7"), 2: Tile.parse("R7")}).valid


def test_a_call_must_name_a_joker() -> None:
    with pytest.raises(ValueError, match="only a joker"):
        check_tiles(tiles("K5 B5 J"), called={0: Tile.parse("R5")})
    with pytest.raises(ValueError, match="only a joker"):
        check_tiles(tiles("K5 B5 J"), called={5: Tile.parse("R5")})
    with pytest.raises(ValueError):
        check_tiles(tiles("K5 B5 J"), called={2: JOKER})


def tile_set_possible(pieces: Sequence[Tile]) -> bool:
    """A group or a run by definition: 3..4 of one number in distinct colours, or 3+ of one colour consecutive."""
    if len(pieces) < MIN_SET:
        return False
    numbers = [t.number for t in pieces]
    colours = [t.colour for t in pieces]
    if len(set(numbers)) == 1 and len(set(colours)) == len(pieces) <= len(COLOURS):
        return True
    ordered = sorted(numbers)
    return len(set(colours)) == 1 and ordered == list(range(ordered[0], ordered[0] + len(pieces)))


def tile_brute_force(pieces: tuple[Tile, ...], called: dict[int, Tile]) -> bool:
    """Valid when some tile for each free joker (and the called tile for each called one) makes a set."""
    if all(t.colour is None for t in pieces):
        return False
    free = [i for i, t in enumerate(pieces) if t.colour is None and i not in called]
    for choice in itertools.product(NUMBERED, repeat=len(free)):
        read = list(pieces)
        for i, t in called.items():
            read[i] = t
        for i, t in zip(free, choice, strict=True):
            read[i] = t
        if tile_set_possible(read):
            return True
    return False


@st.composite
def tile_sets_with_calls(draw: st.DrawFn) -> tuple[tuple[Tile, ...], dict[int, Tile]]:
    colour = draw(st.sampled_from(COLOURS))
    number = draw(st.integers(1, MAX_NUMBER))
    near = [t for t in NUMBERED if t.colour == colour or t.number == number or draw(st.booleans())]
    size = draw(st.integers(2, 5))
    pieces = [draw(st.sampled_from(near)) for _ in range(size)]
    jokers = draw(st.integers(1, min(2, size)))
    for i in draw(st.lists(st.integers(0, size - 1), min_size=jokers, max_size=jokers, unique=True)):
        pieces[i] = JOKER
    joker_at = [i for i, t in enumerate(pieces) if t is JOKER]
    called_at = draw(st.lists(st.sampled_from(joker_at), max_size=1, unique=True))
    called = {i: draw(st.sampled_from(near)) for i in called_at}
    return tuple(pieces), called


@settings(max_examples=300, deadline=None)
@given(tile_sets_with_calls())
def test_tile_checks_with_and_without_calls_match_brute_force(case: tuple[tuple[Tile, ...], dict[int, Tile]]) -> None:
    pieces, called = case
    c = check_tiles(pieces, called=called)
    assert c.valid == tile_brute_force(pieces, called), (format_tiles(pieces), {i: str(t) for i, t in called.items()})
    assert check_tiles(pieces).valid == tile_brute_force(pieces, {})
    if c.valid:
        assert len(c.jokers) == pieces.count(JOKER) == c.pieces.count(JOKER)
        assert Counter(c.pieces) == Counter(pieces)
        assert all(str(t) in c.jokers for t in called.values())
        # Reading each joker as its role (where it names one tile) gives a valid set.
        if all(len(role) <= 3 for role in c.jokers):
            roles = iter(c.jokers)
            read = [Tile.parse(next(roles)) if t is JOKER else t for t in c.pieces]
            assert tile_set_possible(read)


# -- tiles: enumeration and extensions ----------------------------------------------------------


def every_set_by_brute_force(family: MeldFamily[Any], hand: Sequence[Any], *, orders: bool = True) -> set[tuple[Any, ...]]:
    """The normal form of every valid ordering of every part (3+ pieces) of ``hand``."""
    found: set[tuple[Any, ...]] = set()
    for size in range(MIN_SET, len(hand) + 1):
        for part in set(itertools.combinations(sorted(hand, key=lambda p: p.code), size)):
            for order in set(itertools.permutations(part)) if orders else [part]:
                c = family.check(order)
                if c.valid:
                    found.add(c.pieces)
    return found


tile_hands = st.builds(
    lambda near, jokers: [*near, *[JOKER] * jokers],
    st.lists(st.sampled_from([t for t in NUMBERED if t.number in (3, 4, 5, 6) and t.colour in COLOURS[:3]]), max_size=5),
    st.integers(0, 2),
).filter(lambda h: len(h) <= 6)


@settings(max_examples=60, deadline=None)
@given(tile_hands)
def test_tile_enumeration_is_every_set_of_the_hand(hand: list[Tile]) -> None:
    listed = TILES.enumerate(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == every_set_by_brute_force(TILES, hand)


def every_extension_by_brute_force(family: MeldFamily[Any], s: tuple[Any, ...], pieces: Sequence[Any]) -> list[tuple[Any, ...]]:
    out = []
    for p in pieces:
        for cand in ((*s, p), (p, *s)):
            c = family.check(cand)
            if c.valid:
                out.append((p, c.pieces))
                break
    return out


@settings(max_examples=60, deadline=None)
@given(tile_hands)
def test_tile_extensions_are_every_tile_that_fits_an_end(hand: list[Tile]) -> None:
    for s in TILES.enumerate(hand)[:8]:
        assert list(TILES.extensions(s)) == every_extension_by_brute_force(TILES, s, ALL_TILES), format_tiles(s)


# -- domino-rummikub dominoes --------------------------------------------------------------------


def test_a_called_joker_domino_stands_for_exactly_that_domino() -> None:
    run = MELDS.check(dominoes("5-3 6-6 5-5"), called={1: Domino(5, 4)})
    assert run.valid and run.kind == "run" and run.jokers == ("4-5",)
    wrong = MELDS.check(dominoes("5-3 6-6 5-5"), called={1: Domino(5, 6)})
    assert not wrong.valid and wrong.rule is not None and wrong.rule.startswith("DR-")
    assert "called 5-6" in (wrong.reason or "")
    total = MELDS.check(dominoes("4-3 5-2 0-0"), called={2: Domino(6, 1)})
    assert total.valid and total.kind == "sum" and total.jokers == ("1-6",)
    assert not MELDS.check(dominoes("4-3 5-2 0-0"), called={2: Domino(4, 4)}).valid
    # A joker may be called another joker domino: 6-6 standing for 6-6 in a run of sixes.
    sixes = MELDS.check(dominoes("4-6 5-6 0-0"), called={2: Domino(6, 6)})
    assert sixes.valid and sixes.jokers == ("6-6",)
    with pytest.raises(ValueError, match="only a joker"):
        MELDS.check(dominoes("4-3 5-2 0-0"), called={0: Domino(6, 1)})


def domino_set_possible(pieces: Sequence[Domino], top: int = 6) -> bool:
    """A run (one shared half, the other halves distinct and consecutive) or a sum (equal pip totals,
    no domino more than twice: two sets are in play)."""
    if len(pieces) < MIN_SET or any(d.high > top for d in pieces):
        return False
    if len({d.pips for d in pieces}) == 1:
        return max(Counter(pieces).values()) <= 2
    shared = {pieces[0].low, pieces[0].high}
    for d in pieces[1:]:
        shared &= {d.low, d.high}
    for suit in shared:
        values = sorted(d.other(suit) for d in pieces)
        if values == list(range(values[0], values[0] + len(pieces))):
            return True
    return False


def domino_brute_force(pieces: tuple[Domino, ...], called: dict[int, Domino]) -> bool:
    if all(d in MELDS.jokers for d in pieces):
        return False
    free = [i for i, d in enumerate(pieces) if d in MELDS.jokers and i not in called]
    for choice in itertools.product(DOMINOES, repeat=len(free)):
        read = list(pieces)
        for i, d in called.items():
            read[i] = d
        for i, d in zip(free, choice, strict=True):
            read[i] = d
        if domino_set_possible(read):
            return True
    return False


@st.composite
def domino_sets_with_calls(draw: st.DrawFn) -> tuple[tuple[Domino, ...], dict[int, Domino]]:
    suit = draw(st.integers(0, 6))
    total = draw(st.integers(0, 12))
    near = [d for d in DOMINOES if d.has(suit) or d.pips == total or draw(st.booleans())]
    size = draw(st.integers(2, 5))
    pieces = [draw(st.sampled_from(near)) for _ in range(size)]
    for i in draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=2, unique=True)):
        pieces[i] = draw(st.sampled_from(sorted(MELDS.jokers)))
    joker_at = [i for i, d in enumerate(pieces) if d in MELDS.jokers]
    called = {i: draw(st.sampled_from(near)) for i in draw(st.lists(st.sampled_from(joker_at), max_size=1))}
    return tuple(pieces), called


@settings(max_examples=300, deadline=None)
@given(domino_sets_with_calls())
def test_domino_checks_with_and_without_calls_match_brute_force(case: tuple[tuple[Domino, ...], dict[int, Domino]]) -> None:
    pieces, called = case
    c = MELDS.check(pieces, called=called)
    assert c.valid == domino_brute_force(pieces, called), (format_dominoes(pieces), {i: str(d) for i, d in called.items()})
    assert MELDS.check(pieces).valid == domino_brute_force(pieces, {})
    if c.valid:
        assert Counter(c.pieces) == Counter(pieces)
        assert len(c.jokers) == sum(d in MELDS.jokers for d in pieces)
        assert all(str(d) in c.jokers for d in called.values())


domino_hands = st.lists(
    st.sampled_from([d for d in DOMINOES if d.has(5) or d.pips == 7 or d in MELDS.jokers]), max_size=6
)


def joker_blind(s: tuple[Domino, ...]) -> tuple[object, ...]:
    """A set with its joker dominoes told apart only as a multiset: which joker stands where does not matter."""
    shape = tuple("joker" if d in MELDS.jokers else d for d in s)
    return (shape, tuple(sorted(d for d in s if d in MELDS.jokers)))


@settings(max_examples=50, deadline=None)
@given(domino_hands)
def test_domino_enumeration_is_every_set_of_the_hand(hand: list[Domino]) -> None:
    # The two joker dominoes are interchangeable: each set is listed once, the jokers in domino order.
    listed = MELDS.enumerate(hand)
    assert len(listed) == len({joker_blind(s) for s in listed})
    assert {joker_blind(s) for s in listed} == {joker_blind(s) for s in every_set_by_brute_force(MELDS, hand)}
    assert MELDS.enumerate(hand, max_size=3) == [s for s in listed if len(s) <= 3]


@settings(max_examples=50, deadline=None)
@given(domino_hands)
def test_domino_extensions_are_every_domino_that_fits_an_end(hand: list[Domino]) -> None:
    for s in MELDS.enumerate(hand)[:8]:
        assert list(MELDS.extensions(s)) == every_extension_by_brute_force(MELDS, s, DOMINOES), format_dominoes(s)


def test_a_family_of_another_size_has_its_own_sets() -> None:
    nine = DominoMelds(top=9, jokers=frozenset({Domino(0, 0)}), prefix="XX")
    assert dominoes("7-9 8-9 9-9") in nine.enumerate(dominoes("9-7 9-8 9-9"))
    assert MELDS.enumerate(dominoes("4-3 4-3 2-5")) == [dominoes("2-5 3-4 3-4")]
    # Two sets are in play: no sum holds a domino three times (issue 10); a family of three sets allows it.
    assert MELDS.enumerate(dominoes("4-3 4-3 4-3")) == []
    triple = DominoMelds(top=6, jokers=frozenset(), copies=3)
    assert triple.enumerate(dominoes("4-3 4-3 4-3")) == [dominoes("3-4 3-4 3-4")]
    assert not nine.check(dominoes("1-2")).valid and nine.check(dominoes("1-2")).rule == "XX-SET-SIZE"


# -- conveyor dominoes ---------------------------------------------------------------------------


def test_conveyor_has_no_jokers_to_call() -> None:
    meld = dominoes("3-5 4-5 5-5")
    assert CONVEYOR.check(meld, called={}).valid
    with pytest.raises(ValueError, match="only a joker"):
        CONVEYOR.check(meld, called={0: Domino(2, 5)})


conveyor_hands = st.lists(
    st.sampled_from([d for d in DOMINOES if d.has(3) or d.is_double or d.pips == 6]), max_size=8, unique=True
)


@settings(max_examples=80, deadline=None)
@given(conveyor_hands)
def test_conveyor_enumeration_is_every_meld_of_the_hand(hand: list[Domino]) -> None:
    listed = CONVEYOR.enumerate(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == every_set_by_brute_force(CONVEYOR, hand, orders=False)
    assert CONVEYOR.enumerate(hand, max_size=4) == [s for s in listed if len(s) <= 4]


@settings(max_examples=80, deadline=None)
@given(conveyor_hands)
def test_conveyor_extensions_are_every_domino_that_fits_an_end(hand: list[Domino]) -> None:
    for s in CONVEYOR.enumerate(hand):
        assert list(CONVEYOR.extensions(s)) == every_extension_by_brute_force(CONVEYOR, s, DOMINOES), format_dominoes(s)
    assert CONVEYOR.extensions(dominoes("1-2 3-4 5-6")) == ()
