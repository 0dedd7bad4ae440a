"""Following the game (issue 10, item 6): what a play changed is marked, set numbers hold, a hint is in screen order.

The marks are characters (``+`` placed from the rack, ``*`` moved from
another set), so they show without colour, with ``NO_COLOR`` and to a screen
reader; colour only underlines them.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

import rummykit
from rummykit.bots.registry import make_bot
from rummykit.cli.main import main
from rummykit.presenters import Narrator, presenter_for
from rummykit.presenters.changes import match_sets, table_changes
from rummykit.presenters.freetable import LEGEND
from rummykit.presenters.mummus import EVENT_LEGEND
from rummykit.presenters.text import MOVED, NEW, Style
from rummykit.records import read_record
from rummykit.rulesets.rummikub import from_position
from rummykit.sim import run_bots
from rummykit.solve.command import solve_command

# -- what changed ----------------------------------------------------------------------------------


def test_a_kept_set_is_unmarked_wherever_the_player_put_it() -> None:
    before = [["R1", "R2", "R3"], ["K5", "B5", "O5"]]
    after = [["K5", "B5", "O5"], ["R1", "R2", "R3"], ["K9", "B9", "O9"]]
    change = table_changes(before, after, ["K9", "B9", "O9"])
    assert change.marks == [["", "", ""], ["", "", ""], [NEW, NEW, NEW]]
    assert change.moved == [] and change.new_sets == [3] and change.gone == []


def test_pieces_that_change_sets_are_moved_and_say_from_where() -> None:
    before = [["J", "B11", "R11"], ["K4", "K5", "K6"]]
    after = [["K11", "B11", "O11", "R11"], ["K4", "K5", "K6"], ["K2", "J", "K3"]]
    change = table_changes(before, after, ["K11", "O11", "K2", "K3"])
    assert change.marks == [[NEW, "", NEW, ""], ["", "", ""], [NEW, MOVED, NEW]]
    assert change.moved == [("J", 1, 3)]


def test_a_split_set_keeps_its_place_and_a_used_up_set_is_gone() -> None:
    before = [["R1", "R2", "R3", "R4", "R5", "R6"], ["K7", "B7", "O7"], ["K8", "B8", "O8"]]
    after = [["R1", "R2", "R3"], ["R4", "R5", "R6", "R7"], ["K7", "B7", "O7", "R7"], ["K8", "B8", "O8"]]
    assert match_sets(before, after) == {0: 0, 2: 1, 3: 2}
    change = table_changes(before, after, ["R7", "R7"])
    assert change.marks[1] == [MOVED, MOVED, MOVED, NEW]
    assert change.gone == [] and change.new_sets == [2]
    assert table_changes(before, [["R1", "R2", "R3", "K8", "B8", "O8"]], []).gone == [2, 3]


def marked(line: str, mark: str) -> list[str]:
    return [w[1:] for w in line.split() if w.startswith(mark) and len(w) > 1]


@pytest.mark.parametrize("game", ["rummikub", "domino-rummikub"])
@pytest.mark.parametrize("color", [False, True])
def test_every_play_of_a_bot_game_marks_what_it_placed_and_moved(game: str, color: bool) -> None:
    state = run_bots(rummykit.new_game(game, players=3, seed=5), [make_bot("greedy", game) for _ in range(3)])
    presenter = presenter_for(game)
    style = Style(color=color, width=0)
    narrator = presenter.narrator(list(state.players), style)
    assert isinstance(narrator, Narrator)
    plain = re.compile(r"\x1b\[[0-9;]*m")
    plays = moves = 0
    explained = 0
    table: list[list[str]] = []
    for event in state.history:
        seen = event.seen_by(None)
        lines = [plain.sub("", line) for line in narrator.describe(seen)]
        if event.kind == "deal":
            table = []
        if event.kind != "play":
            continue
        plays += 1
        after = seen["table"]
        shown = next(line for line in lines if line.strip().startswith("table: "))
        # the + pieces are the placed ones, the * pieces were on the table before
        assert Counter(marked(shown, NEW)) == Counter(seen["placed"]), lines
        on_table = Counter(p for s in table for p in s)
        assert not Counter(marked(shown, MOVED)) - on_table
        moved_line = next((line for line in lines if line.strip().startswith("moved: ")), "")
        assert bool(moved_line) == bool(marked(shown, MOVED))
        moves += bool(moved_line)
        explained += sum(LEGEND in line for line in lines)
        table = after
    assert plays > 10 and moves > 0
    assert explained == 1  # the marks are explained once, the first time they appear


@pytest.mark.parametrize("color", [False, True])
def test_every_mummus_add_on_and_claim_marks_the_cards_it_added(color: bool) -> None:
    levels = ("greedy", "random", "greedy", "random")
    state = run_bots(rummykit.new_game("mummus", players=4, seed=5, target=0), [make_bot(x, "mummus") for x in levels])
    narrator = presenter_for("mummus").narrator(list(state.players), Style(color=color, width=0))
    plain = re.compile(r"\x1b\[[0-9;]*m")
    grown = explained = 0
    for event in state.history:
        seen = event.seen_by(None)
        lines = [plain.sub("", line) for line in narrator.describe(seen)]
        explained += sum(EVENT_LEGEND in line for line in lines)
        shown = re.findall(r"(?<!\S)\+((?:10|[2-9AJQK])[CDHS])(?!\S)", " ".join(lines))  # marked cards (not +84)
        if event.kind == "addon" or (event.kind == "rummy" and not seen["new"]):
            grown += 1
            assert Counter(shown) == Counter(seen["cards"]), lines  # the cards it added, in the meld it grew
            assert " ".join(c.lstrip(NEW) for c in lines[0].split(": ", 1)[1].split(" (")[0].split()) == " ".join(
                seen["meld_cards"]
            )
        else:
            assert shown == [], lines  # a new meld, a draw, a discard: nothing to mark
    assert grown > 3 and explained == 1


def test_an_unattended_game_marks_without_colour(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["play", "rummikub", "--players", "3", "--bots", "3", "--seed", "5", "--record", str(tmp_path / "r.txt")]
    assert main(argv, stdin=io.StringIO(), stdout=out, stderr=io.StringIO(), environ={"NO_COLOR": "1"}) == 0
    text = out.getvalue()
    assert "\x1b[" not in text
    assert re.search(r"\[\d+\] (\S+ )*\+[KBORJ]\d*", text) and re.search(r"\*[KBORJ]\d*", text)
    assert re.search(r"^    moved: \S+( \S+)* from set \d+ to set \d+", text, re.M)
    assert read_record((tmp_path / "r.txt").read_text()).outcome is not None


# -- set numbers within a turn ---------------------------------------------------------------------

POSITION = (
    "table: R1 R2 R3 R4 R5 R6 | K5 B5 O5 | O7 O8 O9 O10 O11 O12 O13; racks: R7 K1 K2 K3 K4 / B1 B2;"
    " pool: seed 5; turn: 0; down: 11"
)


def numbered_sets(lines: list[str]) -> dict[int, str]:
    """The table as the last ``Table:`` block printed shows it: number -> pieces (marks left out)."""
    start = max(i for i, line in enumerate(lines) if line == "Table:")
    sets: dict[int, str] = {}
    for line in lines[start + 1 :]:
        m = re.match(r"^ +(\d+)  (.*?)(?:   <- INVALID.*)?$", line)
        if m is None:
            break
        sets[int(m[1])] = " ".join(w.lstrip(NEW + MOVED) for w in m[2].split())
    return sets


def test_set_numbers_hold_for_the_whole_turn() -> None:
    state = from_position(POSITION)
    said: list[str] = []
    turn = presenter_for("rummikub").turn(state.view(0), say=lambda *lines: said.extend(lines), style=Style())
    steps = [
        ("split 1 4", {1: "R1 R2 R3", 2: "K5 B5 O5", 3: "O7 O8 O9 O10 O11 O12 O13", 4: "R4 R5 R6"}),
        ("add 4 R7", {4: "R4 R5 R6 R7"}),
        ("new K1 K2 K3", {5: "K1 K2 K3"}),
        ("move O13 3 new", {3: "O7 O8 O9 O10 O11 O12", 6: "O13"}),
        ("merge 6 3", {3: "(empty: left out when you commit)", 6: "O13 O7 O8 O9 O10 O11 O12"}),
        ("undo", {3: "O7 O8 O9 O10 O11 O12", 6: "O13"}),
        ("move O13 6 3", {3: "O7 O8 O9 O10 O11 O12 O13", 6: "(empty: left out when you commit)"}),
    ]
    expected: dict[int, str] = {}
    for command, now in steps:
        said.clear()
        assert turn.command(command) is None
        expected.update(now)
        assert numbered_sets(said) == expected, (command, said)
    action = turn.command("commit")
    assert action is not None
    (play, *_) = state.apply(action)
    # the committed table leaves the emptied slot out and keeps the order of the screen
    assert play.data["table"] == [s.split() for n, s in sorted(expected.items()) if not s.startswith("(")]


def test_the_draft_marks_what_the_turn_changed_so_far() -> None:
    state = from_position(POSITION)
    said: list[str] = []
    turn = presenter_for("rummikub").turn(state.view(0), say=lambda *lines: said.extend(lines), style=Style())
    turn.command("split 1 4")
    turn.command("add 4 R7")
    table = "\n".join(said[said.index("Table:") :])
    assert "   4  *R4 *R5 *R6 +R7" in table and "   1  R1 R2 R3" in table and LEGEND in table


# -- the hint in screen order -------------------------------------------------------------------------


def test_a_hint_lists_its_final_table_numbered_as_on_the_screen() -> None:
    # the solver gives its table as R1 R2 R3 R4 | K5 K6 K7 | B5 O5 R5; the screen's sets keep their numbers
    position = "table: K5 B5 O5 R5 | R1 R2 R3; racks: R4 K6 K7 O12 / B1 B2; pool: seed 5; turn: 0; down: 11"
    state = from_position(position)
    lines = presenter_for("rummikub").hint_lines(state.view(0))
    assert lines[-1] == "final table, numbered as on the screen: [1] B5 O5 R5  [2] R1 R2 R3 R4  [3] K5 K6 K7"
    steps = "\n".join(lines[1:-1])
    assert "add R4 from your rack to set 2" in steps and "(set 3)" in steps and "K5 from set 1" in steps


def test_solve_lists_the_final_table_in_the_order_of_the_table_given() -> None:
    status, text = solve_command("K5 B5 O5 R5 | R1 R2 R3", "R4 K6 K7")
    assert status == 0
    assert text.splitlines()[-1] == "final table: B5 O5 R5 | R1 R2 R3 R4 | K5 K6 K7"
