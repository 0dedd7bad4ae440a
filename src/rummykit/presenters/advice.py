"""Hints from a game's ``strong`` bot: its advice in a person's words, for every interface.

A game whose hint is its strong bot's choice (every game without a
solver-drawn table) gives :func:`advice_lines` as its presenter's
``hint_lines``; the line prompt's ``hint``, the terminal app's F7 and the
server's ``hint`` frame all show these lines. The bot chooses from the
seat's view only, as it would in play, so a hint never uses what the seat
cannot see; nothing is played.

>>> from rummykit.rulesets.rummikub import from_position
>>> state = from_position('racks: K10 B10 O10 R2 / B1 B2; pool: seed 1; down: 00')
>>> for line in advice_lines('rummikub', state.view(0)):
...     print(line)
hint: play 3 tiles: black 10, blue 10, orange 10 (table of 1 set) (type: play K10 B10 O10 : K10 B10 O10)
  why: it places 3 tiles worth 30 points, the most the rack can place, leaving 1 valid set on the table
  (the best play there is)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from rummykit.bots.registry import make_bot
from rummykit.bots.strong import Advice, Advisor
from rummykit.catalogue import find_game
from rummykit.engine.commands import command_table
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.pieces.cards import Card
from rummykit.pieces.dominoes import Domino
from rummykit.pieces.tiles import Tile

__all__ = ["HINT_LEVEL", "advice", "advice_lines", "advice_said", "pieces_of"]

HINT_LEVEL = "strong"
"""The bot level whose choice a hint is, in every game."""


def advice(game: str, view: Mapping[str, object]) -> Advice:
    """The strong bot's advice for the view's seat (a ``RuleError`` when it has nothing to do)."""
    bot = make_bot(HINT_LEVEL, game)
    if not isinstance(bot, Advisor):
        raise RuleError("BOT", f"the {game} strong bot gives no advice")
    return bot.advise(view, Rng(0))


def advice_lines(game: str, view: Mapping[str, object]) -> list[str]:
    """The hint as lines: the play in words and as typed, why, and the steps to play it."""
    return advice_said(game, advice(game, view))


def advice_said(game: str, found: Advice) -> list[str]:
    """Advice already worked out, as :func:`advice_lines` words it."""
    table = command_table(find_game(game).actions)
    said, typed = table.said_text(found.action), table.typed_text(found.action)
    lines = [f"hint: {said} (type: {typed})" if said != typed else f"hint: {typed}", f"  why: {found.reason}"]
    lines += [f"  {n}. {step}" for n, step in enumerate(found.steps, start=1)]
    if found.exact is True:
        lines.append("  (the best play there is)")
    elif found.exact is False:
        lines.append("  (the best play found in the time given; a better one may exist)")
    return lines


def pieces_of(action: object) -> frozenset[str]:
    """The pieces an action names, in notation (what an interface marks on its table for a hint).

    A grid change names the piece it places; a table named whole (a free
    table's play) counts too, so mark only what the seat holds.

    >>> from rummykit.rulesets.rummikub import from_position
    >>> state = from_position('racks: K10 B10 O10 R2 / B1 B2; pool: seed 1; down: 00')
    >>> sorted(pieces_of(advice('rummikub', state.view(0)).action))
    ['B10', 'K10', 'O10']
    """
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, Tile | Domino | Card):
            found.add(str(value))
        elif isinstance(value, tuple | list | frozenset):
            for item in value:
                walk(item)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    walk(action)
    return frozenset(found)

