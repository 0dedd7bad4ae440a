"""The rummikub greedy bot's per-set filters (``Shape.touch_mask``, ``Shape.memo_mask``), each compared with
the plain computation: shapes whose filters let every tile through ("open" shapes) give the same answers.

- the masks are what they say: the tiles a step, a donor's neighbours or (with a joker) a run's ends look for;
- ``_Turn.stuck`` and ``_Turn.donor_sets`` with open shapes, on turns from seeded games;
- the memo's answers (:meth:`~rummykit.bots.greedy_memo.NoPlay.still`) with open shapes, on made-up turns;
- whole seeded games played with open shapes: the same actions;
- ``makes_set`` written out against its loop; ``best_meld``'s candidate values against :func:`rank`.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Iterator

import pytest
from test_greedy_memo import _games, _memo_args, _texts, _turns

import rummykit.bots.greedy as greedy
import rummykit.bots.greedy_shapes as greedy_shapes
from rummykit.bots.greedy import _read_table, _Turn
from rummykit.bots.greedy_memo import no_play
from rummykit.bots.greedy_shapes import NEAR, Shape, makes_set, tiles_mask
from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.engine.rng import Rng
from rummykit.melds.cover import CoverProblem, best_cover, rank
from rummykit.melds.tiles import check_tiles
from rummykit.pieces.tiles import ALL_TILES, JOKER, MAX_NUMBER, Tile, parse_tiles
from rummykit.sim import run_bots

GAME = "rummikub"
NUMBERED = [t for t in ALL_TILES if t.colour is not None]
EVERY = (1 << len(ALL_TILES)) - 1


def _opened(shape: Shape) -> Shape:
    """A copy of ``shape`` whose filters let every tile through to the full tests."""
    out = copy.copy(shape)
    out.touch_mask = out.memo_mask = EVERY
    return out


def test_the_masks_are_the_tiles_looked_for() -> None:
    for _twins, _log in _games(2, range(3)):
        pass
    shapes = list(greedy_shapes._SHAPES.values())
    assert len(shapes) > 100
    for shape in shapes:
        near = tiles_mask(u for d, _ in shape.donors for u in ALL_TILES if NEAR[d.code] >> u.code & 1)
        assert shape.touch_mask == shape.accept_mask | shape.split_mask | shape.role_mask | near
        assert shape.memo_mask == shape.touch_mask | tiles_mask(t for t, _ in shape.ends)


def _open_turn(turn: _Turn) -> _Turn:
    out = copy.deepcopy(turn)
    out.shapes = [_opened(s) for s in out.shapes]
    return out


def test_stuck_and_donor_sets_with_open_shapes() -> None:
    seen = 0
    for turn in _turns(4, range(6)):
        plain = _open_turn(turn)
        assert turn.stuck() == plain.stuck()
        fast = copy.deepcopy(turn)
        assert fast.donor_sets() == plain.donor_sets()
        assert fast.table == plain.table and fast.rack == plain.rack and fast.taken == plain.taken
        seen += 1
    assert seen > 100


def _made_up_turns() -> Iterator[tuple[object, list[str], list[list[str]], bool, int]]:
    """Memos of positions with no play, and a turn after each: the rack with a random tile more (or none),
    a table from later in the game (or the same)."""
    rng = Rng(11)
    for _twins, log in _games(4, range(6)):
        for k, view in enumerate(log):
            rack_texts, table, down, threshold = _memo_args(view)
            rack = parse_tiles(rack_texts)
            _, _, shapes = _read_table(table)
            memo = no_play(rack_texts, rack, table, shapes, down, threshold)
            if memo is None:
                continue
            for _ in range(3):
                extra: list[Tile] = [] if rng.below(4) == 0 else [NUMBERED[rng.below(len(NUMBERED))]]
                later = log[k + rng.below(len(log) - k)]["table"] if rng.below(2) else table
                yield memo, _texts(rack + extra), later, down, threshold


def test_the_memo_answers_with_open_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = []
    made = list(_made_up_turns())
    for memo, rack, table, down, threshold in made:
        answers.append(copy.deepcopy(memo).still(rack, table, down, threshold))  # type: ignore[attr-defined]
    _open_every_shape(monkeypatch)
    for (memo, rack, table, down, threshold), answer in zip(made, answers, strict=True):
        plain = copy.deepcopy(memo)
        plain.shapes = [_opened(s) for s in plain.shapes]  # type: ignore[attr-defined]
        assert plain.still(rack, table, down, threshold) == answer  # type: ignore[attr-defined]
    assert len(set(answers)) == 3 and len(answers) > 300


def _open_every_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shape made from now on is open (fresh caches)."""
    init = Shape.__init__

    def opened_init(self: Shape, s: tuple[Tile, ...]) -> None:
        init(self, s)
        self.touch_mask = self.memo_mask = EVERY

    monkeypatch.setattr(Shape, "__init__", opened_init)
    monkeypatch.setattr(greedy_shapes, "_SHAPES", {})
    monkeypatch.setattr(greedy_shapes, "_VIEW_SETS", {})


def _actions_hash(players: int, seeds: range) -> str:
    digest = hashlib.sha256()
    for seed in seeds:
        state = new_game(GAME, players=players, seed=seed)
        run_bots(state, [make_bot("greedy", GAME) for _ in range(players)])
        for action in state.actions:
            digest.update(str(action).encode() + b"\n")
    return digest.hexdigest()


@pytest.mark.parametrize("players", [2, 4])
def test_games_with_open_shapes_are_the_same(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _actions_hash(players, range(30))
    _open_every_shape(monkeypatch)
    assert _actions_hash(players, range(30)) == fast


def _makes_set_plain(mask: int, jokers: int) -> bool:
    """:func:`makes_set` as first written: a colour's numbers read in a loop."""
    mask &= ~(1 << JOKER.code)
    if jokers >= 2:
        return mask != 0
    rows = [mask >> (k * MAX_NUMBER) & ((1 << MAX_NUMBER) - 1) for k in range(4)]
    a, b, c, d = rows
    if jokers:
        return bool((a & (b | c | d)) | (b & (c | d)) | (c & d) or any(m & (m >> 1 | m >> 2) for m in rows))
    return bool((a & b & (c | d)) | (c & d & (a | b)) or any(m & m >> 1 & m >> 2 for m in rows))


def test_makes_set_written_out_is_the_loop() -> None:
    rng = Rng(5)
    seen = set()
    for _ in range(20_000):
        tiles = [NUMBERED[rng.below(len(NUMBERED))] for _ in range(rng.below(14))]
        mask = tiles_mask(tiles) | (rng.below(2) << JOKER.code)
        for jokers in (0, 1, 2):
            answer = makes_set(mask, jokers)
            assert answer == _makes_set_plain(mask, jokers), (tiles, jokers)
            seen.add((jokers, answer))
    assert len(seen) == 6  # every number of jokers gave both answers


def test_best_meld_values_are_ranks(monkeypatch: pytest.MonkeyPatch) -> None:
    """``best_meld`` writes its candidates' values out: each is the :func:`rank` of its criteria."""
    seen: list[CoverProblem[Tile]] = []

    def recording(problem: CoverProblem[Tile]) -> object:
        seen.append(problem)
        return best_cover(problem)

    monkeypatch.setattr(greedy, "best_cover", recording)
    rng = Rng(9)
    searched = 0
    for _ in range(300):
        rack = Counter([NUMBERED[rng.below(len(NUMBERED))] for _ in range(6 + rng.below(10))])
        rack[JOKER] = rng.below(3)
        for count_jokers in (True, False):
            seen.clear()
            greedy.best_meld(+rack, count_jokers=count_jokers)
            searched += len(seen)
            for problem in seen:
                for cand in problem.candidates:
                    spent = cand.pieces.count(JOKER)
                    numbered = len(cand.pieces) - spent
                    criteria = (numbered + spent, 0) if count_jokers else (numbered, -spent)
                    assert cand.value == rank(*criteria, check_tiles(cand.pieces).points)
                    assert cand.measure == check_tiles(cand.pieces).points
    assert searched > 300
