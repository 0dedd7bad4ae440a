"""Every legal action of a seat, from the state (:meth:`Conveyor.legal_actions`) or from its view.

Both go through :func:`list_actions`, which needs only what the acting seat
can see, so a bot working from its view (:func:`actions_from_view`) lists
exactly what the engine would accept.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from rummykit.blocks.conveyor import BOTTOM, TOP, UNKNOWN
from rummykit.engine.core import Action
from rummykit.engine.options import OptionValue, int_option
from rummykit.melds.conveyor import END_NAMES, ConveyorMelds, by_code
from rummykit.pieces.dominoes import Domino, double_set
from rummykit.rulesets.conveyor.actions import (
    Claim,
    Close,
    Decline,
    Discard,
    Draw,
    Jump,
    Layoff,
    Meld,
    Pieces,
    Reveal,
)
from rummykit.rulesets.conveyor.options import DRAW, JUMP, MAX_PLAYERS, PLAY, SELECT, rules_for
from rummykit.rulesets.conveyor.views import conveyor_view

__all__ = ["KEEP_DISCARD", "PICKUP_CLOSE", "actions_from_view", "hand_left_fault", "line_size", "list_actions"]

PICKUP_CLOSE = "PICKUP-CLOSE"
"""The rule (after the game's prefix) a meld or lay-off breaks by emptying the hand under ``never_close_on_pickup``."""

KEEP_DISCARD = "KEEP-DISCARD"
"""The rule (after the prefix) broken by keeping only the domino ``no_milling`` forbids discarding."""

_BY_TEXT: dict[str, Domino] = {str(d): d for d in double_set(12)}


def _dom(text: str) -> Domino:
    """A domino from its canonical text (fast path for views), else parsed."""
    d = _BY_TEXT.get(text)
    return d if d is not None else Domino.parse(text)


def line_size(options: Mapping[str, OptionValue], *, pickup: bool) -> int:
    """How many dominoes a closing line holds (``domino_runs``): a whole hand, the size of a claimed column,
    after the discard; one more when closing on the pickup (the drawn domino too, no discard)."""
    hand = int_option(options, "column_length")
    return hand + 1 if pickup else hand


def hand_left_fault(options: Mapping[str, OptionValue], left: int, milled_left: bool) -> str | None:
    """The rule a meld or lay-off breaks by what it leaves in the hand, or None: the engine's and the listing's test.

    ``left`` is how many dominoes stay in the hand; ``milled_left`` whether
    the domino drawn face up this turn is one of them. Nothing left is a close
    on the pickup (:data:`PICKUP_CLOSE` under ``never_close_on_pickup``); one
    domino left that may not be discarded (:data:`KEEP_DISCARD` under
    ``no_milling``) leaves no discard.

    >>> opts = {"never_close_on_pickup": True, "no_milling": True}
    >>> hand_left_fault(opts, 0, False), hand_left_fault(opts, 1, True), hand_left_fault(opts, 2, True)
    ('PICKUP-CLOSE', 'KEEP-DISCARD', None)
    """
    if left == 0:
        return PICKUP_CLOSE if options["never_close_on_pickup"] else None
    if left == 1 and milled_left and options["no_milling"]:
        return KEEP_DISCARD
    return None


_DRAWS: list[dict[int, tuple[Draw, Draw]]] = [{} for _ in range(MAX_PLAYERS)]
"""Each seat's draws from each column, made once (actions are immutable, so listings share them)."""

_CLAIMS: list[dict[int, Claim]] = [{} for _ in range(MAX_PLAYERS)]
"""Each seat's claim of each column, made once."""

_REVEALS: list[dict[int, list[Reveal]]] = [{} for _ in range(MAX_PLAYERS)]
"""Each seat's reveal of each cell of each column (by cell), made once."""

_DISCARDS: list[dict[Domino, Discard]] = [{} for _ in range(MAX_PLAYERS)]
"""Each seat's discard of each domino, made once."""


@functools.lru_cache(maxsize=1 << 11)
def _layoff_fits(top: int, kind: str, pieces: Pieces) -> tuple[tuple[str, Domino], ...]:
    """(end, domino) for every domino of the double-``top`` set that fits at an end of a table meld, low end first."""
    rules = rules_for(top)
    return tuple((end, d) for end in END_NAMES for d in rules.fits(kind, pieces, end))


def list_actions(
    seat: int,
    *,
    phase: str,
    hand: Sequence[Domino],
    rules: ConveyorMelds,
    options: Mapping[str, OptionValue],
    open_columns: Sequence[tuple[int, Sequence[int]]],
    melds: Sequence[tuple[str, Pieces]],
    milled: Domino | None,
    window_domino: Domino | None,
) -> list[Action]:
    """Every legal action of ``seat`` (which must be one that may act), from what it can see.

    ``open_columns`` lists each unclaimed column with its face-down cells
    (needed in the selection round only); ``melds`` the table's melds (kind,
    dominoes; needed after the draw only); ``milled`` the domino drawn
    this turn if it was face up; ``window_domino`` the discard a claim window
    is open for. Everything legal is listed: melds are every valid meld from
    the hand (see :meth:`ConveyorMelds.hand_melds`), nothing is capped.
    """
    out: list[Action] = []
    if phase == SELECT:
        claims = _CLAIMS[seat]
        for c, _down in open_columns:
            claim = claims.get(c)
            if claim is None:
                claim = claims[c] = Claim(seat, c)
            out.append(claim)
        reveals = _REVEALS[seat]
        for c, down in open_columns:
            row = reveals.get(c)
            if row is None:
                row = reveals[c] = []
            if down and max(down) >= len(row):
                row.extend(Reveal(seat, c, i) for i in range(len(row), max(down) + 1))
            out.extend([row[i] for i in down])
        return out
    if phase == DRAW:
        draws = _DRAWS[seat]
        for c, _down in open_columns:
            pair = draws.get(c)
            if pair is None:
                pair = draws[c] = (Draw(seat, c, TOP), Draw(seat, c, BOTTOM))
            out += pair
        return out
    can_empty = not options["never_close_on_pickup"]
    no_milling = options["no_milling"]
    if phase == PLAY:
        have = set(hand)
        size = len(hand)
        stuck = milled if no_milling and milled in have else None  # may not be the only domino kept
        # Without either variant nothing a meld or lay-off leaves in the hand breaks a rule.
        any_left = can_empty and not no_milling

        def keeps(removed: Sequence[Domino]) -> bool:
            return hand_left_fault(options, size - len(removed), stuck is not None and stuck not in removed) is None

        discards = _DISCARDS[seat]
        for d in sorted(have, key=by_code):
            if d is not stuck:  # dominoes are interned: ``is`` is ``==`` without its slow look-ups
                discard = discards.get(d)
                if discard is None:
                    discard = discards[d] = Discard(seat, d)
                out.append(discard)
        for m in rules.hand_melds(have):
            if any_left or keeps(m):
                out.append(Meld(seat, m))
        top = rules.top
        for i, (kind, pieces) in enumerate(melds):
            for end, d in _layoff_fits(top, kind, pieces):
                if d in have and (any_left or keeps((d,))):
                    out.append(Layoff(seat, i, d, end))
        if options["domino_runs"]:
            # a line uses a whole hand (see line_size): only possible with nothing melded or laid off
            branching = bool(options["branch_on_doubles"])
            if can_empty and size == line_size(options, pickup=True) and rules.line(hand, branching=branching) is not None:
                out.append(Close(seat))
            if size - 1 == line_size(options, pickup=False):
                for d in sorted(have, key=by_code):
                    if no_milling and d is milled:
                        continue
                    if rules.line([x for x in hand if x is not d], branching=branching) is not None:
                        out.append(Close(seat, d))
        return out
    if phase == JUMP and window_domino is not None:
        out.append(Decline(seat))
        if options["jump_in_only_on_completion"]:
            for m in rules.melds_with(hand, window_domino):
                if len(m) <= len(hand) or can_empty:
                    out.append(Jump(seat, window_domino, tuple(d for d in m if d != window_domino)))
        else:
            out.append(Jump(seat, window_domino))
    return out


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`list_actions` for the seat whose view (a :class:`ConveyorView`) this is (empty if it may not act)."""
    seen = conveyor_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    options = seen["options"]
    phase = seen["phase"]
    drawn = seen["drawn"]
    milled = _dom(drawn["piece"]) if drawn is not None and drawn["face_up"] else None
    window = seen["jump_window"]
    selecting = phase == SELECT
    return list_actions(
        seat,
        phase=phase,
        hand=[_dom(x) for x in seen["hand"]] if phase in (PLAY, JUMP) else [],
        rules=rules_for(int_option(options, "set")),
        options=options,
        open_columns=[
            (col["column"], [i for i, x in enumerate(col["cells"]) if x == UNKNOWN] if selecting else [])
            for col in seen["columns"]
            if col["claimed_by"] is None
        ],
        melds=[(m["kind"], tuple(_dom(x) for x in m["pieces"])) for m in seen["melds"]] if phase == PLAY else [],
        milled=milled,
        window_domino=None if window is None else _dom(window["piece"]),
    )


def layoff_fits(options: Mapping[str, OptionValue], kind: str, dominoes: Sequence[str]) -> dict[str, list[Domino]]:
    """The dominoes of the set that anyone may lay off at each end of one meld.

    For interfaces that show where a meld can grow: the answer comes from
    :func:`list_actions` for a hand holding every domino of the set, so the
    judgement is the listing's own.

    >>> from rummykit.rulesets.conveyor import INFO
    >>> fits = layoff_fits(INFO.new().options, 'run', ['1-6', '2-6', '3-6'])
    >>> [str(d) for d in fits['low']], [str(d) for d in fits['high']]
    (['0-6'], ['4-6'])
    """
    options = {**options, "domino_runs": False}
    top = int_option(options, "set")
    listed = list_actions(
        0,
        phase=PLAY,
        hand=double_set(top),
        rules=rules_for(top),
        options=options,
        open_columns=[],
        melds=[(kind, tuple(_dom(x) for x in dominoes))],
        milled=None,
        window_domino=None,
    )
    fits: dict[str, list[Domino]] = {end: [] for end in END_NAMES}
    for action in listed:
        if isinstance(action, Layoff):
            fits[action.end].append(action.domino)
    return fits
