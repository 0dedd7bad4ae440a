"""Text helpers every presenter shares: styles, counts, tables of sets, racks, scores, help tables.

Nothing here knows a game or a rule: it turns lists of piece texts and
numbers into lines. Pieces are printed in notation (``R7``, ``K13``, ``J``,
``3-5``). With colour on, a tile's text is wrapped in an ANSI colour, but its
letter is always printed, so colour is never the only mark; in the same way
a piece that just arrived on the table is marked with a character
(:data:`NEW` ``+``, :data:`MOVED` ``*``), which colour only underlines.

Lines are laid out to the style's ``width`` (the terminal's, at the line
prompt): :func:`fit` breaks a line between words, never inside a piece, and
indents what follows.

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

from rummykit.engine.commands import SHOWN_FROM
from rummykit.engine.values import JSON
from rummykit.errors import ParseError
from rummykit.words import counted, plural_of, times

__all__ = [
    "HelpRow",
    "Style",
    "compact_table",
    "counted",
    "details",
    "fit",
    "game_over_lines",
    "help_table",
    "marked_pieces",
    "no_args",
    "plural",
    "plural_of",
    "rack_line",
    "score_lines",
    "seat_name",
    "signed",
    "table_lines",
    "times",
    "unknown_command",
    "visible_len",
    "whole_number",
]

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
UNDERLINE = "\x1b[4m"
WARN = "\x1b[1;31m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

DEFAULT_WIDTH = 80
"""The width lines are laid out to when an interface names none (a terminal's usual width)."""

NEW = "+"
"""Marks a piece placed on the table from a rack in the play just shown (``+R7``)."""
MOVED = "*"
"""Marks a piece that was on the table and moved to another set in the play just shown (``*R7``)."""

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
    """How text is decorated and laid out: ANSI colours on or off, and the width of a line."""

    color: bool = False
    width: int = DEFAULT_WIDTH
    """Lines are broken to fit this many columns (0: never broken)."""

    def fit(self, lines: Iterable[str], hang: int | None = None) -> list[str]:
        """Lines laid out to :attr:`width` (see :func:`fit`)."""
        return [part for line in lines for part in fit(line, self.width, hang)]

    def marked(self, text: str, mark: str = "") -> str:
        """A piece with its change mark (``+R7``, ``*K5``): the mark is a character, underlined with colour on."""
        if not mark:
            return self.piece(text)
        return f"{UNDERLINE}{mark}{RESET}{self.piece(text)}" if self.color else f"{mark}{text}"

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
        if not self.color:
            return sep.join(texts)
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


def visible_len(text: str) -> int:
    """The columns a text takes on a terminal (ANSI colour codes take none).

    >>> visible_len(Style(color=True).piece('R10')), visible_len('R10')
    (3, 3)
    """
    return len(_ANSI.sub("", text)) if "\x1b" in text else len(text)


def fit(line: str, width: int, hang: int | None = None) -> list[str]:
    """``line`` broken between words into lines of at most ``width`` columns.

    A word (a piece such as ``R10`` or ``[3-5]``, a mark and all) is never
    broken; a word wider than the line stands alone. Every line after the
    first starts with ``hang`` spaces (default: the line's own indent plus
    4). ``width`` 0 keeps the line whole.

    >>> fit('Your rack: K1 K2 K3 B4 B5 O6 R7 R8 R9 J', 24, hang=11)
    ['Your rack: K1 K2 K3 B4', '           B5 O6 R7 R8', '           R9 J']
    >>> fit('  short', 24)
    ['  short']
    """
    if width <= 0 or visible_len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    indent = " " * (lead + 4 if hang is None else hang)
    words = re.findall(r"(\s*)(\S+)", line)
    out: list[str] = []
    current, used = "", 0
    for i, (gap, word) in enumerate(words):
        size = visible_len(word)
        if i == 0:
            current, used = gap + word, len(gap) + size
        elif used + len(gap) + size > width:
            out.append(current)
            current, used = indent + word, len(indent) + size
        else:
            current += gap + word
            used += len(gap) + size
    out.append(current)
    return out


def plural(n: int, word: str) -> str:
    """``1 tile``, ``2 tiles``, ``3 dominoes`` (:func:`rummykit.words.counted`).

    >>> plural(1, 'tile'), plural(3, 'tile'), plural(2, 'penalty domino')
    ('1 tile', '3 tiles', '2 penalty dominoes')
    """
    return counted(n, word)


def signed(n: int) -> str:
    """A score with its sign (``+12``, ``-7``, ``0``)."""
    return f"{n:+d}" if n else "0"


def seat_name(names: Sequence[str], seat: object, nobody: str = "?") -> str:
    """A seat's name; ``nobody`` for None, ``seat N`` for a seat the list does not name.

    >>> seat_name(['ann', 'bob'], 1), seat_name(['ann'], None, 'nobody'), seat_name(['ann'], 4)
    ('bob', 'nobody', 'seat 4')
    """
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return nobody if seat is None else f"seat {seat}"


def other_event_lines(event: Mapping[str, JSON], who: str, *, turn_start: bool = True) -> list[str]:
    """The lines of an event a game does not word itself: a set position (whose string holds hidden pieces
    and is never printed), else the event's kind and fields told plainly.

    >>> other_event_lines({'kind': 'position', 'text': 'hands: ...'}, 'ann')
    ['The game starts from a set position (the start of a turn).']
    >>> other_event_lines({'kind': 'odd', 'player': 0, 'n': 2}, 'ann')
    ['ann odd: n 2']
    """
    kind = str(event.get("kind"))
    if kind == "position":
        return ["The game starts from a set position (the start of a turn)." if turn_start else "The game starts from a set position."]
    detail = details(event, skip=("kind", "player"))
    head = f"{who} {kind}" if event.get("player") is not None else kind
    return [f"{head}: {detail}" if detail else head]


def details(event: Mapping[str, JSON], *, skip: Sequence[str]) -> str:
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


def marked_pieces(pieces: Sequence[str], style: Style, marks: Sequence[str] | None = None) -> str:
    """Pieces in notation, each with its change mark (``+R7``) when ``marks`` gives one.

    >>> marked_pieces(['R1', 'R2', 'R3'], Style(), ['', '*', '+'])
    'R1 *R2 +R3'
    >>> marked_pieces(['R1', 'R2', 'R3'], Style(), ['', '']), marked_pieces(['R1', 'R2'], Style(), ['', ''])
    ('R1 R2', 'R1 R2')
    """
    if not marks or (len(marks) >= len(pieces) and not any(marks)):  # a set a play kept as it was: no mark
        return style.pieces(pieces)
    if not style.color:  # style.marked without colour: the mark before the piece's own text
        return " ".join([m + p if m else p for p, m in zip(pieces, marks, strict=False)])
    return " ".join(style.marked(p, m) for p, m in zip(pieces, marks, strict=False))


def table_lines(
    sets: Sequence[Sequence[str]],
    style: Style,
    *,
    problems: Mapping[int, str] | None = None,
    marks: Sequence[Sequence[str]] | None = None,
    indent: str = "  ",
    empty: str = "(empty)",
) -> list[str]:
    """The table, one numbered set (1-based) per line; ``problems`` marks invalid sets, ``marks`` changed pieces.

    A set too long for the style's width goes on over more lines, under its
    first piece; an empty set (a slot a draft keeps) shows ``empty``.

    >>> table_lines([['R1', 'R2', 'R3'], ['K5', 'B5']], Style(), problems={1: 'too short'})
    ['   1  R1 R2 R3', '   2  K5 B5   <- INVALID: too short']
    >>> table_lines([['O1', 'O2', 'O3', 'O4', 'O5', 'O6', 'O7', 'O8']], Style(width=24), marks=[['+'] + [''] * 7])
    ['   1  +O1 O2 O3 O4 O5 O6', '      O7 O8']
    """
    if not sets:
        return [f"{indent}(the table is empty)"]
    number_width = len(str(len(sets))) + 1
    hang = len(indent) + number_width + 2
    out = []
    for i, s in enumerate(sets):
        text = marked_pieces(s, style, marks[i] if marks and i < len(marks) else None) if s else style.dim(empty)
        line = f"{indent}{i + SHOWN_FROM:>{number_width}}  {text}"
        if problems and i in problems:
            line += "   " + style.warn(f"<- INVALID: {problems[i]}")
        out += fit(line, style.width, hang)
    return out


def compact_table(
    sets: Sequence[Sequence[str]],
    style: Style,
    *,
    marks: Sequence[Sequence[str]] | None = None,
    indent: str = "    ",
) -> list[str]:
    """The table as numbered sets packed on as few lines as fit the style's width.

    A set goes whole on one line when it fits one; a longer set goes on over
    the next lines, and the set after it starts a line of its own. No piece
    is ever broken.

    >>> compact_table([['R1', 'R2', 'R3'], ['K5', 'B5', 'O5']], Style())
    ['    table: [1] R1 R2 R3  [2] K5 B5 O5']
    >>> compact_table([['R1', 'R2', 'R3'], ['K5', 'B5', 'O5']], Style(width=30), marks=[[], ['', '+', '*']])
    ['    table: [1] R1 R2 R3', '           [2] K5 +B5 *O5']
    """
    head = f"{indent}table: "
    if not sets:
        return [f"{head}(empty)"]
    hang = " " * len(head)
    width = style.width
    lines: list[str] = []
    current, used = head, len(head)
    for i, s in enumerate(sets):
        chunk = f"[{i + 1}] " + marked_pieces(s, style, marks[i] if marks and i < len(marks) else None)
        size = visible_len(chunk) if width else 0  # a line of any width (0) is never broken: no size needed
        started = current != head and current != hang
        gap = 2 if started else 0
        if width and started and used + gap + size > width:
            lines.append(current)
            current, used, gap = hang, len(hang), 0
        if width and used + gap + size > width:
            # longer than a line: the set goes on over the next lines, under its first piece
            lines += fit(current + " " * gap + chunk, width, len(hang) + len(f"[{i + 1}] "))
            current, used = hang, len(hang)
            continue
        current += " " * gap + chunk
        used += gap + size
    if current != hang:
        lines.append(current)
    return lines


def rack_line(groups: Sequence[Sequence[str]], style: Style) -> str:
    """A rack given as groups of pieces (by colour or by number), groups two spaces apart.

    >>> rack_line([['K2', 'K5'], ['R7'], ['J']], Style())
    'K2 K5  R7  J'
    """
    return "  ".join(style.pieces(g) for g in groups if g)


def score_lines(
    outcome: Mapping[str, JSON],
    names: Sequence[str],
    *,
    racks: Sequence[Sequence[str]] | None = None,
    style: Style | None = None,
) -> list[str]:
    """One line per seat: this round's score, the total and (given) the pieces left.

    With teams, one more line per team: its score and total, the sums of its
    seats' (the team's one score, which the target is compared with).

    >>> score_lines({'scores': [-21, 21], 'totals': [-21, 21], 'winners': [1]}, ['ann', 'bob'])
    ['    ann  score  -21  total  -21', '  * bob  score  +21  total  +21']
    >>> score_lines({'scores': [5, 0, 0, 0], 'totals': [5, 0, 9, 0], 'winners': [0, 2], 'teams': [[0, 2], [1, 3]],
    ...              'team_scores': [5, 0], 'team_totals': [14, 0]}, ['ann', 'bob', 'cy', 'dee'])[4:]
    ['  * team ann and cy   score   +5  total  +14', '    team bob and dee  score    0  total    0']
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
    teams = outcome.get("teams")
    if teams:
        labels = [f"team {' and '.join(names[s] for s in team)}" for team in teams]
        team_width = max(len(x) for x in labels)
        team_scores = outcome.get("team_scores", [])
        team_totals = outcome.get("team_totals", [])
        for k, team in enumerate(teams):
            mark = "*" if set(team) <= winners else " "
            line = f"  {mark} {labels[k]:<{team_width}}"
            if k < len(team_scores):
                line += f"  score {signed(int(team_scores[k])):>4}"
            if k < len(team_totals):
                line += f"  total {signed(int(team_totals[k])):>4}"
            out.append(line)
    return out


# -- commands ---------------------------------------------------------------------


def help_table(head: str, rows: Sequence[HelpRow], width: int = 0) -> list[str]:
    """A heading and the rows of a command list, the commands in one column, laid out to ``width``.

    A description too long for its line goes on under itself; when the
    command column would leave less than half the width, each description
    goes on the line under its command instead.

    >>> help_table('Commands:', [('draw', 'draw a tile'), ('quit', 'stop')])
    ['Commands:', '  draw  draw a tile', '  quit  stop']
    >>> help_table('Commands:', [('draw', 'draw a tile and end your turn')], width=24)
    ['Commands:', '  draw  draw a tile and', '        end your turn']
    >>> help_table('Commands:', [('meld D D D ...', 'lay down a meld')], width=24)
    ['Commands:', '  meld D D D ...', '      lay down a meld']
    """
    column = max((len(left) for left, _ in rows), default=0)
    lines = fit(head, width, 2)
    for left, right in rows:
        if width and column + 4 > width // 2:
            lines += fit(f"  {left}", width, 4) + fit(f"      {right}", width, 6)
        else:
            lines += fit(f"  {left:<{column}}  {right}", width, column + 4)
    return lines


def unknown_command(word: str, game: str) -> ParseError:
    """The refusal of a word a turn has no command for: `hint` in a game with no hint yet says so plainly.

    >>> str(unknown_command('hint', 'conveyor')), str(unknown_command('frob', 'conveyor'))
    ('no hint for conveyor yet', "unknown command 'frob'; type `help` for the commands")
    """
    if word.lower() == "hint":
        return ParseError(f"no hint for {game} yet")
    return ParseError(f"unknown command {word!r}; type `help` for the commands")


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
    event: Mapping[str, JSON], names: Sequence[str], style: Style, reasons: Mapping[str, str]
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
