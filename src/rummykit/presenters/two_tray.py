"""The ``two-tray`` presenter: the crossword grid with row and column labels, the trays, and the grid commands.

A person builds a turn in a :class:`GridTurn`: typed commands (``place``,
``move``, ``back``, ``undo``...) become steps of a
:class:`~rummykit.blocks.grid.GridDraft` that the game makes from the seat's
view, which reports what is wrong with the grid (every invalid line, with its
cells); ``commit`` turns the draft into the game's action. Cells are written
``ROW,COLUMN`` as in the records (``place R7 3,4``); the grid is drawn with
its row numbers down the left and its column numbers along the top. Whether
anything is legal is for the engine to say.

>>> view = {'grid': [{'row': 0, 'col': 0, 'tile': 'R1', 'called': None},
...                  {'row': 0, 'col': 1, 'tile': 'R2', 'called': None},
...                  {'row': 0, 'col': 2, 'tile': 'J', 'called': 'R3'}]}
>>> print('\\n'.join(grid_lines(view, Style())))
       -1   0   1   2   3
   -1   .   .   .   .   .
    0   .  R1  R2   J   .
    1   .   .   .   .   .
  Called: the joker at 0,2 is R3.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rummykit.blocks.grid import Cell, GridDraft, GridProblem, cell_text, parse_cell
from rummykit.engine.core import Action, GameInfo
from rummykit.errors import ParseError, RummykitError
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.presenters.base import Presenter, Quit, Say, Solver, View, Vocabulary
from rummykit.presenters.freetable import describe_event as table_event
from rummykit.presenters.freetable import outcome_lines, round_end_lines
from rummykit.presenters.rummikub import by_colour, by_number
from rummykit.presenters.text import (
    HelpRow,
    Style,
    help_table,
    no_args,
    plural,
    rack_line,
    seat_name,
    signed,
)
from rummykit.rulesets.two_tray import (
    INFO,
    INVALID_TABLE_PENALTY,
    WRONG_TRAY_PENALTY,
    draft_action,
    draft_from_view,
    joker_options,
)

__all__ = ["PRESENTER", "WORDS", "GridTurn", "TwoTrayPresenter", "describe_event", "grid_lines", "help_rows"]

REASONS = {
    "trays-empty": "emptied both trays",
    "blocked": "had the lowest total; the {pool} was empty and nobody could play",
    "target": "reached the target total",
    "max-rounds": "had the highest total when the round limit was reached",
}
WORDS = Vocabulary(piece="tile", pieces="tiles", rack="tray", pool="pool", opening="first play", reasons=REASONS)
ORDERS: dict[str, Callable[[Sequence[Tile]], list[list[Tile]]]] = {"colour": by_colour, "number": by_number}
ALIASES = {"color": "colour", "colours": "colour", "colors": "colour", "numbers": "number", "num": "number"}
CELL_WIDTH = 4
EXAMPLE_CELL = "3,4"


# -- drawing from views -----------------------------------------------------------------


def _cells(view: View) -> tuple[dict[Cell, str], dict[Cell, str]]:
    tiles = {(c["row"], c["col"]): str(c["tile"]) for c in view["grid"]}
    calls = {(c["row"], c["col"]): str(c["called"]) for c in view["grid"] if c["called"] is not None}
    return tiles, calls


def draw_grid(tiles: Mapping[Cell, str], calls: Mapping[Cell, str], style: Style) -> list[str]:
    """The grid with one empty row and column around it, row numbers on the left, column numbers on top."""
    if not tiles:
        return ["  (the grid is empty: lay your first line anywhere, e.g. from cell 0,0)"]
    rows = [r for r, _ in tiles]
    cols = [c for _, c in tiles]
    top, bottom, left, right = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    label = max(len(str(r)) for r in range(top, bottom + 1)) + 3
    out = [" " * label + "".join(f"{c:>{CELL_WIDTH}}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        cells = []
        for c in range(left, right + 1):
            text = tiles.get((r, c), ".")
            pad = " " * (CELL_WIDTH - len(text))
            cells.append(pad + (style.piece(text) if text != "." else style.dim(text)))
        out.append(f"{r:>{label}}" + "".join(cells))
    for cell, called in sorted(calls.items()):
        out.append(f"  Called: the joker at {cell_text(cell)} is {style.piece(called)}.")
    return out


def grid_lines(view: View, style: Style) -> list[str]:
    """The view's grid, drawn."""
    tiles, calls = _cells(view)
    return draw_grid(tiles, calls, style)


def tray_lines(view: View, style: Style, order: str) -> list[str]:
    """The seat's trays, the playing one first and marked (nothing for a spectator)."""
    if "trays" not in view:
        return []
    seat = view["seat"]
    playing = view["playing"][seat]
    names = sorted(view["trays"], key=lambda n: (n != playing, n))
    out = []
    for name in names:
        tiles = parse_tiles(view["trays"][name])
        text = rack_line([[str(t) for t in g] for g in ORDERS[order](tiles)], style) or "(empty)"
        note = " (plays this turn)" if name == playing and seat in view["to_act"] else " (plays next)" if name == playing else ""
        if playing is None:
            note = " (either tray may play your first turn)" if name == names[0] else ""
        out.append(f"Tray {name}{note}: {text}  [{plural(len(tiles), 'tile')}]")
    return out


def status_lines(view: View, labels: Sequence[str], style: Style) -> list[str]:
    """Round, turn, pool and one line per seat: its trays' sizes, the tray it plays next, down or not."""
    players: list[str] = list(view.get("players", []))
    head = f"Round {view['round']}, turn {view['turn_number']}, pool: {plural(int(view['pool_size']), 'tile')}"
    out = [head]
    turn = view.get("turn")
    width = max((len(p) + (len(lbl) + 3 if lbl else 0) for p, lbl in zip(players, labels, strict=False)), default=0)
    for seat, name in enumerate(players):
        label = labels[seat] if seat < len(labels) else ""
        who = f"{name} ({label})" if label else name
        sizes = "  ".join(f"tray {t}: {n:>2}" for t, n in view["tray_sizes"][seat].items())
        playing = view["playing"][seat]
        nxt = f"next: tray {playing}" if playing else "next: either tray"
        parts = [f"{'>' if seat == turn else ' '} {who:<{width}}", sizes, nxt, "down" if view["down"][seat] else "not down yet"]
        if view.get("rounds"):
            parts.append(f"total {signed(int(view['totals'][seat]))}")
        out.append("  " + "  ".join(parts))
    if view.get("continuing") and turn is not None:
        out.append(
            f"  {seat_name(players, turn)} emptied a tray this turn and plays on from tray {view['playing'][turn]}."
        )
    return out


def reminder(view: View) -> str | None:
    """What the first play needs, while the seat is not down yet."""
    seat = view.get("seat")
    points = int(view["options"]["initial_meld_points"])
    if seat is None or view["down"][seat] or not points:
        return None
    return (
        f"You are not down yet: your first play is one or more new lines from one tray worth at least"
        f" {points} points, not touching the tiles on the table."
    )


# -- events ---------------------------------------------------------------------------


def describe_event(event: View, names: Sequence[str], style: Style) -> list[str]:
    """Lines telling one event as a seat sees it (``[]``: nothing to tell)."""
    kind = str(event.get("kind"))
    who = seat_name(names, event.get("player"))
    if kind == "deal":
        first = seat_name(names, event.get("first"))
        size = int(event.get("tray_size", 0))
        return [style.bold(f"Round {event.get('round', 1)} dealt: two trays of {size} tiles each; {first} plays first.")]
    if kind == "trays":
        if "trays" not in event:
            return []
        return [f"{who}'s tray {name}: {style.pieces(tiles)}" for name, tiles in event["trays"].items()]
    if kind == "draw":
        drawn = f" {style.piece(str(event['piece']))}" if "piece" in event else " a tile"
        return [f"{who} draws{drawn} onto tray {event.get('tray')} (pool: {event.get('pool_size')})"]
    if kind == "pass":
        return [f"{who} passes (the pool is empty)"]
    if kind == "play":
        note = " (going down)" if event.get("opening") else ""
        sizes = ", ".join(f"tray {t}: {n}" for t, n in event.get("tray_sizes", {}).items())
        changes = " ".join(str(c) for c in event.get("changes", []))
        return [
            f"{who} plays {style.pieces(event.get('placed', []))} from tray {event.get('tray')}{note}; {sizes}",
            f"    cells: {changes}",
        ]
    if kind == "call":
        return [f"{who} calls the joker at {event.get('cell')} {style.piece(str(event.get('tile')))}"]
    if kind == "tray-empty":
        return [f"{who} has emptied tray {event.get('tray')} and plays on at once from tray {event.get('next')}"]
    if kind == "end":
        return [f"{who} ends the turn without playing from the other tray"]
    if kind == "merge":
        return [
            f"{who} combines both trays into tray {event.get('tray')} ({plural(int(event.get('tray_size', 0)), 'tile')});"
            " from now on both players play from one tray"
        ]
    if kind == "penalty":
        n = int(event.get("drawn", 0))
        what = "played from the wrong tray" if event.get("penalty") == "wrong-tray" else "committed an invalid table"
        why = f"{event['reason']}; " if "reason" in event else ""
        lines = [
            f"{who} {what} ({why}rule {event.get('rule')}): the table is restored and {who}"
            f" draws {plural(n, 'penalty tile')} onto tray {event.get('tray')}"
        ]
        if "pieces" in event:
            lines.append(f"    drawn: {style.pieces(event['pieces'])}")
        return lines
    if kind == "position":
        return ["Starting from a position."]
    if kind == "round-end":
        return round_end_lines(event, names, style, WORDS)
    if kind == "match-end":
        return outcome_lines(event, names, style, WORDS)
    return table_event(event, names, style, words=WORDS)


# -- commands -------------------------------------------------------------------------


def help_rows(view: View) -> list[HelpRow]:
    """The turn commands."""
    return [
        (f"place R7 {EXAMPLE_CELL}", "put a tile from your playing tray in cell row 3, column 4 (several: place R7 3,4 R8 3,5)"),
        ("move 3,4 5,0", "move the tile in cell 3,4 to the empty cell 5,0"),
        ("back 3,4", "take a tile you placed this turn back to your tray"),
        ("undo | reset", "undo the last step | start the turn again"),
        ("check", "list every invalid line, and what each joker can stand for"),
        ("commit (or done)", "end your turn with the grid as it is"),
        ("tray A|B", "on your first turn: play from tray A or tray B"),
        ("draw A|B", "draw a tile onto your playing tray, ending the turn (first turn: onto the tray you name)"),
        ("pass", "end the turn when the pool is empty"),
        ("end", "after emptying a tray this turn: stop without playing from the other one"),
        ("call 2,0 O3", "call the joker in cell 2,0 (in a 3-tile group) the tile O3"),
        (
            "penalty",
            f"commit anyway: the table is restored and you draw {INVALID_TABLE_PENALTY}"
            f" ({WRONG_TRAY_PENALTY} for tiles of the wrong tray)",
        ),
        (f"sort {'|'.join(ORDERS)}", "order your trays"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]


def help_lines(view: View) -> list[str]:
    """The command list with its heading."""
    head = "Commands (cells are ROW,COLUMN as the grid is labelled; tiles are written like R7, K13, J):"
    return help_table(head, help_rows(view))


def _order_name(text: str) -> str:
    key = ALIASES.get(text.strip().lower(), text.strip().lower())
    if key not in ORDERS:
        raise ParseError(f"sort by {' or '.join(ORDERS)}, not {text.strip()!r}")
    return key


class GridTurn:
    """One person's turn: a grid draft driven by typed commands (see :func:`help_rows`)."""

    label = "turn"

    def __init__(
        self,
        view: View,
        *,
        parse_action: Callable[[str], Action],
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
        self.labels = labels
        self.order = order if order in ORDERS else next(iter(ORDERS))
        self.draft: GridDraft[Tile] = draft_from_view(view)
        self.ended_by: str | None = None

    # -- screens ---------------------------------------------------------------------

    def problems(self) -> list[GridProblem]:
        """What is wrong with the draft now."""
        return self.draft.problems()

    def table_lines(self) -> list[str]:
        """The drafted grid, what is wrong with it, what was placed, and the trays."""
        tiles = {cell: str(t) for cell, t in self.draft.cells.items()}
        calls = {cell: str(t) for cell, t in self.draft.grid.calls.items()}
        lines = ["Grid:", *draw_grid(tiles, calls, self.style)]
        placed = self.draft.placed()
        if placed:
            where = [f"{t} at {cell_text(p.cell)}" for p in self.draft.changes() if (t := p.piece) is not None]
            lines.append(f"Placed or moved this turn: {', '.join(where)}")
        if self.draft.changed or placed:
            problems = self.problems()
            if not problems:
                lines.append("Ready: `commit` ends your turn with this grid.")
            for p in problems:
                lines.append(self.style.warn(f"Not yet: {p}"))
        lines += self.tray_text()
        return lines

    def tray_text(self) -> list[str]:
        """The trays as drafted (the playing tray without the tiles placed so far)."""
        view = dict(self.view)
        trays = dict(view["trays"])
        trays[self.draft.tray_name] = [str(t) for t in sorted(self.draft.tray)]
        view["trays"] = trays
        playing = list(view["playing"])
        playing[self.seat] = self.draft.tray_name
        view["playing"] = playing
        return tray_lines(view, self.style, self.order)

    def screen(self) -> list[str]:
        """Status of both seats, the grid, the trays and a reminder."""
        lines = status_lines(self.view, self.labels, self.style) + self.table_lines()
        note = reminder(self.view)
        if note and not self.draft.placed():
            lines.append(note)
        if self.view["playing"][self.seat] is None:
            lines.append("Your first turn: `tray B` plays from tray B instead of tray A; `draw A` or `draw B` draws.")
        return lines

    def accepted(self) -> list[str]:
        """A note when a draw, pass or end put unfinished moves back."""
        if self.ended_by in ("draw", "pass", "end") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, view: View) -> list[str]:
        """A new view of the same seat (after a call, or after emptying a tray): the draft follows it."""
        old = self.draft
        self.view = view
        self.draft = draft_from_view(view)
        if old.original.cells == self.draft.original.cells and old.tray_name == self.draft.tray_name:
            # Only a call changed: keep the moves drafted so far.
            self.draft.cells = dict(old.cells)
            self.draft.tray = list(old.tray)
        self.ended_by = None
        return self.screen()

    # -- commands ----------------------------------------------------------------------

    def command(self, line: str) -> Action | None:
        """Run one typed command: the action to apply, or None (it only drafted or showed something)."""
        words = line.split()
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        handler = self._handlers().get(verb)
        if handler is None:
            raise ParseError(f"unknown command {words[0]!r}; type `help` for the commands")
        action = handler(args)
        if action is not None:
            self.ended_by = verb
        return action

    def _handlers(self) -> dict[str, Callable[[list[str]], Action | None]]:
        return {
            "help": self._help,
            "?": self._help,
            "show": self._show,
            "sort": self._sort,
            "tray": self._tray,
            "place": self._place,
            "move": self._move,
            "back": self._back,
            "undo": self._undo,
            "reset": self._reset,
            "check": self._check,
            "commit": self._commit,
            "done": self._commit,
            "penalty": self._penalty,
            "draw": self._draw,
            "pass": self._pass,
            "end": self._end,
            "call": self._call,
            "quit": self._quit,
            "exit": self._quit,
        }

    def _changed(self) -> None:
        self.say(*self.table_lines())

    def _help(self, args: list[str]) -> None:
        self.say(*help_lines(self.view))

    def _show(self, args: list[str]) -> None:
        no_args("show", args)
        self.say(*self.screen())

    def _sort(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: sort {'|'.join(ORDERS)}")
        self.order = _order_name(args[0])
        self.say(*self.tray_text())

    def _tray(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError("usage: tray A (or tray B): the tray your first turn plays from")
        name = args[0].strip().upper()
        playing = self.view["playing"][self.seat]
        if playing is not None and name != playing:
            raise ParseError(f"this turn plays from tray {playing}; the trays take turns")
        self.draft = draft_from_view(self.view, name)
        self.say(f"Playing from tray {name}.", *self.table_lines())

    def _place(self, args: list[str]) -> None:
        if not args or len(args) % 2:
            raise ParseError(f"usage: place TILE ROW,COLUMN [TILE ROW,COLUMN ...] (e.g. place R7 {EXAMPLE_CELL})")
        steps = [(Tile.parse(args[i]), parse_cell(args[i + 1])) for i in range(0, len(args), 2)]
        done = 0
        try:
            for tile, cell in steps:
                self.draft.place(tile, cell)
                done += 1
        except RummykitError:
            for _ in range(done):
                self.draft.undo()
            raise
        self._changed()

    def _move(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: move FROM TO, two cells ROW,COLUMN (e.g. move 3,4 5,0)")
        self.draft.move(parse_cell(args[0]), parse_cell(args[1]))
        self._changed()

    def _back(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: back ROW,COLUMN (e.g. back {EXAMPLE_CELL})")
        self.draft.back(parse_cell(args[0]))
        self._changed()

    def _undo(self, args: list[str]) -> None:
        no_args("undo", args)
        self.draft.undo()
        self._changed()

    def _reset(self, args: list[str]) -> None:
        no_args("reset", args)
        if not self.draft.changed and not self.draft.placed():
            raise ParseError("nothing to reset: the grid is as the turn began")
        self.draft.reset()
        self._changed()

    def _check(self, args: list[str]) -> None:
        no_args("check", args)
        problems = self.problems()
        if not problems:
            self.say("The grid is valid: `commit` ends your turn with it.")
        else:
            self.say(*(f"  {p}" for p in problems))
        view = dict(self.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
        for cell, options in joker_options(view).items():
            self.say(f"  The joker at {cell_text(cell)} can stand for {' or '.join(options)}.")

    def _commit(self, args: list[str]) -> Action | None:
        no_args("commit", args)
        if not self.draft.placed():
            raise ParseError("nothing placed from your tray yet: place tiles, or `draw`")
        problems = self.problems()
        if problems:
            anyway = f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"
            if len(problems) == 1:
                self.say(f"! Cannot commit: {problems[0]}; {anyway}.")
            else:
                self.say(f"! Cannot commit, {len(problems)} problems ({anyway}):")
                self.say(*(f"    {p}" for p in problems))
            return None
        return draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        no_args("penalty", args)
        return draft_action(self.seat, self.draft, accept_penalty=True)

    def _draw(self, args: list[str]) -> Action:
        if len(args) > 1:
            raise ParseError("usage: draw, or draw A / draw B on your first turn")
        playing = self.view["playing"][self.seat]
        if args:
            name = args[0]
        elif playing is not None:
            name = playing
        else:
            raise ParseError("on your first turn, name the tray the tile goes onto: draw A or draw B")
        return self.parse_action(f"{self.seat} draw {name}")

    def _pass(self, args: list[str]) -> Action:
        no_args("pass", args)
        return self.parse_action(f"{self.seat} pass")

    def _end(self, args: list[str]) -> Action:
        no_args("end", args)
        return self.parse_action(f"{self.seat} end")

    def _call(self, args: list[str]) -> Action:
        if len(args) != 2:
            raise ParseError("usage: call ROW,COLUMN TILE (e.g. call 2,0 O3)")
        return self.parse_action(f"{self.seat} call {args[0]} {args[1]}")

    def _quit(self, args: list[str]) -> None:
        raise Quit


# -- the presenter --------------------------------------------------------------------


@dataclass(frozen=True)
class TwoTrayPresenter:
    """The presenter of two-tray."""

    info: GameInfo
    playable: bool = True
    solver: Solver | None = None

    @property
    def game(self) -> str:
        """The game's id."""
        return self.info.id

    @property
    def words(self) -> Vocabulary:
        """Two-tray's words (a player's tiles are on trays)."""
        return WORDS

    @property
    def orders(self) -> Sequence[str]:
        """The orders trays can be shown in."""
        return list(ORDERS)

    @property
    def hint(self) -> bool:
        """No best-play hint: the solver does not know grids."""
        return False

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`."""
        return describe_event(event, names, style)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """See :func:`status_lines`."""
        return status_lines(view, labels, style)

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The grid with its row and column labels."""
        return ["Grid:", *grid_lines(view, style)]

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's trays (nothing for a spectator)."""
        return tray_lines(view, style, order if order in ORDERS else next(iter(ORDERS)))

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """Status, grid, trays and the reminder."""
        lines = [*self.status_lines(view, labels, style), *self.table_lines(view, style), *self.rack_lines(view, style, order)]
        note = reminder(view)
        return [*lines, note] if note else lines

    def help_rows(self, view: View) -> list[HelpRow]:
        """See :func:`help_rows`."""
        return help_rows(view)

    def help_lines(self, view: View) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(view)

    def turn(
        self,
        view: View,
        *,
        say: Say,
        style: Style,
        labels: Sequence[str] = (),
        order: str | None = None,
        parse_action: Callable[[str], Action] | None = None,
    ) -> GridTurn:
        """A :class:`GridTurn` for the seat whose view this is."""
        return GridTurn(
            view, parse_action=parse_action or self.info.parse_action, say=say, style=style, labels=labels, order=order
        )

    def hint_lines(self, view: View) -> list[str]:
        """Nothing: two-tray has no solver."""
        return []

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of a round: who won it and why, the scores and the tiles left."""
        return round_end_lines(event, names, style, WORDS)

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of the match."""
        return outcome_lines(outcome, names, style, WORDS)


PRESENTER: Presenter = TwoTrayPresenter(INFO)
