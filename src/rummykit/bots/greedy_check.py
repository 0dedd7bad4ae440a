"""greedy's check of its own planned play: the engine's set check and the conservation of tiles.

Split from :mod:`rummykit.bots.greedy` (which re-exports :func:`verify_play`).
"""

from __future__ import annotations

import operator
from collections import Counter
from itertools import chain, compress
from typing import TYPE_CHECKING

from rummykit.melds.tiles import check_tiles, check_tuple
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.rummikub import Play

if TYPE_CHECKING:
    from rummykit.bots.greedy import _Turn

__all__ = ["verify_play"]

TileSet = tuple[Tile, ...]
_CODE = operator.attrgetter("code")
_VALID = operator.attrgetter("valid")


def _checked_play(
    seat: int,
    rack: list[Tile],
    table: list[TileSet],
    new_table: list[TileSet],
    base: list[TileSet] | None = None,
    turn: _Turn | None = None,
) -> Play | None:
    """The play that turns ``table`` into ``new_table``, if it keeps every table tile, places at
    least one tile and only rack tiles, and leaves only valid sets; otherwise None.

    This is the engine's own set check (``check_tiles``) plus the conservation
    of tiles, counted once for both the check and the play's placed tiles
    (as :func:`~rummykit.rulesets.freetable.play_from_table` derives them).
    ``base`` is ``table`` with each set in its normal form (default: ``table``
    itself), the list the plan changed: a set of ``new_table`` that is still
    the same object as ``base``'s at its place holds the same tiles and is
    valid (the table came from a valid position), so only the other sets are
    counted and judged. ``turn``, the turn that planned ``new_table`` from ``base``, offers the tiles
    it took from the rack: when the changed sets' tiles and those are the new sets' tiles, the play
    places exactly them (only the validity of the sets and that the rack held them are left to check);
    otherwise the tiles are counted as without it.
    """
    new = tuple(map(tuple, new_table))
    old = table if base is None else base
    n = len(old)
    if len(new) >= n:
        changed = list(compress(range(n), map(operator.is_not, new, old)))
        gone = list(chain.from_iterable([old[i] for i in changed]))
        judged = [new[i] for i in changed]
        judged += new[n:]
        if turn is not None and turn.taken:
            had = [*gone, *turn.taken]
            has = list(chain.from_iterable(judged))
            # Equal tiles are one object, so lists equal once sorted by identity are equal multisets.
            if len(had) == len(has) and min(turn.rack.values(), default=1) > 0:  # no rack count went below 0
                had.sort(key=id)
                has.sort(key=id)
                if had == has and all(map(_VALID, map(check_tuple, judged))):
                    return Play(seat, tuple(sorted(turn.taken, key=_CODE)), new)
        before = Counter(gone)
    else:
        before = Counter(chain.from_iterable(old))
        judged = list(new)
    after = Counter(chain.from_iterable(judged))
    now = after.get
    if any(now(t, 0) < k for t, k in before.items()):
        return None  # a table tile left the table
    was = before.get
    placed = [t for t, k in after.items() for _ in range(k - was(t, 0))]
    if not placed:
        return None
    spare = Counter(rack).get
    if any(k > spare(t, 0) for t, k in Counter(placed).items()):
        return None  # more of a tile than the rack holds
    if not all(check_tiles(s).valid for s in judged):
        return None
    placed.sort(key=_CODE)
    return Play(seat, tuple(placed), new)


def verify_play(rack: list[Tile], table: list[TileSet], play: Play) -> bool:
    """True when ``play`` keeps every table tile, places only rack tiles, and leaves only valid sets.

    This is the engine's own set check (``check_tiles``) plus the conservation
    of tiles; the initial-meld rule is kept by construction.
    """
    checked = _checked_play(play.player, rack, table, list(play.table))
    if checked is None or sorted(play.placed, key=_CODE) != list(checked.placed):
        return False
    return all(check_tiles(s).valid for s in play.table)  # the sets kept from ``table`` too
