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
    "FT-900000004101": "bring-in",
    "FT-900000004201": "wrong-winner",
    "FT-900000004301": "wrong-winner",
    "PP-900000006001": "wrong-winner",
    "BOV-900000005001": "illegal-underraise",
    "PS-900000034101": "illegal-underraise",  # at a capped table
    "PS-900000034201": "wrong-winner",  # a cash-out hand: the pot paid to the loser who cashed out
    "GG-HD900000034301": "wrong-winner",  # an EV Cashout hand: the pot paid to the loser who took it
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
    assert [c["rule"] for c in out["dead-button"]["citations"]] == ["32", "34-A"]
    assert "big-blind-first calculation" in out["blind-level"]["citations"][1]["quote"]


def test_readers_say_when_the_findings_do_not_judge_every_hand(tmp_path):
    """A store never audited under an edition, or with hands stored after its audit,
    must not read as a clean audit: findings, explain, export, query and report say so
    (the report in the file a regulator files), until replay and check cover it."""
    db = str(tmp_path / "a.duckdb")
    first, second = SAMPLES / "pokerstars" / "lhe-mtt.txt", SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt"
    assert run("audit", str(first), "--db", db, "-q").exit_code == 0
    assert "warning" not in run("findings", "--db", db).stderr
    assert run("ingest", str(second), "--db", db).exit_code == 0
    # PS-900000000201, the sample's underraise, is stored but not yet judged
    for args in (("findings", "--db", db), ("explain", "PS-900000000201", "--db", db),
                 ("export", "--format", "csv", "--db", db), ("query", "SELECT 1", "--db", db)):
        r = run(*args)
        assert r.exit_code == 0 and "hands were stored after the last audit under tda-2024" in r.stderr, (args, r.stderr)
    html = tmp_path / "r.html"
    assert run("report", "--db", db, "-o", str(html), "-q").exit_code == 0
    page = html.read_text(encoding="utf-8")
    assert 'id="incomplete"' in page and "hands were stored after the last audit" in page
    # the cards say how many hands were stored and how many judged: not all of them
    stored = int(re.search(r'id="sum-hands">(\d+)<', page)[1])
    judged = int(re.search(r'id="sum-hands-replayed">(\d+)<', page)[1])
    assert judged < stored
    # an edition the store was never audited under
    r = run("findings", "--db", db, "--rules", "tda-2011")
    assert "never audited under tda-2011" in r.stderr
    # replay then check: covered again, and the underraise is found
    assert run("replay", "--db", db).exit_code == 0
    r = run("findings", "--db", db)
    assert "checks have not all run under tda-2024 since its replay" in r.stderr
    assert run("check", "--db", db).exit_code == 0
    r = run("findings", "--db", db, "--hand", "PS-900000000201", "--format", "json")
    assert "warning" not in r.stderr and [f["check"] for f in json.loads(r.stdout)] == ["illegal-underraise"]
    assert 'id="incomplete"' not in (run("report", "--db", db, "-o", "-", "-q").stdout)


def test_a_run_of_one_check_after_a_replay_does_not_complete_the_findings(tmp_path):
    db = str(tmp_path / "a.duckdb")
    assert run("audit", str(SAMPLES), "--db", db, "-q").exit_code == 0
    assert run("replay", "--db", db).exit_code == 0
    assert run("check", "--db", db, "--check", "undercall").exit_code == 0
    assert "checks have not all run under tda-2024" in run("findings", "--db", db).stderr
    assert run("check", "--db", db).exit_code == 0
    assert "warning" not in run("findings", "--db", db).stderr


def test_findings_filters_that_name_nothing_are_usage_errors(audited):
    db, _ = audited
    r = run("findings", "--db", db, "--check", "side-pots")
    assert r.exit_code == 2 and "unknown check side-pots" in r.output
    r = run("findings", "--db", db, "--tournament", "no-such-tournament")
    assert r.exit_code == 2 and "no tournament 'no-such-tournament'" in r.output
    # --hand reads a HAND as explain does: the site's number names the hand
    by_number = run("findings", "--db", db, "--hand", "900000000201", "--format", "json")
    by_id = run("findings", "--db", db, "--hand", "PS-900000000201", "--format", "json")
    assert by_number.exit_code == 0 and json.loads(by_number.stdout) == json.loads(by_id.stdout) != []
    r = run("findings", "--db", db, "--hand", "no-such-hand")
    assert r.exit_code == 2 and "no hand 'no-such-hand'" in r.output
    r = run("explain", "", "--db", db)
    assert r.exit_code == 2 and "no hand ''" in r.output
    # no rows: the CSV still has every column
    r = run("findings", "--db", db, "--hand", "PS-900000000201", "--check", "odd-chip", "--format", "csv")
    assert r.stdout.splitlines() == ["id,check,severity,category,category_basis,hand,tournament,table,street,seq,seat,"
                                     "player,rule,rule_title,edition,expected,actual,message,source,line"]


def test_findings_about_a_whole_hand_name_no_seat(tmp_path):
    # a history cut in the middle of its last hand: a record-incomplete finding, about the hand
    lines = (SAMPLES / "pokerstars" / "lhe-mtt.txt").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[: len(lines) - 12]) + "\n", encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    assert run("audit", str(cut), "--db", db, "-q").exit_code == 0
    hand_level = [f for f in json.loads(run("findings", "--db", db, "--format", "json").stdout) if f["seat"] is None]
    assert [f["check"] for f in hand_level] == ["record-incomplete"]
    text = run("findings", "--db", db, "--hand", hand_level[0]["hand"]).stdout
    assert "record-incomplete" in text and "seat None" not in text
    for fmt in ("text", "md"):
        text = run("explain", hand_level[0]["hand"], "--db", db, "--format", fmt).stdout
        assert "record-incomplete" in text and "seat None" not in text


def test_a_duckdb_file_of_another_program_is_refused_untouched(tmp_path):
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE hands (x INT)")
    con.close()
    r = run("audit", str(SAMPLES / "pokerstars" / "lhe-mtt.txt"), "--db", str(other))
    assert r.exit_code == 2 and "is a DuckDB database but not a tda-audit store" in r.output
    con = duckdb.connect(str(other), read_only=True)
    assert con.execute("SELECT table_name FROM duckdb_tables()").fetchall() == [("hands",)]
    con.close()


def test_a_memory_bound_duckdb_cannot_read_is_a_usage_error(audited):
    db, _ = audited
    r = run("findings", "--db", db, env={"TDA_AUDIT_MEMORY": "lots"})
    assert r.exit_code == 2 and "TDA_AUDIT_MEMORY" in r.output and "Traceback" not in r.output


def test_an_audit_keeps_the_raise_cap_the_replay_was_given(tmp_path):
    db = str(tmp_path / "a.duckdb")
    first, second = SAMPLES / "pokerstars" / "lhe-mtt.txt", SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt"
    assert run("audit", str(first), "--db", db, "-q").exit_code == 0
    assert run("replay", "--db", db, "--raise-cap", "3").exit_code == 0
    assert run("audit", str(second), "--db", db, "-q").exit_code == 0
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT value FROM meta WHERE key = 'replay_cap:tda-2024'").fetchone() == ("3",)
    con.close()


@pytest.mark.parametrize("command", ["audit", "ingest"])
def test_fail_on_rejected_exits_2_after_storing_the_rest(tmp_path, command):
    text = (SAMPLES / "pokerstars" / "lhe-mtt.txt").read_text(encoding="utf-8")
    # one hand's raise made unreadable: that hand is rejected, the others go in
    bad = tmp_path / "bad.txt"
    bad.write_text(re.sub(r"raises (\d+) to", "raises 1x0 to", text, count=1), encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    assert run(command, str(bad), "--db", db).exit_code == 0  # as before, without the flag
    db2 = str(tmp_path / "b.duckdb")
    r = run(command, str(bad), "--db", db2, "--fail-on-rejected")
    assert r.exit_code == 2 and "rejected 1" in r.output
    con = duckdb.connect(db2, read_only=True)
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 2
    con.close()
    good = tmp_path / "good.txt"
    good.write_text(text, encoding="utf-8")
    assert run(command, str(good), "--db", str(tmp_path / "c.duckdb"), "--fail-on-rejected").exit_code == 0


@pytest.mark.parametrize("body, says", [
    ('[raise_cap]\nvalue = "lots"', "value 'lots' is not a whole number"),
    ('[raise_cap]\nvalue = 0', "value 0 is not a whole number"),
    ('[button]\nvalue = "sideways"', "value 'sideways' is not \"dead-button\" or \"both-blinds-moved\""),
    ('[allin_muck]\nvalue = "yes"', "value 'yes' is not true or false"),
    ('[allin_muck]\nvalue = true\nsince = 2030-01-01\nuntil = 2001-01-01', "since 2030-01-01 is after until 2001-01-01"),
])
def test_a_house_profile_value_no_check_can_read_is_refused(audited, tmp_path, body, says):
    db, _ = audited
    profile = tmp_path / "p.toml"
    profile.write_text(f'name = "P"\nsites = ["pokerstars"]\n\n{body}\nsource = "observed"\nevidence = "x"\n',
                       encoding="utf-8")
    r = run("check", "--db", db, "--house", str(profile))
    assert r.exit_code == 2 and says in r.output, r.output


def test_a_house_file_that_is_not_text_is_refused(audited, tmp_path):
    db, _ = audited
    blob = tmp_path / "blob.toml"
    blob.write_bytes(bytes(range(256)) * 4)
    r = run("check", "--db", db, "--house", str(blob))
    assert r.exit_code == 2 and "not a house profile" in r.output


def test_junk_after_the_last_hand_is_lines_not_read_and_fails_fail_on_rejected(tmp_path):
    import random

    rnd = random.Random(7)
    junk = tmp_path / "junk.txt"
    junk.write_bytes((SAMPLES / "pokerstars" / "lhe-mtt.txt").read_bytes() + b"\n\n"
                     + bytes(rnd.randrange(256) for _ in range(1500)))
    r = run("audit", str(junk), "--db", str(tmp_path / "a.duckdb"))
    assert r.exit_code == 0 and "rejected 0" in r.stdout
    assert "not read: " in r.stderr and "unread-lines" in r.stderr and "rejected: " not in r.stderr
    assert run("audit", str(junk), "--db", str(tmp_path / "b.duckdb"), "--fail-on-rejected").exit_code == 2


def test_an_audit_killed_between_its_ingest_and_its_checks_leaves_a_warning(tmp_path):
    """audit stores and replays the new hands, then checks: cut off in between (here: the
    ingest alone, as audit makes it), the new hands have no findings yet, and the readers say so."""
    from auditor.ingest import ingest
    from auditor.store import connect
    from replay.editions import DEFAULT_EDITION
    from replay.engine import DEFAULT_RAISE_CAP

    db = str(tmp_path / "a.duckdb")
    assert run("audit", str(SAMPLES / "pokerstars" / "lhe-mtt.txt"), "--db", db, "-q").exit_code == 0
    con = connect(db)
    try:
        s = ingest([str(SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt")], con=con, jobs=1,
                   replay=(DEFAULT_EDITION, DEFAULT_RAISE_CAP))
        assert s.stored > 0
    finally:
        con.close()
    r = run("findings", "--db", db)
    assert "did not finish" in r.stderr
    assert run("check", "--db", db).exit_code == 0
    assert "warning" not in run("findings", "--db", db).stderr


def test_audit_json_splits_rejected_hands_unread_lines_and_files_not_read(tmp_path):
    import random

    text = (SAMPLES / "pokerstars" / "lhe-mtt.txt").read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(re.sub(r"raises (\d+) to", "raises 1x0 to", text, count=1), encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    junk = tmp_path / "junk.txt"
    junk.write_bytes((SAMPLES / "pokerstars" / "plo-mtt.txt").read_bytes() + b"\n\n" + random.Random(3).randbytes(800))
    r = run("audit", str(bad), str(tmp_path / "empty.txt"), str(junk), "--db", str(tmp_path / "a.duckdb"), "--json")
    out = json.loads(r.stdout)
    assert out["rejected"] == len(out["rejections"]) == 1 and out["rejections"][0]["reason_code"] == "parse-error"
    assert [e["reason_code"] for e in out["unread_lines"]] == ["unread-lines"]
    assert [f["path"] for f in out["files_not_read"]] == [str(tmp_path / "empty.txt")]
