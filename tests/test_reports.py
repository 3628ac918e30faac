"""Reports: the HTML report, explain, exports and read-only SQL, on a store audited
from sample_histories/ (and on a hand whose names are HTML)."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_FILES, SAMPLE_HANDS, SAMPLES, TDA_TEXTS, needs_tda

from auditor import __version__
from auditor.cli import main
from auditor.pipeline import audit
from reports import html as report_html
from reports.data import FINDING_COLS, VIEWS

EVIL = "<img src=x onerror=alert(1)>"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def make_evil_history(folder: Path) -> Path:
    """The underraise sample hand (900000000201) with its raiser and table named ``EVIL``,
    in a file named ``EVIL.txt``: one illegal-underraise finding full of markup."""
    text = (SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt").read_text(encoding="utf-8-sig")
    hand = text.split("\n\n\n")[0].strip("\n")
    assert "Maëlle R: raises 200 to 600" in hand
    hand = hand.replace("900000000201", "900000099201").replace("Maëlle R", EVIL).replace("'3120046002 21'", f"'{EVIL}'")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{EVIL}.txt"
    path.write_text(hand + "\n\n\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("reports") / "audit.duckdb")
    result = audit([str(SAMPLES)], db=db)
    assert result.findings, "the samples have deliberate violations"
    return db, result


@pytest.fixture(scope="module")
def evil_store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("evil")
    db = str(tmp / "evil.duckdb")
    result = audit([str(make_evil_history(tmp / "histories"))], db=db)
    assert [f["player"] for f in result.findings] == [EVIL]
    return db, result


@pytest.fixture(scope="module")
def report(store, tmp_path_factory):
    db, _ = store
    out = tmp_path_factory.mktemp("html") / "audit.html"
    r = run("report", "--db", db, "--out", out)
    assert r.exit_code == 0, r.output
    return out.read_text(encoding="utf-8")


def number(page: str, element_id: str) -> str:
    m = re.search(rf'id="{element_id}">([^<]*)<', page)
    assert m, element_id
    return m[1]


def embedded_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    return json.loads(m[1])


# --- the HTML report -------------------------------------------------------------------


def test_report_summary_numbers_equal_the_findings_table(report, store):
    _, result = store
    n = len(result.findings)
    rows = re.findall(r'<tr id="row-(\d+)"', report)
    assert len(rows) == n
    assert int(number(report, "sum-findings")) == n == int(number(report, "by-check-total"))
    assert int(number(report, "total-count")) == n
    by_check = {}
    for f in result.findings:
        by_check[f["check_id"]] = by_check.get(f["check_id"], 0) + 1
    for check_id, count in by_check.items():
        m = re.search(rf'<tr data-check="{re.escape(check_id)}">.*?<td class="num">(\d+)</td></tr>', report)
        assert m and int(m[1]) == count, check_id
    assert int(number(report, "sum-errors")) == sum(f["severity"] == "error" for f in result.findings)
    assert int(number(report, "sum-hands")) == result.replay.hands == SAMPLE_HANDS
    assert number(report, "sum-rejected") == "0"
    assert number(report, "sum-pots-verified").endswith("%")


def test_report_provenance(report, store):
    db, _ = store
    assert number(report, "tool-version") == __version__
    assert number(report, "edition") == "tda-2024"  # the default edition
    assert str(Path(db).resolve()) in report
    con = duckdb.connect(db, read_only=True)
    sources = con.execute("SELECT path, sha256, (SELECT count(*) FROM hands h WHERE h.source_id = s.source_id) FROM sources s").fetchall()
    con.close()
    assert len(sources) == SAMPLE_FILES
    for path, sha, hands in sources:
        row = re.search(rf"<tr><td class=\"mono\">[^<]*{re.escape(Path(path).name)}</td><td>\w+</td><td class=\"mono\">{sha}</td>"
                        rf"<td class=\"num\">(\d+)</td>", report)
        assert row and int(row[1]) == hands, path
    assert f"(under <code>{SAMPLES}</code>)" in report  # the files' common folder, then each file under it
    assert "not-a-history" in report  # the README the audit was given is listed as not read


def test_report_is_self_contained(report):
    assert not re.search(r'(src|href)="(https?:)?//', report)
    assert "<style>" in report and "<svg" in report and "<script>" in report
    for chart in ("check", "table", "tournament", "level", "hour"):
        assert f'id="chart-{chart}"' in report


def test_report_evidence_data(report, store):
    _, result = store
    data = embedded_data(report)
    assert [f["finding_id"] for f in data["findings"]] == [f["finding_id"] for f in result.findings]
    assert set(data["hands"]) == {f["hand_id"] for f in result.findings}
    f = next(f for f in data["findings"] if f["check_id"] == "illegal-underraise" and f["hand_id"] == "PS-900000000201")
    hand = data["hands"][f["hand_id"]]
    cols = data["cols"]
    row = next(r for r in hand["timeline"] if r[cols.index("seq")] == f["seq"])
    assert row[cols.index("action_class")] == "underraise"
    assert row[cols.index("min_raise_to")] == 800 and row[cols.index("to_call")] == 400
    assert row[cols.index("betting_open")] is True
    cites = data["rules"]["illegal-underraise"]["citations"]
    assert cites[0]["ref"] == "43-A" and cites[0]["title"] == "Raise Amounts"
    if TDA_TEXTS.is_dir():
        assert cites[0]["text"].startswith("A: A raise must be at least equal to the largest prior full bet or raise")


def test_report_escapes_names(evil_store, tmp_path):
    db, _ = evil_store
    out = tmp_path / "evil.html"
    assert run("report", "--db", db, "--out", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert EVIL not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    data = embedded_data(page)  # the JSON still holds the name exactly
    assert data["findings"][0]["player"] == EVIL and data["findings"][0]["table_name"] == EVIL


def test_report_edition_without_facts_is_empty_not_an_error(store, tmp_path):
    db, _ = store
    r = run("report", "--db", db, "--rules", "tda-2011", "--out", tmp_path / "r.html")
    assert r.exit_code == 0, r.output
    assert number((tmp_path / "r.html").read_text(encoding="utf-8"), "sum-findings") == "0"


def test_report_missing_store(tmp_path):
    r = run("report", "--db", tmp_path / "none.duckdb", "--out", tmp_path / "r.html")
    assert r.exit_code == 2 and "no store" in r.output


def test_bar_chart_escapes_labels():
    svg = report_html.bar_chart("t", [(EVIL, 3)], "c")
    assert EVIL not in svg and "&lt;img" in svg


# --- explain ---------------------------------------------------------------------------


def test_explain_text_shows_timeline_and_offending_action(store):
    db, _ = store
    r = run("explain", "PS-900000000201", "--db", db)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "illegal-underraise" in out and "rule required: at least 800" in out and "what happened: 600" in out
    marked = [line for line in out.splitlines() if line.lstrip().startswith(">>")]
    assert len(marked) == 1 and "raise to 600" in marked[0] and "underraise" in marked[0]
    assert "Rule 43-A: Raise Amounts" in out


@needs_tda
def test_explain_quotes_the_rule_from_the_edition(store):
    db, _ = store
    out = run("explain", "900000000203", "--db", db).output  # by hand number
    assert "Rule 47-A: Re-Opening the Bet." in out
    assert "will not reopen betting for players who have already acted" in " ".join(out.replace("|", " ").split())
    assert "(catalog quote)" not in out


def test_explain_formats(store, tmp_path):
    db, _ = store
    ev = json.loads(run("explain", "PS-900000000205", "--db", db, "--format", "json").output)
    assert ev["hand_id"] == "PS-900000000205" and [f["check_id"] for f in ev["findings"]] == ["odd-chip"]
    assert ev["timeline"] and {"stack_before", "pot_before", "to_call", "min_raise_to", "betting_open"} <= set(ev["timeline"][0])
    md = run("explain", "PS-900000000205", "--db", db, "--format", "md").output
    assert md.startswith("# Hand PS-900000000205") and "| line |" in md.replace("| ! |", "|")
    r = run("explain", "PS-900000000205", "--db", db, "--format", "html", "--out", tmp_path / "h.html")
    assert r.exit_code == 0
    page = (tmp_path / "h.html").read_text(encoding="utf-8")
    # the hand's dossier (tests/test_dossier.py): the hand first, its one finding, the odd chip at the showdown
    assert re.search(r'<h1 id="hand-line">PS-900000000205 ', page)
    d = json.loads(re.search(r'<script type="application/json" id="dossier-data">(.*?)</script>', page, re.S)[1])
    findings, shares = ([dict(zip(d[k]["cols"], r)) for r in d[k]["rows"]] for k in ("findings", "shares"))
    assert d["hand"]["hand_id"] == "PS-900000000205" and [f["check_id"] for f in findings] == ["odd-chip"]
    assert [s["odd_chips"] for s in shares if s["odd_chips"]] == [1]


def test_explain_clean_hand_and_unknown_hand(store):
    db, result = store
    clean = sorted({"PS-900000000202", "PS-900000000204", "PS-900000000101"} - {f["hand_id"] for f in result.findings})[0]
    r = run("explain", clean, "--db", db)
    assert r.exit_code == 0 and "No findings under tda-2024" in r.output
    r = run("explain", "PS-1", "--db", db)
    assert r.exit_code == 2 and "no hand" in r.output


# --- exports ---------------------------------------------------------------------------


def findings_rows(db):
    con = duckdb.connect(db, read_only=True)
    rows = con.execute(f"SELECT {', '.join(FINDING_COLS)} FROM findings WHERE edition = 'tda-2024' ORDER BY finding_id").fetchall()
    con.close()
    return rows


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_export_round_trips_through_duckdb(store, tmp_path, fmt):
    db, _ = store
    out = tmp_path / f"findings.{fmt}"
    r = run("export", "--db", db, "--format", fmt, "--out", out)
    assert r.exit_code == 0, r.output
    reader = {"parquet": "read_parquet", "csv": "read_csv", "json": "read_json"}[fmt]
    got = duckdb.sql(f"SELECT {', '.join(FINDING_COLS)} FROM {reader}('{out}') ORDER BY finding_id").fetchall()
    want = findings_rows(db)
    if fmt != "parquet":  # text formats: compare as text
        got = [tuple(None if v is None else str(v) for v in r) for r in got]
        want = [tuple(None if v is None else str(v) for v in r) for r in want]
    assert got == want and len(got) == len(store[1].findings)


def test_export_csv_to_stdout(store):
    db, result = store
    r = run("export", "--db", db, "--format", "csv")
    rows = list(csv.DictReader(r.output.splitlines()))
    assert len(rows) == len(result.findings) and rows[0]["check_id"]


def test_export_xlsx_and_markdown(store, tmp_path):
    from openpyxl import load_workbook

    db, result = store
    assert run("export", "--db", db, "--format", "xlsx", "--out", tmp_path / "f.xlsx").exit_code == 0
    ws = load_workbook(tmp_path / "f.xlsx", read_only=True)["findings"]
    rows = list(ws.iter_rows(values_only=True))
    assert rows[0][:3] == ("finding_id", "check_id", "severity") and len(rows) == len(result.findings) + 1
    assert sorted(r[0] for r in rows[1:]) == sorted(f["finding_id"] for f in result.findings)
    assert run("export", "--db", db, "--format", "xlsx", "--what", "facts", "--out", tmp_path / "facts.xlsx").exit_code == 0
    assert set(load_workbook(tmp_path / "facts.xlsx", read_only=True).sheetnames) == {"decisions", "pots", "pot_shares", "hand_results", "replay_notes"}
    md = run("export", "--db", db, "--format", "md", "--what", "hands").output
    assert md.startswith("| hand_id |") and sum(line.startswith("| ") for line in md.splitlines()[2:]) == SAMPLE_HANDS


def test_export_facts_and_hands(store, tmp_path):
    db, _ = store
    assert run("export", "--db", db, "--format", "parquet", "--what", "facts", "--out", tmp_path / "facts").exit_code == 0
    con = duckdb.connect(db, read_only=True)
    for t in ("decisions", "pots", "pot_shares", "hand_results"):
        (n,) = con.execute(f"SELECT count(*) FROM {t} WHERE edition = 'tda-2024'").fetchone()
        assert duckdb.sql(f"SELECT count(*) FROM '{tmp_path / 'facts' / (t + '.parquet')}'").fetchall() == [(n,)] and n > 0
    con.close()
    assert run("export", "--db", db, "--format", "json", "--what", "hands", "--out", tmp_path / "h.json").exit_code == 0
    hands = json.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    assert len(hands) == SAMPLE_HANDS and sum(h["findings"] for h in hands) == len(findings_rows(db))


def test_export_store_partitioned_by_tournament(store, tmp_path):
    db, _ = store
    out = tmp_path / "store"
    r = run("export", "--db", db, "--format", "parquet", "--what", "store", "--out", out)
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    con = duckdb.connect(db, read_only=True)
    for table, info in manifest["tables"].items():
        (n,) = con.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert info["rows"] == n, table
    con.close()
    events = duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}/events/*/*.parquet', hive_partitioning=true)").fetchall()
    assert events == [(manifest["tables"]["events"]["rows"],)]
    parts = {p.name for p in (out / "events").iterdir()}
    assert "tournament=3120046002" in parts and "tournament=none" in parts  # cash and PHH hands
    tour = duckdb.sql(f"SELECT DISTINCT tournament_id FROM read_parquet('{out}/hands/tournament=3120046002/*.parquet')").fetchall()
    assert tour == [("3120046002",)]
    # a second export into the same folder is refused rather than mixing files
    assert run("export", "--db", db, "--format", "parquet", "--what", "store", "--out", out).exit_code == 2


def test_export_usage_errors(store, tmp_path):
    db, _ = store
    r = run("export", "--db", db, "--format", "csv", "--what", "store", "--out", tmp_path / "x")
    assert r.exit_code == 2 and "Parquet only" in r.output
    r = run("export", "--db", db, "--format", "parquet")
    assert r.exit_code == 2 and "--out" in r.output


# --- query -----------------------------------------------------------------------------


def test_query_views(store):
    db, result = store
    out = json.loads(run("query", "SELECT check_id, findings FROM findings_by_check", "--db", db, "--format", "json").output)
    assert sum(r["findings"] for r in out) == len(result.findings)
    out = json.loads(run("query", "SELECT hand_id, street, player, to_call, min_raise_to, betting_open FROM actions "
                         "WHERE action_class = 'underraise' ORDER BY hand_id", "--db", db, "--format", "json").output)
    # one underraise sample a site (sample_histories/README.md)
    assert [tuple(r.values()) for r in out] == [
        ("BOV-900000005001", "flop", "Big Blind [ME]", 400, 800, True),
        ("FT-900000004001", "flop", "Cleo", 200, 400, True),  # cents: bets $2, 'raises to $3' (minimum $4)
        ("GG-TM900000001001", "flop", "Hero", 800, 1600, True),
        ("IP-900000000001", "flop", "Cleo", 40, 80, True),
        ("PP-900000001001", "preflop", "Rosa Negra", 60, 100, True),
        ("PS-900000000201", "flop", "Maëlle R", 400, 800, True),
        ("PS-900000034101", "flop", "Cleo", 500, 1000, True),  # a capped table's: minimum to $10, cap $10
        ("WMX-900000001001-1-1709316000", "flop", "Dédé", 100, 200, True),
        ("WPN-900000003001", "flop", "Cleo", 400, 800, True)]
    hs = json.loads(run("query", "SELECT count(*) n, sum(findings) f FROM hand_summary", "--db", db, "--format", "json").output)
    assert hs == [{"n": SAMPLE_HANDS, "f": len(result.findings)}]
    for view in VIEWS:
        r = run("query", f"SELECT * FROM {view} LIMIT 1", "--db", db)
        assert r.exit_code == 0, (view, r.output)
    table = run("query", "SELECT 1 AS one", "--db", db).output
    assert table.splitlines()[0] == "one" and "(1 row)" in table
    assert run("query", "SELECT 1 AS one", "--db", db, "--format", "csv").output == "one\n1\n"
    assert "actions" in run("query", "--views").output


@pytest.mark.parametrize("sql", [
    "INSERT INTO meta VALUES ('x', 'y')",
    "DELETE FROM findings",
    "DROP TABLE hands",
    "UPDATE hands SET level = 'X'",
    "CREATE TABLE t AS SELECT 1",
    "COPY hands TO '{out}'",
    "ATTACH ':memory:' AS other",
    "SELECT 1; DELETE FROM hands",
    # EXPLAIN ANALYZE runs what it explains
    "EXPLAIN ANALYZE COPY (SELECT 42) TO '{out}'",
    "explain analyse CREATE TEMP TABLE t AS SELECT 1",
])
def test_query_rejects_writes(store, sql, tmp_path):
    db, _ = store
    out = tmp_path / "should-not-exist.csv"
    sql = sql.format(out=out)
    con = duckdb.connect(db, read_only=True)
    before = con.execute("SELECT (SELECT count(*) FROM hands), (SELECT count(*) FROM findings)").fetchone()
    con.close()
    r = run("query", sql, "--db", db)
    assert r.exit_code == 2 and "read-only" in r.output
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT (SELECT count(*) FROM hands), (SELECT count(*) FROM findings)").fetchone() == before
    con.close()
    assert not out.exists()


def test_query_explains_and_explain_analyzes_a_select(store):
    db, _ = store
    for sql in ("EXPLAIN SELECT count(*) FROM hands", "EXPLAIN ANALYZE SELECT count(*) FROM hands"):
        r = run("query", sql, "--db", db)
        assert r.exit_code == 0 and "plan" in r.output, (sql, r.output)


def test_query_bad_sql(store):
    db, _ = store
    r = run("query", "SELEC 1", "--db", db)
    assert r.exit_code == 2 and "query failed" in r.output


@pytest.mark.parametrize("cmd", ["report", "explain", "export", "query"])
def test_help_has_examples(cmd):
    r = run(cmd, "--help")
    assert r.exit_code == 0 and "Examples:" in r.output and f"tda-audit {cmd}" in r.output


def test_an_output_path_that_cannot_be_written_is_one_clear_error(store, tmp_path):
    """A file where a folder is needed, or a folder where a file is: exit 2, one line
    naming the path and why; no traceback, nothing half written."""
    db, _ = store
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    cases = [
        (["export", "--format", "parquet", "--what", "store", "--out", a_file], a_file),
        (["export", "--format", "csv", "--out", tmp_path], tmp_path),
        (["export", "--format", "csv", "--out", a_file / "x.csv"], a_file / "x.csv"),
        (["export", "--format", "xlsx", "--out", a_file / "x.xlsx"], a_file / "x.xlsx"),
        (["report", "-o", a_file / "r.html"], a_file / "r.html"),
        (["explain", "PS-900000000201", "--out", a_file / "x.txt"], a_file / "x.txt"),
    ]
    for args, path in cases:
        r = subprocess.run([sys.executable, "-m", "auditor.cli", *map(str, args), "--db", db],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith(f"Error: cannot write {path}: ") and r.stderr.count("\n") == 1, (args, r.stderr)
    assert a_file.read_text(encoding="utf-8") == "x"


def test_query_returns_timestamps_with_a_time_zone(store):
    """DuckDB hands TIMESTAMPTZ values to Python through pytz (a dependency for it)."""
    db, _ = store
    r = run("query", "SELECT TIMESTAMPTZ '2026-11-22 10:00:00+00' AS t, count(*) AS hands FROM hands", "--db", db, "--format", "json")
    assert r.exit_code == 0, r.output
    [row] = json.loads(r.output)
    assert row["t"].startswith("2026-11-22") and row["hands"] > 0


def test_a_hand_rejected_then_stored_from_a_corrected_file_counts_as_stored(tmp_path):
    import re as _re

    from reports.html import build

    good = (SAMPLES / "pokerstars" / "lhe-mtt.txt").read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(_re.sub(r"raises (\d+) to", "raises 1x0 to", good, count=1), encoding="utf-8")
    fixed = tmp_path / "fixed.txt"
    fixed.write_text(good, encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    assert audit([str(bad)], db=db).ingest.rejected == 1
    html, _ = build(db)
    assert _re.search(r'id="sum-rejected">1<', html) and f"{bad}:" in html  # the example names file and line
    audit([str(fixed)], db=db)
    html, _ = build(db)
    assert _re.search(r'id="sum-rejected">0<', html)
    assert 'id="rejected-then-stored">1 hands rejected' in html
