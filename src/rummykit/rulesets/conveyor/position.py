"""Conveyor positions: the start of a turn as one line of text (:func:`from_position`).

:meth:`Conveyor.position` writes the string; :func:`from_position` reads it
back, checking that it is a position of the game (every domino of the set
exactly once, a valid layout, valid melds).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.blocks.conveyor import Conveyors
from rummykit.engine.core import check_seed, default_names
from rummykit.engine.options import OptionValue
from rummykit.engine.options import resolve_options as resolve_specs
from rummykit.errors import ParseError
from rummykit.melds.conveyor import SUM, by_code
from rummykit.pieces.dominoes import Domino, double_set, format_dominoes, parse_dominoes
from rummykit.rulesets.conveyor.actions import Pieces
from rummykit.rulesets.conveyor.options import DRAW, GAME_ID, MAX_PLAYERS, MIN_PLAYERS, OPTIONS, PREFIX, SETS
from rummykit.rulesets.conveyor.parts import _err
from rummykit.rulesets.conveyor.state import Conveyor, TableMeld
from rummykit.words import counted

__all__ = ["FIELDS", "from_position", "position_fields"]

FIELDS = ("columns", "hands", "melds", "known", "turn", "turns")
"""The fields of a position string (``columns`` and ``hands`` are required)."""


def position_fields(text: str) -> dict[str, str]:
    """Split a position string into its fields.

    >>> position_fields('hands: 1-1 / 2-2; columns: claimed 0')
    {'hands': '1-1 / 2-2', 'columns': 'claimed 0'}
    """
    fields: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = key.strip().lower()
        if not sep or key not in FIELDS:
            raise ParseError(f"bad position field {part.strip()!r}: fields are {', '.join(FIELDS)}")
        if key in fields:
            raise ParseError(f"position field {key!r} given twice")
        fields[key] = value.strip()
    for needed in ("columns", "hands"):
        if needed not in fields:
            raise ParseError(f"a conveyor position needs '{needed}: ...'")
    return fields


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParseError(f"{what} must be a whole number, got {text!r}") from None


def _columns(text: str, n: int) -> tuple[list[list[Domino]], list[list[bool]], list[int | None]]:
    """The ``columns`` field: each column's dominoes, face-up marks and claimer."""
    cols: list[list[Domino]] = []
    ups: list[list[bool]] = []
    claimed: list[int | None] = []
    for ct in (c.strip() for c in text.split("/")):
        words = ct.split()
        if words and words[0].lower() == "claimed":
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) >= n:
                raise ParseError(f"write a claimed column as 'claimed SEAT' with a seat 0..{n - 1}, got {ct!r}")
            cols.append([])
            ups.append([])
            claimed.append(int(words[1]))
            continue
        col: list[Domino] = []
        up: list[bool] = []
        for w in words:
            col.append(Domino.parse(w[1:] if w.startswith("?") else w))
            up.append(not w.startswith("?"))
        if not col:
            raise ParseError("an unclaimed column needs its dominoes (two '/' in a row?)")
        cols.append(col)
        ups.append(up)
        claimed.append(None)
    if sorted(s for s in claimed if s is not None) != list(range(n)):
        raise ParseError(f"each of the {n} seats must have claimed exactly one column ('claimed SEAT')")
    return cols, ups, claimed


def _check_every_domino_once(every: list[Domino], top: int) -> None:
    full = double_set(top)
    if sorted(every) == full:
        return
    counts: dict[Domino, int] = {}
    for d in every:
        counts[d] = counts.get(d, 0) + 1
    problems = []
    twice = sorted(d for d, k in counts.items() if k > 1)
    missing = sorted(set(full) - set(every))
    outside = sorted(set(every) - set(full))
    if twice:
        problems.append(f"twice: {format_dominoes(twice)}")
    if missing:
        problems.append(f"missing: {format_dominoes(missing)}")
    if outside:
        problems.append(f"not in the double-{top} set: {format_dominoes(outside)}")
    raise ParseError(f"a position holds every domino of the set exactly once ({'; '.join(problems)})")


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: OptionValue,
) -> Conveyor:
    """Set up the start of a turn from its one-line string.

    ``columns: <col> / <col> ...; hands: <hand> / <hand> ...; melds: <seat>:
    <dominoes> | ...; known: <dominoes> / ...; turn: <seat>; turns: <n>``.
    A column lists its dominoes from top to bottom, each face-down one written
    with a ``?`` before it; a claimed column is ``claimed <seat>``. ``melds``
    gives each meld's owner and dominoes in table order; ``known`` the
    dominoes of each hand that everyone has seen (default none); ``turn`` the
    seat about to draw (default 0); ``turns`` the turns already played in the
    round (default 0). The set is the largest half found (unless the option
    ``set`` says it), the layout the columns given. The seed is used by the
    rounds that follow in a match.

    >>> s = from_position('columns: claimed 0 / ?0-0 ?0-1 ?0-2 0-3 ?0-4 ?0-5 ?0-6 / '
    ...     '?1-1 ?1-2 ?1-3 1-4 ?1-5 ?1-6 ?2-2 / claimed 1; hands: 4-6 5-5 3-6 5-6 6-6 2-5 4-5 / '
    ...     '2-3 3-4 2-4 3-3; melds: 1: 2-6 3-5 4-4; turn: 1')
    >>> s.view(0)['columns'][1]['cells'], s.view(0)['melds'][0]['kind'], s.options['set']
    (['??', '??', '??', '0-3', '??', '??', '??'], 'sum', 6)
    >>> s.position().split('; ')[-2:]
    ['turn: 1', 'turns: 0']
    """
    fields = position_fields(text)
    hand_texts = fields["hands"].split("/")
    names = default_names(len(hand_texts) if players is None else players)
    n = len(names)
    if len(hand_texts) != n:
        raise ParseError(f"the position has {counted(len(hand_texts), 'hand')} but {counted(n, 'player')} were named")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ParseError(f"{GAME_ID} is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")

    hands = [parse_dominoes(h) for h in hand_texts]
    cols, ups, claimed = _columns(fields["columns"], n)
    lengths = {len(c) for c in cols if c}
    if len(lengths) != 1:
        raise ParseError(f"every unclaimed column must have the same length, got {sorted(lengths)}")
    length = lengths.pop()
    melds: list[tuple[int, Pieces]] = []
    if fields.get("melds", "").strip():
        for part in fields["melds"].split("|"):
            owner_text, sep, dominoes_text = part.partition(":")
            if not sep or not owner_text.strip().isdigit() or int(owner_text) >= n:
                raise ParseError(f"write a meld as 'SEAT: dominoes' with a seat 0..{n - 1}, got {part.strip()!r}")
            melds.append((int(owner_text), tuple(parse_dominoes(dominoes_text))))
    every = [d for c in cols for d in c] + [d for h in hands for d in h] + [d for _o, m in melds for d in m]
    given = resolve_specs(OPTIONS, options)  # checked and converted; None where not given
    for name, value in (("set", max((d.high for d in every), default=0)), ("columns", len(cols)), ("column_length", length)):
        if given[name] is None:
            given[name] = value
        elif given[name] != value:
            raise ParseError(f"option {name} is {given[name]} but the position has {value}")
    if given["set"] not in SETS:
        raise ParseError(f"the dominoes make a double-{given['set']} set; conveyor uses double-6, -9 or -12")
    top = int(given["set"])
    _check_every_domino_once(every, top)
    # an undealt state: every attribute made by the constructor, then filled from the position
    state = Conveyor(names, check_seed(seed), given, deal=False)
    state.belt = Conveyors(cols, ups, claimed, length)
    state.hands = [list(h) for h in hands]
    known_text = fields.get("known", "")
    known_texts = known_text.split("/") if known_text.strip() else [""] * n
    if len(known_texts) != n:
        raise ParseError(f"'known' needs one list per seat ({n}), separated by '/'")
    state.known = [set(parse_dominoes(k)) for k in known_texts]
    for s in range(n):
        if not state.known[s] <= set(hands[s]):
            raise ParseError(f"known dominoes of seat {s} must be in that seat's hand")
    state.table = []
    for owner, pieces in melds:
        check = state.rules.check(pieces)
        if not check.valid or check.kind is None:
            raise ParseError(f"meld {format_dominoes(pieces)} is invalid: {check.reason}")
        # a run keeps its one normal order; a sum keeps the order written (its ends as laid)
        state.table.append(
            TableMeld.make(state.rules, owner, check.kind, pieces if check.kind == SUM else check.pieces)
        )
    state.current = _whole(fields.get("turn", "0"), "turn")
    if not 0 <= state.current < n:
        raise ParseError(f"turn must be a seat 0..{n - 1}, got {state.current}")
    played = _whole(fields.get("turns", "0"), "turns")
    if not 0 <= played < state.options["max_turns"]:
        raise ParseError(f"turns must be 0..{state.options['max_turns'] - 1} (max_turns), got {played}")
    state.phase = DRAW
    state.first = state.current
    state.first_claimer = state.current
    state.turn_no = played + 1
    state.position_text = text.strip()
    # The event says only what the table shows; each seat learns its own hand.
    state.emit("position", None, {"hand_sizes": [len(h) for h in state.hands], "turn": state.current})
    for seat in range(n):
        state.emit("hand", seat, {}, {"hand": [str(d) for d in sorted(state.hands[seat], key=by_code)]})
    return state


def position_text(state: Conveyor) -> str:
    """The position of ``state`` as a one-line string (the start of a turn only), as :func:`from_position` reads it."""
    if state.phase != DRAW:
        raise _err(
            f"{PREFIX}-POSITION", f"a position string describes the start of a turn; the game is at {state.phase}"
        )
    cols: list[str] = []
    for c in range(state.belt.count):
        owner = state.belt.claimed_by[c]
        if owner is not None:
            cols.append(f"claimed {owner}")
        else:
            cols.append(
                " ".join(
                    str(p) if up else f"?{p}" for p, up in zip(state.belt.columns[c], state.belt.up[c], strict=True)
                )
            )
    hands = " / ".join(format_dominoes(sorted(h)) for h in state.hands)
    melds = " | ".join(f"{m.owner}: {format_dominoes(m.dominoes)}" for m in state.table)
    known = " / ".join(format_dominoes(sorted(k)) for k in state.known)
    return (
        f"columns: {' / '.join(cols)}; hands: {hands}; melds: {melds}; known: {known};"
        f" turn: {state.current}; turns: {state.turn_no - 1}"
    )
