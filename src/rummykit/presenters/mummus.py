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

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.core import Action
from rummykit.errors import ParseError

# Constants only (the names of meld kinds): every judgement is the game's.
from rummykit.melds.cards import RUN, SET
from rummykit.pieces.cards import Card, by_rank, rank_plural
from rummykit.presenters.base import Narrator, Presenter, Quit, Say, Solver, View, Vocabulary
from rummykit.presenters.text import (
    NEW,
    RESET,
    UNDERLINE,
    HelpRow,
    Style,
    fit,
    game_over_lines,
    help_table,
    no_args,
    score_lines,
    seat_name,
    signed,
    unknown_command,
    visible_len,
)
from rummykit.rulesets.mummus import (
    DRAW,
    GAME_ID,
    INFO,
    OVER,
    PLAY,
    actions_from_view,
    read_typed,
)
from rummykit.rulesets.mummus.typed import FIRST, open_claims
from rummykit.words import counted

__all__ = [
    "GAME",
    "PRESENTER",
    "WORDS",
    "MummusNarrator",
    "MummusPresenter",
    "MummusTurn",
    "card_text",
    "command_text",
    "describe_event",
    "help_lines",
    "meld_lines",
    "moves_lines",
    "pile_lines",
    "screen_lines",
]

GAME = GAME_ID

RED = "\x1b[1;31m"

ORDERS: dict[str, Callable[[Card], Any]] = {"suit": lambda c: c.code, "rank": by_rank}
ORDER_ALIASES = {"suits": "suit", "ranks": "rank", "number": "rank", "value": "rank"}
DEFAULT_ORDER = "suit"
ORDER_WORDS = {"suit": "by suit", "rank": "by rank"}

PHASE_NAMES = {DRAW: "draw", PLAY: "meld/discard", OVER: "over"}

PILE_ROW = 12
"""At most this many discard-pile cards on one line (fewer when the width is narrower)."""
PILE_HEADING = "Discard pile, bottom first (`take CARD` or `take N` takes it and all above it):"
"""The heading of the spread pile: how to take from it, in the form `moves` lists (the card) and by number."""
PILE_CELL = len("  10 10H*")
"""The width of a cell of the spread pile: its number, the card, a claim mark (cells are padded to it)."""

Marks = Mapping[int, Sequence[str]]
"""A change mark per card (``+`` or ``""``) of the melds an action changed, by the meld's index."""


def _order(order: str | None) -> str:
    return order if order is not None and order in ORDERS else DEFAULT_ORDER


def _name(names: Sequence[str], seat: Any) -> str:
    return seat_name(names, seat, "nobody")


# -- cards, piles and melds -------------------------------------------------------------


def card_text(text: str, style: Style, mark: str = "") -> str:
    """One card as printed: its notation, red for hearts and diamonds when colour is on; its change mark first.

    >>> card_text('10H', Style()), card_text('10H', Style(color=True)) == '\\x1b[1;31m10H\\x1b[0m'
    ('10H', True)
    >>> card_text('QS', Style(), '+')
    '+QS'
    """
    shown = f"{RED}{text}{RESET}" if style.color and text[-1:] in ("H", "D") else text
    if not mark:
        return shown
    return f"{UNDERLINE}{mark}{RESET}{shown}" if style.color else f"{mark}{shown}"


def cards_text(texts: Sequence[str], style: Style, marks: Sequence[str] | None = None) -> str:
    """Cards separated by spaces, each with its change mark when ``marks`` gives one (``-`` for none).

    >>> cards_text(['5H', '6H', '7H'], Style(), ['', '', '+'])
    '5H 6H +7H'
    """
    if not marks:
        return " ".join(card_text(t, style) for t in texts) or "-"
    return " ".join(card_text(t, style, m) for t, m in zip(texts, marks, strict=False)) or "-"


def pile_lines(discard: Sequence[str], claimable: Sequence[str], style: Style) -> list[str]:
    """The discard pile spread and numbered from the bottom; a claimable card marked ``*``.

    As many cards go on a line as the style's width holds (at most
    :data:`PILE_ROW`); the heading is laid out to the width too.

    >>> for line in pile_lines(['9S', '4D', '8H', 'JC', '2C'], ['8H'], Style(width=40)):
    ...     print(line)
    Discard pile, bottom first (`take CARD`
        or `take N` takes it and all above
        it):
       1 9S     2 4D     3 8H*    4 JC
       5 2C   (* a rummy call can claim it)
    """
    if not discard:
        return ["Discard pile: empty."]
    marks = set(claimable)
    cells = [
        f"{i + FIRST:>4} {card_text(c, style)}{'*' if c in marks else ''}" + " " * (4 - len(c) - (c in marks))
        for i, c in enumerate(discard)
    ]
    note = "   (* a rummy call can claim it)" if marks else ""
    per = PILE_ROW if not style.width else max(1, min(PILE_ROW, style.width // PILE_CELL))
    lines = fit(PILE_HEADING, style.width)
    rows = ["".join(cells[i : i + per]).rstrip() for i in range(0, len(cells), per)]
    if note and style.width and visible_len(rows[-1] + note) > style.width:
        rows.append("    " + note.strip())
    else:
        rows[-1] += note
    return lines + rows


def meld_name(meld: Mapping[str, Any]) -> str:
    """A meld's kind in words: ``run of hearts``, ``set of 7s``.

    >>> meld_name({'kind': 'run', 'cards': ['QH', 'KH', 'AH']}), meld_name({'kind': 'set', 'cards': ['7C', '7D', '7S']})
    ('run of hearts', 'set of 7s')
    """
    cards = [Card.parse(c) for c in meld["cards"]]
    if meld["kind"] == RUN and cards:
        return f"run of {cards[0].suit.word}"
    if meld["kind"] == SET and cards:
        return f"set of {rank_plural(cards[0].rank)}"
    return str(meld["kind"])


def laid_by_text(meld: Mapping[str, Any], names: Sequence[str]) -> str:
    """Who laid which cards of a meld: ``ann 5H 6H 7H, bob 8H``."""
    groups: dict[int, list[str]] = {}
    for card, seat in zip(meld["cards"], meld["laid_by"], strict=True):
        groups.setdefault(int(seat), []).append(str(card))
    return ", ".join(f"{_name(names, s)} {' '.join(cards)}" for s, cards in groups.items())


def meld_lines(view: Mapping[str, Any], names: Sequence[str], style: Style, marks: Marks | None = None) -> list[str]:
    """Every meld on the table: its number, kind, cards (``marks``: the change marks) and who laid each card.

    The columns line up when every line fits the style's width; a line too
    long goes on under the meld's first card.

    >>> view = {'melds': [{'index': 0, 'kind': 'run', 'cards': ['5H', '6H', '7H', '8H'], 'laid_by': [0, 0, 0, 1]}]}
    >>> meld_lines(view, ['ann', 'bob'], Style(), {0: ['', '', '', '+']})[1]
    '  1  run of hearts  5H 6H 7H +8H  laid by ann 5H 6H 7H, bob 8H'
    >>> meld_lines(view, ['ann', 'bob'], Style(width=40))[1:]
    ['  1  run of hearts  5H 6H 7H 8H  laid by', '                    ann 5H 6H 7H, bob 8H']
    """
    melds = list(view["melds"])
    if not melds:
        return ["Melds: none on the table yet."]
    lines = ["Melds (numbered from 1; every card scores for whoever laid it):"]
    kind_w = max(len(meld_name(m)) for m in melds)
    num_w = len(str(len(melds) - 1 + FIRST))
    shown = [cards_text(m["cards"], style, (marks or {}).get(int(m["index"]))) for m in melds]
    laid = [f"laid by {laid_by_text(m, names)}" for m in melds]
    shown_w = max(visible_len(x) for x in shown)
    hang = 2 + num_w + 2 + kind_w + 2
    aligned = not style.width or hang + shown_w + 2 + max(len(x) for x in laid) <= style.width
    for m, cards, who in zip(melds, shown, laid, strict=True):
        pad = " " * (shown_w - visible_len(cards)) if aligned else ""
        line = f"  {int(m['index']) + FIRST:>{num_w}}  {meld_name(m):<{kind_w}}  {cards}{pad}  {who}"
        lines += fit(line, style.width, hang if hang <= style.width // 2 else 6)
    return lines


def hand_line(hand: Sequence[str], order: str, style: Style, new: Sequence[str] = ()) -> str:
    """A hand in the chosen order, grouped by suit (or by rank); the cards in ``new`` marked ``+``.

    >>> hand_line(['2C', '5C', 'AS', '10H'], 'suit', Style())
    'Your hand (4 cards, by suit): 2C 5C  10H  AS'
    >>> hand_line(['2C', '5C', 'AS', '10H'], 'rank', Style(), new=['5C'])
    'Your hand (4 cards, by rank): AS  2C  +5C  10H'
    """
    cards = sorted((Card.parse(c) for c in hand), key=ORDERS[order])
    fresh = set(new)
    groups: list[list[str]] = []
    last: Any = None
    for c in cards:
        key = c.suit if order == "suit" else c.rank
        if not groups or key != last:
            groups.append([])
        groups[-1].append(card_text(str(c), style, NEW if str(c) in fresh else ""))
        last = key
    shown = "  ".join(" ".join(g) for g in groups) or "(empty)"
    return f"Your hand ({counted(len(hand), 'card')}, {ORDER_WORDS[order]}): {shown}"


def hand_lines(hand: Sequence[str], order: str, style: Style, new: Sequence[str] = ()) -> list[str]:
    """:func:`hand_line` laid out to the style's width: the cards go on under the first one.

    When the heading takes more than half the width, the cards start on the next line.

    >>> hand_lines(['2C', '5C', '9C', 'AS', '10H', 'JH', 'QH'], 'suit', Style(width=40))
    ['Your hand (7 cards, by suit):', '    2C 5C 9C  10H JH QH  AS']
    """
    line = hand_line(hand, order, style, new)
    head, _, rest = line.partition("): ")
    if style.width and len(head) + 3 > style.width // 2 and visible_len(line) > style.width:
        return [f"{head}):", *fit(f"    {rest}", style.width, 4)]
    return fit(line, style.width, len(head) + 3)


def header_line(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Round, turn, phase, dealer and who is to move."""
    target = view["options"].get("target")
    head = f"Round {view['round']}" + (f" of a match to {target}" if target else "")
    if view["phase"] == OVER:
        return f"{head}: the game is over."
    who = _name(names, view["turn"])
    turn = f"{head}, turn {view['turn_number']} (dealer {_name(names, view['dealer'])})"
    if view["phase"] == DRAW:
        return f"{turn}: {who} draws from the stock or takes from the discard pile."
    deep = f"; {who} must still meld or add on {view['deep']}" if view.get("deep") else ""
    return f"{turn}: {who} has drawn, may meld and add on, then discards{deep}."


def player_lines(view: Mapping[str, Any], names: Sequence[str], labels: Sequence[str]) -> list[str]:
    """One line per seat: to move or may act, hand size, points laid this round, total, cards seen in hand."""
    must = set(view["must_act"])
    may = set(view["may_act"])
    who = [f"{n} ({labels[s]})" if s < len(labels) and labels[s] else n for s, n in enumerate(names)]
    width = max(len(w) for w in who)
    lines = ["Players (> to move, + may add on or call rummy now):"]
    for seat, text in enumerate(who):
        mark = ">" if seat in must else "+" if seat in may else " "
        parts = [
            f"{mark} {text:<{width}}",
            f"hand {view['hand_sizes'][seat]:>2}",
            f"laid {view['laid_points'][seat]:>3}",
            f"total {signed(int(view['totals'][seat])):>4}",
        ]
        known = view["hand_known"][seat]
        if known and seat != view.get("seat"):
            parts.append(f"seen in hand: {' '.join(known)}")
        lines.append("  " + "  ".join(parts))
    return lines


def claim_line(view: Mapping[str, Any]) -> str | None:
    """A line saying a rummy call is open (the game lists the claimable cards), or None."""
    cards = view.get("claimable") or []
    if not cards:
        return None
    return f"Rummy! {' '.join(cards)} in the discard pile can be claimed: call `rummy` (see `moves`)."


def next_step_line(view: Mapping[str, Any]) -> str:
    """What the seat whose view this is may do now, in one line."""
    seat = view.get("seat")
    phase = view["phase"]
    if phase == OVER:
        return "The game is over."
    if seat is None or seat not in view["to_act"]:
        return "Waiting for the other players."
    if seat != view["turn"]:
        return "Out of turn you may `addon` cards to a meld or call `rummy`; `moves` lists what you can do."
    if phase == DRAW:
        return "Your move: `draw` from the stock, or `take CARD` from the discard pile (`moves` lists every move)."
    if view.get("deep"):
        return f"Meld or add on {view['deep']} (you took it from deep in the pile), then `discard CARD`."
    return "Now `meld`, `addon`, `rummy` as you like, then `discard CARD` to end your turn."


def table_lines(view: Mapping[str, Any], names: Sequence[str], style: Style, marks: Marks | None = None) -> list[str]:
    """The stock, the spread discard pile and the melds (``marks``: cards just added), laid out to the width."""
    lines = [f"Stock: {counted(int(view['stock_size']), 'card')}, face down."]
    lines += pile_lines(view["discard"], view.get("claimable", []), style)
    return style.fit(lines + meld_lines(view, names, style, marks))


MARKS_LEGEND = f"({NEW} marks what your last action put on a meld or into your hand)"
"""What the marks on a person's own screen mean (said under a marked screen)."""


def screen_lines(
    view: Mapping[str, Any],
    names: Sequence[str],
    labels: Sequence[str],
    style: Style,
    order: str = DEFAULT_ORDER,
    *,
    marks: Marks | None = None,
    new: Sequence[str] = (),
) -> list[str]:
    """The whole game as the seat whose view this is sees it, laid out to the style's width.

    ``marks`` and ``new`` mark what the seat's last action changed: cards put
    on melds, cards that came into the hand.
    """
    lines = style.fit([header_line(view, names), *player_lines(view, names, labels)])
    lines += table_lines(view, names, style, marks)
    if "hand" in view:
        lines += hand_lines(view["hand"], order, style, new)
    if marks or new:
        lines.append(MARKS_LEGEND)
    claim = claim_line(view)
    if claim is not None and view["phase"] != OVER:
        lines.append(claim)
    lines.append(next_step_line(view))
    return style.fit(lines)


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict[int, list[str]], list[str]]:
    """What changed from one view of a seat to the next: marks for the melds' new cards, the hand's new cards.

    Melds keep their number and only grow, so a meld is compared with the
    meld of the same number before (a new meld is all new).

    >>> before = {'melds': [{'index': 0, 'cards': ['5H', '6H', '7H']}], 'hand': ['2C', '8H']}
    >>> after = {'melds': [{'index': 0, 'cards': ['5H', '6H', '7H', '8H']}], 'hand': ['2C', '9S']}
    >>> changes(before, after)
    ({0: ['', '', '', '+']}, ['9S'])
    """
    old = {int(m["index"]): set(m["cards"]) for m in before.get("melds", [])}
    marks: dict[int, list[str]] = {}
    for m in after.get("melds", []):
        was = old.get(int(m["index"]), set())
        row = ["" if c in was else NEW for c in m["cards"]]
        if any(row):
            marks[int(m["index"])] = row
    held = Counter(before.get("hand", []))
    new = [c for c in after.get("hand", []) if not held[c]]
    return marks, new


# -- events ------------------------------------------------------------------------


def _meld_no(event: Mapping[str, Any]) -> str:
    return f"meld {int(event['meld']) + FIRST}"


def _left(event: Mapping[str, Any]) -> str:
    return f"{counted(int(event.get('hand_size', 0)), 'card')} left"


def describe_event(event: Mapping[str, Any], names: Sequence[str], style: Style, **_ignored: Any) -> list[str]:
    """Lines describing one mummus event as a seat sees it (``Event.seen_by``); ``[]`` if nothing to say.

    Only what the event dict holds is printed: a card drawn from the stock is
    named only in the drawer's own view of the event. An add-on or a claim
    onto a meld shows the meld with the cards it gained marked ``+``. Lines
    are laid out to the style's width.
    """
    return style.fit(_describe(event, names, style))


def marks_meld(event: Mapping[str, Any]) -> bool:
    """True when :func:`describe_event` marks cards in the event's lines (a meld that grew)."""
    return event.get("kind") == "addon" or (event.get("kind") == "rummy" and not event.get("new"))


def _grown(event: Mapping[str, Any], style: Style) -> str:
    """The meld an add-on or claim grew, the cards it gained marked."""
    added = {str(c) for c in event.get("cards", [])}
    grown = [str(c) for c in event.get("meld_cards", [])]
    return cards_text(grown, style, [NEW if c in added else "" for c in grown])


def _describe(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "deal":
        return [
            style.bold(
                f"Round {event.get('round', 1)}: {_name(names, event.get('dealer'))} deals"
                f" {counted(int(event.get('hand_size', 0)), 'card')} each; {_name(names, event.get('first'))} plays"
                f" first. The stock holds {counted(int(event.get('stock_size', 0)), 'card')}."
            )
        ]
    if kind == "hand":
        return [f"{who}'s hand: {cards_text(event['hand'], style)}"] if "hand" in event else []
    if kind == "draw":
        card = f" ({card_text(event['card'], style)})" if "card" in event else ""
        return [f"{who} draws from the stock{card}"]
    if kind == "take":
        taken = [str(c) for c in event.get("cards", [])]
        if event.get("deep"):
            above = cards_text([c for c in taken if c != event["card"]], style)
            return [
                f"{who} takes {card_text(event['card'], style)} from deep in the discard pile, with {above} above it,"
                f" and must meld or add on {event['card']} this turn ({counted(int(event.get('hand_size', 0)), 'card')} in hand)"
            ]
        return [f"{who} takes {card_text(event['card'], style)} from the top of the discard pile"]
    if kind in ("meld", "addon", "rummy"):
        meld = {"kind": event.get("meld_kind"), "cards": [str(c) for c in event.get("meld_cards", [])]}
        cards = cards_text([str(c) for c in event.get("cards", [])], style)
        points = counted(int(event.get("points", 0)), "point")
        late = "" if event.get("in_turn", True) else " out of turn"
        if kind == "meld":
            return [f"{who} melds a {meld_name(meld)}: {cards} ({_meld_no(event)}; {points}; {_left(event)})"]
        if kind == "addon":
            return [f"{who} adds {cards} to {_meld_no(event)}{late}: {_grown(event, style)} ({points}; {_left(event)})"]
        if event.get("new"):
            return [
                style.bold(
                    f"Rummy! {who} claims {cards} from the discard pile as a new {meld_name(meld)}"
                    f" ({_meld_no(event)}; {points})"
                )
            ]
        return [
            style.bold(f"Rummy! {who} claims {cards} from the discard pile onto {_meld_no(event)}:")
            + f" {_grown(event, style)} ({points})"
        ]
    if kind == "discard":
        return [f"{who} discards {card_text(event['card'], style)} ({_left(event)})"]
    if kind == "reshuffle":
        size = counted(int(event["stock_size"]), "card")
        return [f"The stock ran out: the discard pile is shuffled into a new stock of {size}."]
    if kind == "round-end":
        return round_end_lines(event, names, style)
    if kind == "match-end":
        return match_end_lines(event, names, style)
    if kind == "position":
        # the position string holds every hand and the stock: never printed
        return ["The game starts from a set position (the start of a turn)."]
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "player"))
    return [f"{who} {kind}: {rest}" if event.get("player") is not None else f"{kind}: {rest}"]


EVENT_LEGEND = f"({NEW} marks the cards just added to the meld)"
"""What the marks in an event mean (said the first time a narrator marks a card)."""


class MummusNarrator:
    """Tells a mummus game's events in order (see :func:`describe_event`) to one audience.

    Each event says all it changed (an add-on or a claim carries the whole
    meld it grew, with the cards it gained marked); what the narrator
    remembers is whether it has explained the marks yet, which it does under
    the first marked line.
    """

    def __init__(self, names: Sequence[str], style: Style) -> None:
        self.names = list(names)
        self.style = style
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """The event's lines; the marks' legend after the first that has any."""
        lines = describe_event(event, self.names, self.style)
        if lines and not self.explained and marks_meld(event):
            self.explained = True
            lines = [*lines, *self.style.fit([f"    {EVENT_LEGEND}"])]
        return lines


REASONS = {
    "out": "a player went out",
    "max-turns": "the turn limit (max_turns) was reached; scored as it stood",
    "target": "reached the target total",
    "max-rounds": "the round limit (max_rounds) was reached",
}


def round_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of a round: who went out, then each seat's points laid, cards left, score and total.

    Laid out to the style's width: a long list of cards left goes on under its first card.
    """
    reason = str(event.get("reason"))
    if reason == "out":
        head = f"Round {event.get('round', 1)} over: {_name(names, event.get('out'))} went out."
    else:
        head = f"Round {event.get('round', 1)} over: {REASONS.get(reason, reason)}."
    lines = [style.bold(head), "  laid on the table minus left in hand:"]
    laid = list(event.get("laid_points", []))
    left = list(event.get("hand_points", []))
    hands = list(event.get("hands", []))
    width = max((len(n) for n in names), default=0)
    for seat, name in enumerate(names):
        if seat < len(laid) and seat < len(left):
            points = f"    {name:<{width}}  {laid[seat]:>3} - {left[seat]:>3}"
            cards = f"  ({cards_text(hands[seat], style)})" if seat < len(hands) and hands[seat] else ""
            hang = len(points) + 3
            lines += fit(points + cards, style.width, hang if hang <= style.width // 2 else 8)
    return style.fit(lines + score_lines(event, names))


def match_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of the game: the winners, why, and the final totals."""
    return style.fit(game_over_lines(event, names, style, REASONS))


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


class MummusTurn:
    """One person at the keyboard for one seat: typed commands turned into mummus actions.

    :meth:`command` runs one line and returns the :class:`Action` to apply (or
    ``None`` when the command only showed something); it raises
    :class:`~rummykit.errors.RummykitError` for bad input, or :class:`Quit`.
    Nothing here changes the game.
    """

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
        self.view = view
        self.seat = int(view["seat"])
        self.parse_action = parse_action
        self.say = say
        self.style = style
        self.names = list(view["players"])
        self.labels = list(labels)
        self.order = _order(order)
        self.marks: dict[int, list[str]] = {}
        """The cards the seat's last action put on melds, marked (by meld index)."""
        self.new: list[str] = []
        """The cards the seat's last action brought into its hand."""
        self.echo = True
        """Kept for the :class:`~rummykit.presenters.base.Turn` interface: a mummus turn drafts nothing."""

    def board(self) -> None:
        """None: each mummus action is applied at once, with no free-table draft."""
        return None

    @property
    def label(self) -> str:
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

    def command(self, line: str) -> Action | None:
        """Run one typed command (see :func:`help_lines`)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        if verb == "add" and args and args[0].lower() == "on":
            verb, args = "addon", args[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise unknown_command(words[0], str(self.view["game"]))
        return handler(args)

    def _handlers(self) -> dict[str, Callable[[list[str]], Action | None]]:
        return {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "moves": self._moves,
            "options": self._moves,
            "quit": self._quit,
            "exit": self._quit,
            "draw": lambda args: self._action("draw", args),
            "stock": lambda args: self._action("draw", args),
            "take": self._take,
            "meld": lambda args: self._action("meld", args),
            "addon": self._addon,
            "rummy": self._rummy,
            "discard": lambda args: self._action("discard", args),
        }

    def _action(self, verb: str, args: Sequence[str]) -> Action:
        """The game's action for ``verb args`` (the game's parser says what is malformed)."""
        return self.parse_action(" ".join([str(self.seat), verb, *args]))

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.style.width))

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(ORDERS)}")
        key = ORDER_ALIASES.get(args[0].lower(), args[0].lower())
        if key not in ORDERS:
            raise ParseError(f"sort by {' or '.join(ORDERS)}, not {args[0]!r}")
        self.order = key
        self.say(*self.hand_lines())

    def _moves(self, args: list[str]) -> None:
        no_args("moves", args)
        self.say(*self.style.fit(moves_lines(self.legal()), hang=4))

    def _quit(self, args: list[str]) -> None:
        raise Quit

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
        verb, args = words[0].lower(), list(words[1:])
        if verb == "add" and args and args[0].lower() == "on":
            verb, args = "addon", args[1:]
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
class MummusPresenter:
    """The mummus presenter (one object, :data:`PRESENTER`)."""

    words: Vocabulary = WORDS
    orders: Sequence[str] = tuple(ORDERS)
    playable: bool = True
    hint: bool = False
    solver: Solver | None = None
    table_kind: str = "melds-pile"
    """The terminal app draws the melds, the spread discard pile and the hand as their own areas."""

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
        names = list(view["players"])
        return style.fit([header_line(view, names), *player_lines(view, names, labels)])

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The stock, the discard pile and the melds."""
        return table_lines(view, list(view["players"]), style)

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's hand (nothing for a spectator)."""
        if "hand" not in view:
            return []
        return hand_lines(view["hand"], _order(order), style)

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """See :func:`screen_lines`."""
        return screen_lines(view, list(view["players"]), labels, style, _order(order))

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows()

    def help_lines(self, view: View, style: Style | None = None) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(style.width if style else 0)

    def command_text(self, action: Action) -> str:
        """See :func:`command_text`."""
        return command_text(action)

    def turn(
        self,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> MummusTurn:
        """A :class:`MummusTurn` for the seat whose view this is."""
        return MummusTurn(
            view, parse_action=parse_action or INFO.parse_action, say=say, style=style, labels=labels, order=order
        )

    def hint_lines(self, view: View) -> list[str]:
        """Mummus has no solver: no hint."""
        return []

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return round_end_lines(event, names, style)

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`match_end_lines`."""
        return match_end_lines(outcome, names, style)


PRESENTER: Presenter = MummusPresenter()
