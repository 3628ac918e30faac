"""The event log and replay facts as Parquet segments committed in the DuckDB
catalog (issue 17, docs/storage.md): only committed segments are read, a crash
between a worker's write and the coordinator's commit leaves a consistent store
whose orphans are ignored and then deleted, a second ingest writes nothing,
compaction and moving a store change no row."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import ROOT, SAMPLE_HANDS, SAMPLES

from auditor import schema, segments
from auditor.cli import main
from auditor.ingest import ingest
from auditor.pipeline import audit
from auditor.store import StoreError, connect, copy_store, views_digest
from auditor.units import UnitJob, plan_units, write_unit

TABLES = [t.name for t in schema.TABLES]
WHEN = {"sources": "ingested_at", "ingest_errors": "recorded_at"}
STARS = SAMPLES / "pokerstars"


def dump(db: str, tables=TABLES) -> dict[str, list[tuple]]:
    """Every row of ``tables`` (when a row was written aside), read by plain DuckDB."""
    con = duckdb.connect(db, read_only=True)
    try:
        out = {}
        for t in tables:
            cols = [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall() if r[0] != WHEN.get(t)]
            if t == "meta":
                out[t] = sorted(con.execute("SELECT * FROM meta WHERE key NOT LIKE 'checks:%'").fetchall())
                continue
            out[t] = sorted(con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall(), key=repr)
        return out
    finally:
        con.close()


def files(db: str) -> set[str]:
    root = Path(db + segments.SUFFIX)
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def samples_audited(tmp_path_factory) -> tuple[str, dict[str, list[tuple]]]:
    """``audit([SAMPLES], jobs=2)`` into a new store, as the module's settings leave it,
    and its rows: the uninterrupted run the tests below compare with, built once a
    module (a pytest-xdist worker) rather than by each.  A test that writes to it
    writes to a copy."""
    db = str(tmp_path_factory.mktemp("samples-audited") / "ref.duckdb")
    audit([SAMPLES], db=db, jobs=2)
    return db, dump(db)


def test_tables_are_views_over_committed_segments_and_the_catalog_names_each(tmp_path):
    db = str(tmp_path / "s.duckdb")
    s = ingest([SAMPLES], db=db, jobs=1)
    assert s.stored == SAMPLE_HANDS
    con = duckdb.connect(db, read_only=True)
    try:
        kinds = dict(con.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall())
        for t in schema.SEGMENT_TABLES:
            assert kinds[t.name] == "VIEW", t.name
        for t in (schema.SOURCES, schema.INGEST_ERRORS, schema.FINDINGS, *schema.CATALOG_TABLES):
            assert kinds[t.name] == "BASE TABLE", t.name
        committed = con.execute("SELECT table_name || '/' || file, rows FROM segments").fetchall()
        on_disk = {f for f in files(db) if not f.endswith(segments.EMPTY)}
        assert {f for f, _ in committed} == on_disk
        for f, rows in committed:
            (n,) = con.execute(f"SELECT count(*) FROM read_parquet('{db}{segments.SUFFIX}/{f}')").fetchone()
            assert n == rows
        assert con.execute("SELECT count(*), count(DISTINCT hand_id) FROM hand_keys").fetchone() == (SAMPLE_HANDS, SAMPLE_HANDS)
        # every hand names its file through the unit and part of its segment
        assert con.execute("SELECT count(*) FROM hands JOIN sources USING (source_id)").fetchone()[0] == SAMPLE_HANDS
    finally:
        con.close()


def estimated_rows(con, table: str) -> list[int]:
    """DuckDB's estimates of the rows of each operator of a plain read of ``table``."""
    plan = json.loads(con.execute(f"EXPLAIN (FORMAT JSON) SELECT * FROM {table}").fetchall()[0][1])

    def walk(node):
        yield int(node.get("extra_info", {}).get("Estimated Cardinality", -1))
        for child in node.get("children", []):
            yield from walk(child)

    return [n for n in walk(plan[0]) if n >= 0]


def test_the_planner_sees_each_table_s_rows_and_an_older_store_s_empty_segment_is_replaced(tmp_path):
    """DuckDB estimates a glob's rows from its first file: the empty segment, listed
    first, made every segment table look empty to the planner, which then built the
    checks' hash tables on the whole store's hands and seats (the 10M audit ran out
    of memory in uncalled-bet).  The empty segment sorts last; a store written with
    the old name gets the new one and loses the old at its next writer."""
    db = str(tmp_path / "s.duckdb")
    audit([SAMPLES], db=db, jobs=1)
    con = connect(db, read_only=True)
    try:
        with_rows = 0
        for t in schema.SEGMENT_TABLES:
            folder = sorted(os.listdir(Path(db + segments.SUFFIX) / t.name))
            assert folder[-1] == segments.EMPTY, (t.name, folder)
            (rows,) = con.execute(f"SELECT count(*) FROM {t.name}").fetchone()
            # the read's estimate: at least the rows there are (first file's rows x files)
            assert estimated_rows(con, t.name)[0] >= rows, t.name
            with_rows += rows > 0
        assert with_rows >= 7  # all but replay_notes, which the samples leave empty
    finally:
        con.close()
    root = Path(db + segments.SUFFIX)
    for t in schema.SEGMENT_TABLES:  # as a store written before the rename
        (root / t.name / segments.EMPTY).rename(root / t.name / "_empty.parquet")
    before = dump(db)
    con = connect(db)  # a writer: the old name is an uncommitted file, and goes
    con.close()
    for t in schema.SEGMENT_TABLES:
        assert sorted(os.listdir(root / t.name))[-1] == segments.EMPTY
        assert not (root / t.name / "_empty.parquet").exists()
    assert dump(db) == before


def test_the_views_are_made_again_only_when_this_version_s_text_differs(tmp_path):
    """A writer's connection makes the macros and views.sql's views only where the store's
    were made from other text (its digest in meta): a store of an older version gets this
    version's views, a store of this version keeps its own."""
    db = str(tmp_path / "s.duckdb")
    con = connect(db)

    def table_hands_sql() -> str:
        return con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'table_hands' AND NOT temporary").fetchone()[0]

    made = table_hands_sql()
    con.execute("CREATE OR REPLACE VIEW table_hands AS SELECT 1 AS stand_in")
    con.close()
    con = connect(db)  # the digest is this version's: the view is left as it is
    assert "stand_in" in table_hands_sql()
    con.execute("UPDATE meta SET value = 'an older version' WHERE key = 'views_sha256'")
    con.close()
    con = connect(db)  # another version's digest: made again, and the digest is this version's
    try:
        assert table_hands_sql() == made
        assert con.execute("SELECT value FROM meta WHERE key = 'views_sha256'").fetchone() == (views_digest(),)
    finally:
        con.close()


def test_a_range_of_hands_reads_only_the_files_that_may_hold_it_and_the_same_rows(tmp_path):
    """The checks of a range of hand ids (and a batch of tournaments) read the segment
    files whose hand-id bounds meet the range (``file_spans``, ``in_range``), not every
    file of a table: over the whole folder DuckDB planned a range of a 10M-hand store
    as ten times the rows of one of a 1M store.  The rows are the same either way."""
    db = str(tmp_path / "s.duckdb")
    for f in sorted(SAMPLES.rglob("*.txt")):  # one commit a file: segments with their own ids
        ingest([f], db=db, jobs=1)
    con = connect(db)
    try:
        root = segments.root_for(db)
        spans = segments.file_spans(con, root, "tda-2024")
        committed = set(con.execute("SELECT table_name || '/' || file FROM segments WHERE edition IS NULL").fetchall())
        assert {(f"{t}/{f}",) for t, fs in spans.items() for f, _, _ in fs} == committed
        assert all(lo is not None and hi is not None and lo <= hi for fs in spans.values() for _, lo, hi in fs)
        ids = [r[0] for r in con.execute("SELECT hand_id FROM hands ORDER BY hand_id").fetchall()]
        skipped = 0
        for lo, hi in [(ids[0], ids[len(ids) // 3]), (ids[len(ids) // 2], ids[len(ids) // 2]), (ids[-5], None), (None, ids[3])]:
            for t in schema.LOG_TABLES:
                if t.name not in spans:
                    continue
                chosen = segments.in_range(spans, t.name, lo, hi)
                skipped += len(spans[t.name]) - len(chosen)
                cond = " AND ".join([*([f"hand_id >= '{lo}'"] if lo else []), *([f"hand_id <= '{hi}'"] if hi else [])])
                cols = ", ".join(t.column_names)
                every = con.execute(f"SELECT {cols} FROM {t.name} WHERE {cond} ORDER BY ALL").fetchall()
                con.execute(segments.view_sql(t, root, temp=True, files=chosen))
                assert con.execute(f"SELECT {cols} FROM temp.{t.name} WHERE {cond} ORDER BY ALL").fetchall() == every, (t.name, lo, hi)
                con.execute(f"DROP VIEW temp.{t.name}")
        assert skipped > 0  # the ranges leave files out
    finally:
        con.close()


def test_a_segment_no_commit_names_is_never_read_and_the_next_writer_deletes_it(tmp_path):
    """A worker's segments in pending/, and a file in a table's folder that no
    catalog row names: the views never read them; the next writer deletes them."""
    db = str(tmp_path / "s.duckdb")
    ingest([STARS / "nlhe-mtt-9max-table.txt"], db=db, jobs=1)
    before = dump(db)
    root = db + segments.SUFFIX
    # a unit written by a worker whose coordinator never committed it
    parts = next(plan_units([STARS / "razz-mtt.txt"], [os.path.getsize(STARS / "razz-mtt.txt")]))
    m = write_unit(UnitJob(99, "u000000099-orphan", parts), None, root)
    assert m.rows["hands"] > 0 and os.path.exists(segments.pending_path(root, "hands", m.name))
    # and one placed in the events folder by hand, as if a crash came before its commit
    shutil.copy(segments.pending_path(root, "events", m.name), os.path.join(root, "events", "u000000099-orphan.parquet"))
    assert dump(db, ["hands", "seats"]) == {t: before[t] for t in ("hands", "seats")}
    con = connect(db)  # a writer: the orphans go
    con.close()
    assert not [f for f in files(db) if "orphan" in f]
    assert dump(db) == before


def test_second_ingest_adds_nothing_and_leaves_no_new_segment(tmp_path, samples_audited):
    db = str(tmp_path / "s.duckdb")
    copy_store(samples_audited[0], db)  # audit([SAMPLES], db=db, jobs=2)
    before, on_disk = dump(db), files(db)
    assert before == samples_audited[1]
    again = audit([SAMPLES], db=db, jobs=2)
    assert (again.ingest.stored, again.ingest.duplicates) == (0, SAMPLE_HANDS)
    assert files(db) == on_disk
    assert dump(db) == before


def test_partly_new_units_commit_only_their_new_hands(tmp_path):
    """A unit holding stored hands and new ones: its segments are rewritten with the
    new hands' rows only."""
    db = str(tmp_path / "s.duckdb")
    one = STARS / "nlhe-mtt-9max-table.txt"
    ingest([one], db=db, jobs=1)
    ref = str(tmp_path / "ref.duckdb")
    ingest([STARS], db=ref, jobs=1)
    s = ingest([STARS], db=db, jobs=1)  # one unit: the file stored before and the others
    assert s.duplicates > 0 and s.stored > 0
    assert dump(db, ["seats", "events"]) == dump(ref, ["seats", "events"])

    def hands(d: str) -> list[tuple]:  # the files were numbered in another order
        with duckdb.connect(d, read_only=True) as con:
            return sorted(con.execute("SELECT h.* EXCLUDE (source_id), s.path FROM hands h JOIN sources s USING (source_id)").fetchall(), key=repr)

    assert hands(db) == hands(ref)


CRASH = """
import os, signal, sys
import auditor.ingest as ingest_module
from auditor import segments
from auditor.pipeline import audit
where = sys.argv[3]
if where == "before-commit":  # the workers wrote their segments; the catalog never heard of them
    def commit(self):
        if self.staged:
            os.kill(os.getpid(), signal.SIGKILL)
    ingest_module._Writer.commit = commit
else:  # committed, and killed before a segment was moved out of pending/
    def publish(root, staged):
        if staged:
            os.kill(os.getpid(), signal.SIGKILL)
    segments.publish = publish
audit([sys.argv[1]], db=sys.argv[2], jobs=2)
"""


@pytest.mark.parametrize("where", ["before-commit", "before-publish"])
def test_a_coordinator_killed_between_write_and_commit_leaves_a_store_a_rerun_completes(tmp_path, where, samples_audited):
    db = str(tmp_path / "s.duckdb")
    p = subprocess.run([sys.executable, "-c", CRASH, str(SAMPLES), db, where], cwd=ROOT, capture_output=True,
                       text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == -9, p.stderr
    pending = [f for f in files(db) if f.startswith(segments.PENDING)]
    assert pending, "the kill left the workers' segments behind"
    con = connect(db, read_only=True)  # a reader sees the committed hands only, each whole
    try:
        (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
        assert n == (0 if where == "before-commit" else SAMPLE_HANDS)
        assert con.execute("SELECT count(DISTINCT hand_id) FROM events").fetchone() == (n,)
    finally:
        con.close()
    audit([SAMPLES], db=db, jobs=2)
    assert not [f for f in files(db) if f.startswith(segments.PENDING)]
    assert dump(db) == samples_audited[1]  # the uninterrupted audit's rows


# The ingest's worker function, in a module the workers can import (PYTHONPATH): the
# worker that takes the third unit (a flag file, made once) is killed with SIGKILL after
# the unit's first segment is written, its other segments not.
DYING_WORKER = """
import os, signal
from auditor import segments
from auditor.units import write_unit as real_write_unit


def write_unit(job, replay, root):
    if job.unit_id < 3:
        return real_write_unit(job, replay, root)
    try:
        os.close(os.open(os.environ["TDA_TEST_DIE_ONCE"], os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return real_write_unit(job, replay, root)
    write_pending = segments.write_pending

    def write_then_die(*args):
        write_pending(*args)
        os.kill(os.getpid(), signal.SIGKILL)

    segments.write_pending = write_then_die
    return real_write_unit(job, replay, root)
"""

KILL_WORKER = """
import sys
import auditor.ingest as ingest_module
import auditor.units as units
import dying_worker
from auditor.cli import main
units.GROUP_FILES, ingest_module.CHUNK_BYTES = 2, 0  # many units, in worker processes
ingest_module.write_unit = dying_worker.write_unit
main(["audit", sys.argv[1], "--db", sys.argv[2], "--jobs", "2"])
"""


def test_a_worker_killed_mid_unit_then_the_coordinator_mid_commit_then_a_rerun_equals_one_run(tmp_path, samples_audited):
    """Issue 17: a worker killed while it writes a unit's segments fails the audit (an
    error naming what happened and what to do, not a traceback) and leaves a store
    whose readers see committed hands only; an
    audit then killed in the middle of its commit (the catalog committed, the segments
    not yet moved out of pending/); a third audit completes, and the store is the
    uninterrupted audit's, row for row, with nothing left in pending/."""
    db = str(tmp_path / "s.duckdb")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "dying_worker.py").write_text(DYING_WORKER)
    flag = tmp_path / "a-worker-died"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(hooks)]), "TDA_TEST_DIE_ONCE": str(flag)}
    p = subprocess.run([sys.executable, "-c", KILL_WORKER, str(SAMPLES), db], cwd=ROOT, capture_output=True,
                       text=True, timeout=600, env=env)
    assert flag.exists(), "no worker took a unit"
    assert p.returncode == 2, p.stderr[-2000:]
    assert "Error: a worker process ended abruptly" in p.stderr and "Traceback" not in p.stderr, p.stderr[-2000:]
    assert [f for f in files(db) if f.startswith(segments.PENDING)], "the killed worker wrote a segment"
    con = connect(db, read_only=True)  # the committed hands only, each whole
    try:
        (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
        assert n < SAMPLE_HANDS
        assert con.execute("SELECT count(DISTINCT hand_id) FROM events").fetchone() == (n,)
        assert con.execute("SELECT count(DISTINCT hand_id) FROM seats").fetchone() == (n,)
    finally:
        con.close()

    p = subprocess.run([sys.executable, "-c", CRASH, str(SAMPLES), db, "before-publish"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == -9, p.stderr[-2000:]
    with duckdb.connect(db, read_only=True) as con:  # the commit is in the catalog, its files still pending
        assert con.execute("SELECT count(*) FROM segments").fetchone()[0] > 0
    assert [f for f in files(db) if f.startswith(segments.PENDING)]

    audit([SAMPLES], db=db, jobs=2)
    assert not [f for f in files(db) if f.startswith(segments.PENDING)]
    assert dump(db) == samples_audited[1]  # the uninterrupted audit's rows


def test_compaction_merges_segments_and_keeps_every_table(tmp_path, monkeypatch):
    import auditor.units as units

    monkeypatch.setattr(units, "GROUP_FILES", 2)  # many small units: many segments
    db = str(tmp_path / "s.duckdb")
    audit([SAMPLES], db=db, jobs=1)
    fresh = str(tmp_path / "fresh.duckdb")
    copy_store(db, fresh)  # the same audit, never compacted: audit([SAMPLES], db=fresh, jobs=1)
    before = dump(db)
    with duckdb.connect(db, read_only=True) as con:
        n_before, n_tables = con.execute("SELECT count(*), count(DISTINCT table_name) FROM segments").fetchone()
    r = CliRunner().invoke(main, ["compact", "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["segments_before"] == n_before > got["segments_after"] == n_tables  # a segment per table
    assert dump(db) == before
    assert len([f for f in files(db) if not f.endswith(segments.EMPTY)]) == got["segments_after"]
    # a compacted store takes more hands, and replays, as any other
    audit([SAMPLES], db=db, jobs=1, edition_name="tda-2011")
    audit([SAMPLES], db=fresh, jobs=1, edition_name="tda-2011")
    assert dump(db) == dump(fresh)


def test_export_of_the_store_is_the_same_before_and_after_compaction(tmp_path, monkeypatch):
    import auditor.units as units

    monkeypatch.setattr(units, "GROUP_FILES", 3)
    db = str(tmp_path / "s.duckdb")
    audit([SAMPLES], db=db, jobs=1)

    def export(out: Path) -> dict:
        r = CliRunner().invoke(main, ["export", "--db", db, "--format", "parquet", "--what", "store", "--out", str(out)])
        assert r.exit_code == 0, r.output
        manifest = json.loads((out / "manifest.json").read_text())
        assert set(manifest["tables"]) == set(TABLES)  # the catalog is not part of the export
        con = duckdb.connect()
        rows = {}
        for t, m in manifest["tables"].items():
            pattern = str(out / m["path"]) + ("/*/*.parquet" if m["partitioned"] else "")
            if m["partitioned"] and not m["rows"]:
                pattern = str(out / m["path"] / "*.parquet")
            q = f"SELECT * EXCLUDE ({WHEN[t]}) FROM read_parquet('{pattern}')" if t in WHEN else f"SELECT * FROM read_parquet('{pattern}')"
            rows[t] = sorted(con.execute(q).fetchall(), key=repr)
        return rows

    first = export(tmp_path / "a")
    assert (tmp_path / "a" / "events").is_dir() and any((tmp_path / "a" / "events").glob("tournament=*"))
    CliRunner().invoke(main, ["compact", "--db", db])
    assert export(tmp_path / "b") == first


def test_a_moved_or_copied_store_reads_its_own_segments(tmp_path):
    db = str(tmp_path / "a" / "s.duckdb")
    os.makedirs(tmp_path / "a")
    audit([STARS], db=db, jobs=1)
    before = dump(db)
    moved = str(tmp_path / "b" / "moved.duckdb")
    os.makedirs(tmp_path / "b")
    copy_store(db, moved)
    shutil.rmtree(db + segments.SUFFIX)  # the original's segments are gone: the copy must not read them
    os.remove(db)
    con = connect(moved, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM events").fetchone() == (len(before["events"]),)
    finally:
        con.close()
    connect(moved).close()  # a writer points the stored views at the new folder
    assert dump(moved) == before


def test_a_store_of_the_layout_before_segments_is_a_clear_error(tmp_path):
    db = str(tmp_path / "old.duckdb")
    con = duckdb.connect(db)
    for t in schema.TABLES:
        con.execute(t.ddl())
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(schema.SCHEMA_VERSION)])
    con.close()
    for read_only in (False, True):
        with pytest.raises(StoreError, match="layout"):
            connect(db, read_only=read_only)


COORDINATOR_IMPORTS = r"""
import json, sys
from auditor.ingest import ingest
s = ingest([sys.argv[1]], db=sys.argv[2], jobs=1)
# pyarrow.compute is not listed: jobs=1 parses in this process, and a worker's columns
# take each row's hand_id with it (units._by_hand)
loaded = sorted(m for m in ('pandas', 'replay.engine') if m in sys.modules)
import pyarrow as pa
frame = pa.table({'a': pa.array([1, 2])}).to_pandas()  # pyarrow imports pandas when it is needed
print(json.dumps({'stored': s.stored, 'loaded': loaded, 'frame': type(frame).__name__}))
"""


def test_an_ingest_imports_neither_pandas_nor_the_engine_yet_to_pandas_still_works(tmp_path):
    """The coordinator's start is CPU no worker can take (bench/README.md, issue 17):
    it imports no pandas (pyarrow would at its first conversion) and, without replay, no
    engine; a caller's ``to_pandas`` afterwards still works."""
    p = subprocess.run([sys.executable, "-c", COORDINATOR_IMPORTS, str(STARS), str(tmp_path / "i.duckdb")],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.splitlines()[-1])
    assert out["stored"] > 0 and out["loaded"] == [] and out["frame"] == "DataFrame", out


def test_a_big_file_is_planned_as_byte_ranges_that_parse_as_the_whole_file(tmp_path, monkeypatch):
    """The coordinator names byte ranges; a worker plans them (units.scan_file): each
    cut falls where a hand starts, and its first line number is the file's."""
    import auditor.units as units

    path = STARS / "nlhe-mtt-9max-table.txt"
    monkeypatch.setattr(units, "CHUNK_BYTES", 4096)
    parts = [u[0] for u in plan_units([path], [os.path.getsize(path)])]
    data = path.read_bytes()
    assert len(parts) > 2 and all(p.length is not None for p in parts)
    assert [p.first_offset for p in parts[1:]] == [p.first_offset + p.length for p in parts[:-1]]
    assert parts[-1].first_offset + parts[-1].length == len(data)
    for p in parts[1:]:
        assert data[p.first_offset:].startswith(b"PokerStars Hand #")
        assert p.first_line == data[:p.first_offset].count(b"\n") + 1
    assert [p.first_line for p in parts[1:]] == [p.cut_by_end for p in parts[:-1]]


def _segment_counts(db: str) -> dict[str, tuple[int, int]]:
    """Per table: committed segments and their rows."""
    with duckdb.connect(db, read_only=True) as con:
        return {t: (n, rows) for t, n, rows in con.execute(
            "SELECT table_name, count(*), sum(rows) FROM segments GROUP BY 1").fetchall()}


def _many_small_commits(monkeypatch) -> None:
    """Units of two files, each committed alone, parsed by worker processes: an
    ingest of the samples commits a dozen segments a table."""
    import auditor.ingest as ingest_module
    import auditor.units as units

    monkeypatch.setattr(units, "GROUP_FILES", 2)
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", 1)
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", 0)  # workers even for these few bytes


def test_the_workers_merge_segments_as_an_ingest_goes_and_no_row_changes(tmp_path, monkeypatch):
    """Issue 17: every MERGE_FANIN committed segments of a tier are merged by a worker
    and swapped in by the coordinator; the tables (and the findings) are those of a
    store whose segments were never merged, and the catalog names exactly the files
    in the folders."""
    _many_small_commits(monkeypatch)
    monkeypatch.setattr(segments, "MERGE_FANIN", 1 << 30)  # never merged
    plain = str(tmp_path / "plain.duckdb")
    audit([SAMPLES], db=plain, jobs=2)
    monkeypatch.setattr(segments, "MERGE_FANIN", 3)
    db = str(tmp_path / "merged.duckdb")
    audit([SAMPLES], db=db, jobs=2)
    assert dump(db) == dump(plain)
    unmerged, merged = _segment_counts(plain), _segment_counts(db)
    assert merged.keys() == unmerged.keys()
    for t, (n, rows) in unmerged.items():
        # n unit segments, three a tier: at most two left in each tier of log3(n)
        assert n >= 9 and merged[t][0] <= 2 * 3 and merged[t][1] == rows, (t, n, merged[t])
    with duckdb.connect(db, read_only=True) as con:
        committed = {f"{t}/{f}" for t, f in con.execute("SELECT table_name, file FROM segments").fetchall()}
        (unnamed,) = con.execute("SELECT count(*) FROM segments WHERE file LIKE 'm%' AND unit_id IS NULL").fetchone()
    assert unnamed > 0  # merged segments belong to no unit
    assert {f for f in files(db) if not f.endswith(segments.EMPTY)} == committed  # no input left, nothing pending

    # a replay of the whole store (another edition) merges its batches' segments the same way
    import functools

    import auditor.facts as facts

    monkeypatch.setattr(facts, "read_batches", functools.partial(facts.read_batches, batch=5))
    for store, fanin in ((plain, 1 << 30), (db, 3)):
        monkeypatch.setattr(segments, "MERGE_FANIN", fanin)
        audit([SAMPLES], db=store, jobs=2, edition_name="tda-2011")
    assert dump(db) == dump(plain)
    with duckdb.connect(plain, read_only=True) as p, duckdb.connect(db, read_only=True) as m:
        per_table = "SELECT table_name, count(*) FROM segments WHERE edition = 'tda-2011' GROUP BY 1"
        batches, kept = dict(p.execute(per_table).fetchall()), dict(m.execute(per_table).fetchall())
    assert batches["decisions"] == -(-SAMPLE_HANDS // 5) and kept["decisions"] <= 2 * 3, (batches, kept)


MERGE_CRASH = """
import os, signal, sys
import auditor.ingest as ingest_module, auditor.units as units
from auditor import segments
from auditor.pipeline import audit

def die(*args):
    os.kill(os.getpid(), signal.SIGKILL)

units.GROUP_FILES, ingest_module.BATCH_HANDS, ingest_module.CHUNK_BYTES, segments.MERGE_FANIN = 2, 1, 0, 3
where = sys.argv[3]
if where == "merge-before-commit":  # a worker wrote the merged segment; no commit names it
    segments.Merger._swap = die
elif where == "merge-before-publish":  # the swap committed; the merged segment still in pending/
    publish = segments.publish
    segments.publish = lambda root, staged: die() if any(s.name.startswith("m") for s in staged) else publish(root, staged)
else:  # moved in; its inputs, retired by the commit, still in their folders
    segments.remove_live = lambda root, files: die() if files else None
if __name__ == "__main__":
    audit([sys.argv[1]], db=sys.argv[2], jobs=2)
"""


@pytest.mark.parametrize("where", ["merge-before-commit", "merge-before-publish", "merge-before-retire"])
def test_a_coordinator_killed_during_a_merge_leaves_a_store_that_reads_each_row_once(tmp_path, where, samples_audited):
    """A merge's swap is crash-safe as a unit's commit: killed before it, the merged
    segment is an orphan; after it, a reader finishes the move and no longer reads
    the retired inputs (the views would read their rows twice); a rerun completes."""
    db = str(tmp_path / "s.duckdb")
    p = subprocess.run([sys.executable, "-c", MERGE_CRASH, str(SAMPLES), db, where], cwd=ROOT, capture_output=True,
                       text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == -9, p.stderr
    con = connect(db, read_only=True)
    try:
        (n, ids) = con.execute("SELECT count(*), count(DISTINCT hand_id) FROM hands").fetchone()
        assert n == ids > 0
        assert con.execute("SELECT count(*) - count(DISTINCT (hand_id, seq)), count(DISTINCT hand_id) FROM events").fetchone() == (0, n)
        assert con.execute("SELECT count(*) - count(DISTINCT (hand_id, seat)) FROM seats").fetchone() == (0,)
    finally:
        con.close()
    audit([SAMPLES], db=db, jobs=2)
    with duckdb.connect(db, read_only=True) as con:
        committed = {f"{t}/{f}" for t, f in con.execute("SELECT table_name, file FROM segments").fetchall()}
    assert {f for f in files(db) if not f.endswith(segments.EMPTY)} == committed
    assert dump(db) == samples_audited[1]  # the uninterrupted audit's rows
