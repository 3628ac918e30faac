"""The check registry: one SQL file per check, discovered from this folder.

Each ``<check-id>.sql`` starts with a header of ``-- key: value`` lines::

    -- check: illegal-underraise
    -- title: Raise below the minimum left standing
    -- severity: error
    -- group: betting
    -- rationale: A bet or raise below the legal minimum by a player with chips behind ...

and then one ``SELECT`` over the event log and the replay facts, with the
parameter ``$edition``.  Its result columns are the finding contract:

    hand_id, street, seq, seat, player, expected, actual, message, line_no

Rule numbers and titles are not in the SQL: they come from the one rule catalog
(``auditor/rules/catalog.toml``) by check id and edition.

Award checks (``group: award``) report an award error once, under the most
specific check: ``precedence`` orders them (odd-chip 1, side-pot 2,
wrong-winner 3, chip-conservation 4), and a hand reported by a more specific
award check is not reported again by a later one.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import duckdb

SEVERITIES = ("info", "warning", "error")


@dataclass(frozen=True)
class Check:
    check_id: str
    title: str
    severity: str
    group: str
    rationale: str
    precedence: int
    sql: str
    path: Path

    @property
    def body(self) -> str:
        return "\n".join(line for line in self.sql.splitlines() if not line.startswith("-- "))


def parse_check(path: Path) -> Check:
    text = path.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        body = line[2:].strip()
        if ":" in body and body.split(":", 1)[0].strip().isidentifier():
            key, val = body.split(":", 1)
            last = key.strip()
            meta[last] = val.strip()
        elif last and body:
            meta[last] += " " + body  # continuation line
    missing = {"check", "title", "severity", "rationale"} - meta.keys()
    if missing:
        raise ValueError(f"{path}: header lacks {', '.join(sorted(missing))}")
    if meta["check"] != path.stem:
        raise ValueError(f"{path}: header says check {meta['check']!r} but the file is {path.name}")
    if meta["severity"] not in SEVERITIES:
        raise ValueError(f"{path}: severity must be one of {SEVERITIES}")
    return Check(
        check_id=meta["check"],
        title=meta["title"],
        severity=meta["severity"],
        group=meta.get("group", "betting"),
        rationale=meta["rationale"],
        precedence=int(meta.get("precedence", "0")),
        sql=text,
        path=path,
    )


def checks_dir() -> Path:
    return Path(str(resources.files("auditor.checks")))


def load_checks() -> list[Check]:
    """All checks, award checks last in precedence order."""
    found = [parse_check(p) for p in sorted(checks_dir().glob("*.sql"))]
    return sorted(found, key=lambda c: (c.group == "award", c.precedence, c.check_id))


def run_checks(con: duckdb.DuckDBPyConnection, edition: str, only: list[str] | None = None) -> dict[str, int]:
    """Run the checks under ``edition`` and replace that edition's findings (for the
    checks run).  Returns findings per check id.  Each check's rows go into the
    findings table in one set-based INSERT, joined with the hand's tournament,
    table and source file."""
    from auditor.catalog import citation

    counts: dict[str, int] = {}
    checks = [c for c in load_checks() if not only or c.check_id in only]
    # each check replaces its own findings in its own transaction: atomic per check,
    # and DuckDB never holds every check's work in memory at once
    con.execute("CREATE OR REPLACE TEMP TABLE _award_hands (hand_id VARCHAR)")
    for c in checks:
        con.execute("BEGIN TRANSACTION")
        try:
            counts[c.check_id] = _run_one(con, c, edition, citation)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    con.execute("DROP TABLE IF EXISTS _found")
    con.execute("DROP TABLE IF EXISTS _award_hands")
    return counts


def _run_one(con: duckdb.DuckDBPyConnection, c: Check, edition: str, citation) -> int:
    con.execute("DELETE FROM findings WHERE edition = ? AND check_id = ?", [edition, c.check_id])
    cites = [x for x in citation(c.check_id, edition) if not x.missing]
    if not cites:
        return 0  # the edition has no such rule: the check does not run
    rule = ", ".join(x.ref for x in cites)
    title = "; ".join(dict.fromkeys(x.title for x in cites))
    params = {"edition": edition} if "$edition" in c.body else None
    con.execute(f"CREATE OR REPLACE TEMP TABLE _found AS {c.body}", params)
    skip_done = "AND f.hand_id NOT IN (SELECT hand_id FROM _award_hands)" if c.group == "award" else ""
    (n,) = con.execute(
        f"""INSERT INTO findings
            SELECT ? || ':' || f.hand_id || ':' || coalesce(CAST(f.seq AS VARCHAR), '-') || ':' || coalesce(CAST(f.seat AS VARCHAR), '-'),
                   ?, ?, ?, ?, ?, f.hand_id, h.tournament_id, h.table_name, f.street, f.seq, f.seat, f.player,
                   CAST(f.expected AS VARCHAR), CAST(f.actual AS VARCHAR), f.message, s.path, f.line_no
            FROM _found f JOIN hands h USING (hand_id) JOIN sources s USING (source_id)
            WHERE true {skip_done}
            ON CONFLICT DO NOTHING""",
        [c.check_id, c.check_id, c.severity, edition, rule, title],
    ).fetchone()
    if c.group == "award":
        con.execute("INSERT INTO _award_hands SELECT DISTINCT hand_id FROM _found")
    return n
