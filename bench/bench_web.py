"""The browser client's weight and first paint: the bundle's size (raw and gzip) and the time from a table
page's navigation to its first drawn table, per game, in Debian's chromium (the same browser the tests use).

    .venv/bin/python bench/bench_web.py               # 5 loads per game
    .venv/bin/python bench/bench_web.py --loads 20

"First drawn table" is the moment the page has drawn the board for its first state frame (the page marks it
``performance.mark("rummykit:first-table")`` right after drawing it): navigation start to that mark, on
the page's own clock, so the figure includes fetching the bundle, opening the WebSocket, the server's
first frames and drawing. Each load is a fresh browser context (no cache), against a local
``rummykit serve`` on its own SQLite file. Run by hand; the figures go in bench/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

STATIC = ROOT / "src" / "rummykit" / "server" / "static"
FIRST_TABLE = """() => {
  const mark = performance.getEntriesByName("rummykit:first-table")[0];
  return mark ? mark.startTime : performance.now();
}"""
GAMES = ["rummikub", "domino-rummikub", "conveyor", "two-tray", "mummus"]


def bundle() -> list[tuple[str, int, int]]:
    """Every file the page loads (the HTML and its assets): name, bytes, gzip bytes."""
    files = [STATIC / "index.html", *sorted((STATIC / "assets").glob("*"))]
    return [(f.name, f.stat().st_size, len(gzip.compress(f.read_bytes(), 9))) for f in files if f.is_file()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="page loads per game (default 5)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rows = bundle()
    print(f"{'file':<32} {'bytes':>9} {'gzip':>9}")
    for name, raw, packed in rows:
        print(f"{name:<32} {raw:>9} {packed:>9}")
    print(f"{'total':<32} {sum(r[1] for r in rows):>9} {sum(r[2] for r in rows):>9}\n")

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.db")
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                print(f"{'game':<16} {'loads':>5} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
                for game in GAMES:
                    times = []
                    for i in range(args.loads):
                        created = server.table(game, [{"kind": "person"}, {"kind": "bot"}], seed=i + 1)
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        page = context.new_page()
                        page.goto(server.base + created["seats"][0]["invite"])
                        page.wait_for_selector("body[data-seq]", timeout=30000)
                        times.append(float(page.evaluate(FIRST_TABLE)))
                        context.close()
                    print(
                        f"{game:<16} {len(times):>5} {statistics.median(times):>10.0f} "
                        f"{min(times):>8.0f} {max(times):>8.0f}"
                    )
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
