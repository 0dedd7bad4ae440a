"""Rummikub's typed seat view, and greedy choosing from it, each held to the plain computation.

- :func:`~rummykit.rulesets.freetable_views.seat_view` shows exactly what the
  seat's text view shows (every field, read back from the view's texts), and
  nothing else (its fields are the view's);
- greedy choosing from the typed view (``choose_seen``, the driver's path,
  with its memo kept in tiles) chooses at every turn what a fresh bot chooses
  from the text view, and what a bot kept on the text path chooses;
- :func:`~rummykit.bots.greedy_shapes.seen_set` against
  :func:`~rummykit.bots.greedy_shapes.view_set` of the same set's texts;
- the driver gives the view to a bot when the game writes its own view.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rummykit.bots.greedy import GreedyBot
from rummykit.bots.greedy_shapes import seen_set, seen_sets, view_set
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action
from rummykit.engine.driver import next_seat, step
from rummykit.engine.rng import Rng
from rummykit.pieces.tiles import Tile
from rummykit.rulesets.freetable import FreeTableView
from rummykit.rulesets.freetable_views import SeatView
from rummykit.rulesets.rummikub import Rummikub
from rummykit.sim import bot_rng

VIEW_FIELDS = {"seat", "to_act", "options", "table", "rack", "down", "pool_size"}


def _same_as_view(seen: SeatView[Tile], view: FreeTableView) -> None:
    assert seen.seat == view["seat"]
    assert seen.to_act == frozenset(view["to_act"])
    assert seen.options == view["options"]
    assert [[str(t) for t in s] for s in seen.table] == view["table"]
    assert [str(t) for t in seen.rack] == view["rack"]
    assert list(seen.down) == view["down"]
    assert seen.pool_size == view["pool_size"]


def test_the_seat_view_holds_nothing_but_the_views_fields() -> None:
    assert set(SeatView.__slots__) == VIEW_FIELDS


@pytest.mark.parametrize(("players", "levels"), [(2, ("greedy", "random")), (3, ("random",)), (4, ("greedy",))])
def test_the_seat_view_is_the_seats_view_read_back(players: int, levels: tuple[str, ...]) -> None:
    steps = 0
    for seed in range(6):
        state = new_game("rummikub", players=players, seed=seed)
        bots = [make_bot(levels[s % len(levels)], "rummikub") for s in range(players)]
        rngs = [bot_rng(seed, s) for s in range(players)]
        while state.outcome is None and next_seat(state) is not None:
            for seat in range(players):
                seen = state.seat_view(seat)
                assert seen is not None
                _same_as_view(seen, state.view(seat))
            step(state, bots, rngs)
            steps += 1
        assert state.seat_view(players) is None  # no such seat
    assert steps > 200


class _Both:
    """Greedy through the driver's typed path; every choice also asked of a fresh bot and of a bot kept on
    the text path, from the seat's text view of the same position."""

    level = "greedy"

    def __init__(self, state: Rummikub) -> None:
        self.state = state
        info = state.info
        self.typed = GreedyBot(info)
        self.texts = GreedyBot(info)
        self.turns = 0

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        raise AssertionError("the driver hands rummikub's greedy its typed view")

    def choose_seen(self, seen: SeatView[Tile], rng: Rng) -> Action:
        view = self.state.view(seen.seat)
        _same_as_view(seen, view)
        action = self.typed.choose_seen(seen, rng)
        assert action == self.texts.choose(view, rng)
        assert action == GreedyBot(self.state.info).choose(view, rng)
        self.turns += 1
        return action


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_from_the_typed_view_chooses_as_from_the_text_view(players: int) -> None:
    turns = 0
    for seed in range(12):
        state = new_game("rummikub", players=players, seed=seed)
        bots = [_Both(state) for _ in range(players)]
        rngs = [bot_rng(seed, s) for s in range(players)]
        while state.outcome is None and next_seat(state) is not None:
            step(state, bots, rngs)
        turns += sum(b.turns for b in bots)
        assert all(b.typed.fallbacks == 0 for b in bots)
    assert turns > 300


def test_seen_set_is_view_set_of_the_texts() -> None:
    sets = 0
    for seed in range(10):
        state = new_game("rummikub", players=4, seed=seed)
        bots = [make_bot("greedy", "rummikub") for _ in range(4)]
        rngs = [bot_rng(seed, s) for s in range(4)]
        while state.outcome is None and next_seat(state) is not None:
            for s in state.table:
                assert seen_set(s) == view_set([str(t) for t in s])[1:]
                sets += 1
            normal, shapes = seen_sets(state.table)
            assert list(zip(normal, shapes, strict=True)) == [view_set([str(t) for t in s])[1:] for s in state.table]
            step(state, bots, rngs)
    assert sets > 1000


class _OwnView(Rummikub):
    def view(self, player: int | None) -> FreeTableView:
        return super().view(player)


def test_a_game_with_a_view_of_its_own_gives_the_bot_its_view() -> None:
    base = new_game("rummikub", players=2, seed=3)
    state = _OwnView(base.players, 3, base.options)
    assert state.seat_view(0) is None
    seen: list[object] = []

    class Spy(GreedyBot):
        def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
            seen.append(view)
            return super().choose(view, rng)

    bots = [Spy(state.info), Spy(state.info)]
    step(state, bots, [Rng(0), Rng(1)])
    assert len(seen) == 1 and isinstance(seen[0], dict)
