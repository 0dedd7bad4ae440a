"""The first compile on two cores (issue 25, session 14).

On a cold cache a second process compiles ``compiled.CHILD_PART`` of the kernel
into numba's cache while the first compiles the rest and then loads that part
from the cache. The first two tests compile for real (in a subprocess, with an
empty ``NUMBA_CACHE_DIR``): the two processes leave nothing cold and the first
one compiles nothing of the second's part; when the second process fails, the
first compiles everything itself and says why. The others check the rules around
the second process without compiling: when it is not started, that it is
stopped (never left behind) on a timeout or an interrupt.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from rummykit.solve import compiled, kernel

SRC = Path(__file__).resolve().parents[1] / "src"
WAIT = 600  # seconds a real compile may take here at most (it takes 15 to 60)

_REPORT = """
import json, sys
from rummykit.solve import compiled
{patch}
compiled.warm_up()
from rummykit.solve import kernel
print(json.dumps({{
    "cold": compiled.is_cold(kernel),
    "compiled": sorted(e.py_func.__name__ for e in kernel.ENTRIES if sum(e.stats.cache_misses.values())),
    "loaded": sorted(e.py_func.__name__ for e in kernel.ENTRIES if sum(e.stats.cache_hits.values())),
    "child_part": sorted(compiled.CHILD_PART),
    "versions": max(len(e.signatures) for e in kernel.ENTRIES),
}}))
"""


def _warm_up(cache: Path, patch: str = "") -> tuple[dict[str, Any], str]:
    """warm_up() in a fresh process with this numba cache: (what it compiled and loaded, stderr).
    The second process is started however busy the machine is."""
    patch = "compiled._idle_cores = lambda: None\n" + patch
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(SRC))
    done = subprocess.run(
        [sys.executable, "-c", _REPORT.format(patch=patch)],
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT,
        check=True,
    )
    report: dict[str, Any] = json.loads(done.stdout)
    return report, done.stderr


def test_two_processes_fill_the_cache_and_the_first_loads_the_seconds_part(tmp_path: Path) -> None:
    report, errors = _warm_up(tmp_path)
    assert report["cold"] is False
    assert report["versions"] == 1  # compiled ahead for the types the calls have (kernel.PYTHON_CALLS)
    names = {e.py_func.__name__ for e in kernel.ENTRIES}
    assert set(report["child_part"]) < names
    # the second process compiled its part: the first loaded it from the cache, compiled the rest
    assert set(report["loaded"]) == set(report["child_part"])
    assert set(report["compiled"]) == names - set(report["child_part"])
    lines = errors.splitlines()
    assert lines[0] == compiled.NOTICE and lines[1].startswith("rummykit: the solver is ready (")
    assert len(lines) == 2  # nothing of the second process on the error stream
    again, errors = _warm_up(tmp_path)  # a later run loads everything, compiles nothing
    assert again["cold"] is False and again["compiled"] == [] and set(again["loaded"]) == names
    assert errors == ""


def test_when_the_second_process_fails_the_first_compiles_everything(tmp_path: Path) -> None:
    fails = "import sys; print('no luck', file=sys.stderr); sys.exit(3)"
    patch = f"compiled._child_command = lambda kernel, cache_dir: [sys.executable, '-c', {fails!r}]"
    report, errors = _warm_up(tmp_path, patch)
    assert report["cold"] is False
    assert set(report["compiled"]) == {e.py_func.__name__ for e in kernel.ENTRIES}
    lines = errors.splitlines()
    assert lines[0] == compiled.NOTICE
    assert lines[1] == "rummykit: the second compile process failed (exit 3); compiling its part here"
    assert lines[2] == "  no luck"
    assert lines[3].startswith("rummykit: the solver is ready (") and len(lines) == 4


# -- without compiling --------------------------------------------------------------------------


def _fake_kernel(cache_dir: Path) -> ModuleType:
    entry = SimpleNamespace(_cache=SimpleNamespace(cache_path=str(cache_dir)))
    return SimpleNamespace(__file__=kernel.__file__, ENTRIES=(entry, entry))  # type: ignore[return-value]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """The second processes compile_cold starts (each sleeps instead of compiling)."""
    children: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recording(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        child: subprocess.Popen[bytes] = popen(*args, **kwargs)
        children.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", recording)
    monkeypatch.setattr(
        compiled, "_child_command", lambda kernel, cache_dir: [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    monkeypatch.setattr(compiled, "_cores", lambda: 2)
    monkeypatch.setattr(compiled, "_idle_cores", lambda: 2.0)
    return children


def test_a_second_process_too_slow_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[subprocess.Popen[bytes]]
) -> None:
    monkeypatch.setattr(compiled, "CHILD_GRACE", 0.5)
    monkeypatch.setattr(compiled, "compile_entries", lambda kernel, names, exclude=False: None)
    begun = time.perf_counter()
    compiled.compile_cold(_fake_kernel(tmp_path))
    assert time.perf_counter() - begun < 20
    assert len(started) == 1 and started[0].poll() is not None  # stopped and waited for


def test_an_interrupt_stops_the_second_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[subprocess.Popen[bytes]]
) -> None:
    def interrupted(kernel: ModuleType, names: frozenset[str], exclude: bool = False) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(compiled, "compile_entries", interrupted)
    with pytest.raises(KeyboardInterrupt):
        compiled.compile_cold(_fake_kernel(tmp_path))
    assert len(started) == 1 and started[0].poll() is not None


def test_no_second_process_without_a_cache_the_jit_or_a_spare_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[subprocess.Popen[bytes]]
) -> None:
    compiled.compile_cold(_fake_kernel(tmp_path / "absent"))  # no cache directory to write to
    # with NUMBA_DISABLE_JIT the entries are plain functions, without numba's cache
    compiled.compile_cold(SimpleNamespace(__file__=kernel.__file__, ENTRIES=(len, len)))  # type: ignore[arg-type]
    monkeypatch.setattr(compiled, "_idle_cores", lambda: 1.0)  # another program busy on one of two
    compiled.compile_cold(_fake_kernel(tmp_path))
    monkeypatch.setattr(compiled, "_cores", lambda: 1)
    compiled.compile_cold(_fake_kernel(tmp_path))
    assert started == []


def test_idle_cores_are_read_from_the_machine() -> None:
    idle = compiled._idle_cores(0.05)
    cores = len(os.sched_getaffinity(0))
    assert idle is None or 0.0 <= idle <= cores + 1e-9


def test_idle_cores_count_only_the_cores_this_process_may_use() -> None:
    # the machine's second core idle, this process held to the first (busy): no core to spare
    before = "cpu  100 0 0 100 0 0 0 0\ncpu0 50 0 0 50 0 0 0 0\ncpu1 50 0 0 50 0 0 0 0\nintr 1 2\n"
    after = "cpu  120 0 0 120 0 0 0 0\ncpu0 70 0 0 50 0 0 0 0\ncpu1 50 0 0 70 0 0 0 0\nintr 3 4\n"
    assert compiled.idle_between(before, after, {0}) == 0.0
    assert compiled.idle_between(before, after, {1}) == 1.0
    assert compiled.idle_between(before, after, None) == 1.0  # the whole machine: one of two idle
    assert compiled.idle_between(before, before, None) is None  # no time passed
    assert compiled.idle_between("cpu0 x y\n", after, None) is None  # unreadable


def test_the_second_process_stops_when_the_first_ends(tmp_path: Path) -> None:
    # it watches its standard input: closed when the first process ends, however it ends
    code = "import sys; sys.argv[1:] = ['x', 'y']; from rummykit.solve.compiled import _child_main; _child_main()"
    env = dict(os.environ, PYTHONPATH=str(SRC))
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, env=env)
    assert child.stdin is not None
    child.stdin.close()
    assert child.wait(timeout=60) == compiled._STOPPED
