"""The checks under a DuckDB memory limit: one query over a big store against batches.

    python bench/checks_memory.py [--copies 200] [--source ../shared/corpus/fpdb/tour/Stars ...]

The source histories are audited, then their rows copied ``copies - 1`` times under new hand
and tournament ids (``--copies 200`` over PokerStars' tournament corpus: 243,400 hands). Then,
for the checks that judge one hand (run in ranges of hand ids, ``HAND_BATCH``) and for those
that judge a table's hands together (run a batch of tournaments at a time, ``BATCH_HANDS``):

1. every check in one query, no limit: the findings, and the seconds;
2. the same under the limit: DuckDB runs out of memory (the store is too big for one query);
3. in batches of 5,000 hands (``--batch``) under the same limit: it completes, with the same findings.

It prints one row a group, the limit beside each outcome (docs/table-checks.md, "Memory").
The limits are the ones measured in bench/README.md ("The checks under a memory limit");
the equivalence of batches and one query is also in the tests (tests/test_checks_memory.py),
at a size the suite can afford.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb

import auditor.checks as checks
from auditor import segments
from auditor.pipeline import audit
from auditor.store import connect, segments_root

ROOT = Path(__file__).resolve().parent.parent
EDITION = "tda-2019"
# the tables the hand checks and the table checks read, copied with the hands
COPIED = ("hands", "seats", "events", "decisions", "pots", "pot_shares", "hand_results")
# (group, the knob that cuts it, the batches it makes, the limit): bench/README.md has the figures
GROUPS = (("hand", "HAND_BATCH", checks._hand_batches, "80MB"),
          ("table", "BATCH_HANDS", checks._table_batches, "160MB"))


def copied_store(sources: list[Path], folder: Path, copies: int) -> str:
    """``source`` audited, then its rows of ``COPIED`` copied ``copies - 1`` times under new
    hand and tournament ids, copy by copy in hand order (as ingested hands lie together)."""
    db = str(folder / "copied.duckdb")
    audit([str(p) for p in sources], db=db, edition_name=EDITION, jobs=1)
    con = connect(db)
    con.execute("SET memory_limit = '2GB'")  # the copying's sorts: setup, not what is measured
    for table in COPIED:
        new_ids = "'R' || k || ':' || hand_id AS hand_id" + (
            ", 'R' || k || ':' || tournament_id AS tournament_id" if table == "hands" else "")
        segments.rewrite(con, segments_root(con), table,
                         f"SELECT * FROM {table} UNION ALL (SELECT * EXCLUDE (k) REPLACE ({new_ids}) "
                         f"FROM {table}, range(1, {copies}) r(k) ORDER BY k, hand_id)")
    con.close()
    return db


def findings(con) -> list[tuple]:
    return con.execute("SELECT * FROM findings WHERE edition = ? ORDER BY ALL", [EDITION]).fetchall()


def measure(con, group: str, knob: str, batches, limit: str | None, batch: int = 5_000) -> dict[str, object]:
    """One group of checks: in one query without a limit, then in one query and in batches
    of ``batch`` hands under ``limit`` (None: no limit, batches only compared)."""
    ids = [c.check_id for c in checks.load_checks() if (c.scope == "hand" if group == "hand" else c.group == "table")]
    setattr(checks, knob, 10**9)
    start = time.perf_counter()
    found = checks.run_checks(con, EDITION, ids)
    whole, one_s = findings(con), time.perf_counter() - start
    row: dict[str, object] = {"group": group, "checks": len(ids), "findings": sum(found.values()),
                              "one query s": round(one_s, 1), "limit": limit or "none"}
    if limit:
        con.execute(f"SET memory_limit = '{limit}'")
    try:
        if limit:
            try:
                checks.run_checks(con, EDITION, ids)
                row["one query, limited"] = "completed"
            except duckdb.OutOfMemoryException:
                row["one query, limited"] = "out of memory"
        setattr(checks, knob, batch)
        row["batches"] = len(batches(con))
        start = time.perf_counter()
        try:
            same = checks.run_checks(con, EDITION, ids) == found and findings(con) == whole
            row["batches, limited"] = "same findings" if same else "OTHER FINDINGS"
        except duckdb.OutOfMemoryException:
            row["batches, limited"] = "out of memory"
        row["batches s"] = round(time.perf_counter() - start, 1)
    finally:
        con.execute("RESET memory_limit")
        setattr(checks, knob, 10**9)
    return row


def main(argv: list[str] | None = None) -> list[dict[str, object]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=200)
    ap.add_argument("--source", type=Path, nargs="+", default=[ROOT.parent / "shared" / "corpus" / "fpdb" / "tour" / "Stars"])
    ap.add_argument("--no-limit", action="store_true", help="compare batches with one query only (a small store)")
    ap.add_argument("--batch", type=int, default=5_000, help="hands a batch (the checks' production size: 5,000)")
    args = ap.parse_args(argv)
    knobs = {knob: getattr(checks, knob) for _, knob, _, _ in GROUPS}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        db = copied_store(args.source, Path(folder), args.copies)
        con = connect(db)
        (hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
        print(f"store: {hands:,} hands ({args.copies} copies of {', '.join(map(str, args.source))}), "
              f"built in {time.perf_counter() - start:.0f} s")
        try:
            for group, knob, batches, limit in GROUPS:
                rows.append(measure(con, group, knob, batches, None if args.no_limit else limit, args.batch))
        finally:
            con.close()
            for knob, value in knobs.items():
                setattr(checks, knob, value)
    cols = list(rows[0])
    print(" | ".join(cols))
    for row in rows:
        print(" | ".join(str(row.get(c, "")) for c in cols))
    return rows


if __name__ == "__main__":
    main()
