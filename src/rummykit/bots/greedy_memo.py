"""What greedy remembers from a turn it found no play in: a drawn tile that cannot change that answer.

After a turn where :mod:`rummykit.bots.greedy` planned no play (and so drew
or passed), its next turn very often sees the same table (every other seat
drew) and the same rack plus the one tile it drew. Every step of greedy's
turn failed on the old rack, and each step could succeed on the grown rack
only through the new tile ``t``:

- a new set (``best_meld``, in every mode, and the initial meld's search)
  needs a set holding ``t``, that is two tiles near it (its number in another
  colour, its colour within two of it) or jokers (:data:`NEAR`); without one,
  the candidate sets and the tiles they use are the old rack's, so the search
  gives the old (empty) answer;
- a lay-off, a split or a bridge with a rack joker needs ``t`` among the
  tiles a table set accepts, splits on or bridges to (their masks in
  :class:`~rummykit.bots.greedy_shapes.Shape`);
- a set around a donor needs a tile near the donor (a set of the donor and
  the old rack's tiles failed, and the run or group around the donor reads
  no tile farther than two numbers from it while it holds fewer than three);
- a freed table joker needs a rack tile it stands for: none may be in the
  grown rack.

So when ``t`` is none of those, the grown rack makes no play either and the
bot draws again, without planning. :class:`NoPlay` keeps the rack and table
as the view wrote them and those tiles as one bit mask; it is replaced at
every turn (one per bot), so it holds nothing but the bot's own last view.
``tests/test_greedy_memo.py`` compares it with planning the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.bots.greedy_shapes import NEAR, Shape, set_around, tiles_mask
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile

__all__ = ["NoPlay", "no_play"]


class NoPlay:
    """A turn greedy found no play in: the rack and table as the view wrote them, and what could change that.

    ``held``: the rack's numbered tiles and jokers (a set); ``mask``: the same
    as a bit mask; ``jokers``: how many jokers; ``blocked``: the tiles that,
    drawn, might make a play (lay-offs, splits, the roles of table jokers, and
    the bridges a rack joker could make); ``donors``: the table tiles that
    could leave their set, and ``near_donors`` the tiles near any of them.
    """

    __slots__ = ("blocked", "donors", "down", "held", "jokers", "mask", "near_donors", "rack", "table", "threshold")

    def __init__(
        self,
        rack: list[str],
        table: list[list[str]],
        down: bool,
        threshold: int,
        held: set[Tile],
        blocked: int,
        donors: tuple[Tile, ...],
    ) -> None:
        self.rack = rack
        self.table = table
        self.down = down
        self.threshold = threshold
        self.held = held
        self.mask = tiles_mask(held)
        self.jokers = rack.count(str(JOKER))
        self.blocked = blocked
        self.donors = donors
        near = 0
        for d in donors:
            near |= NEAR[d.code]
        self.near_donors = near

    def still(self, rack: list[str], table: list[list[str]], down: bool, threshold: int) -> bool:
        """True when the turn (rack and table as the view writes them) surely has no play either.

        That is when it is this turn's position with one more numbered tile in
        the rack (and, once down, the same table), a tile that can take part
        in none of greedy's steps. Then this memo becomes that turn's.
        """
        old = self.rack
        n = len(old)
        if len(rack) != n + 1 or down != self.down or threshold != self.threshold:
            return False
        if down and table != self.table:
            return False
        i = 0
        while i < n and rack[i] == old[i]:
            i += 1
        if rack[i + 1 :] != old[i:]:
            return False
        t = Tile.parse(rack[i])
        if t is JOKER:
            return False
        bit = 1 << t.code
        mask = self.mask
        if (NEAR[t.code] & mask).bit_count() + self.jokers >= 2 or self.blocked & bit:
            return False
        mask |= bit
        if self.near_donors & bit and self._donor_set(t, mask):
            return False
        self.rack = list(rack)
        self.mask = mask
        self.held.add(t)
        return True

    def _donor_set(self, t: Tile, mask: int) -> bool:
        """True when a donor near ``t`` makes a set with the grown rack (``mask``: its tiles)."""
        grown: set[Tile] | None = None
        for d in self.donors:
            near = NEAR[d.code] & mask
            if near >> t.code & 1 and near & (near - 1):
                if grown is None:
                    grown = self.held | {t}
                if set_around(d, grown) is not None:
                    return True
        return False


def no_play(
    rack_texts: list[str],
    rack: Iterable[Tile],
    table: list[list[str]],
    down: bool,
    threshold: int,
    shapes: Sequence[Shape],
) -> NoPlay | None:
    """The memo of a turn greedy planned no play in (``shapes``: the table's, once down), or None when a
    table joker stands for a rack tile (then a drawn tile could be used with the freed joker)."""
    held = set(rack)
    mask = tiles_mask(held)
    blocked = 0
    donors: list[Tile] = []
    if down:
        roles = 0
        jokers = JOKER in held
        for shape in shapes:
            blocked |= shape.accept_mask | shape.split_mask
            roles |= shape.role_mask
            if shape.donors:
                donors.extend(d for d, _ in shape.donors)
            if jokers:
                blocked |= shape.end_mask
        if roles & mask:
            return None
        blocked |= roles
    return NoPlay(list(rack_texts), list(table), down, threshold, held, blocked, tuple(dict.fromkeys(donors)))
