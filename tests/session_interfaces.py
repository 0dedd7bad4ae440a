"""One game played through each interface with the same person's lines typed: the record each saves.

A :class:`Typist` chooses each line a person types from the live game (a
policy bot's move at that seat, spelled as the person's command), keyed by
the position, so two interfaces that reach the same positions are typed the
same lines. Each ``play_*`` function takes a fresh state, the seats (a bot,
or None for a person), a typist and a file, plays the game to its end
through one interface and returns the record text it saved. The test of the
session (``tests/test_session_records.py``) compares them byte for byte; a
further interface is one more function of this shape.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, cast

import httpx
import websockets
from test_server_support import serving
from textual.widgets import Input

from rummykit.bots.base import Bot, make_bot
from rummykit.cli.play import Console, Session
from rummykit.cli.start import GameSetup, RecordPlan
from rummykit.engine.core import Action, GameState
from rummykit.engine.driver import Claimer
from rummykit.engine.rng import Rng
from rummykit.presenters import presenter_for
from rummykit.presenters.text import Style
from rummykit.rulesets.freetable import Play
from rummykit.server.app import create_app
from rummykit.tui.app import GameApp, ScoreScreen

Interface = Callable[[GameState, Sequence[Bot | None], "Typist", Path], str]
"""Plays a game to its end through one interface, a person's lines typed by the typist; the record text."""

PROMPT = re.compile(r"^(.+)'s (\w+)> $")


class Typist:
    """The lines a person types, chosen from the live game: the same position gets the same lines.

    At a position first asked about, the policy bot (``level``, its generator
    seeded by the position) chooses the seat's move from the seat's view, or
    its claim out of turn (none, or at every third position: an empty line
    lets the chance pass); the move is spelled as the presenter's command. A free-table play that lays new
    sets from the rack and leaves the table's sets as they were is typed as
    ``new ...`` per set and ``commit``; any other free-table play is replaced
    by ``draw`` (``pass`` once the pool is empty). ``typed`` keeps every line with its seat.
    """

    def __init__(self, state: GameState, level: str = "greedy", *, limit: int = 5_000) -> None:
        self.state = state
        self.policy = make_bot(level, state.info.id)
        self.presenter = presenter_for(state.info.id)
        self.queue: list[str] = []
        self.at: tuple[int, int] | None = None
        self.typed: list[tuple[int, str]] = []
        self.limit = limit

    def line(self, seat: int) -> str:
        """The next line the person at ``seat`` types now."""
        at = (len(self.state.actions), seat)
        if at != self.at:
            self.at = at
            self.queue = self.plan(seat)
        if not self.queue:
            raise AssertionError(f"seat {seat} was asked again at move {at[0]} after its lines were typed")
        if len(self.typed) >= self.limit:
            raise AssertionError(f"more than {self.limit} lines typed: the game does not end")
        line = self.queue.pop(0)
        self.typed.append((seat, line))
        return line

    def plan(self, seat: int) -> list[str]:
        state = self.state
        view = state.view(seat)
        rng = Rng(len(state.actions) * 101 + seat + 1)
        action: Action | None
        if seat in state.must_act:
            action = self.policy.choose(view, rng)
        else:
            assert isinstance(self.policy, Claimer), f"{self.policy.level} makes no claims"
            action = self.policy.claim(view, rng) if len(state.actions) % 3 else None
            if action is None:
                return [""]
        if isinstance(action, Play):
            table = cast("list[list[str]]", cast("dict[str, object]", view)["table"])
            return self.draft(action, table, "draw" if view["stock_count"] else "pass")
        return [self.presenter.command_text(action)]

    def draft(self, play: Play, table: list[list[str]], instead: str) -> list[str]:
        """A free-table play as draft commands (``instead``, when it moves pieces already on the table)."""
        left = Counter(tuple(s) for s in table)
        new: list[list[str]] = []
        for pieces in play.table:
            shown = tuple(str(p) for p in pieces)
            if left[shown]:
                left[shown] -= 1
            else:
                new.append(list(shown))
        placed = sorted(str(p) for p in play.placed)
        if +left or sorted(p for s in new for p in s) != placed:
            return [instead]
        return [*("new " + " ".join(s) for s in new), "commit"]


# -- the line prompt ---------------------------------------------------------------------------


class _Keys:
    """Standard input for the line prompt: each line typed as its prompt asks (one person, no hot-seat)."""

    def __init__(self, typist: Typist, out: io.StringIO) -> None:
        self.typist = typist
        self.out = out
        self.names = list(typist.state.players)

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        prompt = PROMPT.match(text[text.rfind("\n") + 1 :])
        assert prompt is not None, text[-500:]
        return self.typist.line(self.names.index(prompt[1])) + "\n"


def play_at_prompt(state: GameState, bots: Sequence[Bot | None], typist: Typist, record: Path) -> str:
    """The game through the line prompt (:class:`~rummykit.cli.play.Session`); the record it saved."""
    out, err = io.StringIO(), io.StringIO()
    console = Console(cast(TextIO, _Keys(typist, out)), out, err)
    status = Session(state, bots, console, Style(), record_path=record).run()
    assert status == 0 and state.outcome is not None, (err.getvalue(), out.getvalue()[-2000:])
    return record.read_text(encoding="utf-8")


# -- the terminal app --------------------------------------------------------------------------


def play_in_app(state: GameState, bots: Sequence[Bot | None], typist: Typist, record: Path) -> str:
    """The game through the terminal app, each line typed into its command line; the record it saved."""
    setup = GameSetup(state, list(bots), presenter_for(state.info.id), RecordPlan(path=record))
    app = GameApp(setup, bot_delay=0, color=False)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(typist.limit * 4):
                await pilot.pause()
                screen = app.screen
                if isinstance(screen, ScoreScreen):
                    await pilot.press("escape" if screen.final else "enter")
                elif app.turn is not None and app.seat is not None:
                    command = app.query_one("#command", Input)
                    command.focus()
                    await pilot.press(*typist.line(app.seat), "enter")
                elif state.outcome is not None and app.screen is app.screen_stack[0]:
                    break
            else:
                raise AssertionError("the game did not end")
            await pilot.press("ctrl+q")

    asyncio.run(asyncio.wait_for(run(), timeout=600))
    assert app.saved is not None and app.saved.path == record and not app.save_errors, app.save_errors
    return record.read_text(encoding="utf-8")


# -- the server -----------------------------------------------------------------------------------

SERVER_TIMEOUT = 60.0
"""Seconds the server play waits for any one frame or answer before it fails."""


def play_on_server(state: GameState, bots: Sequence[Bot | None], typist: Typist, record: Path) -> str:
    """The game served by ``rummykit serve`` (uvicorn, a database in ``record``'s folder), the person at a real
    WebSocket; the record the server gives for the finished table (``GET /api/tables/{table}/record``).

    The table is made with the state's seed, options and seat names, the bots' levels and one person. Each
    state frame that asks the person (``asked``) is answered once: the typist's lines go to the game's
    :class:`~rummykit.presenters.base.Turn` for that view, as the line prompt's do, until one makes an action,
    which is sent as text with the frame's ``seq``; an empty line asked about a chance out of turn is a
    ``pass`` frame. ``state`` is kept in step with the server's game (for the typist, which chooses from it),
    action by action, up to the ``seq`` of each frame.
    """
    info = state.info
    names = list(state.players)
    person = next(seat for seat, bot in enumerate(bots) if bot is None)
    presenter = presenter_for(info.id)
    labels = [f"bot {bot.level}" if bot is not None else "you" for bot in bots]
    app = create_app(f"sqlite:///{record.parent / f'{record.stem}-server.db'}")
    seats = [
        {"kind": "person", "name": name} if bot is None else {"kind": "bot", "level": bot.level, "name": name}
        for name, bot in zip(names, bots, strict=True)
    ]

    def catch_up(table: str, seq: int) -> None:
        served = app.state.hall.rooms[table].state
        for action in served.actions[len(state.actions) : seq]:
            state.apply(info.parse_action(str(action)))

    async def answer(ws: websockets.ClientConnection, frame: dict[str, object], claim: bool) -> None:
        view = frame["view"]
        assert isinstance(view, dict)
        turn = presenter.turn(view, say=lambda *lines: None, style=Style(), labels=labels,
                              parse_action=state.parse_action)
        while True:
            line = typist.line(person)
            if claim and not line.strip():
                await ws.send(json.dumps({"type": "pass", "seq": frame["seq"]}))
                return
            action = turn.command(line)
            if action is not None:
                await ws.send(json.dumps({"type": "act", "action": action.to_json(), "seq": frame["seq"]}))
                return

    async def play(base: str) -> str:
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=SERVER_TIMEOUT) as http:
            made = await http.post(
                "/api/tables",
                json={"game": info.id, "seed": state.seed, "options": dict(state.options), "seats": seats},
            )
            assert made.status_code == 200, made.text
            table = made.json()["table"]
            token = made.json()["seats"][person]["token"]
            async with websockets.connect(f"ws://{base}/ws/{table}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                answered: tuple[int, bool] | None = None
                for _ in range(typist.limit * 20):
                    frame = json.loads(await asyncio.wait_for(ws.recv(), SERVER_TIMEOUT))
                    assert frame["type"] != "error", frame
                    if frame["type"] != "state":
                        continue
                    catch_up(table, frame["seq"])
                    if frame["status"] == "over":
                        break
                    asked = frame["asked"]
                    if asked is None or (frame["seq"], asked["claim"]) == answered:
                        continue  # another seat is asked, or this question was answered already
                    answered = (frame["seq"], asked["claim"])
                    await answer(ws, frame, asked["claim"])
                else:
                    raise AssertionError("the game did not end")
            got = await http.get(f"/api/tables/{table}/record")
            assert got.status_code == 200, got.text
            return got.text

    with serving(app) as base:
        text = asyncio.run(asyncio.wait_for(play(base), timeout=600))
    record.write_text(text, encoding="utf-8")
    return text


INTERFACES: dict[str, Interface] = {"prompt": play_at_prompt, "app": play_in_app, "server": play_on_server}
"""Every interface a person plays through, by name."""
