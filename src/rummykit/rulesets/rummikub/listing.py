"""Listing plays: every set a rack can make, every lay-off, and the listable actions (also from a view).

The sets and lay-offs are the tile meld family's (:data:`rummykit.melds.tiles.TILES`):
:func:`~rummykit.melds.tiles.hand_sets` and :func:`~rummykit.melds.tiles.set_extensions`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from rummykit.engine.core import Action
from rummykit.engine.options import int_option
from rummykit.engine.rng import Rng
from rummykit.melds.base import MIN_SET
from rummykit.melds.tiles import (
    TILE_BITS,
    check_tiles,
    check_tuple,
    hand_sets,
    set_extensions,
    sets_from_masks,
)
from rummykit.pieces.same import count_of
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile, parse_tiles
from rummykit.rulesets import freetable
from rummykit.rulesets.rummikub.options import TileSet

__all__ = ["KeptListings", "actions_from_view", "layoffs", "listable_actions", "rack_sets"]

rack_sets = hand_sets
"""Every valid set (in normal form) that can be made from the rack's tiles: the family's
:func:`~rummykit.melds.tiles.hand_sets` under the name the game has always used."""
_extensions = set_extensions
"""Every tile that grows a set at one end (the family's :func:`~rummykit.melds.tiles.set_extensions`)."""


def layoffs(rack: Iterable[Tile], table: Sequence[TileSet]) -> list[tuple[Tile, int, TileSet]]:
    """Every (tile, set index, new set) adding one rack tile to one end of a table set.

    >>> from rummykit.pieces.tiles import format_tiles
    >>> [(str(t), i, format_tiles(s)) for t, i, s in layoffs(parse_tiles('R4 K5'), [tuple(parse_tiles('R1 R2 R3'))])]
    [('R4', 0, 'R1 R2 R3 R4')]
    """
    have = set(rack)
    return _layoffs(have, sum(1 << t.code for t in have), table)


_SLOT = 64
"""Bits per set in :attr:`_TableFits.packed` (every tile code is below 64)."""
_SPREAD: dict[int, int] = {}
"""By table size n: one bit at the start of each of n slots (a rack's mask times it is that mask in every slot)."""


def _spread(n: int) -> int:
    spread = _SPREAD.get(n)
    if spread is None:
        spread = _SPREAD[n] = sum(1 << (_SLOT * i) for i in range(n))
    return spread


def _layoffs(have: set[Tile], have_mask: int, table: Sequence[TileSet]) -> list[tuple[Tile, int, TileSet]]:
    """:func:`layoffs` of the distinct rack tiles ``have`` (and their mask, a bit per tile code).

    The sets that some rack tile grows are the slots of the table's packed
    masks that the rack's mask, repeated in every slot, meets: only those sets
    are looked at.
    """
    return _layoffs_of(_table_fits(table), have, have_mask)


def _layoffs_of(fits: _TableFits, have: set[Tile], have_mask: int) -> list[tuple[Tile, int, TileSet]]:
    """:func:`_layoffs` onto the table whose fits these are."""
    out: list[tuple[Tile, int, TileSet]] = []
    hits = fits.packed & have_mask * _spread(len(fits.sets))
    by_set = fits.by_set
    first = 0
    while hits:
        slot = ((hits & -hits).bit_length() - 1) // _SLOT
        i = first + slot
        out.extend([(p, i, grown) for p, grown in by_set[i][1] if p in have])
        hits >>= _SLOT * (slot + 1)
        first = i + 1
    return out


class _TableFits:
    """What grows each set of one table (:func:`_fits`, by position), and those tiles' masks packed in one number.

    ``packed`` holds, in bits ``64 i`` to ``64 i + 63``, the mask (a bit per
    tile code) of the tiles that grow set ``i``.
    """

    __slots__ = ("by_set", "packed", "sets")

    def __init__(
        self,
        sets: list[TileSet],
        by_set: list[tuple[int, tuple[tuple[Tile, TileSet], ...]]],
        packed: int,
    ) -> None:
        self.sets = sets
        self.by_set = by_set
        self.packed = packed


_last_table: list[_TableFits] = []
"""The table listed last (a table stays between plays and is listed for every seat's turn)."""


def _table_fits(table: Sequence[TileSet]) -> _TableFits:
    """:func:`_fits` of every set of ``table``: the last table's when equal, its sets' where they stayed in place.

    A play changes one set or adds some, so only those are looked up.
    """
    sets = list(table)
    last = _last_table[0] if _last_table else None
    if last is not None and len(sets) >= len(last.sets):
        kept = last.sets
        if kept == sets:
            return last
        same = list(map(operator.eq, kept, sets))
        by_set = last.by_set[:]
        packed = last.packed
        i = -1
        while False in same[i + 1 :]:
            i = same.index(False, i + 1)
            fits = _fits(sets[i])
            packed ^= (by_set[i][0] ^ fits[0]) << (_SLOT * i)
            by_set[i] = fits
        for i in range(len(kept), len(sets)):
            fits = _fits(sets[i])
            by_set.append(fits)
            packed |= fits[0] << (_SLOT * i)
    else:
        by_set = [_fits(s) for s in sets]
        packed = 0
        for i, fits in enumerate(by_set):
            packed |= fits[0] << (_SLOT * i)
    entry = _TableFits(sets, by_set, packed)
    _last_table[:] = [entry]
    return entry


@lru_cache(maxsize=1 << 11)
def _fits(s: TileSet) -> tuple[int, tuple[tuple[Tile, TileSet], ...]]:
    """The mask (a bit per tile code) of the tiles that grow the table set ``s`` at an end, and each tile
    with the grown set (as :func:`_extensions`)."""
    grown_by = _extensions(tuple(s))
    mask = 0
    for p, _grown in grown_by:
        mask |= 1 << p.code
    return mask, grown_by


def listable_actions(
    seat: int,
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    *,
    down: bool,
    threshold: int,
    pool_size: int,
) -> list[Action]:
    """The listable actions of the player to move, from what that player can see.

    Draw (or pass when the pool is empty); every play of one new set from the
    rack (before the initial meld: one whose value reaches the threshold); and,
    once down, every lay-off of one rack tile onto one table set.
    """
    sets = rack_sets(rack) if down else [s for s in rack_sets(rack) if check_tiles(s).points >= threshold]
    return freetable.one_step_plays(seat, sets, layoffs(rack, table) if down else (), table, pool_size)


@lru_cache(maxsize=64)
def _draw_pass(seat: int) -> tuple[Action, Action]:
    """A seat's draw and pass, made once for every game (actions are immutable values)."""
    return freetable.Draw(seat), freetable.Pass(seat)


class _SeatListing:
    """What one seat's last listing was made from, and its parts (see :class:`KeptListings`)."""

    __slots__ = (
        "colours",
        "down",
        "draw",
        "have",
        "have_mask",
        "jokers",
        "lay_count",
        "lay_plays",
        "layoffs",
        "listed",
        "numbers",
        "pass_",
        "set_plays",
        "sets",
        "table",
        "threshold",
    )

    def __init__(self, seat: int) -> None:
        self.have: set[Tile] = set()
        self.have_mask = 0
        self.jokers = 0
        self.numbers = [0] * (MAX_NUMBER + 1)
        self.colours = [0] * len(COLOURS)
        self.sets: list[TileSet] | None = None
        self.listed: list[TileSet] = []
        self.down = False
        self.threshold = 0
        self.table: list[TileSet] | None = None
        """The table (:attr:`KeptListings.table`) that the lay-offs and plays kept were made on."""
        self.layoffs: list[tuple[Tile, int, TileSet]] | None = None
        self.lay_count = -1
        """How many lay-offs (-1: not counted since the rack's tiles or the table last changed)."""
        self.set_plays: list[Action] | None = None
        self.lay_plays: list[Action] | None = None
        self.draw, self.pass_ = _draw_pass(seat)


class KeptListings:
    """Each seat's last listing and what it was made from, kept with a game's state across turns.

    A seat's next listing works out again only what changed: the rack's
    masks from the tiles gained or lost (most turns draw one tile), its sets
    only when those masks or its jokers changed, the lay-offs only when the
    rack's tiles or the table changed, the plays only when their sets or
    lay-offs or the table changed. What changed is found by comparing the
    rack's distinct tiles and the table with those of the last listing, so the
    listing is :func:`listable_actions`'s whatever changed the state
    (``tests/test_listing_fast_path.py`` compares them). A copy starts empty.

    :meth:`pick` gives one action of that listing, chosen by its index,
    without making the others: the lay-offs are then only counted.
    """

    __slots__ = ("base", "fits", "seats", "table")

    def __init__(self) -> None:
        self.seats: dict[int, _SeatListing] = {}
        self.table: list[TileSet] | None = None
        """The table last listed on (every seat lists on the same table until the next play)."""
        self.base: tuple[TileSet, ...] = ()
        """The same table as a tuple (the listed plays' tables are made from it)."""
        self.fits: _TableFits | None = None
        """Its fits, once a seat that is down has listed on it."""

    def copy(self) -> KeptListings:
        """An empty one: a copied state works its listings out afresh."""
        return KeptListings()

    def _refresh(
        self, seat: int, rack: Sequence[Tile], table: Sequence[TileSet], down: bool, threshold: int
    ) -> _SeatListing:
        """This seat's kept parts, those that no longer hold dropped, its sets (``listed``) worked out."""
        kept = self.seats.get(seat)
        if kept is None:
            kept = self.seats[seat] = _SeatListing(seat)
        have = set(rack)
        jokers = count_of(rack, JOKER) if JOKER in have else 0
        if have != kept.have:
            numbers, colours = kept.numbers, kept.colours
            bits = TILE_BITS
            have_mask = kept.have_mask
            diff = have ^ kept.have
            for t in diff:  # each tile gained or lost flips its bits
                have_mask ^= 1 << t.code
                found = bits[t.code]
                if found is not None:
                    number, colour_bit, ci, number_bit = found
                    numbers[number] ^= colour_bit
                    colours[ci] ^= number_bit
            kept.have = have
            kept.have_mask = have_mask
            sets = kept.sets
            if sets is not None and not jokers and not kept.jokers:
                after = _sets_after(sets, diff, have, numbers, colours)
                if after is not sets:
                    kept.sets = after
                    kept.down = not down  # the sets listed are worked out again below
            else:
                kept.sets = None
            kept.layoffs = None
            kept.lay_count = -1
        if jokers != kept.jokers:
            kept.jokers = jokers
            kept.sets = None
        sets = kept.sets
        if sets is None:
            sets = kept.sets = sets_from_masks(jokers, kept.numbers, kept.colours)
            kept.down = not down  # the sets listed are worked out again below
        if down != kept.down or threshold != kept.threshold:
            kept.listed = sets if down else [s for s in sets if check_tuple(s).points >= threshold]
            kept.down, kept.threshold = down, threshold
            kept.set_plays = None
        shared = self.table
        if shared is None or shared != table:
            shared = self.table = list(table)
            self.base = tuple(shared)
            self.fits = None
        if kept.table is not shared:
            kept.table = shared
            kept.layoffs = kept.set_plays = None
            kept.lay_count = -1
        return kept

    def _fits(self) -> _TableFits:
        """The fits of the table last listed on (worked out once for every seat)."""
        fits = self.fits
        if fits is None:
            assert self.table is not None
            fits = self.fits = _table_fits(self.table)
        return fits

    def listable_actions(
        self,
        seat: int,
        rack: Sequence[Tile],
        table: Sequence[TileSet],
        *,
        down: bool,
        threshold: int,
        pool_size: int,
    ) -> list[Action]:
        """:func:`listable_actions`, from the parts of this seat's last listing that still hold."""
        kept = self._refresh(seat, rack, table, down, threshold)
        set_plays = kept.set_plays
        if set_plays is None:
            listed = kept.listed
            set_plays = kept.set_plays = freetable.set_plays(seat, listed, self.base) if listed else []
        if down:
            lays = kept.layoffs
            if lays is None:
                lays = kept.layoffs = _layoffs_of(self._fits(), kept.have, kept.have_mask)
                kept.lay_plays = freetable.layoff_plays(seat, lays, self.base) if lays else []
                kept.lay_count = len(lays)
            lay_plays = kept.lay_plays
            assert lay_plays is not None
        else:
            lay_plays = []
        return [kept.draw if pool_size else kept.pass_, *set_plays, *lay_plays]

    def pick(
        self,
        seat: int,
        rack: Sequence[Tile],
        table: Sequence[TileSet],
        down: bool,
        threshold: int,
        pool_size: int,
        choose: Callable[[int, int, Rng], int],
        rng: Rng,
    ) -> Action:
        """``listable_actions(...)[choose(seat, n, rng)]``, ``n`` the listing's length, making only that action.

        The lay-offs are counted from the table's packed masks (each set's
        fitting tiles are distinct, so the bits the rack's mask meets count
        them); the one chosen is found slot by slot. ``tests/test_pick_listed.py``
        compares with the whole listing.
        """
        kept = self._refresh(seat, rack, table, down, threshold)
        listed = kept.listed
        count = 0
        if down:
            count = kept.lay_count
            if count < 0:
                fits = self._fits()
                count = kept.lay_count = (fits.packed & kept.have_mask * _spread(len(fits.sets))).bit_count()
        index = choose(seat, 1 + len(listed) + count, rng)
        if index == 0:
            return kept.draw if pool_size else kept.pass_
        index -= 1
        if index < len(listed):
            set_plays = kept.set_plays
            if set_plays is not None:
                return set_plays[index]
            return freetable.set_plays(seat, (listed[index],), self.base)[0]
        index -= len(listed)
        if not 0 <= index < count:
            raise IndexError(f"action {index + 1 + len(listed)} of a listing of {1 + len(listed) + count}")
        if kept.layoffs is not None:
            lay_plays = kept.lay_plays
            assert lay_plays is not None
            return lay_plays[index]
        lay = _nth_layoff(self._fits(), kept.have, kept.have_mask, index)
        return freetable.layoff_plays(seat, (lay,), self.base)[0]


_SLOT_MASK = (1 << _SLOT) - 1


def _sets_after(
    sets: list[TileSet], diff: set[Tile], have: set[Tile], numbers: list[int], colours: list[int]
) -> list[TileSet] | None:
    """The sets of a rack without jokers, before and after its distinct tiles changed by ``diff`` (``have``
    after; its masks ``numbers`` and ``colours`` updated), from its sets before, or None (enumerate again).

    Lost tiles only (a play): the sets that hold none of them, in the same order (groups by number, each by
    its combinations of colours, then runs by colour, by first then last number: the order is kept by
    leaving sets out). One tile gained (a draw) in no set (fewer than three colours of its number, no
    three numbers in a row of its colour through it): the same sets (the object itself when unchanged).
    ``tests/test_pick_listed.py`` compares with :func:`~rummykit.melds.tiles.sets_from_masks`.
    """
    gained = diff & have
    if not gained:
        kept = [s for s in sets if diff.isdisjoint(s)]
        return sets if len(kept) == len(sets) else kept
    if len(diff) == 1:
        (tile,) = gained
        found = TILE_BITS[tile.code]
        if found is not None:
            number, _colour_bit, ci, _number_bit = found
            if numbers[number].bit_count() < MIN_SET:
                row = colours[ci] << 2 >> number  # the tile's number at bit 2
                if row & 7 != 7 and row & 14 != 14 and row & 28 != 28:
                    return sets
    return None


def _nth_layoff(fits: _TableFits, have: set[Tile], have_mask: int, index: int) -> tuple[Tile, int, TileSet]:
    """``_layoffs_of(fits, have, have_mask)[index]``, the sets before it only counted."""
    hits = fits.packed & have_mask * _spread(len(fits.sets))
    first = 0
    while hits:
        slot = ((hits & -hits).bit_length() - 1) // _SLOT
        i = first + slot
        hits >>= _SLOT * slot
        here = (hits & _SLOT_MASK).bit_count()
        if index < here:
            return [(p, i, grown) for p, grown in fits.by_set[i][1] if p in have][index]
        index -= here
        hits >>= _SLOT
        first = i + 1
    raise IndexError("fewer lay-offs than counted")


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view (a free-table view) this is (empty if it may not act)."""
    seen = freetable.free_table_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_tiles(seen["rack"]),
        [freetable.parse_view_set(parse_tiles, tuple(s)) for s in seen["table"]],
        down=seen["down"][seat],
        threshold=int_option(seen["options"], "initial_meld_points"),
        pool_size=seen["pool_size"],
    )
