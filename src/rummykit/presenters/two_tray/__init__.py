"""The ``two-tray`` presenter: the crossword grid with row and column labels, the trays, and the grid commands.

A person builds a turn on a :class:`GridDisplay`'s draft, through the generic turn: typed commands (``place``,
``move``, ``back``, ``undo``...) become steps of a
:class:`~rummykit.blocks.grid.GridDraft` that the game makes from the seat's
view, which reports what is wrong with the grid (every invalid line, with its
cells); ``commit`` turns the draft into the game's action. Whether anything
is legal is for the engine to say.

**Numbers.** People count rows and columns from 1, as every interface does:
the game's notation (records, actions, views, events) calls the first cell
0,0, and the screen and what a person types call it 1,1. The board has no
edge, so a grid that grows above or left of that cell has rows and columns
numbered 0 and below, on the screen as in the notation (-1 there). A cell
keeps its number for the whole round. The command layer is the one place
that converts (the ``Cell`` part of the game's commands and steps reads what
a person types; :func:`screen_cell` writes a cell on the screen, both from
:data:`~rummykit.engine.commands.SHOWN_FROM`), so no message a person reads
uses the record's.

>>> view = {'grid': [{'row': 0, 'col': 0, 'tile': 'R1', 'called': None},
...                  {'row': 0, 'col': 1, 'tile': 'R2', 'called': None},
...                  {'row': 0, 'col': 2, 'tile': 'J', 'called': 'R3'}]}
>>> print('\\n'.join(grid_lines(view, Style())))
       0   1   2   3   4
   0   .   .   .   .   .
   1   .  R1  R2   J   .
   2   .   .   .   .   .
  Called: the joker at 1,3 is R3.
>>> screen_cell((0, 2))
'1,3'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.engine.core import GameInfo
from rummykit.pieces.tiles import COLOURS, MAX_NUMBER
from rummykit.presenters.advice import advice_lines
from rummykit.presenters.base import Narrator, Presenter, Solver, View, Vocabulary
from rummykit.presenters.freetable import outcome_lines, round_end_lines
from rummykit.presenters.text import Style, counted
from rummykit.presenters.turn import Commanded, Display
from rummykit.presenters.two_tray.narrate import (
    GridNarrator,
    after_play,
    describe_event,
)
from rummykit.presenters.two_tray.turn import HEAD, GridDisplay, command_text
from rummykit.presenters.two_tray.view import (
    ALIASES,
    BASE,
    CELL_WIDTH,
    LEGEND,
    ORDERS,
    REASONS,
    WORDS,
    GridChange,
    Marks,
    draw_grid,
    grid_changes,
    grid_lines,
    moved_text,
    problem_text,
    reminder,
    screen_cell,
    status_lines,
    tray_lines,
)
from rummykit.rulesets.two_tray import INFO, INVALID_TABLE_PENALTY, TRAY_SIZE, WRONG_TRAY_PENALTY

__all__ = [
    "ALIASES",
    "BASE",
    "CELL_WIDTH",
    "HEAD",
    "LEGEND",
    "NOTATION",
    "ORDERS",
    "PRESENTER",
    "REASONS",
    "RULES",
    "WORDS",
    "GridChange",
    "GridDisplay",
    "GridNarrator",
    "Marks",
    "TwoTrayPresenter",
    "after_play",
    "command_text",
    "describe_event",
    "draw_grid",
    "grid_changes",
    "grid_lines",
    "moved_text",
    "problem_text",
    "reminder",
    "screen_cell",
    "status_lines",
    "tray_lines",
]


# -- the presenter --------------------------------------------------------------------

RULES = (
    f"Two players each get two trays of {TRAY_SIZE} tiles, A and B (the rummikub tiles: 1 to {MAX_NUMBER} in"
    " four colours, two of each, and 2 jokers); the rest are the pool. Tiles never move between trays.",
    "The table is a crossword grid: every line of touching tiles, across (read left to right) or down (read"
    " top to bottom), has 3 or more tiles and is a group (one number, different colours) or a run (one"
    " colour, going up by one). A tile may lie in a line across and a line down; a joker in two lines"
    " stands for one tile that fits both.",
    "The trays take turns: your first turn plays from (or draws onto) either tray, then they alternate."
    " A turn plays tiles of the playing tray, rearranging the grid freely once you are down, or draws a"
    " tile onto it. Going down is new lines from one tray worth at least 30 points on their own (option"
    " initial_meld_points) that do not touch the table; the rest of that turn may then rearrange the table"
    " and play more from the same tray.",
    "A joker in a group of exactly 3 tiles may be called a colour the group lacks (`call`). Tiles of the"
    f" wrong tray cost {counted(WRONG_TRAY_PENALTY, 'penalty tile')}, an invalid table"
    f" {counted(INVALID_TABLE_PENALTY, 'penalty tile')}, drawn onto the tray that should have played; after"
    " the wrong tray, that tray plays again next turn (the marker stays by it).",
    "Empty one tray and you play on at once from the other; if you do not go out in that turn, your"
    " opponent combines both trays into one. Whoever empties everything wins the round and scores what the"
    " loser holds (a joker counts 30); a match is one round unless the option target is set.",
)
"""The rules in brief, for ``rummykit rules``."""

NOTATION = (
    "A tile is a colour letter and a number: "
    + ", ".join(f"{c.letter} {c.name.lower()}" for c in COLOURS)
    + "; R7 is the red 7. J is a joker.",
    "A cell is ROW,COLUMN: rows go down, columns to the right. On the screen and at the prompt they are"
    " numbered from 1, as the grid is labelled (place R7 3,4); the board has no edge, so a grid that grows"
    " above or left of the first cell has rows and columns 0 and below. The game record counts from 0:"
    " the screen's cell 1,1 is the record's 0,0.",
    "On a grid, . is an empty cell; after a play +R7 marks a tile placed from a tray and *K5 a tile moved"
    " from another cell.",
)
"""How tiles and cells are written, for ``rummykit rules``."""


@dataclass(frozen=True)
class TwoTrayPresenter(Commanded):
    """The presenter of two-tray."""

    info: GameInfo
    playable: bool = True
    solver: Solver | None = None
    table_kind: str = "grid"
    """The terminal app draws the grid with a cell cursor and the playing tray (the turn's :meth:`~rummykit.presenters.turn.Turn.draft_view`)."""

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

    advised: bool = True
    """The ``hint`` is the strong bot's advice (:mod:`rummykit.presenters.advice`): the grid solver's placement."""

    @property
    def hint(self) -> bool:
        """A best-play hint: the strong bot's placement from the grid solver."""
        return True

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event` (an event on its own: a play lists the cells it changed)."""
        return describe_event(event, names, style)

    def narrator(self, names: Sequence[str], style: Style) -> Narrator:
        """A :class:`GridNarrator`: each play shown on the grid, its new and moved tiles marked."""
        return GridNarrator(names, style)

    def rules_lines(self) -> list[str]:
        """See :data:`RULES`."""
        return list(RULES)

    def notation_lines(self) -> list[str]:
        """See :data:`NOTATION`."""
        return list(NOTATION)

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
        return [*lines, *style.fit([note])] if note else lines

    def display(self) -> Display:
        """What a turn of this game shows (see :class:`~rummykit.presenters.turn.Commanded`)."""
        return GridDisplay()

    def hint_lines(self, view: View) -> list[str]:
        """The strong bot's advice: the grid solver's placement as steps, and why (nothing is played)."""
        return advice_lines(self.game, view)

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of a round: who won it and why, the scores and the tiles left."""
        return style.fit(round_end_lines(event, names, style, WORDS))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """The end of the match."""
        return style.fit(outcome_lines(outcome, names, style, WORDS))


PRESENTER: Presenter = TwoTrayPresenter(INFO)
