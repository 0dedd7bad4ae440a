"""What every meld family's checker answers, whatever the pieces are."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rummykit.errors import RuleError

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class MeldCheck(Generic[P]):
    """The verdict on one set of pieces.

    ``pieces`` is the set in its normal order (a run ascending, jokers where
    they stand); ``jokers`` says, for each joker in that order, what it stands
    for; ``points`` values every piece as what it represents. When ``valid``
    is false, ``rule`` and ``reason`` say why.
    """

    valid: bool
    kind: str | None
    pieces: tuple[P, ...]
    points: int = 0
    jokers: tuple[str, ...] = ()
    rule: str | None = None
    reason: str | None = None

    def error(self) -> RuleError:
        """The verdict as an exception (only for an invalid set)."""
        assert self.rule is not None and self.reason is not None
        return RuleError(self.rule, self.reason)


MeldChecker = Callable[[Sequence[P]], MeldCheck[P]]
"""A function that judges one set of pieces."""
