"""The progress bar of a study: games done, games per second and the time left (rich)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(total: int, err: TextIO, *, label: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """A callback advancing a bar of ``total`` games drawn on ``err`` (a no-op when not ``enabled``).

    On a terminal the bar is redrawn in place; elsewhere (a log, a pipe) rich
    prints it once, at the end.
    """
    if not enabled:
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class SpeedColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.1f} games/s", style="progress.data.speed")

    console = Console(file=err, stderr=False)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        SpeedColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
        speed_estimate_period=60.0,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.advance(task, done)
