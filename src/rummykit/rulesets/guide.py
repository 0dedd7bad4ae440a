"""A game's short "how to play": the guide every interface shows (the browser's dialog, the terminal app's Rules tab).

Each game's package holds its guide as ``guide.toml``, next to the rules it
sums up; :func:`load_guide` reads it into a :class:`Guide`. The guide is a
newcomer's summary in our own words: the game's rules page
(``docs/games/<game>.md``) says exactly what the engine enforces. Example
melds are written in the game's piece notation, so that an interface can draw
them as pieces; ``tests/test_guides.py`` checks each with the game's own meld
check.

>>> guide = load_guide('rummykit.rulesets.rummikub')
>>> guide.game, guide.melds[0].pieces
('rummikub', ('R4', 'R5', 'R6'))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

__all__ = ["GUIDE_FILE", "Guide", "MeldPicture", "load_guide", "parse_guide"]

GUIDE_FILE = "guide.toml"
"""The guide's file name in a game's package."""


@dataclass(frozen=True, slots=True)
class MeldPicture:
    """One example of a valid meld: its pieces in the game's notation, and what it shows."""

    pieces: tuple[str, ...]
    caption: str


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's guide, part by part; each part a few short paragraphs (one sentence or two each)."""

    game: str
    """The game's id."""
    goal: str
    """The aim of the game, in one or two sentences."""
    turn: tuple[str, ...]
    """What a turn is, step by step."""
    melds: tuple[MeldPicture, ...]
    """Example melds, each valid by the game's rules."""
    meld_rules: tuple[str, ...]
    """What makes a meld valid."""
    surprises: tuple[str, ...]
    """The rules that surprise newcomers."""
    ending: tuple[str, ...]
    """How a round ends and how it scores."""
    tip: str
    """A tip for a player's first turn."""

    def sections(self) -> list[tuple[str, tuple[str, ...]]]:
        """The guide's parts in reading order, each with its heading (the melds' pictures go with "Melds")."""
        return [
            ("Goal", (self.goal,)),
            ("A turn", self.turn),
            ("Melds", self.meld_rules),
            ("Watch out for", self.surprises),
            ("End of a round and scoring", self.ending),
            ("Your first turn", (self.tip,)),
        ]


def _texts(data: dict[str, object], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"a guide's {key!r} must be a list of texts")
    return tuple(" ".join(str(v).split()) for v in value)


def _text(data: dict[str, object], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"a guide's {key!r} must be a text")
    return " ".join(value.split())


def parse_guide(text: str) -> Guide:
    """A guide from the text of a ``guide.toml`` (a ValueError says what is missing)."""
    data = tomllib.loads(text)
    melds = data.get("meld")
    if not isinstance(melds, list) or not melds:
        raise ValueError("a guide needs at least one [[meld]]")
    pictures = []
    for meld in melds:
        if not isinstance(meld, dict):
            raise ValueError("each [[meld]] is a table")
        pictures.append(MeldPicture(tuple(_text(meld, "pieces").split()), _text(meld, "caption")))
    return Guide(
        game=_text(data, "game"),
        goal=_text(data, "goal"),
        turn=_texts(data, "turn"),
        melds=tuple(pictures),
        meld_rules=_texts(data, "meld_rules"),
        surprises=_texts(data, "surprises"),
        ending=_texts(data, "ending"),
        tip=_text(data, "tip"),
    )


def load_guide(package: str) -> Guide:
    """The guide of the game whose package is ``package`` (its ``guide.toml``)."""
    return parse_guide(resources.files(package).joinpath(GUIDE_FILE).read_text(encoding="utf-8"))
