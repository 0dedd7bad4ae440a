"""The free-table view's table texts (copies of ``set_texts``) against writing each piece with ``str``; the
header's rounds (no list comprehension when there are none) against writing each one."""

from __future__ import annotations

import json

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


def test_views_share_no_list() -> None:
    # Table texts are kept per set and shared by the play events (history is read-only), but each view gets
    # lists of its own: a caller that changes a view changes neither the next view nor the game's history (and
    # so not its record).
    for game in ("rummikub", "domino-rummikub"):
        state = new_game(game, players=2, seed=5)
        assert isinstance(state, FreeTableGame)
        run_bots(state, [make_bot("greedy", game) for _ in state.players])
        plays = [e for e in state.history if e.kind == "play"]
        assert plays and state.table
        history = [json.dumps(e.seen_by(None)) for e in state.history]
        view, kept = state.view(0), state.view(0)
        for texts in view["table"]:
            texts.append("changed")
        view["table"].append(["changed"])
        assert state.view(0) == kept and "changed" not in str(kept)
        assert [json.dumps(e.seen_by(None)) for e in state.history] == history
