"""Seeded, realistic rummikub positions for the solver benchmark and the long cross-check.

A position is a valid table (sets built from one shuffled 106-tile set, or
108 with four jokers) and a rack drawn from the tiles left over. Tables
hold exactly the asked number of tiles: random runs and groups are laid
until the table is nearly full, and the last tiles extend existing sets or
form one more set. Jokers sometimes stand on the table (in place of a tile
of a set) and sometimes sit in the rack.

    python bench/solver_positions.py --count 3 --table 30
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile, format_tiles

TABLE_SIZES = (0, 15, 30, 45, 60, 80)
COPIES = 2


@dataclass(frozen=True)
class Position:
    """One solver position: a valid table (list of sets) and a rack."""

    seed: int
    table: tuple[tuple[Tile, ...], ...]
    rack: tuple[Tile, ...]

    @property
    def table_tiles(self) -> int:
        return sum(len(s) for s in self.table)

    def text(self) -> str:
        sets = " | ".join(format_tiles(s) for s in self.table)
        return f"table: {sets or '-'}; rack: {format_tiles(sorted(self.rack))}"


def _random_set(rng: random.Random, stock: Counter[Tile], size_left: int) -> list[Tile] | None:
    """A random valid set (3..min(6, size_left) tiles) of natural tiles available in ``stock``."""
    for _ in range(60):
        if rng.random() < 0.55:
            colour = rng.choice(COLOURS)
            length = rng.choice((3, 3, 3, 4, 4, 5, 6))
            length = min(length, size_left)
            if length < 3:
                return None
            start = rng.randint(1, MAX_NUMBER - length + 1)
            tiles = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(1, MAX_NUMBER)
            size = min(rng.choice((3, 3, 4)), size_left)
            if size < 3:
                return None
            tiles = [Tile(c, number) for c in rng.sample(COLOURS, size)]
        need = Counter(tiles)
        if all(stock[t] >= k for t, k in need.items()):
            return tiles
    return None


def _extend_one(rng: random.Random, table: list[list[Tile]], stock: Counter[Tile]) -> bool:
    """Add one stock tile (or a joker) to some set so it stays valid; True if it could."""
    order = list(range(len(table)))
    rng.shuffle(order)
    for i in order:
        s = table[i]
        for t in rng.sample(sorted(t for t in stock if stock[t] > 0), k=sum(1 for t in stock if stock[t] > 0)):
            for cand in ([*s, t], [t, *s]):
                if check_tiles(cand).valid:
                    table[i] = list(check_tiles(cand).pieces)
                    stock[t] -= 1
                    return True
    return False


def make_position(seed: int, table_tiles: int, *, jokers: int = 2, rack_range: tuple[int, int] = (14, 30)) -> Position:
    """A seeded position with exactly ``table_tiles`` tiles on the table."""
    rng = random.Random(seed * 7_919 + table_tiles)
    for _ in range(100):
        position = _attempt(rng, seed, table_tiles, jokers, rack_range)
        if position is not None:
            return position
    raise RuntimeError(f"could not build a table of {table_tiles} tiles (seed {seed})")


def _attempt(
    rng: random.Random, seed: int, table_tiles: int, jokers: int, rack_range: tuple[int, int]
) -> Position | None:
    stock: Counter[Tile] = Counter(
        {Tile(c, n): COPIES for c in COLOURS for n in range(1, MAX_NUMBER + 1)}
    )
    stock[JOKER] = jokers
    table: list[list[Tile]] = []
    joker_on_table_p = rng.choice((0.0, 0.08, 0.2))
    placed = 0
    while table_tiles - placed >= 3:
        left = table_tiles - placed
        s = _random_set(rng, stock, min(left, 6) if left not in (7, 8) else 4)
        if s is None:
            break
        if stock[JOKER] and rng.random() < joker_on_table_p:
            s[rng.randrange(len(s))] = JOKER
            if not check_tiles(s).valid:
                continue
        for t in s:
            stock[t] -= 1
        table.append(list(check_tiles(s).pieces))
        placed += len(s)
    while placed < table_tiles:
        if not _extend_one(rng, table, stock):
            return None
        placed += 1
    # The rack: jokers left over go in with some probability, the rest is random stock.
    rest = [t for t, k in sorted(stock.items()) for _ in range(k) if not t.is_joker]
    rng.shuffle(rest)
    size = rng.randint(*rack_range)
    rack = rest[:size]
    spare_jokers = stock[JOKER]
    for _ in range(spare_jokers):
        if rng.random() < 0.35 and rack:
            rack[rng.randrange(len(rack))] = JOKER
    return Position(seed, tuple(tuple(s) for s in table), tuple(rack))


def positions(count: int, table_tiles: int, *, first_seed: int = 1, jokers: int = 2) -> list[Position]:
    """``count`` positions with tables of ``table_tiles`` tiles, seeds ``first_seed`` onwards."""
    return [make_position(first_seed + i, table_tiles, jokers=jokers) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--table", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for p in positions(args.count, args.table, first_seed=args.seed):
        print(p.text())


if __name__ == "__main__":
    main()
