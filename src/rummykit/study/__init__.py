"""Studies: many seeded bot games on all cores (or a Ray cluster), tournaments and reports.

The library side of ``rummykit simulate``, ``rummykit tournament`` and
``rummykit report`` (docs/study.md). :func:`simulate` plays a study and
returns one row (a dict) per game; :func:`write_rows` and :func:`read_rows`
store rows as Parquet or CSV.

>>> rows = simulate("rummikub", players=2, bots=["greedy", "random"], rotate=True, games=4, seed=1,
...                 workers=1)
>>> [(row["bot_0"], row["bot_1"]) for row in rows]
[('greedy', 'random'), ('random', 'greedy'), ('greedy', 'random'), ('random', 'greedy')]
>>> all(row["winners"] for row in rows)
True

Heavy libraries (pyarrow, matplotlib, rich, ray) are loaded only by the
functions that need them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rummykit.study.runner import (
    Row,
    RunResult,
    Study,
    StudyError,
    game_seed,
    make_study,
    play_game,
    run_studies,
    seat_levels,
)
from rummykit.study.table import read_rows, write_rows

__all__ = [
    "Row",
    "RunResult",
    "Study",
    "StudyError",
    "game_seed",
    "make_study",
    "play_game",
    "read_rows",
    "run_studies",
    "seat_levels",
    "simulate",
    "write_rows",
]


def simulate(
    game: str,
    *,
    players: int | None = None,
    bots: Sequence[str] = ("random",),
    rotate: bool | None = None,
    options: Mapping[str, str] | None = None,
    vary: Mapping[str, Sequence[str]] | None = None,
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[Row]:
    """Play a study (see :func:`make_study` for the arguments); one row per game, in (setting, game) order.

    ``workers`` (default all cores) and ``backend`` (``local`` or ``ray``,
    at ``address``) change only how fast it runs, never the rows (bar the
    ``seconds`` column). A Ctrl-C returns the games finished so far.
    """
    study = make_study(
        game, players=players, bots=bots, rotate=rotate, options=options, vary=vary, games=games, seed=seed
    )
    return run_studies([study], workers=workers, backend=backend, address=address).rows[0]
