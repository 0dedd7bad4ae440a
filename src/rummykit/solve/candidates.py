"""Every valid set that a multiset of pieces can form, for the set-by-set search.

Sets are returned as multisets (a tuple: numbered pieces sorted, jokers last),
each checked by the game's own meld checker; where jokers could stand in more
than one place, the checker's reading (the most valuable one) is what counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container
from typing import TypeVar

from rummykit.melds.dominoes import DominoMelds
from rummykit.melds.tiles import TILES, check_tiles
from rummykit.pieces.dominoes import Domino
from rummykit.pieces.tiles import JOKER, MAX_NUMBER, Tile

Q = TypeVar("Q", Tile, Domino)


def tile_sets(available: Counter[Tile]) -> list[tuple[Tile, ...]]:
    """Every valid tile set (as a multiset) whose pieces ``available`` holds.

    The sets are the tile family's (:data:`rummykit.melds.tiles.TILES`), read
    as multisets: runs first (by colour, lowest and highest number, numbered
    tiles, jokers), then groups (by number, colours, jokers).

    >>> from rummykit.pieces.tiles import parse_tiles
    >>> sorted(' '.join(map(str, s)) for s in tile_sets(Counter(parse_tiles('R1 R2 R3 J'))))
    ['R1 R2 J', 'R1 R2 R3', 'R1 R2 R3 J', 'R1 R3 J', 'R2 R3 J']
    """
    found = dict.fromkeys(_multiset(s, (JOKER,)) for s in TILES.enumerate(available.elements()))
    return sorted(found, key=_tile_order)


def _multiset(s: tuple[Q, ...], jokers: Container[Q]) -> tuple[Q, ...]:
    """A set as a multiset: its other pieces sorted, then its jokers sorted."""
    return tuple(sorted(p for p in s if p not in jokers)) + tuple(sorted(p for p in s if p in jokers))


def _tile_order(s: tuple[Tile, ...]) -> tuple[object, ...]:
    """Runs (one colour, distinct numbers) before groups; each in a fixed order."""
    numbered = [t for t in s if t.colour is not None]
    jokers = len(s) - len(numbered)
    numbers = [t.number for t in numbered]
    if len({t.colour for t in numbered}) == 1 and len(set(numbers)) == len(numbers):
        return (0, numbered[0].code // MAX_NUMBER, numbers[0], numbers[-1], len(numbers), tuple(numbers), jokers)
    return (1, numbers[0], 0, 0, len(numbers), tuple(t.code for t in numbered), jokers)


def tile_meld_value(tiles: tuple[Tile, ...]) -> int:
    """What a set counts toward the initial meld (jokers as what they stand for, at best)."""
    return check_tiles(tiles).points


def domino_sets(available: Counter[Domino], melds: DominoMelds) -> list[tuple[Domino, ...]]:
    """Every valid domino set (as a multiset) whose pieces ``available`` holds.

    The sets are the family's (:meth:`DominoMelds.enumerate`), read as
    multisets: runs first (by suit, lowest and highest value, dominoes,
    jokers), then sums (by pip total, dominoes, jokers).
    """
    found = dict.fromkeys(_multiset(s, melds.jokers) for s in melds.enumerate(available.elements()))
    # Sums of one pip total in the order of their lowest domino at hand.
    totals: dict[int, int] = {}
    for d in sorted(d for d in available if d not in melds.jokers and available[d] > 0):
        totals.setdefault(d.pips, len(totals))
    return sorted(found, key=lambda s: _domino_order(s, melds, totals))


def _domino_order(s: tuple[Domino, ...], melds: DominoMelds, totals: dict[int, int]) -> tuple[object, ...]:
    natural = [d for d in s if d not in melds.jokers]
    fill = tuple(d.code for d in s if d in melds.jokers)
    suits = {natural[0].low, natural[0].high}
    for d in natural[1:]:
        suits &= {d.low, d.high}
    if suits and len(s) <= melds.top + 1:
        suit = min(suits)
        values = [d.other(suit) for d in natural]
        if len(set(values)) == len(values):
            return (0, suit, values[0], values[-1], len(values), tuple(values), len(fill), fill)
    return (1, totals[natural[0].pips], 0, 0, len(natural), tuple(d.code for d in natural), len(fill), fill)
