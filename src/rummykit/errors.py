"""The errors rummykit raises: all are :class:`ValueError` subclasses split by cause.

>>> try:
...     raise RuleError("RK-GROUP", "a group needs 3 or 4 tiles")
... except ValueError as exc:
...     print(exc)
a group needs 3 or 4 tiles (rule RK-GROUP)

A refusal may carry its data: the message is then a template naming its
params in braces, and ``counted`` names the params that are positions (a
column, a cell, a meld...), numbered from 0 as in the records. ``str()``
and :attr:`RuleError.reason` read them as the record numbers them; an
interface words the same refusal for a person, who counts from 1, with
:meth:`RuleError.worded` (the presenters do it in one place,
:func:`rummykit.presenters.base.word_refusal`):

>>> exc = RuleError("CV-COLUMN", "column {column} is not a conveyor; the conveyors are {conveyors}",
...                 column=3, conveyors=[1, 2], counted=("column", "conveyors"))
>>> str(exc)
'column 3 is not a conveyor; the conveyors are 1, 2 (rule CV-COLUMN)'
>>> exc.worded(1)
'column 4 is not a conveyor; the conveyors are 2, 3'
>>> exc.params
{'column': 3, 'conveyors': [1, 2]}
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TypeAlias

Param: TypeAlias = int | str | bool | list[int] | list[str] | None
"""A refusal's datum: JSON as it stands (a number, a text, a flag, or a list of numbers or texts)."""


def _shown(value: Param, shift: int) -> str:
    """``value`` as a message shows it: a list joined by commas, numbers moved by ``shift``."""
    if isinstance(value, list):
        return ", ".join(_shown(v, shift) for v in value)
    if shift and isinstance(value, int) and not isinstance(value, bool):
        return str(value + shift)
    return str(value)


class RummykitError(ValueError):
    """Base class of every error rummykit raises on bad input."""


class ParseError(RummykitError):
    """Text (a piece, a set, an action, a position) could not be read."""


class RuleError(RummykitError):
    """An action breaks a rule; ``rule`` is the stable id used in the rules pages.

    ``params`` holds the refusal's data (JSON: cells, columns, set numbers,
    pieces, totals) and ``message`` names them in braces; ``counted`` lists
    the params that are positions counted from 0 (see the module's example).
    Without params the message is taken as it is.
    """

    def __init__(self, rule: str, message: str, *, counted: Collection[str] = (), **params: Param) -> None:
        self.rule = rule
        self.template = message
        self.params: dict[str, Param] = dict(params)
        self.counted: tuple[str, ...] = tuple(c for c in counted if c in self.params)
        self.reason = self.worded(0)
        super().__init__(f"{self.reason} (rule {rule})")

    def worded(self, base: int, seat_name: Callable[[int], str] | None = None) -> str:
        """The reason with every counted position numbered from ``base`` (0 as the records, 1 as people).

        A ``seat`` param (a seat number) reads "seat 1" in the records' words;
        for people "P2", or as ``seat_name`` names it (e.g. a player's name, or
        "you").
        """
        if not self.params:
            return self.template
        shown: dict[str, str] = {k: _shown(v, base if k in self.counted else 0) for k, v in self.params.items()}
        seat = self.params.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            shown["seat"] = seat_name(seat) if seat_name is not None else f"seat {seat}" if base == 0 else f"P{seat + 1}"
        return self.template.format_map(shown)

    def to_json(self) -> dict[str, object]:
        """The refusal as data: rule, reason (record numbering), template, params and counted."""
        return {
            "rule": self.rule,
            "reason": self.reason,
            "template": self.template,
            "params": dict(self.params),
            "counted": list(self.counted),
        }


def seat_param(names: Sequence[str], viewer: int | None) -> Callable[[int], str]:
    """A ``seat_name`` for :meth:`RuleError.worded`: "you" for ``viewer``, else the seat's name."""

    def name(seat: int) -> str:
        if seat == viewer:
            return "you"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    return name


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

