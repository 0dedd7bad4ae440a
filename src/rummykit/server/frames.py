"""The frames the server sends, typed as the JSON objects they are on the wire.

The pydantic models of :mod:`rummykit.server.protocol` check these frames
and publish their schema; the TypedDicts here are the same shapes for the
code that builds frames as plain dicts (a state frame is built without
pydantic: it is on every action) and for the code that reads them (the
protocol client, :mod:`rummykit.server.client`). ``tests/test_server_frames.py``
holds each TypedDict to its model, key for key.

A view inside a frame is the engine's (:class:`~rummykit.engine.core.ViewHeader`
and the game's body); actions are in their JSON form
(:meth:`~rummykit.engine.core.Action.to_json`).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from rummykit.engine.core import ViewHeader
from rummykit.engine.options import OptionValue
from rummykit.engine.values import JSON
from rummykit.errors import Param
from rummykit.server.protocol import Draft, RequestId

__all__ = [
    "ActionJSON",
    "AskedJSON",
    "CheckedFrame",
    "ClockJSON",
    "ErrorFrame",
    "HintFrame",
    "LegalFrame",
    "LegalJSON",
    "LineVerdictJSON",
    "ListedJSON",
    "PongFrame",
    "RoundFrame",
    "SeatJSON",
    "SeatKind",
    "ServerFrameJSON",
    "SetVerdictJSON",
    "StateFrame",
    "Status",
    "TableInfoJSON",
    "WelcomeFrame",
]

Status = Literal["waiting", "playing", "over"]
"""A table's status: waiting for its people to join, being played, or over."""
SeatKind = Literal["person", "bot"]
"""Who sits in a seat."""
ActionJSON = dict[str, JSON]
"""An action in its JSON form: ``type``, ``player`` and each field (see :meth:`~rummykit.engine.core.Action.to_json`)."""


class SeatJSON(TypedDict):
    """A seat as everyone may see it (:class:`~rummykit.server.protocol.SeatInfo`)."""

    seat: int
    kind: SeatKind
    name: str
    level: str | None
    connected: bool


class TableInfoJSON(TypedDict):
    """A table as the lobby and the ``welcome`` frame show it (:class:`~rummykit.server.protocol.TableInfo`)."""

    table: str
    name: str
    game: str
    status: Status
    seats: list[SeatJSON]
    created: float
    options: dict[str, OptionValue]
    clock: float | None
    seq: int
    spectators: int
    draft: Draft
    hint: bool
    jokers: list[str]


class ListedJSON(TypedDict):
    """One legal action in both forms (:class:`~rummykit.server.protocol.ListedAction`)."""

    json: ActionJSON
    text: str
    typed: str
    said: str


class LegalJSON(TypedDict):
    """A seat's legal actions (:class:`~rummykit.server.protocol.LegalActions`)."""

    actions: list[ListedJSON]
    truncated: bool


class ClockJSON(TypedDict):
    """The running turn clock (:class:`~rummykit.server.protocol.Clock`)."""

    seat: int
    deadline: float


class AskedJSON(TypedDict):
    """What the table asks the seat now (:class:`~rummykit.server.protocol.Asked`)."""

    claim: bool


class SetVerdictJSON(TypedDict):
    """The verdict on one set of a draft table (:class:`~rummykit.server.protocol.SetVerdict`)."""

    index: int
    ok: bool
    rule: str | None
    message: str | None


class LineVerdictJSON(TypedDict):
    """The verdict on one line of a drafted grid (:class:`~rummykit.server.protocol.LineVerdict`)."""

    across: bool | None
    cells: list[str]
    ok: bool
    rule: str | None
    message: str | None
    says: str | None


class WelcomeFrame(TypedDict):
    """:class:`~rummykit.server.protocol.Welcome`."""

    type: Literal["welcome"]
    seat: int | None
    table: TableInfoJSON
    id: RequestId


class StateFrame(TypedDict):
    """:class:`~rummykit.server.protocol.State`: the seat's view after ``seq`` actions, its new log lines and legal actions."""

    type: Literal["state"]
    seq: int
    view: ViewHeader
    log: list[str]
    seats: list[SeatJSON]
    clock: ClockJSON | None
    status: Status
    legal: LegalJSON | None
    asked: AskedJSON | None


class ErrorFrame(TypedDict):
    """:class:`~rummykit.server.protocol.Error`: a refused request."""

    type: Literal["error"]
    id: RequestId
    rule: str
    message: str
    worded: str
    params: dict[str, Param] | None


class CheckedFrame(TypedDict):
    """:class:`~rummykit.server.protocol.Checked`: the answer to ``check``."""

    type: Literal["checked"]
    id: RequestId
    ok: bool
    rule: str | None
    message: str | None
    worded: str | None
    params: dict[str, Param] | None
    sets: list[SetVerdictJSON] | None
    action: ActionJSON | None
    lines: list[LineVerdictJSON] | None


class LegalFrame(TypedDict):
    """:class:`~rummykit.server.protocol.LegalList`: the answer to ``legal``."""

    type: Literal["legal"]
    id: RequestId
    actions: list[ListedJSON]
    truncated: bool


class HintFrame(TypedDict):
    """:class:`~rummykit.server.protocol.HintOut`: the answer to ``hint``."""

    type: Literal["hint"]
    id: RequestId
    lines: list[str]
    action: ActionJSON | None


class PongFrame(TypedDict):
    """:class:`~rummykit.server.protocol.Pong`: the answer to ``ping``."""

    type: Literal["pong"]
    id: RequestId


class RoundFrame(TypedDict):
    """:class:`~rummykit.server.protocol.Round`: a round (or the match) ended."""

    type: Literal["round"]
    round: int
    match_over: bool
    lines: list[str]


ServerFrameJSON = WelcomeFrame | StateFrame | ErrorFrame | CheckedFrame | LegalFrame | HintFrame | PongFrame | RoundFrame
"""A frame the server sends, told apart by ``type``."""
