"""The game screen of ``rummykit tui``: the game as the person's seat sees it, a log, a command line.

:class:`GameApp` plays one game set up by :func:`rummykit.cli.start.game_setup`
(the same options as ``rummykit play``):

- the main panel is the game as the person's seat sees it, drawn by the
  game's presenter from the seat's view (with bots only: a spectator's view);
  during a free-table turn it is the draft (:class:`~rummykit.presenters.base.Board`),
  invalid sets marked with the engine's reason, and the rack below it
  (:class:`RackBar`), where tiles are picked with the keys or the mouse;
- the log tells every event as the seat may see it (the presenter's narrator);
- the command line takes exactly the commands of the game's line prompt
  (the presenter's :class:`~rummykit.presenters.base.Turn`); refusals are
  shown under the panel with the engine's reason and rule id;
- bots move one step at a time, after :attr:`GameApp.bot_delay` seconds,
  thinking in a thread so the screen never freezes.

With no game set up it opens on the start screen (:mod:`rummykit.tui.start`,
also F2). Several people share the screen (hot-seat) behind a
:class:`CoverScreen` that shows nobody's rack; a :class:`ScoreScreen` follows
each round and the match (the presenter's round-end and outcome lines).

Who acts next is the game session's question
(:class:`~rummykit.session.GameSession`, as at the line prompt): the app keeps
no loop of its own. The record is saved when the app stops, as ``rummykit
play`` saves it (:func:`rummykit.session.save_record`: never over another file).

The parts live in their own modules, named here too: :mod:`rummykit.tui.game`
(the app: who acts, commands, keys), :mod:`rummykit.tui.view` (what the game
screen draws), :mod:`rummykit.tui.draft` (the free-table draft's panel and
rack, the moves list) and :mod:`rummykit.tui.screens` (help, cover, scores).
This module runs the app for the command line (:func:`run_app`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import TextIO

from rummykit.cli.start import GameSetup
from rummykit.tui.draft import BoardPanel, RackBar
from rummykit.tui.game import THEMES, GameApp
from rummykit.tui.guard import Guarded
from rummykit.tui.moves import MovesList
from rummykit.tui.screens import CoverScreen, HelpScreen, ScoreScreen, free_table_keys_help
from rummykit.tui.tables import Wrapped
from rummykit.tui.view import SPEEDS
from rummykit.tui.widgets import GameLog

__all__ = [
    "SPEEDS",
    "BoardPanel",
    "CoverScreen",
    "GameApp",
    "GameLog",
    "HelpScreen",
    "MovesList",
    "RackBar",
    "ScoreScreen",
    "Wrapped",
    "free_table_keys_help",
    "run_app",
]


def run_app(
    setup: GameSetup | None,
    *,
    out: TextIO,
    err: TextIO,
    no_color: bool = False,
    args: argparse.Namespace | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run the app until the person quits (with no set-up: from the start screen); then save and say where."""
    env = os.environ if environ is None else environ
    theme = getattr(args, "theme", None)
    app = GameApp(
        setup,
        color=not (no_color or env.get("NO_COLOR", "")),
        args=args,
        environ=environ,
        speed=str(getattr(args, "speed", None) or "normal"),
        theme=None if theme is None else THEMES[1] if theme == "light" else THEMES[0],
        replay=getattr(args, "replay", None),
    )
    guarded = Guarded(app)
    status = guarded.run()
    guarded.also(app.save)  # after an unexpected error too: the game so far can be resumed
    for error in app.save_errors:
        err.write(error + "\n")
    for line in app.saved_lines:
        out.write(line + "\n")
    failed = guarded.finish("tui", err, environ)
    if failed is not None:
        return failed
    return status if isinstance(status, int) else app.status
