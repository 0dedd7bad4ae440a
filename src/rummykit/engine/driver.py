"""The step driver: who is asked to act next, used by every loop that plays a game.

A state says which seats it waits for (:attr:`~rummykit.engine.core.GameState.must_act`)
and which may act without being waited for (:attr:`~rummykit.engine.core.GameState.may_act`:
claims and calls out of turn), and orders seats that act at once with
:meth:`~rummykit.engine.core.GameState.act_order`. The driver applies one
rule everywhere (the bot loop, the line prompt, and later the server and the
terminal app):

1. the seats that *may* act are offered the chance first, in priority order;
   each answers with an action or ``None`` (no claim). The first action
   given is applied, and the step ends;
2. otherwise the first seat in priority order among those that *must* act
   chooses an action, which is applied.

Each step applies exactly one action, so a record (the applied actions in
order) replays to the same state, and the order in which seats are asked
never depends on seat numbers alone.

>>> from rummykit.catalogue import new_game
>>> from rummykit.bots.registry import make_bot
>>> from rummykit.engine.rng import Rng
>>> state = new_game('rummikub', players=2, seed=5)
>>> agents = [make_bot('random', 'rummikub'), make_bot('random', 'rummikub')]
>>> rngs = [Rng(1), Rng(2)]
>>> seat = next_seat(state)
>>> step(state, agents, rngs)[0].player == seat
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from rummykit.engine.core import Action, Event, GameState
from rummykit.engine.rng import Rng


class Agent(Protocol):
    """Anything that chooses actions from views: a bot, a person at an interface, a network client."""

    level: str

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        """An action for ``view['seat']``, which the game is waiting for."""
        ...


@runtime_checkable
class Claimer(Protocol):
    """An agent that may also act when the game does not wait for it (claims, calls)."""

    def claim(self, view: Mapping[str, object], rng: Rng) -> Action | None:
        """An action the seat may take now although not waited for, or None to let it pass."""
        ...


@runtime_checkable
class ListingAgent(Protocol):
    """An agent that chooses from its seat's own listing of legal actions instead of from a view.

    The driver then hands it ``state.legal_actions(seat)`` and builds no view
    (it looks for each method on its own: an agent with ``choose_listed`` only
    is asked for claims from views, as a :class:`Claimer`).
    Only a game's listing that depends on nothing but what the seat may see
    qualifies: every game's listing equals the one its
    :attr:`~rummykit.engine.core.GameInfo.view_actions` makes from the seat's
    view, element by element and in order (``tests/test_listing_fast_path.py``),
    so an agent choosing from it plays exactly as it would from the view.
    """

    def choose_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action:
        """An action of ``seat`` (which the game is waiting for) among ``actions``, its listing."""
        ...

    def claim_listed(self, seat: int, actions: list[Action], rng: Rng) -> Action | None:
        """Out of turn: an action among ``actions``, or None to let the chance pass."""
        ...


@runtime_checkable
class IndexingAgent(Protocol):
    """A :class:`ListingAgent` whose choice needs only the listing's length: it picks an index.

    When the state can pick from its listing by index (``pick_listed``, as the
    free-table games do), the driver asks the agent for an index into the
    seat's listing of ``count`` actions and the game makes only the action at
    that index: the same action :meth:`ListingAgent.choose_listed` would take
    from the whole listing with the same generator (``tests/test_pick_listed.py``).
    """

    def choose_index(self, seat: int, count: int, rng: Rng) -> int:
        """The index of the chosen action among ``count`` (the seat's listing, which the game waits for)."""
        ...


class SeeingAgent(Protocol):
    """An agent that reads a seat's view as the game's own objects instead of its text.

    When the state offers ``seat_view(seat)`` (a typed copy of what that seat's
    view shows and nothing more, e.g. rummikub's
    :class:`~rummykit.rulesets.freetable_views.SeatView`) and it is not None,
    the driver hands that to :meth:`choose_seen` and builds no view; otherwise
    the agent's ``choose`` gets the view. The agent must choose the same action
    either way (``tests/test_rk_greedy10_seat_view.py`` for rummikub's greedy).
    """

    def choose_seen(self, seen: object, rng: Rng) -> Action:
        """An action of ``seen.seat`` (which the game is waiting for), from the seat's typed view."""
        ...


def next_seat(state: GameState) -> int | None:
    """The seat that must act next by the priority rule (None once nobody must act)."""
    waiting = state.must_act
    if not waiting:
        return None
    if len(waiting) == 1:
        for seat in waiting:
            return seat  # one seat waited for is first in any order
    return state.act_order(waiting)[0]


def claims_open(state: GameState) -> list[int]:
    """The seats that may act without being waited for, in priority order."""
    seats = state.may_act - state.must_act
    return state.act_order(seats) if seats else []


def step(state: GameState, agents: Sequence[Agent | None], rngs: Sequence[Rng]) -> list[Event]:
    """Apply one action chosen by the agents, by the driver's rule; returns its events.

    ``agents[seat]`` may be None for a seat that only a caller outside the
    driver plays (it is never asked here). Raises ``RuntimeError`` when the
    seat that must act has no agent. A :class:`ListingAgent` gets its seat's
    listing of legal actions instead of a view; an :class:`IndexingAgent`, where
    the state picks by index (``pick_listed``), only the listing's length; a
    :class:`SeeingAgent`, where the state offers it, the seat's typed view.
    """
    for seat in claims_open(state) if state.may_act else ():
        agent = agents[seat]
        # Plain attribute look-ups: isinstance against a runtime-checkable Protocol costs
        # more than a random bot's whole choice.
        claim_listed = getattr(agent, "claim_listed", None)
        if claim_listed is not None:
            action = claim_listed(seat, state.legal_actions(seat), rngs[seat])
            if action is not None:
                return state.apply(action)
        elif isinstance(agent, Claimer):
            action = agent.claim(state.view(seat), rngs[seat])
            if action is not None:
                return state.apply(action)
    waiting = next_seat(state)
    if waiting is None:
        raise RuntimeError("nobody must act: the game is over")
    agent = agents[waiting]
    if agent is None:
        raise RuntimeError(f"seat {waiting} must act and has no agent")
    choose_index = getattr(agent, "choose_index", None)
    if choose_index is not None:
        pick_listed = getattr(state, "pick_listed", None)
        if pick_listed is not None:
            return state.apply(pick_listed(waiting, choose_index, rngs[waiting]))
    choose_listed = getattr(agent, "choose_listed", None)
    if choose_listed is not None:
        return state.apply(choose_listed(waiting, state.legal_actions(waiting), rngs[waiting]))
    choose_seen = getattr(agent, "choose_seen", None)
    if choose_seen is not None:
        seen_by = getattr(state, "seat_view", None)
        seen = None if seen_by is None else seen_by(waiting)
        if seen is not None:
            return state.apply(choose_seen(seen, rngs[waiting]))
    return state.apply(agent.choose(state.view(waiting), rngs[waiting]))
