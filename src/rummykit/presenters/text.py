"""Text helpers every presenter shares: styles, counts, tables of sets, racks, scores, help tables.

Nothing here knows a game or a rule: it turns lists of piece texts and
numbers into lines. Pieces are printed in notation (``R7``, ``K13``, ``J``,
``3-5``). With colour on, a tile's text is wrapped in an ANSI colour, but its
letter is always printed, so colour is never the only mark.

>>> style = Style(color=False)
>>> style.pieces(['R7', 'K13', 'J'])
'R7 K13 J'
>>> Style(color=True).piece('R7') == '\\x1b[1;31mR7\\x1b[0m'
True
>>> plural(2, 'domino'), signed(-7)
('2 dominoes', '-7')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.errors import ParseError

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
WARN = "\x1b[1;31m"

# Tile letters to ANSI colours. Black tiles use the terminal's own bold
# foreground, so they stay readable on dark and light backgrounds.
_TILE_COLOURS = {
    "K": "\x1b[1m",
    "B": "\x1b[1;34m",
    "O": "\x1b[1;33m",
    "R": "\x1b[1;31m",
    "J": "\x1b[1;35m",
}
_TILE = re.compile(r"^([KBOR])\d{1,2}$|^J$")

HelpRow = tuple[str, str]
"""One row of a command list: what to type, what it does."""


@dataclass(frozen=True)
class Style:
    """How text is decorated: ANSI colours on or off."""

    color: bool = False

    def piece(self, text: str) -> str:
        """One piece in notation, coloured when it is a tile and colour is on."""
        if not self.color:
            return text
        m = _TILE.match(text)
        if m is None:
            return text
        code = _TILE_COLOURS[m.group(1) or "J"]
        return f"{code}{text}{RESET}"

    def pieces(self, texts: Iterable[str], sep: str = " ") -> str:
        """Pieces in notation separated by ``sep``."""
        return sep.join(self.piece(t) for t in texts)

    def bold(self, text: str) -> str:
        """Emphasis (a heading, a name)."""
        return f"{BOLD}{text}{RESET}" if self.color else text

    def dim(self, text: str) -> str:
        """Less important text."""
        return f"{DIM}{text}{RESET}" if self.color else text

    def warn(self, text: str) -> str:
        """A warning; callers always include words, never colour alone."""
        return f"{WARN}{text}{RESET}" if self.color else text


def plural(n: int, word: str) -> str:
    """``1 tile``, ``2 tiles``, ``3 dominoes``.

    >>> plural(1, 'tile'), plural(3, 'tile'), plural(2, 'penalty domino')
    ('1 tile', '3 tiles', '2 penalty dominoes')
    """
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith("o") else f"{n} {word}s"


def signed(n: int) -> str:
    """A score with its sign (``+12``, ``-7``, ``0``)."""
    return f"{n:+d}" if n else "0"


def seat_name(names: Sequence[str], seat: Any, nobody: str = "?") -> str:
    """A seat's name; ``nobody`` for None, ``seat N`` for a seat the list does not name.

    >>> seat_name(['ann', 'bob'], 1), seat_name(['ann'], None, 'nobody'), seat_name(['ann'], 4)
    ('bob', 'nobody', 'seat 4')
    """
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return nobody if seat is None else f"seat {seat}"


def details(event: Mapping[str, Any], *, skip: Sequence[str]) -> str:
    """An event's other fields as ``key value`` pairs (for events without their own wording).

    >>> details({'kind': 'reveal', 'column': 3, 'domino': '7-7', 'face_up': ['3-8', '1-2']}, skip=('kind',))
    'column 3, domino 7-7, face up 3-8 1-2'
    """
    parts = []
    for key, value in event.items():
        if key in skip:
            continue
        if isinstance(value, list):
            nested = any(isinstance(v, list) for v in value)
            value = (" / " if nested else " ").join(
                " ".join(map(str, v)) if isinstance(v, list) else str(v) for v in value
            )
        parts.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(parts)


# -- tables and racks ------------------------------------------------------------


def table_lines(
    sets: Sequence[Sequence[str]],
    style: Style,
    *,
    problems: Mapping[int, str] | None = None,
    indent: str = "  ",
) -> list[str]:
    """The table, one numbered set (1-based) per line; ``problems`` marks invalid sets.

    >>> table_lines([['R1', 'R2', 'R3'], ['K5', 'B5']], Style(), problems={1: 'too short'})
    ['   1  R1 R2 R3', '   2  K5 B5   <- INVALID: too short']
    """
    if not sets:
        return [f"{indent}(the table is empty)"]
    width = len(str(len(sets)))
    out = []
    for i, s in enumerate(sets):
        line = f"{indent}{i + 1:>{width + 1}}  {style.pieces(s)}"
        if problems and i in problems:
            line += "   " + style.warn(f"<- INVALID: {problems[i]}")
        out.append(line)
    return out


def compact_table(sets: Sequence[Sequence[str]], style: Style, *, width: int = 100, indent: str = "    ") -> list[str]:
    """The table as numbered sets packed on as few lines as fit ``width``.

    >>> compact_table([['R1', 'R2', 'R3'], ['K5', 'B5', 'O5']], Style())
    ['    table: [1] R1 R2 R3  [2] K5 B5 O5']
    """
    if not sets:
        return [f"{indent}table: (empty)"]
    lines: list[str] = []
    plain_len = len(indent) + len("table: ")
    current = f"{indent}table: "
    first = True
    for i, s in enumerate(sets):
        chunk_plain = f"[{i + 1}] " + " ".join(s)
        chunk = f"[{i + 1}] " + style.pieces(s)
        if not first and plain_len + 2 + len(chunk_plain) > width:
            lines.append(current)
            current = indent + " " * len("table: ") + chunk
            plain_len = len(indent) + len("table: ") + len(chunk_plain)
            continue
        if not first:
            current += "  "
            plain_len += 2
        current += chunk
        plain_len += len(chunk_plain)
        first = False
    lines.append(current)
    return lines


def rack_line(groups: Sequence[Sequence[str]], style: Style) -> str:
    """A rack given as groups of pieces (by colour or by number), groups two spaces apart.

    >>> rack_line([['K2', 'K5'], ['R7'], ['J']], Style())
    'K2 K5  R7  J'
    """
    return "  ".join(style.pieces(g) for g in groups if g)


def score_lines(
    outcome: Mapping[str, Any],
    names: Sequence[str],
    *,
    racks: Sequence[Sequence[str]] | None = None,
    style: Style | None = None,
) -> list[str]:
    """One line per seat: this round's score, the total and (given) the pieces left.

    >>> score_lines({'scores': [-21, 21], 'totals': [-21, 21], 'winners': [1]}, ['ann', 'bob'])
    ['    ann  score  -21  total  -21', '  * bob  score  +21  total  +21']
    """
    style = style or Style()
    scores = outcome.get("scores", [])
    totals = outcome.get("totals", [])
    winners = set(outcome.get("winners", []))
    width = max((len(n) for n in names), default=0)
    out = []
    for seat, name in enumerate(names):
        mark = "*" if seat in winners else " "
        line = f"  {mark} {name:<{width}}"
        if seat < len(scores):
            line += f"  score {signed(int(scores[seat])):>4}"
        if seat < len(totals):
            line += f"  total {signed(int(totals[seat])):>4}"
        if racks is not None and seat < len(racks):
            left = racks[seat]
            line += f"  left: {style.pieces(left)}" if left else "  left: nothing"
        out.append(line)
    return out


# -- commands ---------------------------------------------------------------------


def help_table(head: str, rows: Sequence[HelpRow]) -> list[str]:
    """A heading and the rows of a command list, the commands in one column.

    >>> help_table('Commands:', [('draw', 'draw a tile'), ('quit', 'stop')])
    ['Commands:', '  draw  draw a tile', '  quit  stop']
    """
    width = max((len(left) for left, _ in rows), default=0)
    return [head, *(f"  {left:<{width}}  {right}" for left, right in rows)]


def no_args(verb: str, args: Sequence[str]) -> None:
    """Refuse words after a command that takes none.

    >>> no_args('show', [])
    >>> no_args('show', ['me'])
    Traceback (most recent call last):
    ...
    rummykit.errors.ParseError: `show` takes nothing after it, got 'me'
    """
    if args:
        raise ParseError(f"`{verb}` takes nothing after it, got {' '.join(args)!r}")


def whole_number(text: str, what: str) -> int:
    """A typed whole number (``ParseError`` naming ``what`` otherwise)."""
    try:
        return int(text)
    except ValueError:
        raise ParseError(f"{what} is a whole number, got {text!r}") from None


def game_over_lines(
    event: Mapping[str, Any], names: Sequence[str], style: Style, reasons: Mapping[str, str]
) -> list[str]:
    """The end of a match (an outcome or a ``match-end`` event): the winners, why, and the final totals.

    ``reasons`` words each reason id (an id it lacks is printed as it is).

    >>> game_over_lines({'winners': [1], 'reason': 'target', 'scores': [3, 9], 'totals': [90, 120]},
    ...     ['ann', 'bob'], Style(), {'target': 'reached the target total'})[:2]
    ['Game over: bob wins (reached the target total).', 'Final scores:']
    """
    winners = list(event.get("winners", []))
    reason = reasons.get(str(event.get("reason")), str(event.get("reason")))
    if winners:
        verb = "wins" if len(winners) == 1 else "win"
        head = f"Game over: {' and '.join(seat_name(names, w, 'nobody') for w in winners)} {verb} ({reason})."
    else:
        head = f"Game over: no winner ({reason})."
    return [style.bold(head), "Final scores:", *score_lines(event, names)]
