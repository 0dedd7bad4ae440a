"""Conveyor's typed commands: the help, the command text of an action, and :class:`ConveyorTurn`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummykit.engine.core import Action
from rummykit.errors import ParseError

# Constants only (the names of meld kinds and meld ends): every judgement is the game's.
from rummykit.melds.conveyor import END_NAMES, HIGH
from rummykit.pieces.dominoes import Domino
from rummykit.presenters.base import Say, View
from rummykit.presenters.conveyor.view import (
    END_ALIASES,
    ORDER_ALIASES,
    ORDERS,
    columns_lines,
    hand_lines,
    meld_lines,
    next_step_line,
    screen_lines,
    screen_number,
    typed_number,
)
from rummykit.presenters.text import (
    HelpRow,
    Style,
    help_table,
)
from rummykit.presenters.turn import CommandTurn, Handler
from rummykit.rulesets.conveyor import (
    INFO,
    JUMP,
    PLAY,
    SELECT,
    Claim,
    Draw,
    Layoff,
    Reveal,
    actions_from_view,
)

# -- the commands ------------------------------------------------------------------

HELP_ROWS = [
    ("reveal COLUMN CELL", "selection round: turn up a face-down domino (cells count from 1 at the top)"),
    ("claim COLUMN", "selection round: take that column as your hand"),
    ("draw COLUMN top|bottom", "take the domino at that end of a conveyor (`t`/`b` for short)"),
    ("meld D D D ...", "lay down a meld of 3 or more dominoes from your hand"),
    ("layoff MELD D low|high", "add D at that end of meld MELD (also `lay off`; the end may be left out when"
     " only one fits)"),
    ("discard D", "end your turn: D goes face up to the other end of the conveyor you drew from"),
]
CLOSE_ROWS = [("close [D]", "domino_runs: discard D (if given); the rest of your hand, as one line, closes")]
JUMP_ROWS = [
    ("jump [D] [with D D ...]", "jump-in window: claim the discard (\"Mine!\"; also `mine`; `with` names the meld"
     " it completes, when that is required)"),
    ("decline", "jump-in window: let the discard go (also `pass`)"),
]
TOOL_ROWS = [
    ("moves", "list every move you may make now (also `options`)"),
    ("sort low|pips", "order your hand by low half, or by pip total"),
    ("show", "show the whole table again"),
    ("help", "this list"),
    ("quit", "save the game record and stop"),
]


def help_rows(options: Mapping[str, Any]) -> list[HelpRow]:
    """The commands of a game with these options (the variant commands only when the variant is on)."""
    rows = list(HELP_ROWS)
    if options.get("domino_runs"):
        rows += CLOSE_ROWS
    if options.get("jump_ins"):
        rows += JUMP_ROWS
    return rows + TOOL_ROWS


def help_lines(options: Mapping[str, Any], width: int = 0) -> list[str]:
    """The command list (the variant commands only when the variant is on), laid out to ``width``.

    >>> help_lines({'domino_runs': False, 'jump_ins': False})[0].startswith('Commands (columns, cells')
    True
    """
    head = (
        "Commands (columns, cells and melds are numbered from 1, as on the screen;"
        " dominoes are written like 3-5):"
    )
    return help_table(head, help_rows(options), width)


def command_text(action: Action) -> str:
    """The command a person types for an action: its text without the seat, numbers counted from 1.

    >>> command_text(INFO.parse_action('0 draw 2 top')), command_text(INFO.parse_action('1 layoff 0 4-6 high'))
    ('draw 3 top', 'layoff 1 4-6 high')
    >>> command_text(INFO.parse_action('0 reveal 4 0')), command_text(INFO.parse_action('2 discard 3-5'))
    ('reveal 5 1', 'discard 3-5')
    """
    if isinstance(action, Reveal):
        return f"reveal {screen_number(action.column)} {screen_number(action.index)}"
    if isinstance(action, Claim):
        return f"claim {screen_number(action.column)}"
    if isinstance(action, Draw):
        return f"draw {screen_number(action.column)} {action.end}"
    if isinstance(action, Layoff):
        return f"layoff {screen_number(action.meld)} {action.domino} {action.end}"
    return action.text()


def moves_lines(actions: Sequence[Action]) -> list[str]:
    """The listed legal actions of a seat, grouped, written as the commands that play them."""
    if not actions:
        return ["You have no move now: it is another player's turn."]
    texts = [command_text(a) for a in actions]
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


LAY_OFF = {("lay", "off"): "layoff"}
"""``lay off`` is ``layoff``."""


class ConveyorTurn(CommandTurn):
    """One person at the keyboard: typed commands turned into conveyor actions.

    :meth:`command` runs one line and returns the :class:`Action` to apply (or
    ``None`` when the command only showed something); it raises
    :class:`~rummykit.errors.RummykitError` for bad input, or :class:`Quit`.
    Nothing here changes the game.
    """

    orders = tuple(ORDERS)
    order_aliases = ORDER_ALIASES
    phrases = LAY_OFF

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

    def board(self) -> None:
        """None: a conveyor turn applies each step at once, with no free-table draft."""
        return None

    @property
    def label(self) -> str:  # type: ignore[override]
        """``answer`` in a jump-in window, else ``turn``."""
        return "answer" if self.view["phase"] == JUMP else "turn"

    def legal(self) -> list[Action]:
        """This seat's legal actions now, as the game lists them from the view."""
        return actions_from_view(self.view)

    def screen(self) -> list[str]:
        """The whole game as this seat sees it."""
        return screen_lines(self.view, self.names, self.labels, self.style, self.order)

    def accepted(self) -> list[str]:
        """Nothing to add: the game's events tell what happened."""
        return []

    def update(self, view: View) -> list[str]:
        """Take a new view; the lines worth showing after an action (all of it if the phase changed)."""
        before = self.view["phase"]
        self.view = view
        if view["phase"] != before or view["phase"] not in (PLAY, SELECT):
            return self.screen()
        if view["phase"] == SELECT:
            return self.style.fit([*columns_lines(view, self.names, self.style), next_step_line(view)])
        lines = [*meld_lines(view, self.names, self.style), *self.hand_lines(), next_step_line(view)]
        return self.style.fit(lines)

    def hand_lines(self) -> list[str]:
        """This seat's hand in the chosen order."""
        return hand_lines(self.view.get("hand", []), self.order, self.style, self.view["hand_known"][self.seat])

    # -- commands -------------------------------------------------------------

    def help_text(self) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(self.view["options"], self.style.width)

    def order_lines(self) -> list[str]:
        """The hand in the new order."""
        return self.hand_lines()

    def moves_text(self) -> list[str]:
        """See :func:`moves_lines`."""
        return moves_lines(self.legal())

    def game_handlers(self) -> dict[str, Handler]:
        """Conveyor's commands (see :func:`help_lines`)."""
        return {
            "moves": self._moves,
            "options": self._moves,
            "reveal": self._reveal,
            "claim": self._claim,
            "draw": self._draw,
            "meld": lambda args: self._action("meld", args),
            "layoff": self._layoff,
            "discard": lambda args: self._action("discard", args),
            "close": lambda args: self._action("close", args),
            "jump": self._jump,
            "mine": self._jump,
            "decline": lambda args: self._action("decline", args),
            "pass": lambda args: self._action("decline", args),
        }

    # Columns, cells and melds are typed as the screen numbers them (from 1); the actions count
    # from 0. Whether the column, cell or meld is there (or claimed, or face up, or a conveyor) is
    # the engine's to judge: its refusal carries the numbers, worded from 1 for the person.

    def _reveal(self, args: list[str]) -> Action:
        if len(args) != 2:
            raise ParseError("write `reveal COLUMN CELL` with the numbers on the screen, e.g. `reveal 2 5`")
        column, cell = typed_number(args[0], "column"), typed_number(args[1], "cell")
        return self._action("reveal", [str(column), str(cell)])

    def _claim(self, args: list[str]) -> Action:
        if len(args) != 1:
            raise ParseError("write `claim COLUMN` with the number on the screen, e.g. `claim 2`")
        return self._action("claim", [str(typed_number(args[0], "column"))])

    def _draw(self, args: list[str]) -> Action:
        if len(args) != 2:
            raise ParseError("write `draw COLUMN top` or `draw COLUMN bottom`, e.g. `draw 2 top`")
        column = typed_number(args[0], "column")
        return self._action("draw", [str(column), END_ALIASES.get(args[1].lower(), args[1])])

    def _layoff(self, args: list[str]) -> Action:
        if len(args) not in (2, 3):
            raise ParseError("write `layoff MELD DOMINO low|high` with the meld's number on the screen")
        if self.view["phase"] != PLAY:
            return self._action("layoff", ["0", args[1], HIGH])  # the engine says why not now
        index = typed_number(args[0], "meld")
        if len(args) == 3:
            end = END_ALIASES.get(args[2].lower(), args[2])
        else:
            end = self._layoff_end(index, args[1])
        return self._action("layoff", [str(index), args[1], end])

    def _layoff_end(self, index: int, domino_text: str) -> str:
        """The end of a lay-off written without one: the only end where the game's listing lays the domino.

        When the listing lays it at both ends, the person is asked to name
        one; when at neither, ``high`` is returned and the engine says what is
        wrong (it fits neither end, or only the other one, or the lay-off is
        refused for another reason), its refusal worded from 1.
        """
        try:
            domino = Domino.parse(domino_text)
        except ParseError:
            return HIGH
        ends = sorted({a.end for a in self.legal() if isinstance(a, Layoff) and a.meld == index and a.domino == domino})
        if len(ends) > 1:
            meld_text = str(screen_number(index))
            raise ParseError(
                f"{domino} fits both ends of meld {meld_text}: write `layoff {meld_text} {domino} low` or `... high`"
            )
        return ends[0] if ends else HIGH

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The commands (the variants' only when they are on); after one, the dominoes of the hand it
        takes (those typed already left out), the ends (``top``/``bottom``, ``low``/``high``), the
        discard on offer and ``with`` for a jump, or the sort orders."""
        options = self.view["options"]
        if not words:
            off = set()
            if not options.get("domino_runs"):
                off |= {"close"}
            if not options.get("jump_ins"):
                off |= {"jump", "mine", "decline", "pass"}
            return sorted(verb for verb in self._handlers() if verb.isalpha() and verb not in off)
        verb, args = self.verb_and_args(words)
        if verb in ("meld", "discard", "close"):
            return self._hand_left(args)
        if verb == "draw" and len(args) == 1:
            return ["top", "bottom"]
        if verb == "layoff" and len(args) == 1:
            return self._hand_left([])
        if verb == "layoff" and len(args) == 2:
            return list(END_NAMES)
        if verb in ("jump", "mine"):
            lowered = [a.lower() for a in args]
            if "with" in lowered:
                return self._hand_left(args[lowered.index("with") + 1 :])
            window = self.view.get("jump_window")
            offered = [str(window["domino"])] if window is not None and not args else []
            return [*offered, "with"] if len(args) <= 1 else []
        if verb == "sort" and not args:
            return list(ORDERS)
        return []

    def _hand_left(self, typed: Sequence[str]) -> list[str]:
        """The hand's dominoes (in the chosen order) not named in ``typed`` yet."""
        hand = [Domino.parse(x) for x in self.view.get("hand", [])]
        left = Counter(str(d) for d in hand)
        for word in typed:
            try:
                left[str(Domino.parse(word))] -= 1
            except ParseError:
                continue
        shown = [str(d) for group in ORDERS[self.order](hand) for d in group]
        return [d for d in dict.fromkeys(shown) if left[d] > 0]

    def _jump(self, args: list[str]) -> Action:
        args = list(args)
        if not args or args[0].lower() == "with":
            window = self.view.get("jump_window")
            if window is None:
                raise ParseError("no discard is on offer: `jump` answers a jump-in window after another player's discard")
            args.insert(0, str(window["domino"]))
        return self._action("jump", args)
