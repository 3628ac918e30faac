"""Finding categories (violation, departure, record), inferred uncalled returns and
house-rule profiles (docs/semantics.md, "Finding categories").

Small hands are made from the check fixtures by editing a line or two; the corpus
test reads fpdb/tour/Stars/Flop/NLHE-USD-MTT-5r-200710.txt, whose 2007 format writes
no "Uncalled bet" lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from auditor.checks import CATEGORIES, load_checks
from auditor.cli import main
from auditor.house import HouseError, choose, load_profiles
from auditor.pipeline import audit
from conftest import CORPUS, FIXTURES, SAMPLES, needs_corpus
from fixture_audits import audit_file
from replay.editions import DEFAULT_EDITION

CHECKS = FIXTURES / "checks"
UNCALLED = (CHECKS / "uncalled-bet" / "passing.txt").read_text(encoding="utf-8")
ALLIN_MUCK = (CHECKS / "allin-muck" / "violating.txt").read_text(encoding="utf-8")
GAP = FIXTURES / "table_checks" / "stack-continuity-gap.txt"


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def findings_of(tmp_path: Path, text: str, house: str = "auto") -> tuple[list[dict], str]:
    db = str(tmp_path / f"{house.replace('/', '_')}.duckdb")
    res = audit([write(tmp_path, "hand.txt", text)], db, house=house)
    return res.findings, db


def as_is(path: Path):
    """A fixture file as ``findings_of`` audits its text (the default edition, house auto),
    read from its batch's audit (tests/fixture_audits.py): its findings, and its hands in
    the batch's store."""
    return audit_file(path, DEFAULT_EDITION)


def no_return_line(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("Uncalled bet")) + "\n"


def test_every_check_declares_a_default_category():
    for c in load_checks():
        assert c.category in ("violation", "record"), c.check_id  # departures come from house profiles only
    assert CATEGORIES == ("violation", "departure", "record")


# --- inferred events ---------------------------------------------------------------------

def test_a_return_the_total_pot_and_collect_imply_is_inferred_not_a_violation(tmp_path):
    # the fixture's "Uncalled bet (360) returned to Ivo Petrić" left out, as 2007 PokerStars
    # histories do: Total pot 2330 = 2690 put in - 360, and allin_amir collected 2330
    found, db = findings_of(tmp_path, no_return_line(UNCALLED))
    assert found == []
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT seat, returned_expected, returned_recorded, returned_basis, returned_from "
                           "FROM hand_results WHERE returned_expected > 0").fetchall()
    assert rows == [(3, 360, 360, "inferred", "total pot line 28; collected line 26")]
    # explain shows the implied event as inferred, with the lines it rests on
    out = run("explain", "PS-770000000082", "--db", db).output
    assert "inferred" in out and "360" in out and "total pot line 28" in out


def test_the_recorded_return_stays_recorded():
    res = as_is(CHECKS / "uncalled-bet" / "passing.txt")  # UNCALLED
    assert res.findings == []
    with res.connect() as con:
        assert con.execute("SELECT DISTINCT returned_basis FROM hand_results WHERE list_contains(?, hand_id)",
                           [sorted(res.hand_ids)]).fetchall() == [("recorded",)]


def test_a_return_the_record_contradicts_is_still_a_violation(tmp_path):
    # no return line, and the 360 went into the pot: Total pot 2690, collected 2690
    text = (no_return_line(UNCALLED).replace("collected 2330 from pot", "collected 2690 from pot")
            .replace("Total pot 2330", "Total pot 2690").replace("won (2330)", "won (2690)"))
    found, _ = findings_of(tmp_path, text)
    assert [(f["check_id"], f["category"], f["seat"]) for f in found] == [("uncalled-bet", "violation", 3)]
    assert "nothing was returned" in found[0]["message"]


def test_an_inference_the_record_cannot_support_is_a_record_finding(tmp_path):
    # no return line; Total pot and collect say neither 2330 (returned) nor 2690 (kept)
    text = (no_return_line(UNCALLED).replace("collected 2330 from pot", "collected 2400 from pot")
            .replace("Total pot 2330", "Total pot 2400").replace("won (2330)", "won (2400)"))
    found, _ = findings_of(tmp_path, text)
    uncalled = [f for f in found if f["check_id"] == "uncalled-bet"]
    assert [(f["category"], f["seat"]) for f in uncalled] == [("record", 3)]
    assert uncalled[0]["category_basis"] == "an implied return the record cannot support"
    # the awards agree with the Total pot line (2400), both with neither the chips put in
    # (2690) nor those less the return (2330): the record contradicts itself, a record finding
    assert {(f["check_id"], f["category"]) for f in found if f["check_id"] != "uncalled-bet"} == {("chip-conservation", "record")}


# --- uncalled-bet: a wrong return that moved no chip -------------------------------------

WALK = """PokerStars Hand #770000000301: Tournament #3120099081, $10+$1 USD Hold'em No Limit - Level V (50/100) - 2022/03/18 21:30:00 ET
Table '3120099081 12' 9-max Seat #1 is the button
Seat 1: Ulla (3900 in chips)
Seat 2: Bo (2000 in chips)
Seat 3: Cyd (2500 in chips)
Bo: posts small blind 50
Cyd: posts big blind 100
*** HOLE CARDS ***
Ulla: folds
Bo: folds
Cyd collected 150 from pot
*** SUMMARY ***
Total pot 150 | Rake 0
Seat 1: Ulla (button) folded before Flop (didn't bet)
Seat 2: Bo (small blind) folded before Flop
Seat 3: Cyd (big blind) collected (150)
"""


def test_a_walk_written_with_no_return_is_a_record_finding(tmp_path):
    # the big blind's unmatched 50 is counted in his collect (as WPN, Run It Once and
    # converters write walks): what he got back in all, 150, is the rules' 50 + 100
    found, _ = findings_of(tmp_path, WALK)
    assert [(f["check_id"], f["category"], f["seat"]) for f in found] == [("uncalled-bet", "record", 3)]
    assert "the end stack is right" in found[0]["message"] and "no return and 150 won" in found[0]["message"]
    assert found[0]["category_basis"].startswith("the end stack is right")
    # the same walk with the whole big blind written as returned and the small blind as won
    text = WALK.replace("Cyd collected 150 from pot", "Uncalled bet (100) returned to Cyd\nCyd collected 50 from pot") \
               .replace("Total pot 150", "Total pot 50").replace("collected (150)", "collected (50)")
    (tmp_path / "w2").mkdir()
    found, _ = findings_of(tmp_path / "w2", text)
    assert [(f["check_id"], f["category"]) for f in found] == [("uncalled-bet", "record")]
    assert "100 returned and 50 won, 150 in all" in found[0]["message"]


def _flop_bet_uncontested(returned: int) -> str:
    """The uncalled-bet fixture's hand, ended by a fold to Ivo's flop bet of 250: 250 uncalled,
    a pot of 550; the return line writes ``returned``."""
    head = UNCALLED.split("*** FLOP ***")[0]
    return head + f"""*** FLOP *** [Jh 6c 3d]
allin_amir: checks
Ivo Petrić: bets 250
allin_amir: folds
Uncalled bet ({returned}) returned to Ivo Petrić
Ivo Petrić collected 550 from pot
*** SUMMARY ***
Total pot 550 | Rake 0
Board [Jh 6c 3d]
Seat 1: Ulla (small blind) folded before Flop
Seat 2: allin_amir (big blind) folded on the Flop
Seat 3: Ivo Petrić (button) collected (550)
"""


def test_a_return_line_only_the_record_contradicts_is_a_record_finding(tmp_path):
    # 'Uncalled bet (550)', the collect's amount (as Run It Once wrote one), where the Total pot
    # (550 = 800 put in - 250) and the collect agree with a return of 250
    found, _ = findings_of(tmp_path, _flop_bet_uncontested(550))
    assert [(f["check_id"], f["category"], f["seat"]) for f in found] == [("uncalled-bet", "record", 3)]
    assert "contradicts itself" in found[0]["message"]


def test_a_wrong_return_the_next_stack_confirms_is_a_violation(tmp_path):
    # the same hand, and Ivo's next hand at the table starts with the 5600 the lines give
    # him (5000 - 500 + 550 + 550), not the rules' 5300: the return changed his stack
    nxt = """PokerStars Hand #770000000083: Tournament #3120099081, $10+$1 USD Hold'em No Limit - Level V (50/100) - 2022/03/18 21:13:30 ET
Table '3120099081 11' 9-max Seat #1 is the button
Seat 1: Ulla (3850 in chips)
Seat 2: allin_amir (890 in chips)
Seat 3: Ivo Petrić (5600 in chips)
allin_amir: posts small blind 50
Ivo Petrić: posts big blind 100
*** HOLE CARDS ***
Ulla: folds
allin_amir: folds
Uncalled bet (50) returned to Ivo Petrić
Ivo Petrić collected 100 from pot
*** SUMMARY ***
Total pot 100 | Rake 0
Seat 1: Ulla (button) folded before Flop (didn't bet)
Seat 2: allin_amir (small blind) folded before Flop
Seat 3: Ivo Petrić (big blind) collected (100)
"""
    found, _ = findings_of(tmp_path, _flop_bet_uncontested(550) + "\n\n\n" + nxt)
    assert [(f["check_id"], f["category"], f["seat"]) for f in found if f["check_id"] == "uncalled-bet"] == [
        ("uncalled-bet", "violation", 3)]


# --- chip-conservation: which lines disagree ---------------------------------------------

CONSERVED = (CHECKS / "chip-conservation" / "passing.txt").read_text(encoding="utf-8")


def test_a_collect_the_summary_contradicts_is_a_record_finding(tmp_path):
    # the collect line says 7.00, the summary's own line for the seat the right 6.95
    found, _ = findings_of(tmp_path, CONSERVED.replace("collected $6.95 from pot", "collected $7.00 from pot"))
    assert [(f["check_id"], f["category"]) for f in found] == [("chip-conservation", "record")]
    assert "contradict the summary" in found[0]["message"]


def test_an_award_the_total_pot_and_summary_agree_against_is_a_violation():
    # the fixture's violation: Total pot $7.25 is what the actions put in, the collect and
    # the summary both say $6.59, not $6.95 (7.25 less the 0.30 rake)
    found = as_is(CHECKS / "chip-conservation" / "violating.txt").findings
    assert [(f["check_id"], f["category"]) for f in found] == [("chip-conservation", "violation")]


def test_a_total_made_up_from_the_chip_lines_states_nothing(tmp_path):
    """Party's cash hands write no total pot: the parser makes one up from the chip lines and
    places it on the last collect line, one of the lines it rests on. It is no total the
    history states, so a hand whose win line pays more than went in does not contradict
    itself: the pot given to the wrong player is still a violation, overpaid or not (unlike
    Winamax's total line read less the uncalled chips it counts: total_less_uncalled)."""
    hands = (SAMPLES / "partypoker" / "double-holdem-cash-wrong-winner.txt").read_text(encoding="utf-8")
    hand = next(h for h in hands.split("#Game No : ") if h.startswith("900000006001"))
    assert "Ann Arbor wins $0.74 USD from the main pot" in hand
    for name, text in (("as-written", hand), ("overpaid", hand.replace("wins $0.74 USD", "wins $0.80 USD"))):
        (tmp_path / name).mkdir()
        found, _ = findings_of(tmp_path / name, "#Game No : " + text)
        assert [(f["check_id"], f["category"]) for f in found] == [("wrong-winner", "violation")], (name, found)


# --- each category ---------------------------------------------------------------------

def test_each_category(tmp_path):
    # violation: a fixture's broken rule
    v = as_is(CHECKS / "uncalled-bet" / "violating.txt").findings
    assert v and {(f["check_id"], f["category"]) for f in v} == {("uncalled-bet", "violation")}
    # record: hands missing from a table's history
    res = as_is(GAP)
    records = [f for f in res.findings if f["check_id"] == "stack-continuity"]
    assert records and {f["category"] for f in records} == {"record"}
    assert res.findings_by_category.get("record", 0) >= len(records)
    # departure: PokerStars let all-in hands be mucked in 2007-2015 (pokerstars.toml; 2015: a real cash
    # hand run twice, its caller mucking at both showdowns); after the window a violation again
    d, _ = findings_of(tmp_path, ALLIN_MUCK.replace("2022/03/23", "2010/03/23"))
    assert {(f["check_id"], f["category"]) for f in d} == {("allin-muck", "departure")}
    (tmp_path / "2015").mkdir()
    (tmp_path / "2016").mkdir()
    d, _ = findings_of(tmp_path / "2015", ALLIN_MUCK.replace("2022/03/23", "2015/08/24"))
    assert {(f["check_id"], f["category"]) for f in d} == {("allin-muck", "departure")}
    d, _ = findings_of(tmp_path / "2016", ALLIN_MUCK.replace("2022/03/23", "2016/01/04"))
    assert {(f["check_id"], f["category"]) for f in d} == {("allin-muck", "violation")}


# --- house-rule profiles ----------------------------------------------------------------

def test_a_profile_makes_a_departure_and_house_none_turns_it_back(tmp_path):
    text = ALLIN_MUCK.replace("2022/03/23", "2010/03/23")
    db = str(tmp_path / "h.duckdb")
    path = write(tmp_path, "muck.txt", text)
    r = run("audit", path, "--db", db, "--json")
    out = json.loads(r.output)
    assert out["house"]["mode"] == "auto" and out["house"]["text"].startswith("auto: pokerstars (pokerstars.toml)")
    assert [(p["profile"], Path(p["file"]).name, p["sites"]) for p in out["house"]["profiles"]] == [
        ("pokerstars", "pokerstars.toml", ["pokerstars"])]
    assert out["findings_by_category"] == {"violation": 0, "departure": len(out["findings"]), "record": 0}
    f = out["findings"][0]
    assert f["category"] == "departure"
    line = next(p.line for p in choose("pokerstars")[0].policies if p.name == "allin_muck")
    assert f["category_basis"].startswith(f"house profile pokerstars.toml line {line}: allin_muck = true")
    assert "source: observed" in f["category_basis"]
    # a departure does not fail the audit; named, it does
    assert run("audit", path, "--db", db, "--fail-on", "info").exit_code == 0
    assert run("audit", path, "--db", db, "--fail-on", "info", "--fail-category", "departure").exit_code == 1
    # bare TDA: the same finding is a violation again, and fails the audit
    r = run("audit", path, "--db", db, "--house", "none", "--fail-on", "warning")
    assert r.exit_code == 1 and "0 departures" in r.output and "house: none" in r.output
    bare = json.loads(run("audit", path, "--db", db, "--house", "none", "--json").output)["house"]
    assert bare == {"mode": "none", "profiles": [], "text": "none (bare TDA)"}
    assert [x["category"] for x in json.loads(run("findings", "--db", db, "--format", "json").output)] == ["violation"] * len(out["findings"])
    # the findings command filters by category; check re-applies the house profile
    assert run("check", "--db", db).exit_code == 0
    assert json.loads(run("findings", "--db", db, "--category", "violation", "--format", "json").output) == []
    assert len(json.loads(run("findings", "--db", db, "--category", "departure", "--format", "json").output)) == len(out["findings"])


def test_a_store_whose_house_line_is_prose_still_reads(tmp_path):
    """Stores categorised before the provenance was structured keep its line in meta:
    ``applied`` gives it as the text, with no mode or profiles to claim."""
    from auditor.house import applied
    from auditor.store import connect
    from replay.editions import DEFAULT_EDITION

    db = str(tmp_path / "old.duckdb")
    path = write(tmp_path, "muck.txt", ALLIN_MUCK)
    assert run("audit", path, "--db", db).exit_code == 0
    con = connect(db)
    con.execute("UPDATE meta SET value = 'auto: pokerstars (pokerstars.toml) for pokerstars hands' "
                "WHERE key = ?", [f"house:{DEFAULT_EDITION}"])
    assert applied(con, DEFAULT_EDITION) == {"mode": None, "profiles": None,
                                             "text": "auto: pokerstars (pokerstars.toml) for pokerstars hands"}
    assert applied(con, "tda-2013") is None
    con.close()
    r = run("report", "--db", db, "--out", str(tmp_path / "r.html"))
    assert r.exit_code == 0, r.output
    assert 'id="house">auto: pokerstars (pokerstars.toml) for pokerstars hands<' in (tmp_path / "r.html").read_text()


def test_the_categories_are_the_same_applied_a_few_findings_at_a_time(tmp_path, monkeypatch):
    """``house.apply`` updates the findings a range of hand ids at a time (some
    ``UPDATE_FINDINGS`` findings a transaction): in ranges of two findings, every
    finding gets the category and basis it gets in one range."""
    from auditor import house
    from auditor.store import connect
    from replay.editions import DEFAULT_EDITION

    muck = write(tmp_path, "muck.txt", ALLIN_MUCK.replace("2022/03/23", "2010/03/23"))
    db = str(tmp_path / "h.duckdb")
    audit([muck, SAMPLES], db)
    con = connect(db)
    try:
        def categories() -> list[tuple]:
            return con.execute("SELECT finding_id, category, category_basis FROM findings ORDER BY ALL").fetchall()

        whole = categories()
        assert {c for _, c, _ in whole} == {"violation", "departure"} and len(whole) > 12
        house.apply(con, DEFAULT_EDITION, "none")
        assert {c for _, c, _ in categories()} == {"violation"}
        monkeypatch.setattr(house, "UPDATE_FINDINGS", 2)
        ranges = house._hand_ranges(con, DEFAULT_EDITION)
        assert len(ranges) > 5 and ranges[-1][1] is None
        assert all(lo <= hi for lo, hi in ranges[:-1])  # (a hand of more findings than a range: lo == hi)
        house.apply(con, DEFAULT_EDITION, "auto")
        assert categories() == whole
    finally:
        con.close()


def test_a_dated_policy_does_not_reach_hands_outside_its_era():
    found = as_is(CHECKS / "allin-muck" / "violating.txt").findings  # ALLIN_MUCK, 2022: PokerStars tabled all-in hands again
    assert {f["category"] for f in found} == {"violation"}


def test_a_profile_file_applies_to_every_hand_and_is_cited(tmp_path):
    prof = write(tmp_path, "club.toml", 'name = "Club"\nsites = ["pokerstars"]\n\n[allin_muck]\nvalue = true\n'
                 'source = "published"\nevidence = "house rules sheet, rule 9"\n')
    found, _ = findings_of(tmp_path, ALLIN_MUCK, house=prof)
    assert {f["category"] for f in found} == {"departure"}
    assert found[0]["category_basis"].startswith("house profile club.toml line 4: allin_muck = true; source: published")


def test_a_profile_must_say_its_source(tmp_path):
    bad = write(tmp_path, "bad.toml", 'name = "X"\nsites = ["pokerstars"]\n[button]\nvalue = "both-blinds-moved"\n'
                'evidence = "seen"\n')
    with pytest.raises(HouseError, match="source must be one of"):
        choose(bad)
    with pytest.raises(HouseError, match="not auto, none"):
        choose("no-such-site")
    r = run("audit", str(CHECKS / "allin-muck" / "violating.txt"), "--db", str(tmp_path / "x.duckdb"), "--house", "nope")
    assert r.exit_code == 2 and "--house nope" in r.output


def test_every_shipped_policy_has_a_source_and_the_rules_command_lists_them():
    profiles = load_profiles()
    assert {p.name for p in profiles} >= {"pokerstars", "phh"}
    # a profile for every site the parsers produce, if only to say it declares nothing
    assert {s for p in profiles for s in p.sites} >= {"pokerstars", "phh", "ggpoker", "runitonce", "fulltilt", "ipoker",
                                                     "partypoker", "888poker", "winamax", "wpn", "pokerbros"}
    for p in profiles:
        for x in p.policies:
            assert x.source in ("published", "observed") and x.evidence
    out = json.loads(run("rules", "--json").output)
    listed = {p["profile"]: p for p in out["house_profiles"]}
    assert {x["policy"] for x in listed["pokerstars"]["policies"]} >= {"button", "allin_muck", "raise_cap"}
    text = run("rules").output
    assert "house-rule profiles" in text and "pokerstars.toml" in text and "both-blinds-moved" in text
    assert "  winamax " in text and "no policy declared" in text


def test_a_dead_button_finding_follows_the_moving_button_in_its_era(tmp_path):
    # Cyd (the big blind, seat 3) is out; the next hand moves both blinds and the button
    # one player on (Dee posts only the small blind), as PokerStars did in 2007-2011
    text = (CHECKS / "dead-button" / "violating.txt").read_text(encoding="utf-8").replace("2021/03/14", "2010/03/14")
    for sub in ("auto", "none", "broken"):
        (tmp_path / sub).mkdir()
    found, _ = findings_of(tmp_path / "auto", text)
    assert [(f["check_id"], f["category"]) for f in found] == [("dead-button", "departure")]
    assert "pokerstars.toml line" in found[0]["category_basis"] and "button = \"both-blinds-moved\"" in found[0]["category_basis"]
    found, _ = findings_of(tmp_path / "none", text, house="none")
    assert [(f["check_id"], f["category"]) for f in found] == [("dead-button", "violation")]
    # the button left on seat 1 breaks the moving button too: a violation under the profile
    assert text.count("Seat #2 is the button") == 1
    found, _ = findings_of(tmp_path / "broken", text.replace("Seat #2 is the button", "Seat #1 is the button"))
    assert [(f["check_id"], f["category"], f["category_basis"]) for f in found] == [("dead-button", "violation", None)]


# --- the corpus --------------------------------------------------------------------------

@needs_corpus
def test_the_2007_file_has_no_uncalled_bet_violation(tmp_path):
    path = CORPUS / "fpdb" / "tour" / "Stars" / "Flop" / "NLHE-USD-MTT-5r-200710.txt"
    res = audit([str(path)], str(tmp_path / "2007.duckdb"))
    assert [f for f in res.findings if f["check_id"] == "uncalled-bet"] == []
    with duckdb.connect(str(tmp_path / "2007.duckdb"), read_only=True) as con:
        # line 112's hand: J.R.66350's 2460 called for 2090; Total pot 4225 = 2 x 2090 + 45
        row = con.execute(
            "SELECT r.player, r.returned_expected, r.returned_basis, r.returned_from FROM hand_results r "
            "JOIN hands h USING (hand_id) WHERE h.first_line <= 102 AND h.last_line >= 102 AND r.returned_expected > 0").fetchone()
        assert row == ("J.R.66350", 370, "inferred", "total pot line 102; collected line 100")
        n = con.execute("SELECT count(*) FROM hand_results WHERE returned_basis = 'inferred'").fetchone()[0]
    assert n >= 245
    assert {f["category"] for f in res.findings} <= set(CATEGORIES)


def test_the_report_leads_with_violations_then_departures_then_records(tmp_path):
    from reports.html import build

    db = str(tmp_path / "rep.duckdb")
    paths = [write(tmp_path, "muck.txt", ALLIN_MUCK.replace("2022/03/23", "2010/03/23")), str(GAP),
             str(CHECKS / "uncalled-bet" / "violating.txt")]
    res = audit(paths, db)
    by = res.findings_by_category
    assert by["violation"] >= 1 and by["departure"] >= 1 and by["record"] >= 1
    page, _ = build(db)
    at = [page.index(f'id="category-{c}"') for c in ("violation", "departure", "record")]
    assert at == sorted(at) and at[0] < page.index('id="by-check"')
    for c in ("violation", "departure", "record"):
        assert f'<span id="count-{c}">{by[c]}</span>' in page
        assert f'id="chart-{c}"' in page
    assert 'id="house">auto: ' in page and "pokerstars.toml" in page
    # the findings table lists violations first
    rows = page[page.index('<table id="findings">'):]
    first = rows.index('data-category="violation"')
    assert first < rows.index('data-category="departure"') < rows.index('data-category="record"')


def test_exports_and_views_carry_the_category(tmp_path):
    db = str(tmp_path / "x.duckdb")
    audit([write(tmp_path, "muck.txt", ALLIN_MUCK.replace("2022/03/23", "2010/03/23")), str(GAP)], db)
    header = run("export", "--db", db, "--format", "csv").output.splitlines()[0].split(",")
    assert "category" in header and "category_basis" in header
    out = json.loads(run("query", "SELECT category, findings FROM findings_by_category ORDER BY category",
                         "--db", db, "--format", "json").output)
    assert {r["category"] for r in out} == {"departure", "record"}
    out = json.loads(run("query", "SELECT check_id, violations, departures, records FROM findings_by_check ORDER BY 1",
                         "--db", db, "--format", "json").output)
    assert [(r["check_id"], r["violations"], r["departures"] > 0, r["records"] > 0) for r in out] == [
        ("allin-muck", 0, True, False), ("stack-continuity", 0, False, True)]


def test_a_violation_in_a_cash_game_names_what_it_was_judged_by(tmp_path):
    """The TDA governs tournaments: a cash hand's violation says it was judged by the
    edition's rules as the audit's standard; a tournament's carries no such basis."""
    from auditor.house import CASH_BASIS
    from auditor.pipeline import audit

    samples = Path(__file__).resolve().parent.parent / "sample_histories"
    res = audit([str(samples)], db=str(tmp_path / "a.duckdb"))
    con = duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True)
    cash = {r[0] for r in con.execute("SELECT hand_id FROM hands WHERE NOT is_tournament").fetchall()}
    con.close()
    violations = [f for f in res.findings if f["category"] == "violation"]
    in_cash = [f for f in violations if f["hand_id"] in cash]
    assert in_cash and len(in_cash) < len(violations), "the samples hold violations in cash and tournament hands"
    assert all(f["category_basis"] == CASH_BASIS for f in in_cash)
    assert all(f["category_basis"] is None for f in violations if f["hand_id"] not in cash)


OUT_OF_TURN = (CHECKS / "out-of-turn" / "passing.txt").read_text(encoding="utf-8")


def test_a_run_of_folds_written_out_of_turn_order_is_the_record_s_order(tmp_path):
    """An online site folds a seat only in its turn: the small blind's fold written before the
    button's, with nothing between, is the record's order (record); his fold written before
    the raise of a seat due ahead of him (not in the same run of folds) stays a violation."""
    reordered = OUT_OF_TURN.replace("Torvald: folds\nPilar: folds\n", "Pilar: folds\nTorvald: folds\n")
    found, _ = findings_of(tmp_path, reordered)
    [oot] = [f for f in found if f["check_id"] == "out-of-turn"]
    assert (oot["seat"], oot["category"], oot["expected"]) == (1, "record", "seat 5")
    assert "another order than they were made" in oot["category_basis"]
    ahead = OUT_OF_TURN.replace("Pilar: folds\n", "").replace("*** HOLE CARDS ***\n", "*** HOLE CARDS ***\nPilar: folds\n")
    (tmp_path / "ahead").mkdir()
    found, _ = findings_of(tmp_path / "ahead", ahead)
    [oot] = [f for f in found if f["check_id"] == "out-of-turn"]
    assert (oot["seat"], oot["category"], oot["expected"]) == (1, "violation", "seat 3")


def test_folds_out_of_turn_order_in_a_phh_hand_stay_violations(tmp_path):
    """PHH writes live play's actions in the order they were made: a fold ahead of the seats due
    before it is out of turn, whatever follows."""
    text = "\n".join([
        "variant = 'NT'", "antes = [0, 0, 0, 0]", "blinds_or_straddles = [50, 100, 0, 0]", "min_bet = 100",
        "starting_stacks = [5000, 5000, 5000, 5000]",
        "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p4 f', 'p3 f', 'p1 f']",
        "players = ['Ann', 'Bob', 'Cy', 'Di']", "hand = 7", ""])
    p = tmp_path / "hand.phh"
    p.write_text(text, encoding="utf-8")
    res = audit([str(p)], str(tmp_path / "a.duckdb"))
    assert [(f["seat"], f["category"]) for f in res.findings if f["check_id"] == "out-of-turn"] == [(4, "violation")]


# --- Recommended Procedures are departures at most (issue 35) ----------------------------

BBA_ANTE_FIRST = (FIXTURES / "editions" / "nlhe-bb-ante-short-ante-first.txt").read_text(encoding="utf-8")


def test_a_split_other_than_the_recommendation_is_a_departure_from_rp_11_under_bare_tda(tmp_path):
    from auditor.catalog import citation

    rp = next(c for c in citation("blind-level", "tda-2024") if c.ref == "RP-11")
    for house in ("auto", "none"):
        # BBA_ANTE_FIRST: under house auto as its batch audited it, under none on its own
        found = as_is(FIXTURES / "editions" / "nlhe-bb-ante-short-ante-first.txt").findings if house == "auto" else \
            findings_of(tmp_path, BBA_ANTE_FIRST, house=house)[0]
        [f] = found
        assert (f["check_id"], f["category"], f["rule"], f["rule_title"]) == (
            "blind-level", "departure", "RP-11", "Ante Formats and No Ante Reduction")
        assert f["category_basis"].startswith("RP-11 (Ante Formats and No Ante Reduction) is a Recommended Procedure, not a Rule")
        assert rp.quote in f["category_basis"]
        assert (f["expected"], f["actual"]) == ("big blind 200, ante 50", "big blind 50, ante 200")


def test_a_house_declaring_its_split_makes_it_a_departure_from_its_policy_and_none_turns_it_back(tmp_path):
    from auditor import house
    from auditor.store import connect

    prof = write(tmp_path, "club.toml", 'name = "Club"\nsites = ["pokerstars"]\n\n[bb_ante_order]\nvalue = "ante-first"\n'
                 'source = "published"\nevidence = "house rules sheet, rule 4"\n')
    found, db = findings_of(tmp_path, BBA_ANTE_FIRST, house=prof)
    [f] = found
    assert (f["category"], f["rule"]) == ("departure", "RP-11")
    assert f["category_basis"].startswith('house profile club.toml line 4: bb_ante_order = "ante-first"; source: published')
    # bare TDA: a departure from the recommendation again, never a violation
    con = connect(db)
    try:
        house.apply(con, "tda-2024", "none")
        [(category, basis)] = con.execute("SELECT category, category_basis FROM findings").fetchall()
        assert category == "departure" and basis.startswith("RP-11 (Ante Formats and No Ante Reduction) is a Recommended")
        # a house that declares the other split: the hand broke its policy, still a departure from RP-11 alone
        other = write(tmp_path, "other.toml", 'name = "Other"\nsites = ["pokerstars"]\n\n[bb_ante_order]\n'
                      'value = "blind-first"\nsource = "published"\nevidence = "house rules sheet"\n')
        house.apply(con, "tda-2024", other)
        [(category, basis)] = con.execute("SELECT category, category_basis FROM findings").fetchall()
        assert category == "departure" and basis.startswith("RP-11 (")
    finally:
        con.close()
