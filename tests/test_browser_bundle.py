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
INPUTS = ["index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "stamp.mjs", "gen-types.mjs"]


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


SCHEMA = ROOT / "docs" / "schema"
GENERATED = WEB / "src" / "generated"


def schema_digest() -> str:
    """The digest gen-types.mjs records: every docs/schema file sorted by name, its text with "\\n" line ends."""
    digest = hashlib.sha256()
    for path in sorted(SCHEMA.glob("*.json")):
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        digest.update(path.name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def test_the_client_types_are_generated_from_the_current_schemas() -> None:
    """web/src/generated is what gen-types.mjs makes of docs/schema now (a view per game of the catalogue)."""
    from rummykit.catalogue import games

    index = (GENERATED / "index.ts").read_text(encoding="utf-8")
    recorded = re.search(r'SCHEMA_DIGEST = "([0-9a-f]{64})"', index)
    assert recorded is not None, "web/src/generated/index.ts records no schema digest: run `make web`"
    assert recorded[1] == schema_digest(), "docs/schema changed since web/src/generated was made: run `make web`"
    for path in GENERATED.glob("*.ts"):
        assert schema_digest() in path.read_text(encoding="utf-8").splitlines()[0], f"{path.name} is stale"
    for info in games():
        assert (GENERATED / f"{info.id}-view.ts").is_file()
        assert f'"{info.id}": ' in index, f"ViewsByGame has no {info.id}"


_COMMENT_OR_STRING = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", re.S)


def code_of(source: str) -> str:
    """TypeScript source without its comments and string literals (what the compiler reads as code)."""
    return _COMMENT_OR_STRING.sub(" ", source)


def test_the_client_has_no_any() -> None:
    """No `any` in web/src: the views, actions and frames are typed (tsconfig's strict forbids an implicit one)."""
    assert re.findall(r"\bany\b", code_of("let a: any = 1; // any\nconst s = 'any';")) == ["any"]  # the check works
    found = {
        path.relative_to(WEB).as_posix(): n
        for path in sorted((WEB / "src").rglob("*.ts"))
        if (n := len(re.findall(r"\bany\b", code_of(path.read_text(encoding="utf-8")))))
    }
    assert found == {}, f"`any` in the client: {found}"
    config = json.loads((WEB / "tsconfig.json").read_text(encoding="utf-8"))
    assert config["compilerOptions"]["strict"] is True


def test_the_client_reads_counts_from_the_header_not_from_game_keys() -> None:
    """The table page takes each seat's pieces and the stock from the common header (no rack/hand/tray keys)."""
    table = code_of((WEB / "src" / "table.ts").read_text(encoding="utf-8"))
    assert "piece_counts" in table and "stock_count" in table
    client = code_of("\n".join(p.read_text(encoding="utf-8") for p in sorted((WEB / "src").glob("*.ts"))))
    for key in ("rack_sizes", "hand_sizes", "tray_sizes", "pool_size", "stock_size"):
        assert not re.search(rf"\b{key}\b", client), key
