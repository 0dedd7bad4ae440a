"""``rummykit simulate`` and the study library: rows true to the engine, reproducible, stored and stopped cleanly."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from rummykit.bots.registry import make_bot
from rummykit.catalogue import new_game
from rummykit.cli.main import main
from rummykit.study import Row, game_seed, make_study, read_rows, run_studies, simulate, write_rows
from rummykit.study.runner import play_game

SRC = Path(__file__).resolve().parents[1] / "src"


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def timeless(rows: list[Row]) -> list[Row]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def replay(game: str, row: Row) -> Any:
    """The same game played again by hand from the row's seed and bots, as rummykit.sim.run_bots plays it."""
    from rummykit.sim import run_bots

    options = {k[4:]: v for k, v in row.items() if k.startswith("opt_")}
    state = new_game(game, players=row["players"], seed=row["seed"], **options)
    bots = [make_bot(row[f"bot_{s}"], game) for s in range(row["players"])]
    return run_bots(state, bots)


# -- the rows -------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "bots"), [("rummikub", 2, ["greedy", "random"]), ("mummus", 3, ["random"])])
def test_a_row_is_the_game_replayed_from_its_seed(game: str, players: int, bots: list[str]) -> None:
    rows = simulate(game, players=players, bots=bots, rotate=True, games=4, seed=11, workers=1)
    assert [row["game"] for row in rows] == [0, 1, 2, 3]
    for row in rows:
        state = replay(game, row)
        outcome = state.outcome
        assert row["seed"] == game_seed(11, row["game"])
        assert row["winners"] == ",".join(map(str, outcome.winners))
        assert [row[f"won_{s}"] for s in range(players)] == [s in outcome.winners for s in range(players)]
        assert [row[f"score_{s}"] for s in range(players)] == list(outcome.scores)
        assert [row[f"total_{s}"] for s in range(players)] == list(outcome.totals)
        assert row["actions"] == len(state.actions)
        assert row["rounds"] == len(state.rounds)
        assert row["reason"] == outcome.reason
        assert row["round_reason"] == state.rounds[-1].reason
        assert 0 < row["turns"] <= row["actions"]
        assert row["seat_order"].split(",")[0] == str(row["first_seat"])
        assert sorted(row["seat_order"].split(",")) == [str(s) for s in range(players)]


def test_rummikub_turns_are_its_actions_and_the_first_seat_is_the_deals() -> None:
    # in rummikub every action (draw, play, pass) is a whole turn
    rows = simulate("rummikub", players=3, bots=["random"], games=3, seed=2, workers=1)
    for row in rows:
        assert row["turns"] == row["actions"]
        assert row["first_seat"] == new_game("rummikub", players=3, seed=row["seed"]).first


def test_levels_turn_through_the_seats_and_fixed_levels_stay() -> None:
    turned = simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True, games=3, seed=1, workers=1)
    assert [(r["bot_0"], r["bot_1"]) for r in turned] == [("greedy", "random"), ("random", "greedy"), ("greedy", "random")]
    fixed = simulate("rummikub", players=2, bots=["greedy", "random"], games=2, seed=1, workers=1)
    assert [(r["bot_0"], r["bot_1"]) for r in fixed] == [("greedy", "random")] * 2


def test_every_setting_plays_the_same_deals_and_records_its_options() -> None:
    rows = simulate("rummikub", players=2, bots=["random"], vary={"initial_meld_points": ["0", "30"]}, games=3, seed=4, workers=1)
    assert [(r["setting"], r["game"]) for r in rows] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [r["opt_initial_meld_points"] for r in rows] == ["0"] * 3 + ["30"] * 3
    assert {r["opt_jokers"] for r in rows} == {"2"}
    assert [r["seed"] for r in rows[:3]] == [r["seed"] for r in rows[3:]]
    # the rule makes a difference on the same deals: the games are not copies of each other
    assert [r["actions"] for r in rows[:3]] != [r["actions"] for r in rows[3:]]


def test_game_seeds_come_from_the_study_seed_and_the_index() -> None:
    seeds = [game_seed(9, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert seeds[:5] != [game_seed(10, i) for i in range(5)]
    assert all(0 <= s < 2**63 for s in seeds)


# -- the same rows whatever runs them -------------------------------------------------


def test_rows_do_not_depend_on_the_number_of_workers() -> None:
    study = make_study("domino-rummikub", players=3, bots=["greedy", "random"], games=8, seed=5)
    alone = run_studies([study], workers=1).rows[0]
    pooled = run_studies([study], workers=2).rows[0]
    assert timeless(alone) == timeless(pooled)
    assert len({r["seed"] for r in alone}) == 8


def _simulate_in_subprocess(tmp: Path, name: str, hash_seed: str, workers: str) -> list[Row]:
    out = tmp / name
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(SRC)}
    args = ["simulate", "conveyor", "--players", "3", "--bot", "greedy,random", "--games", "6", "--seed", "21"]
    args += ["--option", "target=0", "--workers", workers, "--out", str(out), "--no-progress"]
    done = subprocess.run([sys.executable, "-m", "rummykit", *args], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return read_rows(out)


def test_files_are_identical_whatever_the_hash_seed_and_workers(tmp_path: Path) -> None:
    first = _simulate_in_subprocess(tmp_path, "a.csv", "0", "1")
    second = _simulate_in_subprocess(tmp_path, "b.csv", "12345", "2")
    assert len(first) == 6
    assert timeless(first) == timeless(second)


# -- files ----------------------------------------------------------------------------


def test_csv_and_parquet_hold_the_same_typed_rows(tmp_path: Path) -> None:
    rows = simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True, games=3, seed=3, workers=1)
    write_rows(rows, tmp_path / "g.parquet")
    write_rows(rows, tmp_path / "g.csv")
    assert read_rows(tmp_path / "g.parquet") == rows
    assert read_rows(tmp_path / "g.csv") == rows
    table = pq.read_table(tmp_path / "g.parquet")
    assert table.schema.field("seed").type == pa.int64()
    assert table.schema.field("won_0").type == pa.bool_()
    assert table.column("winners").to_pylist() == [r["winners"] for r in rows]
    plain = pcsv.read_csv(tmp_path / "g.csv")  # no hints: any CSV reader takes it as it is
    assert plain.column("actions").to_pylist() == [r["actions"] for r in rows]
    assert plain.column("bot_1").to_pylist() == [r["bot_1"] for r in rows]


def test_simulate_command_writes_the_file_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    status, text, _ = cli("simulate", "rummikub", "--bot", "greedy,random", "--games", "6", "--seed", "8",
                          "--workers", "1", "--out", str(out), "--no-progress")
    assert status == 0
    rows = read_rows(out)
    assert timeless(rows) == timeless(simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True,
                                               games=6, seed=8, workers=1))
    assert "6 games of rummikub" in text and str(out) in text
    assert "win rate by position" in text and "greedy:" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--out", "x.txt"], ".parquet or .csv"),
        (["--out", "no/such/folder/x.csv"], "does not exist"),
        (["--bot", "genius"], "no 'genius' bot"),
        (["--bot", "greedy", "--bot", "random", "--players", "3"], "one per seat"),
        (["--players", "9"], "2 to 4"),
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--option", "jokers=9"], "jokers"),
        (["--option", "nonsense"], "KEY=VALUE"),
        (["--vary", "jokers"], "KEY=V1,V2"),
        (["--vary", "jokers=1,1"], "twice"),
        (["--vary", "jokers=1,2", "--option", "jokers=3"], "both set and varied"),
        (["--address", "127.0.0.1:6379"], "--backend ray"),
        (["--seed", "-1"], "seed"),
    ],
)
def test_bad_simulate_arguments_get_one_clear_line(argv: list[str], words: str, tmp_path: Path) -> None:
    status, out, err = cli("simulate", "rummikub", "--games", "1", "--no-progress", *argv)
    assert status == 2
    assert words in err and err.startswith("rummykit") and "Traceback" not in err
    assert out == ""


def test_an_unknown_game_is_refused() -> None:
    status, _, err = cli("simulate", "chess")
    assert status == 2 and "unknown game" in err


# -- Ctrl-C ----------------------------------------------------------------------------


def test_ctrl_c_stops_and_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "stopped.csv"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    args = ["simulate", "rummikub", "--bot", "random", "--games", "1000000", "--seed", "6", "--workers", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", *args, "--out", str(out), "--no-progress"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(20)  # the workers start and finish some games (a few hundred on an idle machine, dozens on a loaded one)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "Traceback" not in stderr
    rows = read_rows(out)
    assert 0 < len(rows) < 1_000_000
    assert len({r["game"] for r in rows}) == len(rows)
    for row in rows[:2] + rows[-1:]:
        again = play_game(make_study("rummikub", players=2, bots=["random"], games=1_000_000, seed=6), 0, row["game"])
        assert timeless([again]) == timeless([row])
