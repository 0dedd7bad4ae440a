"""The free-table games' encoding (rummikub, domino-rummikub): a draft of the whole table, step by step.

See :class:`DraftCodec` and ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine.core import Action, GameState
from rummykit.errors import RuleError
from rummykit.rl.codec import PENDING, Codec, Decision, FloatArray, MaskArray, Pending

__all__ = ["DraftCodec", "with_wilds_swapped"]

_CANDIDATES: dict[tuple[str, tuple[str, ...]], tuple[list[tuple[Any, ...]], npt.NDArray[np.int16]]] = {}
"""The candidate sets of each game and set of pieces, made once per process (the enumeration takes a moment)."""


# -- the free table --------------------------------------------------------------------


class DraftCodec(Codec):
    """Rummikub-like games: draw, commit, reset, lift set ``i``, form candidate set ``k``.

    Indices: 0 draw (or pass when the pool is empty), 1 commit, 2 reset,
    ``3 .. 3+S-1`` lift set ``i`` of the draft table, ``3+S ..`` form set
    ``k`` of :attr:`candidates` (the game's enumeration of every set the
    pieces in play can make, jokers' places included).
    """

    DRAW, COMMIT, RESET, LIFT = 0, 1, 2, 3

    def __init__(self, state: GameState, max_steps: int) -> None:
        from rummykit.blocks.table import FreeTable

        full = state.full_set()  # type: ignore[attr-defined]
        table: FreeTable[Any] = state.TABLE  # type: ignore[attr-defined]
        self.table_rules = table
        texts = list(dict.fromkeys(str(p) for p in full))
        self.max_sets = len(full) // 3
        self.max_steps = max_steps
        self.parse = type(state).info.parse_piece
        self.objects = {str(p): p for p in full}
        super().__init__(state, texts)
        key = (state.game_id, tuple(str(p) for p in full))
        if key not in _CANDIDATES:
            _CANDIDATES[key] = self._enumerate(state.game_id, full, table)
        self.candidates, self.need = _CANDIDATES[key]
        # too_many[t, c]: the candidates that need more than c of piece t, packed as bits (see mask)
        self.most = int(self.need.max(initial=0))
        too_many = np.stack(
            [[self.need[:, t] > c for c in range(self.most + 1)] for t in range(len(self.pieces))]
        )
        self.too_many = np.packbits(too_many, axis=2)
        self.rows = np.arange(len(self.pieces))
        self.form = self.LIFT + self.max_sets
        self.n = self.form + len(self.candidates)

    def _enumerate(
        self, game: str, full: list[Any], table: Any
    ) -> tuple[list[tuple[Any, ...]], npt.NDArray[np.int16]]:
        from rummykit.melds.dominoes import DominoMelds
        from rummykit.melds.tiles import TileMelds

        family: TileMelds | DominoMelds
        if game == "domino-rummikub":
            from rummykit.rulesets.domino_rummikub.options import MELDS

            family = MELDS
        else:
            family = TileMelds()
        candidates = with_wilds_swapped(family.enumerate(full), table)
        need = np.zeros((len(candidates), len(self.pieces)), np.int16)
        for k, s in enumerate(candidates):
            for p in s:
                need[k, self.piece_index[str(p)]] += 1
        return candidates, need

    def add_parts(self) -> None:
        t, p = len(self.pieces), self.players
        self.layout.add("table", t)
        self.layout.add("draft_rack", t)
        self.layout.add("loose", t)
        self.layout.add("draft_sets", self.max_sets, t)
        self.layout.add("down", p)
        self.layout.add("draft_steps", 1)

    def piece_vector(self, pieces: Iterable[object]) -> npt.NDArray[np.int16]:
        out = np.zeros(len(self.pieces), np.int16)
        for p in pieces:
            out[self.piece_index[str(p)]] += 1
        return out

    def begin(self, state: GameState, seat: int, claim: bool) -> Decision:
        view = state.view(seat)
        sets = [tuple(self.objects[t] for t in s) for s in view["table"]]  # type: ignore[typeddict-item]
        rack = self.piece_vector(view["rack"])  # type: ignore[typeddict-item]
        ends = [a for a in state.legal_actions(seat) if a.type in ("draw", "pass")]
        d = Decision(
            seat,
            claim,
            len(state.actions),
            sets=list(sets),
            start_sets=list(sets),
            rack=rack.copy(),
            start_rack=rack,
            loose=np.zeros(len(self.pieces), np.int16),
            down=bool(view["down"][seat]),  # type: ignore[typeddict-item]
            end_turn=ends[0] if ends else None,
        )
        return d

    def _commit_of(self, state: GameState, d: Decision) -> Action | None:
        if d.loose.any() or (d.rack == d.start_rack).all():
            return None
        from rummykit.rulesets.freetable import play_from_table

        play = play_from_table(d.seat, d.start_sets, d.sets)
        try:
            result = state.verify_play(play)  # type: ignore[attr-defined]
        except RuleError:
            return None
        return None if isinstance(result, RuleError) else play

    def refresh(self, state: GameState, d: Decision) -> None:
        d.commit = self._commit_of(state, d)

    def mask(self, decision: Decision) -> MaskArray:
        d = decision
        m = np.zeros(self.n, np.int8)
        m[self.DRAW] = d.end_turn is not None
        m[self.COMMIT] = d.commit is not None
        changed = d.steps > 0 and (d.sets != d.start_sets or d.loose.any())
        m[self.RESET] = changed and d.steps < self.max_steps
        if d.steps < self.max_steps:
            if d.down:
                m[self.LIFT : self.LIFT + len(d.sets)] = 1
            if len(d.sets) < self.max_sets:
                # A candidate can be formed unless it needs more of some piece than the loose heap and
                # the rack hold: one OR over the pieces of packed bit rows.
                avail = np.minimum(d.loose + d.rack, self.most)
                short = np.bitwise_or.reduce(self.too_many[self.rows, avail], axis=0)
                m[self.form :] = 1 - np.unpackbits(short, count=len(self.candidates))
        return m

    def step(self, state: GameState, decision: Decision, index: int) -> Action | Pending | None:
        d = decision
        if index == self.DRAW:
            return d.end_turn
        if index == self.COMMIT:
            return d.commit
        d.steps += 1
        if index == self.RESET:
            d.sets = list(d.start_sets)
            d.rack = d.start_rack.copy()
            d.loose[:] = 0
        elif index < self.form:
            lifted = d.sets.pop(index - self.LIFT)
            d.loose += self.piece_vector(lifted)
        else:
            k = index - self.form
            need = self.need[k]
            from_loose = np.minimum(need, d.loose)
            d.loose -= from_loose
            d.rack -= need - from_loose
            d.sets.append(self.candidates[k])
        self.refresh(state, d)
        return PENDING

    def meaning(self, index: int) -> str:
        if index == self.DRAW:
            return "draw (pass when the pool is empty)"
        if index == self.COMMIT:
            return "commit the draft"
        if index == self.RESET:
            return "reset the draft"
        if index < self.form:
            return f"lift set {index - self.LIFT + 1}"
        return "form " + " ".join(str(p) for p in self.candidates[index - self.form])

    def observe_game(
        self, view: Mapping[str, Any], decision: Decision | None, order: list[int], out: FloatArray
    ) -> None:
        put = self.layout.put
        put(out, "hand", self.counts(view.get("rack", ())))
        put(out, "table", self.deep_counts(view["table"]))
        put(out, "down", [view["down"][s] for s in order])
        sets = np.zeros((self.max_sets, len(self.pieces)), np.float32)
        if decision is None:
            put(out, "draft_rack", self.counts(view.get("rack", ())))
            rows = [self.counts(s) for s in view["table"]]
        else:
            put(out, "draft_rack", decision.rack)
            put(out, "loose", decision.loose)
            put(out, "draft_steps", [decision.steps])
            rows = [self.piece_vector(s).astype(np.float32) for s in decision.sets]
        for i, row in enumerate(rows[: self.max_sets]):
            sets[i] = row
        put(out, "draft_sets", sets)


def with_wilds_swapped(sets: Iterable[tuple[Any, ...]], table: Any) -> list[tuple[Any, ...]]:
    """``sets`` and, where a set holds different wild pieces (domino-rummikub's 0-0 and 6-6), each valid
    order of them among their places that the game reads as another set: the enumeration gives one, and a
    table may hold another (the normal order of the set, :meth:`FreeTable.normalise`, tells them apart)."""
    from itertools import permutations

    out = list(dict.fromkeys(sets))
    seen = {tuple(table.check(s).pieces) for s in out}
    for s in list(out):
        places = [i for i, p in enumerate(s) if p in table.jokers]
        wilds = [s[i] for i in places]
        if len(set(wilds)) < 2:
            continue
        for order in set(permutations(wilds)):
            other = list(s)
            for i, p in zip(places, order, strict=True):
                other[i] = p
            t = tuple(other)
            check = table.check(t)
            if check.valid and tuple(check.pieces) not in seen:
                seen.add(tuple(check.pieces))
                out.append(t)
    return out
