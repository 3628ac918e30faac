"""The table checks run a batch of tournaments at a time (auditor/checks/__init__.py,
docs/table-checks.md "Memory"): cut into many small batches they find exactly what
one batch over the whole store finds, and they leave the store's tables as they
were (the batch's temp tables that shadow them are gone). That batches complete under
a DuckDB memory limit one batch of a big store exceeds is measured by
bench/checks_memory.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import auditor.checks as checks
from auditor.pipeline import audit
from auditor import segments
from auditor.store import connect, segments_root
from conftest import CORPUS, FIXTURES, SAMPLES

ROOT = Path(__file__).resolve().parent.parent

STARS_TOUR = CORPUS / "fpdb" / "tour" / "Stars"
TABLE_FIXTURES = [FIXTURES / "checks" / c for c in
                  ("dead-button", "heads-up-button", "blind-level", "stack-continuity", "new-player-seating")]
TABLE_CHECKS = [c.check_id for c in checks.load_checks() if c.group == "table"]
EDITION = "tda-2019"


def findings(con) -> list[tuple]:
    return con.execute("SELECT * FROM findings WHERE edition = ? ORDER BY ALL", [EDITION]).fetchall()


def counts(con) -> dict[str, int]:
    return dict(con.execute("SELECT 'hands', count(*) FROM hands UNION ALL SELECT 'seats', count(*) FROM seats "
                            "UNION ALL SELECT 'events', count(*) FROM events UNION ALL SELECT 'hand_results', count(*) FROM hand_results"
                            ).fetchall())


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    # the samples add tournaments, so the store cuts into several batches without the corpus too
    paths = [*TABLE_FIXTURES, SAMPLES, *([STARS_TOUR] if STARS_TOUR.is_dir() else [])]
    db = str(tmp_path_factory.mktemp("mem") / "tables.duckdb")
    audit([str(p) for p in paths], db=db, edition_name=EDITION, jobs=1)
    return db


@pytest.fixture(scope="module")
def whole(store):
    """The findings of every check run as one query (one batch of tournaments, one range of
    hands): what the table checks' batches and the hand checks' ranges are compared with,
    run once for both."""
    con = connect(store)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(checks, "BATCH_HANDS", 10**9)
            mp.setattr(checks, "HAND_BATCH", 10**9)
            assert len(checks._table_batches(con)) == 1
            assert checks._hand_batches(con) == []  # a store of one batch: one query a check, as before
            checks.run_checks(con, EDITION)
        return findings(con)
    finally:
        con.close()


def test_small_batches_find_what_one_batch_finds(store, whole, monkeypatch):
    con = connect(store)
    monkeypatch.setattr(checks, "BATCH_HANDS", 10)
    assert len(checks._table_batches(con)) >= 5  # the store is really cut into many batches
    checks.run_checks(con, EDITION)
    assert findings(con) == whole
    assert {f[1] for f in whole} & set(TABLE_CHECKS), "the store gives table findings to compare"


def test_the_stored_tables_are_unshadowed_afterwards(store):
    con = connect(store)
    stored = counts(con)
    checks.run_checks(con, EDITION, TABLE_CHECKS)
    assert counts(con) == stored
    temp = con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()
    assert temp == []


def test_a_failing_check_leaves_no_shadow(store, monkeypatch):
    con = connect(store)
    stored = counts(con)
    bad = checks.Check("stack-continuity", "t", "warning", "table", "r", 0, "SELECT * FROM no_such_table", FIXTURES)
    monkeypatch.setattr(checks, "load_checks", lambda: [bad])
    with pytest.raises(Exception, match="no_such_table"):
        checks.run_checks(con, EDITION)
    assert counts(con) == stored
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone() == (0,)


def test_table_checks_read_only_the_checked_editions_hand_results(tmp_path):
    """Expected end stacks depend on the edition: the table checks under one edition
    must not read another's (2013's results, stored first and spoiled here, would be
    the rows a view over every edition meets first)."""
    from auditor.facts import replay_store

    db = str(tmp_path / "e.duckdb")
    audit([str(p) for p in TABLE_FIXTURES], db=db, edition_name=EDITION, jobs=1)
    con = connect(db)
    try:
        checks.run_checks(con, EDITION, TABLE_CHECKS)
        before = findings(con)
        assert {f[1] for f in before} & set(TABLE_CHECKS), "the fixtures give table findings"
        root = segments_root(con)
        con.execute("CREATE TEMP TABLE kept AS SELECT * FROM hand_results WHERE edition = ?", [EDITION])
        segments.rewrite(con, root, "hand_results", "SELECT * FROM hand_results WHERE false")
        replay_store(con, "tda-2013", jobs=1)
        segments.rewrite(con, root, "hand_results", "SELECT * REPLACE (NULL::BIGINT AS end_stack_recorded, -1::BIGINT AS "
                         "end_stack_expected, NULL::BIGINT AS won_recorded, -1000000000::BIGINT AS won_expected) FROM hand_results "
                         "WHERE edition = 'tda-2013'")
        # 2019's results again, after 2013's
        segments.rewrite(con, root, "hand_results", "SELECT * FROM hand_results UNION ALL SELECT * FROM kept")
        con.execute("DROP TABLE kept")
        checks.run_checks(con, EDITION, TABLE_CHECKS)
        assert findings(con) == before
    finally:
        con.close()


# --- the checks that judge one hand, a range of hand ids at a time ------------------------

HAND_CHECKS = [c.check_id for c in checks.load_checks() if c.scope == "hand"]


def test_hand_checks_in_small_ranges_find_what_one_query_finds(store, whole, monkeypatch):
    con = connect(store)
    (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
    size = max(2, n // 10)  # some ten ranges, with the corpus or without it
    monkeypatch.setattr(checks, "HAND_BATCH", size)
    ranges = checks._hand_batches(con)
    assert len(ranges) == -(-n // size) >= 5  # every hand in exactly one range: ranges of `size` in id order
    assert [lo for lo, _ in ranges] == sorted(lo for lo, _ in ranges)
    assert all(hi == nxt for (_, hi), (nxt, _) in zip(ranges, ranges[1:])) and ranges[-1][1] is None
    checks.run_checks(con, EDITION)
    assert findings(con) == whole
    assert {f[1] for f in whole} & set(HAND_CHECKS), "the store gives hand findings to compare"
    # the temp views that shadowed the stored tables are gone
    assert con.execute("SELECT count(*) FROM duckdb_views() WHERE temporary AND NOT internal").fetchone() == (0,)
    assert counts(con) == counts(connect(store))


# The memory bound itself (one query over 243,400 hands runs out of memory under a limit that
# batches of 5,000 hands complete under) is a memory target: bench/checks_memory.py measures
# it (bench/README.md, "The checks under a memory limit"). Here the bench runs at a small size,
# so that it keeps working: batches find what one query finds.

def test_the_memory_bench_runs_and_its_batches_find_what_one_query_finds(capsys):
    bench = importlib.util.spec_from_file_location("checks_memory", ROOT / "bench" / "checks_memory.py")
    module = importlib.util.module_from_spec(bench)
    bench.loader.exec_module(module)
    rows = module.main(["--copies", "3", "--no-limit", "--batch", "40", "--source", str(SAMPLES), *map(str, TABLE_FIXTURES)])
    assert [r["group"] for r in rows] == ["hand", "table"]
    for row in rows:  # several batches, each compared with the one query
        assert row["batches, limited"] == "same findings" and row["findings"] > 0 and row["batches"] >= 3, row
    out = capsys.readouterr().out
    assert "3 copies of" in out and out.count("same findings") == 2
