"""Each game's "how to play" guide, found through the catalogue, and laid out as text lines.

Interfaces ask :func:`guide_for` by game id (or alias) and never name a game:
the catalogue lists the games' packages, and each package holds its guide
(:mod:`rummykit.rulesets.guide`). :func:`guide_lines` lays a guide out for a
terminal, each example meld drawn with the presenters' piece style.

>>> guide_for('RK').game
'rummikub'
>>> print('\\n'.join(guide_lines(guide_for('mummus'), Style(width=60))[:3]))
Goal
  A card rummy: score points for every card you put on the
  table, and go out by discarding your last card. Cards are
"""

from __future__ import annotations

import importlib
from functools import cache

from rummykit.catalogue import GAMES, find_game
from rummykit.presenters.text import Style
from rummykit.rulesets.guide import Guide, load_guide

__all__ = ["guide_for", "guide_lines"]


@cache
def _packages() -> dict[str, str]:
    """Each game's id to the package that defines it (the catalogue's entries)."""
    return {importlib.import_module(package).INFO.id: package for package in GAMES}


@cache
def guide_for(game_id: str) -> Guide:
    """The guide of a game (by id or alias); an UnknownGameError names the games for an unknown one."""
    info = find_game(game_id)
    guide = load_guide(_packages()[info.id])
    if guide.game != info.id:
        raise ValueError(f"the guide of {info.id!r} is written for {guide.game!r}")
    return guide


def guide_lines(guide: Guide, style: Style) -> list[str]:
    """The guide as lines: a heading per part, its paragraphs indented (a bullet each but the goal's and the
    tip's), the example melds drawn under "Melds"; laid out to ``style.width``."""
    lines: list[str] = []
    for heading, paragraphs in guide.sections():
        if lines:
            lines.append("")
        lines.append(style.bold(heading))
        bullet = "- " if len(paragraphs) > 1 else ""
        for paragraph in paragraphs:
            lines.extend(style.fit([f"  {bullet}{paragraph}"], hang=2 + len(bullet)))
        if heading == "Melds":
            lines.append("  For example:")
            for meld in guide.melds:
                lines.extend(style.fit([f"    {style.pieces(meld.pieces)}   {style.dim(meld.caption)}"], hang=6))
    return lines
