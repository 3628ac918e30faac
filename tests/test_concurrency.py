"""Two processes on one store (issue 7).

While ``tda-audit ingest`` holds the store, a second writer (another ingest, a
replay) and a reader get a clear error naming the store (exit 2, no
traceback) and the store is not corrupted: after the first ingest finishes
it holds exactly what one ingest alone stores.  With no writer, any number of
readers (``tda-audit findings``, read-only connections) work side by side.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import SAMPLES

from auditor.cli import main
from auditor.store import StoreError, connect

# the command line as the installed tda-audit runs it, by this interpreter: whether or not
# the venv's scripts are on PATH
TDA_AUDIT = (sys.executable, "-m", "auditor.cli")
HEADER = re.compile(r"^(PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #)(\d+)(:)", re.M)
LOG_TABLES = ("sources", "hands", "seats", "events", "ingest_errors")


def _big_folder(d: Path, files: int = 8, per_file: int = 500) -> int:
    hands = []
    for p in sorted((SAMPLES / "pokerstars").glob("*.txt")):
        t = p.read_text(encoding="utf-8-sig")
        starts = [m.start() for m in HEADER.finditer(t)]
        hands += [t[a:b].strip("\n") for a, b in zip(starts, starts[1:] + [len(t)])]
    d.mkdir()
    n = 0
    for f in range(files):
        parts = []
        for _ in range(per_file):
            parts.append(HEADER.sub(lambda m: f"{m.group(1)}{8_200_000_000_000 + n}{m.group(3)}", hands[n % len(hands)], count=1))
            n += 1
        (d / f"p{f}.txt").write_text("\n\n\n".join(parts) + "\n", encoding="utf-8")
    return n


def dump(db: str) -> dict[str, list[tuple]]:
    con = duckdb.connect(db, read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * EXCLUDE ({'ingested_at' if t == 'sources' else 'recorded_at'}) FROM {t}"
                                      if t in ("sources", "ingest_errors") else f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in LOG_TABLES}
    finally:
        con.close()


def _wait_for_lock(db: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    """Until the writer holds the store (a read-only open is refused)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        assert proc.poll() is None, "the writer finished before the test could run"
        if not Path(db).exists():  # not created yet: a refused open proves nothing
            time.sleep(0.05)
            continue
        try:
            duckdb.connect(db, read_only=True).close()
        except duckdb.IOException as e:
            if "lock" in str(e).lower():
                return
        time.sleep(0.05)
    pytest.fail("the writer never locked the store")


HOLDING_WRITER = """
import json, sys
from auditor.ingest import ingest
from auditor.store import connect
con = connect(sys.argv[2])
summary = ingest([sys.argv[1]], con=con)
sys.stdin.read()  # hold the store until the test closes our stdin
con.close()
print(json.dumps(summary.as_json()))
"""


def test_second_writer_and_reader_get_a_clear_error_while_ingest_runs(tmp_path):
    folder = tmp_path / "h"
    n = _big_folder(folder)
    db = str(tmp_path / "s.duckdb")
    ref = str(tmp_path / "ref.duckdb")
    # the reference: the same ingest alone in its own store (run meanwhile, on the other core)
    alone = subprocess.Popen([*TDA_AUDIT, "ingest", str(folder), "--db", ref, "-q"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    # the writer ingests through the library, then keeps the store open until the test
    # lets go (closes its stdin): the others run while it works or holds the file, never
    # after it, however loaded the machine is
    writer = subprocess.Popen([sys.executable, "-c", HOLDING_WRITER, str(folder), db],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_lock(db, writer)
        attempts = {
            "ingest": [*TDA_AUDIT, "ingest", str(SAMPLES), "--db", db, "-q"],
            "replay": [*TDA_AUDIT, "replay", "--db", db],
            "findings": [*TDA_AUDIT, "findings", "--db", db],
        }
        procs = {name: subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for name, cmd in attempts.items()}
        for name, p in procs.items():
            _, err = p.communicate(timeout=60)
            assert p.returncode == 2, (name, p.returncode, err)
            assert "Traceback" not in err, err
            assert f"Error: the store {db} is in use by another process" in err, err
        assert writer.poll() is None, "the writer let go of the store before the test did"
        # in-process: the library says the same
        with pytest.raises(StoreError, match="in use by another process"):
            connect(db)
    finally:
        out, err = writer.communicate(input="", timeout=300)
    assert writer.returncode == 0, err
    assert alone.wait(timeout=300) == 0
    summary = json.loads(out)
    assert summary["hands"] == n and summary["hands_seen"] == n
    # nothing from the refused writer, nothing lost or doubled: as if the ingest had run alone
    assert dump(db) == dump(ref)


def test_readers_work_side_by_side_when_no_writer_holds_the_store(tmp_path):
    db = str(tmp_path / "s.duckdb")
    r = CliRunner().invoke(main, ["audit", str(SAMPLES), "--db", db, "--json"], catch_exceptions=False)
    assert r.exit_code == 0
    expected = len(json.loads(r.stdout)["findings"])
    assert expected > 0
    # two read-only connections in this process and in another, plus findings in subprocesses
    held = [duckdb.connect(db, read_only=True), connect(db, read_only=True)]
    try:
        procs = [subprocess.Popen([*TDA_AUDIT, "findings", "--db", db, "--format", "json"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(3)]
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
            assert len(json.loads(out)) == expected
        for con in held:
            assert con.execute("SELECT count(*) FROM findings").fetchone()[0] == expected
        # a writer is refused while readers hold the file, clearly
        p = subprocess.run([*TDA_AUDIT, "ingest", str(SAMPLES), "--db", db, "-q"], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "in use by another process" in p.stderr and "Traceback" not in p.stderr, p.stderr
    finally:
        for con in held:
            con.close()
    # and once they are gone, writing works again and stores nothing new
    p = subprocess.run([*TDA_AUDIT, "ingest", str(SAMPLES), "--db", db, "--json", "-q"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["hands"] == 0


def test_findings_on_a_missing_store_is_a_clear_error(tmp_path):
    db = tmp_path / "none.duckdb"
    r = CliRunner().invoke(main, ["findings", "--db", str(db)])
    assert r.exit_code == 2 and f"no store at {db}" in r.stderr
    assert not db.exists()  # a reader never creates the store
