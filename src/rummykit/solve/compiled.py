"""Loading the compiled kernel, and saying so when numba has to compile it.

numba compiles :mod:`rummykit.solve.kernel` on its first use after an install
or an upgrade (27 to 39 seconds of CPU on this project's 2-core machine with
both cores busy, in session 13) and
keeps the machine code in its cache; later runs load it in a fraction of a
second. Nothing may look frozen meanwhile: when the cache has no code for the
kernel on this machine, :func:`kernel_module` first writes :data:`NOTICE` to
the error stream (so ``--json`` output stays clean), compiles every entry, then
writes a line saying how long it took. When the cache has the code, each entry
is loaded from it on its first call (a one-off ``rummykit solve`` then loads
only the search it needs). :func:`warm_up` loads everything at once, giving
the notice anyway if that takes longer than :data:`LATE` seconds.

Importing this module loads neither numba nor numpy.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TextIO

NOTICE = (
    "rummykit: compiling the solver's search for this machine; this happens once after installing"
    " and usually takes 15 to 40 seconds, depending on the machine (later runs load it from numba's cache)..."
)
LATE = 3.0
"""Seconds a load from the cache may take before the notice is given anyway."""

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
