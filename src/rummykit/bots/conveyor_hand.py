"""What a conveyor hand can do, for the greedy bot (:mod:`rummykit.bots.conveyor`) and the strong one.

* **Relations.** Two dominoes "work together" when they could sit in one
  meld (:func:`pair_weight`); :func:`worth` sums a domino's pair weights in a hand.
* **Partitions.** :func:`best_partition`: disjoint melds of a hand covering the most dominoes.
* **Closing.** :func:`closable`: melding the best partition and laying off what
  fits leaves at most one domino; :func:`line_closable` for ``domino_runs``.
  Short cuts for one drawn domino, checked against :func:`closable` by
  tests/test_conveyor_greedy.py: :func:`hand_stall` and :func:`closable_with`
  (a domino in no meld with the hand), :func:`could_close` (a quick "no").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence

from rummykit.engine.options import OptionValue
from rummykit.melds.conveyor import ConveyorMelds, by_code
from rummykit.melds.cover import Candidate, CoverProblem, best_cover, rank
from rummykit.pieces.dominoes import Domino, double_set

__all__ = [
    "Pieces",
    "Stall",
    "best_partition",
    "closable",
    "closable_with",
    "could_close",
    "ends_of_table",
    "hand_stall",
    "line_closable",
    "meld_ends",
    "pair_weight",
    "worth",
]

Pieces = tuple[Domino, ...]


@functools.lru_cache(maxsize=1 << 14)
def _relations(a: Domino, b: Domino, top: int) -> tuple[tuple[float, tuple[Domino, ...]], ...]:
    """Each way two dominoes could share a meld: its weight and the dominoes that would complete it."""
    if a is b:
        return ()
    out: list[tuple[float, tuple[Domino, ...]]] = []
    if a.pips == b.pips:
        total = a.pips
        others = tuple(
            Domino(x, total - x) for x in range(max(0, total - top), total // 2 + 1) if Domino(x, total - x) not in (a, b)
        )
        out.append((2.5, others))

    def near(lo: int, hi: int, make: Callable[[int], Domino]) -> None:
        gap = hi - lo
        if gap == 1:
            ends = [v for v in (lo - 1, hi + 1) if 0 <= v <= top]
            out.append((3.0, tuple(make(v) for v in ends)))
        elif gap == 2:
            out.append((1.5, (make(lo + 1),)))

    if a.is_double and b.is_double:
        near(min(a.low, b.low), max(a.low, b.low), lambda v: Domino(v, v))
    for suit in {a.low, a.high} & {b.low, b.high}:
        va, vb = a.other(suit), b.other(suit)

        def in_suit(v: int, s: int = suit) -> Domino:
            return Domino(s, v)

        near(min(va, vb), max(va, vb), in_suit)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _related(top: int) -> dict[Domino, frozenset[Domino]]:
    """For each domino of the double-``top`` set, the dominoes it has some relation with.

    Most pairs have none, so a sum over a hand of pair weights need only
    visit these (the weights of the others are 0).
    """
    every = double_set(top)
    return {a: frozenset(b for b in every if _relations(a, b, top)) for a in every}


@functools.lru_cache(maxsize=16)
def _touching(top: int) -> dict[Domino, frozenset[Domino]]:
    """For each domino of the double-``top`` set, the dominoes it could sit next to at a meld's end.

    A domino that fits an end of a run or a run of pairs is 1 apart from the
    end's domino; one that fits a sum has its total: either way a relation
    other than "2 apart" (weight 1.5) in :func:`_relations`.
    """
    return {
        a: frozenset(b for b in near if any(w != 1.5 for w, _completers in _relations(a, b, top)))
        for a, near in _related(top).items()
    }


def pair_weight(a: Domino, b: Domino, dead: frozenset[Domino] = frozenset(), top: int = 12) -> float:
    """How much two dominoes help each other toward a meld whose missing dominoes are not all ``dead``.

    A run partner (one half shared, the other halves 1 apart) weighs 3, or
    1.5 when 2 apart; a sum partner (equal pips) 2.5; doubles 1 or 2 apart
    3 or 1.5. A relation counts only while some domino that would complete
    it is not in ``dead`` (say, already in a meld on the table).

    >>> pair_weight(Domino(3, 4), Domino(3, 5)), pair_weight(Domino(2, 6), Domino(3, 5)), pair_weight(Domino(0, 1), Domino(5, 6))
    (3.0, 2.5, 0.0)
    >>> pair_weight(Domino(3, 4), Domino(3, 5), frozenset({Domino(3, 3), Domino(3, 6)}))
    0.0
    """
    relations = _relations(a, b, top)
    if not relations:  # most pairs: nothing in common
        return 0.0
    total = 0.0
    for w, completers in relations:
        if not dead.issuperset(completers):  # some completer is not dead
            total += w
    return total


def worth(d: Domino, hand: Sequence[Domino], dead: frozenset[Domino] = frozenset(), top: int = 12) -> float:
    """A domino's worth among the others of a hand (the sum of its live pair weights)."""
    related = _related(top).get(d, _NONE)
    return sum((pair_weight(d, x, dead, top) for x in hand if x in related), 0.0)


_NONE: frozenset[Domino] = frozenset()


def best_partition(rules: ConveyorMelds, hand: Sequence[Domino]) -> list[Pieces]:
    """Disjoint melds from ``hand`` covering the most dominoes (then scoring the most).

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> def show(text):
    ...     return [' '.join(map(str, m)) for m in best_partition(ConveyorMelds(6), parse_dominoes(text))]
    >>> show('1-1 1-2 1-3 2-2 3-3 4-4 0-4')
    ['1-1 1-2 1-3', '2-2 3-3 4-4']
    >>> show('1-1 1-2 1-3 2-2 3-3 0-4')  # one meld only: the royal sum of 4 scores most
    ['0-4 1-3 2-2']
    """
    return list(_best_partition(rules, tuple(sorted(set(hand), key=by_code))))


SCORE_PER_DOMINO = 5
"""No meld scores more than this per domino it holds (13 for three dominoes, at most 3n + 1 for n >= 4)."""
_DOMINO_POTENTIAL = rank(1, SCORE_PER_DOMINO)
"""The most one domino still undecided could add to :func:`best_partition`'s objective."""


@functools.lru_cache(maxsize=1 << 12)
def _best_partition(rules: ConveyorMelds, hand: Pieces) -> tuple[Pieces, ...]:
    melds = rules.hand_melds(hand)
    if not melds:
        return ()
    cands: list[Candidate[Domino]] = []
    for m in melds:
        kind = rules.check(m).kind
        assert kind is not None
        cands.append(Candidate(m, rank(len(m), rules.score(kind, m))))
    found = best_cover(
        CoverProblem(
            dict.fromkeys((d for m in melds for d in m), 1),
            cands,
            order=by_code,
            potential=lambda _d: _DOMINO_POTENTIAL,
        )
    )
    return found.sets if found is not None else ()


def line_closable(rules: ConveyorMelds, hand: Sequence[Domino], options: Mapping[str, OptionValue]) -> bool:
    """True when ``hand`` (after a draw) closes as a line under ``domino_runs``: a whole hand.

    The line holds ``column_length`` dominoes after a discard, or the whole
    hand on the pickup where that is allowed; a hand that has melded or
    laid off anything is too short.

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> opts = {'domino_runs': True, 'branch_on_doubles': False, 'column_length': 3,
    ...         'never_close_on_pickup': False, 'no_milling': False}
    >>> line_closable(ConveyorMelds(6), parse_dominoes('1-2 2-3 3-4 6-6'), opts)
    True
    >>> line_closable(ConveyorMelds(6), parse_dominoes('1-2 2-3 3-4'), opts)  # a short hand
    False
    """
    if not options["domino_runs"]:
        return False
    whole = options["column_length"]
    if not isinstance(whole, int):  # a started game's options are resolved: a whole number here
        raise TypeError(f"column_length is {whole!r}, not a whole number")
    if len(hand) != whole + 1:
        return False
    branching = bool(options["branch_on_doubles"])
    if not options["never_close_on_pickup"] and rules.line(hand, branching=branching) is not None:
        return True
    return any(
        rules.line([x for x in hand if x is not d], branching=branching) is not None for d in dict.fromkeys(hand)
    )


def meld_ends(
    rules: ConveyorMelds, melds: Sequence[tuple[str, Pieces]], takes: dict[Domino, tuple[int, str]] | None = None,
    first: int = 0,
) -> dict[Domino, tuple[int, str]]:
    """Which meld end takes which domino: the first (meld index, end) in order, for melds from ``first`` on.

    Adds to ``takes`` (a new dict by default) without replacing an entry, so
    the table's ends can be worked out once and extended by each hand's melds.
    """
    out: dict[Domino, tuple[int, str]] = {} if takes is None else takes
    for i in range(first, len(melds)):
        kind, pieces = melds[i]
        for end in ("low", "high"):
            for d in rules.fits(kind, pieces, end):
                out.setdefault(d, (i, end))
    return out


@functools.lru_cache(maxsize=256)
def ends_of_table(rules: ConveyorMelds, table: tuple[tuple[str, Pieces], ...]) -> Mapping[Domino, tuple[int, str]]:
    """:func:`meld_ends` of a table, kept for the next turns (the table changes seldom; public information).

    Read it only: the same mapping is handed to every caller with this table.
    """
    return meld_ends(rules, table)


def closable(
    rules: ConveyorMelds,
    hand: Sequence[Domino],
    table: Sequence[tuple[str, Pieces]],
    table_ends: Mapping[Domino, tuple[int, str]] | None = None,
    partition: Sequence[Pieces] | None = None,
) -> bool:
    """True when melding the best partition and laying off what fits leaves at most one domino.

    ``table_ends`` is :func:`meld_ends` of ``table``, when the caller has it
    already (it asks about many hands against one table); ``partition`` is
    :func:`best_partition` of ``hand``, likewise.

    >>> from rummykit.pieces.dominoes import parse_dominoes
    >>> closable(ConveyorMelds(9), parse_dominoes('4-7 0-0'), [('run', tuple(parse_dominoes('0-1 0-2 0-3')))])
    True
    """
    melds = [*table]
    rest = list(hand)
    for m in best_partition(rules, hand) if partition is None else partition:
        kind = rules.check(m).kind
        assert kind is not None
        melds.append((kind, m))
        rest = [d for d in rest if d not in m]
    if len(rest) <= 1:
        return True
    # which meld end takes which domino; refreshed for a meld when it grows
    if table_ends is None:
        takes = meld_ends(rules, melds)
    else:
        takes = meld_ends(rules, melds, dict(table_ends), first=len(table))
    _lay_off(rules, melds, rest, takes, keep=1)
    return len(rest) <= 1


def _lay_off(
    rules: ConveyorMelds, melds: list[tuple[str, Pieces]], rest: list[Domino], takes: dict[Domino, tuple[int, str]],
    keep: int,
) -> dict[Domino, tuple[int, str]]:
    """:func:`closable`'s layoff loop: lays off the first domino of ``rest`` that fits, again and again.

    Stops when nothing in ``rest`` fits or at most ``keep`` dominoes are left;
    ``melds`` and ``rest`` change in place, ``takes`` (which meld end takes
    which domino) is left alone: the ends at the stop are returned.
    """
    grew = True
    while grew and len(rest) > keep:
        grew = False
        for d in rest:
            spot = takes.get(d)
            if spot is None:
                continue
            i, end = spot
            kind, pieces = melds[i]
            melds[i] = (kind, (d, *pieces) if end == "low" else (*pieces, d))
            rest.remove(d)
            takes = {x: where for x, where in takes.items() if where[0] != i}
            for e in ("low", "high"):
                for x in rules.fits(kind, melds[i][1], e):
                    takes.setdefault(x, (i, e))
            grew = True
            break
    return takes


Stall = tuple[tuple[tuple[str, Pieces], ...], tuple[Domino, ...], dict[Domino, tuple[int, str]]]
"""The melds, the rest of the hand and the meld ends where :func:`closable`'s layoff loop stalls on a hand alone."""


def hand_stall(
    rules: ConveyorMelds, hand: Sequence[Domino], table: Sequence[tuple[str, Pieces]],
    table_ends: Mapping[Domino, tuple[int, str]], partition: Sequence[Pieces],
) -> Stall:
    """Where :func:`closable`'s layoff loop stops on ``hand`` alone (melded by ``partition``), with nothing left over.

    With a domino ``d`` appended that is in no meld with the hand, the loop
    takes the very same steps as long as some hand domino fits (``d`` comes
    last in the hand): :func:`closable_with` goes on from here.
    """
    melds = [*table]
    rest = list(hand)
    for m in partition:
        kind = rules.check(m).kind
        assert kind is not None
        melds.append((kind, m))
        rest = [d for d in rest if d not in m]
    takes = meld_ends(rules, melds, dict(table_ends), first=len(table)) if rest else {}
    takes = _lay_off(rules, melds, rest, takes, keep=0)
    return tuple(melds), tuple(rest), takes


def closable_with(rules: ConveyorMelds, stall: Stall, d: Domino) -> bool:
    """:func:`closable` of the hand and ``d`` (appended), for a ``d`` in no meld with the hand.

    ``stall`` is :func:`hand_stall` of the hand with its best partition (which
    ``d`` leaves as it is): the hand empties before ``d`` is looked at, or
    ``d`` does not fit where the hand stalls, or the loop goes on from there.
    """
    melds, rest, takes = stall
    if not rest:
        return True
    if d not in takes:
        return False
    grown = [*rest, d]
    _lay_off(rules, list(melds), grown, takes, keep=1)
    return len(grown) <= 1


def could_close(top: int, hand: Sequence[Domino], in_melds: Collection[Domino], placed: Collection[Domino]) -> bool:
    """False only when :func:`closable` of ``hand`` is surely False; a quick test before it.

    ``in_melds`` holds at least every domino of ``hand`` in some meld of the
    hand; ``placed`` every domino on the table (and may hold ``in_melds``).
    A domino :func:`closable` lays off fits the end of a meld whose dominoes
    are on the table, in the hand's melds or laid off before it, so it
    touches (:func:`_touching`) one of them: the dominoes of ``hand`` that
    touch nothing so reached are left over, and two left over never close.
    """
    out = [x for x in hand if x not in in_melds]
    if len(out) <= 1:
        return True
    touching = _touching(top)
    reached = {*placed, *in_melds}
    grew = True
    while grew and len(out) > 1:
        grew = False
        for x in out:
            if not touching[x].isdisjoint(reached):
                reached.add(x)
                out.remove(x)
                grew = True
                break
    return len(out) <= 1
