"""The prompt at a real terminal (driven through a pseudo-terminal): editing, history, tab completion.

And the other side of it: piped input is read as before, with no terminal
codes. The completion words come from each game's presenter, tested here for
every game.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.cli.lineedit import complete_word
from rummykit.presenters import presenter_for
from rummykit.presenters.text import Style

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
UP = "\x1b[A"
CTRL_L = "\x0c"


class Terminal:
    """``python -m rummykit ARGS`` in a pseudo-terminal: type into it and read what it shows."""

    def __init__(self, args: list[str], tmp: Path) -> None:
        env = {
            **os.environ,
            "TERM": "xterm",
            "INPUTRC": os.devnull,  # the person's own readline settings play no part
            "PYTHONPATH": str(ROOT / "src"),
            "RUMMYKIT_RECORDS": str(tmp),
            "NO_COLOR": "1",
        }
        pid, fd = pty.fork()
        if pid == 0:  # the child: the program, its terminal the pseudo-terminal
            os.execvpe(sys.executable, [sys.executable, "-m", "rummykit", *args], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        self.raw = ""
        self.seen = 0

    def send(self, keys: str) -> None:
        """Type ``keys`` once the program is reading them (see :meth:`wait_reading`)."""
        self.wait_reading()
        os.write(self.fd, keys.encode())

    def wait_reading(self, timeout: float = 30.0) -> None:
        """Wait until the terminal is out of line mode: readline is then reading key by key.

        Keys typed while the terminal is still in line mode (readline has
        printed its prompt but not yet switched the terminal over) are
        echoed and buffered by the terminal itself and may be lost or doubled
        when readline takes over, so a test types only after the switch.
        """
        deadline = time.monotonic() + timeout
        while termios.tcgetattr(self.fd)[3] & termios.ICANON:
            if time.monotonic() > deadline:
                return  # plain input (no readline): line mode is what it reads in
            time.sleep(0.01)

    def expect(self, pattern: str, timeout: float = 60.0) -> str:
        """Read until ``pattern`` (a regex) shows up after what was already matched; the text up to it."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = regex.search(self.raw, self.seen)
            if m:
                text = self.raw[self.seen : m.end()]
                self.seen = m.end()
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} did not show up; the screen so far:\n{self.raw[self.seen:]!r}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the program ended before {pattern!r}; it showed:\n{self.raw[self.seen:]!r}")
                self.raw += chunk.decode("utf-8", "replace")

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


Open = Callable[[list[str]], Terminal]


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Open]:
    """Opens programs in pseudo-terminals (records into ``tmp_path``) and ends them after the test."""
    opened: list[Terminal] = []

    def open_terminal(args: list[str]) -> Terminal:
        opened.append(Terminal(args, tmp_path))
        return opened[-1]

    yield open_terminal
    for t in opened:
        t.close()


def plain(text: str) -> str:
    """What a person reads: terminal codes, carriage returns and bells taken out."""
    return ANSI.sub("", text).replace("\r", "").replace("\x07", "")


def unique_prefix(seed: int) -> tuple[str, str] | None:
    """A strict prefix of a tile in seat 0's rack that no other tile there begins with, and that tile."""
    rack = sorted(set(rummykit.new_game("rummikub", players=2, seed=seed).view(0)["rack"]))
    for tile in rack:
        for n in range(1, len(tile)):
            prefix = tile[:n]
            if [t for t in rack if t.startswith(prefix)] == [tile]:
                return prefix, tile
    return None


PROMPT = r"P1's turn> "


def test_tab_completes_a_command_and_a_tile_from_the_rack(terminal: Open) -> None:
    seed, (prefix, tile) = next((s, p) for s in range(100) if (p := unique_prefix(s)) is not None)
    term = terminal(["play", "rummikub", "--bots", "1", "--seed", str(seed), "--no-record"])
    term.expect(PROMPT)
    term.send("sor\tn\t\r")  # sort number, from "sor" and "n"
    shown = plain(term.expect(r"Your rack \(by \w+\)"))
    assert "sort number" in shown and shown.endswith("Your rack (by number)")
    term.expect(PROMPT)
    term.send(f"new {prefix.lower()}\t\r")  # e.g. "new b1" + Tab: the one tile of the rack it can be
    shown = plain(term.expect(r"Placed this turn: .*\n|! .*\n"))
    assert f"Placed this turn: {tile}" in shown, shown
    term.expect(PROMPT)
    term.send("quit\r")
    term.expect("Stopped at your request")


def test_tab_completes_a_mummus_command_and_a_card_of_the_hand(terminal: Open) -> None:
    seed = 5
    hand = rummykit.new_game("mummus", players=2, seed=seed).view(0)["hand"]
    card = next(c for c in hand if [h for h in hand if h.startswith(c[:-1])] == [c])  # its rank is unique
    term = terminal(["play", "mummus", "--bots", "1", "--seed", str(seed), "--no-record"])
    term.expect(r"P1's (turn|call|claim)> ")
    term.send("sor\tr\t\r")  # sort rank, from "sor" and "r"
    shown = plain(term.expect(r"Your hand \(\d+ cards, by \w+\)"))
    assert "sort rank" in shown and shown.endswith("by rank)")
    term.expect(r"P1's (turn|call|claim)> ")
    term.send(f"meld {card[:-1].lower()}\t\r")  # the one card of the hand with that rank
    shown = plain(term.expect(r"! .*\n"))
    assert f"meld {card}" in shown  # the engine refused a one-card meld: the card was completed
    term.expect(r"P1's (turn|call|claim)> ")
    term.send("quit\r")
    term.expect("Stopped at your request")


def test_up_arrow_recalls_earlier_lines_and_ctrl_l_is_no_text(terminal: Open) -> None:
    term = terminal(["play", "rummikub", "--bots", "1", "--seed", "5", "--no-record"])
    term.expect(PROMPT)
    term.send("sort number\r")
    term.expect(r"\(by number\)")
    term.expect(PROMPT)
    term.send("sort colour\r")
    term.expect(r"\(by colour\)")
    term.expect(PROMPT)
    term.send(UP + UP + "\r")  # two lines back: sort number
    shown = plain(term.expect(r"Your rack \(by \w+\)"))
    assert shown.endswith("(by number)") and "^[[A" not in shown
    term.expect(PROMPT)
    term.send(CTRL_L + "help\r")  # Ctrl-L clears the screen; the line is still just "help"
    shown = term.expect(r"Commands \(")
    assert "^L" not in shown and CTRL_L not in shown and "unknown command" not in shown
    term.expect(PROMPT)
    term.send("quit\r")
    term.expect("Stopped at your request")


def test_each_seat_has_its_own_history_in_hot_seat(terminal: Open) -> None:
    state = rummykit.new_game("rummikub", players=["Ann", "Bob"], seed=3)
    turn = state.view(None)["turn"]
    assert turn is not None
    first, second = state.players[turn], state.players[1 - turn]
    term = terminal(["play", "rummikub", "--players", "2", "--names", "Ann,Bob", "--seed", "3", "--no-record"])
    term.expect("press Enter when ready")
    term.send("\r")
    term.expect(f"{first}'s turn> ")
    term.send("sort number\r")
    term.expect(f"{first}'s turn> ")
    term.send("draw\r")
    term.expect("press Enter to hide your rack")
    term.send("\r")
    term.expect(f"Pass the screen to {second}.*press Enter when ready")
    term.send("\r")
    term.expect(f"{second}'s turn> ")
    term.send(UP + "\r")  # nothing typed yet by this seat: nothing to recall (not the other's `draw`)
    term.expect(f"{second}'s turn> ")
    term.send("draw\r")
    term.expect("press Enter to hide")
    term.send("\r")
    term.expect(f"Pass the screen to {first}")
    term.send("\r")
    term.expect(f"{first}'s turn> ")
    term.send(UP + UP + "\r")  # the first player's own lines: draw, then sort number
    shown = plain(term.expect(r"Your rack \(by \w+\)"))
    assert shown.endswith("(by number)")
    term.expect(f"{first}'s turn> ")
    term.send("quit\r")
    term.expect("Stopped at your request")
    text = plain(term.raw)
    assert text.count(f"{second} draws") == 1  # only the typed draw: Up recalled nothing for them


def test_piped_input_is_read_plainly(tmp_path: Path) -> None:
    script = "sort number\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "play", "rummikub", "--bots", "1", "--seed", "5", "--no-record"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout  # no terminal codes: no colour, no line editor
    assert "P1's turn> sort number\nYour rack (by number): " in done.stdout
    assert done.stdout.rstrip().endswith("The game was not saved (--no-record).")


# -- what each game's presenter offers ---------------------------------------------------------


@pytest.mark.parametrize("game", [info.id for info in rummykit.games()])
def test_every_game_completes_its_commands_and_the_pieces_in_the_rack(game: str) -> None:
    presenter = presenter_for(game)
    state = rummykit.new_game(game, players=2, seed=3)
    seat = state.view(None)["turn"]
    if game == "conveyor":  # a seat has a hand once it has claimed a column
        for text in ("0 claim 0", "1 claim 1") if seat == 0 else ("1 claim 0", "0 claim 1"):
            state.apply(state.parse_action(text))
        seat = state.view(None)["turn"]
    assert seat is not None
    view: dict[str, Any] = dict(state.view(seat))  # the keys of any game
    turn = presenter.turn(view, say=lambda *lines: None, style=Style())
    commands = turn.completions([])
    help_text = " ".join(left for left, _ in presenter.help_rows(view))
    assert {"help", "quit", "show", "sort"} <= set(commands)
    assert all(re.search(rf"\b{c}\b", help_text) or c in ("exit", "options", "done") for c in commands), commands
    if game == "two-tray":  # the pieces of the tray that plays (tray A until a first turn chooses)
        held = view["trays"][view["playing"][seat] or "A"]
    else:
        held = view.get("rack", view.get("hand"))
    assert held
    verb = {"conveyor": "meld", "mummus": "meld", "two-tray": "place"}.get(game, "new")
    offered = turn.completions([verb])
    assert sorted(offered) == sorted(set(held))
    # A piece typed already is not offered again unless the rack holds another.
    once = next(p for p in held if held.count(p) == 1)
    typed = [verb, once.lower(), "1,1"] if game == "two-tray" else [verb, once.lower()]  # a tile, then its cell
    assert once not in turn.completions(typed) and turn.completions(typed)
    assert complete_word(turn.completions, f"{verb} {once[:-1].lower()}", once[:-1].lower())
    assert turn.completions(["sort"]) == list(presenter.orders)
    assert turn.completions(["frobnicate"]) == []


def test_conveyor_completes_ends_and_jumps() -> None:
    presenter = presenter_for("conveyor")
    state = rummykit.new_game("conveyor", players=3, seed=3, jump_ins=True)
    view = state.view(state.view(None)["turn"])
    turn = presenter.turn(view, say=lambda *lines: None, style=Style())
    assert {"jump", "decline", "moves", "reveal", "claim"} <= set(turn.completions([]))
    assert "close" not in turn.completions([])
    assert turn.completions(["draw", "3"]) == ["top", "bottom"]
    assert turn.completions(["layoff", "0", "1-2"]) == ["low", "high"]
    assert turn.completions(["jump"]) == ["with"]  # no discard on offer now
    plain_game = rummykit.new_game("conveyor", players=2, seed=3)
    plain_turn = presenter.turn(plain_game.view(0), say=lambda *lines: None, style=Style())
    assert "jump" not in plain_turn.completions([]) and "decline" not in plain_turn.completions([])


def test_mummus_completes_pile_cards_meld_names_and_claims() -> None:
    from rummykit.rulesets.mummus import from_position

    presenter = presenter_for("mummus")
    state = from_position(
        "hands: 4H 8C 2C 9D / 4S 9S KD / QC QD; melds: 1: 5H 6H 7H | 2: 8D 8H 8S; discard: 9H JC 10D", target=0
    )
    turn = presenter.turn(state.view(0), say=lambda *lines: None, style=Style())
    assert turn.completions([]) == ["draw", "take", "meld", "addon", "rummy", "discard", "moves", "sort", "show",
                                    "help", "quit"]
    assert turn.completions(["take"]) == ["9H", "JC", "10D"]  # the pile from the bottom, as numbered on the screen
    assert turn.completions(["take", "9H"]) == []
    assert turn.completions(["discard"]) == ["2C", "8C", "9D", "4H"]  # the hand by suit
    assert turn.completions(["addon"]) == ["2C", "8C", "9D", "4H"]
    assert turn.completions(["addon", "4h"]) == ["2C", "8C", "9D", "to"]
    assert turn.completions(["add", "on", "4H", "to"]) == ["5H", "8D"]  # a meld named by its first card
    assert turn.completions(["addon", "1"]) == ["2C", "8C", "9D", "4H"]  # meld 1 named first: no `to`
    assert turn.completions(["sort"]) == ["suit", "rank"]
    turn.command("sort rank")
    assert turn.completions(["meld", "2C"]) == ["4H", "8C", "9D"]
    assert complete_word(turn.completions, "addon 4h t", "t") == ["to"]
    claims = from_position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 4H 3D", target=0)
    call = presenter.turn(claims.view(1), say=lambda *lines: None, style=Style())
    assert call.completions(["rummy"]) == ["8H", "4H"]  # the discards a call can claim
    assert call.completions(["rummy", "8H"]) == ["4H", "to"]


def test_rummikub_completes_table_tiles_for_move_and_placed_tiles_for_back() -> None:
    presenter = presenter_for("rummikub")
    state = rummykit.new_game("rummikub", players=2, seed=4)
    seat = state.view(None)["turn"]
    turn = presenter.turn(state.view(seat), say=lambda *lines: None, style=Style())
    rack = state.view(seat)["rack"]
    assert turn.completions(["move"]) == [] and turn.completions(["back"]) == []
    turn.command(f"new {rack[0]} {rack[1]}")
    assert turn.completions(["move"]) == [rack[0], rack[1]]
    assert turn.completions(["back"]) == [rack[0], rack[1]]
    assert turn.completions(["move", rack[0], "1"]) == ["new"]
    assert rack[0] not in turn.completions(["new"]) or rack.count(rack[0]) > 1
