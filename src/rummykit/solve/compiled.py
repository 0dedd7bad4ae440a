"""Loading the compiled kernel, and saying so when numba has to compile it.

numba compiles :mod:`rummykit.solve.kernel` on its first use after an install
or an upgrade and keeps the machine code in its cache; later runs load it in a
fraction of a second. Nothing may look frozen meanwhile: when the cache has no
code for the kernel on this machine, :func:`kernel_module` first writes
:data:`NOTICE` to the error stream (so ``--json`` output stays clean), compiles
every entry, then writes a line saying how long it took. When the cache has the
code, each entry is loaded from it on its first call (a one-off ``rummykit
solve`` then loads only the search it needs). :func:`warm_up` loads everything
at once, giving the notice anyway if that takes longer than :data:`LATE`
seconds.

The first compile uses two cores when the machine has one to spare
(:func:`compile_cold`): the kernel's entries are compiled independently of one
another (the rarely called parts are called through their address, see
:mod:`rummykit.solve.byaddress`), so a second Python process compiles
:data:`CHILD_PART` into numba's cache while this one compiles the rest, then
this one loads the second process's part from the cache. If that process cannot
run, fails, or takes too long, this one compiles what is missing itself.

Importing this module loads neither numba nor numpy.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import IO, TextIO

NOTICE = (
    "rummykit: compiling the solver's search for this machine; this happens once after installing"
    " and usually takes 15 to 40 seconds, depending on the machine (later runs load it from numba's cache)..."
)
LATE = 3.0
"""Seconds a load from the cache may take before the notice is given anyway."""
CHILD_PART = frozenset(
    {"_search_py", "_depth_first_loop_py", "_sweep_rows_py", "_successors_py", "_fill_path_row_py", "_reachable_runs_py"}
)
"""The entries (by the name of their Python function) the second process compiles on a
cold cache: the searches, their loops, the path's rows and the relaxation's reachable
runs, half of the compile time as measured in session 14 (numba's compile events, each
function's own time, and each process's CPU time); this process compiles the rest (the
move generator, the relaxation, the groups' jokers, the initial meld's successors)."""
SPARE_CORES = 1.5
"""Idle cores (this process's included) a look at the machine must find before the
second process is started: with another program busy on one of two cores, the two
processes only took turns on the other, and the compile took longer than in one."""
CHILD_GRACE = 30.0
"""Seconds the second process may run past twice this process's own part before it is
stopped and its part compiled here."""

_lock = threading.Lock()
_kernel: ModuleType | None = None
_stream: TextIO | None = None


@contextmanager
def notices_to(stream: TextIO) -> Iterator[None]:
    """Write the compile notice to ``stream`` (instead of ``sys.stderr``) within the block."""
    global _stream
    before, _stream = _stream, stream
    try:
        yield
    finally:
        _stream = before


def kernel_module() -> ModuleType:
    """The compiled kernel, loaded (or compiled, with a notice) on first use in this process."""
    global _kernel
    if _kernel is None:
        with _lock:
            if _kernel is None:
                _kernel = _load(every_entry=False)
    return _kernel


def warm_up() -> float:
    """Load or compile every entry of the kernel now; returns the seconds it took."""
    global _kernel
    started = time.perf_counter()
    with _lock:
        _kernel = _load(every_entry=True)
    return time.perf_counter() - started


def _say(line: str) -> None:
    stream = _stream if _stream is not None else sys.stderr
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass  # a closed or broken error stream must not stop the solver


def _load(every_entry: bool = True) -> ModuleType:
    started = time.perf_counter()
    from rummykit.solve import kernel

    cold = is_cold(kernel)
    if not cold and not every_entry:
        return kernel  # each entry loads from the cache on its first call
    said = threading.Event()

    def notice() -> None:
        if not said.is_set():
            said.set()
            _say(NOTICE)

    late = threading.Timer(LATE, notice)
    late.daemon = True
    if cold:
        notice()
    else:
        late.start()
    try:
        if cold:
            compile_cold(kernel)
        run_every_entry(kernel)
    finally:
        late.cancel()
    if said.is_set():
        _say(f"rummykit: the solver is ready ({time.perf_counter() - started:.0f} s)")
    return kernel


def is_cold(kernel: ModuleType) -> bool:
    """True when numba's cache holds no machine code for some entry of the kernel on this
    machine (numba will compile it): no index entry for this code and this CPU.

    This reads numba's cache index through its internal API; if that ever fails, the
    answer is True (compile everything now, with the notice) rather than a silent wait.
    """
    try:
        for entry in kernel.ENTRIES:
            if entry.signatures:
                continue  # compiled or loaded in this process already
            cache = entry._cache
            _sig, magic, code = cache._index_key(None, entry.targetctx.codegen())
            if not any(key[1:] == (magic, code) for key in cache._cache_file._load_index()):
                return True
    except Exception:  # numba's internals moved: compile with the notice rather than wait silently
        return True
    return False


def run_every_entry(kernel: ModuleType) -> None:
    """Run each entry of the kernel once on a small problem, so that numba compiles (or
    loads from its cache) all of it now rather than in the middle of a game."""
    from rummykit.solve.tiles import COLOURS, TOP, Problem, _Kernel

    rack = [[0] * (TOP + 2) for _ in range(COLOURS)]
    table = [[0] * (TOP + 2) for _ in range(COLOURS)]
    for n in (4, 5, 6):
        rack[0][n] = 1
        table[1][n] = 1
    search = _Kernel(Problem(table, rack, table_jokers=0, rack_jokers=1), module=kernel)
    search.relax()
    for strategy in (kernel.REACH, kernel.SWEEP):
        search.run(strategy, 1)


def compile_entries(kernel: ModuleType, names: frozenset[str] | None, exclude: bool = False) -> None:
    """Compile (or load from numba's cache) the entries whose Python function is named in
    ``names`` (all of them when None; all but those with ``exclude``), in the order of
    ``kernel.ENTRIES``."""
    from rummykit.solve.byaddress import address_of

    # each entry for the argument types its calls have (numba's cache keys an entry by them: a process
    # compiling for other types would not find what another wrote): a by-address function's, found
    # through address_of as the kernel finds it, or those of Python's call (kernel.PYTHON_CALLS)
    by_address = {function: (restype, argtypes) for _cell, function, restype, argtypes in kernel.BY_ADDRESS}
    for entry in kernel.ENTRIES:
        if names is not None and (entry.py_func.__name__ in names) == exclude:
            continue
        if entry in by_address:
            address_of(entry, *by_address[entry])
        else:
            entry.compile(kernel.PYTHON_CALLS[entry])


def _cache_dir(kernel: ModuleType) -> str | None:
    """The directory numba's cache writes every entry to, if it is one writable directory."""
    try:
        paths = {entry._cache.cache_path for entry in kernel.ENTRIES}
    except AttributeError:  # no cache (numba's internals moved, or the JIT is off: plain functions)
        return None
    if len(paths) != 1:
        return None
    path = str(paths.pop())
    return path if os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK) else None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _idle_cores(seconds: float = 0.2) -> float | None:
    """How many of the cores this process may run on were idle over the next ``seconds``
    (from Linux's ``/proc/stat``; None where that cannot be read), this process sleeping
    meanwhile. A container or ``taskset`` that leaves it fewer cores than the machine's
    counts only those: an idle core it may not use is no core to spare."""
    try:
        allowed: set[int] | None = set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = None
    try:
        with open("/proc/stat") as stat:
            before = stat.read()
        time.sleep(seconds)
        with open("/proc/stat") as stat:
            after = stat.read()
    except OSError:
        return None
    return idle_between(before, after, allowed)


def _core_ticks(stat: str, allowed: set[int] | None) -> dict[int, tuple[int, int]]:
    """Each core's (idle + iowait, all) ticks in a ``/proc/stat`` text, the ``allowed`` ones only (None: all)."""
    ticks: dict[int, tuple[int, int]] = {}
    for line in stat.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or not name[3:].isdigit():
            continue
        core = int(name[3:])
        if allowed is None or core in allowed:
            values = [int(x) for x in rest.split()[:8]]  # user .. steal
            ticks[core] = (values[3] + values[4], sum(values))
    return ticks


def idle_between(before: str, after: str, allowed: set[int] | None) -> float | None:
    r"""The idle cores among ``allowed`` between two readings of ``/proc/stat`` (None: unreadable or no time passed).

    >>> a = "cpu  9 0 0 9 0 0 0 0\ncpu0 5 0 0 5 0 0 0 0\ncpu1 4 0 0 4 0 0 0 0\n"
    >>> b = "cpu  29 0 0 19 0 0 0 0\ncpu0 5 0 0 15 0 0 0 0\ncpu1 24 0 0 4 0 0 0 0\n"
    >>> idle_between(a, b, None), idle_between(a, b, {0}), idle_between(a, b, {1})
    (1.0, 1.0, 0.0)
    """
    try:
        first, second = _core_ticks(before, allowed), _core_ticks(after, allowed)
    except (ValueError, IndexError):
        return None
    idle, seen = 0.0, False
    for core, (idle_after, total_after) in second.items():
        if core in first and total_after > first[core][1]:
            idle += (idle_after - first[core][0]) / (total_after - first[core][1])
            seen = True
    return idle if seen else None


_NOT_HERE = 75  # the second process's exit status when it found another kernel file or cache
_STOPPED = 70  # its exit status when this process closed its standard input


def _child_command(kernel: ModuleType, cache_dir: str) -> list[str]:
    """The second process: this Python, compiling :data:`CHILD_PART` of this very kernel
    file into this cache directory (it checks both and stops at once otherwise)."""
    code = "from rummykit.solve.compiled import _child_main; _child_main()"
    return [sys.executable, "-c", code, str(kernel.__file__), cache_dir, *sorted(CHILD_PART)]


def _child_main() -> None:
    """The second process's part (see :func:`_child_command`). It stops when this
    process's standard input closes: the first process has ended or stopped it. A Ctrl-C
    is left to the first process (which stops this one on the way out, or carries on)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        try:
            while os.read(0, 4096):  # the raw descriptor: no lock of Python's stdin held
                pass
        finally:
            os._exit(_STOPPED)

    threading.Thread(target=watch, daemon=True).start()
    kernel_file, cache_dir, *names = sys.argv[1:]
    from rummykit.solve import kernel

    if Path(str(kernel.__file__)).resolve() != Path(kernel_file).resolve() or _cache_dir(kernel) != cache_dir:
        sys.exit(_NOT_HERE)  # another kernel or another cache: compiling here would help no one
    compile_entries(kernel, frozenset(names))


def compile_cold(kernel: ModuleType) -> None:
    """Compile the kernel into numba's cache on two cores: a second process compiles
    :data:`CHILD_PART` while this one compiles the rest; :func:`run_every_entry` then
    loads that part from the cache. Where that cannot be or would not help (one core, no
    writable cache, the JIT off, no core to spare, the process failing or stopped),
    :func:`run_every_entry` compiles what is missing here; a failed process's error
    output is passed on, nothing else of it."""
    cache_dir = _cache_dir(kernel) if _cores() >= 2 else None  # None also with the JIT off
    if cache_dir is None or not sys.executable:
        return
    idle = _idle_cores()
    if idle is not None and idle < SPARE_CORES:
        return  # another program keeps a core busy: the second process would only take turns with it
    with tempfile.TemporaryFile() as errors:
        env = dict(os.environ)
        source = str(Path(str(kernel.__file__)).resolve().parents[2])  # the directory holding rummykit
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
        try:
            child = subprocess.Popen(
                _child_command(kernel, cache_dir),
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                env=env,
            )
        except OSError:
            return
        try:
            _compile_beside(kernel, child, errors)
        finally:
            if child.poll() is None:
                child.kill()
            with suppress(subprocess.TimeoutExpired):
                child.wait(timeout=10)
            if child.stdin is not None:
                child.stdin.close()


def _compile_beside(kernel: ModuleType, child: subprocess.Popen[bytes], errors: IO[bytes]) -> None:
    """This process's part, then wait for the second process (within limits)."""
    started = time.perf_counter()
    compile_entries(kernel, CHILD_PART, exclude=True)
    mine = time.perf_counter() - started
    try:
        code = child.wait(timeout=2 * mine + CHILD_GRACE)
    except subprocess.TimeoutExpired:
        return  # stopped by the caller; its part is compiled here
    if code not in (0, _NOT_HERE):
        errors.seek(0)
        tail = errors.read().decode(errors="replace").strip().splitlines()[-20:]
        _say(f"rummykit: the second compile process failed (exit {code}); compiling its part here")
        for line in tail:
            _say("  " + line)
