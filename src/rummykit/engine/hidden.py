"""Every piece a seat cannot see, dealt anew: :class:`HiddenPieces`, a part of every game's state.

:class:`~rummykit.engine.core.GameState` inherits it, so any game's
``state.redeal_hidden(seat, rng)`` gives a copy that ``seat`` cannot tell
from the state (for determinizing a search, such as OpenSpiel's
``resample_from_infostate``, and for tests that a view or a bot's choice
does not follow from hidden pieces). The redeal is written once, here; a game
implements only :meth:`HiddenPieces.hidden_slots`, the places of the pieces
hidden from a seat (:func:`every_slot` and :func:`unseen_slots` name the
usual ones), and extends :meth:`HiddenPieces.drop_caches` when a part of it
keeps a cache of its own.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Self

from rummykit.engine.rng import Rng
from rummykit.engine.snapshot import Field, Omit

__all__ = ["HiddenPieces", "Slot", "every_slot", "unseen_slots"]

Slot = tuple[list[Any], int]
"""Where a piece lies: a list the state holds (its own, not a copy) and an index in it."""


def every_slot(pieces: list[Any]) -> list[Slot]:
    """Every place of ``pieces`` (a stock, a pool), in order."""
    return [(pieces, i) for i in range(len(pieces))]


def unseen_slots(hands: Sequence[list[Any]], known: Sequence[Collection[Any]], seat: int | None) -> list[Slot]:
    """The places of the pieces in every hand but ``seat``'s that the others did not see it take.

    ``known[s]`` holds the pieces seat ``s`` was seen to take (they stay); hand
    by hand, in hand order. ``seat`` None: every hand's.
    """
    return [(hand, i) for s, hand in enumerate(hands) if s != seat for i, p in enumerate(hand) if p not in known[s]]


class HiddenPieces(abc.ABC):
    """A state whose pieces hidden from a seat can be dealt anew (:meth:`redeal_hidden`)."""

    @abc.abstractmethod
    def copy(self) -> Self:
        """An independent copy (:meth:`~rummykit.engine.core.GameState.copy`)."""

    @classmethod
    @abc.abstractmethod
    def position_fields(cls) -> Mapping[str, Field]:
        """Every declared attribute (:meth:`~rummykit.engine.core.GameState.position_fields`)."""

    def redeal_hidden(self, seat: int | None, rng: Rng) -> Self:
        """A copy in which every piece ``seat`` cannot see has changed places at random.

        The pieces at :meth:`hidden_slots` (the other seats' hidden pieces and
        the stock or pool, together) are shuffled among themselves by one
        ``rng.shuffle``, so each hand keeps its size; pieces another seat was
        seen to take stay where they are, and so does every public piece. The
        view of ``seat`` is unchanged (``seat`` None: a spectator, from whom
        every hand's unseen pieces are hidden). The state itself is untouched.
        """
        other = self.copy()
        slots = other.hidden_slots(seat)
        pieces = [where[i] for where, i in slots]
        rng.shuffle(pieces)
        for (where, i), piece in zip(slots, pieces, strict=True):
            where[i] = piece
        other.drop_caches()
        return other

    def hidden_slots(self, seat: int | None) -> list[Slot]:
        """Where each piece hidden from ``seat`` lies: the hook of :meth:`redeal_hidden`, which a game implements.

        The pieces that may trade places without ``seat`` telling the
        difference, in a fixed order (the shuffle's draws follow it).
        """
        raise NotImplementedError(
            f"{type(self).__name__} cannot deal its hidden pieces anew: it does not say where they lie (hidden_slots)"
        )

    def drop_caches(self) -> None:
        """Forget every cache the state keeps of its other attributes, to be worked out again.

        The attributes :meth:`position_fields` declares ``Omit(cache=True)``
        are set to None; a game whose parts keep caches of their own extends it.
        """
        for name, spec in self.position_fields().items():
            if isinstance(spec, Omit) and spec.cache and hasattr(self, name):
                setattr(self, name, None)
