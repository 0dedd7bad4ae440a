"""Calls from one compiled function of the kernel to another through its address.

numba links the code of every compiled function a compiled caller reaches into
that caller's own code, and LLVM optimises and emits all of it again there: a
function reached from ten compiled functions is compiled once and optimised and
emitted eleven times, which made most of the solver's first compile. A call made
with :func:`call_at` reaches the callee's machine code through an address (kept
in the kernel's work array, see :func:`address_of`), so the callee's code is
compiled on its own and nowhere else. It stays numba's own calling convention:
the callee's exceptions pass through as from a direct call.

LLVM cannot inline such a call, so the kernel uses it only for functions called
a few times a search or less (the move generator on a memo miss, the searches'
loops, the path's rows), never in the hot loop.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, types
from numba.core.dispatcher import Dispatcher
from numba.core.typing.templates import Signature
from numba.extending import intrinsic

_addresses: dict[tuple[Dispatcher, Signature], int] = {}


def call_at(restype: types.Type, argtypes: tuple[types.Type, ...]) -> Any:
    """An intrinsic ``call(address, (arguments...))`` calling the compiled function at
    ``address`` (from :func:`address_of` with the same types) with those arguments,
    each converted to its type in ``argtypes``; it returns what that function returns."""

    @intrinsic
    def call(typingctx: object, address: types.Type, args: types.Type) -> tuple[Signature, Any] | None:
        if not isinstance(address, types.Integer) or not isinstance(args, types.BaseTuple):
            return None
        if len(args) != len(argtypes):
            return None
        given: tuple[types.Type, ...] = tuple(args)  # type: ignore[arg-type]

        def codegen(context: Any, builder: Any, signature: Signature, values: Any) -> Any:
            at, packed = values
            items = cgutils.unpack_tuple(builder, packed, len(argtypes))  # type: ignore[no-untyped-call]
            items = [context.cast(builder, v, a, b) for v, a, b in zip(items, given, argtypes, strict=True)]
            call_conv = context.call_conv
            fn_type = call_conv.get_function_type(restype, argtypes)
            fn = builder.inttoptr(context.cast(builder, at, address, types.intp), fn_type.as_pointer())
            status, res = call_conv.call_function(builder, fn, restype, argtypes, items)
            with cgutils.if_unlikely(builder, status.is_error):  # type: ignore[no-untyped-call]
                call_conv.return_status_propagate(builder, status)
            return res

        return restype(address, args), codegen

    return call


def address_of(dispatcher: Dispatcher, restype: types.Type, argtypes: tuple[types.Type, ...]) -> int:
    """The address of ``dispatcher``'s machine code for these types, compiled (or loaded
    from numba's cache) on the first call in a process."""
    signature = restype(*argtypes)
    key = (dispatcher, signature)
    if key not in _addresses:
        # compiled for the argument types alone, as a compiled caller (or a call from Python)
        # asks for it: numba's cache keys an entry by the signature asked, and a return type
        # given here made a later process miss the entry a caller had written (and compile
        # the function again)
        if argtypes not in dispatcher.overloads:
            dispatcher.compile(argtypes)
        result: Any = dispatcher.overloads[argtypes]  # numba's stubs leave its fields out
        if result.signature.return_type != restype:
            raise TypeError(f"{dispatcher} returns {result.signature.return_type}, not {restype}")
        _addresses[key] = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
    return _addresses[key]
