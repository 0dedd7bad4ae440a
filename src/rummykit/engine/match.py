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

Teams (``teams``: the seats of each side, as partnerships): every seat still
keeps its own total, the points it scored itself, so the seats' totals add
up to what was scored, never counting a point twice. A team's score is the
sum of its seats' totals, one number per team (``team_totals``); it is the
team score that is compared with the target and that decides the winners,
who are then every seat of the winning team(s). Without teams each seat is a
side of its own and all of this reads as before.

>>> m = Match(players=2, target=10, max_rounds=None, first=1)
>>> round_, match = m.end_round((0,), (6, -6), "rack-empty")
>>> match is None, m.round_no, m.first, m.totals
(True, 2, 0, [6, -6])
>>> round_, match = m.end_round((0,), (5, -5), "rack-empty")
>>> match.reason, match.winners, match.totals
('target', (0,), (11, -11))

Teams: seats 0 and 2 against 1 and 3; seat 0 scores 12, then seat 2 scores 9.

>>> m = Match(players=4, target=20, max_rounds=None, teams=((0, 2), (1, 3)))
>>> _, match = m.end_round((0, 2), (12, 0, 0, 0), "closed")
>>> match is None, m.totals, m.team_totals()
(True, [12, 0, 0, 0], (12, 0))
>>> round_, match = m.end_round((0, 2), (0, 0, 9, 0), "closed")
>>> match.reason, match.winners, match.totals, match.team_totals
('target', (0, 2), (12, 0, 9, 0), (21, 0))
>>> round_.to_json()['team_scores'], round_.to_json()['team_totals']
([9, 0], [21, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from rummykit.engine.options import OptionSpec


class OutcomeJSON(TypedDict):
    """An :class:`Outcome` as plain data (in views, events and records)."""

    winners: list[int]
    reason: str
    scores: list[int]
    totals: list[int]
    match_over: bool
    round: int
    teams: NotRequired[list[list[int]]]
    team_scores: NotRequired[list[int]]
    team_totals: NotRequired[list[int]]


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
    teams: tuple[tuple[int, ...], ...] | None = None
    """The teams (seats of each), or None when every seat plays for itself."""
    team_scores: tuple[int, ...] | None = None
    """This round's points per team (the sum of its seats' scores), with teams."""
    team_totals: tuple[int, ...] | None = None
    """The match total per team (the sum of its seats' totals), with teams: what the target is compared with."""

    def to_json(self) -> OutcomeJSON:
        """The outcome as plain data (``teams``, ``team_scores`` and ``team_totals`` only with teams)."""
        out: OutcomeJSON = {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "match_over": self.match_over,
            "round": self.round,
        }
        if self.teams is not None:
            out["teams"] = [list(t) for t in self.teams]
            out["team_scores"] = list(self.team_scores or ())
            out["team_totals"] = list(self.team_totals or ())
        return out



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


def one_round_options(specs: Sequence[OptionSpec]) -> dict[str, int | None]:
    """The options that make a game of these option specs one round (none for a game without ``target``).

    A game that takes ``target`` 0 is given 0 (its ``none`` may mean a
    recommended target); any other is given none.

    >>> one_round_options(match_options(target=None, target_help="none: one round"))
    {'target': None}
    >>> one_round_options(match_options(target=None, target_help="none: 120", zero=True))
    {'target': 0}
    >>> one_round_options(())
    {}
    """
    for spec in specs:
        if spec.name == "target":
            return {"target": 0 if spec.minimum == 0 else None}
    return {}


def single_round(target: int | None) -> bool:
    """True when ``target`` asks for one round only (0 or None)."""
    return not target


@dataclass
class Match:
    """The running totals of a match and who starts the current round.

    ``teams`` (None: every seat for itself) lists the seats of each team;
    every seat must be in exactly one.
    """

    players: int
    target: int | None
    max_rounds: int | None
    first: int = 0
    round_no: int = 1
    totals: list[int] = field(default_factory=list)
    rounds: list[Outcome] = field(default_factory=list)
    teams: tuple[tuple[int, ...], ...] | None = None

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
        if self.teams is not None:
            seats = sorted(s for t in self.teams for s in t)
            if seats != list(range(self.players)) or not all(self.teams):
                raise ValueError(f"teams must hold every seat 0..{self.players - 1} once, got {self.teams}")

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides that compete: the teams, or every seat alone."""
        return self.teams if self.teams is not None else tuple((s,) for s in range(self.players))

    def team_totals(self) -> tuple[int, ...] | None:
        """Each team's match total (the sum of its seats' totals), or None without teams."""
        if self.teams is None:
            return None
        return tuple(sum(self.totals[s] for s in t) for t in self.teams)

    def end_round(
        self, winners: tuple[int, ...], scores: tuple[int, ...], reason: str
    ) -> tuple[Outcome, Outcome | None]:
        """Add a round's scores; the round's outcome and, once the match is over, the match's.

        ``scores`` are what each seat scored itself (with teams, a team's
        round score is the sum of its seats'). The target is compared with
        each side's total, once per side; the highest side total wins, all
        its seats. When the match goes on, the round number advances and the
        next round's first player is the seat after this round's.
        """
        if len(scores) != self.players:
            raise ValueError(f"{self.players} seats need {self.players} scores, got {len(scores)}")
        for seat, points in enumerate(scores):
            self.totals[seat] += points
        sides = self.sides()
        side_totals = [sum(self.totals[s] for s in side) for side in sides]
        one = single_round(self.target)
        reached = not one and max(side_totals) >= (self.target or 0)
        limited = self.max_rounds is not None and self.round_no >= self.max_rounds
        over = one or reached or limited
        teams = self._team_fields(scores)
        result = Outcome(winners, reason, scores, tuple(self.totals), over, self.round_no, *teams)
        self.rounds.append(result)
        if not over:
            self.round_no += 1
            self.first = (self.first + 1) % self.players
            return result, None
        if one:
            match_winners, match_reason = winners, reason
        else:
            best = max(side_totals)
            match_winners = tuple(sorted(s for side, v in zip(sides, side_totals, strict=True) if v == best for s in side))
            match_reason = TARGET_REACHED if reached else ROUND_LIMIT
        return result, Outcome(match_winners, match_reason, scores, tuple(self.totals), True, self.round_no, *teams)

    def _team_fields(
        self, scores: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, ...], ...] | None, tuple[int, ...] | None, tuple[int, ...] | None]:
        """(teams, team scores of this round, team totals) for an outcome; all None without teams."""
        if self.teams is None:
            return None, None, None
        return self.teams, tuple(sum(scores[s] for s in t) for t in self.teams), self.team_totals()

    def copy(self) -> Match:
        """An independent copy."""
        return Match(
            self.players,
            self.target,
            self.max_rounds,
            self.first,
            self.round_no,
            list(self.totals),
            list(self.rounds),
            self.teams,
        )
