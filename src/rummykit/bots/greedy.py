"""``greedy``: a rummikub bot that places as many rack tiles as it can each turn.

It works from its seat's view alone. Before its initial meld it looks for the
disjoint sets from its rack that reach the threshold with the most tiles (then
the most points), spending no joker when a joker-free meld also reaches it.
Once down it repeats, while anything helps: new sets from the rack, lay-offs
onto table sets, and a few simple rearrangements (take a spare tile from a
long run or a group of four, split a run to insert a tile, replace a table
joker and use the freed joker again). The final table is checked with the
meld checker before it is committed; otherwise the bot draws (or passes).

>>> from rummykit.bots.registry import make_bot
>>> from rummykit.rulesets.rummikub import from_position
>>> state = from_position('racks: K10 B10 O10 R2 / B1 B2; pool: seed 1; down: 00')
>>> action = make_bot('greedy', 'rummikub').choose(state.view(0), Rng(0))
>>> str(action)
'0 play K10 B10 O10 : K10 B10 O10'
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import cast

from rummykit.bots.base import own_seat, whole_option
from rummykit.bots.greedy_check import _checked_play as _checked_play
from rummykit.bots.greedy_check import verify_play as verify_play
from rummykit.bots.greedy_memo import NO_PLAY, NO_SETS, Key, NoPlay, SetKey, no_play, no_play_after
from rummykit.bots.greedy_shapes import (
    NEAR,
    Shape,
    extend,
    makes_set,
    rack_mask,
    seen_sets,
    set_around,
    shape_of,
    view_set,
)
from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError, RuleError
from rummykit.melds.base import MIN_SET
from rummykit.melds.cover import RANK_BASE, Candidate, CoverProblem, best_cover, rank
from rummykit.melds.tiles import check_tiles, hand_sets
from rummykit.pieces.tiles import ALL_TILES, JOKER, MAX_NUMBER, Tile, parse_tiles
from rummykit.rulesets.freetable import FreeTableView
from rummykit.rulesets.freetable_views import SeatView
from rummykit.rulesets.rummikub import Draw, Pass, Play, play_from_table

__all__ = ["GreedyBot", "best_meld", "plan_turn", "verify_play"]

TileSet = tuple[Tile, ...]
NODE_LIMIT = 20_000
"""Search nodes :func:`best_meld` may visit; only huge racks with several jokers reach it."""


# -- the best disjoint sets from a rack -------------------------------------------


def best_meld(
    rack: Counter[Tile],
    *,
    threshold: int = 0,
    count_jokers: bool = True,
    use_jokers: bool = True,
    frugal: bool = False,
) -> list[TileSet]:
    """The disjoint sets from ``rack`` with the most tiles, then the most points, reaching ``threshold``.

    Searches every combination exactly (:func:`rummykit.melds.cover.best_cover`:
    a depth-first search that branches on the lowest tile still undecided,
    pruned by what the rest could add, larger sets tried first); only for huge
    racks with several jokers it may stop after :data:`NODE_LIMIT` nodes with
    the best combination found so far. With ``count_jokers`` false only
    numbered tiles count and fewer jokers win ties, so a joker is used only
    when it places more numbered tiles; ``frugal`` leaves out sets with more
    than one joker per two numbered tiles. Returns an empty list when no
    combination reaches the threshold (or none exists).

    >>> from rummykit.pieces.tiles import format_tiles
    >>> rack = Counter(parse_tiles('R9 R10 R11 K4 B4 O4 J'))
    >>> [format_tiles(s) for s in best_meld(rack, threshold=30, count_jokers=False)]
    ['K4 B4 O4', 'R9 R10 R11']
    >>> [format_tiles(s) for s in best_meld(rack, threshold=30)]
    ['K4 B4 O4', 'R9 R10 R11 J']
    >>> best_meld(Counter(parse_tiles('R9 R10 K4 B4')), threshold=30)
    []
    """
    jokers = rack.get(JOKER, 0) if use_jokers else 0
    tiles = [t for t, k in rack.items() if k > 0 and t.colour is not None]
    cands: list[Candidate[Tile]] = []
    useful: dict[Tile, None] = {}  # a dict keeps a fixed order (tiles hash by identity)
    sets = hand_sets(tiles + [JOKER] * jokers)
    if not sets:
        return []
    no_filter = not jokers or (count_jokers and not frugal)  # no set is left out below
    if threshold and no_filter and _reach(rack, chain.from_iterable(sets), jokers) < threshold:
        return []  # the bound after the candidates (see there), known before them
    for s in sets:
        spent = list(map(operator.is_, s, _JOKER_ROW)).count(True) if jokers else 0  # s.count(JOKER), by identity
        numbered = len(s) - spent
        # Without counting jokers, a joker that could leave its set without breaking it places no tile.
        if spent and ((not count_jokers and not _lean(s)) or (frugal and 2 * spent > numbered)):
            continue
        points = check_tiles(s).points
        # rank(numbered + spent, 0, points) or rank(numbered, -spent, points), written out
        value = ((numbered + spent) * _RANK2 if count_jokers else numbered * _RANK2 - spent * RANK_BASE) + points
        cands.append(Candidate(s, value, points))
        useful.update(dict.fromkeys(s))
    useful.pop(JOKER, None)
    if not cands:
        return []
    if threshold and _reach(rack, useful, jokers) < threshold:
        return []  # the useful tiles cannot reach the threshold: what the search finds at its first node
    # Larger sets first: good solutions early make the pruning bite.
    cands.sort(key=lambda c: (-len(c.pieces), -c.measure))
    hand: dict[Tile, int] = {}
    for t in useful:
        hand[t] = rack[t]
    if jokers:
        hand[JOKER] = jokers
    found = best_cover(
        CoverProblem(
            hand,
            cands,
            order=_CODE,
            potential=_POTENTIAL[count_jokers].__getitem__,
            reach=_REACH.__getitem__,
            threshold=threshold,
            node_limit=NODE_LIMIT,
        )
    )
    return [c.pieces for c in found.chosen] if found is not None else []


def _reach(rack: Counter[Tile], tiles: Iterable[Tile], jokers: int) -> int:
    """The most points the rack's copies of ``tiles`` and ``jokers`` jokers could count in sets (the
    search's own first bound: a joker counts 13)."""
    held = set(tiles)
    held.discard(JOKER)
    points = MAX_NUMBER * jokers
    for t in held:
        points += rack[t] * t.number
    return points


_CODE = operator.attrgetter("code")
_JOKER_ROW = (JOKER,) * (MAX_NUMBER + 1)
"""A joker for each tile of the longest set: ``map(operator.is_, s, _JOKER_ROW)`` says which tiles of ``s`` are
jokers, in C (``s.count(JOKER)`` compares every other tile with ``==``, slow between two tiles: see
:mod:`rummykit.pieces.same`)."""
_VALID = operator.attrgetter("valid")
_RANK2 = RANK_BASE * RANK_BASE
_REACH = {t: MAX_NUMBER if t.colour is None else t.number for t in ALL_TILES}
"""The most a tile still undecided could add to a meld's points: its number, or 13 for a joker."""
_POTENTIAL = {
    count_jokers: {t: rank(1 if count_jokers or t.colour is not None else 0, 0, _REACH[t]) for t in ALL_TILES}
    for count_jokers in (False, True)
}
"""The most a tile still undecided could add to :func:`best_meld`'s objective (with and without counting jokers)."""


def _lean(pieces: TileSet) -> bool:
    """True when no joker at an end of the set (runs; the first, for groups) can be left out."""
    if len(pieces) <= MIN_SET:
        return True
    for k in (0, len(pieces) - 1):
        if pieces[k] is JOKER and check_tiles(pieces[:k] + pieces[k + 1 :]).valid:
            return False
    return True


# -- one turn once down -------------------------------------------------------------


class _Turn:
    """A turn being planned: the rack left and the table so far (valid sets in normal form).

    ``shapes[i]`` is the :class:`Shape` of ``table[i]``, kept in step with it:
    every change to the table goes through :meth:`_put` or :meth:`_add` (or
    restores both lists together). ``mask`` is :func:`rack_mask` of the rack,
    kept in step with it by :meth:`_take` (or restored with it).
    """

    def __init__(self, rack: list[Tile], table: list[TileSet], shapes: list[Shape]) -> None:
        self.rack: Counter[Tile] = Counter(rack)
        self.mask = rack_mask(self.rack)
        self.table = table
        self.shapes = shapes
        self.taken: list[Tile] = []
        """The rack tiles this turn placed so far, in the order taken."""

    def _put(self, i: int, s: TileSet) -> None:
        self.table[i] = s
        self.shapes[i] = shape_of(s)

    def _add(self, s: TileSet) -> None:
        self.table.append(s)
        self.shapes.append(shape_of(s))

    def _take(self, tiles: TileSet) -> None:
        rack = self.rack
        self.taken.extend(tiles)
        for t in tiles:
            rack[t] -= 1
            if not rack[t]:
                del rack[t]
                self.mask &= ~(1 << t.code)

    # -- steps (each returns True when it placed at least one rack tile) ------

    def new_sets(self) -> bool:
        """Lay down the disjoint new sets from the rack that place the most numbered tiles.

        Jokers go into a set only when they place more numbered tiles, at most
        one per two numbered tiles, unless the sets would empty the whole rack.
        """
        if not makes_set(self.mask, self.rack.get(JOKER, 0)):
            return False  # best_meld would find no set at all
        sets: list[TileSet] = []
        size = sum(self.rack.values())
        if self.rack.get(JOKER) and size <= GO_OUT_SEARCH:
            sets = best_meld(self.rack)
            if sum(len(s) for s in sets) < size:
                sets = []
        if not sets:
            sets = best_meld(self.rack, count_jokers=False, frugal=True)
        for s in sets:
            self._take(s)
            self._add(s)
        return bool(sets)

    def layoffs(self) -> bool:
        """Add rack tiles, one at a time, to table sets that accept them."""
        rack, shapes = self.rack, self.shapes
        changed = False
        i = 0
        while i < len(shapes):
            shape = shapes[i]
            if shape.accept_mask & self.mask:
                for t, new in shape.accepts:
                    if t in rack:
                        self._put(i, new)
                        self._take((t,))
                        changed = True
                        break
                else:
                    i += 1
            else:
                i += 1
        return changed

    def split_insert(self) -> bool:
        """Split a run of 5+ to insert a rack tile that repeats one of its middle numbers."""
        rack = self.rack
        mask = self.mask
        for i, shape in enumerate(self.shapes):
            if not shape.split_mask & mask:  # sets shorter than 5 have no splits
                continue
            for t, left, right in shape.splits:
                if t in rack:
                    self._put(i, left)
                    self._add(right)
                    self._take((t,))
                    return True
        return False

    def donor_sets(self) -> bool:
        """Take a spare tile from a table set to complete the largest new set with rack tiles."""
        rack = self.rack
        mask = self.mask
        best: tuple[int, int, TileSet, TileSet] | None = None
        for i, shape in enumerate(self.shapes):
            if not shape.touch_mask & mask:
                continue  # no rack tile near a donor
            for donor, rest in shape.donors:  # sets of 3 have no donors
                near = NEAR[donor.code] & mask
                if not near & (near - 1):  # fewer than two rack tiles near it: no set around it
                    continue
                made = set_around(donor, rack)
                if made is not None and (best is None or len(made) > best[0]):
                    best = (len(made), i, rest, made)
        if best is None:
            return False
        _, i, rest, made = best
        self._put(i, rest)
        self._add(check_tiles(made).pieces)
        self._take(made[1:])
        return True

    def replace_jokers(self, *, productive_only: bool) -> bool:
        """Swap a table joker for the rack tile it stands for and use the freed joker again.

        With ``productive_only``, only when the joker then places more rack
        tiles (in a new set, or bridging a gap at a run's end).
        """
        mask = self.mask
        for i in range(len(self.table)):
            shape = self.shapes[i]
            if not shape.role_mask & mask:  # no joker in the set, or none of its roles in the rack
                continue
            for t, new in shape.roles:
                if t not in self.rack or (productive_only and not self._joker_would_place(i, t, new)):
                    continue
                saved = list(self.table), list(self.shapes), Counter(self.rack), self.mask
                taken = len(self.taken)
                self._put(i, new)
                self._take((t,))
                if self._use_free_joker(productive_only=productive_only):
                    return True
                self.table, self.shapes, self.rack, self.mask = saved
                del self.taken[taken:]
        return False

    def _joker_would_place(self, i: int, t: Tile, new: TileSet) -> bool:
        """True when, after ``t`` replaced a joker of set ``i`` (making ``new``), :meth:`_use_free_joker` would
        place the joker with rack tiles: two rack tiles left are near each other (they make a set with it),
        or a run's end two steps away is in the rack (the joker bridges to it). Nothing is changed."""
        rack = self.rack
        mask = self.mask if rack[t] > 1 else self.mask & ~(1 << t.code)
        for u in rack:
            if NEAR[u.code] & mask and (u is not t or rack[t] > 1):  # NEAR of a joker is 0
                return True
        if shape_of(new).end_mask & mask:
            return True
        return any(shape.end_mask & mask for k, shape in enumerate(self.shapes) if k != i)

    def _use_free_joker(self, *, productive_only: bool) -> bool:
        """Put a joker freed this turn back on the table, best with rack tiles."""
        best: TileSet | None = None
        key = (0, 0)
        for s in hand_sets([*(t for t in self.rack if t.colour is not None), JOKER]):
            if JOKER in s and (len(s), check_tiles(s).points) > key:
                best, key = s, (len(s), check_tiles(s).points)
        if best is not None:
            self._take(tuple(t for t in best if t.colour is not None))
            self._add(best)
            return True
        if self._bridge(from_rack=False):
            return True
        return not productive_only and self._lay_joker()

    def _bridge(self, *, from_rack: bool) -> bool:
        """Add a joker and a rack tile two steps beyond a run's end (the joker fills the gap)."""
        rack = self.rack
        mask = self.mask
        for i, shape in enumerate(self.shapes):
            if not shape.end_mask & mask:
                continue
            for t, new in shape.ends:
                if t in rack:
                    self._put(i, new)
                    self._take((t, JOKER) if from_rack else (t,))
                    return True
        return False

    def _lay_joker(self) -> bool:
        """Add a lone joker to some set that stays valid."""
        for i, s in enumerate(self.table):
            new = extend(s, (JOKER,))
            if new is not None:
                self._put(i, new)
                return True
        return False

    def rack_jokers(self) -> bool:
        """Spend a rack joker to bridge a gap, or lay off jokers when only jokers remain."""
        if JOKER not in self.rack:
            return False
        if self._bridge(from_rack=True):
            return True
        if len(self.rack) == 1:  # only jokers left: placing them all empties the rack
            saved = list(self.table), list(self.shapes)
            for _ in range(self.rack[JOKER]):
                if not self._lay_joker():
                    self.table, self.shapes = saved
                    return False
            self.taken.extend([JOKER] * self.rack.pop(JOKER))
            self.mask &= ~(1 << JOKER.code)
            return True
        return False

    def stuck(self) -> bool:
        """True when every step of :meth:`play`'s loop would fail: no set has a tile of the rack among those
        it accepts, splits on, has a joker stand for or (with a rack joker) bridges to, and no donor makes a
        set with rack tiles; a rack of jokers alone is never stuck (they may go onto any set)."""
        rack, mask = self.rack, self.mask
        jokers = JOKER in rack
        if jokers and len(rack) == 1:
            return False
        for shape in self.shapes:
            if not (shape.memo_mask if jokers else shape.touch_mask) & mask:
                continue  # none of the tiles below is in the rack
            if (shape.step_mask | shape.end_mask if jokers else shape.step_mask) & mask:
                return False
            for donor, _ in shape.donors:
                near = NEAR[donor.code] & mask
                if near & (near - 1) and set_around(donor, rack) is not None:
                    return False
        return True

    def play(self, *, fresh: bool = True) -> None:
        """Place as much as the simple moves allow.

        ``fresh`` false: the rack is known to make no new set and some set to take a rack tile (the memo's
        :data:`~rummykit.bots.greedy_memo.NO_SETS`), so the first step and the first :meth:`stuck` are left out.
        """
        if fresh:
            self.new_sets()
        live = not fresh
        while self.rack and (live or not self.stuck()) and (
            self.replace_jokers(productive_only=True)
            or self.layoffs()
            or self.split_insert()
            or self.donor_sets()
            or self.replace_jokers(productive_only=False)
            or self.rack_jokers()
        ):
            live = False


GO_OUT_SEARCH = 8
"""Racks this small (with a joker) are first searched for sets that empty them."""


# -- the whole decision --------------------------------------------------------------


def plan_turn(view: FreeTableView) -> Play | None:
    """The play greedy makes from ``view``, or None to draw (or pass).

    Unchecked: :class:`GreedyBot` checks the play as :func:`verify_play` does first.
    """
    seat = own_seat(view)
    table, normal, shapes = _read_table(view["table"])
    down, threshold = bool(view["down"][seat]), whole_option(view, "initial_meld_points")
    planned = _plan(parse_tiles(view["rack"]), table, normal, shapes, down, threshold)
    return None if planned is None else play_from_table(seat, table, planned[0])


def _read_table(texts: list[list[str]]) -> tuple[list[TileSet], list[TileSet], list[Shape]]:
    """A view's table: its sets as written, in normal form, and their shapes (each set read once, cached)."""
    if not texts:
        return [], [], []
    table, normal, shapes = zip(*map(view_set, texts), strict=True)
    return list(table), list(normal), list(shapes)


def _plan(
    rack: list[Tile],
    table: list[TileSet],
    normal: list[TileSet],
    shapes: list[Shape],
    down: bool,
    threshold: int,
    *,
    fresh: bool = True,
) -> tuple[list[TileSet], list[TileSet], _Turn | None] | None:
    """The table greedy means to leave, the table it changed (``table``, or ``normal``: the same sets in
    normal form, whose shapes are ``shapes``) and, once down, the planned turn; or None to draw (or pass).

    ``fresh`` false: the memo's :data:`~rummykit.bots.greedy_memo.NO_SETS` (see :meth:`_Turn.play`)."""
    if not down:
        counts = Counter(rack)
        sets = best_meld(counts, threshold=threshold, use_jokers=False)
        if not sets and JOKER in counts:
            sets = best_meld(counts, threshold=threshold)
        if not sets:
            return None
        return [*table, *sets], table, None
    turn = _Turn(rack, list(normal), list(shapes))
    turn.play(fresh=fresh)
    if sum(turn.rack.values()) == len(rack):
        return None
    return turn.table, normal, turn


class GreedyBot:
    """Places the most tiles it can find with simple moves; draws (or passes) when it finds none.

    Deterministic: the action depends on the view alone (the generator is not used).
    """

    level = "greedy"

    def __init__(self, info: GameInfo) -> None:
        if info.id != "rummikub":
            raise OptionError(f"the greedy bot plays rummikub only, not {info.id}")
        self.fallbacks = 0
        """How many planned plays failed the final check (and became draws); should stay 0."""
        self.memo: NoPlay | None = None
        """The last turn, when it found no play (:mod:`rummykit.bots.greedy_memo`)."""

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(FreeTableView, view)  # the view of this game
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        return self._choose(
            seat,
            bool(view["down"][seat]),
            whole_option(view, "initial_meld_points"),
            view["rack"],
            view["table"],
            view["pool_size"],
            False,
        )

    def choose_seen(self, seen: SeatView[Tile], rng: Rng) -> Action:
        """:meth:`choose` from the seat's typed view (the driver's :class:`~rummykit.engine.driver.SeeingAgent`
        path): the same action from the same tiles, read without their texts."""
        seat = seen.seat
        if seat not in seen.to_act:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        threshold = seen.options["initial_meld_points"]
        if isinstance(threshold, bool) or not isinstance(threshold, int):
            raise RuleError("BOT", f"the option initial_meld_points is {threshold!r} here, not a whole number")
        return self._choose(seat, seen.down[seat], threshold, list(seen.rack), list(seen.table), seen.pool_size, True)

    def _choose(
        self,
        seat: int,
        down: bool,
        threshold: int,
        rack_keys: Sequence[Key],
        table_keys: Sequence[SetKey],
        pool_size: int,
        typed: bool,
    ) -> Action:
        """The choice from the seat's rack and table, as texts or (``typed``) as tiles."""
        memo, self.memo = self.memo, None
        known = 0 if memo is None else memo.still(rack_keys, table_keys, down, threshold, typed)
        if known == NO_PLAY:
            self.memo = memo  # no play again
            return Draw(seat) if pool_size else Pass(seat)
        if typed:
            rack = cast("list[Tile]", rack_keys)
            table = cast("list[TileSet]", table_keys)  # the state's sets, as the text view's are read
            normal, shapes = seen_sets(table)
        else:
            rack = parse_tiles(cast("list[str]", rack_keys))
            table, normal, shapes = _read_table(cast("list[list[str]]", table_keys))
        planned = _plan(rack, table, normal, shapes, down, threshold, fresh=known != NO_SETS)
        if planned is None:
            self.memo = no_play(rack_keys, rack, table_keys, shapes, down, threshold, typed)
        else:
            new_table, base, turn = planned
            play = _checked_play(seat, rack, table, new_table, base, turn)
            if play is not None:
                if turn is not None and turn.rack:
                    n = len(base)
                    keys = [table_keys[i] if i < n and s is base[i] else None for i, s in enumerate(new_table)]
                    left = sorted(turn.rack.elements(), key=_CODE)
                    self.memo = no_play_after(left, new_table, keys, turn.shapes, threshold, typed)
                return play
            self.fallbacks += 1
        return Draw(seat) if pool_size else Pass(seat)
