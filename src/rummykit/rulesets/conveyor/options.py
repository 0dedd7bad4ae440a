"""Conveyor's constants and options: the game id, sets, phases, the layout and the option list.

Each constant has its home here (the face-down marker's is
:mod:`rummykit.blocks.conveyor`, the phase ``over`` the engine's); the
interfaces import them from :mod:`rummykit.rulesets.conveyor`.

>>> PHASES
('select', 'draw', 'play', 'jump', 'over')
>>> [spec.name for spec in OPTIONS][:6]
['set', 'columns', 'column_length', 'target', 'max_turns', 'max_rounds']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rummykit.blocks.conveyor import UNKNOWN
from rummykit.engine.core import OVER
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec, OptionValue
from rummykit.errors import OptionError
from rummykit.melds.conveyor import MIN_MELD, ConveyorMelds
from rummykit.words import counted

__all__ = [
    "DRAW",
    "GAME_ID",
    "JUMP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OVER",
    "PHASES",
    "PLAY",
    "PREFIX",
    "SELECT",
    "SETS",
    "UNKNOWN",
    "default_layout",
    "resolve_options",
    "rules_for",
]

GAME_ID = "conveyor"
PREFIX = "CV"
"""The prefix of conveyor's rule ids (``CV-...``, see ``docs/games/conveyor.md``)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 4
SETS = (6, 9, 12)
"""The domino sets conveyor is played with: double-6, double-9 and double-12."""

SELECT = "select"
"""The selection round: seats in turn reveal a face-down domino or claim a column."""
DRAW = "draw"
"""The start of a turn: the seat draws from one end of a conveyor."""
PLAY = "play"
"""After the draw (or a won jump-in): melds, lay-offs, then a discard or a close."""
JUMP = "jump"
"""``jump_ins``: a claim window on the discard just made; every other seat answers."""
PHASES = (SELECT, DRAW, PLAY, JUMP, OVER)
"""Every phase a view can show, in the order a round goes through them (``over`` last)."""

_TARGET, _MAX_ROUNDS = match_options(
    target=None, target_help="none: 120 for 2 players, 240 for 3-4", max_rounds=100, zero=True
)

LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    top: tuple(
        (columns, size // columns)
        for columns in range(MIN_PLAYERS + 1, size + 1)
        if size % columns == 0 and size // columns >= MIN_MELD
    )
    for top in SETS
    for size in [(top + 1) * (top + 2) // 2]
}
"""Every (columns, column length) a set can be laid out in: the whole set in equal columns, enough
columns for the fewest players plus a conveyor, hands of a meld or more."""

_FITS = "; ".join(f"double-{top}: {' or '.join(str(c) for c, _ in LAYOUTS[top])}" for top in SETS)
_LENGTHS = "; ".join(f"double-{top}: {' or '.join(str(n) for _, n in LAYOUTS[top])}" for top in SETS)

OPTIONS = (
    OptionSpec(
        "set",
        int,
        None,
        "the domino set, double-6, double-9 or double-12 (none: 9 for 2 players, 12 for 3-4)",
        values=SETS,
        allow_none=True,
    ),
    OptionSpec(
        "columns",
        int,
        None,
        f"columns laid out at the start, as the set allows ({_FITS}); none: the set's usual layout",
        values=tuple(sorted({c for top in SETS for c, _ in LAYOUTS[top]})),
        allow_none=True,
    ),
    OptionSpec(
        "column_length",
        int,
        None,
        f"dominoes per column, which is also the hand size, as the set allows ({_LENGTHS});"
        " none: the set's usual layout",
        values=tuple(sorted({n for top in SETS for _, n in LAYOUTS[top]})),
        allow_none=True,
    ),
    _TARGET,
    OptionSpec("max_turns", int, 200, "a round with this many turns and no close ends with no score", minimum=1, maximum=100_000),
    _MAX_ROUNDS,
    OptionSpec("domino_runs", bool, False, "variant: a whole hand laid end to end as one line of play closes"),
    OptionSpec("branch_on_doubles", bool, False, "with domino_runs: a double may branch the line"),
    OptionSpec("no_milling", bool, False, "variant: never discard a domino that was face up when you drew it"),
    OptionSpec("never_close_on_pickup", bool, False, "variant: a player always closes by discarding"),
    OptionSpec("jump_ins", bool, False, "variant (3-4 players): other players may claim each discard out of turn"),
    OptionSpec("jump_in_only_on_completion", bool, False, "with jump_ins: a claimed discard must complete a meld at once"),
    OptionSpec("partners", bool, False, "variant (4 players): seats across the table are partners"),
)


def default_layout(top: int, players: int) -> tuple[int, int]:
    """The usual (columns, column length) of a set.

    Double-9: 5 columns of 11 (the seed's 2-player layout); double-12: 7 of
    13 (the seed's 3-4-player layout); double-6 (the seed's aside, 28
    dominoes): 4 columns of 7, or 7 columns of 4 for 4 players, who need 5
    columns or more.

    >>> default_layout(9, 2), default_layout(12, 4), default_layout(6, 2), default_layout(6, 4)
    ((5, 11), (7, 13), (4, 7), (7, 4))
    """
    if top == 9:
        return 5, 11
    if top == 12:
        return 7, 13
    return (4, 7) if players <= 3 else (7, 4)


def resolve_options(players: int, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Fill in the options that depend on the number of players and check the layout.

    Resolving resolved options changes nothing (a position or a copy may
    resolve them again).

    >>> o = resolve_options(2, {'set': None, 'columns': None, 'column_length': None, 'target': None,
    ...     'jump_ins': False, 'jump_in_only_on_completion': False, 'partners': False,
    ...     'domino_runs': False, 'branch_on_doubles': False})
    >>> o['set'], o['columns'], o['column_length'], o['target']
    (9, 5, 11, 120)
    >>> resolve_options(2, o) == o
    True
    """
    options = dict(given)
    top = options.get("set")
    if top is None:
        top = 9 if players == 2 else 12
    if not isinstance(top, int) or top not in SETS:
        raise OptionError(f"option set needs 6, 9 or 12 (a double-6, double-9 or double-12 set), got {top}")
    count = (top + 1) * (top + 2) // 2
    columns, length = _whole(options.get("columns")), _whole(options.get("column_length"))
    if columns is None and length is None:
        columns, length = default_layout(top, players)
    elif columns is None:
        assert length is not None
        if count % length:
            raise OptionError(f"a double-{top} set has {count} dominoes, which do not make columns of {length}")
        columns = count // length
    elif length is None:
        if count % columns:
            raise OptionError(f"a double-{top} set has {count} dominoes, which do not split into {columns} equal columns")
        length = count // columns
    if columns * length != count:
        raise OptionError(
            f"{counted(columns, 'column')} of {length} {'holds' if columns == 1 else 'hold'} {counted(columns * length, 'domino')},"
            f" but a double-{top} set has {count}"
        )
    if columns < players + 1:
        raise OptionError(
            f"{counted(columns, 'column')} {'is' if columns == 1 else 'are'} too few for {players} players:"
            " each claims one and at least one must stay"
            " on the table as a conveyor"
        )
    if length < MIN_MELD:
        raise OptionError(f"columns of {length} make hands of {length}: a hand needs at least {MIN_MELD} dominoes")
    options.update({"set": top, "columns": columns, "column_length": length})
    if options.get("target") is None:
        options["target"] = 120 if players == 2 else 240
    if options.get("jump_ins") and players < 3:
        raise OptionError("jump_ins is a variant for 3 or 4 players")
    if options.get("jump_in_only_on_completion") and not options.get("jump_ins"):
        raise OptionError("jump_in_only_on_completion needs jump_ins")
    if options.get("branch_on_doubles") and not options.get("domino_runs"):
        raise OptionError("branch_on_doubles needs domino_runs")
    if options.get("partners") and players != 4:
        raise OptionError("partners is a variant for exactly 4 players (seats across the table are partners)")
    return options


def _whole(value: OptionValue) -> int | None:
    """A whole-number option that may be none (its spec has checked it: anything else is a ``TypeError``)."""
    if value is None or isinstance(value, int):
        return value
    raise TypeError(f"a whole number or none, got {value!r}")


@functools.cache
def rules_for(top: int) -> ConveyorMelds:
    """The meld rules of the double-``top`` set (one shared, immutable object per set)."""
    return ConveyorMelds(top)
