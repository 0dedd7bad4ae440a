"""The browser client's screenshots in docs/images: each game in the middle of a round, at desktop and phone size.

    .venv/bin/python tools/web_screenshots.py                 # every game
    .venv/bin/python tools/web_screenshots.py mummus conveyor # some

For each game a local ``rummykit serve`` makes a table of a person and a ``greedy`` bot with a fixed seed; the
person's seat is played by a ``greedy`` bot over the protocol (``rummykit.server.client``) for a few turns, so
the table has melds on it, and stops on the seat's turn. The page is then opened at 1280x800 and at 390x844
(touch) in Debian's chromium, and saved as ``docs/images/online-<game>-desktop.png`` and ``-phone.png``; the
lobby too (``online-lobby-desktop.png``, ``online-lobby-phone.png``). Run by hand after changing the look.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

from rummykit.server.client import play_seat  # noqa: E402
from rummykit.server.frames import ServerFrameJSON  # noqa: E402

IMAGES = ROOT / "docs" / "images"
#: game: (seed, the person's turns played before the picture)
GAMES: dict[str, tuple[int, int]] = {
    "rummikub": (3, 9),
    "domino-rummikub": (2, 7),
    "conveyor": (1, 6),
    "two-tray": (1, 8),
    "mummus": (4, 6),
}
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


class Enough(Exception):
    """The seat has played its turns: stop before it acts again."""


def play_turns(server: Server, table: str, token: str, game: str, turns: int) -> None:
    """Play the person's seat with a greedy bot until its turn comes for the ``turns + 1``-th time."""
    seen: set[int] = set()

    def on_frame(frame: ServerFrameJSON) -> None:
        if frame["type"] != "state" or frame["status"] != "playing":
            return
        asked = frame["asked"]
        if asked is not None and not asked["claim"] and frame["seq"] not in seen:
            seen.add(frame["seq"])
            if len(seen) > turns:
                raise Enough

    url = server.base.replace("http", "ws") + f"/ws/{table}"
    with contextlib.suppress(Enough):
        asyncio.run(play_seat(url, token, game=game, level="greedy", seed=1, timeout=60, on_frame=on_frame))


def main(games: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "shots.db")
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for size, settings in SIZES.items():
                    page = browser.new_context(**settings).new_page()
                    page.goto(server.base + "/")
                    page.wait_for_selector("button", timeout=15000)
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(IMAGES / f"online-lobby-{size}.png"))
                    page.context.close()
                for game in games:
                    seed, turns = GAMES[game]
                    created = server.table(game, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "name": "Robin"}], seed)
                    seat = created["seats"][0]
                    # in a thread of its own: Playwright's sync API keeps an event loop running in this one
                    with ThreadPoolExecutor(1) as pool:
                        pool.submit(play_turns, server, created["table"], seat["token"], game, turns).result(300)
                    for size, settings in SIZES.items():
                        page = browser.new_context(**settings).new_page()
                        page.goto(server.base + seat["invite"])
                        page.wait_for_selector("body[data-turn=mine]", timeout=30000)
                        page.wait_for_timeout(1200)  # let the last move's slide-in finish
                        if size == "phone" and page.locator(".tip button").count():
                            page.click(".tip button")  # the first-turn tip: seen at desktop size, out of the way here
                        path = IMAGES / f"online-{game}-{size}.png"
                        page.screenshot(path=str(path))
                        print(path.relative_to(ROOT))
                        page.context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(GAMES)
    unknown = [g for g in wanted if g not in GAMES]
    if unknown:
        sys.exit(f"no screenshots for {', '.join(unknown)}; the games are: {', '.join(GAMES)}")
    main(wanted)
