"""The ``mummus`` presenter: the piles, melds and hands drawn from views; typed commands.

Everything here renders a seat's view (or an event as a seat sees it) and
turns typed commands into the game's own actions; no rule lives here. A
command becomes an action through the game's parser, the interface applies
it, and an illegal one is refused by the engine with its own message. Where
a command leaves something out (which meld an add-on goes to, which claim a
bare `rummy` means), the game's listing of legal actions from the view fills
it in.

On the screen, the discard pile is spread and its cards numbered from 1 at
the bottom (so `take 3` takes the third card from the bottom and every card
above it), and melds are numbered from 1 in the order laid down, as people
count. The game record names neither by number: a deep draw names its card
(`take 8H`) and an add-on names its meld by one of its cards (`addon 9H to
6H`). :func:`command_text` and the screen's hints write that form; the
numbers are accepted wherever a person types (here, in the terminal app and
in the browser's command box), all read by the game's
:func:`~rummykit.rulesets.mummus.typed.read_typed`. Cards are written with their suit letter (`10H`,
`QS`); with colour on, hearts and diamonds are also printed red, never
instead of the letter. Cards an add-on or a claim just put on a meld are
marked ``+`` (:data:`~rummykit.presenters.text.NEW`), in the events and, after
a person's own action, on their screen (with the cards that just came into
their hand). Every line is laid out to the style's width, never breaking a
card.

>>> style = Style()
>>> pile_lines(['9S', '4D', '8H'], ['8H'], style)
['Discard pile, bottom first (`take CARD` or `take N` takes it and all above it):', '   1 9S     2 4D     3 8H*   (* a rummy call can claim it)']
>>> describe_event({'kind': 'take', 'player': 1, 'card': '4D', 'cards': ['4D', '8H'], 'deep': True,
...     'hand_size': 9}, ['ann', 'bob'], Style(width=0))
['bob takes 4D from deep in the discard pile, with 8H above it, and must meld or add on 4D this turn (9 cards in hand)']
>>> describe_event({'kind': 'addon', 'player': 0, 'meld': 1, 'cards': ['8H'], 'meld_cards': ['5H', '6H', '7H', '8H'],
...     'meld_kind': 'run', 'points': 8, 'hand_size': 3, 'in_turn': False}, ['ann', 'bob'], style)
['ann adds 8H to meld 2 out of turn: 5H 6H 7H +8H (8 points; 3 cards left)']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.engine.core import Action, GameInfo
from rummykit.presenters.advice import advice_lines
from rummykit.presenters.base import Narrator, Presenter, Solver, View, Vocabulary
from rummykit.presenters.mummus.narrate import (
    EVENT_LEGEND,
    REASONS,
    MummusNarrator,
    describe_event,
    marks_meld,
    match_end_lines,
    round_end_lines,
)
from rummykit.presenters.mummus.turn import HEAD, MummusDisplay, moves_lines
from rummykit.presenters.mummus.view import (
    DEFAULT_ORDER,
    GAME,
    MARKS_LEGEND,
    ORDER_ALIASES,
    ORDER_WORDS,
    ORDERS,
    PHASE_NAMES,
    PILE_CELL,
    PILE_HEADING,
    PILE_ROW,
    RED,
    Marks,
    _order,
    card_text,
    cards_text,
    changes,
    claim_line,
    hand_line,
    hand_lines,
    header_line,
    laid_by_text,
    meld_lines,
    meld_name,
    next_step_line,
    pile_lines,
    player_lines,
    screen_lines,
    table_lines,
)
from rummykit.presenters.text import Style
from rummykit.presenters.turn import Commanded, Display, typed_text
from rummykit.rulesets.mummus import INFO
from rummykit.rulesets.mummus.views import mummus_view

__all__ = [
    "DEFAULT_ORDER",
    "EVENT_LEGEND",
    "GAME",
    "HEAD",
    "MARKS_LEGEND",
    "NOTATION",
    "ORDERS",
    "ORDER_ALIASES",
    "ORDER_WORDS",
    "PHASE_NAMES",
    "PILE_CELL",
    "PILE_HEADING",
    "PILE_ROW",
    "PRESENTER",
    "REASONS",
    "RED",
    "RULES",
    "WORDS",
    "Marks",
    "MummusDisplay",
    "MummusNarrator",
    "MummusPresenter",
    "card_text",
    "cards_text",
    "changes",
    "claim_line",
    "command_text",
    "describe_event",
    "hand_line",
    "hand_lines",
    "header_line",
    "laid_by_text",
    "marks_meld",
    "match_end_lines",
    "meld_lines",
    "meld_name",
    "moves_lines",
    "next_step_line",
    "pile_lines",
    "player_lines",
    "round_end_lines",
    "screen_lines",
    "table_lines",
]


# -- the presenter ---------------------------------------------------------------------

RULES = (
    "One 52-card deck, no jokers. Each player (2 to 6) is dealt 7 cards; the rest is the stock. The discard"
    " pile lies spread, so that every card in it shows.",
    "A turn: draw the top card of the stock, or take a card of the discard pile with every card above it (a"
    " card from below the top must be melded or added on that same turn); then meld and add on as you like;"
    " then discard. A round ends only when a player discards their last card.",
    "A meld is 3 or more cards: a set of one rank, or a run of one suit in sequence, which may wrap (Q K A 2"
    " 3). Anyone may add cards to any meld at any time, also out of turn, and anyone may call rummy to claim"
    " discard-pile cards that extend a meld on the table or form one.",
    "Every card scores for whoever put it on the table (Ace 15; K, Q and J 10; the others their face value;"
    " option card_points), and the cards left in a hand count against it. A match is played to 500 points"
    " (option target; 0 plays one round).",
)
"""The rules in brief, for ``rummykit rules``."""

NOTATION = (
    "A card is its rank, then its suit letter: ranks A, 2 to 10, J, Q, K (T also means 10); suits C clubs,"
    " D diamonds, H hearts, S spades. So AS, 10H, QD; case does not matter. With colour on, hearts and"
    " diamonds are also printed red, never instead of the letter.",
    "On the screen the discard pile is numbered from 1 at the bottom (take 3 takes the third card and every"
    " card above it) and the melds from 1 in the order laid down; * marks a discard a rummy call can claim,"
    " + a card just added. The game record numbers neither: it names cards (take 8H) and a meld by any card"
    " it holds (addon 9H to 6H).",
)
"""How cards and the screen's numbers are written, for ``rummykit rules``."""

WORDS = Vocabulary(piece="card", rack="hand", pool="stock", opening="first meld", reasons=REASONS)


@dataclass(frozen=True)
class MummusPresenter(Commanded):
    """The mummus presenter (one object, :data:`PRESENTER`)."""

    info: GameInfo = INFO
    words: Vocabulary = WORDS
    orders: Sequence[str] = tuple(ORDERS)
    playable: bool = True
    hint: bool = True
    solver: Solver | None = None
    table_kind: str = "melds-pile"
    """The terminal app draws the melds, the spread discard pile and the hand as their own areas."""
    advised: bool = True
    """The hint is the ``strong`` bot's advice (:mod:`rummykit.presenters.advice`)."""

    @property
    def game(self) -> str:
        """``mummus``."""
        return GAME

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`."""
        return describe_event(event, names, style)

    def narrator(self, names: Sequence[str], style: Style) -> Narrator:
        """A :class:`MummusNarrator`: each event told as it happens, the marks explained once."""
        return MummusNarrator(names, style)

    def rules_lines(self) -> list[str]:
        """See :data:`RULES`."""
        return list(RULES)

    def notation_lines(self) -> list[str]:
        """See :data:`NOTATION`."""
        return list(NOTATION)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """The round, turn and phase, then one line per seat."""
        seen, names = mummus_view(view), list(view["players"])
        return style.fit([header_line(seen, names), *player_lines(seen, names, labels)])

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The stock, the discard pile and the melds."""
        return table_lines(mummus_view(view), list(view["players"]), style)

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's hand (nothing for a spectator)."""
        if "hand" not in view:
            return []
        return hand_lines(view["hand"], _order(order), style)

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """See :func:`screen_lines`."""
        return screen_lines(mummus_view(view), list(view["players"]), labels, style, _order(order))

    def display(self) -> Display:
        """What a turn of this game shows (see :class:`~rummykit.presenters.turn.Commanded`)."""
        return MummusDisplay()

    def hint_lines(self, view: View) -> list[str]:
        """The ``strong`` bot's advice for the seat: the move, why, and its steps (:func:`advice_lines`)."""
        return advice_lines(GAME, view)

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return round_end_lines(event, names, style)

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`match_end_lines`."""
        return match_end_lines(outcome, names, style)


def command_text(action: Action) -> str:
    """The command a person types for an action: its text without the seat (mummus numbers nothing in it).

    >>> command_text(INFO.parse_action('2 addon jh 10h to 9h')), command_text(INFO.parse_action('0 take 8H'))
    ('addon JH 10H to 9H', 'take 8H')
    """
    return typed_text(INFO, action)


PRESENTER: Presenter = MummusPresenter()
