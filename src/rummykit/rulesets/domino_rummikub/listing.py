"""Listing plays: every set a rack can make, every lay-off, and the listable actions (also from a view).

The sets and lay-offs are the meld family's (:data:`~rummykit.rulesets.domino_rummikub.options.MELDS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rummykit.engine.core import Action
from rummykit.melds.base import MIN_SET
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub.growth import KINDS, bit_of, reading
from rummykit.rulesets.domino_rummikub.kept import rack_vector, sets_of_vector
from rummykit.rulesets.domino_rummikub.options import EXACTLY_3, MELDS, DominoSet

__all__ = ["actions_from_view", "layoffs", "listable_actions", "rack_sets", "rack_sets_with"]

_extensions = MELDS.extensions
"""Every domino that grows a set at one end (the family's :meth:`~rummykit.melds.dominoes.DominoMelds.extensions`)."""


def rack_sets(rack: Iterable[Domino], *, max_size: int | None = None) -> list[DominoSet]:
    """Every valid set (normal form) that can be made from the rack (up to ``max_size`` dominoes).

    A joker may also stand where the rack holds the real domino (keeping it back).
    The family's :meth:`~rummykit.melds.dominoes.DominoMelds.enumerate`, read
    from the rack's count vector where it has one
    (:func:`~rummykit.rulesets.domino_rummikub.kept.sets_of_vector`: the same sets in the same order).

    >>> from rummykit.pieces.dominoes import format_dominoes
    >>> [format_dominoes(s) for s in rack_sets(parse_dominoes('5-3 5-4 5-5 6-6'), max_size=3)]
    ['6-6 3-5 4-5', '3-5 4-5 5-5', '6-6 4-5 5-5', '3-5 6-6 5-5', '3-5 4-5 6-6', '4-5 5-5 6-6']
    """
    pieces = rack if isinstance(rack, list) else list(rack)
    vec = rack_vector(pieces)
    if vec is None:
        return MELDS.enumerate(pieces, max_size)
    return sets_of_vector(vec, max_size)


def rack_sets_with(rack: Iterable[Domino], domino: Domino) -> list[DominoSet]:
    """The sets of :func:`rack_sets` (``rack`` holding ``domino``) that hold ``domino``, in the same order
    (the family's :meth:`~rummykit.melds.dominoes.DominoMelds.enumerate_with`)."""
    pieces = rack if isinstance(rack, list) else list(rack)
    vec = rack_vector(pieces)
    if vec is None:
        return MELDS.enumerate_with(pieces, domino)
    return [s for s in sets_of_vector(vec, None, domino) if domino in s]


def layoffs(rack: Iterable[Domino], table: Sequence[DominoSet]) -> list[tuple[Domino, int, DominoSet]]:
    """Every (domino, set index, new set) adding one rack domino to one table set (as the family's
    :func:`~rummykit.melds.base.layoffs`: by set, then by domino in code order), each set read once
    (:func:`~rummykit.rulesets.domino_rummikub.growth.reading`)."""
    have = 0
    for d in rack:
        bit = bit_of.get(d)
        if bit is None:
            return _layoffs_by_check(rack, table)
        have |= bit
    out: list[tuple[Domino, int, DominoSet]] = []
    for i, s in enumerate(table):
        read = reading(tuple(s))
        mine = read.candidates & have
        grown_by = read.grown
        while mine:
            low = mine & -mine
            mine ^= low
            d = KINDS[(low.bit_length() - 1) >> 3]
            grown = grown_by[d] if d in grown_by else read.grow(d)
            if grown is not None:
                out.append((d, i, grown))
    return out


def _layoffs_by_check(rack: Iterable[Domino], table: Sequence[DominoSet]) -> list[tuple[Domino, int, DominoSet]]:
    """:func:`layoffs` for a rack with dominoes outside the set: every domino tried by the check."""
    have = set(rack)
    return [(d, i, grown) for i, s in enumerate(table) for d, grown in _extensions(tuple(s)) if d in have]


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
