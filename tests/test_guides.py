"""The "how to play" guides: one for every game, naming the rules that matter, with example melds the
game's own engine accepts (so a wrong picture fails here)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from fastapi.testclient import TestClient
from test_server_support import Db, sqlite_db

from rummykit.catalogue import find_game, games
from rummykit.errors import UnknownGameError
from rummykit.presenters.guide import guide_for, guide_lines
from rummykit.presenters.text import Style, visible_len
from rummykit.rulesets.guide import parse_guide
from rummykit.server.guides import GuideOut

__all__ = ["sqlite_db"]  # a fixture, imported for pytest

GAMES = [info.id for info in games()]


def _tiles(pieces: Sequence[object]) -> bool:
    from rummykit.melds.tiles import TILES

    return TILES.check(pieces).valid  # type: ignore[arg-type]


def _domino_rummikub(pieces: Sequence[object]) -> bool:
    from rummykit.rulesets.domino_rummikub.options import MELDS

    return MELDS.check(pieces).valid  # type: ignore[arg-type]


def _conveyor(pieces: Sequence[object]) -> bool:
    state = find_game("conveyor").new(players=2)
    return bool(state.rules.check(pieces).valid)  # type: ignore[attr-defined]


def _grid_line(pieces: Sequence[object]) -> bool:
    from rummykit.melds.tile_lines import read_line

    return read_line(tuple(pieces)).valid


def _mummus(pieces: Sequence[object]) -> bool:
    from rummykit.rulesets.mummus.options import MELDS

    return MELDS.check(pieces).valid  # type: ignore[arg-type]


# Each game's own meld check, as its engine judges a meld (two-tray: a line of the grid, read as laid).
CHECKS: dict[str, Callable[[Sequence[object]], bool]] = {
    "rummikub": _tiles,
    "domino-rummikub": _domino_rummikub,
    "conveyor": _conveyor,
    "two-tray": _grid_line,
    "mummus": _mummus,
}

# Words each guide must use: the rules newcomers trip over.
MUST_SAY: dict[str, list[str]] = {
    "rummikub": ["30 points", "joker", "group", "run", "rearrange"],
    "domino-rummikub": ["0-0", "6-6", "joker", "run", "sum", "starting group"],
    "conveyor": ["column", "conveyor", "opposite end", "jump-in", "claim", "run of pairs", "sum"],
    "two-tray": ["tray", "line", "across", "down", "crossword", "30 points", "alternate"],
    "mummus": ["spread", "deep", "this same turn", "rummy", "wrap", "at any time"],
}


def test_every_game_of_the_catalogue_has_a_guide_and_a_check_here() -> None:
    assert set(CHECKS) == set(GAMES) == set(MUST_SAY)
    for game in GAMES:
        assert guide_for(game).game == game


@pytest.mark.parametrize("game", GAMES)
def test_every_example_meld_is_valid_by_the_games_own_check(game: str) -> None:
    guide = guide_for(game)
    info = find_game(game)
    assert len(guide.melds) >= 2
    for meld in guide.melds:
        pieces = [info.parse_piece(text) for text in meld.pieces]
        assert [str(p) for p in pieces] == list(meld.pieces), "write the pieces in the game's own notation"
        assert CHECKS[game](pieces), f"{game}: {' '.join(meld.pieces)} is not a valid meld"


# A picture each check must refuse, so that the checks above can fail.
NOT_MELDS: dict[str, str] = {
    "rummikub": "R4 R5 R7",
    "domino-rummikub": "1-2 3-4 5-5",
    "conveyor": "1-3 1-4 1-6",
    "two-tray": "R6 R5 R4",  # a line is read as laid: a run goes up left to right
    "mummus": "5H 6H 8H",
}


@pytest.mark.parametrize("game", GAMES)
def test_the_check_here_refuses_a_wrong_picture(game: str) -> None:
    info = find_game(game)
    assert not CHECKS[game]([info.parse_piece(text) for text in NOT_MELDS[game].split()])


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_names_the_rules_that_matter(game: str) -> None:
    guide = guide_for(game)
    text = " ".join(line for _, part in guide.sections() for line in part).lower()
    for words in MUST_SAY[game]:
        assert words.lower() in text, f"the {game} guide does not say {words!r}"
    assert guide.tip and len(guide.tip) < 300
    # short: a guide, not the rules page
    assert len(text) < 3200, len(text)


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_lines_draw_the_melds_and_fit_the_width(game: str) -> None:
    guide = guide_for(game)
    lines = guide_lines(guide, Style(color=True, width=50))
    assert all(visible_len(line) <= 50 for line in lines)
    text = "\n".join(lines)
    for meld in guide.melds:
        assert Style(color=True).pieces(meld.pieces) in text
    for heading, _ in guide.sections():
        assert heading in text


def test_an_alias_finds_the_guide_and_an_unknown_game_is_refused() -> None:
    assert guide_for("cv") == guide_for("conveyor")
    with pytest.raises(UnknownGameError, match="the games are"):
        guide_for("chess")


def test_a_guide_without_its_parts_is_refused() -> None:
    with pytest.raises(ValueError, match="meld"):
        parse_guide('game = "x"\ngoal = "y"\n')
    with pytest.raises(ValueError, match="'tip'"):
        parse_guide(
            'game = "x"\ngoal = "y"\nturn = ["a"]\nmeld_rules = ["b"]\nsurprises = ["c"]\nending = ["d"]\n'
            '[[meld]]\npieces = "R1 R2 R3"\ncaption = "c"\n'
        )


# -- the server's route ---------------------------------------------------------------------


def test_the_server_sends_each_games_guide_and_refuses_an_unknown_game_clearly(sqlite_db: Db) -> None:
    with TestClient(sqlite_db.app()) as client:
        for game in [*GAMES, "tt"]:
            answer = client.get(f"/api/games/{game}/guide")
            assert answer.status_code == 200, answer.text
            body = GuideOut.model_validate(answer.json())
            guide = guide_for(game)
            assert body.game == guide.game and body.title == find_game(game).name
            assert [m.pieces for m in body.melds] == [list(m.pieces) for m in guide.melds]
            assert [s.heading for s in body.sections] == [h for h, _ in guide.sections()]
            assert body.tip == guide.tip
        answer = client.get("/api/games/chess/guide")
    assert answer.status_code == 404
    error = answer.json()["error"]
    assert error["rule"] == "GAME" and "unknown game 'chess'" in error["message"] and "rummikub" in error["message"]
