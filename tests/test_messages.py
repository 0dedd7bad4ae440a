"""Every message of every game counts its nouns right and speaks to the person (issue 10, item 8).

The counted-noun helper is tested on its own; then the messages that used to
read "1 missing numbers", "has 1 gaps", "dominos" or "K1 twice in K1 K1 K1"
are produced for real; and a scan reads everything the program prints in
whole bot games, at the prompt and in ``rules`` for the grammar faults a
count can make.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from catalogue_setups import GAME_IDS, bot_game_args, missing_from, one_round, seats

import rummykit
from rummykit.bots.registry import make_bot
from rummykit.cli.main import main
from rummykit.engine.core import GameState
from rummykit.engine.driver import step
from rummykit.errors import OptionError, RuleError, RummykitError
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.dominoes import parse_dominoes
from rummykit.pieces.tiles import parse_tiles
from rummykit.presenters import presenter_for
from rummykit.presenters.text import Style
from rummykit.rulesets import conveyor as cv
from rummykit.rulesets import domino_rummikub as dr
from rummykit.rulesets.freetable import Play
from rummykit.rulesets.rummikub import from_position
from rummykit.sim import bot_rng
from rummykit.words import counted, plural_of, times

# -- the helper ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "noun", "expected"),
    [
        (0, "tile", "0 tiles"),
        (1, "tile", "1 tile"),
        (2, "tile", "2 tiles"),
        (1, "domino", "1 domino"),
        (3, "domino", "3 dominoes"),
        (2, "penalty domino", "2 penalty dominoes"),
        (1, "missing number", "1 missing number"),
        (10, "missing number", "10 missing numbers"),
        (1, "gap", "1 gap"),
        (2, "class", "2 classes"),
        (2, "penalty", "2 penalties"),
        (2, "day", "2 days"),
        (2, "box", "2 boxes"),
    ],
)
def test_counted_puts_the_noun_in_the_right_number(n: int, noun: str, expected: str) -> None:
    assert counted(n, noun) == expected


def test_counted_takes_a_given_plural_and_a_word_for_zero() -> None:
    assert counted(2, "person", "people") == "2 people"
    assert counted(1, "person", "people") == "1 person"
    assert counted(0, "joker", zero="no") == "no jokers"
    assert counted(1, "joker", zero="no") == "1 joker"
    assert plural_of("domino") == "dominoes" and plural_of("tile") == "tiles"
    assert [times(n) for n in (1, 2, 3, 10)] == ["once", "twice", "3 times", "10 times"]


# -- the messages that were wrong ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "words"),
    [
        ("R1 R3 R4", "R1 R3 R4 has 1 missing number and no jokers to fill it"),
        ("R1 R4 R6", "R1 R4 R6 has 3 missing numbers and no jokers to fill them"),
        ("R1 R4 R5 J", "R1 R4 R5 J has 2 missing numbers and only 1 joker to fill them"),
        ("K1 K1 K1", "K1 K1 K1 has K1 3 times"),
        ("K1 K1 R1", "K1 K1 R1 has K1 twice"),
        ("R5 R5 R6", "R5 R5 R6 has R5 twice"),
        ("R5 R5 R5 R6", "R5 R5 R5 R6 has R5 3 times"),
    ],
)
def test_tile_set_messages_count_what_they_name(tiles: str, words: str) -> None:
    verdict = check_tiles(parse_tiles(tiles))
    assert not verdict.valid and verdict.reason is not None
    assert words in verdict.reason, verdict.reason
    assert not grammar_faults(verdict.reason)


@pytest.mark.parametrize(
    ("dominoes", "words"),
    [
        ("1-2 1-4 1-5", "has 1 gap and no jokers to fill it"),
        ("1-1 1-4 1-5", "has 2 gaps and no jokers to fill them"),
        ("1-1 1-4 1-5 0-0", "has 2 gaps and only 1 joker to fill them"),
    ],
)
def test_domino_run_messages_count_their_gaps(dominoes: str, words: str) -> None:
    verdict = dr.MELDS.check(tuple(parse_dominoes(dominoes)))
    assert not verdict.valid and verdict.reason is not None
    assert words in verdict.reason, verdict.reason


def test_the_starting_group_message_says_dominoes() -> None:
    state = dr.from_position("table: 1-2 1-3 1-4; racks: 5-3 5-4 5-5 5-6 / 2-3; pool: seed 3; turn: 0; down: 01")
    four = tuple(parse_dominoes("5-3 5-4 5-5 5-6"))
    with pytest.raises(RuleError) as refused:
        state.apply(Play(0, four, (tuple(parse_dominoes("1-2 1-3 1-4")), four)))
    assert "each set of the starting group has 3 dominoes: 3-5 4-5 5-5 5-6 has 4" in refused.value.reason
    assert "dominos" not in str(refused.value)


def test_splitting_a_set_of_one_tile_counts_one_tile() -> None:
    state = from_position("table: R1 R2 R3; racks: K9 / B1; pool: seed 5; turn: 0; down: 11")
    draft = state.draft(0)
    draft.move(parse_tiles("R3")[0], 0, None)
    with pytest.raises(RuleError) as refused:
        draft.split(1, 1)
    assert refused.value.reason == "set 2 has 1 tile: nothing to split"


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (4, {"set": 6, "columns": 4}, "4 columns are too few for 4 players"),
        (2, {"columns": 5, "column_length": 7}, "5 columns of 7 hold 35 dominoes"),
    ],
)
def test_conveyor_layout_messages(players: int, options: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError) as refused:
        rummykit.new_game("conveyor", players=players, seed=1, **options)
    assert words in str(refused.value) and not grammar_faults(str(refused.value))


CONVEYOR = (
    "columns: claimed 0 / ?0-3 ?0-4 ?0-5 1-2 ?1-3 ?1-4 2-2 / 2-3 ?2-5 ?3-4 3-5 ?4-4 ?4-5 ?5-5 / claimed 1; "
    "hands: 1-6 5-6 3-3 0-0 0-1 0-2 1-1 / 6-6; melds: 1: 2-6 3-6 4-6 | 0: 0-6 1-5 2-4; turn: 0"
)


@pytest.mark.parametrize(
    ("before", "action", "reason"),
    [
        ([], "0 discard 1-6", "you cannot discard now: your turn starts with a draw from an end of a conveyor"),
        ([], "0 layoff 0 1-6 low", "you cannot lay off now: your turn starts with a draw from an end of a conveyor"),
        (["0 draw 1 bottom"], "0 draw 2 top", "you cannot draw now: you have drawn; now meld, lay off, then discard"
         " (or close)"),
        (["0 draw 1 bottom"], "0 reveal 1 1", "you cannot reveal now: you have drawn; now meld, lay off, then"
         " discard (or close)"),
        (["0 draw 1 bottom"], "0 discard 9-9", "9-9 is not in your hand"),
        (["0 draw 1 bottom"], "0 layoff 0 1-6 high",
         "1-6 does not fit the high end of meld 0 (2-6 3-6 4-6), which takes 5-6; it fits the low end"),
    ],
)
def test_conveyor_refusals_speak_to_the_player_and_are_not_garbled(
    before: list[str], action: str, reason: str
) -> None:
    state = cv.from_position(CONVEYOR, target=0)
    for text in before:
        state.apply(state.parse_action(text))
    with pytest.raises(RuleError) as refused:
        state.apply(state.parse_action(action))
    assert refused.value.reason == reason
    assert "seat 0" not in str(refused.value) and "the game is at" not in str(refused.value)


def test_a_lay_off_that_fits_no_end_carries_its_meld_and_what_each_end_takes() -> None:
    """The engine says why a lay-off does not fit (no presenter checks it); its meld is counted from 0 as data."""
    from rummykit.presenters.base import word_refusal

    state = cv.from_position(CONVEYOR, target=0)
    state.apply(state.parse_action("0 draw 1 bottom"))
    before = state.snapshot()
    with pytest.raises(RuleError) as refused:
        state.apply(state.parse_action("0 layoff 0 0-0 high"))
    error = refused.value
    assert error.rule == "CV-LAYOFF-FIT" and error.counted == ("meld",)
    assert error.params["meld"] == 0 and error.params["low"] == ["1-6"] and error.params["high"] == ["5-6"]
    assert error.reason == "0-0 fits neither end of meld 0 (2-6 3-6 4-6): it takes 1-6 at the low end and 5-6 at the high end"
    assert word_refusal(error).startswith("0-0 fits neither end of meld 1 (2-6 3-6 4-6)")
    assert state.snapshot() == before


# -- a scan of everything printed ------------------------------------------------------------------

NOUNS = (
    "tile|domino|joker|gap|number|set|meld|column|cell|seat|player|bot|name|round|action|point|pip|hand|rack"
    "|problem|turn|spot"
)
ONE_WITH_A_PLURAL = re.compile(rf"(?<![\w.-])1 (?:[a-z]+ )?(?:{NOUNS})e?s\b")
"""``1 missing numbers``, ``1 dominoes``, ``1 gaps``..."""
MANY_WITH_A_SINGULAR = re.compile(rf"(?<![\w.-])(?:[02-9]|\d{{2,}}) (?:missing |penalty )?(?:{NOUNS})\b(?![-'])")
"""``2 tile``, ``3 domino``... (a number before a singular noun)."""
BAD_FORMS = re.compile(r"\bdominos\b|\(s\)|\bthe game is at after\b")


def grammar_faults(text: str) -> list[str]:
    """The counted nouns in ``text`` that are in the wrong number, and forms no message should use."""
    return [m.group(0) for pattern in (ONE_WITH_A_PLURAL, MANY_WITH_A_SINGULAR, BAD_FORMS) for m in pattern.finditer(text)]


def test_the_scan_catches_the_faults_it_is_for() -> None:
    for bad in ("R1 R3 R4 has 1 missing numbers and 0 jokers", "has 1 gaps", "3 dominos", "take 2 tile",
                "the opening is 1 new set(s)", "1 dominoes left"):
        assert grammar_faults(bad), bad
    for good in ("1 missing number and no jokers", "2 gaps", "3 dominoes", "set 1 has 2 tiles", "column 1 top",
                 "turn 1, pool: 70 tiles", "Round 2 dealt: 14 tiles each", "in a 1-player game", "meld 3; 1 domino left"):
        assert not grammar_faults(good), good


VARIANTS: dict[str, dict[str, object]] = {"conveyor": {"jump_ins": True}}
"""Options that make a game say more (a game not listed plays one round of its defaults)."""


def options_of(game: str) -> dict[str, object]:
    """One round of the game, with its variant options."""
    return {**one_round(game), **VARIANTS.get(game, {})}


def run(argv: list[str], script: str = "", columns: int = 100) -> str:
    out, err = io.StringIO(), io.StringIO()
    main(argv, stdin=io.StringIO(script), stdout=out, stderr=err, environ={"COLUMNS": str(columns)})
    return out.getvalue() + err.getvalue()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", GAME_IDS)
def test_whole_bot_games_print_no_grammar_fault(game: str, seed: int, tmp_path: object) -> None:
    record = f"{tmp_path}/g.txt"
    setup = bot_game_args(game, seats(game, 4), options_of(game), mixed=True)
    text = run(["play", game, *setup, "--seed", str(seed), "--record", record])
    assert "Game over" in text
    text += run(["replay", record, "--verbose"])
    text += run(["rules", game])
    assert not grammar_faults(" ".join(text.split()))


BAD_COMMANDS: dict[str, list[str]] = {
    "rummikub": ["new R1", "split 1 1", "add 9 R1", "merge 1 1", "back R1", "commit", "move R1 1 2", "new X1",
                 "penalty", "pass", "sort sideways", "help", "show", "check"],
    "domino-rummikub": ["new 1-2", "split 1 1", "add 9 1-2", "merge 1 1", "back 1-2", "commit", "pass", "new 9-9-9", "help", "show"],
    "conveyor": ["reveal 9 9", "reveal 1 99", "claim 0", "claim 9", "draw 1 top", "discard 0-0", "meld 0-0 0-1",
                 "layoff 1 0-0", "jump", "decline", "close", "reveal x 1", "sort sideways", "help", "moves", "show"],
    "two-tray": ["place R1 1,1", "place J 99,99", "move 1,1 2,2", "move 9,9 1,1", "back 1,1", "commit", "undo",
                 "reset", "tray C", "draw C", "pass", "end", "call 1,1 O3", "call 9,9 K1", "play A 99,99=R1",
                 "play A 1,1=.", "penalty", "place R1", "sort sideways", "check", "help", "show"],
    "mummus": ["draw", "take 1", "take 99", "take 9S", "meld 2C 3C", "meld 2C 3C 4C", "meld 2C 2D 2H",
               "addon 9 2C", "addon 2C", "addon AS to KS", "rummy", "rummy 2C", "rummy 2C 3C 4C", "discard 2C",
               "discard KK", "sort sideways", "help", "moves", "show"],
}


def positions(game: str, seed: int) -> Iterator[GameState]:
    """A bot game yielded at every step where seat 0 is to act."""
    players = seats(game, 3)
    state = rummykit.new_game(game, players=players, seed=seed, **options_of(game))
    bots = [make_bot("random", game) for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    for _ in range(300):
        if state.outcome is not None:
            return
        if 0 in state.to_act:
            yield state
        step(state, bots, rngs)


@pytest.mark.parametrize("game", GAME_IDS)
def test_refusals_at_the_prompt_have_no_grammar_fault_and_name_no_seat(game: str) -> None:
    assert game in BAD_COMMANDS, missing_from(BAD_COMMANDS, "BAD_COMMANDS (commands a person may mistype)")
    presenter = presenter_for(game)
    said: list[str] = []
    refusals: list[str] = []
    for n, state in enumerate(positions(game, seed=3)):
        if n % 5:
            continue
        turn = presenter.turn(state.view(0), say=lambda *lines: said.extend(lines), style=Style(), labels=["you"])
        for line in BAD_COMMANDS[game]:
            try:
                action = turn.command(line)
                if action is not None:
                    state.copy().apply(action)
            except RummykitError as exc:
                refusals.append(str(exc))
    assert len(refusals) > 20 and len(said) > 50
    for text in refusals + said:
        assert not grammar_faults(text), text
        assert not re.search(r"\bseat \d", text), text
