"""``random``: a listable legal action chosen uniformly at random (plays included, not only draws).

Out of turn (a seat the game does not wait for, such as a mummus add-on or
rummy call) it acts on a coin toss, picking uniformly among what it may do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from rummykit.engine.core import Action, GameInfo, ViewHeader
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError


class RandomBot:
    """Picks uniformly among the game's listable actions for the view's seat."""

    level = "random"

    def __init__(self, info: GameInfo) -> None:
        if info.view_actions is None:
            raise RuleError("BOT", f"{info.id} cannot list actions from a view")
        self._actions = info.view_actions

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:

        view = cast(ViewHeader, view)  # the view of this game
        return self.choose_listed(view.get("seat"), self._actions(view), rng)

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        """Out of turn: on a coin toss, a uniform pick among the listed actions (None lets the chance pass)."""

        view = cast(ViewHeader, view)  # the view of this game
        return self.claim_listed(view.get("seat"), self._actions(view), rng)

    # The driver's fast path (engine/driver.py ListingAgent): the seat's own listing, equal to the view's.

    def choose_listed(self, seat: int | None, actions: list[Action], rng: Rng) -> Action:
        """A uniform pick among ``actions`` (the seat's listing); the same draw as :meth:`choose`."""
        if not actions:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        return rng.choice(actions)

    def choose_index(self, seat: int | None, count: int, rng: Rng) -> int:
        """A uniform index among ``count`` (the seat's listing's length); the same draw as :meth:`choose_listed`."""
        if not count:
            raise RuleError("BOT", f"seat {seat} has nothing to do now")
        return rng.below(count)

    def claim_listed(self, seat: int | None, actions: list[Action], rng: Rng) -> Action | None:
        """On a coin toss, a uniform pick among ``actions``; the same draws as :meth:`claim`."""
        if not actions or rng.below(2):
            return None
        return rng.choice(actions)
