"""The same seed and the same person's lines give byte-identical records through every interface.

Each game is played to its end through the line prompt and through the
terminal app (:mod:`session_interfaces`), a person at one seat typing the
lines a :class:`~session_interfaces.Typist` chooses from the live game, bots
at the others. Both interfaces ask the one game session who acts, so the
records (actions, seats, each bot's generator) must match to the byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from session_interfaces import INTERFACES, Typist

import rummykit
from rummykit.bots.base import Bot, make_bot
from rummykit.records import parse_record, read_record

CASES = [
    # game, players, the person's seat, bot level, seed, options
    ("conveyor", 3, 0, "greedy", 7, {"target": 0, "jump_ins": True}),
    ("conveyor", 2, 1, "random", 4, {"target": 0}),
    ("mummus", 3, 1, "random", 3, {"target": 0}),  # a bot lets a claim pass before the person does
    ("mummus", 4, 2, "greedy", 10, {"target": 0}),
    ("rummikub", 2, 0, "greedy", 4, {}),
]


def seats(game: str, players: int, person: int, level: str) -> list[Bot | None]:
    return [None if seat == person else make_bot(level, game) for seat in range(players)]


@pytest.mark.parametrize(("game", "players", "person", "level", "seed", "options"), CASES)
def test_the_prompt_and_the_app_save_the_same_record(
    game: str, players: int, person: int, level: str, seed: int, options: dict[str, Any], tmp_path: Path
) -> None:
    records: dict[str, str] = {}
    typed: dict[str, list[tuple[int, str]]] = {}
    for name, interface in INTERFACES.items():
        state = rummykit.new_game(game, players=players, seed=seed, **options)
        typist = Typist(state)
        records[name] = interface(state, seats(game, players, person, level), typist, tmp_path / f"{name}.txt")
        typed[name] = typist.typed
        assert state.outcome is not None
        assert read_record(records[name]).snapshot() == state.snapshot()
    first, *others = INTERFACES
    for name in others:
        assert typed[name] == typed[first], name
        assert records[name] == records[first], name
    lines = typed[first]
    assert lines and {seat for seat, _ in lines} == {person}
    record = parse_record(records[first])
    assert record.seats is not None and [s.bot is None for s in record.seats] == [s == person for s in range(players)]
    moved = [a for a in read_record(records[first]).actions if a.player == person]
    assert moved, "the person made no move"
    if game == "mummus":
        assert "" in {line for _, line in lines}, "no claim was let pass: the case tests nothing out of turn"
    if game == "rummikub":
        assert "commit" in {line for _, line in lines}, "the person never laid a set: the draft was not typed"
