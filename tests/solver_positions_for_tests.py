"""Fixed solver positions used by the tests (written out, so they never drift)."""

from __future__ import annotations

from rummykit.pieces.tiles import Tile, parse_tiles
from rummykit.rulesets.rummikub import parse_table

HARD = (
    "K7 B7 O7 R7 | K13 B13 R13 | O6 J O8 | R5 R6 R7 R8 | K3 B3 O3 | K11 O11 R11 | K11 B11 O11 R11"
    " | J B8 B9 | K1 B1 O1 | K4 O4 R4 | B1 B2 B3 B4 B5 | K2 K3 K4 K5 | K2 B2 O2 R2 | K5 K6 K7 K8 K9"
    " | B6 B7 B8 | K6 B6 O6 | B4 O4 R4"
)
HARD_RACK = "K8 K9 K10 K10 K12 B5 B9 B11 B12 O2 O3 O5 O5 O7 O10 O10 R1 R1 R3 R3 R5 R9 R12"


def hard_position() -> tuple[list[tuple[Tile, ...]], list[Tile]]:
    """A 60-tile table with two jokers and a 23-tile rack that all fits (bench seed 46)."""
    return [tuple(s) for s in parse_table(HARD)], list(parse_tiles(HARD_RACK))
