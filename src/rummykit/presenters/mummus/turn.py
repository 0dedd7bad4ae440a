"""Mummus's typed commands: the help, the command text of an action, and :class:`MummusTurn`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card
from rummykit.presenters.base import Say, View
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
from rummykit.presenters.text import HelpRow, Style, help_table
from rummykit.presenters.turn import CommandTurn, Handler
from rummykit.rulesets.mummus import INFO, actions_from_view, read_typed
from rummykit.rulesets.mummus.typed import open_claims

# -- the commands ------------------------------------------------------------------

HELP_ROWS = [
    ("draw", "start your turn with the top card of the stock"),
    ("take CARD|N", "start your turn from the discard pile: that card (or card N, counted from the bottom) and"
     " every card above it;"
     " a card below the top must be melded or added on this turn"),
    ("meld CARD CARD CARD ...", "your turn, after the draw: lay down 3+ cards of a rank, or of a suit in sequence"
     " (Q K A 2 wraps)"),
    ("addon [N] CARD ... [to N|CARD]", "any time, also out of turn: add cards to meld N (or to the meld holding"
     " CARD); the meld may be left out when only one takes the cards"),
    ("rummy [CARD ...] [to N|CARD]", "any time: claim discard-pile cards that extend a meld (or form one); bare"
     " `rummy` makes the only claim there is, or lists them"),
    ("discard CARD", "end your turn (with your last card, the round)"),
]
TOOL_ROWS = [
    ("moves", "list every move you may make now (also `options`)"),
    ("sort suit|rank", "order your hand by suit or by rank"),
    ("show", "show the whole table again"),
    ("help", "this list"),
    ("quit", "save the game record and stop"),
]
COMMANDS = ("draw", "take", "meld", "addon", "rummy", "discard", "moves", "sort", "show", "help", "quit")
"""The commands Tab completes (their aliases work too, but are not offered)."""


def help_rows() -> list[HelpRow]:
    """The commands."""
    return [*HELP_ROWS, *TOOL_ROWS]


def help_lines(width: int = 0) -> list[str]:
    """The command list, laid out to ``width`` (0: lines unbroken).

    >>> help_lines()[0].startswith('Commands (melds and discard-pile cards are numbered from 1')
    True
    >>> all(len(line) <= 40 for line in help_lines(40))
    True
    """
    head = (
        "Commands (melds and discard-pile cards are numbered from 1 as shown; cards are written rank then suit"
        " letter, like 10H or QS; T also means 10):"
    )
    return help_table(head, help_rows(), width)


def command_text(action: Action) -> str:
    """The command a person types for an action: its text without the seat.

    Mummus actions number nothing: a take names its card and an add-on or a
    claim names its meld by a card of it, which the prompt accepts as they
    are (the screen's numbers are another way to type them).

    >>> command_text(INFO.parse_action('2 addon jh 10h to 9h')), command_text(INFO.parse_action('0 take 8H'))
    ('addon JH 10H to 9H', 'take 8H')
    """
    return action.text()


def moves_lines(actions: Sequence[Action]) -> list[str]:
    """The listed legal actions of a seat, written as the commands that play them."""
    if not actions:
        return ["You have nothing to do now."]
    texts = [command_text(a) for a in actions]
    lines = [f"Your moves now ({len(texts)}):"]
    discards = [t for t in texts if t.startswith("discard ")]
    rest = [t for t in texts if not t.startswith("discard ")]
    lines += [f"  {t}" for t in rest]
    if discards:
        lines.append("  discard " + " | ".join(t.split()[1] for t in discards))
    return lines


ADD_ON = {("add", "on"): "addon"}
"""``add on`` is ``addon``."""


class MummusTurn(CommandTurn):
    """One person at the keyboard for one seat: typed commands turned into mummus actions.

    :meth:`command` runs one line and returns the :class:`Action` to apply (or
    ``None`` when the command only showed something); it raises
    :class:`~rummykit.errors.RummykitError` for bad input, or :class:`Quit`.
    Nothing here changes the game.
    """

    orders = tuple(ORDERS)
    order_aliases = ORDER_ALIASES
    phrases = ADD_ON

    def __init__(
        self,
        view: View,
        *,
        parse_action: Callable[[str], Action] = INFO.parse_action,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        super().__init__(view, parse_action=parse_action, say=say, style=style, labels=labels, order=order)
        self.marks: dict[int, list[str]] = {}
        """The cards the seat's last action put on melds, marked (by meld index)."""
        self.new: list[str] = []
        """The cards the seat's last action brought into its hand."""

    def board(self) -> None:
        """None: each mummus action is applied at once, with no free-table draft."""
        return None

    @property
    def label(self) -> str:  # type: ignore[override]
        """``turn`` for the player to move, ``call`` for a seat acting out of turn."""
        return "turn" if self.view["turn"] == self.seat else "call"

    def legal(self) -> list[Action]:
        """This seat's legal actions now, as the game lists them from the view."""
        return sorted(actions_from_view(self.view), key=lambda a: a.text())

    def screen(self) -> list[str]:
        """The whole game as this seat sees it (what its last action changed marked)."""
        return screen_lines(
            self.view, self.names, self.labels, self.style, self.order, marks=self.marks, new=self.new
        )

    def accepted(self) -> list[str]:
        """Nothing to add: the game's events tell what happened."""
        return []

    def update(self, view: View) -> list[str]:
        """Take a new view; the lines worth showing after an action, what it changed marked."""
        before = self.view
        self.view = view
        self.marks, self.new = changes(before, view)
        if view["phase"] != before["phase"]:
            return self.screen()
        lines = table_lines(view, self.names, self.style, self.marks)
        if "hand" in view:
            lines += self.hand_lines()
        if self.marks or self.new:
            lines.append(MARKS_LEGEND)
        claim = claim_line(view)
        if claim is not None:
            lines.append(claim)
        return self.style.fit([*lines, next_step_line(view)])

    def hand_lines(self) -> list[str]:
        """This seat's hand in the chosen order, laid out to the width."""
        return hand_lines(self.view.get("hand", []), self.order, self.style, self.new)

    # -- commands -------------------------------------------------------------

    def help_text(self) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(self.style.width)

    def order_lines(self) -> list[str]:
        """The hand in the new order."""
        return self.hand_lines()

    def moves_text(self) -> list[str]:
        """See :func:`moves_lines`."""
        return moves_lines(self.legal())

    def game_handlers(self) -> dict[str, Handler]:
        """Mummus's commands (see :func:`help_lines`)."""
        return {
            "moves": self._moves,
            "options": self._moves,
            "draw": lambda args: self._action("draw", args),
            "stock": lambda args: self._action("draw", args),
            "take": self._take,
            "meld": lambda args: self._action("meld", args),
            "addon": self._addon,
            "rummy": self._rummy,
            "discard": lambda args: self._action("discard", args),
        }

    def _take(self, args: list[str]) -> Action:
        return self._typed("take", args)

    def _addon(self, args: list[str]) -> Action:
        return self._typed("addon", args)

    def _rummy(self, args: list[str]) -> Action | None:
        if not [w for w in args if not w.isdigit() and w.lower() != "to"]:
            # a bare `rummy` (perhaps with its meld): when several claims are open, list them to choose from
            meld = args[-1] if args else None
            calls = open_claims(self.view, meld)
            if len(calls) > 1:
                self.say("Several claims are open; name the cards:", *(f"  {command_text(a)}" for a in calls))
                return None
        return self._typed("rummy", args)

    def _typed(self, verb: str, args: Sequence[str]) -> Action:
        """The game's reading of ``verb args`` as typed against this seat's view (screen numbers from 1)."""
        return read_typed(self.seat, " ".join([verb, *args]), self.view)

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The words that may come next (see :meth:`~rummykit.presenters.base.Turn.completions`).

        With no words, the commands; after ``meld``, the cards of the hand
        not typed yet (in the hand's order); after ``discard``, the hand;
        after ``take``, the discard pile's cards (bottom first); after
        ``addon`` (or ``add on``) the hand's cards and, once a card is typed,
        ``to``; after ``rummy`` the claimable discards and ``to``; after
        ``to``, the first card of each meld (which names it); after ``sort``,
        the orders. Nothing here judges a move.
        """
        if not words:
            return list(COMMANDS)
        verb, args = self.verb_and_args(words)
        lowered = [a.lower() for a in args]
        if verb == "meld":
            return self._left(self._hand(), args)
        if verb == "discard":
            return [] if args else self._hand()
        if verb == "take":
            return [] if args else list(dict.fromkeys(self.view["discard"]))
        if verb in ("addon", "rummy"):
            if "to" in lowered:
                return [str(m["cards"][0]) for m in self.view["melds"]] if lowered[-1] == "to" else []
            pool = self._hand() if verb == "addon" else list(self.view.get("claimable", []))
            typed = [a for a in args if not a.isdigit()]
            return [*self._left(pool, typed), *(["to"] if typed and not args[0].isdigit() else [])]
        if verb == "sort":
            return [] if args else list(ORDERS)
        return []

    def _hand(self) -> list[str]:
        """The hand's cards in the chosen order."""
        return [str(c) for c in sorted((Card.parse(x) for x in self.view.get("hand", [])), key=ORDERS[self.order])]

    @staticmethod
    def _left(cards: Sequence[str], typed: Sequence[str]) -> list[str]:
        """``cards`` without those named in ``typed`` (words that are no card are skipped)."""
        named: set[str] = set()
        for word in typed:
            try:
                named.add(str(Card.parse(word)))
            except ParseError:
                continue
        return [c for c in cards if c not in named]
