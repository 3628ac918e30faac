"""The benchmark's corpus builder (bench/build_corpus.py) makes inputs that measure
what they claim: every replicated hand is a new hand to the tool, none is skipped as
a duplicate, and each copy of a tournament is a tournament of its own."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

import pytest

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


def _small_phh_corpus(root: Path, files: int) -> Path:
    """A corpus folder holding the first ``files`` PHH files of each part of the
    real corpus (live WSOP hands, Pluribus) under their own relative paths."""
    phh = CORPUS / "phh"
    parts = sorted({p.relative_to(phh).parts[0] for p in phh.rglob("*.phh")})
    chosen = [f for part in parts for f in sorted((phh / part).rglob("*.phh"))[:files]]
    for f in chosen:
        dst = root / "phh" / f.relative_to(phh)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(f.read_bytes())
    return root


@needs_corpus
def test_replicated_phh_hands_are_all_new(tmp_path, monkeypatch):
    build = _builder()
    monkeypatch.setattr(build, "CORPUS", _small_phh_corpus(tmp_path / "corpus", 15))
    base = len(list((build.CORPUS / "phh").rglob("*.phh")))
    n = 2 * base + 5  # two whole copies and the start of a third
    data = tmp_path / "data"
    out = build.build_phh(n, data)
    assert sorted(p.name for p in data.iterdir()) == [out.name]  # no .part left
    assert build.build_phh(n, data) == out  # built once, then reused
    copies = sorted(p.name for p in out.iterdir())
    assert copies == ["c0000", "c0001", "c0002"]
    assert [len(list((out / c).rglob("*.phh"))) for c in copies] == [base, base, 5]
    s = ingest([out], db=tmp_path / "p.duckdb", jobs=2)
    assert (s.hands_seen, s.duplicates) == (n, 0)
    assert s.stored + s.rejected == n and s.stored > 2 * base - 3
    (distinct,) = connect(tmp_path / "p.duckdb", read_only=True).execute(
        "SELECT count(DISTINCT hand_id) FROM hands").fetchone()
    assert distinct == s.stored


@needs_corpus
def test_a_stars_build_that_fails_leaves_nothing_to_reuse(tmp_path, monkeypatch):
    build = _builder()
    copy, written = build.stars_copy, []

    def failing_copy(*args):
        if len(written) == 25:
            raise KeyboardInterrupt  # as a Ctrl-C part-way through
        written.append(args)
        return copy(*args)

    monkeypatch.setattr(build, "stars_copy", failing_copy)
    with pytest.raises(KeyboardInterrupt):
        build.build_stars(40, tmp_path)
    assert list(tmp_path.iterdir()) == []  # neither the input nor its part
    monkeypatch.setattr(build, "stars_copy", copy)
    out = build.build_stars(40, tmp_path)
    assert sum(1 for line in out.read_text(encoding="utf-8").splitlines() if build.HEADER.match(line)) == 40
    assert list(tmp_path.iterdir()) == [out]


@needs_corpus
def test_a_phh_build_that_fails_leaves_nothing_to_reuse(tmp_path, monkeypatch):
    build = _builder()
    corpus = _small_phh_corpus(tmp_path / "corpus", 5)
    monkeypatch.setattr(build, "CORPUS", corpus)
    bad = sorted((corpus / "phh").rglob("*.phh"))[3]
    good = bad.read_bytes()
    bad.write_bytes(b"\xff\xfe not UTF-8")  # the copy of this file fails part-way
    data = tmp_path / "data"
    with pytest.raises(UnicodeDecodeError):
        build.build_phh(12, data)
    assert list(data.iterdir()) == []
    bad.write_bytes(good)
    out = build.build_phh(12, data)
    assert len(list(out.rglob("*.phh"))) == 12
    assert list(data.iterdir()) == [out]


def test_more_copies_than_the_suffix_can_number_is_refused(tmp_path, monkeypatch):
    build = _builder()
    corpus = tmp_path / "corpus" / "phh"
    corpus.mkdir(parents=True)
    for i in range(3):
        (corpus / f"{i}.phh").write_text("variant = 'NT'\n", encoding="utf-8")
    monkeypatch.setattr(build, "CORPUS", corpus.parent)
    monkeypatch.setattr(build, "COPY_DIGITS", 1)  # copies 0..9
    with pytest.raises(ValueError, match="more than 10 copies"):
        build.build_phh(31, tmp_path / "data")
    assert not (tmp_path / "data").exists() or list((tmp_path / "data").iterdir()) == []
    assert len(list(build.build_phh(30, tmp_path / "data").rglob("*.phh"))) == 30


@needs_corpus
def test_sites_prints_each_sites_ratio_and_ipokers_xml_floor(capsys):
    """``bench/run.py --sites`` reads the site's corpus files and prints its ratio beside
    PokerStars', and for iPoker the XML floor under any reader of the format."""
    spec = importlib.util.spec_from_file_location("bench_run", BENCH.parent / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    run.site_rates(["ipoker"], rounds=1)
    out = capsys.readouterr().out
    by_length, _, by_width = out.partition("\nby text width")
    rows = {line.split()[0]: line.split() for line in by_length.splitlines()
            if line.startswith(("pokerstars ", "ipoker ", "pokerstars-cash "))}
    assert rows["pokerstars"][-2:] == ["1.00x", "1.00x"]
    assert int(rows["ipoker"][2]) > 300  # the corpus's stored iPoker games
    assert int(rows["pokerstars-cash"][2]) > 300  # PokerStars' parser on its cash files
    # by width: every stored hand is 1-byte or wide; PokerStars' euro cash hands are wide
    width = {line.split()[0]: line.split() for line in by_width.splitlines()
             if line.startswith(("pokerstars ", "ipoker ", "pokerstars-cash "))}
    assert width["pokerstars"][1:3] == ["1191", "1.00x"] and width["pokerstars"][3] == "0"
    assert int(width["pokerstars-cash"][1]) + int(width["pokerstars-cash"][3]) == int(rows["pokerstars-cash"][2])
    assert int(width["pokerstars-cash"][3]) >= 60
    assert int(width["ipoker"][1]) + int(width["ipoker"][3]) == int(rows["ipoker"][2])
    floor = [line for line in out.splitlines() if line.startswith("ipoker's XML alone")]
    assert len(floor) == 1 and floor[0].endswith("PokerStars on hands of the same events"), out
