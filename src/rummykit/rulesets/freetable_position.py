"""Position strings of the free-table games: a game set up from a written position.

``table: <sets>; racks: <rack> / <rack> ...; pool: <pieces> | seed <n>;
turn: <seat>; down: <one 0/1 per seat>; idle: <n>`` (see the games' docs).
Shared by ``rummikub`` and ``domino-rummikub``; the names are imported by
:mod:`rummykit.rulesets.freetable` too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rummykit.blocks.racks import Racks
from rummykit.engine.options import OptionValue, check_seed, default_names, resolve_options
from rummykit.engine.rng import Rng
from rummykit.errors import ParseError
from rummykit.words import counted

if TYPE_CHECKING:
    from rummykit.rulesets.freetable import FreeTableGame

__all__ = ["game_from_position", "position_fields", "setup_position"]

P = TypeVar("P")
G = TypeVar("G", bound="FreeTableGame[Any]")


def game_from_position(
    cls: type[G],
    text: str,
    parse: Callable[[str], list[Any]],
    *,
    players: int | Sequence[str] | None,
    seed: int,
    options: Mapping[str, OptionValue],
) -> G:
    """A game of ``cls`` set up from a position string, its options checked (shared by the games)."""
    info = cls.info
    count = len(position_fields(text)["racks"].split("/"))
    names = default_names(count if players is None else players)
    if not info.min_players <= len(names) <= info.max_players:
        raise ParseError(f"{info.id} is for {info.player_span} players, not {len(names)}")
    state = cls(names, check_seed(seed), resolve_options(info.options, options), deal=False)
    setup_position(state, text, parse)
    return state


def setup_position(
    state: FreeTableGame[P],
    text: str,
    parse: Callable[[str], list[P]],
) -> FreeTableGame[P]:
    """Fill a freshly made, undealt state from a position string (see the games' docs).

    ``table: <sets>; racks: <rack> / <rack> ...; pool: <pieces> | seed <n>;
    turn: <seat>; down: <one 0/1 per seat>; idle: <n>``.
    """
    from rummykit.rulesets.freetable import format_pieces, parse_table_with

    fields = position_fields(text)
    racks = [parse(r) for r in fields["racks"].split("/")]
    n = len(state.players)
    if len(racks) != n:
        raise ParseError(f"the position has {counted(len(racks), 'rack')} but {counted(n, 'player')} were named")
    table = parse_table_with(parse, fields.get("table", ""))
    bad = state.TABLE.faults(table)
    if bad:
        i, c = bad[0]
        raise ParseError(f"table set {i + 1} is invalid: {c.reason}")
    state.table = state.TABLE.normalise(table)
    state.racks = Racks.of(racks, rule=f"{state.PREFIX}-RACK")
    used = Counter(t for s in state.table for t in s)
    for r in racks:
        used.update(r)
    full = Counter(state.full_set())
    over = used - full
    if over:
        raise ParseError(f"more copies than the set holds: {format_pieces(sorted(over.elements()))}")  # type: ignore[type-var]
    pool_text = fields.get("pool", "")
    rest: list[P] = sorted((full - used).elements())  # type: ignore[type-var]
    if pool_text.lower().startswith("seed"):
        try:
            pool_seed = check_seed(int(pool_text[4:].strip()))
        except ValueError:
            raise ParseError(f"write 'pool: seed N' with a whole number N, got {pool_text!r}") from None
        Rng(pool_seed).shuffle(rest)
        state.pool = rest
    else:
        state.pool = parse(pool_text)
        extra = Counter(state.pool) - (full - used)
        if extra:
            raise ParseError(f"the pool holds pieces beyond the set: {format_pieces(sorted(extra.elements()))}")  # type: ignore[type-var]
    try:
        state.current = int(fields.get("turn", "0"))
    except ValueError:
        raise ParseError(f"turn must be a seat number, got {fields['turn']!r}") from None
    if not 0 <= state.current < n:
        raise ParseError(f"turn must be a seat 0..{n - 1}, got {state.current}")
    state.first = state.current
    down_text = fields.get("down", "0" * n).replace(" ", "")
    if len(down_text) != n or set(down_text) - {"0", "1"}:
        raise ParseError(f"down needs one 0 or 1 per seat ({n}), got {down_text!r}")
    state.down = [c == "1" or state.starts_down() for c in down_text]
    try:
        state.idle_turns = int(fields.get("idle", "0"))
    except ValueError:
        raise ParseError(f"idle must be a whole number, got {fields['idle']!r}") from None
    if not 0 <= state.idle_turns < n or (state.idle_turns and state.pool):
        raise ParseError(
            "idle counts turns without a play since the pool emptied: 0..players-1, and 0 while the pool has pieces"
        )
    state.position_text = text.strip()
    # The event says only what the table shows; each seat learns its own rack.
    state.emit(
        "position",
        None,
        {
            "table": [[str(p) for p in s] for s in state.table],
            "rack_sizes": state.racks.sizes(),
            "pool_size": len(state.pool),
            "turn": state.current,
        },
    )
    for seat in range(n):
        state.emit("rack", seat, {}, {"rack": [str(p) for p in sorted(state.racks[seat])]})  # type: ignore[type-var]
    return state


def position_fields(text: str) -> dict[str, str]:
    """Split a position string into its fields (``racks`` is required)."""
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("table", "racks", "pool", "turn", "down", "idle"):
            raise ParseError(f"bad position field {part.strip()!r}: fields are table, racks, pool, turn, down, idle")
        if key in fields:
            raise ParseError(f"position field {key!r} given twice")
        fields[key] = value.strip()
    if "racks" not in fields:
        raise ParseError("a position needs 'racks: ...' with one rack per seat, separated by '/'")
    return fields
