"""Action encodings and observation layouts: one fixed ``Discrete(N)`` per game and options.

The shared parts (the :class:`Codec` base, the :class:`Decision` in
progress, the observation :class:`Layout`) and three encodings, chosen per
game (``docs/rl.md`` says why):

* :class:`~rummykit.rl.draft.DraftCodec` (``rummikub``, ``domino-rummikub``): a turn is a
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
* :class:`~rummykit.rl.words.TokenCodec` (``conveyor``, ``mummus``): every listed
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

__all__ = [
    "END",
    "NO_CLAIM",
    "PENDING",
    "Codec",
    "Decision",
    "Layout",
    "Pending",
    "make_codec",
    "piece_texts",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

END = "<end>"
"""The word that ends an action's words (so ``meld A B C`` and ``meld A B C D`` are both reachable)."""
NO_CLAIM = "<no-claim>"
"""The word that lets an out-of-turn offer pass (the driver's ``None``)."""

WORD = re.compile(r"[^\s,=]+")

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
        from rummykit.rl.draft import DraftCodec

        return DraftCodec(state, draft_steps)
    if state.game_id == "two-tray":
        from rummykit.rl.grid import GridCodec

        return GridCodec(state, piece_texts(state), draft_steps)
    from rummykit.rl.words import TokenCodec

    return TokenCodec(state, piece_texts(state))
