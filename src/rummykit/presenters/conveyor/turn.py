"""Conveyor's part of a typed turn (:class:`ConveyorDisplay`): its screens, its move list, its Tab words.

The commands themselves (their words, help rows and typed text, columns,
cells and melds counted from 1) come from the game's command table, and the
shortcuts that need the seat's view (``jump`` without the discard, a layoff
without its end) from :mod:`rummykit.rulesets.conveyor.typed`; the generic
:class:`~rummykit.presenters.turn.Turn` drives them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.engine.commands import Part, Syntax
from rummykit.errors import ParseError
from rummykit.pieces.dominoes import Domino
from rummykit.presenters.base import View
from rummykit.presenters.conveyor.view import (
    ORDER_ALIASES,
    ORDERS,
    columns_lines,
    hand_lines,
    meld_lines,
    next_step_line,
    screen_lines,
)
from rummykit.presenters.turn import Display, Turn
from rummykit.rulesets.conveyor import JUMP, PLAY, SELECT, Jump
from rummykit.rulesets.conveyor.views import conveyor_view

HEAD = (
    "Commands (columns, cells and melds are numbered from 1, as on the screen; dominoes are written like 3-5;"
    " a layoff's end may be left out when only one fits, and `jump` alone claims the discard on offer):"
)


def moves_lines(texts: Sequence[str]) -> list[str]:
    """The listed legal actions of a seat (each as the command that plays it), grouped."""
    if not texts:
        return ["You have no move now: it is another player's turn."]
    lines = [f"Your moves now ({len(texts)}):"]
    reveals: dict[str, list[str]] = {}
    simple: dict[str, list[str]] = {}
    rest: list[str] = []
    for text in texts:
        verb, _, args = text.partition(" ")
        if verb == "reveal":
            column, _, cell = args.partition(" ")
            reveals.setdefault(column, []).append(cell)
        elif verb in ("claim", "draw", "discard"):
            simple.setdefault(verb, []).append(text)
        else:
            rest.append(text)
    if "claim" in simple:
        lines.append("  " + " | ".join(simple.pop("claim")))
    for column, cells in reveals.items():
        lines.append(f"  reveal {column} CELL, CELL one of: {' '.join(cells)}")
    for group in simple.values():
        lines.append("  " + " | ".join(group))
    lines += [f"  {text}" for text in rest]
    return lines


class ConveyorDisplay(Display):
    """What a conveyor turn shows (see the module's docstring)."""

    orders = tuple(ORDERS)
    order_aliases = ORDER_ALIASES
    head = HEAD
    moves = True
    advised = "conveyor"

    def label(self, turn: Turn) -> str:
        """``answer`` in a jump-in window, else ``turn``."""
        return "answer" if turn.view["phase"] == JUMP else "turn"

    def screen(self, turn: Turn) -> list[str]:
        """The whole game as this seat sees it."""
        return screen_lines(conveyor_view(turn.view), turn.names, turn.labels, turn.style, turn.order)

    def update(self, turn: Turn, before: View) -> list[str]:
        """All of it if the phase changed; else what a step changes (the columns, or the melds and hand)."""
        view, style = conveyor_view(turn.view), turn.style
        if view["phase"] != before["phase"] or view["phase"] not in (PLAY, SELECT):
            return self.screen(turn)
        if view["phase"] == SELECT:
            return style.fit([*columns_lines(view, turn.names, style), next_step_line(view)])
        return style.fit([*meld_lines(view, turn.names, style), *self.order_lines(turn), next_step_line(view)])

    def order_lines(self, turn: Turn) -> list[str]:
        """This seat's hand in the chosen order."""
        view = turn.view
        return hand_lines(view.get("hand", []), turn.order, turn.style, view["hand_known"][turn.seat])

    def moves_lines(self, turn: Turn, texts: Sequence[str]) -> list[str]:
        """See :func:`moves_lines`."""
        return moves_lines(texts)

    def pieces(self, turn: Turn, command: Syntax, part: Part, args: Sequence[str]) -> list[str]:
        """The hand's dominoes not typed yet; for a jump, the discard on offer and ``with``."""
        if command.cls is Jump and part.field == "domino":
            window = turn.view.get("jump_window")
            return [*([str(window["piece"])] if window is not None else []), "with"]
        lowered = [a.lower() for a in args]
        typed = args[lowered.index("with") + 1 :] if "with" in lowered else args
        return _hand_left(turn, typed)


def _hand_left(turn: Turn, typed: Sequence[str]) -> list[str]:
    """The hand's dominoes (in the chosen order) not named in ``typed`` yet."""
    hand = [Domino.parse(x) for x in turn.view.get("hand", [])]
    left = Counter(str(d) for d in hand)
    for word in typed:
        try:
            left[str(Domino.parse(word))] -= 1
        except ParseError:
            continue
    shown = [str(d) for group in ORDERS[turn.order](hand) for d in group]
    return [d for d in dict.fromkeys(shown) if left[d] > 0]
