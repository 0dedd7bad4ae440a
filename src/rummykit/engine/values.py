"""Plain values: the JSON alias, and how a state's attributes are copied and written as plain data.

:func:`clone` copies an attribute for :meth:`~rummykit.engine.core.GameState.copy`;
:func:`plain` writes one for :meth:`~rummykit.engine.core.GameState.snapshot`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

__all__ = ["JSON", "clone", "plain", "texts"]

JSON = Any
"""Plain data made of dicts, lists, strings, numbers, booleans and None."""


_IMMUTABLE: frozenset[type] = frozenset({int, str, bool, float, type(None), bytes, frozenset})


def clone(value: Any) -> Any:
    """A copy of ``value`` that shares nothing mutable with it.

    Immutable values (numbers, text, frozen dataclasses, tuples of them, and
    every piece) are shared; lists, dicts and sets are copied level by level;
    other objects must have a ``copy()`` method.

    >>> a = [[1], (2, 3)]
    >>> b = clone(a)
    >>> b == a, b[0] is a[0], b[1] is a[1]
    (True, False, True)
    """
    kind = type(value)
    if kind in _SHARED or _frozen(kind):
        return value
    if kind is list:
        return list(value) if _all_shared(value) else [clone(v) for v in value]
    if kind is tuple:
        return value if _all_shared(value) else tuple(clone(v) for v in value)
    if kind is dict:
        return dict(value) if _all_shared(value.values()) else {k: clone(v) for k, v in value.items()}
    if kind is set:
        return set(value) if _all_shared(value) else {clone(v) for v in value}
    copier = getattr(value, "copy", None)
    if copier is None:
        raise TypeError(f"cannot copy a {kind.__name__} attribute: give it a copy() method")
    return copier()


_FROZEN: dict[type, bool] = {}
_SHARED: set[type] = set(_IMMUTABLE)
"""The types found immutable so far (the fast path of :func:`clone`)."""


def _frozen(kind: type) -> bool:
    known = _FROZEN.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = _FROZEN[kind] = bool(params is not None and params.frozen) or bool(getattr(kind, "IMMUTABLE", False))
        if known:
            _SHARED.add(kind)
    return known


def _all_shared(values: Iterable[object]) -> bool:
    """Whether every value is immutable (judged once per type, not once per value)."""
    kinds = set(map(type, values))
    return kinds <= _SHARED or all(k in _SHARED or _frozen(k) for k in kinds)


_OBJECT_STR = object.__str__


def plain(value: object) -> JSON:
    """``value`` as plain data, derived from what it holds (how a snapshot writes an undeclared attribute).

    Numbers, text, booleans and None are kept; lists and tuples become lists,
    sets lists in a fixed order, dicts dicts with text keys; a value with its
    own text (every piece) is written as that text; dataclasses and other
    objects field by field (slots and attributes).

    >>> from rummykit.pieces.tiles import Tile
    >>> plain({1: (Tile.parse('R4'), None), 'up': {True, False}})
    {'1': ['R4', None], 'up': [False, True]}
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(plain(k)): plain(v) for k, v in value.items()}
    kind = type(value)
    if getattr(kind, "__str__", None) is not _OBJECT_STR:
        return str(value)
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    names = [s for c in kind.__mro__ for s in c.__dict__.get("__slots__", ()) if hasattr(value, s)]
    names += list(getattr(value, "__dict__", {}))
    if not names:
        raise TypeError(f"cannot write a {kind.__name__} as plain data: declare how its snapshot writes it (Saved)")
    return {name: plain(getattr(value, name)) for name in names}


def texts(pieces: Iterable[object]) -> list[str]:
    """Each piece (or action) as its text."""
    return [str(p) for p in pieces]
