"""Domino-rummikub positions: the start of a turn as one line of text (:func:`from_position`)."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.engine.core import Action
from rummykit.engine.options import OptionValue
from rummykit.pieces.dominoes import parse_dominoes
from rummykit.rulesets import freetable
from rummykit.rulesets.domino_rummikub.state import DominoRummikub

__all__ = ["from_position", "parse_action_text"]


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in domino-rummikub notation.

    >>> parse_action_text(0, 'play 5-6 : 3-5 4-5 5-5 5-6').text()
    'play 5-6 : 3-5 4-5 5-5 5-6'
    """
    return freetable.parse_turn_action(seat, text, parse_dominoes)


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: OptionValue,
) -> DominoRummikub:
    """Set up a position from its one-line string (the same fields as ``rummikub``'s).

    >>> s = from_position('table: 5-3 5-4 5-5; racks: 5-6 1-1 / 2-3 0-0; pool: seed 1; turn: 0; down: 10')
    >>> s.view(0)['rack'], s.view(None)['pool_size']
    (['1-1', '5-6'], 49)
    """
    return freetable.game_from_position(DominoRummikub, text, parse_dominoes, players=players, seed=seed, options=options)
