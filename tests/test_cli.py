"""The command line end to end, on the sample histories and on bad input."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import duckdb
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_HANDS, SAMPLES

from auditor.cli import main

# the deliberate violations of sample_histories/README.md: hand -> check id
SAMPLE_VIOLATIONS = {
    "PS-900000000201": "illegal-underraise",
    "PS-900000000203": "illegal-reopen",
    "PS-900000000205": "odd-chip",
    "PS-900000000207": "side-pot",
    "PS-900000000209": "wrong-winner",
    "PS-900000000211": "uncalled-bet",
    "PS-900000000213": "undercall",
    "PS-900000000215": "out-of-turn",
    "PS-900000000217": "check-facing-bet",
    "PS-900000000302": "pot-limit-overbet",
    "PS-900000000502": "limit-raise-cap",
    "GG-TM900000001001": "illegal-underraise",
    "IP-900000000001": "illegal-underraise",
    "PP-900000001001": "illegal-underraise",
    "888-900000001101": "wrong-winner",
    "WMX-900000001001-1-1709316000": "illegal-underraise",
    "WPN-900000003001": "illegal-underraise",
    "FT-900000004001": "illegal-underraise",
    "BOV-900000005001": "illegal-underraise",
}


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("cli") / "audit.duckdb")
    r = run("audit", str(SAMPLES), "--db", db, "--json")
    assert r.exit_code == 0, r.output
    return db, json.loads(r.output)


def test_audit_json_finds_each_sample_violation_once(audited):
    _, out = audited
    assert out["hands"] == out["hands_seen"] == SAMPLE_HANDS and out["rejected"] == 0
    found = {(f["hand"], f["check"]) for f in out["findings"]}
    assert found == set(SAMPLE_VIOLATIONS.items())
    for f in out["findings"]:
        for key in ("check", "category", "hand", "seat", "player", "street", "rule", "edition", "expected", "actual", "message", "source", "line"):
            assert key in f
        assert f["edition"] == "tda-2024" and f["rule"] and f["message"].endswith(".")  # the default edition
        assert f["category"] == "violation", f  # the samples are violations, under any house profile
        # the source line exists and names the player or is the hand's summary
        lines = open(f["source"], encoding="utf-8").read().splitlines()
        assert 1 <= f["line"] <= len(lines)


def test_findings_point_at_the_offending_line(audited):
    _, out = audited
    underraises = [f for f in out["findings"] if f["check"] == "illegal-underraise"]
    assert len(underraises) == sum(c == "illegal-underraise" for c in SAMPLE_VIOLATIONS.values())
    for underraise in underraises:
        line = open(underraise["source"], encoding="utf-8").read().splitlines()[underraise["line"] - 1]
        if underraise["hand"].startswith("IP-"):  # the raise's action element
            assert line.strip().startswith('<action no="8" player="' + underraise["player"] + '" type="23"')
        else:  # the raiser's own line, in the site's words
            assert line.startswith(underraise["player"]) and "raises" in line.lower(), line  # Bovada: 'Raises'


def test_fail_on_sets_exit_status(audited, tmp_path):
    db, _ = audited
    assert run("audit", str(SAMPLES), "--db", db, "--fail-on", "error").exit_code == 1
    clean = tmp_path / "clean.txt"
    text = (SAMPLES / "pokerstars" / "badugi-mtt.txt").read_text(encoding="utf-8")
    clean.write_text(text, encoding="utf-8")
    assert run("audit", str(clean), "--db", str(tmp_path / "c.duckdb"), "--fail-on", "info").exit_code == 0


def test_a_query_over_the_memory_bound_is_an_error_with_its_remedy(audited, tmp_path):
    db, _ = audited
    copy = tmp_path / "copy.duckdb"  # the module's store stays as it is
    shutil.copy(db, copy)
    shutil.copytree(db + ".segments", str(copy) + ".segments")
    def stored_findings():
        with duckdb.connect(str(copy), read_only=True) as con:
            return con.execute("SELECT count(*) FROM findings").fetchone()[0]

    before = stored_findings()
    # a process of its own, as a user runs it (in this one the failed command's connection lingers)
    r = subprocess.run([sys.executable, "-m", "auditor.cli", "check", "--db", str(copy)], capture_output=True,
                       text=True, env={**os.environ, "TDA_AUDIT_MEMORY": "2MB"})
    assert r.returncode == 2, r.stderr
    assert "more memory than its bound of 2MB" in r.stderr and "TDA_AUDIT_MEMORY=2GB" in r.stderr
    assert "Traceback" not in r.stderr
    # the checks that were done stay, and the store still answers under the usual bound
    assert run("findings", "--db", str(copy)).exit_code == 0
    assert 0 < stored_findings() <= before


def test_findings_filters_and_formats(audited):
    db, _ = audited
    r = run("findings", "--db", db, "--check", "odd-chip", "--format", "json")
    rows = json.loads(r.output)
    assert [x["hand"] for x in rows] == ["PS-900000000205"]
    r = run("findings", "--db", db, "--severity", "error", "--format", "csv")
    header, *body = r.output.strip().splitlines()
    assert header.startswith("id,check,severity") and body
    assert all(",error," in line for line in body)
    r = run("findings", "--db", db, "--hand", "PS-900000000203")
    assert "illegal-reopen" in r.output and "47-A" in r.output


def test_rules_lists_every_check_with_citations():
    r = run("rules", "--json")
    rows = json.loads(r.output)["checks"]
    ids = {x["check"] for x in rows}
    assert set(SAMPLE_VIOLATIONS.values()) <= ids
    r2011 = {x["check"]: x for x in json.loads(run("rules", "--rules", "tda-2011", "--json").output)["checks"]}
    assert r2011["check-facing-bet"]["runs"] is False
    assert r2011["odd-chip"]["citations"][0]["rule"] == "17"


def test_replay_and_check_are_idempotent(audited):
    db, _ = audited
    con = duckdb.connect(db, read_only=True)
    before = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in ("decisions", "pots", "pot_shares", "hand_results", "findings")}
    con.close()
    assert run("replay", "--db", db).exit_code == 0
    assert run("check", "--db", db).exit_code == 0
    con = duckdb.connect(db, read_only=True)
    after = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in before}
    con.close()
    assert after == before


def test_ingest_twice_adds_no_rows(tmp_path):
    db = str(tmp_path / "a.duckdb")
    first = json.loads(run("ingest", str(SAMPLES), "--db", db, "--json").output)
    second = json.loads(run("ingest", str(SAMPLES), "--db", db, "--json").output)
    assert first["hands"] == SAMPLE_HANDS and second["hands"] == 0 and second["duplicates"] == SAMPLE_HANDS
    for out in (first, second):
        assert out["hands_seen"] == out["hands"] + out["duplicates"] + out["rejected"]


def test_bad_input_is_reported_and_good_hands_still_go_in(tmp_path):
    good = (SAMPLES / "pokerstars" / "lhe-mtt.txt").read_text(encoding="utf-8")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_text(good, encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "random.bin").write_bytes(os.urandom(4096))
    # the second hand cut off after its header: no hand to store (a hand cut later is stored, marked as cut)
    cut = good[: good.index("\n", good.index("PokerStars Hand #", 10))]
    (folder / "truncated.txt").write_text(good.split("\n\n\n")[0] + "\n\n\n" + cut.split("\n\n\n")[-1], encoding="utf-8")
    db = str(tmp_path / "b.duckdb")
    r = run("ingest", str(folder), "--db", db, "--json")
    out = json.loads(r.output)
    assert r.exit_code == 0
    assert out["hands_seen"] == out["hands"] + out["duplicates"] + out["rejected"]
    reasons = {e["reason_code"] for e in out["errors"]}
    assert {"empty-file", "not-a-history", "truncated"} <= reasons
    trunc = next(e for e in out["errors"] if e["reason_code"] == "truncated")
    assert trunc["file"].endswith("truncated.txt") and trunc["line"] > 1
    con = duckdb.connect(db, read_only=True)
    (stored,) = con.execute("SELECT count(*) FROM hands").fetchone()
    (errors,) = con.execute("SELECT count(*) FROM ingest_errors").fetchone()
    assert stored == good.count("PokerStars Hand #") and errors == 3


def test_usage_errors_exit_2(tmp_path):
    assert run("audit", str(tmp_path / "missing"), "--db", str(tmp_path / "x.duckdb")).exit_code == 2
    assert run("audit", str(SAMPLES), "--rules", "tda-1999").exit_code == 2
    r = run("findings", "--db", str(tmp_path / "none.duckdb"))
    assert r.exit_code == 2 and "no store" in r.output


@pytest.fixture
def one_hand_store(tmp_path):
    """A real store (one sample hand, audited): a usage error on it comes from the
    command's own validation, not from a missing store."""
    db = str(tmp_path / "one.duckdb")
    shutil.copy(SAMPLES / "pokerstars" / "razz-mtt.txt", tmp_path / "razz.txt")
    assert run("audit", str(tmp_path / "razz.txt"), "--db", db).exit_code == 0
    return db


def test_check_with_an_unknown_check_id_is_a_usage_error(one_hand_store):
    db = one_hand_store
    assert run("check", "--db", db, "--check", "odd-chip").exit_code == 0  # the store is fine for a known id
    r = run("check", "--db", db, "--check", "no-such-check")
    assert r.exit_code == 2 and "unknown check no-such-check" in r.output, r.output


def test_findings_with_an_unknown_check_id_is_a_usage_error(one_hand_store):
    db = one_hand_store
    assert run("findings", "--db", db, "--check", "odd-chip").exit_code == 0  # a known id that has no finding
    r = run("findings", "--db", db, "--check", "no-such-check")
    assert r.exit_code == 2 and "no-such-check" in r.output, r.output


def test_db_from_environment(tmp_path):
    db = tmp_path / "env.duckdb"
    src = tmp_path / "h.txt"
    shutil.copy(SAMPLES / "pokerstars" / "razz-mtt.txt", src)
    r = run("ingest", str(src), "--json", env={"TDA_AUDIT_DB": str(db)})
    assert r.exit_code == 0 and db.exists()


def test_amount_beyond_64_bits_is_a_rejected_hand_not_a_crash(tmp_path):
    # found by fuzzing: an amount no BIGINT holds must not abort the batch
    folder = tmp_path / "phh"
    folder.mkdir()
    good = (SAMPLES / "phh" / "stud-mtt.phh").read_text(encoding="utf-8")
    bad = (SAMPLES / "phh" / "nlhe-mtt-final-table.phh").read_text(encoding="utf-8")
    bad = re.sub(r"(?m)^(starting_stacks = \[)\d+", r"\g<1>99999999999999999999", bad, count=1)
    assert "99999999999999999999" in bad
    (folder / "a-bad.phh").write_text(bad, encoding="utf-8")
    (folder / "b-good.phh").write_text(good, encoding="utf-8")
    out = json.loads(run("ingest", str(folder), "--db", str(tmp_path / "x.duckdb"), "--json").output)
    assert (out["hands"], out["rejected"]) == (1, 1)
    [e] = out["errors"]
    assert e["file"].endswith("a-bad.phh") and e["reason_code"] == "amount-out-of-range" and e["line"] >= 1


@pytest.mark.parametrize("command", ["check", "replay"])
def test_a_mistyped_store_is_an_error_not_a_new_empty_store(tmp_path, command):
    db = tmp_path / "tyop.duckdb"
    r = run(command, "--db", str(db))
    assert r.exit_code == 2
    assert f"no store at {db}" in r.output
    assert not db.exists()


def test_audit_of_nothing_that_is_a_history_exits_2_as_ingest_does(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# my poker notes\n", encoding="utf-8")
    for command in ("ingest", "audit"):
        r = run(command, str(notes), "--db", str(tmp_path / f"{command}.duckdb"))
        assert r.exit_code == 2, (command, r.output)
        assert "not a hand history" in r.output


def test_replay_clears_the_findings_its_facts_replace_until_check_runs(tmp_path):
    """Findings judge the facts they were found in: after a replay (say under another
    raise cap) the edition's old findings are gone until check runs again."""
    db = str(tmp_path / "a.duckdb")
    assert run("audit", str(SAMPLES), "--db", db, "-q").exit_code == 0

    def findings():
        con = duckdb.connect(db, read_only=True)
        try:
            return con.execute("SELECT check_id, hand_id, seq, seat FROM findings ORDER BY ALL").fetchall()
        finally:
            con.close()

    before = findings()
    assert before
    assert run("replay", "--db", db, "--raise-cap", "3").exit_code == 0
    assert findings() == []
    assert run("check", "--db", db).exit_code == 0
    assert findings() != before  # the samples' fixed-limit hand: its fourth raise is over a cap of 3
    assert run("replay", "--db", db).exit_code == 0 and run("check", "--db", db).exit_code == 0
    assert findings() == before
    r = run("replay", "--db", db, "--raise-cap", "0")
    assert r.exit_code == 2 and "--raise-cap" in r.output


def test_findings_warn_when_the_last_check_run_did_not_finish(tmp_path, monkeypatch):
    """Each check replaces its findings on its own: a run cut short leaves some old
    ones beside new ones, and findings says so until check runs through."""
    import auditor.checks as checks
    from auditor.store import connect

    db = str(tmp_path / "a.duckdb")
    assert run("audit", str(SAMPLES), "--db", db, "-q").exit_code == 0
    assert "did not finish" not in run("findings", "--db", db).stderr
    real = checks._run_one
    calls = []

    def cut_short(con, c, *args):
        calls.append(c.check_id)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(con, c, *args)

    monkeypatch.setattr(checks, "_run_one", cut_short)
    con = connect(db)
    with pytest.raises(KeyboardInterrupt):
        checks.run_checks(con, "tda-2024")  # the edition the default audit used
    con.close()
    monkeypatch.setattr(checks, "_run_one", real)
    r = run("findings", "--db", db)
    assert r.exit_code == 0 and "did not finish" in r.stderr
    assert run("check", "--db", db).exit_code == 0
    assert "did not finish" not in run("findings", "--db", db).stderr


def test_rules_lists_every_check_with_its_2024_citation():
    from auditor.checks import load_checks

    text = run("rules", "--rules", "tda-2024")
    assert text.exit_code == 0 and text.output.startswith("rules of tda-2024 (tda-2024-longform.txt):")
    assert run("rules").output == text.output  # the default edition
    out = {x["check"]: x for x in json.loads(run("rules", "--rules", "tda-2024", "--json").output)["checks"]}
    assert set(out) == {c.check_id for c in load_checks()}
    assert all(x["runs"] and x["edition"] == "tda-2024" and x["citations"][0]["quote"] for x in out.values())
    # numbers and titles that moved since 2019
    assert [(c["rule"], c["title"]) for c in out["heads-up-button"]["citations"]] == [("34-B", "Button Placement and Movement")]
    assert [c["rule"] for c in out["dead-button"]["citations"]] == ["32", "34-A", "33"]
    assert "big-blind-first calculation" in out["blind-level"]["citations"][1]["quote"]
