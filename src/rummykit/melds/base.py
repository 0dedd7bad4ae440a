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


@dataclass(frozen=True, slots=True)
class LineReading(Generic[P]):
    """One way a line of pieces, read in the order it lies, is a valid set.

    ``pieces`` gives, position by position, the piece each one stands for (a
    joker's role in its own place); ``points`` values the line as read.
    """

    kind: str
    pieces: tuple[P, ...]
    points: int


@dataclass(frozen=True, slots=True)
class LineVerdict(Generic[P]):
    """Every reading of a line of pieces laid in a fixed order (a row or column of a grid).

    Unlike a set on a free table, a line is not rearranged before it is read:
    a run must already lie in ascending order, each joker standing for the
    piece of its own place. A line may have several readings (a joker in a
    group may be any missing colour). When it has none, ``rule`` names the
    broken rule *without* a game prefix (``GROUP``, ``RUN``, ``LINE-KIND``,
    ``LINE-JOKERS``, ``LINE-SIZE``; the grid block adds the game's) and
    ``reason`` says why.
    """

    readings: tuple[LineReading[P], ...]
    rule: str | None = None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        """True when the line has at least one reading."""
        return bool(self.readings)


LineReader = Callable[[tuple[P, ...]], LineVerdict[P]]
"""A function that reads one line of pieces as laid (see :class:`LineVerdict`)."""

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
