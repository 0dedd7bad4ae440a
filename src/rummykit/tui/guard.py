"""Running a Textual app so that an error nothing handled never passes for a normal end.

Textual catches an unhandled error in the app (in a handler, a worker, a
widget's ``render`` or ``check_action``...), stops the app, prints a long
traceback after the screen is restored and makes :meth:`App.run` return
``None`` with :attr:`App.return_code` 1. Left alone, a program that returns
its own status after ``run()`` would then exit with status 0, as if the
person had quit. :class:`Guarded` keeps the error instead: the traceback
(Textual's, with the local variables, and Python's) goes to a log file
(:mod:`rummykit.cli.crashlog`), the person sees one line naming that file,
and the exit status is non-zero.
"""

from __future__ import annotations

import io
import traceback
from collections.abc import Callable, Mapping
from typing import Generic, TextIO, TypeVar

from rich.console import Console
from textual.app import App

from rummykit.cli.crashlog import report_crash

__all__ = ["Guarded"]

R = TypeVar("R")
"""What the app returns when it exits."""


class Guarded(Generic[R]):
    """One run of a Textual app, and whether it (or a step after it) stopped on an unexpected error."""

    def __init__(self, app: App[R]) -> None:
        self.app = app
        self.error: BaseException | None = None
        """The first unexpected error (None: none, or Textual kept none)."""
        self.crashed = False
        self.exit_text = io.StringIO()
        """What Textual printed when it stopped (its traceback of an unhandled error)."""
        self.extra: list[str] = []
        # Textual prints an unhandled error's traceback to its error console when the app stops: keep it.
        app.error_console = Console(file=self.exit_text, width=120, markup=False, highlight=False)

    def run(self, *, headless: bool = False) -> R | None:
        """Run the app (``App.run``, without a terminal when ``headless``) until it exits; its result (None
        after an unexpected error)."""
        try:
            result = self.app.run(headless=headless)
        except Exception as exc:  # an error Textual let through: the same treatment
            self.fail(exc)
            return None
        if self.app.return_code not in (None, 0):
            self.fail(getattr(self.app, "_exception", None))  # where Textual keeps the first unhandled error
        return result

    def fail(self, error: BaseException | None) -> None:
        self.crashed = True
        if self.error is None:
            self.error = error
        elif error is not None:
            self.extra.append("Then:\n" + "".join(traceback.format_exception(error)))

    def also(self, step: Callable[[], object]) -> None:
        """Run a step after the app (saving...), keeping its error the same way."""
        try:
            step()
        except Exception as exc:
            self.fail(exc)

    def finish(self, command: str, err: TextIO, environ: Mapping[str, str] | None = None) -> int | None:
        """After an unexpected error: the log, one line on ``err`` and the exit status (1 or more).

        None when all went well (anything Textual printed on the way out goes to ``err`` as it would have).
        """
        printed = self.exit_text.getvalue()
        if not self.crashed:
            if printed.strip():
                err.write(printed)
            return None
        extra = "\n".join([*self.extra, f"What the terminal app printed when it stopped:\n{printed}" if printed.strip() else ""])
        report_crash(command, self.error, err, extra=extra, environ=environ)
        return max(1, self.app.return_code or 1)
