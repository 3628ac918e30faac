"""The checks that judge one hand from its own rows run in the ingest workers (issue 17).

``audit`` runs every ``-- scope: hand`` check in the workers, over batches of
committed hands as the ingest goes, and commits their findings after them; the
coordinator's ``run_checks`` then runs those checks only for hands the workers
did not check.  Whatever ran where, the findings must be the
ones ``run_checks`` finds over the whole store, row for row (every column: check,
rule and title, hand, tournament, table, street, seat, expected and actual,
message, source file and line).  The units and the batches of checks here are
cut small (a file a unit, big files in chunks of a few hands, checked a few
hands at a time) so that a table's hands lie in several batches: a check
declared ``hand`` that reads another hand would then differ.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import duckdb

import pytest
from conftest import CORPUS, SAMPLES, needs_corpus

import auditor.checks as checks
import auditor.ingest as ingest_module
import auditor.units as units
from auditor.checks import load_checks, run_checks
from auditor.ingest import expand_paths, ingest
from auditor.pipeline import audit
from auditor.store import connect, copy_store, transaction
from replay.editions import DEFAULT_EDITION
from replay.engine import DEFAULT_RAISE_CAP
from auditor.facts import replay_store
from auditor.store import set_replay_state

HAND_CHECKS = {c.check_id for c in load_checks() if c.scope == "hand"}
# a finding's category as the check gives it, before the house profiles (run_checks' house.apply)
HOUSE_COLUMNS = ("category", "category_basis")


def findings(db: str, edition: str | None = None, only: set[str] | None = None,
             leave_out: tuple[str, ...] = ()) -> list[tuple]:
    con = connect(db, read_only=True)
    try:
        cols = [r[0] for r in con.execute("DESCRIBE findings").fetchall() if r[0] not in leave_out]
        rows = con.execute(f"SELECT check_id, {', '.join(cols)} FROM findings"
                           + (" WHERE edition = ?" if edition else ""), [edition] if edition else []).fetchall()
    finally:
        con.close()
    return sorted((r[1:] for r in rows if only is None or r[0] in only), key=repr)


def everything_in_the_coordinator(paths, db: str, edition: str = DEFAULT_EDITION, house: str = "auto") -> dict[str, int]:
    """The reference: ingest, replay the store, then every check over the store."""
    ingest_and_replay(paths, db, edition)
    return check_everything(db, edition, house)


def ingest_and_replay(paths, db: str, edition: str = DEFAULT_EDITION) -> None:
    """The reference's first steps: ingest, then replay the store."""
    con = connect(db)
    try:
        ingest(paths, con=con, jobs=1)
        replay_store(con, edition, jobs=1)
    finally:
        con.close()


def check_everything(db: str, edition: str = DEFAULT_EDITION, house: str = "auto") -> dict[str, int]:
    """The reference's last step: every check over the store."""
    con = connect(db)
    try:
        return run_checks(con, edition, house=house)
    finally:
        con.close()


def _small_units(monkeypatch) -> None:
    monkeypatch.setattr(units, "GROUP_FILES", 1)
    monkeypatch.setattr(units, "CHUNK_BYTES", 2048)
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", 2048)
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", 4)
    monkeypatch.setattr(ingest_module, "CHECK_HANDS", 12)


@pytest.fixture
def small_units(monkeypatch):
    """A file a unit, files over 2 KiB cut into chunks of a hand or two, a commit
    every few hands and the workers' checks every three commits: a table's hands lie
    in several batches of checks (the workers' fixed cost a batch is the checks'
    planning, so that smaller batches only cost time)."""
    _small_units(monkeypatch)


def _spy_run_one(monkeypatch) -> list[tuple[str, bool, frozenset[str] | None]]:
    ran: list[tuple[str, bool, frozenset[str] | None]] = []
    real = checks._run_one

    def spy(con, c, edition, rule, found=None, replace=True):
        hands = frozenset(r[0] for r in con.execute(f"SELECT hand_id FROM temp.{found}").fetchall()) if found else None
        ran.append((c.check_id, replace, hands))
        return real(con, c, edition, rule, found, replace)

    monkeypatch.setattr(checks, "_run_one", spy)
    return ran


@pytest.fixture
def coordinator_runs(monkeypatch) -> list[tuple[str, bool, frozenset[str] | None]]:
    """The checks ``run_checks`` runs in the coordinator: (check id, whether it replaced
    the check's findings or added to the workers', the hands of the rows it added when
    they were computed beforehand)."""
    return _spy_run_one(monkeypatch)


def sample_groups(n: int) -> list[list[Path]]:
    """The sample history files in ``n`` groups, each with files of several formats."""
    files = expand_paths([SAMPLES])
    return [files[i::n] for i in range(n)]


# --- stores several tests start from, built once a module (a pytest-xdist worker) --------
# Each is built under the small units, as the tests that share it built it themselves;
# a test that writes to one works on a copy (copy_store).

@pytest.fixture(scope="module")
def ingested_with_worker_checks(tmp_path_factory) -> dict:
    """The samples ingested into a new store with the scope-hand checks in the
    workers, stopped before run_checks: the store, the ingest's summary, its units,
    the findings' gap then, the tables of each of the workers' batches of checks and the checks
    run_checks ran during the ingest (none should be)."""
    db = str(tmp_path_factory.mktemp("worker-checks") / "w.duckdb")
    batches: list[list[tuple]] = []
    with pytest.MonkeyPatch.context() as mp:
        _small_units(mp)
        ran = _spy_run_one(mp)
        real = checks.check_segments

        def counted(root, edition, files, parts):
            # the batch's tables: (tournament, table) of each of its hands
            hands = [os.path.join(root, "hands", f) for f in files.get("hands", [])]
            batches.append(duckdb.sql(f"SELECT DISTINCT tournament_id, table_name FROM read_parquet({hands!r})").fetchall())
            return real(root, edition, files, parts)

        mp.setattr(checks, "check_segments", counted)
        con = connect(db)
        try:
            with transaction(con):  # a new store: its facts cover it (as audit sees to it)
                set_replay_state(con, DEFAULT_EDITION, "complete", DEFAULT_RAISE_CAP)
            s = ingest([SAMPLES], con=con, jobs=1, replay=(DEFAULT_EDITION, DEFAULT_RAISE_CAP), checks=True)
            (n_units,) = con.execute("SELECT count(DISTINCT unit_id) FROM unit_sources").fetchone()
            gap = checks.findings_gap(con, DEFAULT_EDITION)
        finally:
            con.close()
    return {"db": db, "summary": s, "units": n_units, "gap": gap, "batches": batches, "ran": ran}


@pytest.fixture(scope="module")
def samples_replayed(tmp_path_factory) -> str:
    """The samples ingested and replayed as the reference does it, not yet checked:
    each of the two references of the samples (under two house settings) is a copy
    of it, checked."""
    db = str(tmp_path_factory.mktemp("samples-replayed") / "ref.duckdb")
    with pytest.MonkeyPatch.context() as mp:
        _small_units(mp)
        ingest_and_replay([SAMPLES], db)
    return db


@pytest.fixture(scope="module")
def halves_reference(tmp_path_factory) -> str:
    """The reference store of the two halves of the samples (``sample_groups(2)``) together."""
    first, second = sample_groups(2)
    ref = str(tmp_path_factory.mktemp("halves-ref") / "ref.duckdb")
    with pytest.MonkeyPatch.context() as mp:
        _small_units(mp)
        everything_in_the_coordinator(first + second, ref)
    return ref


@pytest.fixture(scope="module")
def first_half_audited(tmp_path_factory) -> str:
    """A store of the first half of the samples, audited with the workers' checks."""
    first, _ = sample_groups(2)
    db = str(tmp_path_factory.mktemp("first-half") / "a.duckdb")
    with pytest.MonkeyPatch.context() as mp:
        _small_units(mp)
        audit(first, db=db, jobs=1, worker_checks=True)
    return db


# --- the findings: the same wherever a check ran -----------------------------------------

def test_the_workers_find_what_the_coordinator_finds_and_it_runs_them_no_more(small_units, coordinator_runs, tmp_path,
                                                                               ingested_with_worker_checks, samples_replayed):
    ref = str(tmp_path / "ref.duckdb")
    copy_store(samples_replayed, ref)
    check_everything(ref, house="none")  # with the copy: everything_in_the_coordinator([SAMPLES], ref, house="none")
    coordinator_runs.clear()
    ingested = ingested_with_worker_checks
    s = ingested["summary"]
    assert (s.checked_edition, s.checked_from_unit) == (DEFAULT_EDITION, 1)
    # until the coordinator has run the rest, the edition's findings are partial
    assert "did not finish" in ingested["gap"]
    assert ingested["units"] > len(expand_paths([SAMPLES])), "the big sample files were cut into several units"
    batches_of = Counter(key for batch in ingested["batches"] for key in batch)
    assert max(batches_of.values()) > 1, "a table's hands were checked in several batches"
    assert len(ingested["batches"]) > 5, "the hands were checked in many batches"
    coordinator_runs.extend(ingested["ran"])  # what the coordinator ran during the ingest
    db = str(tmp_path / "w.duckdb")
    copy_store(ingested["db"], db)
    # committed with the hands: the scope-hand findings, exactly, and only those
    # (their category_basis is set with the house's, by run_checks: a cash hand's violation names its standard)
    got = findings(db, leave_out=("category_basis",))
    assert got == findings(ref, only=HAND_CHECKS, leave_out=("category_basis",))
    assert len({r[1] for r in got}) >= 8, "findings of several checks"  # (finding_id, check_id, ...)
    con = connect(db)
    try:
        counts = run_checks(con, DEFAULT_EDITION, house="none", checked_from_unit=s.checked_from_unit)
        assert checks.findings_gap(con, DEFAULT_EDITION) is None
    finally:
        con.close()
    # a new store: the workers checked every hand, the coordinator none of them
    assert {c for c, *_ in coordinator_runs} & HAND_CHECKS == set()
    assert {c for c, *_ in coordinator_runs} == {c.check_id for c in load_checks()} - HAND_CHECKS
    assert findings(db) == findings(ref)
    con = connect(ref, read_only=True)
    try:
        ref_counts = dict(con.execute("SELECT check_id, count(*) FROM findings GROUP BY 1").fetchall())
    finally:
        con.close()
    assert counts == {c.check_id: ref_counts.get(c.check_id, 0) for c in load_checks()}


def test_on_one_machine_every_check_runs_in_the_coordinator_by_default(small_units, coordinator_runs, tmp_path):
    db = str(tmp_path / "a.duckdb")
    r = audit([SAMPLES], db=db, jobs=1)
    assert r.ingest.checked_edition is None
    assert {c for c, replace, _ in coordinator_runs if replace} == {c.check_id for c in load_checks()}


def test_some_checks_do_not_complete_what_an_interrupted_run_left(small_units, tmp_path, ingested_with_worker_checks):
    """An ingest that ran the scope-hand checks in its workers, then stopped before
    run_checks (a killed audit): running some checks leaves the edition's checks
    interrupted, running them all completes them."""
    assert "did not finish" in ingested_with_worker_checks["gap"]
    db = str(tmp_path / "w.duckdb")
    copy_store(ingested_with_worker_checks["db"], db)
    con = connect(db)
    try:
        assert "did not finish" in checks.findings_gap(con, DEFAULT_EDITION)
        run_checks(con, DEFAULT_EDITION, only=["odd-chip"])
        assert "did not finish" in checks.findings_gap(con, DEFAULT_EDITION)
        run_checks(con, DEFAULT_EDITION)
        assert checks.findings_gap(con, DEFAULT_EDITION) is None
        run_checks(con, DEFAULT_EDITION, only=["odd-chip"])  # after a complete run, some checks keep it complete
        assert checks.findings_gap(con, DEFAULT_EDITION) is None
    finally:
        con.close()


def test_an_audit_in_worker_processes_equals_ingest_then_check(small_units, tmp_path, samples_replayed):
    ref = str(tmp_path / "ref.duckdb")
    copy_store(samples_replayed, ref)
    check_everything(ref)  # with the copy: everything_in_the_coordinator([SAMPLES], ref)
    db = str(tmp_path / "a.duckdb")
    r = audit([SAMPLES], db=db, jobs=2, worker_checks=True)
    assert findings(db) == findings(ref)
    assert r.findings_total == len(findings(ref)) > 0
    # each finding names its file by the path the store keeps for it
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM findings f LEFT JOIN hands h USING (hand_id) "
                           "LEFT JOIN sources s USING (source_id) WHERE s.path IS DISTINCT FROM f.source_path").fetchone() == (0,)
    finally:
        con.close()


@pytest.mark.parametrize("hand_batch", [None, 7], ids=["one-query", "ranges-of-7-hands"])
def test_a_second_audit_into_the_same_store(small_units, coordinator_runs, tmp_path, monkeypatch, hand_batch,
                                            halves_reference, first_half_audited):
    _, second = sample_groups(2)
    ref = halves_reference
    db = str(tmp_path / "a.duckdb")
    copy_store(first_half_audited, db)  # the first half, audited with the workers' checks
    con = connect(db, read_only=True)
    try:
        first_hands = {r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()}
    finally:
        con.close()
    coordinator_runs.clear()
    if hand_batch:  # the first run's hands checked by the coordinator a range of hand ids at a time
        monkeypatch.setattr(checks, "HAND_BATCH", hand_batch)
    audit(second, db=db, jobs=1, worker_checks=True)
    assert findings(db) == findings(ref)
    # the second run: the scope-hand checks ran in the coordinator over the first run's
    # hands only, and their rows were added to the workers' (whose hands are the others)
    here = {c: (replace, hands) for c, replace, hands in coordinator_runs if c in HAND_CHECKS}
    assert set(here) == HAND_CHECKS and not any(replace for replace, _ in here.values())
    added = frozenset().union(*(hands for _, hands in here.values()))
    assert added and added <= first_hands
    hands_found = {r[9] for r in findings(ref) if r[1] in HAND_CHECKS}  # (finding_id, check_id, ..., hand_id at 9)
    assert hands_found - first_hands, "the workers' hands have findings of their own"


def test_an_audit_after_an_ingest_without_replay(small_units, coordinator_runs, tmp_path, halves_reference):
    first, second = sample_groups(2)
    ref = halves_reference
    db = str(tmp_path / "a.duckdb")
    ingest(first, db=db, jobs=1)
    coordinator_runs.clear()
    audit(second, db=db, jobs=1, worker_checks=True)  # the store is replayed after the ingest: every check runs here
    assert findings(db) == findings(ref)
    assert {c for c, replace, _ in coordinator_runs if replace} == {c.check_id for c in load_checks()}


def test_audits_under_two_editions(small_units, tmp_path):
    """Under 2024, then under 2019 (its facts do not cover the store: replayed after
    the ingest), then under 2019 again with new files (checked in the workers)."""
    first, second, third = sample_groups(3)
    db = str(tmp_path / "a.duckdb")
    audit(first, db=db, jobs=1, worker_checks=True)
    audit(second, db=db, jobs=1, edition_name="tda-2019", worker_checks=True)
    audit(third, db=db, jobs=1, edition_name="tda-2019", worker_checks=True)
    ref_2019, ref_2024 = str(tmp_path / "ref-2019.duckdb"), str(tmp_path / "ref-2024.duckdb")
    everything_in_the_coordinator(first + second + third, ref_2019, "tda-2019")
    everything_in_the_coordinator(first, ref_2024)
    assert findings(db, "tda-2019") == findings(ref_2019) != findings(ref_2024)
    assert findings(db, DEFAULT_EDITION) == findings(ref_2024)  # as the first audit left them


def test_duplicates_and_conflicts_leave_no_findings_behind(small_units, tmp_path):
    """A hand already stored (a file audited twice, a copy of it under another name)
    and a hand the unit holds twice: the findings of the hand kept, once."""
    folder = tmp_path / "in"
    folder.mkdir()
    violations = SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt"
    text = violations.read_text(encoding="utf-8")
    (folder / "twice.txt").write_text(text + "\n\n\n" + text, encoding="utf-8")
    shutil.copy(violations, folder / "copy.txt")
    ref = str(tmp_path / "ref.duckdb")
    everything_in_the_coordinator([violations, folder], ref)
    db = str(tmp_path / "a.duckdb")
    audit([violations], db=db, jobs=1, worker_checks=True)
    r = audit([folder], db=db, jobs=1, worker_checks=True)
    assert r.ingest.stored == 0 and r.ingest.duplicates > 0
    assert findings(db) == findings(ref) and findings(ref)


@needs_corpus
def test_real_corpus_folders_in_small_units(monkeypatch, tmp_path):
    """The real hands of every site read, cut into units of some 40 hands, checked
    some 400 at a time: a tournament's tables lie across batches, and the findings
    are the same."""
    paths = [CORPUS / "fpdb" / "tour", CORPUS / "fpdb" / "cash"]
    ref = str(tmp_path / "ref.duckdb")
    everything_in_the_coordinator(paths, ref)
    monkeypatch.setattr(units, "GROUP_FILES", 1)
    monkeypatch.setattr(units, "CHUNK_BYTES", 64 << 10)
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", 64 << 10)
    monkeypatch.setattr(ingest_module, "BATCH_HANDS", 400)
    monkeypatch.setattr(ingest_module, "CHECK_HANDS", 400)
    db = str(tmp_path / "a.duckdb")
    r = audit(paths, db=db, worker_checks=True)
    got = findings(db)
    assert got == findings(ref)
    assert r.replay.hands > 4000
    assert len({row[1] for row in got if row[1] in HAND_CHECKS}) >= 8  # (finding_id, check_id, ...)

