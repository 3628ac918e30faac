"""Crash safety of ingest (issue 7): SIGKILL part-way, run again, same store.

A folder of 8 files x 200 PokerStars hands (the sample hands replicated with
fresh hand numbers; each file also holds one hand cut off after its header, so
``ingest_errors`` is exercised) is ingested once without interruption
(the reference), and once killed with SIGKILL right after its first commit
(``--progress-json`` reports each commit) and then run again to completion.  The
interrupted store must hold only whole hands (every hand with its seats and
events), and after the re-run it must equal the reference row for row (ingest
timestamps aside), and replay + check must give the same findings.  An ``audit``,
whose workers also check each committed batch's hands, killed before or after a
batch's findings are in, leaves findings of committed hands only, and a re-run
gives the uninterrupted audit's store.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from conftest import ROOT, SAMPLES

from auditor.checks import load_checks
from auditor.execution import _alive, descendants
from auditor.pipeline import audit
from auditor.store import connect, copy_store

HEADER = re.compile(r"^(PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #)(\d+)(:)", re.M)
FILES, PER_FILE = 8, 200
# The command line as the installed tda-audit runs it (auditor.cli:main), in a process
# of its own, with a file a unit and a commit (and the workers' checks) every 500
# hands, where an ingest commits every 10,000: some 1,600 hands make several commits,
# so a kill after the first leaves most of them to the re-run; and parse workers for
# these 2 MB, where an ingest parses an input under CHUNK_BYTES in its own process.
SMALL_COMMITS = """
import auditor.ingest as ingest, auditor.units as units
ingest.BATCH_HANDS = ingest.CHECK_HANDS = 500
ingest.CHUNK_BYTES = 1 << 20
units.GROUP_FILES = 1
"""
CLI = SMALL_COMMITS + "from auditor.cli import main\nmain()\n"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def tda_audit(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]
# columns that record when a row was written, not what it says
TIMESTAMPS = {"sources": "ingested_at", "ingest_errors": "recorded_at"}
LOG_TABLES = ("sources", "hands", "seats", "events", "ingest_errors")
FACT_TABLES = ("decisions", "pots", "pot_shares", "hand_results", "replay_notes", "findings")


def _sample_hands() -> list[str]:
    hands = []
    for p in sorted((SAMPLES / "pokerstars").glob("*.txt")):
        t = p.read_text(encoding="utf-8-sig")
        starts = [m.start() for m in HEADER.finditer(t)]
        hands += [t[a:b].strip("\n") for a, b in zip(starts, starts[1:] + [len(t)])]
    return hands


@pytest.fixture(scope="module")
def histories(tmp_path_factory) -> tuple[Path, int, int]:
    """The folder, the number of hand headers in it, and the number of cut-off hands."""
    d = tmp_path_factory.mktemp("crash") / "histories"
    d.mkdir()
    hands = _sample_hands()
    n = 0
    headers = cut = 0
    for f in range(FILES):
        parts = []
        for i in range(PER_FILE):
            h = HEADER.sub(lambda m: f"{m.group(1)}{8_100_000_000_000 + n}{m.group(3)}", hands[n % len(hands)], count=1)
            if i == PER_FILE // 2:  # cut off after its header (no seat line): rejected as truncated
                h = h.split("\n", 1)[0]
                cut += 1
            parts.append(h)
            n += 1
        (d / f"part-{f:02d}.txt").write_text("\n\n\n".join(parts) + "\n", encoding="utf-8")
        headers += PER_FILE
    return d, headers, cut


def ingest_cmd(folder: Path, db: str) -> list[str]:
    return tda_audit("ingest", str(folder), "--db", db, "--json", "--quiet")


def dump(db: str, tables) -> dict[str, list[tuple]]:
    con = duckdb.connect(db, read_only=True)
    try:
        out = {}
        for t in tables:
            cols = [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall() if r[0] != TIMESTAMPS.get(t)]
            out[t] = sorted(con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall(), key=repr)
        return out
    finally:
        con.close()


def check_whole(db: str, headers: int | None = None, cut: int | None = None) -> tuple[int, int]:
    """No partial hand.  Returns (hands, error rows)."""
    con = duckdb.connect(db, read_only=True)
    try:
        q = lambda sql: con.execute(sql).fetchall()  # noqa: E731
        assert q("SELECT count(*) FROM hands h WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.hand_id = h.hand_id)") == [(0,)]
        assert q("SELECT count(*) FROM hands h WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.hand_id = h.hand_id)") == [(0,)]
        assert q("SELECT count(*) FROM seats s WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.hand_id = s.hand_id)") == [(0,)]
        assert q("SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.hand_id = e.hand_id)") == [(0,)]
        assert q("SELECT count(*) - count(DISTINCT hand_id), count(*) - count(DISTINCT content_hash) FROM hands") == [(0, 0)]
        # every event sequence is complete: 0..n-1
        assert q("SELECT count(*) FROM (SELECT hand_id FROM events GROUP BY hand_id HAVING max(seq) + 1 <> count(*) OR min(seq) <> 0)") == [(0,)]
        # no source holds more than its hands (a big file may be committed in parts)
        per_source = q("SELECT s.source_id, count(h.hand_id) FROM sources s LEFT JOIN hands h USING (source_id) GROUP BY 1")
        assert all(n <= PER_FILE - 1 for _, n in per_source), per_source
        errors_per_file = q("SELECT source_path, count(*) FROM ingest_errors GROUP BY 1")
        assert all(n == 1 for _, n in errors_per_file), errors_per_file
        (hands,), (errors,) = q("SELECT count(*) FROM hands")[0], q("SELECT count(*) FROM ingest_errors")[0]
        if headers is not None:
            assert hands + errors == headers  # every header is one stored hand or one error row
            assert errors == cut
            assert all(n == PER_FILE - 1 for _, n in per_source), per_source
        return hands, errors
    finally:
        con.close()


def replay_and_check(db: str) -> None:
    for step in ("replay", "check"):
        p = subprocess.run(tda_audit(step, "--db", db), capture_output=True, text=True, env=ENV, timeout=300)
        assert p.returncode == 0, p.stderr


def test_sigkill_mid_ingest_then_rerun_equals_one_uninterrupted_run(histories, tmp_path):
    folder, headers, cut = histories
    ref = str(tmp_path / "ref.duckdb")
    t0 = time.perf_counter()
    p = subprocess.run(ingest_cmd(folder, ref), capture_output=True, text=True, env=ENV, timeout=300)
    full = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert (summary["hands_seen"], summary["hands"], summary["rejected"]) == (headers, headers - cut, cut)
    check_whole(ref, headers, cut)

    # kill right after the first commit, which --progress-json reports on stderr
    db = str(tmp_path / "crash.duckdb")
    proc = subprocess.Popen([*ingest_cmd(folder, db), "--progress-json", "--jobs", "2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    first = json.loads(proc.stderr.readline())
    workers = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL, "ingest finished before it was killed"
    proc.stderr.close()
    # its worker processes (and the forkserver and resource tracker) end with it
    assert len(workers) >= 2, "the ingest ran worker processes"
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)], "worker processes outlived the killed ingest"
    assert first["committed"] and 0 < first["hands"] < headers - cut
    hands, _ = check_whole(db)
    assert first["hands"] <= hands < headers - cut, "the kill left a partly ingested store"
    print(f"{headers} hands, uninterrupted ingest {full:.1f}s; killed after the first commit with {hands} hands stored")

    p = subprocess.run(ingest_cmd(folder, db), capture_output=True, text=True, env=ENV, timeout=300)
    assert p.returncode == 0, p.stderr
    again = json.loads(p.stdout)
    assert again["hands_seen"] == headers
    assert again["hands"] == headers - cut - hands  # the rest, exactly once
    assert again["duplicates"] == hands
    assert again["hands_seen"] == again["hands"] + again["duplicates"] + again["rejected"]
    check_whole(db, headers, cut)
    assert dump(db, LOG_TABLES) == dump(ref, LOG_TABLES)

    replay_and_check(ref)
    replay_and_check(db)
    ref_facts, facts = dump(ref, FACT_TABLES), dump(db, FACT_TABLES)
    assert ref_facts["findings"], "the replicated violation samples give findings"
    for t in FACT_TABLES:
        assert facts[t] == ref_facts[t], f"{t} differs after the interrupted ingest"


def test_sigkill_during_replay_keeps_the_log_and_rerun_completes(histories, tmp_path):
    """Killing ``tda-audit replay`` never touches the event log, and a re-run gives
    the same facts as a replay that was never interrupted."""
    folder, _, _ = histories
    db = str(tmp_path / "r.duckdb")
    some = sorted(folder.glob("*.txt"))[:1]
    p = subprocess.run(tda_audit("ingest", *map(str, some), "--db", db, "--quiet"), capture_output=True, env=ENV, timeout=300)
    assert p.returncode == 0
    log = dump(db, LOG_TABLES)
    t0 = time.perf_counter()
    ref = str(tmp_path / "r-ref.duckdb")
    copy_store(db, ref)  # the DuckDB file and its segments
    replay_and_check(ref)
    full = time.perf_counter() - t0
    proc = subprocess.Popen(tda_audit("replay", "--db", db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    time.sleep(full * 0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert dump(db, LOG_TABLES) == log
    replay_and_check(db)
    assert dump(db, FACT_TABLES) == dump(ref, FACT_TABLES)
    check_whole(db, PER_FILE, 1)


# An audit killed with SIGKILL as its ingest goes, whose workers check each
# committed batch's hands (batches of 500 hands, checked in this process:
# jobs=1, so that a batch's findings are in before the next unit is read):
# "before", right after the first commit with hands (before its findings are
# in); "after", right after the first batch's findings are committed.
AUDIT_KILLED = SMALL_COMMITS + """
import os, signal, sys

folder, db, point = sys.argv[1:]
commit, insert = ingest._Writer.commit, ingest._WorkerChecks._insert

def commit_then_die(self):
    out = commit(self)
    if point == "before" and self.summary.stored:
        os.kill(os.getpid(), signal.SIGKILL)
    return out

def insert_then_die(self, found):
    insert(self, found)
    if point == "after" and found.num_rows:
        os.kill(os.getpid(), signal.SIGKILL)

ingest._Writer.commit, ingest._WorkerChecks._insert = commit_then_die, insert_then_die
from auditor.pipeline import audit
audit([folder], db=db, jobs=1, worker_checks=True)
"""
HAND_CHECKS = {c.check_id for c in load_checks() if c.scope == "hand"}


@pytest.fixture(scope="module")
def audited(histories, tmp_path_factory) -> str:
    """The folder audited without interruption."""
    db = str(tmp_path_factory.mktemp("audited") / "ref.duckdb")
    audit([histories[0]], db=db, jobs=2)
    return db


def hand_findings(db: str, hands: set[str] | None = None) -> list[tuple]:
    """The findings of the scope-hand checks (of ``hands``), as the checks make them
    (the house profiles' category left out: run_checks applies it at the end)."""
    con = connect(db, read_only=True)
    try:
        cols = [r[0] for r in con.execute("DESCRIBE findings").fetchall() if r[0] not in ("category", "category_basis")]
        rows = con.execute(f"SELECT {', '.join(cols)} FROM findings").fetchall()
    finally:
        con.close()
    at, check = cols.index("hand_id"), cols.index("check_id")
    return sorted((r for r in rows if r[check] in HAND_CHECKS and (hands is None or r[at] in hands)), key=repr)


@pytest.mark.parametrize("point", ["before", "after"])
def test_sigkill_mid_audit_leaves_findings_only_with_their_hands(histories, audited, tmp_path, point):
    """The workers' findings of a committed batch are committed right after it: a
    kill before leaves its hands without findings, marked in progress; a kill
    after, the findings of exactly the committed hands.  The next audit completes
    the store as one uninterrupted audit."""
    folder, headers, cut = histories
    db = str(tmp_path / "killed.duckdb")
    p = subprocess.run([sys.executable, "-c", AUDIT_KILLED, str(folder), db, point], capture_output=True, text=True,
                       env=ENV, timeout=300)
    assert p.returncode == -signal.SIGKILL, p.stderr
    hands, _ = check_whole(db)
    assert 0 < hands < headers - cut, "the kill left a partly ingested store"
    con = connect(db, read_only=True)
    try:
        stored = {h for (h,) in con.execute("SELECT hand_id FROM hands").fetchall()}
        assert con.execute("SELECT count(*) FROM findings WHERE hand_id NOT IN (SELECT hand_id FROM hands)").fetchone() == (0,)
        # the edition's findings do not cover the store until run_checks has run
        assert con.execute("SELECT value FROM meta WHERE key = 'checks:tda-2024'").fetchone() == ("in-progress",)
    finally:
        con.close()
    got = hand_findings(db)
    if point == "before":
        assert got == []
    else:
        assert got and got == hand_findings(audited, stored), "the committed hands' findings, exactly"

    audit([folder], db=db, jobs=2)
    check_whole(db, headers, cut)
    assert dump(db, LOG_TABLES) == dump(audited, LOG_TABLES)
    assert dump(db, FACT_TABLES) == dump(audited, FACT_TABLES)
