"""The FastAPI app of ``rummykit serve``: the lobby over HTTP, the games over WebSockets.

:func:`create_app` opens the database, restores every unfinished table
(refusing to start when one does not replay to its stored snapshot) and
returns the app. See ``docs/online.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit import __version__
from rummykit.bots.registry import bot_levels
from rummykit.catalogue import find_game, offered
from rummykit.engine.core import GameInfo, check_seed
from rummykit.engine.options import resolve_options
from rummykit.engine.rng import MAX_SEED
from rummykit.errors import OptionError, RummykitError, UnknownGameError
from rummykit.presenters.registry import presenter_for
from rummykit.server import protocol as p
from rummykit.server.connection import MAX_FRAME, MAX_TRANSPORT, serve_connection
from rummykit.server.frames import (
    Status,
)
from rummykit.server.gcpace import GcPacer
from rummykit.server.guides import GuideOut, guide_out
from rummykit.server.integrity import RestoreError, fingerprint, token_hash
from rummykit.server.making import make_seats, make_session, restore, stored_record
from rummykit.server.names import new_table_id, new_token, table_name
from rummykit.server.refusals import Refusal
from rummykit.server.rooms import Room
from rummykit.server.store import DEFAULT_DB, SeatRow, Store, TableRow
from rummykit.server.writer import Writer

__all__ = ["DEFAULT_EXPIRY", "MAX_BODY", "MAX_FRAME", "MAX_TRANSPORT", "RestoreError", "create_app"]

log = logging.getLogger("rummykit.server")

MAX_BODY = 16 * 1024
"""The largest HTTP request body, in bytes (larger: 413)."""
STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_EXPIRY = 2 * 3600.0
"""Seconds a table may go untouched, with no page open on it, before it expires (``rummykit serve --expire-after``)."""
GONE_KEPT = 10_000
"""How many closed or expired tables the server remembers (to tell a page why its table is gone)."""

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rummykit</title></head>
<body><h1>rummykit server</h1>
<p>The browser client is not built: this installation has no <code>rummykit/server/static/index.html</code>.
The server itself runs; its API is at <a href="/api/games">/api/games</a> and described at
<a href="/docs">/docs</a>.</p></body></html>
"""


def _error(status: int, rule: str, message: str) -> JSONResponse:
    detail = p.ErrorDetail(rule=rule, message=p.bounded(message))
    return JSONResponse(status_code=status, content=p.ErrorBody(error=detail).model_dump())


class BodyGuard:
    """Checks every HTTP request body before the app reads it: at most ``limit`` bytes, JSON nested at most ``MAX_DEPTH``.

    A larger body gets 413 (rule ``REQUEST``), read no further than the
    limit; a JSON body that nests too deep or holds a lone surrogate gets 422
    (rule ``REQUEST``), so no decoder meets it.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_big = _error(413, "REQUEST", f"a request body is at most {self.limit} bytes")
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await too_big(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:  # every body this API takes is JSON (FastAPI reads one without a content type as JSON too)
            try:
                p.decode_json(body.decode("utf-8"), "a request body")
            except p.FrameError as exc:
                await _error(422, "REQUEST", str(exc))(scope, receive, send)
                return
            except UnicodeDecodeError:
                await _error(422, "REQUEST", "a request body is UTF-8 text")(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class Hall:
    """Every room of this server process."""

    def __init__(self, store: Store, bot_delay: float, expire_after: float = DEFAULT_EXPIRY) -> None:
        self.store = store
        self.writer = Writer(store)
        self.bot_delay = bot_delay
        self.expire_after = expire_after
        self.rooms: dict[str, Room] = {}
        self.gone: dict[str, str] = {}
        """Why each table closed in this process (by its host, or expired): what a page opening it is told."""

    def missing(self, table_id: str) -> str:
        """What a page asking for a table this server does not have is told."""
        return self.gone.get(table_id) or f"there is no table {p.short(table_id)} on this server"

    async def close_room(self, room: Room, why: str) -> None:
        """Close a table: its pages are told ``why``, it leaves the list and the server; the store marks it closed."""
        self.rooms.pop(room.id, None)
        self.gone[room.id] = why
        while len(self.gone) > GONE_KEPT:
            del self.gone[next(iter(self.gone))]
        await room.shut_down(why)
        await asyncio.to_thread(self.store.close_table, room.id)

    async def expire(self, now: float | None = None) -> list[str]:
        """Close every table untouched for :attr:`expire_after` seconds with no page open on it; their ids.

        A finished table only leaves the server's memory (its record stays
        available from the database).
        """
        now = time.time() if now is None else now
        done: list[str] = []
        for room in list(self.rooms.values()):
            if room.conns or now - room.touched < self.expire_after:
                continue
            if room.status == "over":
                self.rooms.pop(room.id, None)
                await room.close()
            else:
                idle = _duration(self.expire_after)
                await self.close_room(room, f"table {room.name} expired: nobody had opened or played it for {idle}")
                log.info("table %s expired", room.id)
            done.append(room.id)
        return done

    async def expire_forever(self) -> None:
        """Look for tables to expire, again and again (a few times per :attr:`expire_after`, at most once a minute)."""
        every = min(60.0, max(0.05, self.expire_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire()
            except Exception:  # one failure to close a table must not stop the others from expiring later
                log.exception("expiring tables failed")

    def restore_all(self) -> None:
        for stored in self.store.load():
            room = restore(stored, self.store, self.bot_delay, self.writer)
            for i, seat in enumerate(room.seats):
                shown = p.display_text(seat.name)
                if shown != seat.name:
                    # Stored before names were checked: shown escaped (the game keeps the stored name).
                    log.warning("table %s: seat %d's stored name %s is shown as %r", room.id, i, p.short(seat.name), shown)
                    seat.name = shown
            self.rooms[stored.id] = room


def _duration(seconds: float) -> str:
    """A duration in words, e.g. '2 hours', '90 seconds'."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def _game_out(info: GameInfo) -> p.GameOut:
    options = []
    for spec in info.options:
        kind: Literal["int", "bool", "str"] = "bool" if spec.kind is bool else "int" if spec.kind is int else "str"
        choices: list[str] | list[int] | None = list(spec.choices) or list(spec.values) or None
        options.append(
            p.OptionOut(
                name=spec.name,
                help=spec.help,
                default=spec.default,
                kind=kind,
                choices=choices,
                min=spec.minimum,
                max=spec.maximum,
                allow_none=spec.allow_none,
            )
        )
    return p.GameOut(
        id=info.id,
        title=info.name,
        summary=info.summary,
        min_players=info.min_players,
        max_players=info.max_players,
        options=options,
        bot_levels=bot_levels(info.id),
        free_table=info.draft == "table",
        draft=info.draft,
        hint=presenter_for(info.id).hint,
        jokers=list(info.wild_pieces),
    )


def _origin_ok(websocket: WebSocket, allowed: Sequence[str]) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower() and host != ""


def create_app(
    db_url: str | None = None,
    *,
    allowed_origins: Sequence[str] = (),
    bot_delay: float = 0.0,
    schema: str | None = None,
    static_dir: Path | None = None,
    flood_rate: float = 15.0,
    chosen_seeds: bool = False,
    expire_after: float = DEFAULT_EXPIRY,
    gc_pacing: bool = False,
) -> FastAPI:
    """The server app on the database ``db_url`` (default: ``sqlite:///rummykit-server.db``).

    Restores every unfinished table first; raises :class:`RestoreError` when
    one does not replay to its stored snapshot. ``schema`` keeps the tables in
    that PostgreSQL schema (tests). ``flood_rate`` is the frames per second a
    connection may send (twice that at once). ``chosen_seeds`` lets a table
    with two or more people be opened with a chosen seed (whoever chose it can
    work out every hidden piece, so by default only tables with at most one
    person may have one). ``expire_after`` is how many seconds a table may go
    untouched with no page open on it before it expires (see :meth:`Hall.expire`).
    ``gc_pacing`` paces the garbage collector while the app runs (:class:`~rummykit.server.gcpace.GcPacer`:
    ``rummykit serve`` turns it on; it changes the collector of the whole process).
    """
    store = Store(db_url or DEFAULT_DB, schema=schema)
    hall = Hall(store, bot_delay, expire_after)
    try:
        hall.restore_all()
    except BaseException:
        store.close()
        raise
    static = static_dir or STATIC

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for room in hall.rooms.values():
            room.start()
        loop = asyncio.get_running_loop()
        expiry = loop.create_task(hall.expire_forever())
        pacing = loop.create_task(GcPacer().run()) if gc_pacing else None
        yield
        for task in (expiry, pacing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for room in list(hall.rooms.values()):
            await room.close()
        store.close()

    app = FastAPI(title="rummykit", version=__version__, lifespan=lifespan)
    app.add_middleware(BodyGuard, limit=MAX_BODY)
    app.state.hall = hall
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "malformed request"}
        where = ".".join(str(x) for x in first.get("loc", ())[1:]) or "body"
        return _error(422, "REQUEST", f"{where}: {first.get('msg')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, "HTTP", str(exc.detail))

    @app.get("/api/games", response_model=list[p.GameOut])
    def list_games() -> list[p.GameOut]:
        return [_game_out(info) for info in offered()]

    @app.get("/api/games/{game}/guide", response_model=GuideOut, responses={404: {"model": p.ErrorBody}})
    def game_guide(game: str) -> GuideOut | JSONResponse:
        try:
            return guide_out(game)
        except UnknownGameError as exc:
            return _error(404, "GAME", str(exc))

    @app.post("/api/tables", response_model=p.CreatedTable, responses={400: {"model": p.ErrorBody}})
    async def create_table(body: p.CreateTable) -> p.CreatedTable | JSONResponse:
        try:
            info = find_game(body.game)
        except UnknownGameError as exc:
            return _error(400, "GAME", str(exc))
        n = len(body.seats)
        if not info.min_players <= n <= info.max_players:
            return _error(400, "SEATS", f"{info.id} is for {info.player_span} players, not {n}")
        levels = bot_levels(info.id)
        seats: list[SeatRow] = []
        tokens: list[str | None] = []
        for i, seat in enumerate(body.seats):
            try:
                name = p.clean_name(seat.name or "")
            except p.BadName as exc:
                return _error(400, "NAME", f"seat {i}: {exc}")
            name = name or (f"bot {i + 1}" if seat.kind == "bot" else f"player {i + 1}")
            if seat.kind == "bot":
                level = (seat.level or ("greedy" if "greedy" in levels else levels[0])).strip().lower()
                if level not in levels:
                    return _error(
                        400, "SEATS", f"seat {i}: {info.id} has no {p.short(level)} bot; its levels are: {', '.join(levels)}"
                    )
                seats.append({"kind": "bot", "name": name, "level": level, "token_hash": None})
                tokens.append(None)
            else:
                token = new_token()
                seats.append({"kind": "person", "name": name, "level": None, "token_hash": token_hash(token)})
                tokens.append(token)
        names = [s["name"] for s in seats]
        if len(set(names)) != len(names):
            return _error(400, "NAME", f"seat names must differ: {', '.join(names)}")
        people = sum(1 for s in seats if s["kind"] == "person")
        if body.seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif people > 1 and not chosen_seeds:
            return _error(
                400,
                "SEED",
                "a table with more than one person gets a random seed: whoever chose the seed could work out "
                "every hidden piece (a chosen seed is for a table with at most one person)",
            )
        else:
            try:
                seed = check_seed(body.seed)
            except OptionError as exc:
                return _error(400, "SEED", str(exc))
        if body.clock is not None and not 1 <= body.clock <= 24 * 3600:
            return _error(400, "CLOCK", "a turn clock is between 1 second and 24 hours, or null")
        try:
            chosen_name = p.clean_name(body.name or "")
        except p.BadName as exc:
            return _error(400, "NAME", str(exc).replace("a seat name", "a table name"))
        try:
            # The game's own specs check every name and value; only its options reach the game.
            options = resolve_options(info.options, body.options)
            state = info.new(players=names, seed=seed, **options)
        except RummykitError as exc:
            return _error(400, "OPTION", str(exc))
        table_id = new_table_id()
        name = chosen_name or table_name(table_id)
        host = new_token()
        status: Status = "playing" if all(s["kind"] == "bot" for s in seats) else "waiting"
        created = time.time()
        row: TableRow = {
            "id": table_id,
            "game": info.id,
            "options": dict(state.options),
            "seed": seed,
            "seats": seats,
            "clock": body.clock,
            "status": status,
            "created": created,
            "seq": 0,
            "snapshot": fingerprint(state),
            "spectator_view": state.view(None),
            "bot_draws": [0] * n,
            "name": name,
            "host": token_hash(host),
        }
        await asyncio.to_thread(store.create_table, row)
        room = Room(
            table_id=table_id,
            info=info,
            session=make_session(info, state, seats),
            seats=make_seats(seats),
            clock=body.clock,
            status=status,
            created=created,
            store=store,
            writer=hall.writer,
            bot_delay=hall.bot_delay,
            name=name,
            host=token_hash(host),
        )
        hall.rooms[table_id] = room
        room.start()
        out = [
            p.CreatedSeat(
                seat=i,
                kind=s["kind"],
                name=s["name"],
                level=s["level"],
                token=tok,
                invite=None if tok is None else f"/t/{table_id}#seat={i}&token={tok}",
            )
            for i, (s, tok) in enumerate(zip(seats, tokens, strict=True))
        ]
        return p.CreatedTable(table=table_id, name=name, seats=out, watch=f"/t/{table_id}", host=host)

    @app.get("/api/tables", response_model=list[p.TableInfo])
    def list_tables() -> list[p.TableInfo]:
        """The tables being played or waiting for players (a finished or closed table is not listed)."""
        rooms = sorted((r for r in hall.rooms.values() if r.status != "over"), key=lambda r: r.created)
        return [info for info in (_listed(room) for room in rooms) if info is not None]

    def _hosted(table_id: str, host: str) -> Room | JSONResponse:
        room = hall.rooms.get(table_id)
        if room is None:
            return _error(404, "TABLE", hall.missing(table_id))
        if not room.hosted_by(host):
            return _error(403, "HOST", f"only the host of table {room.name} may do this: the host token does not match")
        return room

    @app.post(
        "/api/tables/{table_id}/close",
        response_model=p.TableInfo,
        responses={403: {"model": p.ErrorBody}, 404: {"model": p.ErrorBody}},
    )
    async def close_table(table_id: str, body: p.HostRequest) -> p.TableInfo | JSONResponse:
        """The host closes a table: its pages are told, it leaves the list; the answer is the table as it was."""
        room = _hosted(table_id, body.host)
        if isinstance(room, JSONResponse):
            return room
        info = room.info_model()
        await hall.close_room(room, f"table {room.name} was closed by its host")
        return info

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/bot",
        response_model=p.TableInfo,
        responses={400: {"model": p.ErrorBody}, 403: {"model": p.ErrorBody}, 404: {"model": p.ErrorBody}, 409: {"model": p.ErrorBody}},
    )
    async def seat_to_bot(table_id: str, seat: int, body: p.SeatToBot) -> p.TableInfo | JSONResponse:
        """The host hands a person's seat (numbered from 0 here, as in invites) to a bot; the game goes on."""
        room = _hosted(table_id, body.host)
        if isinstance(room, JSONResponse):
            return room
        levels = bot_levels(room.info.id)
        level = (body.level or ("greedy" if "greedy" in levels else levels[0])).strip().lower()
        if level not in levels:
            return _error(400, "SEATS", f"{room.info.id} has no {p.short(level)} bot; its levels are: {', '.join(levels)}")
        try:
            await room.hand_to_bot(seat, level)
        except Refusal as exc:
            return _error(409 if exc.rule == "OVER" else 400, exc.rule, str(exc))
        return room.info_model()

    @app.get("/api/tables/{table_id}", response_model=p.TableInfo, responses={404: {"model": p.ErrorBody}})
    def get_table(table_id: str) -> p.TableInfo | JSONResponse:
        room = hall.rooms.get(table_id)
        if room is None:
            return _error(404, "TABLE", hall.missing(table_id))
        info = _listed(room)
        if info is None:
            return _error(404, "TABLE", f"table {p.short(table_id)} cannot be shown (the server's log says why)")
        return info

    @app.get(
        "/api/tables/{table_id}/record",
        response_class=PlainTextResponse,
        responses={404: {"model": p.ErrorBody}, 409: {"model": p.ErrorBody}},
    )
    async def table_record(table_id: str) -> Response:
        """The record of a finished table, from what the database holds (``rummykit replay`` reads it)."""
        found = await asyncio.to_thread(store.load, unfinished_only=False, table_id=table_id)
        if not found:
            return _error(404, "TABLE", f"there is no table {p.short(table_id)} on this server")
        stored = found[0]
        if stored.status != "over":
            return _error(
                409, "NOT-OVER", "a table's record is given once its game is over: it names the seed, which tells every hidden piece"
            )
        try:
            text = await asyncio.to_thread(stored_record, stored)
        except RestoreError as exc:
            log.error("%s", exc)
            return _error(500, "SERVER", "this table's stored actions do not replay; the fault is logged")
        name = f"rummykit-{stored.game}-{stored.seed}.txt"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def _page() -> Response:
        index = static / "index.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(NOT_BUILT)

    @app.get("/", include_in_schema=False)
    def root() -> Response:
        return _page()

    @app.get("/t/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> Response:
        return _page()

    @app.get("/assets/{path:path}", include_in_schema=False)
    def assets(path: str) -> Response:
        base = (static / "assets").resolve()
        target = (base / path).resolve()
        if not target.is_relative_to(base) or not target.is_file():
            return _error(404, "HTTP", "no such file")
        return FileResponse(target)

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        if not _origin_ok(websocket, allowed_origins):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):  # the client left while it was being answered
            await serve_connection(websocket, hall, table_id, flood_rate)

    return app


_UNLISTED: set[str] = set()
"""Tables already logged as left out of the list (each is logged once per process)."""


def _listed(room: Room) -> p.TableInfo | None:
    """A room as the lobby lists it, or None (logged) when it cannot be shown: one bad table hides only itself."""
    try:
        return room.info_model()
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # ValidationError is a ValueError
        if room.id not in _UNLISTED:
            _UNLISTED.add(room.id)
            log.warning("table %s is left out of the list: %s", room.id, p.bounded(" ".join(str(exc).split())))
        return None
