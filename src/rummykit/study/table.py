"""Rows to files and back: Parquet (pyarrow) or CSV, chosen by the file's extension.

The columns have fixed types, so a file reads back the same from either
format (and pandas, polars or DuckDB read it as it is): whole numbers are
64-bit integers, ``won_N`` are booleans, ``seconds`` is a float, and the rest
(bot levels, winners, reasons, ``opt_NAME`` option values) are text. A study
of ``n`` seats has the columns ``bot_S``, ``won_S``, ``score_S`` and
``total_S`` for each seat ``S`` from 0 to ``n - 1``.

>>> import tempfile, pathlib
>>> rows = [{"setting": 0, "game": 0, "seed": 5, "players": 2, "first_seat": 1, "seat_order": "1,0",
...          "winners": "1", "reason": "rack-empty", "round_reason": "rack-empty", "rounds": 1, "turns": 30,
...          "actions": 30, "seconds": 0.01, "bot_0": "random", "won_0": False, "score_0": -12, "total_0": -12,
...          "bot_1": "greedy", "won_1": True, "score_1": 12, "total_1": 12, "opt_jokers": "2"}]
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_rows(rows, folder / "games.csv"); read_rows(folder / "games.csv") == rows
True
>>> write_rows(rows, folder / "games.parquet"); read_rows(folder / "games.parquet") == rows
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rummykit.errors import OptionError
from rummykit.study.runner import Row

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["FORMATS", "INT_COLUMNS", "TEXT_COLUMNS", "check_out_path", "read_rows", "write_rows"]

FORMATS = (".parquet", ".csv")
INT_COLUMNS = ("table", "setting", "game", "seed", "players", "first_seat", "rounds", "turns", "actions")
TEXT_COLUMNS = ("seat_order", "winners", "reason", "round_reason")
FLOAT_COLUMNS = ("seconds",)
REQUIRED = ("players", "first_seat", "winners", "turns", "actions", "rounds", "bot_0", "won_0")
_SEAT = re.compile(r"^(bot|won|score|total)_(\d+)$")


def check_out_path(path: str | Path) -> Path:
    """``path`` if it names a .parquet or .csv file in an existing folder, else :class:`OptionError`."""
    out = Path(path).expanduser()
    if out.suffix.lower() not in FORMATS:
        raise OptionError(f"--out {path}: name a .parquet or .csv file (the extension chooses the format)")
    if out.is_dir():
        raise OptionError(f"--out {path} is a folder: name a .parquet or .csv file")
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise OptionError(f"--out {path}: the folder {out.parent} does not exist")
    return out


def _column_type(name: str) -> pa.DataType:
    import pyarrow as pa

    if name in INT_COLUMNS:
        return pa.int64()
    if name in FLOAT_COLUMNS:
        return pa.float64()
    seat = _SEAT.match(name)
    if seat is not None:
        kind = seat.group(1)
        return pa.bool_() if kind == "won" else pa.string() if kind == "bot" else pa.int64()
    return pa.string()


def _order(names: list[str]) -> list[str]:
    """The columns in a stable order: the game's, then per seat, then the options, then anything else."""
    fixed = [*INT_COLUMNS[:6], "seat_order", "winners", "reason", "round_reason", *INT_COLUMNS[6:]]
    head = [c for c in fixed if c in names]
    seats = sorted((c for c in names if _SEAT.match(c)), key=lambda c: (int(c.rsplit("_", 1)[1]), c.split("_")[0]))
    options = sorted(c for c in names if c.startswith("opt_"))
    tail = [c for c in names if c not in head and c not in seats and c not in options]
    return head + seats + options + tail


def to_table(rows: Sequence[Row]) -> pa.Table:
    """The rows as an Arrow table with the fixed column types (missing cells are nulls)."""
    import pyarrow as pa

    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    columns = _order(list(names))
    schema = pa.schema([(name, _column_type(name)) for name in columns])
    return pa.Table.from_pylist([dict(row) for row in rows], schema=schema)


def write_rows(rows: Sequence[Row], path: str | Path) -> None:
    """Write ``rows`` as Parquet or CSV by ``path``'s extension."""
    out = check_out_path(path)
    table = to_table(rows)
    try:
        if out.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, out)
        else:
            import pyarrow.csv as pcsv

            pcsv.write_csv(table, out)
    except OSError as exc:
        raise OptionError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_rows(path: str | Path) -> list[Row]:
    """The rows of a file written by :func:`write_rows` (clear :class:`OptionError` for anything else)."""
    file = Path(path).expanduser()
    if not file.is_file():
        raise OptionError(f"{path}: no such file")
    suffix = file.suffix.lower()
    if suffix not in FORMATS:
        raise OptionError(f"{path}: expected a .parquet or .csv file written by rummykit simulate")
    import pyarrow as pa

    try:
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(file)
        else:
            import pyarrow.csv as pcsv

            with file.open("rb") as f:
                header = f.readline().decode("utf-8", errors="replace")
            names = [n.strip().strip('"') for n in header.strip().split(",")]
            types = {name: _column_type(name) for name in names}
            table = pcsv.read_csv(
                file,
                convert_options=pcsv.ConvertOptions(column_types=types, strings_can_be_null=False),
            )
    except (pa.ArrowException, OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise OptionError(f"{path}: not a readable {suffix[1:]} file of game rows ({first})") from None
    missing = [c for c in REQUIRED if c not in table.column_names]
    if missing:
        raise OptionError(
            f"{path}: not a file of game rows from rummykit simulate (no column {', '.join(missing)})"
        )
    if table.num_rows == 0:
        raise OptionError(f"{path}: holds no games")
    rows: list[Row] = table.to_pylist()
    # a CSV holds a seat column for every seat of its widest game: drop the empty cells
    return [{k: v for k, v in row.items() if v is not None} for row in rows]
