"""The study pages tell the truth: examples run, links and pictures exist, every command on them is accepted."""

from __future__ import annotations

import doctest
import io
import re
import shlex
from pathlib import Path

import pytest

from rummykit.cli.main import build_parser
from rummykit.cli.start import parse_options
from rummykit.study.command import bot_plan, check_run_arguments, parse_vary
from rummykit.study.runner import make_study
from rummykit.study.tournament import check_tournament

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "study.md", *sorted((ROOT / "docs" / "studies").glob("*.md"))]
SCRIPT = ROOT / "docs" / "studies" / "run-all.sh"


def test_there_are_study_pages() -> None:
    names = {p.name for p in PAGES}
    assert {"study.md", "index.md", "first-player.md", "rummikub-opening.md", "conveyor-sets.md"} <= names


def test_the_examples_of_the_study_page_run() -> None:
    text = (ROOT / "docs" / "study.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "docs/study.md", "docs/study.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_and_pictures_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def commands() -> list[str]:
    """Every `rummykit simulate|tournament|report ...` line of the study pages and of run-all.sh."""
    found: list[str] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8").replace("\\\n", " ")
        found += re.findall(r"^(rummykit (?:simulate|tournament|report) [^\n#]*)", text, flags=re.M)
    script = SCRIPT.read_text(encoding="utf-8").replace("\\\n", " ")
    for line in re.findall(r"^study (\S+) ((?:simulate|tournament) [^\n]*)", script, flags=re.M):
        name, rest = line
        found.append(f"rummykit {rest} --seed 1 --out {name}.parquet --report {name}")
    return found


def test_the_pages_hold_commands() -> None:
    assert len(commands()) >= 15


@pytest.mark.parametrize("line", commands())
def test_every_command_on_the_pages_is_accepted(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(line)[1:]
    args = build_parser(io.StringIO(), io.StringIO()).parse_args(argv)
    if args.command == "report":
        return
    options = parse_options(args.option)
    if args.command == "simulate":
        levels, rotate, seats = bot_plan(args.game, args.bot, args.players)
        make_study(args.game, players=seats, bots=levels, rotate=rotate, options=options,
                   vary=parse_vary(args.vary), games=args.games, seed=args.seed or 0)
    else:
        seats = args.players or 2
        levels, _ = check_tournament(args.game, args.bots.split(","), seats, games=args.games, width=args.width,
                                     resamples=args.resamples)
        make_study(args.game, players=seats, bots=levels[:seats], options=options, games=1)
    if args.backend == "local":
        check_run_arguments(args)
