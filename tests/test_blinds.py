"""Short and missing blinds as pairs (issue 35): the level's big blind is the price to play
pre-flop, whatever its poster could put in (docs/semantics.md, "The level's big blind is the
price"). Each case of ``tests/fixtures/blinds/cases.toml`` is a folder with a violating hand
and its clean twin, in PokerStars text and PHH where the format can state the case; every
file runs through the real pipeline under every edition (audited with the other fixture files
of its batch: tests/fixture_audits.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from auditor.catalog import EDITIONS, citation
from fixture_audits import audit_file

BLINDS = Path(__file__).resolve().parent / "fixtures" / "blinds"
CASES = tomllib.loads((BLINDS / "cases.toml").read_text(encoding="utf-8"))


def files() -> list[Path]:
    return sorted(p for ext in ("txt", "phh") for p in BLINDS.glob(f"*/*.{ext}"))


def test_every_case_is_a_listed_pair_in_pokerstars_text_and_phh():
    folders = {p.name for p in BLINDS.iterdir() if p.is_dir()}
    assert folders == set(CASES), "every folder is a case of cases.toml, and every case a folder"
    for case in CASES:
        names = {p.name for p in (BLINDS / case).iterdir()}
        assert {"violating.txt", "passing.txt"} <= names, case
        assert ("violating.phh" in names) == ("passing.phh" in names), case
        assert set(CASES[case]) <= {"violating", *EDITIONS}, case
    # every case PHH can state has its PHH twin; PHH records no uncalled return (the small blind
    # completing), no blind posted out of position (the entering player's dead blind)
    without = {case for case in CASES if not (BLINDS / case / "violating.phh").is_file()}
    assert without == {"short-big-blind-small-blind-completes", "dead-blind-entering-player"}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_blind_case(path, edition):
    case = CASES[path.parent.name]
    result = audit_file(path, edition)
    assert result.ingest.rejected == 0 and result.ingest.stored == 1, result.errors
    got = sorted(f["check_id"] for f in result.findings)
    expected = [] if path.stem == "passing" else sorted(case.get(edition, case["violating"]))
    assert got == expected, [(f["check_id"], f["message"]) for f in result.findings]
    for f in result.findings:
        assert f["category"] == "violation" and f["line_no"] is not None, f
        cites = [c for c in citation(f["check_id"], edition) if not c.missing]
        assert f["rule"] == ", ".join(c.ref for c in cites), f
    if path.stem == "violating" and expected:
        # where the edition judges the check at all, its twin is the only difference
        assert all(not all(c.missing for c in citation(x, edition)) for x in expected)


def test_a_level_beyond_integer_is_no_level_known_and_the_audit_completes(tmp_path):
    # a header's level of 15 digits made blind-level's level_no fail its cast and stop every check
    from conftest import SAMPLES

    from auditor.pipeline import audit
    from auditor.store import connect

    text = (SAMPLES / "winamax" / "nlhe-mtt-violation.txt").read_text(encoding="utf-8")
    assert text.count(" level: 2 - ") >= 2
    path = tmp_path / "level.txt"
    path.write_text(text.replace(" level: 2 - ", " level: 999999999999999 - ", 1), encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    r = audit([path], db=db, jobs=1)
    assert r.ingest.stored == r.ingest.hands_seen >= 2
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT level_no('999999999999999'), level_no('12'), level_no('XVI')").fetchone() == (None, 12, 16)
        assert con.execute("SELECT count(*) FROM findings WHERE check_id = 'blind-level'").fetchone() == (0,)
    finally:
        con.close()
