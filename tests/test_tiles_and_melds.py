"""Tiles (notation, values) and meld checks (groups, runs, jokers) for rummikub.

Rules under test: seed 003 and RULES-NOTES section 1: numbers 1..13 in four
colours, a joker that stands for any tile; a group is 3 or 4 tiles of one
number in different colours; a run is 3+ consecutive numbers of one colour
with no wrap from 13 to 1.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.errors import ParseError, RuleError
from rummykit.melds.base import MeldCheck
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import (
    ALL_TILES,
    COLOURS,
    JOKER,
    Colour,
    Tile,
    format_tiles,
    number_order,
    parse_tiles,
)

NUMBERED = [t for t in ALL_TILES if not t.is_joker]


def check(text: str) -> MeldCheck[Tile]:
    return check_tiles(parse_tiles(text))


def texts(tiles: Iterable[Tile]) -> str:
    return format_tiles(tiles)


# -- tile notation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("R7", "R7"), ("r7", "R7"), (" k13 ", "K13"), ("b1", "B1"), ("O10", "O10"), ("j", "J"), ("J", "J")],
)
def test_tile_parse_is_case_insensitive_and_prints_canonically(text: str, canonical: str) -> None:
    tile = Tile.parse(text)
    assert str(tile) == canonical
    assert tile is Tile.parse(canonical)


def test_every_tile_prints_and_parses_back_and_repr_evaluates() -> None:
    assert len(ALL_TILES) == 4 * 13 + 1
    for tile in ALL_TILES:
        assert Tile.parse(str(tile)) is tile
        assert Tile.parse(str(tile).lower()) is tile
        assert eval(repr(tile), {"Tile": Tile}) is tile


def test_tile_fields_and_points() -> None:
    r7 = Tile.parse("R7")
    assert (r7.colour, r7.number, r7.is_joker, r7.points) == (Colour.RED, 7, False, 7)
    assert Tile.parse("K13").points == 13
    assert JOKER.is_joker and JOKER.colour is None
    assert JOKER.points == 30
    assert Tile(Colour.BLUE, 4) is Tile.parse("B4")


def test_colours_letters_and_seed_palette() -> None:
    assert [c.letter for c in COLOURS] == ["K", "B", "O", "R"]
    assert sorted(c.palette_name for c in COLOURS) == ["chartreuse", "cobalt", "cornflower", "pink"]


@pytest.mark.parametrize("text", ["R0", "R14", "X5", "", "RR", "7R", "J1", "R-1", "JJ", "K 5", "B1.5", "joker"])
def test_bad_tiles_raise_parse_error_quoting_the_input(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Tile.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "K, B, O or R" in message and "J" in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(("colour", "number"), [(Colour.RED, 0), (Colour.RED, 14), (None, 3)])
def test_tile_constructor_rejects_impossible_tiles(colour: Colour | None, number: int) -> None:
    with pytest.raises(ParseError):
        Tile(colour, number)


def test_parse_tiles_and_format_tiles() -> None:
    tiles = parse_tiles("r1, K13  j b2")
    assert tiles == [Tile.parse("R1"), Tile.parse("K13"), JOKER, Tile.parse("B2")]
    assert format_tiles(tiles) == "R1 K13 J B2"
    assert parse_tiles(["r1", "J"]) == [Tile.parse("R1"), JOKER]
    assert parse_tiles("") == []
    with pytest.raises(ParseError, match="R14"):
        parse_tiles("R1 R14")


def test_tiles_are_immutable_interned_values() -> None:
    r7 = Tile.parse("R7")
    with pytest.raises(AttributeError):
        r7.number = 8
    assert copy.deepcopy(r7) is r7
    assert pickle.loads(pickle.dumps(r7)) is r7
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER
    assert len({Tile.parse("R7"), Tile.parse("r7"), Tile(Colour.RED, 7)}) == 1


def test_tile_order_colour_then_number_jokers_last() -> None:
    tiles = parse_tiles("J R1 K13 B2 K1")
    assert texts(sorted(tiles)) == "K1 K13 B2 R1 J"
    assert texts(sorted(tiles, key=number_order)) == "K1 R1 B2 K13 J"
    assert Tile.parse("K13") < Tile.parse("B1") < JOKER


# -- groups ----------------------------------------------------------------------


def test_group_of_three_and_of_four() -> None:
    three = check("K5 B5 O5")
    assert (three.valid, three.kind, three.points) == (True, "group", 15)
    four = check("R5 O5 B5 K5")
    assert (four.valid, four.kind, four.points) == (True, "group", 20)
    assert Counter(four.pieces) == Counter(parse_tiles("K5 B5 O5 R5"))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("K5 K5 B5", "RK-GROUP"),  # colours repeat
        ("K5 B5 O5 K5", "RK-GROUP"),
        ("K5 B5 O5 R5 J", "RK-GROUP"),  # five tiles
        ("K5 B5 O5 R5 K5", "RK-GROUP"),
        ("K5 B5", "RK-SET-SIZE"),  # two tiles
        ("K5 B6 O7", "RK-SET-KIND"),  # neither kind
        ("K5 B5 O6", "RK-SET-KIND"),
    ],
)
def test_bad_groups_are_rejected_with_their_rule(text: str, rule: str) -> None:
    result = check(text)
    assert not result.valid
    assert result.kind is None
    assert result.rule == rule


def test_group_duplicate_reason_names_the_tile() -> None:
    result = check("K5 K5 B5")
    assert result.reason is not None
    assert "K5 twice" in result.reason and "K5 K5 B5" in result.reason


def test_five_tile_group_reason() -> None:
    result = check("K5 B5 O5 R5 J")
    assert result.reason is not None and "at most 4" in result.reason


# -- runs ------------------------------------------------------------------------


def test_run_consecutive_same_colour() -> None:
    result = check("R1 R2 R3")
    assert (result.valid, result.kind, result.points) == (True, "run", 6)
    shuffled = check("R3 R1 R2")
    assert shuffled.valid and texts(shuffled.pieces) == "R1 R2 R3"
    assert check("B9 B10 B11 B12 B13").points == 55


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("R12 R13 R1", "RK-RUN"),  # wrap
        ("R13 R1 R2", "RK-RUN"),  # wrap
        ("R12 R13 R1 R2", "RK-RUN"),
        ("R1 R3 R4", "RK-RUN"),  # gap
        ("R1 R2 R2 R3", "RK-RUN"),  # duplicate number
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", "RK-RUN"),  # 14 tiles
        ("R1 R2 B3", "RK-SET-KIND"),  # two colours
        ("R1 R2", "RK-SET-SIZE"),
    ],
)
def test_bad_runs_are_rejected_with_their_rule(text: str, rule: str) -> None:
    result = check(text)
    assert not result.valid
    assert result.rule == rule


def test_wrap_reason_string() -> None:
    result = check("R12 R13 R1")
    assert result.reason is not None
    assert "wrap" in result.reason and "R12 R13 R1" in result.reason


def test_longest_run_and_full_run_with_a_joker() -> None:
    full = check(" ".join(f"K{n}" for n in range(1, 14)))
    assert (full.valid, full.points) == (True, 91)
    with_joker = check("R1 R2 R3 R4 R5 R6 J R8 R9 R10 R11 R12 R13")
    assert with_joker.valid and with_joker.kind == "run"
    assert with_joker.jokers == ("R7",)
    assert with_joker.points == 91
    low_joker = check("J R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13")
    assert low_joker.valid and low_joker.jokers == ("R1",)
    high_joker = check("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 J")
    assert high_joker.valid and high_joker.jokers == ("R13",)


# -- jokers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "roles", "points", "normal"),
    [
        ("R5 J R7", "run", ("R6",), 18, "R5 J R7"),  # middle
        ("J R5 R7", "run", ("R6",), 18, "R5 J R7"),  # written off-place, read by numbers
        ("R5 R6 J", "run", ("R7",), 18, "R5 R6 J"),  # high end
        ("J R6 R7", "run", ("R5",), 18, "J R6 R7"),  # low end as written
        ("R12 R13 J", "run", ("R11",), 36, "J R12 R13"),  # no room above 13
        ("J R2 R3", "run", ("R1",), 6, "J R2 R3"),
        ("R1 R2 J", "run", ("R3",), 6, "R1 R2 J"),
        ("B4 J J B7", "run", ("B5", "B6"), 22, "B4 J J B7"),  # two jokers in a run
        ("K9 B9 J", "group", ("9 in O/R",), 27, "J K9 B9"),
        ("K9 B9 O9 J", "group", ("9 in R",), 36, "J K9 B9 O9"),  # joker making a 4-group
        ("J J K13", "group", ("13 in B/O/R", "13 in B/O/R"), 39, "J J K13"),  # two jokers in a group
        ("J B10 O10", "group", ("10 in K/R",), 30, "J B10 O10"),
        ("K9 J K11", "run", ("K10",), 30, "K9 J K11"),
    ],
)
def test_jokers_stand_for_a_tile(text: str, kind: str, roles: tuple[str, ...], points: int, normal: str) -> None:
    result = check(text)
    assert result.valid, result.reason
    assert result.kind == kind
    assert result.jokers == roles
    assert result.points == points
    assert texts(result.pieces) == normal


def test_joker_points_count_as_the_tile_represented_not_30() -> None:
    # A joker in the rack costs 30, but in a set it is worth the tile it stands for.
    assert check("K8 J K10").points == 27
    assert check("J K1 B1").points == 3


@pytest.mark.parametrize("text", ["J J J", "J J J J"])
def test_all_joker_set_is_rejected(text: str) -> None:
    result = check(text)
    assert not result.valid
    assert result.rule == "RK-SET-JOKERS"
    assert result.reason is not None and "numbered tile" in result.reason


def test_joker_cannot_extend_a_run_past_13_or_below_1() -> None:
    # 12 numbered tiles 2..13 plus two jokers: 14 tiles is too long.
    assert not check("J J R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13").valid
    # R1..R13 are all present, a joker has nowhere to stand.
    assert not check("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J").valid


def test_invalid_verdict_gives_an_error_naming_its_rule() -> None:
    result = check("R12 R13 R1")
    error = result.error()
    assert isinstance(error, RuleError) and isinstance(error, ValueError)
    assert error.rule == "RK-RUN"
    assert error.reason == result.reason
    assert str(error).endswith("(rule RK-RUN)")


# -- properties ------------------------------------------------------------------


@st.composite
def group_like(draw: st.DrawFn) -> list[Tile]:
    number = draw(st.integers(1, 13))
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
    jokers = draw(st.integers(0, 2))
    tiles = [Tile(c, number) for c in colours] + [JOKER] * jokers
    if draw(st.booleans()):  # sometimes a duplicate colour or a stray tile
        tiles.append(draw(st.sampled_from(NUMBERED)))
    return draw(st.permutations(tiles))


@st.composite
def run_like(draw: st.DrawFn) -> list[Tile]:
    colour = draw(st.sampled_from(COLOURS))
    start = draw(st.integers(1, 13))
    length = draw(st.integers(1, 13))
    numbers = [n for n in range(start, start + length) if n <= 13]
    tiles = [Tile(colour, n) for n in numbers]
    replaced = draw(st.lists(st.integers(0, len(tiles) - 1), max_size=2, unique=True))
    for i in replaced:
        tiles[i] = JOKER
    tiles += [JOKER] * draw(st.integers(0, 1))
    if draw(st.booleans()):
        tiles.append(draw(st.sampled_from(ALL_TILES)))
    return draw(st.permutations(tiles))


any_set = st.one_of(
    group_like(),
    run_like(),
    st.lists(st.sampled_from(ALL_TILES), min_size=0, max_size=6),
)


@given(any_set)
def test_normal_form_is_a_fixed_point_and_a_permutation(tiles: list[Tile]) -> None:
    result = check_tiles(tiles)
    assert Counter(result.pieces) == Counter(tiles)
    if not result.valid:
        assert result.rule is not None and result.reason
        return
    again = check_tiles(result.pieces)
    assert again.valid
    assert again.kind == result.kind
    assert again.pieces == result.pieces
    assert again.points == result.points
    assert again.jokers == result.jokers


@given(any_set, st.randoms(use_true_random=False))
def test_validity_does_not_depend_on_the_order_written(tiles: list[Tile], rnd: random.Random) -> None:
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert check_tiles(shuffled).valid == check_tiles(tiles).valid


@given(any_set)
def test_jokers_and_points_agree_with_what_each_tile_stands_for(tiles: list[Tile]) -> None:
    result = check_tiles(tiles)
    if not result.valid:
        return
    assert len(result.jokers) == sum(t.is_joker for t in tiles)
    numbered = [t for t in result.pieces if not t.is_joker]
    if result.kind == "run":
        # Replace each joker by its role: a run of one colour, consecutive numbers.
        roles = iter(result.jokers)
        full = [Tile.parse(next(roles)) if t.is_joker else t for t in result.pieces]
        assert len({t.colour for t in full}) == 1
        assert [t.number for t in full] == list(range(full[0].number, full[0].number + len(full)))
        assert full[0].number >= 1 and full[-1].number <= 13
        assert result.points == sum(t.number for t in full)
    else:
        assert result.kind == "group"
        number = numbered[0].number
        assert all(t.number == number for t in numbered)
        assert len({t.colour for t in numbered}) == len(numbered)
        assert 3 <= len(tiles) <= 4
        assert result.points == number * len(tiles)
        missing = {c.letter for c in COLOURS} - {t.colour.letter for t in numbered if t.colour}
        for role in result.jokers:
            assert role.startswith(f"{number} in ")
            assert set(role.split(" in ")[1].split("/")) == missing


def test_a_group_of_one_number_and_three_jokers_keeps_its_reading_in_normal_form() -> None:
    """Found by Hypothesis: J J K3 J is a group (12 points beats the run 1-4 as laid); its normal form
    must not read as the run K3 J J J (3-6, 18 points)."""
    result = check_tiles(parse_tiles("J J K3 J"))
    assert result.kind == "group"
    again = check_tiles(result.pieces)
    assert again.kind == "group" and again.points == result.points
    assert format_tiles(result.pieces) == "J J K3 J"
