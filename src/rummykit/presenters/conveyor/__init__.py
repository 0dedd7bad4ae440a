"""The ``conveyor`` presenter: the layout, hands and melds drawn from views; typed commands.

Everything here renders a seat's view (or an event as a seat sees it) and
turns typed commands into the game's own actions; no rule lives here. A
command becomes an action through the game's parser, the interface applies
it, and an illegal one is refused by the engine with its own message. Where
a command leaves something out (the end of a lay-off), the game's listing
of legal actions from the view fills it in.

Columns, cells and melds are numbered from 1 for people, on the screen and
in what they type, like the sets of the free-table games; views, events,
actions and the game record number them from 0. The command layer is the
one place that converts (its ``Position`` parts, and :func:`screen_number`
for the screen, both from :data:`~rummykit.engine.commands.SHOWN_FROM`), so
``draw 3 top`` typed at the prompt is ``0 draw 2 top`` in the record. Face-down dominoes are ``??`` and face-up ones are bracketed:

>>> style = Style()
>>> column_line({'column': 1, 'claimed_by': None, 'cells': ['??', '1-1', '??', '3-5']}, ['ann', 'bob'], style)
'  column 2  top ?? | [1-1] ?? | [3-5] bottom'
>>> describe_event({'kind': 'draw', 'player': 1, 'column': 1, 'end': 'top', 'face_up': False}, ['ann', 'bob'], style)
['bob draws a face-down domino from the top of column 2']
>>> describe_event({'kind': 'draw', 'player': 1, 'column': 1, 'end': 'bottom', 'face_up': True, 'domino': '3-5'},
...     ['ann', 'bob'], style)
['bob draws 3-5 (face up) from the bottom of column 2']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.engine.core import Action, GameInfo
from rummykit.presenters.advice import advice_lines
from rummykit.presenters.base import EventNarrator, Narrator, Presenter, Solver, View, Vocabulary
from rummykit.presenters.conveyor.narrate import (
    MELD_KINDS,
    REASONS,
    describe_event,
    match_end_lines,
    round_end_lines,
)
from rummykit.presenters.conveyor.turn import HEAD, ConveyorDisplay, moves_lines
from rummykit.presenters.conveyor.view import (
    DEFAULT_ORDER,
    FACE_DOWN,
    GAME,
    ORDER_ALIASES,
    ORDER_WORDS,
    ORDERS,
    PHASE_NAMES,
    _order,
    cell_text,
    column_line,
    column_lines,
    columns_lines,
    hand_line,
    hand_lines,
    header_line,
    meld_kind,
    meld_lines,
    next_step_line,
    player_lines,
    screen_lines,
    screen_number,
    selection_grid,
)
from rummykit.presenters.text import Style
from rummykit.presenters.turn import Commanded, Display, typed_text
from rummykit.rulesets.conveyor import INFO, SELECT
from rummykit.rulesets.conveyor.views import conveyor_view

__all__ = [
    "DEFAULT_ORDER",
    "FACE_DOWN",
    "GAME",
    "HEAD",
    "MELD_KINDS",
    "NOTATION",
    "ORDERS",
    "ORDER_ALIASES",
    "ORDER_WORDS",
    "PHASE_NAMES",
    "PRESENTER",
    "REASONS",
    "RULES",
    "WORDS",
    "ConveyorDisplay",
    "ConveyorPresenter",
    "cell_text",
    "column_line",
    "column_lines",
    "columns_lines",
    "command_text",
    "describe_event",
    "hand_line",
    "hand_lines",
    "header_line",
    "match_end_lines",
    "meld_kind",
    "meld_lines",
    "moves_lines",
    "next_step_line",
    "player_lines",
    "round_end_lines",
    "screen_lines",
    "screen_number",
    "selection_grid",
]


# -- the presenter ---------------------------------------------------------------------

RULES = (
    "The dominoes (double-9 for 2 players, double-12 for 3-4; option set) lie face down in columns. In"
    " the selection round each player in turn reveals one face-down domino or claims a whole column as"
    " their hand.",
    "Once everyone has claimed, the other columns are conveyors. A turn: draw the domino at one end of a"
    " conveyor, meld and lay off as you like, then discard a domino face up to the other end of the same"
    " conveyor.",
    "A meld is 3 or more dominoes: a run (one shared half, the other halves consecutive: 3-5 4-5 5-5),"
    " a run of pairs (2-2 3-3 4-4) or a sum (equal pip totals: 0-8 2-6 3-5). Melds only grow at their"
    " ends, by anyone's lay-offs, and always belong to whoever laid them down.",
    "Whoever empties their hand closes the round and alone scores: each of their own melds (more for"
    " longer ones, 10 more for a royal one) and 1 for each domino left in the other hands. A match is"
    " played to 120 points for 2 players, 240 for 3-4 (option target).",
)
"""The rules in brief, for ``rummykit rules``."""

NOTATION = (
    "A domino is its two halves, low first: 3-5 (5:3 and 5/3 are read as the same domino); a double-9"
    " set has every domino from 0-0 to 9-9.",
    "On the screen ?? is a face-down domino and [3-5] a face-up one. Columns, cells and melds are"
    " numbered from 1, as you type them; the game record counts them from 0.",
)
"""How dominoes and the layout are written, for ``rummykit rules``."""

WORDS = Vocabulary(
    piece="domino", pieces="dominoes", rack="hand", pool="conveyors", opening="first meld", reasons=REASONS
)


@dataclass(frozen=True)
class ConveyorPresenter(Commanded):
    """The conveyor presenter (one object, :data:`PRESENTER`)."""

    info: GameInfo = INFO
    words: Vocabulary = WORDS
    orders: Sequence[str] = tuple(ORDERS)
    playable: bool = True
    hint: bool = True
    solver: Solver | None = None
    advised: bool = True
    """The hint is the strong bot's advice (:func:`~rummykit.presenters.advice.advice_lines`)."""
    table_kind: str = "conveyor"
    """The terminal app draws the conveyors, the melds and the hand as their own areas."""

    @property
    def game(self) -> str:
        """``conveyor``."""
        return GAME

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`."""
        return describe_event(event, names, style)

    def narrator(self, names: Sequence[str], style: Style) -> Narrator:
        """Each event told on its own (:func:`describe_event`): every event says all a conveyor play changed."""
        return EventNarrator(lambda event: describe_event(event, names, style))

    def rules_lines(self) -> list[str]:
        """See :data:`RULES`."""
        return list(RULES)

    def notation_lines(self) -> list[str]:
        """See :data:`NOTATION`."""
        return list(NOTATION)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """The round, turn and phase, then one line per seat."""
        seen, names = conveyor_view(view), list(view["players"])
        return style.fit([header_line(seen, names), *player_lines(seen, names, labels)])

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The columns (conveyors) and the melds."""
        seen, names = conveyor_view(view), list(view["players"])
        lines = columns_lines(seen, names, style)
        if view["phase"] != SELECT or view["melds"]:
            lines += meld_lines(seen, names, style)
        return style.fit(lines)

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's hand (nothing before it has claimed a column, or for a spectator)."""
        if not view.get("hand"):
            return []
        seat = int(view["seat"])
        return hand_lines(view["hand"], _order(order), style, view["hand_known"][seat])

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """See :func:`screen_lines`."""
        return screen_lines(conveyor_view(view), list(view["players"]), labels, style, _order(order))

    def display(self) -> Display:
        """What a turn of this game shows (see :class:`~rummykit.presenters.turn.Commanded`)."""
        return ConveyorDisplay()

    def hint_lines(self, view: View) -> list[str]:
        """The strong bot's advice for the seat: its move, why, and the steps (nothing is played)."""
        return advice_lines(GAME, view)

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return style.fit(round_end_lines(event, names, style))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`match_end_lines`."""
        return style.fit(match_end_lines(outcome, names, style))


def command_text(action: Action) -> str:
    """The command a person types for an action: the command table's typed form, numbers counted from 1.

    >>> command_text(INFO.parse_action('0 draw 2 top')), command_text(INFO.parse_action('1 layoff 0 4-6 high'))
    ('draw 3 top', 'layoff 1 4-6 high')
    >>> command_text(INFO.parse_action('0 reveal 4 0')), command_text(INFO.parse_action('2 discard 3-5'))
    ('reveal 5 1', 'discard 3-5')
    """
    return typed_text(INFO, action)


PRESENTER: Presenter = ConveyorPresenter()
