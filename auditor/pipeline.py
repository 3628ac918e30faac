"""The main job: ingest, replay and check in one go, and what it found."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import duckdb

from auditor import house as house_rules
from auditor.checks import CATEGORIES, run_checks
from auditor.ingest import IngestSummary, ingest
from auditor.store import connect, facts_cover, replay_raise_cap, set_replay_state, transaction
from replay.editions import DEFAULT_EDITION, edition
from replay.engine import DEFAULT_RAISE_CAP
from auditor.facts import ReplaySummary, replay_store, replay_totals

FINDING_JSON_KEYS = (
    "finding_id", "check_id", "severity", "category", "category_basis", "edition", "rule", "rule_title", "hand_id", "tournament_id", "table_name",
    "street", "seq", "seat", "player", "expected", "actual", "message", "source_path", "line_no",
)


@dataclass
class AuditResult:
    edition: str
    ingest: IngestSummary
    replay: ReplaySummary
    findings_by_check: dict[str, int] = field(default_factory=dict)
    findings: list[dict] = field(default_factory=list)  # all, or the first PREVIEW (audit(keep_findings=False))
    seconds: float = 0.0
    findings_by_severity: dict[str, int] = field(default_factory=dict)
    findings_by_category: dict[str, int] = field(default_factory=dict)
    # (category, severity) -> findings: what --fail-on and --fail-category count
    findings_by_category_severity: dict[tuple[str, str], int] = field(default_factory=dict)
    house: dict | None = None  # the house profiles applied (auditor.house.provenance)

    @property
    def findings_total(self) -> int:
        return sum(self.findings_by_severity.values())

    def as_json(self) -> dict:
        return {
            "edition": self.edition,
            "house": self.house,
            "files": self.ingest.files,
            "hands_seen": self.ingest.hands_seen,
            "hands": self.replay.hands,
            "hands_stored_now": self.ingest.stored,
            "duplicates": self.ingest.duplicates,
            "rejected": self.ingest.rejected,
            # the hands rejected (as many as 'rejected'), the lines after a file's last hand
            # that are no hand's, and the files not read: as 'tda-audit ingest --json' splits them
            "rejections": self.ingest.rejections(),
            "unread_lines": self.ingest.unread_lines(),
            "files_not_read": self.ingest.files_not_read(),
            "findings_by_check": self.findings_by_check,
            "findings_by_category": {c: self.findings_by_category.get(c, 0) for c in CATEGORIES},
            "findings": [finding_json(f) for f in self.findings],
            "seconds": round(self.seconds, 3),
        }


def finding_json(f: dict) -> dict:
    """A finding in the scriptable shape (short keys as documented in the README)."""
    return {
        "id": f["finding_id"],
        "check": f["check_id"],
        "severity": f["severity"],
        "category": f["category"],
        "category_basis": f["category_basis"],
        "hand": f["hand_id"],
        "tournament": f["tournament_id"],
        "table": f["table_name"],
        "street": f["street"],
        "seq": f["seq"],
        "seat": f["seat"],
        "player": f["player"],
        "rule": f["rule"],
        "rule_title": f["rule_title"],
        "edition": f["edition"],
        "expected": f["expected"],
        "actual": f["actual"],
        "message": f["message"],
        "source": f["source_path"],
        "line": f["line_no"],
    }


PREVIEW = 10  # findings kept by audit(keep_findings=False), to show


def fetch_findings(con: duckdb.DuckDBPyConnection, edition_name: str | None = None, where: str = "",
                   params: list | None = None, limit: int | None = None) -> list[dict]:
    return list(iter_findings(con, edition_name, where, params, limit))


def iter_findings(con: duckdb.DuckDBPyConnection, edition_name: str | None = None, where: str = "",
                  params: list | None = None, limit: int | None = None) -> Iterator[dict]:
    """Findings in hand order, streamed (a million-hand audit can hold hundreds of
    thousands)."""
    conds, args = [], []
    if edition_name:
        conds.append("edition = ?")
        args.append(edition_name)
    if where:
        conds.append(where)
        args += params or []
    sql = f"SELECT {', '.join(FINDING_JSON_KEYS)} FROM findings"
    if conds:
        sql += " WHERE " + " AND ".join(conds)
    sql += " ORDER BY hand_id, coalesce(seq, 1 << 30), check_id, seat"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    cur = con.execute(sql, args)
    while rows := cur.fetchmany(2000):
        yield from (dict(zip(FINDING_JSON_KEYS, r)) for r in rows)


def audit(paths: Iterable[str | os.PathLike], db: str | os.PathLike | None = None, *, edition_name: str = DEFAULT_EDITION,
          progress=None, jobs: int | None = None, raise_cap: int | None = None,
          keep_findings: bool = True, house: str = "auto", cluster=None, worker_checks: bool | None = None) -> AuditResult:
    """Ingest ``paths``, replay everything in the store under ``edition_name`` and run
    every check.  Findings cover the whole store, not only the files named; with
    ``keep_findings=False`` the result holds only the first ``PREVIEW`` of them
    (and their counts): read the rest from the store.

    When the edition's facts already cover the store (or it is empty), each new
    hand is replayed as it is stored, in the same worker and the same commit; with
    ``worker_checks`` the checks that judge one hand from its own rows (``scope:
    hand``) run in the workers too, a committed batch at a time, and the other
    checks, and those for the hands stored before, then run here (``run_checks``).
    Otherwise the whole store is replayed after the ingest, and every check runs here.

    ``worker_checks`` (default: on a Dask cluster only): on one machine the checks
    here cost less in all; on a cluster they read the segments where the workers
    are and take this process's share of the CPU a hand, which no number of
    machines spreads (bench/README.md, "After the fifth session's merges").

    ``raise_cap``: the fixed-limit raise cap of the replay; by default the one the
    edition's facts in the store were built with ('tda-audit replay --raise-cap'), else
    DEFAULT_RAISE_CAP, so that an audit adding hands does not undo a cap set before.

    ``house`` chooses the house-rule profiles that make findings departures
    (``auditor.house.choose``: auto, none, a profile's name or file).

    ``cluster``: a ``distributed.Client`` (``auditor.execution.connect``) whose
    workers parse and replay in place of local processes, and run the table checks a
    batch of tournaments at a time; the store and the other checks stay in this
    process."""
    edition(edition_name)  # fail early on an unknown edition
    house_rules.choose(house)  # and on an unknown profile
    t0 = time.perf_counter()
    con = connect(db)
    try:
        (stored,) = con.execute("SELECT count(*) FROM hands").fetchone()
        if raise_cap is None:
            raise_cap = replay_raise_cap(con, edition_name) or DEFAULT_RAISE_CAP
        if stored == 0 or facts_cover(con, edition_name, raise_cap):
            with transaction(con):
                set_replay_state(con, edition_name, "complete", raise_cap)
            t1 = time.perf_counter()
            # on a cluster the workers also run the checks that judge one hand, batch by batch
            ing = ingest(paths, con=con, progress=progress, jobs=jobs, replay=(edition_name, raise_cap), cluster=cluster,
                         checks=cluster is not None if worker_checks is None else worker_checks)
            rep = replay_totals(con, edition_name, time.perf_counter() - t1)
        else:
            ing = ingest(paths, con=con, progress=progress, jobs=jobs, cluster=cluster)
            rep = replay_store(con, edition_name, raise_cap=raise_cap, jobs=jobs, cluster=cluster)
        counts = run_checks(con, edition_name, house=house, cluster=cluster,
                            checked_from_unit=ing.checked_from_unit if ing.checked_edition == edition_name else None)
        applied = house_rules.applied(con, edition_name)
        by_both = {(c, s): n for c, s, n in con.execute(
            "SELECT category, severity, count(*) FROM findings WHERE edition = ? GROUP BY ALL", [edition_name]).fetchall()}
        by_severity: dict[str, int] = {}
        by_category: dict[str, int] = {}
        for (c, s), n in by_both.items():
            by_severity[s] = by_severity.get(s, 0) + n
            by_category[c] = by_category.get(c, 0) + n
        findings = fetch_findings(con, edition_name, limit=None if keep_findings else PREVIEW)
    finally:
        con.close()
    return AuditResult(edition_name, ing, rep, counts, findings, time.perf_counter() - t0, by_severity,
                       by_category, by_both, applied)
