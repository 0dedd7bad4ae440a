"""Where an unexpected error of the program is written down, so the person sees one line instead of a traceback.

An error nothing handled (a bug) must never pass for a normal end: the
command exits with a non-zero status, says in one line what went wrong and
where the details are, and the details (the traceback) go to a new file in
the logs folder (:func:`logs_folder`): ``$RUMMYKIT_LOGS`` when set, else the
user's state folder of the platform. When that folder cannot be written, the
system's temporary folder is used; when nothing can be written, the details
go to the error stream itself, so they are never lost.

>>> logs_folder({'RUMMYKIT_LOGS': '/tmp/logs'}, platform='linux').as_posix()
'/tmp/logs'
>>> logs_folder({'HOME': '/home/ann'}, platform='linux').as_posix()
'/home/ann/.local/state/rummykit/logs'
>>> logs_folder({'HOME': '/home/ann', 'XDG_STATE_HOME': '/state'}, platform='linux').as_posix()
'/state/rummykit/logs'
>>> logs_folder({'HOME': '/Users/ann'}, platform='darwin').as_posix()
'/Users/ann/Library/Logs/rummykit'
>>> one_line(ValueError('bad\\n  value'))
'ValueError: bad value'
"""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from rummykit.cli.saving import user_folder

__all__ = ["LOGS_ENV", "logs_folder", "one_line", "report_crash", "write_crash_log"]

LOGS_ENV = "RUMMYKIT_LOGS"
"""The environment variable naming the folder for the logs of unexpected errors."""


def logs_folder(environ: Mapping[str, str] | None = None, *, platform: str | None = None) -> Path:
    """The folder for the logs of unexpected errors.

    ``$RUMMYKIT_LOGS`` if set; else, per platform: ``rummykit/logs`` in
    ``$XDG_STATE_HOME`` or ``~/.local/state`` (Linux and other Unix systems),
    ``~/Library/Logs/rummykit`` (macOS), ``%LOCALAPPDATA%\\rummykit\\logs`` (Windows).
    """
    return user_folder(
        environ, platform, chosen_by=LOGS_ENV, xdg=("XDG_STATE_HOME", ".local/state"), darwin="Logs/rummykit", leaf="logs"
    )


def one_line(error: BaseException) -> str:
    """The error's kind and message on one line."""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def write_crash_log(command: str, details: str, *, environ: Mapping[str, str] | None = None) -> Path | None:
    """Write ``details`` to a new file named after ``command`` and the time; its path (None: nothing could be written)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"rummykit-{command}-error-{stamp}-{os.getpid()}.log"
    header = f"rummykit {command}: an unexpected error, {time.strftime('%Y-%m-%d %H:%M:%S')}\n\n"
    for folder in (logs_folder(environ), Path(tempfile.gettempdir())):
        path = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(path, "x", encoding="utf-8", newline="\n") as f:
                f.write(header + details)
        except OSError:
            continue
        return path
    return None


def report_crash(
    command: str,
    error: BaseException | None,
    err: TextIO,
    *,
    extra: str = "",
    environ: Mapping[str, str] | None = None,
) -> None:
    """Write the error's traceback (and ``extra``) to a log and one line on ``err`` saying where it is."""
    details = "".join(traceback.format_exception(error)) if error is not None else "(no exception was kept)\n"
    if extra.strip():
        details += "\n" + extra.rstrip() + "\n"
    what = one_line(error) if error is not None else "an unexpected error"
    path = write_crash_log(command, details, environ=environ)
    if path is None:
        err.write(f"rummykit {command} stopped on an unexpected error ({what}); no log could be written:\n{details}")
    else:
        err.write(f"rummykit {command} stopped on an unexpected error ({what}); the details are in {path}\n")
