"""Conveyor Rummy's meld checks (seed 000 section 4.1, RULES-NOTES section 4), against independent definitions.

Every verdict of :class:`ConveyorMelds` is compared with a brute-force
reading of the seed's definitions on the whole double-6 set, the scoring
table with the seed's own table, and the domino lines with an exhaustive
search over orders.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from rummykit.melds.conveyor import (
    LINE,
    PAIRS,
    RUN,
    SUM,
    ConveyorMelds,
    find_line,
    format_dominoes,
    parse_dominoes,
)
from rummykit.pieces.dominoes import Domino, double_set

SIX = ConveyorMelds(6)
NINE = ConveyorMelds(9)
TWELVE = ConveyorMelds(12)


def ds(text: str) -> tuple[Domino, ...]:
    return tuple(parse_dominoes(text))


def reference_kind(pieces: Sequence[Domino]) -> str | None:
    """The seed's definitions, written independently: which kind is this set, if any?"""
    if len(pieces) < 3 or len(set(pieces)) != len(pieces):
        return None
    kinds = []
    # normal run: some number s on every domino, the other halves consecutive
    for s in range(19):
        if all(s in (d.low, d.high) for d in pieces):
            others = sorted(d.high if d.low == s else d.low for d in pieces)
            if others == list(range(others[0], others[0] + len(pieces))):
                kinds.append(RUN)
    if all(d.low == d.high for d in pieces):
        nums = sorted(d.low for d in pieces)
        if nums == list(range(nums[0], nums[0] + len(pieces))):
            kinds.append(PAIRS)
    if len({d.low + d.high for d in pieces}) == 1:
        kinds.append(SUM)
    assert len(set(kinds)) <= 1, (pieces, kinds)
    return kinds[0] if kinds else None


# -- the three kinds ------------------------------------------------------------------


def test_normal_run_shares_a_half_with_consecutive_other_halves() -> None:
    c = NINE.check(ds("5-8 5-6 7-5"))
    assert c.valid and c.kind == RUN
    assert format_dominoes(c.pieces) == "5-6 5-7 5-8"  # ascending normal order


def test_a_double_fits_a_run_where_its_number_does() -> None:
    c = NINE.check(ds("5-3 5-4 5-5 5-6"))
    assert c.kind == RUN and format_dominoes(c.pieces) == "3-5 4-5 5-5 5-6"
    assert SIX.check(ds("0-0 0-1 0-2")).kind == RUN
    bad = NINE.check(ds("5-3 5-5 5-6"))  # 5-5 stands for 5: 3, 5, 6 has a gap
    assert not bad.valid and bad.rule == "CV-RUN"
    assert "consecutive" in (bad.reason or "")


def test_run_of_pairs_is_consecutive_doubles() -> None:
    c = NINE.check(ds("4-4 2-2 3-3"))
    assert c.kind == PAIRS and format_dominoes(c.pieces) == "2-2 3-3 4-4"
    bad = NINE.check(ds("2-2 3-3 5-5"))
    assert bad.rule == "CV-PAIRS" and "2, 3, 5" in (bad.reason or "")


def test_sum_is_equal_pip_totals() -> None:
    c = NINE.check(ds("3-5 0-8 2-6"))
    assert c.kind == SUM and format_dominoes(c.pieces) == "0-8 2-6 3-5"
    assert NINE.check(ds("4-3 5-2 6-1")).kind == SUM  # the recovered example of a sum


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("3-4 3-5", "CV-MELD-SIZE"),
        ("", "CV-MELD-SIZE"),
        ("3-4 3-5 4-3", "CV-MELD-REPEAT"),
        ("3-10 4-10 5-10", "CV-MELD-SET"),
        ("3-5 4-5 4-4", "CV-MELD-KIND"),
        ("1-2 3-4 5-6", "CV-MELD-KIND"),
        ("1-3 1-4 1-6", "CV-RUN"),
        ("0-0 1-1 3-3", "CV-PAIRS"),
    ],
)
def test_invalid_melds_name_their_rule_and_reason(text: str, rule: str) -> None:
    c = NINE.check(ds(text))
    assert not c.valid and c.kind is None
    assert c.rule == rule
    assert c.reason
    error = c.error()
    assert error.rule == rule and f"(rule {rule})" in str(error)


def test_checker_agrees_with_the_definitions_on_every_triple_and_quadruple_of_double_6() -> None:
    dominoes = double_set(6)
    checked = 0
    for size in (3, 4):
        for combo in itertools.combinations(dominoes, size):
            expected = reference_kind(combo)
            got = SIX.check(combo)
            assert got.valid == (expected is not None), combo
            assert got.kind == expected, combo
            if got.valid:
                assert sorted(got.pieces) == sorted(combo)
                assert reference_kind(got.pieces) == expected
            checked += 1
    assert checked == 3276 + 20475


def test_kinds_never_overlap_on_the_double_9_set() -> None:
    rng = random.Random(5)
    dominoes = double_set(9)
    for _ in range(3000):
        combo = rng.sample(dominoes, rng.randint(3, 6))
        assert NINE.check(combo).kind == reference_kind(combo)


# -- lay-offs --------------------------------------------------------------------------


def test_run_takes_one_domino_at_each_end() -> None:
    run = ds("3-5 4-5 5-5")
    assert NINE.fits(RUN, run, "low") == (Domino(2, 5),)
    assert NINE.fits(RUN, run, "high") == (Domino(5, 6),)
    assert NINE.extend(RUN, run, Domino(2, 5), "low") == ds("2-5 3-5 4-5 5-5")
    assert NINE.extend(RUN, run, Domino(5, 6), "high") == ds("3-5 4-5 5-5 5-6")
    assert NINE.extend(RUN, run, Domino(2, 5), "high") is None  # the wrong end
    assert NINE.extend(RUN, run, Domino(5, 8), "high") is None  # not next in line
    assert NINE.fits(RUN, ds("0-3 1-3 2-3"), "low") == ()
    assert NINE.fits(RUN, ds("3-7 3-8 3-9"), "high") == ()


def test_pairs_take_the_next_double_at_each_end() -> None:
    pairs = ds("2-2 3-3 4-4")
    assert NINE.fits(PAIRS, pairs, "low") == (Domino(1, 1),)
    assert NINE.fits(PAIRS, pairs, "high") == (Domino(5, 5),)
    assert SIX.fits(PAIRS, ds("4-4 5-5 6-6"), "high") == ()


def test_sum_takes_any_domino_of_its_total_at_either_end() -> None:
    total_8 = ds("2-6 3-5 4-4")
    for end in ("low", "high"):
        assert NINE.fits(SUM, total_8, end) == ds("0-8 1-7")
    assert NINE.extend(SUM, total_8, Domino(0, 8), "low") == ds("0-8 2-6 3-5 4-4")
    assert NINE.extend(SUM, total_8, Domino(1, 7), "high") == ds("2-6 3-5 4-4 1-7")
    assert NINE.extend(SUM, total_8, Domino(1, 6), "high") is None


def test_a_line_takes_no_layoffs() -> None:
    assert NINE.fits(LINE, ds("1-2 2-3 3-4"), "high") == ()


# -- royal melds and scores ----------------------------------------------------------------


def count_of_total(top: int, total: int) -> int:
    return sum(1 for d in double_set(top) if d.pips == total)


@pytest.mark.parametrize("rules", [SIX, NINE, TWELVE])
def test_royal_melds_hold_everything_that_could_belong(rules: ConveyorMelds) -> None:
    top = rules.top
    for suit in range(top + 1):
        full = tuple(sorted((Domino(suit, v) for v in range(top + 1)), key=lambda d: d.other(suit)))
        assert rules.check(full).kind == RUN
        assert rules.is_royal(RUN, full)
        assert not rules.is_royal(RUN, full[1:])
    doubles = tuple(Domino(v, v) for v in range(top + 1))
    assert rules.is_royal(PAIRS, doubles) and not rules.is_royal(PAIRS, doubles[:-1])
    for total in range(2 * top + 1):
        members = tuple(d for d in double_set(top) if d.pips == total)
        assert len(members) == count_of_total(top, total)
        if len(members) >= 3:
            assert rules.check(members).kind == SUM
            assert rules.is_royal(SUM, members)
            assert not rules.is_royal(SUM, members[1:])


def test_royal_sums_can_be_three_dominoes() -> None:
    assert NINE.is_royal(SUM, ds("0-4 1-3 2-2"))
    assert NINE.is_royal(SUM, ds("5-9 6-8 7-7"))  # all of total 14 in double-9
    assert not NINE.is_royal(SUM, ds("1-5 2-4 3-3"))  # 0-6 is missing


SEED_TABLE = {
    # length: (runs, sums, pairs), from the seed's "Example Melds" table
    3: (1, 2, 3),
    4: (1, 2, 3),
    5: (2, 4, 6),
    6: (3, 6, 9),
    7: (4, 8, 12),
    8: (5, 10, 15),
}


@pytest.mark.parametrize("length", sorted(SEED_TABLE))
def test_scores_match_the_seeds_table(length: int) -> None:
    run = tuple(Domino(0, v) for v in range(1, 1 + length))  # 0-1 .. : never royal in double-12
    pairs = tuple(Domino(v, v) for v in range(1, 1 + length))
    assert TWELVE.check(run).kind == RUN and TWELVE.check(pairs).kind == PAIRS
    assert not TWELVE.is_royal(RUN, run) and not TWELVE.is_royal(PAIRS, pairs)
    runs, sums, pairs_value = SEED_TABLE[length]
    assert (TWELVE.score(RUN, run), TWELVE.score(PAIRS, pairs)) == (runs, pairs_value)
    if length <= 6:  # a double-12 set has at most 7 dominoes of one total (12), and all 7 are royal
        total_12 = tuple(d for d in double_set(12) if d.pips == 12)[:length]
        assert TWELVE.check(total_12).kind == SUM and not TWELVE.is_royal(SUM, total_12)
        assert TWELVE.score(SUM, total_12) == sums


def test_royal_bonus_is_ten() -> None:
    assert NINE.score(SUM, ds("0-4 1-3 2-2")) == 2 + 10
    all_doubles = tuple(Domino(v, v) for v in range(10))
    assert NINE.score(PAIRS, all_doubles) == 3 * (10 - 3) + 10
    assert NINE.score(LINE, ds("1-2 2-3 3-4 4-5 5-6")) == 2


# -- enumeration -------------------------------------------------------------------------


def brute_melds(rules: ConveyorMelds, hand: Sequence[Domino]) -> set[tuple[Domino, ...]]:
    found = set()
    for size in range(3, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            c = rules.check(combo)
            if c.valid:
                found.add(c.pieces)
    return found


def test_hand_melds_lists_every_valid_meld_of_a_hand() -> None:
    rng = random.Random(11)
    for _ in range(150):
        hand = rng.sample(double_set(6), rng.randint(3, 10))
        listed = SIX.hand_melds(hand)
        assert len(listed) == len(set(listed))
        assert set(listed) == brute_melds(SIX, hand)
        assert all(SIX.check(m).pieces == m for m in listed)


def test_melds_with_a_domino_all_hold_it() -> None:
    hand = ds("3-3 3-4 2-2 4-4 1-7")
    found = {format_dominoes(m) for m in NINE.melds_with(hand, Domino(3, 5))}
    assert found == {"3-3 3-4 3-5", "1-7 3-5 4-4"}


# -- lines (domino_runs) ---------------------------------------------------------------------


def brute_line(pieces: Sequence[Domino]) -> bool:
    for order in itertools.permutations(pieces):
        for flip in (False, True):
            first = order[0]
            open_half = first.low if flip else first.high
            for d in order[1:]:
                if not d.has(open_half):
                    break
                open_half = d.other(open_half)
            else:
                return True
    return False


def check_layout(layout: str, pieces: Sequence[Domino]) -> None:
    """A non-branching layout: every domino once, turned so that touching halves match."""
    words = layout.split()
    turned = [tuple(int(x) for x in w.split("-")) for w in words]
    assert sorted(Domino(a, b) for a, b in turned) == sorted(pieces)
    for (_a, b), (c, _d) in itertools.pairwise(turned):
        assert b == c, layout


def test_find_line_agrees_with_an_exhaustive_search() -> None:
    rng = random.Random(3)
    found = 0
    for _ in range(400):
        pieces = rng.sample(double_set(4), rng.randint(2, 6))
        layout = find_line(pieces)
        assert (layout is not None) == brute_line(pieces), pieces
        if layout is not None:
            check_layout(layout, pieces)
            found += 1
    assert found > 30


def brute_tree(pieces: Sequence[Domino]) -> bool:
    """Branching lines by brute force: some order in which each domino joins an earlier one."""
    return any(brute_tree_order(list(order)) for order in itertools.permutations(pieces))


def brute_tree_order(order: list[Domino]) -> bool:
    n = len(order)
    caps: dict[tuple[int, int], int] = {}

    def free(i: int, v: int) -> int:
        d = order[i]
        if d.is_double:
            return 4 - sum(k for (j, _w), k in caps.items() if j == i)
        return 1 - caps.get((i, v), 0)

    def rec(i: int) -> bool:
        if i == n:
            return True
        d = order[i]
        for p in range(i):
            for v in {d.low, d.high}:
                if order[p].has(v) and free(p, v) > 0 and free(i, v) > 0:
                    caps[(p, v)] = caps.get((p, v), 0) + 1
                    caps[(i, v)] = caps.get((i, v), 0) + 1
                    if rec(i + 1):
                        return True
                    caps[(p, v)] -= 1
                    caps[(i, v)] -= 1
        return False

    return rec(1)


def test_branching_lines_agree_with_an_exhaustive_search() -> None:
    rng = random.Random(8)
    more = 0
    for _ in range(150):
        pieces = rng.sample(double_set(4), rng.randint(2, 6))
        branching = find_line(pieces, branching=True) is not None
        assert branching == brute_tree(pieces), pieces
        if branching and find_line(pieces) is None:
            more += 1
    assert more > 0  # branching really allows more


def test_branch_layout_is_written_with_brackets() -> None:
    layout = find_line(ds("3-3 1-3 3-5 3-4"), branching=True)
    assert layout == "1-3 3-3[3-4] 3-5"
    assert find_line(ds("3-3 1-3 3-5 3-4")) is None
    assert find_line(ds("0-1 2-3 3-4")) is None  # not connected


def listed_by_groups(top: int, hand: Sequence[Domino]) -> list[tuple[Domino, ...]]:
    """The hand's melds in the listing's order, worked out plainly (the order random bots draw from).

    Runs suit by suit (suits ascending, then each stretch of three or more
    consecutive numbers from its start, shortest first), then runs of pairs
    the same way, then sums total by total (every subset of three or more in
    the dominoes' own order, smallest subsets first).
    """
    pieces = sorted(set(hand))
    found: list[tuple[Domino, ...]] = []

    def stretches(numbers: list[int]) -> list[tuple[int, int]]:
        out = []
        for a in numbers:
            b = a + 2
            while all(v in numbers for v in range(a, b + 1)):
                out.append((a, b))
                b += 1
        return out

    for suit in range(19):
        numbers = sorted({d.other(suit) for d in pieces if d.has(suit)})
        found.extend(tuple(Domino(suit, v) for v in range(a, b + 1)) for a, b in stretches(numbers))
    doubles = sorted(d.low for d in pieces if d.is_double)
    found.extend(tuple(Domino(v, v) for v in range(a, b + 1)) for a, b in stretches(doubles))
    for total in range(37):
        group = [d for d in pieces if d.pips == total]
        for size in range(3, len(group) + 1):
            found.extend(itertools.combinations(group, size))
    return found


@pytest.mark.parametrize("rules", [SIX, NINE, TWELVE], ids=["double-6", "double-9", "double-12"])
def test_hand_melds_come_in_the_listing_order(rules: ConveyorMelds) -> None:
    rng = random.Random(rules.top)
    dominoes = double_set(rules.top)
    for _ in range(400):
        hand = rng.sample(dominoes, rng.randint(0, min(16, len(dominoes))))
        if hand and rng.random() < 0.2:
            hand.append(rng.choice(hand))  # a repeated domino changes nothing
        assert rules.hand_melds(hand) == listed_by_groups(rules.top, hand)
        assert rules.hand_melds(iter(hand)) == listed_by_groups(rules.top, hand)
        if hand:
            d = rng.choice(dominoes)
            expected = [m for m in listed_by_groups(rules.top, [*hand, d]) if d in m]
            assert rules.melds_with(hand, d) == expected


def test_hand_melds_read_a_domino_above_the_set_as_in_a_larger_set() -> None:
    hand = ds("5-7 6-7 7-7 0-7 1-6 2-5 3-4")
    assert SIX.hand_melds(hand) == listed_by_groups(6, hand)
    assert [format_dominoes(m) for m in SIX.hand_melds(hand)][:1] == ["5-7 6-7 7-7"]
