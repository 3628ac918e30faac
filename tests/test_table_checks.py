"""Table checks across hands: dead button, heads-up button, blind levels, stack continuity,
new-player seating.  Fixture sequences per check (tests/fixtures/table_checks, written by
make.py there), the fpdb PokerStars tournament corpus against the reviewed list
(tests/reviewed_table_findings.toml), and mutations of its real sequences."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from auditor.pipeline import audit
from auditor.store import connect
from conftest import CORPUS, FIXTURES, needs_corpus
from fixture_audits import audit_file
from replay.editions import DEFAULT_EDITION

TABLE_CHECKS = ("dead-button", "heads-up-button", "blind-level", "stack-continuity", "new-player-seating")
HERE = FIXTURES / "table_checks"  # the gap sequence and the generator
PAIRS = FIXTURES / "checks"  # each check's violating/passing pair, as for every check


def pair(check_id: str, kind: str):
    return PAIRS / check_id / ("violating.txt" if kind == "violate" else "passing.txt")
STARS_TOUR = CORPUS / "fpdb" / "tour" / "Stars"
MTT = STARS_TOUR / "Flop" / "NLHE-USD-MTT-5r-200710.txt"
REVIEWED = Path(__file__).with_name("reviewed_table_findings.toml")


def run(paths, db) -> list[dict]:
    return audit([str(p) for p in paths], db=db).findings


def alone(path):
    """A fixture file as audited by ``run`` alone (the default edition and house), read from
    its batch's audit (tests/fixture_audits.py): its findings, and its hands in the store."""
    return audit_file(path, DEFAULT_EDITION)


def keyed(findings, checks=TABLE_CHECKS) -> list[tuple]:
    return sorted((f["check_id"], f["hand_id"], f["seat"]) for f in findings if f["check_id"] in checks)


# --- fixtures: each violating sequence yields exactly its check, each passing one nothing --------

VIOLATIONS = {
    "dead-button": [("dead-button", "PS-770000004334", 4)],
    "heads-up-button": [("heads-up-button", "PS-770000007385", 2), ("heads-up-button", "PS-770000007402", 2)],
    "blind-level": [("blind-level", "PS-770000009351", 5)],
    "stack-continuity": [("stack-continuity", "PS-770000002351", 2)],
    "new-player-seating": [("new-player-seating", "PS-770000005334", 6)],
}


@pytest.mark.parametrize("check_id", TABLE_CHECKS)
def test_violating_sequence_finds_only_its_check(check_id):
    found = alone(pair(check_id, "violate")).findings
    assert sorted((f["check_id"], f["hand_id"], f["seat"]) for f in found) == VIOLATIONS[check_id]
    for f in found:
        assert f["rule"] and f["message"] and f["line_no"] and f["source_path"].endswith(f"{check_id}/violating.txt")
        assert f["category"] == "violation", f  # a fixture pair's violation stays one


@pytest.mark.parametrize("check_id", TABLE_CHECKS)
def test_passing_sequence_finds_nothing(check_id):
    assert alone(pair(check_id, "pass")).findings == []


def test_gap_in_the_history_is_one_stack_finding_and_hides_the_button_jump():
    """A hand cut out of a clean sequence: the button jumps two seats and two stacks change.
    One stack-continuity finding says hands are missing; dead-button does not judge across it."""
    [f] = alone(HERE / "stack-continuity-gap.txt").findings
    assert (f["check_id"], f["hand_id"], f["seat"]) == ("stack-continuity", "PS-770000002685", None)
    assert "hands are missing" in f["message"] and "button seat 3 then 5" in f["message"]


def test_rebuy_and_addon_events_explain_the_stacks():
    res = alone(pair("stack-continuity", "pass"))
    assert res.findings == []
    con = res.connect()
    mine = [sorted(res.hand_ids)]  # the file's hands (its batch's store holds other files' too)
    rows = con.execute("SELECT kind, player, amount, street FROM events WHERE kind IN ('rebuy', 'addon') AND list_contains(?, hand_id)"
                       " ORDER BY hand_id, seq", mine).fetchall()
    assert rows == [("rebuy", "Cyd", 1500, "summary"), ("addon", "Fay", 3000, "summary")]
    # Cyd busted, re-bought 1500 and starts the next hand with exactly that
    assert con.execute("SELECT prev_end_stack, rebuys, starting_stack, continuous FROM stack_links WHERE player = 'Cyd'"
                       " AND list_contains(?, hand_id) ORDER BY hand_id LIMIT 1", mine).fetchone() == (0, 1500, 1500, True)
    con.close()


def test_views_show_the_event_shape(tmp_path):
    db = str(tmp_path / "w.duckdb")
    found = run([pair("dead-button", "pass"), pair("blind-level", "pass")], db)
    # one tournament, two tables in view at once: table 9 reaches level II at 19:04:30 while
    # table 4 deals on at level I; its hands after that are out of step (Rule 23)
    assert keyed(found) == [("blind-level", "PS-770000004068", None), ("blind-level", "PS-770000004085", None)]
    con = connect(db)
    tables = con.execute("SELECT table_name, hands, players FROM tournament_tables ORDER BY table_name").fetchall()
    # (3120099002 3: the dead-button pair's other tournament, the button label that changes no position)
    assert tables == [("3120099001 4", 5, 6), ("3120099001 9", 6, 6), ("3120099002 3", 5, 5)]
    seq = con.execute("SELECT hand_id, table_seq, prev_hand_id FROM table_hands WHERE table_name = '3120099001 4' ORDER BY table_seq").fetchall()
    assert [r[1] for r in seq] == [1, 2, 3, 4, 5] and seq[0][2] is None and all(seq[i][2] == seq[i - 1][0] for i in range(1, 5))
    # dead button: after Cyd's elimination in the big blind the small blind is dead and the button then sits on his empty seat
    t = con.execute("SELECT sb_seat, bb_seat, expected_bb_seat, expected_sb_seat FROM table_transitions WHERE hand_id = 'PS-770000004034'").fetchone()
    assert t == (None, 4, 4, None)
    # the two fixture tables share a tournament and player names: Ann sat at both
    assert con.execute("SELECT hands, tables FROM tournament_players WHERE player = 'Ann'").fetchone() == (11, 2)
    # ... so Cyd, busted at one table, still plays at the other: not an elimination
    assert con.execute("SELECT count(*) FROM tournament_eliminations WHERE player = 'Cyd'").fetchone() == (0,)
    con.close()
    # the dead-button pair alone: its two tournaments, none of whose hands another file of its batch holds
    one = alone(pair("dead-button", "pass"))
    con = one.connect()
    elim = con.execute("SELECT player, hand_id, evidence, elimination_order FROM tournament_eliminations"
                       " WHERE list_contains(?, tournament_id) ORDER BY hand_id", [sorted(one.tournament_ids)]).fetchall()
    con.close()
    assert elim == [("Jon", "PS-770000003017", "end stack 0", 1), ("Max", "PS-770000003051", "end stack 0", 2),
                    ("Cyd", "PS-770000004017", "end stack 0", 1)]


def test_out_of_hand_seat_is_recorded_and_not_dealt():
    res = alone(pair("new-player-seating", "pass"))
    con = res.connect()
    assert con.execute("SELECT hand_id, seat, player FROM events WHERE kind = 'out_of_hand' AND list_contains(?, hand_id)",
                       [sorted(res.hand_ids)]).fetchall() == [("PS-770000005034", 6, "Gil")]
    assert con.execute("SELECT dealt FROM hand_seats WHERE hand_id = 'PS-770000005034' AND seat = 6").fetchone() == (False,)
    # the replay does not deal him in: he has no result row in that hand
    assert con.execute("SELECT count(*) FROM hand_results WHERE hand_id = 'PS-770000005034' AND seat = 6").fetchone() == (0,)
    con.close()


# --- the PokerStars tournament corpus: every table finding reviewed ----------------------------


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("stars") / "stars.duckdb")
    findings = run([STARS_TOUR], db)
    return db, findings


def reviewed() -> list[dict]:
    return tomllib.loads(REVIEWED.read_text(encoding="utf-8"))["finding"]


@needs_corpus
def test_corpus_table_findings_are_all_reviewed(corpus_db):
    _, findings = corpus_db
    got = keyed(findings)
    listed = sorted((r["check"], r["hand"], r.get("seat")) for r in reviewed())
    assert all(r["why"].strip() for r in reviewed()), "each reviewed finding has a justification"
    assert sorted(set(got) - set(listed)) == [], "findings nobody reviewed"
    assert sorted(set(listed) - set(got)) == [], "reviewed findings that no longer occur"
    assert len(got) == len(listed)
    # each in the category reviewed (dead-button: departures by the PokerStars profile; gaps: record)
    category = {(r["check"], r["hand"], r.get("seat")): r["category"] for r in reviewed()}
    wrong = [(f["check_id"], f["hand_id"], f["seat"], f["category"]) for f in findings if f["check_id"] in TABLE_CHECKS
             and f["category"] != category[(f["check_id"], f["hand_id"], f["seat"])]]
    assert wrong == [], "findings whose category is not the one reviewed"


@needs_corpus
def test_corpus_rebuys_and_moved_in_players_are_recorded(corpus_db):
    con = connect(corpus_db[0], read_only=True)
    assert con.execute("SELECT count(*) FROM events WHERE kind = 'rebuy'").fetchone()[0] == 37
    assert con.execute("SELECT count(*) FROM events WHERE kind = 'out_of_hand'").fetchone()[0] == 16
    # every re-buy is in the next hand's stack: no stack-continuity finding on a re-buy
    bad = con.execute("SELECT count(*) FROM stack_links WHERE rebuys + addons > 0 AND NOT continuous").fetchone()[0]
    assert bad == 0
    # the big blind advanced by the dead-button rule in all but the reviewed transitions
    n = con.execute("SELECT count(*) FROM table_transitions WHERE is_tournament AND NOT gap AND n_dealt >= 3"
                    " AND bb_seat IS NOT NULL AND prev_bb_seat IS NOT NULL").fetchone()[0]
    assert n > 600


# --- mutations of the real MTT sequences: each found under the right check --------------------


def _hand_block(text: str, hand_id: str) -> tuple[int, int]:
    num = hand_id.removeprefix("PS-")
    start = text.index(f"PokerStars Game #{num}:")
    end = text.find("PokerStars Game #", start + 10)
    return start, len(text) if end < 0 else end


def _mutate(text: str, hand_id: str, fn) -> str:
    a, b = _hand_block(text, hand_id)
    new = fn(text[a:b])
    assert new != text[a:b], f"mutation did not change {hand_id}"
    return text[:a] + new + text[b:]


@pytest.fixture(scope="module")
def mtt(tmp_path_factory):
    """The 5-rebuy MTT file audited as it is, and the clean transitions to mutate."""
    db = str(tmp_path_factory.mktemp("mtt") / "mtt.duckdb")
    findings = run([MTT], db)
    con = connect(db, read_only=True)
    flagged = {f["hand_id"] for f in findings if f["check_id"] in TABLE_CHECKS}
    rows = con.execute(
        """SELECT t.hand_id, t.prev_hand_id, t.button_seat, t.bb_player, t.expected_bb_seat, t.dealt_seats, t.level, t.prev_level
           FROM table_transitions t JOIN table_hands h USING (hand_id)
           WHERE NOT t.gap AND t.n_dealt >= 5 AND NOT h.bb_all_in AND NOT coalesce(h.sb_all_in, false)
           ORDER BY t.started_at""").fetchall()
    clean = [r for r in rows if r[0] not in flagged and r[1] not in flagged]
    seats = {(h, s): p for h, s, p in con.execute("SELECT hand_id, seat, player FROM seats").fetchall()}
    levels = {r[0]: r[1:] for r in con.execute("SELECT hand_id, small_blind, big_blind FROM hands").fetchall()}
    con.close()
    return MTT.read_text(encoding="utf-8"), clean, seats, levels


def _audit_text(tmp_path, text: str) -> list[dict]:
    p = tmp_path / "mutated.txt"
    p.write_text(text, encoding="utf-8")
    return run([p], str(tmp_path / "m.duckdb"))


@needs_corpus
def test_mutation_skip_a_big_blind(mtt, tmp_path):
    text, clean, seats, _ = mtt
    hand_id, _, _, bb_player, exp_bb, dealt, *_ = next(r for r in clean if len(r[5]) >= 5)
    nxt = dealt[(dealt.index(exp_bb) + 1) % len(dealt)]
    skipper = seats[(hand_id, nxt)]  # the next player posts the big blind: the owner skips it
    text2 = _mutate(text, hand_id, lambda h: h.replace(f"{bb_player}: posts big blind", f"{skipper}: posts big blind", 1))
    found = _audit_text(tmp_path, text2)
    assert ("dead-button", hand_id, exp_bb) in keyed(found), keyed(found)


@needs_corpus
def test_mutation_move_the_button_two_seats(mtt, tmp_path):
    text, clean, *_ = mtt
    hand_id, _, button, *_ = clean[len(clean) // 2]
    moved = (button + 1) % 9 + 1  # two seats on, at a 9-max table
    text2 = _mutate(text, hand_id, lambda h: h.replace(f"Seat #{button} is the button", f"Seat #{moved} is the button", 1))
    found = _audit_text(tmp_path, text2)
    assert ("dead-button", hand_id, moved) in keyed(found), keyed(found)


@needs_corpus
def test_mutation_change_a_stack_between_hands(mtt, tmp_path):
    text, clean, seats, _ = mtt
    hand_id, _, _, _, _, dealt, *_ = clean[len(clean) // 3]
    seat = dealt[0]
    player = seats[(hand_id, seat)]

    def bump(h: str) -> str:
        m = re.search(rf"^Seat {seat}: {re.escape(player)} \((\d+) in chips\)", h, re.M)
        return h[: m.start(1)] + str(int(m.group(1)) + 500) + h[m.end(1) :]

    found = _audit_text(tmp_path, _mutate(text, hand_id, bump))
    assert ("stack-continuity", hand_id, seat) in keyed(found), keyed(found)


@needs_corpus
def test_mutation_last_levels_blinds_after_a_level_change(mtt, tmp_path):
    text, clean, _, levels = mtt
    hand_id, prev_id, *_ = next(r for r in clean if r[6] != r[7])
    (sb, bb), (old_sb, old_bb) = levels[hand_id], levels[prev_id]
    assert (sb, bb) != (old_sb, old_bb)

    def old_posts(h: str) -> str:
        h = re.sub(rf"(: posts small blind ){sb}\n", rf"\g<1>{old_sb}\n", h, count=1)
        return re.sub(rf"(: posts big blind ){bb}\n", rf"\g<1>{old_bb}\n", h, count=1)

    found = _audit_text(tmp_path, _mutate(text, hand_id, old_posts))
    assert "blind-level" in {c for c, h, _ in keyed(found) if h == hand_id}, keyed(found)
