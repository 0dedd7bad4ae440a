"""The judgements every mummus action needs, and every legal action of a seat, from what it can see.

The state checks actions with these functions and lists them with
:func:`list_actions`; a bot lists its own from its view with
:func:`actions_from_view`. Both read only public information and the acting
seat's hand, so what a bot lists is exactly what the engine accepts.

* :func:`addon_chains`: the cards of a hand (or of the discard pile) that
  can be added to a meld in one add-on;
* :func:`claims`: every "rummy" claim the discard pile allows;
* :func:`deep_usable`: whether a card taken from deep in the discard pile
  can still be used in a meld or add-on this turn;
* :func:`out_of_turn`: whether a seat has anything to do out of turn
  (the seats of ``may_act``).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence, Set

from rummykit.engine.core import Action
from rummykit.melds.cards import MAX_RUN, SET
from rummykit.pieces.cards import DECK, Card
from rummykit.rulesets.mummus.actions import Addon, Cards, Discard, Draw, Meld, Rummy, Take
from rummykit.rulesets.mummus.options import DRAW, MAX_PLAYERS, MELDS, PLAY
from rummykit.rulesets.mummus.views import mummus_view

__all__ = [
    "actions_from_view",
    "addon_chains",
    "claimable",
    "claims",
    "deep_usable",
    "grown_table",
    "list_actions",
    "out_of_turn",
    "pile_has_meld",
    "wanted",
]

Table = Sequence[Cards]
"""The melds on the table, each in table order (the area's order)."""


def wanted(table: Table) -> frozenset[Card]:
    """Every card that would extend some meld on the table by itself."""
    melds = list(table)
    last = _last_wanted[0] if _last_wanted else None
    if last is not None and last[0] == melds:
        return last[1]
    out: set[Card] = set()
    for meld in melds:
        out |= _fits(tuple(meld))
    found = frozenset(out)
    _last_wanted[:] = [(melds, found)]
    return found


_last_wanted: list[tuple[list[Cards], frozenset[Card]]] = []
"""The table last read by :func:`wanted` and its answer (a table stays from turn to turn)."""


@functools.lru_cache(maxsize=1 << 12)
def _fits(meld: Cards) -> frozenset[Card]:
    """``MELDS.fits(meld)``, kept per meld (a meld is read by every listing while it lies on the table)."""
    return MELDS.fits(meld)


def addon_chains(meld: Cards, cards: Iterable[Card]) -> list[Cards]:
    """Every add-on of ``cards`` (a hand, or the discard pile) to ``meld``, in the grown meld's order.

    A set takes one card of its rank at a time (a set of three has room for
    one more); a run takes, at either end, the card next to it, then the one
    after that, and so on while the cards hold them.

    >>> from rummykit.pieces.cards import parse_cards, format_cards
    >>> [format_cards(c) for c in addon_chains(parse_cards('5H 6H 7H'), parse_cards('3H 4H 8H 10H'))]
    ['4H', '3H 4H', '8H']
    """
    return _addon_chains_in(meld, set(cards))


def _addon_chains_in(meld: Cards, have: Set[Card]) -> list[Cards]:
    """:func:`addon_chains` with the cards as a set."""
    if _fits(tuple(meld)).isdisjoint(have):
        return []  # no card of ``cards`` goes next to the meld (or it is full, or no meld)
    check = MELDS.check(meld)
    if not check.valid:
        return []
    pieces = check.pieces
    if check.kind == SET:
        return [(c,) for c in sorted(MELDS.fits(pieces) & have)]
    out: list[Cards] = []
    room = MAX_RUN - len(pieces)
    for end, step in ((pieces[0], -1), (pieces[-1], 1)):
        chain: list[Card] = []
        card: Card | None = end
        while len(chain) < room:
            card = MELDS.neighbour(card, step) if card is not None else None
            if card is None or card not in have:
                break
            chain.append(card)
            grown = tuple(chain[::-1]) if step < 0 else tuple(chain)
            if grown not in out:  # the one card missing from a suit fits both ends: one add-on
                out.append(grown)
    return out


def claims(table: Table, discard: Sequence[Card]) -> list[tuple[Cards, Card | None]]:
    """Every "rummy" claim: discard-pile cards that extend a meld (named by its first card), or form a new one."""
    out: list[tuple[Cards, Card | None]] = []
    if not discard:
        return out
    # Every seat's listing reads the same claims in a position: the last table and pile are kept with theirs.
    melds, pile = list(table), list(discard)
    last = _last_claims[0] if _last_claims else None
    if last is not None and last[1] == pile and last[0] == melds:
        return list(last[2])
    have = set(discard)
    if not wanted(melds).isdisjoint(have):
        for meld in melds:
            out.extend((chain, meld[0]) for chain in _addon_chains_in(meld, have))
    if pile_has_meld(discard):
        out.extend((m, None) for m in MELDS.enumerate(discard))
    _last_claims[:] = [(melds, pile, out)]
    return list(out)


_last_claims: list[tuple[list[Cards], list[Card], list[tuple[Cards, Card | None]]]] = []
"""The table, the pile and the claims of the position listed last."""


def pile_has_meld(discard: Sequence[Card]) -> bool:
    """True when some cards of the discard pile form a meld by themselves."""
    if len(discard) < 3:
        return False
    pile = list(discard)
    last = _last_pile[0] if _last_pile else None
    if last is not None and last[0] == pile:
        return last[1]
    found = MELDS.has_meld(pile)
    _last_pile[:] = [(pile, found)]
    return found


_last_pile: list[tuple[list[Card], bool]] = []
"""The pile last judged by :func:`pile_has_meld`, and whether it holds a meld (the seats and the claims of a
position both ask)."""


def claimable(table: Table, discard: Sequence[Card]) -> list[Card]:
    """The discard-pile cards some claim would take now, bottom first."""
    taken = {c for cards, _meld in claims(table, discard) for c in cards}
    return [c for c in discard if c in taken]


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
    return _deep_usable_in(deep, len(hand), set(hand), table)


def _deep_usable_in(deep: Card, n: int, have: Set[Card], table: Table, mask: int | None = None) -> bool:
    """:func:`deep_usable` for a hand of ``n`` cards whose distinct cards are ``have`` (``mask``: the same
    cards as bits by code, when the caller keeps them so)."""
    if n >= 4:
        if mask is None:
            if MELDS.smallest_in(deep, have) is not None:
                return True
        else:
            # MELDS.smallest_in(deep, have) is not None, as bits: two more cards of its rank, or the two
            # cards of one of its runs of three.
            same, runs = _MASKS[deep]
            if (mask & same).bit_count() >= 2 or any(mask & run == run for run in runs):
                return True
    for meld in table:
        chain = MELDS.chain_in(meld, deep, have)
        if chain is not None and len(chain) <= n - 1:
            return True
    return False


def _masks() -> dict[Card, tuple[int, tuple[int, ...]]]:
    """For each card, as bits by code: the other cards of its rank, and the two other cards of each run of three
    holding it (the runs :meth:`~rummykit.melds.cards.CardMelds.smallest_in` looks for)."""
    out = {}
    for card in DECK:
        same = 0
        for other in DECK:
            if other.rank == card.rank and other is not card:
                same |= 1 << other.code
        runs = []
        for offsets in ((-2, -1), (-1, 1), (1, 2)):
            cards = [MELDS.neighbour(card, k) if abs(k) == 1 else _two_away(card, k) for k in offsets]
            if None in cards:
                continue
            runs.append(sum(1 << c.code for c in cards if c is not None))
        out[card] = (same, tuple(runs))
    return out


def _two_away(card: Card, k: int) -> Card | None:
    step = 1 if k > 0 else -1
    near = MELDS.neighbour(card, step)
    return None if near is None else MELDS.neighbour(near, step)


_MASKS = _masks()


def grown_table(table: Table, index: int | None, grown: Cards) -> list[Cards]:
    """The table with meld ``index`` replaced by ``grown`` (a new meld at the end when ``index`` is None)."""
    out = list(table)
    if index is None:
        out.append(grown)
    else:
        out[index] = grown
    return out


def _without(hand: Sequence[Card], used: Iterable[Card]) -> list[Card]:
    gone = set(used)
    return [c for c in hand if c not in gone]


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
    out: list[Action] = []
    mine = seat == turn
    n = len(hand)
    pending = deep if mine and phase == PLAY else None

    def keeps_deep(used: Sequence[Card], after: Table) -> bool:
        return pending is None or pending in used or deep_usable(pending, _without(hand, used), after)

    if mine and phase == DRAW:
        if stock_size:
            out.append(Draw(seat))
        if discard:
            out.append(Take(seat, discard[-1]))
        # Each deep card with the hand and the pile from it up: the cards grow by one from the top down.
        have = set(hand)
        usable = []
        if discard:
            have.add(discard[-1])
        mask = 0
        for card in have:
            mask |= 1 << card.code
        # A deep card can go only to a set of its rank or a run of its suit.
        takers: dict[object, list[Cards]] = {}
        for meld in table:
            check = MELDS.check(meld)
            if check.valid:
                first = check.pieces[0]
                takers.setdefault(first.rank if check.kind == SET else first.suit, []).append(meld)
        for i in range(len(discard) - 2, -1, -1):
            card = discard[i]
            have.add(card)
            mask |= 1 << card.code
            melds = [*takers.get(card.rank, ()), *takers.get(card.suit, ())]
            if _deep_usable_in(card, n + len(discard) - i, have, melds, mask):
                usable.append(card)
        out.extend(Take(seat, card) for card in reversed(usable))
    in_hand = set(hand)
    for index, meld in enumerate(table):
        for chain in _addon_chains_in(meld, in_hand):
            if len(chain) >= n:
                continue
            if pending is not None and not keeps_deep(chain, grown_table(table, index, MELDS.extend(meld, chain).pieces)):
                continue
            out.append(Addon(seat, chain, meld[0]))
    for cards, ref in claims(table, discard):
        if pending is not None:
            if ref is None:
                after = grown_table(table, None, cards)
            else:
                index = next(i for i, m in enumerate(table) if ref in m)
                after = grown_table(table, index, MELDS.extend(table[index], cards).pieces)
            if not keeps_deep((), after):
                continue
        out.append(Rummy(seat, cards, ref))
    if mine and phase == PLAY:
        for m in MELDS.enumerate(hand) if MELDS.has_meld(hand) else ():
            if len(m) < n and keeps_deep(m, grown_table(table, None, m)):
                out.append(Meld(seat, m))
        if pending is None:
            discards = _DISCARDS[seat]
            for c in sorted(hand, key=_CODE):
                discard_c = discards.get(c)
                if discard_c is None:
                    discard_c = discards[c] = Discard(seat, c)
                out.append(discard_c)
    return out


_CODE = operator.attrgetter("code")
"""Sorts cards as their own order does (by code), without calling ``<``."""

_DISCARDS: list[dict[Card, Discard]] = [{} for _ in range(MAX_PLAYERS)]
"""Each seat's discard of each card, made once (actions are immutable, so listings share them)."""


def actions_from_view(view: Mapping[str, object]) -> list[Action]:
    """:func:`list_actions` for the seat whose view (a :class:`MummusView`) this is (empty if it may not act now)."""
    seen = mummus_view(view)
    seat = seen["seat"]
    if seat is None or seat not in seen["to_act"]:
        return []
    deep = seen["deep"]
    return list_actions(
        seat,
        turn=seen["turn"],
        phase=seen["phase"],
        hand=[Card.parse(c) for c in seen["hand"]],
        table=[tuple(Card.parse(c) for c in m["cards"]) for m in seen["melds"]],
        discard=[Card.parse(c) for c in seen["discard"]],
        stock_size=seen["stock_size"],
        deep=None if deep is None else Card.parse(deep),
    )

