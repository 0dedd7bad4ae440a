"""Every valid set that a multiset of pieces can form, for the set-by-set search.

Sets are returned as multisets (a tuple: numbered pieces sorted, jokers last),
each checked by the game's own meld checker; where jokers could stand in more
than one place, the checker's reading (the most valuable one) is what counts.
"""

from __future__ import annotations

import itertools
from collections import Counter

from rummykit.melds.dominoes import DominoMelds
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.dominoes import Domino
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile

MIN_SET = 3


def tile_sets(available: Counter[Tile]) -> list[tuple[Tile, ...]]:
    """Every valid tile set (as a multiset) whose pieces ``available`` holds.

    >>> from rummykit.pieces.tiles import parse_tiles
    >>> sorted(' '.join(map(str, s)) for s in tile_sets(Counter(parse_tiles('R1 R2 R3 J'))))
    ['R1 R2 J', 'R1 R2 R3', 'R1 R2 R3 J', 'R1 R3 J', 'R2 R3 J']
    """
    jokers = available[JOKER]
    out: dict[tuple[Tile, ...], None] = {}
    for colour in COLOURS:
        numbers = [n for n in range(1, MAX_NUMBER + 1) if available[Tile(colour, n)]]
        for lo_i, lo in enumerate(numbers):
            for hi in numbers[lo_i:]:
                inner = [n for n in numbers if lo < n < hi]
                span = hi - lo + 1
                for keep in range(len(inner) + 1):
                    if span - (keep + (2 if hi > lo else 1)) > jokers:
                        continue
                    for chosen in itertools.combinations(inner, keep):
                        naturals = [lo, *chosen, hi] if hi > lo else [lo]
                        gaps = span - len(naturals)
                        for extra in range(jokers - gaps + 1):
                            size = len(naturals) + gaps + extra
                            if size < MIN_SET or size > MAX_NUMBER:
                                continue
                            cand = tuple(Tile(colour, n) for n in naturals) + (JOKER,) * (gaps + extra)
                            if check_tiles(cand).valid:
                                out[cand] = None
    for number in range(1, MAX_NUMBER + 1):
        present = [Tile(c, number) for c in COLOURS if available[Tile(c, number)]]
        for k in range(1, len(present) + 1):
            for combo in itertools.combinations(present, k):
                for j in range(0, min(jokers, 4 - k) + 1):
                    if k + j < MIN_SET:
                        continue
                    cand = tuple(combo) + (JOKER,) * j
                    if check_tiles(cand).valid:
                        out[cand] = None
    return list(out)


def tile_meld_value(tiles: tuple[Tile, ...]) -> int:
    """What a set counts toward the initial meld (jokers as what they stand for, at best)."""
    return check_tiles(tiles).points


def domino_sets(available: Counter[Domino], melds: DominoMelds) -> list[tuple[Domino, ...]]:
    """Every valid domino set (as a multiset) whose pieces ``available`` holds."""
    jokers = sorted(d for d in available if d in melds.jokers)
    joker_pool = [d for d in jokers for _ in range(available[d])]
    naturals = sorted(d for d in available if d not in melds.jokers)
    out: dict[tuple[Domino, ...], None] = {}

    def joker_choices(k: int) -> set[tuple[Domino, ...]]:
        return set(itertools.combinations(joker_pool, k))

    top = melds.top
    # Runs: one suit, consecutive other halves, jokers filling gaps and ends.
    for suit in range(top + 1):
        by_value = {d.other(suit): d for d in naturals if d.has(suit)}
        values = sorted(by_value)
        for lo_i, lo in enumerate(values):
            for hi in values[lo_i:]:
                inner = [x for x in values if lo < x < hi]
                span = hi - lo + 1
                for keep in range(len(inner) + 1):
                    for chosen in itertools.combinations(inner, keep):
                        vals = [lo, *chosen, hi] if hi > lo else [lo]
                        gaps = span - len(vals)
                        for extra in range(len(joker_pool) - gaps + 1):
                            size = len(vals) + gaps + extra
                            if size < MIN_SET or size > top + 1:
                                continue
                            for fill in joker_choices(gaps + extra):
                                cand = tuple(sorted(by_value[x] for x in vals)) + tuple(sorted(fill))
                                if melds.check(cand).valid:
                                    out[cand] = None
    # Sums: equal pip totals, the same domino up to its available copies, plus jokers.
    by_total: dict[int, list[Domino]] = {}
    for d in naturals:
        by_total.setdefault(d.pips, []).extend([d] * available[d])
    for group in by_total.values():
        for k in range(1, len(group) + 1):
            for combo in set(itertools.combinations(group, k)):
                for j in range(len(joker_pool) + 1):
                    if k + j < MIN_SET:
                        continue
                    for fill in joker_choices(j):
                        cand = tuple(sorted(combo)) + tuple(sorted(fill))
                        if melds.check(cand).valid:
                            out[cand] = None
    return list(out)
