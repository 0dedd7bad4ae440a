"""One module per game; importing this package registers them all."""

from rummykit.rulesets import domino_rummikub, rummikub

__all__ = ["domino_rummikub", "rummikub"]
