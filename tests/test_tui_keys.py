"""The terminal app played with keys only: the table's keys, the hint, the moves list of the other
games, the bot speed, the theme and the replay viewer (Textual's pilot, headless)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from test_tui import make_app, message_text, my_turn, panel_text, play
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game
from rummykit.cli.main import build_parser
from rummykit.presenters.base import Presenter, Style
from rummykit.records import Seat, write_record
from rummykit.session import record_seats
from rummykit.sim import bot_rng
from rummykit.tui.app import BoardPanel, GameApp, MovesList, RackBar, ScoreScreen
from rummykit.tui.moves import ListedMove, worded
from rummykit.tui.replay import ReplayScreen
from rummykit.tui.start import StartScreen


async def click_piece(app: GameApp, pilot: Pilot[int], set_number: int, place: int) -> None:
    """Click a table piece (the panel's content starts after its padding; each cell after a space)."""
    board = app.query_one(BoardPanel)
    assert board.layout_ is not None
    line, start, _ = next((ln, x, end) for ln, x, end, what in board.layout_.spans if what == (set_number, place))
    await pilot.click(BoardPanel, offset=(start + 2, line))


def sets_of(app: GameApp) -> list[tuple[str, ...]]:
    assert app.board_now is not None
    return [s.pieces for s in app.board_now.sets]


def test_table_keys_split_merge_move_and_take_back() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        assert sets_of(app) == [("K6", "B6", "R6"), ("K10", "B10", "R10")]
        await pilot.press("tab")  # the table
        assert isinstance(app.focused, BoardPanel) and app.target == 1
        await pilot.press("ctrl+s")  # the cursor is on the first piece: nothing to split before it
        assert "nothing to split" in message_text(app) or "split it before" in message_text(app)
        await pilot.press("right", "ctrl+s")  # split set 1 before B6
        assert sets_of(app) == [("K6",), ("K10", "B10", "R10"), ("B6", "R6")]
        text = " ".join(panel_text(app).split())  # a long reason goes on over several lines
        assert "[1] K6 INVALID" in text and "(rule RK-SET-SIZE)" in text
        assert app.query_one(BoardPanel).check_action("commit", ()) is None
        # select R6 in set 3, go back to set 1 and merge set 3 onto it
        await pilot.press("down", "down", "right", "space")
        assert app.target == 3 and app.table_picks == {(3, 1)}
        await pilot.press("up", "up", "ctrl+g")
        assert sets_of(app) == [("K6", "B6", "R6"), ("K10", "B10", "R10"), ()]
        await pilot.press("ctrl+u")  # undo the merge
        assert sets_of(app)[2] == ("B6", "R6")
        # move B6 (set 3) onto set 1: select it, then Enter on set 1
        await pilot.press("down", "down", "space", "up", "up", "enter")
        assert sets_of(app) == [("K6", "B6"), ("K10", "B10", "R10"), ("R6",)]
        await pilot.press("ctrl+r")  # reset the turn
        assert sets_of(app) == [("K6", "B6", "R6"), ("K10", "B10", "R10")]
        # a piece from the rack onto set 2, then back with Delete on the table
        rack = app.query_one(RackBar)
        await pilot.press("tab")
        assert rack.has_focus and rack.rack is not None
        steps = rack.rack.index("K9") - rack.cursor
        await pilot.press(*(["right"] * steps), "down", "enter")
        assert app.target == 2 and sets_of(app)[1] == ("K10", "B10", "R10", "K9")
        await click_piece(app, pilot, 2, 3)
        assert isinstance(app.focused, BoardPanel) and app.table_picks == {(2, 3)}
        await pilot.press("delete")
        assert sets_of(app)[1] == ("K10", "B10", "R10") and "K9" in (rack.rack or ())
        # a new set of table pieces: click K10 and K6, Ctrl+N
        await click_piece(app, pilot, 2, 0)
        await click_piece(app, pilot, 1, 0)
        await pilot.press("ctrl+n")
        assert sets_of(app) == [("B6", "R6"), ("B10", "R10"), ("K6", "K10")]
        assert app.state.actions and len(app.state.actions) == 1  # nothing played: only the bot's turn

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario, (100, 40))


def test_an_invalid_table_is_marked_and_can_still_be_committed_on_purpose() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        rack = app.query_one(RackBar)
        await pilot.press("tab", "tab", "space", "enter")  # K5 onto K6 B6 R6
        board = app.query_one(BoardPanel)
        rendered = board.render()
        assert "INVALID" in rendered.plain and "(rule RK-SET" in rendered.plain
        invalid = rendered.plain.index("INVALID")
        styles = [str(span.style) for span in rendered.spans if span.start <= invalid < span.end]
        assert any("red" in style for style in styles)  # highlighted, and the word is there without colour
        assert rack.check_action("commit", ()) is None
        await pilot.press("ctrl+o")  # greyed out: nothing happens
        assert app.turn is not None and len(app.state.actions) == 1
        await pilot.click("#command")
        await pilot.press(*"penalty", "enter")
        await my_turn(app, pilot)
        assert app.state.history[-1].kind != "play" or app.state.view(0)["piece_counts"][0] >= 16
        assert any(e.kind == "penalty" for e in app.state.history)

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)


def test_hint_shows_the_best_play_on_the_table_and_plays_nothing() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        before = len(app.state.actions)
        await pilot.press("tab", "f7")
        for _ in range(600):
            await pilot.pause(0.05)
            if app.hint is not None:
                break
        assert app.hint == [["K6", "B6", "R6"], ["K10", "B10", "R10"], ["R5", "R6", "R7"]]
        text = panel_text(app)
        assert "Hint: the best play leaves this table" in text and "hR5 hR6 hR7" in text
        assert "make a new set" in message_text(app)
        assert len(app.state.actions) == before and app.turn is not None  # nothing played
        await pilot.press("f7")
        assert app.hint is None and "Hint:" not in panel_text(app)

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario)


async def play_hint_with_keys(app: GameApp, pilot: Pilot[int]) -> None:
    """One turn played with the rack's keys from the hint: each hinted set that is new and made of
    rack pieces is selected and made with Ctrl+N; each that is a table set with rack pieces added gets
    them with Up/Down (to mark the set) and Enter; then Ctrl+O. Anything else: reset and draw (or pass)."""
    rack = app.query_one(RackBar)
    app.hint = None
    rack.focus()
    await pilot.press("f7")
    for _ in range(600):
        await pilot.pause(0.02)
        if app.hint is not None:
            break
    assert app.hint is not None and app.board_now is not None
    start = [Counter(s.pieces) for s in app.board_now.sets]
    for hinted in app.hint:
        wanted = Counter(hinted)
        base = next((n for n, pieces in enumerate(start, 1) if pieces and not pieces - wanted), None)
        extra = list((wanted - start[base - 1]).elements()) if base else hinted
        if base is None and any(Counter(p for s in start for p in s.elements())[p] for p in hinted):
            continue
        if not extra:
            continue
        rack.selected = set()
        for piece in extra:
            assert rack.rack is not None
            index = next(i for i, p in enumerate(rack.rack) if p == piece and i not in rack.selected)
            await pilot.press(*(["right"] * ((index - rack.cursor) % len(rack.rack))), "space")
        if base is None:
            await pilot.press("ctrl+n")
        else:
            while app.target != base:
                await pilot.press("down")
            await pilot.press("enter")
    board = app.board_now
    assert board is not None
    if board.placed and board.ready:
        await pilot.press("ctrl+o")
    else:
        if board.changed:
            await pilot.press("ctrl+r")
        await pilot.press("ctrl+d" if app.state.view(min(app.state.to_act))["pool_size"] else "ctrl+k")


GAME = "table: K1 K2 K3 | B5 B6 B7; racks: R4 R5 R6 O9 O10 O11 K4 B8 / K9 K10 K11 K12 O1 O2 O3 R13 R12; pool: seed 5"


def test_a_whole_rummikub_game_against_a_bot_with_keys_only() -> None:
    """From a set-up position (both players down) to the final score screen, every move made with keys."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        for _ in range(20):
            if isinstance(app.screen, ScoreScreen):
                break
            assert app.turn is not None
            before = len(app.state.actions)
            await play_hint_with_keys(app, pilot)
            assert len(app.state.actions) > before, message_text(app)
            await my_turn(app, pilot)
        assert app.state.outcome is not None and isinstance(app.screen, ScoreScreen) and app.screen.final
        assert list(app.state.outcome.winners) == [0] and app.state.view(0)["piece_counts"][0] == 0
        plays = [str(a) for a in app.state.actions if a.player == 0]
        assert plays and all(" play " in p for p in plays)  # new sets and tiles added to sets: no draw
        assert "K1 K2 K3 K4" in plays[-1] and "B5 B6 B7 B8" in plays[-1] and "O9 O10 O11" in plays[-1]

    app = make_app("rummikub", "--seed", "3", "--no-record")
    assert app.setup is not None
    from_position = app.state.info.from_position
    assert from_position is not None
    app.load(dataclasses.replace(app.setup, state=from_position(GAME + "; down: 1 1", players=2, seed=3)))
    play(app, scenario)


@pytest.mark.parametrize("game", ["conveyor", "two-tray", "mummus"])
def test_the_other_games_are_played_with_the_moves_list(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The list holds the engine's listed actions, in the command layer's words; Enter takes the
    action itself through the turn: every reader of typed text is broken, and the moves are played."""
    from test_turn_steps import no_text

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        moves = app.query_one(MovesList)
        if app.table_widget() is not None:
            assert not moves.display
            await pilot.press("f6")  # under a game's own table, the list is the fallback F6 shows
        played = 0
        for _ in range(6):
            if app.state.outcome is not None or isinstance(app.screen, ScoreScreen):
                break
            assert app.turn is not None and moves.display
            seat = min(app.state.to_act)
            listed = [str(o.prompt) for o in moves.options]
            actions = list(app.state.indexed_actions(seat))
            # in the command layer's words, grouped by kind and sorted by number (worded)
            ordered = worded([ListedMove(app.presenter.command_text(a), a) for a in actions])
            assert listed == [m.said for m in ordered]
            assert [move.action for move in moves.listed] == [m.action for m in ordered]
            assert sorted(map(str, actions)) == sorted(str(m.action) for m in ordered)
            if played == 0:  # typing narrows the list to the moves whose typed command starts so
                verb = ordered[-1].label.split()[0]
                await pilot.click("#command")
                await pilot.press(*verb)
                narrowed = [str(o.prompt) for o in moves.options]
                assert narrowed == [m.said for m in ordered if m.label.startswith(verb)]
                await pilot.press(*["backspace"] * len(verb))
                assert [str(o.prompt) for o in moves.options] == listed
            moves.focus()
            count = len(app.state.actions)
            await pilot.press("end", "enter")  # the last move listed
            assert app.state.actions[count] == ordered[-1].action
            played += 1
            await my_turn(app, pilot)
        assert played >= 3
        person = [a for a in app.state.actions if a.player == 0]
        assert len(person) >= 3

    play(make_app(game, "--seed", "5", "--no-record"), scenario)


def test_the_bot_speed_steps_and_the_theme_switches() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        await pilot.pause(0.2)
        assert len(app.state.actions) == 0  # every bot waits for F5
        await pilot.press("f5")
        for _ in range(50):
            await pilot.pause(0.02)
            if app.state.actions:
                break
        await pilot.pause(0.2)
        assert len(app.state.actions) == 1
        assert app.last_move and app.last_move[0].startswith("Last: ")
        assert app.query_one("#last", Static).display
        await pilot.press("f3")  # step -> fast
        assert app.speed == "fast"
        for _ in range(100):
            await pilot.pause(0.02)
            if len(app.state.actions) > 3:
                break
        assert len(app.state.actions) > 3
        theme = app.theme
        await pilot.press("f4")
        assert app.theme != theme and app.theme in ("textual-dark", "textual-light")

    setup_app = make_app("conveyor", "--players", "2", "--bots", "2", "--seed", "2", "--no-record")
    setup_app.delay_override = None
    setup_app.speed = "step"

    async def run() -> None:
        async with setup_app.run_test(size=(100, 32)) as pilot:
            await scenario(setup_app, pilot)

    asyncio.run(run())


def saved_game(tmp_path: Path) -> Path:
    """A record of a few turns of two greedy bots, as ``rummykit play`` writes it."""
    info = find_game("rummikub")
    state = info.new(players=2, seed=8)
    bots = [make_bot("greedy", info.id), make_bot("greedy", info.id)]
    rngs = [bot_rng(8, seat) for seat in range(2)]
    for _ in range(6):
        seat = min(state.to_act)
        state.apply(bots[seat].choose(state.view(seat), rngs[seat]))
    path = tmp_path / "game.txt"
    seats: list[Seat] = record_seats(bots, rngs)
    path.write_text(write_record(state, seats), encoding="utf-8")
    return path


def test_the_replay_viewer_steps_back_and_forth(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    app = GameApp(None, bot_delay=0, color=False, replay=str(path))

    def head() -> str:
        return str(app.screen.query_one("#replay-head", Static).content)

    def table() -> str:
        return str(app.screen.query_one("#replay-screen", Static).content)

    async def run() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert "action 0 of 6" in head() and "Seen by a spectator" in head()
            start = table()
            await pilot.press("right", "right")
            assert "action 2 of 6" in head() and screen.at == 2
            await pilot.press("end")
            assert "action 6 of 6" in head()
            end = table()
            await pilot.press("left")
            assert "action 5 of 6" in head()
            await pilot.press("home")
            assert table() == start and start != end
            assert "Your rack" not in start  # a spectator sees no rack
            await pilot.press("v")
            assert "Seen by P1" in head() and "Your rack" in table()
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ReplayScreen)  # the start screen

    asyncio.run(run())


def test_a_bad_record_is_refused_before_the_replay_viewer(tmp_path: Path) -> None:
    from io import StringIO

    from rummykit.cli.main import main

    bad = tmp_path / "bad.txt"
    bad.write_text("not a record\n", encoding="utf-8")
    err = StringIO()
    assert main(["tui", "--replay", str(bad)], stdout=StringIO(), stderr=err) == 2
    assert err.getvalue().startswith("rummykit: ") and "Traceback" not in err.getvalue()



def test_players_seed_and_speed_from_the_command_line_fill_the_start_screen() -> None:
    """``rummykit tui --players 4 --seed 17 --speed slow`` with no game: the start screen's defaults."""
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(
        ["tui", "--players", "4", "--seed", "17", "--speed", "slow", "--no-record"]
    )
    app = GameApp(None, speed=args.speed, color=False, args=args, environ={})

    async def run() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, StartScreen)
            assert screen.query_one("#players", Select).value == 4 and len(screen.seat_levels()) == 4
            assert screen.query_one("#seed", Input).value == "17"
            assert screen.query_one("#speed", Select).value == "slow"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.setup is not None and app.state.seed == 17 and len(app.state.players) == 4
            assert app.speed == "slow" and app.bot_delay == 1.5

    asyncio.run(run())


@pytest.mark.parametrize("game", ["rummikub", "domino-rummikub"])
def test_the_hint_table_is_the_table_the_hint_steps_end_with(game: str) -> None:
    """What ``h`` draws on the table (the turn's ``hint_sets``) is the final table the typed hint prints."""
    from rummykit.presenters import presenter_for

    presenter = presenter_for(game)
    for seed in (3, 4):
        state = find_game(game).new(players=2, seed=seed)
        seat = min(state.to_act)
        turn = presenter.turn(state.view(seat), say=lambda *lines: None, style=Style())
        hint_sets = getattr(turn, "hint_sets", None)
        assert callable(hint_sets)
        sets = hint_sets()
        last = presenter.hint_lines(state.view(seat))[-1]
        if sets is None:
            assert "no " in last
            continue
        assert last.startswith("final table") and sets
        assert last.endswith("  ".join(f"[{n}] {' '.join(s)}" for n, s in enumerate(sets, 1)))


class SlowHints:
    """The game's presenter, whose hint takes a while and says so as the solver does when compiling."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter

    def __getattr__(self, name: str) -> object:
        return getattr(self.presenter, name)

    def hint_lines(self, view: Mapping[str, Any]) -> list[str]:
        from rummykit.solve import compiled

        compiled._say("rummykit: compiling the solver's search for this machine...")
        time.sleep(1.0)
        return self.presenter.hint_lines(view)


def test_a_slow_hint_shows_a_loading_indicator_and_the_solver_notice() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        app.presenter = SlowHints(app.presenter)  # type: ignore[assignment]
        board = app.query_one(BoardPanel)
        await pilot.press("tab", "f7")
        await pilot.pause(0.6)
        assert board.loading and app.hint is None and app.turn is not None  # the screen still answers
        assert any("compiling the solver" in str(n.message) for n in app._notifications)
        for _ in range(200):
            await pilot.pause(0.05)
            if app.hint is not None:
                break
        assert app.hint is not None and not board.loading

    play(make_app("rummikub", "--seed", "4", "--no-record", "-o", "initial_meld_points=0"), scenario)


def test_draft_keys_take_typed_steps_and_no_text_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rack's and the table's keys build the draft's steps: with every reader of typed text broken,
    a new set, a refused split, a split, an undo and a draw still go through the turn."""
    from test_turn_steps import no_text

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        before, table = len(app.state.actions), sets_of(app)
        no_text(monkeypatch)
        rack = app.query_one(RackBar)
        await pilot.press("tab", "tab", "left", "space", "left", "space", "left", "space", "ctrl+n")  # R7 R6 R5
        assert sets_of(app) == [*table, ("R5", "R6", "R7")]
        await pilot.press("shift+tab", *["down"] * len(table))  # the table, its new set the target
        assert isinstance(app.focused, BoardPanel) and app.target == len(table) + 1 and app.table_pos == 0
        await pilot.press("ctrl+s")  # the cursor on R5: nothing before it to split, refused
        assert "split it before" in message_text(app) and sets_of(app) == [*table, ("R5", "R6", "R7")]
        await pilot.press("right", "ctrl+s")
        assert sets_of(app) == [*table, ("R5",), ("R6", "R7")]
        await pilot.press("ctrl+u")
        assert sets_of(app) == [*table, ("R5", "R6", "R7")] and "R5" not in (rack.rack or ())
        await pilot.press("ctrl+d")  # the game's draw, built as an action
        assert app.state.actions[before].player == 0 and app.state.actions[before].text() == "draw"

    play(make_app("rummikub", "--seed", "4", "--no-record"), scenario)
