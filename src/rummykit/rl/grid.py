"""Two-tray's encoding: a turn built on a draft of the grid, one tile at a time.

Indices (``docs/rl.md``): 0 draw onto the first tray, 1 onto the second,
2 pass, 3 end (after emptying a tray), 4 commit, 5 reset, 6 back (the tile in
hand goes back where it came from), ``7 ..`` call: the ``j``-th joker of the
grid in reading order named colour ``c`` (``7 + 4*j + c``), then take tile
``t`` from the first tray, from the second tray, then one index per cell of
a ``H x W`` window of the grid: with a tile in hand, put it there (the cell is
empty); with none, pick up the tile there (once down: any tile; before:
only a tile laid this turn). The window is centred on the grid as the turn
starts. Every turn whose changed cells lie in the window is reachable: pick
up what moves, put down the tiles of the final grid, commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rummykit.engine.core import Action, GameState
from rummykit.errors import RuleError
from rummykit.rl.codec import PENDING, Codec, Decision, FloatArray, MaskArray, Pending

__all__ = ["GridCodec"]

COLOUR_LETTERS = "KBOR"
JOKER_SLOTS = 4
CHANNELS = ("occupied", "number", "joker", "K", "B", "O", "R", "placed")


class GridCodec(Codec):
    """The grid draft of two-tray (see the module's docstring)."""

    DRAW_A, DRAW_B, PASS, END, COMMIT, RESET, BACK, CALL = 0, 1, 2, 3, 4, 5, 6, 7
    HEIGHT = 40
    WIDTH = 40

    def __init__(self, state: GameState, pieces: list[str], max_steps: int) -> None:
        self.max_steps = max_steps
        self.take = self.CALL + JOKER_SLOTS * len(COLOUR_LETTERS)
        super().__init__(state, pieces)
        t = len(self.pieces)
        self.cell0 = self.take + 2 * t
        self.n = self.cell0 + self.HEIGHT * self.WIDTH

    def add_parts(self) -> None:
        t, p = len(self.pieces), self.players
        self.layout.add("tray_b", t)
        self.layout.add("playing_b", 1)
        self.layout.add("tray_sizes", p, 2)
        self.layout.add("down", p)
        self.layout.add("continuing", 1)
        self.layout.add("shared", t)
        self.layout.add("held", t)
        self.layout.add("draft_steps", 1)
        self.layout.add("window", len(CHANNELS), self.HEIGHT, self.WIDTH)

    # -- the window -------------------------------------------------------------------

    def anchor_of(self, cells: Mapping[tuple[int, int], str]) -> tuple[int, int]:
        """The top-left cell of the window for a grid (centred on it)."""
        if not cells:
            return (-(self.HEIGHT // 2), -(self.WIDTH // 2))
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        return (
            (min(rows) + max(rows)) // 2 - self.HEIGHT // 2,
            (min(cols) + max(cols)) // 2 - self.WIDTH // 2,
        )

    def cell_of(self, d: Decision, index: int) -> tuple[int, int]:
        i = index - self.cell0
        return (d.anchor[0] + i // self.WIDTH, d.anchor[1] + i % self.WIDTH)

    def index_of(self, anchor: tuple[int, int], cell: tuple[int, int]) -> int | None:
        r, c = cell[0] - anchor[0], cell[1] - anchor[1]
        if 0 <= r < self.HEIGHT and 0 <= c < self.WIDTH:
            return self.cell0 + r * self.WIDTH + c
        return None

    @staticmethod
    def jokers(cells: Mapping[tuple[int, int], str]) -> list[tuple[int, int]]:
        return sorted(cell for cell, tile in cells.items() if tile == "J")

    # -- decisions --------------------------------------------------------------------

    def begin(self, state: GameState, seat: int, claim: bool) -> Decision:
        view: Mapping[str, Any] = state.view(seat)
        cells = {(c["row"], c["col"]): c["tile"] for c in view["grid"]}
        trays = {name: self._vector(tiles) for name, tiles in view["trays"].items()}
        d = Decision(
            seat,
            claim,
            len(state.actions),
            cells=dict(cells),
            start_cells=cells,
            trays={k: v.copy() for k, v in trays.items()},
            start_trays=trays,
            down=bool(view["down"][seat]),
            anchor=self.anchor_of(cells),
        )
        names = list(trays)
        jokers = self.jokers(cells)
        for action in state.legal_actions(seat):
            kind = action.type
            if kind == "draw":
                d.listed[self.DRAW_A + names.index(action.tray)] = action  # type: ignore[attr-defined]
            elif kind == "pass":
                d.listed[self.PASS] = action
            elif kind == "end":
                d.listed[self.END] = action
            elif kind == "call":
                cell = (action.row, action.col)  # type: ignore[attr-defined]
                j = jokers.index(cell) if cell in jokers else JOKER_SLOTS
                if j < JOKER_SLOTS:
                    colour = COLOUR_LETTERS.index(str(action.tile)[0])  # type: ignore[attr-defined]
                    d.listed[self.CALL + 4 * j + colour] = action
        playing = view["playing"][seat]
        d.allowed = [name for name in names if playing is None or name == playing]
        return d

    def _vector(self, tiles: list[str]) -> np.ndarray[Any, np.dtype[np.int16]]:
        out = np.zeros(len(self.pieces), np.int16)
        for t in tiles:
            out[self.piece_index[t]] += 1
        return out

    def _clean(self, d: Decision) -> bool:
        return d.held is None and d.cells == d.start_cells

    def mask(self, decision: Decision) -> MaskArray:
        d = decision
        m = np.zeros(self.n, np.int8)
        clean = self._clean(d)
        if clean:
            for index in d.listed:
                m[index] = 1
        m[self.COMMIT] = d.commit is not None
        if not clean:
            m[self.RESET] = 1
        if d.held is not None:
            m[self.BACK] = 1
        if d.steps >= self.max_steps:
            return m
        names = list(d.trays)
        if d.held is None:
            for b, name in enumerate(names[:2]):
                if name in d.allowed and (d.tray_used is None or d.tray_used == name):
                    start = self.take + b * len(self.pieces)
                    m[start : start + len(self.pieces)] = d.trays[name] > 0
            for cell in d.cells:
                if d.down or cell not in d.start_cells:
                    i = self.index_of(d.anchor, cell)
                    if i is not None:
                        m[i] = 1
        else:
            window = np.ones(self.HEIGHT * self.WIDTH, np.int8)
            for cell in d.cells:
                i = self.index_of(d.anchor, cell)
                if i is not None:
                    window[i - self.cell0] = 0
            m[self.cell0 :] = window
        return m

    def step(self, state: GameState, decision: Decision, index: int) -> Action | Pending | None:
        d = decision
        if index in d.listed and self._clean(d):
            return d.listed[index]
        if index == self.COMMIT:
            return d.commit
        d.steps += 1
        names = list(d.trays)
        if index == self.RESET:
            d.cells = dict(d.start_cells)
            d.trays = {k: v.copy() for k, v in d.start_trays.items()}
            d.held = None
            d.tray_used = None
        elif index == self.BACK:
            assert d.held is not None
            tile, origin, cell = d.held
            if origin == "cell":
                d.cells[cell] = tile
            else:
                d.trays[origin][self.piece_index[tile]] += 1
            d.held = None
        elif index < self.cell0:
            b, t = divmod(index - self.take, len(self.pieces))
            name = names[b]
            d.trays[name][t] -= 1
            d.tray_used = name
            d.held = (self.pieces[t], name, (0, 0))
        else:
            cell = self.cell_of(d, index)
            if d.held is None:
                d.held = (d.cells.pop(cell), "cell", cell)
            else:
                d.cells[cell] = d.held[0]
                d.held = None
        returned = d.tray_used is not None and bool(
            (d.trays[d.tray_used] == d.start_trays[d.tray_used]).all()
        )
        if returned and (d.held is None or d.held[1] == "cell"):
            d.tray_used = None
        d.commit = self._commit_of(state, d)
        return PENDING

    def _commit_of(self, state: GameState, d: Decision) -> Action | None:
        if d.held is not None or d.tray_used is None or d.cells == d.start_cells or not self._lines_long(d):
            return None
        from rummykit.blocks.grid_cells import Put
        from rummykit.pieces.tiles import Tile
        from rummykit.rulesets.two_tray.actions import Play

        changes = []
        for cell in sorted(set(d.cells) | set(d.start_cells)):
            now = d.cells.get(cell)
            if now != d.start_cells.get(cell):
                changes.append(Put(cell[0], cell[1], None if now is None else Tile.parse(now)))
        play = Play(d.seat, d.tray_used, tuple(changes))
        try:
            check = state.verify_play(play)  # type: ignore[attr-defined]
        except RuleError:
            return None
        return play if check.fault is None else None

    @staticmethod
    def _lines_long(d: Decision) -> bool:
        """False when a changed cell (or a neighbour) is alone or in a line of two: no engine check needed."""
        cells = d.cells
        changed = {c for c in set(cells) | set(d.start_cells) if cells.get(c) != d.start_cells.get(c)}
        near = {(r + dr, c + dc) for r, c in changed for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
        for r, c in near:
            if (r, c) not in cells:
                continue
            longest = 1
            for dr, dc in ((0, 1), (1, 0)):
                n = 1
                k = 1
                while (r + k * dr, c + k * dc) in cells:
                    n, k = n + 1, k + 1
                k = 1
                while (r - k * dr, c - k * dc) in cells:
                    n, k = n + 1, k + 1
                if n == 2:
                    return False
                longest = max(longest, n)
            if longest < 3:
                return False
        return True

    def meaning(self, index: int) -> str:
        fixed = [
            "draw onto the first tray",
            "draw onto the second tray",
            "pass",
            "end",
            "commit",
            "reset",
            "back",
        ]
        if index < len(fixed):
            return fixed[index]
        if index < self.take:
            j, c = divmod(index - self.CALL, 4)
            return f"call joker {j + 1} {COLOUR_LETTERS[c]}"
        if index < self.cell0:
            b, t = divmod(index - self.take, len(self.pieces))
            return f"take {self.pieces[t]} from the {'first' if b == 0 else 'second'} tray"
        i = index - self.cell0
        return f"window cell {i // self.WIDTH},{i % self.WIDTH}"

    # -- observations -------------------------------------------------------------------

    def observe_game(
        self, view: Mapping[str, Any], decision: Decision | None, order: list[int], out: FloatArray
    ) -> None:
        put = self.layout.put
        seat = order[0]
        start = {(c["row"], c["col"]): c["tile"] for c in view["grid"]}
        if decision is None:
            trays = {name: self._vector(tiles) for name, tiles in (view.get("trays") or {}).items()}
            cells, anchor = start, self.anchor_of(start)
        else:
            trays, cells, anchor = decision.trays, decision.cells, decision.anchor
            put(out, "draft_steps", [decision.steps])
            if decision.held is not None:
                held = np.zeros(len(self.pieces), np.float32)
                held[self.piece_index[decision.held[0]]] = 1
                put(out, "held", held)
        vectors = list(trays.values())
        if vectors:
            put(out, "hand", vectors[0])
        if len(vectors) > 1:
            put(out, "tray_b", vectors[1])
        names = list(trays)
        put(out, "playing_b", [len(names) > 1 and view["playing"][seat] == names[1]])
        put(
            out,
            "tray_sizes",
            [[sum(view["tray_sizes"][s].values()), len(view["tray_sizes"][s])] for s in order],
        )
        put(out, "down", [view["down"][s] for s in order])
        put(out, "continuing", [bool(view["continuing"])])
        put(out, "shared", self.counts(cells.values()))
        window = np.zeros((len(CHANNELS), self.HEIGHT, self.WIDTH), np.float32)
        for (r, c), tile in cells.items():
            i, j = r - anchor[0], c - anchor[1]
            if not (0 <= i < self.HEIGHT and 0 <= j < self.WIDTH):
                continue
            window[0, i, j] = 1
            if tile == "J":
                window[2, i, j] = 1
            else:
                window[1, i, j] = int(tile[1:]) / 13
                window[3 + COLOUR_LETTERS.index(tile[0]), i, j] = 1
            window[7, i, j] = start.get((r, c)) != tile
        put(out, "window", window)
