"""The table checks run a batch of tournaments at a time (auditor/checks/__init__.py,
docs/table-checks.md "Memory"): cut into many small batches they find exactly what
one batch over the whole store finds, they complete under a DuckDB memory limit
that one batch of the whole store exceeds, and they leave the store's tables as
they were (the batch's temp tables that shadow them are gone)."""

from __future__ import annotations

import duckdb
import pytest

import auditor.checks as checks
from auditor.pipeline import audit
from auditor import segments
from auditor.store import connect, segments_root
from conftest import CORPUS, FIXTURES, SAMPLES, needs_corpus

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


def test_small_batches_find_what_one_batch_finds(store, monkeypatch):
    con = connect(store)
    monkeypatch.setattr(checks, "BATCH_HANDS", 10**9)
    checks.run_checks(con, EDITION)
    whole = findings(con)
    assert len(checks._table_batches(con)) == 1
    monkeypatch.setattr(checks, "BATCH_HANDS", 10)
    assert len(checks._table_batches(con)) >= 5  # the store is really cut into many batches
    checks.run_checks(con, EDITION)
    assert findings(con) == whole
    assert {f[1] for f in whole} & set(TABLE_CHECKS), "the store gives table findings to compare"


# Copies of the tour/Stars corpus under new hand and tournament ids make a store big
# enough that DuckDB's fixed cost per query (about 60 MB here, whatever the data) is
# not the whole of what the checks need (the limits are by the tests that use them).


def copied_store(tmp_path_factory, tables: tuple[str, ...], copies: int) -> str:
    """The tour/Stars corpus audited, then its rows of ``tables`` copied ``copies - 1``
    times under new hand and tournament ids."""
    db = str(tmp_path_factory.mktemp("mem") / "copied.duckdb")
    audit([str(STARS_TOUR)], db=db, edition_name=EDITION, jobs=1)
    con = connect(db)
    # the copying is setup, not what is measured: its sorts of 200 copies of a table need
    # more than the store's default bound (they ran out of it at times in the suite)
    con.execute("SET memory_limit = '2GB'")
    for table in tables:
        new_ids = "'R' || k || ':' || hand_id AS hand_id" + (", 'R' || k || ':' || tournament_id AS tournament_id" if table == "hands" else "")
        # copy by copy, in hand order: a batch's hands lie together in the store, as ingested hands do
        segments.rewrite(con, segments_root(con), table, f"SELECT * FROM {table} UNION ALL (SELECT * EXCLUDE (k) REPLACE ({new_ids}) "
                         f"FROM {table}, range(1, {copies}) r(k) ORDER BY k, hand_id)")
    con.close()
    return db


def complete_in_batches_only(con, check_ids: list[str], copies: int, limit: str, knob: str, batches, least: int,
                             monkeypatch) -> None:
    """The checks over ``con``'s store in one batch give the findings; under ``limit`` one
    batch runs out of memory, batches of 5,000 hands (``knob``) give the same findings."""
    monkeypatch.setattr(checks, knob, 10**9)
    whole = checks.run_checks(con, EDITION, check_ids)
    before = findings(con)
    assert sum(whole.values()) >= copies * 10, "each copy brings its findings"
    con.execute(f"SET memory_limit = '{limit}'")  # the database's, for every connection to it: reset below
    try:
        # the limit is small enough to matter: one batch of the whole store does not fit
        with pytest.raises(duckdb.OutOfMemoryException):
            checks.run_checks(con, EDITION, check_ids)
        monkeypatch.setattr(checks, knob, 5_000)
        assert len(batches(con)) >= least
        assert checks.run_checks(con, EDITION, check_ids) == whole
    finally:
        con.execute("RESET memory_limit")
    assert findings(con) == before




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


def test_hand_checks_in_small_ranges_find_what_one_query_finds(store, monkeypatch):
    con = connect(store)
    monkeypatch.setattr(checks, "HAND_BATCH", 10**9)
    assert checks._hand_batches(con) == []  # a store of one batch: one query a check, as before
    checks.run_checks(con, EDITION)
    whole = findings(con)
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


# A copied store of 200 copies (243,400 hands), with the replay's decisions and pots
# copied too (the hand checks read them).  Measured on it: in one query each, the checks
# run out of memory under 66, 80, 95 and 110 MB; in ranges of 5,000 hands every check
# completes under 60 MB (a range's need does not grow with the store).  The bound sits
# between, with a margin each way: at 100 copies one query needed 72-78 MB, and under
# the load of a parallel test run it sometimes fitted the 66 MB bound used then.  At 10M
# hands, one query each, one of them needed more than the default bound of 400 MB.
HAND_COPIES = 200
HAND_LIMIT = "80MB"


@pytest.fixture(scope="module")
def big_hand_store(tmp_path_factory):
    return copied_store(tmp_path_factory, ("hands", "seats", "events", "decisions", "pots", "pot_shares", "hand_results"),
                        HAND_COPIES)


@needs_corpus
def test_hand_checks_complete_under_a_memory_limit_one_query_exceeds(big_hand_store, monkeypatch):
    complete_in_batches_only(connect(big_hand_store), HAND_CHECKS, HAND_COPIES, HAND_LIMIT, "HAND_BATCH",
                             checks._hand_batches, 20, monkeypatch)


# Measured on big_hand_store at 100 copies (121,700 hands, the decisions that
# dead-button reads copied too), in the store's connection: one batch of all of them
# runs out under 180 MB and completes under 200 MB; batches of 5,000 hands run out under
# 120 MB and complete under 140 MB.  At 200 copies the batches are the same and one
# batch of all holds twice the hands.
TABLE_LIMIT = "160MB"


@needs_corpus
def test_table_checks_complete_under_a_memory_limit_the_whole_store_exceeds(big_hand_store, monkeypatch):
    con = connect(big_hand_store)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] > 100_000
    complete_in_batches_only(con, TABLE_CHECKS, HAND_COPIES, TABLE_LIMIT, "BATCH_HANDS", checks._table_batches, 20,
                             monkeypatch)
