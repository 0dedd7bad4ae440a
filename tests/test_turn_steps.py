"""The typed entry points of the generic turn (``step``, ``act``, ``undo``, ``reset``): a step built from
typed values does what the same step typed as a line does once read (the draft, what is said, the
refusal, the undo history), and no text is read on the way."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from rummykit.blocks.grid import Put
from rummykit.engine.commands import Commands
from rummykit.engine.core import Action, GameInfo
from rummykit.errors import ParseError, RuleError, RummykitError
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.presenters.rummikub import PRESENTER
from rummykit.presenters.text import Style
from rummykit.presenters.turn import Turn
from rummykit.presenters.two_tray import PRESENTER as TWO_TRAY
from rummykit.rulesets.draft_steps import Add, Commit, New
from rummykit.rulesets.freetable import Draw
from rummykit.rulesets.rummikub import INFO
from rummykit.rulesets.two_tray import from_position as two_tray_position
from rummykit.rulesets.two_tray.steps import Place


def no_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every reader of typed text fail the test if it is called."""

    def read(*args: object, **kwargs: object) -> Action:
        raise AssertionError("text was read")

    monkeypatch.setattr(Turn, "command", read)
    monkeypatch.setattr(Commands, "read_typed", read)
    monkeypatch.setattr(Commands, "read", read)
    monkeypatch.setattr(GameInfo, "parse_typed", read)


def rummikub_turn() -> tuple[Turn, list[str]]:
    said: list[str] = []
    turn = PRESENTER.turn(INFO.new(players=2, seed=4).view(1), say=lambda *lines: said.extend(lines), style=Style())
    assert isinstance(turn, Turn)
    return turn, said


def outcome(run: Callable[[], object]) -> object:
    """What ``run`` returned, or the refusal it raised (its class and words)."""
    try:
        return run()
    except RummykitError as exc:
        return (type(exc), str(exc))


def test_a_typed_step_is_the_typed_line_once_read(monkeypatch: pytest.MonkeyPatch) -> None:
    by_line, said_by_line = rummikub_turn()
    by_step, said_by_step = rummikub_turn()
    lines = ["new R5 R6 K6", "add 9 R9", "add 1 R9", "undo", "commit"]
    results_by_line = [outcome(partial(by_line.command, line)) for line in lines]
    no_text(monkeypatch)
    steps: list[Callable[[], object]] = [
        lambda: by_step.step(New(1, tuple(parse_tiles("R5 R6 K6")))),
        lambda: by_step.step(Add(1, 8, (Tile.parse("R9"),))),  # set 9 on the screen: there is none
        lambda: by_step.step(Add(1, 0, (Tile.parse("R9"),))),
        by_step.undo,
        lambda: by_step.step(Commit(1)),  # the set is invalid: the commit is refused and said
    ]
    results_by_step = [outcome(run) for run in steps]
    assert results_by_step == results_by_line
    assert results_by_step[1] == (ParseError, "there is no set 9 (sets are 1..1)")
    assert said_by_step == said_by_line and any("Cannot commit" in line for line in said_by_step)
    assert by_step.board() == by_line.board()
    board = by_step.board()
    assert board is not None and board.sets[0].pieces == ("R5", "R6", "K6") and "R9" in board.rack


def test_a_step_the_turn_does_not_offer_is_refused_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    no_text(monkeypatch)
    turn, _ = rummikub_turn()
    before = turn.board()
    with pytest.raises(ParseError, match="for seat 0, not this turn's seat 1"):
        turn.step(New(0, tuple(parse_tiles("R5 R6"))))
    with pytest.raises(ParseError, match="no step of this turn's draft"):
        turn.step(Draw(1))  # a game action, not a step
    with pytest.raises(ParseError, match="no command of this game"):
        turn.act(New(1, tuple(parse_tiles("R5 R6"))))  # a step, not a game action
    with pytest.raises(ParseError, match="nothing to reset"):
        turn.reset()
    with pytest.raises(RuleError):
        turn.undo()
    assert turn.board() == before
    draw = turn.act(Draw(1))
    assert draw == Draw(1) and turn.ended_by == "draw"


def test_a_grid_step_is_the_typed_line_once_read(monkeypatch: pytest.MonkeyPatch) -> None:
    position = "grid: 0,0: R5 R6 R7; trays: A[R4 R8 K1 K9] B[K2 B9] / A[O1 O2] B[B1 B3]; next: A B; down: 11"
    said: list[str] = []
    by_line = TWO_TRAY.turn(two_tray_position(position).view(0), say=lambda *lines: said.extend(lines), style=Style())
    assert isinstance(by_line, Turn)
    by_line.command("place R8 1,4")
    assert by_line.command("commit") is not None
    by_step = TWO_TRAY.turn(two_tray_position(position).view(0), say=lambda *lines: said.extend(lines), style=Style())
    no_text(monkeypatch)
    assert isinstance(by_step, Turn)
    by_step.step(Place(0, (Put(0, 3, Tile.parse("R8")),)))
    assert by_step.draft_view()["grid"] == by_line.draft_view()["grid"]
    action = by_step.step(Commit(0))
    assert action is not None and action.text() == "play A 0,3=R8" and by_step.ended_by == "commit"
