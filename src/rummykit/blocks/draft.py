"""What a turn built step by step shares, whatever it is built on: the :class:`Draft` protocol.

Two games let a person build a turn before sending it: a free table
(:class:`~rummykit.blocks.table.TableDraft`: sets rearranged at will) and a
grid (:class:`~rummykit.blocks.grid_draft.GridDraft`: pieces placed on
cells). Their steps differ (a set is split, a cell is filled), but an
interface drives both the same way: it takes a step, undoes it, starts the
turn again, asks what is wrong and what was placed, and commits. This
protocol names those shared operations, so the generic turn
(:class:`~rummykit.presenters.turn.Turn`) drives either without knowing which.

>>> from rummykit.blocks.table import TableDraft
>>> from rummykit.blocks.grid_draft import GridDraft
>>> all(callable(getattr(cls, name)) for cls in (TableDraft, GridDraft) for name in ('undo', 'reset', 'placed', 'problems'))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

__all__ = ["Draft"]


@runtime_checkable
class Draft(Protocol):
    """A turn being built (see the module's docstring); each step raises ``RuleError`` and changes nothing
    when the draft cannot take it."""

    @property
    def changed(self) -> bool:
        """True once the table differs from the start of the turn."""
        ...

    def placed(self) -> Sequence[object]:
        """The pieces moved from the rack (or tray) to the table so far."""
        ...

    def problems(self) -> Sequence[object]:
        """What keeps the draft from being committed now, each as the engine words it (empty: ready)."""
        ...

    def undo(self) -> None:
        """Take back the last step (``RuleError`` when there is none)."""
        ...

    def reset(self) -> None:
        """Back to the table and rack as the turn began."""
        ...
