"""Running the workers' tasks on a Dask cluster (``--dask local`` or ``--dask tcp://HOST:PORT``).

The shape is ``auditor.parallel.worker_map``'s: a ``map(items)`` whose results come
back in submission order, with a bounded number of items in flight, so what is
stored never depends on where or in what order the tasks ran.  Only plain,
picklable data goes to a worker (file parts with their paths or bytes, Arrow
tables) and only Arrow tables and small records come back; the store stays in
this process.

A worker reads the small input files itself, by their resolved (absolute) path,
so every worker must see the inputs at the same path as this process: a shared
filesystem.  ``check_workers`` makes sure of it before any work is sent.  Needs
the optional extra: ``pip install 'tda-auditor[dask]'``.
"""

from __future__ import annotations

import os
import uuid
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# a scheduler that does not answer, or has no worker, within this many seconds is an error
CONNECT_TIMEOUT = 10


class DaskError(Exception):
    """The cluster cannot be used: Dask is not installed, the scheduler cannot be
    reached, or a worker cannot import the project or see an input."""


def _dask():
    try:
        import distributed
    except ImportError as e:
        raise DaskError("--dask needs Dask's distributed scheduler: pip install 'tda-auditor[dask]'") from e
    return distributed


# Dask's own upkeep, slowed for processes that do a few long tasks each: its
# statistical profiler (a stack sample every 10 ms of every task), its event-loop
# watchdog (a tick every 20 ms) and its system and memory monitors cost an idle
# LocalCluster of two workers 0.15 of a core (measured: 0.047 a worker and 0.056
# the scheduler's process, against 0.004 and 0.010 with these).  Workers started
# by ``dask worker`` take the same settings from the environment:
# DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False and so on.
QUIET_UPKEEP = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


@contextmanager
def connect(spec: str, workers: int | None = None) -> Iterator:
    """A ``distributed.Client`` for ``spec``: ``local`` starts a ``LocalCluster`` of
    ``workers`` processes (default: all cores) with one thread each, ended on exit;
    ``tcp://HOST:PORT`` (or any address Dask takes) joins a running scheduler."""
    distributed = _dask()
    import dask

    from auditor.parallel import default_jobs

    if spec != "local" and "://" not in spec:
        raise DaskError(f"--dask takes 'local' or a scheduler's address such as tcp://host:8786, not {spec!r}")
    with dask.config.set(QUIET_UPKEEP):
        if spec == "local":
            # one thread a worker: parsing and replay are pure Python, threads would share one core
            cluster = distributed.LocalCluster(n_workers=workers or default_jobs(), threads_per_worker=1,
                                               processes=True, dashboard_address=None)
            try:
                with distributed.Client(cluster, direct_to_workers=True) as client:
                    yield client
            finally:
                cluster.close()
            return
        try:
            # results come straight from the workers, not through the scheduler
            client = distributed.Client(spec, timeout=CONNECT_TIMEOUT, direct_to_workers=True)
        except (OSError, TimeoutError) as e:
            raise DaskError(f"cannot reach the Dask scheduler at {spec}: {e}") from e
        try:
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as e:
                raise DaskError(f"the Dask scheduler at {spec} has no worker (none joined within {CONNECT_TIMEOUT} s)") from e
            yield client
        finally:
            client.close()


def _probe(folders: list[str]) -> tuple[str | None, str | None, list[str]]:
    """Run on each worker: the project's version as the worker imports it (or why it
    cannot), and which of ``folders`` it cannot list."""
    try:
        import auditor
        import auditor.units  # noqa: F401 - the tasks' own module, with the parsers and the engine
    except Exception as e:  # noqa: BLE001 - reported with the worker's name
        return None, f"{type(e).__name__}: {e}", []
    return auditor.__version__, None, [f for f in folders if not os.path.isdir(f)]


def check_workers(client, paths: Iterable[str | os.PathLike] = ()) -> None:
    """Make sure every worker of ``client`` imports the same version of the project
    and sees the folders of ``paths`` (files or folders, as this process resolves
    them): the inputs, or the store's segment folder, must be on storage they all
    read, at the same path.  Raises ``DaskError`` naming the worker and the path."""
    import auditor

    folders = sorted({os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))) for p in paths})
    for worker, (version, why, missing) in sorted(client.run(_probe, folders).items()):
        if why is not None:
            raise DaskError(f"Dask worker {worker} cannot import tda-auditor ({why}): install the same version "
                            f"({auditor.__version__}) on every worker")
        if version != auditor.__version__:
            raise DaskError(f"Dask worker {worker} runs tda-auditor {version}, this process {auditor.__version__}: "
                            "install the same version on every worker")
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise DaskError(f"Dask worker {worker} cannot see {missing[0]}{more}: the inputs (and the store's segment "
                            "folder) must be on storage every worker reads at the same path, such as a shared filesystem")


def workers_of(client) -> int:
    """The threads the cluster's workers run tasks on."""
    return max(1, sum(client.nthreads().values()))


@contextmanager
def dask_map(client, fn: Callable[..., R], *extra) -> Iterator[Callable[[Iterable[T]], Iterator[R]]]:
    """``auditor.parallel.worker_map`` on a Dask cluster: ``run(items)`` submits
    ``fn(item, *extra)`` as one task per item, at most ``IN_FLIGHT`` per worker
    thread ahead of the result the caller waits for (memory stays bounded however
    long ``items`` is: a task's result stays on its worker until taken), and yields
    the results in submission order.  A task that fails raises its own exception
    here, as in a local worker; what is still in flight is then cancelled."""
    from auditor.parallel import IN_FLIGHT, _gc_paused

    limit = IN_FLIGHT * workers_of(client)
    name = getattr(fn, "__name__", "task")

    def run(items: Iterable[T]) -> Iterator[R]:
        pending: deque = deque()
        try:
            for item in items:
                # pure=False: no hashing of the item to name the task
                pending.append(client.submit(_gc_paused, fn, item, *extra, key=f"{name}-{uuid.uuid4().hex}", pure=False))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            if pending:
                client.cancel(list(pending))

    def call(f: Callable[..., R], *args) -> R:
        """One call of ``f`` on a worker, waited for (``worker_map``'s ``run.call``)."""
        return client.submit(f, *args, key=f"{getattr(f, '__name__', 'call')}-{uuid.uuid4().hex}", pure=False).result()

    def submit(f: Callable[..., R], *args):
        """One call of ``f`` on a worker, not waited for: a Dask future (``worker_map``'s ``run.submit``)."""
        return client.submit(f, *args, key=f"{getattr(f, '__name__', 'submit')}-{uuid.uuid4().hex}", pure=False)

    run.call = call  # type: ignore[attr-defined]
    run.submit = submit  # type: ignore[attr-defined]
    yield run
