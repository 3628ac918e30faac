"""Every check has a violating and a passing fixture, found automatically.

Modelled on the rule registries of ruff and sqlfluff: for every check in
``auditor/checks/`` (``auditor.checks.load_checks()``) there must be a folder
``tests/fixtures/checks/<check-id>/`` with

* ``violating.<txt|phh>``: a short hand written for this project that breaks the
  check's rule once (a ``record`` check: shows the gap in the record once).  Run through the real pipeline (ingest, replay, checks) it
  must yield findings of that check only (at least one, or exactly
  ``expect_count``), each complete: rule and title from the catalog, hand, street,
  seat (for per-seat checks), expected and actual, message, and a source line in
  the fixture (the action's own line for action checks);
* ``passing.<txt|phh>``: its twin, changed only where needed to be right, with no
  finding at all;
* optionally ``meta.toml``: ``edition`` (default: the default edition, ``tda-2024``), ``expect_count``,
  ``arithmetic_off = true`` when the site's own arithmetic (total pot, collects,
  rake) is the deliberate error.

``tests/fixtures/editions/`` holds hands whose ruling depends on the TDA edition;
``editions.toml`` says which checks each edition must report for each file.

Each check's SQL header has ``check``, ``title``, ``severity``, ``category``,
``scope``, ``judges`` and ``rationale`` (``group`` and ``precedence`` optional): the registry
refuses a header without them, or with a value it does not know.  ``scope`` is
what the check reads to judge a hand: ``hand`` (its own rows: run in the ingest
workers during ``audit``, tests/test_worker_checks.py), ``table`` (the
``group: table`` checks) or ``store``.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from auditor.catalog import EDITIONS, citation
import auditor.checks as checks
from auditor.checks import load_checks, parse_check
from auditor.pipeline import audit
from fixture_audits import audit_file
from replay.editions import DEFAULT_EDITION  # tda-2024

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHECK_FIXTURES = FIXTURES / "checks"
EDITION_FIXTURES = FIXTURES / "editions"
BLIND_FIXTURES = FIXTURES / "blinds"  # short and missing blinds as pairs (tests/test_blinds.py)
HISTORY_EXTS = ("txt", "phh")
META_KEYS = {"edition", "expect_count", "arithmetic_off"}

CHECKS = {c.check_id: c for c in load_checks()}
PS_HEADER = re.compile(r"^(?:\ufeff)?PokerStars (?:Hand|Game) #(\d+):")


# --- helpers ---------------------------------------------------------------------------

def fixture_file(check_id: str, kind: str) -> Path:
    """The one ``<kind>.txt`` or ``<kind>.phh`` of a check; fails if there is none."""
    folder = CHECK_FIXTURES / check_id
    found = [folder / f"{kind}.{ext}" for ext in HISTORY_EXTS if (folder / f"{kind}.{ext}").is_file()]
    assert found, f"check {check_id!r} has no {folder.relative_to(FIXTURES.parent)}/{kind}.<txt|phh> fixture"
    assert len(found) == 1, f"check {check_id!r} has more than one {kind} fixture: {found}"
    return found[0]


def meta(check_id: str) -> dict:
    path = CHECK_FIXTURES / check_id / "meta.toml"
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - META_KEYS
    assert not unknown, f"{path}: unknown keys {sorted(unknown)} (allowed: {sorted(META_KEYS)})"
    return data


def run(path: Path, tmp_path: Path, edition: str) -> tuple[object, list[dict], duckdb.DuckDBPyConnection]:
    """Audit one fixture file in a fresh store; return the result, its findings and a
    read-only connection to the store."""
    db = tmp_path / f"{path.parent.name}-{path.stem}-{edition}.duckdb"
    result = audit([path], db=db, edition_name=edition)
    assert result.ingest.rejected == 0, result.ingest.errors
    assert result.ingest.stored == result.ingest.hands_seen >= 1
    con = duckdb.connect(str(db), read_only=True)
    return result, result.findings, con


def audited(path: Path, edition: str):
    """A fixture file's share of its batch's audit (tests/fixture_audits.py), with its file's
    ingest line checked as ``run`` checks a file audited alone; the store holds the other
    files of the batch too: read it for this file's hands (``hand_ids``)."""
    result = audit_file(path, edition)
    assert result.ingest.rejected == 0, result.errors
    assert result.ingest.stored == result.ingest.seen >= 1
    return result


def expected_rule(check_id: str, edition: str) -> tuple[str, str]:
    """Rule numbers and titles a finding must carry, straight from the catalog."""
    cites = [c for c in citation(check_id, edition) if not c.missing]
    assert cites, f"{check_id} has no rule under {edition}"
    return ", ".join(c.ref for c in cites), "; ".join(dict.fromkeys(c.title for c in cites))


def per_seat(check_id: str) -> bool:
    """A check reports a seat unless its SELECT writes a NULL seat, or a seat only in some
    rows (a CASE: stack-unrecorded names the seat where one seat's stack is unknown)."""
    return not re.search(r"(?:NULL|END)(?:::\w+)?\s+AS\s+seat\b", CHECKS[check_id].body, re.IGNORECASE)


def ps_hands(path: Path) -> list[tuple[str, list[str]]]:
    hands: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if m := PS_HEADER.match(line):
            hands.append((m.group(1), []))
        if hands:
            hands[-1][1].append(line.rstrip())
    return hands


AMT = r"[$€£]?([\d,]+(?:\.\d+)?)"
FIRST_STREET = ("*** HOLE CARDS", "*** 3rd STREET", "*** DEALING HANDS")


def site_arithmetic(lines: list[str]) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    """(chips put in less uncalled, Total pot, collected, rake) as the hand writes them."""
    amt = lambda s: Decimal(s.replace(",", ""))  # noqa: E731
    put_in = collected = Decimal(0)
    total = rake = None
    street: dict[str, Decimal] = {}
    in_summary = False
    for ln in lines:
        if ln.startswith("*** SUMMARY"):
            in_summary = True
        if in_summary:
            if m := re.match(rf"Total pot {AMT}.*\| Rake {AMT}", ln):
                total, rake = amt(m.group(1)), amt(m.group(2))
            continue
        if ln.startswith("*** ") and not ln.startswith(FIRST_STREET):
            street = {}
        elif m := re.match(rf"(.+?) collected {AMT} from ", ln):
            collected += amt(m.group(2))
        elif m := re.match(rf"Uncalled bet \({AMT}\) returned to ", ln):
            put_in -= amt(m.group(1))
        elif m := re.match(rf"(.+?): posts the ante {AMT}", ln):
            put_in += amt(m.group(2))
        elif m := re.match(rf"(.+?): (?:posts (?:small|big) blind|posts small & big blinds|brings in for|calls|bets) {AMT}", ln):
            street[m.group(1)] = street.get(m.group(1), Decimal(0)) + amt(m.group(2))
            put_in += amt(m.group(2))
        elif m := re.match(rf"(.+?): raises {AMT} to {AMT}", ln):
            to = amt(m.group(3))
            put_in += to - street.get(m.group(1), Decimal(0))
            street[m.group(1)] = to
    assert total is not None, lines[0]
    return put_in, total, collected, rake


def parsed_hands(path: Path) -> list:
    """The hands of a fixture as the parser that detects it reads them (every format)."""
    from parsers import detect_parser, iter_lines, open_source
    from parsers.base import ParsedHand

    info = open_source(path)
    hands = list(detect_parser(info.head, str(path)).iter_hands(iter_lines(path, info.encoding), str(path)))
    assert hands and all(isinstance(h, ParsedHand) for h in hands), (path, hands)
    return hands


def all_fixture_files() -> list[Path]:
    return sorted(p for ext in HISTORY_EXTS for p in [*CHECK_FIXTURES.glob(f"*/*.{ext}"), *EDITION_FIXTURES.glob(f"*.{ext}"),
                                                      *BLIND_FIXTURES.glob(f"*/*.{ext}")])


# --- the registry ----------------------------------------------------------------------

def test_registry_is_not_empty():
    assert len(CHECKS) >= 14


def test_every_check_has_a_fixture_pair():
    missing = []
    for check_id in CHECKS:
        for kind in ("violating", "passing"):
            folder = CHECK_FIXTURES / check_id
            if not any((folder / f"{kind}.{ext}").is_file() for ext in HISTORY_EXTS):
                missing.append(f"{check_id}/{kind}")
    assert not missing, f"checks without fixtures in {CHECK_FIXTURES}: {missing}"


def test_no_fixture_folder_without_a_check():
    stale = sorted(p.name for p in CHECK_FIXTURES.iterdir() if p.is_dir() and p.name not in CHECKS)
    assert not stale, f"fixture folders for checks that do not exist: {stale}"


def test_meta_files_are_valid():
    for check_id in CHECKS:
        m = meta(check_id)
        assert m.get("edition", DEFAULT_EDITION) in EDITIONS, check_id
        if "expect_count" in m:
            assert isinstance(m["expect_count"], int) and m["expect_count"] >= 1, check_id


def test_hand_numbers_are_unique_and_in_the_fixture_range():
    ids = [hid for p in all_fixture_files() if p.suffix == ".txt" for hid, _ in ps_hands(p)]
    assert ids
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert all(i.startswith("77000000") and len(i) == 12 for i in ids), ids


@pytest.mark.parametrize("path", [p for p in all_fixture_files() if p.suffix == ".txt"],  # PHH records no totals
                         ids=lambda p: str(p.relative_to(FIXTURES)))
def test_site_arithmetic_adds_up(path):
    """Total pot = chips put in - uncalled; collected + rake = Total pot: the fixtures
    keep the site's own arithmetic except where it is the deliberate error.  PokerStars
    text is re-added from its lines; other formats (WPN's 2016 text, iPoker XML) from
    their parsed events, as the per-site corpus tests re-add them."""
    from site_corpus import rearithmetic

    off = path.stem == "violating" and path.parent.parent == CHECK_FIXTURES and meta(path.parent.name).get("arithmetic_off")
    hands = parsed_hands(path)
    text_hands = ps_hands(path)
    if not text_hands:  # not PokerStars text: the parsed events
        for h in hands:
            if h.record_cut is not None:
                # a record cut short has no totals: only record-incomplete's violating fixture is one
                assert (path.parent.name, path.stem) == ("record-incomplete", "violating"), (path, h.record_cut)
                assert rearithmetic(h) == "no total pot", h.hand_id
                continue
            why = rearithmetic(h)
            assert (why is not None) == bool(off), f"{path}: hand {h.hand_id}: {why or 'adds up, marked arithmetic_off'}"
            # someone collects the pot (a house take of the whole pot re-adds too)
            assert any(e.kind == "collect" and e.amount for e in h.events), f"{path}: hand {h.hand_id} has no collect"
        return
    assert len(text_hands) == len(hands), (path, len(text_hands), len(hands))  # every hand re-added
    for hid, lines in text_hands:
        put_in, total, collected, rake = site_arithmetic(lines)
        ok = put_in == total and collected + rake == total
        if off:
            assert not ok, f"{path}: hand {hid} is marked arithmetic_off but adds up"
        else:
            assert put_in == total, f"hand {hid}: chips put in less uncalled {put_in} != Total pot {total}"
            assert collected + rake == total, f"hand {hid}: collected {collected} + rake {rake} != Total pot {total}"


def test_every_check_says_its_scope_and_the_table_checks_are_the_table_scope():
    every = load_checks()
    assert {c.scope for c in every} == set(checks.SCOPES)
    for c in every:
        assert (c.scope == "table") == (c.group == "table"), c.check_id
    assert {c.scope for c in every if c.group == "award"} == {"hand"}
    # uncalled-bet reads the player's next hand at the table: never one hand's rows alone
    assert next(c for c in every if c.check_id == "uncalled-bet").scope == "store"
    assert len([c for c in every if c.scope == "hand"]) >= 15


def test_no_violation_rests_on_a_recommended_procedure_alone():
    """A Recommended Procedure recommends, it does not rule (docs/semantics.md, "Finding
    categories"). Walk every check's citations in every edition against its header: a check
    whose findings are violations cites a Rule wherever it runs; one that cites an RP says so
    (judges) and names, in its column rp, the rows that rest on the RP alone, which
    checks.insert_findings makes departures citing it alone; one that judges rules alone cites
    no RP."""
    from auditor.catalog import is_recommended

    seen_rp = set()
    for c in load_checks():
        has_rp_column = re.search(r"\bAS\s+rp\b", c.body, re.IGNORECASE) is not None
        cited_rp = False
        for ed in EDITIONS:
            cites = [x for x in citation(c.check_id, ed) if not x.missing]
            if not cites:
                continue  # the check does not run under this edition
            rps = [x for x in cites if is_recommended(x)]
            cited_rp = cited_rp or bool(rps)
            if c.category == "violation":
                assert len(rps) < len(cites), f"{c.check_id} under {ed}: its violations would cite {[x.ref for x in rps]} alone"
            if rps:
                assert "recommended procedures" in c.judges, f"{c.check_id} cites {[x.ref for x in rps]} under {ed}: say so (judges)"
                assert has_rp_column or c.category != "violation", f"{c.check_id}: name the rows that rest on an RP (column rp)"
                seen_rp.add(c.check_id)
        assert ("recommended procedures" in c.judges) == cited_rp, f"{c.check_id}: judges {c.judges}, cites an RP: {cited_rp}"
        assert ("rules" in c.judges) or c.category != "violation", c.check_id
    assert seen_rp == {"blind-level", "bring-in"}


def test_a_row_resting_on_an_rp_alone_is_a_departure_citing_it_alone(tmp_path, monkeypatch):
    """checks.insert_findings: bring-in's rows made to rest on RP-10-E (its column rp) are
    departures citing RP-10-E alone where the edition has it (2024), and stay the check's
    violations citing its rules where it has not (2017: no Recommended Procedure RP-10)."""
    folder = tmp_path / "checks"
    shutil.copytree(checks.checks_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    sql = folder / "bring-in.sql"
    text = sql.read_text(encoding="utf-8")
    assert "END AS rp" in text
    sql.write_text(text.replace("CASE WHEN x.bring_seat <> x.low_seat THEN 'RP-10-E' END AS rp", "'RP-10-E' AS rp"),
                   encoding="utf-8")
    monkeypatch.setattr(checks, "checks_dir", lambda: folder)
    path = fixture_file("bring-in", "violating")
    _, findings, con = run(path, tmp_path, "tda-2024")
    con.close()
    assert findings and all((f["category"], f["rule"], f["rule_title"]) == (
        "departure", "RP-10-E", "Tournament Stud Dealing Procedures") for f in findings), findings
    assert all(f["category_basis"].startswith("RP-10-E (Tournament Stud Dealing Procedures) is a Recommended Procedure")
               for f in findings)
    _, findings, con = run(path, tmp_path, "tda-2017")
    con.close()
    assert findings and all((f["category"], f["rule"]) == ("violation", "30") for f in findings), findings


def test_no_check_names_a_format_its_parser_declares_the_facts():
    """What a check must know of a format is declared by its parser and reaches SQL as a
    macro (parsers.format_facts, auditor.store.macros_sql): no check compares
    hands.format with a name of its own."""
    from auditor.store import macros_sql
    from parsers import all_parsers, format_facts

    names = {p.name for p in all_parsers()}
    for c in load_checks():
        body = re.sub(r"--[^\n]*", "", c.body)  # comments may name formats
        named = {n for n in re.findall(r"'([a-z0-9-]+)'", body) if n in names}
        assert not named, (c.check_id, named)
    con = duckdb.connect()
    con.execute(macros_sql())
    for name, facts in format_facts().items():
        assert con.execute("SELECT showdown_listed_by_site(?), records_rebuys(?), total_less_uncalled(?)",
                           [name, name, name]).fetchone() == (
            facts.showdown_listed_by_site, facts.records_rebuys, facts.total_less_uncalled)
    assert con.execute("SELECT records_rebuys(NULL), showdown_listed_by_site('no-such-format')").fetchone() == (None, False)


def test_checks_know_a_variants_streets_from_the_schema():
    """A variant's family and betting streets are the schema's (auditor.schema.betting_streets)
    and reach SQL as macros (auditor.store.macros_sql): is_stud, first_street, last_street
    give every variant's; no check lists stud variants or games' last streets of its own
    (5-card stud's streets are not 7-card stud's)."""
    from auditor.schema import Variant, betting_streets, street_family
    from auditor.store import macros_sql

    con = duckdb.connect()
    con.execute(macros_sql())
    for v in Variant:
        streets = betting_streets(v, street_family(v))
        assert con.execute("SELECT is_stud(?), first_street(?), last_street(?)", [v.value] * 3).fetchone() == (
            street_family(v) == "stud", streets[0], streets[-1]), v
    assert con.execute("SELECT first_street('5_card_stud'), last_street('5_card_stud'), last_street('stud')"
                       ).fetchone() == ("second", "fifth", "seventh")
    for c in load_checks():
        body = re.sub(r"--[^\n]*", "", c.body)
        named = set(re.findall(r"'(stud|stud_hilo|5_card_stud|seventh|third_draw|first_draw)'", body))
        assert not named, (c.check_id, named)


@pytest.mark.parametrize("change, error", [
    (lambda t: t.replace("-- scope: hand\n", ""), "header lacks scope"),
    (lambda t: t.replace("-- scope: hand", "-- scope: unit"), "scope must be one of"),
    (lambda t: t.replace("-- scope: hand", "-- scope: table"), "scope table is for the group table checks"),
    (lambda t: t.replace("-- judges: rules\n", ""), "header lacks judges"),
    (lambda t: t.replace("-- judges: rules", "-- judges: rulings"), "judges must say rules"),
    (lambda t: t.replace("-- judges: rules", "-- judges: recommended procedures"), "judges recommended procedures alone finds no"),
])
def test_the_registry_refuses_a_missing_or_wrong_scope(change, error, tmp_path):
    text = (checks.checks_dir() / "undercall.sql").read_text(encoding="utf-8")
    assert "-- scope: hand\n" in text
    bad = tmp_path / "undercall.sql"
    bad.write_text(change(text), encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        parse_check(bad)


def test_the_award_checks_must_share_one_scope(tmp_path, monkeypatch):
    folder = tmp_path / "checks"
    shutil.copytree(checks.checks_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    side_pot = folder / "side-pot.sql"
    side_pot.write_text(side_pot.read_text(encoding="utf-8").replace("-- scope: hand", "-- scope: store"), encoding="utf-8")
    monkeypatch.setattr(checks, "checks_dir", lambda: folder)
    with pytest.raises(ValueError, match="award checks must share one scope"):
        load_checks()


# --- violating and passing fixtures ----------------------------------------------------

@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_violating_fixture(check_id):
    path = fixture_file(check_id, "violating")
    m = meta(check_id)
    edition = m.get("edition", DEFAULT_EDITION)
    check = CHECKS[check_id]
    result = audited(path, edition)
    findings, con = result.findings, result.connect()
    try:
        got = sorted({f["check_id"] for f in findings})
        assert got == [check_id], f"{path.name} should yield only {check_id}, got {[(f['check_id'], f['message']) for f in findings]}"
        if "expect_count" in m:
            assert len(findings) == m["expect_count"]
        assert result.findings_by_check[check_id] == len(findings) >= 1
        assert all(n == 0 for c, n in result.findings_by_check.items() if c != check_id)

        rule, title = expected_rule(check_id, edition)
        hand_ids = result.hand_ids
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        for f in findings:
            assert f["severity"] == check.severity
            # a fixture pair's violation stays one under the house profiles (a record check's finding, a record)
            assert f["category"] == check.category, f
            assert f["edition"] == edition
            assert f["rule"] == rule and f["rule_title"] == title
            assert f["hand_id"] in hand_ids
            assert f["street"]
            if per_seat(check_id):
                assert f["seat"] is not None and f["player"], f
            assert f["expected"] not in (None, "") and f["actual"] not in (None, ""), f
            assert f["expected"] != f["actual"], f
            assert f["message"] and f["message"].endswith("."), f
            assert Path(f["source_path"]).resolve() == path.resolve()
            first, last = con.execute("SELECT first_line, last_line FROM hands WHERE hand_id = ?", [f["hand_id"]]).fetchone()
            assert f["line_no"] is not None and first <= f["line_no"] <= last <= len(lines), f
            line = lines[f["line_no"] - 1]
            if f["seq"] is not None and check.group != "table":
                # an action (or showdown) check: the line is that event's own line (a table
                # check points at the line that shows the sequence went wrong, e.g. the post
                # of the seat that took a skipped player's big blind)
                ev = con.execute("SELECT line_no, player FROM events WHERE hand_id = ? AND seq = ?", [f["hand_id"], f["seq"]]).fetchone()
                assert ev is not None and ev[0] == f["line_no"], (f, ev)
                assert f["player"] and f["player"] in line, (f["player"], line)
            elif f["player"] and check.group == "award":
                # an award check points at the collect line of the seat that got too much (or
                # the summary), which names a player
                assert " collected " in line or line.startswith("Total pot") or line.startswith("Seat "), line
    finally:
        con.close()


@pytest.mark.parametrize("check_id", sorted(CHECKS))
def test_passing_fixture(check_id):
    path = fixture_file(check_id, "passing")
    edition = meta(check_id).get("edition", DEFAULT_EDITION)
    result = audited(path, edition)
    findings = result.findings
    assert findings == [], [(f["check_id"], f["message"]) for f in findings]
    assert not any(result.findings_by_check.values())


@pytest.mark.parametrize("check_id", sorted(c for c in CHECKS if CHECKS[c].group != "table"))
def test_twins_differ_little(check_id):
    """The passing twin changes only what is needed: same format, players, seats and stacks,
    hand for hand, as the parser reads them (every format).  Table checks' twins are
    sequences of hands, whose stacks move with the story: not compared.  The changes allowed
    in the seats: the passing twin of a player acting with no seat line gives him one, and
    the twin of a hand that does not record a stack records it."""
    from parsers import detect_parser, open_source

    v, p = fixture_file(check_id, "violating"), fixture_file(check_id, "passing")
    assert detect_parser(open_source(v).head, str(v)).name == detect_parser(open_source(p).head, str(p)).name
    v_hands, p_hands = parsed_hands(v), parsed_hands(p)
    assert len(v_hands) == len(p_hands)
    for vh, ph in zip(v_hands, p_hands):
        # (a stack the violating hand does not record, stack-unrecorded's, is the twin's to give)
        known = {(s.seat, s.player) for s in vh.seats if s.starting_stack is None}
        seats = lambda h: {(s.seat, s.player, None if (s.seat, s.player) in known else s.starting_stack)  # noqa: E731
                           for s in h.seats}
        seatless = {e.player for e in vh.events if e.seat is None and e.player}
        assert seats(vh) <= seats(ph), (vh.hand_id, seats(vh) - seats(ph))
        assert {player for _, player, _ in seats(ph) - seats(vh)} == seatless, (vh.hand_id, seats(ph) - seats(vh))


# --- editions ---------------------------------------------------------------------------

def edition_cases() -> list[tuple[str, str, list[str], list[str]]]:
    spec = tomllib.loads((EDITION_FIXTURES / "editions.toml").read_text(encoding="utf-8"))
    return [(name, ed, entry[ed], entry.get("departures", [])) for name, entry in spec.items() for ed in EDITIONS]


def test_edition_fixtures_are_listed_and_change_a_ruling():
    spec = tomllib.loads((EDITION_FIXTURES / "editions.toml").read_text(encoding="utf-8"))
    files = {p.name for ext in HISTORY_EXTS for p in EDITION_FIXTURES.glob(f"*.{ext}")}
    assert files == set(spec), "every file in tests/fixtures/editions is listed in editions.toml, and only those"
    for name, entry in spec.items():
        assert set(EDITIONS) <= set(entry), f"{name}: give the expected checks for every edition"
        assert set(entry) <= {*EDITIONS, "about", "departures"}, f"{name}: unknown keys"
        assert set(entry.get("departures", [])) <= {c for ed in EDITIONS for c in entry[ed]}, name
        outcomes = {tuple(sorted(entry[ed])) for ed in EDITIONS}
        assert len(outcomes) > 1, f"{name}: the same ruling under every edition"
        for ed in EDITIONS:
            for check_id in entry[ed]:
                assert check_id in CHECKS, f"{name}: unknown check {check_id}"
                assert not all(c.missing for c in citation(check_id, ed)), f"{name}: {check_id} cannot run under {ed}"


@pytest.mark.parametrize(("name", "edition", "expected", "departures"), edition_cases(),
                         ids=lambda x: x if isinstance(x, str) else None)
def test_edition_fixture(name, edition, expected, departures):
    path = EDITION_FIXTURES / name
    result = audited(path, edition)
    findings = result.findings
    got = sorted(f["check_id"] for f in findings)  # a check id once per finding
    assert got == sorted(expected), [(f["check_id"], f["message"]) for f in findings]
    for f in findings:
        if f["check_id"] in departures:
            # a finding resting on a Recommended Procedure alone cites it alone, and departs from it
            [rp] = [c for c in citation(f["check_id"], edition) if c.ref == f["rule"]]
            assert rp.rule.startswith("RP-") and f["rule_title"] == rp.title, f
            assert f["category"] == "departure" and rp.quote in f["category_basis"], f
        else:
            assert (f["rule"], f["rule_title"]) == expected_rule(f["check_id"], edition)
            assert f["category"] == "violation", f
        assert f["edition"] == edition
    # a check whose rule the edition lacks does not run at all (no finding in the whole batch)
    for check_id in CHECKS:
        if all(c.missing for c in citation(check_id, edition)):
            assert result.batch_findings_by_check.get(check_id, 0) == 0


def test_one_award_check_run_alone_keeps_the_precedence(tmp_path):
    """An award error is reported once, under the most specific award check; running
    one award check again (``check --check wrong-winner``) must not report a hand a
    more specific one has (the sample's odd-chip hand), nor lose any."""
    from conftest import SAMPLES

    from auditor.checks import load_checks, run_checks
    from auditor.pipeline import audit
    from auditor.store import connect

    db = str(tmp_path / "a.duckdb")
    audit([SAMPLES], db=db, edition_name="tda-2019", jobs=1)
    con = connect(db)
    try:
        everything = con.execute("SELECT check_id, hand_id, seat FROM findings ORDER BY ALL").fetchall()
        assert {c for c, _, _ in everything} >= {"odd-chip", "wrong-winner"}
        for award in [c.check_id for c in load_checks() if c.group == "award"]:
            run_checks(con, "tda-2019", [award])
            assert con.execute("SELECT check_id, hand_id, seat FROM findings ORDER BY ALL").fetchall() == everything, award
    finally:
        con.close()


# a PartyPoker cash hand: Lou is all in before the flop and, at the showdown, the history
# writes his cards in a line saying he did not show them
_PARTY_ALLIN_NOT_SHOWN = """#Game No : 15000000001
***** Hand History for Game 15000000001 *****
€4 EUR NL Texas Hold'em - Wednesday, December 24, 07:10:00 CEST 2014
Table Besancon (Real Money)
Seat 2 is the button
Total number of players : 3/6
Seat 1: Lou ( €1.50 EUR )
Seat 2: Max ( €4 EUR )
Seat 4: Noe ( €5 EUR )
Noe posts small blind [€0.02 EUR].
Lou posts big blind [€0.04 EUR].
** Dealing down cards **
Max folds
Noe raises [€0.30 EUR]
Lou is all-In [€1.46 EUR]
Noe calls [€1.18 EUR]
** Dealing Flop ** [ 4h, Jc, 4d ]
** Dealing Turn ** [ Qh ]
** Dealing River ** [ 3s ]
Lou doesn't show [ 6s, 9s ]
Noe shows [ As, Kc ]
Noe wins €2.97 EUR from the main pot.
"""


def test_allin_muck_whose_cards_the_history_prints_is_still_a_muck(tmp_path):
    """Rule 16 (2024): no player all in or who called all betting may muck 'without tabling';
    Rule 13-A: tabling is turning the cards face up on the table for the dealer and players to
    read.  A history that prints a mucked hand's cards (Party's "doesn't show [ 6s, 9s ]",
    Bovada's 'Mucks [9s Ts]', PokerStars' summary 'mucked [Jh Tc]') gives them to its holder
    after the hand; its own words say they were not tabled: the muck stands (a violation where
    the house declares no allin_muck policy, partypoker's).  Shown, the same cards: no finding."""
    f = tmp_path / "party.txt"
    f.write_text(_PARTY_ALLIN_NOT_SHOWN, encoding="utf-8")
    res = audit([f], db=tmp_path / "party.duckdb")
    assert res.ingest.stored == 1
    assert [(x["check_id"], x["category"], x["seat"], x["line_no"]) for x in res.findings] == [
        ("allin-muck", "violation", 1, 20)]
    con = duckdb.connect(str(tmp_path / "party.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT kind, cards FROM events WHERE seat = 1 AND street = 'showdown'").fetchall() == [
            ("muck", "6s 9s")]
    finally:
        con.close()
    shown = tmp_path / "shown.txt"
    shown.write_text(_PARTY_ALLIN_NOT_SHOWN.replace("Lou doesn't show [", "Lou shows ["), encoding="utf-8")
    res = audit([shown], db=tmp_path / "shown.duckdb")
    assert (res.ingest.stored, res.findings) == (1, [])
