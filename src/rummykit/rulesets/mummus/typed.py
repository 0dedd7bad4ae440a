"""Mummus actions as a person types them: read against the seat's view, screen numbers allowed.

The notation (:mod:`~rummykit.rulesets.mummus.actions`) names cards only, so
that a record never depends on how a screen numbers things. A person looking
at a screen also sees numbers, counted from 1 as people count: the discard
pile's cards from the bottom, the melds in the order they were laid down.
:func:`read_typed` reads a typed action (without the seat) against the view
of the seat typing it, where such a number may stand for a card:

========================  ====================================================
``take 3``                the third card of the discard pile from the bottom (``take 8H`` names it)
``addon 2 9H``            add 9H to meld 2 (also ``addon 9H to 2``, or ``addon 9H to 6H``)
``rummy 8H to 2``         claim 8H onto meld 2
========================  ====================================================

Where the game's listing of legal actions (from the same view) leaves only
one choice, the meld may be left out: ``addon 9H`` adds 9H to the one meld
it fits, and ``rummy`` alone makes the one claim that is open. A number is
never a card, so every action in the notation reads exactly as
:func:`~rummykit.rulesets.mummus.actions.parse_action_text` reads it. Every
interface that takes typed text reads it here (the line prompt and the
terminal app through the presenter, the browser's command box through the
server), so each accepts what any of them shows. Nothing here judges a move:
the engine does, when the action is applied.

>>> from rummykit.rulesets.mummus.position import from_position
>>> state = from_position('hands: 4H 8C / 4S 9S; melds: 1: 5H 6H 7H | 0: 8D 8H 8S; discard: 9H JC 10D')
>>> view = state.view(0)
>>> read_typed(0, 'take 2', view).text(), read_typed(0, 'take 2', view) == read_typed(0, 'take JC', view)
('take JC', True)
>>> read_typed(0, 'addon 4H', view).text(), read_typed(0, 'addon 2 8C', view).text()
('addon 4H to 5H', 'addon 8C to 8D')
>>> read_typed(0, 'take 4', view)
Traceback (most recent call last):
...
rummykit.errors.ParseError: the discard pile has cards 1..3, not 4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.engine.commands import SHOWN_FROM
from rummykit.engine.core import Action
from rummykit.errors import ParseError
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus.actions import COMMANDS, Addon, Rummy
from rummykit.rulesets.mummus.listing import actions_from_view
from rummykit.rulesets.mummus.views import MummusView, mummus_view

__all__ = ["FIRST", "meld_number", "open_claims", "read_typed"]

FIRST = SHOWN_FROM
"""The number a screen gives the bottom card of the discard pile and the first meld."""

def read_typed(seat: int, text: str, view: Mapping[str, object]) -> Action:
    """The action ``text`` names for ``seat``, whose view is ``view`` (see the module's docstring).

    Raises :class:`~rummykit.errors.ParseError` for text that names no action,
    a number the screen does not show, or a meld left out that the listing
    cannot tell.
    """
    words = text.split()
    found = COMMANDS.find(words)
    if found is not None:
        command, size = found
        if command.cls is Addon:
            return _addon(seat, words[size:], mummus_view(view))
        if command.cls is Rummy:
            return _rummy(seat, words[size:], mummus_view(view))
    return COMMANDS.read_typed(seat, text, view)


def meld_number(view: MummusView, card: Card) -> int:
    """The number a screen shows for the meld holding ``card`` (counted from 1); 0 if none holds it."""
    for meld in view["melds"]:
        if str(card) in meld["cards"]:
            return int(meld["index"]) + FIRST
    return 0


def open_claims(view: MummusView, meld: str | None = None) -> list[Rummy]:
    """The rummy claims the game lists for the view's seat now (onto the meld ``meld`` names, if given)."""
    calls = [a for a in actions_from_view(view) if isinstance(a, Rummy)]
    if meld is None:
        return sorted(calls, key=lambda a: a.text())
    held = set(_meld_cards(view, _meld_card(view, meld)))
    return sorted((a for a in calls if a.meld is not None and a.meld in held), key=lambda a: a.text())


def _meld_card(view: MummusView, word: str) -> Card:
    """A meld written as its number on the screen, or as one of its cards: the card that names it."""
    if word.isdigit():
        melds = list(view["melds"])
        n = int(word)
        if not melds:
            raise ParseError(f"there is no meld {n}: no meld is on the table yet")
        if not FIRST <= n < len(melds) + FIRST:
            raise ParseError(f"the melds are numbered {FIRST}..{len(melds)}, not {n}")
        return Card.parse(str(melds[n - FIRST]["cards"][0]))
    return Card.parse(word)


def _meld_cards(view: MummusView, card: Card) -> list[Card]:
    for meld in view["melds"]:
        if str(card) in meld["cards"]:
            return [Card.parse(c) for c in meld["cards"]]
    return []


def _split(args: Sequence[str], verb: str) -> tuple[list[str], str | None]:
    """``[N] CARD ... [to N|CARD]``: the cards and the meld as typed (None when left out)."""
    words = list(args)
    lowered = [w.lower() for w in words]
    if "to" in lowered:
        i = lowered.index("to")
        if len(words) != i + 2:
            raise ParseError(f"write `{verb} CARD ... to N` (N: a meld's number, or one of its cards)")
        return words[:i], words[i + 1]
    if words and words[0].isdigit():
        return words[1:], words[0]
    return words, None


def _cards(words: Sequence[str]) -> list[Card]:
    return [Card.parse(w) for w in words]


def _addon(seat: int, args: Sequence[str], view: MummusView) -> Action:
    words, meld = _split(args, "addon")
    if not words:
        raise ParseError("write `addon [N] CARD ...`: the cards to add (and the meld's number)")
    cards = _cards(words)
    if meld is not None:
        return Addon(seat, tuple(cards), _meld_card(view, meld))
    named = set(cards)
    targets = sorted({a.meld for a in actions_from_view(view) if isinstance(a, Addon) and set(a.cards) == named})
    typed = " ".join(words)
    if len(targets) == 1:
        return Addon(seat, tuple(cards), targets[0])
    if targets:
        numbers = ", ".join(str(n) for n in sorted(meld_number(view, t) for t in targets))
        raise ParseError(f"{typed} fits melds {numbers}: write `addon N {typed}`")
    raise ParseError(f"name the meld: `addon N {typed}` (N: its number on the screen)")


def _rummy(seat: int, args: Sequence[str], view: MummusView) -> Action:
    words, meld = _split(args, "rummy")
    if not words:
        calls = open_claims(view, meld)
        if len(calls) == 1:
            return calls[0]
        if not calls:
            raise ParseError("there is nothing to claim now: no discard fits a meld on the table")
        named = ", ".join(f"`{a.text()}`" for a in calls)
        raise ParseError(f"several claims are open ({named}): name the cards")
    cards = _cards(words)
    if meld is not None:
        return Rummy(seat, tuple(cards), _meld_card(view, meld))
    # Without a meld, the claim is the one the game lists for these cards: a new meld when they
    # form one, else the only meld they extend (else the engine says what is wrong).
    listed = [a for a in actions_from_view(view) if isinstance(a, Rummy) and set(a.cards) == set(cards)]
    fits = {a.meld for a in listed if a.meld is not None}
    if len(fits) == 1 and not any(a.meld is None for a in listed):
        return Rummy(seat, tuple(cards), fits.pop())
    return Rummy(seat, tuple(cards), None)
