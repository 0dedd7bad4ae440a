"""Mummus positions: the start of a turn as one line of text (:func:`from_position`).

:meth:`Mummus.position` writes the string; :func:`from_position` reads it
back, checking that it is a position of the game: each of the 52 cards at
most once (exactly once when the stock is listed), valid melds, a stock to
draw from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.blocks.areas import LaidMeld, MeldArea
from rummykit.blocks.piles import Piles
from rummykit.engine.core import check_seed, default_names
from rummykit.engine.options import OptionValue
from rummykit.engine.options import resolve_options as resolve_specs
from rummykit.errors import ParseError
from rummykit.pieces.cards import DECK, Card, format_cards, parse_cards
from rummykit.rulesets.mummus.options import DRAW, GAME_ID, MAX_PLAYERS, MELDS, MIN_PLAYERS, OPTIONS, PREFIX
from rummykit.rulesets.mummus.state import Mummus

__all__ = ["FIELDS", "from_position", "position_fields", "position_text"]

FIELDS = ("hands", "discard", "stock", "melds", "known", "dealer", "turn", "turns")
"""The fields of a position string (``hands`` is required)."""


def position_fields(text: str) -> dict[str, str]:
    """Split a position string into its fields.

    >>> position_fields('hands: AS 2S / 3S; turn: 1')
    {'hands': 'AS 2S / 3S', 'turn': '1'}
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
    if "hands" not in fields:
        raise ParseError("a mummus position needs 'hands: ...'")
    return fields


def _seat(text: str, n: int, what: str) -> int:
    t = text.strip()
    if not t.isdigit() or int(t) >= n:
        raise ParseError(f"{what} must be a seat 0..{n - 1}, got {text.strip()!r}")
    return int(t)


def _melds(text: str, n: int) -> list[LaidMeld[Card]]:
    """``SEAT: cards`` (all laid by SEAT) or ``CARD@SEAT ...`` (card by card), melds separated by ``|``."""
    out: list[LaidMeld[Card]] = []
    if not text.strip():
        return out
    for part in text.split("|"):
        head, sep, rest = part.partition(":")
        cards: list[Card] = []
        seats: list[int] = []
        if sep:
            owner = _seat(head, n, "a meld's seat")
            cards = parse_cards(rest)
            seats = [owner] * len(cards)
        else:
            for word in part.split():
                card_text, at, seat_text = word.partition("@")
                if not at:
                    raise ParseError(f"write a meld as 'SEAT: cards' or as CARD@SEAT words, got {part.strip()!r}")
                cards.append(Card.parse(card_text))
                seats.append(_seat(seat_text, n, f"the seat of {card_text}"))
        check = MELDS.check(cards)
        if not check.valid or check.kind is None:
            raise ParseError(f"meld {format_cards(cards)} is invalid: {check.reason}")
        owners = dict(zip(cards, seats, strict=True))
        out.append(LaidMeld(check.kind, check.pieces, tuple(owners[c] for c in check.pieces)))
    return out


def from_position(
    text: str,
    *,
    players: int | Sequence[str] | None = None,
    seed: int = 0,
    **options: OptionValue,
) -> Mummus:
    """Set up the start of a turn from its one-line string.

    ``hands: <cards> / <cards> ...; discard: <cards>; stock: <cards>; melds:
    <meld> | ...; known: <cards> / ...; dealer: <seat>; turn: <seat>;
    turns: <n>``. The discard pile is listed from the bottom to the top card;
    the stock so that the **last card listed is drawn first** (left out: every
    card named nowhere else, shuffled with the seed). A meld is ``SEAT:
    cards`` when one seat laid all of it, else ``CARD@SEAT`` word by word.
    ``known`` lists, per seat, the cards of its hand everyone saw it take
    from the discard pile; ``turn`` is the seat about to draw (default 0),
    ``dealer`` the dealer (default the seat before it), ``turns`` the turns
    already played in the round (default 0).

    >>> from_position('hands: 5H / 2C; melds: 6H@1 7H@1 8H@0').view(None)['melds'][0]['laid_by']
    [1, 1, 0]
    >>> s = from_position('hands: 9H 10H 3S KS / 2C 3C 4D; discard: 8H 2D JC; melds: 1: 5S 6S 7S', target=0)
    >>> [a.text() for a in s.indexed_actions(0)], s.view(None)['stock_size']
    (['draw', 'take 8H', 'take JC'], 39)
    >>> from_position(s.position()).snapshot()['stock'] == s.snapshot()['stock']
    True
    """
    fields = position_fields(text)
    hand_texts = fields["hands"].split("/")
    names = default_names(len(hand_texts) if players is None else players)
    n = len(names)
    if len(hand_texts) != n:
        raise ParseError(f"the position has {len(hand_texts)} hands but {n} players were named")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ParseError(f"{GAME_ID} is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    hands = [parse_cards(h) for h in hand_texts]
    if any(not h for h in hands):
        raise ParseError("every hand holds at least one card")
    discard = parse_cards(fields.get("discard", ""))
    melds = _melds(fields.get("melds", ""), n)
    named = [c for h in hands for c in h] + discard + [c for m in melds for c in m.pieces]
    stock_given = "stock" in fields
    stock = parse_cards(fields["stock"]) if stock_given else []
    counts = Counter(named + stock)
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise ParseError(f"a position holds each card once; twice: {format_cards(twice)}")
    missing = sorted(set(DECK) - set(counts))
    if stock_given and missing:
        raise ParseError(f"with the stock listed, every card is somewhere; missing: {format_cards(missing)}")
    state = Mummus(names, check_seed(seed), resolve_specs(OPTIONS, options), deal=False)
    if not stock_given:
        stock = list(missing)
        state.rng.shuffle(stock)
    if not stock:
        raise ParseError("the stock is empty: a turn starts with cards in the stock (the discard pile is reshuffled)")
    state.piles = Piles(stock, discard, rule=f"{PREFIX}-PILE")
    state.hands = [list(h) for h in hands]
    state.area = MeldArea(melds)
    known_text = fields.get("known", "")
    known_texts = known_text.split("/") if known_text.strip() else [""] * n
    if len(known_texts) != n:
        raise ParseError(f"'known' needs one list per seat ({n}), separated by '/'")
    state.known = [set(parse_cards(k)) for k in known_texts]
    for s in range(n):
        if not state.known[s] <= set(hands[s]):
            raise ParseError(f"known cards of seat {s} must be in that seat's hand")
    state.current = _seat(fields.get("turn", "0"), n, "turn")
    state.dealer = _seat(fields["dealer"], n, "dealer") if "dealer" in fields else (state.current - 1) % n
    turns_text = fields.get("turns", "0").strip()
    if not turns_text.isdigit() or int(turns_text) >= state.options["max_turns"]:
        raise ParseError(f"turns must be 0..{state.options['max_turns'] - 1} (max_turns), got {turns_text!r}")
    state.turn_no = int(turns_text) + 1
    state.phase = DRAW
    state.first = state.current
    state.position_text = text.strip()
    state.emit(
        "position",
        None,
        {
            "hand_sizes": [len(h) for h in state.hands],
            "turn": state.current,
            "dealer": state.dealer,
            "stock_size": state.piles.stock_size,
        },
    )
    for seat in range(n):
        state.emit("hand", seat, {}, {"hand": [str(c) for c in sorted(state.hands[seat])]})
    return state


def position_text(state: Mummus) -> str:
    """The one-line string of a position at the start of a turn (``Mummus.position``; ``from_position`` reads it)."""
    melds = []
    for m in state.area:
        owners = set(m.laid_by)
        if len(owners) == 1:
            melds.append(f"{m.laid_by[0]}: {format_cards(m.pieces)}")
        else:
            melds.append(" ".join(f"{c}@{s}" for c, s in zip(m.pieces, m.laid_by, strict=True)))
    hands = " / ".join(format_cards(sorted(h)) for h in state.hands)
    known = " / ".join(format_cards(sorted(k)) for k in state.known)
    return (
        f"hands: {hands}; discard: {format_cards(state.piles.discard)}; stock: {format_cards(state.piles.stock)};"
        f" melds: {' | '.join(melds)}; known: {known}; dealer: {state.dealer}; turn: {state.current};"
        f" turns: {state.turn_no - 1}"
    )
