"""The racks block: named racks per player, refusals that change nothing, merging."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.blocks.racks import Racks
from rummykit.errors import RuleError
from rummykit.pieces.tiles import ALL_TILES, Tile, parse_tiles


def test_one_rack_per_player_reads_as_a_list() -> None:
    racks: Racks[Tile] = Racks.of([parse_tiles("R1 R2"), parse_tiles("K5")], rule="RK-RACK")
    assert racks[0] == parse_tiles("R1 R2") and len(racks) == 2
    assert [len(r) for r in racks] == racks.sizes() == [2, 1]


def test_taking_a_piece_that_is_not_there_names_the_rule_and_changes_nothing() -> None:
    racks: Racks[Tile] = Racks.of([parse_tiles("R1 R2 R2")], rule="RK-RACK")
    before = racks.copy()
    with pytest.raises(RuleError) as err:
        racks.take(0, parse_tiles("R2 R2 R2"))
    assert err.value.rule == "RK-RACK" and "R2" in err.value.reason
    assert racks == before


def test_trays_are_configuration_and_pieces_stay_in_their_tray() -> None:
    racks: Racks[Tile] = Racks(2, names=("A", "B"))
    racks.add(1, parse_tiles("R7"), "A")
    racks.add(1, parse_tiles("B7"), "B")
    assert racks.where(1, Tile.parse("B7")) == "B" and racks.where(1, Tile.parse("O7")) is None
    with pytest.raises(RuleError):
        racks.take(1, parse_tiles("R7"), "B")
    with pytest.raises(ValueError):
        racks.rack(1)  # two racks: one must be named
    racks.merge(1)
    assert racks.names_of(1) == ("A",) and Counter(racks[1]) == Counter(parse_tiles("R7 B7"))


def test_the_slots_of_the_other_seats_are_the_racks_own_lists_seat_by_seat_and_rack_by_rack() -> None:
    racks: Racks[Tile] = Racks(3, names=("A", "B"))
    racks.add(0, parse_tiles("R1"), "A")
    racks.add(1, parse_tiles("R2 R3"), "B")
    racks.add(1, parse_tiles("K4"), "A")
    racks.add(2, parse_tiles("K5"), "B")
    slots = racks.slots_of_others(0)
    assert [str(where[i]) for where, i in slots] == ["K4", "R2", "R3", "K5"]
    assert all(where is racks.rack(1, "A") for where, _ in slots[:1])
    assert len(racks.slots_of_others(None)) == 5


def test_a_copy_shares_no_list() -> None:
    racks: Racks[Tile] = Racks.of([parse_tiles("R1")])
    other = racks.copy()
    other.add(0, parse_tiles("R2"))
    assert racks[0] == parse_tiles("R1") and other != racks


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20), st.lists(st.sampled_from(ALL_TILES), max_size=6))
def test_take_removes_exactly_what_it_is_given_or_nothing(held: list[Tile], taken: list[Tile]) -> None:
    racks: Racks[Tile] = Racks.of([held])
    total = racks.counts()
    try:
        racks.take(0, taken)
    except RuleError:
        assert racks.counts() == total and Counter(taken) - Counter(held)
    else:
        assert racks.counts() + Counter(taken) == total
