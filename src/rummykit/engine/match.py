"""The match loop every game shares: rounds, totals, target, round limit and the outcome.

A game plays rounds; when one ends it hands :meth:`Match.end_round` the
round's winners, per-seat scores and reason, and gets back the round's
:class:`~rummykit.engine.core.Outcome` and, if the match is over, the match's.
The options mean the same in every game:

* ``target``: play rounds until a total reaches it; ``0`` or ``none`` means
  a single round (the match is that round);
* ``max_rounds``: a match with a target also ends after this many rounds,
  the highest total winning (reason ``max-rounds``); ``none``: no limit.

The match reasons are the round's own reason for a single round, ``target``
when a total reached the target, and ``max-rounds`` when the limit ended it.

>>> m = Match(players=2, target=10, max_rounds=None, first=1)
>>> round_, match = m.end_round((0,), (6, -6), "rack-empty")
>>> match is None, m.round_no, m.first, m.totals
(True, 2, 0, [6, -6])
>>> round_, match = m.end_round((0,), (5, -5), "rack-empty")
>>> match.reason, match.winners, match.totals
('target', (0,), (11, -11))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummykit.engine.options import OptionSpec


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round or a match ended.

    ``scores`` are this round's (or, for a match, the last round's) points per
    seat; ``totals`` the match totals so far.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    match_over: bool
    round: int = 1

    def to_json(self) -> dict[str, Any]:
        """The outcome as plain data."""
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "match_over": self.match_over,
            "round": self.round,
        }



TARGET_REACHED = "target"
ROUND_LIMIT = "max-rounds"


def match_options(
    *, target: int | None, target_help: str, max_rounds: int | None = 50, zero: bool = False
) -> tuple[OptionSpec, ...]:
    """The ``target`` and ``max_rounds`` options, worded the same in every game.

    ``target_help`` says what the default (and ``none``) means for the game.
    ``zero`` lets ``0`` be given for a single round (a game whose ``none``
    means something else needs it); the match loop reads 0 and none alike.
    """
    return (
        OptionSpec(
            "target",
            int,
            target,
            f"play rounds until a total reaches this ({target_help}{'; 0: one round' if zero else ''})",
            minimum=0 if zero else 1,
            allow_none=True,
        ),
        OptionSpec(
            "max_rounds",
            int,
            max_rounds,
            "a match with a target also ends after this many rounds (highest total wins); none: no limit",
            minimum=1,
            allow_none=True,
        ),
    )


def single_round(target: int | None) -> bool:
    """True when ``target`` asks for one round only (0 or None)."""
    return not target


@dataclass
class Match:
    """The running totals of a match and who starts the current round."""

    players: int
    target: int | None
    max_rounds: int | None
    first: int = 0
    round_no: int = 1
    totals: list[int] = field(default_factory=list)
    rounds: list[Outcome] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players

    def end_round(
        self, winners: tuple[int, ...], scores: tuple[int, ...], reason: str
    ) -> tuple[Outcome, Outcome | None]:
        """Add a round's scores; the round's outcome and, once the match is over, the match's.

        When the match goes on, the round number advances and the next
        round's first player is the seat after this round's.
        """
        if len(scores) != self.players:
            raise ValueError(f"{self.players} seats need {self.players} scores, got {len(scores)}")
        for seat, points in enumerate(scores):
            self.totals[seat] += points
        one = single_round(self.target)
        reached = not one and max(self.totals) >= (self.target or 0)
        limited = self.max_rounds is not None and self.round_no >= self.max_rounds
        over = one or reached or limited
        result = Outcome(winners, reason, scores, tuple(self.totals), over, self.round_no)
        self.rounds.append(result)
        if not over:
            self.round_no += 1
            self.first = (self.first + 1) % self.players
            return result, None
        if one:
            match_winners, match_reason = winners, reason
        else:
            best = max(self.totals)
            match_winners = tuple(s for s, v in enumerate(self.totals) if v == best)
            match_reason = TARGET_REACHED if reached else ROUND_LIMIT
        return result, Outcome(match_winners, match_reason, scores, tuple(self.totals), True, self.round_no)

    def copy(self) -> Match:
        """An independent copy."""
        return Match(
            self.players, self.target, self.max_rounds, self.first, self.round_no, list(self.totals), list(self.rounds)
        )
