"""The shared free-table code, run once for each piece family (tiles and dominoes).

The same scenario is written in both notations: a table run of three, a rack
that can extend it, and a joker on the table that could be freed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from rummykit.blocks.table import FreeTable, Opening, TableDraft
from rummykit.errors import RuleError
from rummykit.pieces.dominoes import parse_dominoes
from rummykit.pieces.tiles import parse_tiles
from rummykit.rulesets import domino_rummikub, rummikub


@dataclass(frozen=True)
class Family:
    name: str
    table: FreeTable[Any]
    parse: Callable[[str], list[Any]]
    run: str  # a valid run of three
    run_with_joker: str  # the same run with its middle piece replaced by a joker
    middle: str  # the piece the joker stands for
    extension: str  # a piece that extends the run at its high end
    stray: str  # a piece that fits nothing
    joker: str


FAMILIES = [
    Family("tiles", rummikub.TABLE, parse_tiles, "R1 R2 R3", "R1 J R3", "R2", "R4", "K9", "J"),
    Family("dominoes", domino_rummikub.TABLE, parse_dominoes, "1-2 1-3 1-4", "1-2 0-0 1-4", "1-3", "1-5", "2-6", "0-0"),
]


def sets(f: Family, *texts: str) -> list[tuple[Any, ...]]:
    return [tuple(f.parse(t)) for t in texts]


@pytest.fixture(params=FAMILIES, ids=[f.name for f in FAMILIES])
def family(request: pytest.FixtureRequest) -> Family:
    return request.param  # type: ignore[no-any-return]


def rule_of(call: Callable[[], object]) -> str:
    with pytest.raises(RuleError) as info:
        call()
    return info.value.rule.split("-", 1)[1]


def test_conservation_rules(family: Family) -> None:
    f, t = family, family.table
    old = sets(f, f.run)
    rack = f.parse(f"{f.extension} {f.stray}")
    t.verify_pieces(old, rack, f.parse(f.extension), sets(f, f"{f.run} {f.extension}"))
    assert rule_of(lambda: t.verify_pieces(old, rack, [], old)) == "PLAY-EMPTY"
    assert rule_of(lambda: t.verify_pieces(old, rack, f.parse(f.middle), sets(f, f"{f.run} {f.middle}"))) == "RACK"
    assert rule_of(lambda: t.verify_pieces(old, rack, f.parse(f.stray), sets(f, f.stray))) == "TABLE-KEEP"
    assert rule_of(
        lambda: t.verify_pieces(old, rack, f.parse(f.extension), sets(f, f"{f.run} {f.extension} {f.stray}"))
    ) == "CONSERVE"
    with_joker = sets(f, f.run_with_joker)
    rack2 = f.parse(f"{f.middle} {f.stray}")
    freed = sets(f, f.run)  # the joker replaced by the real piece, then left off the table
    assert rule_of(lambda: t.verify_pieces(with_joker, rack2, f.parse(f.middle), freed)) == "JOKER-REUSE"


def test_conservation_with_sets_kept_in_place(family: Family) -> None:
    """A play that keeps table sets as the same objects (as listed plays do) is judged as one that rebuilds them."""
    f, t = family, family.table
    run, other = sets(f, f.run, f"{f.stray}")[0], tuple(f.parse(f.stray))
    grown = sets(f, f"{f.run} {f.extension}")[0]
    old = [run, other]
    rack = f.parse(f"{f.extension} {f.middle}")
    placed = f.parse(f.extension)
    t.verify_pieces(old, rack, placed, [grown, other])  # one set replaced
    t.verify_pieces(old, rack, placed, [*old, tuple(placed)])  # one set added
    t.verify_pieces(old, rack, placed, [other, grown])  # moved, so counted in full
    assert rule_of(lambda: t.verify_pieces(old, rack, placed, [run, other])) == "TABLE-KEEP"
    assert rule_of(lambda: t.verify_pieces(old, rack, placed, [grown, other, tuple(placed)])) == "CONSERVE"
    assert rule_of(lambda: t.verify_pieces(old, rack, placed, [run, tuple(placed)])) == "TABLE-KEEP"
    assert rule_of(lambda: t.verify_pieces(old, rack, placed, [grown, other, ()])) == "SET-SIZE"
    assert rule_of(lambda: t.verify_pieces(old, rack, placed, [grown, tuple(f.parse(f.middle))])) == "TABLE-KEEP"


def test_set_faults_and_opening(family: Family) -> None:
    f, t = family, family.table
    table = sets(f, f.run, f"{f.extension} {f.stray}")
    faults = t.faults(table)
    assert [i for i, _ in faults] == [1]
    opening = Opening(min_points=0, max_sets=1, name="opening")
    old = sets(f, f.run)
    touched = sets(f, f"{f.run} {f.extension}")
    fault = t.opening_fault(opening, old, f.parse(f.extension), touched)
    assert fault is not None and fault.rule.endswith("OPENING-TABLE")
    fresh = [*old, *sets(f, f.run_with_joker)]
    assert t.opening_fault(opening, old, f.parse(f.run_with_joker), fresh) is None
    too_many = [*old, *sets(f, f.run_with_joker, f.run_with_joker)]
    fault = t.opening_fault(opening, old, [], too_many)
    assert fault is not None and fault.rule.endswith("OPENING-SETS")


def test_draft_steps_undo_and_take_back(family: Family) -> None:
    f = family
    draft: TableDraft[Any] = TableDraft(f.table, f.parse(f"{f.extension} {f.stray}"), sets(f, f.run))
    draft.add(0, f.parse(f.extension))
    assert draft.is_valid() and draft.placed() == f.parse(f.extension)
    new = draft.move(f.parse(f.extension)[0], 0, None)
    assert len(draft.sets) == 2 and new == 1
    assert [p.index for p in draft.problems()] == [1]
    draft.undo()
    assert draft.is_valid()
    with pytest.raises(RuleError):
        draft.take_back(f.parse(f.run)[0])  # a table piece never goes to the rack
    draft.take_back(f.parse(f.extension)[0])
    assert sorted(draft.rack) == sorted(f.parse(f"{f.extension} {f.stray}"))
    assert draft.sets == [list(s) for s in sets(f, f.run)]
    draft.reset()
    assert not draft.changed


def test_a_listed_play_is_the_play_its_fields_make() -> None:
    from rummykit.rulesets.freetable import Play, _listed_play

    placed, table = tuple(parse_tiles("R4")), (tuple(parse_tiles("R1 R2 R3 R4")),)
    listed, made = _listed_play(1, placed, table), Play(1, placed, table)
    assert listed == made and hash(listed) == hash(made) and repr(listed) == repr(made) and str(listed) == str(made)
    assert (listed.player, listed.placed, listed.table) == (1, placed, table)
