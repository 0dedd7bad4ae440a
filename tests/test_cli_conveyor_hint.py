"""conveyor's ``hint`` at the line prompt: the strong bot's move, why, and nothing played."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli import run
from test_cli_prompt import Terminal, plain

from rummykit.presenters import presenter_for

PROMPT = r"P1's turn> "


def test_hint_in_a_terminal_prints_the_advice_and_plays_nothing(tmp_path: Path) -> None:
    term = Terminal(["play", "conveyor", "--bots", "1", "--seed", "2", "--no-record"], tmp_path)
    try:
        _hint_in(term)
    finally:
        term.close()


def _hint_in(term: Terminal) -> None:
    term.expect(PROMPT)
    term.send("hint\r")
    shown = plain(term.expect(r"why: [^\n]*\n"))
    assert "hint: " in shown and "(type: " in shown, shown
    assert "turns from closing" in shown or "before someone else takes it" in shown, shown
    term.expect(PROMPT)  # still this seat's turn: the hint played nothing
    term.send("quit\r")
    term.expect("Stopped at your request")


@pytest.mark.parametrize("seed", [2, 5])
def test_hint_at_the_prompt_is_the_advice_of_the_strong_bot(seed: int) -> None:
    assert presenter_for("conveyor").hint
    status, out, err = run(["play", "conveyor", "--bots", "1", "--seed", str(seed), "--no-record"], "hint\nhelp\nquit\n")
    assert status == 0 and "Traceback" not in out + err, err
    reply = out.split("> hint\n", 1)[1].split(">", 1)[0].splitlines()
    assert reply[0].startswith("hint: "), reply
    assert reply[1].startswith("  why: "), reply
    assert any(line.strip().startswith("hint") for line in out.split("> help\n", 1)[1].splitlines())
