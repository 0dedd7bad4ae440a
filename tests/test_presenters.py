"""The presenters: one per game behind one interface; views rendered without leaking; no game code in cli/."""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from catalogue_setups import GAME_IDS, one_round, seats

import rummykit
from rummykit.bots.registry import make_bot
from rummykit.catalogue import games
from rummykit.cli.main import main
from rummykit.cli.play import Console, Session
from rummykit.engine.core import GameState
from rummykit.engine.driver import step
from rummykit.errors import RuleError
from rummykit.presenters import Presenter, Turn, Vocabulary, presenter_for
from rummykit.presenters.registry import PRESENTERS, presenter_module
from rummykit.presenters.text import Style
from rummykit.records import read_record, write_record
from rummykit.sim import bot_rng, run_bots

SRC = Path(__file__).resolve().parents[1] / "src" / "rummykit"

VARIANTS: dict[str, dict[str, Any]] = {"conveyor": {"jump_ins": True}}
"""Options that bring every part of a game's table up within a few dozen steps (beyond one round)."""


def setup(game: str) -> dict[str, Any]:
    """``players`` (3 where the game allows) and the options of one round of the game, with its variants."""
    return {"players": seats(game, 3), **one_round(game), **VARIANTS.get(game, {})}


PIECE = re.compile(r"(?<![\w-])(?:[KBOR]\d{1,2}|J|\d{1,2}-\d{1,2}|(?:[AJQK]|[2-9]|10)[CDHS])(?![\w-])")
"""A piece in notation: a tile (``R7``, ``J``), a domino (``3-5``) or a card (``AS``, ``10H``)."""

NOTATION_EXAMPLES = ("[3-5] face up",)
"""Fixed text that shows how pieces are written (not a piece of the game)."""


def pieces_in(value: Any) -> set[str]:
    """Every piece written anywhere in plain data (keys and values, nested)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(PIECE.findall(value))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            found |= pieces_in(k) | pieces_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= pieces_in(v)
    return found


def printed_pieces(lines: list[str]) -> set[str]:
    text = "\n".join(lines)
    for example in NOTATION_EXAMPLES:
        text = text.replace(example, "")
    return set(PIECE.findall(text))


def positions(game: str, seed: int, steps: int = 60, every: int = 7) -> Iterator[GameState]:
    """A bot game of ``game``, yielded every few steps (and at the end)."""
    options = setup(game)
    players = options.pop("players")
    state = rummykit.new_game(game, players=players, seed=seed, **options)
    bots = [make_bot("random", game) for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    yield state
    for n in range(1, steps + 1):
        if state.outcome is not None:
            break
        step(state, bots, rngs)
        if n % every == 0:
            yield state
    yield state


# -- the interface -------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_a_presenter_that_keeps_the_interface(game: str) -> None:
    presenter = presenter_for(game)
    assert isinstance(presenter, Presenter)
    assert presenter.game == game
    assert presenter_module(game) == PRESENTERS[game]
    assert sys.modules[PRESENTERS[game]].PRESENTER is presenter
    assert presenter_for(game.upper()) is presenter  # any spelling of the id finds the same object
    words = presenter.words
    assert isinstance(words, Vocabulary)
    assert all([words.piece, words.rack, words.pool, words.opening])
    assert words.count(1).endswith(words.piece) and not words.count(2).endswith(" " + words.piece)
    assert presenter.orders and all(isinstance(o, str) for o in presenter.orders)
    assert isinstance(presenter.hint, bool)
    assert presenter.solver is None or callable(presenter.solver)
    assert presenter.playable is True  # every game registered today takes people's turns

    state = next(positions(game, seed=1))
    seat = min(state.to_act)
    view = state.view(seat)
    rows = presenter.help_rows(view)
    assert rows and all(isinstance(a, str) and isinstance(b, str) for a, b in rows)
    help_text = "\n".join(presenter.help_lines(view))
    assert all(a in help_text for a, _ in rows) and "quit" in help_text
    said: list[str] = []
    turn = presenter.turn(view, say=lambda *lines: said.extend(lines), style=Style(), labels=["you", "", ""])
    assert isinstance(turn, Turn)
    assert turn.order in presenter.orders and turn.label
    assert turn.screen() and turn.accepted() == []
    assert turn.command("") is None and turn.command("help") is None and said
    assert (presenter.hint_lines(view) != []) == presenter.hint


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("seed", [2, 5])
def test_a_listed_action_typed_as_a_command_is_that_action(game: str, seed: int) -> None:
    presenter = presenter_for(game)
    tried = 0
    for state in positions(game, seed, steps=40, every=3):
        if state.outcome is not None:
            continue
        seat = min(state.to_act)
        view = state.view(seat)
        verbs = {alt.split()[0] for left, _ in presenter.help_rows(view) for alt in left.split("|") if alt.strip()}
        before = state.snapshot()
        for action in state.legal_actions(seat):
            if presenter.command_text(action).split()[0] not in verbs:
                continue  # e.g. a free-table play, which a person drafts step by step
            turn = presenter.turn(view, say=lambda *lines: None, style=Style())
            assert turn.command(presenter.command_text(action)) == action
            tried += 1
        assert state.snapshot() == before
    assert tried >= 5


# -- rendering from views only --------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_rendering_a_view_never_prints_a_piece_the_view_does_not_hold(game: str, seed: int) -> None:
    presenter = presenter_for(game)
    style = Style()
    checked = 0
    for state in positions(game, seed):
        names = list(state.players)
        labels = ["you"] + [""] * (len(names) - 1)
        for seat in [None, *range(len(names))]:
            view = state.view(seat)
            held = pieces_in(view)
            parts = {
                "status": presenter.status_lines(view, labels, style),
                "table": presenter.table_lines(view, style),
                "rack": presenter.rack_lines(view, style),
                "screen": presenter.screen(view, labels, style),
            }
            assert parts["screen"] and parts["status"]
            if seat is None:
                assert parts["rack"] == []
            for order in presenter.orders:
                parts[f"rack by {order}"] = presenter.rack_lines(view, style, order)
            for what, lines in parts.items():
                assert all(isinstance(x, str) for x in lines)
                leaked = printed_pieces(lines) - held
                assert not leaked, (game, seat, what, sorted(leaked), lines)
            if seat is not None and seat in state.to_act:
                turn = presenter.turn(view, say=lambda *lines: None, style=style, labels=labels)
                assert not printed_pieces(turn.screen()) - held
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize("game", GAME_IDS)
def test_describing_an_event_never_prints_a_piece_the_seat_was_not_shown(game: str) -> None:
    presenter = presenter_for(game)
    state = list(positions(game, seed=3, steps=200, every=200))[-1]
    names = list(state.players)
    kinds = set()
    for event in state.history:
        for seat in [None, *range(len(names))]:
            seen = event.seen_by(seat)
            lines = presenter.describe_event(seen, names, Style())
            assert all(isinstance(x, str) for x in lines)
            leaked = printed_pieces(lines) - pieces_in(seen)
            assert not leaked, (event.kind, seat, sorted(leaked), lines)
            if seat is None and event.secret:
                secret = pieces_in(dict(event.secret)) - pieces_in(dict(event.data))
                assert not printed_pieces(lines) & secret, (event.kind, lines)
        kinds.add(event.kind)
    assert len(kinds) >= 3


@pytest.mark.parametrize("game", GAME_IDS)
def test_round_and_match_endings_are_worded_by_the_presenter(game: str) -> None:
    presenter = presenter_for(game)
    options = setup(game)
    players = options.pop("players")
    state = run_bots(rummykit.new_game(game, players=players, seed=4, **options), [make_bot("random", game)] * players)
    assert state.outcome is not None
    names = list(state.players)
    lines = presenter.outcome_lines(state.outcome.to_json(), names, Style())
    assert lines[0].startswith("Game over: ") and "Final scores:" in lines
    ends = [e for e in state.history if e.kind == "round-end"]
    assert ends and presenter.round_end_lines(ends[-1].seen_by(None), names, Style())[0].startswith("Round ")
    assert presenter.words.reason(state.outcome.reason)


# -- the line prompt uses the driver and the presenters, nothing game-specific ---------------


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_unattended_game_at_the_prompt_is_the_drivers_game(game: str, tmp_path: Path) -> None:
    options = setup(game)
    players = options.pop("players")
    record = tmp_path / "r.txt"
    argv = ["play", game, "--players", str(players), "--seed", "6", "--record", str(record)]
    argv += ["--bot", "random"] * players
    for key, value in options.items():
        argv += ["--option", f"{key}={str(value).lower()}"]
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, stdin=io.StringIO(), stdout=out, stderr=err, environ={}) == 0, err.getvalue()
    expected = run_bots(rummykit.new_game(game, players=players, seed=6, **options), [make_bot("random", game)] * players)
    assert read_record(record.read_text()).snapshot() == expected.snapshot()
    # The same record, plus a line per seat saying which bot played it (for --resume).
    lines = record.read_text().splitlines()
    assert [line for line in lines if not line.startswith("seat ")] == write_record(expected).splitlines()
    assert [line.split(",")[0] for line in lines if line.startswith("seat ")] == [
        f"seat {n}: bot random" for n in range(players)
    ]


def test_a_presenter_that_takes_no_turns_yet_seats_only_bots() -> None:
    watch_only = dataclasses.replace(presenter_for("rummikub"), playable=False)  # type: ignore[type-var]
    state = rummykit.new_game("rummikub", players=2, seed=1)
    console = Console(io.StringIO(), io.StringIO(), io.StringIO())
    with pytest.raises(RuleError, match="cannot be played by people here yet") as refused:
        Session(state, [None, make_bot("random", "rummikub")], console, Style(), presenter=watch_only)
    assert refused.value.rule == "CLI"
    bots = [make_bot("random", "rummikub"), make_bot("random", "rummikub")]
    assert Session(state, bots, console, Style(), presenter=watch_only).presenter is watch_only


def _string_constants(tree: ast.AST) -> list[ast.Constant]:
    """Every string constant of a module except its docstrings."""
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def _imports(tree: ast.AST) -> list[tuple[int, str, list[str]]]:
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
    return found


CLI_FILES = sorted((SRC / "cli").glob("*.py"))
GAME_WORDS = sorted({w.lower() for info in games() for w in (info.id, *info.aliases)})


@pytest.mark.parametrize("path", CLI_FILES, ids=lambda p: p.name)
def test_the_cli_names_no_game(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ids = [info.id for info in games()]
    found: list[str] = []
    for node in _string_constants(tree):
        text = str(node.value).lower()
        if text.strip() in GAME_WORDS or any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text) for i in ids):
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, "\n".join(found)


PIECE_WORDS = {"domino"}
"""Long parts of game ids that also name a kind of piece: an interface names its pieces to people ("domino
3-6" for a screen reader, "discard a domino"), as it says "tile" or "card", so these words alone are allowed;
the game ids they are part of are not."""


def _id_spellings() -> set[str]:
    """Every way a game id is written in code or prose: ids, long aliases, ``_`` for ``-``, long id parts
    (but the names of pieces, :data:`PIECE_WORDS`)."""
    words: set[str] = set()
    for info in games():
        for word in (info.id, *info.aliases):
            if len(word) > 2:
                words |= {word.lower(), word.lower().replace("-", "_")}
        words |= {part for part in info.id.split("-") if len(part) > 4} - PIECE_WORDS
    return words


WEB = SRC.parents[1] / "web" / "src"
WEB_FILES = sorted(
    p for p in WEB.rglob("*") if p.suffix in (".ts", ".css") and "generated" not in p.relative_to(WEB).parts
)
"""The browser client's own code and style (``web/src/generated`` is made from the schemas, so it may name games)."""

GAME_FREE_FILES = [
    *CLI_FILES,
    *sorted(p for p in (SRC / "tui").glob("*.py")),  # tui/tables/ draws each kind of table: not here
    *sorted((SRC / "server").glob("*.py")),
    *sorted((SRC / "session").glob("*.py")),
    *WEB_FILES,
]
"""The interfaces' own code (and the session's, and the browser client's), which reaches every game through the
catalogue and the presenters (the browser: through the server and the types generated from the schemas)."""


@pytest.mark.parametrize("path", GAME_FREE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_interfaces_name_no_game_even_in_docstrings_and_comments(path: Path) -> None:
    """``grep`` finds no game id in cli/, tui/ (but its table widgets), server/, session/ or web/src/ (but its
    generated types): help, examples and comments name games through the catalogue."""
    spellings = _id_spellings()
    assert {"rummikub", "domino-rummikub", "conveyor", "two-tray", "two_tray", "mummus"} <= spellings
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(word in line.lower() for word in spellings)
    ]
    assert not found, "\n".join(found)


def test_the_browser_client_is_checked_for_game_names() -> None:
    """The check above sees the browser client's sources and style, and none of its generated types."""
    names = {p.name for p in WEB_FILES}
    assert {"columns.ts", "pieces.ts", "table.ts", "style.css"} <= names, sorted(names)
    assert not any("generated" in p.parts for p in WEB_FILES)
    assert any((WEB / "generated").glob("*.ts")), "the generated types are where the build writes them"


@pytest.mark.parametrize("path", CLI_FILES, ids=lambda p: p.name)
def test_the_cli_imports_no_rules(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    game_code = ("rummykit.melds", "rummykit.rulesets", "rummykit.blocks", "rummykit.pieces", "rummykit.solve")
    bad = [f"{path.name}:{line}: {module}" for line, module, _ in _imports(tree) if module.startswith(game_code)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", sorted((SRC / "presenters").glob("*.py")), ids=lambda p: p.name)
def test_presenters_take_only_constants_from_the_meld_families(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for line, module, names in _imports(tree):
        assert not module.startswith("rummykit.cli"), f"{path.name}:{line}: presenters may not import the cli"
        if module.startswith("rummykit.melds"):
            judges = [n for n in names if not n.isupper()]
            assert names and not judges, f"{path.name}:{line}: {module} {judges} (ask the game, not the melds)"


def test_the_checks_catch_what_they_are_for() -> None:
    bad = ast.parse('"""A docstring may say rummikub."""\nx = "play conveyor"\nimport rummykit.melds.tiles\n')
    constants = _string_constants(bad)
    assert [c.value for c in constants] == ["play conveyor"]
    assert _imports(bad) == [(3, "rummykit.melds.tiles", [])]
    assert {"rummikub", "conveyor", "domino-rummikub"} <= set(GAME_WORDS)
    assert printed_pieces(["P1 draws R5", "?? face down, [3-5] face up", "3-5 J"]) == {"R5", "3-5", "J"}
    assert printed_pieces(["P1 takes 10H, with QS above it (8C*)"]) == {"10H", "QS", "8C"}
    # a line showing another seat's rack would be caught
    state = rummykit.new_game("rummikub", players=2, seed=1)
    other = state.view(1)["rack"]
    assert printed_pieces([" ".join(other)]) - pieces_in(state.view(0))
