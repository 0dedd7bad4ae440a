"""Mummus's hint in the line prompt (through a real terminal) and in the terminal app (F7 and typed)."""

from __future__ import annotations

import asyncio

import pytest
from test_cli_prompt import Open, plain, terminal  # noqa: F401  (the pseudo-terminal fixture)
from test_tui import make_app, message_text, my_turn
from textual.pilot import Pilot

import rummykit
from rummykit.presenters.advice import advice_lines
from rummykit.tui.app import GameApp


def test_hint_at_the_line_prompt_prints_the_strong_bot_s_advice(terminal: Open) -> None:  # noqa: F811
    seed = 5  # P1 (seat 0) plays first
    state = rummykit.new_game("mummus", players=2, seed=seed)
    term = terminal(["play", "mummus", "--bots", "1", "--seed", str(seed), "--no-record"])
    term.expect(r"P1's (turn|call|claim)> ")
    assert state.current == 0
    term.send("hint\r")
    shown = plain(term.expect(r"\(the best play found in the time given; a better one may exist\)"))
    expected = advice_lines("mummus", state.view(0))
    flat = " ".join(shown.split())
    assert expected[0].startswith("hint: ") and expected[1].startswith("  why: ")
    for line in expected:  # every line of the advice, as the bot gives it for this view
        assert " ".join(line.split()) in flat, (line, flat)
    term.expect(r"P1's (turn|call|claim)> ")
    term.send("quit\r")
    term.expect("Stopped at your request")


@pytest.mark.parametrize("how", ["f7", "typed"])
def test_the_terminal_app_shows_the_hint_lines(how: str) -> None:
    app = make_app("mummus", "--seed", "3", "--no-record")

    async def run() -> None:
        async with app.run_test(size=(110, 44)) as pilot:
            await my_turn(app, pilot)
            assert app.turn is not None
            expected = advice_lines("mummus", app.turn_view())
            if how == "f7":
                await pilot.press("f7")
            else:
                await _type(pilot, "hint")
            for _ in range(200):
                await pilot.pause(0.05)
                if "why:" in message_text(app):
                    break
            shown = " ".join(message_text(app).split())
            assert " ".join(expected[0].split()) in shown and " ".join(expected[1].split()) in shown

    asyncio.run(run())


async def _type(pilot: Pilot[int], text: str) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    await pilot.press(*text, "enter")
