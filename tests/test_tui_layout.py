"""The terminal app in a small terminal (80x24) and after a resize, checked on the widgets' places
(not only in pictures): the table, your own pieces and the last move are on the screen without
scrolling, the log and the key hints are never cut, and the help is the game's own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from test_tui_snapshots import GAMES, mid_game_app, settle
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import RichLog, Static

from rummykit.presenters.base import Style
from rummykit.tui.app import BoardPanel, GameApp, RackBar, free_table_keys_help
from rummykit.tui.tables import HandBar, TableWidget, widget_classes
from rummykit.tui.widgets import KeysBar

SMALL = (80, 24)
Scenario = Callable[[GameApp, Pilot[int]], Awaitable[None]]


def run(app: GameApp, scenario: Scenario, size: tuple[int, int] = SMALL) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(app, pilot)

    asyncio.run(go())


def shown_part(widget: Widget) -> tuple[Region, Region]:
    """The region a widget takes on the screen and the part of it in view (not scrolled away)."""
    geometry = widget.screen.find_widget(widget)
    return geometry.region, geometry.region.intersection(geometry.clip)


def assert_in_view(widget: Widget, size: tuple[int, int]) -> None:
    region, shown = shown_part(widget)
    assert widget.display and region.height > 0, f"{widget} is not shown"
    assert shown == region, f"{widget} is partly out of view: {region} shows only {shown}"
    assert Region(0, 0, *size).contains_region(region), f"{widget} {region} is off the screen"


def plain(widget: Widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


@pytest.mark.parametrize("game", GAMES)
def test_at_80x24_the_table_your_pieces_and_the_last_move_are_in_view(game: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        view: dict[str, Any] = dict(app.state.view(0))  # the keys of any game
        own = [str(p) for p in view.get("rack") or view.get("hand") or []]
        if app.board_now is not None:  # a free-table game: the draft and the rack under it
            table: Widget = app.query_one(BoardPanel)
            pieces: Widget = app.query_one(RackBar)
        else:
            table = next(w for w in app.query(TableWidget).results(TableWidget) if w.display)
            pieces = app.query_one(HandBar)
            trays = view.get("trays")
            if isinstance(trays, dict):
                own = [str(t) for t in trays[view["playing"][0]]]
        assert own, "the position has no pieces of the person's to show"
        # your pieces: all of the widget on the screen, every piece drawn
        assert_in_view(pieces, SMALL)
        drawn = plain(pieces).split()
        assert all(any(piece in word for word in drawn) for piece in own), (own, drawn)
        # the table: all of it on the screen, every word whole (lines too long for the room go on
        # under themselves, broken between words)
        assert_in_view(table, SMALL)
        drawing = table.render()
        assert isinstance(drawing, Text)
        shown = drawing.wrap(Console(), table.content_region.width)
        assert " ".join(line.plain for line in shown).split() == drawing.plain.split()
        assert len(shown) <= table.content_region.height
        # the last move: highlighted under the panels, and the log's last line in view
        last = app.query_one("#last", Static)
        assert_in_view(last, SMALL)
        assert str(last.content).startswith("Last: ")
        log = app.query_one("#log", RichLog)
        assert log.scroll_y >= log.max_scroll_y, "the log does not show its last line"
        words = " ".join(strip.text for strip in log.lines).split()
        assert words[-len(app.log_lines[-1].split()) :] == app.log_lines[-1].split()  # it ends the log, whole

    run(mid_game_app(game), scenario)


@pytest.mark.parametrize("game", ["rummikub", "two-tray"])
def test_after_a_resize_the_log_is_laid_out_again_between_words(game: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        log = app.query_one("#log", RichLog)
        room = log.scrollable_content_region.width
        cut = [strip.text for strip in log.lines if len(strip.text.rstrip()) > room]
        assert not cut, f"lines wider than the log ({room}): {cut[:3]}"
        words = " ".join(strip.text for strip in log.lines).split()
        assert words == " ".join(app.log_lines).split()  # every word whole, in order
        assert log.scroll_y >= log.max_scroll_y

    run(mid_game_app(game), scenario, size=(120, 40))


@pytest.mark.parametrize("game", GAMES)
def test_at_80x24_every_key_hint_is_shown_whole(game: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        bar = app.query_one(KeysBar)
        for _ in range(4):  # the command line, the table, the rack (if any), the log
            await pilot.press("tab")
            await pilot.pause()
            shown = [line.strip() for line in plain(bar).splitlines()]
            assert len(shown) <= bar.content_region.height, "the keys bar has more lines than room"
            assert all(len(line) <= bar.content_region.width for line in shown)
            focused = app.focused
            for node, binding, _, _ in app.screen.active_bindings.values():
                if binding.show:
                    hint = f"{app.get_key_display(binding)} {binding.description}"
                    assert any(hint in line for line in shown), f"{hint!r} (of {node}) not shown whole: {shown}"
            assert focused is not None

    run(mid_game_app(game), scenario)


@pytest.mark.parametrize("game", GAMES)
def test_the_help_lists_only_this_games_commands_and_keys_wrapped_between_words(game: str) -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        await pilot.pause()
        field = app.screen.query_one("#help-text", Static)
        text = str(field.content)
        rows = app.presenter.help_rows(app.state.view(0))
        for command, _ in rows:
            assert command in text
        # `penalty` only where the game has it
        assert ("penalty" in text) == any(command.startswith("penalty") for command, _ in rows)
        # the keys of this game's table, and of no other
        mine = app.table_widget()
        for kind, cls in widget_classes().items():
            heading = cls.KEYS_HELP[0]
            assert (heading in text) == (mine is not None and mine.kind == kind), heading
        free_table = [line for line in free_table_keys_help(True) if not line.startswith(" ")]
        assert all((heading in text) == (app.board_now is not None) for heading in free_table)
        assert ("split the set" in text) == (app.board_now is not None)
        # laid out to the help's width, every word whole
        width = field.content_region.width
        assert width > 0 and all(len(line) <= width for line in text.splitlines())
        assert text.split() == " ".join(app.help_lines(0)).split()  # the lines unbroken: the same words
        whole = app.presenter.help_lines(app.turn_view(), Style(width=0))
        assert any(len(line) > width for line in whole)  # so the help did need laying out

    run(mid_game_app(game), scenario)
