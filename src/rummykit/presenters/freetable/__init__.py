"""What the free-table games (``rummikub``, ``domino-rummikub``...) share at an interface.

A person builds a turn on a :class:`TableDisplay`'s draft, through the generic turn: typed commands (``new``,
``add``, ``move``, ``split``...) become operations on a
:class:`~rummykit.blocks.table.TableDraft`, which the game makes from the
seat's view and which reports what is still wrong with the table; ``commit``
turns the draft into the game's action. Whether a set is valid is the
draft's (the engine's) answer, never this module's.

Each game gives a :class:`TableKit` (how its pieces are parsed and sorted,
how its drafts are made and committed, its reminder and hint) and gets a
:class:`FreeTablePresenter`.

>>> style = Style()
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70}, ['ann', 'bob'], style)
['bob draws a tile (pool: 70)']
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70, 'piece': 'R5'}, ['ann', 'bob'], style)
['bob draws R5 (pool: 70)']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic

from rummykit.engine.core import GameInfo
from rummykit.presenters.base import Solver, View, Vocabulary
from rummykit.presenters.changes import table_changes
from rummykit.presenters.freetable.turn import (
    TableDisplay,
    help_head,
    step_rows,
)
from rummykit.presenters.freetable.view import (
    LEGEND,
    REASONS,
    TILE_WORDS,
    P,
    TableKit,
    describe_event,
    grouped,
    outcome_lines,
    rack_lines,
    rack_text,
    round_end_lines,
    status_lines,
)
from rummykit.presenters.text import Style, table_lines
from rummykit.presenters.turn import Commanded, Display

__all__ = [
    "LEGEND",
    "REASONS",
    "TILE_WORDS",
    "FreeTablePresenter",
    "P",
    "TableDisplay",
    "TableKit",
    "TableNarrator",
    "describe_event",
    "grouped",
    "help_head",
    "outcome_lines",
    "rack_lines",
    "rack_text",
    "round_end_lines",
    "status_lines",
    "step_rows",
]


# -- the presenter -------------------------------------------------------------------


@dataclass(frozen=True)
class FreeTablePresenter(Commanded, Generic[P]):
    """The presenter of a free-table game, made from its :class:`GameInfo` and :class:`TableKit`."""

    info: GameInfo
    kit: TableKit[P]
    solver: Solver | None = None
    playable: bool = True

    @property
    def game(self) -> str:
        """The game's id."""
        return self.info.id

    @property
    def words(self) -> Vocabulary:
        """The kit's vocabulary."""
        return self.kit.words

    @property
    def orders(self) -> Sequence[str]:
        """The rack orders of the kit."""
        return list(self.kit.orders)

    @property
    def hint(self) -> bool:
        """True when the kit has a best-play hint."""
        return self.kit.best_play is not None

    def describe_event(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`describe_event`, in the game's words."""
        return describe_event(event, names, style, words=self.words)

    def narrator(self, names: Sequence[str], style: Style) -> TableNarrator:
        """A :class:`TableNarrator` in the game's words."""
        return TableNarrator(self.words, names, style)

    def rules_lines(self) -> list[str]:
        """The kit's rules in brief."""
        return list(self.kit.rules)

    def notation_lines(self) -> list[str]:
        """The kit's notation."""
        return list(self.kit.notation)

    def status_lines(self, view: View, labels: Sequence[str], style: Style) -> list[str]:
        """See :func:`status_lines`."""
        return style.fit(status_lines(view, labels, style, self.words))

    def table_lines(self, view: View, style: Style) -> list[str]:
        """The table's sets, numbered from 1."""
        return ["Table:", *table_lines(view["table"], style)]

    def rack_lines(self, view: View, style: Style, order: str | None = None) -> list[str]:
        """The seat's rack in an order of the kit (nothing for a spectator)."""
        if "rack" not in view:
            return []
        rack = self.kit.parse_pieces(" ".join(view["rack"]))
        return rack_lines(self.kit, rack, self.kit.order_or_default(order), style)

    def screen(self, view: View, labels: Sequence[str], style: Style, order: str | None = None) -> list[str]:
        """Status, table, rack and the seat's reminder (as a turn begins)."""
        lines = [*self.status_lines(view, labels, style), *self.table_lines(view, style)]
        lines += self.rack_lines(view, style, order)
        reminder = self.kit.reminder(view)
        return style.fit([*lines, reminder] if reminder else lines)

    def display(self) -> Display:
        """What a turn of this game shows (see :class:`~rummykit.presenters.turn.Commanded`)."""
        return TableDisplay(self.kit)

    def hint_lines(self, view: View) -> list[str]:
        """The kit's best play for the seat (nothing without one)."""
        return [] if self.kit.best_play is None else self.kit.best_play(view)

    def round_end_lines(self, event: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`round_end_lines`."""
        return style.fit(round_end_lines(event, names, style, self.words))

    def outcome_lines(self, outcome: View, names: Sequence[str], style: Style) -> list[str]:
        """See :func:`outcome_lines`."""
        return style.fit(outcome_lines(outcome, names, style, self.words))


class TableNarrator:
    """Tells a free-table game's events in order, marking on each played table what the play changed.

    It keeps the table as the events showed it last (empty at a deal, as
    the ``position`` event sets it, as each ``play`` leaves it), so it can
    compare each play's table with the one before. The marks are explained
    the first time they appear.
    """

    def __init__(self, words: Vocabulary, names: Sequence[str], style: Style) -> None:
        self.words = words
        self.names = list(names)
        self.style = style
        self.table: tuple[tuple[str, ...], ...] | None = None
        """The table before the next event (None: not known yet)."""
        self.explained = False

    def describe(self, event: View) -> list[str]:
        """See :func:`describe_event`."""
        kind = event.get("kind")
        before = self.table
        legend = False
        if kind == "play" and before is not None and "table" in event:
            legend = not self.explained
            if legend and table_changes(before, event["table"], event.get("placed", [])).any:
                self.explained = True
        lines = describe_event(
            event,
            self.names,
            self.style,
            words=self.words,
            before=before if kind == "play" else None,
            legend=legend,
        )
        if kind == "deal":
            self.table = ()
        elif kind in ("position", "play") and "table" in event:
            self.table = tuple(map(tuple, event["table"]))  # as table_changes keys it
        return lines

    def fork(self) -> TableNarrator:
        """A narrator where this one stands (see :class:`~rummykit.presenters.base.SharedNarrator`).

        What it remembers (the table, whether the marks were explained) comes
        from the public part of the events (``kind`` and ``table``), which no
        secret (a rack, a drawn tile, a penalty's pieces and reason) changes.
        It never changes the table it holds in place, but replaces it, so a
        shallow copy leaves this one as it is (made as ``copy.copy`` makes it, without its generic steps).
        """
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        return twin
