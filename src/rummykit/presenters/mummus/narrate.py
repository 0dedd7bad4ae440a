"""Mummus's events told as a seat sees them, and the ends of rounds and matches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.engine.values import JSON
from rummykit.presenters.base import View
from rummykit.presenters.mummus.view import _name, card_text, cards_text, meld_name
from rummykit.presenters.text import NEW, Style, fit, game_over_lines, other_event_lines, score_lines
from rummykit.rulesets.mummus.typed import FIRST
from rummykit.words import counted

# -- events ------------------------------------------------------------------------


def _meld_no(event: Mapping[str, JSON]) -> str:
    return f"meld {int(event['meld']) + FIRST}"


def _left(event: Mapping[str, JSON]) -> str:
    return f"{counted(int(event.get('hand_size', 0)), 'card')} left"


def describe_event(event: Mapping[str, JSON], names: Sequence[str], style: Style, **_ignored: object) -> list[str]:
    """Lines describing one mummus event as a seat sees it (``Event.seen_by``); ``[]`` if nothing to say.

    Only what the event dict holds is printed: a card drawn from the stock is
    named only in the drawer's own view of the event. An add-on or a claim
    onto a meld shows the meld with the cards it gained marked ``+``. Lines
    are laid out to the style's width.
    """
    return style.fit(_describe(event, names, style))


def marks_meld(event: Mapping[str, JSON]) -> bool:
    """True when :func:`describe_event` marks cards in the event's lines (a meld that grew)."""
    return event.get("kind") == "addon" or (event.get("kind") == "rummy" and not event.get("new"))


def _grown(event: Mapping[str, JSON], style: Style) -> str:
    """The meld an add-on or claim grew, the cards it gained marked."""
    added = {str(c) for c in event.get("cards", [])}
    grown = [str(c) for c in event.get("meld_cards", [])]
    return cards_text(grown, style, [NEW if c in added else "" for c in grown])


def _describe(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "deal":
        return [
            style.bold(
                f"Round {event.get('round', 1)}: {_name(names, event.get('dealer'))} deals"
                f" {counted(int(event.get('hand_size', 0)), 'card')} each; {_name(names, event.get('first'))} plays"
                f" first. The stock holds {counted(int(event.get('stock_size', 0)), 'card')}."
            )
        ]
    if kind == "hand":
        return [f"{who}'s hand: {cards_text(event['hand'], style)}"] if "hand" in event else []
    if kind == "draw":
        card = f" ({card_text(event['card'], style)})" if "card" in event else ""
        return [f"{who} draws from the stock{card}"]
    if kind == "take":
        taken = [str(c) for c in event.get("cards", [])]
        if event.get("deep"):
            above = cards_text([c for c in taken if c != event["card"]], style)
            return [
                f"{who} takes {card_text(event['card'], style)} from deep in the discard pile, with {above} above it,"
                f" and must meld or add on {event['card']} this turn ({counted(int(event.get('hand_size', 0)), 'card')} in hand)"
            ]
        return [f"{who} takes {card_text(event['card'], style)} from the top of the discard pile"]
    if kind in ("meld", "addon", "rummy"):
        meld = {"kind": event.get("meld_kind"), "cards": [str(c) for c in event.get("meld_cards", [])]}
        cards = cards_text([str(c) for c in event.get("cards", [])], style)
        points = counted(int(event.get("points", 0)), "point")
        late = "" if event.get("in_turn", True) else " out of turn"
        if kind == "meld":
            return [f"{who} melds a {meld_name(meld)}: {cards} ({_meld_no(event)}; {points}; {_left(event)})"]
        if kind == "addon":
            return [f"{who} adds {cards} to {_meld_no(event)}{late}: {_grown(event, style)} ({points}; {_left(event)})"]
        if event.get("new"):
            return [
                style.bold(
                    f"Rummy! {who} claims {cards} from the discard pile as a new {meld_name(meld)}"
                    f" ({_meld_no(event)}; {points})"
                )
            ]
        return [
            style.bold(f"Rummy! {who} claims {cards} from the discard pile onto {_meld_no(event)}:")
            + f" {_grown(event, style)} ({points})"
        ]
    if kind == "discard":
        return [f"{who} discards {card_text(event['card'], style)} ({_left(event)})"]
    if kind == "reshuffle":
        size = counted(int(event["stock_size"]), "card")
        return [f"The stock ran out: the discard pile is shuffled into a new stock of {size}."]
    if kind == "round-end":
        return round_end_lines(event, names, style)
    if kind == "match-end":
        return match_end_lines(event, names, style)
    return other_event_lines(event, who)


EVENT_LEGEND = f"({NEW} marks the cards just added to the meld)"
"""What the marks in an event mean (said the first time a narrator marks a card)."""


class MummusNarrator:
    """Tells a mummus game's events in order (see :func:`describe_event`) to one audience.

    Each event says all it changed (an add-on or a claim carries the whole
    meld it grew, with the cards it gained marked); what the narrator
    remembers is whether it has explained the marks yet, which it does under
    the first marked line.
    """

    def __init__(self, names: Sequence[str], style: Style) -> None:
        self.names = list(names)
        self.style = style
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """The event's lines; the marks' legend after the first that has any."""
        lines = describe_event(event, self.names, self.style)
        if lines and not self.explained and marks_meld(event):
            self.explained = True
            lines = [*lines, *self.style.fit([f"    {EVENT_LEGEND}"])]
        return lines


REASONS = {
    "out": "a player went out",
    "max-turns": "the turn limit (max_turns) was reached; scored as it stood",
    "target": "reached the target total",
    "max-rounds": "the round limit (max_rounds) was reached",
}


def round_end_lines(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    """The end of a round: who went out, then each seat's points laid, cards left, score and total.

    Laid out to the style's width: a long list of cards left goes on under its first card.
    """
    reason = str(event.get("reason"))
    if reason == "out":
        head = f"Round {event.get('round', 1)} over: {_name(names, event.get('out'))} went out."
    else:
        head = f"Round {event.get('round', 1)} over: {REASONS.get(reason, reason)}."
    lines = [style.bold(head), "  laid on the table minus left in hand:"]
    laid = list(event.get("laid_points", []))
    left = list(event.get("hand_points", []))
    hands = list(event.get("hands", []))
    width = max((len(n) for n in names), default=0)
    for seat, name in enumerate(names):
        if seat < len(laid) and seat < len(left):
            points = f"    {name:<{width}}  {laid[seat]:>3} - {left[seat]:>3}"
            cards = f"  ({cards_text(hands[seat], style)})" if seat < len(hands) and hands[seat] else ""
            hang = len(points) + 3
            lines += fit(points + cards, style.width, hang if hang <= style.width // 2 else 8)
    return style.fit(lines + score_lines(event, names))


def match_end_lines(event: Mapping[str, JSON], names: Sequence[str], style: Style) -> list[str]:
    """The end of the game: the winners, why, and the final totals."""
    return style.fit(game_over_lines(event, names, style, REASONS))
