"""domino-rummikub's kept listings (rulesets/domino_rummikub/kept.py) against the plain ones.

The kept listings read a rack as one count vector and a table set's growth
without a check where its shape allows: each short cut is compared here with
the meld family's own answer, and whole listings along seeded games with
:func:`~rummykit.rulesets.domino_rummikub.listing.listable_actions`
(``tests/test_listing_fast_path.py`` compares them with the view's too).
"""

from __future__ import annotations

import itertools
import random

import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.dominoes import _hand_sets
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub import JOKERS, MELDS, TOP, DominoRummikub, full_set
from rummykit.rulesets.domino_rummikub.growth import Reading, bit_of, grow_by_check
from rummykit.rulesets.domino_rummikub.kept import _set_vector, _within, may_hold, rack_vector, sets_of_vector
from rummykit.rulesets.domino_rummikub.listing import layoffs, listable_actions, rack_sets, rack_sets_with


def _reference(state: DominoRummikub, seat: int) -> list[Action]:
    """The listing as the family's own enumeration and extensions make it (no vector, no readings)."""
    rack, table = state.racks[seat], state.table
    down = state.down[seat]
    exact = not down and state.options["starting_group_size"] == "exactly-3"
    sets = [s for s in MELDS.enumerate(rack, 3 if exact else None) if not exact or len(s) == 3]
    have = set(rack)
    lays = [(d, i, grown) for i, s in enumerate(table) for d, grown in MELDS.extensions(s) if d in have]
    return freetable.one_step_plays(seat, sets, lays if down else (), table, len(state.pool))


def _plain_sets() -> list[tuple[Domino, ...]]:
    """Every run and sum without a joker, in the order the verdict writes them."""
    runs = [
        tuple(Domino(suit, v) for v in range(start, end + 1))
        for suit in range(TOP + 1)
        for start in range(TOP + 1)
        for end in range(start + 2, TOP + 1)
        if Domino(suit, suit) not in JOKERS or not start <= suit <= end
    ]
    sums = []
    for total in range(2 * TOP + 1):
        kinds = [d for d in double_set(TOP) if d.pips == total and d not in JOKERS]
        for counts in itertools.product(range(MELDS.copies + 1), repeat=len(kinds)):
            s = tuple(d for d, k in zip(kinds, counts, strict=True) for _ in range(k))
            if len(s) >= 3:
                sums.append(s)
    return runs + sums


def test_plain_growth_is_the_checks() -> None:
    sets = _plain_sets()
    assert len(sets) > 100
    for s in sets:
        assert MELDS.check(s).valid and MELDS.check(s).pieces == s
        read = Reading(s)
        assert read.kind != 2, s
        for d in double_set(TOP):
            assert Reading(s).grow(d) == grow_by_check(s, d), (s, d)


def test_growth_with_jokers_is_the_checks() -> None:
    """Random sets (valid or not) of every shape, and valid sets in normal form, jokers often."""
    pieces = [d for d in double_set(TOP) for _ in range(2)]
    jokers = sorted(JOKERS)
    rng = random.Random(7)
    read = 0
    for _ in range(2_500):
        s = tuple(rng.sample(pieces, rng.randint(2, 6)))
        if rng.random() < 0.5:  # a valid set in normal form, some of it jokers
            run = rng.random() < 0.6
            suit, start = rng.randint(0, TOP), rng.randint(0, TOP - 2)
            size = rng.randint(3, TOP + 1 - start)
            made = [Domino(suit, v) for v in range(start, start + size)]
            if not run:
                total = rng.randint(2, 2 * TOP - 2)
                kinds = [d for d in double_set(TOP) if d.pips == total]
                made = [rng.choice(kinds) for _ in range(rng.randint(3, 5))]
            made = [rng.choice(jokers) if rng.random() < 0.3 else d for d in made]
            check = MELDS.check(made)
            if not check.valid:
                continue
            s = check.pieces
        if Reading(s).kind == 2:
            continue
        read += 1
        for d in double_set(TOP):
            assert Reading(s).grow(d) == grow_by_check(s, d), (s, d)
    assert read > 1_000


def test_candidates_hold_every_fit() -> None:
    pieces = [d for d in double_set(TOP) for _ in range(2)]
    rng = random.Random(9)
    for _ in range(1_000):
        s = tuple(rng.sample(pieces, rng.randint(3, 6)))
        read = Reading(s)
        for d in double_set(TOP):
            if grow_by_check(s, d) is not None:
                assert read.candidates & bit_of[d], (s, d)


def test_rack_sets_from_the_vector() -> None:
    rng = random.Random(5)
    pieces = full_set()
    for _ in range(5_000):
        rack = rng.sample(pieces, rng.choice([3, 5, 6, 8, 12, 20, 30]))
        vec = rack_vector(rack)
        assert vec is not None
        for max_size in (None, 3):
            assert sets_of_vector(vec, max_size) == _hand_sets(MELDS, rack, max_size)


def test_racks_with_one_joker_ask_only_what_can_make_a_set() -> None:
    """With one joker, :func:`sets_of_vector` asks only the suits with two values at most two apart and the
    totals of two dominoes or more: the same sets, in the same order, as the family's enumeration (which
    asks every suit with two values or more and every total held)."""
    rng = random.Random(23)
    plain = [d for d in full_set() if d not in JOKERS]
    for _ in range(4_000):
        rack = [*rng.sample(plain, rng.choice([2, 3, 4, 5, 7, 8, 10, 14])), rng.choice(sorted(JOKERS))]
        rng.shuffle(rack)
        vec = rack_vector(rack)
        assert vec is not None
        for max_size in (None, 3):
            assert sets_of_vector(vec, max_size) == _hand_sets(MELDS, rack, max_size) == MELDS.enumerate(
                rack, max_size
            )


def test_listing_functions_are_the_familys() -> None:
    rng = random.Random(11)
    pieces = full_set()
    for _ in range(2_000):
        rack = rng.sample(pieces, rng.choice([3, 6, 9, 14]))
        table = [MELDS.check(s).pieces for s in rack_sets(rng.sample(pieces, 12))][:6]
        assert rack_sets(rack) == MELDS.enumerate(rack)
        assert rack_sets(rack, max_size=4) == MELDS.enumerate(rack, 4)
        for d in dict.fromkeys(rack):
            assert rack_sets_with(rack, d) == MELDS.enumerate_with(rack, d)
        have = set(rack)
        expected = [(d, i, g) for i, s in enumerate(table) for d, g in MELDS.extensions(s) if d in have]
        assert layoffs(rack, table) == expected
    outside = [Domino(7, 7), Domino(1, 2)]
    table = [(Domino(1, 3), Domino(2, 3), Domino(3, 3))]
    assert rack_sets(outside) == MELDS.enumerate(outside)
    assert layoffs(outside, table) == [(d, 0, g) for d, g in MELDS.extensions(table[0]) if d in set(outside)]


def test_may_hold_refuses_only_dominoes_no_set_holds() -> None:
    rng = random.Random(13)
    pieces = full_set()
    refused = 0
    for _ in range(3_000):
        rack = rng.sample(pieces, rng.choice([3, 5, 8, 12]))
        vec = rack_vector(rack)
        assert vec is not None
        for d in dict.fromkeys(rack):
            holding = [s for s in MELDS.enumerate(rack) if d in s]
            assert [s for s in sets_of_vector(vec, None, d) if d in s] == holding
            if not may_hold(vec, d):
                refused += 1
                assert holding == []
    assert refused > 1_000


def test_a_domino_no_set_holds_leaves_the_sets_as_they_were() -> None:
    """The kept listing's shortcut after a draw: when :func:`may_hold` refuses the drawn domino, the grown
    rack's sets (every size, and of exactly three) are the last rack's, in the same order."""
    rng = random.Random(17)
    pieces = full_set()
    refused = 0
    for _ in range(2_000):
        rack = rng.sample(pieces, rng.choice([2, 4, 7, 10, 14]))
        d = rack.pop()
        grown = rack_vector([*rack, d])
        assert grown is not None
        if may_hold(grown, d):
            continue
        refused += 1
        vec = rack_vector(rack)
        assert vec is not None
        for size in (None, 3):
            assert sets_of_vector(grown, size) == sets_of_vector(vec, size) == MELDS.enumerate([*rack, d], size)
    assert refused > 500


def test_a_rack_that_lost_dominoes_keeps_the_sets_it_still_holds() -> None:
    """The kept listing's shortcut after a play: without a joker in the last rack, the sets of a rack that
    lost dominoes are those of the last rack it still holds, in the same order."""
    rng = random.Random(19)
    pieces = [d for d in full_set() if d not in JOKERS]
    for _ in range(2_000):
        rack = rng.sample(pieces, rng.choice([4, 7, 10, 14, 20]))
        left = rng.sample(rack, rng.randrange(len(rack) + 1))
        big, small = rack_vector(rack), rack_vector(left)
        assert big is not None and small is not None
        assert _within(small, big)
        for size in (None, 3):
            kept = [s for s in sets_of_vector(big, size) if _within(_set_vector(s), small)]
            assert kept == sets_of_vector(small, size) == MELDS.enumerate(left, size)


def test_rack_vector_refuses_what_it_cannot_read() -> None:
    assert rack_vector([Domino(7, 7)]) is None
    assert rack_vector([Domino(1, 2)] * 128) is None


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_kept_listings_along_games(level: str, players: int) -> None:
    for seed in range(12):
        options = {} if seed % 3 else {"starting_group_size": "3-or-more"}
        state = new_game("domino-rummikub", players=players, seed=seed, **options)
        assert isinstance(state, DominoRummikub)
        bots = [make_bot(level, "domino-rummikub") for _ in range(players)]
        rngs = [Rng(seed * 100 + i) for i in range(players)]
        while state.outcome is None:
            seat = state.current
            expected = _reference(state, seat)
            assert listable_actions(
                seat,
                state.racks[seat],
                state.table,
                down=state.down[seat],
                starting_group_size=state.options["starting_group_size"],
                pool_size=len(state.pool),
            ) == expected
            assert state.legal_actions(seat) == expected
            # The game's own legal_actions skips to_act: nobody else may act (may_act stays empty).
            assert not state.may_act
            assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
            step(state, bots, rngs)
        assert all(state.legal_actions(other) == [] for other in range(players))


def test_kept_listing_follows_a_changed_state() -> None:
    state = new_game("domino-rummikub", players=2, seed=4)
    assert isinstance(state, DominoRummikub)
    seat = state.current
    state.legal_actions(seat)
    state.racks[seat][:] = [Domino(2, 3), Domino(3, 3), Domino(3, 4), Domino(0, 0)]
    state.table = [(Domino(1, 5), Domino(2, 5), Domino(3, 5))]
    state.down[seat] = True
    expected = _reference(state, seat)
    assert state.legal_actions(seat) == expected
    assert len(expected) > 2
    copy = state.copy()
    assert copy.legal_actions(seat) == expected


@pytest.mark.parametrize("players", [2, 4])
def test_a_play_the_pick_made_is_judged_as_any_play(players: int) -> None:
    """The play :meth:`KeptListings.pick` just made, for the same table and rack, skips the conservation
    check (it conserves the pieces): its verdict is the full check's, play after play along whole games."""
    made = 0
    for seed in range(15):
        options = {} if seed % 3 else {"starting_group_size": "3-or-more"}
        state = new_game("domino-rummikub", players=players, seed=seed, **options)
        assert isinstance(state, DominoRummikub)
        rng = Rng(seed)
        while state.outcome is None:
            seat = state.current
            action = state.pick_listed(seat, lambda _seat, n, r: r.below(n), rng)
            if isinstance(action, freetable.Play):
                kept = state._kept
                assert kept is not None and kept.made_here(action, state.table, state.racks[seat])
                made += 1
                assert state.verify_play(action) == freetable.FreeTableGame.verify_play(state, action)
            state.apply(action)
    assert made > 200


def test_a_made_play_for_another_state_is_checked_in_full() -> None:
    """A made play whose rack or table changed since, or an equal play that is not the one made, goes
    through the whole check: the same error as a state that never listed, the state unchanged."""
    state = new_game("domino-rummikub", players=2, seed=4)
    assert isinstance(state, DominoRummikub)
    seat = state.current
    state.racks[seat][:] = [Domino(2, 3), Domino(3, 3), Domino(3, 4), Domino(1, 2)]
    state.down[seat] = True
    action = state.pick_listed(seat, lambda _seat, n, _r: 1, Rng(0))
    assert isinstance(action, freetable.Play)
    kept = state._kept
    assert kept is not None and kept.made_here(action, state.table, state.racks[seat])
    equal = freetable.Play(seat, action.placed, action.table)
    assert equal == action and not kept.made_here(equal, state.table, state.racks[seat])
    state.racks[seat].remove(action.placed[0])  # the rack no longer holds a domino the play places
    assert not kept.made_here(action, state.table, state.racks[seat])
    fresh = state.copy()
    errors = []
    for judged in (state, fresh):
        before = (list(judged.racks[seat]), list(judged.table), len(judged.history))
        with pytest.raises(RuleError) as caught:
            judged.apply(action)
        errors.append((caught.value.rule, str(caught.value)))
        assert (list(judged.racks[seat]), list(judged.table), len(judged.history)) == before
    assert errors[0] == errors[1] and errors[0][0] == "DR-RACK"
