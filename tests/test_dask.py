"""The audit on a Dask cluster (issue 17, ``--dask``) stores what the local audit does.

* The same audit in one local process and on a ``LocalCluster`` of two worker
  processes gives identical tables and findings: every table of the store,
  compared row for row (timestamps aside), on the sample histories and on a
  subset of the real corpus cut into small chunks.
* ``tda-audit audit --dask tcp://HOST:PORT`` joins a scheduler started here.
* A task that fails raises its own error, as in a local worker; results come back
  in submission order with a bounded number of items in flight; a worker that
  cannot see an input is named, with the path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import CORPUS, ROOT, SAMPLE_HANDS, SAMPLES, needs_corpus

distributed = pytest.importorskip("distributed", reason="Dask is an optional extra: pip install 'tda-auditor[dask]'")

import auditor.ingest as ingest_module  # noqa: E402
from auditor import schema  # noqa: E402
import auditor.units as units  # noqa: E402
from auditor.cli import main  # noqa: E402
from auditor.execution import DaskError, check_workers, connect  # noqa: E402
from auditor.ingest import ingest  # noqa: E402
from auditor.execution import IN_FLIGHT, worker_map  # noqa: E402
from auditor.pipeline import audit  # noqa: E402
from auditor.store import connect as connect_store  # noqa: E402
from replay.editions import edition  # noqa: E402
from auditor.facts import replay_store  # noqa: E402

# written at the time of the run, or random: not part of what the audit found
VARYING = {"ingested_at", "recorded_at", "finding_id"}
CORPUS_SUBSET = ("fpdb/tour/Stars", "fpdb/tour/iPoker")  # PHH and the other text formats: the samples
# every table of the store, by the names the checks, reports and 'query' use
TABLES = [t.name for t in (schema.META, *schema.LOG_TABLES, *schema.REPLAY_TABLES, schema.FINDINGS)]


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two worker processes, one thread each, for the whole module."""
    with connect("local", 2) as client:
        yield client


@pytest.fixture(scope="module")
def local_samples(tmp_path_factory):
    """The samples audited in one process, to compare the runs on Dask with."""
    db = str(tmp_path_factory.mktemp("local") / "local.duckdb")
    return db, audit([SAMPLES], db=db, jobs=1)


def store_contents(db: str, cwd=None) -> dict[str, list[tuple]]:
    """Every table of the store, its rows sorted; with ``cwd``, the paths of
    ingest_errors (as given) resolved from that folder."""
    con = connect_store(db, read_only=True)
    try:
        out = {}
        for t in TABLES:
            cols = [r[0] for r in con.execute(f'DESCRIBE "{t}"').fetchall() if r[0] not in VARYING]
            rows = con.execute(f'SELECT {", ".join(cols)} FROM "{t}"').fetchall()
            if cwd is not None and t == "ingest_errors":
                at = cols.index("source_path")
                rows = [(*r[:at], os.path.realpath(os.path.join(cwd, r[at])), *r[at + 1:]) for r in rows]
            out[t] = sorted(rows, key=repr)
        return out
    finally:
        con.close()


def assert_same_store(local: str, on_cluster: str, cwd=None) -> dict[str, list[tuple]]:
    a, b = store_contents(local), store_contents(on_cluster, cwd)
    for t in a:
        assert a[t] == b[t], f"table {t} differs between the local audit and the audit on Dask"
    return a


def test_the_samples_audited_on_two_dask_workers_store_what_one_process_does(cluster, local_samples, tmp_path):
    (local, a), on_cluster = local_samples, str(tmp_path / "dask.duckdb")
    b = audit([SAMPLES], db=on_cluster, cluster=cluster)
    tables = assert_same_store(local, on_cluster)
    assert b.replay.hands == a.replay.hands == SAMPLE_HANDS
    assert b.findings_total == a.findings_total > 0
    assert len(tables["findings"]) == a.findings_total and len(tables["decisions"]) > SAMPLE_HANDS


def test_the_dask_workers_merge_segments_and_the_store_is_the_same(cluster, local_samples, tmp_path, monkeypatch):
    """The segment merges (``segments.Merger``) run as Dask tasks: units of two files,
    three segments a tier, and the store holds what the one-process audit stored."""
    import auditor.units as units
    from auditor import segments

    monkeypatch.setattr(units, "GROUP_FILES", 2)
    monkeypatch.setattr(segments, "MERGE_FANIN", 3)
    (local, _), on_cluster = local_samples, str(tmp_path / "dask.duckdb")
    audit([SAMPLES], db=on_cluster, cluster=cluster)
    assert_same_store(local, on_cluster)
    con = connect_store(on_cluster, read_only=True)
    try:
        (merged,) = con.execute("SELECT count(*) FROM segments WHERE file LIKE 'm%' AND unit_id IS NULL").fetchone()
        (most,) = con.execute("SELECT max(n) FROM (SELECT count(*) AS n FROM segments GROUP BY table_name)").fetchone()
    finally:
        con.close()
    assert merged > 0 and most <= 2 * 3


def test_a_store_replayed_on_dask_equals_one_replayed_locally(cluster, tmp_path):
    """``replay_store`` (the path when the facts do not cover the store) on the cluster."""
    dbs = []
    for name, kw in (("local", {"jobs": 1}), ("dask", {"cluster": cluster})):
        db = str(tmp_path / f"{name}.duckdb")
        ingest([SAMPLES], db=db, jobs=1)
        con = connect_store(db)
        try:
            r = replay_store(con, "tda-2013", **kw)
        finally:
            con.close()
        assert r.hands == SAMPLE_HANDS
        dbs.append(db)
    tables = assert_same_store(*dbs)
    assert any(row[2] == "tda-2013" for row in tables["decisions"])


@needs_corpus
def test_a_corpus_subset_in_small_chunks_on_dask_stores_what_one_process_does(cluster, tmp_path, monkeypatch):
    paths = [CORPUS / p for p in CORPUS_SUBSET]
    local, on_cluster = str(tmp_path / "local.duckdb"), str(tmp_path / "dask.duckdb")
    a = audit(paths, db=local, jobs=1)
    # the coordinator cuts files above 64 KiB into chunks and sends their bytes to the workers
    monkeypatch.setattr(units, "CHUNK_BYTES", 64 << 10)
    monkeypatch.setattr(ingest_module, "CHUNK_BYTES", 64 << 10)
    b = audit(paths, db=on_cluster, cluster=cluster)
    assert_same_store(local, on_cluster)
    assert b.replay.hands == a.replay.hands > 1000
    assert b.ingest.rejected == a.ingest.rejected and b.findings_by_check == a.findings_by_check


def test_the_cli_audits_on_a_running_scheduler_by_its_address(cluster, local_samples, tmp_path):
    address = cluster.scheduler_info()["address"]
    assert address.startswith("tcp://")
    (local, a), on_cluster = local_samples, str(tmp_path / "dask.duckdb")
    # a path relative to a folder the workers are not in: they read the inputs by their
    # resolved paths (the store keeps a rejected file's path as given)
    p = subprocess.run([sys.executable, "-m", "auditor.cli", "audit", os.path.relpath(SAMPLES, tmp_path), "--db",
                        on_cluster, "--json", "--dask", address],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert_same_store(local, on_cluster, cwd=tmp_path)
    assert out["hands"] == a.replay.hands and out["findings_by_check"] == a.findings_by_check


def test_a_bad_dask_address_is_a_clear_error(tmp_path):
    db = tmp_path / "x.duckdb"
    r = CliRunner().invoke(main, ["audit", str(SAMPLES), "--db", str(db), "--dask", "scheduler-host"])
    assert r.exit_code == 2
    assert "--dask takes 'local' or a scheduler's address" in r.output and "scheduler-host" in r.output
    assert not db.exists()


def test_a_failing_task_raises_the_error_a_local_worker_gives(cluster):
    errors = []
    for kw in ({"cluster": cluster}, {}):
        with worker_map(edition, 1, **kw) as run:
            with pytest.raises(Exception) as e:
                list(run(["tda-2013", "no-such-edition", "tda-2019"]))
        errors.append((type(e.value), str(e.value)))
    assert errors[0] == errors[1]
    assert "no-such-edition" in errors[0][1]


def test_results_come_in_submission_order_with_bounded_items_in_flight(cluster):
    names = [f"tda-20{y}" for y in (11, 13, 17, 19, 24)] * 8
    taken = []

    def items():
        for i, n in enumerate(names):
            taken.append(i)
            yield n

    with worker_map(edition, 1, cluster=cluster) as run:
        results = run(items())
        first = next(results)
        in_flight = len(taken)
        rest = list(results)
    assert [e.name for e in (first, *rest)] == names
    # two workers of one thread each: IN_FLIGHT items each are sent before the first result is taken
    assert in_flight == IN_FLIGHT * 2 < len(names)


def test_a_worker_that_cannot_see_an_input_is_named_with_the_path(cluster, tmp_path):
    seen = tmp_path / "seen.txt"
    seen.write_text("x")
    check_workers(cluster, [seen, SAMPLES])  # both visible: no error
    missing = tmp_path / "only-here" / "h.txt"  # a folder this process has, the workers not (here: nobody)
    with pytest.raises(DaskError) as e:
        check_workers(cluster, [seen, missing])
    msg = str(e.value)
    assert str(missing.parent) in msg and "tcp://" in msg and "shared filesystem" in msg


def test_a_worker_that_cannot_see_the_store_segment_folder_is_named(cluster, tmp_path, monkeypatch):
    """The workers write the store's segments: an ingest on a cluster first makes sure
    each worker sees the segment folder (here it is somewhere no worker has)."""
    elsewhere = tmp_path / "not-shared" / "audit.duckdb.segments"
    monkeypatch.setattr(ingest_module, "segments_root", lambda con: str(elsewhere))
    with pytest.raises(DaskError) as e:
        ingest([str(SAMPLES)], db=str(tmp_path / "audit.duckdb"), cluster=cluster)
    # (a folder that is nowhere is named by the folder it would be in, as a missing input file is)
    assert str(elsewhere.parent) in str(e.value) and "segment folder" in str(e.value)


def _edition_name_dying_once(item: tuple[str, str | None]) -> str:
    """The edition's name; for an item with a flag file not yet there, first make it,
    then end this worker process at once, as a crash or a kill would."""
    name, flag = item
    if flag is not None and not os.path.exists(flag):
        open(flag, "w").close()
        os._exit(1)
    return edition(name).name


def test_a_worker_that_dies_mid_run_has_its_task_run_again_and_the_results_stay_in_order(cluster, tmp_path):
    import cloudpickle

    flag = str(tmp_path / "died")
    names = [f"tda-20{y}" for y in (11, 13, 17, 19, 24)] * 3
    items = [(n, flag if i == 6 else None) for i, n in enumerate(names)]
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers need not import this test module
    try:
        with worker_map(_edition_name_dying_once, 1, cluster=cluster) as run:
            got = list(run(items))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert os.path.exists(flag), "a worker died"
    assert got == names
    cluster.wait_for_workers(2, timeout=60)  # its nanny started it again, for the tests after this one


def test_ingest_and_replay_take_dask_too(cluster, tmp_path):
    address = cluster.scheduler_info()["address"]
    dbs = []
    for name, extra in (("local", ["--jobs", "1"]), ("dask", ["--dask", address])):
        db = str(tmp_path / f"{name}.duckdb")
        for args in (["ingest", str(SAMPLES), "--json"], ["replay", "--rules", "tda-2017"]):
            r = CliRunner().invoke(main, [*args, "--db", db, *extra], catch_exceptions=False)
            assert r.exit_code == 0, r.output
        assert f"replayed {SAMPLE_HANDS} hands under tda-2017" in r.output
        dbs.append(db)
    assert_same_store(*dbs)
