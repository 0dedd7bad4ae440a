"""The body of ``GET /api/games/{game}/guide``: a game's "how to play" guide for the browser.

The guide itself is the game's (:mod:`rummykit.rulesets.guide`, found through
the catalogue by :func:`rummykit.presenters.guide.guide_for`); this module
only gives it its wire shape. It lives beside :mod:`rummykit.server.protocol`
(which holds the other bodies and frames) to keep that module within the
package's size limit.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rummykit.catalogue import find_game
from rummykit.presenters.guide import guide_for

__all__ = ["GuideOut", "GuideSection", "MeldPictureOut", "guide_out"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeldPictureOut(_Body):
    """An example of a valid meld, for the guide to draw as pieces."""

    pieces: list[str] = Field(description="the meld's pieces in the game's notation (the view's piece texts)")
    caption: str


class GuideSection(_Body):
    """One part of a guide: a heading and its short paragraphs."""

    heading: str
    paragraphs: list[str]


class GuideOut(_Body):
    """A game's "how to play" guide (``GET /api/games/{game}/guide``)."""

    game: str = Field(description="the game's id")
    title: str = Field(description="the game's name")
    sections: list[GuideSection] = Field(
        description="the parts in reading order: Goal, A turn, Melds, Watch out for, End of a round and scoring,"
        " Your first turn"
    )
    melds: list[MeldPictureOut] = Field(description="example melds, each valid by the game's rules (shown with Melds)")
    tip: str = Field(description="a one-line tip for a player's first turn (also the last section)")


def guide_out(game: str) -> GuideOut:
    """The guide of ``game`` (id or alias) as the server sends it; an UnknownGameError for an unknown game."""
    info = find_game(game)
    guide = guide_for(info.id)
    return GuideOut(
        game=info.id,
        title=info.name,
        sections=[GuideSection(heading=h, paragraphs=list(ps)) for h, ps in guide.sections()],
        melds=[MeldPictureOut(pieces=list(m.pieces), caption=m.caption) for m in guide.melds],
        tip=guide.tip,
    )
