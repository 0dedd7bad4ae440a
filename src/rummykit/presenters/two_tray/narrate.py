"""Two-tray's events told as a seat sees them: each play shown on the grid, its changes marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.blocks.grid import Cell, Grid, Put
from rummykit.pieces.tiles import Tile
from rummykit.presenters.base import View
from rummykit.presenters.freetable import describe_event as table_event
from rummykit.presenters.freetable import outcome_lines, round_end_lines
from rummykit.presenters.text import Style, counted, seat_name
from rummykit.presenters.two_tray.view import (
    LEGEND,
    WORDS,
    _notation_cell,
    _put_text,
    draw_grid,
    grid_changes,
    moved_text,
    screen_cell,
)

# -- events ---------------------------------------------------------------------------


def describe_event(
    event: View,
    names: Sequence[str],
    style: Style,
    *,
    before: Mapping[Cell, str] | None = None,
    calls: Mapping[Cell, str] | None = None,
    legend: bool = False,
) -> list[str]:
    """Lines telling one event as a seat sees it (``[]``: nothing to tell), laid out to the style's width.

    Cells are named as people count them (from 1). Given the grid ``before``
    a play (and its ``calls``), the play is shown on the grid it leaves, with
    its new and moved tiles marked, and a line says what moved; ``legend``
    adds a line that explains the marks. Without it, the play lists the cells
    it changed.

    >>> play = {'kind': 'play', 'player': 0, 'tray': 'A', 'changes': ['0,3=R4'], 'placed': ['R4'],
    ...         'opening': False, 'tray_sizes': {'A': 5, 'B': 14}}
    >>> describe_event(play, ['ann', 'bob'], Style())
    ['ann plays R4 from tray A; tray A: 5, tray B: 14', '    cells: 1,4=R4']
    >>> for line in describe_event(play, ['ann', 'bob'], Style(), before={(0, 0): 'R1', (0, 1): 'R2', (0, 2): 'R3'},
    ...                            legend=True):
    ...     print(line)
    ann plays R4 from tray A; tray A: 5, tray B: 14
           0   1   2   3   4   5
       0   .   .   .   .   .   .
       1   .  R1  R2  R3 +R4   .
       2   .   .   .   .   .   .
        (+ placed from a tray, * moved from another cell)
    """
    kind = str(event.get("kind"))
    if kind == "play" and before is not None:
        return _play_on_grid(event, names, style, before, calls or {}, legend)
    return style.fit(_describe(event, names, style))


def _play_head(event: View, names: Sequence[str], style: Style) -> str:
    who = seat_name(names, event.get("player"))
    note = " (going down)" if event.get("opening") else ""
    sizes = ", ".join(f"tray {t}: {n}" for t, n in event.get("tray_sizes", {}).items())
    return f"{who} plays {style.pieces(event.get('placed', []))} from tray {event.get('tray')}{note}; {sizes}"


def _changes(event: View) -> list[Put[Tile]]:
    return [Put.from_notation(str(text), Tile.parse) for text in event.get("changes", [])]


def after_play(before: Mapping[Cell, str], event: View) -> dict[Cell, str]:
    """The grid a ``play`` event leaves (cell -> tile text), from the grid before it."""
    grid = dict(before)
    for put in _changes(event):
        if put.piece is None:
            grid.pop(put.cell, None)
        else:
            grid[put.cell] = str(put.piece)
    return grid


def _play_on_grid(
    event: View,
    names: Sequence[str],
    style: Style,
    before: Mapping[Cell, str],
    calls: Mapping[Cell, str],
    legend: bool,
) -> list[str]:
    after = after_play(before, event)
    change = grid_changes(before, after)
    kept = {cell: tile for cell, tile in calls.items() if after.get(cell) == "J"}
    lines = style.fit([_play_head(event, names, style)])
    moved = moved_text(change)
    if moved:
        lines += style.fit([f"    moved: {moved}"], hang=11)
    lines += draw_grid(after, kept, style, change.marks)
    if legend and change.any:
        lines += style.fit([f"    {LEGEND}"])
    return lines


def _describe(event: View, names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = seat_name(names, event.get("player"))
    if kind == "deal":
        first = seat_name(names, event.get("first"))
        size = int(event.get("tray_size", 0))
        return [style.bold(f"Round {event.get('round', 1)} dealt: two trays of {counted(size, 'tile')} each; {first} plays first.")]
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
        changes = " ".join(_put_text(p) for p in _changes(event))
        return [_play_head(event, names, style), f"    cells: {changes}"]
    if kind == "call":
        cell = screen_cell(_notation_cell(str(event.get("cell"))))
        return [f"{who} calls the joker at {cell} {style.piece(str(event.get('tile')))}"]
    if kind == "tray-empty":
        return [f"{who} has emptied tray {event.get('tray')} and plays on at once from tray {event.get('next')}"]
    if kind == "end":
        return [f"{who} ends the turn without playing from the other tray"]
    if kind == "merge":
        return [
            f"{who} combines both trays into tray {event.get('tray')} ({counted(int(event.get('tray_size', 0)), 'tile')});"
            " from now on both players play from one tray"
        ]
    if kind == "penalty":
        # The reason (secret, the acting seat's only) names cells as the notation does; the person who
        # took the penalty at the prompt has just read it in screen numbers (GridDisplay.accepted).
        n = int(event.get("drawn", 0))
        wrong = event.get("penalty") == "wrong-tray"
        what = "played from the wrong tray" if wrong else "committed an invalid table"
        tray = event.get("tray")
        again = f"; the marker stays by tray {tray}, which plays again next turn" if wrong else ""
        lines = [
            f"{who} {what} (rule {event.get('rule')}): the table is restored and {who}"
            f" draws {counted(n, 'penalty tile')} onto tray {tray}{again}"
        ]
        if "pieces" in event:
            lines.append(f"    drawn: {style.pieces(event['pieces'])}")
        return lines
    if kind == "position":
        return ["The game starts from a set position."]
    if kind == "round-end":
        return round_end_lines(event, names, style, WORDS)
    if kind == "match-end":
        return outcome_lines(event, names, style, WORDS)
    return table_event(event, names, style, words=WORDS)


class GridNarrator:
    """Tells a two-tray game's events in order, showing each play on the grid with its tiles marked.

    It keeps the grid as the events showed it last (empty at a deal, as the
    ``position`` event sets it, as each ``play`` and ``call`` leaves it), so
    it can draw the grid after each play and mark what the play changed. The
    marks are explained the first time they appear. Before it knows the grid
    (a game resumed in the middle), a play lists the cells it changed.
    """

    def __init__(self, names: Sequence[str], style: Style) -> None:
        self.names = list(names)
        self.style = style
        self.grid: dict[Cell, str] | None = None
        """The grid before the next event (None: not known yet)."""
        self.calls: dict[Cell, str] = {}
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """See :func:`describe_event`."""
        kind = event.get("kind")
        if kind == "play" and self.grid is not None:
            before = self.grid
            after = after_play(before, event)
            legend = not self.explained and grid_changes(before, after).any
            lines = describe_event(event, self.names, self.style, before=before, calls=self.calls, legend=legend)
            self.explained = self.explained or legend
            self.grid = after
            self.calls = {cell: tile for cell, tile in self.calls.items() if after.get(cell) == "J"}
            return lines
        lines = describe_event(event, self.names, self.style)
        if kind == "deal":
            self.grid, self.calls = {}, {}
        elif kind == "position" and "grid" in event:
            grid = Grid.parse(str(event["grid"]), Tile.parse)
            self.grid = {cell: str(tile) for cell, tile in grid.cells.items()}
            self.calls = {cell: str(tile) for cell, tile in grid.calls.items()}
        elif kind == "call" and self.grid is not None:
            self.calls[_notation_cell(str(event.get("cell")))] = str(event.get("tile"))
        return lines
