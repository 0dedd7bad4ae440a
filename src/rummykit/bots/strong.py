"""What every ``strong`` bot shares: its budget, its advice, and a clock that keeps to both.

A strong bot thinks within a **budget**: a number of *iterations* (its unit
of work: a sampled deal of the hidden pieces, a rollout, a search node; each
bot's module says which) and a cap in seconds (*think*). With the same
iterations, seed and view it chooses the same action on every machine, so a
study that names ``strong:iterations=N`` replays exactly; the cap only
stops a search that runs long on a slow or busy machine (the record keeps
the action chosen, so a game replays whatever the cap did).

Written after the level in a bot's name (``--bot strong:iterations=200``,
``strong:think=0.5``), settings are read by :func:`rummykit.bots.registry.make_bot`.

A strong bot also *advises*: :meth:`Advisor.advise` is its choice with the
reason for it, which is what a hint shows.

>>> budget = Budget.of(None, None, default_iterations=64)
>>> budget.iterations, budget.think
(64, 1.0)
>>> Budget.of(10, None, default_iterations=64).think is None
True
>>> clock = Budget(iterations=3, think=None).start()
>>> [clock.more() for _ in range(4)]
[True, True, True, False]
>>> clock.used
3
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from rummykit.engine.core import Action
from rummykit.engine.rng import Rng
from rummykit.errors import OptionError

__all__ = ["DEFAULT_THINK", "Advice", "Advisor", "Budget", "Clock"]

DEFAULT_THINK = 1.0
"""The default cap, in seconds, on one decision of a strong bot."""


@dataclass(frozen=True)
class Budget:
    """How long a strong bot may think about one decision.

    ``iterations`` is the work it does (deterministic for a seed); ``think``
    the seconds after which it stops early (None: never, as in a study that
    names its iterations).
    """

    iterations: int
    think: float | None = DEFAULT_THINK

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise OptionError(f"iterations must be 1 or more, not {self.iterations}")
        if self.think is not None and not self.think > 0:
            raise OptionError(f"think must be a number of seconds above 0, not {self.think}")

    @classmethod
    def of(cls, iterations: int | None, think: float | None, *, default_iterations: int) -> Budget:
        """The budget a bot's settings ask for.

        With neither setting: the bot's default iterations, capped at
        :data:`DEFAULT_THINK` seconds. Iterations alone: exactly those, no
        cap (replayable anywhere). ``think`` alone: as many iterations as fit
        in that time (up to a large bound).
        """
        if iterations is None and think is None:
            return cls(default_iterations, DEFAULT_THINK)
        if iterations is None:
            assert think is not None
            return cls(max(default_iterations, 1_000_000), think)
        return cls(iterations, think)

    def start(self) -> Clock:
        """A clock for one decision."""
        return Clock(self)


@dataclass
class Clock:
    """Counts one decision's iterations against its budget."""

    budget: Budget
    used: int = 0
    started: float = field(default_factory=time.perf_counter)

    def more(self) -> bool:
        """True (and one iteration counted) while the budget allows another iteration."""
        if self.used >= self.budget.iterations:
            return False
        if self.used and self.budget.think is not None and time.perf_counter() - self.started > self.budget.think:
            return False
        self.used += 1
        return True

    @property
    def seconds(self) -> float:
        """Seconds since the decision began."""
        return time.perf_counter() - self.started


@dataclass(frozen=True)
class Advice:
    """A strong bot's choice for a seat, with why: what a hint shows.

    ``reason`` is one sentence (points gained, melds completed, points left
    in hand...); ``steps`` are the moves a person makes to play it, in order,
    when there is more than one; ``exact`` says whether the choice is proven
    best for what it optimises (True), the best found within the budget
    (False), or whether the bot makes no such claim (None).
    """

    action: Action
    reason: str
    steps: tuple[str, ...] = ()
    exact: bool | None = None


@runtime_checkable
class Advisor(Protocol):
    """A bot that can say why it would play what it plays (every ``strong`` bot)."""

    level: str

    def advise(self, view: Mapping[str, object], rng: Rng) -> Advice:
        """The action for ``view['seat']`` with its reason (the view's seat must be waited for)."""
        ...


def settings_of(text: str) -> tuple[str, dict[str, str]]:
    """A bot's name split into its level and settings: ``strong:iterations=20:think=0.5``.

    >>> settings_of('strong:iterations=20:think=0.5')
    ('strong', {'iterations': '20', 'think': '0.5'})
    >>> settings_of(' Greedy ')
    ('greedy', {})
    >>> settings_of('strong:fast')
    Traceback (most recent call last):
    rummykit.errors.OptionError: a bot setting is written name=value, as in strong:iterations=200; not 'fast'
    """
    level, *parts = text.strip().lower().split(":")
    settings: dict[str, str] = {}
    for part in parts:
        name, eq, value = part.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise OptionError(f"a bot setting is written name=value, as in strong:iterations=200; not {part!r}")
        settings[name.strip()] = value.strip()
    return level.strip(), settings


def read_budget_settings(settings: Mapping[str, str], level: str) -> dict[str, int | float]:
    """``iterations`` (a whole number) and ``think`` (seconds) read from a bot's settings, checked.

    >>> read_budget_settings({'iterations': '12'}, 'strong')
    {'iterations': 12}
    >>> read_budget_settings({'depth': '3'}, 'strong')
    Traceback (most recent call last):
    rummykit.errors.OptionError: the strong bot has no setting 'depth'; its settings are iterations=N and think=SECONDS
    """
    out: dict[str, int | float] = {}
    for name, value in settings.items():
        if name == "iterations":
            try:
                out[name] = int(value)
            except ValueError:
                raise OptionError(f"iterations must be a whole number, not {value!r}") from None
        elif name == "think":
            try:
                out[name] = float(value)
            except ValueError:
                raise OptionError(f"think must be a number of seconds, not {value!r}") from None
        else:
            raise OptionError(f"the {level} bot has no setting {name!r}; its settings are iterations=N and think=SECONDS")
    Budget.of(  # checks the values
        int(out["iterations"]) if "iterations" in out else None,
        float(out["think"]) if "think" in out else None,
        default_iterations=1,
    )
    return out
