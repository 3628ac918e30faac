"""Running units of work: in local worker processes, or as tasks on a Dask cluster
(``--dask local`` or ``--dask tcp://HOST:PORT``).  The one module that knows how work
is run; what a unit does is ``auditor.units`` (ingest) and ``auditor.facts`` (replay
of the store).

Only the main process touches the store; workers get plain data (file parts with
their paths or bytes, Arrow tables) and return Arrow tables and small records.
Results come back in submission order, with a bounded number of items in flight,
so what is stored never depends on how many workers ran, or where.  Local workers
start from a forkserver, clear of the main process's DuckDB threads.

A Dask worker reads the small input files itself, by their resolved (absolute)
path, so every worker must see the inputs at the same path as this process: a
shared filesystem.  ``check_workers`` makes sure of it before any work is sent.
Dask needs the optional extra: ``pip install 'tda-auditor[dask]'``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
import time
import uuid
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from auditor.store import arrow_without_pandas

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """All the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


_PROC = os.path.isdir("/proc/self")  # Linux


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a killed process that nobody has reaped
    yet, a zombie, does not).  Where this cannot be told without harm (Windows,
    whose os.kill ends the process), every process counts as running."""
    if _PROC:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except FileNotFoundError:
            return False
        except OSError:
            return True
    if os.name == "posix":  # macOS, the BSDs: a zombie counts as running until reaped
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
    return True


def descendants(root: int) -> set[int]:
    """The processes below ``root`` (its workers, the forkserver), read from /proc
    (Linux); the benchmark sums their memory, the crash test sees them end."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass  # ended meanwhile
    tree = {root}
    while more := {pid for pid, pp in parent.items() if pp in tree} - tree:
        tree |= more
    return tree - {root}


def _exit_with(main_pid: int, every: float = 0.5) -> None:
    """Worker initializer: end this worker when the main process is gone.  A main
    process that is killed (SIGKILL, the kernel's out-of-memory killer) cannot stop
    its workers, and they, waiting on a queue they hold both ends of, would wait
    forever, and keep the forkserver alive with them."""

    def watch() -> None:
        while _alive(main_pid):
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="watch-main", daemon=True).start()


def _worker_start(main_pid: int) -> None:
    _exit_with(main_pid)
    arrow_without_pandas()


def _main_importable() -> bool:
    """Whether a worker can import the main module, as it must: a script read from
    standard input (``python - < script.py``) has no file to import it from."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    return path is None or os.path.isfile(path)


# Items given to each worker ahead of the one the caller waits for: enough that the
# workers keep parsing while the caller commits (bench/README.md, 2026-12-07)
IN_FLIGHT = 4


def _gc_paused(fn: Callable[..., R], item, *extra) -> R:
    """``fn(item, *extra)`` with Python's cyclic garbage collector paused.  A unit's
    objects (parsed hands, their events, the replay's facts) live until the unit is
    done and form no cycles, yet as they pile up the collector walks them again and
    again (bench/README.md, 2026-12-07).  What cyclic garbage a unit leaves is
    collected once the collector is back on."""
    if not gc.isenabled():
        return fn(item, *extra)
    gc.disable()
    try:
        return fn(item, *extra)
    finally:
        gc.enable()


def _done_now(f: Callable[..., R], *args) -> Future:
    """``f(*args)`` run here, as a Future already done (``run.submit`` without workers)."""
    done: Future = Future()
    try:
        done.set_result(f(*args))
    except Exception as e:  # noqa: BLE001 - raised again by result(), as a worker's would be
        done.set_exception(e)
    return done


@contextmanager
def worker_map(fn: Callable[..., R], jobs: int, *extra, cluster=None) -> Iterator[Callable[[Iterable[T]], Iterator[R]]]:
    """A ``map(items)`` that runs ``fn(item, *extra)`` in ``jobs`` worker processes
    (in this process when ``jobs`` is 1), in order, with at most ``IN_FLIGHT``
    items per worker in flight so memory stays bounded however long ``items`` is.  Where no
    worker could start (see ``_main_importable``) it runs in this process.  With
    ``cluster`` (a ``distributed.Client``) the tasks run on its workers instead,
    whatever ``jobs`` says (``dask_map``)."""
    if cluster is not None:
        with dask_map(cluster, fn, *extra) as run:
            yield run
        return
    if jobs <= 1 or not _main_importable():
        def local(items: Iterable[T]) -> Iterator[R]:
            return (_gc_paused(fn, item, *extra) for item in items)

        local.call = lambda f, *args: f(*args)  # type: ignore[attr-defined]
        local.submit = _done_now  # type: ignore[attr-defined]
        yield local
        return
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # imported once in the forkserver, not per worker (the engine imports pokerkit at
        # its first showdown)
        ctx.set_forkserver_preload(["auditor.units", "auditor.facts", "pokerkit"])
    else:  # Windows
        ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_start, initargs=(os.getpid(),))

    def run(items: Iterable[T]) -> Iterator[R]:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(_gc_paused, fn, item, *extra))
            if len(pending) >= IN_FLIGHT * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    # ``run.call(f, *args)``: one call of ``f`` on a worker, waited for (ingest plans a
    # big file there, so that this process never reads it)
    run.call = lambda f, *args: pool.submit(f, *args).result()  # type: ignore[attr-defined]
    # ``run.submit(f, *args)``: one call of ``f`` on a worker, not waited for (a Future: the
    # segment merges of ``auditor.segments.Merger`` run beside the units)
    run.submit = pool.submit  # type: ignore[attr-defined]
    try:
        yield run
    finally:
        pool.shutdown(cancel_futures=True)


# ---- Dask ----

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
# statistical profiler, its event-loop watchdog and its system and memory monitors
# cost an idle cluster a share of a core (bench/README.md, 2026-12-07).  Workers started by ``dask worker``
# take the same settings from the environment:
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
    """``worker_map`` on a Dask cluster: ``run(items)`` submits
    ``fn(item, *extra)`` as one task per item, at most ``IN_FLIGHT`` per worker
    thread ahead of the result the caller waits for (memory stays bounded however
    long ``items`` is: a task's result stays on its worker until taken), and yields
    the results in submission order.  A task that fails raises its own exception
    here, as in a local worker; what is still in flight is then cancelled."""
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
