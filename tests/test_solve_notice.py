"""The first solve after installing compiles the kernel: it must say so on stderr, never freeze silently.

The real case runs ``rummykit solve --json`` in a subprocess with an empty numba
cache (``NUMBA_CACHE_DIR``) and stops it as soon as the notice is out, so the
test does not wait for the compilation itself. The notice's logic (at once
when the cache is empty, late when a load drags on, nothing on a quick load)
is checked in-process.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from rummykit.solve import compiled

SRC = Path(__file__).resolve().parents[1] / "src"


def test_first_solve_with_an_empty_cache_says_it_compiles(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"), PYTHONPATH=str(SRC))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "solve", "rummikub", "--rack", "R1 R2 R3", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # blocks until the first line on stderr (or the end)
    finally:
        proc.kill()
        out, _ = proc.communicate()
    assert line.strip() == compiled.NOTICE
    assert "15 to 40 seconds" in line
    assert out == ""  # --json output stays clean: the notice went to stderr only


@pytest.fixture
def fake_load(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """``compiled._load`` with a kernel that 'compiles' in 0.3 s; the notice goes to a buffer."""
    monkeypatch.setattr(compiled, "run_every_entry", lambda kernel: time.sleep(0.3))
    monkeypatch.setattr(compiled, "compile_cold", lambda kernel: None)  # no second process
    return io.StringIO()


def test_notice_at_once_when_the_cache_is_empty(monkeypatch: pytest.MonkeyPatch, fake_load: io.StringIO) -> None:
    monkeypatch.setattr(compiled, "is_cold", lambda kernel: True)
    with compiled.notices_to(fake_load):
        assert isinstance(compiled._load(), ModuleType)
    lines = fake_load.getvalue().splitlines()
    assert lines[0] == compiled.NOTICE and lines[1].startswith("rummykit: the solver is ready (")


def test_notice_when_a_load_drags_on(monkeypatch: pytest.MonkeyPatch, fake_load: io.StringIO) -> None:
    monkeypatch.setattr(compiled, "is_cold", lambda kernel: False)
    monkeypatch.setattr(compiled, "LATE", 0.05)
    with compiled.notices_to(fake_load):
        compiled._load()
    assert fake_load.getvalue().splitlines()[0] == compiled.NOTICE


def test_no_notice_on_a_quick_load(monkeypatch: pytest.MonkeyPatch, fake_load: io.StringIO) -> None:
    monkeypatch.setattr(compiled, "is_cold", lambda kernel: False)
    monkeypatch.setattr(compiled, "run_every_entry", lambda kernel: None)
    with compiled.notices_to(fake_load):
        compiled._load()
    time.sleep(0.1)
    assert fake_load.getvalue() == ""


def test_the_cache_check_reads_numbas_index(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled.warm_up()  # compiled (or loaded) now, so the cache holds every entry
    from rummykit.solve import kernel

    assert compiled.is_cold(kernel) is False
    for entry in kernel.ENTRIES:
        # as a fresh process sees it: nothing loaded yet, the code in numba's index
        monkeypatch.setattr(entry, "overloads", {})
        assert not entry.signatures
    assert compiled.is_cold(kernel) is False
    # an empty cache (numba's stubs leave out the dispatcher's cache, an internal that is_cold reads)
    monkeypatch.setattr(kernel.ENTRIES[0]._cache._cache_file, "_load_index", dict)  # type: ignore[attr-defined]
    assert compiled.is_cold(kernel) is True
