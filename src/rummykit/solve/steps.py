"""Turn a solved play into a short list of moves a person can carry out.

Each final set is matched with the existing set it keeps most of (if any); a
step then says, for one final set, which tiles come in (from the rack or from
which other set) and what the set looks like afterwards. Sets are numbered
from 1 as the table shows them; new sets are numbered after them.

>>> from rummykit.pieces.tiles import parse_tiles
>>> old = [tuple(parse_tiles('R1 R2 R3')), tuple(parse_tiles('K5 B5 O5 R5'))]
>>> new = [tuple(parse_tiles('R1 R2 R3 R4 R5')), tuple(parse_tiles('K5 B5 O5')), tuple(parse_tiles('K7 B7 O7'))]
>>> for s in plan_steps(old, new, parse_tiles('R4 K7 B7 O7')):
...     print(s.text)
add R4 from your rack and R5 from set 2 to set 1: R1 R2 R3 R4 R5
make a new set (set 3) from your rack: K7 B7 O7
set 2 is left as K5 B5 O5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypedDict, TypeVar

P = TypeVar("P")


MoveJSON = TypedDict("MoveJSON", {"piece": str, "from": str | int})
"""One piece of a step as plain data: the piece, and ``rack`` or the number of the set it comes from."""


class StepJSON(TypedDict):
    """A :class:`Step` as plain data (the ``steps`` of a solver's JSON answer)."""

    set: int
    new: bool
    moves: list[MoveJSON]
    result: list[str]
    text: str


@dataclass(frozen=True)
class Step(Generic[P]):
    """One move: what goes into set ``target`` (1-based; new sets after the old ones).

    ``sources`` pairs each incoming piece with where it comes from (``None``: the
    rack, else the 1-based number of an existing set). ``result`` is the set
    afterwards. A step with no sources only says what a set is left as.
    """

    target: int
    new: bool
    sources: tuple[tuple[P, int | None], ...]
    result: tuple[P, ...]
    text: str

    def to_json(self) -> StepJSON:
        """The step as plain data."""
        return {
            "set": self.target,
            "new": self.new,
            "moves": [{"piece": str(p), "from": "rack" if src is None else src} for p, src in self.sources],
            "result": [str(p) for p in self.result],
            "text": self.text,
        }


def match_sets(old: Sequence[Sequence[P]], new: Sequence[Sequence[P]]) -> dict[int, int]:
    """Match final sets to existing sets by the most pieces kept (final index -> old index)."""
    pairs = []
    for i, f in enumerate(new):
        fc = Counter(f)
        for k, s in enumerate(old):
            overlap = sum((fc & Counter(s)).values())
            if overlap:
                exact = tuple(f) == tuple(s)
                pairs.append((-int(exact), -overlap, k, i))
    pairs.sort()
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _e, _o, k, i in pairs:
        if i in matched or k in used:
            continue
        matched[i] = k
        used.add(k)
    return matched


def set_numbers(old: Sequence[Sequence[P]], new: Sequence[Sequence[P]]) -> dict[int, int]:
    """The number (from 1) each final set has on the screen: the number of the set it continues, or
    the next one after the existing sets (final index -> number)."""
    matched = match_sets(old, new)
    number: dict[int, int] = {}
    next_number = len(old) + 1
    for i in range(len(new)):
        if i in matched:
            number[i] = matched[i] + 1
        else:
            number[i] = next_number
            next_number += 1
    return number


def screen_order(old: Sequence[Sequence[P]], new: Sequence[Sequence[P]]) -> list[tuple[int, tuple[P, ...]]]:
    """The final table as the screen will number it, in that order: (number, set) pairs.

    The numbers are those :func:`plan_steps` uses, so a person who follows
    the steps finds each set under its number; the number of a set used up
    is missing.

    >>> from rummykit.pieces.tiles import parse_tiles
    >>> old = [tuple(parse_tiles('R1 R2 R3')), tuple(parse_tiles('K5 B5 O5 R5'))]
    >>> new = [tuple(parse_tiles('K7 B7 O7')), tuple(parse_tiles('K5 B5 O5')), tuple(parse_tiles('R1 R2 R3 R4 R5'))]
    >>> [(n, ' '.join(map(str, s))) for n, s in screen_order(old, new)]
    [(1, 'R1 R2 R3 R4 R5'), (2, 'K5 B5 O5'), (3, 'K7 B7 O7')]
    """
    number = set_numbers(old, new)
    return sorted(((number[i], tuple(s)) for i, s in enumerate(new)), key=lambda pair: pair[0])


def plan_steps(
    old: Sequence[Sequence[P]], new: Sequence[Sequence[P]], placed: Sequence[P]
) -> list[Step[P]]:
    """The moves that turn table ``old`` into ``new`` using the ``placed`` rack pieces."""
    matched = match_sets(old, new)
    # What each old set still holds that its successor does not keep: free to move.
    leftovers: list[Counter[P]] = [Counter(s) for s in old]
    for i, k in matched.items():
        leftovers[k] -= Counter(new[i])
    rack = Counter(placed)
    number = set_numbers(old, new)
    steps: list[Step[P]] = []
    order = sorted(range(len(new)), key=lambda i: (i not in matched, number[i]))
    for i in order:
        need = Counter(new[i])
        if i in matched:
            need -= Counter(old[matched[i]])
        sources: list[tuple[P, int | None]] = []
        for piece in new[i]:
            if not need[piece]:
                continue
            need[piece] -= 1
            if rack[piece]:
                rack[piece] -= 1
                sources.append((piece, None))
                continue
            donor = next(k for k in range(len(old)) if leftovers[k][piece])
            leftovers[donor][piece] -= 1
            sources.append((piece, donor + 1))
        if not sources:
            continue
        steps.append(Step(number[i], i not in matched, tuple(sources), tuple(new[i]), _text(number[i], i not in matched, sources, new[i])))
    # Old sets that lost pieces and gained none: say what they are left as (or that they are gone).
    touched = {s.target for s in steps if not s.new}
    kept_as = {k: i for i, k in matched.items()}
    for k, s in enumerate(old):
        if k + 1 in touched:
            continue
        if k in kept_as:
            result = tuple(new[kept_as[k]])
            if Counter(result) != Counter(s):
                steps.append(Step(k + 1, False, (), result, f"set {k + 1} is left as {_fmt(result)}"))
        else:
            steps.append(Step(k + 1, False, (), (), f"set {k + 1} is used up"))
    return steps


def _fmt(pieces: Sequence[object]) -> str:
    return " ".join(str(p) for p in pieces)


def _text(target: int, new: bool, sources: Sequence[tuple[object, int | None]], result: Sequence[object]) -> str:
    parts: list[str] = []
    by_source: dict[int | None, list[object]] = {}
    for piece, src in sources:
        by_source.setdefault(src, []).append(piece)
    for src, pieces in by_source.items():
        where = "your rack" if src is None else f"set {src}"
        parts.append(f"{_fmt(pieces)} from {where}")
    what = " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if new:
        if len(by_source) == 1:
            where = "your rack" if None in by_source else f"set {next(iter(by_source))}"
            return f"make a new set (set {target}) from {where}: {_fmt(result)}"
        return f"make a new set (set {target}) with {what}: {_fmt(result)}"
    return f"add {what} to set {target}: {_fmt(result)}"
