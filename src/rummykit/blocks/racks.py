"""Racks: the pieces each player holds, in one or more named racks per player.

Most games give each player one rack (``Racks(players)``); `two-tray` gives
each two trays (``Racks(players, names=("A", "B"))``), so two trays are
configuration, not a new block. Pieces never move between racks by
themselves: :meth:`Racks.take` removes pieces from a named rack (checking
first, so a refusal changes nothing), :meth:`Racks.where` says which rack a
piece would come from, and :meth:`Racks.merge` joins a player's racks into
one (the two-tray end game).

>>> from rummykit.pieces.tiles import parse_tiles
>>> racks = Racks(2, names=("A", "B"))
>>> racks.add(0, parse_tiles("R1 R2"), "A")
>>> racks.add(0, parse_tiles("K5"), "B")
>>> racks.sizes(), racks.where(0, parse_tiles("K5")[0])
([3, 0], 'B')
>>> racks.take(0, parse_tiles("R1"), "B")
Traceback (most recent call last):
...
rummykit.errors.RuleError: not in rack B: R1 (rule RACK)
>>> racks.merge(0); racks.names_of(0), racks.pieces(0)
(('A',), [Tile.parse('R1'), Tile.parse('R2'), Tile.parse('K5')])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

from rummykit.errors import RuleError
from rummykit.pieces.same import holds, remove_each

P = TypeVar("P")

DEFAULT = "rack"


class Racks(Generic[P]):
    """Every player's racks, each a list of pieces in the order they arrived.

    With one rack per player, ``racks[seat]`` is that rack's list (read it,
    do not keep it across turns); with several, name the rack.
    """

    __slots__ = ("_only", "_racks", "rule")

    def __init__(self, players: int, names: Sequence[str] = (DEFAULT,), *, rule: str = "RACK") -> None:
        if players < 1 or not names or len(set(names)) != len(names):
            raise ValueError(f"racks need at least one player and distinct rack names, got {players}, {names!r}")
        self._racks: list[dict[str, list[P]]] = [{name: [] for name in names} for _ in range(players)]
        self.rule = rule
        """The rule id of a refusal (a game's own, e.g. ``RK-RACK``)."""
        self._only: list[list[P]] | None = None
        self._index()

    def _index(self) -> None:
        """Keep the fast path for one rack per player (the common case) in step with the racks."""
        if all(len(racks) == 1 for racks in self._racks):
            self._only = [next(iter(racks.values())) for racks in self._racks]
        else:
            self._only = None

    @classmethod
    def of(cls, racks: Iterable[Iterable[P]], *, rule: str = "RACK") -> Racks[P]:
        """One rack per player, filled with the given pieces."""
        lists = [list(r) for r in racks]
        out: Racks[P] = cls(len(lists), rule=rule)
        for seat, pieces in enumerate(lists):
            out._racks[seat][DEFAULT] = pieces
        out._index()
        return out

    # -- reading -----------------------------------------------------------------

    def rack(self, seat: int, name: str | None = None) -> list[P]:
        """The pieces of one rack (``name`` may be left out when the player has one rack)."""
        if name is None and self._only is not None:
            return self._only[seat]
        racks = self._racks[seat]
        if name is None:
            if len(racks) != 1:
                raise ValueError(f"seat {seat} has racks {', '.join(racks)}: name one")
            return next(iter(racks.values()))
        if name not in racks:
            raise RuleError(self.rule, f"there is no rack {name} (the racks are {', '.join(racks)})")
        return racks[name]

    def names_of(self, seat: int) -> tuple[str, ...]:
        """The names of a player's racks."""
        return tuple(self._racks[seat])

    def pieces(self, seat: int) -> list[P]:
        """Every piece a player holds, rack by rack."""
        return [p for rack in self._racks[seat].values() for p in rack]

    def slots_of_others(self, seat: int | None) -> list[tuple[list[P], int]]:
        """Where each piece of every seat but ``seat`` lies: a rack's own list and an index in it, seat by seat,
        rack by rack (``seat`` None: every seat's)."""
        return [
            (rack, i)
            for s, racks in enumerate(self._racks)
            if s != seat
            for rack in racks.values()
            for i in range(len(rack))
        ]

    def sizes(self) -> list[int]:
        """How many pieces each player holds (public in every game)."""
        only = self._only
        if only is not None:
            return [len(r) for r in only]
        return [sum(map(len, racks.values())) for racks in self._racks]

    def where(self, seat: int, piece: P) -> str | None:
        """The rack of ``seat`` that holds ``piece`` (the first, by rack order), or None."""
        for name, rack in self._racks[seat].items():
            if holds(rack, piece):
                return name
        return None

    def counts(self) -> Counter[P]:
        """Every piece held by anyone, counted (for conservation checks)."""
        out: Counter[P] = Counter()
        for racks in self._racks:
            for rack in racks.values():
                out.update(rack)
        return out

    def __getitem__(self, seat: int) -> list[P]:
        only = self._only
        return only[seat] if only is not None else self.rack(seat)

    def __iter__(self) -> Iterator[list[P]]:
        return (self.pieces(seat) for seat in range(len(self._racks)))

    def __len__(self) -> int:
        return len(self._racks)

    # -- changing ----------------------------------------------------------------

    def add(self, seat: int, pieces: Iterable[P], name: str | None = None) -> None:
        """Put pieces into a rack."""
        self.rack(seat, name).extend(pieces)

    def missing(self, seat: int, pieces: Iterable[P], name: str | None = None) -> list[P]:
        """The pieces (with repeats) that the rack does not hold."""
        return list((Counter(pieces) - Counter(self.rack(seat, name))).elements())

    def take(self, seat: int, pieces: Sequence[P], name: str | None = None) -> None:
        """Remove pieces from a rack; refuses (changing nothing) if any is not there."""
        rack = self.rack(seat, name)
        rest = list(rack)
        try:
            remove_each(rest, pieces)  # ``rest.remove(p)`` for each, by identity for interned pieces
        except ValueError:
            short = self.missing(seat, pieces, name)
            where = "your rack" if name is None else f"rack {name}"
            raise RuleError(self.rule, f"not in {where}: {' '.join(map(str, short))}") from None
        rack[:] = rest

    def clear(self) -> None:
        """Empty every rack (a new deal)."""
        for racks in self._racks:
            for rack in racks.values():
                rack.clear()

    def merge(self, seat: int, name: str | None = None) -> None:
        """Join a player's racks into one (its pieces in rack order), named ``name`` (default: the first's)."""
        racks = self._racks[seat]
        first = next(iter(racks)) if name is None else name
        self._racks[seat] = {first: [p for rack in racks.values() for p in rack]}
        self._index()

    def copy(self) -> Racks[P]:
        """An independent copy (pieces are immutable and shared)."""
        other: Racks[P] = object.__new__(Racks)
        other._racks = [{name: list(rack) for name, rack in racks.items()} for racks in self._racks]
        other.rule = self.rule
        other._index()
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Racks) and self._racks == other._racks

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Racks({self._racks!r})"
