"""Two-tray's ``strong`` bot: from the view only, deterministic, its advice is its choice, and the line prompt's hint."""

from __future__ import annotations

from rummykit.bots.registry import make_bot
from rummykit.bots.strong import Advisor
from rummykit.bots.two_tray_strong import TwoTrayStrongBot
from rummykit.engine.rng import Rng
from rummykit.presenters import presenter_for
from rummykit.presenters.text import Style
from rummykit.presenters.turn import Turn, help_lines
from rummykit.rulesets.two_tray import GRID, INFO, Draw, Play, TwoTray, from_position, grid_from_view

MINE = "A[R4 R5 K9 K10 K11 B7 O7 J] B[O1 O2 O3]"
POSITION = "grid: 0,0: R1 R2 R3 / . . . / K7 K8 K9 K10; trays: {mine} / {theirs}; pool: seed {seed}; next: A B; down: 11"


def _state(theirs: str, seed: int) -> TwoTray:
    return from_position(POSITION.format(mine=MINE, theirs=theirs, seed=seed))


def test_the_choice_is_the_same_when_the_hidden_tiles_are_shuffled() -> None:
    one = _state("A[K1 B1 O1 B13] B[K2 B2 O2]", 3)
    two = _state("A[K5 B5 O5 O12] B[K6 B6 O6]", 9)
    assert one.view(0) == two.view(0)
    assert one.pool != two.pool and one.trays.pieces(1) != two.trays.pieces(1)
    bot = make_bot("strong:iterations=60", "two-tray")
    first = bot.choose(one.view(0), Rng(1))
    second = bot.choose(two.view(0), Rng(2))
    assert first == second and isinstance(first, Play)


def test_deterministic_for_a_view_and_iterations() -> None:
    state = _state("A[K1 B1 O1 B13] B[K2 B2 O2]", 3)
    actions = {str(make_bot("strong:iterations=40", "two-tray").choose(state.view(0), Rng(seed))) for seed in range(3)}
    assert len(actions) == 1


def test_advice_is_the_choice_with_steps_a_person_follows() -> None:
    state = _state("A[K1 B1 O1 B13] B[K2 B2 O2]", 3)
    bot = make_bot("strong:iterations=60", "two-tray")
    assert isinstance(bot, Advisor) and isinstance(bot, TwoTrayStrongBot)
    advice = bot.advise(state.view(0), Rng(0))
    assert advice.action == bot.choose(state.view(0), Rng(0))
    assert isinstance(advice.action, Play)
    assert "tiles worth" in advice.reason and "tray A" in advice.reason
    # One step per tile placed (or table tile moved); the steps lay out exactly the play, cells from 1.
    places = [step for step in advice.steps if step.startswith("place")]
    before = len(state.trays.rack(0, "A"))
    grid = grid_from_view(state.view(0))
    new = grid.changed(advice.action.changes, GRID.is_joker)
    for step in advice.steps:
        if step.startswith("place"):
            tile, cell = step.split("(type: place ")[1].rstrip(")").split()
            row, col = (int(x) - 1 for x in cell.split(","))
            assert str(new[(row, col)]) == tile
    state.apply(advice.action)  # the engine accepts it
    assert len(places) == before - len(state.trays.rack(0, "A")) > 0


def test_make_bot_reads_the_budget_and_plays_a_game() -> None:
    bot = make_bot("strong:iterations=3", "two-tray")
    assert bot.level == "strong" and isinstance(bot, TwoTrayStrongBot) and bot.budget.iterations == 3
    import rummykit

    state = rummykit.new_game("two-tray", seed=7)
    bots = [bot, make_bot("greedy", "two-tray")]
    rng = Rng(0)
    for _ in range(30):
        if state.outcome is not None:
            break
        seat = next(iter(state.to_act))
        state.apply(bots[seat].choose(state.view(seat), rng))
    assert state.turn_number > 10


def test_nothing_to_play_draws_onto_the_weaker_tray() -> None:
    state = from_position("trays: A[K1 B5 O9 R13 K2] B[R1 R2 R3 B7 K7] / A[K1] B[K2]; pool: seed 1")
    bot = make_bot("strong:iterations=60", "two-tray")
    action = bot.choose(state.view(0), Rng(0))
    assert action == Draw(0, "A")  # neither tray reaches 30; tray A makes no set, so it takes the tile
    assert isinstance(bot, Advisor) and "draw" in bot.advise(state.view(0), Rng(0)).reason


def test_hint_at_the_line_prompt_shows_the_steps_and_plays_nothing() -> None:
    state = _state("A[K1 B1 O1 B13] B[K2 B2 O2]", 3)
    said: list[str] = []
    presenter = presenter_for("two-tray")
    assert presenter.hint
    turn = presenter.turn(state.view(0), say=lambda *lines: said.extend(lines), style=Style())
    assert isinstance(turn, Turn)
    assert turn.command("hint") is None
    text = "\n".join(said)
    assert text.startswith("hint: ") and "why: it places" in text and "place R4" in text
    assert "1. " in text and "(type: play A" in text
    assert len(state.actions) == 0
    assert any(line.strip().startswith("hint") for line in help_lines(INFO, turn.display, turn.view))
    assert said[0].startswith(presenter.hint_lines(state.view(0))[0][:60])
