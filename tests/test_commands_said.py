"""The command layer's wording of an action for a list of moves (``said``): what the browser's moves panel and
the terminal app's moves list show. Positions count from 1, pieces are named, never raw notation."""

from __future__ import annotations

import re

import pytest

from rummykit.catalogue import find_game, new_game
from rummykit.engine.commands import command_table, name_piece, natural_key
from rummykit.pieces.cards import Card
from rummykit.pieces.dominoes import Domino
from rummykit.pieces.tiles import parse_tiles
from rummykit.rulesets.conveyor.actions import Claim, Discard, Draw, Layoff, Meld, Reveal
from rummykit.rulesets.freetable import Play
from rummykit.rulesets.mummus.actions import Addon, Take


def _said(game: str, action: object) -> str:
    return command_table(find_game(game).actions).said_text(action)  # type: ignore[arg-type]


def test_conveyor_moves_name_their_parts_counted_from_one() -> None:
    d = Domino.parse
    assert _said("conveyor", Reveal(0, 1, 2)) == "reveal column 2, cell 3"
    assert _said("conveyor", Claim(0, 0)) == "claim column 1"
    assert _said("conveyor", Draw(0, 4, "bottom")) == "draw column 5, bottom"
    assert _said("conveyor", Meld(0, (d("3-4"), d("3-5"), d("3-6")))) == "meld 3 dominoes: 3-4, 3-5, 3-6"
    assert _said("conveyor", Layoff(0, 1, d("2-6"), "high")) == "lay off meld 2, domino 2-6, high"
    assert _said("conveyor", Discard(0, d("0-9"))) == "discard domino 0-9"


def test_cards_and_tiles_by_name() -> None:
    assert name_piece(Card.parse("QH")) == "queen of hearts"
    assert [name_piece(t) for t in parse_tiles("K1 B13 O7 R9 J")] == ["black 1", "blue 13", "orange 7", "red 9", "joker"]
    cards = tuple(Card.parse(c) for c in ("7H", "8H"))
    assert _said("mummus", Take(0, Card.parse("10S"))) == "take 10 of spades"
    assert _said("mummus", Addon(0, cards, Card.parse("6H"))) == "add on 2 cards: 7 of hearts, 8 of hearts to the meld with 6 of hearts"


def test_a_free_table_play_names_the_pieces_laid() -> None:
    placed = tuple(parse_tiles("R9 R10 R11"))
    table = (tuple(parse_tiles("K5 B5 O5")), placed)
    assert _said("rummikub", Play(0, placed, table)) == "play 3 tiles: red 9, red 10, red 11 (table of 2 sets)"


@pytest.mark.parametrize("game", ["conveyor", "mummus", "rummikub", "domino-rummikub", "two-tray"])
def test_every_listed_move_of_a_new_game_is_worded_without_notation(game: str) -> None:
    state = new_game(game, players=["Ann", "Bob"], seed=3)
    seat = min(state.to_act)
    listed = command_table(state.info.actions).listed(state.indexed_actions(seat))
    assert listed
    for said, _action in listed:
        # no bare tile or card codes (R9, QH) and no record separators
        assert not re.search(r"\b([KBOR]\d{1,2}|(10|[2-9AJQK])[CDHS])\b", said), said
        assert "|" not in said, said
    # grouped by kind, in number order within a kind
    kinds = [type(a) for _, a in listed]
    assert kinds == sorted(kinds, key=kinds.index)
    for kind in set(kinds):
        words = [s for s, a in listed if type(a) is kind]
        assert words == sorted(words, key=natural_key)


def test_conveyor_reveals_sort_by_number_not_by_text() -> None:
    state = new_game("conveyor", players=["Ann", "Bob"], seed=3)
    listed = [s for s, a in command_table(state.info.actions).listed(state.indexed_actions(0)) if isinstance(a, Reveal)]
    cells = [tuple(int(n) for n in re.findall(r"\d+", s)) for s in listed]
    assert cells == sorted(cells)
    assert min(c for col in cells for c in col) == 1, "counted from 1"
