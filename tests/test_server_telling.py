"""What a room tells each audience is what that audience's own narrator would tell, made once where it is public.

``rummykit.server.telling.Teller`` narrates each public event once for every
audience (with a :class:`~rummykit.presenters.base.SharedNarrator`) and keeps
the position's views and legal actions per position; these tests hold it to
the plain way (one narrator per audience told every event as it sees it; a
fresh view and listing each time), over seeded random games of every game,
with the audiences asking at random moments and the frames written as the
server writes them. A seat's log never holds another seat's secret.
"""

from __future__ import annotations

import json
import random

import pytest

from rummykit.catalogue import games, new_game
from rummykit.engine.core import GameState
from rummykit.presenters.base import SharedNarrator
from rummykit.presenters.registry import presenter_for
from rummykit.presenters.text import Style
from rummykit.server.outbox import SPECTATORS, frame_text
from rummykit.server.questions import listing
from rummykit.server.telling import Teller
from rummykit.session import GameSession

STYLE = Style(color=False, width=0)
GAMES = [info.id for info in games()]


def _own_lines(state: GameState, game: str, audience: int) -> list[str]:
    narrator = presenter_for(game).narrator(list(state.players), STYLE)
    seat = None if audience == SPECTATORS else audience
    return [line for event in state.history for line in narrator.describe(event.seen_by(seat))]


@pytest.mark.parametrize("game", GAMES)
def test_each_audience_is_told_what_its_own_narrator_tells(game: str) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        info = next(i for i in games() if i.id == game)
        state = new_game(game, players=3 if seed == 2 and info.max_players >= 3 else 2, seed=seed)
        teller = Teller(presenter_for(game), STYLE, GameSession(state, [None] * len(state.players)))
        audiences = [SPECTATORS, *range(len(state.players))]
        for _ in range(120):
            if state.outcome is not None:
                break
            seat = rng.choice(sorted(state.must_act or state.may_act))
            state.apply(rng.choice(state.legal_actions(seat)))
            for audience in rng.sample(audiences, rng.randint(0, len(audiences))):
                assert teller.lines(audience) == _own_lines(state, game, audience), (game, seed, audience)
        for audience in audiences:
            assert teller.lines(audience) == _own_lines(state, game, audience), (game, seed, audience)


def test_the_free_table_narrators_share_and_a_secret_stays_with_its_seat() -> None:
    state = new_game("rummikub", players=2, seed=4)
    teller = Teller(presenter_for("rummikub"), STYLE, GameSession(state, [None, None]))
    assert isinstance(teller.shared, SharedNarrator)
    rng = random.Random(4)
    for _ in range(60):
        seat = min(state.must_act)
        state.apply(rng.choice(state.legal_actions(seat)))
    for seat in (0, 1):
        other = state.players[1 - seat]
        told = "\n".join(teller.lines(seat))
        drawn = [e.secret["piece"] for e in state.history if e.player == 1 - seat and "piece" in e.secret]
        assert drawn and f"{other} draws a tile" in told
        assert f"{other}'s rack" not in told and not any(f"{other} draws {piece} " in told for piece in drawn)
        assert f"{state.players[seat]}'s rack" in told


@pytest.mark.parametrize("game", ["rummikub", "two-tray", "mummus", "conveyor"])
def test_views_and_listings_are_made_once_per_position_and_are_the_fresh_ones(game: str) -> None:
    state = new_game(game, players=2, seed=7)
    teller = Teller(presenter_for(game), STYLE, GameSession(state, [None, None]))
    rng = random.Random(7)
    for seq in range(1, 40):
        if state.outcome is not None:
            break
        seat = rng.choice(sorted(state.must_act or state.may_act))
        state.apply(rng.choice(state.legal_actions(seat)))
        for audience in (SPECTATORS, 0, 1):
            view = teller.view(audience, seq, "playing")
            assert teller.view(audience, seq, "playing") is view
            fresh = state.view(None if audience == SPECTATORS else audience)
            assert json.loads(frame_text(view)) == json.loads(json.dumps(fresh))
        for s in (0, 1):
            legal = teller.legal(s, seq, "playing")
            assert teller.legal(s, seq, "playing") is legal
            assert json.loads(frame_text(legal)) == json.loads(json.dumps(listing(state, s)))
            assert teller.legal(s, seq, "waiting") == {"actions": [], "truncated": False}
        assert teller.legal(None, seq, "playing") is None
