"""Recall on real data by mutation, for PartyPoker and 888poker (tests/mutate_party_family.py).

Stored tournament hands of fpdb/{tour}/PartyPoker and fpdb/tour/PacificPoker that the
auditor finds clean are mutated in their own format into hands with one known
violation each; every mutant must be found under its check (on its seat where it
has one), draw no other betting or award finding, and every twin must draw none.
Per-class numbers are printed (``pytest -s``).
"""

from __future__ import annotations

import collections

import pytest

from auditor.checks import load_checks
from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus
from mutate_party_family import Source, mutate_all
from parsers import detect_parser, iter_lines, open_source
from parsers.base import ParsedHand

pytestmark = needs_corpus

FOLDERS = [CORPUS / "fpdb" / "tour" / "PartyPoker", CORPUS / "fpdb" / "tour" / "PacificPoker"]
BETTING = {c.check_id for c in load_checks() if c.group == "betting"}
AWARD = {c.check_id for c in load_checks() if c.group == "award"}
# mutants each class yields from these folders today: a change that yields fewer fails
MINIMUM = {"illegal-underraise": 19, "wrong-winner": 21, "chip-conservation": 104}  # as measured


@pytest.fixture(scope="module")
def clean_sources(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("family-mutation-base")
    res = audit(FOLDERS, db=str(tmp / "base.duckdb"))
    flagged = {f["hand_id"] for f in res.findings}
    out = []
    for folder in FOLDERS:
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")):
            info = open_source(path)
            parser = detect_parser(info.head, str(path))
            lines = {no: text for no, _, text in iter_lines(path, info.encoding)}
            for h in parser.iter_hands(iter_lines(path, info.encoding), str(path)):
                if isinstance(h, ParsedHand) and h.is_tournament and h.hand_id not in flagged and h.site in ("partypoker", "888poker"):
                    text = "\n".join(lines[n].replace("\x00", "").lstrip("\ufeff") for n in range(h.first_line, h.last_line + 1))
                    out.append(Source(str(path), h.first_line, text, h))
    print(f"\nmutation sources: {len(out)} clean stored tournament hands")
    return out


@pytest.mark.parametrize("check", list(MINIMUM))
def test_mutation_recall(check, clean_sources, tmp_path):
    mutants = mutate_all(check, clean_sources)
    violations = [m for m in mutants if not m.twin]
    twins = [m for m in mutants if m.twin]
    assert len(violations) >= MINIMUM[check], f"only {len(violations)} {check} mutants"
    assert len({m.hand_id for m in mutants}) == len(mutants)
    paths = []
    for prefix in ("PP", "888"):  # one file a site: a file is read by one parser
        mine = [m.text for m in mutants if m.hand_id.startswith(prefix + "-")]
        if mine:
            paths.append(tmp_path / f"{check}-{prefix}.txt")
            paths[-1].write_text("\n\n\n".join(mine) + "\n", encoding="utf-8")
    res = audit(paths, db=str(tmp_path / "m.duckdb"))
    assert res.ingest.rejected == 0, res.ingest.errors[:3]
    assert res.ingest.stored == len(mutants)
    by_hand: dict[str, list[dict]] = collections.defaultdict(list)
    for f in res.findings:
        by_hand[f["hand_id"]].append(f)
    found, missed, cross, twin_hits = 0, [], collections.Counter(), []
    for m in violations:
        fs = by_hand.get(m.hand_id, [])
        if any(f["check_id"] == check and (m.seat is None or f["seat"] == m.seat) for f in fs):
            found += 1
        else:
            missed.append((m, sorted({(f["check_id"], f["seat"]) for f in fs})))
        cross.update(f["check_id"] for f in fs if f["check_id"] != check)
    for m in twins:
        if by_hand.get(m.hand_id):
            twin_hits.append((m, sorted({(f["check_id"], f["seat"]) for f in by_hand[m.hand_id]})))
    sites = collections.Counter(m.hand_id.split("-")[0] for m in violations)
    print(f"\n{check}: {len(violations)} mutants ({dict(sites)}) from {len({m.source for m in violations})} hands, "
          f"found {found} (recall {found / len(violations):.0%}), twins {len(twins)} ({len(twin_hits)} flagged), "
          f"other checks: {dict(cross)}")
    assert not missed, f"first miss: {missed[0][0].what}\n{missed[0][0].text}\nfound {missed[0][1]}"
    assert not twin_hits, twin_hits[0]
    assert not {c for c in cross if c in BETTING | AWARD}, cross
