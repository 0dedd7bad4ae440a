"""The kernel compiles each of its searches once (issue 25, session 12: the first compile).

numba compiles a function once per combination of argument types, and a literal
argument (``NEG`` written at a call) is a type of its own: ``search`` once
compiled the depth-first search twice, with ``NEG`` in either place. A function
compiled on its own is also optimised and emitted again, with all it calls, in
each function that calls it; the two searches are therefore typed inside
``search``, their only caller, from one call site each.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from rummykit.solve import kernel


def _calls(function: object, name: str) -> list[ast.Call]:
    tree = ast.parse(inspect.getsource(function))  # type: ignore[arg-type]
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


@pytest.mark.parametrize("helper", ["_depth_first", "_breadth_first"])
def test_each_search_is_typed_inside_search_from_one_call(helper: str) -> None:
    assert getattr(kernel, helper).targetoptions.get("inline") == "always"
    assert len(_calls(kernel._search_py, helper)) == 1


def test_no_literal_arguments_reach_the_searches() -> None:
    # a bare constant name (``NEG``, ``SWEEP``) or number at the call would be typed as a literal
    for helper in ("_depth_first", "_breadth_first"):
        for call in _calls(kernel._search_py, helper):
            for argument in call.args:
                assert not isinstance(argument, ast.Constant)
                assert not (isinstance(argument, ast.Name) and argument.id.isupper())
