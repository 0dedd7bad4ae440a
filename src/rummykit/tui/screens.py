"""The screens above the game: the help, the cover between hot-seat people, the scores between rounds.

Also the keys' help rows the help screen lays out with the game's commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from rummykit.tui.widgets import FittedText, ansi

__all__ = [
    "MOVES_KEYS_HELP",
    "NEW",
    "NEXT",
    "QUIT",
    "TABLE",
    "CoverScreen",
    "HelpScreen",
    "ScoreScreen",
    "app_keys_help",
    "free_table_keys_help",
]


# -- help -------------------------------------------------------------------------------


class HelpScreen(ModalScreen[None]):
    """The game's commands (its presenter's help rows) and the keys of its table and of the app, laid out
    to the screen's width (again after a resize); with ``rules``, a second tab holds the game's "how to play"
    guide. ``c`` and ``r`` (or the tabs) go between them; any of Escape, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
        Binding("c", "tab('commands')", "Commands"),
        Binding("r", "tab('rules')", "Rules"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > #help-frame { width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    HelpScreen.-narrow > #help-frame, HelpScreen.-short > #help-frame { width: 100%; height: 100%; }
    HelpScreen TabbedContent, HelpScreen TabPane { height: 1fr; }
    HelpScreen TabPane { padding: 0; }
    """

    def __init__(self, lines: Callable[[int], list[str]], title: str = "", rules: Callable[[int], list[str]] | None = None) -> None:
        super().__init__()
        self.lines = lines
        """The help laid out to a width (0: lines unbroken)."""
        self.rules = rules
        """The game's guide laid out to a width (ANSI-coloured pieces), or None: no Rules tab."""
        self.heading = title

    def compose(self) -> ComposeResult:
        with Vertical(id="help-frame") as frame:
            frame.border_title = self.heading
            frame.border_subtitle = "Escape closes" + (" | c: commands, r: rules" if self.rules else "")
            with TabbedContent(initial="commands"):
                with TabPane("Commands and keys", id="commands"), VerticalScroll():
                    yield FittedText(self.lines, id="help-text")
                if self.rules is not None:
                    with TabPane("Rules", id="rules"), VerticalScroll():
                        yield FittedText(self.rules, id="rules-text", ansi=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The tab keys only where there is a Rules tab."""
        return self.rules is not None if action == "tab" else True

    def action_tab(self, pane: str) -> None:
        """Show the tab ``pane`` (``commands`` or ``rules``)."""
        self.query_one(TabbedContent).active = pane


def free_table_keys_help(hint: bool) -> list[str]:
    """The keys of the rack and the table in a free-table game (``hint``: the game has a hint)."""
    return [
        "Your rack:",
        "  Left/Right    move along your rack; Space selects a piece (or click it)",
        "  Up/Down       choose the set marked > (or click it)",
        "  Enter         add the selection (none: the piece under the cursor) to the set marked >",
        "  Ctrl+N        a new set from the selection (no selection: the piece under the cursor)",
        "The table:",
        "  arrows        Up/Down choose the set marked >, Left/Right the piece in it",
        "  Space         select the piece under the cursor (or click it)",
        "  Enter         move the selected pieces to the set marked >",
        "  Ctrl+N        move the selected pieces (or the one under the cursor) to a new set",
        "  Delete        take the selected pieces (placed this turn) back to your rack",
        "  Ctrl+S        split the set marked > before the piece under the cursor",
        "  Ctrl+G        merge: the sets of the selected pieces (none: the next set) go on the end of >",
        "Both:",
        "  Ctrl+U Ctrl+R undo | reset the turn",
        *(["  F7            hint: the best play, its table shown with the pieces it places marked h"] if hint else []),
        "  Ctrl+O        commit: end your turn (only when the table is valid)",
        "  Ctrl+D Ctrl+K draw | pass (both end your turn)",
    ]


MOVES_KEYS_HELP = [
    "Your moves (listed under the table):",
    "  Up/Down       choose a move",
    "  Enter         play the move chosen (or click it)",
]
"""The keys of the moves list, for a game drawn by its presenter's lines."""


def app_keys_help(parts: str, moves_list: bool) -> list[str]:
    """The keys of the app (``parts``: what Tab goes between; ``moves_list``: F6 shows the moves list)."""
    return [
        "Everywhere:",
        "Whatever has the focus (marked ▶), typing goes to the command line: no letter is a key,",
        "so no letter of a command can play a move.",
        "  Enter         run the command typed on the bottom line (the commands above)",
        f"  Tab           go between {parts}",
        *(["  F6            show or hide the list of your moves under the table"] if moves_list else []),
        "  F1            this help; Escape closes it",
        "  F2            the start screen: a new game, a saved one, or a replay (Escape comes back here)",
        "  F3            bot speed: fast, normal, slow, step (F5 lets the next bot step happen)",
        "  F4            dark or light theme",
        "  F7            hint (where the game has one; else it says so)",
        "  Ctrl+Q        save the game record and quit",
        "A refusal shows the engine's reason and rule id under the table.",
    ]


# -- between people, and between rounds ------------------------------------------------


class CoverScreen(Screen[None]):
    """Hot-seat: the screen between two people, showing nobody's rack; Enter lets the next person see theirs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "I am ready")]
    DEFAULT_CSS = """
    CoverScreen { align: center middle; }
    CoverScreen > Static { width: auto; max-width: 90%; border: round $accent; padding: 1 2; }
    """

    def __init__(self, name: str, rack: str) -> None:
        super().__init__()
        self.person = name
        self.rack = rack

    def compose(self) -> ComposeResult:
        yield Static(
            f"Pass the keyboard to {self.person}.\n\n{self.person}, press Enter when ready to see your {self.rack}.",
            id="cover-text",
        )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)


NEXT, NEW, QUIT, TABLE = "next", "new", "quit", "table"
"""What the score screen answers."""


class ScoreScreen(Screen[str]):
    """The scores at the end of a round (Enter: next round) or of the match (Escape: back to the table).

    ``n`` answers a new game, ``q`` save and quit.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer('next')", "Next round"),
        Binding("escape", "answer('table')", "Back to the table"),
        Binding("n", "answer('new')", "New game"),
        Binding("q", "answer('quit')", "Save & quit"),
    ]
    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%; border: round $accent; padding: 0 1; }
    ScoreScreen #score-keys { margin-top: 1; }
    """

    def __init__(self, lines: list[str], *, final: bool) -> None:
        super().__init__()
        self.lines = lines
        self.final = final

    def compose(self) -> ComposeResult:
        first = "Escape: back to the table" if self.final else "Enter: next round"
        with VerticalScroll():
            yield Static(ansi(self.lines), id="score-text")
            yield Static(f"{first} | n: a new game | q: save and quit", id="score-keys")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter goes on only while the match goes on; Escape only once it is over."""
        if action == "answer" and parameters:
            if parameters[0] == NEXT:
                return not self.final
            if parameters[0] == TABLE:
                return self.final
        return True

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
