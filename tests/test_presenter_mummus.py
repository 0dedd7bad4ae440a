"""The mummus presenter: screen numbers typed as commands become the game's own actions; the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rummykit.catalogue import find_game
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card
from rummykit.presenters import presenter_for
from rummykit.presenters.mummus import (
    card_text,
    command_text,
    next_step_line,
    screen_lines,
)
from rummykit.presenters.text import Style
from rummykit.presenters.turn import Turn
from rummykit.rulesets.mummus import Take, from_position
from rummykit.rulesets.mummus.views import mummus_view


def turn(text: str, seat: int, said: list[str] | None = None) -> Turn:
    state = from_position(text, target=0)
    out = said if said is not None else []
    made = presenter_for("mummus").turn(state.view(seat), say=lambda *lines: out.extend(lines), style=Style())
    assert isinstance(made, Turn)
    return made


POS = "hands: 4H 8C 2C 9D / 4S 9S KD / QC QD; melds: 1: 5H 6H 7H | 2: 8D 8H 8S; discard: 9H JC 10D"


def text_of(t: Turn, line: str) -> str:
    action = t.command(line)
    assert action is not None
    return action.text()


def test_take_n_counts_the_spread_pile_from_the_bottom() -> None:
    t = turn(POS, 0)
    assert text_of(t, "take 1") == "take 9H" and text_of(t, "take 3") == "take 10D"
    assert text_of(t, "take 10d") == "take 10D" and text_of(t, "stock") == "draw"
    with pytest.raises(ParseError, match=r"the discard pile has cards 1\.\.3, not 4"):
        t.command("take 4")


def test_addon_by_screen_number_by_card_or_by_the_only_meld_that_takes_it() -> None:
    t = turn(POS, 0)
    assert text_of(t, "addon 1 4H") == "addon 4H to 5H"
    assert text_of(t, "add on 4h to 2") == "addon 4H to 8D"  # the engine will say 4H does not fit there
    assert text_of(t, "addon 4H") == "addon 4H to 5H"  # only the hearts run takes 4H
    assert text_of(t, "addon 8C to 6H") == "addon 8C to 6H"
    assert text_of(t, "addon 8C") == "addon 8C to 8D"
    with pytest.raises(ParseError, match=r"the melds are numbered 1\.\.2, not 3"):
        t.command("addon 3 4H")
    with pytest.raises(ParseError, match="name the meld"):
        t.command("addon 2C")


def test_a_card_that_fits_two_melds_needs_its_meld_named() -> None:
    t = turn("hands: 8H 2C / 3D 4D; melds: 1: 5H 6H 7H | 1: 8C 8D 8S", 0)
    with pytest.raises(ParseError, match="8H fits melds 1, 2: write `addon N 8H`"):
        t.command("addon 8H")
    assert text_of(t, "addon 2 8H") == "addon 8H to 8C"


def test_a_bare_rummy_makes_the_only_claim_or_lists_them() -> None:
    said: list[str] = []
    one = turn("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 3D", 1, said)
    assert text_of(one, "rummy") == "rummy 8H to 5H" and text_of(one, "rummy 8H") == "rummy 8H to 5H"
    two = turn("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 4H 3D", 1, said)
    with pytest.raises(ParseError, match=re.escape("several claims are open (`rummy 4H to 5H`, `rummy 8H to 5H`)")):
        two.command("rummy")
    none = turn("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 3D", 0)
    with pytest.raises(ParseError, match="nothing to claim"):
        none.command("rummy")


def test_the_screen_spreads_the_pile_marks_claims_and_says_who_laid_what() -> None:
    state = from_position("hands: 2C 9D / 4S 9S KD; melds: 5H@1 6H@1 7H@0; discard: 8H 3D; turn: 1", target=0)
    view: Any = state.view(0)
    lines = screen_lines(view, ["ann", "bob"], ["you", "bot"], Style())
    text = "\n".join(lines)
    assert "   1 8H*    2 3D   (* a rummy call can claim it)" in text
    assert "1  run of hearts  5H 6H 7H  laid by bob 5H 6H, ann 7H" in text
    assert "Rummy! 8H in the discard pile can be claimed" in text
    assert "  + ann (you)" in text and "  > bob (bot)" in text
    assert "Your hand (2 cards, by suit): 2C  9D" in text
    assert "4S" not in text and "KD" not in text  # bob's hand stays hidden
    assert card_text("QD", Style(color=True)).endswith("QD\x1b[0m") and card_text("QS", Style(color=True)) == "QS"


def test_labels_say_whose_turn_it_is() -> None:
    assert turn(POS, 0).label == "turn"
    assert turn("hands: 2C 9D / 4H 9S KD; melds: 1: 5H 6H 7H", 1).label == "call"


def test_a_claim_typed_without_a_meld_is_the_new_meld_when_the_cards_form_one() -> None:
    t = turn("hands: 2C 9D 4C / 4S 9S KD; melds: 0: 5H 6H 7H; discard: 8H 9H 10H", 1)
    assert text_of(t, "rummy 8H 9H 10H") == "rummy 8H 9H 10H"  # as the record writes it: a new meld
    assert text_of(t, "rummy 8H 9H 10H to 1") == "rummy 8H 9H 10H to 5H"
    assert text_of(t, "rummy 8H 9H") == "rummy 8H 9H to 5H"  # two cards form no meld: the only one they extend
    presenter = presenter_for("mummus")
    for action in t.legal():
        assert t.command(presenter.command_text(action)) == action


def test_the_narrator_marks_what_a_claim_or_an_add_on_added_and_explains_the_marks_once() -> None:
    state = from_position("hands: 4H 9C 2C 3D / 8C 9S KD / QC QD JS; melds: 1: 5H 6H 7H; discard: 8H 3S", target=0)
    start = len(state.history)
    for text in ("1 rummy 8H to 5H", "0 addon 4H to 5H", "0 draw"):
        state.apply(state.parse_action(text))
    narrator = presenter_for("mummus").narrator(["ann", "bob", "cy"], Style())
    told = [line for event in state.history[start:] for line in narrator.describe(event.seen_by(None))]
    assert told == [
        "Rummy! bob claims 8H from the discard pile onto meld 1: 5H 6H 7H +8H (8 points)",
        "    (+ marks the cards just added to the meld)",
        "ann adds 4H to meld 1: +4H 5H 6H 7H 8H (4 points; 3 cards left)",
        "ann draws from the stock",
    ]


MARKED = re.compile(r"\+((?:[2-9]|10|[AJQK])[CDHS])\b")
"""A card marked as just moved (``+8H``)."""


def test_after_an_action_the_screen_marks_the_cards_it_moved() -> None:
    state = from_position("hands: 4H 8C 2C 9D / 4S 9S KD / QC QD; melds: 1: 5H 6H 7H | 2: 8D 8H 8S", target=0)
    t = presenter_for("mummus").turn(state.view(0), say=lambda *lines: None, style=Style())
    assert isinstance(t, Turn)
    state.apply(state.parse_action("0 draw"))
    (drawn,) = set(state.view(0)["hand"]) - {"4H", "8C", "2C", "9D"}
    text = "\n".join(t.update(state.view(0)))
    assert MARKED.findall(text) == [drawn]  # the drawn card, in the hand
    assert "(+ marks what your last action put on a meld or into your hand)" in text
    state.apply(state.parse_action("0 addon 4H to 5H"))
    text = "\n".join(t.update(state.view(0)))
    assert MARKED.findall(text) == ["4H"] and "  1  run of hearts  +4H 5H 6H 7H  laid by P1 4H, P2 5H 6H 7H" in text


def test_a_long_pile_and_wide_melds_fit_a_narrow_screen_and_keep_every_card() -> None:
    pile = "9S 4D 8H JC 2C 3C 4C 5S 6S 7S 8S 9C 10C JD QD KD"
    state = from_position(f"hands: 2D 3D AS / 4S 9D KH; melds: 0: 5H 6H 7H | 10D@0 10H@1 10S@1; discard: {pile}", target=0)
    view = state.view(0)
    whole = screen_lines(view, ["ann", "bob"], ["you", "bot"], Style(width=0))
    for width in (40, 60, 80):
        lines = screen_lines(view, ["ann", "bob"], ["you", "bot"], Style(width=width))
        assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
        assert " ".join(lines).split() == " ".join(whole).split()  # only the line breaks differ
        spread = re.findall(r"(?<!\S)(\d+) ((?:10|[2-9AJQK])[CDHS])\*?(?!\S)", "\n".join(lines))
        assert spread == [(str(n), card) for n, card in enumerate(pile.split(), start=1)]  # numbered from 1


def test_the_screen_shows_one_take_form_and_every_reader_takes_both() -> None:
    """The screen, `help` and `moves` write `take CARD`; `take N` (the pile's number) reads the same everywhere.

    The same reading serves the line prompt and the terminal app (the turn) and the browser's command box
    (the server's :meth:`GameInfo.parse_typed`), so each accepts what any of them shows.
    """
    t = turn(POS, 0)
    view = t.view
    info = find_game("mummus")
    shown = "\n".join([*t.screen(), *t.help_lines()])
    assert "`take CARD` from the discard pile" in shown and "`take N`" not in next_step_line(mummus_view(view))
    assert "take CARD|N" in shown and "`take CARD` or `take N`" in shown
    for n, card in enumerate(view["discard"], start=1):  # numbered from 1 at the bottom, as shown
        expected = Take(0, Card.parse(card))
        for typed in (f"take {n}", f"take {card}", f"TAKE {card.lower()}"):
            assert t.command(typed) == expected, typed
            assert info.parse_typed(0, typed, view) == expected, typed
    listed = [a for a in t.legal() if isinstance(a, Take)]
    assert listed and all(command_text(a) == f"take {a.card}" for a in listed)  # what `moves` lists
    for action in t.legal():
        assert info.parse_typed(0, command_text(action), view) == action == t.command(command_text(action))
    # a number the screen does not show is refused by the same words in every interface
    for typed, words in (("take 4", "the discard pile has cards 1..3, not 4"), ("addon 3 4H", "numbered 1..2, not 3")):
        with pytest.raises(ParseError, match=re.escape(words)):
            info.parse_typed(0, typed, view)
        with pytest.raises(ParseError, match=re.escape(words)):
            t.command(typed)
    # every other game reads its notation only: a number there is not read against the screen
    rummikub = find_game("rummikub")
    assert rummikub.parse_typed(0, "draw", rummikub.new(seed=1).view(0)) == rummikub.parse_action("0 draw")


def test_a_bare_rummy_typed_in_the_browser_names_the_open_claims() -> None:
    info = find_game("mummus")
    one = from_position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 3D", target=0).view(1)
    assert str(info.parse_typed(1, "rummy", one)) == "1 rummy 8H to 5H"
    assert str(info.parse_typed(1, "rummy 8H to 1", one)) == "1 rummy 8H to 5H"
    two = from_position("hands: 2C 9D / 4S 9S KD; melds: 1: 5H 6H 7H; discard: 8H 4H 3D", target=0).view(1)
    with pytest.raises(ParseError, match=re.escape("several claims are open (`rummy 4H to 5H`, `rummy 8H to 5H`)")):
        info.parse_typed(1, "rummy", two)
    empty = from_position("hands: 2C 9D / 4S 9S KD; discard: 3D", target=0).view(0)
    with pytest.raises(ParseError, match="there is no meld 1: no meld is on the table yet"):
        info.parse_typed(0, "addon 1 2C", empty)
