"""The tile-rummy basics that ``rummikub`` and ``two-tray`` share (RULES-NOTES sections 1 and 2).

Two-tray's seed says "follow the rules that came with your tile game", so both
games use the same tile set, the same draw for the first player and the same
scoring. They live here, apart from the free-table machinery, so a game that
does not lay its sets on a free table (two-tray's grid) can use them too.

>>> len(full_set(2)), len(full_set(4))
(106, 108)
>>> round_scores([35, 8, 9], None)
((1,), (-35, 36, -9))
>>> round_scores([0, 12], 0)
((0,), (12, -12))
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.engine.core import GameState
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile

__all__ = ["COPIES", "choose_first", "full_set", "round_scores"]

COPIES = 2
"""Copies of each numbered tile in the set."""


def full_set(jokers: int) -> list[Tile]:
    """Every tile in play: two of each colour and number, then the jokers."""
    return [*_NUMBERED, *(JOKER,) * jokers]


_NUMBERED: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in range(1, MAX_NUMBER + 1) for _ in range(COPIES))
"""The numbered tiles of the set, in the order :func:`full_set` lists them."""


def choose_first(state: GameState, tiles: Sequence[Tile]) -> int:
    """Each player draws a tile; the highest (a joker beats every number) starts; ties draw again.

    The draws come from a shuffle of ``tiles`` with the state's generator and
    are reported as ``first-draw`` and ``first-player`` events; the tiles go
    back afterwards (the round's pool is a fresh shuffle).
    """
    pool = list(tiles)
    state.rng.shuffle(pool)
    contenders = list(range(len(state.players)))
    drawn_all: list[Tile] = []
    while True:
        if len(pool) < len(contenders):
            pool.extend(drawn_all)
            drawn_all.clear()
            state.rng.shuffle(pool)
        drawn = {p: pool.pop() for p in contenders}
        drawn_all.extend(drawn.values())
        state.emit("first-draw", None, {"tiles": {str(p): str(t) for p, t in drawn.items()}})
        best = max(_draw_rank(t) for t in drawn.values())
        contenders = [p for p in contenders if _draw_rank(drawn[p]) == best]
        if len(contenders) == 1:
            state.emit("first-player", contenders[0])
            return contenders[0]


def _draw_rank(tile: Tile) -> int:
    return MAX_NUMBER + 1 if tile.is_joker else tile.number


def round_scores(totals: Sequence[int], winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The round's winners and scores from each seat's rack total (a joker counts 30).

    Winner: the sum of the losers' racks minus their own; losers: minus their
    own rack. A blocked round (``winner`` None) is won by the lowest total
    (ties all win).
    """
    if winner is not None:
        winners: tuple[int, ...] = (winner,)
    else:
        low = min(totals)
        winners = tuple(i for i, v in enumerate(totals) if v == low)
    losers_sum = sum(v for i, v in enumerate(totals) if i not in winners)
    scores = tuple(losers_sum - totals[i] if i in winners else -totals[i] for i in range(len(totals)))
    return winners, scores
