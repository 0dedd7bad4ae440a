"""The ``domino-rummikub`` presenter: dominoes, the boneyard, the starting group, the drafting commands and the solver's hint.

>>> PRESENTER.words.count(3), PRESENTER.orders, PRESENTER.hint
('3 dominoes', ['low', 'pips'], True)
>>> [[str(d) for d in g] for g in by_pips(parse_dominoes('5-3 1-1 6-2 0-2'))]
[['0-2', '1-1'], ['2-6', '3-5']]
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.presenters.base import Presenter, View, Vocabulary
from rummykit.presenters.freetable import REASONS, FreeTablePresenter, TableKit, grouped
from rummykit.rulesets.domino_rummikub import EXACTLY_3, INFO, draft_from_view
from rummykit.rulesets.freetable import draft_action
from rummykit.solve.command import domino_hint_lines, solve_domino_rummikub

__all__ = ["KIT", "PRESENTER", "WORDS", "by_low", "by_pips"]

WORDS = Vocabulary(
    piece="domino", pieces="dominoes", rack="rack", pool="boneyard", opening="starting group", reasons=REASONS
)


def by_low(dominoes: Sequence[Domino]) -> list[list[Domino]]:
    """Dominoes grouped by their low half."""
    return grouped(dominoes, key=lambda d: d.low, sort=lambda d: d)


def by_pips(dominoes: Sequence[Domino]) -> list[list[Domino]]:
    """Dominoes grouped by their pip total."""
    return grouped(dominoes, key=lambda d: d.pips, sort=lambda d: (d.pips, d))


def reminder(view: View) -> str | None:
    """What the starting group needs, while the seat is not down yet."""
    seat = view.get("seat")
    if seat is None or view["down"][seat]:
        return None
    size = view.get("options", {}).get("starting_group_size")
    count = "exactly 3" if size == EXACTLY_3 else "3 or more"
    return (
        f"You are not down yet: your first play is a starting group, one new set of {count}"
        " dominoes from your rack, without touching the table."
    )


RULES = (
    "Two double-six domino sets, 56 dominoes; 0-0 and 6-6 are jokers. Each player gets 8 dominoes;"
    " the rest are the boneyard. On your turn you play dominoes from your rack onto the table, or draw"
    " one from the boneyard (pass when it is empty).",
    "The table holds sets of 3 or more dominoes: a run shares one half and its other halves are"
    " consecutive (5-3 5-4 5-5; 6 is not followed by 0), a sum has equal pip totals (4-3 5-2 6-1). A"
    " joker stands for whatever domino makes the set valid.",
    "Your first play, the starting group, is one new set of exactly 3 dominoes from your rack (option"
    " starting_group_size). After that you may rearrange the whole table; a commit that leaves an"
    " invalid set is refused.",
    "Whoever plays their last domino scores the spots left in every other hand; when everyone passes in"
    " a row, whoever holds the fewest spots scores the others'. A match is played to 100 points (option"
    " target).",
)
"""The rules in brief, for ``rummykit rules``."""

def best_table(view: View) -> list[list[str]] | None:
    """The table the best play (``hint``) would leave for the seat, numbered as on the screen (None: no play)."""
    from rummykit.solve.command import HINT_NODES
    from rummykit.solve.dominoes import solve_dominoes
    from rummykit.solve.steps import screen_order

    seat = view.get("seat")
    if seat is None:
        return None
    table = [tuple(parse_dominoes(" ".join(s))) for s in view["table"]]
    solution = solve_dominoes(
        table,
        parse_dominoes(" ".join(view["rack"])),
        objective="dominoes" if view["down"][seat] else "initial",
        starting_group_size=str(view["options"]["starting_group_size"]),
        node_limit=HINT_NODES,
    )
    if solution is None:
        return None
    return [[str(d) for d in s] for _, s in screen_order(table, solution.table)]


NOTATION = (
    "A domino is its two halves, low first: 3-5 (5-3, 5:3 and 5/3 are read as the same domino)."
    " 0-0 and 6-6 are jokers.",
    "Sets on the screen are numbered from 1; a table is written with its sets separated by |"
    " (3-5 4-5 5-5 | 1-6 2-5 3-4).",
)
"""How dominoes are written, for ``rummykit rules``."""

KIT: TableKit[Domino] = TableKit(
    words=WORDS,
    parse_pieces=parse_dominoes,
    draft_from_view=draft_from_view,
    draft_action=draft_action,
    orders={"low": by_low, "pips": by_pips},
    aliases={"half": "low", "number": "low", "sum": "pips", "spots": "pips"},
    penalty=None,
    reminder=reminder,
    best_play=domino_hint_lines,
    best_table=best_table,
    example="5-3 5-4 5-5",
    rules=RULES,
    notation=NOTATION,
)

PRESENTER: Presenter = FreeTablePresenter(INFO, KIT, solver=solve_domino_rummikub)
