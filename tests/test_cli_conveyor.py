"""Conveyor Rummy at the terminal: whole games driven in-process by scripted and view-reading input."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, TextIO, cast

import pytest

import rummykit
from rummykit.bots.base import Bot, make_bot
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.engine.core import Action, GameState
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError, RummykitError
from rummykit.presenters.base import word_refusal
from rummykit.presenters.conveyor import PRESENTER, command_text, describe_event
from rummykit.presenters.text import Style
from rummykit.records import read_record
from rummykit.rulesets import conveyor as cv
from rummykit.sim import bot_rng

# A double-6 position at P1's (seat 0) draw: 2-2 lies face up at the bottom of column 1; meld 0 is
# P2's run of 6s (takes 1-6 low, 5-6 high); meld 1 is P1's sum of 6 (takes 3-3 at either end).
# (Numbers here are the record's, from 0; the screen and the commands count from 1: column 2, meld 1.)
POSITION = (
    "columns: claimed 0 / ?0-3 ?0-4 ?0-5 1-2 ?1-3 ?1-4 2-2 / 2-3 ?2-5 ?3-4 3-5 ?4-4 ?4-5 ?5-5 / claimed 1; "
    "hands: 1-6 5-6 3-3 0-0 0-1 0-2 1-1 / 6-6; melds: 1: 2-6 3-6 4-6 | 0: 0-6 1-5 2-4; turn: 0"
)
TURN_PROMPT = re.compile(r"^(.+)'s (?:turn|answer)> $")
DOMINO = re.compile(r"\b\d{1,2}-\d{1,2}\b")


def hands_shown(text: str) -> list[list[str]]:
    """Every hand shown as ``Your hand (...): ...`` (sorted dominoes), its lines joined when it was wrapped."""
    found = re.findall(r"^Your hand \([^)]*\):((?:.*)(?:\n {4,}\S.*)*)$", text, re.M)
    hands = []
    for shown in found:
        flat = " ".join(shown.split())
        flat = flat.split(" (the others saw: ")[0]
        if flat != "(empty)":
            hands.append(sorted(flat.split()))
    return hands


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    """Run the command in-process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={})
    return status, out.getvalue(), err.getvalue()


def replies(out: str) -> list[tuple[str, list[str]]]:
    """(typed line, lines printed in reply) for every line typed at a turn or answer prompt."""
    parts = re.split(r"(?m)^[^\n]+'s (?:turn|answer)> ", out)[1:]
    result = []
    for part in parts:
        lines = part.split("\n")
        result.append((lines[0], [x for x in lines[1:] if x]))
    return result


def reply_to(out: str, typed: str) -> list[str]:
    """The reply to the first time ``typed`` was typed."""
    return next(lines for line, lines in replies(out) if line == typed)


def session(
    state: GameState, seats: list[Bot | None], stdin: Any, out: io.StringIO, record: Path
) -> Session:
    console = Console(cast(TextIO, stdin), out, io.StringIO())
    return Session(state, seats, console, Style(), record_path=record)


def greedy() -> Bot:
    return make_bot("greedy", "conveyor")


# -- a typist: input chosen from the live game, as a person at the keyboard would ------------------

BAD_LINES = {
    # phase -> commands that are wrong whatever the position (each must print one line, change nothing)
    "select": ["frobnicate", "reveal 99 0", "claim -1", "draw 0 top", "claim"],
    "draw": ["draw 0 middle", "draw 99 top", "discard 0-0", "meld 0-0 0-1 0-2", "draw"],
    "play": ["reveal 0 0", "discard 12-12", "layoff 99 0-0 low", "draw 0 top", "meld 0-1"],
    "jump": ["draw 0 top", "discard 0-0", "jump WINDOW-OTHER"],
}
SHOW_LINES = ["moves", "show", "sort pips", "help", "sort low", "options"]


class Typist:
    """Standard input that types each person's next command when the session asks for it.

    The command is chosen from the prompting seat's own view (all a person at
    that seat can see): the greedy policy's move, spelled in the command
    forms a person might use. The first time each phase comes up, bad
    commands and display commands are typed first; at the next prompt the
    typist checks that each bad one printed exactly one line and changed
    nothing, that ``moves`` listed the seat's legal actions, and that every
    hand shown belongs to the seat at the keyboard.
    """

    def __init__(self, state: GameState, out: io.StringIO, *, limit: int = 20_000) -> None:
        self.state = state
        self.out = out
        self.names = list(state.players)
        self.policy = greedy()
        self.rngs: dict[int, Rng] = {}
        self.queue: list[tuple[str, str]] = []
        self.phases_seen: set[str] = set()
        self.last: tuple[int, str, str, dict[str, Any], int] | None = None
        self.keyboard: int | None = None
        self.count = 0
        self.limit = limit
        self.bad_checked = 0
        self.moves_checked = 0
        self.hands_checked = 0
        self.spelled = 0
        self.typed: list[tuple[int, str]] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1 :]
        self._check_reply(text)
        match = TURN_PROMPT.match(prompt)
        if match is None:
            if prompt.startswith("Pass the screen to "):
                self._check_no_hand(text)
                self.keyboard = self.names.index(prompt[len("Pass the screen to ") :].split(";")[0])
            else:
                assert prompt.startswith("End of your turn"), prompt
            self.last = None
            self.mark = len(text)
            return "\n"
        seat = self.names.index(match[1])
        if self.keyboard is not None:
            assert seat == self.keyboard, "a person was asked without the screen being passed"
        self._check_hands(text, seat)
        self.mark = len(text)
        self.count += 1
        if self.count > self.limit:
            return "quit\n"
        view: dict[str, Any] = dict(self.state.view(seat))
        kind, line = self._choose(seat, view)
        self.typed.append((seat, line))
        self.last = (seat, line, kind, self.state.snapshot(), len(text))
        return line + "\n"

    # -- choosing ---------------------------------------------------------------------

    def _choose(self, seat: int, view: dict[str, Any]) -> tuple[str, str]:
        """(what kind of line, the line): ``bad``, ``show`` (a display command) or ``move``."""
        phase = view["phase"]
        if phase not in self.phases_seen:
            self.phases_seen.add(phase)
            self.queue = [("bad", x) for x in BAD_LINES[phase]] + [("show", x) for x in SHOW_LINES]
        if self.queue:
            kind, line = self.queue.pop(0)
            if "WINDOW-OTHER" in line:
                line = line.replace("WINDOW-OTHER", "0-1" if view["jump_window"]["piece"] == "0-0" else "0-0")
            return kind, line
        rng = self.rngs.setdefault(seat, Rng(100 + seat))
        return "move", self.spell(self.policy.choose(view, rng), view)

    def spell(self, action: Action, view: dict[str, Any]) -> str:
        """The command a person might type for ``action``, in one of its spellings (numbers from 1)."""
        self.spelled += 1
        text = command_text(action)
        odd = self.spelled % 2 == 1
        if isinstance(action, cv.Draw) and odd:
            return f"draw {action.column + 1} {action.end[0]}"
        if isinstance(action, cv.Layoff):
            return f"lay off {action.meld + 1} {action.domino} {action.end}" if odd else text
        if isinstance(action, cv.Jump) and not action.rest:
            return "mine" if odd else text
        if isinstance(action, cv.Decline) and odd:
            return "pass"
        return text

    # -- checking ---------------------------------------------------------------------

    def _check_reply(self, text: str) -> None:
        if self.last is None:
            return
        seat, line, kind, before, offset = self.last
        self.last = None
        lines = text[offset:].split("\n")
        assert lines[0] == line  # the echo
        reply = lines[1:-1]
        if kind == "bad":
            assert len(reply) == 1 and reply[0].startswith("! "), (line, reply)
            assert self.state.snapshot() == before, line
            self.bad_checked += 1
        elif kind == "move":
            return
        elif line in ("moves", "options"):
            listed = int(re.match(r"Your moves now \((\d+)\):", reply[0])[1])  # type: ignore[index]
            assert listed == len(self.state.legal_actions(seat))
            assert self.state.snapshot() == before
            self.moves_checked += 1
        elif line in SHOW_LINES:
            assert reply and not any(x.startswith("! ") for x in reply), (line, reply)
            assert self.state.snapshot() == before

    def _hand_lines(self, text: str) -> list[list[str]]:
        segment = text[getattr(self, "mark", 0) :]
        return hands_shown(segment)

    def _check_hands(self, text: str, seat: int) -> None:
        view: dict[str, Any] = dict(self.state.view(seat))
        hand = sorted(view.get("hand", []))
        for shown in self._hand_lines(text):
            assert shown == hand, (self.names[seat], shown, hand)
            self.hands_checked += 1

    def _check_no_hand(self, text: str) -> None:
        assert not self._hand_lines(text), "a hand was on screen while the screen was being passed"


def play_whole_game(
    players: int, people: list[int], seed: int, tmp_path: Path, **options: Any
) -> tuple[GameState, Typist, str]:
    """A whole game with people at ``people`` (typed by a Typist) and greedy bots elsewhere."""
    state = rummykit.new_game("conveyor", players=players, seed=seed, **options)
    out = io.StringIO()
    typist = Typist(state, out)
    seats: list[Bot | None] = [None if s in people else greedy() for s in range(players)]
    record = tmp_path / f"game-{seed}.txt"
    status = session(state, seats, typist, out, record).run()
    text = out.getvalue()
    assert status == 0, text[-2000:]
    assert "Traceback" not in text
    assert state.outcome is not None, text[-2000:]
    assert read_record(record.read_text()).snapshot() == state.snapshot()
    return state, typist, text


def person_actions(state: GameState, seats: list[int]) -> list[str]:
    return [a.text() for a in state.actions if a.player in seats]


@pytest.mark.parametrize(
    ("players", "people", "seed", "options"),
    [
        (2, [0], 3, {"target": 0}),
        (2, [1], 8, {"target": 0, "set": 6}),
        (3, [0], 5, {"target": 0}),
        (3, [2], 7, {"target": 0, "jump_ins": True}),
        (3, [0, 1], 11, {"target": 0, "jump_ins": True}),
        (4, [1, 3], 2, {"target": 0, "jump_ins": True, "jump_in_only_on_completion": True}),
        (2, [0, 1], 4, {"target": 0, "set": 6}),
    ],
)
def test_whole_games_people_against_bots(
    players: int, people: list[int], seed: int, options: dict[str, Any], tmp_path: Path
) -> None:
    state, typist, text = play_whole_game(players, people, seed, tmp_path, **options)
    mine = person_actions(state, people)
    assert any(a.startswith(("reveal", "claim")) for a in mine)
    assert any(a.startswith("draw") for a in mine) or len(state.actions) < 10
    # every bad command was checked (one line, nothing changed) in each phase a person met
    assert typist.bad_checked >= len(BAD_LINES["select"])
    assert typist.moves_checked >= 2 and typist.hands_checked > 0
    if len(people) > 1:
        assert "Pass the screen to " in text and "press Enter to hide your hand" in text
    if options.get("jump_ins"):
        answers = [a for a in mine if a.startswith(("jump", "decline"))]
        assert answers, "the people were never asked in a jump-in window"
        assert "'s answer> " in text


def test_a_person_draws_from_both_ends_melds_lays_off_and_discards(tmp_path: Path) -> None:
    state, _typist, text = play_whole_game(2, [0], 3, tmp_path, target=0)
    mine = person_actions(state, [0])
    assert any(re.fullmatch(r"draw \d+ top", a) for a in mine)
    assert any(re.fullmatch(r"draw \d+ bottom", a) for a in mine)
    assert any(a.startswith("meld ") for a in mine)
    assert any(a.startswith("layoff ") for a in mine)
    assert any(a.startswith("discard ") for a in mine)
    # the short spellings reached the engine as its own actions
    assert re.search(r"^P1's turn> draw \d+ [tb]$", text, re.M)
    assert re.search(r"^P1's turn> lay off \d+ \d+-\d+ (low|high)$", text, re.M)


def test_a_match_of_several_rounds_goes_on_to_the_next_selection_round(tmp_path: Path) -> None:
    state, _typist, text = play_whole_game(2, [0], 6, tmp_path, set=6, target=15)
    assert len(state.rounds) >= 2
    assert "Round 2" in text and "of a match to 15" in text
    assert "Game over: " in text


# -- a fixed position: every command form and every kind of error -------------------------------------


def position_session(script: str, tmp_path: Path, **options: Any) -> tuple[GameState, str, int]:
    state = cv.from_position(POSITION, target=0, **options)
    out = io.StringIO()
    status = session(state, [None, greedy()], io.StringIO(script), out, tmp_path / "pos.txt").run()
    return state, out.getvalue(), status


def test_a_turn_from_a_known_hand(tmp_path: Path) -> None:
    script = [
        "draw 2 b",  # 2-2, face up, from the bottom of column 2 (1 in the record)
        "lay off 1 1-6",  # the end left out: 1-6 fits only the low end
        "layoff 2 3-3",  # fits both ends of the sum: the end must be named
        "layoff 2 3-3 hi",
        "layoff 1 0-0",  # fits neither end
        "meld 0-0 1-1 2-2",
        "moves",
        "layoff 1 5-6 high",
        "discard 0-1",
        "quit",
    ]
    state, out, status = position_session("\n".join(script) + "\n", tmp_path)
    assert status == 0
    assert [a.text() for a in state.actions if a.player == 0] == [
        "draw 1 bottom",
        "layoff 0 1-6 low",
        "layoff 1 3-3 high",
        "meld 0-0 1-1 2-2",
        "layoff 0 5-6 high",
        "discard 0-1",
    ]
    assert reply_to(out, "draw 2 b")[0] == "P1 draws 2-2 (face up) from the bottom of column 2"
    assert reply_to(out, "layoff 2 3-3") == ["! 3-3 fits both ends of meld 2: write `layoff 2 3-3 low` or `... high`"]
    assert reply_to(out, "layoff 1 0-0") == [
        "! 0-0 fits neither end of meld 1 (1-6 2-6 3-6 4-6): it takes 0-6 at the low end and 5-6 at the high end"
        " (rule CV-LAYOFF-FIT)"  # the engine's refusal, its meld counted from 1
    ]
    meld_reply = reply_to(out, "meld 0-0 1-1 2-2")
    assert meld_reply[0] == "P1 melds a run of pairs: 0-0 1-1 2-2 (meld 3; 3 dominoes left)"
    assert any(re.match(r"\s+3  P1  run of pairs\s+0-0 1-1 2-2\s+worth 3$", x) for x in meld_reply)
    assert any(re.match(r"\s+2  P1  sum of 6\s+0-6 1-5 2-4 3-3\s+worth 12 \(royal\)$", x) for x in meld_reply)
    assert reply_to(out, "moves") == [
        "Your moves now (4):",
        "  discard 0-1 | discard 0-2 | discard 5-6",
        "  layoff 1 5-6 high",
    ]
    assert "P1 discards 0-1 to the top of column 2 (1 domino left)" in out
    assert read_record((tmp_path / "pos.txt").read_text()).snapshot() == state.snapshot()


def test_the_screen_shows_the_columns_ends_melds_owners_and_the_hand(tmp_path: Path) -> None:
    _state, out, _ = position_session("quit\n", tmp_path)
    assert "Round 1, turn 1 (draw): P1 draws from an end of a conveyor." in out
    assert "  column 1  claimed by P1" in out and "  column 4  claimed by P2" in out
    assert "  column 2  top ?? | ?? ?? [1-2] ?? ?? | [2-2] bottom" in out
    assert "  column 3  top [2-3] | ?? ?? [3-5] ?? ?? | ?? bottom" in out
    assert re.search(r"^  1  P2  run of 6s\s+2-6 3-6 4-6\s+worth 1$", out, re.M)
    assert re.search(r"^  2  P1  sum of 6\s+0-6 1-5 2-4\s+worth 2$", out, re.M)
    assert "Your hand (7 dominoes, by low half): 0-0 0-1 0-2  1-1 1-6  3-3  5-6" in out
    assert re.search(r"^  > P1 \(you\)\s+hand  7 \(column 1\)\s+total 0$", out, re.M)
    assert "Your move: `draw COLUMN top` or `draw COLUMN bottom` (conveyors: 2, 3)." in out
    # no other hand, and nothing face down by value: 0-3, 0-4... are face down in column 1
    assert "The game starts from a set position" in out
    assert "6-6" not in out and "0-3" not in out and "?0-3" not in out


BEFORE_DRAW = [
    ("frobnicate", "unknown command 'frobnicate'"),
    ("draw", "write 'draw COLUMN top|bottom', got 'draw'"),
    ("draw 2", "write 'draw COLUMN top|bottom', got 'draw 2'"),
    ("draw 2 middle", "a conveyor's ends are 'top' and 'bottom'"),
    ("draw 9 top", "there is no column 9: the columns are 1..4 (rule CV-COLUMN)"),
    ("draw 0 top", "columns are numbered from 1, as on the screen; got '0'"),
    ("draw 4 top", "column 4 is not a conveyor: the conveyors are columns 2, 3 (rule CV-COLUMN)"),
    ("draw 1 top", "column 1 is not a conveyor: the conveyors are columns 2, 3 (rule CV-COLUMN)"),
    ("draw x top", "a column number is a whole number, as on the screen; got 'x'"),
    ("discard 1-6", "you cannot discard now: your turn starts with a draw from an end of a conveyor (rule CV-PHASE)"),
    ("meld 0-0 0-1 0-2", "you cannot meld now: "),
    ("layoff 1 1-6", "you cannot lay off now: "),
    ("reveal 2 1", "you cannot reveal now: "),
    ("claim 2", "you cannot claim now: "),
    ("jump", "no discard is on offer"),
    ("jump 2-2", "you cannot jump in now: "),
    ("decline", "(rule CV-PHASE)"),
    ("close", "(rule CV-PHASE)"),
    ("meld 9-9-9", "bad domino '9-9-9'"),
    ("sort sideways", "sort by low or pips"),
    ("show me", "`show` takes nothing after it"),
    ("moves now", "`moves` takes nothing after it"),
]
AFTER_DRAW = [
    ("draw 3 top", "you cannot draw now: you have drawn; now meld, lay off, then discard (or close) (rule CV-PHASE)"),
    ("discard 9-9", "9-9 is not in your hand (rule CV-HAND)"),
    ("discard 4-4", "4-4 is not in your hand (rule CV-HAND)"),
    ("meld 0-1 0-2", "a meld needs at least 3 dominoes"),
    ("meld 0-0 0-1 1-1", "(rule CV-MELD-KIND)"),
    ("meld 0-0 0-0 0-1", "(rule CV-MELD-REPEAT)"),
    ("layoff 5 1-6 low", "there is no meld 5: the melds are 1..2"),
    ("layoff 0 1-6 low", "melds are numbered from 1, as on the screen; got '0'"),
    ("layoff 1 1-6 high", "1-6 does not fit the high end of meld 1 (2-6 3-6 4-6), which takes 5-6; it fits the low end"),
    ("lay off 1 1-6 sideways", "a meld's ends are 'low' and 'high'"),
    ("lay off", "write 'layoff MELD DOMINO low|high'"),
    ("layoff 1 4-4", "4-4 is not in your hand (rule CV-HAND)"),
    ("layoff 1 9-9-9", "bad domino '9-9-9': write its halves like 3-5"),
    ("close 0-1", "needs the domino_runs variant (rule CV-LINE-OFF)"),
    ("discard", "write 'discard DOMINO'"),
]


@pytest.mark.parametrize(("line", "needle"), [*BEFORE_DRAW, *[(f"+{a}", b) for a, b in AFTER_DRAW]])
def test_a_bad_command_prints_one_line_and_changes_nothing(line: str, needle: str, tmp_path: Path) -> None:
    after_draw = line.startswith("+")
    line = line.lstrip("+")
    expected = cv.from_position(POSITION, target=0)
    script = [line, "quit"]
    if after_draw:
        expected.apply(expected.parse_action("0 draw 1 bottom"))
        script.insert(0, "draw 2 bottom")
    state, out, status = position_session("\n".join(script) + "\n", tmp_path)
    assert status == 0 and "Traceback" not in out
    reply = reply_to(out, line)
    assert len(reply) == 1, reply
    assert reply[0].startswith("! ") and needle in reply[0], reply
    assert state.snapshot() == expected.snapshot()


def test_the_turn_object_refuses_without_touching_the_game() -> None:
    state = cv.from_position(POSITION, target=0)
    before = state.snapshot()
    said: list[str] = []
    turn = PRESENTER.turn(
        state.view(0),
        say=lambda *lines: said.extend(lines),
        style=Style(),
        labels=["you", "bot"],
    )
    assert turn.command("") is None
    for bad in ("bogus", "draw 1", "draw 2", "draw 0 top", "layoff", "sort", "jump"):
        with pytest.raises(RummykitError):
            turn.command(bad)
    # the presenter judges no rule: a column that is not there is the engine's to refuse, with its data
    far = turn.command("draw 5 top")
    assert isinstance(far, cv.Draw) and far.column == 4
    with pytest.raises(RuleError) as refused:
        state.apply(far)
    assert refused.value.rule == "CV-COLUMN" and refused.value.params == {"column": 4, "first": 0, "last": 3}
    assert word_refusal(refused.value) == "there is no column 5: the columns are 1..4 (rule CV-COLUMN)"
    action = turn.command("DRAW 3 T")
    assert isinstance(action, cv.Draw) and action.text() == "draw 2 top" and action.player == 0
    assert state.snapshot() == before and said == []


# -- the selection round -----------------------------------------------------------------------------


def test_selection_round_reveal_a_bad_column_and_a_claim(tmp_path: Path) -> None:
    seed = 4
    state0 = rummykit.new_game("conveyor", players=2, seed=seed, set=6)
    first = state0.view(None)["turn"]
    assert first == 0  # P1 (the person) selects first with this seed
    record = tmp_path / "sel.txt"
    script = "reveal 3 6\nreveal 9 1\nreveal 3 4\nreveal 3 8\nclaim 7\nclaim 4\nquit\n"
    status, out, err = run(["play", "conveyor", "--seed", str(seed), "--option", "set=6", "--record", str(record)], script)
    assert status == 0, err
    assert "Columns (cells numbered from 1 at the top; ?? face down, [3-5] face up):" in out
    assert re.search(r"^  cell +1 +2 +3 +4 +5 +6 +7$", out, re.M)
    assert re.search(r"^  column 3 +\?\? +\?\? +\?\? +\[2-6\] +\?\? +\?\? +\?\?$", out, re.M)
    assert reply_to(out, "reveal 3 6")[0] == "P1 reveals 0-0 (column 3, cell 6)"
    assert reply_to(out, "reveal 9 1") == ["! there is no column 9: the columns are 1..4 (rule CV-COLUMN)"]
    assert reply_to(out, "reveal 3 4") == [
        "! cell 4 of column 3 is already face up (2-6): reveal a face-down domino (rule CV-REVEAL)"
    ]
    assert reply_to(out, "reveal 3 8") == ["! there is no cell 8 in column 3: the cells are 1..7 (rule CV-REVEAL)"]
    assert reply_to(out, "claim 7") == ["! there is no column 7: the columns are 1..4 (rule CV-COLUMN)"]
    claim = reply_to(out, "claim 4")
    assert claim[0].startswith("P1 claims column 4 as a hand of 7 dominoes; seen face up: ")
    assert claim[1].startswith("  P1's hand: ")
    replayed = read_record(record.read_text())
    assert [a.text() for a in replayed.actions if a.player == 0] == ["reveal 2 5", "claim 3"]
    # the bot's claim of the other column tells nobody what is in it beyond what was face up
    assert "P2's hand" not in out


def test_a_player_who_cannot_reveal_must_claim(tmp_path: Path) -> None:
    state = rummykit.new_game("conveyor", players=2, seed=1, set=6, target=0)
    while True:
        seat = min(state.to_act)
        reveals = [a for a in state.legal_actions(seat) if isinstance(a, cv.Reveal)]
        if not reveals:
            break
        state.apply(reveals[0])
    seat = min(state.to_act)
    seats: list[Bot | None] = [greedy(), greedy()]
    seats[seat] = None
    before = state.snapshot()
    out = io.StringIO()
    script = "reveal 1 1\nmoves\nclaim 2\nquit\n"
    status = session(state, seats, io.StringIO(script), out, tmp_path / "forced.txt").run()
    text = out.getvalue()
    assert status == 0
    assert "Nothing is face down in the unclaimed columns: you must `claim COLUMN`." in text
    grid = text.split("--- ")[1].split("  cell ")[1].split("Nothing is face down")[0]
    assert "??" not in grid and grid.count("[") == 28  # every cell of the grid is face up
    (refusal,) = reply_to(text, "reveal 1 1")
    assert re.fullmatch(
        r"! cell 1 of column 1 is already face up \(\d-\d\): reveal a face-down domino \(rule CV-REVEAL\)", refusal
    )
    assert reply_to(text, "moves") == ["Your moves now (4):", "  claim 1 | claim 2 | claim 3 | claim 4"]
    assert state.actions[len(before["actions"])].text() == "claim 1"
    assert read_record((tmp_path / "forced.txt").read_text()).snapshot() == state.snapshot()


# -- jump-in windows ---------------------------------------------------------------------------------


def _window_state(people: list[int], seed: int = 7) -> tuple[cv.Conveyor, list[Bot | None]]:
    """A 3-player jump_ins game advanced by greedy bots to the first open jump-in window."""
    state = rummykit.new_game("conveyor", players=3, seed=seed, target=0, jump_ins=True)
    bots = [greedy() for _ in range(3)]
    rngs = [bot_rng(seed, s) for s in range(3)]
    while state.view(None)["phase"] != "jump":
        seat = min(state.to_act)
        state.apply(bots[seat].choose(state.view(seat), rngs[seat]))
    seats: list[Bot | None] = [None if s in people else greedy() for s in range(3)]
    return state, seats


def test_in_a_jump_window_the_bots_answer_first_then_the_person(tmp_path: Path) -> None:
    probe, _ = _window_state([])
    waiting = sorted(probe.to_act)
    person = waiting[0]  # the lower seat: the run loop would come to it first
    state, seats = _window_state([person])
    bot = next(s for s in waiting if s != person)
    window = state.view(None)["jump_window"]
    assert window is not None
    domino = window["piece"]
    wrong = "jump 0-1" if domino == "0-0" else "jump 0-0"
    out = io.StringIO()
    status = session(state, seats, io.StringIO(f"{wrong}\nshow\nquit\n"), out, tmp_path / "w.txt").run()
    text = out.getvalue()
    assert status == 0
    name, bot_name = state.players[person], state.players[bot]
    head, _, rest = text.partition(f"--- {name}'s answer ---")
    assert f"{bot_name} has answered (answers stay sealed until all are in)" in head
    assert "(jump-in window): " in rest and f"discarded {domino}; waiting for {name}." in rest
    assert re.search(rf"^    {bot_name} .*answered", rest, re.M)
    assert f"Claim the discard {domino} with `jump {domino}` (Mine!), or `decline`." in rest
    assert reply_to(text, wrong) == [f"! the discard on offer is {domino}, not {wrong[5:]} (rule CV-JUMP-DOMINO)"]
    assert state.view(None)["phase"] == "jump"  # nothing answered for the person


def test_hot_seat_window_asks_each_person_in_turn_and_hides_hands(tmp_path: Path) -> None:
    probe, _ = _window_state([])
    waiting = sorted(probe.to_act)
    state, seats = _window_state(waiting)
    names = [state.players[s] for s in waiting]
    hands = [sorted(state.view(s)["hand"]) for s in waiting]
    out = io.StringIO()
    script = "\ndecline\n\n\npass\n\nquit\n"  # ready, decline, hide; ready, pass (decline), hide
    status = session(state, seats, io.StringIO(script), out, tmp_path / "hw.txt").run()
    text = out.getvalue()
    assert status == 0
    first, second = text.split(f"Pass the screen to {names[1]}")
    assert f"Pass the screen to {names[0]}" in first and "press Enter to hide your hand" in first
    for segment, hand in ((first, hands[0]), (second, hands[1])):
        shown = hands_shown(segment)
        assert shown and all(x == hand for x in shown)
    assert f"{names[0]} answers: decline" in first and f"{names[1]} answers: decline" in second
    assert "Nobody claims " in second
    answered = [a.text() for a in state.actions[-2:]]
    assert answered == ["decline", "decline"]


# -- the command line ----------------------------------------------------------------------------------


def _simulated_until_person(seed: int, players: int, person: int = 0, **options: Any) -> GameState:
    """The game a `play` command starts, with its bots playing until the person is to act."""
    state = rummykit.new_game("conveyor", players=players, seed=seed, **options)
    bots = {s: greedy() for s in range(players) if s != person}
    rngs = {s: bot_rng(seed, s) for s in bots}
    while person not in state.to_act:
        seat = min(state.to_act)
        state.apply(bots[seat].choose(state.view(seat), rngs[seat]))
    return state


@pytest.mark.parametrize("seed", [1, 2])
def test_quit_saves_a_record_that_replays_to_the_same_game(seed: int, tmp_path: Path) -> None:
    record = tmp_path / "q.txt"
    status, out, err = run(["play", "conveyor", "--bots", "2", "--seed", str(seed), "--record", str(record)], "show\nquit\n")
    assert status == 0 and err == ""
    assert "Stopped at your request." in out and f"Record saved to {record}" in out
    expected = _simulated_until_person(seed, 3)
    assert read_record(record.read_text()).snapshot() == expected.snapshot()


def test_end_of_input_and_ctrl_c_save_the_record(tmp_path: Path) -> None:
    record = tmp_path / "eof.txt"
    status, out, err = run(["play", "conveyor", "--seed", "3", "--record", str(record)], "moves\n")
    assert status == 0 and err == "" and "Input ended" in out
    assert read_record(record.read_text()).snapshot() == _simulated_until_person(3, 2).snapshot()

    class Interrupting:
        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            raise KeyboardInterrupt

    record2 = tmp_path / "int.txt"
    out2, err2 = io.StringIO(), io.StringIO()
    status = main(
        ["play", "conveyor", "--seed", "3", "--record", str(record2)],
        stdin=cast(TextIO, Interrupting()),
        stdout=out2,
        stderr=err2,
        environ={},
    )
    assert status == 130 and "Interrupted" in out2.getvalue() and "Traceback" not in err2.getvalue()
    assert read_record(record2.read_text()).snapshot() == _simulated_until_person(3, 2).snapshot()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--players", "2", "--bots", "1", "--option", "jump_ins=true"], "jump_ins is a variant for 3 or 4 players"),
        (["--bots", "1", "--option", "set=7"], "option set needs 6, 9 or 12"),
        (["--bots", "1", "--option", "columns=4"], "do not split into 4 equal columns"),
        (["--players", "5"], "--players 5: conveyor is for 2 to 4 players"),
    ],
)
def test_bad_set_up_is_one_line(argv: list[str], needle: str) -> None:
    status, out, err = run(["play", "conveyor", *argv])
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and needle in err, err


def test_help_names_every_command_and_the_numbering(tmp_path: Path) -> None:
    status, out, _ = run(
        ["play", "conveyor", "--players", "3", "--bots", "2", "--seed", "1", "--option", "jump_ins=true",
         "--option", "domino_runs=true", "--record", str(tmp_path / "h.txt")],
        "help\nquit\n",
    )
    assert status == 0
    text = "\n".join(reply_to(out, "help"))
    assert "numbered from 1, as on the screen" in text
    for command in ("reveal COLUMN CELL", "claim COLUMN", "draw COLUMN top|bottom", "meld DOMINO ...",
                    "layoff MELD DOMINO", "lay off", "discard DOMINO", "close [DOMINO]", "jump DOMINO", "mine",
                    "decline", "moves", "sort", "show", "quit", "`jump` alone", "end may be left out"):
        assert command in text, command


def test_all_bot_games_print_only_public_information(tmp_path: Path) -> None:
    for argv in (
        ["--players", "2", "--bot", "greedy", "--bot", "greedy", "--seed", "3", "--option", "target=0"],
        ["--players", "3", "--bots", "3", "--seed", "5", "--option", "target=0", "--option", "jump_ins=true"],
    ):
        record = tmp_path / f"bots-{argv[-1]}.txt"  # one file per game: records are never overwritten
        status, out, err = run(["play", "conveyor", *argv, "--record", str(record)])
        assert status == 0, err
        game = read_record(record.read_text())
        events = [e for e in game.history if e.kind == "draw"]
        lines = [x for x in out.splitlines() if re.match(r"^P\d draws ", x)]
        assert len(lines) == len(events) > 0
        face_down = 0
        for event, line in zip(events, lines, strict=True):
            where = f"from the {event.data['end']} of column {event.data['column'] + 1}"
            if event.data["face_up"]:
                assert line.endswith(f"draws {event.data['domino']} (face up) {where}")
            else:
                face_down += 1
                assert line.endswith(f"draws a face-down domino {where}") and not DOMINO.search(line)
                assert str(event.secret["domino"]) not in line
        assert face_down > 0
        claims = [e for e in game.history if e.kind == "claim"]
        claim_lines = [x for x in out.splitlines() if " claims column " in x]
        for event, line in zip(claims, claim_lines, strict=True):
            assert sorted(DOMINO.findall(line)) == sorted(event.data["face_up"])
        assert "'s hand" not in out and "Your hand" not in out and " answers: " not in out
        assert "Game over: " in out


@pytest.mark.parametrize(
    ("options", "needles"),
    [
        (["--players", "4", "--bots", "4", "--seed", "1", "--option", "partners=true"],
         [r"^Round 1 over: P(\d) closed; P(\d) and P(\d) win the round\.$", r"^Game over: P\d and P\d win \(closed\)\.$"]),
        (["--players", "2", "--bots", "2", "--seed", "1", "--option", "max_turns=3"],
         [r"^Round 1 over: nobody closed within the turn limit \(max_turns\): no score\.$",
          r"^Game over: no winner \(nobody closed within the turn limit"]),
        (["--players", "2", "--bots", "2", "--seed", "1", "--option", "set=6", "--option", "domino_runs=true"],
         [r"^Round 1 over: P\d closed\.$", r"^  scores meld \d+, ", r"^P\d draws a face-down domino"]),
    ],
)
def test_round_and_game_endings_in_words(options: list[str], needles: list[str], tmp_path: Path) -> None:
    status, out, err = run(["play", "conveyor", *options, "--option", "target=0", "--record", str(tmp_path / "e.txt")])
    assert status == 0, err
    for needle in needles:
        assert re.search(needle, out, re.M), needle


def test_replay_verbose_uses_the_conveyor_wording(tmp_path: Path) -> None:
    record = tmp_path / "r.txt"
    status, _, _ = run(
        ["play", "conveyor", "--players", "2", "--bots", "2", "--seed", "3", "--option", "target=0", "--record", str(record)]
    )
    assert status == 0
    status, out, err = run(["replay", str(record), "--verbose"])
    assert status == 0 and err == ""
    assert re.search(r"^line \d+: P\d draws a face-down domino from the (top|bottom) of column \d$", out, re.M)
    assert re.search(r"^line \d+: P\d melds a (run|sum|run of pairs)", out, re.M)
    assert "Game over: " in out


def test_describe_event_hides_what_the_seat_may_not_know() -> None:
    state = cv.from_position(POSITION, target=0)
    (event,) = state.apply(state.parse_action("0 draw 2 bottom"))  # 5-5, face down
    names = list(state.players)
    assert describe_event(event.seen_by(None), names, Style()) == [
        "P1 draws a face-down domino from the bottom of column 3"
    ]
    assert describe_event(event.seen_by(1), names, Style()) == describe_event(event.seen_by(None), names, Style())
    assert describe_event(event.seen_by(0), names, Style()) == ["P1 draws 5-5 (face down) from the bottom of column 3"]
