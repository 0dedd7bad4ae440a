"""``rummikub``: standard tile rummy (seed 003, rulings in RULES-NOTES section 1).

Rules as enforced are described in ``docs/games/rummikub.md``; every rule id
quoted in an error (``RK-...``) is defined there.

>>> import rummykit
>>> state = rummykit.new_game('rummikub', players=2, seed=3)
>>> seat = state.view(None)['turn']
>>> len(state.view(seat)['rack']), state.view(seat)['pool_size']
(14, 78)
>>> state.apply(state.parse_action(f'{seat} draw'))[0].kind
'draw'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummykit.blocks.table import FreeTable, Opening, TableDraft
from rummykit.engine.core import JSON, Action, GameInfo, GameState
from rummykit.engine.match import match_options
from rummykit.engine.options import OptionSpec
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import COLOURS, JOKER, MAX_NUMBER, Tile, format_tiles, parse_tiles
from rummykit.rulesets import freetable
from rummykit.rulesets.freetable import (
    Draw,
    Fail,
    FreeTableGame,
    Pass,
    Play,
    draft_action,
    format_table,
    play_from_table,
)

__all__ = [
    "INFO",
    "OPTIONS",
    "TABLE",
    "Draw",
    "Fail",
    "Pass",
    "Play",
    "Rummikub",
    "actions_from_view",
    "draft_action",
    "draft_from_view",
    "format_table",
    "from_position",
    "full_set",
    "layoffs",
    "listable_actions",
    "parse_action_text",
    "parse_table",
    "play_from_table",
    "rack_sets",
]

GAME_ID = "rummikub"
RACK_SIZE = 14
COPIES = 2
PENALTY_TILES = 3

OPTIONS = (
    OptionSpec("jokers", int, 2, "jokers in play", minimum=0, maximum=4),
    OptionSpec(
        "initial_meld_points",
        int,
        30,
        "least total of a player's initial meld (0: no initial-meld rule)",
        minimum=0,
        maximum=300,
    ),
    *match_options(target=None, target_help="none: one round"),
)

TABLE: FreeTable[Tile] = FreeTable(check_tiles, format_tiles, "RK", "tile", frozenset({JOKER}))

TileSet = tuple[Tile, ...]
Table = tuple[TileSet, ...]


def full_set(jokers: int) -> list[Tile]:
    """Every tile in play: two of each colour and number, then the jokers.

    >>> len(full_set(2)), len(full_set(4))
    (106, 108)
    """
    tiles = [Tile(c, n) for c in COLOURS for n in range(1, MAX_NUMBER + 1) for _ in range(COPIES)]
    return tiles + [JOKER] * jokers


def parse_table(text: str) -> Table:
    """Read sets of tiles separated by ``|`` (an empty text is an empty table).

    >>> parse_table('r1 r2 r3 | k5 b5 o5')[1]
    (Tile.parse('K5'), Tile.parse('B5'), Tile.parse('O5'))
    """
    return freetable.parse_table_with(parse_tiles, text)


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in rummikub notation.

    >>> parse_action_text(0, 'play R4 : R1 R2 R3 R4').text()
    'play R4 : R1 R2 R3 R4'
    """
    return freetable.parse_turn_action(seat, text, parse_tiles)


# -- the state ----------------------------------------------------------------


class Rummikub(FreeTableGame[Tile]):
    """A game (a round, or a match of rounds) of standard tile rummy."""

    game_id = GAME_ID
    TABLE = TABLE
    RACK_SIZE = RACK_SIZE
    PENALTY = PENALTY_TILES
    PREFIX = "RK"

    @property
    def threshold(self) -> int:
        """The initial-meld threshold (0: no initial-meld rule)."""
        return int(self.options["initial_meld_points"])

    def full_set(self) -> list[Tile]:
        return full_set(self.options["jokers"])

    def starts_down(self) -> bool:
        return self.threshold == 0

    def choose_first(self) -> int:
        """Each player draws a tile; highest (joker highest) starts; ties draw again.

        The drawn tiles go back: the round's pool is a fresh shuffle of the full set.
        """
        pool = self.full_set()
        self.rng.shuffle(pool)
        contenders = list(range(len(self.players)))
        drawn_all: list[Tile] = []
        while True:
            if len(pool) < len(contenders):
                pool.extend(drawn_all)
                drawn_all.clear()
                self.rng.shuffle(pool)
            drawn = {p: pool.pop() for p in contenders}
            drawn_all.extend(drawn.values())
            self.emit("first-draw", None, {"tiles": {str(p): str(t) for p, t in drawn.items()}})
            best = max(_draw_rank(t) for t in drawn.values())
            contenders = [p for p in contenders if _draw_rank(drawn[p]) == best]
            if len(contenders) == 1:
                self.emit("first-player", contenders[0])
                return contenders[0]

    def opening(self, seat: int) -> Opening | None:
        if self.down[seat]:
            return None
        return Opening(min_points=self.threshold, name="initial meld")

    def piece_points(self, piece: Tile) -> int:
        return piece.points

    def round_scores(self, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Winner: the sum of the losers' racks minus their own; losers: minus their own rack.

        A blocked round is won by the lowest rack total (ties all win).
        """
        totals = [self.rack_points(i) for i in range(len(self.players))]
        if winner is not None:
            winners: tuple[int, ...] = (winner,)
        else:
            low = min(totals)
            winners = tuple(i for i, v in enumerate(totals) if v == low)
        losers_sum = sum(v for i, v in enumerate(totals) if i not in winners)
        scores = tuple(losers_sum - totals[i] if i in winners else -totals[i] for i in range(len(totals)))
        return winners, scores

    def parse_pieces(self, text: str) -> list[Tile]:
        return parse_tiles(text)

    def list_actions(self, seat: int) -> list[Action]:
        return listable_actions(
            seat,
            self.racks[seat],
            self.table,
            down=self.down[seat],
            threshold=self.threshold,
            pool_size=len(self.pool),
        )


def _draw_rank(tile: Tile) -> int:
    return MAX_NUMBER + 1 if tile.is_joker else tile.number


# -- listing plays ----------------------------------------------------------------


def rack_sets(rack: Iterable[Tile]) -> list[TileSet]:
    """Every valid set (in normal form) that can be made from the rack's tiles.

    >>> [format_tiles(s) for s in rack_sets(parse_tiles('R1 R2 R3 B3 K3'))]
    ['K3 B3 R3', 'R1 R2 R3']
    """
    jokers = 0
    numbers_mask: dict[int, int] = {}
    colour_mask = [0] * len(COLOURS)
    for t in rack:
        if t.colour is None:
            jokers += 1
            continue
        ci = t.code // MAX_NUMBER
        numbers_mask[t.number] = numbers_mask.get(t.number, 0) | 1 << ci
        colour_mask[ci] |= 1 << t.number
    found: list[TileSet] = []
    group_jokers = min(jokers, 3)
    for number in sorted(numbers_mask):
        found.extend(_groups_from(number, numbers_mask[number], group_jokers))
    run_jokers = min(jokers, MAX_NUMBER - 1)
    for ci, mask in enumerate(colour_mask):
        if mask:
            found.extend(_runs_from(ci, mask, run_jokers))
    # A group and a run coincide only for one numbered tile with two or more jokers.
    return list(dict.fromkeys(found)) if jokers >= 2 else found


@functools.lru_cache(maxsize=4096)
def _groups_from(number: int, colours: int, jokers: int) -> tuple[TileSet, ...]:
    """Every group of ``number`` from the colours in the bit mask plus up to ``jokers`` jokers."""
    tiles = [Tile(c, number) for c in COLOURS if colours >> c.index & 1]
    found: dict[TileSet, None] = {}
    for size in (3, 4):
        for k in range(max(1, size - jokers), min(size, len(tiles)) + 1):
            for combo in itertools.combinations(tiles, k):
                c = check_tiles((JOKER,) * (size - k) + combo)
                if c.valid:
                    found[c.pieces] = None
    return tuple(found)


@functools.lru_cache(maxsize=1 << 16)
def _runs_from(colour_index: int, numbers: int, jokers: int) -> tuple[TileSet, ...]:
    """Every run of one colour from the numbers in the bit mask plus up to ``jokers`` jokers."""
    colour = COLOURS[colour_index]
    found: dict[TileSet, None] = {}
    for start in range(1, MAX_NUMBER - 1):
        missing = 0
        for end in range(start, MAX_NUMBER + 1):
            if not numbers >> end & 1:
                missing += 1
                if missing > jokers:
                    break
            length = end - start + 1
            if length < 3 or missing == length:
                continue
            present = [v for v in range(start, end + 1) if numbers >> v & 1]
            # A joker may also stand where the rack has the tile (keeping that tile back).
            for extra in range(0, min(jokers - missing, len(present) - 1) + 1):
                for swapped in itertools.combinations(present, extra):
                    keep = set(present) - set(swapped)
                    cand = tuple(Tile(colour, v) if v in keep else JOKER for v in range(start, end + 1))
                    c = check_tiles(cand)
                    if c.valid:
                        found[c.pieces] = None
    return tuple(found)


def layoffs(rack: Iterable[Tile], table: Sequence[TileSet]) -> list[tuple[Tile, int, TileSet]]:
    """Every (tile, set index, new set) adding one rack tile to one end of a table set.

    >>> [(str(t), i, format_tiles(s)) for t, i, s in layoffs(parse_tiles('R4 K5'), parse_table('R1 R2 R3'))]
    [('R4', 0, 'R1 R2 R3 R4')]
    """
    have = set(rack)
    out: list[tuple[Tile, int, TileSet]] = []
    for i, s in enumerate(table):
        for t, new in _extensions(s):
            if t in have:
                out.append((t, i, new))
    return out


@functools.lru_cache(maxsize=1 << 16)
def _extensions(s: TileSet) -> tuple[tuple[Tile, TileSet], ...]:
    """Every tile that makes a valid set when added at one end of ``s``, with that set.

    Only a joker, a tile of the set's number (a group's missing colour) or a
    tile of the set's colour next to or inside its span (a run's end, or a
    tile that frees a joker to the end) can possibly fit.
    """
    natural = [t for t in s if t.colour is not None]
    candidates: set[Tile] = {JOKER}
    if natural:
        numbers = {t.number for t in natural}
        colours = {t.colour for t in natural}
        if len(numbers) == 1:
            n = natural[0].number
            candidates.update(Tile(c, n) for c in COLOURS if c not in colours)
        if len(colours) == 1:
            colour = natural[0].colour
            lo = max(1, min(numbers) - len(s))
            hi = min(MAX_NUMBER, max(numbers) + len(s))
            candidates.update(Tile(colour, v) for v in range(lo, hi + 1) if v not in numbers)
    out = []
    for t in sorted(candidates):
        for cand in ((*s, t), (t, *s)):
            c = check_tiles(cand)
            if c.valid:
                out.append((t, c.pieces))
                break
    return tuple(out)


def listable_actions(
    seat: int,
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    *,
    down: bool,
    threshold: int,
    pool_size: int,
) -> list[Action]:
    """The listable actions of the player to move, from what that player can see.

    Draw (or pass when the pool is empty); every play of one new set from the
    rack (before the initial meld: one whose value reaches the threshold); and,
    once down, every lay-off of one rack tile onto one table set.
    """
    sets = [s for s in rack_sets(rack) if down or check_tiles(s).points >= threshold]
    return freetable.one_step_plays(seat, sets, layoffs(rack, table) if down else (), table, pool_size)


def actions_from_view(view: Mapping[str, JSON]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view this is (empty if it may not act)."""
    seat = view.get("seat")
    if seat is None or seat not in view["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_tiles(view["rack"]),
        [freetable.parse_view_set(parse_tiles, tuple(s)) for s in view["table"]],
        down=view["down"][seat],
        threshold=int(view["options"]["initial_meld_points"]),
        pool_size=int(view["pool_size"]),
    )


# -- drafts -------------------------------------------------------------------


def draft_from_view(view: Mapping[str, JSON]) -> TableDraft[Tile]:
    """A turn draft for the seat whose view this is."""
    seat = view.get("seat")
    opening = None
    if seat is not None and not view["down"][seat]:
        opening = Opening(min_points=int(view["options"]["initial_meld_points"]), name="initial meld")
    return freetable.draft_from_view(TABLE, view, parse_tiles, opening)


# -- positions ----------------------------------------------------------------


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: Any,
) -> Rummikub:
    """Set up a position from its one-line string.

    ``table: <sets>; racks: <rack> / <rack> ...; pool: <tiles> | seed <n>;
    turn: <seat>; down: <one 0/1 per seat>; idle: <n>``. ``pool`` lists the
    tiles in draw order (the last is drawn first), or ``seed N`` to shuffle the
    tiles that are not on the table or in a rack with seed N. ``down``,
    ``idle`` and ``turn`` default to nobody down, 0 and seat 0.

    >>> s = from_position('table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 1')
    >>> s.view(1)['rack'], s.view(None)['pool_size']
    (['B1', 'B2'], 99)
    """
    return freetable.game_from_position(Rummikub, text, parse_tiles, players=players, seed=seed, options=options)


def _factory(players: tuple[str, ...], seed: int, options: dict[str, Any]) -> GameState:
    return Rummikub(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Rummikub (standard tile rummy)",
    summary="106 tiles, groups and runs, a 30-point initial meld, then free rearrangement of the table.",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=_factory,
    aliases=("tile-rummy", "rk"),
    from_position=from_position,
    view_actions=lambda view: actions_from_view(view),
    rules_page="docs/games/rummikub.md",
    parse_action_text=parse_action_text,
    actions=(Draw, Pass, Play, Fail),
    parse_piece=Tile.parse,
)
Rummikub.info = INFO
