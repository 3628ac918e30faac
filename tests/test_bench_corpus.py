"""The benchmark's corpus builder (bench/build_corpus.py) makes inputs that measure
what they claim: every replicated hand is a new hand to the tool, none is skipped as
a duplicate, and each copy of a tournament is a tournament of its own."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

from auditor.ingest import ingest
from auditor.store import connect
from tests.conftest import CORPUS, needs_corpus

BENCH = Path(__file__).resolve().parent.parent / "bench" / "build_corpus.py"


def _builder():
    spec = importlib.util.spec_from_file_location("build_corpus", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_doctests():
    failed, tried = doctest.testmod(_builder(), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried and not failed


@needs_corpus
def test_replicated_stars_hands_are_all_new(tmp_path):
    build = _builder()
    assert build.CORPUS.resolve() == CORPUS.resolve()
    base = build.stars_hands()
    n = 2 * len(base) + 7  # two whole passes over the corpus and the start of a third
    path = build.build_stars(n, tmp_path)
    assert build.build_stars(n, tmp_path) == path  # built once, then reused
    assert not list(tmp_path.glob("*.part"))
    s = ingest([path], db=tmp_path / "b.duckdb", jobs=2)
    # a header glued mid-line onto the hand before it (the corpus has such) starts a hand too
    headers = sum(len(build.ANY_HEADER.findall(base[i % len(base)])) for i in range(n))
    assert headers > n
    assert (s.hands_seen, s.duplicates) == (headers, 0)
    assert s.stored + s.rejected == headers
    con = connect(tmp_path / "b.duckdb", read_only=True)
    assert con.execute("SELECT count(*) = count(DISTINCT hand_id) FROM hands").fetchone() == (True,)
    # each pass is a copy of the same tournaments under new numbers (the copy's suffix)
    copies = con.execute(
        """SELECT right(tournament_id, 4) AS copy, count(*) AS hands,
                  list(DISTINCT left(tournament_id, -4) ORDER BY left(tournament_id, -4)) AS tournaments
           FROM hands GROUP BY copy ORDER BY copy""").fetchall()
    assert [c[0] for c in copies] == ["0000", "0001", "0002"]
    (_, hands0, tournaments0), (_, hands1, tournaments1), (_, hands2, _) = copies
    assert hands0 == hands1 > 1000 and 0 < hands2 <= 7
    assert tournaments0 == tournaments1 and len(tournaments0) > 1
    # a table named after its tournament's number is named after its own copy's number
    own, original = con.execute(
        """SELECT count(*) FILTER (WHERE split_part(table_name, ' ', 1) = tournament_id),
                  count(*) FILTER (WHERE split_part(table_name, ' ', 1) = left(tournament_id, -4))
           FROM hands""").fetchone()
    assert own > 1000 and original == 0


@needs_corpus
def test_replicated_phh_hands_are_all_new(tmp_path):
    build = _builder()
    n = 1_250
    out = build.build_phh(n, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]  # no .part left
    assert len(list(out.rglob("*.phh"))) == n
    s = ingest([out], db=tmp_path / "p.duckdb", jobs=2)
    assert (s.hands_seen, s.duplicates) == (n, 0)
    assert s.stored + s.rejected == n
    (distinct,) = connect(tmp_path / "p.duckdb", read_only=True).execute(
        "SELECT count(DISTINCT hand_id) FROM hands").fetchone()
    assert distinct == s.stored


@needs_corpus
def test_a_cut_off_stars_build_is_built_again(tmp_path):
    build = _builder()
    (tmp_path / "stars-40.txt.part").write_text("PokerStars Hand #1: cut off by a kill\n")
    out = build.build_stars(40, tmp_path)
    assert sum(1 for line in out.read_text(encoding="utf-8").splitlines() if build.HEADER.match(line)) == 40
    assert not list(tmp_path.glob("*.part"))


@needs_corpus
def test_a_cut_off_phh_build_is_built_again(tmp_path):
    build = _builder()
    (tmp_path / "phh-40.part" / "c0000").mkdir(parents=True)
    (tmp_path / "phh-40.part" / "c0000" / "stale.phh").write_text("cut off by a kill")
    out = build.build_phh(40, tmp_path)
    assert len(list(out.rglob("*.phh"))) == 40
    assert not (out / "c0000" / "stale.phh").exists()
    assert not list(tmp_path.glob("*.part"))
