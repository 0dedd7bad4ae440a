"""Domino rummikub's constants and options: the set, its jokers and meld rules, the table rules and the options.

>>> TOP, sorted(str(d) for d in JOKERS)
(6, ['0-0', '6-6'])
>>> starting_group(EXACTLY_3).set_sizes
(3,)
"""

from __future__ import annotations

import functools

from rummykit.blocks.table import FreeTable, Opening
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec
from rummykit.melds.dominoes import DominoCheck, DominoMelds, _check
from rummykit.pieces.dominoes import Domino, format_dominoes

__all__ = [
    "AT_LEAST_3",
    "COPIES",
    "EXACTLY_3",
    "GAME_ID",
    "JOKERS",
    "MELDS",
    "OPTIONS",
    "PREFIX",
    "RACK_SIZE",
    "TABLE",
    "TOP",
    "DominoSet",
    "starting_group",
]

GAME_ID = "domino-rummikub"
PREFIX = "DR"
"""The prefix of every rule id (``DR-...``)."""
TOP = 6
COPIES = 2
RACK_SIZE = 8
JOKERS = frozenset({Domino(0, 0), Domino(TOP, TOP)})
MELDS = DominoMelds(top=TOP, jokers=JOKERS, prefix=PREFIX)
"""The meld family: runs and sums of a double-six set, 0-0 and 6-6 wild."""


@functools.lru_cache(maxsize=1 << 13)
def _check_set(dominoes: tuple[Domino, ...]) -> DominoCheck:
    """The family's cached check of a tuple (the same verdict objects), cached by the tuple alone: a cache
    keyed by one argument answers a table's sets faster than the family's, keyed by the rules too."""
    return _check(MELDS, dominoes)


TABLE: FreeTable[Domino] = FreeTable(MELDS.check, format_dominoes, PREFIX, "domino", JOKERS, _check_set)
"""The table rules; a play's sets are judged by the family's cached check of a tuple (the same verdicts)."""
EXACTLY_3 = "exactly-3"
AT_LEAST_3 = "3-or-more"

OPTIONS = (
    OptionSpec(
        "starting_group_size",
        str,
        EXACTLY_3,
        "size of each player's first play, one new set from the rack",
        choices=(EXACTLY_3, AT_LEAST_3),
    ),
    *match_options(target=100, target_help="50: the short game; none: one round"),
)

DominoSet = tuple[Domino, ...]


@functools.lru_cache(maxsize=4)
def starting_group(size_rule: str) -> Opening:
    """The starting-group rule: one new set from the rack, of exactly three dominoes unless ``3-or-more``."""
    if size_rule == EXACTLY_3:
        return Opening(set_sizes=(3,), max_sets=1, name="starting group")
    return Opening(max_sets=1, name="starting group")
