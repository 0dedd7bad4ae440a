"""Two-tray's part of a typed turn (:class:`GridDisplay`): the grid draft, its steps and its display.

A two-tray turn is drafted on the grid: ``place``, ``move``, ``back`` and
``tray`` build it on a :class:`~rummykit.blocks.grid_draft.GridDraft` (the
shared :class:`~rummykit.blocks.draft.Draft` steps ``undo`` and ``reset``
too), ``commit`` sends it. The game's own commands (``draw``, ``pass``,
``end``, ``call``, and a whole turn typed as ``play`` or ``penalty``) are
read by its command table, cells counted from 1; a whole turn typed is
drafted first, so that its problems are said before it is sent. The
generic :class:`~rummykit.presenters.turn.Turn` drives it all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from rummykit.blocks.grid import Cell, GridDraft, Put
from rummykit.bots.strong import Advice
from rummykit.engine.commands import Part, Reading, Syntax
from rummykit.engine.core import Action
from rummykit.errors import ParseError, RummykitError
from rummykit.pieces.tiles import Tile
from rummykit.presenters.base import View
from rummykit.presenters.text import MOVED, NEW, counted
from rummykit.presenters.turn import Display, Turn
from rummykit.presenters.two_tray.view import (
    ALIASES,
    BASE,
    ORDERS,
    draw_grid,
    grid_changes,
    problem_text,
    reminder,
    screen_cell,
    status_lines,
    tray_lines,
)
from rummykit.rulesets.draft_steps import Check, Commit
from rummykit.rulesets.two_tray import (
    INVALID_TABLE_PENALTY,
    WRONG_TRAY_PENALTY,
    Call,
    Fail,
    Play,
    call_options,
    draft_action,
    draft_from_view,
    grid_from_view,
    joker_options,
)
from rummykit.rulesets.two_tray.actions import COMMANDS
from rummykit.rulesets.two_tray.actions import Cell as CellPart
from rummykit.rulesets.two_tray.steps import STEPS, Back, Move, Place, Tray

HEAD = (
    "Commands (cells are ROW,COLUMN as the grid is labelled, counted from 1; tiles are written like R7, K13, J;"
    " a bare `draw` draws onto your playing tray; a bare `penalty` commits the grid as drafted anyway: the"
    f" table is restored and you draw {INVALID_TABLE_PENALTY}, {WRONG_TRAY_PENALTY} for playing from the"
    " wrong tray):"
)



def command_text(action: Action) -> str:
    """The command a person types for ``action``: the command table's typed form, cells counted from 1.

    >>> from rummykit.rulesets.two_tray import INFO
    >>> command_text(INFO.parse_action('0 call 2,0 O3')), command_text(INFO.parse_action('1 draw b'))
    ('call 3,1 O3', 'draw B')
    >>> command_text(INFO.parse_action('0 play A 0,3=R4 -1,0=.'))
    'play A 0,1=. 1,4=R4'
    """
    return COMMANDS.typed_text(action)


class GridDisplay(Display):
    """A two-tray turn's grid draft, its steps and its display (see the module's docstring).

    >>> from rummykit.presenters.text import Style
    >>> from rummykit.rulesets.two_tray import INFO, from_position
    >>> state = from_position('grid: 0,0: K9 B9 J; trays: A[R4 O9 R5] B[K1] / A[O1] B[B1]; next: A B; down: 11')
    >>> turn = Turn(state.view(0), info=INFO, display=GridDisplay(), say=print, style=Style())
    >>> turn.completions(['place']), turn.completions(['place', 'r4', '2,1']), turn.completions(['place', 'R4'])
    (['O9', 'R4', 'R5'], ['O9', 'R5'], [])
    >>> turn.completions(['call']), turn.completions(['call', '1,3']), turn.completions(['draw'])
    (['1,3'], ['O9', 'R9'], ['A'])
    """

    orders = tuple(ORDERS)
    order_aliases = ALIASES
    rack = "trays"
    surface = "grid"
    head = HEAD
    advised = "two-tray"
    draft: GridDraft[Tile]

    def __init__(self) -> None:
        self.penalised: list[str] = []
        """The problems of a turn committed with ``penalty`` (in the people's numbering), said once accepted."""
        self.draws_draft = False
        """True once an interface asked for :meth:`draft_view` (it draws the draft itself, like the terminal
        app's grid): from then on a drafting step no longer says the drafted grid."""

    def start(self, turn: Turn) -> None:
        """A fresh draft from the turn's view."""
        self.draft = draft_from_view(turn.view)
        self.hinted: dict[Cell, str] = {}
        """The cells the last hint changes and what it puts there (``.``: emptied), for a grid that draws it."""

    def draft_view(self, turn: Turn) -> dict[str, Any]:
        """The seat's view as this turn has drafted it, for an interface that draws the grid itself.

        ``grid`` and ``trays`` are as drafted (the notation's cells, from 0);
        ``draft`` adds ``tray`` (the tray played from), ``base`` (the number
        the screen gives row 0 and column 0), ``marks`` (``[row, col, mark]``:
        ``+`` placed, ``*`` moved), ``problems`` (each ``text`` and its
        ``cells``), ``placed`` and ``ready``. Asking for it sets :attr:`draws_draft`.
        """
        self.draws_draft = True
        view = self._grid_view(turn)
        trays = dict(view["trays"])
        trays[self.draft.tray_name] = [str(t) for t in sorted(self.draft.tray)]
        view["trays"] = trays
        placed = self.draft.placed()
        problems = self.draft.problems() if self.draft.changed or placed else []
        view["draft"] = {
            "tray": self.draft.tray_name,
            "base": BASE,
            "marks": [[r, c, mark] for (r, c), mark in sorted(self.marks().items())],
            "problems": [{"text": problem_text(p), "cells": [list(cell) for cell in p.cells]} for p in problems],
            "placed": [str(t) for t in placed],
            "ready": bool(placed) and not problems,
            "hint": [[r, c, tile] for (r, c), tile in sorted(getattr(self, "hinted", {}).items())],
        }
        return view

    def show_advice(self, turn: Turn, found: Advice) -> None:
        """Keep the cells the hint's play changes for :meth:`draft_view` (``draft.hint``), for a grid that draws it."""
        changes = found.action.changes if isinstance(found.action, Play) else ()
        self.hinted = {put.cell: str(put.piece) if put.piece is not None else "." for put in changes}

    def _grid_view(self, turn: Turn) -> dict[str, Any]:
        """The turn's view with the drafted grid."""
        view = dict(turn.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
        return view

    # -- screens ---------------------------------------------------------------------

    def marks(self) -> dict[Cell, str]:
        """The tiles the turn has placed (``+``) and moved (``*``) so far, by cell."""
        before = {cell: str(t) for cell, t in self.draft.original.cells.items()}
        return grid_changes(before, {cell: str(t) for cell, t in self.draft.cells.items()}).marks

    def table_lines(self, turn: Turn) -> list[str]:
        """The drafted grid (what the turn changed marked), what is wrong with it, and the trays."""
        style = turn.style
        tiles = {cell: str(t) for cell, t in self.draft.cells.items()}
        calls = {cell: str(t) for cell, t in self.draft.grid.calls.items()}
        lines = ["Grid:", *draw_grid(tiles, calls, style, self.marks())]
        placed = self.draft.placed()
        notes = []
        if placed:
            where = [f"{t} at {screen_cell(p.cell)}" for p in self.draft.changes() if (t := p.piece) is not None]
            notes.append(f"Placed or moved this turn ({NEW} placed, {MOVED} moved): {', '.join(where)}")
        if self.draft.changed or placed:
            problems = self.draft.problems()
            if not problems:
                notes.append("Ready: `commit` ends your turn with this grid.")
            notes += [style.warn(f"Not yet: {problem_text(p)}") for p in problems]
        lines += style.fit(notes)
        return lines + self.order_lines(turn)

    def order_lines(self, turn: Turn) -> list[str]:
        """The trays as drafted (the playing tray without the tiles placed so far)."""
        view = dict(turn.view)
        trays = dict(view["trays"])
        trays[self.draft.tray_name] = [str(t) for t in sorted(self.draft.tray)]
        view["trays"] = trays
        playing = list(view["playing"])
        playing[turn.seat] = self.draft.tray_name
        view["playing"] = playing
        return tray_lines(view, turn.style, turn.order)

    def screen(self, turn: Turn) -> list[str]:
        """Status of both seats, the grid, the trays and a reminder."""
        view = turn.view
        lines = status_lines(view, turn.labels, turn.style) + self.table_lines(turn)
        notes = []
        note = reminder(view)
        if note and not self.draft.placed():
            notes.append(note)
        if view["playing"][turn.seat] is None:
            notes.append("Your first turn: `tray B` plays from tray B instead of tray A; `draw A` or `draw B` draws.")
        return lines + turn.style.fit(notes)

    def accepted(self, turn: Turn) -> list[str]:
        """A note when a draw, pass or end put unfinished moves back, or what a penalty was taken for."""
        if turn.ended_by == "penalty" and self.penalised:
            return turn.style.fit([f"You took the penalty for: {'; '.join(self.penalised)}"], hang=4)
        if turn.ended_by in ("draw", "pass", "end") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, turn: Turn, before: View) -> list[str]:
        """A new view of the same seat (after a call, or after emptying a tray): the draft follows it."""
        old = self.draft
        self.start(turn)
        if old.original.cells == self.draft.original.cells and old.tray_name == self.draft.tray_name:
            # Only a call changed: keep the moves drafted so far (and the going-down lines they hold).
            self.draft.cells = dict(old.cells)
            self.draft.tray = list(old.tray)
            self.draft.down = old.down
        return self.screen(turn)

    def changed(self, turn: Turn) -> None:
        """Say the drafted grid after a step (unless an interface draws :meth:`draft_view` itself)."""
        if not self.draws_draft:
            turn.say(*self.table_lines(turn))

    # -- the draft's steps ---------------------------------------------------------------

    step_table = STEPS

    def take(self, turn: Turn, step: Action) -> Action | None:
        """Take one step on the grid draft (a commit: the action to send)."""
        draft = self.draft
        match step:
            case Place(puts=puts):
                self._place(puts)
            case Move(row=row, col=col, to_row=to_row, to_col=to_col):
                draft.move((row, col), (to_row, to_col))
            case Back(row=row, col=col):
                draft.back((row, col))
            case Tray(tray=tray):
                self._choose_tray(turn, tray)
                turn.say(f"Playing from tray {self.draft.tray_name}.", *self.table_lines(turn))
                return None
            case Check():
                self._check(turn)
                return None
            case Commit():
                return self._commit(turn)
        self.changed(turn)
        return None

    def action(self, turn: Turn, action: Action) -> Action | None:
        """A whole turn typed (``play``, ``penalty`` with its cells) is drafted first; a bare ``penalty``
        commits the draft as it stands; a draw, pass, end or call goes as typed."""
        if isinstance(action, Play | Fail):
            if isinstance(action, Play) and not action.changes:
                raise ParseError("usage: play TRAY ROW,COLUMN=TILE ... (e.g. play A 3,4=R7 3,5=R8; =. empties a cell)")
            if action.changes or action.down or isinstance(action, Play):
                self._whole_turn(turn, action)
            if isinstance(action, Fail):
                self.penalised = [problem_text(p) for p in self.draft.problems()]
                return draft_action(turn.seat, self.draft, accept_penalty=True)
            if self._problems_said(turn, f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
                turn.say(*self.table_lines(turn))
                return None
            return draft_action(turn.seat, self.draft)
        return action

    def _whole_turn(self, turn: Turn, action: Play | Fail) -> None:
        """Draft a whole turn typed in one line, from the start of the turn (the draft unchanged if refused)."""
        previous = self.draft
        self._choose_tray(turn, action.tray)
        try:
            self.draft.apply(action.changes, action.down)
        except RummykitError:
            self.draft = previous
            raise

    def _choose_tray(self, turn: Turn, text: str) -> None:
        """Draft the turn from tray ``text`` (a first turn may choose; later turns play the playing tray)."""
        name = text.strip().upper()
        if name != self.draft.tray_name:
            self.draft = draft_from_view(turn.view, name)  # the trays take turns: the game refuses another

    def _place(self, puts: Sequence[Put[Tile]]) -> None:
        """Place tiles one by one (none placed if one is refused)."""
        done = 0
        try:
            for put in puts:
                assert put.piece is not None
                self.draft.place(put.piece, put.cell)
                done += 1
        except RummykitError:
            for _ in range(done):
                self.draft.undo()
            raise

    def _check(self, turn: Turn) -> None:
        problems = self.draft.problems()
        lines = [f"  {problem_text(p)}" for p in problems] if problems else ["The grid is valid: `commit` ends your turn with it."]
        for cell, options in joker_options(self._grid_view(turn)).items():
            lines.append(f"  The joker at {screen_cell(cell)} can stand for {' or '.join(options)}.")
        turn.say(*turn.style.fit(lines, hang=4))

    def _problems_said(self, turn: Turn, anyway: str) -> bool:
        """Say what keeps the draft from being committed (True if anything does)."""
        problems = self.draft.problems()
        if not problems:
            return False
        style = turn.style
        if len(problems) == 1:
            turn.say(*style.fit([f"! Cannot commit: {problem_text(problems[0])}; {anyway}."], hang=4))
        else:
            turn.say(*style.fit([f"! Cannot commit, {counted(len(problems), 'problem')} ({anyway}):"], hang=4))
            turn.say(*style.fit((f"    {problem_text(p)}" for p in problems), hang=6))
        return True

    def _commit(self, turn: Turn) -> Action | None:
        if not self.draft.placed():
            raise ParseError("nothing placed from your tray yet: place tiles, or `draw`")
        if self._problems_said(turn, f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
            return None
        return draft_action(turn.seat, self.draft)

    # -- completion -------------------------------------------------------------

    def pieces(self, turn: Turn, command: Syntax, part: Part, args: Sequence[str]) -> list[str]:
        """The trays the turn may use (``draw``, ``play``, ``penalty``); the jokers' cells and the tiles each
        may be called (``call``)."""
        if part.field == "tray":
            return self._trays_allowed(turn)
        if command.cls is Place:
            return self._tray_left(turn, args[0::2]) if len(args) % 2 == 0 else []
        if command.cls is Back:
            return [screen_cell(cell) for cell, mark in sorted(self.marks().items()) if mark == NEW]
        if command.cls is Call and part.field == "row":
            return [screen_cell(cell) for cell, tile in sorted(self.draft.original.cells.items()) if tile.colour is None]
        if command.cls is Call and part.field == "tile":
            try:
                row, col = CellPart("row").read(args[:1], Reading(args[0], typed=True))
                cell = (cast(int, row), cast(int, col))
            except ParseError:
                return []
            return [str(t) for t in call_options(grid_from_view(turn.view), cell)]
        return []

    def _trays_allowed(self, turn: Turn) -> list[str]:
        """The trays this turn may play from or draw onto: the playing one, or any on a first turn."""
        playing = turn.view["playing"][turn.seat]
        return list(turn.view["trays"]) if playing is None else [playing]

    def _tray_left(self, turn: Turn, typed: Sequence[str]) -> list[str]:
        """The drafted playing tray's tiles (each kind once, in the tray's order) not all named in ``typed``."""
        left = Counter(str(t) for t in self.draft.tray)
        for word in typed:
            try:
                left[str(Tile.parse(word))] -= 1
            except ParseError:
                continue
        shown = [str(t) for group in ORDERS[turn.order](self.draft.tray) for t in group]
        return [t for t in dict.fromkeys(shown) if left[t] > 0]


