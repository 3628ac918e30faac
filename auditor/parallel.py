"""Worker processes for ingest and replay.

Only the main process touches the store; workers get plain data (bytes, Arrow
tables) and return Arrow tables.  A forkserver keeps them clear of the main
process's DuckDB threads, and results come back in submission order, so what is
stored never depends on how many workers ran.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

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


def arrow_without_pandas() -> None:
    """Spare this process pyarrow's import of pandas (0.3 to 0.4 s of CPU; pyarrow
    also imports ``pyarrow.compute`` with it).  At its first conversion of Python
    values, or of any array it is given, pyarrow imports pandas to tell pandas
    objects apart; neither the workers nor the coordinator (which only commits)
    hands it pandas objects.  The import is tried once, while pandas cannot be
    found, and pyarrow then goes on without pandas until something needs it: a
    ``to_pandas`` (or ``pa.array`` of a pandas Series) imports pandas then, as
    before (tests/test_segments.py checks this).  With pandas already imported,
    nothing is done."""
    if "pandas" in sys.modules:
        return

    class NoPandas:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "pandas":
                raise ImportError("pandas is not needed here")

    sys.meta_path.insert(0, NoPandas)
    try:
        import pyarrow

        pyarrow.array([0])
    finally:
        sys.meta_path.remove(NoPandas)


def _worker_start(main_pid: int) -> None:
    _exit_with(main_pid)
    arrow_without_pandas()


def _main_importable() -> bool:
    """Whether a worker can import the main module, as it must: a script read from
    standard input (``python - < script.py``) has no file to import it from."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    return path is None or os.path.isfile(path)


# Items given to each worker ahead of the one the caller waits for.  Four, not two:
# while the caller commits (some 0.6 s per 10,000 hands at ingest) the workers keep
# parsing instead of waiting on it (100k hands: 27.5 s instead of 28.8; 30 MiB more).
IN_FLIGHT = 4


def _gc_paused(fn: Callable[..., R], item, *extra) -> R:
    """``fn(item, *extra)`` with Python's cyclic garbage collector paused.  A unit's
    objects (parsed hands, their events, the replay's facts) live until the unit is
    done and form no cycles, yet as they pile up the collector walks them again and
    again: a third of a parse worker's time (0.52 against 0.33 ms a hand).  What
    cyclic garbage a unit leaves is collected once the collector is back on."""
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
    whatever ``jobs`` says (``auditor.distributed.dask_map``)."""
    if cluster is not None:
        from auditor.distributed import dask_map

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
        ctx.set_forkserver_preload(["auditor.units", "replay.runner", "pokerkit"])
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
