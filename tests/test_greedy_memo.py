"""The rummikub greedy bot's short cuts, each compared with the plain computation.

- the memo of a position with no play (:mod:`rummykit.bots.greedy_memo`): a bot
  that keeps it chooses exactly what a fresh bot chooses, all along seeded games,
  and on positions made up from games (a random drawn tile, a table from later in
  the game) its answers hold: "no play" means the plan finds none, "no new set"
  means the turn's first step fails and some set takes a rack tile;
- :func:`~rummykit.bots.greedy_shapes.makes_set` against ``hand_sets``;
- ``best_meld``'s threshold bounds against the search without them;
- the turn's own short cuts (``stuck``, ``_joker_would_place``) against running the steps;
- the plan's check with the turn's count of taken tiles against counting the tables;
- the view's sets read once (``view_set``) against parsing them;
- the free table's conservation check, with sets equal but not the same object.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, cast

import pytest

import rummykit.bots.greedy as greedy
from rummykit.bots.greedy import GreedyBot, _checked_play, _plan, _read_table, _Turn, best_meld
from rummykit.bots.greedy_memo import NO_PLAY, NO_SETS, NoPlay, no_play
from rummykit.bots.greedy_shapes import makes_set, shape_of, tiles_mask, view_set
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.core import Action
from rummykit.engine.driver import step
from rummykit.engine.rng import Rng
from rummykit.errors import RuleError
from rummykit.melds.tiles import check_tiles, hand_sets
from rummykit.pieces.tiles import ALL_TILES, JOKER, Tile, parse_tiles
from rummykit.rulesets.freetable import FreeTableView
from rummykit.rulesets.rummikub import Play
from rummykit.sim import bot_rng, run_bots

GAME = "rummikub"
NUMBERED = [t for t in ALL_TILES if t.colour is not None]


class Twin:
    """A greedy bot that keeps its memo, checked at every turn against a fresh bot (no memo)."""

    def __init__(self, log: list[FreeTableView]) -> None:
        bot = make_bot("greedy", GAME)
        assert isinstance(bot, GreedyBot)
        self.bot = bot
        self.log = log
        self.hits = Counter[int]()
        self.after: list[NoPlay] = []
        """The memo after each play once down (a copy)."""

    def choose(self, view: Mapping[str, object], rng: Rng) -> Action:
        memo = self.bot.memo
        if memo is not None:
            self.hits[copy.copy(memo).still(*_memo_args(cast(FreeTableView, view)))] += 1
        fresh = make_bot("greedy", GAME)
        expected = fresh.choose(copy.deepcopy(view), rng)
        action = self.bot.choose(view, rng)
        assert action == expected, f"memo bot chose {action}, plain bot {expected}"
        assert self.bot.fallbacks == 0
        if isinstance(action, Play) and self.bot.memo is not None and self.bot.memo.down:
            self.after.append(copy.deepcopy(self.bot.memo))
        self.log.append(cast(FreeTableView, copy.deepcopy(view)))
        return action


def _memo_args(view: FreeTableView) -> tuple[list[str], list[list[str]], bool, int]:
    seat = view["seat"]
    assert seat is not None
    threshold = view["options"]["initial_meld_points"]
    assert isinstance(threshold, int)
    return view["rack"], view["table"], bool(view["down"][seat]), threshold


def _games(players: int, seeds: range, levels: tuple[str, ...] = ("greedy",)) -> Iterator[tuple[list[Twin], list[FreeTableView]]]:
    for seed in seeds:
        log: list[FreeTableView] = []
        bots: list[Any] = []
        twins: list[Twin] = []
        for seat in range(players):
            if levels[(seat + seed) % len(levels)] == "greedy":
                twin = Twin(log)
                twins.append(twin)
                bots.append(twin)
            else:
                bots.append(make_bot("random", GAME))
        run_bots(new_game(GAME, players=players, seed=seed), bots)
        yield twins, log


@pytest.mark.parametrize(("players", "levels"), [(2, ("greedy",)), (4, ("greedy",)), (3, ("greedy", "random"))])
def test_a_bot_with_its_memo_chooses_what_a_fresh_bot_chooses(players: int, levels: tuple[str, ...]) -> None:
    hits: Counter[int] = Counter()
    for twins, _log in _games(players, range(12), levels):
        for twin in twins:
            hits.update(twin.hits)
    assert hits[NO_PLAY] > 20 and hits[NO_SETS] > 5 and hits[0] > 5, hits  # every answer was given


def _plain(rack: list[Tile], texts: list[list[str]], down: bool, threshold: int) -> tuple[bool, _Turn | None]:
    """(some play planned, the turn as the plan starts it, once down)."""
    table, normal, shapes = _read_table(texts)
    planned = _plan(rack, table, normal, shapes, down, threshold)
    turn = _Turn(rack, list(normal), list(shapes)) if down else None
    return planned is not None, turn


def _texts(tiles: list[Tile]) -> list[str]:
    return [str(t) for t in sorted(tiles, key=lambda t: t.code)]


def test_the_memo_answers_hold_on_made_up_turns() -> None:
    """Memos of positions from games, asked about the same rack with a random tile more (or none) and
    a table from later in the game (or the same): each answer agrees with planning that turn."""
    rng = Rng(7)
    answers: Counter[int] = Counter()
    for _twins, log in _games(4, range(6)):
        for k, view in enumerate(log):
            rack_texts, table, down, threshold = _memo_args(view)
            rack = parse_tiles(rack_texts)
            played, _ = _plain(rack, table, down, threshold)
            if played:
                continue
            _, _, shapes = _read_table(table)
            memo0 = no_play(rack_texts, rack, table, shapes, down, threshold)
            if memo0 is None:
                continue
            for _ in range(4):
                memo = copy.deepcopy(memo0)
                extra = [] if rng.below(4) == 0 else [NUMBERED[rng.below(len(NUMBERED))]]
                later = log[k + rng.below(len(log) - k)]["table"] if rng.below(2) else table
                grown = rack + extra
                answer = memo.still(_texts(grown), later, down, threshold)
                answers[answer] += 1
                played, turn = _plain(grown, later, down, threshold)
                if answer == NO_PLAY:
                    assert not played
                    assert memo.rack == _texts(grown) and memo.table == (later if down else table)
                elif answer == NO_SETS:
                    assert turn is not None
                    assert not turn.new_sets() and not turn.stuck()
    assert answers[NO_PLAY] > 50 and answers[NO_SETS] > 20 and answers[0] > 20, answers


def test_the_memo_after_a_play_is_a_position_with_no_play() -> None:
    """After each play once down, the bot's memo describes the position the play leaves (the rack left,
    the table as the engine will write it), and that position has no play: the memo's premise."""
    checked = 0
    for twins, log in _games(2, range(8)):
        for twin in twins:
            for memo in twin.after:
                assert not memo.typed  # the twins choose from text views
                rack = parse_tiles(cast("list[str]", memo.rack))
                table = cast("list[list[str]]", memo.table)
                assert sorted(memo.tiles, key=lambda t: t.code) == rack
                assert memo.mask == tiles_mask(rack)
                assert any(view["table"] == memo.table for view in log)  # the engine wrote it so
                if memo.sets_unknown and hand_sets(rack):
                    continue  # still() will not trust this memo
                played, _ = _plain(rack, table, True, memo.threshold)
                assert not played
                assert [s.accepts for s in memo.shapes] == [s.accepts for s in _read_table(table)[2]]
                checked += 1
    assert checked > 50


def test_makes_set_is_hand_sets_not_empty() -> None:
    rng = Rng(3)
    for _ in range(3000):
        tiles = [NUMBERED[rng.below(len(NUMBERED))] for _ in range(rng.below(12))]
        tiles += [JOKER] * [0, 0, 1, 1, 2, 3][rng.below(6)]
        assert makes_set(tiles_mask(tiles), tiles.count(JOKER)) == bool(hand_sets(tiles)), tiles


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_best_meld_bounds_change_nothing(jokers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = Rng(11 + jokers)
    cases = []
    for _ in range(150):
        tiles = [NUMBERED[rng.below(len(NUMBERED))] for _ in range(3 + rng.below(14))] + [JOKER] * jokers
        cases.append(Counter(tiles))
    kinds = [
        {"threshold": 30, "use_jokers": False},
        {"threshold": 30},
        {"threshold": 50},
        {"count_jokers": False, "frugal": True},
        {"threshold": 30, "count_jokers": False},
    ]
    quick = [[best_meld(rack, **kind) for kind in kinds] for rack in cases]  # type: ignore[arg-type]
    monkeypatch.setattr(greedy, "_reach", lambda *args: 10**9)  # no bound: the search decides
    plain = [[best_meld(rack, **kind) for kind in kinds] for rack in cases]  # type: ignore[arg-type]
    assert quick == plain
    assert any(not found for row in plain for found in row) and any(found for row in plain for found in row)


def _turns(players: int, seeds: range) -> Iterator[_Turn]:
    """A turn at the start of every plan once down, from seeded games."""
    for _twins, log in _games(players, seeds):
        for view in log:
            rack_texts, table, down, _threshold = _memo_args(view)
            if down:
                _, normal, shapes = _read_table(table)
                yield _Turn(parse_tiles(rack_texts), list(normal), list(shapes))


def _steps_fail(turn: _Turn) -> bool:
    t = copy.deepcopy(turn)
    return not (
        t.replace_jokers(productive_only=True)
        or t.layoffs()
        or t.split_insert()
        or t.donor_sets()
        or t.replace_jokers(productive_only=False)
        or t.rack_jokers()
    )


def test_stuck_means_every_step_fails() -> None:
    seen = Counter[bool]()
    for turn in _turns(4, range(5)):
        for _ in range(3):
            if turn.stuck():
                assert _steps_fail(turn)
            seen[turn.stuck()] += 1
            if not turn.rack or (not turn.layoffs() and not turn.split_insert()):
                break
    assert seen[True] > 10 and seen[False] > 10


def test_joker_would_place_is_what_freeing_the_joker_does() -> None:
    tried = 0
    for turn in _turns(2, range(10)):
        for i, shape in enumerate(turn.shapes):
            for t, new in shape.roles:
                if t not in turn.rack:
                    continue
                t2 = copy.deepcopy(turn)
                t2._put(i, new)
                t2._take((t,))
                assert turn._joker_would_place(i, t, new) == t2._use_free_joker(productive_only=True)
                tried += 1
    assert tried > 5


def test_the_plan_check_with_the_turns_count_is_the_plain_count() -> None:
    checked = 0
    for turn in _turns(2, range(6)):
        rack = list(turn.rack.elements())
        base = list(turn.table)
        table = [tuple(s) for s in base]
        turn.play()
        if not turn.taken:
            continue
        plain = _checked_play(0, rack, table, turn.table, base)
        assert _checked_play(0, rack, table, turn.table, base, turn) == plain
        assert isinstance(plain, Play)
        # a turn whose count is wrong falls back to counting the tables
        wrong = copy.deepcopy(turn)
        wrong.taken = wrong.taken[1:]
        assert _checked_play(0, rack, table, turn.table, base, wrong) == plain
        checked += 1
    assert checked > 20


def test_view_set_is_parsing_the_set() -> None:
    for _twins, log in _games(2, range(2)):
        for view in log:
            for texts in view["table"]:
                tiles = tuple(parse_tiles(texts))
                normal = check_tiles(tiles).pieces
                assert view_set(texts) == (tiles, normal, shape_of(normal))


def _verdict(rules: Any, old: list[tuple[Tile, ...]], rack: list[Tile], placed: list[Tile], new: list[tuple[Tile, ...]]) -> str:
    try:
        rules.verify_pieces(old, rack, placed, new)
    except RuleError as e:
        return f"{e.rule}: {e}"
    return "ok"


def test_conservation_check_reads_equal_sets_as_kept() -> None:
    """A table whose kept sets are equal copies gets the verdict of the same table with the same objects."""
    state = new_game(GAME, players=2, seed=5)
    bots = [make_bot("greedy", GAME), make_bot("greedy", GAME)]
    rngs = [bot_rng(5, seat) for seat in range(2)]
    for _ in range(40):
        step(state, bots, rngs)
    old = [s for s in state.table]  # type: ignore[attr-defined]
    assert len(old) >= 3
    table_rules = state.TABLE  # type: ignore[attr-defined]
    rack = list(state.racks[state.current])  # type: ignore[attr-defined]
    rng = Rng(2)
    verdicts = Counter[str]()
    for _ in range(300):
        new = list(old)
        placed: list[Tile] = []
        what = rng.below(4)
        if what == 0 and rack:  # a rack tile added to a set
            placed = [rack[rng.below(len(rack))]]
            i = rng.below(len(new))
            new[i] = (*new[i], *placed)
        elif what == 1:  # a table tile dropped
            i = rng.below(len(new))
            new[i] = new[i][1:]
        elif what == 2 and rack:  # a tile placed that is not in the new table
            placed = [rack[rng.below(len(rack))]]
        else:  # a tile taken from one set to another
            i, j = rng.below(len(new)), rng.below(len(new))
            new[j] = (*new[j], new[i][0])
            new[i] = new[i][1:]
            placed = [rack[0]] if rack else []
            new.append(tuple(placed))
        copies = [tuple(list(s)) for s in new]

        v = _verdict(table_rules, old, rack, placed, new)
        assert _verdict(table_rules, old, rack, placed, copies) == v
        before = Counter([*(t for s in old for t in s), *placed])
        after = Counter(t for s in new for t in s)
        if v == "ok":
            assert before == after and placed and not Counter(placed) - Counter(rack)
        verdicts[v.split(":")[0]] += 1
    assert verdicts["ok"] > 10 and len(verdicts) > 2, verdicts
