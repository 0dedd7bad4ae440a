"""``rummykit report`` and ``rummykit tournament``: pictures embedded in a page, ratings that tell bots apart."""

from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path

import pytest

from rummykit.cli.main import main
from rummykit.study import read_rows, simulate, write_rows
from rummykit.study.report import (
    REASONS,
    figures,
    group_rows,
    one_action_a_turn,
    reason_lines,
    summary_lines,
    write_report,
)
from rummykit.study.stats import bradley_terry, games_for_width, wilson
from rummykit.study.tournament import play_tournament

PNG = b"\x89PNG\r\n\x1a\n"


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# -- report ------------------------------------------------------------------------------


def test_report_writes_a_page_with_its_pictures_embedded(tmp_path: Path) -> None:
    rows = simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True, games=12, seed=2, workers=1)
    write_rows(rows, tmp_path / "g.csv")
    status, out, err = cli("report", str(tmp_path / "g.csv"), "--out", str(tmp_path / "rep"))
    assert status == 0, err
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    pngs = sorted((tmp_path / "rep").glob("*.png"))
    assert {p.name for p in pngs} >= {"positions.png", "seats.png", "bots.png", "length.png", "scores.png"}
    embedded = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(embedded) == len(pngs)
    assert {base64.b64decode(e) for e in embedded} == {p.read_bytes() for p in pngs}
    assert all(p.read_bytes().startswith(PNG) for p in pngs)
    assert "<img" in page and "src='http" not in page  # stands alone
    assert "win rate by position" in out and "report.html" in out


def test_the_summary_counts_wins_by_position_and_bot() -> None:
    rows = simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True, games=10, seed=5, workers=1)
    (group,) = group_rows(rows)
    positions = group.by_position()
    first_wins = sum(bool(r[f"won_{r['first_seat']}"]) for r in rows)
    assert positions[0].n == 10 and positions[0].wins == first_wins
    bots = {rate.label: rate for rate in group.by_bot()}
    greedy_wins = sum(bool(r[f"won_{s}"]) for r in rows for s in (0, 1) if r[f"bot_{s}"] == "greedy")
    assert bots["greedy"].wins == greedy_wins and bots["greedy"].n == 10
    text = "\n".join(summary_lines(rows))
    assert f"greedy: {100 * greedy_wins / 10:.1f}%" in text


def test_several_option_settings_are_shown_side_by_side(tmp_path: Path) -> None:
    rows = simulate("rummikub", players=2, bots=["random"], vary={"initial_meld_points": ["0", "30"]},
                    games=5, seed=1, workers=1)
    labels = [g.label for g in group_rows(rows)]
    assert labels == ["initial_meld_points=0", "initial_meld_points=30"]
    page = write_report(rows, tmp_path / "side").read_text(encoding="utf-8")
    assert page.count("<th>initial_meld_points=0</th>") >= 3  # the overview and every table of rates
    text = "\n".join(summary_lines(rows))
    assert "initial_meld_points=30" in text
    # the deal-by-deal difference of the second setting from the first
    first = {r["seed"]: r["turns"] for r in rows if r["setting"] == 0}
    diffs = [r["turns"] - first[r["seed"]] for r in rows if r["setting"] == 1]
    assert len(diffs) == 5
    assert f"turns {sum(diffs) / 5:+.2f} per game" in text and "5 deals played in both" in text


def test_every_end_reason_is_explained_in_the_summary_and_on_the_page(tmp_path: Path) -> None:
    rows = simulate("rummikub", players=2, bots=["random"], games=6, seed=1, workers=1)
    assert {r["reason"] for r in rows} == {"blocked"}  # random bots: the pool runs out every time
    text = "\n".join(summary_lines(rows))
    assert "ended by: blocked 100.0%" in text
    assert f'what "ended by" means:\n  blocked: {REASONS["blocked"]}' in text
    assert "the pool was empty and a full round of turns passed without a play" in REASONS["blocked"]
    page = write_report(rows, tmp_path / "why").read_text(encoding="utf-8")
    assert "<h2>How the games ended</h2>" in page and f"<dt>blocked</dt><dd>{html.escape(REASONS['blocked'])}</dd>" in page
    assert "rack-empty" not in text  # only the reasons found are explained
    assert reason_lines([{"reason": "teatime"}]) == ["teatime: a reason this report does not know; see the game's rules page"]


def test_every_reason_a_game_can_end_with_has_words() -> None:
    from rummykit.catalogue import games
    from rummykit.engine.match import ROUND_LIMIT, TARGET_REACHED
    from rummykit.presenters import presenter_for

    known = {TARGET_REACHED, ROUND_LIMIT}
    for info in games():
        known |= set(presenter_for(info.id).words.reasons)
    assert known - set(REASONS) == set(), "explain these in rummykit.study.report.REASONS (and docs/study.md)"
    study = Path(__file__).resolve().parent.parent / "docs" / "study.md"
    documented = study.read_text(encoding="utf-8")
    assert all(f"`{reason}`" in documented for reason in REASONS), "docs/study.md explains every end reason"


def test_turns_and_actions_are_shown_once_when_every_turn_is_one_action() -> None:
    one = simulate("rummikub", players=2, bots=["random"], games=4, seed=3, workers=1)
    assert one_action_a_turn(one)
    many = simulate("conveyor", players=2, bots=["random"], games=4, seed=3, workers=1, options={"target": "0"})
    assert not one_action_a_turn(many)
    for rows, panels in ((one, ["turns per game"]), (many, ["turns per game", "actions per game"])):
        drawn = {name: (caption, fig) for name, caption, fig in figures(rows)}
        caption, fig = drawn["length.png"]
        assert [ax.get_xlabel() for ax in fig.axes if ax.get_visible()] == panels
        text = "\n".join(summary_lines(rows))
        assert ("actions:" in text) == (len(panels) == 2)
        assert ("one action a turn" in text) == ("one action a turn" in caption) == (len(panels) == 1)
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize(
    ("content", "name", "words"),
    [
        (None, "missing.parquet", "no such file"),
        ("a,b\n1,2\n", "other.csv", "not a file of game rows"),
        ("\x00\x01garbage", "broken.parquet", "not a readable parquet file"),
        ("players,first_seat\n", "notes.txt", ".parquet or .csv"),
    ],
)
def test_report_refuses_a_file_it_cannot_read_in_one_line(
    tmp_path: Path, content: str | None, name: str, words: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    status, _, err = cli("report", str(path))
    assert status == 2
    assert words in err and "Traceback" not in err and err.count("\n") == 1


# -- statistics ----------------------------------------------------------------------------


def test_wilson_intervals_hold_the_share_and_narrow_with_games() -> None:
    for wins, n in [(0, 5), (3, 10), (50, 100), (100, 100)]:
        low, high = wilson(wins, n)
        assert 0 <= low <= wins / n <= high <= 1
    assert wilson(500, 1000)[1] - wilson(500, 1000)[0] < wilson(50, 100)[1] - wilson(50, 100)[0]
    n = games_for_width(0.1)
    low, high = wilson(n / 2, n)
    assert high - low <= 0.1


def test_bradley_terry_orders_players_by_their_results() -> None:
    fit = bradley_terry(["a", "b", "c"], {("a", "b"): (70.0, 100), ("b", "c"): (70.0, 100), ("a", "c"): (85.0, 100)})
    assert fit["a"] > fit["b"] > fit["c"]
    assert abs(sum(fit.values()) / 3 - 1500) < 1e-6
    # 70% expected score is about 147 Elo points
    assert 120 < fit["a"] - fit["b"] < 175


# -- tournament -------------------------------------------------------------------------------


def test_a_strong_bot_beats_random_beyond_doubt_at_modest_counts() -> None:
    result = play_tournament("rummikub", ["greedy", "random"], games=20, seed=4, resamples=100, workers=1)
    (pairing,) = result.pairings
    assert pairing.bots == ("greedy", "random") and pairing.games == 20
    h2h = result.head_to_head[("greedy", "random")]
    assert h2h.n == 20
    assert wilson(h2h.score, h2h.n)[0] > 0.5
    greedy, random = result.ratings["greedy"], result.ratings["random"]
    assert greedy.low > random.high
    assert greedy.low <= greedy.rating <= greedy.high
    # half the games each way round, on the same deals
    seats = [(r["bot_0"], r["seed"]) for r in result.rows]
    assert sorted(s for b, s in seats if b == "greedy") == sorted(s for b, s in seats if b == "random")


def test_tables_of_three_rotate_the_seats_on_the_same_deals() -> None:
    result = play_tournament("mummus", ["greedy", "random"], players=3, games=6, seed=2, resamples=0, workers=1)
    (table,) = result.pairings
    assert table.bots == ("greedy", "random", "greedy") and table.games == 6
    seatings = {(r["bot_0"], r["bot_1"], r["bot_2"]) for r in result.rows}
    assert seatings == {("greedy", "random", "greedy"), ("random", "greedy", "greedy"), ("greedy", "greedy", "random")}
    assert len({r["seed"] for r in result.rows}) == 2


def test_tournament_command_prints_ratings_and_the_matrix(tmp_path: Path) -> None:
    out_file = tmp_path / "t.parquet"
    status, out, err = cli("tournament", "rummikub", "--bots", "greedy,random", "--games", "6", "--seed", "1",
                           "--workers", "1", "--resamples", "20", "--out", str(out_file), "--no-progress")
    assert status == 0, err
    assert "ratings" in out and "head to head" in out and "greedy" in out
    rows = read_rows(out_file)
    assert len(rows) == 6 and {r["table"] for r in rows} == {0}


def test_tournament_games_follow_the_width_asked_for() -> None:
    status, out, err = cli("tournament", "rummikub", "--bots", "greedy,random", "--width", "0.5", "--seed", "1",
                           "--workers", "1", "--resamples", "0", "--no-progress")
    assert status == 0, err
    assert games_for_width(0.5) == 16 and "16 per pairing" in out


def test_bad_tournament_arguments_get_one_clear_line() -> None:
    status, out, err = cli("tournament", "rummikub", "--bots", "greedy", "--no-progress")
    assert status == 2 and "two levels" in err
    status, out, err = cli("tournament", "rummikub", "--bots", "greedy,random", "--width", "1.5")
    assert status == 2 and "--width" in err and out == ""
    status, _, err = cli("tournament", "rummikub", "--bots", "greedy,greedy")
    assert status == 2 and "twice" in err


def test_a_bot_that_won_every_game_is_flagged_as_beyond_the_fit() -> None:
    from rummykit.study.tournament import HeadToHead, TournamentResult, one_sided

    h2h = {("a", "b"): HeadToHead("a", "b", 10.0, 10), ("b", "a"): HeadToHead("b", "a", 0.0, 10)}
    result = TournamentResult([], [], {}, h2h)
    assert one_sided(result, "a") and one_sided(result, "b")
    h2h[("a", "b")] = HeadToHead("a", "b", 9.0, 10)
    h2h[("b", "a")] = HeadToHead("b", "a", 1.0, 10)
    assert not one_sided(result, "a") and not one_sided(result, "b")
