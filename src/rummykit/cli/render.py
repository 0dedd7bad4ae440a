"""Text for the command line: views, events and outcomes rendered as lines.

The renderer only turns data into text: plain view dicts, events as a seat
sees them (:meth:`rummykit.Event.seen_by`) and outcome dicts. It holds no rule
logic; whether a set is valid comes from the caller (a draft's problems).

Pieces are printed in notation (``R7``, ``K13``, ``J``). With colour on, a
tile's text is wrapped in an ANSI colour, but its letter is always printed,
so the colour is never the only mark.

>>> style = Style(color=False)
>>> style.pieces(['R7', 'K13', 'J'])
'R7 K13 J'
>>> Style(color=True).piece('R7') == '\\x1b[1;31mR7\\x1b[0m'
True
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70}, ['ann', 'bob'], style)
['bob draws a tile (pool: 70)']
>>> describe_event({'kind': 'draw', 'player': 1, 'pool_size': 70, 'piece': 'R5'}, ['ann', 'bob'], style)
['bob draws R5 (pool: 70)']
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

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

@dataclass(frozen=True)
class Words:
    """What a game calls its pieces, its draw pile and its opening play."""

    piece: str = "tile"
    pool: str = "pool"
    opening: str = "initial meld"


WORDS: dict[str, Words] = {
    "domino-rummikub": Words(piece="domino", pool="boneyard", opening="starting group"),
    "conveyor": Words(piece="domino", pool="conveyors", opening="first meld"),
}


def words_for(game_id: str | None) -> Words:
    """The words of a game (tiles, pool, initial meld by default)."""
    return WORDS.get(str(game_id), Words())


REASONS = {
    "rack-empty": "went out",
    "blocked": "had the lowest rack total; the {pool} was empty and nobody could play",
    "target": "reached the target total",
}


def use_color(stream: TextIO, *, no_color: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    """True when ANSI colours should be used on ``stream``.

    Off with ``--no-color``, when the ``NO_COLOR`` environment variable is set
    to anything non-empty (no-color.org), or when the stream is not a terminal.
    """
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


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


# -- views --------------------------------------------------------------------


def status_lines(
    view: Mapping[str, Any], labels: Sequence[str], style: Style, words: Words | None = None
) -> list[str]:
    """Round, pool size and one line per player (pieces held, down or not), from a view.

    Keys a game's view lacks are left out, so this works for any game whose view
    names players; ``labels`` adds a note per seat (``you``, ``bot greedy``).
    """
    words = words or words_for(view.get("game"))
    players: list[str] = list(view.get("players", []))
    head = []
    if "round" in view:
        head.append(f"Round {view['round']}")
    if "turn_number" in view:
        head.append(f"turn {view['turn_number']}")
    if "pool_size" in view:
        head.append(f"{words.pool}: {plural(int(view['pool_size']), words.piece)}")
    out = [", ".join(head)] if head else []
    sizes = view.get("rack_sizes")
    down = view.get("down")
    totals = view.get("totals")
    turn = view.get("turn")
    name_width = max((len(p) + (len(lbl) + 3 if lbl else 0) for p, lbl in zip(players, labels, strict=False)), default=0)
    for seat, name in enumerate(players):
        label = labels[seat] if seat < len(labels) else ""
        who = f"{name} ({label})" if label else name
        parts = [f"{'>' if seat == turn else ' '} {who:<{name_width}}"]
        if sizes is not None:
            parts.append(f"{plural(int(sizes[seat]), words.piece):>11}")
        if down is not None:
            parts.append("down" if down[seat] else "not down yet")
        if totals is not None and view.get("rounds"):
            parts.append(f"total {signed(int(totals[seat]))}")
        out.append("  " + "  ".join(parts))
    return out


# -- events -------------------------------------------------------------------


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?" if seat is None else f"seat {seat}"


def describe_event(
    event: Mapping[str, Any],
    names: Sequence[str],
    style: Style,
    *,
    words: Words | None = None,
    show_table: bool = True,
) -> list[str]:
    """Lines describing one event as a seat sees it (``Event.seen_by``), or ``[]`` if nothing to say.

    Only what the event dict holds is printed: pass a spectator's view of an
    event (``seen_by(None)``) to print it for everyone.
    """
    words = words or Words()
    kind = str(event.get("kind"))
    who = _name(names, event.get("player"))
    if kind == "first-draw":
        drawn = event.get("tiles", {})
        parts = [f"{_name(names, int(seat))} {style.piece(str(t))}" for seat, t in drawn.items()]
        return [f"Drawing for the first turn: {', '.join(parts)}"]
    if kind == "first-player":
        if event.get("by") == "lot":
            return [f"{who} is drawn by lot to play first."]
        return [f"{who} drew the highest {words.piece} and plays first."]
    if kind == "deal":
        first = _name(names, event.get("first"))
        size = event.get("rack_size")
        each = f": {plural(int(size), words.piece)} each" if size is not None else ""
        return [style.bold(f"Round {event.get('round', 1)} dealt{each}; {first} plays first.")]
    if kind == "rack":
        if "rack" not in event:
            return []
        return [f"{who}'s rack: {style.pieces(event['rack'])}"]
    if kind == "draw":
        drawn = next((event[k] for k in ("piece", "tile", "domino") if k in event), None)
        where = _details(event, skip=("kind", "player", "piece", "tile", "domino", "pool_size"))
        if "pool_size" in event:
            where = f"{where}, " if where else ""
            where += f"{words.pool}: {event['pool_size']}"
        where = f" ({where})" if where else ""
        if drawn is not None:
            return [f"{who} draws {style.piece(str(drawn))}{where}"]
        return [f"{who} draws a {words.piece}{where}"]
    if kind == "pass":
        return [f"{who} passes (the {words.pool} is empty)"]
    if kind == "play":
        placed = style.pieces(event.get("placed", []))
        note = f" ({words.opening})" if event.get("opening", event.get("initial_meld")) else ""
        left = event.get("rack_size")
        tail = f"; {plural(int(left), words.piece)} left" if left is not None else ""
        lines = [f"{who} plays {placed} onto the table{note}{tail}"]
        if show_table and "table" in event:
            lines += compact_table(event["table"], style)
        return lines
    if kind == "penalty":
        n = int(event.get("drawn", 0))
        lines = [
            f"{who} committed an invalid table ({event.get('reason', 'invalid')}):"
            f" the table is restored and {who} draws {plural(n, 'penalty ' + words.piece)}"
        ]
        drawn_pieces = event.get("pieces", event.get("tiles"))
        if drawn_pieces is not None:
            lines.append(f"    drawn: {style.pieces(drawn_pieces)}")
        return lines
    if kind == "round-end":
        return round_end_lines(event, names, style, words)
    if kind == "match-end":
        return outcome_lines(event, names, style, words)
    if kind == "position":
        return [f"Starting from the position: {event.get('position', '')}"]
    detail = _details(event, skip=("kind", "player"))
    head = f"{who} {kind}" if event.get("player") is not None else kind
    return [f"{head}: {detail}" if detail else head]


def _details(event: Mapping[str, Any], *, skip: Sequence[str]) -> str:
    """An event's other fields as ``key value`` pairs (for events without their own wording).

    >>> _details({'kind': 'reveal', 'column': 3, 'domino': '7-7', 'face_up': ['3-8', '1-2']}, skip=('kind',))
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


def _winners(outcome: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = [_name(names, w) for w in outcome.get("winners", [])]
    return " and ".join(winners) if winners else "nobody"


def score_lines(outcome: Mapping[str, Any], names: Sequence[str], *, racks: Sequence[Sequence[str]] | None = None,
                style: Style | None = None) -> list[str]:
    """One line per seat: this round's score, the total and (given) the tiles left.

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


def reason_text(reason: Any, words: Words | None = None) -> str:
    """Why a round or match ended, in words.

    >>> reason_text('blocked', Words(pool='boneyard'))
    'had the lowest rack total; the boneyard was empty and nobody could play'
    """
    return REASONS.get(str(reason), str(reason)).format(pool=(words or Words()).pool)


def round_end_lines(
    event: Mapping[str, Any], names: Sequence[str], style: Style, words: Words | None = None
) -> list[str]:
    """The end of a round: who won it and why, the scores and what each rack held."""
    reason = reason_text(event.get("reason"), words)
    head = f"Round {event.get('round', 1)} over: {_winners(event, names)} {reason}."
    return [style.bold(head), *score_lines(event, names, racks=event.get("racks"), style=style)]


def outcome_lines(
    outcome: Mapping[str, Any], names: Sequence[str], style: Style, words: Words | None = None
) -> list[str]:
    """The final result of a match: winners and final scores."""
    winners = list(outcome.get("winners", []))
    verb = "wins" if len(winners) == 1 else "win"
    reason = reason_text(outcome.get("reason"), words)
    lines = [style.bold(f"Game over: {_winners(outcome, names)} {verb} ({reason}).")]
    lines.append("Final scores:")
    lines += score_lines(outcome, names)
    return lines
