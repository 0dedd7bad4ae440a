"""The free-rearrangement table shared by Rummikub-like games.

A committed turn is the final table plus the pieces the player took from the
rack. :class:`FreeTable` checks such a turn for any piece family (tiles,
dominoes) given that family's meld checker:

* conservation: every piece that was on the table is still there, the placed
  pieces came from the rack, and nothing else appears;
* every set is valid (:meth:`FreeTable.faults`);
* the opening rule for a player who has not yet gone down (new sets from the
  rack alone, the table untouched, a point threshold or a set size).

:class:`TableDraft` lets an interface build such a turn one step at a time.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from typing import Generic, TypeVar, cast

from rummykit.errors import RuleError
from rummykit.melds.base import MeldCheck
from rummykit.words import counted, plural_of

P = TypeVar("P")


@dataclass(frozen=True)
class Opening:
    """The rule for a player's first play: only new sets from the rack, table untouched.

    ``min_points`` is the least total the new sets must reach (0: any);
    ``set_sizes`` the allowed sizes of each new set (empty: any valid size);
    ``max_sets`` the most new sets allowed (None: any number).
    """

    min_points: int = 0
    set_sizes: tuple[int, ...] = ()
    max_sets: int | None = None
    name: str = "initial meld"


@dataclass(frozen=True)
class FreeTable(Generic[P]):
    """The table rules of one game: its meld checker, notation and rule-id prefix."""

    check: Callable[[Sequence[P]], MeldCheck[P]]
    fmt: Callable[[Iterable[P]], str]
    prefix: str
    piece: str = "tile"
    jokers: frozenset[P] = frozenset()
    check_tuple: Callable[[tuple[P, ...]], MeldCheck[P]] | None = None
    """:attr:`check` of a set given as a tuple, the same verdict by a quicker call (a cache's own), if any."""

    def check_all(self, sets: Sequence[Sequence[P]]) -> list[MeldCheck[P]]:
        """The verdict of each set (:attr:`check`, or :attr:`check_tuple`: the same verdicts)."""
        fast = self.check_tuple
        if fast is not None:
            try:
                return list(map(fast, cast("Sequence[tuple[P, ...]]", sets)))
            except TypeError:  # a set that is not a tuple (a list cannot key the cache): judged by check
                pass
        return list(map(self.check, sets))

    def rule(self, name: str) -> str:
        """The game's rule id for a shared rule (e.g. ``RK-RACK``)."""
        return f"{self.prefix}-{name}"

    def verify_pieces(
        self,
        old_table: Sequence[Sequence[P]],
        rack: Sequence[P],
        placed: Sequence[P],
        new_table: Sequence[Sequence[P]],
    ) -> None:
        """Raise unless the turn conserves pieces (table kept, placed pieces from the rack)."""
        if not placed:
            raise RuleError(
                self.rule("PLAY-EMPTY"),
                f"a play must place at least one {self.piece} from your rack (draw instead)",
            )
        distinct = set(placed)
        # Distinct pieces all in the rack are in it (the common case, decided without counting).
        if len(distinct) != len(placed) or not distinct.issubset(rack):
            short = Counter(placed) - Counter(rack)
            if short:
                raise RuleError(self.rule("RACK"), f"not in your rack: {self.fmt(sorted_counter(short))}")
        if len(new_table) >= len(old_table) and all(map(len, new_table)):
            # The sets kept in their place (the same object, or equal: the same pieces in the same order) hold
            # the same pieces on both sides, so only the other sets need comparing: a listed play changes one
            # set or adds one, a bot's planned play a few.
            kept = list(map(operator.eq, old_table, new_table))
            had = [*placed]
            has = [*chain.from_iterable(new_table[len(old_table) :])]
            for i in compress(range(len(kept)), map(operator.not_, kept)):
                had.extend(old_table[i])
                has.extend(new_table[i])
            if len(had) == len(has):
                had.sort(key=id)
                has.sort(key=id)
                if had == has:
                    return
        had = [*chain.from_iterable(old_table), *placed]
        has = list(chain.from_iterable(new_table))
        # Equal pieces are one object (pieces are interned), so equal lists once sorted by identity are equal
        # multisets; otherwise they are counted below (which also finds what differs).
        if len(had) == len(has):
            had.sort(key=id)
            has.sort(key=id)
            if had == has:
                if any(len(s) == 0 for s in new_table):
                    raise RuleError(self.rule("SET-SIZE"), "the final table has an empty set")
                return
        before = Counter(chain.from_iterable(old_table))
        before.update(placed)
        after = Counter(chain.from_iterable(new_table))
        # Both hold only positive counts, so plain dict equality (in C) is exact.
        if dict.__eq__(before, after):
            if any(len(s) == 0 for s in new_table):
                raise RuleError(self.rule("SET-SIZE"), "the final table has an empty set")
            return
        missing = before - after
        extra = after - before
        if missing:
            names = self.fmt(sorted_counter(missing))
            joker_only = all(p in self.jokers for p in missing)
            if joker_only and not extra:
                raise RuleError(
                    self.rule("JOKER-REUSE"),
                    f"a joker taken from the table must be played again in the same turn: {names}",
                )
            raise RuleError(
                self.rule("TABLE-KEEP"),
                f"every {self.piece} on the table (and every placed one) must stay on the table;"
                f" missing: {names}",
            )
        if extra:
            were = "was" if sum(extra.values()) == 1 else "were"
            raise RuleError(
                self.rule("CONSERVE"),
                f"the final table holds {self.fmt(sorted_counter(extra))}, which {were} neither on the"
                " table nor among the placed pieces",
            )
        if any(len(s) == 0 for s in new_table):
            raise RuleError(self.rule("SET-SIZE"), "the final table has an empty set")

    def faults(
        self, table: Sequence[Sequence[P]], checks: Sequence[MeldCheck[P]] | None = None
    ) -> list[tuple[int, MeldCheck[P]]]:
        """The invalid sets of a table, as (index, verdict) pairs (``checks``: the verdict of each set, if known)."""
        if checks is None:
            checks = list(map(self.check, table))
        return [(i, c) for i, c in enumerate(checks) if not c.valid]

    def normalise(self, table: Sequence[Sequence[P]]) -> list[tuple[P, ...]]:
        """Each set in its normal order (every set must be valid)."""
        return [self.check(s).pieces for s in table]

    def opening_fault(
        self,
        opening: Opening,
        old_table: Sequence[Sequence[P]],
        placed: Sequence[P],
        new_table: Sequence[Sequence[P]],
    ) -> RuleError | None:
        """Why a player's opening play breaks its rule, or None (all sets must be valid)."""
        n = len(old_table)
        in_any_order = not opening.set_sizes or (opening.max_sets is not None and opening.max_sets <= 1)
        if in_any_order and len(new_table) >= n and all(map(operator.is_, old_table, new_table)):
            # The table kept in place, set for set (the same objects), new sets after it: the table is untouched
            # and the sets added are the ones after it (their order matters only to the sizes' message, which
            # with at most one set allowed is about the one set: more are refused before sizes are read).
            added = [tuple(self.check(s).pieces) for s in new_table[n:]]
            return self._opening_added(opening, added)
        old = Counter(tuple(self.check(s).pieces) for s in old_table)
        new_sets = Counter(tuple(self.check(s).pieces) for s in new_table)
        if old - new_sets:
            return RuleError(
                self.rule("OPENING-TABLE"),
                f"in the {opening.name} you may not touch the table: only add new sets"
                " made from your rack",
            )
        return self._opening_added(opening, list((new_sets - old).elements()))

    def _opening_added(self, opening: Opening, added: list[tuple[P, ...]]) -> RuleError | None:
        """Why the sets an opening play added (each in its normal order) break its rule, or None."""
        if opening.max_sets is not None and len(added) > opening.max_sets:
            return RuleError(
                self.rule("OPENING-SETS"),
                f"the {opening.name} is at most {counted(opening.max_sets, 'new set')}, not {len(added)}",
            )
        if opening.set_sizes:
            for s in added:
                if len(s) not in opening.set_sizes:
                    sizes = " or ".join(str(n) for n in opening.set_sizes)
                    return RuleError(
                        self.rule("OPENING-SIZE"),
                        f"each set of the {opening.name} has {sizes} {plural_of(self.piece)}:"
                        f" {self.fmt(s)} has {len(s)}",
                    )
        points = sum(self.check(s).points for s in added)
        if points < opening.min_points:
            return RuleError(
                self.rule("OPENING-POINTS"),
                f"the {opening.name} must total at least {counted(opening.min_points, 'point')}"
                f" (jokers count as what they stand for); this one totals {points}",
            )
        return None

    def turn_fault(
        self,
        old_table: Sequence[Sequence[P]],
        placed: Sequence[P],
        new_table: Sequence[Sequence[P]],
        opening: Opening | None,
        checks: Sequence[MeldCheck[P]] | None = None,
    ) -> RuleError | None:
        """The first reason the final table fails the turn (invalid set, opening rule), or None.

        Conservation must already hold (:meth:`verify_pieces`). ``checks``: the
        verdict of each set of ``new_table`` (:attr:`check`), if already known.
        """
        bad = self.faults(new_table, checks)
        if bad:
            i, c = bad[0]
            assert c.rule is not None
            return RuleError(c.rule, f"set {i + 1} ({self.fmt(new_table[i])}) is invalid: {c.reason}")
        if opening is not None:
            return self.opening_fault(opening, old_table, placed, new_table)
        return None


def sorted_counter(counter: Counter[P]) -> list[P]:
    """The elements of a multiset, sorted."""
    return sorted(counter.elements())  # type: ignore[type-var]


@dataclass(frozen=True)
class DraftProblem:
    """One thing wrong with a draft: a set (``index``) or the turn as a whole (``index`` None)."""

    index: int | None
    rule: str
    reason: str

    def __str__(self) -> str:
        where = "turn" if self.index is None else f"set {self.index + 1}"
        return f"{where}: {self.reason} (rule {self.rule})"


class TableDraft(Generic[P]):
    """A turn being built one step at a time, for people.

    Start from the table and rack a player sees; move pieces; ask
    :meth:`problems` at any time; :meth:`undo` a step or :meth:`reset` the
    turn; finally take :meth:`placed` and :meth:`table` to build the action.
    Every step checks its own input and raises ``RuleError`` without changing
    the draft when it cannot be done. Set indices are 0-based.

    A set keeps its index for the whole turn, so the numbers a person reads
    on the screen stay true: a new set (from :meth:`new_set`, :meth:`split`
    or a move to a new set) goes at the end, and a set emptied by a move or
    a merge stays in :attr:`sets` as an empty slot until the commit
    (:meth:`table` leaves it out).
    """

    def __init__(
        self,
        table: FreeTable[P],
        rack: Sequence[P],
        sets: Sequence[Sequence[P]],
        opening: Opening | None = None,
    ) -> None:
        self.rules = table
        self.opening = opening
        self.original_rack: tuple[P, ...] = tuple(rack)
        self.original_sets: tuple[tuple[P, ...], ...] = tuple(tuple(s) for s in sets)
        self.rack: list[P] = list(rack)
        self.sets: list[list[P]] = [list(s) for s in sets]
        self._undo: list[tuple[list[P], list[list[P]]]] = []

    # -- steps ----------------------------------------------------------------

    def new_set(self, pieces: Sequence[P]) -> int:
        """Make a new set from rack pieces; returns its index."""
        self._need_in_rack(pieces)
        self._push()
        self._take_from_rack(pieces)
        self.sets.append(list(pieces))
        return len(self.sets) - 1

    def add(self, index: int, pieces: Sequence[P], position: int | None = None) -> None:
        """Add rack pieces to set ``index`` (at ``position``, default: where they fit best)."""
        self._need_set(index)
        self._need_in_rack(pieces)
        self._push()
        self._take_from_rack(pieces)
        self._insert(index, list(pieces), position)

    def move(self, piece: P, source: int, target: int | None) -> int:
        """Move one piece from set ``source`` to set ``target`` (None: a new set)."""
        self._need_set(source)
        if target is not None:
            self._need_set(target)
        if piece not in self.sets[source]:
            raise RuleError(self.rules.rule("DRAFT"), f"set {source + 1} has no {self.rules.fmt([piece])}")
        self._push()
        self._remove_from_set(source, piece)
        if target is None:
            self.sets.append([piece])
            return len(self.sets) - 1
        self._insert(target, [piece], None)
        return target

    def take_back(self, piece: P, index: int | None = None) -> None:
        """Return a piece placed this turn to the rack (table pieces must stay on the table).

        ``index`` names the set to take it from; by default the set whose
        removal best restores the table as it was (a set that then matches a
        set of the turn's start, else one that does not match one now).
        """
        on_table = Counter(p for s in self.sets for p in s)
        at_start = Counter(p for s in self.original_sets for p in s)
        if on_table[piece] <= at_start[piece]:
            raise RuleError(
                self.rules.rule("TABLE-KEEP"),
                f"{self.rules.fmt([piece])} was not placed from your rack this turn;"
                " table pieces stay on the table",
            )
        holders = [i for i, s in enumerate(self.sets) if piece in s]
        if index is not None:
            self._need_set(index)
            if index not in holders:
                raise RuleError(self.rules.rule("DRAFT"), f"set {index + 1} has no {self.rules.fmt([piece])}")
        else:
            originals = Counter(self.original_sets)

            def preference(i: int) -> tuple[bool, bool, int]:
                s = self.sets[i]
                k = len(s) - 1 - s[::-1].index(piece)
                rest = tuple(s[:k] + s[k + 1 :])
                return (rest in originals, tuple(s) not in originals, i)

            index = max(holders, key=preference)
        self._push()
        self._remove_from_set(index, piece)
        self.rack.append(piece)

    def split(self, index: int, position: int) -> int:
        """Split set ``index`` before ``position`` (1..len-1); the tail becomes a new set at the end (its index)."""
        self._need_set(index)
        s = self.sets[index]
        if not 0 < position < len(s):
            has = f"set {index + 1} has {counted(len(s), self.rules.piece)}"
            raise RuleError(
                self.rules.rule("DRAFT"),
                f"{has}: split it at 1..{len(s) - 1}" if len(s) > 1 else f"{has}: nothing to split",
            )
        self._push()
        self.sets[index] = s[:position]
        self.sets.append(s[position:])
        return len(self.sets) - 1

    def merge(self, first: int, second: int) -> int:
        """Append set ``second`` to set ``first`` (``second`` is left empty); returns ``first``."""
        self._need_set(first)
        self._need_set(second)
        if first == second:
            raise RuleError(self.rules.rule("DRAFT"), "cannot merge a set with itself")
        self._push()
        self.sets[first] = self.sets[first] + self.sets[second]
        self.sets[second] = []
        return first

    def undo(self) -> None:
        """Take back the last step."""
        if not self._undo:
            raise RuleError(self.rules.rule("DRAFT"), "nothing to undo")
        self.rack, self.sets = self._undo.pop()

    def reset(self) -> None:
        """Back to the table and rack as the turn began (can itself be undone)."""
        self._push()
        self.rack = list(self.original_rack)
        self.sets = [list(s) for s in self.original_sets]

    # -- questions ------------------------------------------------------------

    def table(self) -> tuple[tuple[P, ...], ...]:
        """The table to commit: the sets in order, the emptied slots left out."""
        return tuple(tuple(s) for s in self.sets if s)

    def placed(self) -> list[P]:
        """The pieces moved from the rack to the table so far."""
        return sorted_counter(Counter(self.original_rack) - Counter(self.rack))

    @property
    def changed(self) -> bool:
        """True once the table differs from the start of the turn."""
        return self.table() != self.original_sets

    def problems(self) -> list[DraftProblem]:
        """Everything that would make committing this draft fail, set by set (an emptied slot is no set)."""
        out = []
        for i, s in enumerate(self.sets):
            if s:
                c = self.rules.check(s)
                if not c.valid:
                    out.append(DraftProblem(i, c.rule or "", c.reason or ""))
        if not self.placed():
            out.append(
                DraftProblem(
                    None,
                    self.rules.rule("PLAY-EMPTY"),
                    f"no {self.rules.piece} placed from your rack yet (draw instead)",
                )
            )
        if not out and self.opening is not None:
            fault = self.rules.opening_fault(self.opening, self.original_sets, self.placed(), self.table())
            if fault is not None:
                out.append(DraftProblem(None, fault.rule, fault.reason))
        return out

    def is_valid(self) -> bool:
        """True when the draft can be committed as a play."""
        return not self.problems()

    def verdicts(self) -> list[MeldCheck[P]]:
        """The meld checker's verdict on every set of :meth:`table`, in order."""
        return [self.rules.check(s) for s in self.table()]

    # -- internals ------------------------------------------------------------

    def _push(self) -> None:
        self._undo.append((list(self.rack), [list(s) for s in self.sets]))

    def _need_set(self, index: int) -> None:
        if not 0 <= index < len(self.sets):
            count = len(self.sets)
            raise RuleError(
                self.rules.rule("DRAFT"),
                f"there is no set {index + 1}" + (f" (sets are 1..{count})" if count else " (the table is empty)"),
            )

    def _need_in_rack(self, pieces: Sequence[P]) -> None:
        if not pieces:
            raise RuleError(self.rules.rule("DRAFT"), f"name at least one {self.rules.piece}")
        short = Counter(pieces) - Counter(self.rack)
        if short:
            raise RuleError(self.rules.rule("RACK"), f"not in your rack: {self.rules.fmt(sorted_counter(short))}")

    def _take_from_rack(self, pieces: Sequence[P]) -> None:
        for p in pieces:
            self.rack.remove(p)

    def _remove_from_set(self, index: int, piece: P) -> None:
        s = self.sets[index]
        s.pop(len(s) - 1 - s[::-1].index(piece))

    def _insert(self, index: int, pieces: list[P], position: int | None) -> None:
        s = self.sets[index]
        if position is not None:
            s[position:position] = pieces
            return
        # Try every spot at the ends and in between; keep the first that makes a valid set.
        candidates = [s + pieces, pieces + s] + [s[:k] + pieces + s[k:] for k in range(1, len(s))]
        for cand in candidates:
            if self.rules.check(cand).valid:
                self.sets[index] = list(self.rules.check(cand).pieces)
                return
        self.sets[index] = s + pieces
