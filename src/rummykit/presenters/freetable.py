"""What the free-table games (``rummikub``, ``domino-rummikub``...) share at an interface.

A person builds a turn in a :class:`DraftTurn`: typed commands (``new``,
``add``, ``move``, ``split``...) become operations on a
:class:`~rummykit.blocks.table.TableDraft`, which the game makes from the
seat's view and which reports what is still wrong with the table; ``commit``
turns the draft into the game's action. Whether a set is valid is the
draft's (the engine's) answer, never this module's.

Each game gives a :class:`TableKit` (how its pieces are parsed and sorted,
how its drafts are made and committed, its reminder and hint) and gets a
:class:`FreeTablePresenter`.

>>> style = Style()
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70}, ['ann', 'bob'], style)
['bob draws a tile (pool: 70)']
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70, 'piece': 'R5'}, ['ann', 'bob'], style)
['bob draws R5 (pool: 70)']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rummykit.blocks.table import TableDraft
from rummykit.engine.core import Action, GameInfo
from rummykit.errors import ParseError
from rummykit.presenters.base import Board, BoardSet, Quit, Say, Solver, View, Vocabulary
from rummykit.presenters.changes import moved_text, table_changes
from rummykit.presenters.text import (
    MOVED,
    NEW,
    HelpRow,
    Style,
    compact_table,
    details,
    fit,
    help_table,
    no_args,
    plural,
    rack_line,
    score_lines,
    seat_name,
    signed,
    table_lines,
    unknown_command,
    whole_number,
)

__all__ = [
    "LEGEND",
    "REASONS",
    "DraftTurn",
    "FreeTablePresenter",
    "TableKit",
    "TableNarrator",
    "describe_event",
    "outcome_lines",
    "round_end_lines",
    "status_lines",
]

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

    def order_name(self, text: str) -> str:
        """The sort order a person named (``ParseError`` if unknown)."""
        key = text.strip().lower()
        key = self.aliases.get(key, key)
        if key not in self.orders:
            raise ParseError(f"sort by {' or '.join(self.orders)}, not {text.strip()!r}")
        return key


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
    if kind == "position":
        return ["The game starts from a set position."]
    detail = details(event, skip=("kind", "player"))
    head = f"{who} {kind}" if event.get("player") is not None else kind
    return [f"{head}: {detail}" if detail else head]


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


# -- commands ----------------------------------------------------------------------


def help_rows(kit: TableKit[Any]) -> list[HelpRow]:
    """The drafting commands, worded for the kit's pieces."""
    piece, pieces, example = kit.words.piece, kit.words.plural, kit.example
    first = example.split()[0]
    rows = [
        (f"new {example}", f"make a new set from {pieces} in your {kit.words.rack}"),
        (f"add 2 {first}", f"add {pieces} from your {kit.words.rack} to set 2"),
        (f"move {first} 2 3", f"move {first} from set 2 to set 3 (`move {first} 2 new`: a new set)"),
        (f"back {first}", f"take a {piece} you placed this turn back to your {kit.words.rack}"),
        ("split 2 3", f"split set 2 before its 3rd {piece} (the rest becomes a new set at the end)"),
        ("merge 2 3", "put set 3 on the end of set 2 (set 3 stays empty until you commit)"),
        ("undo | reset", "undo the last step | start the turn again"),
        ("check", "list what is wrong with the table now"),
        ("commit (or done)", "end your turn with the table as it is"),
    ]
    if kit.penalty is not None:
        rows.append(("penalty", f"commit an invalid table anyway: it is restored, you draw {kit.penalty}"))
    if kit.best_play is not None:
        rows.append(("hint", "show the best play as steps (it plays nothing for you)"))
    rows += [
        ("draw | pass", f"draw a {piece} (ends the turn) | pass when none are left"),
        (f"sort {'|'.join(kit.orders)}", f"order your {kit.words.rack}"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]
    return rows


def help_lines(kit: TableKit[Any], width: int = 0) -> list[str]:
    """The command list, worded for the kit's pieces (laid out to ``width``)."""
    head = (
        f"Commands (set numbers start at 1 and keep their place all turn; new sets go at the end;"
        f" {kit.words.plural} are written like {kit.example}):"
    )
    return help_table(head, help_rows(kit), width)


class DraftTurn(Generic[P]):
    """One person's turn: a draft of the table driven by typed commands.

    :meth:`command` runs one line. It returns the :class:`Action` to commit
    (or ``None`` to keep drafting), raises :class:`~rummykit.errors.RummykitError`
    for bad input (the draft is unchanged), or :class:`Quit`.
    """

    label = "turn"

    def __init__(
        self,
        kit: TableKit[P],
        view: View,
        *,
        parse_action: Callable[[str], Action],
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
    ) -> None:
        self.kit = kit
        self.words = kit.words
        self.view = view
        self.seat = int(view["seat"])
        self.parse_action = parse_action
        self._say = say
        self.style = style
        self.labels = labels
        self.order = kit.order_or_default(order)
        self.draft: TableDraft[P] = kit.draft_from_view(view)
        self.ended_by: str | None = None
        """The command that produced the last action returned (``commit``, ``draw``...)."""
        self.echo = True
        """Say the draft table after each step (an interface drawing :meth:`board` itself turns it off)."""

    # -- screens ----------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Show lines (tables, racks and lists come laid out to the width; a refusal stays one line)."""
        self._say(*lines)

    def table_lines(self) -> list[str]:
        """The draft table with invalid sets and changed pieces marked, the placed pieces and the rack."""
        problems = self.draft.problems()
        faults = {p.index: p.reason for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = self.draft.placed()
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, [str(p) for p in placed])
        empty = "(empty: left out when you commit)"
        lines = ["Table:", *table_lines(sets, self.style, problems=faults, marks=change.marks, empty=empty)]
        if change.any:
            lines.append(f"  {LEGEND}")
        if placed:
            lines.append(f"Placed this turn: {self.style.pieces(str(p) for p in placed)}")
        if self.draft.changed or placed:
            if not problems:
                lines.append("Ready: `commit` ends your turn with this table.")
            else:
                for p in problems:
                    if p.index is None:
                        lines.append(self.style.warn(f"Not yet: {p.reason}"))
        lines += rack_lines(self.kit, self.draft.rack, self.order, self.style)
        return self.style.fit(lines)

    def board(self) -> Board:
        """The draft as data: every set with its change marks and the engine's reason when invalid,
        the rack in the seat's order, what is wrong with the turn, and whether it can be committed.

        >>> from rummykit.presenters.rummikub import KIT
        >>> from rummykit.rulesets.rummikub import INFO
        >>> view = INFO.new(players=2, seed=4).view(1)
        >>> turn = DraftTurn(KIT, view, parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.echo = False
        >>> turn.command('new R5 R6 K6')
        >>> board = turn.board()
        >>> board.sets[0].pieces, board.sets[0].marks, board.ready
        (('R5', 'R6', 'K6'), ('+', '+', '+'), False)
        >>> board.sets[0].problem.endswith('(rule RK-SET-KIND)')
        True
        """
        problems = self.draft.problems()
        faults = {p.index: f"{p.reason} (rule {p.rule})" for p in problems if p.index is not None}
        sets = [[str(p) for p in s] for s in self.draft.sets]
        placed = [str(p) for p in self.draft.placed()]
        before = [[str(p) for p in s] for s in self.draft.original_sets]
        change = table_changes(before, sets, placed)
        rack = tuple(str(p) for group in self.kit.orders[self.order](self.draft.rack) for p in group)
        return Board(
            sets=tuple(
                BoardSet(i + 1, tuple(s), tuple(change.marks[i]), faults.get(i)) for i, s in enumerate(sets)
            ),
            rack=rack,
            placed=tuple(placed),
            problems=tuple(f"{p.reason} (rule {p.rule})" for p in problems if p.index is None),
            ready=not problems,
            changed=self.draft.changed or bool(placed),
        )

    def hint_sets(self) -> list[list[str]] | None:
        """The table the best play would leave (as :meth:`board` numbers sets; None: no play, or no
        solver): the sets of the ``hint``, as data. It plays nothing."""
        if self.kit.best_table is None:
            return None
        return self.kit.best_table(self.view)

    def screen(self) -> list[str]:
        """Everything: status of every seat, the table, the rack and a reminder."""
        lines = status_lines(self.view, self.labels, self.style, self.words)
        lines += self.table_lines()
        reminder = self.kit.reminder(self.view)
        if reminder and not self.draft.placed():
            lines.append(reminder)
        return self.style.fit(lines)

    def accepted(self) -> list[str]:
        """A note when a draw or pass put unfinished moves back."""
        if self.ended_by in ("draw", "pass") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, view: View) -> list[str]:
        """A new view of the same seat: a fresh draft from it, and the whole screen."""
        self.view = view
        self.draft = self.kit.draft_from_view(view)
        self.ended_by = None
        return self.screen()

    # -- commands ---------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command (see :func:`help_lines`)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise unknown_command(words[0], str(self.view["game"]))
        action = handler(args)
        if action is not None:
            self.ended_by = verb
        return action

    def _handlers(self) -> dict[str, Callable[[list[str]], Action | None]]:
        h: dict[str, Callable[[list[str]], Action | None]] = {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "new": self._new,
            "add": self._add,
            "move": self._move,
            "back": self._back,
            "split": self._split,
            "merge": self._merge,
            "undo": self._undo,
            "reset": self._reset,
            "check": self._check,
            "commit": self._commit,
            "done": self._commit,
            "draw": self._draw,
            "pass": self._pass,
            "quit": self._quit,
            "exit": self._quit,
        }
        if self.kit.penalty is not None:
            h["penalty"] = self._penalty
        if self.kit.best_play is not None:
            h["hint"] = self._hint
        return h

    def _hint(self, args: list[str]) -> None:
        no_args("hint", args)
        assert self.kit.best_play is not None
        # the first line already says "hint:"; the steps below it are indented
        self.say(*self.style.fit(f"  {line}" for line in self.kit.best_play(self.view)))

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.kit, self.style.width))

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(self.kit.orders)}")
        self.order = self.kit.order_name(args[0])
        self.say(*rack_lines(self.kit, self.draft.rack, self.order, self.style))

    def _pieces(self, args: list[str], usage: str) -> list[P]:
        if not args:
            raise ParseError(f"usage: {usage}")
        return self.kit.parse_pieces(" ".join(args))

    def _changed(self) -> None:
        if self.echo:
            self.say(*self.table_lines())

    def _new(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"new {self.kit.example}")
        self.draft.new_set(pieces)
        self._changed()

    def _add(self, args: list[str]) -> None:
        usage = f"add SET {self.words.piece.upper()}... (e.g. add 2 {self.kit.example.split()[0]})"
        if len(args) < 2:
            raise ParseError(f"usage: {usage}")
        index = self._set_index(args[0])
        pieces = self._pieces(args[1:], usage)
        self.draft.add(index, pieces)
        self._changed()

    def _move(self, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 3:
            raise ParseError(f"usage: move {piece.upper()} FROM TO (TO may be `new`)")
        pieces = self.kit.parse_pieces(args[0])
        if len(pieces) != 1:
            raise ParseError(f"move one {piece} at a time, got {args[0]!r}")
        source = self._set_index(args[1])
        target = None if args[2].lower() == "new" else self._set_index(args[2])
        self.draft.move(pieces[0], source, target)
        self._changed()

    def _back(self, args: list[str]) -> None:
        pieces = self._pieces(args, f"back {self.words.piece.upper()}")
        if len(pieces) != 1:
            raise ParseError(f"take back one {self.words.piece} at a time")
        self.draft.take_back(pieces[0])
        self._changed()

    def _split(self, args: list[str]) -> None:
        piece = self.words.piece
        if len(args) != 2:
            raise ParseError(f"usage: split SET POSITION (split 2 3: before the 3rd {piece} of set 2)")
        index = self._set_index(args[0])
        size = len(self.draft.sets[index])
        before = whole_number(args[1], "a position")
        if not 2 <= before <= size:
            if not size:
                raise ParseError(f"set {index + 1} is empty: nothing to split")
            if size < 2:
                raise ParseError(f"set {index + 1} has only {plural(size, piece)}: nothing to split")
            raise ParseError(f"set {index + 1} has {plural(size, piece)}: split it before {piece} 2..{size}")
        self.draft.split(index, before - 1)
        self._changed()

    def _merge(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: merge SET SET (merge 2 3: put set 3 on the end of set 2)")
        self.draft.merge(self._set_index(args[0]), self._set_index(args[1]))
        self._changed()

    def _undo(self, args: list[str]) -> None:
        no_args("undo", args)
        self.draft.undo()
        self._changed()

    def _reset(self, args: list[str]) -> None:
        no_args("reset", args)
        if not self.draft.changed and not self.draft.placed():
            raise ParseError("nothing to reset: the table is as the turn began")
        self.draft.reset()
        self._changed()

    def _check(self, args: list[str]) -> None:
        no_args("check", args)
        problems = self.draft.problems()
        if not problems:
            self.say("The table is valid: `commit` ends your turn with it.")
        else:
            self.say(*self.style.fit((f"  {p}" for p in problems), hang=4))

    def _commit(self, args: list[str]) -> Action | None:
        no_args("commit", args)
        if not self.draft.placed():
            raise ParseError(f"nothing placed from your {self.words.rack} yet: place {self.words.plural}, or `draw`")
        problems = self.draft.problems()
        if problems:
            if self.kit.penalty is not None:
                anyway = f"fix it, or `penalty` commits anyway (table restored, you draw {self.kit.penalty})"
            else:
                anyway = "fix it, `reset`, or `draw`"
            # laid out to the width like every other line of the turn (as two-tray says it)
            if len(problems) == 1:
                self.say(*self.style.fit([f"! Cannot commit: {problems[0]}; {anyway}."], hang=4))
            else:
                self.say(*self.style.fit([f"! Cannot commit, {len(problems)} problems ({anyway}):"], hang=4))
                self.say(*self.style.fit((f"    {p}" for p in problems), hang=6))
            return None
        return self.kit.draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        no_args("penalty", args)
        return self.kit.draft_action(self.seat, self.draft, accept_penalty=True)

    def _draw(self, args: list[str]) -> Action:
        no_args("draw", args)
        return self.parse_action(f"{self.seat} draw")

    def _pass(self, args: list[str]) -> Action:
        no_args("pass", args)
        return self.parse_action(f"{self.seat} pass")

    def _quit(self, args: list[str]) -> None:
        raise Quit

    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The commands; after one, the pieces it takes: the rack's left (``new``, ``add N``), the
        table's (``move``), those placed this turn (``back``); ``new`` as a target; the sort orders.

        >>> from rummykit.presenters.rummikub import KIT
        >>> from rummykit.rulesets.rummikub import INFO
        >>> view = INFO.new(players=2, seed=4).view(1)
        >>> turn = DraftTurn(KIT, view, parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.completions([])[:6]
        ['add', 'back', 'check', 'commit', 'done', 'draw']
        >>> turn.completions(['new', 'k10'])
        ['K2', 'K6', 'B6', 'B8', 'B10', 'O1', 'R3', 'R5', 'R6', 'R9', 'R10', 'R11', 'R13']
        >>> turn.completions(['sort'])
        ['colour', 'number']
        """
        if not words:
            return sorted(verb for verb in self._handlers() if verb.isalpha())
        verb, args = words[0].lower(), list(words[1:])
        if verb == "new":
            return self._rack_left(args)
        if verb == "add" and args:
            return self._rack_left(args[1:])
        if verb == "move" and not args:
            return list(dict.fromkeys(str(p) for s in self.draft.sets for p in s))
        if verb == "move" and len(args) == 2:
            return ["new"]
        if verb == "back" and not args:
            return list(dict.fromkeys(str(p) for p in self.draft.placed()))
        if verb == "sort" and not args:
            return list(self.kit.orders)
        return []

    def _rack_left(self, typed: Sequence[str]) -> list[str]:
        """The rack's pieces (each kind once, in the rack's order) not all named in ``typed`` yet."""
        left = Counter(str(p) for p in self.draft.rack)
        for word in typed:
            try:
                left.subtract(str(p) for p in self.kit.parse_pieces(word))
            except ParseError:
                continue
        shown = [str(p) for group in self.kit.orders[self.order](self.draft.rack) for p in group]
        return [p for p in dict.fromkeys(shown) if left[p] > 0]

    def _set_index(self, text: str) -> int:
        n = whole_number(text, "a set number")
        if n < 1:
            raise ParseError(f"set numbers start at 1, got {text!r}")
        if n > len(self.draft.sets):
            count = len(self.draft.sets)
            raise ParseError(
                f"there is no set {n}" + (f" (sets are 1..{count})" if count else " (the table is empty)")
            )
        return n - 1


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


# -- the presenter -------------------------------------------------------------------


@dataclass(frozen=True)
class FreeTablePresenter(Generic[P]):
    """The presenter of a free-table game, made from its :class:`GameInfo` and :class:`TableKit`."""

    info: GameInfo
    kit: TableKit[P]
    solver: Solver | None = None
    playable: bool = True

    @property
    def game(self) -> str:
        """The game's id."""
        return self.info.id

    @property
    def words(self) -> Vocabulary:
        """The kit's vocabulary."""
        return self.kit.words

    @property
    def orders(self) -> Sequence[str]:
        """The rack orders of the kit."""
        return list(self.kit.orders)

    @property
    def hint(self) -> bool:
        """True when the kit has a best-play hint."""
        return self.kit.best_play is not None

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`, in the game's words."""
        return describe_event(event, names, style, words=self.words)

    def narrator(self, names: Sequence[str], style: Style) -> TableNarrator:
        """A :class:`TableNarrator` in the game's words."""
        return TableNarrator(self.words, names, style)

    def rules_lines(self) -> list[str]:
        """The kit's rules in brief."""
        return list(self.kit.rules)

    def notation_lines(self) -> list[str]:
        """The kit's notation."""
        return list(self.kit.notation)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """See :func:`status_lines`."""
        return style.fit(status_lines(view, labels, style, self.words))

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The table's sets, numbered from 1."""
        return ["Table:", *table_lines(view["table"], style)]

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's rack in an order of the kit (nothing for a spectator)."""
        if "rack" not in view:
            return []
        rack = self.kit.parse_pieces(" ".join(view["rack"]))
        return rack_lines(self.kit, rack, self.kit.order_or_default(order), style)

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """Status, table, rack and the seat's reminder (as a turn begins)."""
        lines = [*self.status_lines(view, labels, style), *self.table_lines(view, style)]
        lines += self.rack_lines(view, style, order)
        reminder = self.kit.reminder(view)
        return style.fit([*lines, reminder] if reminder else lines)

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows(self.kit)

    def help_lines(self, view: View, style: Style | None = None) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(self.kit, style.width if style else 0)

    def command_text(self, action: Action) -> str:
        """The action's text without the seat (``draw``, ``pass``): the free-table commands number nothing."""
        return action.text()

    def turn(
        self,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> DraftTurn[P]:
        """A :class:`DraftTurn` for the seat whose view this is."""
        return DraftTurn(
            self.kit,
            view,
            parse_action=parse_action or self.info.parse_action,
            say=say,
            style=style,
            labels=labels,
            order=order,
        )

    def hint_lines(self, view: View) -> list[str]:
        """The kit's best play for the seat (nothing without one)."""
        return [] if self.kit.best_play is None else self.kit.best_play(view)

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return style.fit(round_end_lines(event, names, style, self.words))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`outcome_lines`."""
        return style.fit(outcome_lines(outcome, names, style, self.words))


class TableNarrator:
    """Tells a free-table game's events in order, marking on each played table what the play changed.

    It keeps the table as the events showed it last (empty at a deal, as
    the ``position`` event sets it, as each ``play`` leaves it), so it can
    compare each play's table with the one before. The marks are explained
    the first time they appear.
    """

    def __init__(self, words: Vocabulary, names: Sequence[str], style: Style) -> None:
        self.words = words
        self.names = list(names)
        self.style = style
        self.table: list[list[str]] | None = None
        """The table before the next event (None: not known yet)."""
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """See :func:`describe_event`."""
        kind = event.get("kind")
        before = self.table
        legend = False
        if kind == "play" and before is not None and "table" in event:
            legend = not self.explained
            if legend and table_changes(before, event["table"], event.get("placed", [])).any:
                self.explained = True
        lines = describe_event(
            event,
            self.names,
            self.style,
            words=self.words,
            before=before if kind == "play" else None,
            legend=legend,
        )
        if kind == "deal":
            self.table = []
        elif kind in ("position", "play") and "table" in event:
            self.table = [list(s) for s in event["table"]]
        return lines
