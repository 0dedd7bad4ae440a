"""SVG snapshots of the terminal app's game screen for every game (pytest-textual-snapshot).

Each game starts from a fixed seed with one greedy (or the usual) bot; the
snapshot is taken when the person is first to act, at 100x32. Nothing on
the screen depends on a clock or a random name, so the pictures are the
same on every run. After a deliberate change of the screen, look at the
pictures and accept them with ``pytest tests/test_tui_snapshots.py
--snapshot-update``.

Run as a script, it writes the same screens to ``docs/images/tui-GAME.svg``
for the documentation: ``PYTHONPATH=src python tests/test_tui_snapshots.py``.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from rummykit.catalogue import games
from rummykit.cli.main import build_parser
from rummykit.cli.start import game_setup
from rummykit.tui.app import CoverScreen, GameApp, ScoreScreen

SIZE = (100, 32)
GAMES = [info.id for info in games()]


def game_app(game: str, *more: str) -> GameApp:
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", game, "--seed", "6", "--no-record", *more])
    return GameApp(game_setup(args, {}), bot_delay=0, color=True, theme="textual-dark")


async def settle(pilot: Pilot[int]) -> None:
    """Wait until the person is to act (the bots before them have moved); stop the cursor blinking."""
    app = pilot.app
    assert isinstance(app, GameApp)
    for _ in range(400):
        await pilot.pause()
        if app.turn is not None or isinstance(app.screen, (CoverScreen, ScoreScreen)):
            break
    assert app.turn is not None
    app.query_one(Input).cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("game", GAMES)
def test_the_game_screen_of_every_game(game: str, snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(game_app(game), terminal_size=SIZE, run_before=settle)


def write_screenshots(folder: Path) -> None:
    """Every game's screen as an SVG under ``folder`` (``tui-GAME.svg``)."""

    async def one(game: str) -> None:
        app = game_app(game)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.save_screenshot(f"tui-{game}.svg", str(folder))

    async def draft() -> None:
        """A rummikub turn being built: a tile added where it makes a set invalid, and the hint shown."""
        app = game_app("rummikub", "-o", "initial_meld_points=0")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.click("#command")
            await pilot.press(*"new O1 O2 O3", "enter", "tab", "tab", "right", "space", "a", "shift+tab", "h")
            for _ in range(600):
                await pilot.pause(0.05)
                if app.hint is not None:
                    break
            await pilot.press("right")
            app.save_screenshot("tui-rummikub-turn.svg", str(folder))

    for game in GAMES:
        asyncio.run(one(game))
    asyncio.run(draft())


if __name__ == "__main__":
    write_screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
