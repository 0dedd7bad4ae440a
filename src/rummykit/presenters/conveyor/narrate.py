"""Conveyor's events told as a seat sees them, and the ends of rounds and matches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.engine.values import JSON

# Constants only (the names of meld kinds and meld ends): every judgement is the game's.
from rummykit.melds.conveyor import LINE, PAIRS, RUN, SUM
from rummykit.presenters.conveyor.view import FACE_DOWN, _name, _names, meld_kind, screen_number
from rummykit.presenters.text import (
    Style,
    game_over_lines,
    other_event_lines,
    plural,
    score_lines,
)

# -- events ------------------------------------------------------------------------


def describe_event(
    event: Mapping[str, JSON], names: Sequence[str], style: Style, **_ignored: object
) -> list[str]:
    """Lines describing one conveyor event as a seat sees it (``Event.seen_by``); ``[]`` if nothing to say.

    Only what the event dict holds is printed: a spectator's view of an event
    (``seen_by(None)``) names no face-down domino and no hand. Lines are laid
    out to the style's width.
    """
    return style.fit(_describe(event, names, style))


def _describe(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "first-player":
        return [f"{who} is drawn by lot to select first."]
    if kind == "layout":
        columns = list(event.get("columns", []))
        length = len(columns[0]) if columns else 0
        up = [f"column {screen_number(i)}: {' '.join(x for x in c if x != FACE_DOWN)}" for i, c in enumerate(columns)]
        return [
            style.bold(
                f"Round {event.get('round', 1)}: {plural(len(columns), 'column')} of {plural(length, 'domino')} laid out"
                f" face down; {_name(names, event.get('first'))} selects first."
            ),
            f"  face up: {'; '.join(up)}",
        ]
    if kind == "reveal":
        return [f"{who} reveals {event['domino']} (column {screen_number(event['column'])}, cell {screen_number(event['index'])})"]
    if kind == "claim":
        seen = event.get("face_up") or []
        seen_text = f"; seen face up: {' '.join(seen)}" if seen else ""
        lines = [f"{who} claims column {screen_number(event['column'])} as a hand of {plural(int(event['size']), 'domino')}{seen_text}"]
        if "hand" in event:
            lines.append(f"  {who}'s hand: {' '.join(event['hand'])}")
        return lines
    if kind == "play-starts":
        conveyors = ", ".join(str(screen_number(c)) for c in event.get("conveyors", []))
        return [style.bold(f"Everyone has claimed; {who} plays first. Conveyors: columns {conveyors}.")]
    if kind == "draw":
        where = f"from the {event['end']} of column {screen_number(event['column'])}"
        if event.get("face_up"):
            return [f"{who} draws {event['domino']} (face up) {where}"]
        if "domino" in event:
            return [f"{who} draws {event['domino']} (face down) {where}"]
        return [f"{who} draws a face-down domino {where}"]
    if kind == "meld" or kind in MELD_KINDS:
        meld = _event_meld(event)
        shown = meld["layout"] if meld["kind"] == LINE and meld.get("layout") else " ".join(meld["dominoes"])
        what = "lays down a closing line" if meld["kind"] == LINE else f"melds a {meld_kind(str(meld['kind']), meld['dominoes'])}"
        royal = ", royal" if meld.get("royal") else ""
        return [f"{who} {what}: {shown} (meld {screen_number(meld['index'])}{royal}; {_left(meld)})"]
    if kind == "layoff":
        return [
            f"{who} lays off {event['domino']} at the {event['end']} end of meld {screen_number(event['meld'])}:"
            f" {' '.join(event['dominoes'])} ({_left(event)})"
        ]
    if kind == "discard":
        milled = ", milled" if event.get("milled") else ""
        return [f"{who} discards {event['domino']} to the {event['end']} of column {screen_number(event['column'])} ({_left(event)}{milled})"]
    if kind == "close":
        how = {
            "discard": "by discarding the last domino",
            "pickup": "on the pickup (nothing left to discard)",
            "line": "with the hand as one line of play",
        }.get(str(event.get("how")), str(event.get("how")))
        return [style.bold(f"{who} closes {how}!")]
    if kind == "jump-window":
        return [
            f"Jump-in window: {_name(names, event.get('discarder'))}'s discard {event['domino']}"
            f" ({event['end']} of column {screen_number(event['column'])}) may be claimed."
        ]
    if kind == "jump-answer":
        claim = event.get("claim", False)
        if claim is False:
            return [f"{who} has answered (answers stay sealed until all are in)"]
        return [f"{who} answers: {'decline' if claim is None else claim}"]
    if kind == "jump-resolved":
        claimers = list(event.get("claimers", []))
        if event.get("winner") is None:
            return [f"Nobody claims {event['domino']}."]
        if len(claimers) == 1:
            return [f"{_name(names, event['winner'])} claims {event['domino']} (Mine!)."]
        return [
            f"{_name(names, event['winner'])} wins the claim for {event['domino']}"
            f" (claimed by {_names(names, claimers)}; the nearest after the discarder wins)."
        ]
    if kind == "jump":
        return [f"{who} jumps in: takes {event['domino']} from the {event['end']} of column {screen_number(event['column'])}"]
    if kind == "round-end":
        return round_end_lines(event, names, style)
    if kind == "match-end":
        return match_end_lines(event, names, style)
    return other_event_lines(event, who)


MELD_KINDS = (RUN, PAIRS, SUM, LINE)


def _event_meld(event: Mapping[str, JSON]) -> dict[str, JSON]:
    """A ``meld`` event as a meld: the game puts the meld's kind under ``meld_kind``.

    >>> _event_meld({'kind': 'meld', 'meld_kind': 'sum', 'dominoes': ['0-8']})['kind']
    'sum'
    """
    meld = dict(event)
    if "meld_kind" in meld:
        meld["kind"] = meld.pop("meld_kind")
    elif meld.get("kind") not in MELD_KINDS:
        meld["kind"] = LINE if meld.get("layout") else "meld"
    return meld


def _left(event: Mapping[str, JSON]) -> str:
    return f"{plural(int(event.get('hand_size', 0)), 'domino')} left"


REASONS = {
    "closed": "closed",
    "max-turns": "nobody closed within the turn limit (max_turns): no score",
    "target": "reached the target total",
    "max-rounds": "the round limit (max_rounds) was reached",
}


def round_end_lines(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    """The end of a round: who closed, what scored, every seat's score and total."""
    reason = str(event.get("reason"))
    if reason == "closed":
        winners = list(event.get("winners", []))
        team = f"; {' and '.join(_name(names, w) for w in winners)} win the round" if len(winners) > 1 else ""
        head = f"Round {event.get('round', 1)} over: {_name(names, event.get('closer'))} closed{team}."
    else:
        head = f"Round {event.get('round', 1)} over: {REASONS.get(reason, reason)}."
    lines = [style.bold(head)]
    for m in event.get("melds", []):
        royal = " (royal)" if m.get("royal") else ""
        lines.append(f"  scores meld {screen_number(m['index'])}, {meld_kind(str(m['kind']), m['dominoes'])}: {' '.join(m['dominoes'])}  {m['score']}{royal}")
    if "dominoes_left" in event:
        lines.append(f"  + {plural(int(event['dominoes_left']), 'domino')} left in the opponents' hands")
    return lines + score_lines(event, names)


def match_end_lines(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    """The end of the game: the winners, why, and the final totals (:func:`~rummykit.presenters.text.game_over_lines`)."""
    return game_over_lines(event, names, style, REASONS)
