"""Game options: declared once per game, validated with messages a person understands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from rummykit.errors import OptionError

OptionValue: TypeAlias = int | bool | str | None
"""The value of a game option: a whole number, true or false, a word, or none."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, default, allowed values and a one-line help text.

    ``kind`` is ``int``, ``bool`` or ``str``; ``minimum``/``maximum`` bound an
    int; ``values`` lists the only ints allowed (when they are not a whole
    range); ``choices`` lists the allowed strings; ``allow_none`` lets the
    value be ``None`` (written ``none``). :meth:`describe_range` words exactly
    what :meth:`convert` accepts, so ``rummykit rules`` and the refusals say
    the same.

    >>> OptionSpec("set", int, None, "the domino set", values=(6, 9, 12), allow_none=True).describe_range()
    '6, 9 or 12, or none'
    """

    name: str
    kind: type
    default: OptionValue
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    allow_none: bool = False
    values: tuple[int, ...] = ()

    def describe_range(self) -> str:
        """The allowed values, in words (for ``rules`` and error messages)."""
        parts: list[str] = []
        if self.kind is bool:
            parts.append("true or false")
        elif self.choices:
            parts.append(" or ".join(self.choices))
        elif self.values:
            *first, last = (str(v) for v in self.values)
            parts.append(f"{', '.join(first)} or {last}" if first else last)
        elif self.kind is str:
            parts.append("text (see the game's rules page)")
        elif self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                parts.append(f"a whole number {self.minimum}..{self.maximum}")
            elif self.minimum is not None:
                parts.append(f"a whole number {self.minimum} or more")
            elif self.maximum is not None:
                parts.append(f"a whole number up to {self.maximum}")
            else:
                parts.append("a whole number")
        if self.allow_none:
            parts.append("none")
        return ", or ".join(parts)

    def convert(self, value: object) -> OptionValue:
        """Check (and, for text from a command line or record, convert) one value."""
        if isinstance(value, str):
            value = self._from_text(value)
        if value is None:
            if self.allow_none:
                return None
            raise OptionError(f"option {self.name} needs {self.describe_range()}, not none")
        if self.kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name} needs true or false, got {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name} needs {self.describe_range()}, got {value!r}")
            if (
                (self.minimum is not None and value < self.minimum)
                or (self.maximum is not None and value > self.maximum)
                or (self.values and value not in self.values)
            ):
                raise OptionError(f"option {self.name} needs {self.describe_range()}, got {value}")
            return value
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            raise OptionError(f"option {self.name} needs {self.describe_range()}, got {value!r}")
        return value

    def _from_text(self, text: str) -> OptionValue:
        t = text.strip().lower()
        if self.allow_none and t in ("none", ""):
            return None
        if self.kind is bool:
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise OptionError(f"option {self.name} needs true or false, got {text!r}")
        if self.kind is int:
            try:
                return int(t)
            except ValueError:
                raise OptionError(
                    f"option {self.name} needs {self.describe_range()}, got {text!r}"
                ) from None
        return text.strip()

    def format(self, value: object) -> str:
        """The value as written in records and on the command line."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def int_option(options: Mapping[str, OptionValue], name: str) -> int:
    """The value of the whole-number option ``name`` (as ``int(value)``; ``TypeError`` when it is none).

    >>> int_option({'target': 500}, 'target')
    500
    """
    value = options[name]
    if value is None:
        raise TypeError(f"option {name} is none, not a whole number")
    return int(value)


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Defaults overlaid with ``given``, every value checked; unknown names are refused.

    >>> spec = OptionSpec("jokers", int, 2, "jokers in play", minimum=0, maximum=4)
    >>> spec.describe_range(), OptionSpec("target", int, None, "", minimum=1, allow_none=True).describe_range()
    ('a whole number 0..4', 'a whole number 1 or more, or none')
    >>> resolve_options([spec], {"jokers": "3"})
    {'jokers': 3}
    >>> resolve_options([spec], {"joker": 3})
    Traceback (most recent call last):
    ...
    rummykit.errors.OptionError: unknown option 'joker'; the options are: jokers
    """
    by_name = {s.name: s for s in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(by_name) or "(none)"
            raise OptionError(f"unknown option {name!r}; the options are: {known}")
    return {s.name: s.convert(given[s.name]) if s.name in given else s.default for s in specs}


def default_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """Player names from a count (``P1``, ``P2``...) or a list of names."""
    if isinstance(players, bool):
        raise OptionError("players must be a number of players or a list of names")
    if isinstance(players, int):
        return tuple(f"P{i + 1}" for i in range(players))
    if isinstance(players, str):
        raise OptionError("players must be a number of players or a list of names")
    names = tuple(str(p).strip() for p in players)
    for name in names:
        if not name or any(ch in name for ch in "\n\r|#"):
            raise OptionError(f"a player name must be non-empty, on one line and without '|' or '#': {name!r}")
    if len(set(names)) != len(names):
        raise OptionError(f"player names must differ: {', '.join(names)}")
    return names


def check_seed(seed: object) -> int:
    """Accept a seed (a whole number 0..2**63-1) or raise :class:`OptionError`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise OptionError(f"a seed is a whole number from 0 to {2**63 - 1}, got {seed!r}")
    return seed
