"""Mummus at the terminal: whole rounds typed by a person (a scripted typist) against bots, bad input, rules.

The typist reads the prompting seat's view (all a person at that seat can
see), picks the greedy bot's move (and its out-of-turn calls when the
session offers one), and types it in the forms a person would: `take N` by
the pile's screen number, `addon N CARD` by the meld's screen number, a bare
`rummy` when one claim is open. Bad commands come first in each phase and
must each print exactly one line and change nothing.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, TextIO, cast

import pytest

from rummykit.bots.mummus import MummusGreedy
from rummykit.bots.registry import make_bot
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.engine.core import Action
from rummykit.engine.rng import Rng
from rummykit.presenters.text import Style
from rummykit.records import read_record
from rummykit.rulesets.mummus import INFO, Addon, Mummus, Rummy, Take

PROMPT = re.compile(r"^(.+)'s (turn|call|claim)> $")

BAD = {
    "draw": ["frobnicate", "discard 2C 3C", "meld 2C 3C", "take 99", "discard 11H", "addon 5", "take ZZ"],
    "play": ["draw", "take 1", "meld AH", "addon 9 2C", "rummy 2C 3C 4C", "discard KK"],
    "call": ["draw", "discard 2C", "meld 2C 3C 4C", "frobnicate"],
}
SHOW = ["moves", "show", "sort rank", "help", "sort suit"]


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={})
    return status, out.getvalue(), err.getvalue()


class Typist:
    """Standard input that types the seat's next command when the session prompts."""

    def __init__(self, state: Mummus, out: io.StringIO) -> None:
        self.state = state
        self.out = out
        self.names = list(state.players)
        self.bot = MummusGreedy(INFO)
        self.rng = Rng(7)
        self.seen: set[str] = set()
        self.queue: list[tuple[str, str]] = []
        self.last: tuple[str, str, str, int] | None = None
        self.checked_bad = 0
        self.typed: list[str] = []
        self.forms: set[str] = set()

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        self._check(text)
        prompt = text[text.rfind("\n") + 1 :]
        match = PROMPT.match(prompt)
        assert match is not None, prompt
        seat = self.names.index(match[1])
        mode = match[2]
        view: dict[str, Any] = dict(self.state.view(seat))
        phase = "call" if mode != "turn" else str(view["phase"])
        if phase not in self.seen:
            self.seen.add(phase)
            self.queue = [("bad", x) for x in BAD[phase]] + [("show", x) for x in SHOW]
        if self.queue:
            kind, line = self.queue.pop(0)
        else:
            kind, line = "move", self._move(view, mode)
        self.typed.append(line)
        self.last = (kind, line, json.dumps(self.state.snapshot(), sort_keys=True), len(text))
        return line + "\n"

    def _move(self, view: dict[str, Any], mode: str) -> str:
        if mode != "turn":
            action = self.bot.claim(view, self.rng)
            return "" if action is None else self.spell(action, view)
        return self.spell(self.bot.choose(view, self.rng), view)

    def spell(self, action: Action, view: dict[str, Any]) -> str:
        """A way a person might type ``action``: screen numbers where the screen shows them."""
        if isinstance(action, Take) and action.card != view["discard"][-1]:
            self.forms.add("take N")
            return f"take {view['discard'].index(str(action.card)) + 1}"
        if isinstance(action, Addon) and len(self.typed) % 2:
            number = next(m["index"] for m in view["melds"] if str(action.meld) in m["cards"]) + 1
            self.forms.add("addon N")
            return f"addon {number} {' '.join(map(str, action.cards))}"
        if isinstance(action, Rummy):
            claims = [a for a in INFO.view_actions(view) if isinstance(a, Rummy)] if INFO.view_actions else []
            if len(claims) == 1:
                self.forms.add("rummy")
                return "rummy"
        return action.text()

    def _check(self, text: str) -> None:
        if self.last is None:
            return
        kind, line, before, offset = self.last
        self.last = None
        reply = text[offset:].split("\n")[1:-1]
        if kind == "bad":
            assert len(reply) == 1 and reply[0].startswith("! "), (line, reply)
            assert "Traceback" not in reply[0]
            assert json.dumps(self.state.snapshot(), sort_keys=True) == before, line
            self.checked_bad += 1
        elif kind == "show":
            assert reply and not any(x.startswith("! ") for x in reply), (line, reply)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 5), (4, 2)])
def test_a_person_plays_a_whole_round_against_bots(players: int, seed: int, tmp_path: Path) -> None:
    state = INFO.new(players=players, seed=seed, target=0)
    assert isinstance(state, Mummus)
    out = io.StringIO()
    typist = Typist(state, out)
    record = tmp_path / "game.txt"
    console = Console(cast(TextIO, typist), out, io.StringIO())
    seats = [None, *(make_bot("greedy", "mummus") for _ in range(players - 1))]
    status = Session(state, seats, console, Style(), record_path=record).run()
    text = out.getvalue()
    assert status == 0 and state.outcome is not None, text[-2000:]
    assert "Game over:" in text and "Discard pile" in text and "Melds (numbered from 1" in text
    assert typist.checked_bad >= len(BAD["draw"]) + len(BAD["play"]) + len(BAD["call"])
    assert typist.seen == {"draw", "play", "call"} and typist.forms  # offered calls out of turn; screen numbers typed
    assert read_record(record.read_text()).snapshot() == state.snapshot()
    # the person's hand is shown only to the person; nobody else's hand is ever printed
    for line in re.findall(r"^Your hand \([^)]*\): (.*)$", text, re.M):
        assert line


def test_a_person_calls_rummy_and_adds_on_out_of_turn_at_the_prompt(tmp_path: Path) -> None:
    from rummykit.rulesets.mummus import from_position

    state = from_position("hands: 2C 9D / 4H 9S KD / QC QD 3S; melds: 1: 5H 6H 7H; discard: 8H 3D; turn: 2", target=0)
    out = io.StringIO()
    script = io.StringIO("moves\nrummy\naddon 1 4H\n\n")
    console = Console(cast(TextIO, script), out, io.StringIO())
    seats = [make_bot("random", "mummus"), None, make_bot("random", "mummus")]
    session = Session(state, seats, console, Style(), record_path=tmp_path / "r.txt")
    assert session.offer_claims()  # seat 1 is offered the chance before seat 2 moves, and calls rummy
    text = out.getvalue()
    assert "P2's claim> rummy" in text and "Rummy! P2 claims 8H" in text
    assert state.view(None)["melds"][0]["laid_by"] == [1, 1, 1, 1]
    assert session.offer_claims()  # ... and again: the add-on of 4H
    assert state.view(None)["melds"][0]["cards"][0] == "4H"
    assert "P2 adds 4H to meld 1 out of turn" in out.getvalue()


def test_the_prompt_says_the_take_form_moves_lists_and_takes_it_and_the_number(tmp_path: Path) -> None:
    from rummykit.rulesets.mummus import from_position

    position = "hands: 4H 8C 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H | 0: 8D 8H 8S; discard: 9H JC 10D"
    for typed in ("take 10D", "take 3"):
        state = from_position(position, target=0)
        out = io.StringIO()
        script = io.StringIO(f"moves\n{typed}\nquit\n")
        console = Console(cast(TextIO, script), out, io.StringIO())
        Session(state, [None, make_bot("random", "mummus")], console, Style(), record=False).run()
        text = out.getvalue()
        said = text.split("P1's turn> moves\n", 1)[0]
        assert "Your move: `draw` from the stock, or `take CARD` from the discard pile" in said
        assert "(`take CARD` or `take N` takes it and all above it)" in said
        moves = text.split("P1's turn> moves\n", 1)[1].split("P1's turn>", 1)[0].splitlines()
        assert "  take 10D" in moves and not any(line.startswith("  take 3") for line in moves)  # the card form
        assert [str(a) for a in state.actions] == ["0 take 10D"], typed
        assert "! " not in text.split(f"P1's turn> {typed}\n", 1)[1].split("\n", 1)[0]


def test_rules_mummus_shows_the_options_and_the_rules_page() -> None:
    status, out, err = run(["rules", "mummus"])
    assert status == 0 and err == ""
    for word in ("Mummus", "Players: 2 to 6", "card_points", "target", "max_turns", "max_rounds", "mummus.md"):
        assert word in out
    status, out, _ = run(["games"])
    assert "mummus" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "mummus", "--option", "card_points=ace"], "card_points"),
        (["play", "mummus", "--players", "7", "--bots", "6"], "2 to 6 players"),
        (["play", "mummus", "--option", "target=-5"], "target"),
    ],
)
def test_bad_command_lines_get_one_clear_line_and_exit_2(argv: list[str], words: str) -> None:
    status, _out, err = run(argv)
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_bad_card_at_the_prompt_is_one_line(tmp_path: Path) -> None:
    status, out, err = run(
        ["play", "mummus", "--seed", "3", "--bots", "1", "--record", str(tmp_path / "r.txt")],
        "draw\ndiscard 1X\nquit\n",
    )
    assert status == 0 and "Traceback" not in out + err
    reply = out.split("discard 1X\n", 1)[1].splitlines()[0]
    assert reply.startswith("! bad card '1X'")


def test_a_saved_game_replays_at_the_command_line(tmp_path: Path) -> None:
    record = tmp_path / "bots.txt"
    status, _, err = run(
        ["play", "mummus", "--players", "3", "--bot", "greedy", "--bot", "random", "--bot", "greedy",
         "--seed", "5", "--option", "target=0", "--record", str(record)]
    )
    assert status == 0, err
    status, out, err = run(["replay", str(record), "-v"])
    assert status == 0 and err == "" and "Game over:" in out and "draws from the stock" in out
    assert "draws from the stock (" not in out  # a spectator never learns a card drawn from the stock


def test_a_bad_line_in_a_mummus_record_is_one_line_with_its_number(tmp_path: Path) -> None:
    record = tmp_path / "bad.txt"
    record.write_text(
        "rummykit record 1\ngame: mummus\nseed: 2\nplayers: ann | bob\noption target: 0\n\n"
        "1 draw\n1 discard QX\n"
    )
    status, out, err = run(["replay", str(record)])
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "line 8:" in err and "bad card 'QX'" in err and "Traceback" not in err
