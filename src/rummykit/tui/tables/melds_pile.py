"""The ``melds-pile`` table: melds laid down, a spread discard pile, and the seat's hand.

For a card game whose table is a list of melds and a discard pile spread
face up (``mummus``). The view gives ``melds`` (each with its ``cards``),
``discard`` (bottom to top), ``claimable`` (pile cards a call could claim),
``stock_size`` and, for a seat, its ``hand``. Melds and pile cards are
numbered from 1 on the screen. The keys build the game's actions
(:mod:`rummykit.rulesets.mummus.actions`: :class:`Meld`, :class:`Addon`,
:class:`Discard`, :class:`Take`, :class:`Draw`, :class:`Rummy`) and take them
through the person's turn: no command text is written. A meld is named by
its first card and a pile card by itself, as the typed ``to N`` and ``take N``
name them; ``rummy`` makes the one claim the game's listing leaves open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Unpack, cast

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from rummykit.errors import ParseError
from rummykit.pieces.cards import Card
from rummykit.rulesets.mummus.actions import (
    FIRST,
    Addon,
    Discard,
    Draw,
    Meld,
    Rummy,
    Take,
    meld_card,
    pile_card,
)
from rummykit.rulesets.mummus.typed import open_claims
from rummykit.tui.tables import HAND, HandTable, WidgetOptions, Wrapped, hint_marked

if TYPE_CHECKING:
    from rummykit.rulesets.mummus.views import MummusView

__all__ = ["HAND", "MELD", "PILE", "MeldsPileTable"]

MELD, PILE = "meld", "pile"
"""What a clicked cell is: a card of the hand, a meld, a card of the discard pile."""


def card_cell(card: str, *, chosen: bool = False, cursor: bool = False, mark: str = "") -> Text:
    """A card as text: brackets when selected, reversed under the cursor (characters first, never colour alone)."""
    cell = Text(f"[{card}{mark}]" if chosen else f" {card}{mark}")
    if cursor:
        cell.stylize("reverse", 1 if not chosen else 0)
    if chosen:
        cell.stylize("bold")
    return cell


def melds_pile_view(view: Mapping[str, object]) -> MummusView:
    """The view as the mummus game lays it out (the only game whose presenter names this table).

    The widget's first view is empty: every key is read with ``get``."""
    return cast("MummusView", view)


class MeldsPileTable(HandTable):
    """Melds, the spread discard pile and the hand, with keys that build the turn's commands.

    The hand has a cursor (Left/Right) and a selection (Space or a click);
    the melds a cursor marked ``>`` (Up/Down or a click); the discard pile a
    cursor marked ``^`` (Shift+Left/Right or a click).
    """

    kind: ClassVar[str] = "melds-pile"
    KEYS_HELP: ClassVar[list[str]] = [
        "Melds and discard pile (Tab to the table):",
        "  Left/Right    move along your hand; Space selects a card (or click it)",
        "  Up/Down       choose the meld marked > (or click it)",
        "  Shift+Left/Right  choose the discard-pile card marked ^ (or click it)",
        "  Ctrl+N        meld the selected cards",
        "  Enter         add the selected cards on to the meld marked >",
        "  Ctrl+X        discard the selected card (none selected: the one under the cursor)",
        "  Ctrl+T        take the discard-pile card marked ^ and every card above it",
        "  Ctrl+D        draw from the stock",
        "  Ctrl+Y        call rummy (claim discard-pile cards that extend a meld)",
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("up", "meld(-1)", "Meld up", show=False),
        Binding("down", "meld(1)", "Meld down", show=False),
        Binding("shift+left", "pile(-1)", "Pile left", show=False),
        Binding("shift+right", "pile(1)", "Pile right", show=False),
        Binding("space", "select", "Select"),
        Binding("ctrl+n", "meld_selected", "Meld"),
        Binding("enter", "add_on", "Add to >"),
        Binding("ctrl+x", "discard", "Discard"),
        Binding("ctrl+t", "take", "Take ^"),
        Binding("ctrl+d", "draw", "Draw"),
        Binding("ctrl+y", "rummy", "Rummy"),
    ]

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.meld = 0
        """The meld marked ``>`` (its place in the view's list, from 0)."""
        self.pile = 0
        """The discard-pile card marked ``^`` (from 0 at the bottom)."""

    # -- what the view holds ---------------------------------------------------------

    @property
    def melds(self) -> list[Sequence[str]]:
        return [list(map(str, m.get("cards", ()))) for m in melds_pile_view(self.view).get("melds", None) or ()]

    @property
    def discard(self) -> list[str]:
        return [str(c) for c in melds_pile_view(self.view).get("discard", None) or ()]

    def changed(self, before: Mapping[str, object], now: Mapping[str, object]) -> None:
        super().changed(before, now)
        was, discard = melds_pile_view(before).get("discard") or (), melds_pile_view(now).get("discard") or ()
        if len(was) != len(discard):
            self.pile = max(0, len(discard) - 1)  # the top card

    # -- drawing -----------------------------------------------------------------------

    def render(self) -> Text:
        view = melds_pile_view(self.view)
        out = Wrapped(self.content_region.width or self.size.width or 60)
        focused = self.has_focus
        melds, discard = self.melds, self.discard
        self.meld = max(0, min(self.meld, len(melds) - 1))
        self.pile = max(0, min(self.pile, len(discard) - 1))
        out.add(Text("Melds" + (" (none yet)" if not melds else ":"), style="bold"))
        for n, cards in enumerate(melds):
            out.newline()
            target = n == self.meld
            head = Text(f"{'>' if target else ' '} [{n + 1}]", style="bold" if target else "")
            out.add(head, (MELD, n))
            for card in cards:
                out.add(hint_marked(card_cell(card), card in self.hinted), (MELD, n), indent="      ")
        out.newline()
        claimable = set(map(str, view.get("claimable", None) or ()))
        out.add(Text(f"Discard pile, bottom to top ({len(discard)}):", style="bold"))
        if not discard:
            out.add(Text(" empty"))
        out.newline("  ")
        for i, card in enumerate(discard):
            mark = "*" if card in claimable else ""
            cell = Text(f" {i + 1}:") + hint_marked(
                card_cell(card, mark=mark, cursor=focused and i == self.pile), card in self.hinted
            )
            if i == self.pile:
                cell = Text(" ^") + cell
            out.add(cell, (PILE, i), indent="  ")
        if claimable:
            out.newline()
            out.add(Text("  (* a rummy call, Ctrl+Y, can claim it)", style="dim"))
        out.newline()
        out.add(Text(f"Stock: {view.get('stock_size', '?')}"))
        self.layout_ = out
        return out.text

    def hand_cell(self, piece: str, *, chosen: bool, cursor: bool) -> Text:
        return hint_marked(card_cell(piece, chosen=chosen, cursor=cursor), piece in self.hinted)

    def cursor_tag(self) -> object:
        return (MELD, self.meld) if self.melds else (PILE, self.pile) if self.discard else None

    def on_click(self, event: events.Click) -> None:
        """A click on a meld makes it the target; on a pile card, puts ^ on it (a hand card: the hand bar)."""
        match self.clicked(event):
            case (where, int(n)) if where == MELD:
                self.meld = n
            case (where, int(n)) if where == PILE:
                self.pile = n
            case _:
                return
        self.refresh()

    # -- keys --------------------------------------------------------------------------

    def action_meld(self, step: int) -> None:
        if self.melds:
            self.meld = (self.meld + step) % len(self.melds)
            self.refresh()

    def action_pile(self, step: int) -> None:
        if self.discard:
            self.pile = (self.pile + step) % len(self.discard)
            self.refresh()

    def action_meld_selected(self) -> None:
        cards = tuple(map(Card.parse, self.picked()))
        if cards:
            self.act(lambda seat: Meld(seat, cards))

    def action_add_on(self) -> None:
        cards = tuple(map(Card.parse, self.picked()))
        if not self.melds:
            self.note("No meld to add on to yet.")
        elif cards:
            meld = Card.parse(meld_card(self.view, self.meld + FIRST))
            self.act(lambda seat: Addon(seat, cards, meld))

    def action_discard(self) -> None:
        cards = self.picked()
        if len(cards) > 1:
            self.note("Select one card to discard (Space unselects).")
        elif cards:
            card = Card.parse(cards[0])
            self.act(lambda seat: Discard(seat, card))

    def action_take(self) -> None:
        if not self.discard:
            self.note("The discard pile is empty.")
        else:
            card = Card.parse(pile_card(self.view, self.pile + FIRST))
            self.act(lambda seat: Take(seat, card))

    def action_draw(self) -> None:
        self.act(Draw)

    def action_rummy(self) -> None:
        view = melds_pile_view(self.view)

        def claim(seat: int) -> Rummy:
            """The one claim the game lists for the seat (several or none: said, nothing changes)."""
            calls = open_claims(view)
            if len(calls) == 1:
                return calls[0]
            if not calls:
                raise ParseError("there is nothing to claim now: no discard fits a meld on the table")
            named = ", ".join(f"`{a.text()}`" for a in calls)
            raise ParseError(f"several claims are open ({named}): type the one you call on the command line")

        self.act(claim)
