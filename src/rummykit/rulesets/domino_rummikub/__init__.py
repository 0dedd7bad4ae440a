"""``domino-rummikub``: Rummikub played with two double-six domino sets (seed 001).

Rules as enforced, with every ruling of RULES-NOTES section 3, are in
``docs/games/domino-rummikub.md``; rule ids ``DR-...`` are defined there.

>>> import rummykit
>>> state = rummykit.new_game('domino-rummikub', players=3, seed=2)
>>> seat = state.view(None)['turn']
>>> len(state.view(seat)['rack']), state.view(seat)['pool_size']
(8, 32)
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
from rummykit.melds.dominoes import DominoMelds
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes, parse_dominoes
from rummykit.rulesets import freetable
from rummykit.rulesets.freetable import Draw, Fail, FreeTableGame, Pass, Play

__all__ = [
    "INFO",
    "JOKERS",
    "MELDS",
    "OPTIONS",
    "TABLE",
    "DominoRummikub",
    "actions_from_view",
    "draft_from_view",
    "from_position",
    "full_set",
    "layoffs",
    "listable_actions",
    "rack_sets",
]

GAME_ID = "domino-rummikub"
TOP = 6
COPIES = 2
RACK_SIZE = 8
JOKERS = frozenset({Domino(0, 0), Domino(TOP, TOP)})
MELDS = DominoMelds(top=TOP, jokers=JOKERS, prefix="DR")
TABLE: FreeTable[Domino] = FreeTable(MELDS.check, format_dominoes, "DR", "domino", JOKERS)
EXACTLY_3 = "exactly-3"
AT_LEAST_3 = "3-or-more"

OPTIONS = (
    OptionSpec(
        "starting_group_size",
        str,
        EXACTLY_3,
        "size of each player's first play, one new set from the rack",
        choices=(EXACTLY_3, AT_LEAST_3),
    ),
    *match_options(target=100, target_help="50: the short game; none: one round"),
)

DominoSet = tuple[Domino, ...]


def full_set() -> list[Domino]:
    """Two double-six sets: 56 dominoes, of which the two 0-0 and two 6-6 are jokers.

    >>> len(full_set()), sum(d in JOKERS for d in full_set())
    (56, 4)
    """
    return [d for d in double_set(TOP) for _ in range(COPIES)]


class DominoRummikub(FreeTableGame[Domino]):
    """A match (or a single round) of Rummikub with dominoes."""

    game_id = GAME_ID
    TABLE = TABLE
    RACK_SIZE = RACK_SIZE
    PENALTY = None
    PREFIX = "DR"
    POOL_NAME = "boneyard"

    def full_set(self) -> list[Domino]:
        return full_set()

    def choose_first(self) -> int:
        """The seed names no starting rule: the first player is drawn by lot (seeded)."""
        first = self.rng.below(len(self.players))
        self.emit("first-player", first, {"by": "lot"})
        return first

    def opening(self, seat: int) -> Opening | None:
        if self.down[seat]:
            return None
        return _opening(self.options["starting_group_size"])

    def piece_points(self, piece: Domino) -> int:
        return piece.pips

    def round_scores(self, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The player who went out (or, when all passed, the fewest spots; ties all win)
        scores the spots left in every other hand, jokers included; the others score 0."""
        spots = [self.rack_points(i) for i in range(len(self.players))]
        if winner is not None:
            winners: tuple[int, ...] = (winner,)
        else:
            low = min(spots)
            winners = tuple(i for i, v in enumerate(spots) if v == low)
        losers = sum(v for i, v in enumerate(spots) if i not in winners)
        return winners, tuple(losers if i in winners else 0 for i in range(len(spots)))

    def parse_pieces(self, text: str) -> list[Domino]:
        return parse_dominoes(text)

    def list_actions(self, seat: int) -> list[Action]:
        return listable_actions(
            seat,
            self.racks[seat],
            self.table,
            down=self.down[seat],
            starting_group_size=self.options["starting_group_size"],
            pool_size=len(self.pool),
        )


@functools.lru_cache(maxsize=4)
def _opening(size_rule: str) -> Opening:
    if size_rule == EXACTLY_3:
        return Opening(set_sizes=(3,), max_sets=1, name="starting group")
    return Opening(max_sets=1, name="starting group")


# -- listing plays ---------------------------------------------------------------


def rack_sets(rack: Iterable[Domino], *, max_size: int | None = None) -> list[DominoSet]:
    """Every valid set (normal form) that can be made from the rack (up to ``max_size`` dominoes).

    A joker may also stand where the rack holds the real domino (keeping it back).

    >>> [format_dominoes(s) for s in rack_sets(parse_dominoes('5-3 5-4 5-5 6-6'), max_size=3)]
    ['6-6 3-5 4-5', '3-5 4-5 5-5', '6-6 4-5 5-5', '3-5 6-6 5-5', '3-5 4-5 6-6', '4-5 5-5 6-6']
    """
    rack = list(rack)
    jokers = tuple(sorted(d for d in rack if d in JOKERS))
    natural = [d for d in rack if d not in JOKERS]
    limit = max_size if max_size is not None else len(rack)
    found: list[DominoSet] = []
    for suit in range(TOP + 1):
        mask = 0
        for d in natural:
            if d.low == suit or d.high == suit:
                mask |= 1 << d.other(suit)
        if mask:
            found.extend(_suit_runs(suit, mask, jokers, min(limit, TOP + 1)))
    by_pips: dict[int, list[Domino]] = {}
    for d in sorted(natural):
        by_pips.setdefault(d.pips, []).append(d)
    for total in sorted(by_pips):
        found.extend(_sums(tuple(by_pips[total]), jokers, limit))
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1 << 14)
def _suit_runs(suit: int, values: int, jokers: tuple[Domino, ...], limit: int) -> tuple[DominoSet, ...]:
    """Every run in ``suit`` from the values in the bit mask plus the given jokers."""
    found: dict[DominoSet, None] = {}
    for start in range(TOP + 1):
        missing = 0
        for end in range(start, min(TOP, start + limit - 1) + 1):
            if not values >> end & 1:
                missing += 1
                if missing > len(jokers):
                    break
            length = end - start + 1
            if length < 3 or missing == length:
                continue
            present = [v for v in range(start, end + 1) if values >> v & 1]
            for extra in range(0, min(len(jokers) - missing, len(present) - 1) + 1):
                for swapped in itertools.combinations(present, extra):
                    keep = set(present) - set(swapped)
                    for fill in _joker_fills(jokers, missing + extra):
                        it = iter(fill)
                        cand = tuple(Domino(suit, v) if v in keep else next(it) for v in range(start, end + 1))
                        c = MELDS.check(cand)
                        if c.valid:
                            found[c.pieces] = None
    return tuple(found)


@functools.lru_cache(maxsize=1 << 14)
def _sums(group: tuple[Domino, ...], jokers: tuple[Domino, ...], limit: int) -> tuple[DominoSet, ...]:
    """Every sum from dominoes of one pip total (duplicates allowed) plus the given jokers."""
    found: dict[DominoSet, None] = {}
    for size in range(3, min(limit, len(group) + len(jokers)) + 1):
        for k in range(max(1, size - len(jokers)), min(size, len(group)) + 1):
            for combo in set(itertools.combinations(group, k)):
                for fill in _joker_fills(jokers, size - k):
                    c = MELDS.check(combo + fill)
                    if c.valid:
                        found[c.pieces] = None
    return tuple(found)


def _joker_fills(jokers: Sequence[Domino], k: int) -> list[tuple[Domino, ...]]:
    """The distinct ways to pick ``k`` joker dominoes from the rack's jokers."""
    return sorted(set(itertools.combinations(sorted(jokers), k)))


def layoffs(rack: Iterable[Domino], table: Sequence[DominoSet]) -> list[tuple[Domino, int, DominoSet]]:
    """Every (domino, set index, new set) adding one rack domino to one table set."""
    have = set(rack)
    return [(d, i, new) for i, s in enumerate(table) for d, new in _extensions(s) if d in have]


@functools.lru_cache(maxsize=1 << 14)
def _extensions(s: DominoSet) -> tuple[tuple[Domino, DominoSet], ...]:
    """Every domino that makes a valid set when added at one end of ``s``, with that set."""
    out = []
    for d in double_set(TOP):
        for cand in ((*s, d), (d, *s)):
            c = MELDS.check(cand)
            if c.valid:
                out.append((d, c.pieces))
                break
    return tuple(out)


def listable_actions(
    seat: int,
    rack: Sequence[Domino],
    table: Sequence[DominoSet],
    *,
    down: bool,
    starting_group_size: str,
    pool_size: int,
) -> list[Action]:
    """Draw (or pass when the boneyard is empty); every play of one new set from the rack
    (before the starting group: one of the allowed size); once down, every one-domino lay-off."""
    exact = not down and starting_group_size == EXACTLY_3
    sets = [s for s in rack_sets(rack, max_size=3 if exact else None) if not exact or len(s) == 3]
    return freetable.one_step_plays(seat, sets, layoffs(rack, table) if down else (), table, pool_size)


def actions_from_view(view: Mapping[str, JSON]) -> list[Action]:
    """:func:`listable_actions` for the seat whose view this is (empty if it may not act)."""
    seat = view.get("seat")
    if seat is None or seat not in view["to_act"]:
        return []
    return listable_actions(
        seat,
        parse_dominoes(view["rack"]),
        [freetable.parse_view_set(parse_dominoes, tuple(s)) for s in view["table"]],
        down=view["down"][seat],
        starting_group_size=view["options"]["starting_group_size"],
        pool_size=int(view["pool_size"]),
    )


def draft_from_view(view: Mapping[str, JSON]) -> TableDraft[Domino]:
    """A turn draft for the seat whose view this is."""
    seat = view.get("seat")
    opening = None
    if seat is not None and not view["down"][seat]:
        opening = _opening(view["options"]["starting_group_size"])
    return freetable.draft_from_view(TABLE, view, parse_dominoes, opening)


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: Any,
) -> DominoRummikub:
    """Set up a position from its one-line string (the same fields as ``rummikub``'s).

    >>> s = from_position('table: 5-3 5-4 5-5; racks: 5-6 1-1 / 2-3 0-0; pool: seed 1; turn: 0; down: 10')
    >>> s.view(0)['rack'], s.view(None)['pool_size']
    (['1-1', '5-6'], 49)
    """
    return freetable.game_from_position(DominoRummikub, text, parse_dominoes, players=players, seed=seed, options=options)


def _factory(players: tuple[str, ...], seed: int, options: dict[str, Any]) -> GameState:
    return DominoRummikub(players, seed, options)


INFO = GameInfo(
    id=GAME_ID,
    name="Domino Rummikub (two double-six sets)",
    summary="56 dominoes, 0-0 and 6-6 wild; runs and sums; a 3-domino starting group, then free rearrangement.",
    min_players=2,
    max_players=6,
    options=OPTIONS,
    factory=_factory,
    aliases=("domino-rummy", "dr"),
    from_position=from_position,
    view_actions=actions_from_view,
    rules_page="docs/games/domino-rummikub.md",
    parse_action_text=lambda seat, text: freetable.parse_turn_action(seat, text, parse_dominoes),
    actions=(Draw, Pass, Play, Fail),
    parse_piece=Domino.parse,
)
DominoRummikub.info = INFO
