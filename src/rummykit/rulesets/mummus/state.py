"""The mummus state machine: :class:`Mummus`.

A round is a deal, then turns. A turn is a draw (``draw`` from the stock or
``take`` from the discard pile), any melds and add-ons, then a discard. Add-ons
and "rummy" claims are open to every seat at any time, out of turn too: the
seats that have one to make are :attr:`~Mummus.may_act`. The round ends when
a player discards their last card (or after ``max_turns`` turns) and is
scored through the shared match loop
(:meth:`~rummykit.engine.core.GameState.finish_round`).

Every handler checks the whole action first (``_check_*``) and only then
changes anything (``_do_*``), so a refusal leaves the state exactly as it
was. Every attribute is a list, set or dict of immutable values, a frozen
value or a block with a ``copy`` method, so the derived
:meth:`~rummykit.engine.core.GameState.copy` shares nothing mutable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rummykit.blocks.areas import MeldArea
from rummykit.blocks.piles import Piles
from rummykit.engine.core import JSON, Action, Field, GameState, Omit, Saved, SavedAs, texts
from rummykit.engine.hidden import Slot, every_slot, unseen_slots
from rummykit.engine.options import OptionValue
from rummykit.errors import Param, RuleError
from rummykit.melds.card_bits import BIT, CODE
from rummykit.pieces.cards import DECK, Card, format_cards
from rummykit.pieces.text import piece_texts
from rummykit.rulesets.mummus.actions import Addon, Cards, Discard, Draw, Meld, Rummy, Take
from rummykit.rulesets.mummus.listing import deep_usable, grown_table, listing
from rummykit.rulesets.mummus.options import (
    DRAW,
    GAME_ID,
    HAND_SIZE,
    MELDS,
    OVER,
    PLAY,
    PREFIX,
    card_values,
    resolve_options,
)
from rummykit.rulesets.mummus.seen import SEATS, KeptSeen, PileSeen, open_seats
from rummykit.rulesets.mummus.views import MummusView, build_view
from rummykit.words import counted

__all__ = ["Mummus"]

_NOBODY: frozenset[int] = frozenset()


def _err(rule: str, message: str, **params: Param) -> RuleError:
    """A refusal; its data (cards, a seat, counts) as params, so an interface words it for its audience."""
    return RuleError(rule, message, counted=(), **params)


@dataclass(frozen=True, slots=True)
class _Plan:
    """A checked meld, add-on or claim: what leaves the hand or the pile, and the meld it makes."""

    cards: Cards
    index: int | None
    """The meld grown (None: a new meld)."""
    kind: str
    grown: Cards


class Mummus(GameState):
    """A match (or one round, with ``target`` 0 or none) of Mummus.

    Who acts (the engine's out-of-turn contract): :attr:`must_act` is the
    seat whose turn it is, :attr:`current`. :attr:`may_act` holds every other
    seat that could act now without being waited for: one that can add a
    card to a meld on the table and still keep one, and, while the discard
    pile holds a card that a "rummy" call could claim, every other seat.
    :meth:`act_order` orders them in turn order from the seat after the
    player to move; the driver offers them their chance in that order before
    the player to move acts again, and the first valid action wins.
    """

    game_id = GAME_ID
    PREFIX = PREFIX

    SNAPSHOT: ClassVar[Mapping[str, Field]] = {
        "piles": SavedAs(("stock", "discard"), lambda piles: {"stock": texts(piles.stock), "discard": texts(piles.discard)}),
        "hands": Saved(encode=lambda hands: [texts(h) for h in hands]),
        "known": Saved(encode=lambda known: [texts(sorted(k)) for k in known]),
        "area": Saved("melds", lambda area: [[m.kind, texts(m.pieces), list(m.laid_by)] for m in area]),
        "dealer": Saved(),
        "current": Saved(),
        "phase": Saved(),
        "turn_no": Saved("turn_number"),
        "deep": Saved(encode=lambda deep: None if deep is None else str(deep)),
        "_cached": Omit("who may act now, out of turn and at all, and if the pile holds a claim", cache=True),
        "_kept": Omit("the table and the discard pile judged, worked out from the rest", cache=True),
    }

    def __init__(self, players: Sequence[str], seed: int, options: Mapping[str, OptionValue], *, deal: bool = True) -> None:
        super().__init__(players, seed, resolve_options(len(players), options))
        n = len(self.players)
        self.piles: Piles[Card] = Piles(rule=f"{PREFIX}-PILE")
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.known: list[set[Card]] = [set() for _ in range(n)]
        self.area: MeldArea[Card] = MeldArea()
        self.dealer = 0
        self.current = 0
        self.phase = DRAW
        self.turn_no = 1
        self.deep: Card | None = None
        self._cached: tuple[int, frozenset[int], frozenset[int], bool] | None = None
        """(history length, may_act, to_act, whether the pile holds a claim) of the last position asked about."""
        self._kept: KeptSeen | None = None
        """The table and the pile of the last position asked about, judged (:mod:`~rummykit.rulesets.mummus.seen`)."""
        if deal:
            self.dealer = self.rng.below(n)
            self.first = (self.dealer + 1) % n
            self._deal_round()

    # -- setup ---------------------------------------------------------------------

    def _deal_round(self) -> None:
        n = len(self.players)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.piles = Piles(deck, (), rule=f"{PREFIX}-PILE")
        self.current = self.first
        self.dealer = (self.first - 1) % n
        self.hands = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for k in range(n):
                self.hands[(self.first + k) % n].append(self.piles.draw())
        self.known = [set() for _ in range(n)]
        self.area = MeldArea()
        self.phase = DRAW
        self.turn_no = 1
        self.deep = None
        self.emit(
            "deal",
            None,
            {
                "round": self.round_no,
                "dealer": self.dealer,
                "first": self.first,
                "hand_size": HAND_SIZE,
                "stock_size": self.piles.stock_size,
            },
        )
        for seat in range(n):
            self.emit("hand", seat, {}, {"hand": piece_texts(sorted(self.hands[seat], key=CODE))})

    # -- card points ---------------------------------------------------------------

    @property
    def values(self) -> dict[Card, int]:
        """The points of every card (option ``card_points``)."""
        return card_values(self.options["card_points"])

    def laid_points(self) -> list[int]:
        """The points of the cards each seat has put on the table this round (worked out once per table)."""
        table = self.seen().table
        if table.laid is None:
            table.laid = self.area.points(len(self.players), self.values.__getitem__)
        return list(table.laid)

    def hand_points(self) -> list[int]:
        """The points of the cards left in each hand."""
        values = self.values
        return [sum(values[c] for c in hand) for hand in self.hands]

    # -- the contract ----------------------------------------------------------------

    @property
    def table(self) -> list[Cards]:
        """The melds on the table, each in table order."""
        return [m.pieces for m in self.area]

    @property
    def turn_seat(self) -> int | None:
        """The seat whose turn it is."""
        return None if self.outcome is not None else self.current

    @property
    def turn_number(self) -> int:
        """The turn being played in this round, from 1."""
        return self.turn_no

    def current_phase(self) -> str:
        """``draw``, ``play`` or ``over``."""
        return OVER if self.outcome is not None else self.phase

    @property
    def must_act(self) -> frozenset[int]:
        """The seat whose turn it is (nobody once the match is over)."""
        if self.outcome is not None:
            return _NOBODY
        return SEATS[1 << self.current]

    @property
    def may_act(self) -> frozenset[int]:
        """Every other seat with an add-on that keeps a card, or a "rummy" claim, to make now."""
        cached = self._cached
        return cached[1] if cached is not None and cached[0] == len(self.history) else self._open()[1]

    @property
    def to_act(self) -> frozenset[int]:
        """:attr:`must_act` and :attr:`may_act` (worked out once per position)."""
        cached = self._cached
        return cached[2] if cached is not None and cached[0] == len(self.history) else self._open()[2]

    def may_act_seen_by(self, player: int | None) -> frozenset[int]:
        """All of :attr:`may_act` while the pile holds a rummy call (public); else ``player`` only (an add-on is in a hand)."""
        _key, seats, _to_act, pile_open = self._open()
        if not seats or pile_open:
            return seats
        return seats & {player} if player is not None else _NOBODY

    def seen(self) -> PileSeen:
        """The discard pile and the table of this position, judged (kept while they stay): public information."""
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptSeen()
        return kept.now(len(self.history), self.area.melds, self.piles.discard)

    def _open(self) -> tuple[int, frozenset[int], frozenset[int], bool]:
        """``may_act``, ``to_act`` and whether the pile holds a claim, worked out once per position."""
        key = len(self.history)
        cached = self._cached
        if cached is not None and cached[0] == key:
            return cached
        if self.outcome is not None:
            cached = self._cached = (key, _NOBODY, _NOBODY, False)
            return cached
        seen = self.seen()
        bits = open_seats(seen, self.hands, self.current)
        cached = self._cached = (key, SEATS[bits], SEATS[bits | 1 << self.current], seen.open)
        return cached

    def claimable(self) -> list[Card]:
        """The discard-pile cards a "rummy" call could take now, bottom first."""
        if self.outcome is not None or not self.piles.discard:
            return []
        return list(self.seen().claimable)

    def _apply(self, action: Action) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise RuleError("ACTION", f"{action!r} is not an action of {GAME_ID}")
        handler(self, action)
        self._restock()

    def explain_out_of_turn(self, action: Action) -> None:
        """Say what is wrong with an action of a seat that has nothing to do now (before ``TURN``)."""
        if self.outcome is not None:
            return
        if isinstance(action, Addon):
            self._check_addon(action)
        elif isinstance(action, Rummy):
            self._check_rummy(action)
        elif isinstance(action, Draw | Take | Meld | Discard):
            self._my_turn(action)

    # -- checks shared by the actions ------------------------------------------------

    def _my_turn(self, action: Action) -> None:
        if action.player != self.current:
            raise _err(
                "MU-TURN",
                f"you cannot {action.type} now: it is {{player}}'s turn, and out of turn you may"
                " only add on (`addon`) or call rummy (`rummy`)",
                player=self.players[self.current],
                turn_seat=self.current,
            )

    def _drawn(self, action: Action) -> None:
        if self.phase != PLAY:
            raise _err(
                "MU-DRAW-FIRST",
                f"you cannot {action.type} yet: your turn starts with a draw, `draw` from the stock or `take` from"
                " the discard pile",
            )

    def _in_hand(self, seat: int, cards: Iterable[Card]) -> None:
        hand = self.hands[seat]
        for c in cards:
            if c not in hand:
                break
        else:
            return
        missing = [c for c in cards if c not in hand]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise _err("MU-HAND", f"{format_cards(missing)} {verb} not in your hand", missing=texts(missing))

    def _keeps_a_card(self, seat: int, cards: Sequence[Card], what: str) -> None:
        if len(cards) >= len(self.hands[seat]):
            raise _err(
                "MU-KEEP-CARD",
                f"{what} would empty your hand; a round ends only when a player discards their last card,"
                " so keep a card to discard",
                cards=texts(cards),
                hand_size=len(self.hands[seat]),
            )

    def _meld_of(self, ref: Card) -> int:
        index = self.area.holding(ref)
        if index is None:
            raise _err("MU-MELD-NONE", "no meld on the table holds {card}: name a meld by one of its cards", card=str(ref))
        return index

    def _keeps_deep(self, seat: int, used: Sequence[Card], index: int | None, grown: Cards) -> None:
        """The player to move must still be able to use the deep discard with meld ``index`` (None: new) ``grown``."""
        deep = self.deep
        if deep is None or seat != self.current or deep in used:
            return
        rest = [c for c in self.hands[seat] if c not in set(used)]
        if not deep_usable(deep, rest, grown_table(self.table, index, grown)):
            raise _err(
                "MU-DEEP-KEEP",
                "after this you could no longer use {deep}, which you took from deep in the discard pile and must"
                " meld or add on this turn; use it first, or keep the cards it needs",
                deep=str(deep),
            )

    def _plan_addon(self, index: int, cards: Cards) -> _Plan:
        meld = self.area[index]
        grown = MELDS.extend(meld.pieces, cards)
        if not grown.valid:
            raise grown.error()
        assert grown.kind is not None
        return _Plan(cards, index, grown.kind, grown.pieces)

    # -- the draw ------------------------------------------------------------------

    def _check_draw(self, action: Draw) -> None:
        self._my_turn(action)
        if self.phase != DRAW:
            raise _err("MU-DRAW-ONCE", "you have drawn this turn already: meld, add on, then discard")
        if not self.piles.stock:
            raise _err("MU-STOCK-EMPTY", "the stock is empty")

    def _draw(self, action: Draw) -> None:
        self._check_draw(action)
        seat = action.player
        card = self.piles.draw()
        self.hands[seat].append(card)
        self.phase = PLAY
        self.emit("draw", seat, {"stock_size": self.piles.stock_size}, {"card": str(card)})

    def _check_take(self, action: Take) -> int:
        self._my_turn(action)
        if self.phase != DRAW:
            raise _err("MU-DRAW-ONCE", "you have drawn this turn already: meld, add on, then discard")
        index = self.piles.position(action.card)
        if index is None:
            pile = format_cards(self.piles.discard) or "empty"
            raise _err(
                "MU-TAKE",
                f"{{card}} is not in the discard pile (bottom to top: {pile})",
                card=str(action.card),
                pile=texts(self.piles.discard),
            )
        if index < len(self.piles.discard) - 1:
            taken = self.piles.discard[index:]
            if not deep_usable(action.card, [*self.hands[action.player], *taken], self.table):
                raise _err(
                    "MU-DEEP-USE",
                    f"{{card}} lies under {counted(len(taken) - 1, 'card')}; you may take it (with every card above it)"
                    " only to meld it or add it on this turn, and it fits no meld you could make or extend",
                    card=str(action.card),
                    above=texts(taken[1:]),
                )
        return index

    def _take(self, action: Take) -> None:
        index = self._check_take(action)
        seat = action.player
        deep = index < len(self.piles.discard) - 1
        taken = self.piles.take_from(index)
        self.hands[seat].extend(taken)
        self.known[seat].update(taken)
        self.deep = action.card if deep else None
        self.phase = PLAY
        self.emit(
            "take",
            seat,
            {"card": str(action.card), "cards": [str(c) for c in taken], "deep": deep, "hand_size": len(self.hands[seat])},
        )

    # -- melds, add-ons and claims ----------------------------------------------------

    def _check_meld(self, action: Meld) -> _Plan:
        self._my_turn(action)
        self._drawn(action)
        seat = action.player
        self._in_hand(seat, action.cards)
        check = MELDS.check(action.cards)
        if not check.valid:
            raise check.error()
        assert check.kind is not None
        self._keeps_a_card(seat, check.pieces, "this meld")
        self._keeps_deep(seat, check.pieces, None, check.pieces)
        return _Plan(check.pieces, None, check.kind, check.pieces)

    def _meld(self, action: Meld) -> None:
        plan = self._check_meld(action)
        self._lay(action.player, plan, from_hand=True)

    def _check_addon(self, action: Addon) -> _Plan:
        seat = action.player
        index = self._meld_of(action.meld)
        self._in_hand(seat, action.cards)
        plan = self._plan_addon(index, action.cards)
        self._keeps_a_card(seat, action.cards, "this add-on")
        self._keeps_deep(seat, action.cards, index, plan.grown)
        return plan

    def _addon(self, action: Addon) -> None:
        plan = self._check_addon(action)
        self._lay(action.player, plan, from_hand=True)

    def _check_rummy(self, action: Rummy) -> _Plan:
        seat = action.player
        if not action.cards:
            raise _err("MU-RUMMY-PILE", "a rummy call names the discard-pile cards it claims")
        missing = [c for c in action.cards if c not in self.piles.discard]
        if missing:
            pile = format_cards(self.piles.discard) or "empty"
            raise _err(
                "MU-RUMMY-PILE",
                f"a rummy call claims cards of the discard pile, and {format_cards(missing)} is not there"
                f" (bottom to top: {pile}); another player may have claimed or taken it first",
                missing=texts(missing),
                pile=texts(self.piles.discard),
            )
        if action.meld is None:
            check = MELDS.check(action.cards)
            if not check.valid:
                raise check.error()
            assert check.kind is not None
            plan = _Plan(check.pieces, None, check.kind, check.pieces)
        else:
            plan = self._plan_addon(self._meld_of(action.meld), action.cards)
        self._keeps_deep(seat, (), plan.index, plan.grown)
        return plan

    def _rummy(self, action: Rummy) -> None:
        plan = self._check_rummy(action)
        self._lay(action.player, plan, from_hand=False)

    def _lay(self, seat: int, plan: _Plan, *, from_hand: bool) -> None:
        """Put a checked meld, add-on or claim on the table and tell everyone."""
        if from_hand:
            gone = set(plan.cards)
            self.hands[seat] = [c for c in self.hands[seat] if c not in gone]
            self.known[seat] -= gone
            if self.deep is not None and self.deep in gone:
                self.deep = None
        else:
            self.piles.remove(plan.cards)
        if plan.index is None:
            index = self.area.lay(plan.kind, plan.grown, seat)
        else:
            index = plan.index
            self.area.grow(index, plan.kind, plan.grown, plan.cards, seat)
        kind = "rummy" if not from_hand else ("meld" if plan.index is None else "addon")
        data: dict[str, JSON] = {
            "meld": index,
            "cards": piece_texts(plan.cards),
            "meld_cards": piece_texts(plan.grown),
            "meld_kind": plan.kind,
            "points": sum(map(self.values.__getitem__, plan.cards)),
            "hand_size": len(self.hands[seat]),
            "in_turn": seat == self.current,
        }
        if kind == "rummy":
            data["new"] = plan.index is None
            data["discard"] = [str(c) for c in self.piles.discard]
        self.emit(kind, seat, data)

    # -- the discard and the end of a turn ----------------------------------------------

    def _check_discard(self, action: Discard) -> None:
        self._my_turn(action)
        self._drawn(action)
        self._in_hand(action.player, (action.card,))
        if self.deep is not None:
            raise _err(
                "MU-DEEP-PLAY",
                "you took {deep} from deep in the discard pile: meld it or add it on before you discard;"
                " the turn cannot end until you do",
                deep=str(self.deep),
            )

    def _discard(self, action: Discard) -> None:
        self._check_discard(action)
        seat = action.player
        self.hands[seat].remove(action.card)
        self.known[seat].discard(action.card)
        self.piles.put(action.card)
        self.emit("discard", seat, {"card": str(action.card), "hand_size": len(self.hands[seat])})
        if not self.hands[seat]:
            self._end_round("out", seat)
            return
        if self.turn_no >= self.options["max_turns"]:
            self._end_round("max-turns", None)
            return
        self.current = (seat + 1) % len(self.players)
        self.turn_no += 1
        self.phase = DRAW
        self.deep = None

    def _restock(self) -> None:
        """Once the stock is empty, shuffle the discard pile into a new stock (automatic, seeded)."""
        if self.outcome is not None or self.piles.stock or not self.piles.discard:
            return
        size = self.piles.reshuffle(self.rng)
        self.emit("reshuffle", None, {"stock_size": size})

    # -- the end of a round ------------------------------------------------------------

    def round_scores(self) -> tuple[list[int], list[int], tuple[int, ...]]:
        """Points laid on the table, points left in hand, and each seat's score (laid minus left)."""
        laid = self.laid_points()
        left = self.hand_points()
        return laid, left, tuple(a - b for a, b in zip(laid, left, strict=True))

    def _end_round(self, reason: str, out: int | None) -> None:
        laid, left, scores = self.round_scores()
        if out is not None:
            winners: tuple[int, ...] = (out,)
        else:
            best = max(scores)
            winners = tuple(s for s, v in enumerate(scores) if v == best)
        detail: dict[str, JSON] = {
            "out": out,
            "laid_points": laid,
            "hand_points": left,
            "hands": [piece_texts(sorted(h, key=CODE)) for h in self.hands],
        }
        self.phase = OVER
        self.deep = None
        if self.finish_round(winners, scores, reason, detail):
            return
        self._deal_round()

    # -- listing -----------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal action of ``player`` now (see :func:`list_actions`); empty if it may not act."""
        if player not in self.to_act:
            return []
        hand = self.hands[player]
        have = sum(map(BIT.__getitem__, hand))  # a hand holds each card once (one deck)
        return listing(player, player == self.current, self.phase, hand, have, self.seen(), len(self.piles.stock), self.deep)

    def all_claims(self) -> list[tuple[Cards, Card | None]]:
        """Every "rummy" claim the discard pile allows now (cards, and a card of the meld they extend)."""
        return list(self.seen().claims) if self.piles.discard else []

    # -- views ---------------------------------------------------------------------------

    def piece_counts(self) -> list[int]:
        """The cards in each seat's hand."""
        return [len(h) for h in self.hands]

    def stock_count(self) -> int | None:
        """The cards left in the stock."""
        return self.piles.stock_size

    def hidden_slots(self, seat: int | None) -> list[Slot]:
        """The cards of the other hands that no seat saw taken, then the stock (for :meth:`redeal_hidden`)."""
        return [*unseen_slots(self.hands, self.known, seat), *every_slot(self.piles.stock)]

    def view(self, player: int | None) -> MummusView:
        """What ``player`` may see (``None``: a spectator): see :class:`MummusView`."""
        return build_view(self, player)

    def position(self) -> str:
        """This position as a one-line string (the start of a turn only; see ``from_position``)."""
        if self.outcome is not None or self.phase != DRAW:
            raise _err("MU-POSITION", f"a position string describes the start of a turn; the game is at {self.current_phase()}")
        from rummykit.rulesets.mummus.position import position_text  # the position module builds states

        return position_text(self)


_HANDLERS: dict[type[Action], Callable[..., None]] = {
    Draw: Mummus._draw,
    Take: Mummus._take,
    Meld: Mummus._meld,
    Addon: Mummus._addon,
    Rummy: Mummus._rummy,
    Discard: Mummus._discard,
}
