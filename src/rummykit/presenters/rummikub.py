"""The ``rummikub`` presenter: tiles, the pool, the initial meld, the drafting commands and the solver's hint.

>>> PRESENTER.words.count(14), PRESENTER.orders, PRESENTER.hint
('14 tiles', ['colour', 'number'], True)
>>> [[str(t) for t in g] for g in by_number(parse_tiles('R5 K5 B1 J'))]
[['B1'], ['K5', 'R5'], ['J']]
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.pieces.tiles import Tile, number_order, parse_tiles
from rummykit.presenters.base import Presenter, View, Vocabulary
from rummykit.presenters.freetable import REASONS, FreeTablePresenter, TableKit, grouped
from rummykit.rulesets.rummikub import INFO, PENALTY_TILES, draft_action, draft_from_view
from rummykit.solve.command import hint_lines, solve_rummikub

__all__ = ["KIT", "PRESENTER", "WORDS", "by_colour", "by_number"]

WORDS = Vocabulary(piece="tile", pieces="tiles", rack="rack", pool="pool", opening="initial meld", reasons=REASONS)


def by_colour(tiles: Sequence[Tile]) -> list[list[Tile]]:
    """Tiles grouped by colour (the jokers last)."""
    return grouped(tiles, key=lambda t: t.colour, sort=lambda t: t)


def by_number(tiles: Sequence[Tile]) -> list[list[Tile]]:
    """Tiles grouped by number (the jokers last)."""
    return grouped(tiles, key=lambda t: number_order(t)[0], sort=number_order)


def reminder(view: View) -> str | None:
    """What the initial meld needs, while the seat is not down yet."""
    seat = view.get("seat")
    points = int(view.get("options", {}).get("initial_meld_points", 0))
    if seat is None or view["down"][seat] or not points:
        return None
    return (
        f"You are not down yet: your initial meld is one or more new sets from your rack"
        f" worth at least {points} points, without touching the table."
    )


KIT: TableKit[Tile] = TableKit(
    words=WORDS,
    parse_pieces=parse_tiles,
    draft_from_view=draft_from_view,
    draft_action=draft_action,
    orders={"colour": by_colour, "number": by_number},
    aliases={"color": "colour", "colours": "colour", "colors": "colour", "numbers": "number", "num": "number"},
    penalty=PENALTY_TILES,
    reminder=reminder,
    best_play=hint_lines,
    example="R1 R2 R3",
)

PRESENTER: Presenter = FreeTablePresenter(INFO, KIT, solver=solve_rummikub)
