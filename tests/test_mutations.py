"""Recall on real data by mutation.

Real PokerStars tournament hands (fpdb/tour/Stars, read in place) that the
auditor finds clean are mutated by ``tests/mutate.py`` into hands with one
known violation each (fresh hand numbers, the site's arithmetic kept
consistent).  Each class is ingested in bulk, one audit run per class, and
every mutant must be found under its check, on its hand (and seat, where the
violation has one).  Mutants must not draw findings of other betting checks;
constructed twins (the same construction without the violation) must draw no
finding at all.  Per-class numbers are printed (``pytest -s``).
"""

from __future__ import annotations

import collections

import duckdb
import pytest

from auditor.checks import load_checks
from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus
from mutate import HEADER, Hand, mutate_all, read_sources

pytestmark = needs_corpus

STARS_TOUR = CORPUS / "fpdb" / "tour" / "Stars"
MINIMUM = 1000
CHUNK = 400  # hands per temp file

CLASSES = ("illegal-underraise", "illegal-reopen", "odd-chip", "side-pot", "wrong-winner", "uncalled-bet",
           "chip-conservation")

# Other findings a mutant of a class may draw, with the reason.  Empty: none accepted.
ACCEPTED_CROSS: dict[str, dict[str, str]] = {cls: {} for cls in CLASSES}

# Known misses, by class and mutant description substring: strict xfail when present.
KNOWN_MISSES: dict[str, str] = {}

BETTING = {c.check_id for c in load_checks() if c.group == "betting"}
AWARD = {c.check_id for c in load_checks() if c.group == "award"}


def _write_chunks(tmp, name: str, texts: list[str]) -> list[str]:
    paths = []
    for i in range(0, len(texts), CHUNK):
        p = tmp / f"{name}-{i // CHUNK:03d}.txt"
        p.write_text("\n\n\n".join(texts[i:i + CHUNK]) + "\n", encoding="utf-8")
        paths.append(str(p))
    return paths


@pytest.fixture(scope="module")
def clean_sources(tmp_path_factory):
    """Every stored corpus hand with no finding of any check, parsed."""
    tmp = tmp_path_factory.mktemp("mutation-base")
    seen, sources = set(), []
    for s in read_sources(STARS_TOUR):
        if s.number not in seen:
            seen.add(s.number)
            sources.append(s)
    db = str(tmp / "base.duckdb")
    res = audit(_write_chunks(tmp, "base", [s.text for s in sources]), db=db)
    with duckdb.connect(db, read_only=True) as con:
        stored = {h for (h,) in con.execute("SELECT hand_id FROM hands").fetchall()}
    flagged = {f["hand_id"] for f in res.findings}
    clean = [(s, Hand(s.text)) for s in sources if f"PS-{s.number}" in stored and f"PS-{s.number}" not in flagged]
    print(f"\nmutation sources: {len(sources)} corpus hands, {len(stored)} stored, "
          f"{len(flagged)} with findings (left out), {len(clean)} clean")
    return clean


@pytest.mark.parametrize("check", CLASSES)
def test_mutation_recall(check, clean_sources, tmp_path):
    mutants = mutate_all(check, clean_sources, minimum=MINIMUM)
    violations = [m for m in mutants if not m.twin]
    twins = [m for m in mutants if m.twin]
    assert len(violations) >= MINIMUM, f"only {len(violations)} {check} mutants from the corpus"
    assert len({m.number for m in mutants}) == len(mutants)

    res = audit(_write_chunks(tmp_path, check, [m.text for m in mutants]), db=str(tmp_path / "m.duckdb"))
    assert res.ingest.rejected == 0, res.ingest.errors[:3]
    assert res.replay.hands == len(mutants)
    by_hand: dict[str, list[dict]] = collections.defaultdict(list)
    for f in res.findings:
        by_hand[f["hand_id"]].append(f)

    found, wrong_check, missed, cross, twin_hits = 0, 0, [], collections.Counter(), []
    as_category: collections.Counter = collections.Counter()
    for m in violations:
        fs = by_hand.get(f"PS-{m.number}", [])
        # found as a violation; a misstated Total pot line alone (the awards add up) is the
        # history contradicting itself: a record finding (docs/semantics.md, Finding categories)
        category = "record" if m.what.startswith("Total pot ") else "violation"
        hit = [f for f in fs if f["check_id"] == check and (m.seat is None or f["seat"] == m.seat)
               and f["category"] == category]
        if hit:
            found += 1
            as_category[category] += 1
        else:
            missed.append((m, sorted({(f["check_id"], f["seat"]) for f in fs})))
            wrong_check += bool(fs)
        for f in fs:
            if f["check_id"] != check:
                cross[f["check_id"]] += 1
    for m in twins:
        fs = by_hand.get(f"PS-{m.number}", [])
        if fs:
            twin_hits.append((m, sorted({(f["check_id"], f["seat"]) for f in fs})))

    recall = found / len(violations)
    print(f"\n{check}: {len(violations)} mutated hands from {len({m.source for m in violations})} source hands, "
          f"found {found} (recall {recall:.2%}; {dict(as_category)}), missed {len(missed)} ({wrong_check} under another check), "
          f"twins {len(twins)} ({len(twin_hits)} with findings), other checks on mutants: {dict(cross)}")
    for m, fs in missed[:5]:
        print(f"  MISSED {m.source} PS-{m.number}: {m.what}; found {fs}")
    for m, fs in twin_hits[:5]:
        print(f"  TWIN FLAGGED {m.source} PS-{m.number}: {m.what}; found {fs}")

    unexpected = {c: n for c, n in cross.items() if c in BETTING and c not in ACCEPTED_CROSS[check]}
    known = KNOWN_MISSES.get(check)
    if known and missed and all(known in m.what for m, _ in missed):
        pytest.xfail(f"known engine miss: {known}")
    assert not twin_hits, f"{len(twin_hits)} clean twins drew findings, e.g. {twin_hits[0][0].text}"
    assert not missed, f"recall {recall:.2%}; first miss:\n{missed[0][0].text}\nfound: {missed[0][1]}"
    assert not unexpected, f"mutants drew other betting findings: {unexpected}"
    unexpected_award = {c: n for c, n in cross.items() if c in AWARD and c not in ACCEPTED_CROSS[check]}
    assert not unexpected_award, f"mutants drew other award findings: {unexpected_award}"


def test_mutants_are_renumbered_and_self_consistent(clean_sources):
    """Spot check of the library: fresh numbers, and every rendered amount re-adds."""
    ms = mutate_all("illegal-underraise", clean_sources, minimum=10)
    assert ms
    for m in ms[:50]:
        h = Hand(m.text)
        assert int(HEADER.match(m.text.split("\n", 1)[0]).group(2)) == m.number
        assert sum(a for *_x, a, _p in [(c[0], c[1], c[2], c[3]) for c in h.collects]) == h.total - h.rake
