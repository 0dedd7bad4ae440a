"""The committed browser client is the build of the current web sources (fast; no Node, no browser).

``web/stamp.mjs`` writes ``build-stamp.json`` next to the build: a SHA-256 over the client's sources and
lock file. This test computes the same digest from the working tree, so editing ``web/`` without running
``npm run build`` (``make web``) and committing the result fails here.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
STATIC = ROOT / "src" / "rummykit" / "server" / "static"
INPUTS = ["index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "stamp.mjs"]


def source_digest() -> tuple[str, list[str]]:
    """The digest stamp.mjs computes: every input file sorted by path, its text with "\\n" line ends."""
    files = sorted(
        [*INPUTS, *(p.relative_to(WEB).as_posix() for p in (WEB / "src").rglob("*") if p.is_file())]
    )
    digest = hashlib.sha256()
    for name in files:
        text = (WEB / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest(), files


def test_the_built_client_is_committed() -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    assets = re.findall(r'(?:src|href)="/(assets/[^"]+)"', index)
    assert any(a.endswith(".js") for a in assets), "index.html loads no script"
    for asset in assets:
        assert (STATIC / asset).is_file(), f"index.html names {asset}, which is not in the package"


def test_the_bundle_is_built_from_the_current_sources() -> None:
    stamp = json.loads((STATIC / "build-stamp.json").read_text(encoding="utf-8"))
    digest, files = source_digest()
    assert stamp["files"] == files, (
        "the web sources changed (files added or removed): run `make web` and commit"
    )
    assert stamp["sources"] == digest, (
        "the web sources changed since the committed build: run `make web` and commit"
    )
