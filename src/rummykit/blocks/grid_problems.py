"""What judging a grid finds: :class:`GridProblem` (one thing wrong, worded when first read) and
:class:`GridVerdict` (the problems and what each joker stands for), and :func:`refusal`, which words a
problem with the cells and lines it names as params (:mod:`rummykit.blocks.grid_rules` judges)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from rummykit.blocks.grid_cells import Cell, Words
from rummykit.errors import Param, RuleError

P = TypeVar("P")

__all__ = ["GridProblem", "GridVerdict", "literal", "refusal"]


def literal(text: str) -> str:
    """``text`` as a part of a refusal's template (its braces kept as they are)."""
    return text.replace("{", "{{").replace("}", "}}")


def refusal(rule: str, message: str, *places: Words, **params: Param) -> RuleError:
    """A refusal whose template names ``places`` (cells and lines, counted from 0) and other ``params``.

    ``message`` holds a ``{}`` for each place, in order (their templates go
    there), and names the other params in braces; a literal brace in it is
    doubled (:func:`literal`).

    >>> from rummykit.blocks.grid_cells import cell_words
    >>> str(refusal('XX-CELL', '{} is taken by {piece}', cell_words((0, 2)), piece='R5'))
    '0,2 is taken by R5 (rule XX-CELL)'
    """
    positions: dict[str, Param] = {}
    for _, where in places:
        positions.update(where)
    templates = iter(template for template, _ in places)
    text = re.sub(r"(?<!\{)\{\}(?!\})", lambda _: next(templates), message)
    return RuleError(rule, text, counted=tuple(positions), **positions, **params)


class GridProblem:
    """One thing wrong with a grid: the refusal (its rule, its words starting with where, its data) and the
    cells concerned.

    The refusal may be given as a function that makes it: it is then made the
    first time it is read (judging many grids, a listing only asks whether
    there is a problem).
    """

    __slots__ = ("_error", "_make", "cells")

    def __init__(self, error: RuleError | Callable[[], RuleError], cells: tuple[Cell, ...]) -> None:
        self._error: RuleError | None = error if isinstance(error, RuleError) else None
        self._make: Callable[[], RuleError] | None = None if isinstance(error, RuleError) else error
        self.cells = cells

    @property
    def error(self) -> RuleError:
        """The refusal."""
        if self._error is None:
            assert self._make is not None
            self._error = self._make()
            self._make = None
        return self._error

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GridProblem) and (self.error, self.cells) == (other.error, other.cells)

    def __hash__(self) -> int:
        return hash((self.error, self.cells))

    def __repr__(self) -> str:
        return f"GridProblem(error={self.error!r}, cells={self.cells!r})"

    @property
    def rule(self) -> str:
        """The rule broken."""
        return self.error.rule

    @property
    def reason(self) -> str:
        """The reason, cells named as the notation numbers them (people's numbers: ``error.worded(1)``)."""
        return self.error.reason

    def __str__(self) -> str:
        return str(self.error)


@dataclass(frozen=True)
class GridVerdict(Generic[P]):
    """What :meth:`GridRules.verdict` found: the problems, and what each joker stands for.

    ``roles`` holds, for every joker of a valid line, the piece it stands for
    in the reading worth the most points (consistent across crossing lines);
    ``options`` every piece it could stand for in some consistent reading.
    """

    problems: tuple[GridProblem, ...]
    roles: Mapping[Cell, P]
    options: Mapping[Cell, frozenset[P]]

    @property
    def valid(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems
