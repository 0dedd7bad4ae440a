"""What only the line prompt decides about text: whether the terminal gets colours, and its width.

Everything else about words and lines (styles, tables, events, outcomes) is
the games' presenters' (:mod:`rummykit.presenters`), shared with the other
interfaces.

>>> import io
>>> use_color(io.StringIO(), environ={})
False
>>> terminal_width(io.StringIO(), environ={}), terminal_width(io.StringIO(), environ={'COLUMNS': '120'})
(80, 120)
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import TextIO

from rummykit.presenters.text import DEFAULT_WIDTH, Style

__all__ = ["Style", "make_style", "terminal_width", "use_color"]

MIN_WIDTH = 20
"""Narrower than this, lines are laid out as if the terminal had this many columns."""


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


def terminal_width(stream: TextIO, *, environ: Mapping[str, str] | None = None) -> int:
    """The columns lines are laid out to on ``stream``.

    ``COLUMNS`` in the environment wins (as for :func:`shutil.get_terminal_size`);
    otherwise the width of the terminal ``stream`` writes to, and 80 for
    anything else (a file, a pipe).
    """
    env = os.environ if environ is None else environ
    columns = env.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return max(MIN_WIDTH, int(columns))
    try:
        if not stream.isatty():
            return DEFAULT_WIDTH
        try:
            size = os.get_terminal_size(stream.fileno())
        except (OSError, ValueError):
            size = shutil.get_terminal_size((DEFAULT_WIDTH, 24))
        return max(MIN_WIDTH, size.columns)
    except (AttributeError, ValueError, OSError):
        return DEFAULT_WIDTH


def make_style(stream: TextIO, *, no_color: bool = False, environ: Mapping[str, str] | None = None) -> Style:
    """The style for ``stream``: colours as :func:`use_color` says, lines as wide as :func:`terminal_width`."""
    return Style(
        color=use_color(stream, no_color=no_color, environ=environ),
        width=terminal_width(stream, environ=environ),
    )
