"""Two-tray's typed commands: the help, the command text of an action, and :class:`GridTurn`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.blocks.grid import Cell, GridDraft, cell_text
from rummykit.engine.core import Action
from rummykit.errors import ParseError, RummykitError
from rummykit.pieces.tiles import Tile
from rummykit.presenters.base import Say, View
from rummykit.presenters.text import MOVED, NEW, HelpRow, Style, counted, help_table, no_args
from rummykit.presenters.turn import DraftCommands, Handler
from rummykit.presenters.two_tray.view import (
    ALIASES,
    BASE,
    EXAMPLE_CELL,
    ORDERS,
    _put_text,
    _typed_change,
    draw_grid,
    grid_changes,
    problem_text,
    reminder,
    screen_cell,
    status_lines,
    tray_lines,
    typed_cell,
)
from rummykit.rulesets.two_tray import (
    DOWN,
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
    split_down,
)

# -- commands -------------------------------------------------------------------------


def help_rows(view: View) -> list[HelpRow]:
    """The turn commands (cells as the grid labels them, from 1)."""
    return [
        (f"place R7 {EXAMPLE_CELL}", "put a tile from your playing tray in cell row 3, column 4 (several: place R7 3,4 R8 3,5)"),
        ("move 3,4 5,1", "move the tile in cell 3,4 to the empty cell 5,1"),
        ("back 3,4", "take a tile you placed this turn back to your tray"),
        ("undo | reset", "undo the last step | start the turn again"),
        ("check", "list every invalid line, and what each joker can stand for"),
        ("commit (or done)", "end your turn with the grid as it is"),
        ("play A 3,4=R7 3,5=R8", "a whole turn in one line: the tray, then each changed cell (=. empties it); commits"),
        ("play ... down ...", "going down: after `down`, your going-down lines as first laid, if the turn moved them"),
        ("tray A|B", "on your first turn: play from tray A or tray B"),
        ("draw A|B", "draw a tile onto your playing tray, ending the turn (first turn: onto the tray you name)"),
        ("pass", "end the turn when the pool is empty"),
        ("end", "after emptying a tray this turn: stop without playing from the other one"),
        ("call 3,1 O3", "call the joker in cell 3,1 (in a 3-tile group) the tile O3"),
        (
            "penalty",
            f"commit anyway: the table is restored and you draw {INVALID_TABLE_PENALTY}"
            f" ({WRONG_TRAY_PENALTY} for playing from the wrong tray)",
        ),
        (f"sort {'|'.join(ORDERS)}", "order your trays"),
        ("show", "show the whole game again"),
        ("help", "this list"),
        ("quit", "save the game record and stop"),
    ]


def help_lines(view: View, width: int = 0) -> list[str]:
    """The command list with its heading, laid out to ``width``."""
    head = (
        "Commands (cells are ROW,COLUMN as the grid is labelled, counted from 1; tiles are written like"
        " R7, K13, J):"
    )
    return help_table(head, help_rows(view), width)


def command_text(action: Action) -> str:
    """The command a person types for ``action``: its text without the seat, cells counted from 1.

    >>> from rummykit.rulesets.two_tray import INFO
    >>> command_text(INFO.parse_action('0 call 2,0 O3')), command_text(INFO.parse_action('1 draw b'))
    ('call 3,1 O3', 'draw B')
    >>> command_text(INFO.parse_action('0 play A 0,3=R4 -1,0=.'))
    'play A 0,1=. 1,4=R4'
    >>> command_text(INFO.parse_action('0 play A 0,3=R10 2,0=R11 2,1=R12 2,2=R13 down 2,0=R10 2,1=R11 2,2=R12'))
    'play A 1,4=R10 3,1=R11 3,2=R12 3,3=R13 down 3,1=R10 3,2=R11 3,3=R12'
    """
    if isinstance(action, Call):
        return f"call {screen_cell((action.row, action.col))} {action.tile}"
    if isinstance(action, Play | Fail):
        verb = "play" if isinstance(action, Play) else "penalty"
        words = [verb, action.tray, *(_put_text(p) for p in action.changes)]
        if action.down:
            words += [DOWN, *(_put_text(p) for p in action.down)]
        return " ".join(words)
    return action.text()  # draw A, pass, end: no numbers


class GridTurn(DraftCommands):
    """One person's turn: a grid draft driven by typed commands (see :func:`help_rows`)."""

    orders = tuple(ORDERS)
    order_aliases = ALIASES
    surface = "grid"

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
        super().__init__(view, parse_action=parse_action, say=say, style=style, labels=labels, order=order)
        self.draft: GridDraft[Tile] = draft_from_view(view)
        self.penalised: list[str] = []
        """The problems of a turn committed with ``penalty`` (in the people's numbering), said once accepted."""
        self.draws_draft = False
        """True once an interface asked for :meth:`draft_view` (it draws the draft itself, like the terminal
        app's grid): from then on a drafting step no longer says the drafted grid. (A grid draft has no
        :meth:`board` for an interface to draw, so each drafting step says the drafted grid even when
        :attr:`echo` is False.)"""

    def board(self) -> None:
        """None: a two-tray turn is a grid draft, not a free table; each step says the drafted grid."""
        return None

    def draft_view(self) -> dict[str, Any]:
        """The seat's view as this turn has drafted it, for an interface that draws the grid itself.

        ``grid`` and ``trays`` are as drafted (the notation's cells, from 0);
        ``draft`` adds ``tray`` (the tray played from), ``base`` (the number
        the screen gives row 0 and column 0, for the commands' cells),
        ``marks`` (``[row, col, mark]``: ``+`` placed, ``*`` moved),
        ``problems`` (each ``text``, the engine's check with its rule id, and
        its ``cells``), ``placed`` (tiles placed this turn) and ``ready`` (the
        draft may be committed). Asking for it sets :attr:`draws_draft`.
        """
        self.draws_draft = True
        view = dict(self.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
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
        }
        return view

    # -- screens ---------------------------------------------------------------------

    def marks(self) -> dict[Cell, str]:
        """The tiles the turn has placed (``+``) and moved (``*``) so far, by cell."""
        before = {cell: str(t) for cell, t in self.draft.original.cells.items()}
        return grid_changes(before, {cell: str(t) for cell, t in self.draft.cells.items()}).marks

    def table_lines(self) -> list[str]:
        """The drafted grid (what the turn changed marked), what is wrong with it, and the trays."""
        tiles = {cell: str(t) for cell, t in self.draft.cells.items()}
        calls = {cell: str(t) for cell, t in self.draft.grid.calls.items()}
        lines = ["Grid:", *draw_grid(tiles, calls, self.style, self.marks())]
        placed = self.draft.placed()
        notes = []
        if placed:
            where = [f"{t} at {screen_cell(p.cell)}" for p in self.draft.changes() if (t := p.piece) is not None]
            notes.append(f"Placed or moved this turn ({NEW} placed, {MOVED} moved): {', '.join(where)}")
        if self.draft.changed or placed:
            problems = self.draft.problems()
            if not problems:
                notes.append("Ready: `commit` ends your turn with this grid.")
            notes += [self.style.warn(f"Not yet: {problem_text(p)}") for p in problems]
        lines += self.style.fit(notes)
        return lines + self.tray_text()

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
        notes = []
        note = reminder(self.view)
        if note and not self.draft.placed():
            notes.append(note)
        if self.view["playing"][self.seat] is None:
            notes.append("Your first turn: `tray B` plays from tray B instead of tray A; `draw A` or `draw B` draws.")
        return lines + self.style.fit(notes)

    def accepted(self) -> list[str]:
        """A note when a draw, pass or end put unfinished moves back, or what a penalty was taken for."""
        if self.ended_by == "penalty" and self.penalised:
            return self.style.fit([f"You took the penalty for: {'; '.join(self.penalised)}"], hang=4)
        if self.ended_by in ("draw", "pass", "end") and (self.draft.changed or self.draft.placed()):
            return ["(your unfinished moves were put back)"]
        return []

    def update(self, view: View) -> list[str]:
        """A new view of the same seat (after a call, or after emptying a tray): the draft follows it."""
        old = self.draft
        self.view = view
        self.draft = draft_from_view(view)
        if old.original.cells == self.draft.original.cells and old.tray_name == self.draft.tray_name:
            # Only a call changed: keep the moves drafted so far (and the going-down lines they hold).
            self.draft.cells = dict(old.cells)
            self.draft.tray = list(old.tray)
            self.draft.down = old.down
        self.ended_by = None
        return self.screen()

    # -- commands ----------------------------------------------------------------------

    def help_text(self) -> list[str]:
        """See :func:`help_lines`."""
        return help_lines(self.view, self.style.width)

    def order_lines(self) -> list[str]:
        """The trays in the new order."""
        return self.tray_text()

    def game_handlers(self) -> dict[str, Handler]:
        """Two-tray's commands (see :func:`help_rows`)."""
        return {
            "tray": self._tray,
            "place": self._place,
            "move": self._move,
            "back": self._back,
            "undo": self._undo,
            "reset": self._reset,
            "check": self._check,
            "commit": self._commit,
            "done": self._commit,
            "play": self._play,
            "penalty": self._penalty,
            "draw": self._draw,
            "pass": self._pass,
            "end": self._end,
            "call": self._call,
        }

    def changed(self) -> None:
        """Say the drafted grid after a step (unless an interface draws :meth:`draft_view` itself)."""
        if not self.draws_draft:
            self.say(*self.table_lines())

    def _trays_allowed(self) -> list[str]:
        """The trays this turn may play from or draw onto: the playing one, or any on a first turn."""
        playing = self.view["playing"][self.seat]
        return list(self.view["trays"]) if playing is None else [playing]

    def _choose_tray(self, text: str) -> None:
        """Draft the turn from tray ``text`` (a first turn may choose; later turns play the playing tray)."""
        name = text.strip().upper()
        if name != self.draft.tray_name:
            self.draft = draft_from_view(self.view, name)  # the trays take turns: the game refuses another

    def _tray(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError("usage: tray A (or tray B): the tray your first turn plays from")
        self._choose_tray(args[0])
        self.say(f"Playing from tray {self.draft.tray_name}.", *self.table_lines())

    def _place(self, args: list[str]) -> None:
        if not args or len(args) % 2:
            raise ParseError(f"usage: place TILE ROW,COLUMN [TILE ROW,COLUMN ...] (e.g. place R7 {EXAMPLE_CELL})")
        steps = [(Tile.parse(args[i]), typed_cell(args[i + 1])) for i in range(0, len(args), 2)]
        done = 0
        try:
            for tile, cell in steps:
                self.draft.place(tile, cell)
                done += 1
        except RummykitError:
            for _ in range(done):
                self.draft.undo()
            raise
        self.changed()

    def _move(self, args: list[str]) -> None:
        if len(args) != 2:
            raise ParseError("usage: move FROM TO, two cells ROW,COLUMN (e.g. move 3,4 5,1)")
        self.draft.move(typed_cell(args[0]), typed_cell(args[1]))
        self.changed()

    def _back(self, args: list[str]) -> None:
        if len(args) != 1:
            raise ParseError(f"usage: back ROW,COLUMN (e.g. back {EXAMPLE_CELL})")
        self.draft.back(typed_cell(args[0]))
        self.changed()

    def _check(self, args: list[str]) -> None:
        no_args("check", args)
        problems = self.draft.problems()
        lines = [f"  {problem_text(p)}" for p in problems] if problems else ["The grid is valid: `commit` ends your turn with it."]
        view = dict(self.view)
        grid = self.draft.grid
        view["grid"] = [
            {"row": r, "col": c, "tile": str(t), "called": None if (r, c) not in grid.calls else str(grid.calls[(r, c)])}
            for (r, c), t in sorted(grid.cells.items())
        ]
        for cell, options in joker_options(view).items():
            lines.append(f"  The joker at {screen_cell(cell)} can stand for {' or '.join(options)}.")
        self.say(*self.style.fit(lines, hang=4))

    def _problems_said(self, anyway: str) -> bool:
        """Say what keeps the draft from being committed (True if anything does)."""
        problems = self.draft.problems()
        if not problems:
            return False
        if len(problems) == 1:
            self.say(*self.style.fit([f"! Cannot commit: {problem_text(problems[0])}; {anyway}."], hang=4))
        else:
            self.say(*self.style.fit([f"! Cannot commit, {counted(len(problems), 'problem')} ({anyway}):"], hang=4))
            self.say(*self.style.fit((f"    {problem_text(p)}" for p in problems), hang=6))
        return True

    def _commit(self, args: list[str]) -> Action | None:
        no_args("commit", args)
        if not self.draft.placed():
            raise ParseError("nothing placed from your tray yet: place tiles, or `draw`")
        if self._problems_said(f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
            return None
        return draft_action(self.seat, self.draft)

    def _whole_turn(self, verb: str, args: list[str]) -> None:
        """Draft a whole turn typed in one line (``TRAY CELL=TILE ... [down CELL=TILE ...]``), from the start of
        the turn."""
        if len(args) < 2:
            raise ParseError(f"usage: {verb} TRAY ROW,COLUMN=TILE ... (e.g. {verb} A 3,4=R7 3,5=R8; =. empties a cell)")
        words, down_words = split_down(args[1:])
        changes = [_typed_change(word) for word in words]
        down = [_typed_change(word) for word in down_words]
        previous = self.draft
        self._choose_tray(args[0])
        try:
            self.draft.apply(changes, down)
        except RummykitError:
            self.draft = previous
            raise

    def _play(self, args: list[str]) -> Action | None:
        self._whole_turn("play", args)
        if self._problems_said(f"fix it, or `penalty` commits anyway (you draw {INVALID_TABLE_PENALTY})"):
            self.say(*self.table_lines())
            return None
        return draft_action(self.seat, self.draft)

    def _penalty(self, args: list[str]) -> Action:
        if args:
            self._whole_turn("penalty", args)
        self.penalised = [problem_text(p) for p in self.draft.problems()]
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
            raise ParseError("usage: call ROW,COLUMN TILE (e.g. call 3,1 O3)")
        cell, tile = typed_cell(args[0]), Tile.parse(args[1])
        # whether the joker may be called so is the engine's to say; its refusal names the cell as data
        return self.parse_action(f"{self.seat} call {cell_text(cell)} {tile}")


    # -- completion -------------------------------------------------------------

    def completions(self, words: Sequence[str]) -> list[str]:
        """The commands; after one, what it takes that the seat holds or may name: the playing tray's
        tiles not placed or typed yet (``place``), the cells of the tiles placed this turn (``back``),
        the trays the turn may use (``tray``, ``draw``, ``play``), the jokers' cells and the tiles each
        may be called (``call``), the sort orders. Cells are offered as the screen numbers them.

        >>> from rummykit.rulesets.two_tray import INFO, from_position
        >>> state = from_position('grid: 0,0: K9 B9 J; trays: A[R4 O9 R5] B[K1] / A[O1] B[B1]; next: A B; down: 11')
        >>> turn = GridTurn(state.view(0), parse_action=INFO.parse_action, say=print, style=Style())
        >>> turn.completions(['place']), turn.completions(['place', 'r4', '2,1']), turn.completions(['place', 'R4'])
        (['O9', 'R4', 'R5'], ['O9', 'R5'], [])
        >>> turn.completions(['call']), turn.completions(['call', '1,3']), turn.completions(['draw'])
        (['1,3'], ['O9', 'R9'], ['A'])
        """
        if not words:
            return sorted(verb for verb in self._handlers() if verb.isalpha())
        verb, args = words[0].lower(), list(words[1:])
        if verb == "place" and len(args) % 2 == 0:
            return self._tray_left(args[0::2])
        if verb == "back" and not args:
            return [screen_cell(cell) for cell, mark in sorted(self.marks().items()) if mark == NEW]
        if verb in ("tray", "draw", "play", "penalty") and not args:
            return self._trays_allowed()
        if verb == "call" and not args:
            return [screen_cell(cell) for cell, tile in sorted(self.draft.original.cells.items()) if tile.colour is None]
        if verb == "call" and len(args) == 1:
            try:
                cell = typed_cell(args[0])
            except ParseError:
                return []
            return [str(t) for t in call_options(grid_from_view(self.view), cell)]
        if verb == "sort" and not args:
            return list(ORDERS)
        return []

    def _tray_left(self, typed: Sequence[str]) -> list[str]:
        """The drafted playing tray's tiles (each kind once, in the tray's order) not all named in ``typed``."""
        left = Counter(str(t) for t in self.draft.tray)
        for word in typed:
            try:
                left[str(Tile.parse(word))] -= 1
            except ParseError:
                continue
        shown = [str(t) for group in ORDERS[self.order](self.draft.tray) for t in group]
        return [t for t in dict.fromkeys(shown) if left[t] > 0]
