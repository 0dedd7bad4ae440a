"""Listed actions' JSON forms, written from each piece's kept notation, are the actions' own JSON forms.

``json_forms`` (every listing the server sends) reads a piece's notation from
the slot where the piece keeps it instead of calling ``str()``; these hold it
to ``str()`` for every piece there is, and to :meth:`Action.to_json` (which
writes every value afresh) for every action listed in seeded games of every game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from rummykit.catalogue import games
from rummykit.engine.actions import Action, _notation, json_forms
from rummykit.engine.values import JSON
from rummykit.pieces.cards import DECK
from rummykit.pieces.dominoes import double_set
from rummykit.pieces.text import keeps_notation
from rummykit.pieces.tiles import COLOURS, JOKER, Tile


def test_every_piece_is_written_as_its_str() -> None:
    pieces: list[object] = [Tile(c, n) for c in COLOURS for n in range(1, 14)]
    pieces += [JOKER, *DECK, *double_set(6), *double_set(12)]
    kinds = {type(p) for p in pieces}
    assert len(kinds) == 3
    assert all(keeps_notation(kind) for kind in kinds) and not keeps_notation(_Odd)
    for piece in pieces:
        write = _notation(type(piece))
        assert write is not str  # every kind keeps its notation
        assert write(piece) == str(piece)


class _Odd:
    """A value with a ``_text`` attribute that is not its notation, and no slots: written by ``str()``."""

    _text = "not me"

    def __str__(self) -> str:
        return "odd"


@dataclass(frozen=True)
class _OddAction(Action):
    things: tuple[_Odd, ...]


def test_a_value_that_keeps_no_notation_is_written_by_str() -> None:
    assert _notation(_Odd) is str
    action = _OddAction(0, (_Odd(), _Odd()))
    assert json_forms([action]) == [action.to_json()]
    assert action.to_json()["things"] == ["odd", "odd"]


@pytest.mark.parametrize("game", sorted(i.id for i in games()))
def test_listed_forms_are_the_actions_own(game: str) -> None:
    info = next(i for i in games() if i.id == game)
    rng = random.Random(15)
    for seed in (1, 2):
        state = info.new(players=2, seed=seed)
        kept: dict[int, tuple[object, JSON]] = {}
        for _ in range(120):
            if state.outcome is not None:
                break
            seat = min(state.must_act)
            found = state.legal_actions(seat)
            assert json_forms(found) == [a.to_json() for a in found]
            assert json_forms(found, kept) == [a.to_json() for a in found]
            state.apply(rng.choice(found))


def test_pieces_are_named_once_and_other_values_every_time() -> None:
    from rummykit.engine.commands import said

    pieces: list[object] = [Tile(c, n) for c in COLOURS for n in range(1, 14)]
    pieces += [JOKER, *DECK, *double_set(6)]
    for piece in pieces:
        assert said.name_piece(piece) == said._name_of(piece)
        assert said._NAMES[piece] == said._name_of(piece)
    assert said.name_piece(Tile(COLOURS[0], 7)) == f"{said._name_of(Tile(COLOURS[0], 7))}"
    unhashable = ["R7"]  # a list: named, never kept
    assert said.name_piece(unhashable) == str(unhashable)
    assert said.name_piece("R7") == said._name_of("R7") and "R7" not in said._NAMES  # a str keeps no notation


def test_set_texts_are_kept_by_value_and_bounded() -> None:
    from rummykit.pieces.text import set_texts
    from rummykit.rulesets.freetable import format_pieces

    assert set_texts.cache_info().maxsize == 4096
    sets = [tuple(Tile(c, n) for n in range(k, k + 3)) for c in COLOURS for k in (1, 5)]
    for s in sets:
        assert format_pieces(s) == " ".join(str(t) for t in s)
        assert format_pieces(tuple(s)) == format_pieces(list(s))
        assert set_texts(s) is set_texts(tuple(s))  # kept by the set's value: the same list
    assert format_pieces((1, 2)) == "1 2"  # not pieces: written as they are
    assert format_pieces(()) == ""
    assert format_pieces((["R1"], ["R2"])) == "['R1'] ['R2']"  # items that do not hash
    assert format_pieces(iter(sets[0])) == format_pieces(sets[0])  # any iterable, read once


@pytest.mark.parametrize("color", [False, True])
def test_a_kept_set_is_written_as_if_each_piece_had_its_empty_mark(color: bool) -> None:
    from rummykit.presenters.text import Style, marked_pieces

    style = Style(color=color, width=0)
    pieces = ["R1", "J", "K13", "B7"]
    for marks in ([""] * 4, [""] * 6, [""] * 2, ["", "+", "", ""], ["*"] * 4):
        plain = " ".join(style.marked(p, m) for p, m in zip(pieces, marks, strict=False))  # one piece at a time
        assert marked_pieces(pieces, style, marks) == plain
