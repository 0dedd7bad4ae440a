"""Two-tray's pick by index (``TwoTray.pick_listed``) makes exactly the listing's action at that index.

The random bot chooses by index (:class:`~rummykit.engine.driver.IndexingAgent`);
two-tray then counts its listing and makes only the action chosen
(:func:`~rummykit.rulesets.two_tray.picking.pick`). Here every index of
every position of seeded games is compared with ``legal_actions``.
"""

from __future__ import annotations

import random
from collections import Counter

from rummykit.blocks.grid import Cell, Put
from rummykit.bots.random import RandomBot
from rummykit.bots.registry import make_bot
from rummykit.catalogue import find_game, new_game
from rummykit.engine.core import Event, GameState
from rummykit.engine.driver import next_seat
from rummykit.engine.rng import Rng
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile
from rummykit.rulesets.two_tray.actions import Play
from rummykit.rulesets.two_tray.calls import call_options
from rummykit.rulesets.two_tray.listing import (
    _call_options,
    _in_no_group,
    _joker_cells,
    _judged,
    listed_holds,
)
from rummykit.rulesets.two_tray.options import GRID, TileGrid
from rummykit.rulesets.two_tray.state import TwoTray
from rummykit.rulesets.two_tray.trays import holds_all as _holds_all
from rummykit.sim import bot_rng, run_bots


def _check_every_index(state: TwoTray, seat: int) -> int:
    actions = state.legal_actions(seat)
    counts: list[int] = []
    for i in range(len(actions)):

        def choose(player: int, count: int, _rng: Rng, i: int = i) -> int:
            assert player == seat
            counts.append(count)
            return i

        picked = state.pick_listed(seat, choose, Rng(0))
        assert picked == actions[i]
        assert type(picked) is type(actions[i])
        assert str(picked) == str(actions[i])
        if isinstance(picked, Play) and state.down[seat]:
            # The play check takes the picked play's judgement as it takes a listed one's.
            assert id(picked.changes) in _judged(state.grid).listed
            assert listed_holds(state.grid, picked.changes)
    assert counts == [len(actions)] * len(actions)
    return len(actions)


def _jokers_plain(grid: TileGrid) -> tuple[Cell, ...]:
    return tuple(sorted(c for c, t in grid.cells.items() if t is JOKER))


def _check_jokers(grid: TileGrid, k: int) -> None:
    """The jokers' cells worked out from the grid changed from (kept with it) against a plain scan."""
    assert _joker_cells(grid) == _jokers_plain(grid)
    cells = sorted(grid.cells)
    if len(cells) > 3:
        # Jokers put in, tiles taken off (jokers among them) and moved, from a grid whose jokers are known.
        put = [Put(r, c, JOKER) for r, c in cells[k % 3 :: 5]]
        gone: list[Put[Tile]] = [Put(r, c, None) for r, c in cells[(k + 1) % 4 :: 7]]
        moved = Put(cells[0][0] - 1, cells[0][1], JOKER if k % 2 else grid.cells[cells[-1]])
        for changes in (put, gone, [*gone, moved], [moved]):
            other = grid.changed(changes, GRID.is_joker)
            assert _joker_cells(other) == _jokers_plain(other)
            again = other.changed(put, GRID.is_joker)
            assert _joker_cells(again) == _jokers_plain(again)
            for g in (other, again):
                for joker in _jokers_plain(g):
                    # A joker in no possible 3-tile group: no call options, as call_options finds.
                    if _in_no_group(g, joker) is not None:
                        assert call_options(g, joker) == []
                    assert _call_options(g, joker, _judged(g)) == tuple(call_options(g, joker))


def test_holds_all_is_the_counters_answer() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        held = rng.choices(ALL_TILES[:12], k=rng.randrange(0, 9))
        tiles = rng.choices(ALL_TILES[:12], k=rng.randrange(1, 6))
        assert _holds_all(held, tiles) == (not Counter(tiles) - Counter(held))


def test_pick_listed_is_the_listed_action_at_every_index() -> None:
    kinds: set[str] = set()
    checked = 0

    def check(state: GameState, _events: list[Event]) -> None:
        nonlocal checked
        assert isinstance(state, TwoTray)
        if state.outcome is not None:
            return
        seat = next_seat(state)
        assert seat is not None
        checked += _check_every_index(state, seat)
        _check_jokers(state.grid, checked)
        kinds.update(type(a).__name__ for a in state.legal_actions(seat))
        kinds.add(f"down={state.down[seat]}")
        if state.continuing:
            kinds.add("continuing")
        if not state.pool:
            kinds.add("no pool")
        # A seat that may not act: nothing listed, and the same refusal.
        other = 1 - seat
        if other not in state.to_act:
            try:
                state.pick_listed(other, lambda _p, count, _r: count, Rng(0))
            except IndexError:
                pass
            else:  # pragma: no cover - the listing is empty
                raise AssertionError("picked from an empty listing")

    for seed in range(6):
        for pair in (("random", "random"), ("greedy", "random")):
            state = new_game("two-tray", players=2, seed=seed)
            run_bots(state, [make_bot(name, "two-tray") for name in pair], on_event=check)
    assert checked > 1000
    assert {"Call", "Draw", "Pass", "Play", "down=True", "down=False", "no pool"} <= kinds


def test_random_games_are_those_of_the_listing() -> None:
    # The random bot's pick by index against its pick from the whole listing: the same games.
    for seed in range(10):
        fast = new_game("two-tray", players=2, seed=seed)
        run_bots(fast, [make_bot("random", "two-tray") for _ in range(2)])
        plain = new_game("two-tray", players=2, seed=seed)
        bots = [RandomBot(find_game("two-tray")) for _ in range(2)]
        rngs = [bot_rng(plain.seed, seat) for seat in range(2)]
        while plain.outcome is None:
            seat = next_seat(plain)
            assert seat is not None
            plain.apply(bots[seat].choose_listed(seat, plain.legal_actions(seat), rngs[seat]))
        assert [str(a) for a in fast.actions] == [str(a) for a in plain.actions]
