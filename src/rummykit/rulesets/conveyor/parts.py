"""The conveyor state's parts: the table's melds, the claim window, the turn's pickup, and its refusals.

Each refusal carries its data (columns, cells, melds counted from 0; dominoes;
seats), so an interface words it for its people
(:meth:`~rummykit.errors.RuleError.worded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.blocks.conveyor import Conveyors
from rummykit.engine.core import JSON, texts
from rummykit.engine.options import OptionValue, int_option
from rummykit.errors import Param, RuleError
from rummykit.melds.conveyor import END_NAMES, HIGH, LOW, ConveyorMelds
from rummykit.pieces.dominoes import Domino, format_dominoes
from rummykit.rulesets.conveyor.actions import Jump, Layoff, Pieces
from rummykit.rulesets.conveyor.options import PREFIX
from rummykit.rulesets.conveyor.views import MeldView

__all__ = ["TableMeld", "misfit"]


def _err(rule: str, message: str, *, counted: Sequence[str] = (), **params: Param) -> RuleError:
    return RuleError(rule, message, counted=counted, **params)


def _no_such(rule: str, what: str, number: int, count: int, where: str = "", **within: int) -> RuleError:
    """There is no ``what`` ``number`` (of ``count``, numbered from 0); ``where`` names the positions ``within``."""
    counted = (what, "first", "last", *within)
    if count == 0:
        text = f"there is no {what} {{{what}}}{where}: there are no {what}s yet"
    elif count == 1:
        text = f"there is no {what} {{{what}}}{where}: the only {what} is {{first}}"
    else:
        text = f"there is no {what} {{{what}}}{where}: the {what}s are {{first}}..{{last}}"
    return _err(rule, text, counted=counted, **{what: number, "first": 0, "last": count - 1}, **within)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its owner (who laid it down), kind and dominoes in table order.

    ``layout`` is the written layout of a line (``domino_runs``), else None;
    ``royal`` and ``score`` are worked out once, by :meth:`make`.
    """

    owner: int
    kind: str
    dominoes: Pieces
    layout: str | None
    royal: bool
    score: int

    @classmethod
    def make(cls, rules: ConveyorMelds, owner: int, kind: str, dominoes: Pieces, layout: str | None = None) -> TableMeld:
        """A meld with its royal mark and score computed from the set in play."""
        return cls(owner, kind, dominoes, layout, rules.is_royal(kind, dominoes), rules.score(kind, dominoes))

    def to_view(self, index: int) -> MeldView:
        """The meld as a view shows it (its pieces under the generic ``pieces``)."""
        return {
            "index": index,
            "owner": self.owner,
            "kind": self.kind,
            "pieces": [str(d) for d in self.dominoes],
            "layout": self.layout,
            "royal": self.royal,
            "score": self.score,
        }

    def to_json(self, index: int) -> dict[str, JSON]:
        """The meld as plain data for events (its documented event form, pieces under ``dominoes``)."""
        return {
            "index": index,
            "owner": self.owner,
            "kind": self.kind,
            "dominoes": [str(d) for d in self.dominoes],
            "layout": self.layout,
            "royal": self.royal,
            "score": self.score,
        }


@dataclass(slots=True)
class _Window:
    """An open claim window after a discard (``jump_ins``).

    ``waiting`` are the seats that have not answered yet (the state's
    :attr:`~Conveyor.must_act`); ``claims`` each answer given, a
    :class:`Jump` or None for a decline. Mutable, so it copies itself.
    """

    domino: Domino
    column: int
    end: str
    discarder: int
    waiting: set[int]
    claims: dict[int, Jump | None]

    def copy(self) -> _Window:
        """An independent copy (the answers themselves are frozen)."""
        return _Window(self.domino, self.column, self.end, self.discarder, set(self.waiting), dict(self.claims))

    def to_json(self) -> dict[str, JSON]:
        """The window as plain data (for the snapshot)."""
        return {
            "domino": str(self.domino),
            "column": self.column,
            "end": self.end,
            "discarder": self.discarder,
            "waiting": sorted(self.waiting),
            "claims": {str(s): None if c is None else c.text() for s, c in sorted(self.claims.items())},
        }


@dataclass(frozen=True, slots=True)
class _Drawn:
    """This turn's pickup: where from, what, whether it was face up, whether it was a jump-in."""

    column: int
    end: str
    domino: Domino
    face_up: bool
    jumped: bool = False

    def to_json(self) -> list[JSON]:
        """The pickup as plain data (for the snapshot)."""
        return [self.column, self.end, str(self.domino), self.face_up, self.jumped]


def _belt_json(belt: Conveyors[Domino]) -> dict[str, JSON]:
    """The conveyor belt as plain data (for the snapshot): pieces, face-up marks, claims, a pending draw."""
    return {
        "columns": [texts(col) for col in belt.columns],
        "face_up": [list(u) for u in belt.up],
        "claimed_by": list(belt.claimed_by),
        "pending": None if belt.pending is None else list(belt.pending),
    }


def _line_size_reason(options: Mapping[str, OptionValue], size: int, *, pickup: bool) -> str:
    """Why a closing line of ``size`` dominoes is refused (it is not a whole hand)."""
    hand = int_option(options, "column_length")
    if pickup:
        whole = f"a closing line on the pickup must hold a whole hand and the pickup: {hand + 1} dominoes"
    else:
        whole = f"a closing line must hold a whole hand: the {hand} dominoes of a claimed column, after the discard"
    return (
        f"{whole}, none left over; yours would hold {size}. After a meld or a lay-off a hand is no longer whole:"
        " close by melding instead"
    )


def _wanted(fits: Sequence[str], dominoes: Pieces) -> str:
    """What one end of a meld takes, in words: its dominoes (up to 3), else the pips of a sum."""
    return " or ".join(fits) if len(fits) <= 3 else f"a domino of {dominoes[0].pips} pips"


def _meld_event(data: dict[str, JSON]) -> dict[str, JSON]:
    """A meld's data for an event: its kind under ``meld_kind`` (``kind`` names the event)."""
    out: dict[str, JSON] = dict(data)
    out["meld_kind"] = out.pop("kind")
    return out


def misfit(rules: ConveyorMelds, action: Layoff, meld: TableMeld) -> RuleError:
    """The refusal of a lay-off that does not fit its end: what each end takes, the meld as a counted param."""
    other = HIGH if action.end == LOW else LOW
    takes = {end: [str(d) for d in rules.fits(meld.kind, meld.dominoes, end)] for end in END_NAMES}
    params: dict[str, Param] = {
        "meld": action.meld,
        "domino": str(action.domino),
        "end": action.end,
        "dominoes": [str(d) for d in meld.dominoes],
        "low": takes[LOW],
        "high": takes[HIGH],
    }
    shown = f"{action.domino} fits neither end of meld {{meld}} ({format_dominoes(meld.dominoes)})"
    if rules.extend(meld.kind, meld.dominoes, action.domino, other) is not None:
        wanted = _wanted(takes[action.end], meld.dominoes)
        text = (
            f"{action.domino} does not fit the {action.end} end of meld {{meld}} ({format_dominoes(meld.dominoes)}),"
            f" which takes {wanted or 'nothing more'}; it fits the {other} end"
        )
    elif len(takes[LOW]) > 3 or len(takes[HIGH]) > 3:
        text = f"{shown}: it takes dominoes of {meld.dominoes[0].pips} pips"
    else:
        low, high = (" or ".join(takes[end]) or "nothing" for end in (LOW, HIGH))
        text = f"{shown}: it takes {low} at the low end and {high} at the high end"
    return _err(f"{PREFIX}-LAYOFF-FIT", text, counted=("meld",), **params)
