"""The ``rummykit`` command, driven in-process with scripted input (and once as a real subprocess)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, TextIO, cast

import pytest
from conftest import as_game

import rummykit
from rummykit.blocks.table import TableDraft
from rummykit.bots.base import make_bot
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.cli.render import use_color
from rummykit.cli.saving import records_folder
from rummykit.engine.core import GameState
from rummykit.engine.driver import step
from rummykit.errors import RummykitError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import format_tiles, parse_tiles
from rummykit.presenters import presenter_for
from rummykit.presenters.freetable import TableDisplay, describe_event
from rummykit.presenters.rummikub import KIT as RUMMIKUB_KIT
from rummykit.presenters.text import Style, signed
from rummykit.presenters.turn import Turn
from rummykit.records import Seat, read_record, write_record
from rummykit.rulesets.rummikub import Fail, Play, Rummikub, from_position, rack_sets
from rummykit.sim import bot_rng, run_bots

PROMPT = "P1's turn> "


def run(argv: list[str], script: str = "", environ: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run the command in-process (``environ``: the environment it sees, empty by default); (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ=environ or {})
    return status, out.getvalue(), err.getvalue()


def answers(out: str, prompt: str = PROMPT) -> list[list[str]]:
    """What the program printed after each scripted line: [echoed line, response lines...] per prompt."""
    return [segment.splitlines() for segment in out.split(prompt)[1:]]


def seed_with_initial_meld(points: int = 30) -> tuple[int, tuple[Any, ...]]:
    """A seed whose seat 0 (the person) holds one set worth the initial meld."""
    for seed in range(500):
        rack = parse_tiles(rummykit.new_game("rummikub", players=2, seed=seed).view(0)["rack"])
        for s in rack_sets(rack):
            if check_tiles(s).points >= points:
                return seed, s
    raise AssertionError("no seed below 500 deals seat 0 a 30-point set")


# -- games and rules ---------------------------------------------------------------


def test_games_lists_every_registered_game_on_one_line_each() -> None:
    status, out, err = run(["games"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(rummykit.games())
    for line, info in zip(lines, rummykit.games(), strict=True):
        assert line.startswith(info.id + " ")
        assert info.name in line and info.summary in line
        span = f"{info.min_players}-{info.max_players}" if info.min_players < info.max_players else f"{info.min_players}"
        assert f"({span} players)" in line


def rules_text(game: str, columns: int) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(["rules", game], stdout=out, stderr=err, environ={"COLUMNS": str(columns)}) == 0
    assert err.getvalue() == ""
    return out.getvalue()


def test_rules_lists_every_option_with_default_range_and_help() -> None:
    out = rules_text("rummikub", 200)
    flat = " ".join(out.split())  # the same words at any width
    info = rummykit.find_game("rummikub")
    assert info.name in out and info.summary in out
    assert "Players: 2 to 4" in out
    for name, default in (("jokers", "2"), ("initial_meld_points", "30"), ("target", "none")):
        line = next(x for x in out.splitlines() if x.strip().startswith(name + " "))
        assert f"default {default};" in line
    for spec in info.options:
        assert spec.describe_range() in flat
        assert " ".join(spec.help.split()) in flat
    assert "rummikub.md" in out.splitlines()[-1]
    assert " ".join(rules_text("rummikub", 40).split()) == flat


def test_rules_accepts_an_alias() -> None:
    status, out, _ = run(["rules", "RK"])
    assert status == 0 and "[id: rummikub" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rules", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "rummikub", "--bots", "1", "--option", "jokers=9"], "option jokers needs a whole number 0..4, got 9"),
        (["play", "rummikub", "--bots", "1", "--option", "jokers"], "KEY=VALUE"),
        (["play", "rummikub", "--bots", "1", "--option", "joker=1"], "unknown option 'joker'"),
        (["play", "rummikub", "--bot", "nobody"], "unknown bot level 'nobody'"),
        (["play", "rummikub", "--players", "5", "--bots", "1"], "--players 5: rummikub is for 2 to 4 players"),
        (["play", "rummikub", "--players", "1", "--bots", "2"], "--players 1: rummikub is for 2 to 4 players"),
        (["play", "rummikub", "--players", "-1"], "--players -1: rummikub is for 2 to 4 players (people and bots"),
        (["play", "rummikub", "--players", "0", "--bots", "0"], "--players 0: rummikub is for 2 to 4 players"),
        (["play", "conveyor", "--players", "9"], "--players 9: conveyor is for 2 to 4 players"),
        (["play", "rummikub", "--players", "3", "--bots", "4"], "4 bots do not fit in 3 seats (--players 3"),
        (["play", "rummikub", "--players", "2", "--bot", "random", "--bot", "random", "--bot", "random"],
         "3 bots do not fit in 2 seats"),
        (["play", "rummikub", "--bots", "4"], "--bots 4 and you make 5 players, but rummikub is for 2 to 4 players"),
        (["play", "rummikub", "--bots", "0"], "--bots 0 and you make 1 player, but rummikub is for 2 to 4"),
        (["play", "rummikub", "--bots", "-1"], "--bots needs 0 or more, got -1"),
        (["play"], "name a game (rummykit play GAME"),
        (["play", "rummikub", "--record", "r.txt", "--no-record"], "not allowed with argument"),
        (["play", "rummikub", "--bots", "1", "--seed", "-4"], "a seed is a whole number"),
        (["play", "rummikub", "--bots", "1", "--names", "a,b,c"], "3 names for 2 seats"),
        (["play", "rummikub", "--bots", "1", "--names", "a,a"], "names must differ"),
        (["play", "rummikub", "--bots", "1", "--record", "/no/such/folder/r.txt"], "cannot save a record"),
        (["play", "rummikub", "--bots", "1", "--bot", "random"], "not allowed with argument"),
        (["play", "rummikub", "--bots", "two"], "invalid int value"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_command_lines_give_one_line_and_status_2(argv: list[str], needle: str) -> None:
    status, out, err = run(argv)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert needle in err
    assert "Traceback" not in err


def test_no_command_prints_usage_and_status_2() -> None:
    status, _, err = run([])
    assert status == 2 and "name a command" in err


# -- unattended bot games -----------------------------------------------------------


def test_all_bot_game_runs_to_the_end_and_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    argv = ["play", "rummikub", "--players", "2", "--bot", "random", "--bot", "random", "--seed", "1"]
    status, out, err = run([*argv, "--record", str(record)])
    assert status == 0, err
    assert err == ""
    assert "Game over:" in out and "Final scores:" in out
    assert f"Record saved to {record}" in out
    assert "Seed 1" in out

    replayed = read_record(record.read_text())
    assert replayed.outcome is not None
    # The same game as the simulator plays it, from the same seed and bot generators.
    expected = run_bots(rummykit.new_game("rummikub", players=2, seed=1), [make_bot("random", "rummikub")] * 2)
    assert replayed.snapshot() == expected.snapshot()
    # The record says who sat where, and where each bot's generator stood at the end.
    again = rummykit.new_game("rummikub", players=2, seed=1)
    rngs = [bot_rng(1, seat) for seat in range(2)]
    while again.outcome is None:
        step(again, [make_bot("random", "rummikub")] * 2, rngs)
    seats = [Seat("random", rng.seed, rng.draws) for rng in rngs]
    assert all(seat.draws > 0 for seat in seats)
    assert write_record(expected, seats) == record.read_text()

    # Final scores printed are the engine's.
    final = out[out.index("Final scores:") :]
    assert expected.outcome is not None
    for seat, total in enumerate(expected.outcome.totals):
        assert re.search(rf"P{seat + 1}\s+score\s+{re.escape(signed(total))}\s+total\s+{re.escape(signed(total))}\n", final)
    # Only public information: a bot's drawn tile is never printed.
    draws = [line for line in out.splitlines() if " draws " in line]
    assert draws and all("draws a tile" in line for line in draws)
    # Every play line is followed by the table.
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if " plays " in line and "onto the table" in line:
            assert lines[i + 1].strip().startswith("table: [1]")


def test_all_bot_game_without_a_seed_prints_the_random_seed_and_reproduces(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    environ = {"RUMMYKIT_RECORDS": str(folder)}
    status, out, _ = run(["play", "rummikub", "--players", "2", "--bots", "2"], environ=environ)
    assert status == 0
    seed = int(re.search(r"Seed (\d+) ", out).group(1))  # type: ignore[union-attr]
    saved = folder / f"rummykit-rummikub-{seed}.txt"
    assert saved.is_file()
    assert f"Record saved to {saved} (replay it with: rummykit replay {saved})" in out
    # The same seed gives the same game; the second record does not overwrite the first, and says so.
    status, again, _ = run(["play", "rummikub", "--players", "2", "--bots", "2", "--seed", str(seed)], environ=environ)
    assert status == 0
    second = folder / f"rummykit-rummikub-{seed}-2.txt"
    assert second.read_text() == saved.read_text()
    assert f"{saved} already exists: rummykit never overwrites a record." in again
    assert f"Record saved to {second} (replay" in again

    def game(text: str) -> list[str]:
        return [line for line in text.splitlines()[1:] if "Record saved" not in line and "already exists" not in line]

    assert game(again) == game(out)


def test_records_go_to_the_user_data_folder_by_default(tmp_path: Path) -> None:
    status, out, _ = run(["play", "rummikub", "--players", "2", "--bots", "2", "--seed", "4"], environ={"HOME": str(tmp_path)})
    assert status == 0
    folder = records_folder({"HOME": str(tmp_path)})
    assert folder.is_relative_to(tmp_path) and folder.name == "records" and folder.parent.name == "rummykit"
    assert (folder / "rummykit-rummikub-4.txt").is_file()
    assert f"Record saved to {folder / 'rummykit-rummikub-4.txt'}" in out


def test_an_existing_record_file_is_never_overwritten(tmp_path: Path) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("my notes\n")
    argv = ["play", "rummikub", "--players", "2", "--bots", "2", "--seed", "4", "--record", str(mine)]
    status, out, err = run(argv)
    assert status == 0, err
    assert mine.read_text() == "my notes\n"
    taken = tmp_path / "mine-2.txt"
    assert out.splitlines()[0] == f"{mine} already exists: this game will be saved as {taken} (a record is never overwritten)."
    assert f"Record saved to {taken} (replay" in out
    assert read_record(taken.read_text()).outcome is not None
    # A folder given with --record takes the default name inside it.
    status, out, _ = run([*argv[:-1], str(tmp_path)])
    assert status == 0 and (tmp_path / "rummykit-rummikub-4.txt").is_file()


def test_a_file_that_appears_while_the_game_is_played_is_not_overwritten(tmp_path: Path) -> None:
    record = tmp_path / "late.txt"

    class Sneaky:
        """Input whose first line comes after another program wrote the record's file."""

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            record.write_text("someone else's\n")
            return "quit\n"

    out = io.StringIO()
    status = main(["play", "rummikub", "--bots", "1", "--seed", "3", "--record", str(record)],
                  stdin=cast(TextIO, Sneaky()), stdout=out, stderr=io.StringIO(), environ={})
    assert status == 0
    assert record.read_text() == "someone else's\n"
    assert f"{record} already exists: rummykit never overwrites a record." in out.getvalue()
    assert read_record((tmp_path / "late-2.txt").read_text()).seed == 3


def test_a_records_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    status, out, err = run(["play", "rummikub", "--bots", "1"], "quit\n", {"RUMMYKIT_RECORDS": str(blocker / "records")})
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert f"cannot create the records folder {blocker / 'records'}" in err and "--no-record" in err


def test_no_record_saves_nothing(tmp_path: Path) -> None:
    environ = {"RUMMYKIT_RECORDS": str(tmp_path)}
    status, out, err = run(["play", "rummikub", "--bots", "1", "--seed", "3", "--no-record"], "draw\nquit\n", environ)
    assert status == 0, err
    assert list(tmp_path.iterdir()) == []
    assert "The game was not saved (--no-record)." in out and "Record saved" not in out


def test_unattended_game_of_another_game_uses_its_own_words(tmp_path: Path) -> None:
    record = tmp_path / "other.txt"
    argv = ["play", "domino-rummikub", "--players", "3", "--bots", "3", "--seed", "2", "--record", str(record)]
    status, out, err = run(argv)
    assert status == 0, err
    assert "Game over:" in out and "(starting group)" in out
    assert "draws a domino (boneyard: " in out and "tile" not in out
    assert read_record(record.read_text()).outcome is not None


# -- a person at the keyboard --------------------------------------------------------


def test_person_game_bad_input_changes_nothing_then_draws_and_quits(tmp_path: Path) -> None:
    record = tmp_path / "p.txt"
    state0 = rummykit.new_game("rummikub", players=2, seed=5)
    rack = state0.view(0)["rack"]
    two = f"{rack[0]} {rack[-1]}"  # two tiles of the rack: never a valid set
    script = "\n".join(
        [
            "frobnicate",  # unknown command
            "new X99",  # bad tile
            "add 7 " + rack[0],  # no such set
            "split 1",  # bad use
            "commit",  # nothing placed yet
            f"new {two}",  # a draft step (accepted; marks the set invalid)
            "commit",  # illegal: the set is invalid
            "reset",
            "draw",
            "quit",
        ]
    )
    status, out, err = run(["play", "rummikub", "--bot", "random", "--seed", "5", "--record", str(record)], script + "\n")
    assert status == 0, err
    assert "Traceback" not in out + err
    replies = {a[0]: a[1:] for a in answers(out) if a}
    for bad in ("frobnicate", "new X99", "add 7 " + rack[0], "split 1", "commit"):
        assert bad in replies
    assert replies["frobnicate"] == ["! unknown command 'frobnicate'; type `help` for the commands"]
    assert len(replies["new X99"]) == 1 and "bad tile 'X99'" in replies["new X99"][0]
    assert len(replies["add 7 " + rack[0]]) == 1 and "there is no set 7" in replies["add 7 " + rack[0]][0]
    assert len(replies["split 1"]) == 1 and "write 'split SET POSITION'" in replies["split 1"][0]
    # The second `commit` (after the invalid set) is the one kept in the dict: one message, laid out to the width.
    assert replies["commit"][0].startswith("! Cannot commit: set ") and "`penalty`" in " ".join(replies["commit"])
    assert all(len(line) <= 80 for line in replies["commit"])
    draft_reply = replies[f"new {two}"]
    assert any("INVALID" in line for line in draft_reply)
    # P1 drew its own tile and sees which; the record holds only P1's draw, then quit saved it.
    assert re.search(r"^P1 draws [KBOR]\d+ |^P1 draws J ", out, re.M)
    bot_draws = [line for line in out.splitlines() if line.startswith("P2 draws")]
    assert all(line.startswith("P2 draws a tile") for line in bot_draws)
    assert "Stopped at your request." in out
    replayed = read_record(record.read_text())
    assert [str(a) for a in replayed.actions if a.player == 0] == ["0 draw"]


def test_a_real_initial_meld_from_the_known_rack_is_committed(tmp_path: Path) -> None:
    seed, meld = seed_with_initial_meld()
    record = tmp_path / "meld.txt"
    script = f"new {format_tiles(meld)}\ncheck\ncommit\nquit\n"
    status, out, err = run(["play", "rummikub", "--bot", "random", "--seed", str(seed), "--record", str(record)], script)
    assert status == 0, err
    replies = {a[0]: a[1:] for a in answers(out) if a}
    assert replies["check"] == ["The table is valid: `commit` ends your turn with it."]
    assert "(initial meld)" in "\n".join(replies["commit"])
    replayed = read_record(record.read_text())
    plays = [a for a in replayed.actions if a.player == 0 and isinstance(a, Play)]
    assert len(plays) == 1 and sorted(plays[0].placed) == sorted(meld)
    assert as_game(replayed, Rummikub).view(None)["down"][0] is True


def test_end_of_input_saves_the_record_and_exits_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "eof.txt"
    status, out, err = run(["play", "rummikub", "--bots", "1", "--seed", "9", "--record", str(record)], "draw\n")
    assert status == 0 and err == ""
    assert "Input ended" in out
    assert read_record(record.read_text()).actions  # at least the draws so far


class _Interrupting:
    """Standard input whose first read is interrupted by Ctrl-C."""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_saves_the_record_and_exits_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "int.txt"
    out, err = io.StringIO(), io.StringIO()
    status = main(
        ["play", "rummikub", "--bots", "1", "--seed", "9", "--record", str(record)],
        stdin=cast(TextIO, _Interrupting()),
        stdout=out,
        stderr=err,
        environ={},
    )
    assert status == 130
    assert "Interrupted" in out.getvalue() and "Traceback" not in err.getvalue()
    assert read_record(record.read_text()).seed == 9
    assert out.getvalue().rstrip().endswith(f"Record saved to {record}; continue with: rummykit play --resume {record}")


def test_hot_seat_asks_to_pass_the_screen_and_shows_only_the_own_rack(tmp_path: Path) -> None:
    state0 = rummykit.new_game("rummikub", players=["Ann", "Bob"], seed=3)
    first = state0.view(None)["turn"]
    assert first is not None
    racks = {name: sorted(state0.view(seat)["rack"]) for seat, name in enumerate(state0.players)}
    script = "\n" + "draw\n" + "\n" + "\n" + "quit\n"  # ready, draw, hide, ready, quit
    status, out, _ = run(
        ["play", "rummikub", "--players", "2", "--names", "Ann,Bob", "--seed", "3", "--record", str(tmp_path / "h")],
        script,
    )
    assert status == 0
    first_name, second_name = state0.players[first], state0.players[1 - first]
    assert f"Pass the screen to {first_name}" in out and f"Pass the screen to {second_name}" in out
    assert "press Enter to hide your rack" in out
    shown = re.findall(r"--- (\w+)'s turn ---.*?Your rack \(by colour\): (.*?)  \[", out, re.S)
    assert [name for name, _ in shown] == [first_name, second_name]
    assert sorted(shown[0][1].split()) == racks[first_name]
    second_rack = sorted(shown[1][1].split())
    assert second_rack == racks[second_name]  # the second player has not drawn yet
    # The first player's drawn tile is shown to them only during their own turn.
    assert f"{first_name} draws " in out


def test_the_drafting_commands_work_for_domino_rummikub_too(tmp_path: Path) -> None:
    record = tmp_path / "dr.txt"
    script = "sort pips\npenalty\nnew 9-9\ndraw\nquit\n"
    argv = ["play", "domino-rummikub", "--bot", "random", "--seed", "3", "--record", str(record)]
    status, out, err = run(argv, script)
    assert status == 0, err
    replies = {a[0]: a[1:] for a in answers(out) if a}
    assert replies["sort pips"][0].startswith("Your rack (by pips): ")
    assert replies["penalty"] == ["! unknown command 'penalty'; type `help` for the commands"]
    assert len(replies["new 9-9"]) == 1 and "9-9" in replies["new 9-9"][0]
    assert re.search(r"^P1 draws \d-\d \(boneyard: \d+\)$", out, re.M)
    assert [str(a) for a in read_record(record.read_text()).actions if a.player == 0] == ["0 draw"]


class _OpenClaims(Rummikub):
    """Rummikub in which every seat but the one to play may act out of turn (to exercise claims)."""

    @property
    def may_act(self) -> frozenset[int]:
        if self.outcome is not None:
            return frozenset()
        return frozenset(range(len(self.players))) - self.must_act


class _Watcher:
    """A bot that may claim (it never does) and otherwise plays at random."""

    level = "watcher"

    def __init__(self) -> None:
        self.offers: list[int] = []
        self.bot = make_bot("random", "rummikub")

    def choose(self, view: Any, rng: Any) -> Any:
        return self.bot.choose(view, rng)

    def claim(self, view: Any, rng: Any) -> None:
        self.offers.append(view["seat"])
        return None


@pytest.mark.parametrize(("script", "claimed"), [("draw\n\nquit\n", False), ("draw\ndraw\nquit\n", True)])
def test_seats_that_may_act_out_of_turn_are_offered_a_claim_first(script: str, claimed: bool, tmp_path: Path) -> None:
    state = from_position(POSITION)
    state.__class__ = _OpenClaims
    watcher = _Watcher()
    out = io.StringIO()
    record = tmp_path / "claims.txt"
    status = Session(state, [None, watcher], Console(io.StringIO(script), out, io.StringIO()), Style(),
                     record_path=record).run()
    text = out.getvalue()
    assert status == 0 and "Traceback" not in text
    assert text.count("--- P1's claim ---") == 1 and text.count("P1's claim> ") == 1
    assert "an empty line lets the chance pass" in text
    actions = [str(a) for a in state.actions]
    if claimed:
        assert actions == ["0 draw", "0 draw"] and watcher.offers == [1, 1]
    else:
        assert actions[0] == "0 draw" and actions[1].startswith("1 ") and len(actions) == 2
        assert watcher.offers == [1, 1]  # asked before each of the person's turns


@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("game", [g.id for g in rummykit.games()])
def test_rules_prints_the_rules_notation_options_and_page_of_every_game(game: str, columns: int) -> None:
    out = rules_text(game, columns)
    flat = " ".join(out.split())
    info = rummykit.find_game(game)
    presenter = presenter_for(game)
    assert out.startswith(info.name.split()[0])
    assert presenter.rules_lines() and presenter.notation_lines()
    for paragraph in [*presenter.rules_lines(), *presenter.notation_lines()]:
        assert " ".join(paragraph.split()) in flat
    for spec in info.options:
        assert f" {spec.name} " in f" {flat} "
        assert f"default {spec.format(spec.default)}; allowed: {spec.describe_range()}" in flat
        assert " ".join(spec.help.split()) in flat
    assert info.rules_page in out
    for line in out.splitlines():
        assert len(line) <= columns or " " not in line.strip(), line


def test_rules_says_what_the_notation_means() -> None:
    flat = " ".join(rules_text("rummikub", 80).split())
    assert "K black, B blue, O orange, R red" in flat and "J is a joker" in flat
    flat = " ".join(rules_text("domino-rummikub", 80).split())
    assert "low first: 3-5" in flat and "0-0 and 6-6 are jokers" in flat
    flat = " ".join(rules_text("conveyor", 80).split())
    assert "set default none; allowed: 6, 9 or 12, or none" in flat
    assert "a whole number 6..12" not in flat
    assert "Columns, cells and melds are numbered from 1" in flat


# -- the draft commands ---------------------------------------------------------------


POSITION = "table: R1 R2 R3 R4 | K5 B5 O5; racks: R5 K9 O9 B9 / B1 B2; pool: seed 5; turn: 0; down: 11"


def table_draft(turn: Turn) -> TableDraft[Any]:
    """The table draft a free-table turn builds."""
    assert isinstance(turn.display, TableDisplay)
    return turn.display.draft


def _turn(state: GameState, seat: int = 0) -> tuple[Turn, list[str]]:
    said: list[str] = []
    turn = Turn(
        state.view(seat),
        info=state.info,
        display=TableDisplay(RUMMIKUB_KIT),
        say=lambda *lines: said.extend(lines),
        style=Style(),
        labels=["you", "bot"],
    )
    return turn, said


@pytest.mark.parametrize(
    "line",
    ["", "bogus", "new", "new Q1", "new R5 R5", "add 9 R5", "add 1", "move R5 1 2", "move R1 3 1", "move R1 1",
     "split 1 1", "split 1 5", "split x 2", "merge 1 1", "merge 1 5", "back R1", "undo", "reset", "sort sideways",
     "commit", "draw now", "show me"],
)
def test_bad_draft_input_raises_or_is_ignored_and_changes_nothing(line: str) -> None:
    state = from_position(POSITION)
    before = state.snapshot()
    turn, said = _turn(state)
    sets, rack = [list(s) for s in table_draft(turn).sets], list(table_draft(turn).rack)
    if line:
        with pytest.raises(RummykitError):
            turn.command(line)
    else:
        assert turn.command(line) is None
    assert said == []
    assert [list(s) for s in table_draft(turn).sets] == sets and table_draft(turn).rack == rack
    assert state.snapshot() == before


def test_draft_commands_use_set_numbers_from_one() -> None:
    state = from_position(POSITION)
    turn, said = _turn(state)
    assert turn.command("add 1 R5") is None
    assert [str(t) for t in table_draft(turn).sets[0]] == ["R1", "R2", "R3", "R4", "R5"]
    turn.command("split 1 4")  # before the 4th tile: the tail is a new set 3, set 2 keeps its number
    assert [[str(t) for t in s] for s in table_draft(turn).sets] == [["R1", "R2", "R3"], ["K5", "B5", "O5"], ["R4", "R5"]]
    assert any("<- INVALID" in line and line.strip().startswith("3 ") for line in said)
    turn.command("merge 1 3")
    assert [str(t) for t in table_draft(turn).sets[0]] == ["R1", "R2", "R3", "R4", "R5"]
    assert table_draft(turn).sets[2] == []  # an empty slot until the commit: no set changes its number
    turn.command("new K9 O9 B9")
    turn.command("move R5 1 new")
    assert [str(t) for t in table_draft(turn).sets[-1]] == ["R5"]
    turn.command("back R5")
    assert "R5" in [str(t) for t in table_draft(turn).rack]
    turn.command("undo")
    turn.command("undo")
    turn.command("sort number")
    assert turn.order == "number"
    action = turn.command("commit")
    assert isinstance(action, Play)
    events = state.apply(action)
    assert events[0].kind == "play" and state.view(None)["rack_sizes"][0] == 0


def test_penalty_commit_through_a_session(tmp_path: Path) -> None:
    state = from_position(POSITION)
    record = tmp_path / "pen.txt"
    out = io.StringIO()
    console = Console(io.StringIO("add 2 K9\ncommit\npenalty\nquit\n"), out, io.StringIO())
    bot = make_bot("random", "rummikub")
    status = Session(state, [None, bot], console, Style(), record_path=record).run()
    assert status == 0
    text = out.getvalue()
    replies = {a[0]: a[1:] for a in answers(text) if a}
    said = " ".join(" ".join(replies["commit"]).split())
    assert replies["commit"][0].startswith("! Cannot commit: ") and "`penalty` commits anyway" in said
    flat = " ".join(text.split())  # narration is laid out to the width (80 here)
    assert "draws 3 penalty tiles" in flat and "drawn: " in flat
    assert any(isinstance(a, Fail) for a in state.actions)
    assert read_record(record.read_text()).snapshot() == state.snapshot()


@pytest.mark.parametrize("game", [info.id for info in rummykit.games()])
def test_every_game_answers_hint_at_the_prompt_and_plays_nothing(game: str) -> None:
    status, out, err = run(["play", game, "--bots", "1", "--seed", "2", "--no-record"], "hint\nquit\n")
    assert status == 0 and "Traceback" not in out + err, err
    assert presenter_for(game).hint
    reply = out.split("> hint\n", 1)[1].splitlines()
    assert reply and not reply[0].startswith("!") and "hint" in reply[0].lower(), reply
    assert "> quit" in out  # asked again: the hint played nothing


@pytest.mark.parametrize("width", [40, 60, 100])
def test_cannot_commit_is_broken_between_words_to_the_terminal_width(width: int) -> None:
    # the line prompt in a terminal `width` columns wide (make_style gives the session that width)
    state = from_position(POSITION)
    out = io.StringIO()
    console = Console(io.StringIO("add 2 K9\ncommit\nquit\n"), out, io.StringIO())
    status = Session(state, [None, make_bot("random", "rummikub")], console, Style(width=width), record=False).run()
    assert status == 0
    reply = {a[0]: a[1:] for a in answers(out.getvalue()) if a}["commit"]
    assert reply[0].startswith("! Cannot commit:"), reply
    assert all(len(line) <= width for line in reply), reply
    # broken only between words: each further line indented 4, and the words read as one message
    assert all(line.startswith("    ") and not line.startswith("     ") for line in reply[1:]), reply
    said = " ".join(line.strip() for line in reply)
    assert said == (
        "! Cannot commit: set 2: K5 B5 O5 K9 is neither a group (one number, different colours) nor a run (one"
        " colour, consecutive numbers) (rule RK-SET-KIND); fix it, or `penalty` commits anyway (table restored,"
        " you draw 3)."
    )
    assert state.actions == []
    # several problems: the heading and each problem laid out to the width too
    out = io.StringIO()
    console = Console(io.StringIO("new K9 O9\nadd 2 B9\ncommit\nquit\n"), out, io.StringIO())
    Session(from_position(POSITION), [None, make_bot("random", "rummikub")], console, Style(width=width), record=False).run()
    reply = {a[0]: a[1:] for a in answers(out.getvalue()) if a}["commit"]
    assert reply[0].startswith("! Cannot commit, 2 problems") and len(reply) >= 3, reply
    assert all(len(line) <= width for line in reply), reply


# -- rendering -------------------------------------------------------------------------


def test_other_seats_never_see_a_drawn_tile() -> None:
    state = rummykit.new_game("rummikub", players=2, seed=4)
    seat = min(state.to_act)
    (event,) = state.apply(state.parse_action(f"{seat} draw"))
    public = "\n".join(describe_event(event.seen_by(None), state.players, Style()))
    other = "\n".join(describe_event(event.seen_by(1 - seat), state.players, Style()))
    own = "\n".join(describe_event(event.seen_by(seat), state.players, Style()))
    tile = state.racks[seat][-1]
    assert "draws a tile" in public and public == other
    assert f"draws {tile}" in own


def test_colour_only_on_a_terminal_without_no_color() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert use_color(Tty(), environ={}) is True
    assert use_color(Tty(), environ={"NO_COLOR": "1"}) is False
    assert use_color(Tty(), no_color=True, environ={}) is False
    assert use_color(io.StringIO(), environ={}) is False
    coloured = Style(color=True).pieces(["R7", "K13", "J"])
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == "R7 K13 J"  # the letters are always there


# -- replay ----------------------------------------------------------------------------


def _good_record(tmp_path: Path) -> Path:
    record = tmp_path / "good.txt"
    status, _, _ = run(
        ["play", "rummikub", "--players", "2", "--bot", "random", "--bot", "random", "--seed", "1", "--record", str(record)]
    )
    assert status == 0
    return record


def test_replay_of_a_good_record_summary_and_verbose(tmp_path: Path) -> None:
    record = _good_record(tmp_path)
    state = read_record(record.read_text())
    status, out, err = run(["replay", str(record)])
    assert status == 0 and err == ""
    assert f"{len(state.actions)} actions" in out and "Game over:" in out
    status, verbose, _ = run(["replay", str(record), "--verbose"])
    assert status == 0
    numbered = re.findall(r"^line (\d+): ", verbose, re.M)
    assert len(numbered) == len(state.actions)
    assert "Game over:" in verbose
    assert not re.search(r"draws [KBOR]\d|draws J", verbose)


def test_replay_reports_the_illegal_line(tmp_path: Path) -> None:
    lines = _good_record(tmp_path).read_text().splitlines()
    first_action = lines.index("") + 2  # 1-based number of the first action line
    seat = int(lines[first_action - 1].split()[0])
    bad = list(lines)
    bad[first_action] = f"{seat} draw"  # the same seat again: not its turn
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(bad) + "\n")
    status, out, err = run(["replay", str(path)])
    assert status == 2 and out == ""
    assert err.startswith(f"{path}: line {first_action + 1}: ")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_replay_reports_a_malformed_header(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_text("rummykit record 1\ngame: rummikub\nseed: many\nplayers: a | b\n\n0 draw\n")
    status, _, err = run(["replay", str(path)])
    assert status == 2 and err.startswith(f"{path}: line 3: ") and len(err.splitlines()) == 1


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    status, out, err = run(["replay", str(tmp_path / "nope.txt")])
    assert status == 2 and out == ""
    assert err == f"{tmp_path / 'nope.txt'}: no such file\n"


# -- the real entry point --------------------------------------------------------------


def test_python_dash_m_rummykit_games() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "games"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^rummikub +Rummikub .*\(2-4 players\): ", done.stdout, re.M), done.stdout
