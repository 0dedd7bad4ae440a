"""``rummykit play --resume``: a saved game goes on exactly as it would have, people and bots in their seats."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO, cast

import pytest
from catalogue_setups import GAME_IDS, mixed_levels, one_round, seats

import rummykit
from rummykit.bots.base import Bot, make_bot
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.engine.core import Action
from rummykit.engine.driver import Claimer, step
from rummykit.engine.rng import Rng
from rummykit.errors import RecordError
from rummykit.presenters.text import Style
from rummykit.records import Seat, parse_record, read_record, write_record
from rummykit.sim import bot_rng


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={"COLUMNS": "1000"})
    return status, out.getvalue(), err.getvalue()


class StopAt:
    """A bot that plays like ``level`` but is interrupted (Ctrl-C) before its ``at``-th choice.

    It answers out-of-turn chances as ``level`` does; with ``during="claim"``
    the interruption comes before its ``at``-th such answer instead.
    """

    def __init__(self, level: str, game: str, at: int, during: str = "choose") -> None:
        self.level = level
        self.bot = make_bot(level, game)
        self.at = at
        self.during = during
        self.calls = 0

    def _count(self, what: str) -> None:
        if what == self.during:
            self.calls += 1
            if self.calls == self.at:
                raise KeyboardInterrupt

    def choose(self, view: Mapping[str, Any], rng: Rng) -> Action:
        self._count("choose")
        return self.bot.choose(view, rng)

    def claim(self, view: Mapping[str, Any], rng: Rng) -> Action | None:
        self._count("claim")
        return self.bot.claim(view, rng) if isinstance(self.bot, Claimer) else None


def uninterrupted(game: str, levels: list[str], seed: int, **options: Any) -> str:
    """The record of the whole bot game, played in one go, with each bot's generator at the end."""
    state = rummykit.new_game(game, players=len(levels), seed=seed, **options)
    bots = [make_bot(level, game) for level in levels]
    rngs = [bot_rng(seed, seat) for seat in range(len(levels))]
    while state.outcome is None:
        step(state, bots, rngs)
    return write_record(state, [Seat(level, rng.seed, rng.draws) for level, rng in zip(levels, rngs, strict=True)])


VARIANTS: dict[str, dict[str, object]] = {"conveyor": {"jump_ins": True}}
"""Options that bring out-of-turn answers into a game (a game not listed plays one round of its defaults)."""


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_interrupted_bot_game_resumes_to_exactly_the_same_game(game: str, tmp_path: Path) -> None:
    """Each game, up to three seats of greedy and random bots in turn; the second seat is interrupted."""
    levels = mixed_levels(game, seats(game, 3))
    options = {**one_round(game), **VARIANTS.get(game, {})}
    seed = 11
    expected = uninterrupted(game, levels, seed, **options)
    state = rummykit.new_game(game, players=len(levels), seed=seed, **options)
    bots: list[Bot | None] = [make_bot(level, game) for level in levels]
    stopper = StopAt(levels[1], game, at=6)
    bots[1] = stopper
    record = tmp_path / "stopped.txt"
    out = io.StringIO()
    status = Session(state, bots, Console(io.StringIO(), out, io.StringIO()), Style(), record_path=record).run()
    assert status == 130 and stopper.calls == 6
    assert f"continue with: rummykit play --resume {record}" in " ".join(out.getvalue().split())
    saved = parse_record(record.read_text())
    assert saved.seats is not None and [s.bot for s in saved.seats] == levels
    assert any(s.draws for s in saved.seats)  # the bots had used their generators
    assert 0 < len(saved.actions) < len(parse_record(expected).actions)

    status, text, err = run(["play", "--resume", str(record)])
    assert status == 0, err
    assert text.startswith(f"Continuing the game saved in {record} ({len(saved.actions)} actions so far")
    assert f"Record saved to {record} (replay it with: rummykit replay {record})" in text
    assert record.read_text() == expected  # same actions, same generators at the end
    assert list(tmp_path.iterdir()) == [record]


@pytest.mark.parametrize(
    ("seed", "at", "during"),
    [
        (12, 1, "claim"),  # Ctrl-C while the bot weighs an out-of-turn call
        (11, 9, "choose"),  # Ctrl-C at a turn, after other bots let out-of-turn calls pass
    ],
)
def test_a_mummus_game_cut_short_around_out_of_turn_calls_resumes_to_the_same_game(
    seed: int, at: int, during: str, tmp_path: Path
) -> None:
    """Random bots toss a coin before each out-of-turn call; the record keeps their generators as they
    stood after the last action, so every chance let pass since is put to them again, and answered alike."""
    levels = ["random"] * 4
    expected = uninterrupted("mummus", levels, seed, target=0)
    state = rummykit.new_game("mummus", players=4, seed=seed, target=0)
    bots: list[Bot | None] = [make_bot(level, "mummus") for level in levels]
    stopper = StopAt("random", "mummus", at, during)
    bots[2] = stopper
    record = tmp_path / "stopped.txt"
    status = Session(state, bots, Console(io.StringIO(), io.StringIO(), io.StringIO()), Style(), record_path=record).run()
    assert status == 130 and stopper.calls == at
    saved = parse_record(record.read_text())
    assert saved.seats is not None and 0 < len(saved.actions) < len(parse_record(expected).actions)
    status, text, err = run(["play", "mummus", "--resume", str(record)])
    assert status == 0, err
    assert "Game over:" in text
    assert record.read_text() == expected


def test_a_person_at_mummus_quits_and_resumes_in_the_same_seat(tmp_path: Path) -> None:
    record = tmp_path / "mu.txt"
    argv = ["play", "mummus", "--bot", "greedy", "--bot", "random", "--seed", "5", "--names", "Ann,Bob,Cy"]
    status, out, err = run([*argv, "--record", str(record)], "draw\nquit\n")
    assert status == 0, err
    assert out.rstrip().endswith(f"Record saved to {record}; continue with: rummykit play --resume {record}")
    saved = parse_record(record.read_text())
    assert saved.seats is not None and [s.bot for s in saved.seats] == [None, "greedy", "random"]
    drew = [line for _, line in saved.actions if line.startswith("0 ")]
    assert drew == ["0 draw"]  # Ann drew, then quit before her discard
    status, out, err = run(["play", "mummus", "--resume", str(record)], "moves\nquit\n")
    assert status == 0, err
    assert "You are Ann against 2 bots: Bob (greedy), Cy (random)." in out
    # Ann's turn goes on after her draw: she discards next, and the `moves` she asked for say so.
    assert "--- Ann's turn ---" in out and "  discard " in out and "  draw" not in out
    assert parse_record(record.read_text()).actions == saved.actions


def test_quit_and_resume_keeps_the_person_and_the_bots_in_their_seats(tmp_path: Path) -> None:
    argv = ["play", "rummikub", "--bot", "random", "--bot", "random", "--seed", "21", "--names", "Ann,Bob,Cy"]
    whole = tmp_path / "whole.txt"
    status, _, err = run([*argv, "--record", str(whole)], "draw\n" * 5 + "quit\n")
    assert status == 0, err

    part = tmp_path / "part.txt"
    status, out, _ = run([*argv, "--record", str(part)], "draw\n" * 2 + "quit\n")
    assert status == 0
    assert out.rstrip().endswith(f"Record saved to {part}; continue with: rummykit play --resume {part}")
    status, out, err = run(["play", "--resume", str(part)], "draw\n" * 3 + "quit\n")
    assert status == 0, err
    assert "You are Ann against 2 bots: Bob (random), Cy (random)." in out
    # The game picks up at Ann's turn: no event from before the break is told again.
    head = out[: out.index("--- Ann's turn ---")]
    assert " draws " not in head and " plays " not in head
    assert part.read_text() == whole.read_text()
    assert read_record(part.read_text()).players == ("Ann", "Bob", "Cy")


def test_a_two_tray_game_quit_at_the_prompt_resumes_where_it_stopped(tmp_path: Path) -> None:
    argv = ["play", "two-tray", "--bot", "greedy", "--seed", "6", "--names", "Ann,Bob"]
    # Ann draws onto tray A on her first turn, then always onto her playing tray.
    whole = tmp_path / "whole.txt"
    status, _, err = run([*argv, "--record", str(whole)], "draw A\n" + "draw\n" * 5 + "quit\n")
    assert status == 0, err

    part = tmp_path / "part.txt"
    status, out, _ = run([*argv, "--record", str(part)], "draw A\ndraw\nquit\n")
    assert status == 0
    assert out.rstrip().endswith(f"Record saved to {part}; continue with: rummykit play --resume {part}")
    saved = parse_record(part.read_text())
    assert saved.seats is not None and [s.bot for s in saved.seats] == [None, "greedy"]
    status, out, err = run(["play", "--resume", str(part)], "help\n" + "draw\n" * 4 + "quit\n")
    assert status == 0, err
    assert "You are Ann against 1 bot: Bob (greedy)." in out and "Traceback" not in out
    assert "--- Ann's turn ---" in out and "Grid:" in out and "Tray " in out
    assert part.read_text() == whole.read_text()
    assert read_record(part.read_text()).players == ("Ann", "Bob")


def test_hot_seat_resumes_as_hot_seat(tmp_path: Path) -> None:
    record = tmp_path / "hot.txt"
    argv = ["play", "domino-rummikub", "--players", "2", "--names", "Ann,Bob", "--seed", "2", "--record", str(record)]
    status, _, _ = run(argv, "\ndraw\n\n\nquit\n")  # Ann: ready, draw, hide; Bob: ready, quit
    assert status == 0
    assert [s.text() for s in parse_record(record.read_text()).seats or []] == ["person", "person"]
    status, out, err = run(["play", "--resume", str(record)], "\nquit\n")
    assert status == 0, err
    assert "Hot-seat for Ann, Bob." in out and "Pass the screen to " in out


def test_a_resumed_record_that_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    record = tmp_path / "g.txt"
    status, _, _ = run(["play", "rummikub", "--bots", "1", "--seed", "4", "--record", str(record)], "quit\n")
    assert status == 0
    before = record.read_text()

    class Meddler:
        """Input whose first line comes after someone edited the record being resumed."""

        def isatty(self) -> bool:
            return False

        def __init__(self) -> None:
            self.lines = ["draw\n", "quit\n"]

        def readline(self) -> str:
            record.write_text(before + "# a note\n")
            return self.lines.pop(0)

    out = io.StringIO()
    status = main(["play", "--resume", str(record)], stdin=cast(TextIO, Meddler()), stdout=out, stderr=io.StringIO(), environ={})
    assert status == 0
    assert record.read_text() == before + "# a note\n"
    assert f"{record} changed since the game was resumed from it: rummykit never overwrites a record." in out.getvalue()
    assert len(read_record((tmp_path / "g-2.txt").read_text()).actions) > len(read_record(before).actions)


def test_resume_with_record_or_no_record_leaves_the_saved_game_alone(tmp_path: Path) -> None:
    record = tmp_path / "g.txt"
    run(["play", "rummikub", "--bots", "1", "--seed", "4", "--record", str(record)], "quit\n")
    before = record.read_text()
    status, out, _ = run(["play", "--resume", str(record), "--no-record"], "draw\nquit\n")
    assert status == 0 and "The game was not saved (--no-record)." in out
    elsewhere = tmp_path / "later.txt"
    status, out, _ = run(["play", "rummikub", "--resume", str(record), "--record", str(elsewhere)], "draw\nquit\n")
    assert status == 0 and f"Record saved to {elsewhere}; continue with" in out
    assert record.read_text() == before
    assert read_record(elsewhere.read_text()).actions[: len(read_record(before).actions)] == read_record(before).actions


def test_an_older_record_without_seats_resumes_with_the_seats_asked_for(tmp_path: Path) -> None:
    state = rummykit.new_game("rummikub", players=3, seed=8)
    for _ in range(4):
        step(state, [make_bot("random", "rummikub")] * 3, [Rng(1), Rng(2), Rng(3)])
    record = tmp_path / "old.txt"
    record.write_text(write_record(state))  # no seat lines, as records were before
    status, out, err = run(["play", "--resume", str(record)], "quit\n")
    assert status == 0, err
    assert f"{record} does not say who sat where (an older record), so the seats are: P1 (person)," in out
    # Saving it again wrote the seats down: from now on the record says who sits where.
    assert [s.bot for s in parse_record(record.read_text()).seats or []] == [None, "greedy", "greedy"]
    status, _, err = run(["play", "--resume", str(record), "--bots", "3"])
    assert status == 2 and "drop --bots" in err

    other = tmp_path / "other.txt"
    other.write_text(write_record(state))
    status, out, err = run(["play", "--resume", str(other), "--players", "3", "--bots", "3"])
    assert status == 0, err
    assert "The bots play to the end." in out and "Game over:" in out
    assert [s.bot for s in parse_record(other.read_text()).seats or []] == ["greedy"] * 3
    status, _, err = run(["play", "--resume", str(record.with_name("x")), "--players", "3", "--bots", "4"])
    assert status == 2


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--seed", "3"], "--resume continues the game as saved"),
        (["--bots", "2"], "drop --bots"),
        (["--option", "jokers=1"], "drop --option"),
        (["--names", "a,b"], "drop --names"),
        (["--players", "2"], "drop --players"),
    ],
)
def test_resume_refuses_what_the_record_decides(extra: list[str], needle: str, tmp_path: Path) -> None:
    record = tmp_path / "g.txt"
    run(["play", "rummikub", "--bots", "1", "--seed", "4", "--record", str(record)], "quit\n")
    status, out, err = run(["play", "--resume", str(record), *extra])
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and needle in err


def test_resume_bad_inputs_are_one_line(tmp_path: Path) -> None:
    finished = tmp_path / "done.txt"
    run(["play", "rummikub", "--players", "2", "--bots", "2", "--seed", "1", "--record", str(finished)])
    unknown = tmp_path / "unknown.txt"
    text = rummykit.new_game("rummikub", players=2, seed=1)
    unknown.write_text(write_record(text, [Seat(), Seat("wizard", 5, 0)]))
    going = tmp_path / "going.txt"
    going.write_text(write_record(text, [Seat(), Seat("random", 5, 0)]))
    broken = tmp_path / "broken.txt"
    broken.write_text(write_record(text).replace("seed: 1", "seed: one"))
    cases = [
        (["play", "--resume", str(tmp_path / "none.txt")], "cannot resume"),
        (["play", "--resume", str(finished)], "holds a finished game: nothing to resume (see it with: rummykit replay"),
        (["play", "conveyor", "--resume", str(going)], "is a game of rummikub, not conveyor"),
        (["play", "--resume", str(unknown)], "line 10: unknown bot level 'wizard'"),
        (["play", "--resume", str(broken)], "cannot resume"),
        (["play", "--resume", str(tmp_path)], "cannot resume"),
    ]
    for argv, needle in cases:
        status, out, err = run(argv)
        assert status == 2 and out == "", argv
        assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err, err


# -- the seat lines of a record ------------------------------------------------------------


def test_seat_lines_replay_and_old_readers_get_a_clear_error() -> None:
    state = rummykit.new_game("rummikub", players=2, seed=5)
    text = write_record(state, [Seat(), Seat("greedy", 77, 12)])
    assert "seat 0: person\nseat 1: bot greedy, seed 77, draws 12\n" in text
    assert read_record(text).snapshot() == state.snapshot()
    assert parse_record(text).seats == [Seat(), Seat("greedy", 77, 12)]
    assert parse_record(write_record(state)).seats is None


@pytest.mark.parametrize(
    ("lines", "needle"),
    [
        ("seat 0: person\n", "seat 1 has no line"),
        ("seat 0: person\nseat 1: person\nseat 2: person\n", "there is no seat 2 among 2 players"),
        ("seat 0: person\nseat 0: person\n", "seat 0 given twice"),
        ("seat 0: robot\nseat 1: person\n", "a seat is 'person' or 'bot LEVEL, seed S, draws N'"),
        ("seat 0: person\nseat 1: bot greedy, seed x, draws 1\n", "whole numbers"),
        ("seat 0: person\nseat 1: bot greedy, seed 1, draws -1\n", "draws 0 or more"),
        ("seat one: person\n", "seat line is 'seat N: ...'"),
    ],
)
def test_bad_seat_lines_are_reported_by_line(lines: str, needle: str) -> None:
    text = write_record(rummykit.new_game("rummikub", players=2, seed=5)).replace("\n\n", "\n" + lines + "\n", 1)
    with pytest.raises(RecordError, match="line") as info:
        read_record(text)
    assert needle in info.value.reason


def test_a_generator_skips_to_where_it_stood() -> None:
    rng = Rng(99)
    for n in (1, 2, 7, 1000, 2**40, 2**70):
        rng.below(n)
    items = list(range(50))
    rng.shuffle(items)
    again = Rng(99)
    again.skip(rng.draws)
    assert again.getstate() == rng.getstate() and again.draws == rng.draws
    assert [again.below(1000) for _ in range(20)] == [rng.below(1000) for _ in range(20)]
    big = Rng(3)
    for _ in range(10_000):
        big.below(6)
    skipped = Rng(3)
    skipped.skip(big.draws)  # more than 10,000: below(6) draws again after 6 and 7
    assert big.draws > 10_000
    assert skipped.getstate() == big.getstate()
