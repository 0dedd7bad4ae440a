"""The start screen of ``rummykit tui``: choose a game and its seats, options and seed, or resume a saved one.

Everything on it comes from the catalogue (the games, their one-line
summaries, player ranges and bot levels) and from each game's
:class:`~rummykit.engine.options.OptionSpec` (name, help, allowed values);
every value is checked by the engine's own conversion
(:meth:`~rummykit.engine.options.OptionSpec.convert`, then the game's
constructor), and a refusal is shown next to the field it is about.
:func:`new_setup` and :func:`resume_choice` make the
:class:`~rummykit.cli.start.GameSetup` the game screen plays, as
``rummykit play`` would from the same choices on its command line.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Mapping, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from rummykit.bots.registry import bot_levels, make_bot
from rummykit.catalogue import DEFAULT_GAME, find_game, games
from rummykit.cli.start import DEFAULT_BOT, FALLBACK_BOT, RANDOM_SEEDS, GameSetup, record_plan, resume_setup
from rummykit.engine.core import GameInfo, check_seed
from rummykit.engine.options import OptionSpec, resolve_options
from rummykit.errors import OptionError, RummykitError
from rummykit.presenters import presenter_for

SPEED_NAMES = ("fast", "normal", "slow", "step")
"""The bot speeds offered (the app's ``SPEEDS``)."""

__all__ = ["PERSON", "StartScreen", "default_levels", "new_setup", "resume_choice"]

PERSON = "person"
"""The seat choice for a person at this screen (every other choice is a bot level)."""


def default_levels(info: GameInfo, players: int) -> list[str]:
    """The seats offered first: a person, then bots of the usual level (``greedy`` where it plays the game)."""
    levels = bot_levels(info.id)
    bot = DEFAULT_BOT if DEFAULT_BOT in levels else FALLBACK_BOT if FALLBACK_BOT in levels else levels[0]
    return [PERSON] + [bot] * (players - 1)


def new_setup(
    game: str,
    seats: Sequence[str],
    options: Mapping[str, str],
    seed: str,
    args: argparse.Namespace,
    environ: Mapping[str, str] | None,
) -> GameSetup:
    """A new game from the start screen's choices: ``seats`` holds :data:`PERSON` or a bot level per seat.

    Options are given as text and converted by the game's option specs; a
    blank seed draws one. Every refusal is an :class:`OptionError` (or the
    game's own error) saying what is wrong.
    """
    info = find_game(game)
    resolve_options(info.options, options)
    text = seed.strip()
    if text:
        try:
            number = int(text)
        except ValueError:
            raise OptionError(f"a seed is a whole number from 0 to {2**63 - 1}, got {text!r}") from None
        check_seed(number)
    else:
        number = secrets.randbelow(RANDOM_SEEDS)
    bots = [None if level == PERSON else make_bot(level, info.id) for level in seats]
    presenter = presenter_for(info.id)
    if None in bots and not presenter.playable:
        raise OptionError(f"{info.id} cannot be played by people here yet; make every seat a bot to watch it")
    plan = record_plan(args, environ)
    state = info.new(players=len(seats), seed=number, **options)
    return GameSetup(state, bots, presenter, plan, notes=[plan.note] if plan.note else [])


def resume_choice(file: str, args: argparse.Namespace, environ: Mapping[str, str] | None) -> GameSetup:
    """A saved game from the start screen, resumed as ``rummykit tui --resume FILE`` would."""
    if not file.strip():
        raise OptionError("type the path of a saved game to resume")
    fields: dict[str, object] = {
        "game": None, "seed": None, "option": [], "names": None, "players": None, "bots": None, "bot": None,
        "record": None, "no_record": False,
    }
    fields.update({k: v for k, v in vars(args).items() if k in ("record", "no_record")})
    fields["resume"] = file.strip()
    return resume_setup(argparse.Namespace(**fields), environ)


def one_line(exc: BaseException) -> str:
    return "! " + " ".join(str(exc).split())


class StartScreen(Screen[GameSetup | None]):
    """Choose a game, its players (people or bots of a level), its options and seed; or resume a saved game.

    Dismissed with the :class:`GameSetup` made, or ``None`` (Escape) to go back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "start", "Start", priority=True),
    ]
    DEFAULT_CSS = """
    StartScreen VerticalScroll { padding: 0 1; }
    StartScreen Vertical { height: auto; }
    StartScreen .heading { text-style: bold; margin-top: 1; }
    StartScreen .help { color: $text-muted; }
    StartScreen .error { color: $error; }
    StartScreen .row { height: auto; }
    StartScreen .row Label { width: 16; padding-top: 1; }
    StartScreen .row Select { width: 1fr; }
    StartScreen Input { width: 1fr; }
    StartScreen Button { margin: 1 1 0 0; }
    """

    def __init__(self, args: argparse.Namespace, environ: Mapping[str, str] | None, game: str | None = None) -> None:
        super().__init__()
        self.args = args
        self.environ = environ
        self.infos = games()
        self.info = find_game(game if game is not None else DEFAULT_GAME)
        self.building = 0
        """Rebuilds of the seats and options under way (the start waits for them)."""

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        info = self.info
        with VerticalScroll(id="start"):
            yield Static("New game", classes="heading")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select(
                    [(g.name, g.id) for g in self.infos], value=info.id, allow_blank=False, id="game"
                )
            yield Static(info.summary, id="summary", classes="help")
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select(self.player_choices(info), value=self.default_players(info), allow_blank=False, id="players")
            yield Vertical(*self.seat_rows(info, self.default_players(info)), id="seats")
            yield Static("Options", classes="heading")
            yield Vertical(*self.option_rows(info), id="options")
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input(self.default_seed(), placeholder="blank: a random one", id="seed")
            with Horizontal(classes="row"):
                yield Label("Bot speed")
                yield Select([(name, name) for name in SPEED_NAMES], value=self.speed(), allow_blank=False, id="speed")
            yield Static("", id="start-error", classes="error")
            yield Button("Start (Ctrl+S)", id="start-game", variant="primary")
            yield Static("Or resume a saved game", classes="heading")
            with Horizontal(classes="row"):
                yield Label("Saved game")
                yield Input(placeholder="the path of a game record", id="resume")
            yield Static("", id="resume-error", classes="error")
            with Horizontal(classes="row"):
                yield Button("Resume", id="resume-game")
                yield Button("Replay (watch it, step by step)", id="replay-game")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#game", Select).focus()

    @staticmethod
    def player_choices(info: GameInfo) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(info.min_players, info.max_players + 1)]

    def default_players(self, info: GameInfo) -> int:
        """``--players`` from the command line when the game takes that many, else 3 (or the nearest)."""
        wanted = getattr(self.args, "players", None)
        if isinstance(wanted, int) and info.min_players <= wanted <= info.max_players:
            return wanted
        return max(info.min_players, min(3, info.max_players))

    def default_seed(self) -> str:
        """``--seed`` from the command line, else blank (a random one)."""
        seed = getattr(self.args, "seed", None)
        return "" if seed is None else str(seed)

    def speed(self) -> str:
        speed = getattr(self.app, "speed", "normal")
        return speed if speed in SPEED_NAMES else "normal"

    def seat_rows(self, info: GameInfo, players: int) -> list[Horizontal]:
        choices = [("person", PERSON)] + [(f"bot {level}", level) for level in bot_levels(info.id)]
        rows = []
        for seat, level in enumerate(default_levels(info, players)):
            select: Select[str] = Select(choices, value=level, allow_blank=False, id=f"seat-{seat}", classes="seat")
            rows.append(Horizontal(Label(f"Seat {seat + 1}"), select, classes="row"))
        return rows

    def option_rows(self, info: GameInfo) -> list[Vertical]:
        if not info.options:
            return [Vertical(Static("(this game has no options)", classes="help"))]
        return [
            Vertical(
                Horizontal(
                    Label(spec.name),
                    Input(spec.format(spec.default), id=f"option-{spec.name}", classes="option"),
                    classes="row",
                ),
                Static(f"{spec.help} (allowed: {spec.describe_range()}; default {spec.format(spec.default)})",
                       classes="help"),
                Static("", id=f"error-{spec.name}", classes="error"),
            )
            for spec in info.options
        ]

    # -- changes --------------------------------------------------------------------

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str) or event.value == self.info.id:
            return
        self.building += 1
        try:
            info = self.info = find_game(event.value)
            self.query_one("#summary", Static).update(info.summary)
            players = self.query_one("#players", Select)
            players.set_options(self.player_choices(info))
            players.value = self.default_players(info)
            await self.rebuild_seats(self.default_players(info))
            options = self.query_one("#options", Vertical)
            await options.remove_children()
            await options.mount_all(self.option_rows(info))
            self.query_one("#start-error", Static).update("")
        finally:
            self.building -= 1

    @on(Select.Changed, "#players")
    async def players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != len(self.seat_levels()):
            self.building += 1
            try:
                await self.rebuild_seats(event.value)
            finally:
                self.building -= 1

    async def rebuild_seats(self, players: int) -> None:
        seats = self.query_one("#seats", Vertical)
        await seats.remove_children()
        await seats.mount_all(self.seat_rows(self.info, players))

    @on(Input.Changed, ".option")
    def option_changed(self, event: Input.Changed) -> None:
        """Check one option as it is typed, with the game's own conversion."""
        name = (event.input.id or "").removeprefix("option-")
        self.check_option(name, event.value)

    def check_option(self, name: str, value: str) -> bool:
        spec = self.spec(name)
        if spec is None:
            return True
        error = self.query(f"#error-{name}")
        try:
            spec.convert(value)
        except OptionError as exc:
            if error:
                error.first(Static).update(one_line(exc))
            return False
        if error:
            error.first(Static).update("")
        return True

    def spec(self, name: str) -> OptionSpec | None:
        return next((s for s in self.info.options if s.name == name), None)

    # -- reading the choices ------------------------------------------------------------

    def seat_levels(self) -> list[str]:
        return [str(select.value) for select in self.query(".seat").results(Select)]

    def option_values(self) -> dict[str, str]:
        return {
            (field.id or "").removeprefix("option-"): field.value for field in self.query(".option").results(Input)
        }

    # -- starting ------------------------------------------------------------------------

    @on(Button.Pressed, "#start-game")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Input.Submitted, "#seed")
    def seed_submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#replay-game")
    def replay_pressed(self) -> None:
        """Open the replay viewer on the record named (a refusal is shown under the field)."""
        from rummykit.tui.replay import ReplayScreen, load_replay

        error = self.query_one("#resume-error", Static)
        file = self.query_one("#resume", Input).value
        if not file.strip():
            error.update("! type the path of a saved game to replay")
            return
        try:
            replay = load_replay(file, color=self.app_color())
        except RummykitError as exc:
            error.update(one_line(exc))
            return
        error.update("")
        self.app.push_screen(ReplayScreen(replay))

    def app_color(self) -> bool:
        style = getattr(self.app, "style", None)
        return bool(getattr(style, "color", True))

    @on(Button.Pressed, "#resume-game")
    @on(Input.Submitted, "#resume")
    def resume_pressed(self) -> None:
        error = self.query_one("#resume-error", Static)
        try:
            setup = resume_choice(self.query_one("#resume", Input).value, self.args, self.environ)
        except RummykitError as exc:
            error.update(one_line(exc))
            return
        self.dismiss(setup)

    def action_start(self) -> None:
        """Make the game chosen (every option checked by the game), or show what is wrong."""
        error = self.query_one("#start-error", Static)
        if self.building:
            error.update("! one moment: the choices are being redrawn")
            return
        values = self.option_values()
        wrong = [name for name, value in values.items() if not self.check_option(name, value)]
        if wrong:
            error.update(f"! fix the option{'s' if len(wrong) > 1 else ''} marked above: {', '.join(wrong)}")
            return
        try:
            setup = new_setup(
                self.info.id, self.seat_levels(), values, self.query_one("#seed", Input).value, self.args, self.environ
            )
        except RummykitError as exc:
            error.update(one_line(exc))
            return
        error.update("")
        self.apply_speed()
        self.dismiss(setup)

    def apply_speed(self) -> None:
        """The bot speed chosen goes to the app (it may be changed with F3 during the game)."""
        speed = self.query_one("#speed", Select).value
        set_speed = getattr(self.app, "set_speed", None)
        if isinstance(speed, str) and callable(set_speed) and speed != getattr(self.app, "speed", None):
            set_speed(speed)

    def action_cancel(self) -> None:
        self.dismiss(None)
