"""The Ray backend: the same tasks as the local pool, run on a Ray cluster (``pip install rummykit[ray]``).

Each task plays a chunk of games and returns their rows; the rows are sorted
afterwards, so a study gives the same file on Ray as on local processes. When
Ray is already initialised in this process (a test's ``ray.init(num_cpus=2)``,
or a notebook) its connection is used; otherwise ``ray.init(address)`` joins
the cluster at ``address`` (None: starts a local instance, shut down at the
end). Every node needs rummykit installed, at the same version.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from rummykit.errors import OptionError

if TYPE_CHECKING:
    from ray import ObjectRef

__all__ = ["check_ray", "ray_results"]

Job = TypeVar("Job")
Out = TypeVar("Out")


def check_ray() -> None:
    """Refuse ``--backend ray`` when Ray is not installed, saying how to install it."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise OptionError(
            '--backend ray needs Ray: pip install "rummykit[ray]" (or: pip install "ray>=2.30,<3")'
        ) from None


def ray_results(jobs: Sequence[Job], address: str | None, play: Callable[[Job], Out]) -> Iterator[Out]:
    """Run ``play(job)`` for every job on Ray; yields each result as it comes in (any order).

    On Ctrl-C (or when the caller stops early) the tasks still running are cancelled.
    """
    check_ray()
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise OptionError(f"cannot reach a Ray cluster at {address or 'a new local instance'}: {exc}") from None
    remote = ray.remote(play)
    pending: list[ObjectRef[Out]] = [remote.remote(job) for job in jobs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
