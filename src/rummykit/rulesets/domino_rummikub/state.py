"""The state of a domino-rummikub game: the full set, who starts, the starting group and the round's scores."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from rummykit.blocks.table import Opening
from rummykit.engine.core import Action, Field
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.engine.snapshot import Omit
from rummykit.errors import RuleError
from rummykit.pieces.dominoes import Domino, double_set, parse_dominoes
from rummykit.rulesets.domino_rummikub.kept import KeptListings
from rummykit.rulesets.domino_rummikub.listing import listable_actions
from rummykit.rulesets.domino_rummikub.options import (
    COPIES,
    GAME_ID,
    PREFIX,
    RACK_SIZE,
    TABLE,
    TOP,
    DominoSet,
    starting_group,
)
from rummykit.rulesets.freetable import Fail, FreeTableGame, Play

__all__ = ["DominoRummikub", "full_set"]


def full_set() -> list[Domino]:
    """Two double-six sets: 56 dominoes, of which the two 0-0 and two 6-6 are jokers.

    >>> from rummykit.rulesets.domino_rummikub.options import JOKERS
    >>> len(full_set()), sum(d in JOKERS for d in full_set())
    (56, 4)
    """
    return list(_FULL_SET)


_FULL_SET = tuple(d for d in double_set(TOP) for _ in range(COPIES))
"""The full set, made once (a round's deal copies it)."""


class DominoRummikub(FreeTableGame[Domino]):
    """A match (or a single round) of Rummikub with dominoes."""

    game_id = GAME_ID
    TABLE = TABLE
    RACK_SIZE = RACK_SIZE
    PENALTY = None
    PREFIX = PREFIX
    POOL_NAME = "boneyard"

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "_kept": Omit("each seat's last listing and what it was made from, worked out from the rest", cache=True),
    }

    def __init__(
        self, players: Sequence[str], seed: int, options: Mapping[str, OptionValue], *, deal: bool = True
    ) -> None:
        self._kept: KeptListings | None = None
        super().__init__(players, seed, options, deal=deal)

    def full_set(self) -> list[Domino]:
        return full_set()

    def choose_first(self) -> int:
        """The seed names no starting rule: the first player is drawn by lot (seeded)."""
        first = self.rng.below(len(self.players))
        self.emit("first-player", first, {"by": "lot"})
        return first

    def opening(self, seat: int) -> Opening | None:
        if self.down[seat]:
            return None
        return starting_group(self.options["starting_group_size"])

    def piece_points(self, piece: Domino) -> int:
        return piece.pips

    def rack_points(self, seat: int) -> int:
        """The spots left in a rack (each domino's :meth:`piece_points`, added up in one pass)."""
        return sum([d.low + d.high for d in self.racks[seat]])

    def round_scores(self, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The player who went out (or, when all passed, the fewest spots; ties all win)
        scores the spots left in every other hand, jokers included; the others score 0."""
        spots = [self.rack_points(i) for i in range(len(self.players))]
        if winner is not None:
            winners: tuple[int, ...] = (winner,)
        else:
            low = min(spots)
            winners = tuple(i for i, v in enumerate(spots) if v == low)
        losers = sum(v for i, v in enumerate(spots) if i not in winners)
        return winners, tuple(losers if i in winners else 0 for i in range(len(spots)))

    def parse_pieces(self, text: str) -> list[Domino]:
        return parse_dominoes(text)

    def legal_actions(self, player: int) -> list[Action]:
        """:meth:`~rummykit.rulesets.freetable.FreeTableGame.legal_actions`, asked without building
        :attr:`to_act`: no seat may act out of turn here (:attr:`may_act` is always empty), so only the seat
        whose turn it is acts, while the game is not over."""
        if self.outcome is not None or player != self.current:
            return []
        return self.list_actions(player)

    def list_actions(self, seat: int) -> list[Action]:
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptListings()
        rack, down, group, pool = self.racks[seat], self.down[seat], self.options["starting_group_size"], len(self.pool)
        listed = kept.listable_actions(seat, rack, self.table, down=down, starting_group_size=group, pool_size=pool)
        if listed is None:  # a rack the kept listing cannot read: the plain listing
            listed = listable_actions(seat, rack, self.table, down=down, starting_group_size=group, pool_size=pool)
        return listed

    def verify_play(self, action: Play | Fail) -> list[DominoSet] | RuleError:
        """:meth:`~rummykit.rulesets.freetable.FreeTableGame.verify_play`; for the play the kept listing just
        made for this table and this seat's rack (:meth:`KeptListings.made_here`), the conservation check is
        left out, for such a play conserves the pieces (the listing's plays do, as
        ``tests/test_pick_listed.py`` checks): every set is judged and the starting group's rule applied as
        for any play."""
        kept = self._kept
        seat = action.player
        if kept is None or not kept.made_here(action, self.table, self.racks[seat]):
            return super().verify_play(action)
        checks = self.TABLE.check_all(action.table)
        fault = self.TABLE.turn_fault(self.table, action.placed, action.table, self.opening(seat), checks)
        if fault is not None:
            return fault
        return [c.pieces for c in checks]

    def pick_listed(self, player: int, choose: Callable[[int, int, Rng], int], rng: Rng) -> Action:
        """``legal_actions(player)[choose(player, n, rng)]`` (``n`` its length), making only the action chosen
        (the driver's path for a bot that chooses by index, :class:`~rummykit.engine.driver.IndexingAgent`)."""
        if self.outcome is not None or player != self.current:
            return super().pick_listed(player, choose, rng)
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptListings()
        group = self.options["starting_group_size"]
        picked = kept.pick(player, self.racks[player], self.table, self.down[player], group, len(self.pool), choose, rng)
        if picked is None:  # a rack the kept listing cannot read: from the plain listing
            return super().pick_listed(player, choose, rng)
        return picked
