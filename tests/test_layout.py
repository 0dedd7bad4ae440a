"""Racks, tables and the whole screen laid out to the terminal's width, never splitting a piece (issue 10, item 7).

Every game is shown at 40, 80 and 120 columns: each line fits (a single word
longer than the line, such as a file path, stands alone), and the words
printed are exactly those printed with no width limit, so no piece (``R10``,
``10-12``, ``[3-5]``, ``+R7``) was ever broken.
"""

from __future__ import annotations

import fcntl
import io
import os
import re
import struct
import termios
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from catalogue_setups import GAME_IDS, bot_game_args, one_round, seats

import rummykit
from rummykit.bots.registry import make_bot
from rummykit.cli.main import main
from rummykit.cli.render import make_style, terminal_width
from rummykit.engine.driver import step
from rummykit.pieces.tiles import parse_tiles
from rummykit.presenters import Turn, presenter_for
from rummykit.presenters.freetable import rack_lines
from rummykit.presenters.rummikub import KIT
from rummykit.presenters.text import Style, compact_table, table_lines
from rummykit.sim import bot_rng

WIDTHS = [40, 80, 120]
UNLIMITED = 10_000
NUMBER = re.compile(r"^-?\d+$")
"""A row or column number of a grid (or any other bare number)."""

VARIANTS: dict[str, dict[str, object]] = {"conveyor": {"set": 12, "jump_ins": True}}
"""Options that show more of a game's table (a game not listed plays one round of its defaults)."""


def options_of(game: str) -> dict[str, object]:
    """One round of the game, with its variant options."""
    return {**one_round(game), **VARIANTS.get(game, {})}


def play_args(game: str) -> list[str]:
    """A whole bot game at the prompt: as many seats as the game allows, up to 4."""
    return bot_game_args(game, seats(game, 4), options_of(game))


def lists_at_length(turn: Turn) -> str:
    """The command that lists something at length: ``moves`` where the game has it, else ``check`` (the draft)."""
    return "moves" if "moves" in turn.completions([]) else "check"


def run(argv: list[str], columns: int, script: str = "") -> str:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={"COLUMNS": str(columns)})
    assert status == 0, err.getvalue()
    return out.getvalue()


def assert_fits(text: str, width: int) -> None:
    for line in text.splitlines():
        if line.startswith("Record saved to "):
            continue  # the prompt's own line about the file (a path), not the game's
        assert len(line) <= width or " " not in line.strip(), f"{len(line)} > {width}: {line!r}"


def collect(into: list[str]) -> Callable[..., None]:
    """A ``say`` that keeps the lines said."""
    return lambda *lines: into.extend(lines)


def words(text: str) -> list[str]:
    saving = ("Record saved to ", "The game was not saved")
    return [w for line in text.splitlines() if not line.startswith(saving) for w in line.split()]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_whole_game_fits_every_width_and_breaks_no_piece(game: str, tmp_path: Path) -> None:
    argv = ["play", game, *play_args(game), "--seed", "4"]
    whole = run([*argv, "--record", str(tmp_path / "r.txt")], UNLIMITED)
    for width in WIDTHS:
        text = run([*argv, "--no-record"], width)
        assert_fits(text, width)
        assert_fits(run(["replay", str(tmp_path / "r.txt"), "--verbose"], width), width)
        if game == "conveyor":
            # the selection grid comes in blocks at narrow widths: the same words, some more headings
            assert set(words(text)) <= set(words(whole)) | {"cell"}
        elif game == "two-tray":
            # a wide grid comes in blocks of columns: the same tiles and marks, more row and column numbers
            assert set(words(text)) <= set(words(whole))
            assert Counter(w for w in words(text) if not NUMBER.match(w)) == Counter(
                w for w in words(whole) if not NUMBER.match(w)
            )
        else:
            assert words(text) == words(whole)  # only the line breaks differ
    assert any(len(line) > 80 for line in whole.splitlines())  # there was something to lay out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAME_IDS)
def test_a_persons_screens_fit_every_width(game: str, width: int) -> None:
    players = seats(game, 3)
    state = rummykit.new_game(game, players=players, seed=2, **options_of(game))
    bots = [make_bot("random", game) for _ in range(players)]
    rngs = [bot_rng(2, s) for s in range(players)]
    presenter = presenter_for(game)
    style = Style(width=width)
    shown = 0
    for _ in range(120):
        if state.outcome is not None:
            break
        seat = min(state.to_act)
        view = state.view(seat)
        said: list[str] = []
        turn = presenter.turn(view, say=collect(said), style=style, labels=["you", "bot", "bot"])
        for command in ("help", "show", lists_at_length(turn)):
            turn.command(command)
        if game == "two-tray" and turn.completions(["place"]):
            turn.command(f"place {turn.completions(['place'])[0]} 99,99")  # a tile alone, far from the grid
            turn.command("commit")  # refused: the problem is said
        lines = [*turn.screen(), *said, *presenter.screen(view, ["you"], style), *presenter.help_lines(view, style)]
        assert_fits("\n".join(lines), width)
        shown += 1
        step(state, bots, rngs)
    assert shown > 20


def test_a_long_rack_goes_on_under_its_first_tile_and_keeps_every_tile() -> None:
    rack = parse_tiles("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 B10 B11 B12 B13 O10 O11 O12 R10 R11 J J")
    one_line = rack_lines(KIT, rack, "colour", Style(width=0))
    assert len(one_line) == 1
    for width in WIDTHS:
        lines = rack_lines(KIT, rack, "colour", Style(width=width))
        assert all(len(line) <= width for line in lines), lines
        assert " ".join(" ".join(lines).split()) == " ".join(one_line[0].split())
        if width < 120:
            assert len(lines) > 1
            indent = len(lines[1]) - len(lines[1].lstrip())
            assert all(line.startswith(" " * indent) for line in lines[1:])


def test_a_table_keeps_whole_sets_on_a_line_where_they_fit() -> None:
    sets = [["K1", "K2", "K3"], ["B10", "O10", "R10"], ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10",
            "O11", "O12", "O13"], ["R5", "R6", "R7"]]
    marks = [["", "", ""], ["+", "", "*"], [""] * 13, ["", "", "+"]]
    lines = compact_table(sets, Style(width=40), marks=marks)
    assert all(len(line) <= 40 for line in lines)
    text = "\n".join(lines)
    assert "[2] +B10 O10 *R10" in text and "[4] R5 R6 +R7" in text  # short sets whole, marks and all
    assert re.search(r"^ +\[3\] O1 ", text, re.M)  # a long set starts its own line and goes on under itself
    numbered = table_lines(sets, Style(width=40), marks=marks)
    assert all(len(line) <= 40 for line in numbered) and len(numbered) == 5


def test_the_terminal_width_comes_from_columns_or_the_terminal() -> None:
    assert terminal_width(io.StringIO(), environ={"COLUMNS": "57"}) == 57
    assert terminal_width(io.StringIO(), environ={}) == 80  # not a terminal: the usual width
    assert terminal_width(io.StringIO(), environ={"COLUMNS": "junk"}) == 80
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 63, 0, 0))
        with os.fdopen(follower, "w", closefd=False) as terminal:
            assert terminal_width(terminal, environ={}) == 63
            assert terminal_width(terminal, environ={"COLUMNS": "101"}) == 101
            assert make_style(terminal, environ={"NO_COLOR": "1"}) == Style(color=False, width=63)
    finally:
        os.close(leader)
        os.close(follower)
