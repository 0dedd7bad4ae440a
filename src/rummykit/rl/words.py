"""Conveyor's and mummus's encoding: each listed action's words, chosen one at a time.

See :class:`TokenCodec` and ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rummykit.engine.core import Action, GameState
from rummykit.rl.codec import END, NO_CLAIM, PENDING, WORD, Codec, Decision, FloatArray, MaskArray, Pending

__all__ = ["GAME_NUMBERS", "GAME_WORDS", "TokenCodec", "declared_words"]

# -- listed actions, word by word --------------------------------------------------------


GAME_WORDS: dict[str, tuple[str, ...]] = {
    "conveyor": (
        "reveal", "claim", "draw", "meld", "layoff", "discard", "close", "jump", "decline",
        "top", "bottom", "high", "low", "with",
    ),
    "mummus": ("draw", "take", "meld", "addon", "rummy", "discard", "to"),
}  # fmt: skip
"""The words other than pieces and numbers that each game's action texts use."""

GAME_NUMBERS: dict[str, tuple[int, int]] = {
    "conveyor": (0, 40),
    "mummus": (0, 60),
}
"""The whole numbers an action's text may hold (columns and cells; grid rows and columns)."""


def declared_words(state: GameState) -> list[str]:
    """The fixed words of the game's actions, as their classes declare them: verbs, keywords and choices."""
    from rummykit.engine.commands.parts import Choice, Tail

    out: list[str] = []
    for cls in type(state).info.actions:
        command = getattr(cls, "COMMAND", None)
        out.append(getattr(command, "verb", "") or str(getattr(cls, "type", "")))
        parts = list(getattr(command, "parts", ()))
        while parts:
            part = parts.pop()
            if isinstance(part, Tail):
                out.append(part.keyword)
                parts.extend(part.parts)
            elif isinstance(part, Choice):
                out.extend(part.words)
    return [w for w in out if w]


class TokenCodec(Codec):
    """Listed actions as words chosen one at a time (see the module's docstring)."""

    PREFIX_SLOTS = 48

    def __init__(self, state: GameState, pieces: Sequence[str]) -> None:
        game = state.game_id
        lo, hi = GAME_NUMBERS[game]
        declared = declared_words(state)
        words = [END, NO_CLAIM, *GAME_WORDS[game], *declared, *pieces, *(str(i) for i in range(lo, hi + 1))]
        self.words = list(dict.fromkeys(words))
        self.word_index = {w: i for i, w in enumerate(self.words)}
        self.n = len(self.words)
        super().__init__(state, pieces)

    def add_parts(self) -> None:
        t, p = len(self.pieces), self.players
        self.layout.add("known", p, t)
        self.layout.add("shared", t)
        if self.game == "conveyor":
            self.layout.add("columns_open", 13)
            self.layout.add("columns_hidden", 13)
            self.layout.add("columns_claimed", 13, p)
            self.layout.add("column_tops", 13, t)
            self.layout.add("column_bottoms", 13, t)
            self.layout.add("drawn", t)
            self.layout.add("jump_window", 1)
        else:
            self.layout.add("discard_depth", t)
            self.layout.add("claimable", t)
            self.layout.add("laid_points", p)
        self.layout.add("chosen_words", self.n)
        self.layout.add("last_word", self.n)

    def words_of(self, action: Action) -> tuple[int, ...]:
        try:
            return (*(self.word_index[w] for w in WORD.findall(action.text())), 0)
        except KeyError as exc:
            raise RuntimeError(
                f"{self.game}: the word {exc} of {action.text()!r} is not in the vocabulary"
            ) from None

    def begin(self, state: GameState, seat: int, claim: bool) -> Decision:
        options: list[tuple[tuple[int, ...], Action | None]] = []
        seen: dict[tuple[int, ...], Action] = {}
        for action in state.indexed_actions(seat):
            words = self.words_of(action)
            other = seen.setdefault(words, action)
            if other != action:
                raise RuntimeError(
                    f"{self.game}: {other.text()!r} and {action.text()!r} read as the same words"
                )
            options.append((words, action))
        if claim:
            options.append(((self.word_index[NO_CLAIM],), None))
        return Decision(seat, claim, len(state.actions), options=options)

    def _next(self, d: Decision) -> set[int]:
        k = len(d.prefix)
        pre = tuple(d.prefix)
        return {w[k] for w, _ in d.options if len(w) > k and w[:k] == pre}

    def mask(self, decision: Decision) -> MaskArray:
        m = np.zeros(self.n, np.int8)
        for w in self._next(decision):
            m[w] = 1
        return m

    def step(self, state: GameState, decision: Decision, index: int) -> Action | Pending | None:
        d = decision
        d.prefix.append(index)
        while True:
            pre = tuple(d.prefix)
            for words, action in d.options:
                if words == pre:
                    return action
            following = self._next(d)
            if len(following) != 1:
                return PENDING
            d.prefix.append(following.pop())

    def meaning(self, index: int) -> str:
        return self.words[index]

    def observe_game(
        self, view: Mapping[str, Any], decision: Decision | None, order: list[int], out: FloatArray
    ) -> None:
        put = self.layout.put
        t = len(self.pieces)
        known = view.get("hand_known")
        if known is not None:
            put(out, "known", np.stack([self.counts(known[s]) for s in order]))
        if self.game == "conveyor":
            self._conveyor(view, order, out)
        else:
            put(out, "hand", self.counts(view.get("hand", ())))
            put(out, "shared", self.counts(c for meld in view["melds"] for c in meld["cards"]))
            depth = np.zeros(t, np.float32)
            pile = view["discard"]
            for i, c in enumerate(reversed(pile)):
                j = self.piece_index.get(c)
                if j is not None and depth[j] == 0:
                    depth[j] = i + 1
            put(out, "discard_depth", depth)
            put(out, "claimable", self.deep_counts(view["claimable"]))
            put(out, "laid_points", [view["laid_points"][s] for s in order])
        if decision is not None and decision.prefix:
            chosen = np.zeros(self.n, np.float32)
            for w in decision.prefix:
                chosen[w] += 1
            put(out, "chosen_words", chosen)
            last = np.zeros(self.n, np.float32)
            last[decision.prefix[-1]] = 1
            put(out, "last_word", last)

    def _conveyor(self, view: Mapping[str, Any], order: list[int], out: FloatArray) -> None:
        put = self.layout.put
        t, p = len(self.pieces), self.players
        put(out, "hand", self.counts(view.get("hand", ())))
        put(out, "shared", self.counts(p for meld in view["melds"] for p in meld["pieces"]))
        opened = np.zeros(13, np.float32)
        hidden = np.zeros(13, np.float32)
        claimed = np.zeros((13, p), np.float32)
        tops = np.zeros((13, t), np.float32)
        bottoms = np.zeros((13, t), np.float32)
        rel = {s: i for i, s in enumerate(order)}
        for col in view["columns"][:13]:
            c = col["column"]
            opened[c] = len(col["cells"])
            hidden[c] = sum(cell == "??" for cell in col["cells"])
            if col["claimed_by"] is not None:
                claimed[c, rel[col["claimed_by"]]] = 1
            for end, grid in (("top", tops), ("bottom", bottoms)):
                j = self.piece_index.get(col[end]) if col[end] else None
                if j is not None:
                    grid[c, j] = 1
        put(out, "columns_open", opened)
        put(out, "columns_hidden", hidden)
        put(out, "columns_claimed", claimed)
        put(out, "column_tops", tops)
        put(out, "column_bottoms", bottoms)
        drawn = view.get("drawn")
        put(out, "drawn", self.deep_counts(drawn))
        put(out, "jump_window", [view.get("jump_window") is not None])
