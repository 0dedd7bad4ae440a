"""Pieces: number tiles and jokers (dominoes and cards join later)."""

from rummykit.pieces.tiles import COLOURS, JOKER, Colour, Tile, format_tiles, parse_tiles

__all__ = ["COLOURS", "JOKER", "Colour", "Tile", "format_tiles", "parse_tiles"]
