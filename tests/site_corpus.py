"""A test harness every site's parser reuses: describe the site once, get its tests.

A test module names one :class:`SiteSpec` and binds its tests::

    from site_corpus import SiteSpec, site_tests
    SPEC = SiteSpec(parser="ggpoker", folders=("tour/GGPoker", "cash/GGPoker"),
                    marker=re.compile(r"^Poker Hand #", re.M), expected_rejections={...})
    globals().update(site_tests(SPEC))

The tests (on the real corpus, read in place; skipped with the README's reason
when ``../shared`` is absent) are those of the multi-site issues:

- ``test_<site>_hands_seen_equal_markers``: every corpus file of the site's
  folders with a hand-start marker is read by this parser (recognised by content)
  and yields one item per marker;
- ``test_<site>_stored_share``: at least ``min_stored`` of them are stored;
- ``test_<site>_rejections_are_listed``: every rejection, (file, line): reason code;
- ``test_<site>_second_ingest_adds_nothing``: the real ingest reconciles, a second
  ingest stores nothing, and ``hands.site`` names the site;
- ``test_<site>_totals_re_add``: the recorded total pot re-adds from the actions and
  the collects plus the house's take (rake, jackpot fee) re-add to it, or the hand
  is listed with why (``arithmetic_explained``);
- ``test_<site>_awards_agree``: the replay's award of every pot whose winner is
  known equals the recorded collect, the house's take apart (``award_exceptions``);
  the pots whose winner is unknown, and those compared, are bounded (``POT_BOUNDS``);
- ``test_<site>_findings_reviewed``: no betting-rule finding; every other finding is
  listed in ``tests/reviewed_sites/<site>.toml`` (same entry forms as
  ``tests/reviewed_findings.toml``) and every entry still occurs;
- ``test_<site>_mutation_recall[<class>]``: the classes of ``tests/test_mutations.py``
  applied to the site's clean tournament hands are all found under their check id; the
  clean hands and each class's mutants are at least as many as measured
  (``MUTATION_MINIMUM``), so a regression that leaves none fails; collected only for the
  classes the site's format carries and has mutants for (none without a mutation header);
- ``test_<site>_fuzz_parser`` / ``test_<site>_fuzz_ingest``: mutated real hands never
  raise; every hand-start marker in the mutated text is one item (a hand or a
  rejection: a parser cannot drop an unreadable hand); through ingest every marker is a
  hand seen, a bad hand is an ``ingest_errors`` row and the good hands beside it go in.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CORPUS, needs_corpus
from parsers import all_parsers, iter_lines, open_source
from parsers.base import HandError, ParsedHand, chip_ledger, settle
from test_corpus_findings import _matches, _rel  # the reviewed lists' entry forms, read alike

FPDB = CORPUS / "fpdb"
EDITION = "tda-2019"
REVIEWED_DIR = Path(__file__).resolve().parent / "reviewed_sites"
MUTATION_CLASSES = ("illegal-underraise", "illegal-reopen", "odd-chip", "side-pot", "wrong-winner", "uncalled-bet",
                    "chip-conservation")

# Mutation recall, per site (its parser): the clean hands the library reads (hands of the
# site's files with no finding) and the mutants each class yields from them today, as
# measured (tests/mutate.py is seeded: the same sources give the same mutants).  A change
# that leaves fewer fails, as tests/test_mutations.py's MINIMUM: a regression that flags
# every hand leaves no clean source, and no mutant, and must not pass as a skip.  A class is
# not collected where the site's format cannot carry it (not in ``SiteSpec.mutation_classes``)
# or where it is 0 here: no clean hand of the site has the shape (the site's module says why).
MUTATION_MINIMUM: dict[str, tuple[int, dict[str, int]]] = {
    "ggpoker": (124, {"illegal-underraise": 28, "illegal-reopen": 323, "odd-chip": 115, "side-pot": 450,
                      "wrong-winner": 210, "uncalled-bet": 263, "chip-conservation": 637}),
    "fulltilt": (215, {"illegal-underraise": 175, "illegal-reopen": 192, "odd-chip": 31, "side-pot": 409,
                       "wrong-winner": 300, "uncalled-bet": 1402, "chip-conservation": 2283}),
    "fulltilt-stars": (25, {"illegal-underraise": 81, "illegal-reopen": 116, "odd-chip": 2, "side-pot": 27,
                            "wrong-winner": 78, "uncalled-bet": 103, "chip-conservation": 275}),
    "bovada": (416, {"illegal-underraise": 2312, "illegal-reopen": 696, "odd-chip": 25, "side-pot": 70,
                     "wrong-winner": 510, "uncalled-bet": 2498, "chip-conservation": 4474}),
    # odd-chip and side-pot: 0, no shape (tests/test_site_runitonce.py says why)
    "runitonce": (4, {"illegal-underraise": 22, "illegal-reopen": 39, "odd-chip": 0, "side-pot": 0,
                      "wrong-winner": 12, "uncalled-bet": 15, "chip-conservation": 44}),
    # uncalled-bet: the format writes no return line (not in its SiteSpec.mutation_classes)
    "winamax": (42, {"illegal-underraise": 173, "illegal-reopen": 206, "odd-chip": 4, "side-pot": 7,
                     "wrong-winner": 12, "chip-conservation": 439}),
    "wpn": (7, {"illegal-underraise": 15, "illegal-reopen": 6, "odd-chip": 6, "side-pot": 21, "wrong-winner": 10,
                "uncalled-bet": 28, "chip-conservation": 72}),
}

# test_<site>_awards_agree compares the pots whose winner the replay knows: per site, the
# most pots whose winner is unknown and the fewest compared, as measured (2026-11, tda-2019),
# so that a replay that stops knowing winners fails instead of comparing fewer pots.
POT_BOUNDS: dict[str, tuple[int, int]] = {  # parser: (most pots with the winner unknown, fewest pots compared)
    "ggpoker": (0, 138),  # of 147 pots: every contested pot's hands are tabled
    "fulltilt": (0, 399),  # of 402: the fold the Matrix exports leave out (FT-31493008322 ...) is inferred from
    # the summary's 'folded before the Flop' (parsers.fulltilt, StarsSite.summary_folds)
    "fulltilt-stars": (0, 25),  # of 25
    "bovada": (0, 1599),  # of 1,608
    "runitonce": (5, 8),  # of 13: RIO-30702949, -55044222, -34011543 (2 pots), -31260881, where the losers' cards
    # are written only as 'mucked [..] and lost' in the summary: a mucked hand is not tabled, the winner is unknown
    "winamax": (0, 135),  # of 142
    "wpn": (0, 9),  # of 9
    "wpn-legacy": (1, 41),  # of 49: WPN-547441485, whose all-in player with no seat line never shows his cards
}


def tournament_integer_text(text: str) -> str:
    """A Stars-shaped tournament hand as ``tests/mutate.py`` reads it: amounts without
    thousands commas, the showdown marker written '*** SHOW DOWN ***', and a total pot
    line of 'Total pot N | Rake R' (house fees of 0 left off, a rake of 0 written): what
    the site's own parser reads the same way."""
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    text = text.replace("*** SHOWDOWN ***", "*** SHOW DOWN ***")
    text = re.sub(r"(?m)^(Total pot \d+)$", r"\1 | Rake 0", text)  # older GGPoker lines name no rake
    return re.sub(r"(?m)^(Total pot \d+ \| Rake \d+)(?: \| [A-Za-z]+ 0)+$", r"\1", text)


@dataclass(frozen=True, eq=False)  # hashed by identity: one spec, one cached parse
class SiteSpec:
    parser: str  # the parser's name (parsers.PARSERS)
    folders: tuple[str, ...]  # corpus folders under fpdb/ holding the site's files (with other sites' files)
    marker: re.Pattern[str]  # a hand-start marker, counted independently of the parser (multi-line)
    expected_rejections: dict[tuple[str, int], str]  # (file under fpdb/, line): reason code
    site: str = ""  # hands.site ('': the parser's name)
    min_stored: float = 0.97
    arithmetic_explained: dict[str, str] = field(default_factory=dict)  # hand_id: why its text does not re-add
    award_exceptions: dict[str, str] = field(default_factory=dict)  # hand_id: why the award differs
    # mutation: the site's header for tests/mutate.py (groups: text before the number, the
    # number's digits, the rest) and the text the library reads; None: no mutation tests
    mutation_header: re.Pattern[str] | None = None
    mutation_text: Callable[[str], str | None] = tournament_integer_text  # None: a hand the library cannot read
    # a format the library does not write: a mutant's text (and a clean hand's) written back in the site's format
    mutant_text: Callable[[str], str] | None = None
    mutation_classes: tuple[str, ...] = MUTATION_CLASSES  # the classes the site's format can carry
    mutation_cash: bool = False  # cash hands are sources too (a converter that writes amounts in stored units)
    mutation_passes: int = 3  # tests/mutate.py passes, each with its own random parameters
    fuzz_examples: int = 200
    reviewed: str = ""  # the reviewed findings' file stem when two formats of a site share its name ('': the site)

    @property
    def site_name(self) -> str:
        return self.site or self.parser

    @property
    def reviewed_file(self) -> Path:
        return REVIEWED_DIR / f"{self.reviewed or self.site_name}.toml"


# --- reading the corpus once per spec ----------------------------------------------------


def _parser(name: str):
    return next(p for p in all_parsers() if p.name == name)


def _files(spec: SiteSpec) -> list[str]:
    out = []
    for folder in spec.folders:
        for root, dirs, names in os.walk(FPDB / folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            out += [str(Path(root, n).relative_to(FPDB)) for n in sorted(names) if not n.startswith(".")]
    return sorted(out)


def _text(rel: str) -> str:
    info = open_source(FPDB / rel)
    return (FPDB / rel).read_bytes().decode(info.encoding, errors="replace")


@functools.lru_cache(maxsize=None)
def parsed(spec: SiteSpec) -> dict[str, list[ParsedHand | HandError]]:
    """The site's files (those its parser detects) and what the parser makes of each."""
    p = _parser(spec.parser)
    out: dict[str, list[ParsedHand | HandError]] = {}
    for rel in _files(spec):
        info = open_source(FPDB / rel)
        if p.detect(info.head, rel):
            # as ingest stores them (parsers.base.settle: lines not understood must reconcile)
            out[rel] = [settle(h) for h in p.iter_hands(iter_lines(FPDB / rel, info.encoding), rel)]
    return out


def stored(spec: SiteSpec) -> list[ParsedHand]:
    return [h for items in parsed(spec).values() for h in items if isinstance(h, ParsedHand)]


def counts(spec: SiteSpec) -> dict[str, int]:
    """seen, stored and each reason code's count: the numbers a report gives per site."""
    c: Counter[str] = Counter()
    for items in parsed(spec).values():
        for h in items:
            c["seen"] += 1
            c["stored" if isinstance(h, ParsedHand) else h.reason_code] += 1
    return dict(c)


def rearithmetic(h: ParsedHand) -> str | None:
    """Why a hand's own text does not re-add, or None: chips put in less returned must be
    the total pot, and collects plus the house's take (rake and fees) must be it too
    (parsers.base.chip_ledger, the ledger ingest reconciles a hand with lines not
    understood by; here no return is taken as implied)."""
    put_in, collected, total, house, _ = chip_ledger(h)
    if total is None:
        return "no total pot"
    why = []
    if put_in != total:
        why.append(f"put in {put_in} != total pot {total}")  # with the house's money
    if collected + house != total:
        why.append(f"collected {collected} + house {house} != total pot {total}")
    return "; ".join(why) or None


# --- reviewed findings --------------------------------------------------------------------


def load_reviewed(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("finding", [])
    for i, e in enumerate(entries):
        where = f"{path.name} entry {i + 1} ({e})"
        assert e.get("check") and str(e.get("reason", "")).strip(), f"{where}: a check and a reason"
        assert ("hand" in e) != ("file" in e), f"{where}: name exactly one of hand, file"
        # the category is part of the review: a reason describing a record gap or a site's
        # policy must not pass a finding that is reported as a violation
        assert e.get("category") in ("violation", "departure", "record"), \
            f"{where}: a category (violation, departure or record) that the reason supports"
    return entries


def _describe(f: dict) -> str:
    return f"{f['check_id']} {f['hand_id']} seat {f['seat']} ({_rel(f['source_path'])}:{f['line_no']}): {f['message']}"


# --- mutation -------------------------------------------------------------------------------


@contextlib.contextmanager
def _mutate_header(header: re.Pattern[str]):
    """tests/mutate.py reads and renumbers hands through its module-level HEADER."""
    import mutate

    saved = mutate.HEADER
    mutate.HEADER = header
    try:
        yield mutate
    finally:
        mutate.HEADER = saved


def _hand_texts(spec: SiteSpec) -> list[tuple[str, int, str]]:
    """(file, line, text) of every hand of the site's tournament files (and cash files, where
    ``mutation_cash``), as the mutation library reads it."""
    out = []
    for rel, items in parsed(spec).items():
        lines = _text(rel).splitlines()
        for h in items:
            if isinstance(h, ParsedHand) and (h.is_tournament or spec.mutation_cash):
                text = spec.mutation_text("\n".join(lines[h.first_line - 1:h.last_line]))
                if text is not None:
                    out.append((rel, h.first_line, text))
    return out


# --- the tests --------------------------------------------------------------------------------


def site_tests(spec: SiteSpec) -> dict[str, object]:
    """The harness's tests and fixtures for ``spec``, to bind in a test module's globals."""
    name = spec.parser.replace("-", "_")
    tests: dict[str, object] = {"pytestmark": needs_corpus}
    # the mutation classes to collect: those with mutants today (no header: none, the site's module says why)
    sources_minimum, class_minimum = MUTATION_MINIMUM.get(spec.parser, (0, {}))
    if spec.mutation_header is not None:
        assert set(class_minimum) == set(spec.mutation_classes), (
            f"{spec.parser}: give MUTATION_MINIMUM (tests/site_corpus.py) a count for each class the format carries, "
            f"{sorted(spec.mutation_classes)}")
    else:
        assert not class_minimum, f"{spec.parser}: mutation minimums but no mutation header"
    recall_classes = [c for c in MUTATION_CLASSES if class_minimum.get(c, 0) > 0]

    def test_hands_seen_equal_markers():
        files = parsed(spec)
        assert files, f"no file in {spec.folders} is read by {spec.parser}"
        for rel in _files(spec):
            markers = len(spec.marker.findall(_text(rel)))
            if rel in files:
                assert len(files[rel]) == markers, rel
            else:
                assert markers == 0, f"{rel} holds {markers} hand markers but {spec.parser} does not detect it"

    def test_stored_share():
        c = counts(spec)
        print(f"\n{spec.parser}: {c}")
        assert c.get("stored", 0) >= spec.min_stored * c["seen"], c

    def test_rejections_are_listed():
        rejected = {(rel, h.line_no): h.reason_code for rel, items in parsed(spec).items() for h in items
                    if isinstance(h, HandError)}
        assert rejected == spec.expected_rejections
        for items in parsed(spec).values():
            for h in items:
                if isinstance(h, HandError):
                    assert f"line {h.line_no}" in h.reason, h

    def test_second_ingest_adds_nothing(site_audit):
        import duckdb

        from auditor.ingest import ingest

        # the first ingest: the audit's, into a new store (site_audit); the second, of the same files, into it
        db, _, first = site_audit
        paths = [FPDB / rel for rel in parsed(spec)]
        c = counts(spec)
        assert (first.hands_seen, first.rejected) == (c["seen"], c["seen"] - c.get("stored", 0))
        assert first.hands_seen == first.stored + first.duplicates + first.rejected
        second = ingest(paths, db=db)
        assert second.stored == 0 and second.duplicates == first.stored + first.duplicates
        assert second.hands_seen == first.hands_seen
        with duckdb.connect(str(db), read_only=True) as con:
            assert {r[0] for r in con.execute("SELECT DISTINCT site FROM hands").fetchall()} == {spec.site_name}

    def test_totals_re_add():
        # a record cut short (hands.record_cut) has no summary to re-add to: record-incomplete says so
        off = {h.hand_id: why for h in stored(spec) if h.record_cut is None and (why := rearithmetic(h))}
        assert off == spec.arithmetic_explained

    @pytest.fixture(scope="module")
    def site_audit(tmp_path_factory):
        from auditor.pipeline import audit

        db = tmp_path_factory.mktemp(f"site-{name}") / "site.duckdb"
        result = audit([str(FPDB / rel) for rel in parsed(spec)], db, edition_name=EDITION)
        return db, result.findings, result.ingest

    def test_awards_agree(site_audit):
        import duckdb

        db, _, _ = site_audit
        with duckdb.connect(str(db), read_only=True) as con:
            # a pot's differences, where the winner is known: every one the house's take
            # (rake and fees come out of the winners' shares), or an exception listed
            rows = con.execute(
                """
                WITH house AS (SELECT hand_id, coalesce(max(to_amount), 0) AS took FROM events WHERE kind = 'total_pot' GROUP BY 1),
                d AS (SELECT hand_id, sum(expected - recorded) AS diff, bool_and(expected >= recorded) AS ge,
                             bool_and((expected > 0) = (recorded > 0)) AS same_winners
                      FROM pot_shares WHERE edition = ? AND expected IS NOT NULL AND recorded IS NOT NULL
                      GROUP BY 1 HAVING bool_or(expected <> recorded))
                SELECT hand_id, diff, took FROM d JOIN house USING (hand_id)
                WHERE NOT (ge AND same_winners AND diff = took) ORDER BY 1
                """, [EDITION]).fetchall()
            unknown = con.execute("SELECT count(*) FROM pots WHERE edition = ? AND NOT verified", [EDITION]).fetchone()[0]
            total = con.execute("SELECT count(*) FROM pots WHERE edition = ?", [EDITION]).fetchone()[0]
            compared = con.execute("SELECT count(*) FROM (SELECT DISTINCT hand_id, pot_index, run FROM pot_shares "
                                   "WHERE edition = ? AND expected IS NOT NULL AND recorded IS NOT NULL)",
                                   [EDITION]).fetchone()[0]
        print(f"\n{spec.parser}: {total} pots, {unknown} with the winner unknown, {compared} compared, {len(rows)} differing")
        assert {r[0] for r in rows} == set(spec.award_exceptions), rows
        assert spec.parser in POT_BOUNDS, f"{spec.parser}: give POT_BOUNDS (tests/site_corpus.py) its measured counts"
        most_unknown, fewest_compared = POT_BOUNDS[spec.parser]
        assert unknown <= most_unknown, f"{unknown} of {total} pots with the winner unknown (at most {most_unknown})"
        assert compared >= fewest_compared, f"{compared} of {total} pots compared (at least {fewest_compared})"

    def test_findings_reviewed(site_audit):
        from auditor.checks import load_checks

        _, findings, _ = site_audit
        betting = {c.check_id for c in load_checks() if c.group == "betting"}
        reviewed = load_reviewed(spec.reviewed_file)
        # the site's software enforces betting: no betting rule broken, reviewed or not (a record
        # finding of a betting check, the history contradicting itself, is reviewed like the rest)
        broken = [f for f in findings if f["check_id"] in betting and f["category"] != "record"]
        assert not broken, "betting-rule findings:\n" + "\n".join(map(_describe, broken))
        unlisted = [f for f in findings if not any(_matches(e, f) for e in reviewed)]
        assert not unlisted, f"findings not in {spec.reviewed_file.name}:\n" + "\n".join(map(_describe, unlisted))
        stale = [e for e in reviewed if sum(_matches(e, f) for f in findings) != e.get("count", max(1, sum(
            _matches(e, f) for f in findings)))]
        assert not stale, f"entries of {spec.reviewed_file.name} that no longer match: {stale}"
        # each entry's category (a violation, a departure by the site's house profile, a record gap) pins it
        wrong = [f"{_describe(f)} is {f['category']}, reviewed as {e['category']}" for e in reviewed
                 for f in findings if _matches(e, f) and f["category"] != e["category"]]
        assert not wrong, "\n".join(wrong)
        print(f"\n{spec.parser}: {len(findings)} findings, all reviewed: {dict(Counter(f['check_id'] for f in findings))}")

    @pytest.fixture(scope="module")
    def clean_mutation_sources(tmp_path_factory):
        from auditor.pipeline import audit

        with _mutate_header(spec.mutation_header) as mutate:
            texts = _hand_texts(spec)
            tmp = tmp_path_factory.mktemp(f"mutation-{name}")
            back = spec.mutant_text or (lambda t: t)
            (tmp / "base.txt").write_text("\n\n\n".join(back(t) for _, _, t in texts) + "\n", encoding="utf-8")
            res = audit([str(tmp / "base.txt")], db=str(tmp / "base.duckdb"))
            assert res.ingest.rejected == 0, res.ingest.errors[:3]
            flagged = {f["hand_id"] for f in res.findings}
            sources = [(mutate.Source(rel, line, text), mutate.Hand(text)) for rel, line, text in texts]
            return [(s, h) for s, h in sources if not any(fid.endswith(h.number) for fid in flagged)], len(sources)

    @pytest.fixture(scope="module")
    def mutation_audit(clean_mutation_sources, tmp_path_factory):
        """Every recall class's mutants, a file per class, audited in one run: one store and one run of
        the checks for the site, not one per class (a mutant is judged on its own hand; one numbering
        keeps the hand numbers unique across the classes)."""
        from auditor.pipeline import audit

        sources, _ = clean_mutation_sources
        tmp = tmp_path_factory.mktemp(f"mutants-{name}")
        back = spec.mutant_text or (lambda t: t)
        by_class: dict[str, tuple[list, Path]] = {}
        with _mutate_header(spec.mutation_header) as mutate:
            num = mutate.Numberer()
            for check in recall_classes:
                # passes with other random parameters (the library's own restacking, which
                # needs seat lines of PokerStars' wording, could loop on other sites' hands)
                mutants, seen = [], set()
                for seed in range(spec.mutation_passes):
                    for m in mutate.mutate_all(check, sources, seed=seed, minimum=0, num=num):
                        if (m.source, m.what) not in seen:
                            seen.add((m.source, m.what))
                            mutants.append(m)
                path = tmp / f"{check}.txt"
                path.write_text("\n\n\n".join(back(m.text) for m in mutants) + "\n", encoding="utf-8")
                by_class[check] = mutants, path
        res = audit([str(path) for _, path in by_class.values()], db=str(tmp / "m.duckdb"))
        by_number: dict[str, list[dict]] = collections.defaultdict(list)
        for f in res.findings:
            by_number[re.sub(r"^\D*", "", f["hand_id"].rsplit("-", 1)[-1])].append(f)
        return by_class, res.ingest.errors, by_number

    def test_mutation_recall(check, clean_mutation_sources, mutation_audit):
        clean_mutation_sources, read = clean_mutation_sources
        # a regression that flags every hand leaves no clean hand: a failure, not a skip
        assert len(clean_mutation_sources) >= sources_minimum, (
            f"{len(clean_mutation_sources)} clean hands of {read} for the mutation library (at least {sources_minimum})")
        by_class, errors, by_number = mutation_audit
        mutants, path = by_class[check]
        violations = [m for m in mutants if not m.twin]
        assert len(violations) >= class_minimum[check], (f"only {len(violations)} {check} mutants from "
                                                          f"{len(clean_mutation_sources)} clean hands (at least {class_minimum[check]})")
        errors = [e for e in errors if e["file"] == str(path)]
        assert not errors, errors[:3]
        # found as a violation; a misstated Total pot line alone is the history contradicting
        # itself, a misstated return the bettor's own collect absorbs moves no chip: record
        # findings (as tests/test_mutations.py: Mutant.category)
        # (a record mutant, the history contradicting itself, may be named by the award check that
        # sees the contradiction first: a walk's total that counts its unwritten return reads as
        # the return left in the pot, uncalled-bet's)
        record_checks = {check, "uncalled-bet"} if check == "chip-conservation" else {check}
        missed = [m for m in violations
                  if not any((f["check_id"] == check or m.category == "record" and f["check_id"] in record_checks)
                             and (m.seat is None or f["seat"] == m.seat) and f["category"] == m.category
                             for f in by_number.get(str(m.number), []))]
        twins_hit = [m for m in mutants if m.twin and by_number.get(str(m.number))]
        print(f"\n{spec.parser} {check}: {len(violations)} mutants, {len(violations) - len(missed)} found, "
              f"{len(twins_hit)} of {len(mutants) - len(violations)} twins flagged")
        assert not missed, f"missed {len(missed)}, e.g.\n{missed[0].text}"
        assert not twins_hit, f"clean twin flagged:\n{twins_hit[0].text}"

    numbers = count(9_500_000_000_000)

    @functools.cache  # read once, not once an example (the fuzzers copy a hand before they change it)
    def _pool() -> tuple[list[list[str]], list[str]]:
        """The site's stored hands, each as its lines, and the lines to splice in (those of the first 200)."""
        out = []
        for rel, items in parsed(spec).items():
            lines = _text(rel).splitlines()
            out += [lines[h.first_line - 1:h.last_line] for h in items if isinstance(h, ParsedHand)]
        return out, sorted({x for h in out[:200] for x in h})

    from test_fuzz import FUZZ, _op, mutate as fuzz_mutate, run_parser  # noqa: E402  (the fuzzers' own operations)

    @settings(max_examples=spec.fuzz_examples, **FUZZ)
    @given(idx=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=6))
    def test_fuzz_parser(idx, ops):
        pool, donors = _pool()
        lines = fuzz_mutate(pool[idx % len(pool)], ops, donors)
        items = run_parser(_parser(spec.parser), lines, "fuzz.txt")
        # every hand-start marker starts one hand, stored or rejected: a parser that drops an
        # unreadable hand (no HandError) yields fewer (the text as the parser reads it: no line
        # holds a line break)
        markers = len(spec.marker.findall("\n".join(lines).replace("\r", "\n")))
        assert markers <= len(items) <= max(1, markers + 1), (markers, items)

    @settings(max_examples=max(10, spec.fuzz_examples // 10), **FUZZ)
    @given(a=st.integers(0, 10**6), m=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=5))
    def test_fuzz_ingest(tmp_path_factory, a, m, ops):
        from auditor.ingest import ingest
        from auditor.store import connect

        pool, donors = _pool()
        good = pool[a % len(pool)]
        bad = fuzz_mutate(pool[m % len(pool)], ops, donors, keep_first=True)
        bad = [piece for line in bad for piece in line.replace("\r", "\n").split("\n")]
        d = tmp_path_factory.mktemp("fuzz")
        path = d / f"fuzz-{next(numbers)}.txt"
        lines = [*bad, "", "", *good]
        path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
        # a fresh store each example, in memory: creating a store's file (and syncing it) took
        # most of an example's time; what ingest stores, and the queries below, are the same
        con = connect(":memory:")
        try:
            s = ingest([path], con=con)
            assert s.hands_seen == s.stored + s.duplicates + s.rejected
            # the hands the file starts, counted from its text: each is seen, and is a stored row, a
            # duplicate or an ingest_errors row (a conflict included)
            markers = len(spec.marker.findall("\n".join(lines)))
            assert s.hands_seen >= markers, (s.hands_seen, markers)
            [good_hand] = run_parser(_parser(spec.parser), good, "g.txt")
            assert isinstance(good_hand, ParsedHand)
            whole = con.execute("SELECT count(*) FROM hands WHERE content_hash = ?", [good_hand.content_hash]).fetchone()[0]
            # or the mutant is the same hand, still readable (a line deleted: a seat line, or one
            # at its end, which leaves it cut short), stored first: the good hand is then another
            # record of a stored hand, a conflict
            same_id_first = con.execute("SELECT count(*) FROM hands WHERE hand_id = ? AND content_hash <> ?",
                                        [good_hand.hand_id, good_hand.content_hash]).fetchone()[0]
            assert whole == 1 or (same_id_first == 1 and "conflict" in {e["reason_code"] for e in s.errors})
            errors = con.execute("SELECT source_path, line_no FROM ingest_errors").fetchall()
            rows = con.execute("SELECT count(*) FROM hands").fetchone()[0]
            bad_rows = con.execute("SELECT count(*) FROM hands WHERE first_line <= ?", [len(bad)]).fetchone()[0]
            hand_errors = [line for reason, line in con.execute("SELECT reason_code, line_no FROM ingest_errors").fetchall()
                           if reason not in ("not-a-history", "empty-file")]
            assert rows + s.duplicates + len(hand_errors) >= markers, (rows, s.duplicates, hand_errors, markers)
            # the hands the mutated lines start: each stored, a duplicate, or rejected at a line of its own
            bad_markers = len(spec.marker.findall("\n".join(bad)))
            bad_errors = sum(1 for line in hand_errors if line is not None and 1 <= line <= len(bad))
            assert bad_rows + bad_errors + s.duplicates >= bad_markers, (bad_rows, bad_errors, s.duplicates, bad_markers)
            for e in s.errors:
                assert e["file"] == str(path) and (e["reason_code"] in ("not-a-history", "empty-file") or 1 <= e["line"] <= len(lines)), e
            assert len(errors) >= s.rejected
        finally:
            con.close()

    test_mutation_recall = pytest.mark.parametrize("check", recall_classes)(test_mutation_recall)
    for fn_name, fn in list(locals().items()):
        if fn_name.startswith("test_") and (fn_name != "test_mutation_recall" or recall_classes):
            fn.__name__ = f"test_{name}_{fn_name[5:]}"
            tests[fn.__name__] = fn
    tests["site_audit"] = site_audit
    tests["clean_mutation_sources"] = clean_mutation_sources
    tests["mutation_audit"] = mutation_audit
    return tests
