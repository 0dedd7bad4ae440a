"""Saving a game's record for a person: never over another file, and saying how to go on.

Every interface that plays a game for people (the line prompt, the terminal
app) saves its record through :func:`save_record` when the game stops: to
the file asked for, else as ``rummykit-<game>-<seed>.txt`` in the records
folder (:func:`~rummykit.session.files.records_folder`), never over an
existing file. A game resumed from a record (:class:`Resumed`) brings that
record up to date instead, as long as the file still holds what was read.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rummykit.engine.core import GameState
from rummykit.records import Seat, write_record
from rummykit.session.files import records_folder, save_new, save_text

__all__ = ["Resumed", "Saved", "default_record_path", "save_record"]


@dataclass(frozen=True)
class Resumed:
    """The record a game continues: its file and its text as read."""

    path: Path
    text: str


@dataclass(frozen=True)
class Saved:
    """What :func:`save_record` did: the file written (None: none), lines for the person, or an error line."""

    path: Path | None
    lines: list[str]
    error: str | None = None


def default_record_path(state: GameState, records_dir: Path | None) -> Path:
    """``rummykit-<game>-<seed>.txt`` in the records folder (saving picks ``-2``, ``-3``... if taken)."""
    folder = records_dir if records_dir is not None else records_folder()
    return folder / f"rummykit-{state.info.id}-{state.seed}.txt"


def save_record(
    state: GameState,
    seats: Sequence[Seat],
    *,
    record: bool = True,
    record_path: Path | None = None,
    records_dir: Path | None = None,
    resumed: Resumed | None = None,
    command: str = "play",
) -> Saved:
    """Write a game's record, never over another file; what to tell the person.

    The record goes to ``record_path``, else to its default name in
    ``records_dir`` (:func:`default_record_path`); ``record`` False saves
    nothing. A ``resumed`` game saved to neither brings its own record up to
    date, as long as that file is as it was read. An unfinished game is
    offered to be continued with ``rummykit COMMAND --resume FILE``: the
    command it was played with (``play`` or ``tui``).
    """
    if not record:
        return Saved(None, ["The game was not saved (--no-record)."])
    text = write_record(state, list(seats))
    update = record_path is None and records_dir is None and resumed is not None
    wanted = record_path or (resumed.path if resumed is not None else default_record_path(state, records_dir))
    try:
        if update and resumed is not None and _unchanged(wanted, resumed):
            path = wanted
            save_text(path, text)  # the same game, further on: bring its record up to date
        else:
            wanted.parent.mkdir(parents=True, exist_ok=True)
            path = save_new(wanted, text)
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) else wanted
        return Saved(None, [], f"rummykit: could not save the record to {where}: {exc.strerror or exc}")
    lines = []
    if path != wanted:
        why = "changed since the game was resumed from it" if update else "already exists"
        lines.append(f"{wanted} {why}: rummykit never overwrites a record.")
    quoted = shlex.quote(str(path))
    if state.outcome is None:
        lines.append(f"Record saved to {path}; continue with: rummykit {command} --resume {quoted}")
    else:
        lines.append(f"Record saved to {path} (replay it with: rummykit replay {quoted})")
    # whole, even when wider than the screen: the command is for copying
    return Saved(path, lines)


def _unchanged(path: Path, resumed: Resumed) -> bool:
    """True when the resumed record's file still holds what was read from it."""
    try:
        return path.read_text(encoding="utf-8") == resumed.text
    except (OSError, UnicodeDecodeError):
        return False
