"""The kernel's rarely called parts are called through their address (issue 25, session 13).

numba links the code of each compiled function into every compiled function
that calls it, and LLVM optimises and emits it again there: the move generator
was optimised and emitted in about ten of them. The functions in
``kernel.BY_ADDRESS`` are compiled on their own and called through an address
kept in the work array (``rummykit.solve.byaddress``), so no compiled caller
holds their code; these tests pin that structure down, and that such a call
behaves as a direct one (values and exceptions).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core.types import int64

from rummykit.solve import kernel
from rummykit.solve.byaddress import address_of, call_at

CALLED_BY_ADDRESS = {
    "_options",
    "_depth_first_loop",
    "_sweep_rows",
    "_fill_path_row",
    "_initial_successors",
    "_successors",
    "reachable_runs",
    "_group_need",
}


def _dispatchers() -> dict[str, numba.core.dispatcher.Dispatcher]:
    return {
        name: value
        for name, value in vars(kernel).items()
        if isinstance(value, numba.core.dispatcher.Dispatcher) and value.py_func.__module__ == kernel.__name__
    }


def test_the_rarely_called_parts_are_called_by_address() -> None:
    by_name = {name: d for name, d in _dispatchers().items()}
    listed = {name for name, d in by_name.items() if any(d is f for _c, f, _r, _a in kernel.BY_ADDRESS)}
    assert listed == CALLED_BY_ADDRESS
    cells = [cell for cell, _f, _r, _a in kernel.BY_ADDRESS]
    assert len(set(cells)) == len(cells)
    assert all(kernel.W_RELAX_GEN < cell < kernel.W_SCRATCH for cell in cells)  # header cells of their own


def test_no_compiled_function_calls_them_directly() -> None:
    # a direct call (the dispatcher's name in the caller's code) would link the callee's code
    # in; only the searches' two loops call the successors directly, to have them inlined
    inlined = {"_depth_first_loop": {"_successors"}, "_sweep_rows": {"_successors"}}
    for name, dispatcher in _dispatchers().items():
        direct = CALLED_BY_ADDRESS & set(dispatcher.py_func.__code__.co_names) - {name} - inlined.get(name, set())
        assert not direct, f"{name} calls {direct} directly"


@pytest.mark.parametrize("helper", ["_colour_options", "_step_options"])
def test_the_move_helpers_are_compiled_once_and_inlined_by_llvm(helper: str) -> None:
    # typed again inside each caller (``inline="always"``) they cost seconds of the first compile
    options = getattr(kernel, helper).targetoptions
    assert options.get("forceinline") is True
    assert options.get("inline") != "always"


def test_a_work_array_holds_each_address_and_warm_up_compiles_one_version() -> None:
    from rummykit.solve import warm_up

    warm_up()
    w = kernel.new_work(1 << 10, 1 << 14)
    for cell, function, restype, argtypes in kernel.BY_ADDRESS:
        assert w[cell] == address_of(function, restype, argtypes) != 0
        assert argtypes in function.signatures
    for entry in (kernel.search, kernel.relax):  # what Python calls: one version each
        assert len(entry.signatures) == 1, f"{entry} compiled more than once"


def _twice_py(x: int, a: np.ndarray) -> int:
    if x < 0:
        raise IndexError("negative")
    a[0] = x
    return 2 * x


_twice = numba.njit(cache=False)(_twice_py)
_twice_at = call_at(int64, (int64, numba.types.Array(int64, 1, "C")))


@numba.njit(cache=False)
def _caller(address: int, x: int, a: np.ndarray) -> int:
    y: int = _twice_at(address, (x, a))
    return y + 1


def test_a_call_by_address_returns_and_raises_as_a_direct_call() -> None:
    address = address_of(_twice, int64, (int64, numba.types.Array(int64, 1, "C")))
    a = np.zeros(1, np.int64)
    assert _caller(address, 20, a) == 41
    assert a[0] == 20
    with pytest.raises(IndexError, match="negative"):
        _caller(address, -1, a)
