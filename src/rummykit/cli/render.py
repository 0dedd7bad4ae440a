"""What only the line prompt decides about text: whether the terminal gets colours.

Everything else about words and lines (styles, tables, events, outcomes) is
the games' presenters' (:mod:`rummykit.presenters`), shared with the other
interfaces.

>>> import io
>>> use_color(io.StringIO(), environ={})
False
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from rummykit.presenters.text import Style

__all__ = ["Style", "use_color"]


def use_color(stream: TextIO, *, no_color: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    """True when ANSI colours should be used on ``stream``.

    Off with ``--no-color``, when the ``NO_COLOR`` environment variable is set
    to anything non-empty (no-color.org), or when the stream is not a terminal.
    """
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False
