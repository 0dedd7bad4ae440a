"""The ``conveyor`` presenter: the layout, hands and melds drawn from views; typed commands.

Everything here renders a seat's view (or an event as a seat sees it) and
turns typed commands into the game's own actions; no rule lives here. A
command becomes an action through the game's parser, the interface applies
it, and an illegal one is refused by the engine with its own message. Where
a command leaves something out (the end of a lay-off), the game's listing
of legal actions from the view fills it in.

Columns, cells and melds are numbered from 1 for people, on the screen and
in what they type, like the sets of the free-table games; views, events,
actions and the game record number them from 0. This module is the one
place that converts (:func:`screen_number` one way, :func:`typed_number` the
other), so ``draw 3 top`` typed at the prompt is ``0 draw 2 top`` in the
record. Face-down dominoes are ``??`` and face-up ones are bracketed:

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

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.engine.core import Action
from rummykit.errors import ParseError

# Constants only (the names of meld kinds and meld ends): every judgement is the game's.
from rummykit.melds.conveyor import END_NAMES, HIGH, LINE, LOW, PAIRS, RUN, SUM
from rummykit.pieces.dominoes import Domino
from rummykit.presenters.base import EventNarrator, Narrator, Presenter, Quit, Say, Solver, View, Vocabulary
from rummykit.presenters.text import (
    HelpRow,
    Style,
    fit,
    game_over_lines,
    help_table,
    no_args,
    plural,
    plural_of,
    rack_line,
    score_lines,
    seat_name,
    signed,
    unknown_command,
    visible_len,
    whole_number,
)
from rummykit.rulesets.conveyor import (
    DRAW,
    GAME_ID,
    INFO,
    JUMP,
    OVER,
    PLAY,
    SELECT,
    UNKNOWN,
    Claim,
    Draw,
    Layoff,
    Reveal,
    actions_from_view,
)

__all__ = [
    "GAME",
    "PRESENTER",
    "WORDS",
    "ConveyorPresenter",
    "ConveyorTurn",
    "column_line",
    "command_text",
    "describe_event",
    "help_lines",
    "moves_lines",
    "screen_lines",
]

GAME = GAME_ID
FACE_DOWN = UNKNOWN
"""A face-down domino, as views show it."""

PHASE_NAMES = {
    SELECT: "selection round",
    DRAW: "draw",
    PLAY: "meld/discard",
    JUMP: "jump-in window",
    OVER: "over",
}

ORDERS: dict[str, Callable[[Sequence[Domino]], list[list[Domino]]]] = {
    "low": lambda hand: _grouped(sorted(hand), lambda d: d.low),
    "pips": lambda hand: _grouped(sorted(hand, key=lambda d: (d.pips, d)), lambda d: d.pips),
}
ORDER_ALIASES = {"half": "low", "suit": "low", "number": "low", "sum": "pips", "sums": "pips", "spots": "pips"}
DEFAULT_ORDER = "low"
ORDER_WORDS = {"low": "by low half", "pips": "by pip total"}

END_ALIASES = {"t": "top", "b": "bottom", "l": LOW, "lo": LOW, "h": HIGH, "hi": HIGH}


def _order(order: str | None) -> str:
    return order if order is not None and order in ORDERS else DEFAULT_ORDER


def _grouped(dominoes: Sequence[Domino], key: Callable[[Domino], int]) -> list[list[Domino]]:
    groups: dict[int, list[Domino]] = {}
    for d in dominoes:
        groups.setdefault(key(d), []).append(d)
    return list(groups.values())


def screen_number(number: int) -> int:
    """A column, cell or meld number of a view, event or action (from 0) as people count it (from 1)."""
    return int(number) + 1


def typed_number(text: str, what: str) -> int:
    """The number (from 0) of the column, cell or meld a person typed as counted on the screen (from 1).

    Only the notation is read here: whether there is such a column, cell or
    meld is the engine's to say, and its refusal is worded from 1 too
    (:func:`~rummykit.presenters.base.word_refusal`).

    >>> typed_number('3', 'column')
    2
    >>> typed_number('0', 'column')
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: columns are numbered from 1, as on the screen; got '0'
    """
    n = whole_number(text, f"a {what} number")
    if n < 1:
        raise ParseError(f"{plural_of(what)} are numbered from 1, as on the screen; got {text!r}")
    return n - 1


def _name(names: Sequence[str], seat: Any) -> str:
    return seat_name(names, seat, "nobody")


def _names(names: Sequence[str], seats: Sequence[Any]) -> str:
    return ", ".join(_name(names, s) for s in seats) if seats else "nobody"


# -- pieces, columns and melds -------------------------------------------------------


def cell_text(cell: str, style: Style) -> str:
    """One cell of a column: ``??`` face down, ``[3-5]`` face up (bold with colour on).

    >>> cell_text('??', Style()), cell_text('3-5', Style())
    ('??', '[3-5]')
    """
    return cell if cell == FACE_DOWN else style.bold(f"[{cell}]")


def column_line(column: Mapping[str, Any], names: Sequence[str], style: Style) -> str:
    """A column for play: its top end, the cells between, its bottom end (or who claimed it)."""
    number = screen_number(column["column"])
    owner = column["claimed_by"]
    if owner is not None:
        return f"  column {number}  claimed by {_name(names, owner)}"
    cells = [cell_text(c, style) for c in column["cells"]]
    if not cells:
        return f"  column {number}  (empty)"
    if len(cells) == 1:
        return f"  column {number}  top = bottom {cells[0]}"
    middle = " ".join(cells[1:-1])
    inner = f" {middle} " if middle else " "
    return f"  column {number}  top {cells[0]} |{inner}| {cells[-1]} bottom"


def column_lines(column: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """:func:`column_line` laid out to the style's width, the cells going on under the first one."""
    line = column_line(column, names, style)
    return fit(line, style.width, len(f"  column {screen_number(column['column'])}  top "))


def selection_grid(view: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The columns as a grid with cell numbers (for ``reveal COLUMN CELL`` in the selection round).

    When the cells do not fit the style's width, the grid is shown in blocks
    of as many cells as fit, each under its own row of cell numbers.

    >>> view = {'columns': [{'column': 0, 'claimed_by': None, 'cells': ['??', '10-12', '??', '??', '3-3']}]}
    >>> for line in selection_grid(view, [], Style(width=40)):
    ...     print(line)
      cell         1       2       3
      column 1    ??    [10-12]   ??
      cell         4       5
      column 1    ??     [3-3]
    """
    columns = list(view["columns"])
    length = max((len(c["cells"]) for c in columns), default=0)
    width = max([2, len(str(length))] + [len(f"[{x}]") for c in columns for x in c["cells"] if x != FACE_DOWN])
    label = max(len(f"column {screen_number(c['column'])}") for c in columns) if columns else 6
    per = length
    if style.width:
        per = max(1, min(length, (style.width - label - 4 + 1) // (width + 1)))
    lines: list[str] = []
    for start in range(0, max(length, 1), max(per, 1)):
        stop = min(length, start + per)
        numbers = " ".join(f"{i + 1:^{width}}" for i in range(start, stop))
        lines.append(f"  {'cell':<{label}}  {numbers}".rstrip())
        for c in columns:
            head = f"  {'column ' + str(screen_number(c['column'])):<{label}}  "
            if c["claimed_by"] is not None:
                if start == 0:
                    lines.append(f"{head}claimed by {_name(names, c['claimed_by'])}")
                continue
            texts = [x if x == FACE_DOWN else f"[{x}]" for x in c["cells"][start:stop]]
            cells = " ".join(style.bold(f"{t:^{width}}") if t != FACE_DOWN else f"{t:^{width}}" for t in texts)
            lines.append((head + cells).rstrip())
    return lines


def meld_kind(meld: Mapping[str, Any]) -> str:
    """A meld's kind in words: ``run of 5s``, ``run of pairs``, ``sum of 8``, ``line``.

    >>> meld_kind({'kind': 'run', 'dominoes': ['3-5', '4-5', '5-5']}), meld_kind({'kind': 'sum', 'dominoes': ['0-8']})
    ('run of 5s', 'sum of 8')
    """
    kind = meld["kind"]
    dominoes = [Domino.parse(x) for x in meld["dominoes"]]
    if kind == RUN and len(dominoes) >= 2:
        a, b = dominoes[0], dominoes[1]
        return f"run of {a.low if b.has(a.low) else a.high}s"
    if kind == PAIRS:
        return "run of pairs"
    if kind == SUM and dominoes:
        return f"sum of {dominoes[0].pips}"
    if kind == LINE:
        return "line"
    return str(kind)


def meld_lines(view: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """Every meld on the table: number, owner, kind, dominoes (low end first), worth."""
    melds = list(view["melds"])
    if not melds:
        return ["Melds: none on the table yet."]
    lines = ["Melds (`low` end on the left, `high` on the right; each scores for its owner):"]
    name_w = max(len(_name(names, m["owner"])) for m in melds)
    kind_w = max(len(meld_kind(m)) for m in melds)
    num_w = len(str(len(melds)))
    shown = [m["layout"] if m["kind"] == LINE and m.get("layout") else " ".join(m["dominoes"]) for m in melds]
    hang = 2 + num_w + 2 + name_w + 2 + kind_w + 2
    # the worth lines up after the dominoes when every line fits; otherwise it follows them
    shown_w = max(len(x) for x in shown)
    aligned = not style.width or hang + shown_w + 2 + len("worth 999 (royal)") <= style.width
    for m, text in zip(melds, shown, strict=True):
        worth = f"worth {m['score']}" + (" (royal)" if m.get("royal") else "")
        dominoes = f"{text:<{shown_w}}" if aligned else text
        line = (
            f"  {screen_number(m['index']):>{num_w}}  {_name(names, m['owner']):<{name_w}}  {meld_kind(m):<{kind_w}}"
            f"  {dominoes}  {worth}"
        )
        lines += fit(line, style.width, hang if hang <= style.width // 2 else 6)
    return lines


def hand_line(hand: Sequence[str], order: str, style: Style, known: Sequence[str] = ()) -> str:
    """A hand in the chosen order, grouped; what the others saw of it.

    >>> hand_line(['0-1', '0-5', '2-4'], 'low', Style(), ['0-5'])
    'Your hand (3 dominoes, by low half): 0-1 0-5  2-4   (the others saw: 0-5)'
    """
    groups = ORDERS[order]([Domino.parse(x) for x in hand])
    text = rack_line([[str(d) for d in g] for g in groups], style) or "(empty)"
    seen = f"   (the others saw: {' '.join(known)})" if known else ""
    return f"Your hand ({plural(len(hand), 'domino')}, {ORDER_WORDS[order]}): {text}{seen}"


def hand_lines(hand: Sequence[str], order: str, style: Style, known: Sequence[str] = ()) -> list[str]:
    """:func:`hand_line` laid out to the style's width (the dominoes on the next lines when the heading is long)."""
    line = hand_line(hand, order, style, known)
    head, _, rest = line.partition("): ")
    if style.width and len(head) + 3 > style.width // 2 and visible_len(line) > style.width:
        return [f"{head}):", *fit(f"    {rest}", style.width, 4)]
    return fit(line, style.width, len(head) + 3)


def header_line(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Round, turn, phase and who is to act."""
    phase = view["phase"]
    target = view["options"].get("target")
    head = f"Round {view['round']}" + (f" of a match to {target}" if target else "")
    who = _name(names, view["turn"])
    if phase == SELECT:
        return f"{head}, selection round: {who} reveals a face-down domino or claims a column."
    if phase == OVER:
        return f"{head}: the game is over."
    turn = f"{head}, turn {view['turn_number']}"
    if phase == DRAW:
        return f"{turn} (draw): {who} draws from an end of a conveyor."
    if phase == PLAY:
        return f"{turn} (meld/discard): {who} has drawn, may meld and lay off, then discards."
    window = view["jump_window"]
    return (
        f"{turn} (jump-in window): {_name(names, window['discarder'])} discarded {window['domino']};"
        f" waiting for {_names(names, window['waiting'])}."
    )


def player_lines(view: Mapping[str, Any], names: Sequence[str], labels: Sequence[str]) -> list[str]:
    """One line per seat: to act, hand size (or still selecting), total, what all saw of the hand.

    With ``partners`` a seat's line has no total: the teams' scores (one per
    team, the sum of its seats' totals) follow on one line.
    """
    claimed = {c["claimed_by"]: c["column"] for c in view["columns"] if c["claimed_by"] is not None}
    to_act = set(view["to_act"])
    window = view.get("jump_window")
    who = [f"{n} ({labels[s]})" if s < len(labels) and labels[s] else n for s, n in enumerate(names)]
    width = max(len(w) for w in who)
    lines = ["Players:"]
    for seat, text in enumerate(who):
        parts = [f"{'>' if seat in to_act else ' '} {text:<{width}}"]
        if seat in claimed:
            parts.append(f"hand {view['hand_sizes'][seat]:>2} (column {screen_number(claimed[seat])})")
        else:
            parts.append("selecting")
        if not view.get("teams"):
            parts.append(f"total {signed(int(view['totals'][seat]))}")
        if window is not None and seat in window["answered"]:
            parts.append("answered")
        known = view["hand_known"][seat]
        if known and seat != view.get("seat"):
            parts.append(f"seen in hand: {' '.join(known)}")
        lines.append("  " + "  ".join(parts))
    teams = view.get("teams")
    team_totals = view.get("team_totals")
    if teams and team_totals is not None:
        scores = [
            f"{' and '.join(names[s] for s in team)}: {signed(int(total))}"
            for team, total in zip(teams, team_totals, strict=True)
        ]
        lines.append(f"Teams: {' | '.join(scores)}")
    return lines


def columns_lines(view: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The columns: a numbered grid in the selection round, else each conveyor with its two ends."""
    legend = "?? face down, [3-5] face up"
    if view["phase"] == SELECT:
        return [f"Columns (cells numbered from 1 at the top; {legend}):", *selection_grid(view, names, style)]
    lines = [f"Conveyors (draw at the `top` or `bottom` end; {legend}):"]
    lines += [part for c in view["columns"] for part in column_lines(c, names, style)]
    return lines


def next_step_line(view: Mapping[str, Any]) -> str:
    """What the seat whose view this is may do now, in one line."""
    seat = view.get("seat")
    phase = view["phase"]
    if seat is None or seat not in view["to_act"]:
        return "Waiting for the other players."
    if phase == SELECT:
        if not any(isinstance(a, Reveal) for a in actions_from_view(view)):
            return "Nothing is face down in the unclaimed columns: you must `claim COLUMN`."
        return "Your move: `reveal COLUMN CELL` or `claim COLUMN` (`moves` lists them, `help` the commands)."
    if phase == DRAW:
        conveyors = ", ".join(str(screen_number(c)) for c in view["conveyors"])
        return f"Your move: `draw COLUMN top` or `draw COLUMN bottom` (conveyors: {conveyors})."
    if phase == PLAY:
        drawn = view["drawn"]
        how = "by jumping in" if drawn["jumped"] else f"({'face up' if drawn['face_up'] else 'face down'})"
        return (
            f"You took {drawn['domino']} {how} from the {drawn['end']} of column {screen_number(drawn['column'])}."
            f" Now `meld`, `layoff`, then `discard DOMINO`: it goes to the {drawn['discard_end']}"
            f" of column {screen_number(drawn['column'])}."
        )
    if phase == JUMP:
        domino = view["jump_window"]["domino"]
        if view["options"].get("jump_in_only_on_completion"):
            claim = f"`jump {domino} with D D` (naming the dominoes of your hand it completes a meld with)"
        else:
            claim = f"`jump {domino}` (Mine!)"
        return f"Claim the discard {domino} with {claim}, or `decline`."
    return "The game is over."


def screen_lines(
    view: Mapping[str, Any], names: Sequence[str], labels: Sequence[str], style: Style, order: str = DEFAULT_ORDER
) -> list[str]:
    """The whole game as the seat whose view this is sees it."""
    lines = [header_line(view, names), *player_lines(view, names, labels), *columns_lines(view, names, style)]
    if view["phase"] != SELECT or view["melds"]:
        lines += meld_lines(view, names, style)
    if view.get("hand"):
        seat = int(view["seat"])
        lines += hand_lines(view["hand"], order, style, view["hand_known"][seat])
    lines.append(next_step_line(view))
    return style.fit(lines)


# -- events ------------------------------------------------------------------------


def describe_event(
    event: Mapping[str, Any], names: Sequence[str], style: Style, **_ignored: Any
) -> list[str]:
    """Lines describing one conveyor event as a seat sees it (``Event.seen_by``); ``[]`` if nothing to say.

    Only what the event dict holds is printed: a spectator's view of an event
    (``seen_by(None)``) names no face-down domino and no hand. Lines are laid
    out to the style's width.
    """
    return style.fit(_describe(event, names, style))


def _describe(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "first-player":
        return [f"{who} is drawn by lot to select first."]
    if kind == "layout":
        columns = list(event.get("columns", []))
        length = len(columns[0]) if columns else 0
        up = [f"column {screen_number(i)}: {' '.join(x for x in c if x != FACE_DOWN)}" for i, c in enumerate(columns)]
        return [
            style.bold(
                f"Round {event.get('round', 1)}: {plural(len(columns), 'column')} of {plural(length, 'domino')} laid out"
                f" face down; {_name(names, event.get('first'))} selects first."
            ),
            f"  face up: {'; '.join(up)}",
        ]
    if kind == "reveal":
        return [f"{who} reveals {event['domino']} (column {screen_number(event['column'])}, cell {screen_number(event['index'])})"]
    if kind == "claim":
        seen = event.get("face_up") or []
        seen_text = f"; seen face up: {' '.join(seen)}" if seen else ""
        lines = [f"{who} claims column {screen_number(event['column'])} as a hand of {plural(int(event['size']), 'domino')}{seen_text}"]
        if "hand" in event:
            lines.append(f"  {who}'s hand: {' '.join(event['hand'])}")
        return lines
    if kind == "play-starts":
        conveyors = ", ".join(str(screen_number(c)) for c in event.get("conveyors", []))
        return [style.bold(f"Everyone has claimed; {who} plays first. Conveyors: columns {conveyors}.")]
    if kind == "draw":
        where = f"from the {event['end']} of column {screen_number(event['column'])}"
        if event.get("face_up"):
            return [f"{who} draws {event['domino']} (face up) {where}"]
        if "domino" in event:
            return [f"{who} draws {event['domino']} (face down) {where}"]
        return [f"{who} draws a face-down domino {where}"]
    if kind == "meld" or kind in MELD_KINDS:
        meld = _event_meld(event)
        shown = meld["layout"] if meld["kind"] == LINE and meld.get("layout") else " ".join(meld["dominoes"])
        what = "lays down a closing line" if meld["kind"] == LINE else f"melds a {meld_kind(meld)}"
        royal = ", royal" if meld.get("royal") else ""
        return [f"{who} {what}: {shown} (meld {screen_number(meld['index'])}{royal}; {_left(meld)})"]
    if kind == "layoff":
        return [
            f"{who} lays off {event['domino']} at the {event['end']} end of meld {screen_number(event['meld'])}:"
            f" {' '.join(event['dominoes'])} ({_left(event)})"
        ]
    if kind == "discard":
        milled = ", milled" if event.get("milled") else ""
        return [f"{who} discards {event['domino']} to the {event['end']} of column {screen_number(event['column'])} ({_left(event)}{milled})"]
    if kind == "close":
        how = {
            "discard": "by discarding the last domino",
            "pickup": "on the pickup (nothing left to discard)",
            "line": "with the hand as one line of play",
        }.get(str(event.get("how")), str(event.get("how")))
        return [style.bold(f"{who} closes {how}!")]
    if kind == "jump-window":
        return [
            f"Jump-in window: {_name(names, event.get('discarder'))}'s discard {event['domino']}"
            f" ({event['end']} of column {screen_number(event['column'])}) may be claimed."
        ]
    if kind == "jump-answer":
        claim = event.get("claim", False)
        if claim is False:
            return [f"{who} has answered (answers stay sealed until all are in)"]
        return [f"{who} answers: {'decline' if claim is None else claim}"]
    if kind == "jump-resolved":
        claimers = list(event.get("claimers", []))
        if event.get("winner") is None:
            return [f"Nobody claims {event['domino']}."]
        if len(claimers) == 1:
            return [f"{_name(names, event['winner'])} claims {event['domino']} (Mine!)."]
        return [
            f"{_name(names, event['winner'])} wins the claim for {event['domino']}"
            f" (claimed by {_names(names, claimers)}; the nearest after the discarder wins)."
        ]
    if kind == "jump":
        return [f"{who} jumps in: takes {event['domino']} from the {event['end']} of column {screen_number(event['column'])}"]
    if kind == "round-end":
        return round_end_lines(event, names, style)
    if kind == "match-end":
        return match_end_lines(event, names, style)
    if kind == "position":
        # the position string holds every hand and every face-down domino: never printed
        return ["The game starts from a set position (the start of a turn)."]
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("kind", "player"))
    return [f"{who} {kind}: {rest}" if event.get("player") is not None else f"{kind}: {rest}"]


MELD_KINDS = (RUN, PAIRS, SUM, LINE)


def _event_meld(event: Mapping[str, Any]) -> dict[str, Any]:
    """A ``meld`` event as a meld: the game puts the meld's kind under ``meld_kind``.

    >>> _event_meld({'kind': 'meld', 'meld_kind': 'sum', 'dominoes': ['0-8']})['kind']
    'sum'
    """
    meld = dict(event)
    if "meld_kind" in meld:
        meld["kind"] = meld.pop("meld_kind")
    elif meld.get("kind") not in MELD_KINDS:
        meld["kind"] = LINE if meld.get("layout") else "meld"
    return meld


def _left(event: Mapping[str, Any]) -> str:
    return f"{plural(int(event.get('hand_size', 0)), 'domino')} left"


REASONS = {
    "closed": "closed",
    "max-turns": "nobody closed within the turn limit (max_turns): no score",
    "target": "reached the target total",
    "max-rounds": "the round limit (max_rounds) was reached",
}


def round_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of a round: who closed, what scored, every seat's score and total."""
    reason = str(event.get("reason"))
    if reason == "closed":
        winners = list(event.get("winners", []))
        team = f"; {' and '.join(_name(names, w) for w in winners)} win the round" if len(winners) > 1 else ""
        head = f"Round {event.get('round', 1)} over: {_name(names, event.get('closer'))} closed{team}."
    else:
        head = f"Round {event.get('round', 1)} over: {REASONS.get(reason, reason)}."
    lines = [style.bold(head)]
    for m in event.get("melds", []):
        royal = " (royal)" if m.get("royal") else ""
        lines.append(f"  scores meld {screen_number(m['index'])}, {meld_kind(m)}: {' '.join(m['dominoes'])}  {m['score']}{royal}")
    if "dominoes_left" in event:
        lines.append(f"  + {plural(int(event['dominoes_left']), 'domino')} left in the opponents' hands")
    return lines + score_lines(event, names)


def match_end_lines(event: Mapping[str, Any], names: Sequence[str], style: Style) -> list[str]:
    """The end of the game: the winners, why, and the final totals (:func:`~rummykit.presenters.text.game_over_lines`)."""
    return game_over_lines(event, names, style, REASONS)


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


class ConveyorTurn:
    """One person at the keyboard: typed commands turned into conveyor actions.

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
        self._say = say
        self.style = style
        self.names = list(view["players"])
        self.labels = list(labels)
        self.order = _order(order)
        self.echo = True
        """Kept for the :class:`~rummykit.presenters.base.Turn` interface: a conveyor turn drafts nothing."""

    def board(self) -> None:
        """None: a conveyor turn applies each step at once, with no free-table draft."""
        return None

    @property
    def label(self) -> str:
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

    def say(self, *lines: str) -> None:
        """Show lines (screens, hands and lists come laid out to the width; a refusal stays one line)."""
        self._say(*lines)

    # -- commands -------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command (see :func:`help_lines`)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        if verb == "lay" and args and args[0].lower() == "off":
            verb, args = "layoff", args[1:]
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

    def _action(self, verb: str, args: Sequence[str]) -> Action:
        """The game's action for ``verb args`` (the game's parser says what is malformed)."""
        return self.parse_action(" ".join([str(self.seat), verb, *args]))

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.view["options"], self.style.width))

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
        verb, args = words[0].lower(), list(words[1:])
        if verb == "lay" and args and args[0].lower() == "off":
            verb, args = "layoff", args[1:]
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
class ConveyorPresenter:
    """The conveyor presenter (one object, :data:`PRESENTER`)."""

    words: Vocabulary = WORDS
    orders: Sequence[str] = tuple(ORDERS)
    playable: bool = True
    hint: bool = False
    solver: Solver | None = None
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
        names = list(view["players"])
        return style.fit([header_line(view, names), *player_lines(view, names, labels)])

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The columns (conveyors) and the melds."""
        names = list(view["players"])
        lines = columns_lines(view, names, style)
        if view["phase"] != SELECT or view["melds"]:
            lines += meld_lines(view, names, style)
        return style.fit(lines)

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's hand (nothing before it has claimed a column, or for a spectator)."""
        if not view.get("hand"):
            return []
        seat = int(view["seat"])
        return hand_lines(view["hand"], _order(order), style, view["hand_known"][seat])

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """See :func:`screen_lines`."""
        return screen_lines(view, list(view["players"]), labels, style, _order(order))

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows(view["options"])

    def help_lines(self, view: View, style: Style | None = None) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(view["options"], style.width if style else 0)

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
    ) -> ConveyorTurn:
        """A :class:`ConveyorTurn` for the seat whose view this is."""
        return ConveyorTurn(
            view, parse_action=parse_action or INFO.parse_action, say=say, style=style, labels=labels, order=order
        )

    def hint_lines(self, view: View) -> list[str]:
        """Conveyor has no solver: no hint."""
        return []

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return style.fit(round_end_lines(event, names, style))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`match_end_lines`."""
        return style.fit(match_end_lines(outcome, names, style))


PRESENTER: Presenter = ConveyorPresenter()
