"""Where game records are saved, and how they are written without overwriting one.

By default a record goes to the records folder (:func:`records_folder`): the
``RUMMYKIT_RECORDS`` environment variable when it is set, else the user's
data folder of the platform, as ``rummykit-<game>-<seed>.txt``. A record is
never written over another file: when the name is taken, the next free one
(``-2``, ``-3``...) is used and the program says so. The one exception is a
resumed game, which brings its own record up to date (see
:func:`rummykit.session.saving.save_record`).

>>> records_folder({'RUMMYKIT_RECORDS': '/tmp/r'}, platform='linux').as_posix()
'/tmp/r'
>>> records_folder({'HOME': '/home/ann'}, platform='linux').as_posix()
'/home/ann/.local/share/rummykit/records'
>>> records_folder({'HOME': '/home/ann', 'XDG_DATA_HOME': '/data'}, platform='linux').as_posix()
'/data/rummykit/records'
>>> records_folder({'HOME': '/Users/ann'}, platform='darwin').as_posix()
'/Users/ann/Library/Application Support/rummykit/records'
>>> numbered(Path('games/rummykit-game-7.txt'), 3).as_posix()
'games/rummykit-game-7-3.txt'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["RECORDS_ENV", "free_path", "numbered", "records_folder", "save_new", "save_text", "user_folder"]

RECORDS_ENV = "RUMMYKIT_RECORDS"
"""The environment variable naming the folder for records saved without ``--record``."""

MAX_TRIES = 10_000


def user_folder(
    environ: Mapping[str, str] | None,
    platform: str | None,
    *,
    chosen_by: str,
    xdg: tuple[str, str],
    darwin: str,
    leaf: str,
) -> Path:
    """A folder of rummykit's in the user's platform folders, unless the variable ``chosen_by`` names one.

    ``xdg`` is the XDG variable and its default under the home folder (Linux
    and other Unix systems), ``darwin`` the whole folder under ``~/Library``
    (macOS); elsewhere the folder is ``rummykit/<leaf>``, on Windows under
    ``%LOCALAPPDATA%``.

    >>> user_folder({'HOME': '/home/ann'}, 'linux', chosen_by='X', xdg=('XDG_DATA_HOME', '.local/share'),
    ...             darwin='Application Support/rummykit/records', leaf='records').as_posix()
    '/home/ann/.local/share/rummykit/records'
    """
    env = os.environ if environ is None else environ
    chosen = env.get(chosen_by, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    platform = sys.platform if platform is None else platform
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA", "")
        return (Path(local) if local else home / "AppData" / "Local") / "rummykit" / leaf
    if platform == "darwin":
        return home / "Library" / darwin
    variable, default = xdg
    base = env.get(variable, "")
    return (Path(base) if base and Path(base).is_absolute() else home / default) / "rummykit" / leaf


def records_folder(environ: Mapping[str, str] | None = None, *, platform: str | None = None) -> Path:
    """The folder where records go when no ``--record`` is given.

    ``$RUMMYKIT_RECORDS`` if set; else, per platform, ``rummykit/records`` in
    the user's data folder: ``$XDG_DATA_HOME`` or ``~/.local/share`` (Linux
    and other Unix systems), ``~/Library/Application Support`` (macOS),
    ``%LOCALAPPDATA%`` (Windows).
    """
    return user_folder(
        environ,
        platform,
        chosen_by=RECORDS_ENV,
        xdg=("XDG_DATA_HOME", ".local/share"),
        darwin="Application Support/rummykit/records",
        leaf="records",
    )


def numbered(path: Path, n: int) -> Path:
    """``path`` with ``-n`` before its suffix (``game.txt`` -> ``game-2.txt``)."""
    return path.with_name(f"{path.stem}-{n}{path.suffix}")


def free_path(path: Path) -> Path:
    """``path`` if nothing is there yet (or a device such as ``/dev/null``), else the first free name beside it."""
    if not os.path.lexists(path) or (os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)):
        return path
    for n in range(2, MAX_TRIES):
        candidate = numbered(path, n)
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(f"no free name near {path}")


def save_new(path: Path, text: str) -> Path:
    """Write ``text`` to a new file at ``path`` or, when that is taken, the next free name; returns the name.

    The text is written whole to a temporary file first and then linked into
    place, and the link fails rather than replace a file that appeared in the
    meantime, so an existing file is never overwritten. Something there that
    is not a file, such as ``/dev/null``, is written to, not replaced.
    """
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return path
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        target = path
        for n in range(2, MAX_TRIES + 2):
            try:
                os.link(tmp, target)
                return target
            except FileExistsError:
                target = numbered(path, n)
            except OSError:
                # No hard links here (some file systems): create the file exclusively instead.
                return _save_exclusive(path, text)
        raise FileExistsError(f"no free name near {path}")
    finally:
        tmp.unlink(missing_ok=True)


def _save_exclusive(path: Path, text: str) -> Path:
    target = path
    for n in range(2, MAX_TRIES + 2):
        try:
            with open(target, "x", encoding="utf-8", newline="\n") as f:
                f.write(text)
            return target
        except FileExistsError:
            target = numbered(path, n)
    raise FileExistsError(f"no free name near {path}")


def save_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: written to a temporary file in the same folder, then renamed."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
