"""Listing plays: every set a rack can make, every lay-off, and the listable actions (also from a view).

The sets and lay-offs are the meld family's (:data:`~rummykit.rulesets.domino_rummikub.options.MELDS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rummykit.engine.core import Action
from rummykit.melds.base import MIN_SET
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub.options import EXACTLY_3, MELDS, DominoSet

__all__ = ["actions_from_view", "layoffs", "listable_actions", "rack_sets"]

_extensions = MELDS.extensions
"""Every domino that grows a set at one end (the family's :meth:`~rummykit.melds.dominoes.DominoMelds.extensions`)."""


def rack_sets(rack: Iterable[Domino], *, max_size: int | None = None) -> list[DominoSet]:
    """Every valid set (normal form) that can be made from the rack (up to ``max_size`` dominoes).

    A joker may also stand where the rack holds the real domino (keeping it back).

    >>> from rummykit.pieces.dominoes import format_dominoes
    >>> [format_dominoes(s) for s in rack_sets(parse_dominoes('5-3 5-4 5-5 6-6'), max_size=3)]
    ['6-6 3-5 4-5', '3-5 4-5 5-5', '6-6 4-5 5-5', '3-5 6-6 5-5', '3-5 4-5 6-6', '4-5 5-5 6-6']
    """
    return MELDS.enumerate(rack, max_size)


def layoffs(rack: Iterable[Domino], table: Sequence[DominoSet]) -> list[tuple[Domino, int, DominoSet]]:
    """Every (domino, set index, new set) adding one rack domino to one table set (as the family's
    :func:`~rummykit.melds.base.layoffs`, a set skipped when no rack domino grows it)."""
    have = set(rack)
    out: list[tuple[Domino, int, DominoSet]] = []
    for i, s in enumerate(table):
        fitting, grown_by = _fits(tuple(s))
        if not fitting.isdisjoint(have):
            out.extend((d, i, grown) for d, grown in grown_by if d in have)
    return out


@lru_cache(maxsize=1 << 11)
def _fits(s: DominoSet) -> tuple[frozenset[Domino], tuple[tuple[Domino, DominoSet], ...]]:
    """The dominoes that grow the table set ``s`` at an end, and each with the grown set (as :func:`_extensions`)."""
    grown_by = _extensions(s)
    return frozenset(d for d, _grown in grown_by), grown_by


def listable_actions(
    seat: int,
    rack: Sequence[Domino],
    table: Sequence[DominoSet],
    *,
    down: bool,
    starting_group_size: str,
    pool_size: int,
) -> list[Action]:
    """Draw (or pass when the boneyard is empty); every play of one new set from the rack
    (before the starting group: one of the allowed size); once down, every one-domino lay-off."""
    exact = not down and starting_group_size == EXACTLY_3
    sets = [s for s in rack_sets(rack, max_size=MIN_SET if exact else None) if not exact or len(s) == MIN_SET]
    return freetable.one_step_plays(seat, sets, layoffs(rack, table) if down else (), table, pool_size)


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view (a free-table view) this is (empty if it may not act)."""
    seen = freetable.free_table_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_dominoes(seen["rack"]),
        [freetable.parse_view_set(parse_dominoes, tuple(s)) for s in seen["table"]],
        down=seen["down"][seat],
        starting_group_size=str(seen["options"]["starting_group_size"]),
        pool_size=seen["pool_size"],
    )
