"""What the free-table presenters share: the game's kit, status lines, racks, events and round ends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rummykit.blocks.table import TableDraft
from rummykit.engine.core import Action
from rummykit.presenters.base import View, Vocabulary
from rummykit.presenters.changes import moved_text, table_changes
from rummykit.presenters.text import (
    MOVED,
    NEW,
    Style,
    compact_table,
    details,
    fit,
    other_event_lines,
    plural,
    rack_line,
    score_lines,
    seat_name,
    signed,
)

P = TypeVar("P")

REASONS = {
    "rack-empty": "went out",
    "blocked": "had the lowest rack total; the {pool} was empty and nobody could play",
    "target": "reached the target total",
}
"""How a free-table round or match ends, in words (``{pool}``: the game's name for its pool)."""

TILE_WORDS = Vocabulary(piece="tile", pieces="tiles", reasons=REASONS)


# -- what the drafting commands need from a game -------------------------------------


@dataclass(frozen=True)
class TableKit(Generic[P]):
    """The game-specific parts of a free-table game's commands.

    ``orders`` maps a sort name to a function that groups a rack's pieces for
    display (each group sorted); ``aliases`` maps other spellings to those
    names. ``penalty`` is the number of pieces drawn for committing an invalid
    table on purpose (``None``: such a commit is simply refused, no penalty
    command). ``reminder`` gives a line for the seat from its view (or None).
    """

    words: Vocabulary
    parse_pieces: Callable[[str], list[P]]
    draft_from_view: Callable[[View], TableDraft[P]]
    draft_action: Callable[..., Action]
    orders: Mapping[str, Callable[[Sequence[P]], list[list[P]]]]
    aliases: Mapping[str, str] = field(default_factory=dict)
    penalty: int | None = None
    reminder: Callable[[View], str | None] = lambda view: None
    example: str = ""
    best_play: Callable[[View], list[str]] | None = None
    """The best play as steps for a person (the ``hint`` command), where the game has a solver."""
    best_table: Callable[[View], list[list[str]] | None] | None = None
    """The table the best play would leave, its sets numbered as the hint numbers them (None: no play),
    for an interface that highlights the hint on the table."""
    rules: tuple[str, ...] = ()
    """The rules in brief, a short paragraph per entry (``rummykit rules``)."""
    notation: tuple[str, ...] = ()
    """What the pieces' notation means, a sentence per entry (``rummykit rules``)."""

    @property
    def default_order(self) -> str:
        """The first sort order."""
        return next(iter(self.orders))

    def order_or_default(self, order: str | None) -> str:
        """``order`` if it is one of the kit's sort orders, else the default one."""
        return order if order is not None and order in self.orders else self.default_order


def grouped(pieces: Sequence[P], key: Callable[[P], Any], sort: Callable[[P], Any]) -> list[list[P]]:
    """Pieces sorted by ``sort`` and grouped by ``key``, the groups in order of appearance.

    >>> grouped([3, 11, 2, 12], key=lambda n: n // 10, sort=lambda n: n)
    [[2, 3], [11, 12]]
    """
    groups: dict[Any, list[P]] = {}
    for p in sorted(pieces, key=sort):
        groups.setdefault(key(p), []).append(p)
    return list(groups.values())


# -- views and events -----------------------------------------------------------------


def status_lines(view: View, labels: Sequence[str], style: Style, words: Vocabulary = TILE_WORDS) -> list[str]:
    """Round, pool size and one line per player (pieces held, down or not), from a view.

    Keys a view lacks are left out; ``labels`` adds a note per seat (``you``, ``bot greedy``).
    """
    players: list[str] = list(view.get("players", []))
    head = []
    if "round" in view:
        head.append(f"Round {view['round']}")
    if "turn_number" in view:
        head.append(f"turn {view['turn_number']}")
    if "pool_size" in view:
        head.append(f"{words.pool}: {plural(int(view['pool_size']), words.piece)}")
    out = [", ".join(head)] if head else []
    sizes = view.get("rack_sizes")
    down = view.get("down")
    totals = view.get("totals")
    turn = view.get("turn")
    name_width = max((len(p) + (len(lbl) + 3 if lbl else 0) for p, lbl in zip(players, labels, strict=False)), default=0)
    for seat, name in enumerate(players):
        label = labels[seat] if seat < len(labels) else ""
        who = f"{name} ({label})" if label else name
        parts = [f"{'>' if seat == turn else ' '} {who:<{name_width}}"]
        if sizes is not None:
            parts.append(f"{plural(int(sizes[seat]), words.piece):>11}")
        if down is not None:
            parts.append("down" if down[seat] else "not down yet")
        if totals is not None and view.get("rounds"):
            parts.append(f"total {signed(int(totals[seat]))}")
        out.append("  " + "  ".join(parts))
    return out


def describe_event(
    event: View,
    names: Sequence[str],
    style: Style,
    *,
    words: Vocabulary = TILE_WORDS,
    show_table: bool = True,
    before: Sequence[Sequence[str]] | None = None,
    legend: bool = False,
) -> list[str]:
    """Lines describing one event as a seat sees it (``Event.seen_by``), or ``[]`` if nothing to say.

    Only what the event dict holds is printed: pass a spectator's view of an
    event (``seen_by(None)``) to print it for everyone. Given the table
    ``before`` a play, the table after it marks what the play changed (see
    :mod:`~rummykit.presenters.changes`) and a line says which pieces moved;
    ``legend`` adds a line that explains the marks.

    >>> before = [['R1', 'R2', 'R3'], ['K4', 'K5', 'K6', 'K7']]
    >>> play = {'kind': 'play', 'player': 0, 'placed': ['R4', 'B4', 'O4'], 'rack_size': 9,
    ...         'table': [['R1', 'R2', 'R3', 'R4'], ['K5', 'K6', 'K7'], ['K4', 'B4', 'O4']]}
    >>> for line in describe_event(play, ['ann', 'bob'], Style(), before=before, legend=True):
    ...     print(line)
    ann plays R4 B4 O4 onto the table; 9 tiles left
        moved: K4 from set 2 to set 3
        table: [1] R1 R2 R3 +R4  [2] K5 K6 K7  [3] *K4 +B4 +O4
        (+ placed from the rack, * moved from another set)
    """
    return style.fit(_describe(event, names, style, words, show_table, before, legend))


LEGEND = f"({NEW} placed from the rack, {MOVED} moved from another set)"
"""What the change marks mean (said with the first marked table)."""


def _describe(
    event: View,
    names: Sequence[str],
    style: Style,
    words: Vocabulary,
    show_table: bool,
    before: Sequence[Sequence[str]] | None,
    legend: bool,
) -> list[str]:
    kind = str(event.get("kind"))
    who = seat_name(names, event.get("player"))
    if kind == "first-draw":
        drawn = event.get("tiles", {})
        parts = [f"{seat_name(names, int(seat))} {style.piece(str(t))}" for seat, t in drawn.items()]
        return [f"Drawing for the first turn: {', '.join(parts)}"]
    if kind == "first-player":
        if event.get("by") == "lot":
            return [f"{who} is drawn by lot to play first."]
        return [f"{who} drew the highest {words.piece} and plays first."]
    if kind == "deal":
        first = seat_name(names, event.get("first"))
        size = event.get("rack_size")
        each = f": {plural(int(size), words.piece)} each" if size is not None else ""
        return [style.bold(f"Round {event.get('round', 1)} dealt{each}; {first} plays first.")]
    if kind == "rack":
        if "rack" not in event:
            return []
        return [f"{who}'s {words.rack}: {style.pieces(event['rack'])}"]
    if kind == "draw":
        drawn = next((event[k] for k in ("piece", "tile", "domino") if k in event), None)
        where = details(event, skip=("kind", "player", "piece", "tile", "domino", "pool_size"))
        if "pool_size" in event:
            where = f"{where}, " if where else ""
            where += f"{words.pool}: {event['pool_size']}"
        where = f" ({where})" if where else ""
        if drawn is not None:
            return [f"{who} draws {style.piece(str(drawn))}{where}"]
        return [f"{who} draws a {words.piece}{where}"]
    if kind == "pass":
        return [f"{who} passes (the {words.pool} is empty)"]
    if kind == "play":
        placed = style.pieces(event.get("placed", []))
        note = f" ({words.opening})" if event.get("opening", event.get("initial_meld")) else ""
        left = event.get("rack_size")
        tail = f"; {plural(int(left), words.piece)} left" if left is not None else ""
        lines = [f"{who} plays {placed} onto the table{note}{tail}"]
        if show_table and "table" in event:
            marks = None
            if before is not None:
                change = table_changes(before, event["table"], event.get("placed", []))
                marks = change.marks
                moved = moved_text(change)
                if moved:
                    lines += style.fit([f"    moved: {moved}"], hang=11)
                legend = legend and change.any
            lines += compact_table(event["table"], style, marks=marks)
            if before is not None and legend:
                lines.append(f"    {LEGEND}")
        return lines
    if kind == "penalty":
        n = int(event.get("drawn", 0))
        why = f" ({event['reason']})" if "reason" in event else ""  # the player's own: the reason is secret
        lines = [
            f"{who} committed an invalid table{why}:"
            f" the table is restored and {who} draws {plural(n, 'penalty ' + words.piece)}"
        ]
        drawn_pieces = event.get("pieces", event.get("tiles"))
        if drawn_pieces is not None:
            lines.append(f"    drawn: {style.pieces(drawn_pieces)}")
        return lines
    if kind == "round-end":
        return round_end_lines(event, names, style, words)
    if kind == "match-end":
        return outcome_lines(event, names, style, words)
    return other_event_lines(event, who, turn_start=False)


def _winners(outcome: View, names: Sequence[str]) -> str:
    winners = [seat_name(names, w) for w in outcome.get("winners", [])]
    return " and ".join(winners) if winners else "nobody"


def round_end_lines(event: View, names: Sequence[str], style: Style, words: Vocabulary = TILE_WORDS) -> list[str]:
    """The end of a round: who won it and why, the scores and what each rack held."""
    reason = words.reason(event.get("reason"))
    head = f"Round {event.get('round', 1)} over: {_winners(event, names)} {reason}."
    return [style.bold(head), *score_lines(event, names, racks=event.get("racks"), style=style)]


def outcome_lines(outcome: View, names: Sequence[str], style: Style, words: Vocabulary = TILE_WORDS) -> list[str]:
    """The final result of a match: winners and final scores.

    >>> outcome_lines({'winners': [0], 'reason': 'rack-empty', 'scores': [5, -5]}, ['ann', 'bob'], Style())[0]
    'Game over: ann wins (went out).'
    """
    winners = list(outcome.get("winners", []))
    verb = "wins" if len(winners) == 1 else "win"
    lines = [style.bold(f"Game over: {_winners(outcome, names)} {verb} ({words.reason(outcome.get('reason'))}).")]
    lines.append("Final scores:")
    lines += score_lines(outcome, names)
    return lines



def rack_text(kit: TableKit[P], rack: Sequence[P], order: str, style: Style) -> str:
    """``Your rack (by colour): ...  [14 tiles]``: a rack grouped in one of the kit's orders, on one line."""
    groups = kit.orders[order](rack)
    text = rack_line([[str(p) for p in g] for g in groups], style)
    return f"Your {kit.words.rack} (by {order}): {text or '(empty)'}  [{kit.words.count(len(rack))}]"


def rack_lines(kit: TableKit[P], rack: Sequence[P], order: str, style: Style) -> list[str]:
    """:func:`rack_text` laid out to the style's width: the pieces go on under the first one.

    When the heading takes more than half the width, the pieces start on the
    next line instead.
    """
    line = rack_text(kit, rack, order, style)
    head = len(f"Your {kit.words.rack} (by {order}): ")
    if style.width and head > style.width // 2:
        first, _, rest = line.partition(": ")
        return [f"{first}:", *fit(f"    {rest}", style.width, 4)]
    return fit(line, style.width, head)
