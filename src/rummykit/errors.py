"""The errors rummykit raises: all are :class:`ValueError` subclasses split by cause.

>>> try:
...     raise RuleError("RK-GROUP", "a group needs 3 or 4 tiles")
... except ValueError as exc:
...     print(exc)
a group needs 3 or 4 tiles (rule RK-GROUP)
"""

from __future__ import annotations


class RummykitError(ValueError):
    """Base class of every error rummykit raises on bad input."""


class ParseError(RummykitError):
    """Text (a piece, a set, an action, a position) could not be read."""


class RuleError(RummykitError):
    """An action breaks a rule; ``rule`` is the stable id used in the rules pages."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule
        self.reason = message


class OptionError(RummykitError):
    """A game option is unknown or out of range."""


class RecordError(RummykitError):
    """A game record is malformed or holds an illegal action; ``line`` is 1-based."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.reason = message


class UnknownGameError(RummykitError):
    """No game with that id or alias is registered."""
