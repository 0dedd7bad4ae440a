"""Turn drafts: building a rummikub turn one step at a time, then committing it.

A draft (``TableDraft``) starts from the table and rack a seat sees; every step
checks its input and refuses (``RuleError``, draft unchanged) what it cannot
do; ``undo`` and ``reset`` go back; ``problems`` says what would make the
commit fail. The commit goes through ``draft_action`` and ``state.apply``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from rummykit.blocks.table import TableDraft
from rummykit.errors import RuleError
from rummykit.pieces.tiles import Tile, format_tiles, parse_tiles
from rummykit.rulesets.rummikub import Fail, Play, Rummikub, draft_action, draft_from_view, from_position

Draft = TableDraft[Tile]


def t(text: str) -> Tile:
    return Tile.parse(text)


def ts(text: str) -> list[Tile]:
    return parse_tiles(text)


def sets_text(draft: Draft) -> list[str]:
    return [format_tiles(s) for s in draft.sets]


def rack_text(draft: Draft) -> str:
    return format_tiles(sorted(draft.rack))


def same_sets(a: Sequence[Sequence[Tile]], b: Sequence[Sequence[Tile]]) -> bool:
    return Counter(tuple(sorted(s)) for s in a) == Counter(tuple(sorted(s)) for s in b)


def state_of(draft: Draft) -> tuple[list[Tile], list[list[Tile]]]:
    return (list(draft.rack), [list(s) for s in draft.sets])


def position(table: str, rack0: str, *, down: bool = True, pool: str = "seed 6") -> Rummikub:
    flag = "1" if down else "0"
    return from_position(f"table: {table}; racks: {rack0} / K1 B1; pool: {pool}; turn: 0; down: {flag}1")


def draft_for(table: str, rack0: str, *, down: bool = True) -> tuple[Rummikub, Draft]:
    state = position(table, rack0, down=down)
    return state, draft_from_view(state.view(0))


# -- starting a draft ------------------------------------------------------------------


def test_draft_starts_from_the_seats_view() -> None:
    state, draft = draft_for("R1 R2 R3 | K5 B5 O5", "R4 K9 J")
    assert sets_text(draft) == ["R1 R2 R3", "K5 B5 O5"]
    assert rack_text(draft) == "K9 R4 J"
    assert draft.placed() == []
    assert not draft.changed
    assert not draft.is_valid()  # nothing placed yet
    assert [p.rule for p in draft.problems()] == ["RK-PLAY-EMPTY"]
    same = state.draft(0)
    assert sets_text(same) == sets_text(draft) and rack_text(same) == rack_text(draft)


def test_a_spectator_cannot_draft() -> None:
    state = position("R1 R2 R3", "R4")
    with pytest.raises(RuleError) as info:
        draft_from_view(state.view(None))
    assert info.value.rule == "RK-DRAFT"


# -- steps -----------------------------------------------------------------------------


def test_new_set_from_rack_tiles() -> None:
    _, draft = draft_for("B5 B6 B7", "R1 R2 R3 K9")
    index = draft.new_set(ts("R1 R2 R3"))
    assert index == 1
    assert sets_text(draft) == ["B5 B6 B7", "R1 R2 R3"]
    assert rack_text(draft) == "K9"
    assert draft.placed() == ts("R1 R2 R3")
    assert draft.changed
    assert draft.is_valid() and draft.problems() == []


@pytest.mark.parametrize(
    ("table", "add", "expected"),
    [
        ("B5 B6 B7", "B8", "B5 B6 B7 B8"),
        ("B5 B6 B7", "B4", "B4 B5 B6 B7"),  # goes to the front, where it fits
        ("K5 B5 O5", "R5", "K5 B5 O5 R5"),
        ("B5 J B7", "B8", "B5 J B7 B8"),
        ("B5 B6 B7", "J", "B5 B6 B7 J"),
    ],
)
def test_add_places_the_tile_where_it_fits(table: str, add: str, expected: str) -> None:
    _, draft = draft_for(table, f"{add} K9")
    draft.add(0, ts(add))
    assert Counter(draft.sets[0]) == Counter(ts(expected))
    assert draft.verdicts()[0].valid
    assert draft.rules.check(draft.sets[0]).pieces == tuple(draft.sets[0])  # stored in normal order
    assert rack_text(draft) == "K9"
    assert draft.is_valid()


def test_add_at_an_explicit_position_and_an_add_that_does_not_fit() -> None:
    _, draft = draft_for("B5 B6 B7", "B8 K9")
    draft.add(0, ts("B8"), position=0)
    assert sets_text(draft) == ["B8 B5 B6 B7"]
    assert draft.is_valid()  # order within a set does not matter for validity
    draft.add(0, ts("K9"))
    assert sets_text(draft)[0].split()[-1] == "K9"
    problems = draft.problems()
    assert [(p.index, p.rule) for p in problems] == [(0, "RK-SET-KIND")]
    assert str(problems[0]).startswith("set 1: ") and str(problems[0]).endswith("(rule RK-SET-KIND)")


def test_move_between_sets_and_to_a_new_set() -> None:
    _, draft = draft_for("K1 K2 K3 K4 | B4 O4 R4", "R9")
    dest = draft.move(t("K4"), 0, 1)
    assert dest == 1
    assert sets_text(draft)[0] == "K1 K2 K3"
    assert Counter(draft.sets[1]) == Counter(ts("K4 B4 O4 R4"))
    assert rack_text(draft) == "R9"  # moving table tiles takes nothing from the rack
    dest = draft.move(t("K3"), 0, None)
    assert dest == 2
    assert sets_text(draft)[2] == "K3"
    assert [(p.index, p.rule) for p in draft.problems() if p.index is not None] == [
        (0, "RK-SET-SIZE"),
        (2, "RK-SET-SIZE"),
    ]


def test_moving_the_last_tile_of_a_set_leaves_an_empty_slot_that_the_commit_drops() -> None:
    _, draft = draft_for("R1 R2 R3 | K5 B5 O5", "R4")
    draft.new_set(ts("R4"))
    dest = draft.move(t("R4"), 2, 0)
    assert dest == 0
    assert sets_text(draft) == ["R1 R2 R3 R4", "K5 B5 O5", ""]
    assert [format_tiles(s) for s in draft.table()] == ["R1 R2 R3 R4", "K5 B5 O5"]
    assert draft.is_valid(), draft.problems()  # the empty slot is no set to judge
    # Emptying a set numbers nothing anew: every other set keeps its index.
    _, draft = draft_for("B5 B6 B7 | R1 R2 R3", "R4")
    draft.split(0, 2)  # B5 B6 | R1 R2 R3 | B7 (the tail goes at the end)
    assert sets_text(draft) == ["B5 B6", "R1 R2 R3", "B7"]
    dest = draft.move(t("B7"), 2, 0)
    assert dest == 0
    assert sets_text(draft) == ["B5 B6 B7", "R1 R2 R3", ""]
    assert not draft.changed  # the table is as it was: the empty slot does not count


def test_take_back_returns_a_placed_tile_to_the_rack() -> None:
    _, draft = draft_for("R1 R2 R3", "R4 K9")
    draft.add(0, ts("R4"))
    draft.take_back(t("R4"))
    assert sets_text(draft) == ["R1 R2 R3"]
    assert rack_text(draft) == "K9 R4"
    assert draft.placed() == []


def test_take_back_of_a_table_tile_is_refused() -> None:
    _, draft = draft_for("R1 R2 R3 R4", "K9")
    before = state_of(draft)
    with pytest.raises(RuleError) as info:
        draft.take_back(t("R4"))
    assert info.value.rule == "RK-TABLE-KEEP"
    assert state_of(draft) == before


def test_take_back_removes_the_copy_that_was_placed() -> None:
    # Two R3 tiles: one already on the table in a run, one placed this turn in a group.
    _, draft = draft_for("K3 B3 O3 | R1 R2 R3", "R3 K9")
    draft.add(0, ts("R3"))
    assert draft.is_valid()
    draft.take_back(t("R3"))
    assert Counter(draft.rack) == Counter(ts("R3 K9"))
    # The table is back as it was: the run keeps its R3, the group loses the placed one.
    assert sets_text(draft) == ["K3 B3 O3", "R1 R2 R3"]
    assert [p.rule for p in draft.problems()] == ["RK-PLAY-EMPTY"]


def test_split_and_merge_keep_every_set_number() -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9", "R7")
    new = draft.split(0, 3)
    assert new == 2  # the tail is a new set at the end; set 2 (index 1) is still K9 B9 O9
    assert sets_text(draft) == ["R1 R2 R3", "K9 B9 O9", "R4 R5 R6"]
    merged = draft.merge(0, 2)
    assert merged == 0
    assert sets_text(draft) == ["R1 R2 R3 R4 R5 R6", "K9 B9 O9", ""]
    assert [format_tiles(s) for s in draft.table()] == ["R1 R2 R3 R4 R5 R6", "K9 B9 O9"]
    # Merging into a later set leaves the earlier one empty, in its place.
    draft.split(0, 3)
    merged = draft.merge(3, 0)
    assert merged == 3
    assert sets_text(draft) == ["", "K9 B9 O9", "", "R4 R5 R6 R1 R2 R3"]


# -- undo and reset --------------------------------------------------------------------------

Step = Callable[[Draft], object]

STEPS: list[tuple[str, Step]] = [
    ("new_set", lambda d: d.new_set(ts("R7 J"))),
    ("add", lambda d: d.add(0, ts("R7"))),
    ("add_at", lambda d: d.add(1, ts("J"), position=1)),
    ("move", lambda d: d.move(t("R1"), 0, 1)),
    ("move_new", lambda d: d.move(t("R6"), 0, None)),
    ("take_back", lambda d: d.take_back(t("K10"))),
    ("split", lambda d: d.split(0, 3)),
    ("merge", lambda d: d.merge(0, 1)),
    ("reset", lambda d: d.reset()),
]


@pytest.mark.parametrize(("name", "step"), STEPS, ids=[n for n, _ in STEPS])
def test_undo_takes_back_each_step(name: str, step: Step) -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9", "K10 K11 K12 R7 J")
    draft.new_set(ts("K10 K11 K12"))  # so that take_back and reset have something to undo
    before = state_of(draft)
    step(draft)
    assert state_of(draft) != before, f"{name} changed nothing"
    draft.undo()
    assert state_of(draft) == before


def test_undo_walks_back_through_every_step_to_the_start() -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9", "K10 K11 K12 R7 J")
    draft.new_set(ts("K10 K11 K12"))
    start = state_of(draft)
    seen = [start]
    for _, step in STEPS[1:-1]:
        step(draft)
        seen.append(state_of(draft))
    for expected in reversed(seen[:-1]):
        draft.undo()
        assert state_of(draft) == expected
    draft.undo()  # the setup's new set
    assert sets_text(draft) == ["R1 R2 R3 R4 R5 R6", "K9 B9 O9"]
    with pytest.raises(RuleError) as info:
        draft.undo()
    assert info.value.rule == "RK-DRAFT"
    assert sets_text(draft) == ["R1 R2 R3 R4 R5 R6", "K9 B9 O9"]


def test_reset_returns_to_the_start_of_the_turn() -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9", "K10 K11 K12 R7")
    start = state_of(draft)
    draft.new_set(ts("K10 K11 K12"))
    draft.split(0, 3)
    draft.add(1, ts("R7"))
    changed = state_of(draft)
    draft.reset()
    assert state_of(draft) == start
    assert draft.placed() == [] and not draft.changed
    draft.undo()
    assert state_of(draft) == changed


# -- bad steps ----------------------------------------------------------------------------------

BAD_STEPS: list[tuple[str, Step, str]] = [
    ("new_set_not_in_rack", lambda d: d.new_set(ts("R13 R12 R11")), "RK-RACK"),
    ("new_set_twice_a_single_tile", lambda d: d.new_set(ts("R7 R7")), "RK-RACK"),
    ("new_set_empty", lambda d: d.new_set([]), "RK-DRAFT"),
    ("add_no_such_set", lambda d: d.add(5, ts("R7")), "RK-DRAFT"),
    ("add_negative_set", lambda d: d.add(-1, ts("R7")), "RK-DRAFT"),
    ("add_not_in_rack", lambda d: d.add(0, ts("K8")), "RK-RACK"),
    ("add_nothing", lambda d: d.add(0, []), "RK-DRAFT"),
    ("move_tile_not_in_set", lambda d: d.move(t("K9"), 0, 1), "RK-DRAFT"),
    ("move_from_no_such_set", lambda d: d.move(t("R1"), 7, 1), "RK-DRAFT"),
    ("move_to_no_such_set", lambda d: d.move(t("R1"), 0, 7), "RK-DRAFT"),
    ("take_back_table_tile", lambda d: d.take_back(t("R1")), "RK-TABLE-KEEP"),
    ("take_back_rack_tile", lambda d: d.take_back(t("R7")), "RK-TABLE-KEEP"),
    ("split_at_zero", lambda d: d.split(0, 0), "RK-DRAFT"),
    ("split_at_end", lambda d: d.split(0, 6), "RK-DRAFT"),
    ("split_no_such_set", lambda d: d.split(4, 1), "RK-DRAFT"),
    ("merge_with_itself", lambda d: d.merge(1, 1), "RK-DRAFT"),
    ("merge_no_such_set", lambda d: d.merge(0, 9), "RK-DRAFT"),
]


@pytest.mark.parametrize(("name", "step", "rule"), BAD_STEPS, ids=[n for n, _, _ in BAD_STEPS])
def test_bad_steps_raise_and_leave_the_draft_unchanged(name: str, step: Step, rule: str) -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9", "K10 K11 K12 R7")
    draft.new_set(ts("K10 K11 K12"))
    before = state_of(draft)
    with pytest.raises(RuleError) as info:
        step(draft)
    assert info.value.rule == rule, str(info.value)
    assert f"(rule {rule})" in str(info.value)
    assert state_of(draft) == before
    # The refused step left nothing on the undo stack: undo takes back the new set.
    draft.undo()
    assert sets_text(draft) == ["R1 R2 R3 R4 R5 R6", "K9 B9 O9"]


# -- problems -------------------------------------------------------------------------------------


def test_problems_name_each_invalid_set() -> None:
    _, draft = draft_for("R1 R2 R3 R4 R5 R6 | K9 B9 O9 R9", "R8 K12")
    draft.split(0, 2)  # R1 R2 | K9 B9 O9 R9 | R3 R4 R5 R6
    draft.new_set(ts("R8 K12"))
    problems = draft.problems()
    assert [(p.index, p.rule) for p in problems] == [(0, "RK-SET-SIZE"), (3, "RK-SET-SIZE")]
    assert all(p.reason for p in problems)
    assert "R1 R2" in problems[0].reason
    assert not draft.is_valid()
    verdicts = draft.verdicts()
    assert [v.valid for v in verdicts] == [False, True, True, False]


def test_problems_report_the_initial_meld_shortfall() -> None:
    _, draft = draft_for("", "R1 R2 R3 K10 K11 K12", down=False)
    draft.new_set(ts("R1 R2 R3"))
    problems = draft.problems()
    assert [(p.index, p.rule) for p in problems] == [(None, "RK-OPENING-POINTS")]
    assert "30" in problems[0].reason and "6" in problems[0].reason
    assert str(problems[0]).startswith("turn: ")
    draft.new_set(ts("K10 K11 K12"))
    assert draft.is_valid()


def test_problems_report_touching_the_table_before_the_initial_meld() -> None:
    _, draft = draft_for("R1 R2 R3", "R4 K10 K11 K12", down=False)
    draft.new_set(ts("K10 K11 K12"))
    draft.add(0, ts("R4"))
    assert [(p.index, p.rule) for p in draft.problems()] == [(None, "RK-OPENING-TABLE")]


# -- committing ---------------------------------------------------------------------------------


def test_a_valid_draft_commits_as_an_accepted_play() -> None:
    state, draft = draft_for("R1 R2 R3 R4 R5 | K7 B7 O7", "R3 R6 O8 K9")
    draft.split(0, 3)  # R1 R2 R3 | K7 B7 O7 | R4 R5
    draft.add(2, ts("R3"))  # R3 R4 R5
    draft.add(2, ts("R6"))
    assert draft.is_valid(), draft.problems()
    action = draft_action(0, draft)
    assert isinstance(action, Play)
    assert sorted(action.placed) == sorted(ts("R3 R6"))
    state.apply(action)
    assert same_sets(state.table, draft.sets)
    assert Counter(state.racks[0]) == Counter(ts("O8 K9"))
    assert state.view(None)["turn"] == 1


def test_an_initial_meld_draft_commits() -> None:
    state, draft = draft_for("", "K10 K11 K12 R2", down=False)
    draft.new_set(ts("K12 K10 K11"))
    state.apply(draft_action(0, draft))
    assert state.down[0]
    assert [format_tiles(s) for s in state.table] == ["K10 K11 K12"]


def test_an_invalid_draft_is_rejected_but_accepted_with_the_penalty() -> None:
    state, draft = draft_for("R1 R2 R3 R4 R5 | K7 B7 O7", "R9 K9")
    state.pool = ts("O2 B12 K1 R13 O13")
    table_before = list(state.table)
    draft.split(0, 3)  # R1 R2 R3 | K7 B7 O7 | R4 R5
    draft.add(2, ts("R9"))  # R4 R5 R9: invalid
    assert not draft.is_valid()
    before = state.snapshot()
    with pytest.raises(RuleError) as info:
        state.apply(draft_action(0, draft))
    assert info.value.rule == "RK-RUN"
    assert state.snapshot() == before
    penalty = draft_action(0, draft, accept_penalty=True)
    assert isinstance(penalty, Fail)
    state.apply(penalty)
    assert state.table == table_before
    assert Counter(state.racks[0]) == Counter(ts("R9 K9 K1 R13 O13"))
    assert len(state.pool) == 2
    assert state.view(None)["turn"] == 1


def test_a_valid_draft_cannot_be_committed_as_a_penalty() -> None:
    state, draft = draft_for("R1 R2 R3", "R4 K9")
    draft.add(0, ts("R4"))
    before = state.snapshot()
    with pytest.raises(RuleError) as info:
        state.apply(draft_action(0, draft, accept_penalty=True))
    assert info.value.rule == "RK-FAIL-VALID"
    assert state.snapshot() == before
