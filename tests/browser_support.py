"""What every browser test uses: a real ``rummykit serve`` process, Debian's chromium through Playwright,
and helpers that drive a table page the way a person does (waiting on the page's data-* marks, each wait
bounded). Test modules import the ``server`` and ``browser`` fixtures from here."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize


def _need_browser() -> None:
    """Skip (or, under CI=true, fail) when the browser or Playwright is missing."""
    reasons = []
    if not CHROMIUM.exists():
        reasons.append(f"{CHROMIUM} is missing (make chromium installs Debian's package)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reasons.append("the playwright package is missing (pip install -e '.[dev]')")
    if reasons:
        message = "browser tests not run: " + "; ".join(reasons)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def post_json(url: str, body: object) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


class Server:
    """``rummykit serve`` as a subprocess on a free port, with its own SQLite file."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        cmd = [
            sys.executable,
            "-m",
            "rummykit",
            "serve",
            "--port",
            str(self.port),
            "--db",
            f"sqlite:///{self.db}",
            "--chosen-seeds",
        ]
        self.proc = subprocess.Popen(
            cmd, cwd=self.db.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"the server stopped: {out}")
            with contextlib.suppress(OSError):
                get_json(self.base + "/api/games")
                return
            time.sleep(0.2)
        raise RuntimeError("the server did not answer within 120 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def table(self, game: str, seats: list[dict[str, Any]], seed: int, **options: Any) -> dict[str, Any]:
        created: dict[str, Any] = post_json(
            self.base + "/api/tables",
            {"game": game, "options": options, "seats": seats, "seed": seed, "clock": None},
        )
        return created


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    _need_browser()
    srv = Server(tmp_path_factory.mktemp("server") / "tables.db")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# ---- driving the page --------------------------------------------------------------------------------


def open_page(browser: Browser, url: str, phone: bool = False) -> Page:
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-conn=open]")
    page.wait_for_selector("body[data-seq]")
    return page


def ready(page: Page) -> bool:
    """The page shows the newest state and, on the seat's turn, the server's list of its actions."""
    state: dict[str, str] = page.evaluate("() => ({...document.body.dataset})")
    return state.get("seq") is not None and state.get("legalSeq") == state.get("seq")


def my_turn(page: Page) -> bool:
    return ready(page) and page.evaluate("() => document.body.dataset.turn") == "mine"


def over(page: Page) -> bool:
    return bool(page.evaluate("() => document.body.dataset.over === 'true'"))


def seq(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.seq"))


def listed(page: Page) -> list[dict[str, Any]]:
    texts: list[str] = page.eval_on_selector_all(".legal-action", "els => els.map(e => e.dataset.action)")
    return [json.loads(t) for t in texts]


def listed_on_my_turn(page: Page, wait: float = 20) -> list[dict[str, Any]]:
    """The seat's listed actions on its turn: they come in their own frame after the state, so on a busy
    machine the turn shows before the list; wait for it (``wait`` seconds at most)."""
    deadline = time.monotonic() + wait
    actions = listed(page)
    while not actions and time.monotonic() < deadline:
        time.sleep(0.05)
        actions = listed(page)
    return actions


def asked(page: Page) -> str:
    """What the newest state frame asks the seat: ``turn``, ``claim`` (a chance out of turn) or nothing."""
    return str(page.evaluate("() => document.body.dataset.asked ?? ''"))


def let_pass(page: Page, key: bool = False) -> None:
    """Let the chance out of turn pass (the button, or the P key) and wait until the seat is no longer asked about it."""
    before = seq(page)
    if key:
        page.locator("body").press("p")
    else:
        page.click("#let-pass")
    deadline = time.monotonic() + 30
    while asked(page) == "claim" and seq(page) == before:
        assert time.monotonic() < deadline, "the pass was not answered within 30 s"
        status = page.inner_text(".status") if page.locator(".status.error").count() else ""
        assert not status, f"the server refused: {status}"
        time.sleep(0.05)


def wait_moved(page: Page, before: int) -> None:
    """Wait for a state after `before`; an error frame fails the test with the server's message."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if seq(page) > before:
            return
        status = page.inner_text(".status") if page.locator(".status.error").count() else ""
        assert not status, f"the server refused: {status}"
        time.sleep(0.05)
    raise AssertionError("the action was not answered within 30 s")


def draft_sets(page: Page) -> list[list[str]]:
    sets: list[list[str]] = page.eval_on_selector_all(
        ".tablearea .set:not(.newset)",
        "els => els.map(s => Array.from(s.querySelectorAll('[data-piece]')).map(p => p.dataset.piece))",
    )
    return sets


def plan_drags(current: list[list[str]], action: dict[str, Any]) -> list[tuple[str, str]] | None:
    """The drags (piece, drop zone) that turn the table into the action's table, or None when the play
    rearranges sets (then the test picks it from the list instead). A new set's zone is "new" for its
    first piece and "set:<index>" after."""
    placed = Counter(action["placed"])
    free = list(range(len(current)))
    drags: list[tuple[str, str]] = []
    count = len(current)
    for target in action["table"]:
        want = Counter(target)
        match = next((i for i in free if Counter(current[i]) == want), None)
        if match is None:
            match = next((i for i in free if not Counter(current[i]) - want), None)
        if match is not None:
            free.remove(match)
            extra = want - Counter(current[match])
            if extra - placed:
                return None
            placed -= extra
            drags += [(p, f"set:{match}") for p in extra.elements()]
        else:
            if want - placed:
                return None
            placed -= want
            pieces = list(want.elements())
            drags.append((pieces[0], "new"))
            drags += [(p, f"set:{count}") for p in pieces[1:]]
            count += 1
    if free or placed:
        return None
    return drags


def drag(page: Page, piece: str, zone: str) -> None:
    """Drag a rack piece to a drop zone: with the mouse, or with a finger on a touch screen."""
    from playwright.sync_api import Error

    source = page.locator(f'.rack [data-piece="{piece}"]').first
    target = page.locator(f'[data-drop="{zone}"]')
    for attempt in range(5):
        # a frame from the server may redraw the table just now: find the piece again then
        try:
            source.scroll_into_view_if_needed()
            box_s = source.bounding_box()
            break
        except Error:
            if attempt == 4:
                raise
            time.sleep(0.2)
    assert box_s, f"no {piece} in the rack"
    touch = bool(page.evaluate("() => navigator.maxTouchPoints > 0"))
    cdp = page.context.new_cdp_session(page) if touch else None

    def finger(kind: str, x: float, y: float) -> None:
        assert cdp is not None
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    x, y = box_s["x"] + box_s["width"] / 2, box_s["y"] + box_s["height"] / 2
    if cdp:
        finger("touchStart", x, y)
        finger("touchMove", x + 8, y - 8)
        finger("touchMove", x + 14, y - 14)
    else:
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 12, y - 12, steps=2)
    # on a small screen the set may be out of sight: scroll it in while the piece is held
    # (to the middle of the window: a phone keeps the rack docked at the bottom, over the table)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    box_t = target.bounding_box()
    assert box_t, f"no drop zone {zone}"
    # drop near the zone's right end, so the piece lands after the pieces already there
    tx, ty = box_t["x"] + box_t["width"] - 6, box_t["y"] + box_t["height"] / 2
    if cdp:
        for i in range(1, 5):
            finger("touchMove", x + (tx - x) * i / 4, y + (ty - y) * i / 4)
        finger("touchEnd", tx, ty)
        cdp.detach()
    else:
        page.mouse.move(tx, ty, steps=4)
        page.mouse.up()
    # the server's verdict on the new draft redraws the table: wait for it before the next drag
    page.wait_for_selector(".verdict.ok, .verdict.bad", timeout=15000)


def drag_play(page: Page, action: dict[str, Any]) -> bool:
    """Build the listed play on the table by dragging pieces, see the server accept the draft, commit."""
    drags = plan_drags(draft_sets(page), action)
    if drags is None:
        return False
    for piece, zone in drags:
        drag(page, piece, zone)
    if page.locator(".set .placed").count() != len(action["placed"]):
        shot(page, "failed-drag", full=True)
        raise AssertionError(f"the drags {drags} did not lay out {action['placed']}")
    page.wait_for_selector(".verdict.ok", timeout=15000)
    before = seq(page)
    page.click("#commit")
    wait_moved(page, before)
    return True


def keyboard_play(page: Page, action: dict[str, Any]) -> bool:
    """A play that only adds one new set, made with the keyboard: arrows, Space, N, Enter."""
    if len(action["table"]) != len(draft_sets(page)) + 1 or sorted(action["table"][-1]) != sorted(
        action["placed"]
    ):
        return False
    rack: list[str] = page.eval_on_selector_all(".rack [data-piece]", "els => els.map(e => e.dataset.piece)")
    wanted, positions = Counter(action["placed"]), []
    for i, piece in enumerate(rack):
        if wanted[piece]:
            wanted[piece] -= 1
            positions.append(i)
    page.locator("body").click(position={"x": 2, "y": 2})
    cursor = 0
    for pos in positions:
        for _ in range(pos - cursor):
            page.keyboard.press("ArrowRight")
        cursor = pos
        page.keyboard.press("Space")
    page.keyboard.press("n")
    assert page.locator(".set .placed").count() == len(action["placed"])
    page.wait_for_selector(".verdict.ok", timeout=15000)
    before = seq(page)
    page.keyboard.press("Enter")
    wait_moved(page, before)
    return True


def finger_line(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    """One finger put down at ``start``, moved in ``steps`` straight steps to ``end`` and lifted (touch events
    through the DevTools protocol, which the page sees as pointer events, as on a phone)."""
    cdp = page.context.new_cdp_session(page)
    (x, y), (tx, ty) = start, end

    def finger(kind: str, px: float, py: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    finger("touchStart", x, y)
    for i in range(1, steps + 1):
        finger("touchMove", x + (tx - x) * i / steps, y + (ty - y) * i / steps)
    finger("touchEnd", tx, ty)
    cdp.detach()


SHOTS = Path(tempfile.mkdtemp(prefix="rummykit-shots-"))


def shot(page: Page, name: str, full: bool = False) -> None:
    """Save a screenshot: into docs/images when RUMMYKIT_SCREENSHOTS=1 asks for new ones, else into a
    temporary folder (so a test run leaves the checkout as it was). The screenshots of every game at both
    sizes come from tools/web_screenshots.py; these are of moments only a test reaches."""
    path = IMAGES / f"online-{name}.png"
    if os.environ.get("RUMMYKIT_SCREENSHOTS") != "1":
        path = SHOTS / path.name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full)
    assert path.stat().st_size > 0


AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe-core (the engine of the npm package ``@axe-core/playwright``, installed by ``make web``) on the
    page and return one line per violation of the given impacts: rule, impact, and the first offending nodes."""
    if not AXE.exists():
        message = f"{AXE} is missing (make web installs the browser client's npm packages)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate("() => window.axe.run(document, {resultTypes: ['violations']})")
    lines = []
    for v in result["violations"]:
        if v.get("impact") in impacts:
            nodes = "; ".join(
                " ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"])
                for n in v["nodes"][:3]
            )
            lines.append(f"{v['id']} ({v['impact']}): {v['help']} at {nodes}")
    return lines
