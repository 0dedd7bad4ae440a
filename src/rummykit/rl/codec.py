"""Action encodings and observation layouts: one fixed ``Discrete(N)`` per game and options.

Two encodings, chosen per game (``docs/rl.md`` says why):

* :class:`DraftCodec` (``rummikub``, ``domino-rummikub``): a turn is a
  sequence of small steps on a draft of the whole table, the way a person
  rearranges it: *lift* a set of the table into a loose heap, *form* a set
  (any set of the game's fixed enumeration of every possible set) from the
  loose heap and the rack, *reset*, then *commit* (a :class:`Play` of the
  final table, offered only when the engine would accept it) or *draw*
  (pass when the pool is empty). Any legal final table is reachable: lift
  every set, form each set of the final table.
* :class:`~rummykit.rl.grid.GridCodec` (``two-tray``): the same for a grid:
  take a tile from a tray or pick one up from the grid, put it on an empty
  cell of a window of the grid, then commit; draw, pass, end and joker calls
  are one index each.
* :class:`TokenCodec` (``conveyor``, ``mummus``): every listed
  action's text is read as words (verbs, pieces, numbers); a decision is the
  words of one action chosen one at a time, each index being one word of the
  game's fixed vocabulary. Words forced by the choices so far are filled in
  at once, so a one-word choice (``draw``) is one step. An out-of-turn offer
  (a jump-in, a rummy call, an add-on) adds the word ``<no-claim>``.

Observations are built from the seat's view only (and from the seat's own
draft or half-chosen action): :meth:`Codec.observe` takes nothing else.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine.core import Action, GameState
from rummykit.errors import RuleError

__all__ = ["END", "NO_CLAIM", "Codec", "Decision", "DraftCodec", "Layout", "TokenCodec", "make_codec"]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

END = "<end>"
"""The word that ends an action's words (so ``meld A B C`` and ``meld A B C D`` are both reachable)."""
NO_CLAIM = "<no-claim>"
"""The word that lets an out-of-turn offer pass (the driver's ``None``)."""

_WORD = re.compile(r"[^\s,=]+")

LIMIT = 1_000_000.0
"""The bound of every observation number (the Box's low and high)."""


class Layout:
    """The named parts of a flat observation vector, in order (``slices[name]``)."""

    def __init__(self) -> None:
        self.slices: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.size = 0

    def add(self, name: str, *shape: int) -> None:
        n = int(np.prod(shape))
        self.slices[name] = slice(self.size, self.size + n)
        self.shapes[name] = tuple(shape)
        self.size += n

    def put(self, out: FloatArray, name: str, values: Any) -> None:
        out[self.slices[name]] = np.asarray(values, dtype=np.float32).reshape(-1)

    def describe(self) -> list[str]:
        """One line per part: ``name [start:stop] shape``."""
        return [f"{n} [{s.start}:{s.stop}] {self.shapes[n]}" for n, s in self.slices.items()]


@dataclass
class Decision:
    """One seat's decision in progress: a free-table draft, or the words chosen so far."""

    seat: int
    claim: bool
    """True for an out-of-turn offer (the seat may pass with ``<no-claim>``)."""
    position: int
    """``len(state.actions)`` when the decision began."""
    # token decisions
    options: list[tuple[tuple[int, ...], Action | None]] = field(default_factory=list)
    prefix: list[int] = field(default_factory=list)
    # draft decisions
    sets: list[tuple[Any, ...]] = field(default_factory=list)
    start_sets: list[tuple[Any, ...]] = field(default_factory=list)
    rack: npt.NDArray[np.int16] = field(default_factory=lambda: np.zeros(0, np.int16))
    start_rack: npt.NDArray[np.int16] = field(default_factory=lambda: np.zeros(0, np.int16))
    loose: npt.NDArray[np.int16] = field(default_factory=lambda: np.zeros(0, np.int16))
    down: bool = False
    steps: int = 0
    # grid decisions (two-tray)
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    start_cells: dict[tuple[int, int], str] = field(default_factory=dict)
    held: tuple[str, str, tuple[int, int]] | None = None
    """The tile in hand: (tile, ``tray`` or ``cell``, the cell it came from)."""
    trays: dict[str, npt.NDArray[np.int16]] = field(default_factory=dict)
    start_trays: dict[str, npt.NDArray[np.int16]] = field(default_factory=dict)
    tray_used: str | None = None
    allowed: list[str] = field(default_factory=list)
    """The trays this turn may play from."""
    anchor: tuple[int, int] = (0, 0)
    listed: dict[int, Action] = field(default_factory=dict)
    """Whole actions reachable by one index (draw, pass, end, a call)."""
    end_turn: Action | None = None
    commit: Action | None = None
    """The play the draft commits, when the engine would accept it (worked out once per step)."""


class Pending:
    """Returned by :meth:`Codec.step` while the decision goes on."""


PENDING = Pending()


class Codec(abc.ABC):
    """A game's action encoding and observation layout, fixed by the game, its options and player count."""

    def __init__(self, state: GameState, pieces: Sequence[str]) -> None:
        self.game = state.game_id
        self.players = len(state.players)
        self.pieces = list(pieces)
        self.piece_index = {p: i for i, p in enumerate(self.pieces)}
        self.layout = Layout()
        p, t = self.players, len(self.pieces)
        for name in ("piece_counts", "totals", "to_act", "turn"):
            self.layout.add(name, p)
        self.layout.add("stock", 1)
        self.layout.add("round", 1)
        self.layout.add("turn_number", 1)
        self.layout.add("claim", 1)
        self.layout.add("hand", t)
        self.add_parts()

    n: int
    """The number of actions: the space is ``Discrete(n)``."""

    @abc.abstractmethod
    def add_parts(self) -> None:
        """Add the game's own parts to :attr:`layout`."""

    @abc.abstractmethod
    def begin(self, state: GameState, seat: int, claim: bool) -> Decision:
        """A fresh decision for ``seat`` (``claim``: an out-of-turn offer)."""

    @abc.abstractmethod
    def mask(self, decision: Decision) -> MaskArray:
        """The legal indices now (1) among the ``n``."""

    @abc.abstractmethod
    def step(self, state: GameState, decision: Decision, index: int) -> Action | Pending | None:
        """Take index ``index``: the engine action when the decision is complete, None for a passed
        offer, or :data:`PENDING`."""

    @abc.abstractmethod
    def meaning(self, index: int) -> str:
        """What index ``index`` means, in words."""

    # -- observations -----------------------------------------------------------

    def rel(self, seat: int) -> list[int]:
        """The seats counted from ``seat`` (itself first)."""
        return [(seat + i) % self.players for i in range(self.players)]

    def counts(self, texts: Iterable[object]) -> FloatArray:
        """How many of each piece of the vocabulary ``texts`` holds (anything else is ignored)."""
        out = np.zeros(len(self.pieces), np.float32)
        for t in texts:
            i = self.piece_index.get(t) if isinstance(t, str) else None
            if i is not None:
                out[i] += 1
        return out

    def deep_counts(self, value: object) -> FloatArray:
        """:meth:`counts` of every piece written anywhere inside ``value`` (lists and dicts)."""
        found: list[str] = []

        def walk(v: object) -> None:
            if isinstance(v, str):
                found.append(v)
            elif isinstance(v, Mapping):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list | tuple):
                for x in v:
                    walk(x)

        walk(value)
        return self.counts(found)

    def observe(self, view: Mapping[str, Any], decision: Decision | None) -> FloatArray:
        """The observation vector of the seat whose view this is (``decision``: its own, if it is acting)."""
        seat = view["seat"]
        assert isinstance(seat, int)
        order = self.rel(seat)
        out = np.zeros(self.layout.size, np.float32)
        put = self.layout.put
        put(out, "piece_counts", [view["piece_counts"][s] for s in order])
        put(out, "totals", [view["totals"][s] for s in order])
        acting = set(view["to_act"])
        put(out, "to_act", [s in acting for s in order])
        put(out, "turn", [view["turn"] == s for s in order])
        put(out, "stock", [view["stock_count"] or 0])
        put(out, "round", [view["round"]])
        put(out, "turn_number", [view["turn_number"]])
        put(out, "claim", [decision is not None and decision.claim])
        self.observe_game(view, decision, order, out)
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out

    @abc.abstractmethod
    def observe_game(
        self, view: Mapping[str, Any], decision: Decision | None, order: list[int], out: FloatArray
    ) -> None:
        """Fill the game's own parts."""


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
            return (*(self.word_index[w] for w in _WORD.findall(action.text())), 0)
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


def piece_texts(state: GameState) -> list[str]:
    """Every piece of the game (with its options), as text, in a fixed order: the vocabulary of pieces."""
    game = state.game_id
    if game == "conveyor":
        from rummykit.pieces.dominoes import double_set

        return [str(d) for d in double_set(state.top)]  # type: ignore[attr-defined]
    if game == "mummus":
        from rummykit.pieces.cards import DECK

        return [str(c) for c in DECK]
    if game == "two-tray":
        from rummykit.rulesets.tilerummy import full_set

        return list(dict.fromkeys(str(t) for t in full_set(max(1, state.options["jokers"]))))
    raise ValueError(f"no word vocabulary for {game}")


def make_codec(state: GameState, *, draft_steps: int = 60) -> Codec:
    """The codec of ``state``'s game (its options and player count fix ``n`` and the layout)."""
    if state.game_id in ("rummikub", "domino-rummikub"):
        return DraftCodec(state, draft_steps)
    if state.game_id == "two-tray":
        from rummykit.rl.grid import GridCodec

        return GridCodec(state, piece_texts(state), draft_steps)
    return TokenCodec(state, piece_texts(state))
