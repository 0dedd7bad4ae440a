"""Mummus drawn for a seat: cards, the spread discard pile, the melds, the hand and the status."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

# Constants only (the names of meld kinds): every judgement is the game's.
from rummykit.engine.values import JSON
from rummykit.melds.cards import RUN, SET
from rummykit.pieces.cards import Card, by_rank, rank_plural
from rummykit.presenters.text import NEW, RESET, UNDERLINE, Style, fit, seat_name, signed, visible_len
from rummykit.rulesets.mummus import DRAW, GAME_ID, OVER, PLAY
from rummykit.rulesets.mummus.typed import FIRST
from rummykit.rulesets.mummus.views import MeldView, MummusView
from rummykit.words import counted

GAME = GAME_ID

RED = "\x1b[1;31m"

ORDERS: dict[str, Callable[[Card], int | tuple[int, int]]] = {"suit": lambda c: c.code, "rank": by_rank}
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


def _name(names: Sequence[str], seat: object) -> str:
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


def meld_name(meld: MeldView | Mapping[str, JSON]) -> str:
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


def laid_by_text(meld: MeldView, names: Sequence[str]) -> str:
    """Who laid which cards of a meld: ``ann 5H 6H 7H, bob 8H``."""
    groups: dict[int, list[str]] = {}
    for card, seat in zip(meld["cards"], meld["laid_by"], strict=True):
        groups.setdefault(int(seat), []).append(str(card))
    return ", ".join(f"{_name(names, s)} {' '.join(cards)}" for s, cards in groups.items())


def meld_lines(view: MummusView, names: Sequence[str], style: Style, marks: Marks | None = None) -> list[str]:
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
    last: object = None
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


def header_line(view: MummusView, names: Sequence[str]) -> str:
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


def player_lines(view: MummusView, names: Sequence[str], labels: Sequence[str]) -> list[str]:
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


def claim_line(view: MummusView) -> str | None:
    """A line saying a rummy call is open (the game lists the claimable cards), or None."""
    cards = view.get("claimable") or []
    if not cards:
        return None
    return f"Rummy! {' '.join(cards)} in the discard pile can be claimed: call `rummy` (see `moves`)."


def next_step_line(view: MummusView) -> str:
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


def table_lines(view: MummusView, names: Sequence[str], style: Style, marks: Marks | None = None) -> list[str]:
    """The stock, the spread discard pile and the melds (``marks``: cards just added), laid out to the width."""
    lines = [f"Stock: {counted(int(view['stock_size']), 'card')}, face down."]
    lines += pile_lines(view["discard"], view.get("claimable", []), style)
    return style.fit(lines + meld_lines(view, names, style, marks))


MARKS_LEGEND = f"({NEW} marks what your last action put on a meld or into your hand)"
"""What the marks on a person's own screen mean (said under a marked screen)."""


def screen_lines(
    view: MummusView,
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


def changes(before: MummusView, after: MummusView) -> tuple[dict[int, list[str]], list[str]]:
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
