"""The moves list: for every game without a draft on the screen, the moves the engine lists for the seat.

A :class:`MovesList` holds the listed actions themselves, labelled in a
person's words (the command layer's, as the browser's moves panel words
them: ``reveal column 3, cell 4``), grouped by kind and sorted by their
numbers, and takes the one chosen with the person's turn
(:meth:`~rummykit.presenters.base.Turn.act`): no text is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from textual.widgets import OptionList
from textual.widgets.option_list import Option

from rummykit.engine.commands import Declared, natural_key, syntax
from rummykit.engine.core import Action
from rummykit.presenters.base import Turn
from rummykit.tui.tables import FOCUS_MARK

if TYPE_CHECKING:
    from rummykit.tui.game import GameApp

__all__ = ["ListedMove", "MovesList", "acting", "game_app", "worded"]


def game_app(app: object) -> GameApp | None:
    """``app`` as the game app (None: another app, e.g. a test's)."""
    from rummykit.tui.game import GameApp

    return app if isinstance(app, GameApp) else None


def acting(action: Action) -> Callable[[Turn], Action | None]:
    """What the app runs to take the game action ``action`` (``draw``, ``pass``, a listed move) on the person's turn."""
    return lambda turn: turn.act(action)


def worded(moves: list[ListedMove]) -> list[ListedMove]:
    """The moves with their words (:attr:`ListedMove.said`, the command layer's: ``reveal column 3, cell 4``),
    grouped by kind in the order the kinds first come, and sorted by their numbers within a kind (``column 2``
    before ``column 10``). An action whose class declares no words is said as it is typed.
    """
    kinds: dict[type[Action], int] = {}
    out = []
    for move in moves:
        action = move.action
        kinds.setdefault(type(action), len(kinds))
        said = syntax(type(action)).said_text(action) if isinstance(action, Declared) else move.label
        out.append(move._replace(said=said))
    return sorted(out, key=lambda m: (kinds[type(m.action)], natural_key(m.said)))


class ListedMove(NamedTuple):
    """A move the engine lists for the seat: the command a person types for it (its label: typing narrows the
    list by it), the action, and its words as the list shows them (:func:`worded` fills them in)."""

    label: str
    action: Action
    said: str = ""


class MovesList(OptionList):
    """The moves the seat may make now (the engine's listing), labelled with the commands a person types.

    For a game whose turn has no free-table draft (and no table widget of its
    own, or F6 asks for it): Up/Down and Enter (or a click) play a move: the
    listed action itself goes to the person's turn
    (:meth:`~rummykit.presenters.base.Turn.act`), no text is read. Letters typed
    go to the command line (as everywhere), which narrows the list to the moves
    whose labels start with what is typed.
    """

    DEFAULT_CSS = """
    MovesList { height: auto; max-height: 10; border: round $accent; }
    MovesList:focus { border: round $success; }
    Screen.-short MovesList { max-height: 7; }
    """

    listed: tuple[ListedMove, ...] = ()
    """The moves listed, in the list's order."""

    def show(self, moves: list[ListedMove]) -> None:
        """List ``moves`` in a person's words (:func:`worded`; the list hides when empty); the highlighted
        move stays when still listed."""
        moves = worded(moves)
        if tuple(moves) != self.listed:
            keep = self.highlighted_option.id if self.highlighted_option is not None else None
            labels = [move.label for move in moves]
            self.listed = tuple(moves)
            self.set_options([Option(move.said, id=move.label) for move in moves])
            if keep in labels:
                self.highlighted = labels.index(keep)
            elif moves:
                self.highlighted = 0
        self.display = bool(moves)
        self.mark_focus()

    def mark_focus(self, focused: bool | None = None) -> None:
        """The title: how many moves, and (while the list has the focus) the focus mark."""
        count = self.option_count
        title = f"Your moves ({count}): Enter plays one" if count else ""
        focused = self.has_focus if focused is None else focused
        self.border_title = f"{FOCUS_MARK} {title}" if title and focused else title

    def on_focus(self) -> None:
        self.mark_focus(True)

    def on_blur(self) -> None:
        self.mark_focus(False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        app = game_app(self.app)
        if app is not None and 0 <= event.option_index < len(self.listed):
            app.run_step(acting(self.listed[event.option_index].action))
