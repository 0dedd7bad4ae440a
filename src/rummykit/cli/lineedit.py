"""Line editing at the prompt: editing keys, history and tab completion, through the standard ``readline``.

Used only when the program talks to a person at a terminal (standard input
and output both terminals); piped or scripted input is read line by line as
before, untouched. Where Python has no ``readline`` module (the standard
Windows build), the prompt falls back to plain ``input()``, whose console
already keeps a history and lets the line be edited; only completion is
missing there. Why ``readline`` and not ``prompt_toolkit``:
``docs/architecture.md`` ("The line prompt").

What the person gets (GNU readline, or libedit on macOS):

- the editing keys of the terminal's readline (arrows, Home/End, Ctrl-A/E/K/U/W,
  Ctrl-L clears the screen), following the person's own ``~/.inputrc``;
- a history per seat: Up and Down recall the lines typed earlier in the game
  by the person in that seat (hot-seat players never see each other's), and
  answers to "press Enter" prompts are not kept;
- Tab completes the word being typed from what the game's presenter offers
  (:meth:`~rummykit.presenters.base.Turn.completions`): the commands, then the
  pieces in the rack; when several fit, one Tab lists them. Case does not
  matter (``r1`` completes to ``R10`` when that is the only fit).

>>> words = complete_word(lambda before: ['new', 'add'] if not before else ['R1', 'R10', 'K3'], 'new r1', 'r1')
>>> words
['R1', 'R10']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from types import ModuleType

__all__ = ["Completer", "LineEditor", "complete_word"]

Completer = Callable[[Sequence[str]], Sequence[str]]
"""The words that may come next, given the words typed before the one being completed."""


def complete_word(completer: Completer, before_cursor: str, text: str) -> list[str]:
    """The candidates for ``text``, the word being typed, that end ``before_cursor``.

    The words before it are passed to ``completer``; its answers are kept when
    they begin with ``text``, ignoring case, each once and in its order.
    """
    head = before_cursor[: len(before_cursor) - len(text)] if text else before_cursor
    lowered = text.lower()
    return [word for word in dict.fromkeys(completer(head.split())) if word.lower().startswith(lowered)]


class LineEditor:
    """Reads lines at a terminal through a ``readline`` module, with one history per key and completion."""

    def __init__(self, module: ModuleType) -> None:
        self.readline = module
        self.histories: dict[Hashable, list[str]] = {}
        self.current: Hashable = None
        self.completer: Completer | None = None
        self.matches: list[str] = []
        doc = module.__doc__ or ""
        libedit = "libedit" in doc or getattr(module, "backend", "") == "editline"
        if libedit:
            module.parse_and_bind("bind ^I rl_complete")
        else:
            module.parse_and_bind("tab: complete")
            # case does not matter in what is typed (r5 is R5), and one Tab lists the choices
            module.parse_and_bind("set completion-ignore-case on")
            module.parse_and_bind("set show-all-if-ambiguous on")
        module.set_completer_delims(" \t\n")
        module.set_completer(self._complete)

    @classmethod
    def load(cls) -> LineEditor | None:
        """An editor on the platform's ``readline``, or None where Python has none."""
        try:
            import readline
        except ImportError:
            return None
        return cls(readline)

    def read(self, prompt: str, *, complete: Completer | None = None, history: Hashable = None) -> str:
        """Show ``prompt`` and read a line (``EOFError`` on Ctrl-D).

        ``history`` names whose history Up and Down walk through (a seat);
        None keeps the current one but does not add the line to it.
        """
        rl = self.readline
        if history is not None and history != self.current:
            if self.current is not None:
                self.histories[self.current] = [
                    rl.get_history_item(i) for i in range(1, rl.get_current_history_length() + 1)
                ]
            rl.clear_history()
            for line in self.histories.get(history, []):
                rl.add_history(line)
            self.current = history
        length = rl.get_current_history_length()
        self.completer = complete
        try:
            line = input(prompt)
        finally:
            self.completer = None
            if history is None:
                while rl.get_current_history_length() > length:
                    rl.remove_history_item(rl.get_current_history_length() - 1)
        return line

    def _complete(self, text: str, state: int) -> str | None:
        """readline's completion hook: the ``state``-th candidate for ``text``."""
        try:
            if state == 0:
                rl = self.readline
                before = rl.get_line_buffer()[: rl.get_endidx()]
                words = complete_word(self.completer, before, text) if self.completer else []
                # Python's readline appends nothing to a completed word: the space is added here
                self.matches = [word + " " for word in words]
            return self.matches[state] if state < len(self.matches) else None
        except Exception:  # an error here would be swallowed by readline; offer nothing instead
            return None
