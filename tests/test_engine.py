"""Replay engine rulings on small hands written for these tests (PHH), through the
real pipeline: ingest -> replay -> decisions / pots / shares."""

from __future__ import annotations

import duckdb
import pytest

from conftest import CORPUS, needs_corpus

from auditor.ingest import ingest
from auditor.store import connect
from auditor.facts import replay_store


def phh(variant: str, stacks: list[int], actions: list[str], **fields) -> str:
    lines = [f"variant = '{variant}'"]
    for key, value in fields.items():
        lines.append(f"{key} = {value!r}".replace("'", "'"))
    lines.append(f"starting_stacks = {stacks}")
    lines.append("actions = [" + ", ".join(f"'{a}'" for a in actions) + "]")
    return "\n".join(lines) + "\n"


def replay(tmp_path, text: str, edition: str = "tda-2019", name: str = "hand") -> duckdb.DuckDBPyConnection:
    path = tmp_path / f"{name}.phh"
    path.write_text(text, encoding="utf-8")
    con = connect(str(tmp_path / f"{name}-{edition}.duckdb"))
    s = ingest([path], con=con)
    assert s.stored == 1, s.errors
    replay_store(con, edition)
    assert con.execute("SELECT code, message FROM replay_notes").fetchall() == []
    return con


def decision(con, action_text: str) -> dict:
    """The decisions row of the action whose PHH text is ``action_text``."""
    cur = con.execute(
        "SELECT d.* FROM decisions d JOIN events e USING (hand_id, seq) WHERE e.text = ?", [action_text]
    )
    cols = [c[0] for c in cur.description]
    rows = cur.fetchall()
    assert len(rows) == 1, f"{action_text!r}: {rows}"
    return dict(zip(cols, rows[0]))


def test_heads_up_small_blind_is_button_acts_first_preflop_last_after(tmp_path):
    # PHH reverse-assigns blinds heads-up: p1 posts the big blind, p2 (button) the small
    text = phh("NT", [1000, 1000], ["d dh p1 AsKs", "d dh p2 QdQc", "p2 cc", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cbr 50", "p1 cc",
                                    "d db Ts", "p1 cc", "p2 cc", "d db 3s", "p1 cc", "p2 cc", "p1 sm AsKs", "p2 sm QdQc"],
               antes=[0, 0], blinds_or_straddles=[20, 10], min_bet=20)
    con = replay(tmp_path, text)
    rows = con.execute("SELECT seat, expected_seat, street FROM decisions ORDER BY seq").fetchall()
    assert all(seat == exp for seat, exp, _ in rows)
    assert [r[0] for r in rows if r[2] == "preflop"] == [2, 1]  # the small blind (button) first pre-flop
    assert [r[0] for r in rows if r[2] == "flop"][0] == 1  # the big blind first after the flop


def test_pot_limit_maximum_counts_a_short_all_in_blind_as_full(tmp_path):
    # PLO 50-100, the big blind all-in for 60: UTG may raise to 350, as with a full blind (54-B)
    text = phh("PO", [5000, 60, 5000, 5000], ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 AhKhQhJh", "d dh p4 2d3d4d5d",
                                              "p3 cbr 350", "p4 cbr 1200", "p1 f", "p3 cc"],
               antes=[0, 0, 0, 0], blinds_or_straddles=[50, 100, 0, 0], min_bet=100)
    con = replay(tmp_path, text)
    utg = decision(con, "p3 cbr 350")
    assert (utg["min_raise_to"], utg["max_raise_to"], utg["action_class"]) == (200, 350, "raise")
    # after a pot raise to 350 the pot is 50 + 60 + 350 = 460; the next maximum is 350 + 460 + 350 = 1160
    nxt = decision(con, "p4 cbr 1200")
    assert nxt["max_raise_to"] == 1160 and nxt["action_class"] == "over-limit"
    # 2024 54-B: "All pre-flop pot and re-pot bets will assume full blinds were posted": the
    # re-pot counts the big blind's missing 40 too, 350 + 500 + 350 = 1200
    nxt = decision(replay(tmp_path, text, "tda-2024"), "p4 cbr 1200")
    assert nxt["max_raise_to"] == 1200 and nxt["action_class"] == "raise"


@pytest.mark.parametrize("edition", ["tda-2019", "tda-2024"])
def test_pot_limit_maximum_over_a_big_blind_all_in_below_the_small_blind(tmp_path, edition):
    # PLO 50-100, the big blind all-in for 40 (below the small blind's 50): the pot-sized raise
    # assumes the full blinds (54-B), to 100 + 150 + 100 = 350, not 340 over the 50 in front
    text = phh("PO", [5000, 40, 5000, 5000], ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 AhKhQhJh", "d dh p4 2d3d4d5d",
                                              "p3 cbr 350", "p4 f", "p1 f"],
               antes=[0, 0, 0, 0], blinds_or_straddles=[50, 100, 0, 0], min_bet=100)
    d = decision(replay(tmp_path, text, edition), "p3 cbr 350")
    assert (d["to_call"], d["min_raise_to"], d["max_raise_to"], d["action_class"]) == (100, 200, 350, "raise")


def test_pot_limit_short_blind_raise_limits_without_short_blind(tmp_path):
    text = phh("PO", [5000, 5000, 5000], ["d dh p1 AsKsQsJs", "d dh p2 2c3c4c5c", "d dh p3 AhKhQhJh", "p3 cbr 350", "p1 f", "p2 f"],
               antes=[0, 0, 0], blinds_or_straddles=[50, 100, 0], min_bet=100)
    con = replay(tmp_path, text)
    assert decision(con, "p3 cbr 350")["max_raise_to"] == 350


@pytest.mark.parametrize(("allin_to", "edition", "may_raise"), [
    (24, "tda-2019", False),  # 4 more is less than half of the 10 bet: not reopened (47-B)
    (25, "tda-2019", True),  # exactly half reopens
    (24, "tda-2011", True),  # 2011 has no limit clause: any all-in raise reopens
])
def test_limit_half_bet_reopens(tmp_path, allin_to, edition, may_raise):
    # fixed-limit 5-10: p3 raises to 20, p1 (small blind) calls, p2 (big blind) is all-in for a short raise
    bb_stack = allin_to
    text = phh("FT", [1000, bb_stack, 1000], ["d dh p1 AsKs", "d dh p2 2c3c", "d dh p3 AhKh", "p3 cbr 20", "p1 cc",
                                             f"p2 cbr {allin_to}", "p3 cbr 30", "p1 cc"],
               antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], small_bet=10, big_bet=20)
    con = replay(tmp_path, text, edition)
    d = decision(con, "p3 cbr 30")
    assert d["may_raise"] is may_raise
    assert d["may_raise_reason"] == ("short-allin-not-reopened" if not may_raise else
                                     "limit-allin-reopens" if edition == "tda-2011" else "reopened-by-half-bet")


def test_limit_cap_counts_the_big_blind_as_the_bet(tmp_path):
    acts = ["d dh p1 AsKs", "d dh p2 2c3c", "d dh p3 AhKh", "p3 cbr 20", "p1 cbr 30", "p2 cbr 40", "p3 cbr 50", "p1 cc", "p2 cc"]
    text = phh("FT", [1000, 1000, 1000], acts, antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], small_bet=10, big_bet=20)
    con = replay(tmp_path, text)
    assert decision(con, "p2 cbr 40")["bets_and_raises"] == 3  # bet (the blind) and two raises before it
    fifth = decision(con, "p3 cbr 50")
    assert fifth["bets_and_raises"] == 4 and fifth["raise_cap"] == 4  # the cap was reached: a 5th bet


def test_stud_bring_in_is_lowest_upcard_and_first_to_act_later_is_best_board(tmp_path):
    # upcards on third street: p1 Kd, p2 2c (lowest: brings in), p3 9h
    acts = ["d dh p1 AsAhKd", "d dh p2 7d8d2c", "d dh p3 TcJc9h", "p2 pb", "p3 cc", "p1 cc", "p2 cc",
            "d dh p1 Ks", "d dh p2 3d", "d dh p3 4h", "p1 cc", "p2 cc", "p3 cc"]
    text = phh("F7S", [1000, 1000, 1000], acts, antes=[5, 5, 5], bring_in=10, small_bet=20, big_bet=40)
    con = replay(tmp_path, text)
    rows = con.execute("SELECT seat, expected_seat, street FROM decisions ORDER BY seq").fetchall()
    assert rows[0][:2] == (3, 3)  # after the bring-in (p2), p3 acts
    fourth = [r for r in rows if r[2] == "fourth"]
    assert fourth[0][1] == 1  # p1 shows a pair of kings: acts first on fourth street
    assert all(seat == exp for seat, exp, _ in rows)


def test_stud_first_actor_unknown_when_an_upcard_is_not_shown(tmp_path):
    # fourth street: p3's upcard is not written ('??'), so who shows the best hand, and
    # acts first, is not known: no seat is expected (to_act NULL, out-of-turn judges
    # nothing); the next actions are judged clockwise from whoever acted first
    acts = ["d dh p1 AsAhKd", "d dh p2 7d8d2c", "d dh p3 TcJc9h", "p2 pb", "p3 cc", "p1 cc", "p2 cc",
            "d dh p1 3s", "d dh p2 3d", "d dh p3 ??", "p2 cc", "p3 cc", "p1 cc"]
    text = phh("F7S", [1000, 1000, 1000], acts, antes=[5, 5, 5], bring_in=10, small_bet=20, big_bet=40)
    con = replay(tmp_path, text)
    rows = con.execute("SELECT seat, expected_seat, to_act FROM decisions WHERE street = 'fourth' ORDER BY seq").fetchall()
    assert rows == [(2, None, None), (3, 3, [3, 1]), (1, 1, [1])]


def test_stud_odd_chip_with_an_odd_pot(tmp_path):
    acts = ["d dh p1 5s6c7d", "d dh p2 5h6d7c", "d dh p3 2c3c4c", "p3 pb", "p1 cc", "p2 cc",
            "d dh p1 8c", "d dh p2 8d", "d dh p3 Kh", "p1 cc", "p2 cc", "p3 f",
            "d dh p1 9s", "d dh p2 9h", "p1 cc", "p2 cc", "d dh p1 2h", "d dh p2 2d", "p1 cc", "p2 cc",
            "d dh p1 3h", "d dh p2 3d", "p1 cc", "p2 cc",
            "p1 sm 5s6c7d8c9s2h3h", "p2 sm 5h6d7c8d9h2d3d"]
    # two identical nine-high straights; antes of 1 from three players and a bring-in of 5 called twice: 3 + 15 = 18; make it odd with a 2-chip ante
    text = phh("F7S", [1000, 1000, 1000], acts, antes=[1, 1, 2], bring_in=5, small_bet=20, big_bet=40)
    con = replay(tmp_path, text)
    (amount,) = con.execute("SELECT amount FROM pots WHERE pot_index = 0").fetchone()
    assert amount == 19
    shares = dict(con.execute("SELECT seat, expected FROM pot_shares WHERE pot_index = 0 AND expected > 0").fetchall())
    assert shares == {1: 10, 2: 9}  # 9s is the high card by suit in the winning 5-card hands (20-B)


def test_board_game_odd_chip_goes_left_of_button(tmp_path):
    # four players, p4 is the button; the small blind folds its 5, p2 and p3 split 25:
    # the odd chip goes to p2, the first winner left of the button (20-A)
    acts = ["d dh p1 2c7d", "d dh p2 AsKd", "d dh p3 AcKh", "d dh p4 3c8d", "p3 cc", "p4 f", "p1 f", "p2 cc",
            "d db QsJdTc", "p2 cc", "p3 cc", "d db 2h", "p2 cc", "p3 cc", "d db 3h", "p2 cc", "p3 cc",
            "p2 sm AsKd", "p3 sm AcKh"]
    text = phh("NT", [1000, 1000, 1000, 1000], acts, antes=[0, 0, 0, 0], blinds_or_straddles=[5, 10, 0, 0], min_bet=10)
    con = replay(tmp_path, text)
    shares = dict(con.execute("SELECT seat, expected FROM pot_shares WHERE expected > 0").fetchall())
    assert shares == {2: 13, 3: 12}


def test_short_allin_big_blind_keeps_the_full_minimum_raise(tmp_path):
    # NLHE 50-100, big blind all-in for 60: the minimum raise is to 200 (Rule 43 Example 2); the price to
    # play is the level's 100 (issue 35), and PHH's call of the 60 in front is a call too
    acts = ["d dh p1 AsKd", "d dh p2 AcKh", "d dh p3 2c7d", "p3 cc", "p1 cbr 200", "p3 f"]
    text = phh("NT", [1000, 60, 1000], acts, antes=[0, 0, 0], blinds_or_straddles=[50, 100, 0], min_bet=100)
    con = replay(tmp_path, text)
    d = decision(con, "p3 cc")
    assert (d["to_call"], d["min_raise_to"], d["committed_after"], d["action_class"]) == (100, 200, 60, "call")


def test_raise_that_puts_every_opponent_all_in_is_not_an_underraise(tmp_path):
    # flop: p1 bets 100; p2 (300 behind) raises to 150 with chips behind, but the only other live player
    # p1 has just 140 behind: nobody can call more, so it is not an underraise
    acts = ["d dh p1 AsKd", "d dh p2 AcKh", "p2 cc", "p1 cc", "d db 2c3d4h", "p1 cbr 20", "p2 cbr 150", "p1 cc"]
    text = phh("NT", [120 + 20, 1000], acts, antes=[0, 0], blinds_or_straddles=[20, 10], min_bet=20)
    con = replay(tmp_path, text)
    assert decision(con, "p2 cbr 150")["action_class"] == "raise"


def test_underraise_that_stood_sets_no_new_increment(tmp_path):
    # NL 10-20, flop: p1 bets 100, p2 raises to 150 with chips behind (underraise), p3 may raise to 250 (100 more)
    acts = ["d dh p1 AsKd", "d dh p2 AcKh", "d dh p3 QsQd", "p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h",
            "p1 cbr 100", "p2 cbr 150", "p3 cbr 250", "p1 f", "p2 f"]
    text = phh("NT", [1000, 1000, 1000], acts, antes=[0, 0, 0], blinds_or_straddles=[10, 20, 0], min_bet=20)
    con = replay(tmp_path, text)
    assert decision(con, "p2 cbr 150")["action_class"] == "underraise"
    third = decision(con, "p3 cbr 250")
    assert (third["min_raise_to"], third["last_full_increment"], third["action_class"]) == (250, 100, "raise")


# WPN's format of 2016 and before, which never states the betting structure: Ann's raise
# to 30 over a big blind of 20 would be an underraise in no-limit, a legal bet in a
# 10/20 limit game; Bob's all-in makes a side pot.
UNRECORDED_HAND = """Game started at: 2016/8/4 13:56:8
Game ID: 770000000201 10/20 Test (Hold'em)
Seat 1 is the button
Seat 1: Ann (1000).
Seat 2: Bob (100).
Seat 3: Cid (1000).
Player Bob has small blind (10)
Player Cid has big blind (20)
Player Ann raises (30)
Player Bob allin (90)
Player Cid calls (80)
Player Ann calls (70)
*** FLOP ***: [2c 7d 9h]
Player Cid checks
Player Ann bets (200)
Player Cid calls (200)
*** TURN ***: [2c 7d 9h] [Ts]
Player Cid checks
Player Ann checks
*** RIVER ***: [2c 7d 9h Ts] [3s]
Player Cid checks
Player Ann checks
------ Summary ------
Pot: 700
Board: [2c 7d 9h Ts 3s]
*Player Ann shows: One pair of Ks [Kh Kd]. Bets: 300. Collects: 400. Wins: 100.
*Player Bob shows: One pair of As [Ah Ad]. Bets: 100. Collects: 300. Wins: 200.
Player Cid shows: One pair of Qs [Qh Qd]. Bets: 300. Collects: 0. Loses: 300.
Game ended at: 2016/8/4 13:57:33
"""


def test_unrecorded_structure_applies_every_action_and_judges_no_size(tmp_path):
    from auditor.pipeline import audit

    path = tmp_path / "legacy.txt"
    path.write_text(UNRECORDED_HAND, encoding="utf-8")
    result = audit([path], db=tmp_path / "u.duckdb", edition_name="tda-2019")
    assert result.ingest.stored == 1, result.ingest.errors
    with duckdb.connect(str(tmp_path / "u.duckdb"), read_only=True) as con:
        assert con.execute("SELECT betting FROM hands").fetchone()[0] == "unrecorded"
        rows = con.execute(
            "SELECT player, kind, seat = expected_seat, to_call, min_raise_to, max_raise_to, may_raise, may_raise_reason, "
            "last_full_increment, action_class FROM decisions WHERE street = 'preflop' ORDER BY seq").fetchall()
        pots = con.execute("SELECT pot_label, amount, eligible, hi_winners, verified FROM pots ORDER BY pot_index").fetchall()
    unknown = (None, None, None, "betting-unrecorded", None)
    assert rows == [("Ann", "raise", True, 20, *unknown, "raise-unjudged"),
                    ("Bob", "raise", True, 20, *unknown, "raise-unjudged"),
                    ("Cid", "call", True, 80, *unknown, "call"),
                    ("Ann", "call", True, 70, *unknown, "call")]
    # the pots, who may win them and who does are judged all the same
    assert pots == [("main", 300, [2, 3, 1], [2], True), ("side-1", 400, [3, 1], [1], True)]
    # no minimum-raise finding: one record finding says the sizes were not judged, at Ann's raise
    assert [(f["check_id"], f["category"], f["player"], f["line_no"]) for f in result.findings] == [
        ("betting-unrecorded", "record", "Ann", 9)]


# --- a player with no seat line -----------------------------------------------------------

_SEATLESS_HAND = """Game started at: 2016/8/2 11:00:00
Game ID: 770000000301 0.01/0.02 Parachute (Hold'em)
Seat 3 is the button
Seat 1: Ann (1.00).
Seat 3: Bob (2.00).
Player Ann has small blind (0.01)
Player  has big blind (0.02)
Player Ann received card: [2h]
Player Ann received card: [7d]
Player Bob received card: [Kh]
Player Bob received card: [Qd]
Player Bob calls (0.02)
Player Ann calls (0.01)
Player  checks
*** FLOP ***: [Ac As 9d]
Player Ann checks
Player  bets (0.04)
Player Bob calls (0.04)
Player Ann folds
*** TURN ***: [Ac As 9d] [5c]
Player  checks
Player Bob checks
*** RIVER ***: [Ac As 9d 5c] [3s]
Player  checks
Player Bob checks
------ Summary ------
Pot: 0.14
Board: [Ac As 9d 5c 3s]
Player Ann does not show cards.Bets: 0.02. Collects: 0. Loses: 0.02.
*Player  shows: Three Of Kind of As [Ad 8c]. Bets: 0.06. Collects: 0.14. Wins: 0.08.
Player Bob shows: One pair of As [Kh Qd]. Bets: 0.06. Collects: 0. Loses: 0.06.
Game ended at: 2016/8/2 11:01:00"""


def test_a_player_with_no_seat_line_is_replayed_without_his_seat_or_stack():
    """WPN writes 'Player  has big blind' for a player with no seat line (and no name):
    his events have no seat; the replay puts his chips in the pot and lets him win it,
    and records no turn order for the rounds he could act in, and no stack for him."""
    from parsers.wpn import WpnLegacyParser
    from replay.editions import edition
    from replay.engine import replay_hand

    [h] = WpnLegacyParser().iter_hands(((i, 0, t) for i, t in enumerate(_SEATLESS_HAND.splitlines(), 1)), "x.txt")
    assert [(e.kind, e.seat, e.player) for e in h.events if e.seat is None and e.player is not None][:3] == [
        ("big_blind", None, ""), ("check", None, ""), ("bet", None, "")]
    facts = replay_hand(h, h.seats, h.events, edition("tda-2024"))
    assert not facts.notes
    # (seat, expected seat, to_act, stack before) of each decision: no turn is known, since he is
    # in every round; his stack is not recorded, the seat lines' are
    assert [(d[4], d[7], d[8], d[19]) for d in facts.decisions] == [
        (3, None, None, 200), (1, None, None, 99), (None, None, None, None),
        (1, None, None, 98), (None, None, None, None), (3, None, None, 198), (1, None, None, 98),
        (None, None, None, None), (3, None, None, 194), (None, None, None, None), (3, None, None, 194)]
    # one pot with his chips in; his tabled trips beat Bob's pair: he wins it, as recorded
    [pot] = facts.pots
    assert (pot[5], pot[6], pot[7], pot[9], pot[11]) == (14, [1, 3, None], [3, None], [None], True)
    assert {s[4]: (s[6], s[8]) for s in facts.pot_shares} == {1: (0, 0), 3: (0, 0), None: (14, 14)}
    seatless = [r for r in facts.hand_results if r[2] is None]
    # (player, starting stack, put in, won expected, won recorded, end stacks)
    assert [(r[3], r[4], r[5], r[8], r[9], r[10], r[11]) for r in seatless] == [("", None, 6, 14, 14, None, None)]


def test_awards_are_judged_with_a_player_who_has_no_seat_line(tmp_path):
    """His pot is judged like any other: Bob's collect of the pot the seatless player's
    trips won, and the seatless player's collect of a pot Bob's pair won, are each a
    wrong-winner finding, the second naming no seat; the recorded hand has none."""
    from auditor.pipeline import audit

    bob_paid = (_SEATLESS_HAND.replace("770000000301", "770000000302")
                .replace("Bets: 0.06. Collects: 0.14. Wins: 0.08.", "Bets: 0.06. Collects: 0. Loses: 0.06.", 1)
                .replace("[Kh Qd]. Bets: 0.06. Collects: 0. Loses: 0.06.", "[Kh Qd]. Bets: 0.06. Collects: 0.14. Wins: 0.08."))
    seatless_loses = _SEATLESS_HAND.replace("770000000301", "770000000303").replace("[Ad 8c]", "[Jc Td]")
    path = tmp_path / "seatless.txt"
    path.write_text("\n\n".join([_SEATLESS_HAND, bob_paid, seatless_loses]) + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "a.duckdb"), edition_name="tda-2024")
    assert res.ingest.stored == 3
    judged = sorted((f["hand_id"], f["seat"], f["expected"], f["actual"]) for f in res.findings
                    if f["check_id"] not in ("seat-unrecorded", "betting-unrecorded"))
    assert judged == [("WPN-770000000302", 3, "0.00 (winners: seats the player with no seat line)", "0.14"),
                      ("WPN-770000000303", None, "0.00 (winners: seats 3)", "0.14")]
    assert sorted(f["hand_id"] for f in res.findings if f["check_id"] == "seat-unrecorded") == [
        "WPN-770000000301", "WPN-770000000302", "WPN-770000000303"]


# --- a player played all in with chips behind (disconnect protection) ----------------------

_DISCONNECT_HAND = """Game started at: 2016/10/2 20:00:00
Game ID: 770000000401 10/20 Lantern (Hold'em)
Seat 4 is the button
Seat 1: Ann (1000).
Seat 2: Bob (1000).
Seat 3: Cat (1000).
Seat 4: Dan (1000).
Player Ann has small blind (10)
Player Bob has big blind (20)
Player Cat calls (20)
Player Dan calls (20)
Player Ann calls (10)
Player Bob checks
*** FLOP ***: [2c 7d 9h]
Player Ann checks
Player Bob bets (100)
Player Cat is disconnected and ALL IN.
Player Cat allin
Player Dan raises (300)
Player Ann folds
Player Bob calls (200)
*** TURN ***: [2c 7d 9h] [Ts]
Player Bob checks
Player Dan checks
*** RIVER ***: [2c 7d 9h Ts] [3s]
Player Bob bets (200)
Player Dan calls (200)
------ Summary ------
Pot: 1080
Board: [2c 7d 9h Ts 3s]
Player Ann does not show cards.Bets: 20. Collects: 0. Loses: 20.
Player Bob shows: High card King [Kc Qc]. Bets: 520. Collects: 0. Loses: 520.
*Player Cat shows: One pair of As [Ah Ad]. Bets: 20. Collects: 80. Wins: 60.
*Player Dan shows: One pair of Js [Js Jd]. Bets: 520. Collects: 1000. Wins: 480.
Game ended at: 2016/10/2 20:01:00"""


def test_a_player_played_all_in_with_chips_behind_takes_no_action_and_keeps_his_stack():
    """WPN's disconnect protection: Cat, facing Bob's flop bet of 100 with 980 behind, is
    'disconnected and ALL IN.'  He is all in from that line: the turn passes him (Dan is
    next, and nobody is due from him again), his not calling is no decision, the raise
    that follows is judged against the players who can still act, and the pots form from
    the contributions: he is in the main pot of his 20s only, and keeps his 980."""
    from parsers.wpn import WpnLegacyParser
    from replay.editions import edition
    from replay.engine import replay_hand

    [h] = WpnLegacyParser().iter_hands(((i, 0, t) for i, t in enumerate(_DISCONNECT_HAND.splitlines(), 1)), "x.txt")
    [dc] = [e for e in h.events if e.kind == "disconnect_all_in"]
    assert (dc.seat, dc.amount, dc.all_in, dc.line_no, dc.street) == (3, None, True, 17, "flop")
    assert dc.text == "Player Cat is disconnected and ALL IN.\nPlayer Cat allin"
    # the betting structure is not in the format: played as no-limit here, to judge sizes too
    h.betting, h.small_blind, h.big_blind = "no-limit", 10, 20
    facts = replay_hand(h, h.seats, h.events, edition("tda-2019"))
    # WPN writes one 'Collects' a seat for all the pots: with two pots, none is the pot's own
    assert [n[3] for n in facts.notes] == ["collect-not-attributable"]
    # (street, seat, expected seat, to_act, status, min raise-to, may raise, why, class)
    after = [(d[3], d[4], d[7], d[8], d[12], d[14], d[15], d[25]) for d in facts.decisions if d[1] > dc.seq]
    assert after == [
        ("flop", 4, 4, [4, 1], 200, True, "not-yet-acted", "raise"),  # Cat skipped: Dan's turn
        ("flop", 1, 1, [1, 2], 500, True, "reopened-by-full-raise", "fold"),
        ("flop", 2, 2, [2], 500, True, "reopened-by-full-raise", "call"),
        ("turn", 2, 2, [2, 4], 20, True, "not-yet-acted", "check"),  # Cat is not due on later streets
        ("turn", 4, 4, [4], 20, True, "not-yet-acted", "check"),
        ("river", 2, 2, [2, 4], 20, True, "not-yet-acted", "bet"),
        ("river", 4, 4, [4], 400, True, "not-yet-acted", "call")]
    assert not [d for d in facts.decisions if d[4] == 3 and d[1] > dc.seq]  # no decision of his
    # (label, amount, contributors, eligible, high winners, verified)
    assert [(p[4], p[5], p[6], p[7], p[9], p[11]) for p in facts.pots] == [
        ("main", 80, [1, 2, 3, 4], [2, 3, 4], [3], True), ("side-1", 1000, [2, 4], [2, 4], [4], True)]
    # (seat, put in, returned, won expected, won recorded, end stack expected, recorded): Cat keeps 980
    assert [(r[2], r[5], r[6], r[8], r[9], r[10], r[11]) for r in facts.hand_results] == [
        (1, 20, 0, 0, 0, 980, 980), (2, 520, 0, 0, 0, 480, 480), (3, 20, 0, 80, 80, 1060, 1060),
        (4, 520, 0, 1000, 1000, 1480, 1480)]


def test_a_disconnected_all_in_is_named_by_a_record_finding_and_judged_by_no_rule(tmp_path):
    """The hand as the site played it has one disconnect-all-in finding (record, info) at
    the disconnect line, and no finding of any rule: his not calling is no decision, and
    his award and stack are what the replay expects."""
    from auditor.pipeline import audit

    path = tmp_path / "disconnect.txt"
    path.write_text(_DISCONNECT_HAND + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "d.duckdb"), edition_name="tda-2019")
    assert res.ingest.stored == 1
    assert sorted((f["check_id"], f["seat"], f["category"], f["severity"], f["line_no"], f["actual"]) for f in res.findings) == [
        ("betting-unrecorded", 2, "record", "info", 16, "not recorded"),
        ("disconnect-all-in", 3, "record", "info", 17, "played all in with 980 behind")]
    [f] = [f for f in res.findings if f["check_id"] == "disconnect-all-in"]
    assert f["message"].startswith("On the flop, the site played seat 3 (Cat) all in when he disconnected, with 20 in the "
                                   "pot and 980 behind: its disconnect protection, a house policy")
    assert (f["rule"], f["rule_title"]) == ("31", "At the Table with Action Pending")
    with duckdb.connect(str(tmp_path / "d.duckdb"), read_only=True) as con:
        assert con.execute("SELECT won_expected, won_recorded, end_stack_expected, end_stack_recorded FROM hand_results "
                           "WHERE seat = 3").fetchone() == (80, 80, 1060, 1060)


# --- headers are metadata, posts are the record (docs/semantics.md, "Headers and posts") ---

def _stars_tournament(number: int, level: str, blinds: str, body: str) -> str:
    return (f"PokerStars Hand #7700000{number}: Tournament #31200{number}, $5.00+$0.50 USD Hold'em No Limit - "
            f"Level {level} ({blinds}) - 2021/03/14 19:01:30 ET\n"
            f"Table '31200{number} 1' 9-max Seat #1 is the button\n" + body.strip("\n") + "\n\n\n")


# the header says level III, 80/160; every post is 60/120 with a 20 ante: Dee's raise to 240 is
# a full raise of the posted big blind, and so is her flop bet of 130
_HEADER_OFF = _stars_tournament(90101, "III", "80/160", """
Seat 1: Ann (5000 in chips)
Seat 2: Bob (5000 in chips)
Seat 3: Cyd (5000 in chips)
Seat 4: Dee (5000 in chips)
Ann: posts the ante 20
Bob: posts the ante 20
Cyd: posts the ante 20
Dee: posts the ante 20
Bob: posts small blind 60
Cyd: posts big blind 120
*** HOLE CARDS ***
Dee: raises 120 to 240
Ann: folds
Bob: folds
Cyd: calls 120
*** FLOP *** [2c 7d 9h]
Cyd: checks
Dee: bets 130
Cyd: folds
Uncalled bet (130) returned to Dee
Dee collected 620 from pot
*** SUMMARY ***
Total pot 620 | Rake 0
Board [2c 7d 9h]
Seat 1: Ann (button) folded before Flop (didn't bet)
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cyd (big blind) folded on the Flop
Seat 4: Dee collected (620)
""")

# the same header; the small blind is the level's 80, the big blind (not all-in) posts 120: one
# poster's wrong amount, a blind-level violation as before; the betting is judged by the 120 posted
_ONE_POST_OFF = _stars_tournament(90102, "III", "80/160", """
Seat 1: Ann (5000 in chips)
Seat 2: Bob (5000 in chips)
Seat 3: Cyd (5000 in chips)
Seat 4: Dee (5000 in chips)
Bob: posts small blind 80
Cyd: posts big blind 120
*** HOLE CARDS ***
Dee: raises 120 to 240
Ann: folds
Bob: folds
Cyd: folds
Uncalled bet (120) returned to Dee
Dee collected 320 from pot
*** SUMMARY ***
Total pot 320 | Rake 0
Seat 1: Ann (button) folded before Flop (didn't bet)
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cyd (big blind) folded before Flop
Seat 4: Dee collected (320)
""")

# issue 35: at 15/30 the big blind posts 20 and is all-in: the level's 30 is still the price to
# play and sets the minimum raise (to 60)
_SHORT_BB = _stars_tournament(90103, "I", "15/30", """
Seat 1: Ann (1500 in chips)
Seat 2: Bob (1500 in chips)
Seat 3: Cyd (20 in chips)
Seat 4: Dee (1500 in chips)
Bob: posts small blind 15
Cyd: posts big blind 20 and is all-in
*** HOLE CARDS ***
Dee: calls 30
Ann: raises 30 to 60
Bob: folds
Dee: folds
Uncalled bet (30) returned to Ann
*** FLOP *** [2c 7d 9h]
*** TURN *** [2c 7d 9h] [Ts]
*** RIVER *** [2c 7d 9h Ts] [3s]
*** SHOW DOWN ***
Cyd: shows [Kd Kc] (a pair of Kings)
Ann: shows [Qh Qd] (a pair of Queens)
Cyd collected 60 from pot
Ann collected 35 from pot
*** SUMMARY ***
Total pot 95 | Rake 0
Board [2c 7d 9h Ts 3s]
Seat 1: Ann (button) showed [Qh Qd] and won (35) with a pair of Queens
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cyd (big blind) showed [Kd Kc] and won (60) with a pair of Kings
Seat 4: Dee folded before Flop
""")


def _audit_text(tmp_path, text: str):
    from auditor.pipeline import audit

    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    return audit([str(path)], db=db, edition_name="tda-2024"), db


def _raise_decisions(db: str) -> list[tuple]:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT d.hand_id, e.text, d.to_call, d.min_raise_to, d.action_class FROM decisions d "
                           "JOIN events e USING (hand_id, seq) WHERE d.action_class NOT IN ('fold', 'check') "
                           "ORDER BY d.hand_id, d.seq").fetchall()


def test_posted_in_full_reads_the_posts_and_leaves_out_all_in_ones():
    from parsers.base import Event, Seat
    from replay.engine import posted_in_full

    seats = [Seat(1, "Ann", 1000), Seat(2, "Bob", 130), Seat(3, "Cyd", 20)]

    def post(seq: int, kind: str, seat: int, amount: int, all_in: bool = False) -> Event:
        return Event(seq, "preflop", kind, seq + 1, seat=seat, amount=amount, all_in=all_in)

    # Bob's ante and big blind leave him 0 (not written all-in): his blind is not a full one
    assert posted_in_full(seats, [post(0, "ante", 1, 10), post(1, "ante", 2, 10), post(2, "small_blind", 1, 60),
                                  post(3, "big_blind", 2, 120)]) == (60, None, 10)
    assert posted_in_full(seats, [post(0, "small_blind", 3, 20, True), post(1, "big_blind", 1, 120)]) == (None, 120, None)
    # a big blind posted to come in, after the positional one all-in: the first full one is the blind
    assert posted_in_full(seats, [post(0, "big_blind", 3, 20, True), post(1, "big_blind", 1, 40)]) == (None, 40, None)


def test_a_header_that_disagrees_with_every_post_is_a_record_and_the_posts_set_the_minimum(tmp_path):
    res, db = _audit_text(tmp_path, _HEADER_OFF)
    assert res.ingest.stored == 1
    [f] = res.findings
    assert (f["check_id"], f["category"], f["expected"], f["actual"], f["line_no"]) == (
        "blind-level", "record", "level III: 80/160", "posted 60/120, ante 20", 1)
    assert f["message"] == ("The header puts this hand at level III, 80/160, but seat 2 (Bob) posted the small blind 60 and "
                            "seat 3 (Cyd) the big blind 120, with antes of 20: the posts are the record, and the hand's "
                            "betting is judged by them.")
    assert "header" in f["category_basis"] and "posts" in f["category_basis"]
    assert _raise_decisions(db) == [
        ("PS-770000090101", "Dee: raises 120 to 240", 120, 240, "raise"),
        ("PS-770000090101", "Cyd: calls 120", 120, 360, "call"),
        ("PS-770000090101", "Dee: bets 130", 0, 120, "bet")]


def test_one_wrong_post_is_judged_against_the_header_as_before(tmp_path):
    res, db = _audit_text(tmp_path, _ONE_POST_OFF)
    [f] = res.findings
    assert (f["check_id"], f["category"], f["seat"], f["expected"], f["actual"]) == ("blind-level", "violation", 3, "160", "120")
    # the big blind in play is the one posted in full: the raise to 240 is a full raise of it
    assert _raise_decisions(db) == [("PS-770000090102", "Dee: raises 120 to 240", 120, 240, "raise")]


def test_a_big_blind_posted_all_in_short_leaves_the_level_s_price_and_minimum(tmp_path):
    res, db = _audit_text(tmp_path, _SHORT_BB)
    assert res.ingest.stored == 1
    assert res.findings == []
    # (what the call is priced at with a short blind is issue 35's: not asserted here)
    assert [(d[1], d[3], d[4]) for d in _raise_decisions(db)] == [
        ("Dee: calls 30", 60, "call"), ("Ann: raises 30 to 60", 60, "raise")]


@needs_corpus
def test_gg_first_hands_of_a_level_post_the_previous_level():
    """GGPoker's Daily Special $250: the header of each level's first hand names the new
    level while its posts are the previous level's.  Each is one record finding; no post is
    a blind-level violation and no raise an underraise (the minimum is the posted blind's)."""
    from auditor.pipeline import audit

    path = CORPUS / "fpdb/tour/GGPoker/Flop/NLHE-8max-MTT-USD-250-202006.txt"
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/gg.duckdb"
        res = audit([str(path)], db=db, edition_name="tda-2024")
        got = sorted((f["hand_id"], f["category"], f["expected"], f["actual"]) for f in res.findings if f["check_id"] == "blind-level")
        assert got == [
            ("GG-TM247773056", "record", "level 3: 80/160", "posted 60/120, ante 18"),
            ("GG-TM247774746", "record", "level 4: 90/180", "posted 80/160, ante 25"),
            ("GG-TM247776533", "record", "level 5: 100/200", "posted 90/180, ante 30"),
            ("GG-TM247777995", "record", "level 6: 125/250", "posted 100/200, ante 36"),
            ("GG-TM247849493", "record", "level 7: 150/300", "posted 125/250, ante 38"),
            ("GG-TM247850728", "record", "level 8: 200/400", "posted 150/300, ante 45")]
        assert res.findings_by_check["illegal-underraise"] == 0
        with duckdb.connect(db, read_only=True) as con:
            assert con.execute("SELECT min_raise_to, action_class FROM decisions WHERE hand_id = 'GG-TM247773056' AND seq = 10"
                               ).fetchone() == (240, "raise")
