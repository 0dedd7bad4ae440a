"""Rummikub notation beyond single tiles: tables, actions, and positions (:func:`from_position`)."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.engine.core import Action
from rummykit.engine.options import OptionValue
from rummykit.pieces.tiles import parse_tiles
from rummykit.rulesets import freetable
from rummykit.rulesets.rummikub.options import Table
from rummykit.rulesets.rummikub.state import Rummikub

__all__ = ["from_position", "parse_action_text", "parse_table"]


def parse_table(text: str) -> Table:
    """Read sets of tiles separated by ``|`` (an empty text is an empty table).

    >>> parse_table('r1 r2 r3 | k5 b5 o5')[1]
    (Tile.parse('K5'), Tile.parse('B5'), Tile.parse('O5'))
    """
    return freetable.parse_table_with(parse_tiles, text)


def parse_action_text(seat: int, text: str) -> Action:
    """Read an action (without its seat) in rummikub notation.

    >>> parse_action_text(0, 'play R4 : R1 R2 R3 R4').text()
    'play R4 : R1 R2 R3 R4'
    """
    return freetable.parse_turn_action(seat, text, parse_tiles)


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: OptionValue,
) -> Rummikub:
    """Set up a position from its one-line string.

    ``table: <sets>; racks: <rack> / <rack> ...; pool: <tiles> | seed <n>;
    turn: <seat>; down: <one 0/1 per seat>; idle: <n>``. ``pool`` lists the
    tiles in draw order (the last is drawn first), or ``seed N`` to shuffle the
    tiles that are not on the table or in a rack with seed N. ``down``,
    ``idle`` and ``turn`` default to nobody down, 0 and seat 0.

    >>> s = from_position('table: R1 R2 R3; racks: R4 K9 / B1 B2; pool: seed 5; turn: 1')
    >>> s.view(1)['rack'], s.view(None)['pool_size']
    (['B1', 'B2'], 99)
    """
    return freetable.game_from_position(Rummikub, text, parse_tiles, players=players, seed=seed, options=options)
