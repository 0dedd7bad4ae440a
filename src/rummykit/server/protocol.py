"""The online protocol: every HTTP body and WebSocket frame as a pydantic model.

The server builds its frames from these models and checks what clients send
with them; ``tools/gen_schema.py`` publishes them as ``docs/schema/protocol.json``
and ``docs/online.md`` describes each one. Views and actions inside frames are
the engine's own JSON forms (``docs/schema/<game>-view.json`` and
``<game>-actions.json``); they are typed here as plain objects.

>>> client_frame({"type": "ping", "id": 7})
Ping(type='ping', id=7)
>>> client_frame({"type": "teleport"})
Traceback (most recent call last):
...
rummykit.server.edgetext.FrameError: unknown frame type 'teleport'; the types are: act, check, hello, hint, leave, legal, pass, ping
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rummykit.engine.options import OptionValue
from rummykit.server.edgetext import (
    MAX_DEPTH,
    MAX_MESSAGE,
    MAX_NAME,
    BadName,
    FrameError,
    bounded,
    clean_name,
    decode_json,
    display_text,
    short,
    too_deep,
)

__all__ = [
    "CLIENT_TYPES",
    "DRAFT_DOC",
    "MAX_DEPTH",
    "MAX_LEGAL",
    "MAX_MESSAGE",
    "MAX_NAME",
    "SERVER",
    "Act",
    "Asked",
    "BadName",
    "Check",
    "Checked",
    "ClientFrame",
    "ClientModel",
    "Clock",
    "CreateTable",
    "CreatedSeat",
    "CreatedTable",
    "Draft",
    "Error",
    "ErrorBody",
    "ErrorDetail",
    "FrameError",
    "GameOut",
    "Hello",
    "Hint",
    "HintOut",
    "HostRequest",
    "Leave",
    "Legal",
    "LegalActions",
    "LegalList",
    "LineVerdict",
    "ListedAction",
    "OptionOut",
    "Pass",
    "Ping",
    "Pong",
    "ProtocolDocument",
    "RequestId",
    "Round",
    "SeatInfo",
    "SeatRequest",
    "SeatToBot",
    "ServerFrame",
    "ServerModel",
    "SetVerdict",
    "State",
    "TableInfo",
    "Welcome",
    "bounded",
    "clean_name",
    "client_frame",
    "decode_json",
    "display_text",
    "server_frame",
    "short",
    "too_deep",
]

RequestId = str | int | None
"""A string or number a client puts in ``id``; the reply carries it back (None when absent)."""

MAX_LEGAL = 200
"""The most actions a ``legal`` frame lists (``truncated`` says when there were more)."""

class _Client(BaseModel):
    """A frame a client sends: unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore")


class _Server(BaseModel):
    """A frame or body the server sends: exactly these keys."""

    model_config = ConfigDict(extra="forbid")


# -- HTTP ---------------------------------------------------------------------------------


Draft = Literal["table", "grid"] | None
"""How a person builds a turn in a game (the game's ``GameInfo.draft``)."""
DRAFT_DOC = (
    "how a person builds a turn: 'table' (the free table, checked in `check` frames with `table`),"
    " 'grid' (pieces placed on grid cells), or null (one action at a time)"
)


class OptionOut(_Server):
    """One option of a game, from the game's own option specs."""

    name: str
    help: str
    default: OptionValue
    kind: Literal["int", "bool", "str"]
    choices: list[str] | list[int] | None = Field(description="the only values allowed (strings or whole numbers), or null")
    min: int | None
    max: int | None
    allow_none: bool = Field(description="true when null (written 'none') is a value")


class GameOut(_Server):
    """A game the server offers (``GET /api/games``)."""

    id: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options: list[OptionOut]
    bot_levels: list[str]
    free_table: bool = Field(description="true when the game accepts draft tables in `check` frames")
    draft: Draft = Field(description=DRAFT_DOC)
    hint: bool = Field(default=False, description="true when the game answers `hint` frames (a hint button makes sense)")
    jokers: list[str] = Field(
        default_factory=list, description="pieces that are wild though their notation does not say so (0-0 and 6-6)"
    )


class SeatRequest(_Client):
    """One seat of a table to create: a person, or a bot of a level the game has."""

    kind: Literal["person", "bot"]
    level: str | None = None
    name: str | None = None


class CreateTable(_Client):
    """The body of ``POST /api/tables``."""

    game: str
    options: dict[str, object] = Field(default_factory=dict)
    seats: list[SeatRequest]
    seed: int | None = None
    clock: float | None = Field(default=None, description="seconds a person has for each turn; null: no clock")
    name: str | None = Field(
        default=None, description="the table's name as the lobby shows it; null: one made from the table's id"
    )


class HostRequest(_Client):
    """The body of ``POST /api/tables/{table}/close``: the host token ``POST /api/tables`` gave."""

    host: str


class SeatToBot(_Client):
    """The body of ``POST /api/tables/{table}/seats/{seat}/bot``: the host token, and the bot's level."""

    host: str
    level: str | None = Field(default=None, description="a level the game has; null: the game's default level")


class CreatedSeat(_Server):
    """A seat of a new table, with its invite (persons only carry a token)."""

    seat: int
    kind: Literal["person", "bot"]
    name: str
    level: str | None
    token: str | None
    invite: str | None


class CreatedTable(_Server):
    """The answer to ``POST /api/tables``: the secret invites, shown once."""

    table: str
    name: str = Field(description="the table's readable name")
    seats: list[CreatedSeat]
    watch: str
    host: str = Field(description="the host token: it closes the table and hands an absent person's seat to a bot")


class SeatInfo(_Server):
    """A seat as everyone may see it."""

    seat: int
    kind: Literal["person", "bot"]
    name: str
    level: str | None = None
    connected: bool


class TableInfo(_Server):
    """A table (``GET /api/tables``, ``GET /api/tables/{table}``, the ``welcome`` frame)."""

    table: str
    name: str = Field(default="", description="the table's readable name (e.g. 'Amber Otter')")
    game: str
    status: Literal["waiting", "playing", "over"]
    seats: list[SeatInfo]
    created: float = Field(description="epoch seconds")
    options: dict[str, OptionValue]
    clock: float | None
    seq: int
    spectators: int
    draft: Draft = Field(default=None, description=DRAFT_DOC)
    hint: bool = Field(default=False, description="true when the game answers `hint` frames (a hint button makes sense)")
    jokers: list[str] = Field(
        default_factory=list, description="pieces that are wild though their notation does not say so (0-0 and 6-6)"
    )


class ErrorDetail(_Server):
    """Why a request was refused: a rule id and a sentence."""

    rule: str
    message: str


class ErrorBody(_Server):
    """An HTTP error answer (status 400, 403, 404, 413 or 422)."""

    error: ErrorDetail


# -- client -> server ----------------------------------------------------------------------


class Hello(_Client):
    """The first frame: a seat token, or null to watch."""

    type: Literal["hello"]
    token: str | None = None
    id: RequestId = None


class Act(_Client):
    """Play an action: its JSON form (``player`` may be left out) or its text as a person types it.

    ``text`` is read as at the line prompt, without the seat: positions counted
    from 1, the game's short forms read against the seat's view. ``seq`` is the state frame's ``seq`` the action was made against: when
    the game has moved on since, the action is refused (``STALE``) and nothing
    changes. Without it the action is judged against the game as it is.
    """

    type: Literal["act"]
    action: dict[str, object] | None = None
    text: str | None = Field(
        default=None,
        description="the action as a person types it at the line prompt: positions counted from 1, without the seat",
    )
    seq: int | None = Field(default=None, description="the seq of the state the action was made against")
    id: RequestId = None


class Pass(_Client):
    """Let the chance to act out of turn (a claim, a call) that the table asks the seat about now pass.

    Sent when the seat's state frame says it is ``asked`` with ``claim``
    true; ``seq`` is that frame's. Refused ``STALE`` against an older ``seq``
    and ``NOT-ASKED`` when the seat is not being asked about a chance out of
    turn. The table waits for this answer (or an ``act``) as it waits for a
    person's turn.
    """

    type: Literal["pass"]
    seq: int = Field(description="the seq of the state frame that asked the seat")
    id: RequestId = None


class Check(_Client):
    """Would the engine accept this action now? Or, in a free-table game, judge a draft table."""

    type: Literal["check"]
    action: dict[str, object] | str | None = None
    text: str | None = None
    table: list[list[str]] | None = None
    id: RequestId = None


class Legal(_Client):
    """List the seat's legal actions (the game's listing, in the stable order)."""

    type: Literal["legal"]
    id: RequestId = None


class Hint(_Client):
    """Ask the game's hint for the seat (nothing is played)."""

    type: Literal["hint"]
    id: RequestId = None


class Ping(_Client):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]
    id: RequestId = None


class Leave(_Client):
    """Give the seat up for now: the server closes the connection (the token stays valid)."""

    type: Literal["leave"]
    id: RequestId = None


ClientModel = Hello | Act | Pass | Check | Legal | Hint | Ping | Leave
"""A frame a client sends, read."""
ClientFrame = Annotated[ClientModel, Field(discriminator="type")]
CLIENT_TYPES = ("act", "check", "hello", "hint", "leave", "legal", "pass", "ping")


# -- server -> client ----------------------------------------------------------------------


class Clock(_Server):
    """The running turn clock: whose it is and when it runs out."""

    seat: int
    deadline: float = Field(description="epoch seconds")


class Asked(_Server):
    """What the table asks the seat now: to act on its turn, or (``claim``) whether to act out of turn."""

    claim: bool = Field(
        description="true: a chance to act out of turn (a claim, a call), which the seat takes with `act` or lets"
        " pass with `pass`; false: the seat's turn"
    )


class Welcome(_Server):
    """The answer to ``hello``: the seat the token opens (null: spectator) and the table."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    table: TableInfo
    id: RequestId = None


class ListedAction(_Server):
    """One legal action in its forms: JSON, the record's text, the command a person types (without the seat) and its words."""

    json_: Mapping[str, object] = Field(alias="json")
    text: str = Field(description="the action in the record's notation: positions counted from 0")
    typed: str = Field(description="the command a person types for it: positions counted from 1, as screens show")
    said: str = Field(
        default="",
        description="the action in a person's words, as a list of moves shows it: parts named, positions counted"
        " from 1, pieces by name ('reveal column 3, cell 4'; 'meld 3 dominoes: 3-4, 3-5, 3-6')",
    )

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)


class LegalActions(_Server):
    """A seat's legal actions now, in the game's stable order (at most :data:`MAX_LEGAL`)."""

    actions: list[ListedAction]
    truncated: bool = Field(description="true when there were more than the list holds")


class State(_Server):
    """The seat's view after ``seq`` accepted actions, with the new log lines and the seat's legal actions."""

    type: Literal["state"] = "state"
    seq: int
    view: Mapping[str, object] = Field(description="state.view(seat) exactly: docs/schema/<game>-view.json")
    log: list[str]
    seats: list[SeatInfo]
    clock: Clock | None
    status: Literal["waiting", "playing", "over"]
    legal: LegalActions | None = Field(
        default=None, description="the seat's legal actions as the `legal` frame lists them; null for a spectator"
    )
    asked: Asked | None = Field(
        default=None,
        description="set when the table waits for this seat's answer now (its turn, or a chance out of turn);"
        " null otherwise, and for a spectator",
    )


class Error(_Server):
    """A refused request: the rule id (a game's rule, STALE, TURN, PROTOCOL, FLOOD...), why, and its data."""

    type: Literal["error"] = "error"
    id: RequestId = None
    rule: str
    message: str = Field(description="why, with positions numbered as the records number them (from 0)")
    worded: str = Field(
        description="why, as a person reads it: positions counted from 1, seats by name, 'you' for this seat"
    )
    params: Mapping[str, object] | None = Field(
        default=None, description="the refusal's data (cells, columns, set numbers, pieces, totals), or null"
    )


class SetVerdict(_Server):
    """The engine's verdict on one set of a draft table."""

    index: int
    ok: bool
    rule: str | None
    message: str | None


class LineVerdict(_Server):
    """The engine's verdict on one line of a drafted grid (a ``check`` of a grid game's play).

    A line is a maximal row (``across``) or column of 2 or more touching
    tiles; a tile alone in both directions comes as a line of one cell with
    ``across`` null. ``cells`` are written ``ROW,COLUMN`` as the notation
    numbers them (from 0). ``message`` is the engine's reason with the line's
    place (notation numbers); ``says`` the same reason without the place, for
    a client that marks the line's cells itself (null when the line is valid).
    """

    across: bool | None
    cells: list[str]
    ok: bool
    rule: str | None
    message: str | None
    says: str | None


class Checked(_Server):
    """The answer to ``check``: would the engine accept it now (nothing changed)."""

    type: Literal["checked"] = "checked"
    id: RequestId = None
    ok: bool
    rule: str | None
    message: str | None
    worded: str | None = Field(default=None, description="the refusal as a person reads it (see `error`)")
    params: Mapping[str, object] | None = Field(default=None, description="the refusal's data (see `error`)")
    sets: list[SetVerdict] | None
    action: Mapping[str, object] | None = Field(default=None, description="the action judged, in its JSON form")
    lines: list[LineVerdict] | None = Field(
        default=None,
        description="in a grid game's play: each line the play touches (its cells, valid or not and why), else null",
    )


class LegalList(_Server):
    """The answer to ``legal``."""

    type: Literal["legal"] = "legal"
    id: RequestId = None
    actions: list[ListedAction]
    truncated: bool


class HintOut(_Server):
    """The answer to ``hint``: the presenter's lines and the suggested action (or null)."""

    type: Literal["hint"] = "hint"
    id: RequestId = None
    lines: list[str]
    action: Mapping[str, object] | None


class Pong(_Server):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
    id: RequestId = None


class Round(_Server):
    """A round (or the match) ended: the presenter's score lines."""

    type: Literal["round"] = "round"
    round: int
    match_over: bool
    lines: list[str]


ServerModel = Welcome | State | Error | Checked | LegalList | HintOut | Pong | Round
"""A frame the server sends, as its model."""
ServerFrame = Annotated[ServerModel, Field(discriminator="type")]


class ProtocolDocument(BaseModel):
    """Every message of the rummykit online protocol (see docs/online.md).

    Each property names one part: the HTTP bodies and the two kinds of
    WebSocket frame, each frame told apart by its ``type``.
    """

    client_frame: ClientFrame
    server_frame: ServerFrame
    games: list[GameOut]
    create_table: CreateTable
    created_table: CreatedTable
    table: TableInfo
    error: ErrorBody




# -- text at the edge ------------------------------------------------------------------------



_CLIENT: TypeAdapter[ClientModel] = TypeAdapter(ClientFrame)
SERVER: TypeAdapter[ServerModel] = TypeAdapter(ServerFrame)


def client_frame(data: object) -> ClientModel:
    """Read a decoded client frame; :class:`FrameError` with a plain sentence when it is malformed."""
    if not isinstance(data, dict):
        raise FrameError(f"a frame is a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise FrameError(f"unknown frame type {short(kind)}; the types are: {', '.join(CLIENT_TYPES)}")
    try:
        frame = _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "frame"
        raise FrameError(f"bad {kind} frame: {where}: {first['msg']}") from None
    return frame


def server_frame(data: object) -> ServerModel:
    """Validate a frame the server sent (tests use it on every frame they receive)."""
    return SERVER.validate_python(data)
