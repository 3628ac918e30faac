"""Ingest: read history files into the append-only event log.

Files are parsed in worker processes (``auditor.units``): big files in chunks
split where a hand starts, small files many at a time.  This process alone
writes the store, taking the parsed units in file order, so the result never
depends on the number of workers.  Each commit holds whole hands, with their
seats and events (and, for ``audit``, their replay facts): an interrupted
ingest leaves no partial hand behind, and running it again stores the rest.
A hand already stored (same content hash) is a duplicate; the same hand id with
different content is a conflict, reported and never overwritten.  The totals
always reconcile::

    hands seen = stored + duplicates + rejected
"""

from __future__ import annotations

import datetime as dt
import functools
import glob
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import duckdb
import numpy as np
import pyarrow as pa

from auditor import schema, segments
from auditor.execution import check_workers, default_jobs, worker_map
from auditor.store import WRITE_MEMORY, connect, facts_cover, insert_arrow, memory_at_most, one_thread, rollback, segments_root, transaction, tuples_to_arrow
from auditor.units import (CHUNK_BYTES, UnitJob, UnitManifest, _real_dir, file_size, plan_units, real_path, scan_file,
                           write_unit)
from parsers.base import NOT_HANDS, HandError

# Commit once this many hands are pending (at the end of a unit).  Fewer, larger commits
# write less to the WAL: DuckDB writes whole row groups of a large commit straight to
# the database, the rest goes to the WAL and is written again at the next checkpoint (bench/README.md, 2026-12-07).
BATCH_HANDS = 10_000
FLUSH_HANDS = 2_500  # new rows are inserted once this many hands are buffered (and at commit)
# audit: the workers check the committed hands once this many are committed (and at the
# end).  Each check costs some 6 ms a batch whatever its rows (_WorkerChecks).
CHECK_HANDS = 30_000


class InputError(Exception):
    """A path that does not exist or holds nothing to read."""


@dataclass
class FileResult:
    path: str
    format: str | None
    seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    error: str | None = None  # file-level problem (not a history, unreadable)
    sha256: str | None = field(default=None, repr=False)  # for its error rows
    read_at: dt.datetime | None = field(default=None, repr=False)
    source_id: int | None = field(default=None, repr=False)


@dataclass
class IngestSummary:
    files: int = 0
    hands_seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    seconds: float = 0.0
    file_results: list[FileResult] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    # ingest(checks=True): the workers ran the scope-hand checks under this edition for
    # the hands of this ingest's units, numbered from checked_from_unit on
    # (auditor.checks.run_checks' checked_from_unit)
    checked_edition: str | None = field(default=None, repr=False)
    checked_from_unit: int | None = field(default=None, repr=False)

    @property
    def nothing_read(self) -> bool:
        """Files were given and none of them held a history this tool reads."""
        return bool(self.files) and all(r.error for r in self.file_results)

    def files_not_read(self) -> list[dict]:
        return [{"path": r.path, "reason": r.error} for r in self.file_results if r.error]

    def rejections(self) -> list[dict]:
        """The errors of the hands rejected (as many as ``rejected``)."""
        return [e for e in self.errors if e["line"] and e["reason_code"] not in NOT_HANDS]

    def unread_lines(self) -> list[dict]:
        """The errors of lines after a file's last hand that hold no hand (``NOT_HANDS``)."""
        return [e for e in self.errors if e["reason_code"] in NOT_HANDS]

    def as_json(self) -> dict:
        return {
            "files": self.files,
            "hands_seen": self.hands_seen,
            "hands": self.stored,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "seconds": round(self.seconds, 3),
            "files_not_read": self.files_not_read(),
            "errors": self.errors,
        }


class _KeySet:
    """A growing set of 64-bit keys (uniform hashes), for membership tests of many
    keys at once.  The keys are in a big sorted array and a small sorted one that
    new keys go into, folded into the big one once it holds an eighth as many: one
    sorted array (as before) was copied whole at every commit, which at 9M stored
    hands cost the coordinator 13 s of CPU a million hands, against 7 s in all for
    an empty store.  In front of them, a bitmap of the keys' top bits (8 to 16 bits
    a key: 16 MiB at 10M keys): a key whose bit is clear, as some nine new hands in
    ten are, is known absent without a binary search over the arrays (a cache miss
    a step; 80 times slower).

    >>> s = _KeySet(np.array([5, 1], np.uint64)); s.add(np.array([3], np.uint64))
    >>> s.contains(np.array([3, 4, 5, 1], np.uint64)).tolist()
    [True, False, True, True]
    """

    BITS_A_KEY = 8  # at least: a clear bit for some 88% of absent keys

    def __init__(self, keys: np.ndarray):
        self.big = np.sort(np.asarray(keys, dtype=np.uint64))
        self.small = np.zeros(0, np.uint64)
        self._bitmap()

    def _bitmap(self) -> None:
        """A bitmap sized for every key held (at least BITS_A_KEY bits a key), marked."""
        bits = max(16, int((len(self.big) + len(self.small)) * self.BITS_A_KEY).bit_length())
        self.shift = np.uint64(64 - bits)
        self.bitmap = np.zeros(1 << (bits - 3), np.uint8)
        self._mark(self.big)
        self._mark(self.small)

    MARK_CHUNK = 1 << 20  # keys marked at once: their temporary arrays some 30 MB, not 30 bytes a key

    def _mark(self, keys: np.ndarray) -> None:
        for at in range(0, len(keys), self.MARK_CHUNK):
            top = np.sort(keys[at:at + self.MARK_CHUNK] >> self.shift)
            byte = top >> np.uint64(3)
            bit = np.left_shift(1, top & np.uint64(7)).astype(np.uint8)
            # the bits of one byte ORed together (ufunc.at, which does this a key at a time, is 10x slower)
            first = np.flatnonzero(np.r_[True, byte[1:] != byte[:-1]])
            self.bitmap[byte[first]] |= np.bitwise_or.reduceat(bit, first)

    @staticmethod
    def _into(known: np.ndarray, add: np.ndarray) -> np.ndarray:
        return np.insert(known, np.searchsorted(known, add), add)

    def add(self, keys: np.ndarray) -> None:
        keys = np.sort(np.asarray(keys, dtype=np.uint64))
        self.small = self._into(self.small, keys)
        if 8 * len(self.small) > len(self.big):
            self.big, self.small = self._into(self.big, self.small), np.zeros(0, np.uint64)
        if (len(self.big) + len(self.small)) * self.BITS_A_KEY > 8 * len(self.bitmap):
            self._bitmap()  # grown: a bitmap twice the size, from every key
        else:
            self._mark(keys)

    def keys(self) -> np.ndarray:
        """Every key held, sorted."""
        return self._into(self.big, self.small)

    @staticmethod
    def _in(known: np.ndarray, ordered: np.ndarray) -> np.ndarray:
        if not len(known):
            return np.zeros(len(ordered), dtype=bool)
        return known[np.minimum(np.searchsorted(known, ordered), len(known) - 1)] == ordered

    def contains(self, keys: np.ndarray) -> np.ndarray:
        """Whether each key is in the set."""
        keys = np.asarray(keys, dtype=np.uint64)
        top = keys >> self.shift
        found = ((self.bitmap[top >> np.uint64(3)] >> (top & np.uint64(7)).astype(np.uint8)) & 1).astype(bool)
        if found.any():
            # searched in order: a binary search starting where the last one ended
            maybe = np.sort(keys[found])
            hit = self._in(self.big, maybe) | self._in(self.small, maybe)
            found[found] = np.isin(keys[found], maybe[hit])
        return found


class _KnownHands:
    """Which hand ids and contents the store holds, without scanning the store for
    every unit (that would grow with the store): the 64-bit keys
    (``segments.key_hashes``, which the workers compute) of every stored hand id and
    content hash (the catalog's ``hand_keys``) in two ``_KeySet``, 8 bytes a hand
    each.  Only values whose key is known are looked up in ``hand_keys``, exactly,
    so a collision costs a query and never a wrong answer.  Hands taken since the
    last commit are kept as keys too, and their values, looked at only when a key
    matches."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        got = con.execute(f"SELECT {segments.key_sql('hand_id')} AS i, {segments.key_sql('content_hash')} AS c "
                          "FROM hand_keys").fetchnumpy()
        self.ids = _KeySet(got["i"])
        self.contents = _KeySet(got["c"])
        self.forget()

    def lookup(self, ids: pa.Array, id_keys: np.ndarray, contents: pa.Array,
               content_keys: np.ndarray) -> tuple[set[str], set[str]]:
        """Of the given content hashes, those already stored or taken; of the given
        hand ids, those already stored or taken (as nearly always: none, found by
        the keys alone)."""
        stored_id, stored_content = self.ids.contains(id_keys), self.contents.contains(content_keys)
        tx_id, tx_content = self.tx_id_keys.contains(id_keys), self.tx_content_keys.contains(content_keys)
        known_hash: set[str] = set()
        known_id: set[str] = set()
        if stored_content.any():
            maybe = contents.filter(pa.array(stored_content)).to_pylist()
            known_hash = {r[0] for r in self.con.execute(
                "SELECT content_hash FROM hand_keys WHERE content_hash IN (SELECT unnest(?::VARCHAR[]))", [maybe]
            ).fetchall()}
        if stored_id.any():
            maybe = ids.filter(pa.array(stored_id)).to_pylist()
            known_id = {r[0] for r in self.con.execute(
                "SELECT hand_id FROM hand_keys WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))", [maybe]
            ).fetchall()}
        if tx_content.any():
            taken = {v for a in self.tx_contents for v in a.to_pylist()}
            known_hash |= taken.intersection(contents.filter(pa.array(tx_content)).to_pylist())
        if tx_id.any():
            taken = {v for a in self.tx_ids for v in a.to_pylist()}
            known_id |= taken.intersection(ids.filter(pa.array(tx_id)).to_pylist())
        return known_hash, known_id

    def add_all(self, ids: pa.Array, contents: pa.Array, id_keys: np.ndarray, content_keys: np.ndarray) -> None:
        """Hands being stored (in the key sets once their transaction commits: ``merge``)."""
        self.tx_ids.append(ids)
        self.tx_contents.append(contents)
        self.tx_id_keys.add(id_keys)
        self.tx_content_keys.add(content_keys)

    def merge(self) -> None:
        self.ids.add(self.tx_id_keys.keys())
        self.contents.add(self.tx_content_keys.keys())
        self.forget()

    def forget(self) -> None:
        self.tx_id_keys = _KeySet(np.zeros(0, np.uint64))  # keys of the hands taken since the last commit
        self.tx_content_keys = _KeySet(np.zeros(0, np.uint64))
        self.tx_ids: list[pa.Array] = []  # ... and the values themselves
        self.tx_contents: list[pa.Array] = []


def expand_paths(paths: Iterable[str | os.PathLike], unreadable: list[tuple[str, str]] | None = None) -> list[Path]:
    """Files, folders (recursively) and globs, in a stable order.  Hidden files
    (``.DS_Store``) are left out.  A path that matches nothing is an error; a folder
    that cannot be listed is appended to ``unreadable`` as (folder, why)."""
    out: list[Path] = []
    for p in paths:
        s = str(p)
        matches = [Path(m) for m in sorted(glob.glob(s, recursive=True))] if glob.has_magic(s) else [Path(s)]
        if not matches or not all(m.exists() for m in matches):
            raise InputError(f"{s}: no such file or folder")
        for m in matches:
            out.extend(_walk(m, unreadable) if m.is_dir() else [m])
    seen: set[str] = set()
    unique = []
    for f in out:
        r = real_path(f)
        if r not in seen:
            seen.add(r)
            unique.append(f)
    return unique


def _walk(folder: Path, unreadable: list[tuple[str, str]] | None) -> list[Path]:
    """The files below ``folder``, sorted, hidden files and folders left out and
    linked folders not followed (as ``Path.rglob``), and unlike it, a folder that
    cannot be listed is reported, not silently skipped."""

    def cannot_list(e: OSError) -> None:
        if unreadable is not None:
            unreadable.append((str(e.filename or folder), e.strerror or str(e)))

    found: list[str] = []  # strings: a Path per file costs more than the walk at 10,000 files
    for d, dirs, names in os.walk(folder, onerror=cannot_list):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        found += [f for n in names if not n.startswith(".") and os.path.isfile(f := os.path.join(d, n))]
    # in Path order: by their parts (a string sort would put 'a-b' before 'a/b')
    found.sort(key=lambda f: os.path.normcase(f).split(os.sep))
    return [Path(f) for f in found]


def ingest(
    paths: Iterable[str | os.PathLike],
    db: str | os.PathLike | None = None,
    *,
    con: duckdb.DuckDBPyConnection | None = None,
    progress: Callable[[FileResult], None] | None = None,
    jobs: int | None = None,
    replay: tuple[str, int] | None = None,
    on_commit: Callable[[IngestSummary], None] | None = None,
    cluster=None,
    checks: bool = False,
) -> IngestSummary:
    """Ingest files, folders or globs into the store and return the totals.

    ``jobs``: parse worker processes (default: all cores; small inputs are parsed
    here).  As with any Python multiprocessing, a script that calls this with
    more than one job keeps its top level under ``if __name__ == "__main__":``.
    ``replay``: (edition, raise cap) to replay each new hand as it is stored, its
    facts committed with it.  ``progress`` is called as each file is done,
    ``on_commit`` after each commit (with the totals so far).  ``cluster``: a
    ``distributed.Client`` whose workers parse instead of local processes
    (``auditor.execution``; they must see the inputs at the same paths).
    ``checks`` (with ``replay``): the workers also run the scope-hand checks over
    the committed hands, some ``CHECK_HANDS`` at a time (``_WorkerChecks``); the edition's checks are then
    'in-progress' until ``run_checks`` (given ``checked_from_unit``) has run the
    rest (``auditor.pipeline.audit``).

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> s = ingest(["sample_histories/"], db=os.path.join(d, "a.duckdb"))
    >>> s.hands_seen == s.stored + s.duplicates + s.rejected
    True
    """
    _real_dir.cache_clear()  # folders are resolved afresh for each ingest
    unreadable: list[tuple[str, str]] = []
    files = expand_paths(paths, unreadable)
    t0 = time.perf_counter()
    own = con is None
    con = con or connect(db)
    try:
        if replay is not None and not facts_cover(con, *replay):
            # the new hands' facts would sit beside older hands without any, or built otherwise
            raise ValueError(f"replay as stored needs {replay[0]}'s facts to cover the store with raise cap {replay[1]} "
                             "(auditor.pipeline.audit sees to it); ingest, then replay the store instead")
        summary = IngestSummary()
        checks = checks and replay is not None
        writer = _Writer(con, summary, replay[0] if replay else None, checks)
        if checks:
            summary.checked_edition, summary.checked_from_unit = writer.replay_edition, writer.next_unit
        for folder, why in unreadable:  # reported like a file that cannot be read
            summary.files += 1
            summary.file_results.append(FileResult(folder, None, error=f"unreadable folder: {why}"))
            writer.file_error(folder, "unreadable", f"unreadable folder: {why}")
        sizes = [file_size(f) for f in files]
        # worker processes pay off once there is more than a chunk to read
        jobs = max(1, jobs or default_jobs()) if sum(sizes) > CHUNK_BYTES else 1
        if cluster is not None:
            # the inputs, and the store's segment folder, which the workers write into
            check_workers(cluster, [*files, segments_root(con)])
        merger: segments.Merger | None = None
        checker: _WorkerChecks | None = None
        with memory_at_most(con, WRITE_MEMORY), one_thread(con):
            try:
                with worker_map(write_unit, jobs, replay, writer.root, cluster=cluster) as run:
                    # the workers also merge the committed segments, a tier at a time, so
                    # that the checks read a few dozen files a table, not one per unit
                    merger = segments.Merger(con, writer.root, run.submit)
                    # ... and check each committed batch's hands, before its segments are merged
                    checker = _WorkerChecks(con, writer.root, run.submit, replay[0]) if checks and replay else None
                    # a worker plans each big file (reads, hashes and cuts it): this process
                    # names byte ranges and never reads the text
                    scan = functools.partial(run.call, scan_file)
                    for unit in run(writer.jobs(plan_units(files, sizes, scan))):
                        for r in writer.take(unit):
                            summary.files += 1
                            summary.file_results.append(r)
                            if progress:
                                progress(r)
                        if writer.pending_hands >= BATCH_HANDS:
                            _committed(writer.commit(), merger, checker)
                            merger.collect()
                            if on_commit:
                                on_commit(summary)
                    _committed(writer.commit(), merger, checker, wait=True)
                    merger.collect(wait=True)
                if on_commit:
                    on_commit(summary)
            except BaseException:
                writer.rollback()  # before the bound is put back: an aborted transaction takes no SET
                if merger is not None:
                    merger.abandon()
                if checker is not None:
                    checker.abandon()
                raise
    finally:
        if own:
            con.close()
    summary.seconds = time.perf_counter() - t0
    return summary


_LOG_NAMES = {t.name for t in schema.LOG_TABLES}


def _committed(staged: list[segments.Staged], merger: segments.Merger, checker: _WorkerChecks | None,
               wait: bool = False) -> None:
    """Segments just committed go to the merger, or first to the workers' checks
    (their segments go to the merger once checked: a merge never retires a file a
    check still reads)."""
    if checker is None:
        merger.add(staged)
        return
    checker.add(staged, last=wait)
    merger.add(checker.collect(wait))


@dataclass
class _WorkerChecks:
    """The scope-hand checks of an ``audit`` run by the workers, a batch of committed
    hands (some ``CHECK_HANDS``: a few commits) at a time: a worker reads the
    batch's segments and returns their findings
    (``auditor.checks.check_segments``, through ``submit``: the pool's or Dask's),
    and this process inserts them, each batch's in one transaction, as they come
    back.  A batch, not a unit: the checks' queries cost some 6 ms each whatever
    the rows (``auditor.checks.WorkerChecks``).  From a batch's commit until
    ``run_checks`` is done, the edition's checks are 'in-progress' (``_Writer``):
    a crash in between leaves hands without their findings, which the next check
    run finds."""

    con: duckdb.DuckDBPyConnection
    root: str
    submit: Callable[..., object]
    edition: str
    running: list[tuple[object, list[segments.Staged]]] = field(default_factory=list)
    ready: list[segments.Staged] = field(default_factory=list)  # committed with no hands to check
    waiting: list[segments.Staged] = field(default_factory=list)  # committed, to check with the next ones

    def add(self, staged: list[segments.Staged], last: bool = False) -> None:
        """Segments just committed; checked once ``CHECK_HANDS`` hands wait (or ``last``)."""
        self.waiting += staged
        if not last and sum(s.rows for s in self.waiting if s.table == schema.HANDS.name) < CHECK_HANDS:
            return
        staged, self.waiting = self.waiting, []
        units = sorted({s.unit_id for s in staged if s.table == schema.HANDS.name})
        if not units:
            self.ready += staged
            return
        from auditor.checks import check_segments

        parts = self.con.execute("SELECT u.unit_id, u.part, s.path FROM unit_sources u JOIN sources s USING (source_id) "
                                 "WHERE u.unit_id IN (SELECT unnest(?::BIGINT[])) ORDER BY 1, 2", [units]).fetchall()
        files: dict[str, list[str]] = {}
        for s in staged:
            files.setdefault(s.table, []).append(f"{s.name}.parquet")
        self.running.append((self.submit(check_segments, self.root, self.edition, files, parts), staged))

    def collect(self, wait: bool = False) -> list[segments.Staged]:
        """Insert the findings of the batches checked (with ``wait``, of every batch),
        in commit order; returns their segments.  The caller holds no transaction."""
        out, self.ready = self.ready, []
        while self.running and (wait or self.running[0][0].done()):  # type: ignore[attr-defined]
            future, staged = self.running.pop(0)
            self._insert(future.result())  # type: ignore[attr-defined]
            out += staged
        return out

    def _insert(self, found: pa.Table) -> None:
        """One batch's findings, in one transaction."""
        if not found.num_rows:
            return
        with transaction(self.con):
            insert_arrow(self.con, schema.FINDINGS, found, keep_existing=True)

    def abandon(self) -> None:
        for future, _ in self.running:
            future.cancel()  # type: ignore[attr-defined]
        self.running, self.waiting, self.ready = [], [], []


class _Writer:
    """Takes the units' manifests in file order, keeps the per-file totals, and
    commits: the sources, errors, hand keys and segment rows in one transaction,
    then the segments written by the workers become visible (docs/storage.md)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: IngestSummary, replay_edition: str | None,
                 checks: bool = False):
        self.con = con
        self.root = segments_root(con)
        self.token = segments.new_token()
        self.summary = summary
        self.replay_edition = replay_edition
        self.in_tx = False
        self.pending_hands = 0
        self.stored_in_tx = 0
        self.sources = dict(con.execute("SELECT sha256, source_id FROM sources").fetchall())
        (self.next_source,) = con.execute("SELECT coalesce(max(source_id), 0) + 1 FROM sources").fetchone()
        (self.next_unit,) = con.execute("SELECT coalesce(max(unit_id), 0) + 1 FROM unit_sources").fetchone()
        self.errors: list[tuple] = []
        self.new_sources: list[tuple] = []
        self.open_files: dict[str, FileResult] = {}  # big files whose last chunk is still to come
        self.known = _KnownHands(con)
        # what the next commit writes to the catalog
        self.staged: list[segments.Staged] = []
        self.key_ids: list[pa.Array] = []  # each unit's new hand ids ...
        self.key_contents: list[pa.Array] = []  # ... and content hashes
        self.unit_sources: list[tuple[int, int, int]] = []
        self.checks = checks  # the workers check the committed batches (_WorkerChecks)
        self.cleared = False  # the scope-hand findings of the edition removed (checks.clear_hand_findings)

    def jobs(self, units: Iterable[list]) -> Iterable[UnitJob]:
        """The planned units, numbered: a unit's segments are named after it."""
        for parts in units:
            job = UnitJob(self.next_unit, f"u{self.next_unit:09d}-{self.token}", parts)
            self.next_unit += 1
            yield job

    def _begin(self) -> None:
        if not self.in_tx:
            self.con.execute("BEGIN TRANSACTION")
            self.in_tx = True

    def commit(self) -> list[segments.Staged]:
        """Commit what is taken; returns the segments committed (now in their folders)."""
        staged = self.staged
        if self.in_tx:
            self._flush_sources()
            self._flush_errors()
            if self.key_ids:
                insert_arrow(self.con, schema.HAND_KEYS, pa.table(
                    {"hand_id": pa.chunked_array(self.key_ids, pa.string()),
                     "content_hash": pa.chunked_array(self.key_contents, pa.string())}))
                insert_arrow(self.con, schema.UNIT_SOURCES, tuples_to_arrow(schema.UNIT_SOURCES, self.unit_sources))
            segments.register(self.con, staged)
            if self.replay_edition is not None and self.stored_in_tx:
                # the edition's findings cover the store again only once run_checks is done
                # (a crash before it must not leave the new hands' findings looking complete)
                self.con.execute("INSERT OR REPLACE INTO meta VALUES (?, 'in-progress')", [f"checks:{self.replay_edition}"])
            if self.checks and self.stored_in_tx:
                if not self.cleared:
                    # run_checks adds the hands stored before's findings to the workers' (none yet)
                    from auditor.checks import clear_hand_findings

                    clear_hand_findings(self.con, self.replay_edition)
            if self.stored_in_tx:
                # other editions' facts no longer cover the store
                self.con.execute(
                    "UPDATE meta SET value = 'stale' WHERE key LIKE 'replay:%' AND value = 'complete' AND key <> ?",
                    [f"replay:{self.replay_edition}"],
                )
            self.in_tx = False  # a COMMIT that fails ends the transaction too
            self.con.execute("COMMIT")
            self.cleared = self.cleared or bool(self.checks and self.stored_in_tx)
        # committed: the segments become visible (a crash before this is rolled forward
        # by the next connection: segments.recover)
        segments.publish(self.root, staged)
        self.staged, self.key_ids, self.key_contents, self.unit_sources = [], [], [], []
        self.pending_hands = self.stored_in_tx = 0
        self.known.merge()
        self._count()
        return staged

    def _count(self) -> None:
        """The totals so far, over finished files and a big file still being read."""
        s = self.summary
        rs = s.file_results + list(self.open_files.values())
        s.hands_seen = sum(r.seen for r in rs)
        s.stored = sum(r.stored for r in rs)
        s.duplicates = sum(r.duplicates for r in rs)
        s.rejected = sum(r.rejected for r in rs)

    def rollback(self) -> None:
        """Undo what is not committed, on the way out of an error: the caller sees
        that error, never one from the cleanup."""
        if self.in_tx:
            self.in_tx = False
            rollback(self.con)
        self.known.forget()  # also after a COMMIT that failed
        self.new_sources = []
        self.errors = []
        for st in self.staged:
            segments.discard(self.root, st.table, st.name)
        self.staged, self.key_ids, self.key_contents, self.unit_sources = [], [], [], []

    def take(self, unit: UnitManifest) -> list[FileResult]:
        """Take one unit's manifest; returns the files it finished."""
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        done: list[FileResult] = []
        results: list[FileResult] = []  # per part of the unit
        source_ids: list[int] = []
        for part in unit.parts:
            if part.first_part:
                r = FileResult(part.path, part.parser)
                if part.error:
                    code, why = part.error
                    r.format, r.error = None, why
                    self._errors(part.path, part.info.sha256 if part.info else None, [HandError(0, code, why)], now)
                else:
                    r.sha256, r.read_at = part.info.sha256, now
                    self._begin()
                    r.source_id = self._source_id(part.info, part.real, part.parser, now)
            else:
                r = self.open_files.pop(part.path)
            r.seen += part.seen
            r.rejected += sum(e.reason_code not in NOT_HANDS for e in part.errors)  # (lines that hold no hand: not one)
            if part.errors:
                self._errors(part.path, r.sha256, part.errors, now)
            self.pending_hands += part.seen
            results.append(r)
            source_ids.append(r.source_id if r.source_id is not None else -1)
            if part.last_part:
                done.append(r)
            else:
                self.open_files[part.path] = r
        if unit.hand_ids:
            self._store(unit, results, source_ids)
        return done

    def _store(self, unit: UnitManifest, results: list[FileResult], source_ids: list[int]) -> None:
        """Stage the unit's segments.  Duplicates (same content) are counted; the
        same hand id with other content is a conflict, recorded as an error; their
        rows are dropped from the segments before the commit.  What earlier units
        stored is known (``_KnownHands``) before it is committed."""
        ids, hashes = unit.hand_ids, unit.content_hashes
        id_keys, content_keys = unit.id_keys, unit.content_keys
        known_hash, known_id = self.known.lookup(ids, id_keys, hashes, content_keys)
        n = len(ids)
        if not known_hash and not known_id and len(np.unique(id_keys)) == n and len(np.unique(content_keys)) == n:
            # every hand new and none twice in the unit (as nearly always): taken at
            # once, by their keys, no value looked at
            for part, k in Counter(unit.part_of).items():
                results[part].stored += k
            keep = None
            kept_ids, kept_hashes, kept_id_keys, kept_content_keys = ids, hashes, id_keys, content_keys
        else:
            keep = []
            id_list, hash_list = ids.to_pylist(), hashes.to_pylist()
            for i, (hand_id, h) in enumerate(zip(id_list, hash_list)):
                r = results[unit.part_of[i]]
                if h in known_hash:
                    r.duplicates += 1
                elif hand_id in known_id:
                    r.rejected += 1
                    self._errors(r.path, r.sha256, [HandError(
                        unit.first_lines[i], "conflict",
                        f"hand {hand_id} is already stored with different content; the stored hand is kept", hand_id)],
                        r.read_at)
                else:
                    known_hash.add(h)
                    known_id.add(hand_id)
                    keep.append(i)
                    r.stored += 1
            take = pa.array(keep, pa.int64())
            kept_ids, kept_hashes = ids.take(take), hashes.take(take)
            kept_id_keys, kept_content_keys = id_keys[keep], content_keys[keep]
        if keep is not None:  # only what is new is committed (none: the unit's files go)
            kept = pa.array(keep, pa.int32())
            rows = {t: segments.keep_rows(self.root, t, unit.name, kept) if keep else segments.discard(self.root, t, unit.name)
                    for t in unit.rows}
            if not keep:
                return
        else:
            rows = unit.rows
        self.known.add_all(kept_ids, kept_hashes, kept_id_keys, kept_content_keys)
        self._begin()
        edition = self.replay_edition
        self.staged += [segments.Staged(t, unit.name, k, edition if t not in _LOG_NAMES else None, unit.unit_id)
                        for t, k in rows.items() if k]
        self.key_ids.append(kept_ids)
        self.key_contents.append(kept_hashes)
        self.unit_sources += [(unit.unit_id, p, sid) for p, sid in enumerate(source_ids) if sid >= 0]
        self.stored_in_tx += len(kept_ids)

    def _flush_sources(self) -> None:
        if self.new_sources:
            insert_arrow(self.con, schema.SOURCES, tuples_to_arrow(schema.SOURCES, self.new_sources))
            self.new_sources = []

    def _source_id(self, info, real: str, fmt: str, now) -> int:
        sid = self.sources.get(info.sha256)
        if sid is None:
            sid = self.next_source
            self.next_source += 1
            self.sources[info.sha256] = sid
            self.new_sources.append((sid, real, info.size, info.sha256, fmt, info.encoding, now))
        return sid

    def file_error(self, path: str, code: str, why: str) -> None:
        self._errors(path, None, [HandError(0, code, why)], dt.datetime.now(dt.UTC).replace(tzinfo=None))

    def _errors(self, path: str, sha: str | None, errors: list[HandError], now) -> None:
        for e in errors:
            self.summary.errors.append(
                {"file": path, "line": e.line_no, "hand": e.hand_id, "reason_code": e.reason_code, "reason": e.reason}
            )
            self.errors.append((path, sha, e.line_no, e.hand_id, e.reason_code, e.reason, now))
        if not self.in_tx and self.errors:
            self._begin()

    def _flush_errors(self) -> None:
        """Append errors not already recorded for the same file content, line and
        reason, so re-ingesting adds no rows."""
        if not self.errors:
            return
        self.con.register("_new_errors", tuples_to_arrow(schema.INGEST_ERRORS, self.errors))
        try:
            self.con.execute(
                """INSERT INTO ingest_errors
                   SELECT DISTINCT ON (coalesce(n.sha256, n.source_path), coalesce(n.line_no, -1), n.reason_code) n.*
                   FROM _new_errors n
                   WHERE NOT EXISTS (
                     SELECT 1 FROM ingest_errors o
                     WHERE coalesce(o.sha256, o.source_path) = coalesce(n.sha256, n.source_path)
                       AND coalesce(o.line_no, -1) = coalesce(n.line_no, -1) AND o.reason_code = n.reason_code)"""
            )
        finally:
            self.con.unregister("_new_errors")
        self.errors = []
