"""What greedy remembers from a position it has no play in, and the turns that surely have none either.

Once greedy's turn ends with no play left (it planned none and drew, or it
played and nothing more of its rack could go), its next turn very often sees
the same rack, or that rack and one drawn tile ``t``, and a table that other
seats changed in a few places or not at all. Every step of greedy's turn
(:class:`rummykit.bots.greedy._Turn`) failed on the old position, and each
step fails or succeeds set by set:

- a new set (``best_meld`` in every mode, and the initial meld's search)
  needs a set holding ``t``, so two tiles near it (its number in another
  colour, its colour within two of it: :data:`NEAR`) or jokers; without one
  the candidate sets and the tiles they use are the old rack's, and so is the
  (empty) answer;
- a lay-off, a split, a bridge with a rack joker or a freed table joker
  needs a rack tile among those the table set accepts, splits on, bridges to
  or has a joker stand for (the masks of
  :class:`~rummykit.bots.greedy_shapes.Shape`);
- a set around a donor needs two rack tiles near it; for a set still on the
  table the old rack failed, and the group or run around the donor reads no
  tile farther than two numbers from it while it holds fewer than three, so
  only a ``t`` near the donor can change that.

The rack and table are kept as the view writes them (texts) or, ``typed``,
as a typed seat view gives them (tiles and the state's set tuples; see
:class:`~rummykit.rulesets.freetable_views.SeatView`), both compared for
equality alone; a memo is asked only in the form it was made from.

A table set still at its place (the same text) is looked at for ``t`` only;
a changed or new set for the whole rack. When no step can use anything, the
turn has no play either and the bot draws (or passes) without planning.
:class:`NoPlay` is replaced at every turn (one per bot) and holds nothing but
the bot's own last view. ``tests/test_greedy_memo.py`` compares it with
planning the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from rummykit.bots.greedy_shapes import NEAR, Shape, makes_set, seen_set, set_around, tiles_mask, view_set
from rummykit.pieces.same import count_of
from rummykit.pieces.text import piece_texts
from rummykit.pieces.tiles import JOKER, Tile

__all__ = ["NO_PLAY", "NO_SETS", "NoPlay", "no_play", "no_play_after"]

NO_PLAY = 2
""":meth:`NoPlay.still`'s answer when the turn has no play."""
NO_SETS = 1
""":meth:`NoPlay.still`'s answer when the turn's rack makes no new set (the table may take its tiles)."""

TileSet = tuple[Tile, ...]
Key = str | Tile
"""A rack tile as the memo keeps it: its text, or (typed) the tile."""
SetKey = Sequence[str] | TileSet
"""A table set as the memo keeps it: its texts, or (typed) its tiles."""
_JOKER_BIT = 1 << JOKER.code
_JOKER_TEXT = str(JOKER)


class NoPlay:
    """A position greedy has no play in: its rack and table as the view writes them (``rack``,
    ``table``), the rack's tiles (``tiles``, and their bit ``mask``) and the table sets' shapes."""

    __slots__ = ("down", "jokers", "mask", "rack", "sets_unknown", "shapes", "table", "threshold", "tiles", "typed")

    def __init__(
        self,
        rack: Sequence[Key],
        tiles: list[Tile],
        table: Sequence[SetKey],
        shapes: list[Shape],
        down: bool,
        threshold: int,
        mask: int,
        typed: bool = False,
    ) -> None:
        self.rack = rack
        self.tiles = tiles
        self.table = table
        self.shapes = shapes
        self.down = down
        self.threshold = threshold
        self.mask = mask
        if typed:  # tiles: counted by identity, and only when the mask says there is one (see pieces.same)
            self.jokers = count_of(rack, JOKER) if mask & _JOKER_BIT else 0
        else:
            self.jokers = list(rack).count(_JOKER_TEXT)
        self.typed = typed
        self.sets_unknown = False
        """True until the rack is known to make no set (:func:`no_play_after` leaves that to :meth:`still`)."""

    def still(
        self, rack: Sequence[Key], table: Sequence[SetKey], down: bool, threshold: int, typed: bool = False
    ) -> int:
        """:data:`NO_PLAY` when the turn (its rack and table as the view writes them) surely has no play
        either, :data:`NO_SETS` when its rack surely makes no new set (once down), else 0.

        No play: this position with the same rack or one more numbered tile
        in it, that makes no new set, and (once down) a table whose sets
        still at their place no step can use the new tile with, and whose
        other sets no step can use any rack tile with. Then this memo becomes
        that turn's.
        """
        if down != self.down or threshold != self.threshold or typed is not self.typed:
            return 0
        old = self.rack
        n = len(old)
        mask = self.mask
        t: Tile | None = None
        bit = 0
        if len(rack) == n + 1:
            i = 0
            if typed:  # tiles: equal ones are one object (``==`` between two tiles is slow, see pieces.same)
                while i < n and rack[i] is old[i]:
                    i += 1
            else:
                while i < n and rack[i] == old[i]:
                    i += 1
            if rack[i + 1 :] != old[i:]:
                return 0
            t = cast(Tile, rack[i]) if typed else Tile.parse(cast(str, rack[i]))
            if t is JOKER or (NEAR[t.code] & mask).bit_count() + self.jokers >= 2:
                return 0  # a joker, or a tile that may make a new set
            bit = 1 << t.code
        elif len(rack) != n or rack != old:
            return 0
        if self.sets_unknown:
            if makes_set(mask, self.jokers):
                return 0
            self.sets_unknown = False
        if down and not (table == self.table and not bit):
            shapes = self._table_still(table, t, bit, mask | bit)
            if shapes is None:
                return NO_SETS
            self.table = list(table)
            self.shapes = shapes
        if t is not None:
            self.rack = list(rack)
            self.tiles = [*self.tiles, t]
            self.mask = mask | bit
        return NO_PLAY

    def _table_still(self, table: Sequence[SetKey], t: Tile | None, bit: int, grown: int) -> list[Shape] | None:
        """The shapes of ``table`` when no step can use it with the rack grown by ``t`` (``grown``: its
        tiles' mask), else None."""
        if grown == _JOKER_BIT:
            return None  # only jokers: they may go onto any set that changed
        old, old_shapes = self.table, self.shapes
        n = len(old)
        ends = bool(self.jokers)
        held: set[Tile] | None = None
        shapes: list[Shape] = []
        for i, texts in enumerate(table):
            if i < n and texts == old[i]:
                shape = old_shapes[i]
                check = bit  # the old rack could do nothing with this set
                if not check:
                    shapes.append(shape)
                    continue
            else:
                shape = seen_set(cast(TileSet, texts))[1] if self.typed else view_set(cast("list[str]", texts))[2]
                check = grown
            if not (shape.memo_mask if ends else shape.touch_mask) & check:
                shapes.append(shape)  # no tile of ``check`` is one the tests below look for
                continue
            if (shape.step_mask | shape.end_mask if ends else shape.step_mask) & check:
                return None
            for d, _ in shape.donors:
                near = NEAR[d.code] & grown
                if near & check and near & (near - 1):
                    if held is None:
                        held = set(self.tiles)
                        if t is not None:
                            held.add(t)
                    if set_around(d, held) is not None:
                        return None
            shapes.append(shape)
        return shapes


def no_play(
    rack_texts: Sequence[Key],
    rack: list[Tile],
    table: Sequence[SetKey],
    shapes: Sequence[Shape],
    down: bool,
    threshold: int,
    typed: bool = False,
) -> NoPlay | None:
    """The memo of a position greedy planned no play in (``shapes``: the table's, once down), or None when
    a table joker stands for a rack tile (a drawn tile might then go with the freed joker). ``typed``: the
    rack and table are given as tiles (a seat view's), not texts."""
    mask = tiles_mask(rack)
    for shape in shapes:
        if shape.role_mask & mask:
            return None
    return NoPlay(list(rack_texts), list(rack), list(table), list(shapes), down, threshold, mask, typed)


def no_play_after(
    rack: list[Tile],
    table: list[TileSet],
    texts: Sequence[SetKey | None],
    shapes: Sequence[Shape],
    threshold: int,
    typed: bool = False,
) -> NoPlay | None:
    """The memo of the position greedy's planned play leaves (``rack`` sorted by code, the table's sets in
    normal form, ``texts`` those already written, else None), where every step but a new set failed.

    The turn lays new sets only at its start: :meth:`NoPlay.still` makes sure the rack makes none before
    it trusts the memo. None when a table joker stands for a rack tile. ``typed``: ``texts`` are tiles (as
    :func:`no_play`'s).
    """
    if typed:
        memo = no_play(rack, rack, [s if w is None else w for s, w in zip(table, texts, strict=True)], shapes, True,
                       threshold, True)
    else:
        written = [piece_texts(s) if w is None else w for s, w in zip(table, texts, strict=True)]
        memo = no_play(piece_texts(rack), rack, written, shapes, True, threshold)
    if memo is not None:
        memo.sets_unknown = True
    return memo
