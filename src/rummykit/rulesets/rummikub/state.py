"""The state of a rummikub game: the full set, who starts, the initial meld and the round's scores."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from rummykit.blocks.table import Opening
from rummykit.engine.core import Action, Field
from rummykit.engine.options import OptionValue
from rummykit.engine.rng import Rng
from rummykit.engine.snapshot import Omit
from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets import tilerummy
from rummykit.rulesets.freetable import FreeTableGame
from rummykit.rulesets.freetable_views import SeatView, seat_view
from rummykit.rulesets.rummikub.listing import KeptListings
from rummykit.rulesets.rummikub.options import (
    GAME_ID,
    PENALTY_TILES,
    PREFIX,
    RACK_SIZE,
    TABLE,
    initial_meld,
)

__all__ = ["Rummikub", "full_set"]


def full_set(jokers: int) -> list[Tile]:
    """Every tile in play: two of each colour and number, then the jokers (the shared tile set).

    >>> len(full_set(2)), len(full_set(4))
    (106, 108)
    """
    return tilerummy.full_set(jokers)


class Rummikub(FreeTableGame[Tile]):
    """A game (a round, or a match of rounds) of standard tile rummy."""

    game_id = GAME_ID
    TABLE = TABLE
    RACK_SIZE = RACK_SIZE
    PENALTY = PENALTY_TILES
    PREFIX = PREFIX

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "_kept": Omit("each seat's last listing and what it was made from, worked out from the rest", cache=True),
    }

    def __init__(
        self, players: Sequence[str], seed: int, options: Mapping[str, OptionValue], *, deal: bool = True
    ) -> None:
        self._kept: KeptListings | None = None
        super().__init__(players, seed, options, deal=deal)

    def seat_view(self, seat: int) -> SeatView[Tile] | None:
        """What ``seat``'s view shows, as tiles (:func:`~rummykit.rulesets.freetable_views.seat_view`: the
        driver hands it to a bot with ``choose_seen``)."""
        return seat_view(self, seat)

    @property
    def threshold(self) -> int:
        """The initial-meld threshold (0: no initial-meld rule)."""
        return int(self.options["initial_meld_points"])

    def full_set(self) -> list[Tile]:
        return full_set(self.options["jokers"])

    def starts_down(self) -> bool:
        return self.threshold == 0

    def choose_first(self) -> int:
        """Each player draws a tile; highest (joker highest) starts; ties draw again.

        The drawn tiles go back: the round's pool is a fresh shuffle of the full set.
        """
        return tilerummy.choose_first(self, self.full_set())

    def opening(self, seat: int) -> Opening | None:
        if self.down[seat]:
            return None
        return initial_meld(self.threshold)

    def piece_points(self, piece: Tile) -> int:
        return piece.points

    def round_scores(self, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Winner: the sum of the losers' racks minus their own; losers: minus their own rack.

        A blocked round is won by the lowest rack total (ties all win).
        """
        return tilerummy.round_scores([self.rack_points(i) for i in range(len(self.players))], winner)

    def parse_pieces(self, text: str) -> list[Tile]:
        return parse_tiles(text)

    def list_actions(self, seat: int) -> list[Action]:
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptListings()
        return kept.listable_actions(
            seat,
            self.racks[seat],
            self.table,
            down=self.down[seat],
            threshold=self.threshold,
            pool_size=len(self.pool),
        )

    def pick_listed(self, player: int, choose: Callable[[int, int, Rng], int], rng: Rng) -> Action:
        """``legal_actions(player)[choose(player, n, rng)]`` (``n`` its length), making only the action chosen
        (the driver's path for a bot that chooses by index, :class:`~rummykit.engine.driver.IndexingAgent`)."""
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptListings()
        if player not in self.to_act:
            return super().pick_listed(player, choose, rng)
        return kept.pick(
            player, self.racks[player], self.table, self.down[player], self.threshold, len(self.pool), choose, rng
        )
