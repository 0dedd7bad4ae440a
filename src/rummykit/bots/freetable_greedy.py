"""``greedy`` for ``domino-rummikub``: simple, safe plays from the view alone.

Before the starting group it puts down the allowed set that sheds the most
dominoes and spots (keeping jokers when it can). Once down it repeats, while
anything helps: new sets from the rack (most dominoes, then fewest jokers, then
most spots: :func:`rummykit.melds.cover.best_cover`), one-domino
lay-offs, and borrowing an end domino from a table set of four or more to
complete a new set with rack dominoes. Every planned table is checked with the
game's own meld checker before it is committed; otherwise it draws (or passes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import cast

from rummykit.engine.core import Action, GameInfo
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.base import MIN_SET
from rummykit.melds.cover import Candidate, CoverProblem, best_cover, rank
from rummykit.pieces.dominoes import Domino, parse_dominoes
from rummykit.rulesets import domino_rummikub as dr
from rummykit.rulesets.domino_rummikub.kept import MAX_RACK, may_hold, plus, rack_vector, sets_of_vector
from rummykit.rulesets.freetable import BY_CODE, Draw, FreeTableView, Pass, Play, parse_view_set

DSet = tuple[Domino, ...]


def _cost(s: DSet) -> tuple[int, int, int]:
    """Sort key: more dominoes, fewer jokers, more spots shed (best first)."""
    jokers = sum(d in dr.JOKERS for d in s)
    return (-len(s), jokers, -sum(d.pips for d in s))


def _take(rack: list[Domino], pieces: DSet) -> bool:
    need = Counter(pieces)
    have = Counter(rack)
    if need - have:
        return False
    for d in pieces:
        rack.remove(d)
    return True


NODE_LIMIT = 4000
"""Search nodes :func:`_best_disjoint` may visit (only big racks with several jokers reach it)."""


def _best_disjoint(rack: list[Domino], sets: list[DSet]) -> list[DSet]:
    """The disjoint choice of sets placing the most dominoes, then fewest jokers, then most spots (bounded search)."""
    if not sets:
        return []  # the search's answer without candidates, without setting it up (most turns have none)
    cands = [Candidate(s, rank(*(-x for x in _cost(s)))) for s in sorted(sets, key=_cost)]
    found = best_cover(
        CoverProblem(
            Counter(rack), cands, order=_code, potential=lambda d: rank(1, 0, d.pips), node_limit=NODE_LIMIT
        )
    )
    return list(found.sets) if found is not None else []


def _play(seat: int, table: list[DSet], new_table: list[DSet], placed: Sequence[Domino]) -> Play:
    """The play turning ``table`` into ``new_table`` by placing ``placed`` (as ``play_from_table`` derives it:
    the placed dominoes in code order)."""
    return Play(seat, tuple(sorted(placed, key=BY_CODE)), tuple(tuple(s) for s in new_table))


@lru_cache(maxsize=1 << 12)
def _donors(s: DSet) -> tuple[tuple[Domino, DSet], ...]:
    """Each end domino (first, then last) a set of 4+ can lend, with the set left (as the check writes it);
    kept per set (the table is public, and the same sets recur from turn to turn)."""
    out: list[tuple[Domino, DSet]] = []
    for k in (0, len(s) - 1):
        rest = dr.MELDS.check(s[:k] + s[k + 1 :])
        if rest.valid:
            out.append((s[k], rest.pieces))
    return tuple(out)


def _code(domino: Domino) -> int:
    return domino.code


class DominoGreedyBot:
    """The greedy bot for domino-rummikub (deterministic; the generator is unused)."""

    level = "greedy"

    def __init__(self, info: GameInfo) -> None:
        self.info = info

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(FreeTableView, view)  # the view of this game
        seat = view.get("seat")
        if seat is None or seat not in view["to_act"]:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        rack = parse_dominoes(view["rack"])
        table: list[DSet] = [parse_view_set(parse_dominoes, tuple(s)) for s in view["table"]]  # cached per set
        fallback: Action = Draw(seat) if view["pool_size"] else Pass(seat)
        if not view["down"][seat]:
            exact = view["options"]["starting_group_size"] == dr.EXACTLY_3
            options = [s for s in dr.rack_sets(rack, max_size=MIN_SET if exact else None) if not exact or len(s) == MIN_SET]
            if not options:
                return fallback
            best = min(options, key=_cost)
            return _play(seat, table, [*table, best], best)
        new_table = list(table)
        work = list(rack)
        changed = True
        while changed and work:
            changed = False
            for s in _best_disjoint(work, dr.rack_sets(work)):
                if _take(work, s):
                    new_table.append(s)
                    changed = True
            for d, i, grown in dr.layoffs(work, new_table):
                # One lay-off at a time: the rack and the table change under the list.
                work.remove(d)
                new_table[i] = grown
                changed = True
                break
            if not changed:
                changed = self._borrow(work, new_table)
        if len(work) == len(rack):
            return fallback
        # The sets still those of the view (the same objects) are on the table already, so valid: the others are judged.
        if any(not dr.MELDS.check(s).valid for i, s in enumerate(new_table) if i >= len(table) or s is not table[i]):
            return fallback
        # Every table domino stays on the table: what it gained is what left the rack.
        return _play(seat, table, new_table, list((Counter(rack) - Counter(work)).elements()))

    @staticmethod
    def _borrow(work: list[Domino], table: list[DSet]) -> bool:
        """Take an end domino from a set of 4+ to complete a new set with rack dominoes."""
        held = rack_vector(work) if len(work) < MAX_RACK else None  # the rack's sets with a donor, from its vector
        for i, s in enumerate(table):
            if len(s) <= MIN_SET:
                continue
            for donor, rest in _donors(s):
                vec = plus(held, donor)
                if vec is not None and not may_hold(vec, donor):
                    continue  # no set of the rack and the donor holds the donor
                with_donor = (
                    dr.rack_sets_with([*work, donor], donor)
                    if vec is None
                    else [s for s in sets_of_vector(vec, None, donor) if donor in s]
                )
                for new in sorted(with_donor, key=_cost):
                    if Counter(new) - Counter([*work, donor]) == Counter():
                        used = list(new)
                        used.remove(donor)
                        if not used:
                            continue
                        for d in used:
                            work.remove(d)
                        table[i] = rest
                        table.append(new)
                        return True
        return False
