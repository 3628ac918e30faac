"""Exports: findings, hands and replay facts as CSV, JSON, Parquet, XLSX or Markdown,
and the whole event store as Parquet partitioned by tournament.

CSV, JSON and Parquet are written by DuckDB's ``COPY``; XLSX by openpyxl (DuckDB's
excel extension is not installable offline); Markdown by a small writer here.

>>> sql_str("it's")
"'it''s'"
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb

from auditor import __version__, manifest
from auditor.schema import TABLES
from reports.data import FINDING_COLS, SITE_JOIN

FORMATS = ("csv", "json", "parquet", "xlsx", "md")
WHATS = ("findings", "hands", "facts", "store")
FACT_TABLES = ("decisions", "pots", "pot_shares", "hand_results", "replay_notes")


class ExportError(Exception):
    pass


def sql_str(s: str) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def queries(what: str, edition: str) -> dict[str, str]:
    """name -> SELECT for what is exported (one for findings/hands, one per table for facts)."""
    ed = sql_str(edition)
    if what == "findings":
        return {"findings": f"SELECT {', '.join(FINDING_COLS)}, h.site, edition FROM findings {SITE_JOIN} WHERE edition = {ed} "
                            "ORDER BY hand_id, coalesce(seq, 1 << 30), check_id, seat"}
    if what == "hands":
        return {"hands": "SELECT * FROM hand_summary ORDER BY hand_id"}
    if what == "facts":
        return {t: f"SELECT * FROM {t} WHERE edition = {ed} ORDER BY ALL" for t in FACT_TABLES}
    raise ExportError(f"unknown --what {what!r}")


def copy_options(fmt: str) -> str:
    return {"csv": "FORMAT csv, HEADER true", "json": "FORMAT json, ARRAY true", "parquet": "FORMAT parquet"}[fmt]


def export(con: duckdb.DuckDBPyConnection, edition: str, fmt: str, what: str, out: str | Path) -> list[Path]:
    """Write the export; the files written.  For several tables (``facts``) ``out`` is a
    folder (created) with one file per table, except xlsx and md: one file, a sheet or
    section per table."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if what == "store":
        if fmt != "parquet":
            raise ExportError("--what store is written as Parquet only: use --format parquet --out DIR")
        return export_store(con, out)
    qs = queries(what, edition)
    out = Path(out)
    if fmt == "xlsx":
        return [write_xlsx(con, qs, out)]
    if fmt == "md":
        out.parent.mkdir(parents=True, exist_ok=True)
        parts = []
        for name, q in qs.items():
            if len(qs) > 1:
                parts.append(f"## {name}\n")
            parts.append(markdown_table(con.execute(q)))
        parts.append(manifest.markdown_block(manifest.build(con, edition)))  # for tda-audit verify
        out.write_text("\n".join(parts), encoding="utf-8")
        return [out]
    if fmt == "csv":  # opened in a spreadsheet: no text cell may start a formula
        qs = {name: spreadsheet_safe(con, q) for name, q in qs.items()}
    if len(qs) == 1:
        out.parent.mkdir(parents=True, exist_ok=True)
        (q,) = qs.values()
        con.execute(f"COPY ({q}) TO {sql_str(out)} ({copy_options(fmt)})")
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, q in qs.items():
        p = out / f"{name}.{fmt}"
        con.execute(f"COPY ({q}) TO {sql_str(p)} ({copy_options(fmt)})")
        written.append(p)
    return written


#: a text cell starting with one of these a spreadsheet may read as a formula (or a DDE
#: command); such a cell is written with a leading apostrophe, which marks it as text
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(con: duckdb.DuckDBPyConnection, q: str) -> str:
    """``q`` with every text column's formula-starting values written as text ('=cmd' ->
    "'=cmd"); a number written as text ('-400') stays a number, and number columns are
    numbers (a negative amount is no formula)."""
    starts = ", ".join(sql_str(c) if c.isprintable() else f"chr({ord(c)})" for c in FORMULA_START)
    exprs = []
    for name, typ, *_ in con.execute(f"DESCRIBE {q}").fetchall():
        c = '"' + name.replace('"', '""') + '"'
        if typ == "VARCHAR":
            exprs.append(f"CASE WHEN left({c}, 1) IN ({starts}) AND NOT regexp_full_match({c}, {sql_str(NUMBER.pattern)}) "
                         f"THEN {sql_str(chr(39))} || {c} ELSE {c} END AS {c}")
        else:
            exprs.append(c)
    return f"SELECT {', '.join(exprs)} FROM ({q})"


def md_text(v) -> str:
    """A table cell's text for Markdown: pipes escaped, one line, and no markup (a
    Markdown viewer renders raw HTML: a name ``<img src=x onerror=...>`` stays text).

    >>> md_text('<script>alert(1)</script> | x')
    '&lt;script&gt;alert(1)&lt;/script&gt; \\\\| x'
    """
    return (str(v).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("\n", " "))


def markdown_table(cur) -> str:
    cols = [d[0] for d in cur.description]

    def cell(v) -> str:
        if v is None:
            return ""
        if isinstance(v, list):
            v = ", ".join(map(str, v))
        return md_text(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    while batch := cur.fetchmany(10000):
        lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in batch]
    return "\n".join(lines) + "\n"


def write_xlsx(con: duckdb.DuckDBPyConnection, qs: dict[str, str], out: Path) -> Path:
    try:
        from openpyxl import Workbook
    except ImportError as e:  # pragma: no cover - openpyxl is a dependency
        raise ExportError("xlsx export needs openpyxl: pip install openpyxl") from e
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    out.parent.mkdir(parents=True, exist_ok=True)  # before the workbook: a failure leaves nothing half written
    wb = Workbook(write_only=True)
    for name, q in qs.items():
        ws = wb.create_sheet(title=name[:31])
        cur = con.execute(q)
        ws.append([d[0] for d in cur.description])
        while batch := cur.fetchmany(10000):
            for r in batch:
                ws.append([_xl(v, ILLEGAL_CHARACTERS_RE) for v in r])
    wb.save(out)
    return out


def _xl(v, bad):
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v, default=str, ensure_ascii=False)
    if isinstance(v, str):
        v = bad.sub("", v)
        return "'" + v if v[:1] in FORMULA_START and not _number(v) else v  # no formula injection
    return v


#: a number written as text: an amount, possibly negative ('-400', '12.50'); not 'inf' or '-nan'
NUMBER = re.compile(r"[+-]?[0-9]+(?:[.][0-9]+)?")


def _number(s: str) -> bool:
    """Whether a text cell is a plain number.

    >>> _number("-400"), _number("12.50"), _number("-inf"), _number("=1+2")
    (True, True, False, False)
    """
    return NUMBER.fullmatch(s) is not None


def export_store(con: duckdb.DuckDBPyConnection, out: str | Path) -> list[Path]:
    """Every table of the store as Parquet under ``out``: per-hand tables partitioned by
    tournament (``<table>/tournament=<id>/*.parquet``, ``none`` for hands without one),
    store-wide tables (sources, ingest_errors, meta) as one file each, and a
    ``manifest.json`` with the row counts."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ExportError(f"{out} is not empty: choose a new folder for the store export")
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"tool": "tda-audit", "version": __version__, "partitioned_by": "tournament", "tables": {}}
    written = []
    for t in TABLES:
        (n,) = con.execute(f"SELECT count(*) FROM {t.name}").fetchone()
        if "hand_id" in t.column_names and t.name != "ingest_errors":
            if t.name == "hands":
                q = "SELECT *, coalesce(tournament_id, 'none') AS tournament FROM hands"
            elif t.name == "findings":
                q = ("SELECT f.*, coalesce(h.tournament_id, 'none') AS tournament FROM findings f "
                     "LEFT JOIN hands h USING (hand_id)")
            else:
                q = (f"SELECT x.*, coalesce(h.tournament_id, 'none') AS tournament FROM {t.name} x "
                     "JOIN hands h USING (hand_id)")
            p = out / t.name
            if n:
                con.execute(f"COPY ({q}) TO {sql_str(p)} (FORMAT parquet, PARTITION_BY (tournament))")
            else:  # an empty table still gets its schema
                p.mkdir(exist_ok=True)
                con.execute(f"COPY ({q}) TO {sql_str(p / 'empty.parquet')} (FORMAT parquet)")
            manifest["tables"][t.name] = {"rows": n, "path": f"{t.name}/", "partitioned": True}
        else:
            p = out / f"{t.name}.parquet"
            con.execute(f"COPY (SELECT * FROM {t.name}) TO {sql_str(p)} (FORMAT parquet)")
            manifest["tables"][t.name] = {"rows": n, "path": p.name, "partitioned": False}
        written.append(p)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return written + [out / "manifest.json"]
