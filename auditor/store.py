"""The embedded store: one DuckDB file, created and migrated on first use."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from auditor import segments
from auditor.schema import (
    CATALOG_TABLES,
    SCHEMA_VERSION,
    SEGMENT_TABLES,
    TABLES,
    Street,
    Table,
    Variant,
    betting_streets,
    street_family,
)

DEFAULT_DB = "audit.duckdb"
DB_ENV = "TDA_AUDIT_DB"
DEFAULT_MEMORY = "400MB"  # keeps a million-hand audit's process under 1 GiB, and the checks no slower (bench/README.md, 2026-12-07)
MEMORY_ENV = "TDA_AUDIT_MEMORY"
# DuckDB's bound while ingest writes: it reads back next to nothing of what it wrote, so
# a larger cache of those blocks only adds memory
WRITE_MEMORY = 160 * 2**20


class StoreError(Exception):
    """A store that cannot be opened or has the wrong schema."""


def default_db_path() -> str:
    return os.environ.get(DB_ENV) or DEFAULT_DB


def arrow_without_pandas() -> None:
    """Spare this process pyarrow's import of pandas (most of a short ingest's start;
    pyarrow also imports ``pyarrow.compute`` with it).  At its first conversion of Python
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


def connect(db: str | os.PathLike | None = None, *, read_only: bool = False, must_exist: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (and on first use create) the store.

    A second process that tries to write while another holds the file gets a
    ``StoreError`` saying so; DuckDB's file lock keeps the store consistent.
    """
    path = str(db or default_db_path())
    arrow_without_pandas()  # a store needs no pandas: its import would be most of a short ingest's start
    if (read_only or must_exist) and path != ":memory:" and not Path(path).exists():  # a mistyped --db is not a new store
        raise StoreError(f"no store at {path}: run 'tda-audit ingest' or 'tda-audit audit' first")
    try:
        con = duckdb.connect(path, read_only=read_only)
    except duckdb.IOException as e:
        msg = str(e)
        if "lock" in msg.lower():
            raise StoreError(f"the store {path} is in use by another process ({msg.splitlines()[0]}); try again when it has finished") from e
        raise StoreError(f"cannot open the store {path}: {msg}") from e
    # DuckDB's own memory is bounded (it spills to <store>.tmp past it), so an audit of
    # millions of hands stays under 1 GiB; DuckDB's default is 80% of the machine's memory.
    # $TDA_AUDIT_MEMORY sets another bound (e.g. "2GB").
    try:
        con.execute(f"SET memory_limit = '{configured_memory()}'")
    except duckdb.Error as e:  # a mistyped $TDA_AUDIT_MEMORY
        con.close()
        raise StoreError(f"${MEMORY_ENV} = {configured_memory()!r} is not a memory size DuckDB accepts "
                         f"(e.g. '2GB', '512MiB'): {str(e).splitlines()[0]}") from e
    # DuckDB draws a progress bar on stdout for a long query: it would corrupt --json output
    con.execute("SET enable_progress_bar = false")
    if not read_only:
        try:
            foreign = _foreign_database(con)
        except BaseException:
            con.close()
            raise
        if foreign:
            con.close()
            raise StoreError(f"{path} is a DuckDB database but not a tda-audit store ({foreign}); nothing was "
                             f"written to it: give another --db")
        ensure_schema(con, segments.root_for(path))
    else:
        check_version(con, path)
        root = segments.root_for(path)
        if path != ":memory:":
            segments.recover(con, root, clean=False)  # a commit a crash left unpublished
        if segments.views_root(con) != root:  # a store moved since its last writer: read where it is now
            segments.create_views(con, root, temp=True)
    return con


def _foreign_database(con: duckdb.DuckDBPyConnection) -> str | None:
    """What makes the database open on ``con`` someone else's, or None when it is empty
    or a tda-audit store: a store is never created over another program's tables."""
    (n,) = con.execute("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' "
                       "AND database_name = current_database()").fetchone()
    (v,) = con.execute("SELECT count(*) FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
                       "AND database_name = current_database()").fetchone()
    if n + v == 0:
        return None
    if not _has_table(con, "meta"):
        return f"{n} table(s) and {v} view(s), none of them tda-audit's 'meta'"
    try:
        con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.Error:
        return "its 'meta' table is not tda-audit's"
    return None


MACROS = Path(__file__).with_name("macros.sql")
VIEWS = Path(__file__).with_name("views.sql")  # table and tournament views (docs/table-checks.md)


@functools.cache
def _street_macro(name: str, pick: int) -> str:
    """``<name>(variant)``: the betting street at index ``pick`` of each variant's
    (``schema.betting_streets``), a board game's for a variant not in ``Variant``."""
    def street(v: str) -> Street:
        return betting_streets(v, street_family(v))[pick]

    other = street("")
    whens = " ".join(f"WHEN '{v}' THEN '{street(v)}'" for v in Variant if street(v) != other)
    return f"\nCREATE OR REPLACE MACRO {name}(variant) AS CASE variant {whens} ELSE '{other}' END;\n"


def macros_sql() -> str:
    """macros.sql, then a macro for each of the formats' facts (``parsers.FormatFacts``),
    ``<fact>(format)``: true for the formats whose parsers declare it
    (``records_rebuys(h.format)``); and the variants' facts from the schema:
    ``is_stud(variant)``, ``first_street(variant)`` and ``last_street(variant)``, its
    first and last betting streets.  Every connection the checks run on executes this."""
    from parsers import FACTS, format_facts

    facts = format_facts()
    text = MACROS.read_text(encoding="utf-8")
    for fact in FACTS:
        names = ", ".join(f"'{name}'" for name, f in sorted(facts.items()) if getattr(f, fact))
        text += f"\nCREATE OR REPLACE MACRO {fact}(format) AS list_contains([{names}]::VARCHAR[], format);\n"
    studs = ", ".join(f"'{v}'" for v in Variant if street_family(v) == "stud")
    text += f"\nCREATE OR REPLACE MACRO is_stud(variant) AS list_contains([{studs}]::VARCHAR[], variant);\n"
    return text + _street_macro("first_street", 0) + _street_macro("last_street", -1)


@functools.cache
def views_sql() -> str:
    """This version's macros and views.sql's views, as one script."""
    return macros_sql() + VIEWS.read_text(encoding="utf-8")


@functools.cache
def views_digest() -> str:
    """The SHA-256 of ``views_sql()`` (``ensure_schema``)."""
    return hashlib.sha256(views_sql().encode()).hexdigest()


def ensure_schema(con: duckdb.DuckDBPyConnection, root: str) -> None:
    """Create (or check) the tables, the segment catalog, and the views: those over the
    segments in ``root`` (docs/storage.md), then views.sql's."""
    old_layout = _has_table(con, "meta") and _has_table(con, "hands")
    for t in TABLES:
        if t not in SEGMENT_TABLES:
            con.execute(t.ddl())
    row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is not None and int(row[0]) != SCHEMA_VERSION:
        raise StoreError(f"store schema version {row[0]} is not {SCHEMA_VERSION}; re-ingest into a new store")
    layout = con.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
    if old_layout or (row is not None and layout is None):
        raise StoreError("this store keeps its tables inside the DuckDB file (the layout before segments, "
                         "docs/storage.md); re-ingest into a new store, or export it first with "
                         "'tda-audit export --format parquet --what store'")
    if layout is not None and layout[0] != segments.LAYOUT:
        raise StoreError(f"store layout {layout[0]} is not {segments.LAYOUT}; re-ingest into a new store")
    for t in CATALOG_TABLES:
        con.execute(t.ddl())
    segments.prepare_folder(root)
    segments.recover(con, root)
    # the SET of a per-connection variable: ingest and replay find the folder with it
    con.execute("SET VARIABLE segments_root = ?", [root])
    if segments.views_root(con) != root:
        segments.create_views(con, root)
    # the macros and views.sql's views are kept in the store: made again only where this
    # version's text is not the one they were made from (making them binds every view: bench/README.md)
    made = con.execute("SELECT value FROM meta WHERE key = 'views_sha256'").fetchone()
    if made is None or made[0] != views_digest():
        con.execute(views_sql())
        con.execute("INSERT OR REPLACE INTO meta VALUES ('views_sha256', ?)", [views_digest()])
    if row is None:
        con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        con.execute("INSERT INTO meta VALUES ('layout', ?)", [segments.LAYOUT])


def segments_root(con: duckdb.DuckDBPyConnection) -> str:
    """The segment folder of the store ``con`` writes (set by ``connect``)."""
    root = con.execute("SELECT getvariable('segments_root')").fetchone()[0]
    if root is None:
        raise StoreError("this connection was not opened for writing by auditor.store.connect")
    return root


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
                       "AND database_name = current_database()", [name]).fetchone()[0] > 0


def check_version(con: duckdb.DuckDBPyConnection, path: str) -> None:
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.CatalogException as e:
        raise StoreError(f"{path} is not a tda-audit store") from e
    if row is None or int(row[0]) != SCHEMA_VERSION:
        raise StoreError(f"store schema version {row and row[0]} is not {SCHEMA_VERSION}")
    layout = con.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
    if layout is None or layout[0] != segments.LAYOUT:
        raise StoreError(f"{path} keeps its tables in the layout {layout[0] if layout else 'before segments'}, "
                         f"not {segments.LAYOUT} (docs/storage.md); re-ingest into a new store")


_SIZE = re.compile(r"([0-9.]+)\s*(bytes|[KMGTP]i?B)")
_BYTES = {"bytes": 1, **{u + "B": 1000**i for i, u in enumerate("KMGTP", 1)}, **{u + "iB": 1024**i for i, u in enumerate("KMGTP", 1)}}


def configured_memory() -> str:
    """The bound every connection sets: ``$TDA_AUDIT_MEMORY``, else DEFAULT_MEMORY."""
    return os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY


def _limit_text(con: duckdb.DuckDBPyConnection) -> str:
    return con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]


def memory_limit(con: duckdb.DuckDBPyConnection) -> int:
    """DuckDB's memory bound, in bytes, as near as DuckDB shows it: cut to a tenth
    of its unit ('381.4 MiB'), to which half a tenth is added, so that setting the
    value back shows the same."""
    return _bytes(_limit_text(con))


def _bytes(text: str) -> int:
    m = _SIZE.fullmatch(text.strip())
    if not m:
        raise StoreError(f"DuckDB reports a memory limit this version cannot read: {text!r}")
    unit = _BYTES[m[2]]
    return int(float(m[1]) * unit + (unit // 20 if "." in m[1] else 0))


@contextmanager
def one_thread(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """DuckDB on one thread inside the block, then as it was.  Ingest's inserts are
    small Arrow scans while the parse workers hold every core: a second DuckDB
    thread only competes with them (bench/README.md, 2026-12-07)."""
    (before,) = con.execute("SELECT current_setting('threads')").fetchone()
    con.execute("SET threads = 1")
    try:
        yield
    finally:
        con.execute(f"SET threads = {int(before)}")


@contextmanager
def memory_at_most(con: duckdb.DuckDBPyConnection, limit: int) -> Iterator[None]:
    """DuckDB's memory bound lowered to ``limit`` bytes inside the block (never
    raised: a lower bound set by the user stays), then put back.  The bound is the
    database's, for every connection to it."""
    before_text = _limit_text(con)
    before = _bytes(before_text)
    if before <= limit:
        yield
        return
    con.execute(f"SET memory_limit = '{limit} bytes'")
    try:
        yield
    finally:
        # exactly the configured bound when that is what it was (DuckDB shows it only
        # to a tenth of its unit, up to 50 MB off at GiB), else as near as DuckDB shows
        con.execute(f"SET memory_limit = '{configured_memory()}'")
        if _limit_text(con) != before_text:
            con.execute(f"SET memory_limit = '{before} bytes'")


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """BEGIN ... COMMIT around the block; ROLLBACK if it fails, so the connection is
    usable again and the caller sees the block's error (not one from the cleanup:
    DuckDB may already have ended the transaction)."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        rollback(con)
        raise
    con.execute("COMMIT")


def rollback(con: duckdb.DuckDBPyConnection) -> None:
    """ROLLBACK on the way out of an error, quietly: DuckDB may already have ended
    the transaction (a failed COMMIT does), and the error to report is the first."""
    try:
        con.execute("ROLLBACK")
    except duckdb.Error:
        pass


def insert_arrow(con: duckdb.DuckDBPyConnection, table: Table, data: pa.Table, keep_existing: bool = False) -> None:
    """Bulk-insert an Arrow table whose columns are ``table``'s columns; with
    ``keep_existing``, a row whose key is stored already is left out."""
    con.register("_incoming", data)
    try:
        con.execute(f"INSERT INTO {table.name} ({', '.join(table.column_names)}) SELECT {', '.join(table.column_names)} FROM _incoming"
                    + (" ON CONFLICT DO NOTHING" if keep_existing else ""))
    finally:
        con.unregister("_incoming")


def id_ranges(con: duckdb.DuckDBPyConnection, ids: str, size: int, params: list | None = None) -> list[tuple[str, str | None]]:
    """The ids that the query ``ids`` gives (one column of strings, repeats allowed) cut,
    in id order, into ranges of ``size`` rows: (lowest id, first id of the next range or
    None), so that a range reads ``lo <= id AND (next IS NULL OR id < next)``.  The ids
    are streamed in order (DuckDB sorts them out of core), one kept a range: the memory
    does not grow with the ids.

    >>> con = duckdb.connect()
    >>> id_ranges(con, "SELECT * FROM (VALUES ('d'), ('a'), ('c'), ('b'), ('e')) t(x)", 2)
    [('a', 'c'), ('c', 'e'), ('e', None)]
    >>> id_ranges(con, "SELECT 'a' WHERE false", 2)
    []
    """
    firsts: list[str] = []
    seen = 0
    for rb in con.sql(f"SELECT * FROM ({ids}) ORDER BY 1", params=params).to_arrow_reader(65_536):
        col = rb.column(0)
        start = (-seen) % size  # the offset in this chunk of the first id that starts a range
        if start < len(col):
            firsts += col.slice(start).take(list(range(0, len(col) - start, size))).to_pylist()
        seen += len(col)
    return [(lo, firsts[i + 1] if i + 1 < len(firsts) else None) for i, lo in enumerate(firsts)]


def tuples_to_arrow(table: Table, rows: list[tuple], keys: tuple[str, ...] | list[str] | None = None) -> pa.Table:
    """Rows as tuples (values in ``keys`` order, by default the table's columns) as
    an Arrow table of ``table``'s columns (keys that are not columns are left out)."""
    keys = keys or table.column_names
    return rows_to_arrow(table, dict(zip(keys, zip(*rows))) if rows else {k: () for k in keys})


def rows_to_arrow(table: Table, columns: dict[str, list]) -> pa.Table:
    schema = table.arrow_schema()
    return pa.Table.from_arrays([pa.array(columns[n], type=schema.field(n).type) for n in table.column_names], schema=schema)


def copy_store(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """Copy a store that no process is writing: its DuckDB file and its segment
    folder (docs/storage.md).  The copy's views are pointed at its own folder when
    it is first opened."""
    import shutil

    shutil.copyfile(src, dst)
    shutil.copytree(segments.root_for(str(src)), segments.root_for(str(dst)))


# The replay's state in ``meta``, by edition: read by the checks (they judge only
# complete facts), written where the facts are built (``auditor.facts``, ingest).

def replay_state(con: duckdb.DuckDBPyConnection, edition_name: str) -> str | None:
    """'complete' when the edition's facts cover the store, 'in-progress' while (or if
    interrupted while) they are rebuilt, 'stale' when hands were stored since, None
    when never replayed."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay:{edition_name}"]).fetchone()
    return row[0] if row else None


def replay_raise_cap(con: duckdb.DuckDBPyConnection, edition_name: str) -> int | None:
    """The fixed-limit raise cap the edition's facts were built with."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay_cap:{edition_name}"]).fetchone()
    return int(row[0]) if row else None


def facts_cover(con: duckdb.DuckDBPyConnection, edition_name: str, raise_cap: int) -> bool:
    """Whether the edition's facts cover every stored hand, built with ``raise_cap``."""
    return replay_state(con, edition_name) == "complete" and replay_raise_cap(con, edition_name) == raise_cap


def set_replay_state(con: duckdb.DuckDBPyConnection, edition_name: str, state: str, raise_cap: int | None = None) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"replay:{edition_name}", state])
    if raise_cap is not None:
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"replay_cap:{edition_name}", str(raise_cap)])
