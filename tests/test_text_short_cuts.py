"""The narration's short cuts for text without colour, held to the general code they skip.

``marked_pieces`` and ``Style.pieces`` without colour join the pieces' own
text (the mark before it); ``visible_len`` of a text without an escape is its
length; ``compact_table`` at width 0 (never broken: ``rummykit serve``'s
style) does not measure its chunks; ``_kept`` compares two sets as lists only
when they are not of one type.
"""

from __future__ import annotations

import random

from rummykit.presenters import changes
from rummykit.presenters.text import _ANSI, Style, compact_table, marked_pieces, visible_len

PIECES = ["R1", "K13", "J", "B7", "O10", "3-5", "QH", "x"]


def _sets(rng: random.Random) -> list[list[str]]:
    return [rng.sample(PIECES, rng.randint(0, 5)) for _ in range(rng.randint(0, 8))]


def test_marked_pieces_and_pieces_without_colour_are_the_general_forms() -> None:
    rng = random.Random(1)
    for width in (0, 24, 80):
        style = Style(color=False, width=width)
        for _ in range(500):
            pieces = rng.sample(PIECES, rng.randint(0, 6))
            marks = [rng.choice(["", "", "+", "*"]) for _ in range(rng.randint(0, 7))]
            general = " ".join(style.marked(p, m) for p, m in zip(pieces, marks, strict=False)) if marks else " ".join(
                style.piece(p) for p in pieces
            )
            assert marked_pieces(pieces, style, marks) == general
            assert style.pieces(pieces, ", ") == ", ".join(style.piece(p) for p in pieces)


def test_visible_len_and_compact_table_at_width_0_are_the_measured_ones() -> None:
    rng = random.Random(2)
    for _ in range(300):
        sets = _sets(rng)
        marks = [[rng.choice(["", "+", "*"]) for _ in s] for s in sets]
        for color in (False, True):
            style = Style(color=color, width=0)
            lines = compact_table(sets, style, marks=marks if rng.random() < 0.7 else None)
            assert len(lines) == 1  # never broken
            for line in lines:
                assert visible_len(line) == len(_ANSI.sub("", line))
            wide = compact_table(sets, Style(color=color, width=10**6), marks=marks)
            assert compact_table(sets, style, marks=marks) == wide  # a width nothing reaches: the same line


def test_kept_sets_are_those_a_list_comparison_keeps() -> None:
    rng = random.Random(3)
    for _ in range(500):
        before = _sets(rng)
        after = [list(s) if rng.random() < 0.5 else rng.sample(PIECES, len(s)) for s in before]
        for b, a in ((before, after), (tuple(map(tuple, before)), tuple(map(tuple, after))), (before, tuple(map(tuple, after)))):
            plain = {i for i in range(min(len(b), len(a))) if a[i] and list(a[i]) == list(b[i])}
            assert changes._kept(b, a) == plain
