"""The judgements every mummus action needs, and every legal action of a seat, from what it can see.

The state checks actions with these functions and lists them with
:func:`list_actions` (through :func:`listing`, with the table and the pile
it keeps judged, :mod:`~rummykit.rulesets.mummus.seen`); a bot lists its own
from its view with :func:`actions_from_view`. Both read only public
information and the acting seat's hand, so what a bot lists is exactly what
the engine accepts.

* :func:`addon_chains`: the cards of a hand (or of the discard pile) that
  can be added to a meld in one add-on;
* :func:`claims`: every "rummy" claim the discard pile allows;
* :func:`deep_usable`: whether a card taken from deep in the discard pile
  can still be used in a meld or add-on this turn;
* :func:`out_of_turn`: whether a seat has anything to do out of turn
  (the seats of ``may_act``).

Inside, sets of cards are bit masks (:mod:`rummykit.melds.card_bits`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rummykit.engine.core import Action
from rummykit.melds.card_bits import BIT, CODE, MeldReach, has_meld, mask_of, melds_of
from rummykit.pieces.cards import DECK, Card, parse_cards
from rummykit.rulesets.mummus.actions import Addon, Cards, Discard, Draw, Meld, Rummy, Take
from rummykit.rulesets.mummus.options import DRAW, MAX_PLAYERS, MELDS, PLAY
from rummykit.rulesets.mummus.seen import (
    NEAR,
    PARTNERS,
    WRAP,
    PileSeen,
    TableSeen,
    chains,
    pile_mask,
    reach_of,
    usable,
)
from rummykit.rulesets.mummus.views import mummus_view

__all__ = [
    "actions_from_view",
    "actions_seen",
    "addon_chains",
    "claimable",
    "claims",
    "deep_usable",
    "grown_table",
    "list_actions",
    "listing",
    "out_of_turn",
    "pile_has_meld",
    "read_cards",
    "wanted",
]

Table = Sequence[Cards]
"""The melds on the table, each in table order (the area's order)."""


def _seen(table: Table, discard: Sequence[Card]) -> PileSeen:
    """The table and pile judged (:class:`PileSeen`), kept for the position asked about last (every seat's
    listing and every check of a position reads the same one)."""
    last = _last[0] if _last else None
    melds = list(table)
    pile = list(discard)
    if last is None:
        found = PileSeen(pile, TableSeen(melds))
    elif last.table.table == melds:
        if last.pile == pile:
            return last
        found = PileSeen(pile, last.table, pile_mask(last, pile))
    else:
        found = PileSeen(pile, TableSeen(melds), pile_mask(last, pile))
    _last[:] = [found]
    return found


_last: list[PileSeen] = []
"""The position judged last by :func:`_seen` (one table and pile: public, and one entry)."""


def wanted(table: Table) -> frozenset[Card]:
    """Every card that would extend some meld on the table by itself."""
    return _seen(table, ()).table.wanted


def addon_chains(meld: Cards, cards: Iterable[Card]) -> list[Cards]:
    """Every add-on of ``cards`` (a hand, or the discard pile) to ``meld``, in the grown meld's order.

    A set takes one card of its rank at a time (a set of three has room for
    one more); a run takes, at either end, the card next to it, then the one
    after that, and so on while the cards hold them.

    >>> from rummykit.pieces.cards import parse_cards, format_cards
    >>> [format_cards(c) for c in addon_chains(parse_cards('5H 6H 7H'), parse_cards('3H 4H 8H 10H'))]
    ['4H', '3H 4H', '8H']
    """
    reach = reach_of(tuple(meld))
    if reach is None:
        return []
    have = mask_of(cards)
    if not reach.fits & have:
        return []
    return chains(reach, have)


def claims(table: Table, discard: Sequence[Card]) -> list[tuple[Cards, Card | None]]:
    """Every "rummy" claim: discard-pile cards that extend a meld (named by its first card), or form a new one."""
    if not discard:
        return []
    return list(_seen(table, discard).claims)


def pile_has_meld(discard: Sequence[Card]) -> bool:
    """True when some cards of the discard pile form a meld by themselves."""
    return len(discard) >= 3 and has_meld(mask_of(discard), WRAP)


def claimable(table: Table, discard: Sequence[Card]) -> list[Card]:
    """The discard-pile cards some claim would take now, bottom first."""
    return list(_seen(table, discard).claimable) if discard else []


def out_of_turn(hand: Sequence[Card], table: Table, discard: Sequence[Card], fits: frozenset[Card] | None = None) -> bool:
    """True when a seat holding ``hand`` may act out of turn: an add-on that keeps a card, or a claim."""
    fits = wanted(table) if fits is None else fits
    if len(hand) >= 2 and not fits.isdisjoint(hand):
        return True
    return not fits.isdisjoint(discard) or pile_has_meld(discard)


def deep_usable(deep: Card, hand: Sequence[Card], table: Table) -> bool:
    """True when ``deep`` (in ``hand``) can still go into a meld or an add-on that leaves a card to discard.

    >>> from rummykit.pieces.cards import parse_cards
    >>> deep_usable(Card.parse('9H'), parse_cards('9H 8H 2C'), [parse_cards('5H 6H 7H')])
    True
    >>> deep_usable(Card.parse('9H'), parse_cards('9H 8H'), [parse_cards('5H 6H 7H')])
    False
    """
    return usable(deep.code, len(hand), mask_of(hand), [reach_of(m) for m in table])


def grown_table(table: Table, index: int | None, grown: Cards) -> list[Cards]:
    """The table with meld ``index`` replaced by ``grown`` (a new meld at the end when ``index`` is None)."""
    out = list(table)
    if index is None:
        out.append(grown)
    else:
        out[index] = grown
    return out


def list_actions(
    seat: int,
    *,
    turn: int | None,
    phase: str,
    hand: Sequence[Card],
    table: Table,
    discard: Sequence[Card],
    stock_size: int,
    deep: Card | None,
) -> list[Action]:
    """Every legal action of ``seat``, from what it can see.

    ``turn`` is the seat whose turn it is (None: nobody's) and ``phase`` where that turn
    stands; ``table`` the melds in table order; ``discard`` the discard pile,
    bottom first; ``deep`` the deep discard the player to move must still use.
    Out of turn a seat lists its add-ons and claims; the player to move also
    draws (stock, top discard, every deep discard it could use), melds and
    discards. Everything legal is listed.
    """
    return listing(seat, seat == turn, phase, hand, mask_of(hand), _seen(table, discard), stock_size, deep)


def listing(
    seat: int,
    mine: bool,
    phase: str,
    hand: Sequence[Card],
    have: int,
    seen: PileSeen,
    stock_size: int,
    deep: Card | None,
) -> list[Action]:
    """:func:`list_actions` with the hand's mask (``have``) and the table and the pile judged (``seen``);
    ``mine``: the seat's turn."""
    out: list[Action] = []
    n = len(hand)
    table = seen.table
    pending = deep if mine and phase == PLAY else None
    if mine and phase == DRAW:
        if stock_size:
            out.append(_DRAWS[seat])
        discard = seen.pile
        if discard:
            takes = _TAKES[seat]
            out.append(takes[discard[-1].code])
            if len(discard) >= 2:
                out.extend(_deep_takes(takes, n, have, discard, table))
    if table.wanted_mask & have:
        for index, reach in enumerate(table.reaches):
            if reach is None or not reach.fits & have:
                continue
            first = table.table[index][0]
            for chain in chains(reach, have):
                if len(chain) >= n:
                    continue
                if pending is not None and not _keeps(pending, hand, chain, table.after(index, reach_grown(table, index, chain))):
                    continue
                out.append(Addon(seat, chain, first))
    if seen.open:
        for cards, ref in seen.claims:
            if pending is not None:
                at = None if ref is None else next(i for i, m in enumerate(table.table) if ref in m)
                grown = cards if at is None else reach_grown(table, at, cards)
                if not _keeps(pending, hand, (), table.after(at, grown)):
                    continue
            out.append(Rummy(seat, cards, ref))
    if mine and phase == PLAY:
        if has_meld(have, WRAP):
            for m in melds_of(have, WRAP):
                if len(m) < n and (pending is None or _keeps(pending, hand, m, table.after(None, m))):
                    out.append(Meld(seat, m))
        if pending is None:
            discards = _DISCARDS[seat]
            out.extend([discards[c.code] for c in sorted(hand, key=CODE)])
    return out


def reach_grown(table: TableSeen, index: int, cards: Cards) -> Cards:
    """Meld ``index`` of the table with the add-on ``cards``, in normal order."""
    return MELDS.extend(table.table[index], cards).pieces


def _keeps(pending: Card, hand: Sequence[Card], used: Sequence[Card], after: list[MeldReach | None]) -> bool:
    """True when the deep discard ``pending`` is among ``used`` or still usable by the rest of ``hand`` with the
    table ``after`` (its melds' reaches)."""
    if pending in used:
        return True
    gone = set(used)
    rest = [c for c in hand if c not in gone]
    return usable(pending.code, len(rest), mask_of(rest), after)


def _deep_takes(takes: list[Take], n: int, have: int, discard: Sequence[Card], table: TableSeen) -> list[Take]:
    """The deep discards the player to move could take and use: each with the hand and the pile from it up,
    the cards growing by one from the top down; listed bottom first."""
    usable_: list[Take] = []
    have |= BIT[discard[-1]]
    size = len(discard)
    by_code = table.by_code
    near = NEAR
    partners = PARTNERS
    for i in range(size - 2, -1, -1):
        code = discard[i].code
        have |= 1 << code
        m = n + size - i
        if m >= 4 and (have & partners[code]).bit_count() >= 2:  # else no meld of three with two others
            same, runs = near[code]
            if (have & same).bit_count() >= 2:
                usable_.append(takes[code])
                continue
            found = False
            for run in runs:
                if have & run == run:
                    found = True
                    break
            if found:
                usable_.append(takes[code])
                continue
        if code not in by_code:
            continue
        for mask, k in by_code[code]:
            if k < m and have & mask == mask:
                usable_.append(takes[code])
                break
    usable_.reverse()
    return usable_


_DRAWS = [Draw(seat) for seat in range(MAX_PLAYERS)]
"""Each seat's draw, made once (actions are immutable, so listings share them)."""
_TAKES = [[Take(seat, c) for c in DECK] for seat in range(MAX_PLAYERS)]
"""Each seat's take of each card, by code."""
_DISCARDS = [[Discard(seat, c) for c in DECK] for seat in range(MAX_PLAYERS)]
"""Each seat's discard of each card, by code."""


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`list_actions` for the seat whose view (a :class:`MummusView`) this is (empty if it may not act now)."""
    seen = mummus_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    return actions_seen(
        seen, read_cards(seen["hand"]), [tuple(read_cards(m["cards"])) for m in seen["melds"]], read_cards(seen["discard"])
    )


def read_cards(texts: Sequence[str]) -> list[Card]:
    """The cards of a view's texts: each looked up by its canonical text (what a view writes), any other
    reading through the notation (:func:`~rummykit.pieces.cards.parse_cards`).

    >>> read_cards(['10H', 'as', 'TD'])
    [Card.parse('10H'), Card.parse('AS'), Card.parse('10D')]
    """
    try:
        return list(map(_BY_TEXT, texts))
    except KeyError:
        return parse_cards(texts)


_BY_TEXT = {str(c): c for c in DECK}.__getitem__


def actions_seen(view: Mapping[str, object], hand: Sequence[Card], table: Table, discard: Sequence[Card]) -> list[Action]:
    """:func:`actions_from_view` with the view's hand, melds and pile read already (by a bot that reads them
    anyway); empty if the view's seat may not act now."""
    seen = mummus_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    deep = seen["deep"]
    return list_actions(
        seat,
        turn=seen["turn"],
        phase=seen["phase"],
        hand=hand,
        table=table,
        discard=discard,
        stock_size=seen["stock_size"],
        deep=None if deep is None else Card.parse(deep),
    )
