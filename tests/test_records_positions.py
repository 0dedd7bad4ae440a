"""Game records (write, read, replay, errors by line) and one-line position strings."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit import new_game
from rummykit.bots.base import make_bot
from rummykit.engine.core import GameState
from rummykit.errors import OptionError, ParseError, RecordError
from rummykit.records import MAGIC, parse_record, read_record, write_record
from rummykit.rulesets.rummikub import Draw, Rummikub, from_position
from rummykit.sim import run_bots


def bot_game(players: int, seed: int, **options: object) -> GameState:
    state = new_game("rummikub", players=players, seed=seed, **options)
    return run_bots(state, [make_bot("random", "rummikub") for _ in range(players)], max_actions=20_000)


# -- records: round trips ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 8), (4, 21)])
def test_record_of_a_bot_game_replays_to_the_identical_state(players: int, seed: int) -> None:
    state = bot_game(players, seed)
    assert state.outcome is not None and len(state.actions) > 20
    text = write_record(state)
    lines = text.splitlines()
    assert lines[0] == MAGIC
    assert f"seed: {seed}" in lines
    assert len([ln for ln in lines[lines.index("") + 1 :] if ln]) == len(state.actions)
    replayed = read_record(text)
    assert replayed.snapshot() == state.snapshot()
    assert replayed.outcome == state.outcome
    assert write_record(replayed) == text


def test_record_with_options_and_names_round_trips() -> None:
    state = new_game(
        "rummikub", players=["ann", "bob", "cy"], seed=77, jokers=4, initial_meld_points=0, target=60
    )
    run_bots(state, [make_bot("random", "rummikub") for _ in range(3)], max_actions=20_000)
    text = write_record(state)
    assert "players: ann | bob | cy" in text
    assert "option jokers: 4" in text and "option initial_meld_points: 0" in text
    assert "option target: 60" in text
    replayed = read_record(text)
    assert replayed.snapshot() == state.snapshot()
    assert replayed.options == {"jokers": 4, "initial_meld_points": 0, "target": 60, "max_rounds": 50}
    assert write_record(replayed) == text


def test_record_of_an_unfinished_game() -> None:
    state = new_game("rummikub", players=3, seed=5)
    for _ in range(7):
        state.apply(Draw(min(state.to_act)))
    text = write_record(state)
    replayed = read_record(text)
    assert replayed.snapshot() == state.snapshot()
    assert replayed.outcome is None
    # The replayed game goes on exactly like the original.
    seat = min(state.to_act)
    state.apply(Draw(seat))
    replayed.apply(Draw(seat))
    assert replayed.snapshot() == state.snapshot()


def test_record_of_a_game_from_a_position() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 1; down: 11", seed=3)
    state.apply(Draw(1))
    state.apply(state.parse_action("0 play R4 : R1 R2 R3 R4"))
    text = write_record(state)
    assert "position: table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 1; down: 11" in text
    replayed = read_record(text)
    assert replayed.snapshot() == state.snapshot()
    assert write_record(replayed) == text


def test_comments_and_blank_lines_are_ignored() -> None:
    state = new_game("rummikub", players=2, seed=4)
    for _ in range(3):
        state.apply(Draw(min(state.to_act)))
    lines = write_record(state).splitlines()
    blank = lines.index("")
    commented = ["# a saved game", "", *lines[: blank + 1], "# first moves", lines[blank + 1], "", *lines[blank + 2 :]]
    assert read_record("\n".join(commented) + "\n").snapshot() == state.snapshot()


def test_record_action_lines_are_case_insensitive() -> None:
    state = new_game("rummikub", players=2, seed=4)
    seat = min(state.to_act)
    state.apply(Draw(seat))
    text = write_record(state).replace(f"{seat} draw", f"{seat} DRAW")
    assert read_record(text).snapshot() == state.snapshot()


# -- records: errors name the line -------------------------------------------------------------


def base_record() -> tuple[str, list[str]]:
    state = new_game("rummikub", players=2, seed=12)
    for _ in range(4):
        state.apply(Draw(min(state.to_act)))
    text = write_record(state)
    return text, text.splitlines()


def line_of(lines: list[str], prefix: str) -> int:
    return next(i for i, ln in enumerate(lines, start=1) if ln.startswith(prefix))


def expect_record_error(text: str, line: int, *words: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_record(text)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.line == line, f"expected line {line}, got {error.line}: {error}"
    assert str(error).startswith(f"line {line}: ")
    for word in words:
        assert word in str(error), str(error)
    return error


def test_record_without_the_magic_line() -> None:
    _, lines = base_record()
    expect_record_error("\n".join(lines[1:]), 1, MAGIC)
    expect_record_error("# note\n\nrummykit record 2\n" + "\n".join(lines[1:]), 3, MAGIC)
    expect_record_error("", 1, MAGIC)


@pytest.mark.parametrize("field", ["game", "seed", "players"])
def test_record_missing_a_header_field(field: str) -> None:
    _, lines = base_record()
    without = [ln for ln in lines if not ln.startswith(f"{field}:")]
    header_end = without.index("") + 1  # the blank line that ends the header
    expect_record_error("\n".join(without), header_end, field)


@pytest.mark.parametrize(
    ("prefix", "replacement", "words"),
    [
        ("seed:", "seed: abc", ("seed", "abc")),
        ("seed:", "seed: -5", ("seed", "-5")),
        ("seed:", "seed: 1.5", ("seed",)),
        ("game:", "game: chess", ("chess",)),
        ("option jokers:", "option colours: 5", ("colours",)),
        ("option jokers:", "option jokers: 9", ("jokers", "9")),
        ("option target:", "option target: soon", ("target", "soon")),
        ("option initial_meld_points:", "option initial_meld_points: -3", ("initial_meld_points",)),
        ("players:", "players: solo", ("players",)),
        ("players:", "players: ann | ann", ("ann",)),
        ("seed:", "seat: 12", ("seat",)),
        ("game:", "game rummikub", ("game rummikub",)),
    ],
)
def test_bad_header_lines_are_reported_at_their_line(prefix: str, replacement: str, words: tuple[str, ...]) -> None:
    _, lines = base_record()
    number = line_of(lines, prefix)
    lines[number - 1] = replacement
    expect_record_error("\n".join(lines), number, *words)


def test_an_option_given_twice_is_reported() -> None:
    _, lines = base_record()
    number = line_of(lines, "option jokers:")
    lines.insert(number, "option jokers: 3")
    expect_record_error("\n".join(lines), number + 1, "jokers")


def test_an_illegal_action_line_is_reported_at_its_line() -> None:
    _, lines = base_record()
    first_action = lines.index("") + 2
    seat = int(lines[first_action - 1].split()[0])
    # Passing while the pool has tiles breaks RK-DRAW.
    lines[first_action - 1] = f"{seat} pass"
    expect_record_error("\n".join(lines), first_action, "RK-DRAW", "pass")
    # Acting out of turn on the third action line.
    _, lines = base_record()
    third = lines.index("") + 4
    seat = int(lines[third - 1].split()[0])
    lines[third - 1] = f"{1 - seat} draw"
    expect_record_error("\n".join(lines), third, "TURN")
    # A play of tiles the player does not hold, appended as the last line.
    _, lines = base_record()
    seat_next = 1 - int(lines[-1].split()[0])
    lines.append(f"{seat_next} play R1 R2 R3 : R1 R2 R3")
    expect_record_error("\n".join(lines), len(lines))


@pytest.mark.parametrize("bad", ["0 dance", "draw", "9 draw", "0 play R1 R2 R3", "0 play R1 R14 : R1", "0 draw now"])
def test_a_malformed_action_line_is_reported_at_its_line(bad: str) -> None:
    _, lines = base_record()
    lines.insert(len(lines) - 1, bad)
    expect_record_error("\n".join(lines), len(lines) - 1, repr(bad))


def test_parse_record_reads_the_header() -> None:
    text, _ = base_record()
    record = parse_record(text)
    assert record.game == "rummikub" and record.seed == 12 and record.players == ["P1", "P2"]
    assert record.options == {"jokers": "2", "initial_meld_points": "30", "target": "none", "max_rounds": "50"}
    assert [n for n, _ in record.actions] == [10, 11, 12, 13]


# -- positions -------------------------------------------------------------------------------------


CANONICAL = [
    "table: R1 R2 R3 | K5 B5 O5; racks: K9 R4 / B1 B2; pool: O7 K13; turn: 1; down: 10; idle: 0",
    "table: ; racks: K1 K2 K3 / J / B13 O13 R13; pool: ; turn: 2; down: 000; idle: 2",
    "table: J B2 B3 | K10 J K12; racks: B1 / K11 / R5 / O5; pool: R7; turn: 3; down: 1111; idle: 0",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_position_strings_round_trip(text: str) -> None:
    state = from_position(text)
    assert state.position() == text
    again = from_position(state.position())
    assert again.snapshot()["racks"] == state.snapshot()["racks"]
    assert again.snapshot()["pool"] == state.snapshot()["pool"]


def test_position_fields_are_read_as_given() -> None:
    state = from_position("table: r3 r1 r2; racks: k9 r4 / b2 b1; pool: O7 K13; turn: 1; down: 10")
    assert [[str(t) for t in s] for s in state.table] == [["R1", "R2", "R3"]]
    assert state.view(0)["rack"] == ["K9", "R4"]
    assert state.view(1)["rack"] == ["B1", "B2"]
    assert [str(t) for t in state.pool] == ["O7", "K13"]
    assert state.to_act == frozenset({1})
    assert state.down == [True, False]
    assert state.position() == "table: R1 R2 R3; racks: K9 R4 / B1 B2; pool: O7 K13; turn: 1; down: 10; idle: 0"


def test_position_pool_seed_fills_the_rest_of_the_set() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 0")
    tiles: Counter[object] = Counter(state.pool)
    for r in state.racks:
        tiles.update(r)
    for s in state.table:
        tiles.update(s)
    assert sum(tiles.values()) == 106
    assert max(tiles.values()) == 2
    assert from_position("racks: R4 / B1; pool: seed 5").pool == from_position("racks: R4 / B1; pool: seed 5").pool
    assert from_position("racks: R4 / B1; pool: seed 5").pool != from_position("racks: R4 / B1; pool: seed 6").pool


@pytest.mark.parametrize(("players", "seed"), [(2, 2), (3, 3), (4, 4)])
def test_positions_of_a_game_in_progress_round_trip(players: int, seed: int) -> None:
    state = new_game("rummikub", players=players, seed=seed)
    bots = [make_bot("random", "rummikub") for _ in range(players)]
    checked = 0

    def on_event(s: GameState, _events: object) -> None:
        nonlocal checked
        if s.outcome is not None or len(s.actions) % 7:
            return
        assert isinstance(s, Rummikub)
        text = s.position()
        copy = from_position(text, players=list(s.players), **s.options)
        assert copy.position() == text
        mine, theirs = s.snapshot(), copy.snapshot()
        for key in ("pool", "table", "down", "current", "idle_turns", "players", "options"):
            assert theirs[key] == mine[key], key
        assert [sorted(r) for r in theirs["racks"]] == [sorted(r) for r in mine["racks"]]
        for seat in range(players):
            assert copy.view(seat)["rack"] == s.view(seat)["rack"]
            assert copy.legal_actions(seat) == s.legal_actions(seat)
        checked += 1

    run_bots(state, bots, on_event=on_event, max_actions=20_000)
    assert checked >= 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("racks: R1 R1 / R1", ("more copies", "R1")),
        ("table: R1 R2 R3; racks: R1 R2 / R3 R2", ("more copies", "R2")),
        ("racks: J J / J", ("more copies", "J")),
        ("table: R1 R2; racks: K1 / K2", ("table set 1", "invalid")),
        ("table: R1 R2 R3 | K5 K5 B5; racks: K1 / K2", ("table set 2", "invalid")),
        ("table: R12 R13 R1; racks: K1 / K2", ("table set 1", "invalid")),
        ("racks: K1 / K2; turn: 2", ("turn",)),
        ("racks: K1 / K2; turn: -1", ("turn",)),
        ("racks: K1 / K2; turn: x", ("turn", "x")),
        ("racks: K1 / K2; down: 1", ("down",)),
        ("racks: K1 / K2; down: 111", ("down",)),
        ("racks: K1 / K2; down: 1x", ("down",)),
        ("table: R1 R2 R3", ("racks",)),
        ("racks: K1 / K2; hand: R1", ("hand",)),
        ("racks: K1 / K2; turn: 0; turn: 1", ("turn",)),
        ("racks: K1", ("2 to 4",)),
        ("racks: K1 / K2 / K3 / K4 / K5", ("2 to 4",)),
        ("racks: R14 / K2", ("R14",)),
        ("racks: R1 / K2; pool: R1 R1", ("pool",)),
        ("racks: R1 / K2; pool: seed x", ("seed",)),
        ("racks: R1 / K2; pool: R5; idle: 1", ("idle",)),
        ("racks: R1 / K2; pool: ; idle: 2", ("idle",)),
        ("racks: R1 / K2; idle: many", ("idle",)),
        ("table: R1 R2 R3 || K5 B5 O5; racks: K1 / K2", ("empty",)),
    ],
)
def test_bad_positions_raise_parse_error(text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(ParseError) as info:
        from_position(text)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_position_with_a_joker_option() -> None:
    with pytest.raises(ParseError, match="more copies"):
        from_position("racks: J J J / K1")
    state = from_position("racks: J J J / K1", jokers=3)
    assert state.view(0)["rack"] == ["J", "J", "J"]
    with pytest.raises(ParseError, match="more copies"):
        from_position("racks: J / K1", jokers=0)


def test_player_names_survive_a_record() -> None:
    names = ["a|b", "c"]
    try:
        state = new_game("rummikub", players=names, seed=1)
    except OptionError:
        return  # refusing a name the record cannot hold is fine too
    text = write_record(state)
    replayed = read_record(text)
    assert replayed.players == tuple(names)
    assert replayed.snapshot() == state.snapshot()


def test_an_action_after_the_end_is_reported_at_its_line() -> None:
    state = from_position("table: R1 R2 R3; racks: R4 / K5; pool: seed 3; turn: 0; down: 11")
    state.apply(state.parse_action("0 play R4 : R1 R2 R3 R4"))
    lines = write_record(state).splitlines()
    lines.append("1 draw")
    expect_record_error("\n".join(lines), len(lines), "GAME-OVER")
