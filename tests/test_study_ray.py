"""``--backend ray`` plays the same study as local processes, on a local Ray instance.

Ray is an optional extra (``rummykit[ray]``) and part of the ``dev`` extra,
so ``make test`` runs this; it is skipped only where Ray is not installed
and CI is not set (under CI a missing Ray fails the test).
"""

from __future__ import annotations

import importlib.util
import io
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.main import main
from rummykit.study import Row, read_rows, simulate

HAVE_RAY = importlib.util.find_spec("ray") is not None

pytestmark = pytest.mark.skipif(
    not HAVE_RAY and os.environ.get("CI", "").lower() not in ("1", "true", "yes"),
    reason="Ray is not installed (pip install 'rummykit[ray]'); under CI this test runs and needs it",
)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    import ray as ray_module  # fails (not skips) under CI when Ray is missing

    ray_module.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield ray_module
    finally:
        ray_module.shutdown()


def timeless(rows: list[Row]) -> list[Row]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_ray_plays_the_same_rows_as_local_processes(local_ray: Any) -> None:
    kwargs: dict[str, Any] = {"players": 3, "bots": ["greedy", "random"], "games": 10, "seed": 13}
    on_ray = simulate("domino-rummikub", backend="ray", **kwargs)
    local = simulate("domino-rummikub", workers=2, **kwargs)
    assert len(on_ray) == 10
    assert timeless(on_ray) == timeless(local)


def test_the_simulate_command_writes_the_same_file_on_ray(local_ray: Any, tmp_path: Path) -> None:
    files = []
    for name, backend in (("ray.parquet", ["--backend", "ray"]), ("local.parquet", ["--workers", "2"])):
        out = tmp_path / name
        args = ["simulate", "rummikub", "--bot", "greedy,random", "--games", "8", "--seed", "3", "--out", str(out)]
        status = main([*args, *backend, "--no-progress"], stdout=io.StringIO(), stderr=io.StringIO())
        assert status == 0
        files.append(read_rows(out))
    assert timeless(files[0]) == timeless(files[1])
