"""How a state's snapshot writes each attribute: :class:`Saved`, :class:`SavedAs` or :class:`Omit`.

A game declares them in its ``SNAPSHOT`` (see
:meth:`~rummykit.engine.core.GameState.position_fields`); an attribute not
declared is written by :func:`~rummykit.engine.values.plain` under its own name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rummykit.engine.match import Match
from rummykit.engine.rng import Rng
from rummykit.engine.values import JSON, plain

__all__ = ["Field", "Omit", "Saved", "SavedAs", "match_fields", "rng_digest"]


@dataclass(frozen=True, slots=True)
class Saved:
    """How a state's attribute is written in its :meth:`~GameState.snapshot`.

    Under ``key`` (by default the attribute's own name), as ``encode`` of the
    value (by default :func:`plain`).
    """

    key: str | None = None
    encode: Callable[[Any], JSON] = plain

    def keys(self, name: str) -> tuple[str, ...]:
        """The snapshot keys this attribute is written under."""
        return (self.key or name,)

    def write(self, name: str, value: object, out: dict[str, JSON]) -> None:
        out[self.key or name] = self.encode(value)


@dataclass(frozen=True, slots=True)
class SavedAs:
    """An attribute written in the snapshot under several keys: ``encode`` returns them all (``names``)."""

    names: tuple[str, ...]
    encode: Callable[[Any], dict[str, JSON]]

    def keys(self, name: str) -> tuple[str, ...]:
        """The snapshot keys this attribute is written under."""
        return self.names

    def write(self, name: str, value: object, out: dict[str, JSON]) -> None:
        out.update(self.encode(value))


@dataclass(frozen=True, slots=True)
class Omit:
    """An attribute the snapshot leaves out, and why.

    ``cache`` marks a cache of other attributes: it may change whenever the
    state is asked something, so no comparison of states looks at it.
    """

    reason: str
    cache: bool = False

    def keys(self, name: str) -> tuple[str, ...]:
        """No snapshot keys: the attribute is left out."""
        return ()

    def write(self, name: str, value: object, out: dict[str, JSON]) -> None:
        return


Field = Saved | SavedAs | Omit
"""How a snapshot writes one attribute of a state (see :attr:`GameState.SNAPSHOT`)."""


def rng_digest(rng: Rng) -> str:
    """The generator's state as a digest (a snapshot shows where it stands, not its internals).

    The generator keeps the last state digested and its digest: a game that
    draws nothing more after its deal is digested once, and each later
    snapshot compares the states (a few microseconds) instead of hashing the
    text of one (a tenth of a millisecond).
    """
    state = rng.getstate()
    kept = rng.digested
    if kept is not None and kept[0] == state:
        return kept[1]
    digest = hashlib.sha256(repr(state).encode()).hexdigest()
    rng.digested = (state, digest)
    return digest


def match_fields(match: Match) -> dict[str, JSON]:
    """The match as the snapshot writes it: who starts, the round, the totals and each round's outcome."""
    return {
        "first": match.first,
        "round": match.round_no,
        "totals": list(match.totals),
        "rounds": [r.to_json() for r in match.rounds],
    }
