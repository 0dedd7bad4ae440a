"""SVG snapshots of the terminal app's game screen for every game, mid-game, at 80x24 and 100x32
(pytest-textual-snapshot).

Each game starts from a fixed seed; both seats are played by bots for a
number of actions (:data:`MID_GAME`), then the first seat is handed to a
person and the other bot makes one more move, so the screen shows a
mid-game table, the person's rack (hand, tray) and the bot's last move.
Nothing on the screen depends on a clock or a random name, so the pictures
are the same on every run. After a deliberate change of the screen, look at
the pictures and accept them with ``pytest tests/test_tui_snapshots.py
--snapshot-update``.

Run as a script, it writes the same screens to ``docs/images/tui-GAME.svg``
(100x32), ``docs/images/tui-GAME-80x24.svg`` and a rummikub turn being
built, for the documentation: ``PYTHONPATH=src python tests/test_tui_snapshots.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from rummykit.bots.registry import make_bot
from rummykit.catalogue import games
from rummykit.cli.main import build_parser
from rummykit.cli.start import game_setup
from rummykit.engine.driver import claims_open, next_seat, step
from rummykit.sim import bot_rng
from rummykit.tui.app import CoverScreen, GameApp, ScoreScreen

SIZES = [(80, 24), (100, 32)]
SIZE = (100, 32)
GAMES = [info.id for info in games()]
MID_GAME = 30
"""Actions the bots play before the person takes the first seat."""


def game_app(game: str, *more: str) -> GameApp:
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", game, "--seed", "6", "--no-record", *more])
    return GameApp(game_setup(args, {}), bot_delay=0, color=True, theme="textual-dark")


def mid_game_app(game: str, actions: int = MID_GAME, *more: str) -> GameApp:
    """The game after ``actions`` actions played by bots in both seats, stopped where the second seat's
    bot is to move; the first seat is then the person's (the bot it had goes on with its generator)."""
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(["tui", game, "--seed", "6", "--no-record", *more])
    setup = game_setup(args, {})
    state = setup.state
    bot = setup.bots[1]
    assert bot is not None
    bots = [make_bot(bot.level, game), bot]
    rngs = [bot_rng(state.seed, seat) for seat in range(len(bots))]
    while not (len(state.actions) >= actions and next_seat(state) == 1 and not claims_open(state)):
        assert state.outcome is None, "the game ended before the middle"
        step(state, bots, rngs)
    return GameApp(dataclasses.replace(setup, state=state, rngs=rngs), bot_delay=0, color=True, theme="textual-dark")


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
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", GAMES)
def test_the_game_screen_of_every_game_mid_game(game: str, size: tuple[int, int], snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(mid_game_app(game), terminal_size=size, run_before=settle)


def write_screenshots(folder: Path) -> None:
    """Every game's screen as an SVG under ``folder`` (``tui-GAME.svg``, ``tui-GAME-80x24.svg``)."""

    async def one(game: str, size: tuple[int, int], name: str) -> None:
        app = mid_game_app(game)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            app.save_screenshot(name, str(folder))

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
        asyncio.run(one(game, SIZE, f"tui-{game}.svg"))
        asyncio.run(one(game, (80, 24), f"tui-{game}-80x24.svg"))
    asyncio.run(draft())


if __name__ == "__main__":
    write_screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
