"""The ``rummikub`` presenter: tiles, the pool, the initial meld, the drafting commands and the solver's hint.

>>> PRESENTER.words.count(14), PRESENTER.orders, PRESENTER.hint
('14 tiles', ['colour', 'number'], True)
>>> [[str(t) for t in g] for g in by_number(parse_tiles('R5 K5 B1 J'))]
[['B1'], ['K5', 'R5'], ['J']]
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.pieces.tiles import COLOURS, MAX_NUMBER, Tile, number_order, parse_tiles
from rummykit.presenters.base import Presenter, View, Vocabulary
from rummykit.presenters.freetable import REASONS, FreeTablePresenter, TableKit, grouped
from rummykit.presenters.text import plural
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
        f" worth at least {plural(points, 'point')}, without touching the table."
    )


def best_table(view: View) -> list[list[str]] | None:
    """The table the best play (``hint``) would leave for the seat, numbered as on the screen (None: no play)."""
    from rummykit.solve.play import solve_tiles
    from rummykit.solve.steps import screen_order

    seat = view.get("seat")
    if seat is None:
        return None
    table = [tuple(parse_tiles(s)) for s in view["table"]]
    threshold = int(view["options"]["initial_meld_points"])
    initial = not view["down"][seat] and threshold > 0
    solution = solve_tiles(
        table, parse_tiles(view["rack"]), objective="initial" if initial else "tiles", threshold=threshold
    )
    if solution is None:
        return None
    return [[str(t) for t in s] for _, s in screen_order(table, solution.table)]


RULES = (
    "Each player gets 14 tiles; the rest are the pool. On your turn you play tiles from your rack onto"
    " the table, or draw one tile from the pool (which ends your turn).",
    "The table holds sets of 3 or more tiles: a group is one number in different colours (K7 B7 R7),"
    " a run is one colour with consecutive numbers (O4 O5 O6 O7; 13 is not followed by 1). A joker"
    " stands for any tile.",
    "Your first play, the initial meld, is one or more new sets from your rack worth at least 30 points"
    " (option initial_meld_points). After that you may rearrange the whole table as you like, as long as"
    " every set is valid when your turn ends.",
    "Whoever empties their rack wins the round: the others score minus what their racks hold (a joker"
    " counts 30) and the winner scores the total. An invalid table at the end of a turn can be committed"
    " on purpose (`penalty`): it is restored and you draw 3 tiles.",
)
"""The rules in brief, for ``rummykit rules``."""

NOTATION = (
    "A tile is a colour letter and a number 1.."
    f"{MAX_NUMBER}: "
    + ", ".join(f"{c.letter} {c.name.lower()}" for c in COLOURS)
    + f" (the seed's palette: {', '.join(f'{c.letter} {c.palette_name}' for c in COLOURS)});"
    " R7 is the red 7. J is a joker.",
    "Sets on the screen are numbered from 1; a table is written with its sets separated by |"
    " (R1 R2 R3 | K5 B5 O5).",
)
"""How tiles are written, for ``rummykit rules``."""

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
    best_table=best_table,
    example="R1 R2 R3",
    rules=RULES,
    notation=NOTATION,
)

PRESENTER: Presenter = FreeTablePresenter(INFO, KIT, solver=solve_rummikub)
