"""The ``rummykit`` command line (``rummykit --help``, or ``python -m rummykit``)."""

from rummykit.cli.main import main

__all__ = ["main"]
