"""The documentation tells the truth: its examples run, and it covers every rule id and option.

* Every ``>>>`` example in a fenced block of README.md and the docs pages runs
  as a doctest (one session per file, ELLIPSIS and NORMALIZE_WHITESPACE on).
  Only the fenced blocks are read, with the other lines blanked, so the
  reported line numbers are the file's own.
* Every record shown in a ``text`` block (first line ``rummykit record 1``)
  replays.
* Every rule id the source can raise is explained: a game's own ids (``RK-``,
  ``DR-``...) on that game's rules page, engine-wide ids on the rummikub page;
  every option of every registered game appears on that game's rules page.
"""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

import pytest

import rummykit
from rummykit.records import MAGIC, read_record

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "rummykit"
RUMMIKUB_PAGE = ROOT / "docs" / "games" / "rummikub.md"
GAME_PAGES = [info.rules_page for info in rummykit.games()]
DOCTEST_FILES = ["README.md", "docs/notation.md", "docs/index.md", *GAME_PAGES]

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def fenced_blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """Every fenced code block as (language, 0-based line of its first content line, lines)."""
    blocks: list[tuple[str, int, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3).lower()
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        blocks.append((lang, start, lines[start:j]))
        i = j + 1
    return blocks


def doctest_source(text: str) -> str:
    """The file with everything outside fenced code blocks blanked (line numbers kept)."""
    out = [""] * len(text.splitlines())
    for _lang, start, lines in fenced_blocks(text):
        if any(line.lstrip().startswith(">>>") for line in lines):
            out[start : start + len(lines)] = lines
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", DOCTEST_FILES)
def test_doc_examples_run(name: str) -> None:
    path = ROOT / name
    text = path.read_text(encoding="utf-8")
    source = doctest_source(text)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {"__name__": "__docs__"}, name, str(path), 0)
    if name != "docs/index.md":
        assert len(test.examples) >= 3, f"{name} should show runnable examples"
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    report: list[str] = []
    runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)


def test_doctest_source_keeps_line_numbers() -> None:
    text = "intro\n>>> 1 + 1\n3\n```pycon\n>>> 1 + 1\n2\n```\nafter\n"
    source = doctest_source(text)
    assert source.splitlines() == ["", "", "", "", ">>> 1 + 1", "2", "", ""]
    test = doctest.DocTestParser().get_doctest(source, {}, "t", "t.md", 0)
    assert [e.lineno for e in test.examples] == [4]


def test_records_shown_in_docs_replay() -> None:
    shown = 0
    for name in DOCTEST_FILES:
        for lang, start, lines in fenced_blocks((ROOT / name).read_text(encoding="utf-8")):
            if lang == "text" and lines and lines[0].strip() == MAGIC:
                state = read_record("\n".join(lines) + "\n")
                assert state.actions, f"{name}:{start + 1}: the record shows no actions"
                shown += 1
    assert shown >= 1


# -- rule ids ------------------------------------------------------------------
#
# Rule ids are found in the source in three forms:
#   RuleError("TURN", ...)                  a literal id;
#   "RK-RUN" handed to a helper             a literal id with a game's prefix;
#   f"{self.PREFIX}-DRAW", self.rule("RACK") a shared rule named without its prefix.
# A shared rule belongs to every game whose ruleset module imports (directly or
# not) the file that names it, with that game's prefix. An id with a game's
# prefix is explained on that game's rules page; an engine-wide id (no game
# prefix: TURN, SEAT, GAME-OVER...) on the rummikub page, the reference list.

LITERAL_ID = re.compile(r'RuleError\(\s*"([A-Z][A-Z0-9-]*)"')
PREFIXED_LITERAL = re.compile(r'"([A-Z]{2,3})-([A-Z0-9]+(?:-[A-Z0-9]+)*)"')
SHARED_ID = re.compile(r'f"\{[^{}"]+\}-([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)"|\.rule\(\s*"([A-Z][A-Z0-9-]*)"\s*\)')


def module_path(module: str) -> Path | None:
    """The source file of a ``rummykit...`` module, if it is one."""
    parts = module.split(".")
    if parts[0] != "rummykit":
        return None
    base = SRC.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_files(path: Path) -> set[Path]:
    """The rummykit source files ``path`` imports at module level, directly or not (itself included).

    Imports inside functions (a registry loading every game, say) are not
    dependencies; ``from package import module`` counts the module, not the
    package's ``__init__``.
    """
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for node in ast.parse(current.read_text(encoding="utf-8")).body:
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    names.append(sub if module_path(sub) is not None else node.module)
            for name in names:
                found = module_path(name)
                if found is not None:
                    todo.append(found)
    return seen


def game_prefixes() -> dict[str, rummykit.GameInfo]:
    """Each registered game's rule-id prefix (its state class's ``PREFIX``)."""
    out: dict[str, rummykit.GameInfo] = {}
    for info in rummykit.games():
        state = info.new(players=info.min_players, seed=0)
        prefix = getattr(type(state), "PREFIX", None)
        if isinstance(prefix, str):
            out[prefix] = info
    return out


def source_rule_ids() -> dict[str, rummykit.GameInfo | None]:
    """Every rule id the package can raise, with its game (None: engine-wide)."""
    prefixes = game_prefixes()
    users: dict[Path, list[str]] = {}
    for prefix, info in prefixes.items():
        module = info.factory.__module__
        game_file = module_path(module)
        assert game_file is not None, module
        for path in imported_files(game_file):
            users.setdefault(path, []).append(prefix)
    ids: dict[str, rummykit.GameInfo | None] = {}
    for path in sorted(SRC.rglob("*.py")):
        code = path.read_text(encoding="utf-8")
        for rule in LITERAL_ID.findall(code):
            head = rule.split("-", 1)[0]
            ids[rule] = prefixes.get(head) if "-" in rule else None
        for head, rest in PREFIXED_LITERAL.findall(code):
            if head in prefixes:
                ids[f"{head}-{rest}"] = prefixes[head]
        for match in SHARED_ID.finditer(code):
            name = match.group(1) or match.group(2)
            for prefix in users.get(path, []):
                ids[f"{prefix}-{name}"] = prefixes[prefix]
    return ids


def page_of(info: rummykit.GameInfo | None) -> Path:
    return RUMMIKUB_PAGE if info is None else ROOT / info.rules_page


def test_rule_id_scan_finds_known_ids() -> None:
    ids = source_rule_ids()
    expected = {
        "TURN", "SEAT", "GAME-OVER", "ACTION", "RK-RUN", "RK-GROUP", "RK-RACK", "RK-TABLE-KEEP",
        "RK-JOKER-REUSE", "RK-CONSERVE", "RK-SET-SIZE", "RK-PLAY-EMPTY", "RK-OPENING-TABLE",
        "RK-OPENING-POINTS", "RK-OPENING-SETS", "RK-OPENING-SIZE", "RK-DRAFT", "RK-FAIL-VALID",
        "RK-POOL-EMPTY", "RK-DRAW",
    }
    assert expected <= set(ids), sorted(expected - set(ids))
    assert all(ids[r] is None for r in ("TURN", "SEAT", "GAME-OVER", "ACTION"))
    for rule in expected:
        owner = ids[rule]
        assert (owner.id if owner is not None else None) == ("rummikub" if rule.startswith("RK-") else None)


@pytest.mark.parametrize("game", [info.id for info in rummykit.games()])
def test_every_rule_id_is_explained(game: str) -> None:
    info = rummykit.find_game(game)
    page = page_of(info)
    assert page.is_file(), f"{game}: its rules page {info.rules_page} does not exist"
    text = page.read_text(encoding="utf-8")
    mine = [r for r, owner in source_rule_ids().items() if page_of(owner) == page]
    missing = sorted(r for r in mine if f"`{r}`" not in text)
    assert not missing, f"rule ids not explained on {info.rules_page}: {', '.join(missing)}"


def test_rummikub_rule_table_lists_no_unknown_ids() -> None:
    text = RUMMIKUB_PAGE.read_text(encoding="utf-8")
    section = text.split("## Rule ids", 1)[1]
    listed = set(re.findall(r"^\| `([A-Z][A-Z0-9-]*)` \|", section, flags=re.MULTILINE))
    known = {r for r, owner in source_rule_ids().items() if page_of(owner) == RUMMIKUB_PAGE}
    assert listed == known


@pytest.mark.parametrize("game", [info.id for info in rummykit.games()])
def test_every_option_is_on_its_rules_page(game: str) -> None:
    info = rummykit.find_game(game)
    assert info.rules_page, f"{game} has no rules page"
    page = ROOT / info.rules_page
    assert page.is_file(), f"{game}: its rules page {info.rules_page} does not exist"
    text = page.read_text(encoding="utf-8")
    for spec in info.options:
        assert f"`{spec.name}`" in text, f"option {spec.name} of {game} is not on {info.rules_page}"


def test_rummikub_options_table_shows_defaults() -> None:
    text = RUMMIKUB_PAGE.read_text(encoding="utf-8")
    for spec in rummykit.find_game("rummikub").options:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{spec.name}` |")), None)
        assert row is not None, f"the options table has no row for {spec.name}"
        assert row.split("|")[2].strip() == spec.format(spec.default), row


def test_docs_links_resolve() -> None:
    for name in ["README.md", "docs/index.md", "docs/notation.md", *GAME_PAGES]:
        path = ROOT / name
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (path.parent / target).exists(), f"{name} links to missing {target}"
