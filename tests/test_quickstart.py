"""What a person runs first, run as they run it: every command of the README that opens a screen,
as a real process in a real pseudo-terminal.

The Pilot tests drive the app inside the test process; these start
``python -m rummykit`` (the tree under test: ``PYTHONPATH`` is kept) on the
slave side of a pseudo-terminal (``pty``) of a given size with
``TERM=xterm-256color``, as the process's controlling terminal. Each command
must draw its first screen (the expected text shows up in what it writes,
escape sequences removed), show no error, still run a few seconds later, then
stop with exit status 0 within a timeout when its quit key is pressed (Ctrl+Q
in the app, ``quit`` at the line prompt). Every command runs at 100x30 and at
80x24. The Makefile's ``play`` target runs its recipe for a terminal (the
app) and for no terminal (the line prompt), with the tree's ``rummykit``
instead of the set-up virtualenv's (``make -o STAMP``: nothing installed).
An unexpected error in the app must end it with a non-zero status and one
line naming the log that holds the traceback.

The cases run in parallel threads (one process each) the first time a test
asks for them; every wait has a timeout.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummykit.catalogue import games
from rummykit.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((100, 30), (80, 24))
GAMES = tuple(info.id for info in games())
SEED = "7"

FIRST_SCREEN_TIMEOUT = 60.0
"""Seconds a command may take to draw its first screen (imports included, on a busy machine)."""
STAY = 3.0
"""Seconds each command must keep running once its first screen is there."""
QUIT_TIMEOUT = 20.0
"""Seconds a command may take to stop after its quit key."""
WORKERS = 6

CTRL_Q = b"\x11"
QUIT_LINE = b"quit\r"

ESCAPES = re.compile(
    rb"\x1b\[[0-9;:?<>=!]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, colours asked for
    rb"|\x1bP[^\x1b]*\x1b\\"  # DCS
    rb"|\x1b[()][A-Za-z0-9]|\x1b[=>78DEHMNOPZc]"
)
ERRORS = re.compile(r"Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception)\b|unexpected error")
"""What an error looks like on the screen (a traceback, an exception's name, the crash line)."""

# Python in the child: make the pseudo-terminal its controlling terminal (it is a session leader), then run.
TAKE_TERMINAL = "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); os.execvp(sys.argv[1], sys.argv[1:])"

RUMMYKIT = (sys.executable, "-m", "rummykit")


def crashing(action: str) -> str:
    """Python that runs ``rummykit`` with a bug put into one of the app's actions on purpose."""
    return (
        "import sys; from rummykit.tui.app import GameApp; from rummykit.cli.main import main\n"
        "def boom(self):\n"
        "    raise RuntimeError('put there by the test')\n"
        f"GameApp.{action} = boom\n"
        "sys.exit(main())\n"
    )


F1, F3 = b"\x1bOP", b"\x1b[13~"


@dataclass(frozen=True)
class Case:
    """One command in the terminal: what it runs, what its first screen shows, how it is quit."""

    name: str
    command: tuple[str, ...]
    expect: tuple[str, ...]
    """Text the first screen shows (each piece on one line of the screen)."""
    size: tuple[int, int] = (100, 30)
    keys: bytes = CTRL_Q
    """What the person types to quit."""
    before_quit: bytes = b""
    """Typed once the first screen is there (before the wait): a key that leads the app to an error."""
    status: int = 0
    after: tuple[str, ...] = ()
    """Text written after the command stops (the record's place, the line prompt's goodbye)."""
    term: str = "xterm-256color"


@dataclass
class Run:
    """What happened to one case."""

    case: Case
    drawn: float | None = None
    """Seconds until the first screen was there (None: never)."""
    alive: bool = False
    """Still running :data:`STAY` seconds after that."""
    status: int | None = None
    """The exit status (None: it did not stop in time and was killed)."""
    stopped: float | None = None
    """Seconds from the quit key to the end of the process."""
    raw: bytes = b""

    @property
    def text(self) -> str:
        return visible(self.raw)

    def describe(self) -> str:
        tail = self.text[-3000:]
        return (
            f"{self.case.name} {self.case.size[0]}x{self.case.size[1]}: {' '.join(self.case.command)}\n"
            f"drawn after {self.drawn} s, alive {self.alive}, status {self.status}, stopped in {self.stopped} s\n"
            f"--- what it wrote (escape sequences removed), the end ---\n{tail}"
        )


def visible(raw: bytes) -> str:
    """What a terminal shows of the bytes, roughly: the text without escape sequences."""
    return ESCAPES.sub(b"", raw).decode("utf-8", "replace").replace("\r", "")


def shows(raw: bytes, pieces: tuple[str, ...]) -> bool:
    text = visible(raw)
    return all(piece in text for piece in pieces)


def child_env(case: Case, base: Mapping[str, str]) -> dict[str, str]:
    env = dict(base)
    for name in ("COLUMNS", "LINES", "NO_COLOR", "TEXTUAL"):
        env.pop(name, None)  # the size comes from the terminal, as for a person
    env["TERM"] = case.term
    return env


def run_case(case: Case, base_env: Mapping[str, str]) -> Run:
    """Start the command on a new pseudo-terminal of the case's size and take it through its steps."""
    run = Run(case)
    master, slave = pty.openpty()
    cols, rows = case.size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", TAKE_TERMINAL, *case.command],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=child_env(case, base_env),
    )
    os.close(slave)
    chunks: list[bytes] = []

    def read(until: float, done: Callable[[], bool] = lambda: False) -> None:
        """Take what the command writes until the time is up, it closes the terminal, or ``done()``."""
        while time.monotonic() < until and not done():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # every copy of the slave is closed: the command is ending
                data = b""
            if not data:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=max(0.0, until - time.monotonic()))
                return
            chunks.append(data)

    def ended() -> bool:
        return proc.poll() is not None

    looked = [-1, 0]  # chunks looked at, and whether they showed the first screen

    def drawn() -> bool:
        if looked[0] != len(chunks):
            looked[:] = [len(chunks), shows(b"".join(chunks), case.expect)]
        return bool(looked[1])

    try:
        read(start + FIRST_SCREEN_TIMEOUT, lambda: drawn() or ended())
        if drawn():
            run.drawn = round(time.monotonic() - start, 2)
            if case.before_quit:
                os.write(master, case.before_quit)
            read(time.monotonic() + STAY, ended)
            run.alive = not ended()
            if run.alive:
                asked = time.monotonic()
                os.write(master, case.keys)
                read(asked + QUIT_TIMEOUT, ended)
                if ended():
                    run.stopped = round(time.monotonic() - asked, 2)
        read(time.monotonic() + (0.5 if ended() else 0))  # what it wrote last
    finally:
        if ended():
            run.status = proc.returncode
        else:
            os.killpg(proc.pid, signal.SIGKILL)  # our own child's group: it did not stop in time
            proc.wait(timeout=10)
        os.close(master)
    run.raw = b"".join(chunks)
    return run


# -- the cases -------------------------------------------------------------------------------


@dataclass
class Setting:
    folder: Path
    replay: Path
    resume: Path
    records: Path
    logs: Path
    shim: Path


def make_setting(folder: Path) -> Setting:
    """A record to replay, one to resume, the folders for records and logs, and a ``rummykit`` for make."""
    records, logs, shim = folder / "records", folder / "logs", folder / "bin"
    for made in (records, logs, shim):
        made.mkdir()
    replay, resume = folder / "replay.txt", folder / "resume.txt"
    quiet = io.StringIO()
    for game, path in (("rummikub", replay), ("two-tray", resume)):
        status = main(
            ["play", game, "--bots", "1", "--seed", SEED, "--record", str(path)],
            stdin=io.StringIO("quit\n"), stdout=quiet, stderr=quiet, environ={"COLUMNS": "100"},
        )
        assert status == 0 and path.is_file(), quiet.getvalue()
    # The Makefile runs $(BIN)/rummykit: here, this tree's rummykit with this Python.
    script = shim / "rummykit"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rummykit "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return Setting(folder, replay, resume, records, logs, shim)


def screen_cases(s: Setting) -> list[Case]:
    """Every README command that opens a screen, at each size."""
    cases: list[Case] = []
    tui_saved = "continue with: rummykit tui --resume"
    for size in SIZES:
        cases.append(Case("tui start screen", (*RUMMYKIT, "tui"), ("New game", "Start"), size))
        for game in GAMES:
            cases.append(Case(
                f"tui {game}", (*RUMMYKIT, "tui", game, "--bots", "1", "--seed", SEED),
                ("P1 (you)", "type a command"), size, after=("Record saved to", tui_saved),
            ))
            cases.append(Case(
                f"play {game}", (*RUMMYKIT, "play", game, "--bots", "1", "--seed", SEED),
                ("Welcome to rummykit", "P1's turn>"), size, keys=QUIT_LINE,
                after=("Record saved to", "continue with: rummykit play --resume"),
            ))
        cases.append(Case("tui replay", (*RUMMYKIT, "tui", "--replay", str(s.replay)), ("Replay of replay.txt",), size))
    return cases


def other_cases(s: Setting) -> list[Case]:
    make = ("make", "-C", str(ROOT), "--no-print-directory", "-o", ".venv/.rummykit-installed", "play", f"BIN={s.shim}")
    line_prompt = "no full-screen terminal here"
    return [
        Case("tui --resume", (*RUMMYKIT, "tui", "--resume", str(s.resume)), ("P1 (you)", "type a command"),
             after=(f"Record saved to {s.resume}; continue with: rummykit tui --resume {s.resume}",)),
        Case("make play (terminal)", make, ("New game", "Start")),
        Case("make play (TERM=dumb)", make, (line_prompt, "P1's turn>"), keys=QUIT_LINE, term="dumb"),
        Case("crash on the start screen", (sys.executable, "-c", crashing("action_speed"), "tui"), ("New game",),
             before_quit=F3, status=1),  # F3 (bot speed) meets the bug
        Case("crash in a game", (sys.executable, "-c", crashing("action_help"), "tui", "rummikub", "--bots", "1", "--seed", SEED),
             ("P1 (you)", "type a command"), before_quit=F1, status=1, after=("Record saved to",)),  # F1 (help)
    ]


@pytest.fixture(scope="module")
def setting(tmp_path_factory: pytest.TempPathFactory) -> Setting:
    return make_setting(tmp_path_factory.mktemp("quickstart"))


@pytest.fixture(scope="module")
def runs(setting: Setting) -> Iterator[dict[tuple[str, tuple[int, int]], Run]]:
    """Every case, run once, in parallel."""
    base = dict(os.environ, RUMMYKIT_RECORDS=str(setting.records), RUMMYKIT_LOGS=str(setting.logs))
    cases = [*screen_cases(setting), *other_cases(setting)]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        done = list(pool.map(lambda case: run_case(case, base), cases))
    yield {(run.case.name, run.case.size): run for run in done}


def check_screen(run: Run) -> None:
    """Drawn, no error, still there a few seconds later, stopped with status 0 by its quit key."""
    case = run.case
    assert run.drawn is not None, f"the first screen never showed {case.expect}\n{run.describe()}"
    assert run.alive, f"the command ended by itself after its first screen\n{run.describe()}"
    assert run.stopped is not None, f"the command did not stop within {QUIT_TIMEOUT} s of its quit key\n{run.describe()}"
    assert run.status == case.status, f"exit status {run.status}, not {case.status}\n{run.describe()}"
    if case.status == 0:
        found = ERRORS.search(run.text)
        assert found is None, f"an error on the screen: {found.group(0)!r}\n{run.describe()}"
    for piece in case.after:
        assert piece in " ".join(run.text.split()), f"{piece!r} not written\n{run.describe()}"


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_make_play_s_command_opens_the_start_screen(runs: dict[tuple[str, tuple[int, int]], Run], size: tuple[int, int]) -> None:
    check_screen(runs["tui start screen", size])


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_opens_in_the_app(runs: dict[tuple[str, tuple[int, int]], Run], game: str, size: tuple[int, int]) -> None:
    check_screen(runs[f"tui {game}", size])


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_opens_at_the_line_prompt(runs: dict[tuple[str, tuple[int, int]], Run], game: str, size: tuple[int, int]) -> None:
    check_screen(runs[f"play {game}", size])


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_replay_viewer_opens_a_record(runs: dict[tuple[str, tuple[int, int]], Run], size: tuple[int, int]) -> None:
    check_screen(runs["tui replay", size])


def test_a_game_saved_in_the_app_resumes_in_the_app(runs: dict[tuple[str, tuple[int, int]], Run], setting: Setting) -> None:
    run = runs["tui --resume", (100, 30)]
    check_screen(run)
    assert "Continuing the game saved in" in run.text  # the log's first note, not a new game


def test_make_play_opens_the_app_on_a_terminal(runs: dict[tuple[str, tuple[int, int]], Run]) -> None:
    check_screen(runs["make play (terminal)", (100, 30)])


def test_make_play_opens_the_line_prompt_when_term_is_dumb(runs: dict[tuple[str, tuple[int, int]], Run]) -> None:
    check_screen(runs["make play (TERM=dumb)", (100, 30)])


def test_make_play_opens_the_line_prompt_when_stdout_is_not_a_terminal(setting: Setting) -> None:
    env = child_env(Case("", (), ()), dict(os.environ, RUMMYKIT_RECORDS=str(setting.records)))
    done = subprocess.run(
        ["make", "-C", str(ROOT), "--no-print-directory", "-o", ".venv/.rummykit-installed", "play", f"BIN={setting.shim}"],
        input=b"quit\n", capture_output=True, env=env, timeout=120, check=False,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()
    assert out.startswith("no full-screen terminal here (stdout is not a terminal, or TERM=dumb): the line prompt instead\n")
    assert "Welcome to rummykit: Rummikub" in out and "P1's turn>" in out and "Record saved to" in out


def test_the_makefile_play_recipe_is_the_one_tested() -> None:
    """The recipe run above is the Makefile's: the app on a terminal, else the line prompt, after the set-up."""
    if shutil.which("make") is None:
        raise AssertionError("make is needed for the quick start (README) and for this test")
    done = subprocess.run(
        ["make", "-C", str(ROOT), "--no-print-directory", "-n", "-o", ".venv/.rummykit-installed", "play", "BIN=BIN"],
        capture_output=True, timeout=60, check=True, text=True,
    )
    recipe = done.stdout
    assert '[ -t 1 ] && [ "${TERM:-dumb}" != dumb ]' in recipe
    assert "BIN/rummykit tui;" in recipe and "BIN/rummykit play rummikub --bots 2;" in recipe
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^play: \$\(STAMP\)$", makefile, re.MULTILINE), "make play sets up the virtualenv first"


def crash_line(run: Run) -> tuple[str, Path]:
    lines = [line for line in run.text.splitlines() if "stopped on an unexpected error" in line]
    assert len(lines) == 1, run.describe()
    found = re.search(r"the details are in (\S+)$", lines[0].strip())
    assert found is not None, lines[0]
    return lines[0], Path(found.group(1))


@pytest.mark.parametrize("name", ["crash on the start screen", "crash in a game"])
def test_an_error_in_the_app_ends_it_non_zero_with_one_line_naming_the_log(
    runs: dict[tuple[str, tuple[int, int]], Run], setting: Setting, name: str
) -> None:
    run = runs[name, (100, 30)]
    assert run.drawn is not None, run.describe()
    assert run.status == 1, f"exit status {run.status} after an unexpected error\n{run.describe()}"
    line, log = crash_line(run)
    assert "RuntimeError: put there by the test" in line
    assert log.parent == setting.logs and log.is_file()
    details = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in details and "RuntimeError: put there by the test" in details
    assert "in boom" in details  # the traceback reaches the line that failed
    assert "Traceback" not in run.text, "the traceback goes to the log, not over the person's terminal"
    for piece in run.case.after:
        assert piece in " ".join(run.text.split()), run.describe()  # the game so far was saved all the same
