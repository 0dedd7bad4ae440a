"""The package's layering (DESIGN.md): imports point down only.

Reads the imports of every module under ``src/rummykit`` (with ``ast``, so
nothing is imported or executed) and checks each against the layer order::

    interfaces   presenters, cli, tui, server, rl, web, study, __main__
    services     bots, sim, records, solve
    catalogue    catalogue (and the package facade ``rummykit/__init__``)
    games        rulesets (one package per game: ``rummykit.games`` is the function listing them)
    engine       engine
    blocks       blocks
    melds        melds
    pieces       pieces
    base         errors, words

A module may import its own layer or any layer below, with no exception. The
catalogue names the games it registers as text and imports them on first use
(:func:`test_catalogue_entries_name_real_modules` checks those names); the bot
levels and the presenters are registered in their own layers
(``bots/registry.py``, ``presenters/registry.py``), and the catalogue names no
module above the games. Nothing below the interfaces imports a UI, web, numeric
or RL library.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "rummykit"

LAYERS: dict[str, int] = {
    "errors": 0,
    "words": 0,
    "pieces": 1,
    "melds": 2,
    "blocks": 3,
    "engine": 4,
    "rulesets": 5,
    "catalogue": 6,
    "": 6,  # the facade, rummykit/__init__.py: the engine's contract and the catalogue
    "bots": 7,
    "sim": 7,
    "records": 7,
    "solve": 7,
    "session": 7,
    "presenters": 8,
    "cli": 8,
    "tui": 8,
    "server": 8,
    "rl": 8,
    "web": 8,
    "__main__": 8,
    "study": 8,  # simulate, tournament, report: the study commands and their library (docs/study.md)
}
INTERFACES = 8
LAYER_NAMES = {
    0: "base",
    1: "pieces",
    2: "melds",
    3: "blocks",
    4: "engine",
    5: "games",
    6: "catalogue",
    7: "services",
    8: "interfaces",
}

# Third-party libraries only the interfaces may use.
INTERFACE_ONLY = {"textual", "fastapi", "starlette", "uvicorn", "numpy", "numba", "gymnasium", "pettingzoo", "torch"}

# The one exception: the solver's compiled search kernel (and the calls by address it
# makes, in rummykit.solve.byaddress, which only the kernel imports). It is imported lazily
# (inside functions of rummykit.solve.tiles), so no other module loads numpy on import; see
# test_importing_the_package_loads_no_numeric_library.
ACCELERATED = {"rummykit.solve.kernel": {"numba", "numpy"}, "rummykit.solve.byaddress": {"numba"}}

# (importing module, function, imported module prefix) allowed to point up: none.
ALLOWED_UPWARD: set[tuple[str, str, str]] = set()


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (absolute)
    line: int
    function: str | None  # the enclosing function, if any


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(module: str) -> bool:
    return (SRC / Path(*module.split(".")) / "__init__.py").exists()


def is_module(module: str) -> bool:
    path = SRC / Path(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def find_imports(module: str, source: str, *, package: bool | None = None) -> list[Import]:
    """Every import in ``source`` (the text of ``module``), resolved to absolute module names."""
    tree = ast.parse(source)
    if package is None:
        package = is_package(module)
    here = module if package else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, node.lineno, function))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                # ``from rummykit import errors`` imports a module; ``from rummykit import Tile`` does not.
                found.append(Import(module, sub if is_module(sub) else target, node.lineno, function))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return found


def layer_of(module: str) -> int | None:
    if module == PACKAGE:
        return LAYERS[""]
    if not module.startswith(PACKAGE + "."):
        return None
    top = module.split(".")[1]
    return LAYERS.get(top)


def violations(imports: list[Import]) -> list[str]:
    out = []
    for imp in imports:
        mine = layer_of(imp.module)
        assert mine is not None, f"{imp.module} is not classified in LAYERS"
        root = imp.target.split(".")[0]
        if root in INTERFACE_ONLY and mine < INTERFACES and root not in ACCELERATED.get(imp.module, ()):
            out.append(f"{imp.module}:{imp.line} imports {imp.target}, which only the interfaces may use")
            continue
        if root != PACKAGE:
            continue
        theirs = layer_of(imp.target)
        if theirs is None:
            out.append(f"{imp.module}:{imp.line} imports {imp.target}, which belongs to no layer (classify it)")
            continue
        if theirs <= mine:
            continue
        if any(
            imp.module == m and imp.function == f and (imp.target == p or imp.target.startswith(p + "."))
            for m, f, p in ALLOWED_UPWARD
        ):
            continue
        out.append(
            f"{imp.module}:{imp.line} ({LAYER_NAMES[mine]}) imports {imp.target} ({LAYER_NAMES[theirs]}),"
            " a higher layer"
        )
    return out


def all_modules() -> list[tuple[str, Path]]:
    paths = sorted((SRC / PACKAGE).rglob("*.py"))
    return [(module_name(p), p) for p in paths]


def all_imports() -> list[Import]:
    out: list[Import] = []
    for module, path in all_modules():
        out.extend(find_imports(module, path.read_text(encoding="utf-8")))
    return out


# -- the real package ---------------------------------------------------------------------


def test_every_module_belongs_to_a_layer() -> None:
    modules = all_modules()
    assert len(modules) > 10
    unclassified = [m for m, _ in modules if layer_of(m) is None]
    assert unclassified == [], f"add these to LAYERS in {__file__}: {unclassified}"


def test_imports_point_down_only() -> None:
    problems = violations(all_imports())
    assert problems == [], "\n".join(problems)


def test_no_interface_library_below_the_interfaces() -> None:
    below = [
        f"{imp.module}:{imp.line} imports {imp.target}"
        for imp in all_imports()
        if imp.target.split(".")[0] in INTERFACE_ONLY
        and (layer_of(imp.module) or 0) < INTERFACES
        and imp.target.split(".")[0] not in ACCELERATED.get(imp.module, ())
    ]
    assert below == [], "\n".join(below)


def test_the_kernel_is_imported_lazily() -> None:
    eager = [
        f"{imp.module}:{imp.line}"
        for imp in all_imports()
        if imp.target == "rummykit.solve.kernel" or imp.target.startswith("rummykit.solve.kernel.")
        if imp.function is None
    ]
    assert eager == [], "import the kernel inside a function: " + ", ".join(eager)


def test_importing_the_package_loads_no_numeric_library() -> None:
    code = (
        "import sys, rummykit, rummykit.solve, rummykit.bots.solver, rummykit.cli.main\n"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_terminal_app_is_an_interface_loaded_only_by_its_command() -> None:
    """``rummykit/tui/`` sits in the interfaces layer; the ``rummykit`` command loads Textual only for ``tui``."""
    assert layer_of("rummykit.tui.app") == INTERFACES
    assert (SRC / PACKAGE / "tui" / "app.py").is_file()
    code = "import sys, rummykit.cli.main; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=SRC)
    assert out.stdout.strip() == "False"


def test_the_checker_reads_the_real_imports() -> None:
    imports = all_imports()
    pairs = {(i.module, i.target) for i in imports}
    # Known edges of the real package: the checker would be vacuous without them.
    assert ("rummykit.rulesets.rummikub", "rummykit.engine.core") in pairs
    assert ("rummykit.rulesets.rummikub", "rummykit.blocks.table") in pairs
    assert ("rummykit.blocks.table", "rummykit.melds.base") in pairs
    assert ("rummykit.melds.tiles", "rummykit.pieces.tiles") in pairs
    assert not [i for i in imports if i.module.startswith("rummykit.engine") and i.target.startswith("rummykit.rulesets")]


def test_catalogue_entries_name_real_modules() -> None:
    from rummykit import catalogue

    assert catalogue.GAMES
    for package in catalogue.GAMES:
        assert is_package(package) and layer_of(package) == LAYERS["rulesets"], package


def test_the_catalogue_names_no_module_above_the_games() -> None:
    """The catalogue knows games only: it names (in code, as text or import) no bot, presenter or interface module."""
    tree = ast.parse((SRC / PACKAGE / "catalogue.py").read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
        if isinstance(node.body[0], ast.Expr)
    }
    texts = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]
    named = {m for text in texts for m in re.findall(r"rummykit(?:\.\w+)+", text)}
    named |= {imp.target for imp in all_imports() if imp.module == "rummykit.catalogue"}
    above = sorted(m for m in named if (layer_of(m) or 0) > LAYERS["catalogue"])
    assert above == [], f"the catalogue names modules of higher layers: {above}"
    assert any(layer_of(m) == LAYERS["rulesets"] for m in named)  # it does name the games


def test_the_bot_registry_lives_in_the_bots_layer_and_covers_every_game() -> None:
    from rummykit.bots import registry
    from rummykit.catalogue import games

    assert layer_of(registry.__name__) == LAYERS["bots"]
    ids = {info.id for info in games()}
    for bot in registry.BOTS:
        module = bot.factory.partition(":")[0]
        assert is_module(module) and layer_of(module) == LAYERS["bots"], bot
        assert bot.games is None or set(bot.games) <= ids, bot
    for game in ids:
        assert registry.bot_levels(game), f"no bot plays {game}"


def test_the_presenter_registry_lives_in_the_presenters_layer_and_covers_every_game() -> None:
    from rummykit.catalogue import games
    from rummykit.presenters import registry

    assert layer_of(registry.__name__) == LAYERS["presenters"]
    assert set(registry.PRESENTERS) == {info.id for info in games()}
    for game, module in registry.PRESENTERS.items():
        assert is_module(module) and module.startswith("rummykit.presenters."), (game, module)


def test_the_pieces_layer_imports_nothing_above_the_errors() -> None:
    for imp in all_imports():
        if imp.module.startswith("rummykit.pieces") and imp.target.startswith(PACKAGE):
            assert imp.target == "rummykit.errors" or imp.target.startswith("rummykit.pieces"), imp


# -- the checker itself ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "source", "package"),
    [
        ("rummykit.pieces.tiles", "from rummykit.melds.tiles import check_tiles\n", False),
        ("rummykit.pieces.tiles", "from rummykit import new_game\n", False),
        ("rummykit.melds.tiles", "from ..blocks import table\n", False),
        ("rummykit.melds.tiles", "from rummykit.engine.core import GameState\n", False),
        ("rummykit.blocks.table", "import rummykit.engine.core\n", False),
        ("rummykit.blocks.table", "import numpy as np\n", False),
        ("rummykit.engine.core", "from rummykit.rulesets import rummikub\n", False),
        ("rummykit.engine.core", "def helper():\n    import rummykit.rulesets\n", False),
        ("rummykit.engine.core", "def _load_games():\n    import rummykit.rulesets\n", False),
        ("rummykit.rulesets.rummikub", "from rummykit.catalogue import find_game\n", False),
        ("rummykit.catalogue", "from rummykit.bots.random import RandomBot\n", False),
        ("rummykit.engine.options", "def _load_games():\n    import rummykit.rulesets\n", False),
        ("rummykit.engine.core", "from rummykit.bots.base import make_bot\n", False),
        ("rummykit.rulesets.rummikub", "from rummykit.bots.random import RandomBot\n", False),
        ("rummykit.rulesets.rummikub", "from rummykit.cli import main\n", False),
        ("rummykit.rulesets", "from .. import sim\n", True),
        ("rummykit.records", "from rummykit.cli.main import main\n", False),
        ("rummykit.sim", "import textual.app\n", False),
        ("rummykit.bots.random", "from fastapi import FastAPI\n", False),
        ("rummykit.solve.tiles", "import numba\n", False),
        ("rummykit.solve.play", "import numpy as np\n", False),
    ],
)
def test_the_checker_catches_an_upward_import(module: str, source: str, package: bool) -> None:
    assert violations(find_imports(module, source, package=package)), f"{module}: {source!r} was not caught"


@pytest.mark.parametrize(
    ("module", "source", "package"),
    [
        ("rummykit.catalogue", "from rummykit.engine.core import GameInfo\n", False),
        ("rummykit.rulesets.rummikub", "from rummykit.engine.core import GameState\nfrom ..blocks import table\n", False),
        ("rummykit.bots.greedy", "from rummykit.rulesets.rummikub import Play\nfrom rummykit.sim import bot_rng\n", False),
        ("rummykit.cli.main", "import textual\nfrom rummykit import __version__\n", False),
        ("rummykit.melds", "from . import tiles\nfrom rummykit.errors import RuleError\n", True),
        ("rummykit.pieces.tiles", "import enum\nfrom rummykit.errors import ParseError\n", False),
    ],
)
def test_the_checker_allows_downward_imports(module: str, source: str, package: bool) -> None:
    assert violations(find_imports(module, source, package=package)) == []


MAX_MODULE_LINES = 600
"""No module over this many lines (issue 22: sizes that show the design), but the solver's compiled kernel."""
LONG_ALLOWED = {"solve/kernel.py"}


def test_no_module_is_over_600_lines_but_the_solvers_kernel() -> None:
    root = SRC / PACKAGE
    long = {
        path.relative_to(root).as_posix(): count
        for path in root.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert set(long) <= LONG_ALLOWED, f"split these by role: {sorted(set(long) - LONG_ALLOWED)}"
