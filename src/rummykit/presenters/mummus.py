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
above it), and melds are numbered from 1 in the order laid down. The game
record names neither by number: a deep draw names its card (`take 8H`) and
an add-on names its meld by one of its cards (`addon 9H to 6H`); both forms
are accepted at the prompt. Cards are written with their suit letter
(`10H`, `QS`); with colour on, hearts and diamonds are also printed red, never
instead of the letter.

>>> style = Style()
>>> pile_lines(['9S', '4D', '8H'], ['8H'], style)
['Discard pile, bottom to top (`take N` takes card N and every card above it):', '   1 9S   2 4D   3 8H*   (* a rummy call can claim it)']
>>> describe_event({'kind': 'take', 'player': 1, 'card': '4D', 'cards': ['4D', '8H'], 'deep': True,
...     'hand_size': 9}, ['ann', 'bob'], style)
['bob takes 4D from deep in the discard pile, with 8H above it, and must meld or add on 4D this turn (9 cards)']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.core import Action
from rummykit.errors import ParseError

# Constants only (the names of meld kinds): every judgement is the game's.
from rummykit.melds.cards import RUN, SET
from rummykit.pieces.cards import Card, by_rank
from rummykit.presenters.base import Presenter, Quit, Say, Solver, View, Vocabulary
from rummykit.presenters.text import (
    RESET,
    HelpRow,
    Style,
    game_over_lines,
    help_table,
    no_args,
    plural,
    score_lines,
    seat_name,
    signed,
)
from rummykit.rulesets.mummus import (
    DRAW,
    GAME_ID,
    INFO,
    OVER,
    PLAY,
    Addon,
    Rummy,
    actions_from_view,
)

__all__ = [
    "GAME",
    "PRESENTER",
    "WORDS",
    "MummusPresenter",
    "MummusTurn",
    "card_text",
    "describe_event",
    "help_lines",
    "meld_lines",
    "moves_lines",
    "pile_lines",
    "screen_lines",
]

GAME = GAME_ID
FIRST = 1
"""The number the screen gives the first meld and the bottom card of the discard pile."""

RED = "\x1b[1;31m"

ORDERS: dict[str, Callable[[Card], Any]] = {"suit": lambda c: c.code, "rank": by_rank}
ORDER_ALIASES = {"suits": "suit", "ranks": "rank", "number": "rank", "value": "rank"}
DEFAULT_ORDER = "suit"
ORDER_WORDS = {"suit": "by suit", "rank": "by rank"}

PHASE_NAMES = {DRAW: "draw", PLAY: "meld/discard", OVER: "over"}


def _order(order: str | None) -> str:
    return order if order is not None and order in ORDERS else DEFAULT_ORDER


def _name(names: Sequence[str], seat: Any) -> str:
    return seat_name(names, seat, "nobody")


# -- cards, piles and melds -------------------------------------------------------------


def card_text(text: str, style: Style) -> str:
    """One card as printed: its notation, red for hearts and diamonds when colour is on.

    >>> card_text('10H', Style()), card_text('10H', Style(color=True)) == '\\x1b[1;31m10H\\x1b[0m'
    ('10H', True)
    """
    if style.color and text[-1:] in ("H", "D"):
        return f"{RED}{text}{RESET}"
    return text


def cards_text(texts: Sequence[str], style: Style) -> str:
    """Cards separated by spaces (``-`` for none)."""
    return " ".join(card_text(t, style) for t in texts) or "-"


def pile_lines(discard: Sequence[str], claimable: Sequence[str], style: Style) -> list[str]:
    """The discard pile spread and numbered from the bottom; a claimable card marked ``*``."""
    if not discard:
        return ["Discard pile: empty."]
    marks = set(claimable)
    cells = [f"{i + FIRST:>4} {card_text(c, style)}{'*' if c in marks else ''}" for i, c in enumerate(discard)]
    note = "   (* a rummy call can claim it)" if marks else ""
    lines = ["Discard pile, bottom to top (`take N` takes card N and every card above it):"]
    row: list[str] = []
    for i, cell in enumerate(cells):
        row.append(cell)
        if len(row) == 12 and i != len(cells) - 1:
            lines.append("".join(row))
            row = []
    lines.append("".join(row) + note)
    return lines


def meld_name(meld: Mapping[str, Any]) -> str:
    """A meld's kind in words: ``run of hearts``, ``set of 7s``.

    >>> meld_name({'kind': 'run', 'cards': ['QH', 'KH', 'AH']}), meld_name({'kind': 'set', 'cards': ['7C', '7D', '7S']})
    ('run of hearts', 'set of 7s')
    """
    cards = [Card.parse(c) for c in meld["cards"]]
    if meld["kind"] == RUN and cards:
        return f"run of {cards[0].suit.word}"
    if meld["kind"] == SET and cards:
        return f"set of {cards[0].rank_text}s"
    return str(meld["kind"])


def laid_by_text(meld: Mapping[str, Any], names: Sequence[str]) -> str:
    """Who laid which cards of a meld: ``ann 5H 6H 7H, bob 8H``."""
    groups: dict[int, list[str]] = {}
    for card, seat in zip(meld["cards"], meld["laid_by"], strict=True):
        groups.setdefault(int(seat), []).append(str(card))
    return ", ".join(f"{_name(names, s)} {' '.join(cards)}" for s, cards in groups.items())


def meld_lines(view: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """Every meld on the table: its number, kind, cards and who laid each card."""
    melds = list(view["melds"])
    if not melds:
        return ["Melds: none on the table yet."]
    lines = ["Melds (numbered from 1; every card scores for whoever laid it):"]
    kind_w = max(len(meld_name(m)) for m in melds)
    cards_w = max(len(" ".join(m["cards"])) for m in melds)
    width = len(str(len(melds) - 1 + FIRST))
    for m in melds:
        shown = " ".join(m["cards"])
        padded = cards_text(m["cards"], style) + " " * (cards_w - len(shown))
        lines.append(
            f"  {m['index'] + FIRST:>{width}}  {meld_name(m):<{kind_w}}  {padded}  laid by {laid_by_text(m, names)}"
        )
    return lines


def hand_line(hand: Sequence[str], order: str, style: Style) -> str:
    """A hand in the chosen order, grouped by suit (or by rank).

    >>> hand_line(['2C', '5C', 'AS', '10H'], 'suit', Style())
    'Your hand (4 cards, by suit): 2C 5C  10H  AS'
    """
    cards = sorted((Card.parse(c) for c in hand), key=ORDERS[order])
    groups: list[list[str]] = []
    last: Any = None
    for c in cards:
        key = c.suit if order == "suit" else c.rank
        if not groups or key != last:
            groups.append([])
        groups[-1].append(card_text(str(c), style))
        last = key
    shown = "  ".join(" ".join(g) for g in groups) or "(empty)"
    return f"Your hand ({plural(len(hand), 'card')}, {ORDER_WORDS[order]}): {shown}"


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
        return "Your move: `draw` from the stock, or `take N` from the discard pile (`moves` lists every move)."
    if view.get("deep"):
        return f"Meld or add on {view['deep']} (you took it from deep in the pile), then `discard CARD`."
    return "Now `meld`, `addon`, `rummy` as you like, then `discard CARD` to end your turn."


def table_lines(view: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The stock, the spread discard pile and the melds."""
    lines = [f"Stock: {plural(int(view['stock_size']), 'card')}, face down."]
    lines += pile_lines(view["discard"], view.get("claimable", []), style)
    return lines + meld_lines(view, names, style)


def screen_lines(
    view: Mapping[str, Any], names: Sequence[str], labels: Sequence[str], style: Style, order: str = DEFAULT_ORDER
) -> list[str]:
    """The whole game as the seat whose view this is sees it."""
    lines = [header_line(view, names), *player_lines(view, names, labels), *table_lines(view, names, style)]
    if "hand" in view:
        lines.append(hand_line(view["hand"], order, style))
    claim = claim_line(view)
    if claim is not None and view["phase"] != OVER:
        lines.append(claim)
    lines.append(next_step_line(view))
    return lines


# -- events ------------------------------------------------------------------------


def _meld_no(event: Mapping[str, Any]) -> str:
    return f"meld {int(event['meld']) + FIRST}"


def _left(event: Mapping[str, Any]) -> str:
    return f"{plural(int(event.get('hand_size', 0)), 'card')} left"


def describe_event(event: Mapping[str, Any], names: Sequence[str], style: Style, **_ignored: Any) -> list[str]:
    """Lines describing one mummus event as a seat sees it (``Event.seen_by``); ``[]`` if nothing to say.

    Only what the event dict holds is printed: a card drawn from the stock is
    named only in the drawer's own view of the event.
    """
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "deal":
        return [
            style.bold(
                f"Round {event.get('round', 1)}: {_name(names, event.get('dealer'))} deals"
                f" {plural(int(event.get('hand_size', 0)), 'card')} each; {_name(names, event.get('first'))} plays"
                f" first. The stock holds {plural(int(event.get('stock_size', 0)), 'card')}."
            )
        ]
    if kind == "hand":
        return [f"{who}'s hand: {' '.join(event['hand'])}"] if "hand" in event else []
    if kind == "draw":
        card = f" ({event['card']})" if "card" in event else ""
        return [f"{who} draws from the stock{card}"]
    if kind == "take":
        taken = [str(c) for c in event.get("cards", [])]
        if event.get("deep"):
            above = " ".join(c for c in taken if c != event["card"])
            return [
                f"{who} takes {event['card']} from deep in the discard pile, with {above} above it, and must meld"
                f" or add on {event['card']} this turn ({plural(int(event.get('hand_size', 0)), 'card')})"
            ]
        return [f"{who} takes {event['card']} from the top of the discard pile"]
    if kind in ("meld", "addon", "rummy"):
        grown = [str(c) for c in event.get("meld_cards", [])]
        meld = {"kind": event.get("meld_kind"), "cards": grown}
        cards = " ".join(str(c) for c in event.get("cards", []))
        points = f"+{event.get('points', 0)}"
        late = "" if event.get("in_turn", True) else " out of turn"
        if kind == "meld":
            return [f"{who} melds a {meld_name(meld)}: {cards} ({_meld_no(event)}; {points}; {_left(event)})"]
        if kind == "addon":
            return [
                f"{who} adds {cards} to {_meld_no(event)}{late}: {' '.join(grown)} ({points}; {_left(event)})"
            ]
        if event.get("new"):
            return [style.bold(f"Rummy! {who} claims {cards} from the discard pile as a new {meld_name(meld)} ({_meld_no(event)}; {points})")]
        return [
            style.bold(
                f"Rummy! {who} claims {cards} from the discard pile onto {_meld_no(event)}:"
                f" {' '.join(grown)} ({points})"
            )
        ]
    if kind == "discard":
        return [f"{who} discards {event['card']} ({_left(event)})"]
    if kind == "reshuffle":
        return [f"The stock ran out: the discard pile is shuffled into a new stock of {plural(int(event['stock_size']), 'card')}."]
    if kind == "round-end":
        return round_end_lines(event, names, style)
    if kind == "match-end":
        return match_end_lines(event, names, style)
    if kind == "position":
        # the position string holds every hand and the stock: never printed
        return ["The game starts from a set position (the start of a turn)."]
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "player"))
    return [f"{who} {kind}: {rest}" if event.get("player") is not None else f"{kind}: {rest}"]


REASONS = {
    "out": "a player went out",
    "max-turns": "the turn limit (max_turns) was reached; scored as it stood",
    "target": "reached the target total",
    "max-rounds": "the round limit (max_rounds) was reached",
}


def round_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of a round: who went out, then each seat's points laid, cards left, score and total."""
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
            cards = f"  ({' '.join(hands[seat])})" if seat < len(hands) and hands[seat] else ""
            lines.append(f"    {name:<{width}}  {laid[seat]:>3} - {left[seat]:>3}{cards}")
    return lines + score_lines(event, names)


def match_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of the game: the winners, why, and the final totals."""
    return game_over_lines(event, names, style, REASONS)


# -- the commands ------------------------------------------------------------------

HELP_ROWS = [
    ("draw", "start your turn with the top card of the stock"),
    ("take N|CARD", "start your turn from the discard pile: card N (or that card) and every card above it;"
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


def help_rows() -> list[HelpRow]:
    """The commands."""
    return [*HELP_ROWS, *TOOL_ROWS]


def help_lines() -> list[str]:
    """The command list.

    >>> help_lines()[0].startswith('Commands (melds and discard-pile cards are numbered from 1')
    True
    """
    head = (
        "Commands (melds and discard-pile cards are numbered from 1 as shown; cards are written rank then suit"
        " letter, like 10H or QS; T also means 10):"
    )
    return help_table(head, help_rows())


def moves_lines(actions: Sequence[Action]) -> list[str]:
    """The listed legal actions of a seat, written as the commands that play them."""
    if not actions:
        return ["You have nothing to do now."]
    texts = [a.text() for a in actions]
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

    @property
    def label(self) -> str:
        """``turn`` for the player to move, ``call`` for a seat acting out of turn."""
        return "turn" if self.view["turn"] == self.seat else "call"

    def legal(self) -> list[Action]:
        """This seat's legal actions now, as the game lists them from the view."""
        return sorted(actions_from_view(self.view), key=lambda a: a.text())

    def screen(self) -> list[str]:
        """The whole game as this seat sees it."""
        return screen_lines(self.view, self.names, self.labels, self.style, self.order)

    def accepted(self) -> list[str]:
        """Nothing to add: the game's events tell what happened."""
        return []

    def update(self, view: View) -> list[str]:
        """Take a new view; the lines worth showing after an action."""
        before = self.view["phase"]
        self.view = view
        if view["phase"] != before:
            return self.screen()
        lines = [*table_lines(view, self.names, self.style)]
        if "hand" in view:
            lines.append(self.hand_text())
        claim = claim_line(view)
        if claim is not None:
            lines.append(claim)
        return [*lines, next_step_line(view)]

    def hand_text(self) -> str:
        """This seat's hand in the chosen order."""
        return hand_line(self.view.get("hand", []), self.order, self.style)

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
            raise ParseError(f"unknown command {words[0]!r}; type `help` for the commands")
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
        self.say(*help_lines())

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
        self.say(self.hand_text())

    def _moves(self, args: list[str]) -> None:
        no_args("moves", args)
        self.say(*moves_lines(self.legal()))

    def _quit(self, args: list[str]) -> None:
        raise Quit

    def _take(self, args: list[str]) -> Action:
        if len(args) == 1 and args[0].isdigit():
            pile = list(self.view["discard"])
            n = int(args[0])
            if not FIRST <= n < len(pile) + FIRST:
                where = f"1..{len(pile)}" if pile else "none: the discard pile is empty"
                raise ParseError(f"the discard pile has cards {where}, not {n}")
            args = [str(pile[n - FIRST])]
        return self._action("take", args)

    def _meld_ref(self, word: str) -> str:
        """A meld written as its number on the screen (or one of its cards): the card that names it."""
        if word.isdigit():
            melds = list(self.view["melds"])
            n = int(word)
            if not FIRST <= n < len(melds) + FIRST:
                where = f"1..{len(melds)}" if melds else "none yet"
                raise ParseError(f"the melds are numbered {where}, not {n}")
            return str(melds[n - FIRST]["cards"][0])
        return word

    def _split(self, args: list[str], verb: str) -> tuple[list[str], str | None]:
        """``[N] CARD ... [to N|CARD]``: the cards and the meld (as a card), None when not given."""
        words = list(args)
        meld: str | None = None
        lowered = [w.lower() for w in words]
        if "to" in lowered:
            i = lowered.index("to")
            if len(words) != i + 2:
                raise ParseError(f"write `{verb} CARD ... to N` (N: a meld's number, or one of its cards)")
            meld = self._meld_ref(words[i + 1])
            words = words[:i]
        elif words and words[0].isdigit():
            meld = self._meld_ref(words[0])
            words = words[1:]
        return words, meld

    def _addon(self, args: list[str]) -> Action:
        cards, meld = self._split(args, "addon")
        if not cards:
            raise ParseError("write `addon [N] CARD ...`: the cards to add (and the meld's number)")
        if meld is None:
            meld = self._only_meld(cards, Addon, "addon")
        return self._action("addon", [*cards, "to", meld])

    def _rummy(self, args: list[str]) -> Action | None:
        cards, meld = self._split(args, "rummy")
        if not cards:
            calls = [a for a in self.legal() if isinstance(a, Rummy) and (meld is None or a.meld is not None)]
            if meld is not None:
                calls = [a for a in calls if a.meld is not None and Card.parse(meld) in self._meld_cards(a.meld)]
            if len(calls) == 1:
                return calls[0]
            if not calls:
                raise ParseError("there is nothing to claim now: no discard fits a meld on the table")
            self.say("Several claims are open; name the cards:", *(f"  {a.text()}" for a in calls))
            return None
        if meld is None:
            fits = {a.meld for a in self.legal() if isinstance(a, Rummy) and a.meld is not None and a.cards == tuple(_parse(cards))}
            if len(fits) == 1:
                only = fits.pop()
                assert only is not None
                meld = str(only)
        return self._action("rummy", [*cards, "to", meld] if meld is not None else cards)

    def _meld_cards(self, first: Card) -> list[Card]:
        for m in self.view["melds"]:
            if str(first) in m["cards"]:
                return [Card.parse(c) for c in m["cards"]]
        return []

    def _only_meld(self, cards: list[str], kind: type[Addon], verb: str) -> str:
        """The one meld the game lists these cards going to (else ask for the meld's number)."""
        wanted = tuple(_parse(cards))
        targets = [a.meld for a in self.legal() if isinstance(a, kind) and set(a.cards) == set(wanted)]
        if len(targets) == 1:
            return str(targets[0])
        if targets:
            numbers = [str(self._number_of(t)) for t in targets]
            raise ParseError(f"{' '.join(cards)} fits melds {', '.join(numbers)}: write `{verb} N {' '.join(cards)}`")
        raise ParseError(f"name the meld: `{verb} N {' '.join(cards)}` (N: its number on the screen)")

    def _number_of(self, card: Card) -> int:
        for m in self.view["melds"]:
            if str(card) in m["cards"]:
                return int(m["index"]) + FIRST
        return -1


def _parse(words: Sequence[str]) -> list[Card]:
    return [Card.parse(w) for w in words]


# -- the presenter ---------------------------------------------------------------------

WORDS = Vocabulary(piece="card", rack="hand", pool="stock", opening="first meld", reasons=REASONS)


@dataclass(frozen=True)
class MummusPresenter:
    """The mummus presenter (one object, :data:`PRESENTER`)."""

    words: Vocabulary = WORDS
    orders: Sequence[str] = tuple(ORDERS)
    playable: bool = True
    hint: bool = False
    solver: Solver | None = None

    @property
    def game(self) -> str:
        """``mummus``."""
        return GAME

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`."""
        return describe_event(event, names, style)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """The round, turn and phase, then one line per seat."""
        names = list(view["players"])
        return [header_line(view, names), *player_lines(view, names, labels)]

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The stock, the discard pile and the melds."""
        return table_lines(view, list(view["players"]), style)

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's hand (nothing for a spectator)."""
        if "hand" not in view:
            return []
        return [hand_line(view["hand"], _order(order), style)]

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """See :func:`screen_lines`."""
        return screen_lines(view, list(view["players"]), labels, style, _order(order))

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows()

    def help_lines(self, view: View) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines()

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
