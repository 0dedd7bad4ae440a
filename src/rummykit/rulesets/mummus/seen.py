"""What every seat sees of a mummus position, worked out once as bit masks: the table and the discard pile.

The listings (:mod:`~rummykit.rulesets.mummus.listing`) and the state's
checks read the melds on the table and the discard pile many times in one
position (every seat lists, ``may_act`` asks, every view shows the claimable
cards), and the table stays from turn to turn. :class:`TableSeen` holds what
follows from the table alone, :class:`PileSeen` what follows from the pile
with that table, and :class:`KeptSeen` (kept with a state) both for the
position last asked about, found again by comparing the table and the pile
themselves, so whatever changed the state, the answers are those of the
position it is in. Everything here is public (the table and the pile show
to everyone); a seat's hand is only ever an argument.

A set of cards is a mask, bit ``card.code`` per card
(:mod:`rummykit.melds.card_bits`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence

from rummykit.blocks.areas import LaidMeld
from rummykit.melds.card_bits import BIT, MeldReach, cards_of, has_meld, mask_of, meld_reach, melds_of
from rummykit.melds.cards import SET
from rummykit.pieces.cards import DECK, Card
from rummykit.pieces.text import piece_texts
from rummykit.rulesets.mummus.actions import Cards
from rummykit.rulesets.mummus.options import MAX_PLAYERS, MELDS

__all__ = ["NEAR", "PARTNERS", "SEATS", "KeptSeen", "PileSeen", "TableSeen", "chains", "open_seats", "pile_mask", "reach_of", "usable"]

WRAP = MELDS.wrap

Claim = tuple[Cards, Card | None]


def reach_of(meld: Sequence[Card]) -> MeldReach | None:
    """The add-ons of a meld (:func:`~rummykit.melds.card_bits.meld_reach`), None for an invalid one."""
    return _reach(tuple(meld))


@functools.lru_cache(maxsize=1 << 12)
def _reach(meld: Cards) -> MeldReach | None:
    check = MELDS.check(meld)
    if not check.valid:
        return None
    return meld_reach(check.pieces, check.kind == SET, WRAP)


def chains(reach: MeldReach, have: int) -> list[Cards]:
    """Every add-on of cards of ``have`` (a mask) to the meld of ``reach``, in the grown meld's order.

    A set takes one card of its rank at a time; a run takes, at either end,
    the card next to it, then the one after that, and so on while ``have``
    holds them (the one card missing from a suit fits both ends: one add-on).
    """
    out: list[Cards] = []
    if reach.is_set:
        for grown, mask in reach.ends[0]:
            if have & mask:
                out.append(grown)
        return out
    for end in reach.ends:
        for grown, mask in end:
            if have & mask != mask:
                break
            if grown not in out:
                out.append(grown)
    return out


def _near_masks() -> list[tuple[int, tuple[int, ...]]]:
    """For each card code: the other cards of its rank, and the two other cards of each run of three holding it
    (the melds of three :meth:`~rummykit.melds.cards.CardMelds.smallest_in` looks for), as masks."""
    out = []
    for card in DECK:
        same = mask_of(c for c in DECK if c.rank == card.rank and c is not card)
        runs = []
        for offsets in ((-2, -1), (-1, 1), (1, 2)):
            cards = [_away(card, k) for k in offsets]
            if None not in cards:
                runs.append(mask_of(c for c in cards if c is not None))
        out.append((same, tuple(runs)))
    return out


def _away(card: Card, k: int) -> Card | None:
    step = 1 if k > 0 else -1
    out: Card | None = card
    for _ in range(abs(k)):
        out = MELDS.neighbour(out, step) if out is not None else None
    return out


NEAR = _near_masks()
PARTNERS = [same | functools.reduce(operator.or_, runs, 0) for same, runs in NEAR]
"""For each card code, every card of :data:`NEAR` (a meld of three with it needs two of them)."""


def usable(code: int, n: int, have: int, reaches: Iterable[MeldReach | None]) -> bool:
    """True when the card ``code`` can still go into a meld or an add-on of a hand of ``n`` cards (mask ``have``,
    the card in it) that leaves a card to discard: a meld of three with two other cards (four cards at least),
    or an add-on to a meld of ``reaches`` of at most ``n - 1`` cards."""
    if n >= 4 and _meld_of_three(code, have):
        return True
    for reach in reaches:
        if reach is not None:
            for mask, size in reach.chains.get(code, ()):
                if size < n and have & mask == mask:
                    return True
    return False


def _meld_of_three(code: int, have: int) -> bool:
    same, runs = NEAR[code]
    return (have & same).bit_count() >= 2 or any(have & run == run for run in runs)


class TableSeen:
    """The melds on the table (each in table order) and what they take."""

    __slots__ = ("_by_code", "_texts", "_wanted", "laid", "reaches", "table", "wanted_mask")

    def __init__(self, table: Iterable[Cards]) -> None:
        self.table: list[Cards] = list(table)
        reach = _reach
        self.reaches: list[MeldReach | None] = [reach(m) for m in self.table]
        mask = 0
        for found in self.reaches:
            if found is not None:
                mask |= found.fits
        self.wanted_mask = mask
        """Every card that would extend some meld by itself."""
        self._wanted: frozenset[Card] | None = None
        self._by_code: dict[int, list[tuple[int, int]]] | None = None
        self._texts: list[tuple[str, ...]] | None = None
        self.laid: list[int] | None = None
        """The points each seat laid in these melds (a state's own table, kept by :class:`KeptSeen`, only)."""

    @property
    def wanted(self) -> frozenset[Card]:
        """The cards of :attr:`wanted_mask`."""
        found = self._wanted
        if found is None:
            found = self._wanted = frozenset(cards_of(self.wanted_mask))
        return found

    @property
    def texts(self) -> list[tuple[str, ...]]:
        """Each meld's cards in notation."""
        found = self._texts
        if found is None:
            found = self._texts = [tuple(piece_texts(m)) for m in self.table]
        return found

    @property
    def by_code(self) -> dict[int, list[tuple[int, int]]]:
        """Each card that an add-on could bring to some meld, and those add-ons (mask, size), over the table."""
        found = self._by_code
        if found is None:
            found = {}
            for reach in self.reaches:
                if reach is not None:
                    for code, adds in reach.chains.items():
                        found.setdefault(code, []).extend(adds)
            self._by_code = found
        return found

    def after(self, index: int | None, grown: Cards) -> list[MeldReach | None]:
        """The reaches of the table with meld ``index`` replaced by ``grown`` (a new meld when None)."""
        out = list(self.reaches)
        if index is None:
            out.append(reach_of(grown))
        else:
            out[index] = reach_of(grown)
        return out


class PileSeen:
    """The discard pile (bottom first) and, with a table, the claims it allows (``mask``: the pile's, if known)."""

    __slots__ = ("_claimable", "_claims", "_texts", "mask", "open", "pile", "table")

    def __init__(self, pile: list[Card], table: TableSeen, mask: int | None = None) -> None:
        self.pile = pile
        self.table = table
        if mask is None:
            mask = 0
            for c in pile:
                mask |= BIT[c]
        self.mask = mask
        self.open = bool(table.wanted_mask & mask) or (len(pile) >= 3 and has_meld(mask, WRAP))
        """True when some "rummy" claim is open (a pile card fits a meld, or pile cards form one)."""
        self._claims: list[Claim] | None = None
        self._claimable: list[Card] | None = None
        self._texts: tuple[str, ...] | None = None

    @property
    def texts(self) -> tuple[str, ...]:
        """The pile's cards in notation, bottom first."""
        found = self._texts
        if found is None:
            found = self._texts = tuple(piece_texts(self.pile))
        return found

    @property
    def claims(self) -> list[Claim]:
        """Every "rummy" claim: pile cards that extend a meld (named by its first card), then new melds."""
        found = self._claims
        if found is None:
            found = []
            mask = self.mask
            table = self.table
            if table.wanted_mask & mask:
                for meld, reach in zip(table.table, table.reaches, strict=True):
                    if reach is not None and reach.fits & mask:
                        ref = meld[0]
                        found.extend((chain, ref) for chain in chains(reach, mask))
            if len(self.pile) >= 3 and has_meld(mask, WRAP):
                found.extend((m, None) for m in melds_of(mask, WRAP))
            self._claims = found
        return found

    @property
    def claimable(self) -> list[Card]:
        """The pile cards some claim would take, bottom first."""
        found = self._claimable
        if found is None:
            taken = {c for cards, _meld in self.claims for c in cards}
            found = self._claimable = [c for c in self.pile if c in taken]
        return found


SEATS = tuple(frozenset(s for s in range(MAX_PLAYERS) if bits >> s & 1) for bits in range(1 << MAX_PLAYERS))
"""The seats of each bit mask of seats (``may_act``, ``to_act``); ``SEATS[1 << seat]`` is the seat alone."""


def open_seats(pile: PileSeen, hands: Sequence[Sequence[Card]], current: int) -> int:
    """The seats but ``current`` that may act now, as bits: every one while the pile holds a claim, else each
    holding a card that fits the table and another to keep."""
    if pile.open:
        return (1 << len(hands)) - 1 ^ 1 << current
    bits = 0
    if pile.table.wanted_mask:
        fits = pile.table.wanted
        for s, hand in enumerate(hands):
            if s != current and len(hand) >= 2 and not fits.isdisjoint(hand):
                bits |= 1 << s
    return bits


class KeptSeen:
    """The table and the pile of the position last asked about (a state keeps one; a copy starts empty).

    ``key`` names that position (the state's history length): asked again
    with the same key, it answers at once; with another, it compares the
    table and the pile with the last ones, and works out only what changed
    (the pile's mask from the cards put on it or taken off its top).
    """

    __slots__ = ("key", "melds", "pile", "table")

    def __init__(self) -> None:
        self.key = -1
        self.melds: list[LaidMeld[Card]] | None = None
        self.table: TableSeen | None = None
        self.pile: PileSeen | None = None

    def copy(self) -> KeptSeen:
        """An empty one: a copied state works its position out afresh."""
        return KeptSeen()

    def now(self, key: int, melds: list[LaidMeld[Card]], discard: list[Card]) -> PileSeen:
        """The pile (and through it the table) of the position ``key``: ``melds`` the area's melds (compared with
        the last ones to tell whether the table changed), ``discard`` the pile."""
        pile = self.pile
        if key == self.key and pile is not None:
            return pile
        seen = self.table
        changed = seen is None or melds != self.melds
        if changed:
            self.melds = list(melds)
            seen = self.table = TableSeen([m.pieces for m in melds])
        assert seen is not None
        if pile is None:
            pile = self.pile = PileSeen(list(discard), seen)
        elif changed or pile.pile != discard:
            pile = self.pile = PileSeen(list(discard), seen, pile_mask(pile, discard))
        self.key = key
        return pile


def pile_mask(last: PileSeen, discard: list[Card]) -> int | None:
    """The mask of ``discard`` from the last pile's when cards were only put on it or taken off its top."""
    old = last.pile
    k = len(old)
    n = len(discard)
    if n >= k and discard[:k] == old:
        return last.mask | mask_of(discard[k:])
    if n < k and old[:n] == discard:
        return last.mask ^ mask_of(old[n:])
    return None
