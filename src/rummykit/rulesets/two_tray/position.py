"""Two-tray position strings: one line that sets up any position, and the position of a game in progress.

``grid: <grid text>; trays: A[<tiles>] B[<tiles>] / A[...] B[...]; pool: <tiles> | seed <n>;
turn: <seat>; next: <tray or -> <tray or ->; down: <0/1 per seat>; idle: <n>``, and, only in the
middle of a turn, ``continue: 1`` (the seat to move emptied a tray and plays on) and
``called: <cells>`` (jokers already called this turn).

The grid is written in its text form (``0,0: R1 R2 R3 / . K5``). A seat's
trays are ``A[...] B[...]``, or a single tray (``A[...]``, ``B[...]`` or
``AB[...]``) once the end game has begun. ``next`` names, per seat, the tray
it plays from next (``-``: its first turn, either tray). ``pool`` lists the
tiles in draw order (the last is drawn first), or ``seed N`` shuffles the
tiles that are nowhere else with seed N.

>>> s = from_position('grid: 0,0: R1 R2 R3; trays: A[R4 K9] B[B1 B2] / A[O5] B[O6]; pool: seed 5; next: A -; down: 10')
>>> s.view(0)['trays'], s.view(None)['pool_size'], s.view(None)['playing']
({'A': ['K9', 'R4'], 'B': ['B1', 'B2']}, 97, ['A', None])
>>> from_position(s.position()).position() == s.position()
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rummykit.blocks.grid import parse_cell
from rummykit.blocks.racks import Racks
from rummykit.engine.core import check_seed, default_names
from rummykit.engine.options import OptionValue, resolve_options
from rummykit.engine.rng import Rng
from rummykit.errors import ParseError
from rummykit.pieces.tiles import Tile, format_tiles, parse_tiles
from rummykit.rulesets.two_tray.options import GAME_ID, GRID, MERGED, TRAYS, TileGrid
from rummykit.rulesets.two_tray.state import TRAY_RULE, TwoTray

__all__ = ["FIELDS", "from_position", "position"]

FIELDS = ("grid", "trays", "pool", "turn", "next", "down", "idle", "continue", "called")
TRAY = re.compile(r"\s*([A-Za-z]+)\s*\[([^\]]*)\]\s*")


def position(state: TwoTray) -> str:
    """The position of ``state`` as a one-line string (:func:`from_position` reads it back)."""
    seats = range(len(state.players))
    trays = " / ".join(
        " ".join(f"{name}[{format_tiles(sorted(state.trays.rack(s, name)))}]" for name in state.trays.names_of(s))
        for s in seats
    )
    nexts = " ".join(state.playing[s] or "-" for s in seats)
    down = "".join("1" if d else "0" for d in state.down)
    text = (
        f"grid: {state.grid.text()}; trays: {trays}; pool: {format_tiles(state.pool)}; turn: {state.current};"
        f" next: {nexts}; down: {down}; idle: {state.idle_turns}"
    )
    if state.continuing:
        text += "; continue: 1"
    if state.called:
        text += "; called: " + " ".join(f"{r},{c}" for r, c in state.called)
    return text


def _fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in FIELDS:
            raise ParseError(f"bad position field {part.strip()!r}: the fields are {', '.join(FIELDS)}")
        if key in fields:
            raise ParseError(f"position field {key!r} given twice")
        fields[key] = value.strip()
    if "trays" not in fields:
        raise ParseError("a position needs 'trays: A[...] B[...] / A[...] B[...]', one group of trays per seat")
    return fields


def _trays(text: str) -> list[dict[str, list[Tile]]]:
    seats = []
    for i, part in enumerate(text.split("/")):
        found: dict[str, list[Tile]] = {}
        rest = part
        while rest.strip():
            m = TRAY.match(rest)
            if m is None:
                raise ParseError(f"seat {i}'s trays: write each tray as NAME[TILES], e.g. A[R1 R2] B[K5]; got {part.strip()!r}")
            name = m.group(1).upper()
            if name in found:
                raise ParseError(f"seat {i} has tray {name} twice")
            found[name] = parse_tiles(m.group(2))
            rest = rest[m.end() :]
        names = tuple(found)
        if names != TRAYS and not (len(names) == 1 and names[0] in (*TRAYS, MERGED)):
            raise ParseError(
                f"seat {i}'s trays are {' and '.join(TRAYS)} (or a single tray {', '.join((*TRAYS, MERGED))}"
                f" in the end game), got {', '.join(names) or 'none'}"
            )
        seats.append(found)
    return seats


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: OptionValue,
) -> TwoTray:
    """Set up a two-tray position from its one-line string (see the module's docstring)."""
    from rummykit.rulesets.two_tray import INFO

    fields = _fields(text)
    trays = _trays(fields["trays"])
    names = default_names(len(trays) if players is None else players)
    if not INFO.min_players <= len(names) <= INFO.max_players or len(names) != len(trays):
        raise ParseError(f"{GAME_ID} is for 2 players: the position needs one group of trays per seat, got {len(trays)}")
    state = TwoTray(names, check_seed(seed), resolve_options(INFO.options, options), deal=False)
    n = len(names)
    grid = TileGrid.parse(fields.get("grid", ""), Tile.parse)
    for cell, named in grid.calls.items():
        if not GRID.is_joker(grid[cell]) or GRID.is_joker(named):
            raise ParseError(f"grid cell {cell[0]},{cell[1]}: only a joker is called, and it is called a numbered tile")
    problems = GRID.problems(grid)
    if problems:
        raise ParseError(f"the grid is not valid: {problems[0]}")
    single = [len(t) == 1 for t in trays]
    if any(single) and not all(single):
        raise ParseError("in the end game every seat has one tray; before it, every seat has trays A and B")
    used: Counter[Tile] = grid.counts()
    for seat_trays in trays:
        for tiles in seat_trays.values():
            used.update(tiles)
    full = Counter(state.full_set())
    over = used - full
    if over:
        raise ParseError(f"more copies than the set holds: {format_tiles(sorted(over.elements()))}")
    pool_text = fields.get("pool", "")
    rest = sorted((full - used).elements())
    if pool_text.lower().startswith("seed"):
        try:
            pool_seed = check_seed(int(pool_text[4:].strip()))
        except ValueError:
            raise ParseError(f"write 'pool: seed N' with a whole number N, got {pool_text!r}") from None
        Rng(pool_seed).shuffle(rest)
        pool = rest
    else:
        pool = parse_tiles(pool_text)
        extra = Counter(pool) - (full - used)
        if extra:
            raise ParseError(f"the pool holds tiles beyond the set: {format_tiles(sorted(extra.elements()))}")
    racks: Racks[Tile] = Racks(n, names=TRAYS, rule=TRAY_RULE)
    for seat, seat_trays in enumerate(trays):
        if len(seat_trays) == 1:
            racks.merge(seat, next(iter(seat_trays)))
        for name, tiles in seat_trays.items():
            racks.add(seat, tiles, name)
    state.trays = racks
    state.grid = grid
    state.pool = pool
    turn = fields.get("turn", "0")
    if not turn.isdigit() or not 0 <= int(turn) < n:
        raise ParseError(f"turn must be a seat 0..{n - 1}, got {turn!r}")
    state.current = state.first = int(turn)
    nexts = fields.get("next", " ".join("-" for _ in range(n))).split()
    if len(nexts) != n:
        raise ParseError(f"next needs one tray (or -) per seat, got {fields.get('next')!r}")
    for seat, word in enumerate(nexts):
        tray_names = racks.names_of(seat)
        if word == "-":
            if len(tray_names) == 1:
                raise ParseError(f"seat {seat} has one tray: next must name it ({tray_names[0]})")
            state.playing[seat] = None
        elif word.upper() in tray_names:
            state.playing[seat] = word.upper()
        else:
            raise ParseError(f"next: seat {seat} has no tray {word!r} (its trays: {', '.join(tray_names)})")
    down = fields.get("down", "0" * n).replace(" ", "")
    if len(down) != n or set(down) - {"0", "1"}:
        raise ParseError(f"down needs one 0 or 1 per seat ({n}), got {down!r}")
    state.down = [c == "1" or state.threshold == 0 for c in down]
    idle = fields.get("idle", "0")
    if not idle.isdigit():
        raise ParseError(f"idle must be a whole number, got {idle!r}")
    state.idle_turns = int(idle)
    trays_in_play = sum(len(racks.names_of(s)) for s in range(n))
    if state.idle_turns >= trays_in_play or (state.idle_turns and state.pool):
        raise ParseError(
            "idle counts turns without a play since the pool emptied: fewer than the trays in play,"
            " and 0 while the pool has tiles"
        )
    cont = fields.get("continue", "0")
    if cont not in ("0", "1"):
        raise ParseError(f"continue is 0 or 1, got {cont!r}")
    state.continuing = cont == "1"
    if state.continuing:
        seat = state.current
        playing = state.playing[seat]
        if len(racks.names_of(seat)) != 2 or playing is None or not racks.rack(seat, playing):
            raise ParseError("continue: 1 needs the seat to move to hold two trays, one empty, and next to name the other")
        other = next(nm for nm in racks.names_of(seat) if nm != playing)
        if racks.rack(seat, other):
            raise ParseError("continue: 1 needs the seat to move to have emptied its other tray")
    called = tuple(parse_cell(c) for c in fields.get("called", "").split())
    for cell in called:
        if cell not in grid.calls:
            raise ParseError(f"called: the joker at {cell[0]},{cell[1]} has no call on the grid")
    state.called = called
    state.position_text = text.strip()
    state.emit(
        "position",
        None,
        {"grid": grid.text(), "tray_sizes": [state.sizes(s) for s in range(n)], "pool_size": len(pool), "turn": state.current},
    )
    for seat in range(n):
        state.emit("trays", seat, {}, {"trays": state.trays_json(seat)})
    return state
