"""The replay viewer of ``rummykit tui``: step forward and back through a saved game record.

:func:`load_replay` reads a record (as ``rummykit replay`` does: every line
checked by the engine) and :class:`ReplayScreen` shows the game after any
number of its actions, as a spectator sees it or as one seat does, drawn by
the game's presenter, with the log of the events up to there told by the
presenter's narrator to the same audience.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from rummykit.engine.core import Action, GameState
from rummykit.errors import RecordError, RummykitError
from rummykit.presenters import presenter_for
from rummykit.presenters.base import Presenter, Style
from rummykit.records import Record, parse_record, start_state

__all__ = ["Replay", "ReplayScreen", "load_replay"]


@dataclass
class Replay:
    """A record read and checked: its name, the state before its actions, and the actions."""

    name: str
    record: Record
    start: GameState
    actions: list[Action]
    presenter: Presenter
    color: bool = True
    frames: dict[int | None, list[tuple[Mapping[str, object], int]]] = field(default_factory=dict)
    """Per audience (None: a spectator): the view after each number of actions, and how many log lines."""
    logs: dict[int | None, list[str]] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return list(self.start.players)

    def frames_for(self, seat: int | None) -> list[tuple[Mapping[str, object], int]]:
        """The audience's views after 0, 1, ... every action (worked out once, replaying the record)."""
        if seat not in self.frames:
            state = start_state(self.record)
            narrator = self.presenter.narrator(self.players, Style(color=self.color))
            log: list[str] = []
            frames: list[tuple[Mapping[str, object], int]] = []
            told = 0

            def tell() -> None:
                nonlocal told
                for event in state.history[told:]:
                    log.extend(narrator.describe(event.seen_by(seat)))
                told = len(state.history)

            tell()
            frames.append((json.loads(json.dumps(state.view(seat))), len(log)))
            for action in self.actions:
                state.apply(action)
                tell()
                frames.append((json.loads(json.dumps(state.view(seat))), len(log)))
            self.frames[seat] = frames
            self.logs[seat] = log
        return self.frames[seat]


def load_replay(file: str, color: bool = True) -> Replay:
    """Read and check a record (every action is replayed by the engine); a :class:`RummykitError` says
    what is wrong (a missing file, a malformed or illegal line, with its number)."""
    path = Path(file.strip()).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {file.strip()!r}: {exc.strerror if isinstance(exc, OSError) else exc}") from None
    record = parse_record(text)
    state = start_state(record)
    actions: list[Action] = []
    for number, line in record.actions:
        try:
            action = state.parse_action(line)
            state.apply(action)
        except RummykitError as exc:
            raise RecordError(f"{line!r}: {exc}", number) from None
        actions.append(action)
    start = start_state(record)
    return Replay(path.name, record, start, actions, presenter_for(start.info.id), color)


class ReplayScreen(Screen[None]):
    """A saved game, after any number of its actions: Left/Right step, Home/End jump, v changes whose eyes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back"),
        Binding("right", "step(1)", "Forward"),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("v", "audience", "Seen by"),
        Binding("escape", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: auto; padding: 0 1; background: $boost; }
    ReplayScreen #replay-main { height: 1fr; }
    ReplayScreen #replay-table { width: 3fr; padding: 0 1; }
    ReplayScreen #replay-log { width: 2fr; border: round $primary; padding: 0 1; }
    """

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.at = 0
        """How many actions have been applied."""
        self.seat: int | None = None
        """Whose eyes (None: a spectator's)."""

    def compose(self) -> ComposeResult:
        yield Static(id="replay-head")
        with Horizontal(id="replay-main"):
            with VerticalScroll(id="replay-table"):
                yield Static(id="replay-screen")
            with VerticalScroll(id="replay-log"):
                yield Static(id="replay-events")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def on_resize(self) -> None:
        self.draw()

    def draw(self) -> None:
        replay = self.replay
        frames = replay.frames_for(self.seat)
        view, told = frames[self.at]
        total = len(replay.actions)
        who = "a spectator" if self.seat is None else replay.players[self.seat]
        last = f"; last: {replay.actions[self.at - 1]}" if self.at else "; before the first action"
        head = f"Replay of {replay.name}: {replay.start.info.name}, action {self.at} of {total}{last}. Seen by {who}."
        self.query_one("#replay-head", Static).update(head)
        panel = self.query_one("#replay-table")
        style = Style(color=replay.color, width=max(30, (panel.content_region.width or 60) - 1))
        lines = replay.presenter.screen(view, [], style)
        self.query_one("#replay-screen", Static).update(Text.from_ansi("\n".join(lines)))
        log = replay.logs[self.seat][:told]
        self.query_one("#replay-events", Static).update(Text.from_ansi("\n".join(log[-200:])))
        self.query_one("#replay-log", VerticalScroll).scroll_end(animate=False)

    def action_step(self, step: int) -> None:
        self.at = max(0, min(len(self.replay.actions), self.at + step))
        self.draw()

    def action_jump(self, where: int) -> None:
        self.at = len(self.replay.actions) if where < 0 else where
        self.draw()

    def action_audience(self) -> None:
        """A spectator, then each seat in turn."""
        seats: list[int | None] = [None, *range(len(self.replay.players))]
        self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
        self.draw()

    def action_close(self) -> None:
        self.dismiss(None)
