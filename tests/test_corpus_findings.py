"""Real data, no false alarms: every finding on the external corpus has been read by hand.

Audits fpdb/tour/Stars, fpdb/cash/Stars and phh/ together (once per module) and holds the
findings to tests/reviewed_findings.toml:

- the betting-rule checks give no finding except reviewed ones;
- every finding of every check is covered by exactly one reviewed entry;
- every reviewed entry still matches (exact counts), so the list stays honest;
- every finding is in the category its entry names, and at most 30 are violations;
- the hands listed as [[inferred]] have their uncalled return inferred, exactly those.

A finding that is not on the list is either a new genuine site/dealer departure (read the
hand, then list it with a one-line reason) or a false alarm of the engine or a check (fix
it; never list it).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from auditor.checks import CATEGORIES, load_checks
from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus

pytestmark = needs_corpus

FOLDERS = ("fpdb/tour/Stars", "fpdb/cash/Stars", "phh")
REVIEWED = Path(__file__).resolve().parent / "reviewed_findings.toml"
MAX_VIOLATIONS = 30  # issue 16: findings a regulator can sign
BETTING_CHECKS = (
    "illegal-underraise", "illegal-reopen", "limit-raise-cap", "pot-limit-overbet", "undercall",
    "check-facing-bet", "out-of-turn", "bring-in",
)  # fmt: skip


def _rel(source: str | None) -> str:
    if not source:
        return "?"
    p = Path(source).resolve()
    try:
        return p.relative_to(CORPUS.resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def _folder(rel: str) -> str:
    return next((f for f in FOLDERS if rel == f or rel.startswith(f + "/")), "?")


def _describe(f: dict) -> str:
    seat = f" seat {f['seat']}" if f["seat"] is not None else ""
    return f"{f['check_id']} {f['hand_id']}{seat} ({_rel(f['source_path'])}:{f['line_no']}): {f['message']}"


def load_reviewed() -> list[dict]:
    entries = tomllib.loads(REVIEWED.read_text(encoding="utf-8")).get("finding", [])
    for i, e in enumerate(entries):
        where = f"{REVIEWED.name} entry {i + 1} ({e})"
        assert e.get("check"), f"{where}: no check"
        assert str(e.get("reason", "")).strip(), f"{where}: no reason"
        assert e.get("category") in CATEGORIES, f"{where}: category must be one of {CATEGORIES}"
        assert ("hand" in e) != ("file" in e), f"{where}: name exactly one of hand, file"
        if "file" in e:
            assert e.get("hands") == "*", f'{where}: a file entry needs hands = "*"'
            assert isinstance(e.get("count"), int), f"{where}: a file entry needs an exact count"
            assert "seat" not in e, f"{where}: a file entry names no seat"
    return entries


def _matches(entry: dict, f: dict) -> bool:
    if entry["check"] != f["check_id"]:
        return False
    if "file" in entry:
        return _rel(f["source_path"]) == entry["file"]
    return entry["hand"] == f["hand_id"] and ("seat" not in entry or entry["seat"] == f["seat"])


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("corpus-findings") / "corpus.duckdb"


@pytest.fixture(scope="module")
def all_findings(corpus_db) -> list[dict]:
    result = audit([str(CORPUS / f) for f in FOLDERS], corpus_db)
    assert result.replay.hands > 11_000, "the corpus should give more than 11,000 replayed hands"
    # per-check summary, by folder (shown with pytest -s)
    by = Counter((f["check_id"], _folder(_rel(f["source_path"]))) for f in result.findings)
    print(f"\ncorpus findings ({result.replay.hands} hands replayed):")
    for check in sorted({c for c, _ in by} | set(BETTING_CHECKS)):
        per = ", ".join(f"{folder} {by[(check, folder)]}" for folder in FOLDERS)
        print(f"  {check:20} {sum(by[(check, f)] for f in FOLDERS):4}  ({per})")
    print("  by category: " + ", ".join(f"{c} {result.findings_by_category.get(c, 0)}" for c in CATEGORIES))
    return result.findings


# hands of other Stars-shaped rooms in these folders (Run It Once, Full Tilt 2016) are
# reviewed with their site: tests/reviewed_sites/, through tests/site_corpus.py
OWN_HANDS = ("PS-", "PHH-")


@pytest.fixture(scope="module")
def findings(all_findings) -> list[dict]:
    return [f for f in all_findings if f["check_id"] not in TABLE_CHECKS and f["hand_id"].startswith(OWN_HANDS)]


# the table checks (button, blinds, levels, stacks across hands) are reviewed hand by hand
# in tests/reviewed_table_findings.toml by tests/test_table_checks.py, over tour/Stars,
# the folder that holds consecutive hands of the same tables
TABLE_CHECKS = {c.check_id for c in load_checks() if c.group == "table"}


def test_table_checks_find_nothing_outside_the_reviewed_folder(all_findings):
    outside = [f for f in all_findings if f["check_id"] in TABLE_CHECKS and not _rel(f["source_path"]).startswith("fpdb/tour/Stars/")]
    assert outside == [], "\n".join(map(_describe, outside))


@pytest.fixture(scope="module")
def reviewed() -> list[dict]:
    return load_reviewed()


def test_reviewed_list_is_well_formed(reviewed):
    keys = Counter(
        (e["check"], e.get("hand"), e.get("seat"), e.get("file")) for e in reviewed
    )  # fmt: skip
    dupes = [k for k, n in keys.items() if n > 1]
    assert not dupes, f"entries listed twice: {dupes}"
    for e in reviewed:
        if "file" in e:
            assert (CORPUS / e["file"]).is_file(), f"no such corpus file: {e['file']}"


def test_betting_rules_give_no_unreviewed_finding(findings, reviewed):
    bad = [f for f in findings if f["check_id"] in BETTING_CHECKS and not any(_matches(e, f) for e in reviewed)]
    assert not bad, f"{len(bad)} unreviewed betting-rule finding(s):\n" + "\n".join(map(_describe, bad))


def test_every_finding_is_reviewed_once(findings, reviewed):
    unlisted, twice = [], []
    for f in findings:
        n = sum(_matches(e, f) for e in reviewed)
        (unlisted if n == 0 else twice if n > 1 else []).append(f)
    msg = []
    if unlisted:
        msg.append(f"{len(unlisted)} finding(s) not in {REVIEWED.name}:\n" + "\n".join(map(_describe, unlisted)))
    if twice:
        msg.append(f"{len(twice)} finding(s) covered by more than one entry:\n" + "\n".join(map(_describe, twice)))
    assert not msg, "\n".join(msg)


def test_every_reviewed_entry_still_occurs(findings, reviewed):
    stale = []
    for e in reviewed:
        n = sum(_matches(e, f) for f in findings)
        if ("count" in e and n != e["count"]) or n == 0:
            want = e.get("count", ">= 1")
            stale.append(f"{e['check']} {e.get('hand') or e.get('file')}: {n} finding(s), listed {want}")
    assert not stale, "reviewed entries that no longer match:\n" + "\n".join(stale)


def test_every_finding_is_in_its_reviewed_category(all_findings, reviewed):
    assert all(f["category"] in CATEGORIES for f in all_findings), "every finding has a category"
    wrong = [f"{_describe(f)} is {f['category']}, reviewed as {e['category']}"
             for f in all_findings if f["check_id"] not in TABLE_CHECKS
             for e in reviewed if _matches(e, f) and e["category"] != f["category"]]
    assert not wrong, "\n".join(wrong)


def test_violations_are_few_and_none_of_a_betting_rule(all_findings):
    violations = [f for f in all_findings if f["category"] == "violation"]
    assert len(violations) <= MAX_VIOLATIONS, "\n".join(map(_describe, violations))
    assert [f for f in violations if f["check_id"] in BETTING_CHECKS] == []
    # departures cite the house profile line and its source
    for f in all_findings:
        if f["category"] == "departure":
            assert f["category_basis"].startswith("house profile ") and "source: " in f["category_basis"], f


def test_inferred_returns_are_the_reviewed_ones(all_findings, corpus_db):
    entries = tomllib.loads(REVIEWED.read_text(encoding="utf-8")).get("inferred", [])
    with duckdb.connect(str(corpus_db), read_only=True) as con:
        rows = con.execute(
            "SELECT r.hand_id, s.path, r.returned_from FROM hand_results r JOIN hands h USING (hand_id) "
            "JOIN sources s USING (source_id) WHERE r.returned_basis = 'inferred'").fetchall()
    assert all(frm for _, _, frm in rows), "every inferred return names the lines it rests on"
    per_file = Counter(_rel(p) for _, p, _ in rows)
    hands = {h for h, _, _ in rows}
    listed = 0
    for e in entries:
        assert e["reason"].strip()
        if "file" in e:
            assert per_file[e["file"]] == e["count"], e
            listed += e["count"]
        else:
            assert e["hand"] in hands, e
            listed += 1
    assert listed == len(rows), "inferred returns not in tests/reviewed_findings.toml [[inferred]]"
    # none of them is an uncalled-bet finding any more
    assert not [f for f in all_findings if f["check_id"] == "uncalled-bet" and f["hand_id"] in hands]
