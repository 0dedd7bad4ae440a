"""Conveyor drawn for a seat: the columns, the melds, the hand, the status and what to do next."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.engine.commands import SHOWN_FROM

# Constants only (the names of meld kinds and meld ends): every judgement is the game's.
from rummykit.melds.conveyor import LINE, PAIRS, RUN, SUM
from rummykit.pieces.dominoes import Domino
from rummykit.presenters.text import (
    Style,
    fit,
    plural,
    rack_line,
    seat_name,
    signed,
    visible_len,
)
from rummykit.rulesets.conveyor import (
    DRAW,
    GAME_ID,
    JUMP,
    OVER,
    PLAY,
    SELECT,
    UNKNOWN,
    Reveal,
    actions_from_view,
)
from rummykit.rulesets.conveyor.views import ColumnView, ConveyorView

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



def _order(order: str | None) -> str:
    return order if order is not None and order in ORDERS else DEFAULT_ORDER


def _grouped(dominoes: Sequence[Domino], key: Callable[[Domino], int]) -> list[list[Domino]]:
    groups: dict[int, list[Domino]] = {}
    for d in dominoes:
        groups.setdefault(key(d), []).append(d)
    return list(groups.values())


def screen_number(number: int) -> int:
    """A column, cell or meld number of a view, event or action (from 0) as people count it (from 1)."""
    return int(number) + SHOWN_FROM


def _name(names: Sequence[str], seat: object) -> str:
    return seat_name(names, seat, "nobody")


def _names(names: Sequence[str], seats: Sequence[object]) -> str:
    return ", ".join(_name(names, s) for s in seats) if seats else "nobody"


# -- pieces, columns and melds -------------------------------------------------------


def cell_text(cell: str, style: Style) -> str:
    """One cell of a column: ``??`` face down, ``[3-5]`` face up (bold with colour on).

    >>> cell_text('??', Style()), cell_text('3-5', Style())
    ('??', '[3-5]')
    """
    return cell if cell == FACE_DOWN else style.bold(f"[{cell}]")


def column_line(column: ColumnView, names: Sequence[str], style: Style) -> str:
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


def column_lines(column: ColumnView, names: Sequence[str], style: Style) -> list[str]:
    """:func:`column_line` laid out to the style's width, the cells going on under the first one."""
    line = column_line(column, names, style)
    return fit(line, style.width, len(f"  column {screen_number(column['column'])}  top "))


def selection_grid(view: ConveyorView, names: Sequence[str], style: Style) -> list[str]:
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
        numbers = " ".join(f"{i + SHOWN_FROM:^{width}}" for i in range(start, stop))
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


def meld_kind(kind: str, pieces: Sequence[str]) -> str:
    """A meld's kind in words, from its kind and pieces: ``run of 5s``, ``run of pairs``, ``sum of 8``, ``line``.

    >>> meld_kind('run', ['3-5', '4-5', '5-5']), meld_kind('sum', ['0-8'])
    ('run of 5s', 'sum of 8')
    """
    dominoes = [Domino.parse(x) for x in pieces]
    if kind == RUN and len(dominoes) >= 2:
        a, b = dominoes[0], dominoes[1]
        return f"run of {a.low if b.has(a.low) else a.high}s"
    if kind == PAIRS:
        return "run of pairs"
    if kind == SUM and dominoes:
        return f"sum of {dominoes[0].pips}"
    if kind == LINE:
        return "line"
    return kind


def meld_lines(view: ConveyorView, names: Sequence[str], style: Style) -> list[str]:
    """Every meld on the table: number, owner, kind, dominoes (low end first), worth."""
    melds = list(view["melds"])
    if not melds:
        return ["Melds: none on the table yet."]
    lines = ["Melds (`low` end on the left, `high` on the right; each scores for its owner):"]
    name_w = max(len(_name(names, m["owner"])) for m in melds)
    kinds = [meld_kind(m["kind"], m["pieces"]) for m in melds]
    kind_w = max(len(k) for k in kinds)
    num_w = len(str(len(melds)))
    shown = [m["layout"] if m["kind"] == LINE and m["layout"] else " ".join(m["pieces"]) for m in melds]
    hang = 2 + num_w + 2 + name_w + 2 + kind_w + 2
    # the worth lines up after the dominoes when every line fits; otherwise it follows them
    shown_w = max(len(x) for x in shown)
    aligned = not style.width or hang + shown_w + 2 + len("worth 999 (royal)") <= style.width
    for m, kind, text in zip(melds, kinds, shown, strict=True):
        worth = f"worth {m['score']}" + (" (royal)" if m.get("royal") else "")
        dominoes = f"{text:<{shown_w}}" if aligned else text
        line = (
            f"  {screen_number(m['index']):>{num_w}}  {_name(names, m['owner']):<{name_w}}  {kind:<{kind_w}}"
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


def header_line(view: ConveyorView, names: Sequence[str]) -> str:
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
    assert window is not None, "the jump-in window is open in its phase"
    return (
        f"{turn} (jump-in window): {_name(names, window['discarder'])} discarded {window['piece']};"
        f" waiting for {_names(names, window['waiting'])}."
    )


def player_lines(view: ConveyorView, names: Sequence[str], labels: Sequence[str]) -> list[str]:
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


def columns_lines(view: ConveyorView, names: Sequence[str], style: Style) -> list[str]:
    """The columns: a numbered grid in the selection round, else each conveyor with its two ends."""
    legend = "?? face down, [3-5] face up"
    if view["phase"] == SELECT:
        return [f"Columns (cells numbered from 1 at the top; {legend}):", *selection_grid(view, names, style)]
    lines = [f"Conveyors (draw at the `top` or `bottom` end; {legend}):"]
    lines += [part for c in view["columns"] for part in column_lines(c, names, style)]
    return lines


def next_step_line(view: ConveyorView) -> str:
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
        conveyors = ", ".join(str(screen_number(c)) for c in view["open_columns"])
        return f"Your move: `draw COLUMN top` or `draw COLUMN bottom` (conveyors: {conveyors})."
    if phase == PLAY:
        drawn = view["drawn"]
        assert drawn is not None, "a drawn domino is in the view in the play phase"
        how = "by jumping in" if drawn["jumped"] else f"({'face up' if drawn['face_up'] else 'face down'})"
        return (
            f"You took {drawn['piece']} {how} from the {drawn['end']} of column {screen_number(drawn['column'])}."
            f" Now `meld`, `layoff`, then `discard DOMINO`: it goes to the {drawn['discard_end']}"
            f" of column {screen_number(drawn['column'])}."
        )
    if phase == JUMP:
        window = view["jump_window"]
        assert window is not None, "the jump-in window is open in its phase"
        domino = window["piece"]
        if view["options"].get("jump_in_only_on_completion"):
            claim = f"`jump {domino} with D D` (naming the dominoes of your hand it completes a meld with)"
        else:
            claim = f"`jump {domino}` (Mine!)"
        return f"Claim the discard {domino} with {claim}, or `decline`."
    return "The game is over."


def screen_lines(
    view: ConveyorView, names: Sequence[str], labels: Sequence[str], style: Style, order: str = DEFAULT_ORDER
) -> list[str]:
    """The whole game as the seat whose view this is sees it."""
    lines = [header_line(view, names), *player_lines(view, names, labels), *columns_lines(view, names, style)]
    if view["phase"] != SELECT or view["melds"]:
        lines += meld_lines(view, names, style)
    hand, seat = view.get("hand"), view["seat"]
    if hand and seat is not None:
        lines += hand_lines(hand, order, style, view["hand_known"][seat])
    lines.append(next_step_line(view))
    return style.fit(lines)
