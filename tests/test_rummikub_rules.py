"""Every rule of ``rummikub`` (seed 003, RULES-NOTES section 1), enforced by the engine.

Each test sets up an exact position with ``from_position`` (or a seeded
``new_game``) and checks what the engine accepts, refuses and changes. A
refused action must raise ``RuleError`` naming the rule and leave the state's
snapshot identical (the ``assert_rejected`` fixture checks both).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import pytest

from rummykit import OptionError, new_game
from rummykit.bots.base import make_bot
from rummykit.engine.core import Action, Event, GameState
from rummykit.errors import ParseError, RuleError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import COLOURS, JOKER, Tile, format_tiles, parse_tiles
from rummykit.presenters.freetable import describe_event
from rummykit.presenters.text import Style
from rummykit.rulesets.rummikub import (
    Draw,
    Fail,
    Pass,
    Play,
    Rummikub,
    actions_from_view,
    from_position,
    parse_table,
)
from rummykit.sim import run_bots

Rejecter = Callable[[GameState, Action | str, str], RuleError]


def full_set(jokers: int = 2) -> Counter[Tile]:
    """The tiles in play, built independently of the engine: 2 x 4 colours x 1..13 + jokers."""
    tiles = Counter({Tile(c, n): 2 for c in COLOURS for n in range(1, 14)})
    if jokers:
        tiles[JOKER] = jokers
    return tiles


def all_tiles(state: Rummikub) -> Counter[Tile]:
    c: Counter[Tile] = Counter(state.pool)
    for rack in state.racks:
        c.update(rack)
    for s in state.table:
        c.update(s)
    return c


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def play(seat: int, placed: str, table: str) -> Play:
    return Play(seat, tiles(placed), parse_table(table))


def fail(seat: int, placed: str, table: str) -> Fail:
    return Fail(seat, tiles(placed), parse_table(table))


def table_text(state: Rummikub) -> list[str]:
    return [format_tiles(s) for s in state.table]


def same_sets(a: Iterable[Sequence[Tile]], b: Iterable[Sequence[Tile]]) -> bool:
    """Two tables hold the same sets (as multisets of tiles), in any order."""
    return Counter(tuple(sorted(s)) for s in a) == Counter(tuple(sorted(s)) for s in b)


def secret_tiles(event: Event) -> list[str]:
    """Every tile of an event's secret part (the piece drawn, the pieces drawn), sorted."""
    out: list[str] = []
    for key in ("piece", "pieces"):
        value = event.secret.get(key, [])
        out.extend([value] if isinstance(value, str) else value)
    return sorted(out)


def rack(state: Rummikub, seat: int) -> Counter[Tile]:
    return Counter(state.racks[seat])


# -- the set of tiles, players and the deal ------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 17, 2024])
def test_deal_uses_106_tiles_14_each(players: int, seed: int) -> None:
    state = new_game("rummikub", players=players, seed=seed)
    assert isinstance(state, Rummikub)
    assert all_tiles(state) == full_set(2)
    assert sum(all_tiles(state).values()) == 106
    assert [len(r) for r in state.racks] == [14] * players
    assert len(state.pool) == 106 - 14 * players
    assert state.table == []
    view = state.view(None)
    assert view["rack_sizes"] == [14] * players
    assert view["pool_size"] == 106 - 14 * players
    assert view["down"] == [False] * players
    assert view["table"] == []


@pytest.mark.parametrize("jokers", [0, 1, 2, 3, 4])
def test_jokers_option_sets_the_number_of_jokers(jokers: int) -> None:
    state = new_game("rummikub", players=3, seed=5, jokers=jokers)
    assert isinstance(state, Rummikub)
    assert all_tiles(state) == full_set(jokers)
    assert sum(all_tiles(state).values()) == 104 + jokers
    assert state.view(None)["pool_size"] == 104 + jokers - 42


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": 5},
        {"jokers": -1},
        {"initial_meld_points": -1},
        {"initial_meld_points": 301},
        {"target": 0},
        {"joker": 2},
        {"colours": 5},
    ],
)
def test_bad_options_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(OptionError) as info:
        new_game("rummikub", players=2, seed=1, **options)
    assert next(iter(options)) in str(info.value)


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_two_to_four_players_only(players: int) -> None:
    with pytest.raises(OptionError, match="2 to 4"):
        new_game("rummikub", players=players, seed=1)
    with pytest.raises(OptionError):
        new_game("rummikub", players=[f"p{i}" for i in range(players)], seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_accepted(players: int) -> None:
    names = ["ann", "bob", "cy", "di"][:players]
    state = new_game("rummikub", players=names, seed=9)
    assert state.players == tuple(names)
    assert len(state.view(0)["rack_sizes"]) == players


def _draw_rank(text: str) -> int:
    return 14 if text == "J" else Tile.parse(text).number


def test_first_player_is_the_highest_draw_joker_highest_ties_redrawn() -> None:
    ties = jokers_won = 0
    for players in (2, 3, 4):
        for seed in range(80):
            state = new_game("rummikub", players=players, seed=seed)
            assert isinstance(state, Rummikub)
            draws = [e for e in state.history if e.kind == "first-draw"]
            chosen = [e for e in state.history if e.kind == "first-player"]
            assert draws and len(chosen) == 1
            contenders = list(range(players))
            drawn_tiles: Counter[Tile] = Counter()
            for event in draws:
                shown = event.data["tiles"]
                # Only the players still tied draw again.
                assert sorted(int(k) for k in shown) == contenders
                drawn_tiles.update(Tile.parse(t) for t in shown.values())
                best = max(_draw_rank(t) for t in shown.values())
                contenders = sorted(int(k) for k, t in shown.items() if _draw_rank(t) == best)
                if len(contenders) > 1:
                    ties += 1
            assert len(contenders) == 1, "the drawing stopped while players were still tied"
            winner = contenders[0]
            if draws[-1].data["tiles"][str(winner)] == "J":
                jokers_won += 1
            # Drawn without replacement from one set.
            assert not drawn_tiles - full_set(2)
            assert chosen[0].player == winner
            assert state.first == winner
            assert state.view(None)["turn"] == winner
            assert state.to_act == frozenset({winner})
            deal = next(e for e in state.history if e.kind == "deal")
            assert deal.data["first"] == winner
            # The drawn tiles went back: the pool and racks hold the full set.
            assert all_tiles(state) == full_set(2)
    assert ties >= 5, "no seed showed a tie: the redraw was not exercised"
    assert jokers_won >= 1, "no seed showed a joker winning the draw"


def test_a_joker_beats_a_13_in_the_first_draw() -> None:
    for seed in range(400):
        state = new_game("rummikub", players=4, seed=seed)
        first = next(e for e in state.history if e.kind == "first-draw")
        shown = first.data["tiles"]
        values = list(shown.values())
        if "J" in values and values.count("J") == 1 and any(v.endswith("13") for v in values):
            joker_seat = int(next(k for k, v in shown.items() if v == "J"))
            assert state.view(None)["turn"] == joker_seat
            return
    pytest.fail("no seed drew both a joker and a 13 in the first draw")


def test_the_same_seed_deals_the_same_game() -> None:
    a = new_game("rummikub", players=3, seed=99)
    b = new_game("rummikub", players=3, seed=99)
    c = new_game("rummikub", players=3, seed=100)
    assert a.snapshot() == b.snapshot()
    assert a.snapshot()["racks"] != c.snapshot()["racks"]


# -- the initial meld -------------------------------------------------------------------


def opening(rack_text: str, table: str = "", **options: int) -> Rummikub:
    return from_position(
        f"table: {table}; racks: {rack_text} / K1 B1; pool: seed 3; turn: 0; down: 00", **options
    )


def test_initial_meld_of_29_is_rejected(assert_rejected: Rejecter) -> None:
    state = opening("K2 K3 K4 K5 B4 B5 B6 R9")
    error = assert_rejected(state, play(0, "K2 K3 K4 K5 B4 B5 B6", "K2 K3 K4 K5 | B4 B5 B6"), "RK-OPENING-POINTS")
    assert "30" in str(error) and "29" in str(error)


def test_initial_meld_of_exactly_30_in_two_sets_is_accepted() -> None:
    state = opening("K3 K4 K5 K6 B3 B4 B5 R9")
    events = state.apply(play(0, "K3 K4 K5 K6 B3 B4 B5", "K3 K4 K5 K6 | B3 B4 B5"))
    assert [e.kind for e in events] == ["play"]
    assert same_sets(state.table, parse_table("K3 K4 K5 K6 | B3 B4 B5"))
    assert state.racks[0] == [Tile.parse("R9")]
    assert state.down == [True, False]
    assert state.view(None)["turn"] == 1


def test_several_sets_adding_up_to_30() -> None:
    state = opening("K1 K2 K3 R7 R8 R9 O1")
    state.apply(play(0, "K1 K2 K3 R7 R8 R9", "K1 K2 K3 | R7 R8 R9"))
    assert state.down[0]
    assert len(state.table) == 2


@pytest.mark.parametrize(
    ("meld", "ok"),
    [
        ("K9 J K11", True),  # joker as K10: exactly 30
        ("J B10 O10", True),  # joker as a 10: exactly 30
        ("K8 J K10", False),  # joker as K9: 27, although a joker in a rack costs 30
        ("J K1 B1", False),  # joker as a 1: 3
        ("J J K10", True),  # group of 10s: 30
    ],
)
def test_initial_meld_counts_a_joker_as_the_tile_it_represents(
    meld: str, ok: bool, assert_rejected: Rejecter
) -> None:
    state = opening(f"{meld} R2")
    action = play(0, meld, meld)
    if ok:
        state.apply(action)
        assert state.down[0]
        assert check_tiles(state.table[0]).points >= 30
    else:
        assert_rejected(state, action, "RK-OPENING-POINTS")


def test_initial_meld_may_not_add_to_a_table_set(assert_rejected: Rejecter) -> None:
    state = opening("R4 K10 K11 K12 B2", table="R1 R2 R3")
    assert_rejected(state, play(0, "R4 K10 K11 K12", "R1 R2 R3 R4 | K10 K11 K12"), "RK-OPENING-TABLE")
    # The same new set alone is fine.
    state.apply(play(0, "K10 K11 K12", "R1 R2 R3 | K10 K11 K12"))
    assert state.down[0]


def test_initial_meld_may_not_rearrange_the_table(assert_rejected: Rejecter) -> None:
    state = opening("K10 K11 K12 B2", table="R1 R2 R3 R4 R5 R6")
    assert_rejected(state, play(0, "K10 K11 K12", "R1 R2 R3 | R4 R5 R6 | K10 K11 K12"), "RK-OPENING-TABLE")


def test_initial_meld_may_not_use_table_tiles(assert_rejected: Rejecter) -> None:
    # Take K13 from the 4-group to complete a run worth 36: the table was touched.
    state = opening("K11 K12 B2", table="K13 B13 O13 R13")
    assert_rejected(state, play(0, "K11 K12", "B13 O13 R13 | K11 K12 K13"), "RK-OPENING-TABLE")


def test_initial_meld_may_not_free_a_table_joker(assert_rejected: Rejecter) -> None:
    state = opening("R6 K10 K11 K12", table="R5 J R7")
    assert_rejected(state, play(0, "R6 K10 K11 K12", "R5 R6 R7 | K10 K11 J K12"), "RK-OPENING-TABLE")


def test_initial_meld_option_zero_disables_the_rule() -> None:
    state = opening("R4 K1 K2 K3 B9", table="R1 R2 R3", initial_meld_points=0)
    assert state.down == [True, True]
    # A 6-point set and a lay-off on the first turn.
    state.apply(play(0, "R4 K1 K2 K3", "R1 R2 R3 R4 | K1 K2 K3"))
    assert same_sets(state.table, parse_table("R1 R2 R3 R4 | K1 K2 K3"))
    fresh = new_game("rummikub", players=2, seed=4, initial_meld_points=0)
    assert fresh.view(None)["down"] == [True, True]


def test_initial_meld_option_raises_the_bar(assert_rejected: Rejecter) -> None:
    state = opening("K10 K11 K12 B6 O6 R6 B1", initial_meld_points=50)
    assert_rejected(state, play(0, "K10 K11 K12", "K10 K11 K12"), "RK-OPENING-POINTS")
    state.apply(play(0, "K10 K11 K12 B6 O6 R6", "K10 K11 K12 | B6 O6 R6"))  # 33 + 18 = 51
    assert state.down[0]


def test_after_the_initial_meld_small_plays_are_fine() -> None:
    state = opening("K10 K11 K12 R1 R2 R3 B2")
    state.apply(play(0, "K10 K11 K12", "K10 K11 K12"))
    state.apply(Draw(1))
    state.apply(play(0, "R1 R2 R3", "K10 K11 K12 | R1 R2 R3"))  # 6 points, no threshold now
    assert [len(r) for r in state.racks] == [1, 3]


def test_initial_meld_threshold_is_per_player(assert_rejected: Rejecter) -> None:
    state = from_position("table: K10 K11 K12; racks: B1 / R1 R2 R3 O5; pool: seed 2; turn: 1; down: 10")
    # Seat 0 is down, seat 1 is not: a 6-point set is not enough for seat 1.
    assert_rejected(state, play(1, "R1 R2 R3", "K10 K11 K12 | R1 R2 R3"), "RK-OPENING-POINTS")


# -- later turns: free rearrangement -----------------------------------------------------


def down_position(table: str, rack0: str, rack1: str = "K1 B1", pool: str = "seed 4") -> Rummikub:
    return from_position(f"table: {table}; racks: {rack0} / {rack1}; pool: {pool}; turn: 0; down: 11")


@pytest.mark.parametrize(
    ("table", "rack0", "placed", "final"),
    [
        # lay off at an end
        ("R1 R2 R3", "R4 K9", "R4", "R1 R2 R3 R4"),
        # split a run to fit a tile
        ("R1 R2 R3 R4 R5", "R3 K9", "R3", "R1 R2 R3 | R3 R4 R5"),
        # combine two sets with a tile between them
        ("R1 R2 R3 | R5 R6 R7", "R4 K9", "R4", "R1 R2 R3 R4 R5 R6 R7"),
        # take a tile from a 4-group to make a run
        ("K5 B5 O5 R5", "R6 R7 K9", "R6 R7", "K5 B5 O5 | R5 R6 R7"),
        # add a tile to a run, then take its other end for a new group
        ("B6 B7 B8", "B9 K6 O6 R13", "B9 K6 O6", "B7 B8 B9 | B6 K6 O6"),
        # move a tile from one set to another, placing a tile elsewhere
        ("K1 K2 K3 K4 | B4 O4 R4 | R10 R11 R12", "R9 K9", "R9", "K1 K2 K3 | K4 B4 O4 R4 | R9 R10 R11 R12"),
        # replace a joker with the tile it stands for and reuse the joker
        ("R5 J R7 | K1 K2 K3", "R6 B9 O9 K13", "R6 B9 O9", "R5 R6 R7 | J B9 O9 | K1 K2 K3"),
        # break up two runs into three groups
        ("K7 K8 K9 | B7 B8 B9", "O7 O8 O9 K1", "O7 O8 O9", "K7 B7 O7 | K8 B8 O8 | K9 B9 O9"),
    ],
)
def test_later_turns_may_rearrange_freely(table: str, rack0: str, placed: str, final: str) -> None:
    state = down_position(table, rack0)
    before_rack = rack(state, 0)
    events = state.apply(play(0, placed, final))
    assert same_sets(state.table, parse_table(final))
    assert rack(state, 0) == before_rack - Counter(tiles(placed))
    assert [e.kind for e in events] == ["play"]
    assert state.down == [True, True]
    assert all(check_tiles(s).valid for s in state.table)
    assert state.view(None)["turn"] == 1


def test_a_final_table_with_an_empty_set_is_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    action = Play(0, tiles("R4"), (tiles("R1 R2 R3 R4"), ()))
    assert_rejected(state, action, "RK-SET-SIZE")


def test_table_sets_are_stored_in_normal_form() -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    state.apply(play(0, "R4", "R4 R3 R1 R2"))
    assert table_text(state) == ["R1 R2 R3 R4"]
    assert state.view(None)["table"] == [["R1", "R2", "R3", "R4"]]


# -- jokers freed from the table ----------------------------------------------------------


def test_freed_joker_left_in_the_rack_is_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R5 J R7 | K1 K2 K3", "R6 B9 O9")
    # The joker is swapped for R6 but does not reappear on the table.
    error = assert_rejected(state, play(0, "R6", "R5 R6 R7 | K1 K2 K3"), "RK-JOKER-REUSE")
    assert "J" in error.reason


def test_freed_joker_replaced_from_the_table_must_be_reused(assert_rejected: Rejecter) -> None:
    state = down_position("R5 J R7 | R6 B6 O6 K6", "R8 B10 O10")
    # R6 moves from the group to replace the joker; the joker vanishes.
    assert_rejected(state, play(0, "R8", "R5 R6 R7 R8 | B6 O6 K6"), "RK-JOKER-REUSE")
    # Reused with two rack tiles: fine.
    state.apply(play(0, "R8 B10 O10", "R5 R6 R7 R8 | B6 O6 K6 | J B10 O10"))
    assert JOKER in Counter(t for s in state.table for t in s)
    assert state.racks[0] == []


def test_freed_joker_cannot_go_to_the_rack_as_a_placed_tile(assert_rejected: Rejecter) -> None:
    state = down_position("R5 J R7", "R6 B9")
    # A play's placed tiles come from the rack: a joker the player does not hold is refused.
    assert_rejected(state, play(0, "R6 J", "R5 R6 R7 | J"), "RK-RACK")


# -- conservation and placed tiles -------------------------------------------------------


def test_drawing_when_not_playing() -> None:
    state = from_position("table: R1 R2 R3; racks: K9 / B1; pool: O4 B7 K2; turn: 0; down: 11")
    events = state.apply(Draw(0))
    assert [e.kind for e in events] == ["draw"]
    assert rack(state, 0) == Counter(tiles("K9 K2"))  # the last pool tile is drawn first
    assert state.pool == list(tiles("O4 B7"))
    assert secret_tiles(events[0]) == ["K2"]
    assert events[0].seen_by(1) == {"kind": "draw", "player": 0, "pool_size": 2}
    assert state.view(None)["turn"] == 1
    assert table_text(state) == ["R1 R2 R3"]


def test_play_of_zero_tiles_is_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3 R4 R5 R6", "K9")
    assert_rejected(state, play(0, "", "R1 R2 R3 R4 R5 R6"), "RK-PLAY-EMPTY")
    # A pure rearrangement (split) places nothing either.
    assert_rejected(state, play(0, "", "R1 R2 R3 | R4 R5 R6"), "RK-PLAY-EMPTY")


def test_tiles_not_in_the_rack_are_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    assert_rejected(state, play(0, "R5", "R1 R2 R3 R5"), "RK-RACK")
    assert_rejected(state, play(0, "R4 R4", "R1 R2 R3 R4 | R4 K9 J"), "RK-RACK")
    assert_rejected(state, play(0, "J", "R1 R2 R3 J"), "RK-RACK")


def test_table_tiles_may_not_vanish_or_appear(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3 | K5 B5 O5 R5", "R4 K9")
    # R5 taken from the group into the rack (nowhere on the table).
    assert_rejected(state, play(0, "R4", "R1 R2 R3 R4 | K5 B5 O5"), "RK-TABLE-KEEP")
    # A tile that came from nowhere.
    assert_rejected(state, play(0, "R4", "R1 R2 R3 R4 | K5 B5 O5 R5 | K6 K7 K8"), "RK-CONSERVE")
    # Placed but not on the final table.
    assert_rejected(state, play(0, "R4 K9", "R1 R2 R3 R4 | K5 B5 O5 R5"), "RK-TABLE-KEEP")


@pytest.mark.parametrize(
    ("table", "rack0", "placed", "final", "rule"),
    [
        ("R1 R2 R3", "R4 K9", "R4", "R1 R2 R3 | R4", "RK-SET-SIZE"),
        ("R1 R2 R3", "R4 K9", "K9", "R1 R2 R3 K9", "RK-SET-KIND"),
        ("R1 R2 R3", "R4 K9", "R4 K9", "R1 R2 R3 R4 K9", "RK-SET-KIND"),
        ("R1 R2 R3", "R4 K9", "R4", "R1 R2 | R3 R4", "RK-SET-SIZE"),
        ("R1 R2 R3", "R5 K9", "R5", "R1 R2 R3 R5", "RK-RUN"),
        ("K5 B5 O5", "B5 K9", "B5", "K5 B5 O5 B5", "RK-GROUP"),
        ("R11 R12 R13", "R1 K9", "R1", "R11 R12 R13 R1", "RK-RUN"),
    ],
)
def test_invalid_final_table_is_rejected_as_a_play(
    table: str, rack0: str, placed: str, final: str, rule: str, assert_rejected: Rejecter
) -> None:
    state = down_position(table, rack0)
    error = assert_rejected(state, play(0, placed, final), rule)
    assert "set" in error.reason and "invalid" in error.reason


# -- failed manipulation (penalty) ------------------------------------------------------


def test_failed_turn_restores_the_table_and_draws_three() -> None:
    state = down_position("R1 R2 R3 R4 R5 | K7 B7 O7", "R9 K9", pool="O2 B12 K1 R13 O13")
    table_before = list(state.table)
    bad = fail(0, "R9", "R1 R2 R3 | R4 R5 R9 | K7 B7 O7")
    events = state.apply(bad)
    assert [e.kind for e in events] == ["penalty"]
    assert state.table == table_before
    assert rack(state, 0) == Counter(tiles("R9 K9 B12 K1 R13 O13")) - Counter(tiles("B12"))
    assert state.pool == list(tiles("O2 B12"))
    assert events[0].data["drawn"] == 3
    assert secret_tiles(events[0]) == sorted(["K1", "R13", "O13"])
    for other in (1, None):
        seen = events[0].seen_by(other)
        assert not set(events[0].secret) & set(seen)
        assert not {"K1", "R13", "O13"} & set(map(str, seen.values()))
    assert state.down == [True, True]
    assert state.view(None)["turn"] == 1


def test_a_penalty_reason_is_told_only_to_the_player_who_took_it() -> None:
    # The invalid set R4 R5 R9 names R9, which went back to the rack and was never shown to anyone:
    # the reason is part of the event's secret, like the tiles drawn (the free-table rules that
    # rummikub shares; domino-rummikub has no penalty turn).
    state = down_position("R1 R2 R3 R4 R5 | K7 B7 O7", "R9 K9", pool="O2 B12 K1 R13 O13")
    (event,) = state.apply(fail(0, "R9", "R1 R2 R3 | R4 R5 R9 | K7 B7 O7"))
    assert "R9" in event.seen_by(0)["reason"] and "R4 R5 R9" in event.seen_by(0)["reason"]
    names = list(state.players)
    own = " ".join(describe_event(event.seen_by(0), names, Style(width=0)))
    assert "R4 R5 R9" in own and "draws 3 penalty tiles" in own
    for other in (1, None):
        seen = event.seen_by(other)
        assert "reason" not in seen and "R9" not in str(seen)
        told = " ".join(describe_event(seen, names, Style(width=0)))
        assert told == f"{names[0]} committed an invalid table: the table is restored and {names[0]} draws 3 penalty tiles"


@pytest.mark.parametrize(("pool", "drawn"), [("K2 K3", 2), ("K2", 1), ("", 0)])
def test_failed_turn_draws_fewer_when_the_pool_is_short(pool: str, drawn: int) -> None:
    state = down_position("R1 R2 R3", "R9 K9", pool=pool)
    events = state.apply(fail(0, "R9", "R1 R2 R3 R9"))
    assert len(state.racks[0]) == 2 + drawn
    assert state.pool == []
    assert events[0].data["drawn"] == drawn
    assert state.table == [tiles("R1 R2 R3")]


def test_failed_initial_meld_is_a_failed_turn_too() -> None:
    state = opening("K1 K2 K3 R2", table="")
    state.apply(fail(0, "K1 K2 K3", "K1 K2 K3"))
    assert state.table == []
    assert len(state.racks[0]) == 4 + 3
    assert state.down[0] is False


def test_fail_of_a_valid_table_is_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    assert_rejected(state, fail(0, "R4", "R1 R2 R3 R4"), "RK-FAIL-VALID")


def test_fail_still_requires_rack_tiles(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    assert_rejected(state, fail(0, "R5", "R1 R2 R3 R5"), "RK-RACK")


# -- pass, empty pool, the end of a round ---------------------------------------------------


def test_pass_only_when_the_pool_is_empty(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "K9", pool="B4")
    assert_rejected(state, Pass(0), "RK-DRAW")
    state.apply(Draw(0))
    assert state.pool == []
    state.apply(Pass(1))
    assert state.view(None)["turn"] == 0


def test_draw_rejected_when_the_pool_is_empty(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "K9", pool="")
    assert_rejected(state, Draw(0), "RK-POOL-EMPTY")


def test_round_ends_when_a_rack_empties_and_scores() -> None:
    state = from_position(
        "table: R1 R2 R3; racks: R4 / J K5 / B13 O2; pool: seed 1; turn: 0; down: 111"
    )
    events = state.apply(play(0, "R4", "R1 R2 R3 R4"))
    kinds = [e.kind for e in events]
    assert kinds[0] == "play" and "round-end" in kinds and "match-end" in kinds
    outcome = state.outcome
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason == "rack-empty"
    assert outcome.scores == (30 + 5 + 13 + 2, -(30 + 5), -(13 + 2))
    assert outcome.totals == outcome.scores
    assert outcome.match_over
    assert state.rounds == [outcome]
    assert state.to_act == frozenset()
    assert state.legal_actions(1) == []
    assert state.view(1)["outcome"] == outcome.to_json()


def test_initial_meld_that_empties_the_rack_wins() -> None:
    state = from_position("racks: K10 K11 K12 / B13 O13; pool: seed 8; turn: 0; down: 00")
    state.apply(play(0, "K10 K11 K12", "K10 K11 K12"))
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.outcome.scores == (26, -26)


def test_blocked_round_ends_after_a_full_round_of_passes() -> None:
    state = from_position("table: R1 R2 R3; racks: K1 K2 / B13 / R5 R6; pool: ; turn: 0; down: 111")
    state.apply(Pass(0))
    assert state.view(None)["idle_turns"] == 1
    state.apply(Pass(1))
    assert state.outcome is None
    state.apply(Pass(2))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == "blocked"
    assert outcome.winners == (0,)
    # The lowest rack (3) receives the others' sum minus its own: 13 + 11 - 3.
    assert outcome.scores == (21, -13, -11)


def test_a_play_restarts_the_count_of_idle_turns() -> None:
    state = from_position("table: R1 R2 R3; racks: K1 K2 / R4 B13 / R5 R6; pool: ; turn: 0; down: 111")
    state.apply(Pass(0))
    state.apply(play(1, "R4", "R1 R2 R3 R4"))
    assert state.view(None)["idle_turns"] == 0
    state.apply(Pass(2))
    state.apply(Pass(0))
    assert state.outcome is None
    state.apply(Pass(1))
    assert state.outcome is not None and state.outcome.reason == "blocked"
    assert state.outcome.winners == (0,)
    assert state.outcome.scores == (13 + 11 - 3, -13, -11)


def test_drawing_the_last_tile_is_not_an_idle_turn() -> None:
    state = from_position("table: R1 R2 R3; racks: K1 / B13; pool: O5; turn: 0; down: 11")
    state.apply(Draw(0))
    state.apply(Pass(1))
    assert state.outcome is None
    state.apply(Pass(0))
    assert state.outcome is not None
    assert state.outcome.winners == (0,)
    assert state.outcome.scores == (13 - 6, -13)


def test_blocked_round_tie_makes_every_lowest_rack_a_winner() -> None:
    state = from_position("table: R1 R2 R3; racks: K5 / B5 / R13; pool: ; turn: 0; down: 111")
    for seat in (0, 1, 2):
        state.apply(Pass(seat))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.scores == (13 - 5, 13 - 5, -13)


def test_joker_in_a_losing_rack_costs_30() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 / J; pool: seed 3; turn: 0; down: 11")
    state.apply(play(0, "R4", "R1 R2 R3 R4"))
    assert state.outcome is not None and state.outcome.scores == (30, -30)


# -- matches over several rounds -----------------------------------------------------------


def test_a_round_below_the_target_deals_a_new_round() -> None:
    state = from_position(
        "table: R1 R2 R3; racks: B1 / R4 / K5 K6; pool: seed 3; turn: 1; down: 111", target=100
    )
    state.apply(play(1, "R4", "R1 R2 R3 R4"))
    assert state.outcome is None
    assert len(state.rounds) == 1
    first = state.rounds[0]
    assert first.winners == (1,) and first.scores == (-1, 12, -11) and not first.match_over
    view = state.view(None)
    assert view["round"] == 2
    assert view["totals"] == [-1, 12, -11]
    assert view["table"] == []
    assert view["down"] == [False, False, False]
    assert view["rack_sizes"] == [14, 14, 14]
    assert view["pool_size"] == 106 - 42
    assert view["turn_number"] == 1
    assert all_tiles(state) == full_set(2)
    # The next round starts with the seat after the previous round's first player.
    assert view["turn"] == 2
    assert state.to_act == frozenset({2})
    deals = [e for e in state.history if e.kind == "deal"]
    assert deals[-1].data == {"round": 2, "first": 2, "rack_size": 14}


def test_reaching_the_target_exactly_ends_the_match() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 / K5 B13; pool: seed 3; turn: 0; down: 11", target=18)
    state.apply(play(0, "R4", "R1 R2 R3 R4"))
    assert state.outcome is not None
    assert state.outcome.match_over and state.outcome.reason == "target"
    assert state.outcome.winners == (0,)
    assert state.outcome.totals == (18, -18)


def test_one_short_of_the_target_continues() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 / K5 B13; pool: seed 3; turn: 0; down: 11", target=19)
    state.apply(play(0, "R4", "R1 R2 R3 R4"))
    assert state.outcome is None
    assert state.view(None)["round"] == 2
    assert state.totals == [18, -18]


def _match_of_several_rounds(players: int, target: int) -> Rummikub:
    """The first seeded bot match (3 or 4 players) that needs more than one round."""
    for seed in range(40):
        state = new_game("rummikub", players=players, seed=seed, target=target)
        assert isinstance(state, Rummikub)
        run_bots(state, [make_bot("random", "rummikub") for _ in range(players)], max_actions=20_000)
        if len(state.rounds) >= 2:
            return state
    pytest.fail(f"no seed gave a {players}-player match of several rounds")


# With 2 players a match of blocked rounds tends to drive both totals down, so
# random bots may never reach a target; the 2-player round change is tested above.
@pytest.mark.parametrize(("players", "target"), [(3, 80), (4, 150)])
def test_match_totals_accumulate_until_the_target(players: int, target: int) -> None:
    state = _match_of_several_rounds(players, target)
    assert state.outcome is not None
    rounds = state.rounds
    running = [0] * players
    for number, r in enumerate(rounds, start=1):
        running = [a + b for a, b in zip(running, r.scores, strict=True)]
        assert list(r.totals) == running
        assert r.round == number
        assert r.match_over == (number == len(rounds))
        assert (max(running) >= target) == (number == len(rounds))
    assert state.outcome.totals == tuple(running)
    assert state.outcome.reason == "target"
    best = max(running)
    assert state.outcome.winners == tuple(i for i, v in enumerate(running) if v == best)
    deals = [e.data for e in state.history if e.kind == "deal"]
    assert [d["round"] for d in deals] == list(range(1, len(rounds) + 1))
    for a, b in itertools.pairwise(deals):
        assert b["first"] == (a["first"] + 1) % players


# -- turn order and who may act ---------------------------------------------------------------


def test_turn_passes_to_the_next_seat() -> None:
    state = new_game("rummikub", players=3, seed=12)
    start = state.view(None)["turn"]
    assert start is not None
    order = []
    for _ in range(6):
        seat = state.view(None)["turn"]
        assert seat is not None
        order.append(seat)
        state.apply(Draw(seat))
    assert order == [(start + i) % 3 for i in range(6)]
    assert state.view(None)["turn_number"] == 7


def test_acting_out_of_turn_is_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9", rack1="R4 B1")
    error = assert_rejected(state, Draw(1), "TURN")
    assert "seat 1" in str(error)
    assert_rejected(state, play(1, "R4", "R1 R2 R3 R4"), "TURN")
    assert_rejected(state, Draw(2), "SEAT")
    assert_rejected(state, Draw(-1), "SEAT")
    assert state.legal_actions(1) == []
    with pytest.raises(RuleError) as info:
        state.view(2)
    assert info.value.rule == "SEAT"


def test_actions_after_the_game_is_over_are_rejected(assert_rejected: Rejecter) -> None:
    state = from_position("table: R1 R2 R3; racks: R4 / K5; pool: seed 3; turn: 0; down: 11")
    state.apply(play(0, "R4", "R1 R2 R3 R4"))
    assert state.outcome is not None
    assert_rejected(state, Draw(1), "GAME-OVER")
    assert_rejected(state, Draw(0), "GAME-OVER")
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []


def test_non_actions_are_rejected(assert_rejected: Rejecter) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    before = state.snapshot()
    with pytest.raises(RuleError) as info:
        state.apply("0 draw")  # type: ignore[arg-type]
    assert info.value.rule == "ACTION"
    assert state.snapshot() == before


# -- notation of actions -------------------------------------------------------------------------


def test_action_notation_round_trips() -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    for text in ["0 draw", "0 pass", "0 play R4 : R1 R2 R3 R4", "0 fail R4 K9 : R1 R2 R3 | R4 K9"]:
        action = state.parse_action(text)
        assert str(action) == text
    assert state.parse_action("0 PLAY r4 : r1 r2 r3 r4") == play(0, "R4", "R1 R2 R3 R4")


@pytest.mark.parametrize("text", ["draw", "x draw", "7 draw", "0 dance", "0 draw R4", "0 play R4 R1 R2 R3", "0 play R4 : R1 || R2"])
def test_bad_action_text_is_a_parse_error(text: str) -> None:
    state = down_position("R1 R2 R3", "R4 K9")
    with pytest.raises(ParseError):
        state.parse_action(text)


# -- legal_actions agree with apply ------------------------------------------------------------


def _check_listed_actions(state: GameState) -> int:
    count = 0
    for seat in range(len(state.players)):
        listed = state.legal_actions(seat)
        if seat not in state.to_act:
            assert listed == []
            continue
        assert listed, "the player to act always has an action"
        assert actions_from_view(state.view(seat)) == listed
        for action in listed:
            trial = state.copy()
            trial.apply(action)  # raises if the listing and the rules disagree
            count += 1
    return count


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 40)])
def test_every_listed_action_is_accepted(players: int, seed: int) -> None:
    state = new_game("rummikub", players=players, seed=seed)
    checked = 0

    def on_event(s: GameState, _events: object) -> None:
        nonlocal checked
        if s.outcome is None:
            checked += _check_listed_actions(s)

    checked += _check_listed_actions(state)
    run_bots(state, [make_bot("random", "rummikub") for _ in range(players)], on_event=on_event)
    assert checked > 100


HAND_MADE = [
    "table: R1 R2 R3 | K5 B5 O5 | B9 J B11; racks: R4 R13 O5 R5 J K8 B12 B8 / K1; pool: seed 1; turn: 0; down: 11",
    "table: K10 K11 K12 | R7 B7 O7 K7 | O1 O2 O3 O4; racks: K13 K9 O5 R7 J O13 / K1; pool: seed 2; turn: 0; down: 11",
    "table: J J B5 | R11 R12 R13; racks: B4 B6 B7 K5 R10 R9 B3 / K1; pool: seed 3; turn: 0; down: 11",
    "table: K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12; racks: K13 K1 J B1 / K2; pool: seed 4; turn: 0; down: 11",
]


@pytest.mark.parametrize("position", HAND_MADE)
def test_listed_layoffs_are_exactly_the_one_tile_additions_apply_accepts(position: str) -> None:
    state = from_position(position)
    base = [tuple(s) for s in state.table]
    accepted: set[tuple[Tile, int]] = set()
    for tile in set(state.racks[0]):
        for i, s in enumerate(base):
            for k in range(len(s) + 1):
                new = (*s[:k], tile, *s[k:])
                action = Play(0, (tile,), (*base[:i], new, *base[i + 1 :]))
                try:
                    state.copy().apply(action)
                except RuleError:
                    continue
                accepted.add((tile, i))
    listed: set[tuple[Tile, int]] = set()
    for listed_action in state.legal_actions(0):
        if isinstance(listed_action, Play) and len(listed_action.placed) == 1:
            new_table = listed_action.table
            changed = [i for i, s in enumerate(new_table[: len(base)]) if s != base[i]]
            assert len(new_table) == len(base) and len(changed) == 1
            listed.add((listed_action.placed[0], changed[0]))
    assert accepted, "the position should allow some lay-off"
    assert listed == accepted


def _sub_multisets(items: Sequence[Tile]) -> set[tuple[Tile, ...]]:
    out: set[tuple[Tile, ...]] = set()
    for size in range(3, len(items) + 1):
        for combo in itertools.combinations(sorted(items), size):
            out.add(combo)
    return out


@pytest.mark.parametrize(
    ("rack_text", "down"),
    [
        ("R1 R2 R3 R4 K3 B3 O3 J", True),
        ("K10 K11 K12 B10 O10 J R10 K13", False),
        ("B5 B6 J J O5 R5 K9", True),
        ("R11 R12 R13 J K1 K2 O12", False),
    ],
)
def test_listed_new_sets_are_exactly_the_single_sets_apply_accepts(rack_text: str, down: bool) -> None:
    flag = "1" if down else "0"
    state = from_position(f"table: B1 B2 B3; racks: {rack_text} / K1; pool: seed 5; turn: 0; down: {flag}1")
    base = tuple(tuple(s) for s in state.table)
    accepted: set[tuple[Tile, ...]] = set()
    for combo in _sub_multisets(state.racks[0]):
        try:
            state.copy().apply(Play(0, combo, (*base, combo)))
        except RuleError:
            continue
        accepted.add(combo)
    listed: set[tuple[Tile, ...]] = set()
    for listed_action in state.legal_actions(0):
        if not isinstance(listed_action, Play):
            continue
        new_table = listed_action.table
        if new_table[: len(base)] == base and len(new_table) == len(base) + 1:
            assert Counter(listed_action.placed) == Counter(new_table[-1])
            listed.add(tuple(sorted(listed_action.placed)))
    assert accepted
    missing = sorted(format_tiles(c) for c in accepted - listed)
    wrong = sorted(format_tiles(c) for c in listed - accepted)
    assert listed == accepted, f"accepted but not listed: {missing}; listed but refused: {wrong}"


def test_draw_or_pass_is_always_listed() -> None:
    state = down_position("R1 R2 R3", "K9", pool="B4")
    assert state.legal_actions(0) == [Draw(0)]
    empty = down_position("R1 R2 R3", "K9", pool="")
    assert empty.legal_actions(0) == [Pass(0)]


def test_a_match_that_cannot_reach_its_target_ends_at_the_round_limit() -> None:
    # Two random bots mostly block their rounds, so both totals drift below zero.
    state = new_game("rummikub", players=2, seed=1, target=40, max_rounds=5)
    run_bots(state, [make_bot("random", "rummikub") for _ in range(2)], max_actions=5000)
    assert state.outcome is not None and state.outcome.reason == "max-rounds"
    assert len(state.rounds) == 5 and max(state.totals) < 40
    assert state.outcome.winners == tuple(i for i, t in enumerate(state.totals) if t == max(state.totals))


def test_cached_set_extensions_match_trying_every_tile() -> None:
    # _extensions narrows the candidates for speed; it must find exactly what trying all 53 tiles finds.
    from rummykit.pieces.tiles import ALL_TILES, COLOURS, JOKER
    from rummykit.rulesets.rummikub import _extensions

    sets: set[tuple[Tile, ...]] = set()
    for colour in COLOURS[:2]:
        for start in range(1, 12):
            for length in range(3, 8):
                if start + length - 1 > 13:
                    continue
                base = [Tile(colour, v) for v in range(start, start + length)]
                for k in range(3):
                    for pos in itertools.combinations(range(length), k):
                        c = check_tiles(tuple(JOKER if i in pos else t for i, t in enumerate(base)))
                        if c.valid:
                            sets.add(c.pieces)
    for number in (1, 7, 13):
        for size in (3, 4):
            for colours in itertools.combinations(COLOURS, size):
                for k in range(3):
                    for pos in itertools.combinations(range(size), k):
                        c = check_tiles(tuple(JOKER if i in pos else Tile(col, number) for i, col in enumerate(colours)))
                        if c.valid:
                            sets.add(c.pieces)
    assert len(sets) > 500
    for s in sets:
        brute = []
        for t in ALL_TILES:
            for cand in ((*s, t), (t, *s)):
                c = check_tiles(cand)
                if c.valid:
                    brute.append((t, c.pieces))
                    break
        assert sorted(brute, key=lambda x: x[0].code) == sorted(_extensions(s), key=lambda x: x[0].code), s


def test_runs_from_a_mask_match_checking_every_candidate() -> None:
    # _runs_from takes a run with two numbered tiles or more as its own normal form (no check call); checking
    # every candidate, as it did before, must find the same runs in the same order.
    import random

    from rummykit.melds.tiles import _runs_from
    from rummykit.pieces.tiles import MAX_NUMBER

    def checked(colour_index: int, numbers: int, jokers: int) -> tuple[tuple[Tile, ...], ...]:
        colour = COLOURS[colour_index]
        found: dict[tuple[Tile, ...], None] = {}
        for start in range(1, MAX_NUMBER - 1):
            for end in range(start + 2, MAX_NUMBER + 1):
                present = [v for v in range(start, end + 1) if numbers >> v & 1]
                missing = end - start + 1 - len(present)
                if missing > jokers or not present:
                    continue
                for extra in range(min(jokers - missing, len(present) - 1) + 1):
                    for swapped in itertools.combinations(present, extra):
                        cand = tuple(
                            Tile(colour, v) if v in present and v not in swapped else JOKER for v in range(start, end + 1)
                        )
                        c = check_tiles(cand)
                        if c.valid:
                            found[c.pieces] = None
        return tuple(found)

    rng = random.Random(25)
    for _ in range(600):
        numbers = sum(1 << v for v in rng.sample(range(1, MAX_NUMBER + 1), rng.randint(0, 8)))
        colour_index, jokers = rng.randrange(len(COLOURS)), rng.randint(0, 3)
        assert _runs_from.__wrapped__(colour_index, numbers, jokers) == checked(colour_index, numbers, jokers)


def test_runs_without_jokers_are_the_stretches_of_the_mask() -> None:
    # hand_sets reads a jokerless rack's runs from the stretches of each colour's mask, not from _runs_from.
    from rummykit.melds.tiles import _COLOUR_ROWS, _runs_from, _stretches, hand_sets

    for numbers in range(0, 1 << 14, 2):
        row = _COLOUR_ROWS[numbers % 3]
        assert tuple(row[a : b + 1] for a, b in _stretches(numbers)) == _runs_from.__wrapped__(numbers % 3, numbers, 0)
    rack = parse_tiles("R1 R2 R3 R4 B7 B8 B9 K3 O3 K12")
    assert [format_tiles(s) for s in hand_sets(rack)] == [
        "K3 O3 R3", "B7 B8 B9", "R1 R2 R3", "R1 R2 R3 R4", "R2 R3 R4"
    ]
