"""Meld areas: the melds laid on the table, each piece tagged with the seat that laid it.

In games where anyone may add to anyone's meld and every piece scores for
whoever put it down (Mummus), a meld is shared but its pieces are not: a
:class:`LaidMeld` keeps, for each piece, the seat that laid it. A
:class:`MeldArea` is the table of such melds, numbered from 0 in the order
laid down. Melds only grow (:meth:`MeldArea.grow`); they are never split,
rearranged or taken back. The area does not judge melds: the game checks
each one with its meld family first and hands the area the result.

>>> from rummykit.pieces.cards import parse_cards, format_cards
>>> area = MeldArea()
>>> area.lay('run', parse_cards('5H 6H 7H'), seat=0)
0
>>> area.grow(0, 'run', parse_cards('4H 5H 6H 7H'), parse_cards('4H'), seat=2)
>>> meld = area[0]
>>> format_cards(meld.pieces), meld.laid_by
('4H 5H 6H 7H', (2, 0, 0, 0))
>>> area.holding(parse_cards('6H')[0]), format_cards(area.laid_by(2))
(0, '4H')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["LaidMeld", "MeldArea"]

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class LaidMeld(Generic[P]):
    """A meld on the table: its kind, its pieces in table order and, piece by piece, who laid it."""

    kind: str
    pieces: tuple[P, ...]
    laid_by: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.pieces) != len(self.laid_by):
            raise ValueError(f"{len(self.pieces)} pieces need {len(self.pieces)} seats, got {len(self.laid_by)}")

    def seat_of(self, piece: P) -> int:
        """The seat that laid ``piece`` (ValueError when the meld does not hold it)."""
        return self.laid_by[self.pieces.index(piece)]

    def by_seat(self, seat: int) -> tuple[P, ...]:
        """The pieces of this meld that ``seat`` laid."""
        return tuple(p for p, s in zip(self.pieces, self.laid_by, strict=True) if s == seat)

    def grown(self, kind: str, pieces: Sequence[P], added: Iterable[P], seat: int) -> LaidMeld[P]:
        """This meld with ``added`` laid by ``seat``; ``pieces`` is the whole grown meld in table order."""
        owners = dict(zip(self.pieces, self.laid_by, strict=True))
        new = set(added)
        if set(owners) | new != set(pieces) or set(owners) & new or len(pieces) != len(owners) + len(new):
            raise ValueError("the grown meld must hold exactly the old pieces and the added ones")
        return LaidMeld(kind, tuple(pieces), tuple(seat if p in new else owners[p] for p in pieces))


class MeldArea(Generic[P]):
    """The melds on the table, in the order laid down (meld 0 first)."""

    __slots__ = ("melds",)

    def __init__(self, melds: Iterable[LaidMeld[P]] = ()) -> None:
        self.melds: list[LaidMeld[P]] = list(melds)

    def copy(self) -> MeldArea[P]:
        """An independent copy (the melds themselves are frozen and shared)."""
        return MeldArea(self.melds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MeldArea) and self.melds == other.melds

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MeldArea({self.melds!r})"

    def __len__(self) -> int:
        return len(self.melds)

    def __getitem__(self, index: int) -> LaidMeld[P]:
        return self.melds[index]

    def __iter__(self) -> Iterator[LaidMeld[P]]:
        return iter(self.melds)

    # -- questions -------------------------------------------------------------------

    def holding(self, piece: P) -> int | None:
        """The number of the meld holding ``piece``, or None."""
        for i, meld in enumerate(self.melds):
            if piece in meld.pieces:
                return i
        return None

    def laid_by(self, seat: int) -> list[P]:
        """Every piece ``seat`` laid, meld by meld."""
        return [p for meld in self.melds for p in meld.by_seat(seat)]

    def points(self, seats: int, value: Callable[[P], int]) -> list[int]:
        """The value of the pieces each of ``seats`` seats laid (``value`` prices one piece)."""
        out = [0] * seats
        for meld in self.melds:
            for p, s in zip(meld.pieces, meld.laid_by, strict=True):
                out[s] += value(p)
        return out

    def counts(self) -> Counter[P]:
        """Every piece on the table, counted (for conservation checks)."""
        return Counter(p for meld in self.melds for p in meld.pieces)

    # -- changes (the game checks the melds first) --------------------------------------

    def lay(self, kind: str, pieces: Sequence[P], seat: int) -> int:
        """Lay a new meld, every piece by ``seat``; returns its number."""
        self.melds.append(LaidMeld(kind, tuple(pieces), (seat,) * len(pieces)))
        return len(self.melds) - 1

    def grow(self, index: int, kind: str, pieces: Sequence[P], added: Iterable[P], seat: int) -> None:
        """Replace meld ``index`` by its grown form ``pieces`` (in table order), ``added`` laid by ``seat``."""
        self.melds[index] = self.melds[index].grown(kind, pieces, added, seat)

    def clear(self) -> None:
        """Take every meld away (a new deal)."""
        self.melds.clear()
