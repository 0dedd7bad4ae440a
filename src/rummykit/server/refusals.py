"""A request the server refuses, as its ``error`` frame says it: a rule id, the message, and the refusal's data.

The engine's :class:`~rummykit.errors.RuleError` carries its data (cells,
columns, set numbers, pieces, totals) as ``params``; an error frame passes
them on, with the refusal worded twice: ``message`` numbers positions as the
records do (from 0), ``worded`` as a person reads them (from 1, seats by
name, "you" for the seat asking), from the one place that words refusals
for people (:meth:`RuleError.worded <rummykit.errors.RuleError.worded>`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rummykit.errors import Param, RuleError, seat_param
from rummykit.server import protocol as p
from rummykit.server.frames import ErrorFrame

__all__ = ["Refusal", "error_frame"]


class Refusal(Exception):
    """A request refused with a rule id and a message (sent as an ``error`` frame).

    ``params`` is the refusal's data, when it has any, and ``worded`` its
    message for a person (the message itself when not given).
    """

    def __init__(
        self, rule: str, message: str, *, params: Mapping[str, Param] | None = None, worded: str | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.params = params
        self.worded = message if worded is None else worded

    @classmethod
    def of(cls, exc: RuleError, names: Sequence[str], viewer: int | None) -> Refusal:
        """The engine's refusal as the seat ``viewer`` is told it (``names``: the players, to name seats)."""
        return cls(
            exc.rule,
            exc.reason,
            params=dict(exc.params) if exc.params else None,
            worded=exc.worded(1, seat_param(names, viewer)),
        )

    def frame(self, rid: p.RequestId = None) -> ErrorFrame:
        """The ``error`` frame answering the request ``rid``."""
        return error_frame(self.rule, self.message, rid, params=self.params, worded=self.worded)


def error_frame(
    rule: str,
    message: str,
    rid: p.RequestId = None,
    *,
    params: Mapping[str, Param] | None = None,
    worded: str | None = None,
) -> ErrorFrame:
    """An ``error`` frame (messages bounded to :data:`~rummykit.server.protocol.MAX_MESSAGE` characters)."""
    error = p.Error(
        id=rid,
        rule=rule,
        message=p.bounded(message),
        worded=p.bounded(message if worded is None else worded),
        params=params,
    )
    return cast("ErrorFrame", error.model_dump(mode="json"))
