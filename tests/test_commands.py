"""The declared command layer (``rummykit.engine.commands``) and the games declared with it.

The record notation of conveyor, mummus and two-tray was written by hand
before it was declared; :data:`OLD_TEXT` keeps those hand-written forms as
the reference. For every action of every golden record of those games, and
every action the games list in seeded bot games, the derived text must be the
old text byte for byte, read back to the same action, round-trip through JSON,
and read back from the words a person types (positions counted from 1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game
from rummykit.engine.commands import (
    Choice,
    Command,
    Declared,
    Piece,
    Position,
    Tail,
    command_table,
    syntax,
)
from rummykit.engine.commands import Pieces as Several
from rummykit.engine.core import Action, GameInfo, GameState
from rummykit.errors import ParseError
from rummykit.pieces.cards import format_cards
from rummykit.pieces.dominoes import Domino, format_dominoes
from rummykit.records import read_record
from rummykit.rulesets import conveyor as cv
from rummykit.rulesets import mummus as mm
from rummykit.rulesets import two_tray as tt
from rummykit.rulesets.conveyor.actions import COMMANDS as CONVEYOR
from rummykit.rulesets.mummus.actions import COMMANDS as MUMMUS
from rummykit.rulesets.two_tray.actions import COMMANDS as TWO_TRAY
from rummykit.sim import run_bots

GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = ("conveyor", "mummus", "two-tray")


# -- the hand-written text forms, as they were before the declarations -----------------------------


def _turn_text(verb: str, a: tt.Play | tt.Fail) -> str:
    words = [verb, a.tray, *map(str, a.changes)]
    if a.down:
        words += ["down", *map(str, a.down)]
    return " ".join(words)


def _rummy_text(a: mm.Rummy) -> str:
    where = "" if a.meld is None else f" to {a.meld}"
    return f"rummy {format_cards(a.cards)}{where}"


def _jump_text(a: cv.Jump) -> str:
    return f"jump {a.domino}" if not a.rest else f"jump {a.domino} with {format_dominoes(a.rest)}"


OLD_TEXT: dict[type[Action], Callable[[Action], str]] = {
    cv.Reveal: lambda a: f"reveal {a.column} {a.index}",  # type: ignore[attr-defined]
    cv.Claim: lambda a: f"claim {a.column}",  # type: ignore[attr-defined]
    cv.Draw: lambda a: f"draw {a.column} {a.end}",  # type: ignore[attr-defined]
    cv.Meld: lambda a: f"meld {format_dominoes(a.dominoes)}",  # type: ignore[attr-defined]
    cv.Layoff: lambda a: f"layoff {a.meld} {a.domino} {a.end}",  # type: ignore[attr-defined]
    cv.Discard: lambda a: f"discard {a.domino}",  # type: ignore[attr-defined]
    cv.Close: lambda a: "close" if a.discard is None else f"close {a.discard}",  # type: ignore[attr-defined]
    cv.Jump: lambda a: _jump_text(a),  # type: ignore[arg-type]
    cv.Decline: lambda a: "decline",
    mm.Draw: lambda a: "draw",
    mm.Take: lambda a: f"take {a.card}",  # type: ignore[attr-defined]
    mm.Meld: lambda a: f"meld {format_cards(a.cards)}",  # type: ignore[attr-defined]
    mm.Addon: lambda a: f"addon {format_cards(a.cards)} to {a.meld}",  # type: ignore[attr-defined]
    mm.Rummy: lambda a: _rummy_text(a),  # type: ignore[arg-type]
    mm.Discard: lambda a: f"discard {a.card}",  # type: ignore[attr-defined]
    tt.Draw: lambda a: f"draw {a.tray}",  # type: ignore[attr-defined]
    tt.Pass: lambda a: "pass",
    tt.End: lambda a: "end",
    tt.Play: lambda a: _turn_text("play", a),  # type: ignore[arg-type]
    tt.Fail: lambda a: _turn_text("fail", a),  # type: ignore[arg-type]
    tt.Call: lambda a: f"call {a.row},{a.col} {a.tile}",  # type: ignore[attr-defined]
}


def check_action(info: GameInfo, action: Action) -> None:
    """Every serial form of ``action``: the old text, its reading, JSON, and the typed command."""
    text = action.text()
    assert text == OLD_TEXT[type(action)](action), (text, action)
    assert str(action) == f"{action.player} {text}"
    assert info.parse_action(str(action)) == action, text
    assert info.action_from_json(json.loads(json.dumps(action.to_json()))) == action, text
    table = command_table(info.actions)
    typed = table.typed_text(action)
    assert table.read_typed(action.player, typed) == action, (typed, action)
    assert table.read_typed(action.player, typed.upper()) == action, typed


# -- golden records and seeded play ----------------------------------------------------------------


def golden_records() -> Iterator[Path]:
    for path in sorted(GOLDEN.glob("*.txt")):
        if path.name.replace("pre-restructure-", "").startswith(GAMES):
            yield path


@pytest.mark.parametrize("path", list(golden_records()), ids=lambda p: p.stem)
def test_every_recorded_action_reads_and_writes_as_before(path: Path) -> None:
    state = read_record(path.read_text("utf-8"))
    lines = [line for line in path.read_text("utf-8").splitlines() if line[:1].isdigit()]
    assert state.actions
    for action in state.actions:
        check_action(state.info, action)
    # The record's own lines are the derived texts, in order.
    recorded = [line.split("#")[0].strip() for line in lines]
    assert [str(a) for a in state.actions] == recorded[: len(state.actions)]


@dataclass(frozen=True)
class Play:
    game: str
    players: int
    seed: int
    options: tuple[tuple[str, object], ...] = ()


ONE_ROUND: dict[str, dict[str, object]] = {"conveyor": {"target": 0}, "mummus": {"target": 0}}
"""Options that make a game one round (two-tray plays one by default)."""

PLAYS = [
    Play("conveyor", 2, 1),
    Play("conveyor", 4, 2, (("jump_ins", True), ("jump_in_only_on_completion", True))),
    Play("conveyor", 3, 3, (("domino_runs", True), ("jump_ins", True))),
    Play("mummus", 2, 4),
    Play("mummus", 4, 5),
    Play("two-tray", 2, 6),
    Play("two-tray", 2, 7),
]


@pytest.mark.parametrize("play", PLAYS, ids=lambda p: f"{p.game}-{p.players}p-{p.seed}")
def test_every_listed_action_of_seeded_games_reads_and_writes_as_before(play: Play) -> None:
    info = find_game(play.game)
    options = {**ONE_ROUND.get(play.game, {}), **dict(play.options)}

    def fresh() -> GameState:
        return info.new(players=play.players, seed=play.seed, **options)

    game = run_bots(fresh(), [make_bot("random", play.game) for _ in range(play.players)])
    state, listed, kinds = fresh(), 0, set()
    for action in game.actions:
        for seat in sorted(state.to_act):
            for legal in state.legal_actions(seat):
                check_action(info, legal)
                listed += 1
                kinds.add(type(legal))
        state.apply(action)
    assert listed > 100
    assert len(kinds) >= 3, kinds


# -- the typed forms ---------------------------------------------------------------------------------


def test_typed_positions_count_from_1_and_record_ones_from_0() -> None:
    table = CONVEYOR
    assert table.typed_text(cv.Reveal(0, 4, 0)) == "reveal 5 1"
    assert table.read_typed(2, "draw 3 t") == cv.Draw(2, 2, "top") == cv.parse_action_text(2, "draw 2 top")
    assert table.read_typed(1, "lay off 1 4-6 HI") == cv.Layoff(1, 0, Domino(4, 6), "high")
    assert table.read_typed(1, "mine 3-5 with 3-3 3-4") == cv.Jump(
        1, Domino(3, 5), (Domino(3, 3), Domino(3, 4))
    )
    assert table.read_typed(1, "pass") == cv.Decline(1)
    for line, words in [
        ("draw 0 top", "columns are numbered from 1, as on the screen; got '0'"),
        ("draw x top", "a column number is a whole number"),
        ("layoff 0 1-6 low", "melds are numbered from 1"),
        ("draw 2 middle", "a conveyor's ends are 'top' and 'bottom', got 'middle'"),
        ("draw 2", "write 'draw COLUMN top|bottom', got 'draw 2'"),
        ("fly 2", "unknown command 'fly'"),
    ]:
        with pytest.raises(ParseError, match=words):
            table.read_typed(0, line)
    # Short forms are for people: the record keeps its words.
    with pytest.raises(ParseError, match="a conveyor's ends"):
        cv.parse_action_text(0, "draw 2 t")
    with pytest.raises(ParseError, match="unknown action 'mine'"):
        cv.parse_action_text(0, "mine 3-5")


def test_two_tray_cells_count_from_1_and_a_failed_play_is_said_penalty() -> None:
    table = TWO_TRAY
    call = tt.parse_action_text(0, "call 2,0 O3")
    assert table.typed_text(call) == "call 3,1 O3" and table.read_typed(0, "call 3,1 o3") == call
    fail = tt.parse_action_text(1, "fail A 0,3=R10 -1,0=. down 0,3=R10")
    assert table.typed_text(fail) == "penalty A 0,1=. 1,4=R10 down 1,4=R10"
    assert table.read_typed(1, "penalty a 1,4=R10 0,1=. DOWN 1,4=R10") == fail
    assert table.read_typed(0, "play B") == tt.Play(0, "B", ())
    with pytest.raises(ParseError, match=r"'down' comes once in a play, before the going-down lines"):
        table.read_typed(0, "play A 1,1=R4 down 1,1=R4 down 1,2=R5")
    with pytest.raises(ParseError, match=r"write the going-down lines after 'down': ROW,COLUMN=TILE \.\.\."):
        tt.parse_action_text(0, "play A 0,0=R4 down")


def test_mummus_screen_numbers_name_pieces_against_the_view() -> None:
    state = mm.from_position("hands: 4H 8C / 4S 9S; melds: 1: 5H 6H 7H | 0: 8D 8H 8S; discard: 9H JC 10D")
    view = state.view(0)
    table = MUMMUS
    assert (
        table.read_typed(0, "take 2", view)
        == mm.Take(0, mm.parse_piece("JC"))
        == table.read_typed(0, "take JC")
    )
    assert table.read_typed(0, "add on 8C to 2", view).text() == "addon 8C to 8D"
    assert table.read_typed(0, "rummy 9H to 1", view).text() == "rummy 9H to 5H"
    for line, words in [
        ("take 4", "the discard pile has cards 1..3, not 4"),
        ("addon 8C to 3", "the melds are numbered 1..2, not 3"),
    ]:
        with pytest.raises(ParseError, match=words):
            table.read_typed(0, line, view)
    with pytest.raises(ParseError, match="only against what the screen shows"):
        table.read_typed(0, "take 2")
    # The record never reads a number as a card.
    with pytest.raises(ParseError, match="bad card"):
        mm.parse_action_text(0, "take 2")


# -- help rows and completion ------------------------------------------------------------------------


def test_help_rows_follow_the_options_and_the_docstrings() -> None:
    plain = dict(CONVEYOR.rows({}))
    assert list(plain) == [
        "reveal COLUMN CELL",
        "claim COLUMN",
        "draw COLUMN top|bottom",
        "meld DOMINO ...",
        "layoff MELD DOMINO low|high",
        "discard DOMINO",
    ]
    assert plain["claim COLUMN"] == "Selection round: take an unclaimed column as your hand."
    assert plain["layoff MELD DOMINO low|high"].endswith("(also `lay off`)")
    every = dict(CONVEYOR.rows({"domino_runs": True, "jump_ins": True}))
    assert every["close [DOMINO]"].startswith("Domino runs: close")
    assert "jump DOMINO [with DOMINO ...]" in every and "decline" in every
    assert dict(MUMMUS.rows({}))["take CARD|N"].startswith("Start a turn from the discard pile")
    assert "addon CARD ... to CARD-OF-THE-MELD|N" in dict(MUMMUS.rows({}))
    assert [u for u, _ in TWO_TRAY.rows({})][3:5] == [
        "play TRAY ROW,COLUMN=TILE ... [down ROW,COLUMN=TILE ...]",
        "penalty TRAY ROW,COLUMN=TILE ... [down ROW,COLUMN=TILE ...]",
    ]


def test_completions_offer_verbs_choices_and_keywords() -> None:
    table = CONVEYOR
    assert table.completions([], {}) == ["reveal", "claim", "draw", "meld", "layoff", "discard"]
    assert table.completions([], {"jump_ins": True})[-2:] == ["jump", "decline"]
    assert table.completions(["draw", "2"], {}) == ["top", "bottom"]
    assert table.completions(["lay", "off", "1", "3-4"], {}) == ["low", "high"]
    assert table.completions(["jump", "3-5"], {}) == ["with"]
    assert table.completions(["draw", "2", "top"], {}) == []
    assert [p.field for p in table.expects(["jump", "3-5", "with"]) if not isinstance(p, str)] == ["rest"]
    assert MUMMUS.completions(["addon", "9H"], {}) == ["to"]
    assert [p.field if not isinstance(p, str) else p for p in MUMMUS.expects(["addon", "9H"])] == [
        "cards",
        "to",
    ]
    assert TWO_TRAY.completions(["play", "A"], {}) == ["down"]
    assert TWO_TRAY.completions([], {})[:3] == ["draw", "pass", "end"]


# -- the presenters' hand-written typed forms agree ------------------------------------------------


def test_the_presenters_command_text_is_the_typed_text() -> None:
    from rummykit.presenters.conveyor import command_text as conveyor_text
    from rummykit.presenters.mummus import command_text as mummus_text
    from rummykit.presenters.two_tray import command_text as two_tray_text

    for info, command_text in [(cv.INFO, conveyor_text), (mm.INFO, mummus_text), (tt.INFO, two_tray_text)]:
        game = info.new(players=2, seed=11, **ONE_ROUND.get(info.id, {}))
        state = run_bots(game, [make_bot("random", info.id) for _ in range(2)])
        for action in state.actions:
            assert command_table(info.actions).typed_text(action) == command_text(action), action


# -- declarations are checked --------------------------------------------------------------------


def test_a_declaration_must_name_every_field_once() -> None:
    @dataclass(frozen=True, slots=True)
    class Lay(Declared):
        """Lay a tile."""

        column: int
        end: str

        COMMAND = Command(Position("column"))

    with pytest.raises(TypeError, match="COMMAND names fields"):
        syntax(Lay)

    @dataclass(frozen=True, slots=True)
    class Pick(Declared):
        """Pick tiles, at a side if given."""

        tiles: tuple[str, ...]
        side: str = "left"

        COMMAND = Command(Several("tiles"), Tail("at", Choice("side", words=("left", "right"))))

    pick = syntax(Pick)
    assert Pick(0, ("a", "b")).text() == "pick a b" and Pick(0, ("a",), "right").text() == "pick a at right"
    assert pick.read(0, "pick a b AT right") == Pick(0, ("a", "b"), "right")
    assert pick.usage() == "pick TILES ... [at left|right]"
    with pytest.raises(
        ParseError, match=re.escape("write 'pick TILES ... [at left|right]', got 'pick at left'")
    ):
        pick.read(0, "pick at left")
    with pytest.raises(ParseError, match="'at' comes once in a pick"):
        pick.read(0, "pick a at left at right")


def test_an_optional_last_part_is_left_out_when_at_its_default() -> None:
    @dataclass(frozen=True, slots=True)
    class Stop(Declared):
        """Stop, discarding a piece if given."""

        piece: str | None = None

        COMMAND = Command(Piece("piece"), said="halt")

    stop = syntax(Stop)
    assert Stop(0).text() == "stop" and Stop(0, "x").text() == "stop x"
    assert stop.read(1, "stop") == Stop(1) and stop.read(1, "stop y") == Stop(1, "y")
    assert stop.typed_text(Stop(0, "x")) == "halt x" and stop.usage(typed=True) == "halt [PIECE]"
    with pytest.raises(ParseError, match=re.escape("write 'stop [PIECE]', got 'stop y z'")):
        stop.read(1, "stop y z")


# -- the free table, the drafts' steps, the view's shortcuts, one turn --------------------------------


@pytest.mark.parametrize("game", ["rummikub", "domino-rummikub"])
def test_free_table_actions_read_and_write_their_records_as_before(game: str) -> None:
    info = find_game(game)
    paths = sorted(GOLDEN.glob(f"{game}*.txt"))
    assert paths
    seen = set()
    for path in paths:
        record = read_record(path.read_text())
        for action in record.actions:
            text = str(action)
            assert str(info.parse_action(text)) == text  # byte for byte, read back the same
            assert info.action_from_json(action.to_json()) == action
            seen.add(action.type)
    assert {"play", "draw"} <= seen
    table = command_table(info.actions)
    assert [s.verb for s in table.offered({})] == ["draw", "pass"]  # a play is drafted, never typed whole
    assert table.find(["play"]) is None and table.find(["draw"]) is not None


def test_draft_steps_read_positions_from_1_with_the_games_pieces() -> None:
    from rummykit.pieces.dominoes import parse_dominoes
    from rummykit.rulesets.draft_steps import TABLE_STEPS, Move, Split
    from rummykit.rulesets.two_tray.steps import STEPS, Back, Place

    dominoes = command_table(TABLE_STEPS, parse_dominoes)
    assert dominoes.read_typed(1, "move 5:3 2 new") == Move(1, Domino(3, 5), 1, None)
    assert dominoes.read_typed(1, "split 1 2") == Split(1, 0, 1)
    with pytest.raises(ParseError, match="sets are numbered from 1"):
        dominoes.read_typed(1, "merge 0 1")
    place = STEPS.read_typed(0, "place R7 1,1")
    assert isinstance(place, Place) and place.puts[0].cell == (0, 0)
    assert STEPS.read_typed(0, "back 0,0") == Back(0, -1, -1)  # the grid grows every way
    assert STEPS.typed_text(place) == "place R7 1,1"


def test_the_views_shortcuts_are_read_by_the_game_for_every_interface() -> None:
    view = cv.INFO.new(players=3, seed=3, jump_ins=True).view(0)
    with pytest.raises(ParseError, match="no discard is on offer"):
        cv.INFO.parse_typed(0, "jump", view)
    assert cv.INFO.parse_typed(0, "lay off 2 3-4 h", view) == cv.Layoff(0, 1, Domino(3, 4), "high")
    tray = tt.from_position("grid: 0,0: R1 R2 R3; trays: A[R4] B[K1] / A[O1] B[B1]; next: A B; down: 11")
    assert tt.INFO.parse_typed(0, "draw", tray.view(0)) == tt.Draw(0, "A")
    assert tt.INFO.parse_typed(0, "penalty", tray.view(0)) == tt.Fail(0, "A", ())
    first = tt.INFO.new(seed=3)
    seat = first.view(None)["turn"]
    assert seat is not None
    with pytest.raises(ParseError, match="name the tray"):
        tt.INFO.parse_typed(seat, "draw", first.view(seat))


@pytest.mark.parametrize("game", ["conveyor", "mummus", "two-tray", "rummikub", "domino-rummikub"])
def test_every_game_is_played_through_the_one_turn(game: str) -> None:
    from rummykit.presenters import presenter_for
    from rummykit.presenters.text import Style
    from rummykit.presenters.turn import Turn

    info = find_game(game)
    state = info.new(players=2, seed=5)
    seat = min(state.to_act)
    said: list[str] = []
    turn = presenter_for(game).turn(state.view(seat), say=lambda *lines: said.extend(lines), style=Style())
    assert type(turn) is Turn
    table = command_table(info.actions)
    for action in state.legal_actions(seat):
        if syntax(type(action)).typed:  # what a move list shows is what the turn reads back
            assert turn.command(table.typed_text(action)) == action
    assert turn.command("help") is None and said
    assert all(usage in "\n".join(said) for usage, _ in table.rows(dict(state.view(seat)["options"])))
