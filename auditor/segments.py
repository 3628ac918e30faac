"""The store's segments: the event log and the replay facts as immutable Parquet files.

A store is its DuckDB file and, beside it, a folder of segments
(``audit.duckdb`` and ``audit.duckdb.segments/``); docs/storage.md says why.

- Workers write segments (``write_pending``): one file per unit of work and table,
  under a temporary name, renamed into ``pending/`` when complete.
- The coordinator commits them: a row per segment in the ``segments`` catalog
  table, in the same DuckDB transaction as the hand keys, sources and errors, and
  then moves each file from ``pending/`` into its table's folder (``publish``).
- Each table of ``schema.SEGMENT_TABLES`` is a view of its name over the files in
  its folder, so only committed segments are read.  A crash between the COMMIT and
  the moves is rolled forward by the next connection (``recover``); files that no
  committed row names (a crashed unit's, a retired generation's) are deleted then.
"""

from __future__ import annotations

import atexit
import datetime as dt
import hashlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from auditor import schema
from auditor.schema import Table

LAYOUT = "segments-1"  # meta 'layout': how the tables are kept (not the columns: SCHEMA_VERSION)
SUFFIX = ".segments"
PENDING = "pending"
# An empty segment per table, so that a view of no rows still has its columns.  Named to
# sort after every segment: DuckDB estimates a scan's rows from the first file its glob
# lists, and with an empty one first it planned every check's joins for tables of no rows
# (building its hash tables on the whole store's hands or seats).
EMPTY = "~empty.parquet"
HAND_IX = "_hand_ix"  # the row of a segment's hand in its unit: rows of duplicates are dropped by it
UNIT = "_unit"  # hands segments: the unit that wrote them (with source_id, the part: unit_sources)
_BY_NAME = {t.name: t for t in schema.SEGMENT_TABLES}


def key_hashes(values: list[str]) -> np.ndarray:
    """The 64-bit keys of the catalog's hash index (``hand_keys``: hand ids and
    content hashes), computed by the workers: the first 8 bytes of each value's MD5
    (of its UTF-8), big-endian.  ``KEY_SQL`` is the same key in SQL, for the keys
    already stored.  A stable function, not Python's ``hash`` (salted per process)
    or DuckDB's ``hash`` (free to change between versions).

    >>> int(key_hashes(["abc"])[0]) == 0x900150983cd24fb0
    True
    """
    md5 = hashlib.md5
    return np.frombuffer(b"".join([md5(v.encode(), usedforsecurity=False).digest()[:8] for v in values]),
                         dtype=">u8").astype(np.uint64)


def key_sql(column: str) -> str:
    """``key_hashes`` of a VARCHAR column, in SQL."""
    return f"('0x' || md5({column})[1:16])::UBIGINT"


def root_for(db_path: str) -> str:
    """The segment folder of the store at ``db_path`` (absolute); an in-memory store
    gets a temporary folder."""
    if db_path == ":memory:" or not db_path:
        root = tempfile.mkdtemp(prefix="tda-audit-segments-")
        atexit.register(shutil.rmtree, root, True)
        return root
    return os.path.abspath(db_path) + SUFFIX


def arrow_schema(table: Table) -> pa.Schema:
    """A segment's columns: the table's, then the hidden ones the commit reads."""
    s = table.arrow_schema().append(pa.field(HAND_IX, pa.int32()))
    return s.append(pa.field(UNIT, pa.int64())) if table is schema.HANDS else s


def new_token() -> str:
    return uuid.uuid4().hex[:8]


def pending_path(root: str, table: str, name: str) -> str:
    return os.path.join(root, PENDING, f"{table}--{name}.parquet")


def live_path(root: str, table: str, name: str) -> str:
    return os.path.join(root, table, f"{name}.parquet")


# Strings that differ from row to row: a dictionary page would hold every value once more.
_UNIQUE_STRINGS = frozenset({"text", "content_hash", "started_at_text", "hand_number", "message"})
# Columns whose min/max DuckDB reads to skip files or row groups (the replay's hand-id ranges,
# an edition's facts, a tournament's hands); other statistics cost the writer and serve no query.
_STATISTICS = ["hand_id", "edition", "tournament_id", "source_id", UNIT]


def _is_string(t: pa.DataType) -> bool:
    """A string column, or one held as a dictionary of strings (``merge_segments``)."""
    return pa.types.is_string(t) or (pa.types.is_dictionary(t) and pa.types.is_string(t.value_type))


def _writer_options(schema_: pa.Schema) -> dict:
    """The writer's options for a segment: dictionary pages for the strings that repeat
    (street, kind, player, a fact row's hand id), none for the rest (numbers, source
    lines: the writer tries each and gives up, at a cost), and the statistics of
    ``_STATISTICS`` (bench/README.md, 2026-12-07)."""
    names = set(schema_.names)
    return {"use_dictionary": [f.name for f in schema_ if _is_string(f.type) and f.name not in _UNIQUE_STRINGS
                               and not (f.name == "hand_id" and "content_hash" in names)],
            "write_statistics": [n for n in _STATISTICS if n in names]}


def _write(data: pa.Table | Iterable[pa.Table], path: str, schema_: pa.Schema | None = None) -> None:
    """``data`` to ``path``, whole or not at all: written under a temporary name,
    flushed to disk, then renamed.  ``data`` is a table, or tables of ``schema_``
    written one after the other (a row group or more each), so that a merge never
    holds every row at once."""
    folder, base = os.path.split(path)
    tmp = os.path.join(folder, f".{base}.{os.getpid()}.tmp")
    try:
        if isinstance(data, pa.Table):
            pq.write_table(data, tmp, **_writer_options(data.schema))
        else:
            assert schema_ is not None
            with pq.ParquetWriter(tmp, schema_, store_schema=False, **_writer_options(schema_)) as out:
                for part in data:
                    out.write_table(part)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def write_pending(root: str, table: Table, name: str, data: pa.Table) -> int:
    """Write one uncommitted segment of ``table`` (``data`` holds its columns and the
    hidden ones); returns its rows."""
    target = arrow_schema(table)
    cols = [data.column(f.name).cast(f.type) if data.column(f.name).type != f.type else data.column(f.name)
            for f in target]
    _write(pa.Table.from_arrays(cols, schema=target), pending_path(root, table.name, name))
    return data.num_rows


def keep_rows(root: str, table: str, name: str, kept: pa.Array) -> int:
    """Rewrite a pending segment with only the rows of the hands in ``kept`` (their
    ``HAND_IX``); a segment left empty is deleted.  Returns the rows kept."""
    path = pending_path(root, table, name)
    data = pq.read_table(path)
    import pyarrow.compute as pc  # here: its import costs the coordinator 0.15 s, and few ingests have duplicates

    data = data.filter(pc.is_in(data.column(HAND_IX), value_set=kept))
    if not data.num_rows:
        os.remove(path)
        return 0
    _write(data, path)
    return data.num_rows


def discard(root: str, table: str, name: str) -> None:
    try:
        os.remove(pending_path(root, table, name))
    except FileNotFoundError:
        pass


@dataclass
class Staged:
    """A segment in ``pending/`` that the next commit makes visible."""

    table: str
    name: str
    rows: int
    edition: str | None = None
    unit_id: int | None = None


def catalog_rows(staged: list[Staged]) -> pa.Table:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    cols = {"table_name": [s.table for s in staged], "file": [f"{s.name}.parquet" for s in staged],
            "edition": [s.edition for s in staged], "unit_id": [s.unit_id for s in staged],
            "rows": [s.rows for s in staged], "committed_at": [now] * len(staged)}
    return pa.table({c.name: pa.array(cols[c.name], type=f.type)
                     for c, f in zip(schema.SEGMENTS.columns, schema.SEGMENTS.arrow_schema())})


def register(con: duckdb.DuckDBPyConnection, staged: list[Staged]) -> None:
    """Catalog rows for ``staged``, inside the caller's transaction."""
    if staged:
        con.register("_new_segments", catalog_rows(staged))
        try:
            con.execute("INSERT INTO segments SELECT * FROM _new_segments")
        finally:
            con.unregister("_new_segments")


def publish(root: str, staged: list[Staged]) -> None:
    """Move committed segments from ``pending/`` into their tables' folders."""
    for s in staged:
        os.replace(pending_path(root, s.table, s.name), live_path(root, s.table, s.name))


def remove_live(root: str, files: list[tuple[str, str]]) -> None:
    """Delete retired segments (table, file name) once their retirement is committed."""
    for table, file in files:
        try:
            os.remove(os.path.join(root, table, file))
        except FileNotFoundError:
            pass


# --- the folder, its views, and recovery -------------------------------------------


def view_sql(table: Table, root: str, temp: bool = False, hand_range: tuple[str | None, str | None] | None = None,
             before_unit: int | None = None, files: list[str] | None = None) -> str:
    """The view of ``table``'s committed segments; with ``hand_range`` (lowest hand id
    or None, first id past the range or None), of those hands only; with
    ``before_unit``, of the hands of the units numbered below it only (the hands'
    hidden unit column; another table's rows by their hand in the hands segments, of
    the range: ``auditor.checks.run_checks``); with ``files`` (names in the table's
    folder), of those files only (a range's: ``in_range``).  A temp view of the same
    name shadows the stored one: it must read the files, as a view naming its
    namesake is refused by DuckDB as recursive."""
    glob = _sql_str(os.path.join(root, table.name, "*.parquet")) if files is None else _paths(root, table, files)
    kind = "TEMP VIEW" if temp else "VIEW"
    in_range = []
    for op, bound in zip((">=", "<"), hand_range or ()):
        if bound is not None:
            in_range.append(f"hand_id {op} {_sql_str(bound)}")
    conds = [f"h.{c}" if table is schema.HANDS else c for c in in_range]
    if before_unit is not None:
        if table is schema.HANDS:
            conds.append(f"h.{UNIT} < {int(before_unit)}")
        else:
            _, older = hands_of_units(root, before_unit)
            conds.append(f"hand_id IN ({' AND '.join([older, *in_range])})")
    where = f" WHERE {' AND '.join(conds)}" if conds else ""
    if table is schema.HANDS:
        cols = ", ".join("u.source_id" if c == "source_id" else f"h.{c}" for c in table.column_names)
        return (f"CREATE OR REPLACE {kind} hands AS SELECT {cols} FROM read_parquet({glob}) h "
                f"JOIN unit_sources u ON u.unit_id = h.{UNIT} AND u.part = h.source_id{where}")
    return f"CREATE OR REPLACE {kind} {table.name} AS SELECT {', '.join(table.column_names)} FROM read_parquet({glob}){where}"


def files_sql(table: Table, root: str, files: list[str], units: str = "unit_sources") -> str:
    """The rows of ``table`` in the committed segments ``files`` (names in its folder),
    as its view gives them (``view_sql``; hands: the file's ``source_id`` from the
    table ``units``): for the checks of a batch in a worker."""
    paths = _paths(root, table, files)
    if table is schema.HANDS:
        cols = ", ".join("u.source_id" if c == "source_id" else f"h.{c}" for c in table.column_names)
        return (f"SELECT {cols} FROM read_parquet({paths}) h "
                f"JOIN {units} u ON u.unit_id = h.{UNIT} AND u.part = h.source_id")
    return f"SELECT {', '.join(table.column_names)} FROM read_parquet({paths})"


def _paths(root: str, table: Table, files: list[str]) -> str:
    """A SQL list of the paths of ``files`` of ``table``, and its empty segment (for the
    columns), last: DuckDB estimates a list's rows from its first file."""
    return "[" + ", ".join(_sql_str(os.path.join(root, table.name, f)) for f in [*files, EMPTY]) + "]"


def committed_files(con: duckdb.DuckDBPyConnection, edition: str) -> dict[str, list[str]]:
    """The committed segment files of each table (the replay facts: ``edition``'s only),
    by table name: what a connection of its own reads (``auditor.checks.table_batch``)
    and what a range of hands is read from (``file_spans``)."""
    files: dict[str, list[str]] = {}
    for table, file in con.execute("SELECT table_name, file FROM segments WHERE edition IS NULL OR edition = ? "
                                   "ORDER BY table_name, file", [edition]).fetchall():
        files.setdefault(table, []).append(file)
    return files


Spans = dict[str, list[tuple[str, str | None, str | None]]]


def file_spans(con: duckdb.DuckDBPyConnection, root: str, edition: str) -> Spans:
    """Each committed segment file of the event log and of ``edition``'s replay facts,
    with bounds of its hand ids (lowest, highest; None: not known), by table name:
    read once from the files' Parquet statistics (a bound, exact or not: a long
    string's is cut), for ``in_range``."""
    spans: Spans = {}
    paths = {os.path.join(root, t, f): (t, f) for t, fs in committed_files(con, edition).items() for f in fs}
    if not paths:
        return spans
    got = {name: (lo, hi) for name, lo, hi in con.execute(
        "SELECT file_name, min(stats_min_value), max(stats_max_value) FROM parquet_metadata(["
        + ", ".join(_sql_str(p) for p in paths) + "]) WHERE path_in_schema = 'hand_id' "
        "GROUP BY file_name HAVING count(*) = count(stats_min_value) AND count(*) = count(stats_max_value)").fetchall()}
    for path, (t, f) in paths.items():
        lo, hi = got.get(path, (None, None))
        spans.setdefault(t, []).append((f, lo, hi))
    return spans


def in_range(spans: Spans, table: str, lo: str | None, hi: str | None) -> list[str]:
    """The files of ``table`` (``file_spans``) that may hold hand ids from ``lo`` to ``hi``
    (either None: open).  A view of a range of hands over these files, not over every
    file of the table, is planned on its own rows: over the whole folder DuckDB
    estimated a range of 250,000 hands of a 10M-hand store as ten times the rows of
    one of a 1M store, and chose its joins for that."""
    return [f for f, a, b in spans.get(table, [])
            if (lo is None or b is None or b >= lo) and (hi is None or a is None or a <= hi)]


def hands_of_units(root: str, first_unit: int) -> tuple[str, str]:
    """Queries of the hand ids of the units numbered from ``first_unit`` on, and of
    the other hands: by the hidden unit column of the committed hands segments
    (merged and compacted segments keep it), which the ``hands`` view leaves out."""
    glob = _sql_str(os.path.join(root, schema.HANDS.name, "*.parquet"))
    at = f"SELECT hand_id FROM read_parquet({glob}) WHERE {UNIT}"
    return f"{at} >= {int(first_unit)}", f"{at} < {int(first_unit)}"


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def prepare_folder(root: str) -> None:
    """The folders and the empty segment of every table (the views need a file to
    read their columns from)."""
    os.makedirs(os.path.join(root, PENDING), exist_ok=True)
    for t in schema.SEGMENT_TABLES:
        os.makedirs(os.path.join(root, t.name), exist_ok=True)
        empty = os.path.join(root, t.name, EMPTY)
        if not os.path.exists(empty):
            _write(arrow_schema(t).empty_table(), empty)


def create_views(con: duckdb.DuckDBPyConnection, root: str, temp: bool = False) -> None:
    for t in schema.SEGMENT_TABLES:
        con.execute(view_sql(t, root, temp))


def views_root(con: duckdb.DuckDBPyConnection) -> str | None:
    """The segment folder the stored views read (None if there are none)."""
    row = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'events' AND NOT temporary "
                      "AND database_name = current_database()").fetchone()
    if row is None:
        return None
    sql = row[0]
    start = sql.index("read_parquet('") + len("read_parquet('")
    path = sql[start: sql.index("*.parquet'", start)].replace("''", "'")
    return os.path.dirname(os.path.dirname(path))


def recover(con: duckdb.DuckDBPyConnection, root: str, *, clean: bool = True) -> None:
    """Make the tables' folders hold exactly the committed segments: finish the
    moves a crash cut short (the commit is what counts), and delete the segments a
    committed merge, compaction or replay retired that a crash left in place (the
    views would read their rows twice); then (``clean``, a writer) delete every other
    file no committed row names (temporary files, uncommitted units and merges in
    ``pending/``).  DuckDB's lock ensures that no process writes segments meanwhile:
    a writer holds the store alone, and readers open it only when no writer does (a
    reader may find that another reader finished a move or a deletion first)."""
    committed: dict[str, set[str]] = {t.name: set() for t in schema.SEGMENT_TABLES}
    for table, file in con.execute("SELECT table_name, file FROM segments").fetchall():
        committed.setdefault(table, set()).add(file)
    pending = os.path.join(root, PENDING)
    for table, files in committed.items():
        folder = os.path.join(root, table)
        present = set(os.listdir(folder)) if os.path.isdir(folder) else set()
        for f in files - present:
            try:
                os.replace(os.path.join(pending, f"{table}--{f}"), os.path.join(folder, f))
            except FileNotFoundError:
                if not os.path.exists(os.path.join(folder, f)):
                    raise FileNotFoundError(f"the store's segment {table}/{f} is missing from {root}: a store is its "
                                            "DuckDB file and its segment folder (docs/storage.md)") from None
        # only a commit puts a file in a table's folder: one the catalog no longer names is retired
        remove_live(root, [(table, f) for f in present - files - {EMPTY} if not (f.startswith(".") and not clean)])
    if clean and os.path.isdir(pending):
        for f in os.listdir(pending):
            os.remove(os.path.join(pending, f))


def remove_tree(root: str) -> None:
    shutil.rmtree(root, ignore_errors=True)


# --- compaction ---------------------------------------------------------------------

COMPACT_ROWS = 8_000_000  # rows of a merged segment (events: some 250,000 hands)


def swap(con: duckdb.DuckDBPyConnection, root: str, merges: list[tuple[Staged, list[str]]]) -> None:
    """Commit merged segments in place of their inputs (each a merged pending segment
    and the committed files of its table it replaces): the catalog's rows swapped in
    one transaction, then the merged files published and the inputs deleted.  A
    crash after the COMMIT is rolled forward by ``recover``; before it, the pending
    files are a writer's to delete.  The rows the views read never change."""
    con.execute("BEGIN TRANSACTION")
    try:
        for merged, inputs in merges:
            gone = len(con.execute(
                "DELETE FROM segments WHERE table_name = ? AND file IN (SELECT unnest(?::VARCHAR[])) RETURNING file",
                [merged.table, inputs]).fetchall())
            if gone != len(inputs):  # never: the inputs are committed segments of one writer's store
                raise RuntimeError(f"merge {merged.name}: {gone} of its {len(inputs)} {merged.table} segments "
                                   "are in the catalog")
        register(con, [merged for merged, _ in merges])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    publish(root, [merged for merged, _ in merges])
    remove_live(root, [(merged.table, f) for merged, inputs in merges for f in inputs])


@dataclass
class CompactSummary:
    segments_before: int = 0
    segments_after: int = 0
    rows: int = 0


def compact(con: duckdb.DuckDBPyConnection, root: str, target_rows: int = COMPACT_ROWS) -> CompactSummary:
    """Merge each table's small segments (of one edition) into segments of about
    ``target_rows`` rows.  Each merge is committed on its own: the new segment and
    the retirement of the ones it replaces in one transaction; the rows the views
    read never change."""
    summary = CompactSummary()
    token = new_token()
    groups = con.execute(
        "SELECT table_name, edition, list(file ORDER BY file), list(rows ORDER BY file) FROM segments "
        "GROUP BY ALL ORDER BY ALL").fetchall()
    n = 0
    for table, edition, files, rows in groups:
        summary.segments_before += len(files)
        summary.rows += sum(rows)
        batch: list[str] = []
        size = 0
        batches = []
        for f, r in zip(files, rows):
            if batch and size + r > target_rows:
                batches.append(batch)
                batch, size = [], 0
            batch.append(f)
            size += r
        if batch:
            batches.append(batch)
        for batch in batches:
            if len(batch) < 2:
                summary.segments_after += 1
                continue
            n += 1
            name = f"c{n:06d}-{token}"
            paths = [os.path.join(root, table, f) for f in batch]
            tmp = pending_path(root, table, name)
            con.execute(f"COPY (SELECT * FROM read_parquet([{', '.join(map(_sql_str, paths))}])) "
                        f"TO {_sql_str(tmp)} (FORMAT parquet)")
            (got,) = con.execute(f"SELECT count(*) FROM read_parquet({_sql_str(tmp)})").fetchone()
            swap(con, root, [(Staged(table, name, got, edition), batch)])
            summary.segments_after += 1
    return summary


# --- merging as an ingest goes: the workers merge, the coordinator swaps ---------------

MERGE_FANIN = 16  # committed segments of one tier (and table, and edition) merged into one of the next tier
MERGE_GROUP_ROWS = 1 << 16  # rows gathered into a merged segment's row group (inputs are read a row group at a time)


def merge_segments(root: str, table_name: str, name: str, files: list[str]) -> int:
    """Run by a worker: the committed segments ``files`` of ``table_name`` (names in
    its folder) merged, in that order, into the pending segment ``name``; returns
    its rows.  The inputs are read a row group at a time and written in row groups
    of about ``MERGE_GROUP_ROWS`` rows, so a worker never holds a whole tier.  The
    inputs are left as they are: the coordinator's commit retires them
    (``Merger``).

    The strings a segment keeps as Parquet dictionaries are read and written as
    dictionaries (not a string a row), and in this thread (the reader's threads
    cost more than they save on a small row group): reading is most of a merge,
    and these make it far cheaper (bench/README.md, 2026-12-07).  No Arrow schema
    is stored with the file, so a reader gets the segment's plain string columns
    back."""
    target = arrow_schema(_BY_NAME[table_name])
    as_dictionary = _writer_options(target)["use_dictionary"]
    read_as = target
    for f in as_dictionary:
        read_as = read_as.set(read_as.get_field_index(f), target.field(f).with_type(pa.dictionary(pa.int32(), pa.string())))
    rows = 0

    def groups() -> Iterator[pa.Table]:
        nonlocal rows
        held: list[pa.Table] = []
        size = 0
        for f in files:
            source = pq.ParquetFile(os.path.join(root, table_name, f), read_dictionary=as_dictionary)
            for i in range(source.num_row_groups):
                part = source.read_row_group(i, use_threads=False)
                if not part.schema.equals(read_as, check_metadata=False):
                    part = part.select(read_as.names).cast(read_as)
                held.append(part)
                size += part.num_rows
                rows += part.num_rows
                if size >= MERGE_GROUP_ROWS:
                    yield pa.concat_tables(held)
                    held, size = [], 0
        if held:
            yield pa.concat_tables(held)

    _write(groups(), pending_path(root, table_name, name), read_as)
    return rows


@dataclass
class _Running:
    future: object  # a concurrent.futures.Future or a Dask future: done(), result(), cancel()
    table: str
    edition: str | None
    tier: int
    name: str
    inputs: list[str]


@dataclass
class Merger:
    """Keeps the number of a table's segments small while an ingest commits a
    segment per unit: every ``fanin`` committed segments of a tier (one table, one
    edition) are merged by a worker (``submit(merge_segments, ...)``: the worker
    pool's or Dask's) into one segment of the next tier, and this process commits
    the swap: the merged segment in and its inputs retired, in one transaction, as
    ``compact`` does (crash-safe the same way: an uncommitted merge is a pending
    file the next writer deletes; a committed one is rolled forward by
    ``recover``).  A tier also merges once it holds ``final_rows`` rows; a
    segment of that many rows is never merged again.  A store of N units so holds
    some ``fanin * log(N) / log(fanin)`` segments a table instead of N, and the
    checks, which open every segment of a view, cost the same a hand at 1M hands
    as at 100k.  Only the segments committed through ``add`` are merged, never a
    store's older ones (``compact`` merges those)."""

    con: duckdb.DuckDBPyConnection
    root: str
    submit: Callable[..., object]
    fanin: int = field(default_factory=lambda: MERGE_FANIN)
    final_rows: int = field(default_factory=lambda: COMPACT_ROWS)
    tiers: dict[tuple[str, str | None, int], list[tuple[str, int]]] = field(default_factory=dict)
    running: list[_Running] = field(default_factory=list)
    token: str = field(default_factory=new_token)
    submitted: int = 0
    committed: int = 0

    def add(self, staged: list[Staged]) -> None:
        """Segments just committed (and published)."""
        for s in staged:
            self._put(s.table, s.edition, 0, f"{s.name}.parquet", s.rows)

    def _put(self, table: str, edition: str | None, tier: int, file: str, rows: int) -> None:
        if rows >= self.final_rows:
            return
        key = (table, edition, tier)
        group = self.tiers.setdefault(key, [])
        group.append((file, rows))
        if len(group) >= self.fanin or (len(group) > 1 and sum(r for _, r in group) >= self.final_rows):
            del self.tiers[key]
            self._start(table, edition, tier, [f for f, _ in group])

    def _start(self, table: str, edition: str | None, tier: int, files: list[str]) -> None:
        self.submitted += 1
        name = f"m{self.submitted:06d}-{self.token}"
        self.running.append(_Running(self.submit(merge_segments, self.root, table, name, files),
                                     table, edition, tier, name, files))

    def collect(self, wait: bool = False) -> None:
        """Commit the merges that are done; with ``wait``, every merge, and those the
        merged segments lead to, until none runs.  The caller holds no transaction."""
        while self.running:
            done = [m for m in self.running if m.future.done()]  # type: ignore[attr-defined]
            if not done:
                if not wait:
                    return
                done = self.running[:1]
            got = [(m, int(m.future.result())) for m in done]  # type: ignore[attr-defined]
            self.running = [m for m in self.running if all(m is not d for d in done)]
            self._swap(got)
            for m, rows in got:
                self._put(m.table, m.edition, m.tier + 1, f"{m.name}.parquet", rows)

    def _swap(self, got: list[tuple[_Running, int]]) -> None:
        swap(self.con, self.root, [(Staged(m.table, m.name, rows, m.edition), m.inputs) for m, rows in got])
        self.committed += len(got)

    def abandon(self) -> None:
        """On the way out of an error: merges not committed are dropped (their
        pending files, if written, go with the next writer's ``recover``)."""
        for m in self.running:
            m.future.cancel()  # type: ignore[attr-defined]
        self.running = []
        self.tiers = {}


def rewrite(con: duckdb.DuckDBPyConnection, root: str, table_name: str, query: str, params: list | None = None) -> int:
    """Replace every row of a segment table by the rows of ``query`` (its columns, in
    the table's order), in one commit: store surgery, for tests that build a case
    the parsers would never store, and for migrations.  A fact table gets a
    segment per edition (a replay retires an edition's segments); rewriting
    ``hands`` rebuilds the hash index from the new rows.  Returns the rows."""
    table = _BY_NAME[table_name]
    cols = ", ".join(table.column_names)
    con.execute(f"CREATE OR REPLACE TEMP TABLE _rewrite AS SELECT {cols} FROM ({query})", params or [])
    try:
        token = new_token()
        hidden = "NULL::INTEGER AS " + HAND_IX + (f", 0::BIGINT AS {UNIT}" if table is schema.HANDS else "")
        groups = ([e for (e,) in con.execute("SELECT DISTINCT edition FROM temp._rewrite ORDER BY 1").fetchall()]
                  if "edition" in table.column_names else [None])
        staged = []
        for i, ed in enumerate(groups):
            name = f"w{i:04d}-{token}"
            where = "WHERE edition = " + _sql_str(ed) if ed is not None else ""
            con.execute(f"COPY (SELECT *, {hidden} FROM temp._rewrite {where}) "
                        f"TO {_sql_str(pending_path(root, table.name, name))} (FORMAT parquet)")
            (n,) = con.execute(f"SELECT count(*) FROM temp._rewrite {where}").fetchone()
            staged.append(Staged(table.name, name, n, ed))
        con.execute("BEGIN TRANSACTION")
        try:
            retired = con.execute("DELETE FROM segments WHERE table_name = ? RETURNING table_name, file",
                                  [table.name]).fetchall()
            register(con, staged)
            if table is schema.HANDS:
                # unit 0 maps each source id to itself: the rows hold their own source_id
                con.execute("INSERT INTO unit_sources SELECT 0, source_id, source_id FROM sources s WHERE NOT EXISTS "
                            "(SELECT 1 FROM unit_sources u WHERE u.unit_id = 0 AND u.part = s.source_id)")
                con.execute("DELETE FROM hand_keys")
                con.execute("INSERT INTO hand_keys SELECT hand_id, content_hash FROM temp._rewrite")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        publish(root, staged)
        remove_live(root, retired)
        return sum(s.rows for s in staged)
    finally:
        con.execute("DROP TABLE IF EXISTS temp._rewrite")
