"""One module per game; importing this package registers them all."""

from rummykit.rulesets import rummikub

__all__ = ["rummikub"]
