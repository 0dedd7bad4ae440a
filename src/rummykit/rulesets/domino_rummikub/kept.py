"""Listings kept with a domino-rummikub state: a rack as one number of counts, the table's fits kept across turns.

A rack is read once per listing as the sum of each domino's *count vector*
(:data:`_VEC`, one integer per domino), fields of 8 bits holding:

* for each suit ``s`` and value ``v``, how many non-joker dominoes ``s-v``
  the rack holds (the suit's mask of :func:`~rummykit.melds.dominoes._hand_sets`
  is where these are not zero);
* for each pip total, how many non-joker dominoes of that total;
* the number of jokers;
* for each domino of the set, how many the rack holds (for lay-offs).

A few operations on that number tell whether any set can be made at all
(without a joker: three values in a row in a suit, or three dominoes of one
total), which suits and totals can hold one, and which dominoes the rack
holds; only those suits and totals are enumerated, by the meld family's own
cached :func:`~rummykit.melds.dominoes._suit_runs` and
:func:`~rummykit.melds.dominoes._sums`, in the order
:meth:`~rummykit.melds.dominoes.DominoMelds.enumerate` gives. The table's
fits (the dominoes that might grow each set, a bit each, and what each
grows it into) are kept from listing to listing and looked up again only for
the sets that changed; a rack's lay-offs are each set's candidates against
the dominoes the rack holds. After a draw of a domino no set can hold
(:func:`may_hold`), or a play (the rack lost dominoes, :func:`_within`), the
sets are the last ones (those the rack still holds), not enumerated again. ``tests/test_listing_fast_path.py`` and
``tests/test_domino_kept.py`` compare the listings with
:func:`~rummykit.rulesets.domino_rummikub.listing.listable_actions`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import lru_cache

from rummykit.engine.core import Action
from rummykit.engine.rng import Rng
from rummykit.melds.base import MIN_SET
from rummykit.melds.dominoes import _suit_runs, _sums
from rummykit.pieces.dominoes import Domino
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub.growth import KINDS, Reading, reading
from rummykit.rulesets.domino_rummikub.options import EXACTLY_3, JOKERS, MELDS, TOP, DominoSet

__all__ = ["KeptListings", "may_hold", "plus", "rack_vector", "sets_of_vector"]

_W = 8
"""Bits per field of a rack's count vector (a field holds at most 127: see :func:`rack_vector`)."""
_SUIT = _W * 8
"""Bits per suit (values 0..TOP, then padding: TOP < 8)."""
_T_OFF = _SUIT * (TOP + 1)
"""Where the pip totals' fields start."""
_J_OFF = _T_OFF + _W * (2 * TOP + 1)
"""The jokers' field."""
_K_OFF = _J_OFF + _W
"""Where each domino's own count starts (by its index in :data:`_KINDS`)."""

_KINDS = KINDS
_KIND: dict[Domino, int] = {d: i for i, d in enumerate(_KINDS)}


def _fields(start: int, count: int, value: int) -> int:
    """``value`` in each of ``count`` fields from bit ``start``."""
    return sum(value << (start + _W * i) for i in range(count))


_S_MASK = (1 << _T_OFF) - 1
_S_ONE = sum(_fields(_SUIT * s, TOP + 1, 0x7F) for s in range(TOP + 1))
"""Added to the suits' fields: the top bit of a field is then set where the field is not zero."""
_S_HIGH = sum(_fields(_SUIT * s, TOP + 1, 0x80) for s in range(TOP + 1))
_S_TO5 = sum(_fields(_SUIT * s, TOP, 0x80) for s in range(TOP + 1))
"""The top bit of the fields of values 0..TOP-1 in each suit (where two values in a row can start)."""
_S_START = sum(_fields(_SUIT * s, TOP - 1, 0x80) for s in range(TOP + 1))
"""The top bit of the fields of values 0..TOP-2 in each suit (where three values in a row can start)."""
_T_MASK = (1 << (_W * (2 * TOP + 1))) - 1
_T_THREE = _fields(0, 2 * TOP + 1, 0x7D)
"""Added to the totals' fields: the top bit is then set where a field is 3 or more."""
_T_ONE = _fields(0, 2 * TOP + 1, 0x7F)
_T_TWO = _fields(0, 2 * TOP + 1, 0x7E)
"""Added to the totals' fields: the top bit is then set where a field is 2 or more."""
_T_HIGH = _fields(0, 2 * TOP + 1, 0x80)
_K_ONE = _fields(0, len(_KINDS), 0x7F)
_K_HIGH = _fields(0, len(_KINDS), 0x80)
_SUIT_BITS = _fields(0, TOP + 1, 0x80)
_SUIT_MASK: dict[int, int] = {
    sum(0x80 << (_W * v) for v in range(TOP + 1) if m >> v & 1): m for m in range(1 << (TOP + 1))
}
"""A suit's presence bits (the top bit of each value's field) to its mask (a bit per value)."""

_SECTION = tuple(((1 << _SUIT) - 1) << (_SUIT * s) for s in range(TOP + 1))
"""Each suit's bits among the suits' fields."""
_JOKER_KINDS = tuple(sorted(JOKERS))
_BY_TOTAL: tuple[tuple[tuple[int, Domino], ...], ...] = tuple(
    tuple((_K_OFF + _W * k, d) for k, d in enumerate(_KINDS) if d.pips == t and d not in JOKERS)
    for t in range(2 * TOP + 1)
)
"""For each pip total, where each non-joker domino of that total is counted (code order)."""


def _vector(d: Domino) -> int:
    own = 1 << (_K_OFF + _W * _KIND[d])
    if d in JOKERS:
        return own | 1 << _J_OFF
    a, b = d.low, d.high
    suits = 1 << (_SUIT * a + _W * b) if a == b else (1 << (_SUIT * a + _W * b)) + (1 << (_SUIT * b + _W * a))
    return own + suits + (1 << (_T_OFF + _W * (a + b)))


_VEC: dict[Domino, int] = {d: _vector(d) for d in _KINDS}
"""Each domino's count vector."""
MAX_RACK = 127
"""The largest rack :func:`rack_vector` reads (no field can then carry into the next)."""


def rack_vector(rack: Sequence[Domino]) -> int | None:
    """The rack's count vector, or None when it cannot be one (too large, or a domino outside the set)."""
    if len(rack) > MAX_RACK:
        return None
    try:
        return sum(map(_VEC.__getitem__, rack))
    except KeyError:
        return None


def plus(vec: int | None, d: Domino) -> int | None:
    """The count vector of a rack of fewer than :data:`MAX_RACK` dominoes (``vec``) with one more domino
    (None where either cannot be read)."""
    add = _VEC.get(d)
    if vec is None or add is None:
        return None
    return vec + add


def _through(mask: int) -> int:
    """The values (a bit each) with three values in a row through them among those of ``mask`` (a bit per value)."""
    return sum(
        1 << v
        for v in range(TOP + 1)
        if any(mask >> start & 0b111 == 0b111 for start in range(max(0, v - 2), min(v, TOP - 2) + 1))
    )


_THROUGH: dict[int, int] = {bits: _through(mask) for bits, mask in _SUIT_MASK.items()}
"""A suit's presence bits to the values three values in a row of that suit can pass through."""
_ONE_SUIT = (1 << _SUIT) - 1
_SUIT_ONE = _fields(0, TOP + 1, 0x7F)
_HOLD: dict[Domino, tuple[int, int, int, int, int]] = {
    d: (_T_OFF + _W * d.pips, _SUIT * d.low, d.high, _SUIT * d.high, d.low) for d in _KINDS if d not in JOKERS
}
"""For each domino that is not a joker: where its total is counted, then each of its suits' fields and its value there."""


def may_hold(vec: int, d: Domino) -> bool:
    """False when no set of the rack whose count vector this is (holding ``d``) can hold ``d``: without a
    joker, a run holding it needs three values in a row through its value in one of its suits, and a sum
    three dominoes of its total. (True says only that one may.)"""
    how = _HOLD.get(d)
    if how is None or vec >> _J_OFF & 0xFF:
        return True  # a joker (or with a joker in the rack, any domino); a domino outside the set is not refused
    total, suit, value, other, other_value = how
    if vec >> total & 0xFF >= MIN_SET:
        return True
    if _THROUGH[((vec >> suit & _ONE_SUIT) + _SUIT_ONE) & _SUIT_BITS] >> value & 1:
        return True
    return bool(_THROUGH[((vec >> other & _ONE_SUIT) + _SUIT_ONE) & _SUIT_BITS] >> other_value & 1)


def sets_of_vector(vec: int, max_size: int | None, holding: Domino | None = None) -> list[DominoSet]:
    """:meth:`~rummykit.melds.dominoes.DominoMelds.enumerate` of the rack whose count vector this is.

    The same sets in the same order: only the suits and totals that can hold a
    set are asked (the others give none), with the same jokers; the limit on
    sizes is the family's own wherever it cuts nothing (a set of the rack
    never holds more dominoes than the rack).

    With ``holding`` (a domino that is not a joker), only the suits and the
    total of that domino are asked: the sets holding it are among theirs, in
    the same order (the caller keeps those that hold it).
    """
    j = vec >> _J_OFF & 0xFF
    present = ((vec & _S_MASK) + _S_ONE) & _S_HIGH
    totals = vec >> _T_OFF & _T_MASK
    if j:
        jokers: tuple[Domino, ...] = ()
        for d in _JOKER_KINDS:
            jokers += (d,) * (vec >> (_K_OFF + _W * _KIND[d]) & 0xFF)
        # The suits that can hold a run with the jokers: with one, two values at most two apart (a row of
        # three or more values missing at most one has such a pair); with more, any.
        run_suits = present if j > 1 else present & (present >> _W & _S_TO5 | present >> (2 * _W) & _S_START)
        # The totals of which the rack holds enough to make a sum with its jokers (one: two more; two: one).
        sum_totals = (totals + (_T_TWO if j == 1 else _T_ONE)) & _T_HIGH
    else:
        jokers = ()
        run_suits = present & present >> _W & present >> (2 * _W) & _S_START
        sum_totals = (totals + _T_THREE) & _T_HIGH
        if not run_suits and not sum_totals:
            return []
    if holding is not None and holding not in JOKERS:
        run_suits &= _SECTION[holding.low] | _SECTION[holding.high]
        sum_totals &= 0xFF << (_W * holding.pips)
    found: list[DominoSet] = []
    run_limit = TOP + 1 if max_size is None else min(max_size, TOP + 1)
    while run_suits:
        suit = ((run_suits & -run_suits).bit_length() - 1) // _SUIT
        mask = _SUIT_MASK[present >> (_SUIT * suit) & _SUIT_BITS]
        if not j or mask.bit_count() + j >= MIN_SET:
            found.extend(_suit_runs(MELDS, suit, mask, jokers, run_limit))
        run_suits &= -1 << (_SUIT * (suit + 1))
    while sum_totals:
        low = (sum_totals & -sum_totals).bit_length() - 1
        total = low // _W
        sum_totals ^= 1 << low
        group: tuple[Domino, ...] = ()
        for at, d in _BY_TOTAL[total]:
            group += (d,) * (vec >> at & 0xFF)
        if len(group) + j >= MIN_SET:
            limit = len(group) + j if max_size is None else max_size
            found.extend(_sums(MELDS, group, jokers, limit))
    return list(dict.fromkeys(found))


def _within(small: int, big: int) -> bool:
    """Whether the rack whose count vector is ``small`` holds no domino more often than that of ``big``.

    Then every set of the smaller rack is a set of the larger, and without a
    joker in the larger, :func:`sets_of_vector` lists the smaller rack's sets
    in the larger's order: the runs of a suit are its rows of values in a row,
    by first value then last, and the sums of a total its choices of
    dominoes, by size then in code order, in both.
    ``tests/test_domino_kept.py`` compares.
    """
    return ((big >> _K_OFF | _K_HIGH) - (small >> _K_OFF)) & _K_HIGH == _K_HIGH


@lru_cache(maxsize=1 << 13)
def _set_vector(s: DominoSet) -> int:
    """A set's count vector (sets of a rack read by :func:`rack_vector`; the same sets recur)."""
    return sum(map(_VEC.__getitem__, s))


# -- lay-offs ---------------------------------------------------------------------

class _TableFits:
    """The table's sets, as a tuple too (each seat's plays share it), and their readings
    (:class:`~rummykit.rulesets.domino_rummikub.growth.Reading`, by position)."""

    __slots__ = ("base", "by_set", "sets")

    def __init__(self, sets: list[DominoSet], by_set: list[Reading]) -> None:
        self.sets = sets
        self.base = tuple(sets)
        self.by_set = by_set

    def update(self, table: list[DominoSet]) -> _TableFits:
        """The fits of ``table``: these where its sets stayed in place (a play changes one set or adds
        some), the others' looked up."""
        kept = self.sets
        by_set = self.by_set[: len(table)]
        eq = operator.eq
        # The places whose set is not the same object (found in C): a play changes one set or adds some.
        same = list(map(operator.is_, kept, table))
        if same.count(False) <= 1:
            redo = range(same.index(False) if False in same else len(same), len(table))
        else:
            redo = range(len(table))
        for i in redo:
            s = table[i]
            if i >= len(kept) or (kept[i] is not s and not eq(kept[i], s)):
                slot = reading(tuple(s))
                if i < len(by_set):
                    by_set[i] = slot
                else:
                    by_set.append(slot)
        fits = object.__new__(_TableFits)
        fits.sets, fits.by_set, fits.base = list(table), by_set, tuple(table)
        return fits

    def layoffs(self, have: int) -> list[tuple[Domino, int, DominoSet]]:
        """Every (domino, set index, new set) growing a set by a domino whose presence bit is in ``have``
        (by set, then by domino in code order: as the family's extensions list them)."""
        out: list[tuple[Domino, int, DominoSet]] = []
        kinds = _KINDS
        for i, slot in enumerate(self.by_set):
            mine = slot.candidates & have
            if not mine:
                continue
            grown_by = slot.grown
            while mine:
                low = mine & -mine
                d = kinds[(low.bit_length() - 1) >> 3]
                mine ^= low
                grown = grown_by[d] if d in grown_by else slot.grow(d)
                if grown is not None:
                    out.append((d, i, grown))
        return out


    def count(self, have: int) -> int:
        """``len(self.layoffs(have))``: each set's fitting dominoes the rack holds, counted by bits (a domino
        not yet judged on a set is judged first)."""
        n = 0
        kinds = _KINDS
        for slot in self.by_set:
            mine = slot.candidates & have
            if mine:
                unknown = mine & ~slot.judged
                while unknown:
                    low = unknown & -unknown
                    unknown ^= low
                    slot.grow(kinds[(low.bit_length() - 1) >> 3])
                n += (slot.fit & mine).bit_count()
        return n

    def nth(self, have: int, index: int) -> tuple[Domino, int, DominoSet]:
        """``self.layoffs(have)[index]``, the sets before it only counted (:meth:`count` judged every one)."""
        for i, slot in enumerate(self.by_set):
            mine = slot.fit & have
            here = mine.bit_count()
            if index < here:
                for _ in range(index):
                    mine &= mine - 1
                d = _KINDS[((mine & -mine).bit_length() - 1) >> 3]
                grown = slot.grown[d]
                assert grown is not None
                return d, i, grown
            index -= here
        raise IndexError("fewer lay-offs than counted")


_NO_FITS = _TableFits([], [])


@lru_cache(maxsize=64)
def _draw_pass(seat: int) -> tuple[Action, Action]:
    """A seat's draw and pass, made once for every game (actions are immutable values)."""
    return freetable.Draw(seat), freetable.Pass(seat)


class _SeatListing:
    """What one seat's last listing was made from, and its parts (see :class:`KeptListings`)."""

    __slots__ = (
        "draw", "exact", "fits", "have", "lay_count", "lay_plays", "pass_", "rack", "set_plays", "sets", "vec"
    )

    def __init__(self, seat: int) -> None:
        self.rack: list[Domino] = []
        self.vec = 0
        self.exact = False
        self.have = -1
        self.sets: list[DominoSet] = []
        self.fits: _TableFits | None = None
        self.set_plays: list[Action] | None = None
        self.lay_plays: list[Action] | None = None
        self.lay_count = -1
        """How many lay-offs (-1: not counted since the dominoes held or the table last changed)."""
        self.draw, self.pass_ = _draw_pass(seat)


class KeptListings:
    """Each seat's last listing and what it was made from, and the table's fits, kept with a state.

    A seat's next listing works out again only what changed: the sets when
    the rack's count vector changed, the lay-offs when the dominoes it holds or
    the table changed, the plays when their sets or lay-offs or the table
    changed. What changed is found by comparing the rack's vector and the table
    with those of the last listing, so the listing is
    :func:`~rummykit.rulesets.domino_rummikub.listing.listable_actions`'s
    whatever changed the state. A copy starts empty.

    :meth:`pick` gives one action of that listing, chosen by its index,
    without making the others: the lay-offs are then only counted.
    """

    __slots__ = ("fits", "made", "made_rack", "made_table", "seats")

    def __init__(self) -> None:
        self.seats: dict[int, _SeatListing] = {}
        self.fits = _NO_FITS
        self.made: Action | None = None
        """The last play :meth:`pick` made, and the table and rack (copies) it was made for."""
        self.made_table: list[DominoSet] = []
        self.made_rack: list[Domino] = []

    def made_here(self, action: Action, table: Sequence[DominoSet], rack: Sequence[Domino]) -> bool:
        """Whether ``action`` is the last play :meth:`pick` made, for this table and rack (its seat's): a play
        of the listing, whose pieces are then conserved (its sets hold dominoes of the rack, or the table's sets
        grown by one), as the plain listing's are."""
        return action is self.made and self.made_table == table and self.made_rack == rack

    def _made(self, action: Action, table: list[DominoSet], rack: Sequence[Domino]) -> Action:
        self.made, self.made_table, self.made_rack = action, table, list(rack)
        return action

    def copy(self) -> KeptListings:
        """An empty one: a copied state works its listings out afresh."""
        return KeptListings()

    def _refresh(
        self, seat: int, rack: Sequence[Domino], table: Sequence[DominoSet], down: bool, starting_group_size: str
    ) -> _SeatListing | None:
        """This seat's kept parts, those that no longer hold dropped, its sets worked out (None: a rack this
        cannot read)."""
        kept = self.seats.get(seat)
        if kept is None:
            kept = self.seats[seat] = _SeatListing(seat)
        # The rack's vector from the last one: most turns draw one domino, which goes at the end of the rack.
        last = kept.rack
        same_sets = False
        if len(rack) == len(last) + 1 and rack[:-1] == last and rack[-1] in _VEC and len(rack) <= MAX_RACK:
            drawn = rack[-1]
            vec = kept.vec + _VEC[drawn]
            # No set of the grown rack holds the new domino: its sets are the last rack's, in the same order.
            same_sets = not may_hold(vec, drawn)
            last.append(drawn)  # the kept copy, now equal to the rack
        elif rack == last:
            vec = kept.vec
        else:
            read = rack_vector(rack)
            if read is None:
                return None
            vec = read
            kept.rack = list(rack)
        exact = not down and starting_group_size == EXACTLY_3
        if same_sets and exact == kept.exact:
            kept.vec = vec
        elif vec == kept.vec and exact == kept.exact:
            pass
        elif exact == kept.exact and _within(vec, kept.vec) and (not kept.sets or not kept.vec >> _J_OFF & 0xFF):
            # The rack lost dominoes (a play): its sets are those of the last rack it still holds, in the same
            # order (none if the last rack had none; without a joker, see :func:`_within`).
            if kept.sets:
                sets = [s for s in kept.sets if _within(_set_vector(s), vec)]
                if len(sets) != len(kept.sets):
                    kept.set_plays = None
                kept.sets = sets
            kept.vec = vec
        elif vec != kept.vec or exact != kept.exact:
            sets = sets_of_vector(vec, MIN_SET if exact else None)
            if sets and exact:
                sets = [s for s in sets if len(s) == MIN_SET]
            if sets or kept.sets:
                kept.set_plays = None
            kept.vec, kept.exact, kept.sets = vec, exact, sets
        fits = self.fits
        if fits.sets != table:
            fits = self.fits = fits.update(table if type(table) is list else list(table))
        if kept.fits is not fits:
            kept.fits = fits
            kept.set_plays = kept.lay_plays = None
            kept.lay_count = -1
        if down:
            have = ((kept.vec >> _K_OFF) + _K_ONE) & _K_HIGH
            if have != kept.have:
                kept.have = have
                kept.lay_plays = None
                kept.lay_count = -1
        return kept

    def listable_actions(
        self,
        seat: int,
        rack: Sequence[Domino],
        table: Sequence[DominoSet],
        *,
        down: bool,
        starting_group_size: str,
        pool_size: int,
    ) -> list[Action] | None:
        """The listing from the parts of this seat's last listing that still hold (None: a rack this cannot read)."""
        kept = self._refresh(seat, rack, table, down, starting_group_size)
        if kept is None:
            return None
        fits = kept.fits
        assert fits is not None
        set_plays = kept.set_plays
        if set_plays is None:
            set_plays = kept.set_plays = freetable.set_plays(seat, kept.sets, fits.base) if kept.sets else []
        head = kept.draw if pool_size else kept.pass_
        if not down:
            return [head, *set_plays]
        lay_plays = kept.lay_plays
        if lay_plays is None:
            lays = fits.layoffs(kept.have)
            lay_plays = kept.lay_plays = freetable.layoff_plays(seat, lays, fits.base) if lays else []
            kept.lay_count = len(lays)
        return [head, *set_plays, *lay_plays]

    def pick(
        self,
        seat: int,
        rack: Sequence[Domino],
        table: Sequence[DominoSet],
        down: bool,
        starting_group_size: str,
        pool_size: int,
        choose: Callable[[int, int, Rng], int],
        rng: Rng,
    ) -> Action | None:
        """``listable_actions(...)[choose(seat, n, rng)]``, ``n`` the listing's length, making only that action
        (None, asking nothing: a rack this cannot read). ``tests/test_pick_listed.py`` compares."""
        kept = self._refresh(seat, rack, table, down, starting_group_size)
        if kept is None:
            return None
        fits = kept.fits
        assert fits is not None
        sets = kept.sets
        count = 0
        if down:
            count = kept.lay_count
            if count < 0:
                count = kept.lay_count = fits.count(kept.have)
        index = choose(seat, 1 + len(sets) + count, rng)
        if index == 0:
            return kept.draw if pool_size else kept.pass_
        index -= 1
        if index < len(sets):
            set_plays = kept.set_plays
            if set_plays is not None:
                return self._made(set_plays[index], fits.sets, rack)
            return self._made(freetable.set_plays(seat, (sets[index],), fits.base)[0], fits.sets, rack)
        index -= len(sets)
        if not 0 <= index < count:
            raise IndexError(f"action {index + 1 + len(sets)} of a listing of {1 + len(sets) + count}")
        lay_plays = kept.lay_plays
        if lay_plays is not None:
            return self._made(lay_plays[index], fits.sets, rack)
        return self._made(freetable.layoff_plays(seat, (fits.nth(kept.have, index),), fits.base)[0], fits.sets, rack)
