"""One module per game; importing this package registers them all."""

from rummykit.rulesets import conveyor, domino_rummikub, rummikub

__all__ = ["conveyor", "domino_rummikub", "rummikub"]
