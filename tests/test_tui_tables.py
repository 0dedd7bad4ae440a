"""The table widgets of the terminal app played with their own keys (not the moves list):
the state changes as the keys said, and a refused key shows the engine's rule id and changes nothing."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import pytest
from conftest import as_game
from test_tui import make_app, message_text, my_turn, play
from test_turn_steps import no_text
from textual.pilot import Pilot
from textual.widgets import Static

from rummykit.engine.core import Action
from rummykit.engine.driver import Agent
from rummykit.engine.rng import Rng
from rummykit.rulesets.conveyor.state import Conveyor
from rummykit.rulesets.mummus.state import Mummus
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.tui.app import GameApp, MovesList
from rummykit.tui.tables import TableWidget
from rummykit.tui.tables.conveyor import CELL, COLUMN, MELD, ConveyorTable
from rummykit.tui.tables.grid import GridTable
from rummykit.tui.tables.melds_pile import HAND, PILE, MeldsPileTable
from rummykit.tui.tables.melds_pile import MELD as MELD_OF_PILE

RULE_ID = re.compile(r"\(rule [A-Z0-9-]+\)")


async def click_cell(pilot: Pilot[int], table: TableWidget, what: object) -> None:
    """Click what a table widget drew, on the table or on the hand bar under it (where the content
    starts after the border and the padding)."""
    for widget in (table, table.hand_bar):
        layout = getattr(widget, "layout_", None)
        found = [(ln, x) for ln, x, _, drawn in layout.spans if drawn == what] if layout is not None else []
        if widget is not None and found:
            line, start = found[0]
            await pilot.click(widget, offset=(start + 3, line + 1))
            return
    raise AssertionError(f"{what!r} is not drawn")


def drawn_text(table: TableWidget) -> str:
    """What a table widget draws: the table and the seat's own pieces (on the hand bar)."""
    bar = table.hand_bar
    return str(table.render()) + "\n" + (bar.render().plain if bar is not None and bar.display else "")


def test_mummus_is_played_with_the_hand_melds_and_pile_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys build mummus's actions: with every reader of typed text broken, a refused discard, a draw,
    a refused meld, a discard and a take go through the turn (the moves list, F6, too)."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Mummus)  # the state stays the same object while the app plays
        table = app.query_one(MeldsPileTable)
        assert table.display and not app.query_one(MovesList).display  # the widget, not the list
        assert game.view(0)["phase"] == "draw" and app.state.to_act == {0}
        drawn = set(re.findall(r"[0-9AJQKT]+[CDHS]", drawn_text(table)))
        assert set(game.view(0)["hand"]) <= drawn
        assert not drawn & set(game.view(1)["hand"])  # the bot's hand is never drawn
        await pilot.press("tab")  # from the command line to the table
        assert app.focused is table
        before = len(app.state.actions)
        await pilot.press("ctrl+x")  # a discard before drawing: refused by the engine
        assert RULE_ID.search(message_text(app)), message_text(app)
        assert len(app.state.actions) == before
        hand = list(game.view(0)["hand"])
        await pilot.press("ctrl+d")
        drew = app.state.actions[before]
        assert drew.player == 0 and "draw" in str(drew) and len(game.view(0)["hand"]) == len(hand) + 1
        # one card is no meld: refused with the rule, nothing changes
        count = len(app.state.actions)
        await pilot.press("space", "ctrl+n")
        assert RULE_ID.search(message_text(app)) and len(app.state.actions) == count
        # discard the second card of the hand: Space unselects the first, a click selects the second, Ctrl+X
        card = table.hand[1]
        await pilot.press("space")
        await click_cell(pilot, table, (HAND, 1))
        assert table.selected == {1} and table.cursor == 1
        await pilot.press("ctrl+x")
        discarded = app.state.actions[count]
        assert discarded.player == 0 and discarded.text().split()[-1] == card
        assert card not in game.view(0)["hand"]
        await my_turn(app, pilot)
        # the next turn: take the top of the discard pile (the cursor is on it)
        assert app.turn is not None and game.view(0)["phase"] == "draw"
        pile = list(game.view(0)["discard"])
        count = len(app.state.actions)
        table.focus()
        await pilot.press("ctrl+t")
        taken = app.state.actions[count]
        assert taken.player == 0 and "take" in str(taken)
        assert pile[-1] in game.view(0)["hand"] and game.view(0)["discard"] == pile[:-1]
        # F6 shows the moves list as a fallback
        await pilot.press("f6")
        assert app.query_one(MovesList).display

    play(make_app("mummus", "--seed", "5", "--no-record"), scenario)


async def pick(pilot: Pilot[int], table: MeldsPileTable, *cards: str) -> None:
    """Select cards of the hand with the keys (Left/Right, Space)."""
    for card in cards:
        steps = table.hand.index(card) - table.cursor
        await pilot.press(*(["right"] * steps if steps > 0 else ["left"] * -steps), "space")


def test_mummus_meld_add_on_and_a_deep_take_by_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deep take, a meld and add-ons (one refused), with every reader of typed text broken."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Mummus)  # the state stays the same object while the app plays
        table = app.query_one(MeldsPileTable)
        table.focus()
        await pilot.press("shift+left", "shift+left", "ctrl+t")  # take JD from deep in the pile (2H, 9S above it)
        assert app.state.actions[-1].text() == "take JD"
        assert {"JD", "2H", "9S"} <= set(game.view(0)["hand"]) and game.view(0)["discard"] == []
        await pilot.press("ctrl+x")  # JD must be melded first: refused with the rule, nothing changes
        assert RULE_ID.search(message_text(app)) and app.state.actions[-1].text() == "take JD"
        await pick(pilot, table, "JD", "JC", "JH")
        await pilot.press("ctrl+n")
        assert app.state.actions[-1].text().startswith("meld") and len(game.view(0)["melds"]) == 2
        assert not {"JD", "JC", "JH"} & set(game.view(0)["hand"])
        await pick(pilot, table, "8S")
        await pilot.press("enter")  # the meld marked > is the first: 5S 6S 7S
        assert game.view(0)["melds"][0]["cards"] == ["5S", "6S", "7S", "8S"]
        await pick(pilot, table, "9S")
        await pilot.press("down", "enter")  # 9S on the jacks: refused, nothing changes
        assert RULE_ID.search(message_text(app)) and "9S" in game.view(0)["hand"]
        await pilot.press("up", "enter")
        assert game.view(0)["melds"][0]["cards"][-1] == "9S"

    app = make_app("mummus", "--seed", "5", "--no-record")
    assert app.setup is not None
    from_position = app.state.info.from_position
    assert from_position is not None
    position = "hands: JC JH 8S KC 2C / 2S 3C 4D 9D; discard: JD 2H 9S; melds: 1: 5S 6S 7S"
    app.load(dataclasses.replace(app.setup, state=from_position(position, players=2, seed=3)))
    play(app, scenario)


def with_position(game: str, position: str) -> GameApp:
    """The app on a game set up from a position string (the person is seat 0, against a greedy bot)."""
    app = make_app(game, "--seed", "5", "--no-record")
    assert app.setup is not None
    from_position = app.state.info.from_position
    assert from_position is not None
    app.load(dataclasses.replace(app.setup, state=from_position(position, players=2, seed=3)))
    return app


async def tray_to(pilot: Pilot[int], table: GridTable, tile: str) -> None:
    """Mark a tile of the playing tray ^ with the keys (Shift+Left and Shift+Right)."""
    steps = table.tray.index(tile) - table.tile
    await pilot.press(*(["shift+right"] * steps if steps > 0 else ["shift+left"] * -steps))


def test_two_tray_grid_cursor_draft_commit_and_draw_by_keys() -> None:
    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        game = as_game(app.state, TwoTray)  # the state stays the same object while the app plays
        table = app.query_one(GridTable)
        assert table.display and not app.query_one(MovesList).display
        table.focus()
        before = list(app.state.actions)
        await pilot.press("space")  # the cursor is on R5 (cell 1,1): the draft refuses, with the rule
        assert "(rule TT-DRAFT)" in message_text(app) and app.state.actions == before
        await tray_to(pilot, table, "R8")
        await click_cell(pilot, table, (0, 3))  # the cell right of R7, in the margin
        assert table.cell == (0, 3)
        await pilot.press("space")  # R8 on 1,4: a draft change, nothing played
        assert app.state.actions == before
        assert table.tiles[(0, 3)] == "R8" and table.draft["ready"] and "R8" not in table.tray
        await tray_to(pilot, table, "K9")
        await pilot.press("down", "space")  # K9 under R8 makes an invalid line: shown, and commit refused
        problems = table.draft["problems"]
        assert problems and RULE_ID.search(problems[0]["text"]) and [1, 3] in problems[0]["cells"]
        assert "INVALID" in table.render().plain
        await pilot.press("ctrl+o")
        assert "Cannot commit" in message_text(app) and app.state.actions == before
        await pilot.press("delete")  # K9 back to the tray
        assert (1, 3) not in table.tiles and "K9" in table.tray and table.draft["ready"]
        await pilot.press("ctrl+o")
        mine = app.state.actions[len(before)]
        assert mine.player == 0 and mine.text() == "play A 0,3=R8"
        assert {"row": 0, "col": 3, "tile": "R8", "called": None} in game.view(0)["grid"]
        await my_turn(app, pilot)
        table.focus()
        count = len(app.state.actions)
        assert app.state.actions[-1].player == 1 and app.state.to_act == {0}
        await pilot.press("ctrl+d")  # the trays take turns: this one draws onto tray B
        assert app.state.actions[count].player == 0 and app.state.actions[count].text() == "draw B"

    play(with_position("two-tray", "grid: 0,0: R5 R6 R7; trays: A[R4 R8 K1 K9] B[K2 B9] / A[O1 O2] B[B1 B3]; "
                                   "pool: seed 4; next: A B; down: 11"), scenario)


def test_two_tray_grid_keys_take_typed_steps_and_no_text_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The grid's keys build the draft's steps and the game's actions: with every reader of typed text
    broken, a refused place, a place, a move, a take back, an undo, the commit and a draw go through."""
    from test_turn_steps import no_text

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        table = app.query_one(GridTable)
        table.focus()
        before = list(app.state.actions)
        await pilot.press("space")  # on R5: the draft refuses, with the rule
        assert "(rule TT-DRAFT)" in message_text(app) and app.state.actions == before
        await tray_to(pilot, table, "R8")
        await pilot.press("right", "right", "right", "space")  # R8 on 1,4
        assert table.tiles[(0, 3)] == "R8" and "R8" not in table.tray
        await pilot.press("ctrl+g", "down", "space")  # grab R8, move it to 2,4
        assert (0, 3) not in table.tiles and table.tiles[(1, 3)] == "R8"
        await pilot.press("delete")  # back to the tray
        assert (1, 3) not in table.tiles and "R8" in table.tray
        await pilot.press("ctrl+u", "ctrl+u")  # undo the take back, then the move
        assert table.tiles[(0, 3)] == "R8" and table.draft["ready"]
        await pilot.press("ctrl+o")
        assert app.state.actions[len(before)].text() == "play A 0,3=R8"
        await my_turn(app, pilot)
        table.focus()
        count = len(app.state.actions)
        await pilot.press("ctrl+d")
        assert app.state.actions[count].player == 0 and app.state.actions[count].text() == "draw B"

    play(with_position("two-tray", "grid: 0,0: R5 R6 R7; trays: A[R4 R8 K1 K9] B[K2 B9] / A[O1 O2] B[B1 B3]; "
                                   "pool: seed 4; next: A B; down: 11"), scenario)


async def hand_to(pilot: Pilot[int], table: ConveyorTable, *dominoes: str) -> None:
    """Select dominoes of the hand with the keys (Left/Right, Space)."""
    for domino in dominoes:
        steps = table.hand.index(domino) - table.cursor
        await pilot.press(*(["right"] * steps if steps > 0 else ["left"] * -steps), "space")


def test_conveyor_selection_round_reveal_and_claim_by_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused draw, a reveal and a claim, built as conveyor's actions (every reader of typed text broken)."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Conveyor)  # the state stays the same object while the app plays
        table = app.query_one(ConveyorTable)
        assert table.display and game.view(0)["phase"] == "select"
        table.focus()
        count = len(app.state.actions)
        await pilot.press("ctrl+d")  # no drawing in the selection round: refused with the rule, nothing changes
        assert RULE_ID.search(message_text(app)) and len(app.state.actions) == count
        await pilot.press("shift+down", "ctrl+e")  # reveal cell 2 of column 1
        assert app.state.actions[count].player == 0 and app.state.actions[count].text() == "reveal 0 1"
        assert game.view(None)["columns"][0]["cells"][1] != "??"
        await my_turn(app, pilot)
        table.focus()
        count = len(app.state.actions)
        free = next(n for n, c in enumerate(table.columns) if c["claimed_by"] is None)
        assert table.row == free  # the marker left the column the bot claimed: it is on a conveyor
        await pilot.press("ctrl+t")
        assert app.state.actions[count].text() == f"claim {free}"
        assert game.view(0)["columns"][free]["claimed_by"] == 0 and game.view(0)["hand"]
        assert table.row in game.view(0)["open_columns"]  # and off the column claimed now
        await pilot.press("f1")  # the help screen lists the widget's keys
        help_text = app.screen.query_one("#help-text", Static).render()
        assert "claim the column marked >" in str(help_text)

    play(make_app("conveyor", "--seed", "5", "--no-record"), scenario)


def test_conveyor_draw_meld_lay_off_and_discard_by_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused discard, a draw, a refused meld, a meld, a lay-off at the end the listing gives and a
    discard, built as conveyor's actions (every reader of typed text broken)."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Conveyor)  # the state stays the same object while the app plays
        table = app.query_one(ConveyorTable)
        table.focus()
        count = len(app.state.actions)
        await pilot.press("ctrl+x")  # a discard before the draw: refused, nothing changes
        assert RULE_ID.search(message_text(app)) and len(app.state.actions) == count
        assert table.at_row() == (COLUMN, 1)  # on the only conveyor, not on column 1 (a hand)
        await pilot.press("ctrl+d")  # the cell marker on its top: draw the top
        assert app.state.actions[count].text() == "draw 1 top" and "0-3" in game.view(0)["hand"]
        await pilot.press("ctrl+n")  # one domino is no meld: refused with the rule
        assert RULE_ID.search(message_text(app)) and len(app.state.actions) == count + 1
        await hand_to(pilot, table, "4-6", "5-6", "6-6")
        await pilot.press("ctrl+n")
        assert app.state.actions[-1].text().startswith("meld") and len(game.view(0)["melds"]) == 2
        await hand_to(pilot, table, "3-6")
        for _ in range(len(table.columns) + len(table.melds)):  # to meld 2, the run of 6s
            if table.at_row() == (MELD, 1):
                break
            await pilot.press("down")  # (passing over the claimed columns)
        assert table.at_row() == (MELD, 1)
        await pilot.press("enter")
        assert "3-6" in game.view(0)["melds"][1]["pieces"] and "3-6" not in game.view(0)["hand"]
        count = len(app.state.actions)
        await hand_to(pilot, table, "2-5")
        await pilot.press("ctrl+x")
        assert app.state.actions[count].player == 0 and app.state.actions[count].text() == "discard 2-5"

    position = ("columns: claimed 0 / 0-3 ?0-4 ?0-5 ?0-0 ?0-1 ?0-2 0-6 / ?1-1 ?1-2 ?1-3 1-4 ?1-5 ?1-6 ?2-2 / "
                "claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / 2-3 3-4 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 0")
    play(with_position("conveyor", position), scenario)


def test_the_two_tray_turn_gives_its_draft_as_a_view() -> None:
    """``draft_view``: the grid and tray as drafted, the marks, the engine's problems with their cells;
    once asked for, drafting steps stop printing the grid (the app draws it)."""
    from rummykit.catalogue import find_game
    from rummykit.presenters.text import Style
    from rummykit.presenters.two_tray import PRESENTER

    from_position = find_game("two-tray").from_position
    assert from_position is not None
    state = from_position("grid: 0,0: R5 R6 R7; trays: A[R4 R8 K1 K9] B[K2 B9] / A[O1 O2] B[B1 B3]; "
                          "pool: seed 4; next: A B; down: 11", players=2, seed=3)
    said: list[str] = []
    turn = PRESENTER.turn(state.view(0), say=lambda *lines: said.extend(lines), style=Style(color=False),
                          parse_action=state.parse_action)
    turn.command("place R8 1,4")
    assert any("Grid" in line for line in said)  # the line prompt's way: the drafted grid is said
    draft = turn.draft_view()  # type: ignore[attr-defined]
    assert {"row": 0, "col": 3, "tile": "R8", "called": None} in draft["grid"]
    assert draft["draft"]["marks"] == [[0, 3, "+"]] and draft["draft"]["ready"] and "R8" not in draft["trays"]["A"]
    said.clear()
    turn.command("place K9 2,4")
    draft = turn.draft_view()  # type: ignore[attr-defined]
    assert not draft["draft"]["ready"] and [1, 3] in draft["draft"]["problems"][0]["cells"]
    assert not said  # the interface draws the draft: nothing printed
    assert as_game(state, TwoTray).view(0)["trays"]["A"] == ["K1", "K9", "R4", "R8"]  # drafting changes no state


def test_clicks_on_the_conveyor_table_move_its_markers() -> None:
    """A click on a cell marks its column ``>`` and the cell ``^``; on a meld, the meld; on a column's label, the column."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        table = app.query_one(ConveyorTable)
        await pilot.pause()
        await click_cell(pilot, table, (CELL, (2, 3)))
        assert (table.row, table.cell) == (2, 3) and table.has_focus
        await click_cell(pilot, table, (MELD, 0))
        assert table.at_row() == (MELD, 0)
        await click_cell(pilot, table, (COLUMN, 1))
        assert table.at_row() == (COLUMN, 1)
        await click_cell(pilot, table, (HAND, 2))  # a hand domino: on the hand bar
        assert table.cursor == 2 and table.selected == {2}

    position = ("columns: claimed 0 / 0-3 ?0-4 ?0-5 ?0-0 ?0-1 ?0-2 0-6 / ?1-1 ?1-2 ?1-3 1-4 ?1-5 ?1-6 ?2-2 / "
                "claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / 2-3 3-4 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 0")
    play(with_position("conveyor", position), scenario)


def test_clicks_on_the_melds_pile_table_move_its_markers() -> None:
    """A click on a discard-pile card marks it ``^``; on a meld, marks the meld ``>``."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        table = app.query_one(MeldsPileTable)
        await pilot.pause()
        assert (table.meld, table.pile) == (0, 2)  # the top card
        await click_cell(pilot, table, (PILE, 0))
        assert table.pile == 0 and table.has_focus
        await click_cell(pilot, table, (MELD_OF_PILE, 1))
        assert (table.meld, table.pile) == (1, 0)

    play(with_position("mummus", "hands: JC JH 8S KC 2C / 2S 3C 4D 9D; discard: JD 2H 9S; "
                                 "melds: 1: 5S 6S 7S | 0: QH QS QD"), scenario)


def test_a_conveyor_lay_off_that_fits_both_ends_asks_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter lays a domino off at the end the game's listing gives; where it lists both ends, the person is
    asked to choose (nothing changes), and Shift+Right lays it at the high end. No text is read."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Conveyor)
        table = app.query_one(ConveyorTable)
        table.focus()
        await pilot.press("ctrl+d")  # draw 0-3 from the top of the conveyor
        assert app.state.actions[-1].text() == "draw 1 top"
        while table.at_row() != (MELD, 0):  # the sum of 6: 3-3 fits either end
            await pilot.press("down")
        count = len(app.state.actions)
        await hand_to(pilot, table, "3-3")
        await pilot.press("enter")
        assert "3-3 fits both ends of meld 1" in message_text(app) and len(app.state.actions) == count
        assert "3-3" in game.view(0)["hand"]
        await pilot.press("shift+right")
        assert app.state.actions[count].text() == "layoff 0 3-3 high"
        assert game.view(0)["melds"][0]["pieces"][-1] == "3-3"

    play(with_position("conveyor", "columns: claimed 0 / 0-3 ?0-4 ?0-5 ?0-0 ?0-1 ?2-6 ?3-5 / ?1-1 ?1-2 ?1-3 1-4 "
                                   "4-4 ?1-6 ?2-2 / claimed 1; hands: 4-6 5-5 3-3 5-6 6-6 2-5 4-5 / 2-3 3-4 3-6 0-2; "
                                   "melds: 1: 0-6 1-5 2-4; turn: 0"), scenario)


def jump_window_app() -> GameApp:
    """Three seats with jump-ins, played by the game's listing until the person (seat 0) may answer a
    jump-in window."""
    app = make_app("conveyor", "--bots", "2", "-o", "jump_ins=true", "--seed", "3", "--no-record")
    assert app.setup is not None
    state = as_game(app.state.info.new(players=3, seed=3, jump_ins=True), Conveyor)
    listing = state.info.view_actions
    assert listing is not None
    while not (0 in state.to_act and state.view(0)["jump_window"]):
        state.apply(listing(state.view(min(state.to_act)))[0])
    app.load(dataclasses.replace(app.setup, state=state))
    return app


@pytest.mark.parametrize("key", ["ctrl+y", "ctrl+k"])
def test_conveyor_jump_in_and_decline_by_keys(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+Y jumps in on the discard on offer (named from the view), Ctrl+K declines: built as actions."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Conveyor)
        window = game.view(0)["jump_window"]
        assert window is not None and 0 in app.state.to_act
        table = app.query_one(ConveyorTable)
        table.focus()
        count = len(app.state.actions)
        await pilot.press(key)
        mine = next(a for a in app.state.actions[count:] if a.player == 0)
        assert mine.text() == (f"jump {window['piece']}" if key == "ctrl+y" else "decline")

    play(jump_window_app(), scenario)


@dataclasses.dataclass
class NoClaims:
    """A bot that acts only when the game waits for it: it never claims out of turn, so the person is
    offered the claims first."""

    inner: Agent
    level: str = "no-claims"

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        return self.inner.choose(view, rng)


def claims_first(position: str) -> GameApp:
    """:func:`with_position` for mummus, its bot claiming nothing out of turn."""
    app = with_position("mummus", position)
    assert app.setup is not None
    bot = app.setup.bots[1]
    assert bot is not None
    app.load(dataclasses.replace(app.setup, bots=[None, NoClaims(bot)]))
    return app


def test_mummus_rummy_by_keys_makes_the_one_open_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+Y calls rummy with the one claim the game's listing leaves open (no text is read)."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        game = as_game(app.state, Mummus)
        table = app.query_one(MeldsPileTable)
        table.focus()
        assert not app.state.actions  # the bot claimed nothing
        await pilot.press("ctrl+y")
        assert app.state.actions[0].player == 0 and app.state.actions[0].text() == "rummy 8S to 5S"
        assert game.view(0)["melds"][0]["cards"] == ["5S", "6S", "7S", "8S"] and game.view(0)["discard"] == ["JD", "2H"]

    play(claims_first("hands: JC JH 9C KC 2C / 2S 3C 4D 9D; discard: JD 2H 8S; melds: 1: 5S 6S 7S"), scenario)


def test_mummus_rummy_with_several_claims_open_asks_which(monkeypatch: pytest.MonkeyPatch) -> None:
    """With two claims open, Ctrl+Y names them and nothing changes (no text is read)."""

    async def scenario(app: GameApp, pilot: Pilot[int]) -> None:
        no_text(monkeypatch)
        table = app.query_one(MeldsPileTable)
        table.focus()
        assert not app.state.actions  # the bot claimed nothing
        await pilot.press("ctrl+y")
        assert "several claims are open (`rummy 4S to 5S`, `rummy 8S to 5S`)" in message_text(app)
        assert not app.state.actions

    play(claims_first("hands: JC JH 9C KC 2C / 2S 3C 4D 9D; discard: JD 2H 4S 8S; melds: 1: 5S 6S 7S"), scenario)
