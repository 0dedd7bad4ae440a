"""Widgets of the terminal app's frame: the keys bar, the log, and text laid out to its width.

- :class:`KeysBar` (in place of Textual's one-line footer) shows the keys of
  the part that has the focus, then the app's, each hint whole: a hint that
  does not fit on a line goes to the next one, so no hint is ever cut.
- :class:`GameLog` keeps every line it was given and lays them out again at
  every width it gets, broken between words with a hanging indent, so a
  resize never leaves a line cut mid-word.
- :class:`FittedText` and :class:`LinesPanel` are lines laid out to their
  width by a function (the help screen; the status lines), again after
  every resize.

Nothing here knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import ClassVar, NamedTuple, Unpack

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import RichLog, Static

from rummykit.presenters.text import fit
from rummykit.tui.tables import WidgetOptions, Wrapped, focus_title

__all__ = ["FittedText", "GameLog", "Hint", "KeysBar", "LinesPanel", "ansi", "fit_key_rows"]


def ansi(lines: list[str]) -> Text:
    """Lines that may hold the presenters' ANSI colours, as one styled text."""
    return Text.from_ansi("\n".join(lines)) if lines else Text("")


class Hint(NamedTuple):
    """A key shown in the keys bar."""

    key: str
    """The key as Textual names it (what a click on the hint presses)."""
    shown: str
    """The key as shown."""
    description: str
    enabled: bool
    """False: shown dimmed (the action is not available now)."""


class KeysBar(Widget):
    """The keys of the focused part first, then the app's, wrapped between hints (never inside one).

    A click on a hint presses its key. Dimmed hints are keys not available
    now (commit while the table is invalid). It keeps two lines even when the
    hints need one, so that moving the focus does not move the panels above
    it (from 80 columns on, two lines hold them all).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"keys-bar--key", "keys-bar--off"}
    DEFAULT_CSS = """
    KeysBar {
        height: auto; min-height: 2; max-height: 3; padding: 0 1;
        background: $footer-background; color: $footer-foreground;
    }
    KeysBar > .keys-bar--key { color: $footer-key-foreground; text-style: bold; }
    KeysBar > .keys-bar--off { color: $footer-foreground 50%; }
    """

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.hints: list[Hint] = []
        self.layout_: Wrapped | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self.hints = self.find_hints()
            self.refresh(layout=True)

    def find_hints(self) -> list[Hint]:
        """The shown bindings now active: the focused part's (and its containers') first, the app's last
        (its keys that act everywhere, such as Ctrl+Q, at the very end); one hint per action."""
        own: list[Hint] = []
        app: list[tuple[bool, Hint]] = []
        actions: set[tuple[int, str]] = set()
        for node, binding, enabled, _ in self.screen.active_bindings.values():
            if not binding.show or (id(node), binding.action) in actions:
                continue
            actions.add((id(node), binding.action))
            hint = Hint(binding.key, self.app.get_key_display(binding), binding.description, enabled)
            if node is self.app:
                app.append((binding.priority, hint))
            else:
                own.append(hint)
        return own + [hint for _, hint in sorted(app, key=lambda pair: pair[0])]

    def render(self) -> Text:
        out = Wrapped(self.content_region.width or self.size.width or 80)
        key_style = self.get_component_rich_style("keys-bar--key")
        off_style = self.get_component_rich_style("keys-bar--off")
        for hint in self.hints:
            cell = Text.assemble((hint.shown, key_style), " ", hint.description)
            if not hint.enabled:
                cell.stylize(off_style)
            out.add_apart(cell, hint.key)
        self.layout_ = out
        return out.text

    def on_click(self, event: events.Click) -> None:
        """Press the key of the hint clicked (a dimmed one rings the bell)."""
        at = event.get_content_offset(self)
        if at is None or self.layout_ is None:
            return
        key = self.layout_.at(at.x, at.y)
        hint = next((h for h in self.hints if h.key == key), None)
        if hint is None:
            return
        if hint.enabled:
            self.app.simulate_key(hint.key)
        else:
            self.app.bell()


class GameLog(RichLog):
    """A log whose lines (ANSI-coloured text) are laid out to its width between words, with a
    hanging indent, and laid out again when the width changes; marked while it has the focus
    (its keys scroll it)."""

    DEFAULT_CSS = """
    GameLog { scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(wrap=True, markup=False, min_width=10, **kwargs)
        self.entries: list[str] = []
        """Every line given, as given."""
        self.laid_out_width = 0

    def on_focus(self) -> None:
        self.border_title = focus_title("the log", True)

    def on_blur(self) -> None:
        self.border_title = focus_title("the log", False)

    @property
    def room(self) -> int:
        """The columns a line may take."""
        return self.scrollable_content_region.width

    def add(self, *lines: str) -> None:
        """Add lines at the end (laid out now if the width is known, else at the first resize)."""
        self.entries.extend(lines)
        if self.laid_out_width:
            for line in lines:
                self.lay_out(line)

    def lay_out(self, line: str) -> None:
        for part in fit(line, self.laid_out_width):
            self.write(Text.from_ansi(part), width=self.laid_out_width)

    def clear(self) -> GameLog:
        """Forget every line."""
        self.entries = []
        super().clear()
        return self

    def on_resize(self, event: events.Resize) -> None:
        """Lay every line out again to a new width; at any new size, show the end (the last lines)."""
        room = self.room
        if room > 0 and room != self.laid_out_width:
            self.laid_out_width = room
            RichLog.clear(self)
            for line in self.entries:
                self.lay_out(line)
        self.scroll_end(animate=False, immediate=True)


KEY_ROW = re.compile(r"^(\s+\S(?:.*?\S)?\s{2,})\S")
"""A row of a key list: the key (or keys) indented, two or more spaces, what it does."""


def fit_key_rows(lines: Iterable[str], width: int) -> list[str]:
    """Rows of a key list (``"  KEY   what it does"``) and their headings laid out to ``width``: a
    description too long for its line goes on under itself (under the key when that leaves less
    than half the width).

    >>> fit_key_rows(['Keys:', '  c u r   commit | undo | reset the turn'], 24)
    ['Keys:', '  c u r   commit | undo', '          | reset the', '          turn']
    """
    out: list[str] = []
    for line in lines:
        match = KEY_ROW.match(line)
        hang = len(match.group(1)) if match else 2
        out += fit(line, width, hang if hang <= width // 2 else 6)
    return out


class FittedText(Static):
    """A text laid out to the widget's width by ``lines(width)``, again whenever the width changes."""

    def __init__(self, lines: Callable[[int], list[str]], *, ansi: bool = False, **kwargs: Unpack[WidgetOptions]) -> None:
        self.make_text = Text.from_ansi if ansi else Text
        """How the lines become a text: ``ansi`` lines hold the presenters' colours."""
        super().__init__(self.make_text("\n".join(lines(0))), **kwargs)
        self.lines = lines
        self.laid_out_width = 0

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_region.width
        if width > 0 and width != self.laid_out_width:
            self.laid_out_width = width
            self.update(self.make_text("\n".join(self.lines(width))))


class LinesPanel(Widget):
    """Lines (ANSI-coloured) laid out to the panel's width by a function, drawn again at every width;
    hidden while there is no function."""

    def __init__(self, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.lines: Callable[[int], list[str]] | None = None
        self.laid_out_width = 0

    def show(self, lines: Callable[[int], list[str]] | None) -> None:
        self.lines = lines
        self.display = lines is not None
        self.refresh(layout=True)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self.laid_out_width:
            self.laid_out_width = event.size.width
            self.refresh(layout=True)

    def render(self) -> Text:
        lines = self.lines
        return Text.from_ansi("\n".join(lines(self.content_region.width or self.size.width or 40))) if lines else Text("")
