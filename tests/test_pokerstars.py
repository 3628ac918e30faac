"""Unit tests of the PokerStars parser on small hand texts written for these tests."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

import parsers.pokerstars as ps
from parsers.base import HandError, ParsedHand, settle
from parsers.pokerstars import PokerStarsParser, to_units
from tests.native_doctests import doctests_of


def parse(text: str) -> list[ParsedHand | HandError]:
    lines = ((i, 0, t) for i, t in enumerate(text.split("\n"), 1))
    return list(PokerStarsParser().iter_hands(lines, "t.txt"))


def one(text: str) -> ParsedHand:
    [h] = parse(text)
    assert isinstance(h, ParsedHand), h
    return h


def kinds(h: ParsedHand) -> list[tuple]:
    return [(e.street, e.kind, e.player, e.amount, e.to_amount) for e in h.events]


TOURNEY = """PokerStars Hand #201: Tournament #77, $1.00+$0.25+$0.15 USD Hold'em No Limit - Level XVI (100/200) - 2020/01/02 3:04:05 CET [2020/01/01 21:04:05 ET]
Table '77 3' 9-max Seat #3 is the button
Seat 1: Ann (1500 in chips)
Seat 2: Bob: the [2nd] (3000 in chips, $0.50 bounty)
Seat 3: Jöse Ü (400 in chips)
Seat 4: Dee (900 in chips) is sitting out
Ann: posts the ante 25
Bob: the [2nd]: posts the ante 25
Jöse Ü: posts the ante 25
Dee: posts the ante 25
Ann: posts small blind 100
Bob: the [2nd]: posts big blind 200
*** HOLE CARDS ***
Dealt to Ann [Ah Kd]
Jöse Ü: raises 175 to 375 and is all-in
Dee said, "Ann: folds"
Ann: raises 1000 to 1375
Bob: the [2nd]: folds
Uncalled bet (1000) returned to Ann
*** FLOP *** [2c 3d 4h]
*** TURN *** [2c 3d 4h] [5s]
*** RIVER *** [2c 3d 4h 5s] [Td]
*** SHOW DOWN ***
Ann: shows [Ah Kd] (a straight, Ace to Five)
Jöse Ü: shows [Qs Qc] (a pair of Queens)
Ann collected 1050 from pot
Jöse Ü finished the tournament in 14th place and received $2.10.
*** SUMMARY ***
Total pot 1050 | Rake 0
Board [2c 3d 4h 5s Td]
Seat 1: Ann (small blind) showed [Ah Kd] and won (1050) with a straight, Ace to Five
Seat 2: Bob: the [2nd] (big blind) folded before Flop
Seat 3: Jöse Ü (button) showed [Qs Qc] and lost with a pair of Queens
Seat 4: Dee folded before Flop (didn't bet)"""


def test_tournament_hand_fields():
    h = one(TOURNEY)
    assert (h.hand_id, h.hand_number, h.site, h.format) == ("PS-201", "201", "pokerstars", "pokerstars")
    assert (h.tournament_id, h.buy_in, h.table_name, h.max_seats, h.button_seat) == ("77", "$1.00+$0.25+$0.15 USD", "77 3", 9, 3)
    assert (h.level, h.small_blind, h.big_blind, h.ante, h.bb_ante, h.min_bet) == ("XVI", 100, 200, 25, False, 200)
    assert (h.variant, h.betting, h.game_label) == ("holdem", "no-limit", "Hold'em No Limit")
    assert h.started_at == dt.datetime(2020, 1, 2, 3, 4, 5)
    assert h.started_at_text == "2020/01/02 3:04:05 CET [2020/01/01 21:04:05 ET]"
    assert (h.is_tournament, h.currency, h.amount_scale, h.chip_unit) == (True, None, 1, 1)
    assert (h.first_line, h.last_line) == (1, TOURNEY.count("\n") + 1)
    assert [(s.seat, s.player, s.starting_stack, s.sitting_out, s.bounty, s.line_no) for s in h.seats] == [
        (1, "Ann", 1500, False, None, 3),
        (2, "Bob: the [2nd]", 3000, False, "$0.50 bounty", 4),
        (3, "Jöse Ü", 400, False, None, 5),
        (4, "Dee", 900, True, None, 6),
    ]


def test_tournament_hand_events():
    h = one(TOURNEY)
    assert [e.seq for e in h.events] == list(range(len(h.events)))
    assert kinds(h) == [
        ("preflop", "ante", "Ann", 25, None),
        ("preflop", "ante", "Bob: the [2nd]", 25, None),
        ("preflop", "ante", "Jöse Ü", 25, None),
        ("preflop", "ante", "Dee", 25, None),
        ("preflop", "small_blind", "Ann", 100, None),
        ("preflop", "big_blind", "Bob: the [2nd]", 200, None),
        ("preflop", "deal_hole", "Ann", None, None),
        ("preflop", "raise", "Jöse Ü", 175, 375),
        ("preflop", "raise", "Ann", 1000, 1375),
        ("preflop", "fold", "Bob: the [2nd]", None, None),
        ("preflop", "uncalled_return", "Ann", 1000, None),
        ("flop", "deal_board", None, None, None),
        ("turn", "deal_board", None, None, None),
        ("river", "deal_board", None, None, None),
        ("showdown", "show", "Ann", None, None),
        ("showdown", "show", "Jöse Ü", None, None),
        ("showdown", "collect", "Ann", 1050, None),
        ("showdown", "finish", "Jöse Ü", 14, None),
        ("summary", "total_pot", None, 1050, 0),
        ("summary", "seat_result", "Ann", 1050, None),
        ("summary", "seat_result", "Bob: the [2nd]", None, None),
        ("summary", "seat_result", "Jöse Ü", None, None),
        ("summary", "seat_result", "Dee", None, None),
    ]
    ev = h.events
    assert [e.all_in for e in ev[7:9]] == [True, False]
    assert [e.seat for e in ev[:6]] == [1, 2, 3, 4, 1, 2]
    assert ev[6].cards == "Ah Kd" and ev[11].cards == "2c 3d 4h" and ev[12].cards == "5s" and ev[13].cards == "Td"
    assert ev[14].cards == "Ah Kd" and ev[19].cards == "Ah Kd" and ev[21].cards == "Qs Qc"
    assert ev[16].pot_label == "pot" and ev[16].half is None
    # line numbers and verbatim text; the chat line (16) and Board line are not events
    assert (ev[8].line_no, ev[8].text) == (17, "Ann: raises 1000 to 1375")
    assert 16 not in {e.line_no for e in ev}


CASH = """PokerStars Hand #300:  Omaha Hi/Lo Pot Limit ($0.05/$0.10 USD) - 2011/06/26 18:34:02 WET [2011/06/26 13:34:02 ET]
Table 'Foo II' 6-max Seat #1 is the button
Seat 1: A ($1,000.50 in chips)
Seat 2: B ($2 in chips)
Seat 3: C ($5 in chips)
B: posts small blind $0.05
C: posts big blind $0.10
A: posts small & big blinds $0.15
*** HOLE CARDS ***
A: raises $0.20 to $0.30
B: raises $1.70 to $2 and is all-in
C: calls $1.90
A: calls $1.70
*** FLOP *** [2c 3d 4h]
C: bets $1
A: calls $1
*** TURN *** [2c 3d 4h] [5s]
C: checks
A: checks
*** RIVER *** [2c 3d 4h 5s] [Td]
C: checks
A: checks
*** SHOW DOWN ***
C: shows [Ah Kd 2s 3s] (HI: a straight, Ace to Five; LO: 5,4,3,2,A)
A: mucks hand
B: shows [Qs Qc Js Jc] (HI: a pair of Queens)
C collected $1.90 from side pot-1
C collected $2.86 from main pot
B collected $2.85 from main pot
*** SUMMARY ***
Total pot $8.05 Main pot $5.71. Side pot-1 $1.90. | Rake $0.44
Board [2c 3d 4h 5s Td]
Seat 1: A (button) mucked [Kc Kh 9d 8d]
Seat 2: B (small blind) showed [Qs Qc Js Jc] and won ($2.85) with HI: a pair of Queens
Seat 3: C (big blind) showed [Ah Kd 2s 3s] and won ($1.90) with HI: a straight; LO: 5,4,3,2,A and won ($2.86) with LO"""


def test_cash_hand_amounts_in_cents():
    h = one(CASH)
    assert (h.is_tournament, h.currency, h.amount_scale, h.tournament_id, h.level) == (False, "USD", 100, None, None)
    assert (h.small_blind, h.big_blind, h.variant, h.betting) == (5, 10, "omaha_hilo", "pot-limit")
    assert h.seats[0].starting_stack == 100050
    got = {(e.kind, e.player, e.amount, e.to_amount, e.pot_label) for e in h.events}
    assert ("dead_blind", "A", 15, None, None) in got
    assert ("raise", "B", 170, 200, None) in got
    assert ("collect", "C", 190, None, "side-1") in got and ("collect", "B", 285, None, "main") in got
    assert ("total_pot", None, 805, 44, None) in got
    assert [(e.pot_label, e.amount) for e in h.events if e.kind == "pot_claim"] == [("main", 571), ("side-1", 190)]
    results = [(e.player, e.amount, e.cards) for e in h.events if e.kind == "seat_result"]
    assert results == [("A", None, "Kc Kh 9d 8d"), ("B", 285, "Qs Qc Js Jc"), ("C", 476, "Ah Kd 2s 3s")]
    assert [e.cards for e in h.events if e.kind == "muck"] == [None]


def test_amounts_are_exact_and_rescale_when_a_hand_needs_it():
    assert to_units("$0.07", 100) == 7 and to_units("1,234,567", 1) == 1234567 and to_units("€12", 100) == 1200
    three = CASH.replace("A: calls $1\n", "A: calls $1.005\n")
    h = one(three)
    assert h.amount_scale == 1000
    assert [e.amount for e in h.events if e.text == "A: calls $1.005"] == [1005]
    assert h.seats[0].starting_stack == 1000500
    with pytest.raises(ValueError):
        to_units("1.2.3", 100)
    # each amount with more places than the last re-reads the hand again (a second
    # re-read used to escape the parser and reject the rest of the file)
    h = one(three.replace("($1,000.50 in chips)", "($1,000.5005 in chips)"))
    assert h.amount_scale == 10_000 and h.seats[0].starting_stack == 10_005_005
    assert [e.amount for e in h.events if e.text == "A: calls $1.005"] == [10050]
    [err] = parse(three.replace("($1,000.50 in chips)", "($1,000.5000000000000000005 in chips)"))
    assert isinstance(err, HandError) and err.reason_code == "amount-out-of-range" and "19 decimal places" in err.reason
    # ten places: a scale of 10**10, beyond the store's INTEGER scale (it stopped the whole ingest)
    [err] = parse(three.replace("($1,000.50 in chips)", "($1,000.5000000001 in chips)"))
    assert isinstance(err, HandError) and err.reason_code == "amount-out-of-range" and "10 decimal places" in err.reason
    h = one(three.replace("($1,000.50 in chips)", "($1,000.500000001 in chips)"))
    assert h.amount_scale == 10**9 and h.seats[0].starting_stack == 1_000_500_000_001


STUD = """PokerStars Game #400: Tournament #5, $10+$1 USD 7 Card Stud Limit - Level I (20/40) - 2009/06/14 11:45:00 ET
Table '5 2' 8-max
Seat 1: P1 (500 in chips)
Seat 2: P2 (500 in chips)
P1: posts the ante 5
P2: posts the ante 5
*** 3rd STREET ***
Dealt to P1 [9s 5d 5s]
Dealt to P2 [Ac]
P2: brings in for 10
P1: completes it to 20
P2: calls 10
*** 4th STREET ***
Dealt to P1 [9s 5d 5s] [Qd]
Dealt to P2 [Ac] [2d]
P1: bets 20
P2: raises 20 to 40
P1: calls 20
*** 5th STREET ***
P1: checks
P2: checks
*** 6th STREET ***
P1: checks
P2: checks
*** RIVER ***
P1: checks
P2: checks
*** SHOW DOWN ***
P1: shows [9s 5d 5s Qd 2h 3h 4h] (a pair of Fives)
P2: mucks hand
P1 collected 130 from pot
*** SUMMARY ***
Total pot 130 | Rake 0
Seat 1: P1 showed [9s 5d 5s Qd 2h 3h 4h] and won (130) with a pair of Fives
Seat 2: P2 mucked [Ac 2d 7c 7d 8c 8d Kh]"""


def test_stud_streets_bring_in_and_complete():
    h = one(STUD)
    assert (h.variant, h.betting, h.small_bet, h.big_bet, h.bring_in, h.ante, h.button_seat) == (
        "stud", "fixed-limit", 20, 40, 10, 5, None
    )
    assert (h.small_blind, h.big_blind, h.bb_ante) == (None, None, False)
    assert [(e.street, e.kind) for e in h.events[:6]] == [
        ("third", "ante"), ("third", "ante"), ("third", "deal_hole"), ("third", "deal_hole"), ("third", "bring_in"), ("third", "complete")
    ]
    complete = h.events[5]
    assert (complete.amount, complete.to_amount) == (20, 20)
    assert [e.cards for e in h.events if e.kind == "deal_hole"] == ["9s 5d 5s", "Ac", "Qd", "2d"]
    streets = [e.street for e in h.events if e.kind == "check"]
    assert streets == ["fifth", "fifth", "sixth", "sixth", "seventh", "seventh"]


def test_stud_complete_after_own_bring_in_counts_the_bring_in():
    text = STUD.replace("P2: brings in for 10\nP1: completes it to 20\nP2: calls 10", "P2: brings in for 10\nP1: calls 10\nP2: completes it to 20\nP1: calls 10")
    h = one(text)
    [c] = [e for e in h.events if e.kind == "complete"]
    assert (c.player, c.amount, c.to_amount) == ("P2", 10, 20)


DRAW = """PokerStars Game #500:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2011/06/26 18:34:02 ET
Table 'SeinV' 6-max Seat #1 is the button
Seat 1: X ($4 in chips)
Seat 2: Hero ($3 in chips)
X: posts small blind $0.05
Hero: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [8s Td Kd Qs Qc]
X: calls $0.05
Hero: checks
*** FIRST DRAW ***
Hero: discards 3 cards [Td Kd Qs]
Dealt to Hero [8s Qc] [2c 3c 4d]
X: stands pat
Hero: checks
X: checks
*** SECOND DRAW ***
Hero: discards 1 card [Qc]
Dealt to Hero [8s 2c 3c 4d] [7h]
X: discards 1 card
Hero: bets $0.20
X: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.19 from pot
*** SUMMARY ***
Total pot $0.20 | Rake $0.01
Seat 1: X (button) (small blind) folded after the 2nd Draw
Seat 2: Hero (big blind) collected ($0.19)"""


def test_triple_draw_streets_and_discards():
    h = one(DRAW)
    assert (h.variant, h.betting, h.small_bet, h.big_bet, h.small_blind, h.big_blind) == (
        "2-7_triple_draw", "fixed-limit", 10, 20, 5, 10
    )
    draws = [(e.street, e.kind, e.player, e.amount, e.cards) for e in h.events if e.kind in ("draw", "stand_pat")]
    assert draws == [
        ("first_draw", "draw", "Hero", 3, "Td Kd Qs"),
        ("first_draw", "stand_pat", "X", None, None),
        ("second_draw", "draw", "Hero", 1, "Qc"),
        ("second_draw", "draw", "X", 1, None),
    ]
    assert [e.cards for e in h.events if e.kind == "deal_hole"] == ["8s Td Kd Qs Qc", "2c 3c 4d", "7h"]
    assert h.events[0].street == "predraw"


def test_single_draw_has_no_marker_the_first_draw_line_starts_it():
    text = (
        DRAW.replace("Triple Draw 2-7 Lowball Limit", "5 Card Draw Limit")
        .replace("*** FIRST DRAW ***\n", "")
        .replace("X: stands pat\nHero: checks\nX: checks\n*** SECOND DRAW ***\n", "X: stands pat\n")
    )
    h = one(text)
    assert h.variant == "5_card_draw"
    assert [(e.street, e.kind) for e in h.events if e.kind in ("check", "call", "draw", "stand_pat", "bet")] == [
        ("predraw", "call"), ("predraw", "check"), ("first_draw", "draw"), ("first_draw", "stand_pat"),
        ("first_draw", "draw"), ("first_draw", "draw"), ("first_draw", "bet"),
    ]


def test_bb_ante_and_six_plus_button_blind():
    bb_ante = TOURNEY.replace("Ann: posts the ante 25\n", "").replace("Jöse Ü: posts the ante 25\n", "").replace("Dee: posts the ante 25\n", "")
    [h] = parse(bb_ante)  # the pot no longer adds up, but the parser records what is written
    assert (h.ante, h.bb_ante) == (25, True)
    six = """PokerStars Hand #600:  6+ Hold'em No Limit (Button Blind\u00a0$0.50 - Ante\u00a0$0.50  USD) - 2019/07/07 0:30:30 JST [2019/07/06 11:30:30 ET]
Table 'Archid II' 6-max Seat #2 is the button
Seat 1: A ($50 in chips)
Seat 2: B ($20 in chips)
A: posts the ante $0.50
B: posts the ante $0.50
B: posts button blind $0.50
*** HOLE CARDS ***
A: folds
Uncalled bet ($0.50) returned to B
B collected $1 from pot
*** SUMMARY ***
Total pot $1 | Rake $0
Seat 1: A folded before Flop (didn't bet)
Seat 2: B (button) collected ($1)"""
    h = one(six)
    assert (h.variant, h.big_blind, h.ante, h.currency, h.amount_scale) == ("6plus_holdem", 50, 50, "USD", 100)
    assert [e.kind for e in h.events[:3]] == ["ante", "ante", "big_blind"]


def test_home_game_mixed_and_uppercase_headers():
    home = TOURNEY.replace(
        "PokerStars Hand #201: Tournament #77, $1.00+$0.25+$0.15 USD Hold'em No Limit - Level XVI (100/200)",
        "PokerStars Home Game Hand #201: {Dazzle's Room} Tournament #77, 10+0 8-Game (Hold'em No Limit) - Match Round I, Level XVI (100/200)",
    )
    h = one(home)
    assert (h.tournament_name, h.buy_in, h.game_label, h.level, h.variant) == (
        "Dazzle's Room", "10+0", "8-Game (Hold'em No Limit)", "XVI", "holdem"
    )
    upper = CASH.replace(
        "PokerStars Hand #300:  Omaha Hi/Lo Pot Limit ($0.05/$0.10 USD) - 2011/06/26 18:34:02 WET [2011/06/26 13:34:02 ET]",
        "POKERSTARS GAME #300:  OMAHA HI/LO POT LIMIT ($0.05/$0.10) - 2011/06/26 - 18:34:02 (ET)",
    )
    h = one(upper)
    assert (h.variant, h.betting, h.currency, h.big_blind, h.started_at) == (
        "omaha_hilo", "pot-limit", "USD", 10, dt.datetime(2011, 6, 26, 18, 34, 2)
    )


def test_the_italian_site_s_regulator_id_in_the_header_is_no_fact_of_the_game():
    """PokerStars.it writes its regulator's session id between the stakes and the date;
    the header is read as without it, the rest of the hand as any other."""
    tagged = TOURNEY.replace("(100/200) - ", "(100/200) [ADM ID: TESTAAAA0006] - ")
    assert tagged != TOURNEY
    plain, it = one(TOURNEY), one(tagged)
    assert (it.level, it.small_blind, it.big_blind, it.started_at, it.tournament_id) == (
        plain.level, plain.small_blind, plain.big_blind, plain.started_at, plain.tournament_id)
    assert [(e.kind, e.amount) for e in it.events] == [(e.kind, e.amount) for e in plain.events]
    cash = CASH.replace("($0.05/$0.10 USD) - ", "($0.05/$0.10 USD) [AAMS ID: M2BCE3000C59C5PF] - ")
    assert cash != CASH
    h = one(cash)
    assert (h.variant, h.currency, h.big_blind, h.started_at) == (
        one(CASH).variant, "USD", 10, one(CASH).started_at)
    # only a tag before the date is taken out: one in the game's words is not a header PokerStars writes
    [refused] = parse(TOURNEY.replace("Hold'em No Limit", "Hold'em [ADM ID: X] No Limit"))
    assert isinstance(refused, HandError) and "not understood" in refused.reason, refused


def test_rejections_name_the_line_and_the_next_hand_still_parses():
    # a board run twice before the river's betting: a run-it-twice hand the log cannot hold
    rit = CASH.replace("*** RIVER *** [2c 3d 4h 5s] [Td]", "*** FIRST RIVER *** [2c 3d 4h 5s] [Td]\n*** SECOND RIVER *** [2c 3d 4h 5s] [9d]")
    bad = TOURNEY.replace("Ann: raises 1000 to 1375", "Ann: juggles 1000")
    unsupported = CASH.replace("Omaha Hi/Lo Pot Limit", "Split Hold'em No Limit")
    cancelled = CASH.replace("*** HOLE CARDS ***", "Hand cancelled")
    cashout = CASH.replace("C collected $1.90 from side pot-1", "C cashed out the hand for $1.80 | Cash Out Fee $0.02")
    unknown_player = TOURNEY.replace("Bob: the [2nd]: folds", "Zed: folds")
    joined = "\n\n".join([rit, TOURNEY, bad, unsupported, cancelled, cashout, unknown_player, STUD])
    items = [settle(i) for i in parse(joined)]  # as ingest stores them
    errors = [(type(i).__name__, getattr(i, "reason_code", None)) for i in items]
    assert errors == [
        ("HandError", "run-it-twice"),
        ("ParsedHand", None),
        ("HandError", "unreconciled"),  # the line not understood held the raise's chips
        ("HandError", "unsupported-game"),
        ("HandError", "cancelled"),
        ("ParsedHand", None),  # a cash-out: stored, its event cash_out (amount paid, fee)
        ("ParsedHand", None),  # a fold by a name no seat line gives: kept unread, no chip moved
        ("ParsedHand", None),
    ]
    rit_e, bad_e = items[0], items[2]
    assert rit_e.hand_id == "PS-300" and rit_e.line_no == 22 and "line 22" in rit_e.reason and "C: checks" in rit_e.reason
    bad_line = joined.split("\n").index("Ann: juggles 1000") + 1
    assert bad_e.line_no == bad_line and f"line {bad_line}" in bad_e.reason and "juggles" in bad_e.reason
    (cash_out,) = [e for e in items[5].events if e.kind == "cash_out"]
    assert (cash_out.player, cash_out.amount, cash_out.to_amount) == ("C", 180, 2)
    (zed,) = [e for e in items[6].events if e.kind == "unread"]
    assert (zed.text, zed.seat) == ("Zed: folds", None)


def test_truncated_hands():
    """A hand whose record stops early is stored as recorded, marked as cut (record_cut);
    a hand start with no seat line after it is rejected 'truncated'."""
    cut = "\n".join(TOURNEY.split("\n")[:20])  # stops at the flop
    # cut at the end of the file
    items = parse(STUD + "\n\n" + cut)
    assert isinstance(items[0], ParsedHand) and items[0].record_cut is None
    h = items[1]
    assert isinstance(h, ParsedHand) and h.first_line == STUD.count("\n") + 3 and h.last_line == h.first_line + 19
    assert "file ends" in h.record_cut and "summary" in h.record_cut
    # every recorded event is in, nothing is inferred or settled: the last is the flop
    assert [e.kind for e in h.events][-3:] == ["fold", "uncalled_return", "deal_board"]
    assert not [e for e in h.events if e.kind in ("collect", "total_pot", "seat_result") or e.inferred_from]
    # cut by the next header, and a header glued to the end of a cut line
    items = parse(cut + "\n" + STUD + "\n\n" + cut[:-4] + STUD)
    assert [type(i).__name__ for i in items] == ["ParsedHand"] * 4
    assert [bool(i.record_cut) for i in items] == [True, False, True, False]
    assert "next hand starts at line 21" in items[0].record_cut
    glued = items[3]
    assert glued.first_line == items[2].first_line + 19 and glued.hand_id == "PS-400"
    assert glued.content_hash == items[1].content_hash  # the same hand, whatever preceded its header
    # the cut line itself ('*** FLOP *** [2c 3d' with the next header glued on) cannot be read: named, not read
    assert items[2].last_line == glued.first_line and "'*** FLOP *** [2c 3d'" in items[2].record_cut
    assert [e.kind for e in items[2].events][-1] == "uncalled_return"
    # a summary without its Total pot line
    no_total = parse(TOURNEY.replace("Total pot 1050 | Rake 0\n", ""))[0]
    assert isinstance(no_total, ParsedHand) and "'Total pot' line" in no_total.record_cut
    # a hand start with nothing after it (no seat line): rejected
    for head in (TOURNEY.split("\n")[0], "\n".join(TOURNEY.split("\n")[:2]), TOURNEY.split("\n")[0] + "\nTable '77"):
        items = parse(head + "\n\n" + STUD)
        assert [getattr(i, "reason_code", "ok") for i in items] == ["truncated", "ok"], head
        assert items[0].hand_id == "PS-201"


def test_lines_before_the_first_header_are_reported_once():
    items = parse("Ann: folds\nBob: calls 20\n\n" + TOURNEY)
    assert [getattr(i, "reason_code", "ok") for i in items] == ["truncated", "ok"]
    assert items[0].line_no == 1 and "lines 1-2" in items[0].reason
    assert parse("") == [] and parse("\n\n") == []


def test_content_hash_ignores_line_endings_and_trailing_blank_lines():
    a = one(TOURNEY)
    b = one(TOURNEY.replace("\n", " \n") + "\n\n\n")
    assert a.content_hash == b.content_hash and a.last_line == b.last_line
    c = one(TOURNEY.replace("Ann collected 1050", "Ann collected 1051"))
    assert c.content_hash != a.content_hash


def test_detect():
    p = PokerStarsParser()
    assert p.detect("\n\nPokerStars Zoom Hand #1: Hold'em No Limit ($0.01/$0.02) - x", "z.txt")
    assert p.detect("PokerStars Home Game Hand #1: {club} Hold'em", "h.txt")
    assert not p.detect("Full Tilt Poker Game #1: Table x", "f.txt")
    assert not p.detect("I played at PokerStars Hand #1: yesterday", "notes.txt")


def test_module_doctests():
    result = doctests_of(ps.__name__, optionflags=doctest.ELLIPSIS)  # the compiled copy's too
    assert result.attempted >= 5 and result.failed == 0
