"""Parsing in worker processes and in chunks, and replaying as hands are stored
(issue 7), change nothing that is stored.

* Files cut into many small chunks at hand starts and parsed in two worker
  processes give the same event log, the same rejections and the same totals as
  one process reading each file whole.
* ``audit`` on an empty store replays each hand in the worker that parsed it and
  commits its facts with it; those facts equal a separate ``replay`` of the
  stored log, table for table, under every edition tested.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import duckdb
import pytest
from conftest import CORPUS, FIXTURES, SAMPLE_HANDS, SAMPLES, needs_corpus

import auditor.ingest as ingest_module
import auditor.units as units
from auditor.ingest import ingest
from auditor.pipeline import audit
from auditor.store import WRITE_MEMORY, connect, memory_at_most, memory_limit
from auditor.facts import replay_store
from auditor.store import replay_state

LOG_TABLES = ("sources", "hands", "seats", "events", "ingest_errors")
FACT_TABLES = ("decisions", "pots", "pot_shares", "hand_results", "replay_notes", "findings")
TIMESTAMPS = {"ingested_at", "recorded_at", "finding_id"}


def dump(db: str, tables) -> dict[str, list[tuple]]:
    con = duckdb.connect(db, read_only=True)
    try:
        out = {}
        for t in tables:
            cols = [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall() if r[0] not in TIMESTAMPS]
            out[t] = sorted(con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall(), key=repr)
        return out
    finally:
        con.close()


def totals(s) -> tuple:
    errors = sorted((e["file"], e["line"], e["reason_code"], e["reason"]) for e in s.errors)
    return s.files, s.hands_seen, s.stored, s.duplicates, s.rejected, errors


def chunked_equals_whole(paths, tmp_path, monkeypatch, chunk_bytes: int) -> int:
    whole = str(tmp_path / "whole.duckdb")
    a = ingest(paths, db=whole, jobs=1)
    monkeypatch.setattr(units, "CHUNK_BYTES", chunk_bytes)  # files above this are cut into chunks
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", chunk_bytes)  # and more than a chunk is worth workers
    files = _files(paths)
    parts = list(units.plan_units(files, [units.file_size(f) for f in files]))
    assert sum(1 for u in parts if u[0].length is not None) > len(parts) // 2, "most units are chunks of files"
    jobs_run = []
    real_map = ingest_module.worker_map

    def spy(fn, jobs, *extra, **kw):
        jobs_run.append(jobs)
        return real_map(fn, jobs, *extra, **kw)

    monkeypatch.setattr(ingest_module, "worker_map", spy)
    chunked = str(tmp_path / "chunked.duckdb")
    b = ingest(paths, db=chunked, jobs=2)
    assert jobs_run == [2], "the chunks were parsed by two worker processes"
    assert totals(b) == totals(a)
    assert a.hands_seen == a.stored + a.duplicates + a.rejected
    assert dump(chunked, LOG_TABLES) == dump(whole, LOG_TABLES)
    return a.stored


def _files(paths):
    from auditor.ingest import expand_paths

    return expand_paths(paths)


def test_samples_in_tiny_chunks_and_two_workers_store_what_one_reader_does(tmp_path, monkeypatch):
    stored = chunked_equals_whole([SAMPLES], tmp_path, monkeypatch, 2048)
    assert stored == SAMPLE_HANDS


@needs_corpus
def test_pokerstars_corpus_in_chunks_and_two_workers_stores_what_one_reader_does(tmp_path, monkeypatch):
    stored = chunked_equals_whole([CORPUS / "fpdb" / "tour" / "Stars", CORPUS / "fpdb" / "cash" / "Stars"],
                                  tmp_path, monkeypatch, 64 << 10)
    # + the PL/NL hand, the 3 run-it-twice hands, and the Run It Once (11, splash-the-pot hands
    # included) and Full Tilt 2016 (25) hands of these folders, and the 4 hands whose record is
    # cut short (stored as recorded: test_corpus_pokerstars.CUT_HANDS)
    # (2: converted hands with a line not understood, reconciled; 7: the capped table's hand and the 6 all-in
    # cash-outs, stored since issue 34)
    assert stored == 1188 + 401 + 1 + 3 + 11 + 25 + 4 + 2 + 7


def audit_equals_ingest_then_replay(paths, tmp_path, edition: str) -> None:
    fused = str(tmp_path / f"fused-{edition}.duckdb")
    r = audit(paths, db=fused, edition_name=edition, jobs=2)
    assert r.ingest.stored > 0
    separate = str(tmp_path / f"separate-{edition}.duckdb")
    ingest(paths, db=separate, jobs=1)
    con = connect(separate)
    try:
        replay_store(con, edition, jobs=1)
        from auditor.checks import run_checks

        run_checks(con, edition)
        assert replay_state(con, edition) == "complete"
    finally:
        con.close()
    assert dump(fused, LOG_TABLES) == dump(separate, LOG_TABLES)
    a, b = dump(fused, FACT_TABLES), dump(separate, FACT_TABLES)
    for t in FACT_TABLES:
        assert a[t] == b[t], f"{t} differs between audit's replay-as-stored and a separate replay"
    assert a["decisions"] and a["pots"]


@pytest.mark.parametrize("edition", ["tda-2019", "tda-2011"])
def test_audit_replaying_as_it_stores_equals_a_separate_replay_on_the_samples(tmp_path, edition):
    audit_equals_ingest_then_replay([SAMPLES], tmp_path, edition)


@needs_corpus
def test_audit_replaying_as_it_stores_equals_a_separate_replay_on_the_corpus(tmp_path, monkeypatch):
    monkeypatch.setattr(units, "CHUNK_BYTES", 256 << 10)  # also chunk the bigger PokerStars files
    audit_equals_ingest_then_replay([CORPUS / "fpdb" / "tour" / "Stars", CORPUS / "fpdb" / "cash" / "Stars",
                                     CORPUS / "phh" / "wsop", str(CORPUS / "phh" / "pluribus" / "10*")], tmp_path, "tda-2019")


def test_adding_hands_leaves_other_editions_stale_and_audit_replays_only_once(tmp_path):
    db = str(tmp_path / "s.duckdb")
    pokerstars = sorted((SAMPLES / "pokerstars").glob("*.txt"))
    first = audit(pokerstars[:2], db=db, edition_name="tda-2013")
    con = connect(db)
    replay_store(con, "tda-2019")
    con.close()
    second = audit(pokerstars[2:], db=db, edition_name="tda-2013")  # replays only the new hands
    assert second.replay.hands == first.replay.hands + second.ingest.stored
    con = connect(db)
    try:
        assert replay_state(con, "tda-2013") == "complete"
        assert replay_state(con, "tda-2019") == "stale"  # its facts lack the new hands
    finally:
        con.close()
    fresh = str(tmp_path / "fresh.duckdb")
    audit(pokerstars, db=fresh, edition_name="tda-2013")
    mine, ref = dump(db, FACT_TABLES[:-1]), dump(fresh, FACT_TABLES[:-1])
    assert {t: [r for r in rows if "tda-2013" in r] for t, rows in mine.items()} == ref


def test_a_parser_failure_rejects_the_rest_of_that_file_only(tmp_path, monkeypatch):
    """Parsers turn bad input into rejections; should one still fail (a bug), the
    rest of that file becomes one rejection naming file and line, and every other
    file still goes in."""
    from auditor import units
    from parsers.base import HandError

    calls = []

    class Failing:  # the PokerStars parser, failing on its third hand (a wrapper: it may be compiled)
        def __init__(self, real):
            self.real, self.name = real, real.name

        def iter_hands(self, lines, path, **kw):
            for item in self.real.iter_hands(lines, path, **kw):
                line = getattr(item, "first_line", None) or item.line_no
                calls.append(line)
                if len(calls) == 2:  # the second PokerStars hand read is rejected, at its first line
                    yield HandError(line, "parse-error", f"hand at line {line}: misread")
                elif len(calls) == 3:  # and on the third the parser fails
                    raise RuntimeError("boom")
                else:
                    yield item

    real_detect = units.detect_parser

    def detect(head, path):
        parser = real_detect(head, path)
        return Failing(parser) if parser is not None and parser.name == "pokerstars" else parser

    monkeypatch.setattr(units, "detect_parser", detect)
    db = str(tmp_path / "s.duckdb")
    s = ingest([SAMPLES], db=db, jobs=1)
    assert s.hands_seen == s.stored + s.duplicates + s.rejected
    (failed,) = [e for e in s.errors if "parser failed" in e["reason"]]
    assert failed["reason_code"] == "parser-failed" and "RuntimeError: boom" in failed["reason"]
    assert failed["file"].endswith(".txt") and failed["line"] >= 1
    con = duckdb.connect(db, read_only=True)
    try:
        files = {r[0] for r in con.execute("SELECT s.path FROM hands JOIN sources s USING (source_id)").fetchall()}
        (logged,) = con.execute("SELECT count(*) FROM ingest_errors WHERE reason LIKE '%parser failed%'").fetchone()
        (rows,) = con.execute("SELECT count(*) FROM ingest_errors WHERE reason_code <> 'not-a-history'").fetchone()
    finally:
        con.close()
    assert logged == 1
    assert rows == s.rejected  # every rejection is a row: the misread hand and the failure at the same line both
    every = {str(p.resolve()) for p in SAMPLES.rglob("*") if p.suffix in (".txt", ".phh", ".phhs")}
    assert len(files) >= len(every) - 1  # only the failing file may have lost hands


@needs_corpus
def test_replay_in_worker_processes_equals_replay_in_one(tmp_path):
    """``tda-audit replay`` hands batches of the stored log to worker processes (as
    Arrow tables); the facts equal those of one process."""
    from auditor.store import copy_store
    from auditor.facts import BATCH_HANDS

    one = str(tmp_path / "one.duckdb")
    ingest([CORPUS / "fpdb" / "tour" / "Stars"], db=one, jobs=1)
    two = str(tmp_path / "two.duckdb")
    copy_store(one, two)  # the DuckDB file and its segments
    for db, jobs in ((one, 1), (two, 2)):
        con = connect(db)
        try:
            (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
            assert n > BATCH_HANDS, "more than one batch, so workers are used"
            summary = replay_store(con, "tda-2017", jobs=jobs)
            assert summary.hands == n
        finally:
            con.close()
    assert dump(two, FACT_TABLES[:-1]) == dump(one, FACT_TABLES[:-1])


@pytest.mark.parametrize("before, during", [("400MB", WRITE_MEMORY), ("100MB", 100 * 10**6)])
def test_ingest_writes_under_a_lower_memory_bound_on_one_thread_and_puts_both_back(tmp_path, before, during):
    """While it writes, ingest caps DuckDB's memory lower (it reads back next to
    nothing of what it wrote); a bound already lower stays; afterwards the store's
    bound is what it was, also when the ingest fails."""
    con = connect(str(tmp_path / "m.duckdb"))
    con.execute(f"SET memory_limit = '{before}'")
    con.execute("SET threads = 3")
    start = memory_limit(con)
    seen: list[int] = []

    def threads():
        return con.execute("SELECT current_setting('threads')").fetchone()[0]

    ingest([SAMPLES], con=con, jobs=1, on_commit=lambda s: seen.append((memory_limit(con), threads())))
    # DuckDB rounds the bound to 0.1 MiB; its inserts run on one thread (the workers have the cores)
    assert seen and all(abs(m - during) < 2**20 and t == 1 for m, t in seen), seen
    assert memory_limit(con) == start and threads() == 3

    hands = con.execute("SELECT count(*) FROM hands").fetchall()

    def fail(_):  # a DuckDB error inside the transaction, which leaves it aborted
        con.execute("INSERT INTO meta VALUES ('schema_version', 'again')")

    with pytest.raises(duckdb.ConstraintException, match="schema_version"):  # that error, not a later one
        ingest([SAMPLES, FIXTURES], con=con, jobs=1, progress=fail)
    assert memory_limit(con) == start and threads() == 3
    assert con.execute("SELECT count(*) FROM hands").fetchall() == hands


STDIN_SCRIPT = """
import json, sys
import auditor.ingest
auditor.ingest.CHUNK_BYTES = 0  # workers even for the small samples
s = auditor.ingest.ingest([sys.argv[1]], db=sys.argv[2], jobs=2)
print(json.dumps(s.as_json()))
"""


def test_a_script_read_from_stdin_ingests_in_this_process(tmp_path):
    """Workers import the main script by its path; one piped to ``python -`` has
    none, so ingest reads in the one process instead of failing with a broken pool."""
    db = str(tmp_path / "s.duckdb")
    p = subprocess.run([sys.executable, "-", str(SAMPLES), db], input=STDIN_SCRIPT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    want = ingest([SAMPLES], db=str(tmp_path / "ref.duckdb"), jobs=1).as_json()
    assert got["hands"] == want["hands"] > 0 and got["rejected"] == want["rejected"]


class _Spy:
    """A connection that records the SQL it is given."""

    def __init__(self, con):
        self.con, self.sql = con, []

    def execute(self, sql, *args):
        self.sql.append(sql)
        return self.con.execute(sql, *args)


@pytest.mark.parametrize("configured", ["1.5GB", "16GiB", "400MB"])
def test_the_configured_memory_bound_comes_back_exactly(tmp_path, monkeypatch, configured):
    """DuckDB shows its bound cut to a tenth of its unit (1.5GB shows as '1.3 GiB'),
    so a bound read back from it would come back up to 50 MB off: the configured
    one ($TDA_AUDIT_MEMORY) is put back as it was written."""
    monkeypatch.setenv("TDA_AUDIT_MEMORY", configured)
    con = connect(str(tmp_path / "c.duckdb"))
    spy = _Spy(con)
    with memory_at_most(spy, WRITE_MEMORY):
        assert abs(memory_limit(con) - WRITE_MEMORY) < 2**20
    sets = [q for q in spy.sql if q.startswith("SET")]
    assert sets[-1] == f"SET memory_limit = '{configured}'", sets
    # a bound set otherwise comes back as near as DuckDB shows it
    con.execute("SET memory_limit = '700MB'")
    shown = con.execute("SELECT current_setting('memory_limit')").fetchall()
    with memory_at_most(con, WRITE_MEMORY):
        pass
    assert con.execute("SELECT current_setting('memory_limit')").fetchall() == shown


def test_ingest_replays_as_stored_only_where_the_facts_cover_the_store(tmp_path):
    """Facts for new hands beside stored hands without facts (or with facts built
    under another raise cap) would claim a coverage they do not have: refused."""
    db = str(tmp_path / "r.duckdb")
    some = sorted((SAMPLES / "pokerstars").glob("*.txt"))
    ingest(some[:1], db=db, jobs=1)  # hands, and no facts
    with pytest.raises(ValueError, match="cover the store"):
        ingest(some[1:], db=db, jobs=1, replay=("tda-2019", 4))
    r = audit(some[1:2], db=db, edition_name="tda-2019", jobs=1)  # replays the whole store: now covered
    assert r.ingest.stored > 0
    with pytest.raises(ValueError, match="raise cap 9"):
        ingest(some[2:], db=db, jobs=1, replay=("tda-2019", 9))
    con = connect(db)
    try:
        (cap,) = con.execute("SELECT value FROM meta WHERE key = 'replay_cap:tda-2019'").fetchone()
    finally:
        con.close()
    s = ingest(some[2:], db=db, jobs=1, replay=("tda-2019", int(cap)))
    assert s.stored > 0


def test_alive_tells_a_running_process_from_an_ended_or_zombie_one():
    """What a worker's watch on the main process relies on."""
    from auditor.execution import _alive

    assert _alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while _alive(child.pid) and time.monotonic() < deadline:  # ended, not yet reaped: a zombie
        time.sleep(0.05)
    assert not _alive(child.pid) or sys.platform != "linux"
    child.wait()
    assert not _alive(child.pid)


def _gc_state(item: int) -> tuple[int, bool]:
    import gc

    return item, gc.isenabled()


def _fails_on_two(item: int) -> int:
    if item == 2:
        raise ValueError("unit 2 fails")
    return item


@pytest.mark.parametrize("jobs", [1, 2])
def test_units_run_with_the_cyclic_collector_paused(jobs):
    """Each unit runs with the garbage collector paused (its objects pile up and
    hold no cycles), in this process or in a worker."""
    from auditor.execution import worker_map

    with worker_map(_gc_state, jobs) as run:
        assert list(run([1, 2, 3])) == [(1, False), (2, False), (3, False)]


def test_the_collector_is_back_on_after_each_unit_also_one_that_fails():
    """What a worker runs around each unit (``_gc_paused``), run here where the
    collector's state can be seen between units."""
    import gc

    from auditor.execution import _gc_paused

    assert gc.isenabled()
    assert _gc_paused(_gc_state, 1) == (1, False)
    assert gc.isenabled()
    with pytest.raises(ValueError, match="unit 2 fails"):
        _gc_paused(_fails_on_two, 2)
    assert gc.isenabled()
    gc.disable()  # a caller that paused it itself gets it back paused
    try:
        assert _gc_paused(_gc_state, 3) == (3, False)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_real_path_follows_a_change_of_folder(tmp_path, monkeypatch):
    """Folders are resolved once each, by their absolute path: the same relative
    name in another working folder is another file."""
    from auditor.units import real_path

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    in_a = real_path("x.txt")
    monkeypatch.chdir(tmp_path / "b")
    assert (in_a, real_path("x.txt")) == (str((tmp_path / "a" / "x.txt").resolve()), str((tmp_path / "b" / "x.txt").resolve()))


MANY_COMMITS_SRC = SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt"
MANY_COMMITS_TEXT = SAMPLES / "pokerstars" / "nlhe-mtt-9max-table.txt"


def _small_chunks(monkeypatch) -> None:
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", 4096)  # workers even for the small samples
    monkeypatch.setattr(units, "CHUNK_BYTES", 4096)


@pytest.fixture(scope="module")
def one_transaction(tmp_path_factory) -> tuple[list, str, object]:
    """The samples and copies of two of their files (every hand of one a duplicate,
    the other's hands a year later: conflicts), audited in small chunks in a single
    transaction: (paths, store, result).  Built once a module (a pytest-xdist worker)
    for both values of ``jobs`` below, which compare their stores with it."""
    folder = tmp_path_factory.mktemp("many-commits")
    extra = folder / "copies"
    extra.mkdir()
    (extra / "same.txt").write_bytes(MANY_COMMITS_SRC.read_bytes())  # every hand a duplicate
    text = MANY_COMMITS_TEXT.read_text(encoding="utf-8-sig")
    # the same hand numbers, a year later: conflicts
    (extra / "altered.txt").write_text(text.replace(" - 2021/", " - 2022/"), encoding="utf-8")
    paths = [SAMPLES, extra]
    db = str(folder / "one.duckdb")
    with pytest.MonkeyPatch.context() as mp:
        _small_chunks(mp)
        mp.setattr(ingest_module, "BATCH_HANDS", 10**9)
        one = audit(paths, db=db, jobs=1)
    return paths, db, one


@pytest.mark.parametrize("jobs", [1, 2])
def test_units_over_many_commits_store_what_one_transaction_does(tmp_path, monkeypatch, jobs, one_transaction):
    """Workers write each unit's segments; the coordinator tells duplicates and
    conflicts apart against hands of the same transaction not yet committed, and
    drops their rows from the segments.  With a commit every few dozen hands, the
    store is the one a single transaction makes."""
    src = MANY_COMMITS_SRC
    text = MANY_COMMITS_TEXT.read_text(encoding="utf-8-sig")
    paths, one_db, one = one_transaction
    _small_chunks(monkeypatch)
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", 20)
    commits = []
    commit = ingest_module._Writer.commit
    monkeypatch.setattr(ingest_module._Writer, "commit", lambda w: commits.append(1) or commit(w))
    many = audit(paths, db=str(tmp_path / "many.duckdb"), jobs=jobs)
    assert len(commits) > 3
    assert totals(many.ingest) == totals(one.ingest)
    n_same = sum(1 for line in src.read_text(encoding="utf-8-sig").splitlines() if line.startswith("PokerStars Hand #"))
    assert many.ingest.duplicates == n_same > 0
    assert sum(e["reason_code"] == "conflict" for e in many.ingest.errors) == text.count("PokerStars Hand #") > 0
    tables = LOG_TABLES + FACT_TABLES
    assert dump(str(tmp_path / "many.duckdb"), tables) == dump(one_db, tables)


def _converts_without_pandas(values: list) -> tuple[list, bool]:
    import pyarrow

    return pyarrow.array(values).to_pylist(), "pandas" in sys.modules


def test_workers_convert_to_arrow_without_importing_pandas():
    """pyarrow imports pandas (0.3 s) at its first conversion of Python values; a
    worker, which converts only lists, is spared the import and converts the same."""
    from auditor.execution import worker_map

    with worker_map(_converts_without_pandas, 2) as run:
        got = list(run([["a", None], [1, 2]]))
    assert got == [(["a", None], False), ([1, 2], False)]


def _identity(item: int) -> int:
    return item


def test_worker_map_keeps_at_most_in_flight_items_per_worker_ahead():
    """Memory stays bounded however long the input: the items are drawn from it
    only as results are taken, ``IN_FLIGHT`` per worker ahead of the caller."""
    from auditor.execution import IN_FLIGHT, worker_map

    drawn = []

    def items():
        for i in range(100):
            drawn.append(i)
            yield i

    with worker_map(_identity, 2) as run:
        results = run(items())
        assert next(results) == 0
        assert len(drawn) == IN_FLIGHT * 2  # the first result waited for that many, no more
        assert next(results) == 1 and len(drawn) == IN_FLIGHT * 2 + 1
        assert list(results) == list(range(2, 100))
