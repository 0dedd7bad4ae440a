"""The judged answers a grid carries over (session 11: copied whole when the change touches no reach) are
exactly those whose reach the change did not touch, and each grid's ``reached`` is the union of its answers'
reaches."""

from __future__ import annotations

import random

from two_tray_games import play_seeded

from rummykit.blocks.grid import Cell
from rummykit.rulesets.two_tray.judged import _Judged
from rummykit.rulesets.two_tray.listing import _judged
from rummykit.rulesets.two_tray.state import TwoTray


def _union(judged: _Judged) -> set[Cell]:
    out: set[Cell] = set()
    for kept in (judged.lay_offs, judged.calls, judged.crossings):
        for value in kept.values():
            out.update(value[1])
    return out


def test_carried_answers_are_those_the_change_does_not_reach() -> None:
    rng = random.Random(14)
    seen = {"copied": 0, "filtered": 0, "answers": 0}

    def check(state: TwoTray) -> None:
        for seat in state.to_act:
            state.legal_actions(seat)  # the listing judges on this grid
        judged = _judged(state.grid)
        assert judged.reached == _union(judged)
        cells = sorted(judged.reached) or sorted(state.grid.cells) or [(0, 0)]
        for _ in range(3):
            # A change inside some reach, or next to it, or far away.
            r, c = rng.choice(cells)
            changed = frozenset({(r + rng.choice((0, 0, 1, 5)), c + rng.choice((0, -1, 9)))})
            child = _Judged(judged, changed)
            for name in ("lay_offs", "calls", "crossings"):
                parent_answers = getattr(judged, name)
                assert getattr(child, name) == {k: v for k, v in parent_answers.items() if changed.isdisjoint(v[1])}
            assert child.reached == _union(child)
            assert not child.listed
            seen["copied" if changed.isdisjoint(judged.reached) else "filtered"] += 1
            seen["answers"] += len(child.lay_offs) + len(child.calls) + len(child.crossings)

    play_seeded(12, check)
    assert seen["copied"] > 200 and seen["filtered"] > 200 and seen["answers"] > 1000, seen
