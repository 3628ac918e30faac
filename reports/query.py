"""Read-only SQL over the store (``tda-audit query``).

The store is opened read-only and only reading statements are run: SELECT (with
WITH, DESCRIBE, SHOW, SUMMARIZE, PIVOT...) and EXPLAIN.  Anything else, from
INSERT to COPY ... TO or ATTACH, is refused with :class:`WriteRefused` before it
runs.  The people-named views of ``reports/views.sql`` are there as TEMP views.

>>> is_read_only("SELECT 1; WITH a AS (SELECT 1) SELECT * FROM a")
True
>>> is_read_only("COPY hands TO 'x.csv'"), is_read_only("DELETE FROM hands")
(False, False)
>>> is_read_only("EXPLAIN ANALYZE SELECT 1"), is_read_only("EXPLAIN ANALYZE COPY (SELECT 1) TO 'x.csv'")
(True, False)
"""

from __future__ import annotations

import csv
import io
import json
import re

import duckdb

ALLOWED = {"SELECT", "EXPLAIN"}


class WriteRefused(Exception):
    pass


# EXPLAIN ANALYZE runs the statement it explains: what EXPLAIN wraps is judged too
_EXPLAIN = re.compile(r"^\s*EXPLAIN\s+(?:ANALY[SZ]E\s+|\([^)]*\)\s*)?", re.IGNORECASE)


def _kinds(con: duckdb.DuckDBPyConnection, stmts) -> list[str]:
    """Each statement's type; for an EXPLAIN, that of the statement it wraps
    ('EXPLAIN' when that is a reading one)."""
    out = []
    for s in stmts:
        kind = s.type.name
        if kind == "EXPLAIN":
            inner = con.extract_statements(_EXPLAIN.sub("", s.query, count=1))
            kind = "EXPLAIN" if len(inner) == 1 and inner[0].type.name == "SELECT" else f"EXPLAIN {inner[0].type.name if inner else '?'}"
        out.append(kind)
    return out


def statement_types(sql: str) -> list[str]:
    con = duckdb.connect(":memory:")
    try:
        return _kinds(con, con.extract_statements(sql))
    finally:
        con.close()


def is_read_only(sql: str) -> bool:
    try:
        kinds = statement_types(sql)
    except duckdb.Error:
        return True  # a syntax error: let the query itself report it
    return bool(kinds) and all(k in ALLOWED for k in kinds)


def run(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[list[str], list[tuple]]:
    """Run the (last) statement of ``sql``; (column names, rows).  Refuses writes."""
    try:
        stmts = con.extract_statements(sql)
    except duckdb.ParserException:
        raise
    if not stmts:
        raise WriteRefused("no SQL statement given")
    bad = [k for k in _kinds(con, stmts) if k not in ALLOWED]
    if bad:
        raise WriteRefused(
            f"tda-audit query is read-only: {', '.join(sorted(set(bad)))} statements are refused "
            "(only SELECT, WITH ... SELECT, DESCRIBE, SHOW, SUMMARIZE and EXPLAIN run). "
            "The store changes only through 'tda-audit ingest/replay/check/audit'."
        )
    cur = None
    for s in stmts:
        cur = con.execute(s)
    cols = [d[0] for d in cur.description] if cur.description else []
    return cols, cur.fetchall() if cols else []


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, list):
        return "[" + ", ".join(_cell(x) for x in v) + "]"
    return str(v)


def as_table(cols: list[str], rows: list[tuple], max_rows: int = 1000, max_width: int = 40) -> str:
    """An aligned text table (cells cut at ``max_width``), with the row count."""
    shown = rows[:max_rows]
    cells = [[_cell(v).replace("\n", " ") for v in r] for r in shown]
    cut = lambda s: s if len(s) <= max_width else s[: max_width - 1] + "\u2026"  # noqa: E731
    cells = [[cut(c) for c in r] for r in cells]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip(), "  ".join("-" * w for w in widths)]
    for r in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    more = f" (showing {max_rows}; use --format csv for all)" if len(rows) > max_rows else ""
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''}{more})")
    return "\n".join(lines) + "\n"


def as_csv(cols: list[str], rows: list[tuple]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([json.dumps(v, default=str) if isinstance(v, (list, dict)) else ("" if v is None else v) for v in r])
    return buf.getvalue()


def as_json(cols: list[str], rows: list[tuple]) -> str:
    return json.dumps([dict(zip(cols, r)) for r in rows], indent=2, default=str, ensure_ascii=False) + "\n"
