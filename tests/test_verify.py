"""``tda-audit verify``: a report's manifest, and the re-audit of its inputs that says
whether its findings are identical, on copies of a few sample histories."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import SAMPLES

from auditor import manifest
from auditor.cli import main

# a few sample files: the PokerStars one holds most of the deliberate violations
INPUTS = ("pokerstars/violations-nlhe-mtt.txt", "ggpoker/nlhe-mtt-and-plo-cash.txt", "phh/stud-mtt.phh")
STARS = INPUTS[0]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def audited(tmp_path: Path, *args) -> tuple[Path, Path, str]:
    """The inputs copied under tmp_path, audited (with ``args``), and the report of the
    store: (inputs folder, report, store)."""
    inputs = tmp_path / "hh"
    for rel in INPUTS:
        (inputs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLES / rel, inputs / rel)
    db = str(tmp_path / "a.duckdb")
    assert run("audit", inputs, "--db", db, "-q", *args).exit_code == 0
    report = tmp_path / "report.html"
    assert run("report", "--db", db, "-o", report, "-q").exit_code == 0
    return inputs, report, db


def verify_json(*args) -> tuple[int, dict]:
    r = run("verify", *args, "--json")
    return r.exit_code, json.loads(r.output)


def kinds(out: dict) -> list[str]:
    return [d["kind"] for d in out["differences"]]


def edit_manifest(report: Path, change, redigest: bool = False) -> None:
    """Change the report's manifest in place (``change(m)``), its digest left as it was
    (a naive edit) or made again over the edited findings (a careful one)."""
    page = report.read_text(encoding="utf-8")
    m = manifest.from_text(page)
    change(m)
    if redigest:
        m["findings"]["digest"] = manifest.findings_digest(m["edition"], m["findings"]["rows"])
    report.write_text(re.sub(r'<script type="application/json" id="tda-manifest">.*?</script>',
                             lambda _: manifest.script_tag(m), page, count=1, flags=re.S), encoding="utf-8")


def store_findings(db: str) -> list[tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute("SELECT hand_id, check_id, seq, seat, category, expected, actual FROM findings "
                           "WHERE edition = 'tda-2024' ORDER BY ALL").fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, Path, str]:
    """Inputs, report and store that no test changes (a test edits a copy of the report)."""
    return audited(tmp_path_factory.mktemp("verify"))


def report_copy(made, tmp_path: Path) -> Path:
    copy = tmp_path / "report.html"
    shutil.copy(made[1], copy)
    return copy


def test_the_manifest_names_the_inputs_and_findings_of_the_store(made):
    inputs, report, db = made
    m = manifest.read(report)
    assert m["edition"] == "tda-2024" and m["scope"] == "store" and m["tool"]["name"] == "tda-audit"
    assert [(i["path"], i["sha256"], i["size"]) for i in m["inputs"]] == [
        (str((inputs / rel).resolve()), hashlib.sha256((inputs / rel).read_bytes()).hexdigest(), (inputs / rel).stat().st_size)
        for rel in sorted(INPUTS)]
    rows = [dict(zip(m["findings"]["fields"], r)) for r in m["findings"]["rows"]]
    assert sorted((f["hand"], f["check"], f["seq"], f["seat"], f["category"], f["expected"], f["actual"]) for f in rows) \
        == store_findings(db) and rows
    assert m["findings"]["digest"] == manifest.findings_digest("tda-2024", m["findings"]["rows"])
    # the house profiles applied (auto: the sites' own), each with its file's sha256
    assert m["house"]["mode"] == "auto"
    assert sorted(p["profile"] for p in m["house"]["profiles"]) == ["ggpoker", "phh", "pokerstars"]
    for p in m["house"]["profiles"]:
        assert p["sha256"] == hashlib.sha256(Path(p["file"]).read_bytes()).hexdigest()


def test_identical_inputs_pass(made):
    r = run("verify", made[1])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"{made[1]}: identical\n")
    assert f"re-audited {len(INPUTS)} of {len(INPUTS)} input files under tda-2024 (house auto)" in r.output


def test_json_shape(made):
    code, out = verify_json(made[1])
    assert code == 0 and out["identical"] is True and out["differences"] == []
    assert set(out) == {"report", "identical", "scope", "edition", "raise_cap", "house", "tool", "inputs", "findings",
                        "differences", "notes"}
    assert out["scope"] == "store" and out["edition"] == "tda-2024" and out["house"] == "auto" and out["raise_cap"] == 4
    assert set(out["tool"]) == {"recorded", "now"} and out["tool"]["recorded"] == out["tool"]["now"]
    assert len(out["inputs"]) == len(INPUTS)
    for i in out["inputs"]:
        assert set(i) == {"path", "sha256", "size", "status", "read_from", "sha256_now", "size_now"}
        assert i["status"] == "same" and i["read_from"] == i["path"] and i["sha256_now"] == i["sha256"]
    assert out["findings"] == {"recorded": len(store_findings(made[2])), "now": len(store_findings(made[2])),
                               "digest": manifest.read(made[1])["findings"]["digest"],
                               "digest_now": manifest.read(made[1])["findings"]["digest"]}


def test_inputs_moved_are_found_by_sha256_and_a_missing_one_is_named(tmp_path):
    inputs, report, _ = audited(tmp_path)
    recorded = manifest.read(report)
    moved = tmp_path / "evidence"
    inputs.rename(moved)
    (moved / STARS).unlink()
    code, out = verify_json(report, moved)
    assert code == 1
    (missing,) = [d for d in out["differences"] if d["kind"] == "input-missing"]
    assert missing["path"] == str((inputs / STARS).resolve()) and missing["text"].startswith(f"input missing: {missing['path']}")
    # the others read from where they are now; the findings of the missing file's hands not found now
    assert sorted(Path(i["read_from"]).relative_to(moved).as_posix() for i in out["inputs"] if i["read_from"]) \
        == sorted(INPUTS[1:])
    removed = {d["finding"]["hand"] for d in out["differences"] if d["kind"] == "finding-removed"}
    assert removed == {r[0] for r in recorded["findings"]["rows"] if r[0].startswith("PS-")} and removed
    assert set(kinds(out)) == {"input-missing", "finding-removed"}
    shutil.copy(SAMPLES / STARS, moved / STARS)
    r = run("verify", report, moved)
    assert r.exit_code == 0, r.output


def test_one_changed_byte_fails_naming_the_file(made, tmp_path):
    inputs = tmp_path / "hh"
    shutil.copytree(made[0], inputs)
    path = inputs / STARS
    text = path.read_bytes()
    line = "Maëlle R: raises 200 to 600".encode()
    assert text.count(line) == 1
    path.write_bytes(text.replace(line, line[:-3] + b"7" + line[-2:]))  # 600 -> 700: one byte
    code, out = verify_json(made[1], inputs)
    assert code == 1
    (changed,) = [d for d in out["differences"] if d["kind"] == "input-changed"]
    assert changed["path"] == str((made[0] / STARS).resolve()) and changed["read_from"] == str(path)
    assert changed["text"].startswith(f"input changed: {path} (recorded as {changed['path']})")
    assert changed["sha256_now"] == hashlib.sha256(path.read_bytes()).hexdigest() != changed["sha256"]
    assert changed["size_now"] == changed["size"]
    # what the changed byte changed: the underraise's amount, and now the caller's undercall
    f = {d["kind"]: d for d in out["differences"] if d["kind"].startswith("finding-")}
    assert set(f) == {"finding-changed", "finding-added"}
    assert (f["finding-changed"]["finding"]["hand"], f["finding-changed"]["finding"]["check"],
            f["finding-changed"]["changes"]) == ("PS-900000000201", "illegal-underraise", {"actual": ["600", "700"]})
    assert (f["finding-added"]["finding"]["hand"], f["finding-added"]["finding"]["check"]) == ("PS-900000000201", "undercall")


def test_a_changed_finding_in_the_manifest_fails_naming_it(made, tmp_path):
    report = report_copy(made, tmp_path)
    fields = manifest.FINDING_FIELDS

    def underraise(m):
        return next(r for r in m["findings"]["rows"] if r[:2] == ["PS-900000000201", "illegal-underraise"])

    edit_manifest(report, lambda m: underraise(m).__setitem__(fields.index("actual"), "800"))
    r = run("verify", report)
    assert r.exit_code == 1
    assert "the manifest was altered" in r.output
    assert "finding changed: PS-900000000201 illegal-underraise (flop, seq 8, seat 3)" in r.output
    assert "actual 800 -> 600" in r.output
    # edited with its digest made again: the re-audit still names it
    edit_manifest(report, lambda m: underraise(m).__setitem__(fields.index("category"), "departure"), redigest=True)
    code, out = verify_json(report)
    assert code == 1 and kinds(out) == ["finding-changed"]
    assert out["differences"][0]["changes"] == {"category": ["departure", "violation"], "actual": ["800", "600"]}


def test_a_different_edition_fails(made, tmp_path):
    report = report_copy(made, tmp_path)
    edit_manifest(report, lambda m: m.__setitem__("edition", "tda-2013"))
    code, out = verify_json(report)
    assert code == 1 and out["edition"] == "tda-2013"
    assert kinds(out)[0] == "digest-mismatch"
    # even with the digest made again: the inputs audited under tda-2013 cite other rules
    edit_manifest(report, lambda m: None, redigest=True)
    code, out = verify_json(report)
    assert code == 1 and "digest-mismatch" not in kinds(out)
    changed = [d for d in out["differences"] if d["kind"] == "finding-changed"]
    assert changed and all("rule" in d["changes"] for d in changed)


def test_usage_errors_exit_2(made, tmp_path):
    report = report_copy(made, tmp_path)
    assert run("verify").exit_code == 2  # no REPORT
    r = run("verify", tmp_path / "nowhere.html")
    assert r.exit_code == 2 and "cannot read it" in r.output
    r = run("verify", SAMPLES / "README.md")
    assert r.exit_code == 2 and "no tda-audit manifest" in r.output
    r = run("verify", report, tmp_path / "no-such-folder")
    assert r.exit_code == 2 and "no such file or folder" in r.output
    broken = tmp_path / "broken.html"
    broken.write_text(report.read_text(encoding="utf-8").replace('"manifest":1,', '"manifest":1,,'), encoding="utf-8")
    r = run("verify", broken)
    assert r.exit_code == 2 and "not valid JSON" in r.output
    edit_manifest(report, lambda m: m.__setitem__("edition", "tda-1999"))
    r = run("verify", report)
    assert r.exit_code == 2 and "tda-1999" in r.output
    edit_manifest(report, lambda m: m.pop("inputs"))
    assert run("verify", report).exit_code == 2


def test_a_dossier_names_its_hand_s_file_and_content_hash(made, tmp_path):
    inputs, _, db = made
    dossier = tmp_path / "hand.html"
    assert run("explain", "PS-900000000203", "--db", db, "--format", "html", "-o", dossier).exit_code == 0
    m = manifest.read(dossier)
    con = duckdb.connect(db, read_only=True)
    (content_hash,) = con.execute("SELECT content_hash FROM hands WHERE hand_id = 'PS-900000000203'").fetchone()
    con.close()
    assert m["scope"] == "hands" and [i["path"] for i in m["inputs"]] == [str((inputs / STARS).resolve())]
    assert [(h["hand"], h["content_hash"]) for h in m["hands"]] == [("PS-900000000203", content_hash)]
    assert {r[0] for r in m["findings"]["rows"]} == {"PS-900000000203"}
    assert [p["profile"] for p in m["house"]["profiles"]] == ["pokerstars"]  # its site's profile only
    assert run("verify", dossier).exit_code == 0
    # the JSON and Markdown forms of explain carry it too
    for fmt in ("json", "md"):
        out = tmp_path / f"hand.{fmt}"
        assert run("explain", "PS-900000000203", "--db", db, "--format", fmt, "-o", out).exit_code == 0
        assert manifest.read(out) == m
    assert run("verify", tmp_path / "hand.md").exit_code == 0
    # a byte of the hand changed (its start time, which no check reads): the file and the hand named
    copy = tmp_path / "hh"
    shutil.copytree(inputs, copy)
    text = (copy / STARS).read_bytes()
    header = b"PokerStars Hand #900000000203: Tournament #3120046002, $10+$1 USD Hold'em No Limit - Level V (50/100) - 2021/05/09 20:11:41 ET"
    assert text.count(header) == 1
    (copy / STARS).write_bytes(text.replace(header, header.replace(b"20:11:41", b"20:11:42")))
    code, out = verify_json(dossier, copy)
    assert code == 1 and kinds(out) == ["input-changed", "hand-changed"]
    assert out["differences"][1]["hand"] == "PS-900000000203" and out["differences"][1]["content_hash"] == content_hash


def test_a_house_profile_file_is_named_by_its_sha256(tmp_path):
    """--house FILE: the profile is found as it was, and a change to it is named."""
    from auditor.house import profiles_dir

    profile = tmp_path / "house.toml"  # the shipped one, a comment added: no shipped file has its sha256
    profile.write_text((profiles_dir() / "pokerstars.toml").read_text(encoding="utf-8") + "\n# the house's copy\n",
                       encoding="utf-8")
    inputs, report, _ = audited(tmp_path, "--house", str(profile))
    m = manifest.read(report)
    assert m["house"]["mode"] == "chosen"
    assert [(p["file"], p["sha256"]) for p in m["house"]["profiles"]] == [
        (str(profile), hashlib.sha256(profile.read_bytes()).hexdigest())]
    assert run("verify", report).exit_code == 0
    profile.write_text(profile.read_text(encoding="utf-8") + "\n# a line added after the audit\n", encoding="utf-8")
    code, out = verify_json(report)
    assert code == 1 and out["house"] == str(profile)
    assert kinds(out) == ["house-profile-changed"]
    assert out["differences"][0]["sha256_now"] == hashlib.sha256(profile.read_bytes()).hexdigest()


def test_a_hostile_path_stays_inside_the_manifest(tmp_path):
    """A folder named 'x<' puts '</' in a path: escaped, it cannot close the script element."""
    evil = tmp_path / "x<" / "script>alert(1)"
    evil.mkdir(parents=True)
    shutil.copy(SAMPLES / INPUTS[2], evil / "h.phh")
    db = str(tmp_path / "e.duckdb")
    assert run("audit", evil, "--db", db, "-q").exit_code == 0
    report = tmp_path / "e.html"
    assert run("report", "--db", db, "-o", report, "-q").exit_code == 0
    page = report.read_text(encoding="utf-8")
    tag = re.search(r'<script type="application/json" id="tda-manifest">(.*?)</script>', page, re.S)[1]
    assert "<" not in tag and ">" not in tag
    assert manifest.read(report)["inputs"][0]["path"] == str((evil / "h.phh").resolve())
