"""Run it twice (or three times): the board is dealt more than once after the betting
ends, each contested pot is split between the runs, and each run's share goes to the
best hand on that run's board.

The log records each run's board cards, shows and collects with their run
(``events.run``); the replay writes ``pots`` and ``pot_shares`` per pot and run; the
award checks (wrong-winner, odd-chip, side-pot) judge each run apart
(docs/semantics.md, "Run it twice").

A hand written for these tests, then every such hand of the real corpus (PokerStars and
GGPoker; found by content), whose awards must equal what the history collected, run by run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import duckdb
import pytest

from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus
from parsers import all_parsers, iter_lines, open_source
from parsers.base import HandError, ParsedHand, settle

EDITION = "tda-2024"

# Written for this project: Ann all-in for $50.01 pre-flop, Bob and Cat call; Bob and Cat
# build a side pot on the flop, Cat folds the turn; the river is run twice.  The main pot
# ($150.03) goes $75.02 to run 1 (Ann's aces hold) and $75.01 to run 2 (Bob's kings fill):
# the odd cent to the first run, as PokerStars and GGPoker split.  The side pot ($120) is
# Bob's alone: no run decides it.
WRITTEN = """PokerStars Hand #700000000001:  Hold'em No Limit ($1/$2 USD) - 2024/05/06 20:10:00 ET
Table 'Written I' 6-max Seat #1 is the button
Seat 1: Ann ($50.01 in chips)
Seat 2: Bob ($200 in chips)
Seat 3: Cat ($200 in chips)
Bob: posts small blind $1
Cat: posts big blind $2
*** HOLE CARDS ***
Ann: raises $48.01 to $50.01 and is all-in
Bob: calls $49.01
Cat: calls $48.01
*** FLOP *** [2c 7d 9h]
Bob: bets $60
Cat: calls $60
*** TURN *** [2c 7d 9h] [Ks]
Bob: bets $90
Cat: folds
Uncalled bet ($90) returned to Bob
*** FIRST RIVER *** [2c 7d 9h Ks] [3s]
*** SECOND RIVER *** [2c 7d 9h Ks] [Kh]
*** FIRST SHOW DOWN ***
Bob: shows [Kc Qc] (a pair of Kings)
Ann: shows [Ah Ad] (a pair of Aces)
Bob collected $120 from side pot
Ann collected $75.02 from main pot
*** SECOND SHOW DOWN ***
Bob: shows [Kc Qc] (three of a kind, Kings)
Ann: shows [Ah Ad] (a pair of Aces)
Bob collected $75.01 from main pot
*** SUMMARY ***
Total pot $270.03 Main pot $150.03. Side pot $120. | Rake $0
Hand was run twice
FIRST Board [2c 7d 9h Ks 3s]
SECOND Board [2c 7d 9h Ks Kh]
Seat 1: Ann (button) showed [Ah Ad] and won ($75.02) with a pair of Aces, and lost with a pair of Aces
Seat 2: Bob (small blind) showed [Kc Qc] and won ($120) with a pair of Kings, and won ($75.01) with three of a kind, Kings
Seat 3: Cat (big blind) folded on the Turn
"""
RUN2_COLLECT = "Bob collected $75.01 from main pot"


def _audit(tmp_path, text: str) -> tuple[duckdb.DuckDBPyConnection, list[dict]]:
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "a.duckdb"), edition_name=EDITION)
    assert res.ingest.stored == 1, res.ingest.errors
    return duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True), res.findings


def test_written_hand_is_stored_with_its_runs(tmp_path):
    con, findings = _audit(tmp_path, WRITTEN)
    boards = con.execute("SELECT street, run, cards FROM events WHERE kind = 'deal_board' ORDER BY seq").fetchall()
    assert boards == [("flop", 1, "2c 7d 9h"), ("turn", 1, "Ks"), ("river", 1, "3s"), ("river", 2, "Kh")]
    collects = con.execute("SELECT run, seat, amount, pot_label FROM events WHERE kind = 'collect' ORDER BY seq").fetchall()
    assert collects == [(1, 2, 12000, "side"), (1, 1, 7502, "main"), (2, 2, 7501, "main")]
    # every event of a hand run once, and before the runs part, is run 1
    assert con.execute("SELECT count(*) FROM events WHERE run NOT IN (1, 2)").fetchone()[0] == 0
    assert findings == []


def test_written_hand_pots_are_split_and_judged_per_run(tmp_path):
    con, _ = _audit(tmp_path, WRITTEN)
    pots = con.execute("SELECT pot_index, run, amount, eligible, hi_winners, verified FROM pots ORDER BY 1, 2").fetchall()
    assert pots == [
        (0, 1, 7502, [2, 1], [1], True),  # eligible in turn order from the button; run 1: the odd cent, Ann's aces
        (0, 2, 7501, [2, 1], [2], True),  # run 2: Bob's trips on the second river
        (1, 1, 12000, [2], [2], True),  # the side pot: one eligible player, no run decides it
    ]
    shares = con.execute("SELECT pot_index, run, seat, expected, recorded FROM pot_shares WHERE expected > 0 OR recorded > 0 "
                         "ORDER BY 1, 2, 3").fetchall()
    assert shares == [(0, 1, 1, 7502, 7502), (0, 2, 2, 7501, 7501), (1, 1, 2, 12000, 12000)]
    won = dict(con.execute("SELECT seat, won_expected FROM hand_results").fetchall())
    assert won == {1: 7502, 2: 7501 + 12000, 3: 0}


def test_run_two_share_paid_to_run_one_winner_is_a_wrong_winner(tmp_path):
    mutant = WRITTEN.replace(RUN2_COLLECT, "Ann collected $75.01 from main pot")
    _, findings = _audit(tmp_path, mutant)
    assert [(f["check_id"], f["seat"], f["category"]) for f in findings] == [("wrong-winner", 1, "violation")]
    assert "main pot on run 2 of 2" in findings[0]["message"] and "seat 2" in findings[0]["message"]
    assert findings[0]["line_no"] == mutant.split("\n").index("Ann collected $75.01 from main pot") + 1


def test_run_share_paid_to_a_player_who_folded_is_a_side_pot_finding(tmp_path):
    _, findings = _audit(tmp_path, WRITTEN.replace(RUN2_COLLECT, "Cat collected $75.01 from main pot"))
    assert ("side-pot", 3) in {(f["check_id"], f["seat"]) for f in findings}


# Written for this project: heads-up, all-in pre-flop, the river run twice.  Run 1 is Ann's
# (her deuces); run 2's board is a straight both play: its $50.03 is split, the odd cent to
# Bob, the first seat left of the button (Rule 20-A), as in any pot.
TIE_ON_RUN_TWO = """PokerStars Hand #700000000002:  Hold'em No Limit ($1/$2 USD) - 2024/05/06 20:20:00 ET
Table 'Written I' 6-max Seat #1 is the button
Seat 1: Ann ($50.03 in chips)
Seat 2: Bob ($200 in chips)
Ann: posts small blind $1
Bob: posts big blind $2
*** HOLE CARDS ***
Ann: raises $48.03 to $50.03 and is all-in
Bob: calls $48.03
*** FLOP *** [9c Tc Jd]
*** TURN *** [9c Tc Jd] [Qd]
*** FIRST RIVER *** [9c Tc Jd Qd] [5s]
*** SECOND RIVER *** [9c Tc Jd Qd] [Kh]
*** FIRST SHOW DOWN ***
Bob: shows [3c 4s] (high card Queen)
Ann: shows [2h 2d] (a pair of Deuces)
Ann collected $50.03 from pot
*** SECOND SHOW DOWN ***
Bob: shows [3c 4s] (a straight, Nine to King)
Ann: shows [2h 2d] (a straight, Nine to King)
Bob collected $25.02 from pot
Ann collected $25.01 from pot
*** SUMMARY ***
Total pot $100.06 | Rake $0
Hand was run twice
FIRST Board [9c Tc Jd Qd 5s]
SECOND Board [9c Tc Jd Qd Kh]
Seat 1: Ann (button) (small blind) showed [2h 2d] and won ($50.03) with a pair of Deuces, and won ($25.01) with a straight, Nine to King
Seat 2: Bob (big blind) showed [3c 4s] and lost with high card Queen, and won ($25.02) with a straight, Nine to King
"""


def test_a_split_within_a_run_gives_its_odd_chip_by_rule_20(tmp_path):
    con, findings = _audit(tmp_path, TIE_ON_RUN_TWO)
    assert findings == []
    shares = con.execute("SELECT run, seat, expected, odd_chips, recorded FROM pot_shares ORDER BY 1, 2").fetchall()
    assert shares == [(1, 1, 5003, 0, 5003), (1, 2, 0, 0, 0), (2, 1, 2501, 0, 2501), (2, 2, 2502, 1, 2502)]


def test_the_odd_chip_of_a_run_misplaced_is_an_odd_chip_finding(tmp_path):
    mutant = TIE_ON_RUN_TWO.replace("Bob collected $25.02 from pot\nAnn collected $25.01 from pot",
                                    "Bob collected $25.01 from pot\nAnn collected $25.02 from pot")
    _, findings = _audit(tmp_path, mutant)
    assert [(f["check_id"], f["seat"]) for f in findings] == [("odd-chip", 2)]
    assert findings[0]["message"].startswith("The main pot on run 2 of 2 was split correctly except for the odd chip")


def test_betting_after_the_runs_part_is_rejected(tmp_path):
    text = WRITTEN.replace("*** SECOND RIVER *** [2c 7d 9h Ks] [Kh]", "*** SECOND RIVER *** [2c 7d 9h Ks] [Kh]\nBob: checks")
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "b.duckdb"), edition_name=EDITION)
    assert res.ingest.stored == 0
    [err] = res.ingest.errors
    assert err["reason_code"] == "run-it-twice" and err["line"] == 21


# --- the real corpus ---------------------------------------------------------------------

RUN_MARKER = re.compile(r"^\*\*\* (?:FIRST|SECOND|THIRD) (?:FLOP|TURN|RIVER) \*\*\*", re.M)
# '*** SECOND SHOW DOWN ***' (PokerStars), '*** THIRD SHOWDOWN ***' (GGPoker), '*** SHOW DOWN 2 ***' (Full Tilt)
RUN_SHOWDOWNS = re.compile(r"^\*\*\* (?:(?:FIRST|SECOND|THIRD) SHOW ?DOWN|SHOW DOWN [123]) \*\*\*", re.M)
# the folders of the sites whose parsers store these hands
FOLDERS = ("cash/Stars", "tour/Stars", "cash/GGPoker", "tour/GGPoker", "cash/FTP", "tour/FTP")
# Split Hold'em deals two boards from the flop with betting between: a game of its own, not
# a board run twice (rejected as unsupported-game, tests/test_corpus_pokerstars.py)
NOT_RUNS = {"cash/Stars/Flop/NLHE-Split-6max-USD-1.00-2.00-201803.txt"}
# hands whose collects cannot be matched to a pot: their awards are compared per seat (hand_results)
NOT_ATTRIBUTABLE = {
    "GG-OM1349864": "GGPoker writes every collect 'from pot', here with a side pot beside the main pot",
    "FT-31318697695": "Full Tilt names a run's pot by its run ('wins pot 2'), here with a side pot beside the main pot",
}


def _rit_files() -> list[str]:
    out = []
    for folder in FOLDERS:
        for root, dirs, names in os.walk(CORPUS / "fpdb" / folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                rel = str(Path(root, n).relative_to(CORPUS / "fpdb"))
                path = CORPUS / "fpdb" / rel
                text = path.read_bytes().decode(open_source(path).encoding, errors="replace")
                if RUN_SHOWDOWNS.search(text) and rel not in NOT_RUNS:
                    out.append(rel)
    return out


@pytest.fixture(scope="module")
def rit_audit(tmp_path_factory):
    files = _rit_files()
    parsed: dict[str, list] = {}
    for rel in files:
        path = CORPUS / "fpdb" / rel
        info = open_source(path)
        p = next(p for p in all_parsers() if p.detect(info.head, rel))
        parsed[rel] = [p.name, [settle(h) for h in p.iter_hands(iter_lines(path, info.encoding), rel)]]  # as ingest stores them
    db = tmp_path_factory.mktemp("rit") / "rit.duckdb"
    res = audit([str(CORPUS / "fpdb" / rel) for rel in files], db, edition_name=EDITION)
    return parsed, db, res


@needs_corpus
def test_corpus_run_it_twice_hands_are_stored(rit_audit):
    parsed, db, res = rit_audit
    by_parser: dict[str, int] = {}
    for rel, (parser, items) in parsed.items():
        assert [type(i).__name__ for i in items] == ["ParsedHand"] * len(items), (rel, [i for i in items if isinstance(i, HandError)])
        by_parser[parser] = by_parser.get(parser, 0) + len(items)
    print(f"\nrun-it-twice hands stored, by parser: {by_parser}")
    # (the corpus's December 2026 files added a GGPoker PLO-5 and a Full Tilt PLO hand run twice)
    assert by_parser == {"pokerstars": 3, "ggpoker": 5, "fulltilt": 4}
    assert res.ingest.rejected == 0
    with duckdb.connect(str(db), read_only=True) as con:
        runs = dict(con.execute("SELECT hand_id, max(run) FROM events WHERE kind = 'deal_board' GROUP BY 1").fetchall())
        pot_runs = dict(con.execute("SELECT hand_id, max(run) FROM pots WHERE edition = ? GROUP BY 1", [EDITION]).fetchall())
    # every hand's runs, as its own markers count them, reach its pots
    for rel, (_, items) in parsed.items():
        text = (CORPUS / "fpdb" / rel).read_bytes().decode(open_source(CORPUS / "fpdb" / rel).encoding, errors="replace")
        for h in items:
            assert isinstance(h, ParsedHand)
            lines = "\n".join(text.split("\n")[h.first_line - 1:h.last_line])
            n = len(RUN_SHOWDOWNS.findall(lines))
            assert runs[h.hand_id] == pot_runs[h.hand_id] == n, (h.hand_id, runs[h.hand_id], pot_runs[h.hand_id], n)
    assert sorted(runs.values()) == [2] * 11 + [3]


@needs_corpus
def test_corpus_run_awards_equal_collects_per_run(rit_audit):
    """In every run of every pot whose winners are known, the replay's winners are the
    history's, each paid what the rules award less the house's share (rake and fees come
    out of the winners' shares); what the house took adds up to its Total pot line."""
    _, db, res = rit_audit
    with duckdb.connect(str(db), read_only=True) as con:
        took = dict(con.execute("SELECT hand_id, coalesce(max(to_amount), 0) FROM events WHERE kind = 'total_pot' GROUP BY 1").fetchall())
        runs = con.execute(
            """SELECT hand_id, pot_index, run,
                      list(seat ORDER BY seat) FILTER (WHERE expected > 0) AS exp_winners,
                      list(seat ORDER BY seat) FILTER (WHERE recorded > 0) AS rec_winners,
                      bool_and(recorded <= expected) AS le, sum(expected - recorded) AS diff,
                      bool_and(recorded IS NOT NULL) AS attributable, bool_and(expected IS NOT NULL) AS known
               FROM pot_shares WHERE edition = ? GROUP BY ALL ORDER BY ALL""", [EDITION]).fetchall()
        per_seat = con.execute("SELECT hand_id, seat, won_expected, won_recorded FROM hand_results WHERE edition = ?",
                               [EDITION]).fetchall()
    judged, diff_by_hand = 0, {}
    for hand_id, pot, run, exp_w, rec_w, le, diff, attributable, known in runs:
        assert known, (hand_id, pot, run)  # every one of these hands was tabled
        if not attributable:
            assert hand_id in NOT_ATTRIBUTABLE
            continue
        assert exp_w == rec_w and le, (hand_id, pot, run, exp_w, rec_w)
        diff_by_hand[hand_id] = diff_by_hand.get(hand_id, 0) + diff
        judged += 1
    for hand_id, diff in diff_by_hand.items():
        assert diff == took[hand_id], (hand_id, diff, took[hand_id])
    # the hands whose collects name no pot: each seat's winnings, less its part of the house's take
    for hand_id in NOT_ATTRIBUTABLE:
        seats = [(exp, rec) for h, _, exp, rec in per_seat if h == hand_id]
        assert all(rec <= exp and (rec > 0) == (exp > 0) for exp, rec in seats), seats
        assert sum(exp - rec for exp, rec in seats) == took[hand_id]
    print(f"\n{judged} runs of pots judged in {len(diff_by_hand)} hands; per seat: {sorted(NOT_ATTRIBUTABLE)}")
    assert judged >= 17
    assert not [f for f in res.findings if f["check_id"] in ("wrong-winner", "odd-chip", "side-pot", "chip-conservation")]


@needs_corpus
def test_corpus_sites_give_the_odd_chip_of_the_run_split_to_the_first_run(rit_audit):
    """A fact of the sites' practice, which the replay follows (the TDA rules say nothing of
    running it twice): a pot that does not divide evenly between the runs gives its odd chips
    to the first runs.  The collected amounts, net of the house's take, never grow from one
    run to the next, and in at least one hand of each site they fall by the odd chip."""
    _, db, _ = rit_audit
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            """SELECT hand_id, pot_index, list(rec ORDER BY run) FROM (
                 SELECT hand_id, pot_index, run, sum(amount) AS rec FROM events e
                 JOIN (SELECT DISTINCT hand_id, pot_index FROM pots WHERE edition = ? AND run = 2) USING (hand_id)
                 WHERE kind = 'collect' AND pot_label IN ('pot', 'main') GROUP BY ALL)
               GROUP BY ALL ORDER BY ALL""", [EDITION]).fetchall()
    uneven = {}
    for hand_id, _, per_run in rows:
        if hand_id in NOT_ATTRIBUTABLE:
            continue
        assert per_run == sorted(per_run, reverse=True) and per_run[0] - per_run[-1] <= 1, (hand_id, per_run)
        if per_run[0] != per_run[-1]:
            uneven[hand_id] = per_run
    print(f"\nuneven run splits: {uneven}")
    assert {h.split("-")[0] for h in uneven} == {"PS", "GG"}
