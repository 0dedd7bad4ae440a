"""What every meld family answers, whatever the pieces are.

A *meld family* is the set-forming rule of a group of games: tiles with
groups and runs (:mod:`rummykit.melds.tiles`), dominoes with runs and sums
and joker dominoes (:mod:`rummykit.melds.dominoes`), or conveyor dominoes
(:mod:`rummykit.melds.conveyor`). Each family implements
:class:`MeldFamily`: judge one set (:meth:`~MeldFamily.check`), list every
set a hand can make (:meth:`~MeldFamily.enumerate`) and every piece that
grows a set at one end (:meth:`~MeldFamily.extensions`). The games build
their listings, bots and solvers on these three answers; the best choice of
disjoint sets from a hand is :mod:`rummykit.melds.cover`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from rummykit.errors import RuleError

P = TypeVar("P")

MIN_SET = 3
"""The fewest pieces in a set, in every family."""


@dataclass(frozen=True, slots=True)
class MeldCheck(Generic[P]):
    """The verdict on one set of pieces.

    ``pieces`` is the set in its normal order (a run ascending, jokers where
    they stand); ``jokers`` says, for each joker in that order, what it stands
    for; ``points`` values every piece as what it represents. When ``valid``
    is false, ``rule`` and ``reason`` say why.
    """

    valid: bool
    kind: str | None
    pieces: tuple[P, ...]
    points: int = 0
    jokers: tuple[str, ...] = ()
    rule: str | None = None
    reason: str | None = None

    def error(self) -> RuleError:
        """The verdict as an exception (only for an invalid set)."""
        assert self.rule is not None and self.reason is not None
        return RuleError(self.rule, self.reason)


MeldChecker = Callable[[Sequence[P]], MeldCheck[P]]
"""A function that judges one set of pieces."""

class MeldFamily(Protocol[P]):
    """The three answers every meld family gives (``P`` is its piece type)."""

    def check(self, pieces: Sequence[P], called: Mapping[int, P] | None = None) -> MeldCheck[P]:
        """Judge one set: valid or not (and why), its kind, what each joker stands for.

        ``called`` maps a joker's position in ``pieces`` to the piece a player
        has called it: that joker must then stand for exactly that piece, or
        the set is invalid with a reason.
        """
        ...

    def enumerate(self, hand: Iterable[P], max_size: int | None = None) -> list[tuple[P, ...]]:
        """Every valid set, in normal form and without repeats, made of pieces of ``hand`` (a multiset).

        Jokers count as the game allows: a joker may stand in a gap, at an end,
        or for a piece the hand holds (keeping that piece back). ``max_size``
        leaves out the sets of more pieces.
        """
        ...

    def extensions(self, meld: Sequence[P]) -> tuple[tuple[P, tuple[P, ...]], ...]:
        """Every piece that makes a valid set when added at one end of ``meld``, with that set.

        One entry per piece, in the family's piece order; the grown set is in
        normal form.
        """
        ...


def layoffs(
    family: MeldFamily[P], hand: Iterable[P], table: Sequence[Sequence[P]]
) -> list[tuple[P, int, tuple[P, ...]]]:
    """Every (piece, set index, grown set) that adds one piece of ``hand`` to one end of a table set.

    >>> from rummykit.melds.tiles import TILES
    >>> from rummykit.pieces.tiles import format_tiles, parse_tiles
    >>> [(str(p), i, format_tiles(s)) for p, i, s in layoffs(TILES, parse_tiles('R4 K5'), [parse_tiles('R1 R2 R3')])]
    [('R4', 0, 'R1 R2 R3 R4')]
    """
    have = set(hand)
    return [(p, i, grown) for i, s in enumerate(table) for p, grown in family.extensions(s) if p in have]
