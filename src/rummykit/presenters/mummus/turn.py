"""Mummus's part of a typed turn (:class:`MummusDisplay`): its screens, its move list, its Tab words.

The commands themselves (their words, help rows and typed text) come from
the game's command table, and the forms that need the seat's view (``take
3``, ``addon 2 9H``, a meld left out, a bare ``rummy``) from
:mod:`rummykit.rulesets.mummus.typed`; the generic
:class:`~rummykit.presenters.turn.Turn` drives them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.engine.commands import Part, Syntax
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card
from rummykit.presenters.base import View
from rummykit.presenters.mummus.view import (
    MARKS_LEGEND,
    ORDER_ALIASES,
    ORDERS,
    changes,
    claim_line,
    hand_lines,
    next_step_line,
    screen_lines,
    table_lines,
)
from rummykit.presenters.turn import Display, Turn
from rummykit.rulesets.mummus import Rummy, Take
from rummykit.rulesets.mummus.views import mummus_view

HEAD = (
    "Commands (melds and discard-pile cards are numbered from 1 as shown; cards are written rank then suit"
    " letter, like 10H or QS; T also means 10; a meld may be left out when only one takes the cards, and"
    " a bare `rummy` makes the only claim there is):"
)


def moves_lines(texts: Sequence[str]) -> list[str]:
    """The listed legal actions of a seat (each as the command that plays it)."""
    if not texts:
        return ["You have nothing to do now."]
    lines = [f"Your moves now ({len(texts)}):"]
    discards = [t for t in texts if t.startswith("discard ")]
    lines += [f"  {t}" for t in texts if not t.startswith("discard ")]
    if discards:
        lines.append("  discard " + " | ".join(t.split()[1] for t in discards))
    return lines


class MummusDisplay(Display):
    """What a mummus turn shows, what the seat's last action changed marked (see the module's docstring)."""

    orders = tuple(ORDERS)
    order_aliases = ORDER_ALIASES
    head = HEAD
    moves = True
    advised = "mummus"

    def __init__(self) -> None:
        self.marks: dict[int, list[str]] = {}
        """The cards the seat's last action put on melds, marked (by meld index)."""
        self.new: list[str] = []
        """The cards the seat's last action brought into its hand."""

    def label(self, turn: Turn) -> str:
        """``turn`` for the player to move, ``call`` for a seat acting out of turn."""
        return "turn" if turn.view["turn"] == turn.seat else "call"

    def screen(self, turn: Turn) -> list[str]:
        """The whole game as this seat sees it (what its last action changed marked)."""
        view = mummus_view(turn.view)
        return screen_lines(view, turn.names, turn.labels, turn.style, turn.order, marks=self.marks, new=self.new)

    def update(self, turn: Turn, before: View) -> list[str]:
        """The lines worth showing after an action, what it changed marked."""
        view, style = mummus_view(turn.view), turn.style
        self.marks, self.new = changes(mummus_view(before), view)
        if view["phase"] != before["phase"]:
            return self.screen(turn)
        lines = table_lines(view, turn.names, style, self.marks)
        if "hand" in view:
            lines += self.order_lines(turn)
        if self.marks or self.new:
            lines.append(MARKS_LEGEND)
        claim = claim_line(view)
        if claim is not None:
            lines.append(claim)
        return style.fit([*lines, next_step_line(view)])

    def order_lines(self, turn: Turn) -> list[str]:
        """This seat's hand in the chosen order, laid out to the width."""
        return hand_lines(turn.view.get("hand", []), turn.order, turn.style, self.new)

    def moves_lines(self, turn: Turn, texts: Sequence[str]) -> list[str]:
        """See :func:`moves_lines`."""
        return moves_lines(texts)

    def offer(self, turn: Turn, command: Syntax, args: Sequence[str], items: Sequence[Part | str]) -> list[str]:
        """As every game offers, but no ``to`` once the meld was named first by its number (``addon 1``)."""
        words = super().offer(turn, command, args, items)
        return [w for w in words if w != "to"] if args and args[0].isdigit() else words

    def pieces(self, turn: Turn, command: Syntax, part: Part, args: Sequence[str]) -> list[str]:
        """The discard pile (``take``, bottom first), the claimable discards (``rummy``), each meld's first
        card (after ``to``), else the hand's cards not typed yet (in the hand's order)."""
        view = turn.view
        if command.cls is Take:
            return list(dict.fromkeys(view["discard"]))
        if part.field == "meld":
            return [str(m["cards"][0]) for m in view["melds"]]
        pool = list(view.get("claimable", [])) if command.cls is Rummy else _hand(turn)
        return _left(pool, [a for a in args if not a.isdigit()])


def _hand(turn: Turn) -> list[str]:
    """The hand's cards in the chosen order."""
    return [str(c) for c in sorted((Card.parse(x) for x in turn.view.get("hand", [])), key=ORDERS[turn.order])]


def _left(cards: Sequence[str], typed: Sequence[str]) -> list[str]:
    """``cards`` without those named in ``typed`` (words that are no card are skipped)."""
    named: set[str] = set()
    for word in typed:
        try:
            named.add(str(Card.parse(word)))
        except ParseError:
            continue
    return [c for c in cards if c not in named]
