"""The free-table view's table texts (``map`` of ``set_texts``) against writing each piece with ``str``; the
header's rounds (no list comprehension when there are none) against writing each one."""

from __future__ import annotations

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.rulesets.freetable import FreeTableGame
from rummykit.sim import run_bots


def test_view_table_is_each_piece_written_out() -> None:
    checked = 0
    for game in ("rummikub", "domino-rummikub"):
        for seed in range(6):
            state = new_game(game, players=2 + seed % 3, seed=seed)
            assert isinstance(state, FreeTableGame)
            bots = [make_bot("greedy", game) for _ in state.players]

            def check(s: object, _events: object) -> None:
                nonlocal checked
                assert isinstance(s, FreeTableGame)
                for seat in (None, *range(len(s.players))):
                    view = s.view(seat)
                    plain = [[str(p) for p in t] for t in s.table]
                    assert view["table"] == plain
                    assert view["rounds"] == [r.to_json() for r in s.rounds]  # the header's short cut when empty
                checked += 1

            run_bots(state, bots, on_event=check)
            play = [e for e in state.history if e.kind == "play"]
            if play:
                assert play[-1].data["table"] == [[str(p) for p in t] for t in state.table]
    assert checked > 100
