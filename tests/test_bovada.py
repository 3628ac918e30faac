"""The Bovada reader's decisions (``parsers/bovada.py``, docs/sites.md), each on a small hand
written for this test in Bovada's format; the corpus tests are in tests/test_site_bovada.py."""

from __future__ import annotations

import pytest

from parsers.base import HandError, ParsedHand
from parsers.bovada import BovadaParser

SEATS = """Seat 1: Dealer (1,000 in chips)
Seat 2: Small Blind (1,000 in chips)
Seat 3: Big Blind [ME] (600 in chips)
Dealer : Set dealer [1]
Small Blind : Small blind 10
Big Blind  [ME] : Big blind 20
*** HOLE CARDS ***
Dealer : Card dealt to a spot [Ah Kd]
Small Blind : Card dealt to a spot [7s 2d]
Big Blind  [ME] : Card dealt to a spot [9c 9h]"""
HEADER = "Bovada Hand #{n}: HOLDEM Tournament #77 TBL#1, {limit}- Level 1 (10/20) - 2026-01-10 18:00:00"


def read(body: str, limit: str = "No Limit", n: int = 1) -> ParsedHand | HandError:
    text = HEADER.format(n=n, limit=limit) + "\n" + body
    [item] = BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "t.txt")
    return item


def kinds(hand: ParsedHand) -> list[tuple[str, str | None, int | None, int | None]]:
    return [(e.kind, e.player, e.amount, e.to_amount) for e in hand.events if e.kind not in ("deal_hole", "seat_result")]


def test_positions_name_the_players_and_give_the_acting_order():
    hand = read(SEATS + """
Dealer : Folds
Small Blind : Folds
Big Blind  [ME] : Does not show [9c 9h] (One pair)
Big Blind  [ME] : Hand Result 30
*** SUMMARY ***
Total Pot(30)
Seat+1: Dealer Folded before the FLOP
Seat+2: Small Blind Folded before the FLOP
Seat+3: Big Blind 30 [Does not show]""")
    assert isinstance(hand, ParsedHand), hand
    assert [(s.player, s.position) for s in hand.seats] == [("Small Blind", 1), ("Big Blind [ME]", 2), ("Dealer", 20)]
    assert hand.site == "bovada" and hand.table_name is None and hand.button_seat == 1
    # a walk writes no return: the big blind's 10 uncalled chips are in his collect (inferred)
    ret = [e for e in hand.events if e.kind == "uncalled_return"]
    assert [(e.player, e.amount) for e in ret] == [("Big Blind [ME]", 10)] and ret[0].inferred_from == [6, 7, 15]
    assert [(e.kind, e.amount) for e in hand.events if e.kind in ("collect", "total_pot")] == [("collect", 20), ("total_pot", 20)]


@pytest.mark.parametrize("line, kind, amount, to", [
    ("Small Blind : All-in 990", "raise", 990, 1000),  # beyond the 20 faced: a raise to his total
    ("Small Blind : Raises 50 to 60", "raise", 50, 60),  # X the chips added, Y the total
    ("Small Blind : Raises 60", "raise", 40, 60),  # 2012: the total (the increment over 20 stored)
    ("Small Blind : All-in(raise) 990 to 1,000", "raise", 990, 1000),
    ("Small Blind : Call 10", "call", 10, None),
])
def test_raise_and_all_in_amounts(line, kind, amount, to):
    hand = read(SEATS + "\nDealer : Folds\n" + line + "\nBig Blind  [ME] : Folds\n*** SUMMARY ***\nTotal Pot(40)")
    assert isinstance(hand, ParsedHand), hand
    [e] = [e for e in hand.events if e.player == "Small Blind" and e.kind in ("raise", "call")]
    assert (e.kind, e.amount, e.to_amount, e.all_in) == (kind, amount, to, "All-in" in line)


def test_an_all_in_call_for_less_and_a_line_written_twice():
    hand = read(SEATS + """
Dealer : Raises 1,000 to 1,000
Small Blind : Folds
Big Blind  [ME] : All-in 580
Big Blind  [ME] : All-in 580
Dealer : Return uncalled portion of bet 400
*** FLOP *** [2c 3d 4h]
*** TURN *** [2c 3d 4h] [5s]
*** RIVER *** [2c 3d 4h 5s] [Js]
Big Blind  [ME] : Showdown [5s 4h 3d 2c 9c] (Straight)
Dealer : Showdown [Ah 5s 4h 3d 2c] (Straight)
Dealer : Hand Result 1,210
*** SUMMARY ***
Total Pot(1,210)""")
    assert isinstance(hand, ParsedHand), hand
    calls = [e for e in hand.events if e.player == "Big Blind [ME]" and e.kind == "call"]
    assert [(e.amount, e.all_in) for e in calls] == [(580, True)]  # 580 within the 1,000 faced, once
    # 'Showdown' writes the best five: the shown cards are the hole cards dealt
    assert [(e.player, e.cards) for e in hand.events if e.kind == "show"] == [("Big Blind [ME]", "9c 9h"),
                                                                            ("Dealer", "Ah Kd")]


def test_a_blinds_all_in_before_the_deal_is_the_blind():
    body = SEATS.replace("Big Blind  [ME] : Big blind 20", "Big Blind  [ME] : All-in 20").replace("(600 in", "(20 in")
    hand = read(body + "\nDealer : Folds\nSmall Blind : Call 10\nBig Blind  [ME] : Hand Result 40"
                "\n*** SUMMARY ***\nTotal Pot(40)")
    assert isinstance(hand, ParsedHand), hand
    assert ("big_blind", "Big Blind [ME]", 20, None) in kinds(hand)


@pytest.mark.parametrize("limit, body, code", [
    ("No Limit", SEATS + "\nDealer : Call 20\nSmall Blind : Call 10\nBig Blind  [ME] : Checks\nSmall Blind : Bets 20"
                 "\n*** SUMMARY ***\nTotal Pot(80)\nBoard [2c 3d 4h]", "streets-unrecorded"),
    ("No Limit", "Dealer : Set dealer [1]", "truncated"),  # a hand start with no seat line: no hand to store
])
def test_what_the_record_cannot_tell_is_rejected(limit, body, code):
    item = read(body, limit)
    assert isinstance(item, HandError) and item.reason_code == code, item


def test_a_hand_cut_short_is_stored_as_recorded():
    """No summary: stored, marked as cut, every recorded line in, nothing inferred; a last
    line cut off mid-way (the next header glued to it) is named, not read."""
    hand = read(SEATS + "\nDealer : Folds")
    assert isinstance(hand, ParsedHand) and "file ends" in hand.record_cut
    assert [e.kind for e in hand.events][-1] == "fold" and not [e for e in hand.events if e.inferred_from]
    glued = HEADER.format(n=2, limit="No Limit")
    items = list(BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(
        (HEADER.format(n=1, limit="No Limit") + "\n" + SEATS + "\nDealer : Rai" + glued + "\n" + SEATS +
         "\nDealer : Folds\nSmall Blind : Folds\n*** SUMMARY ***\nTotal Pot(30)").split("\n"), 1)), "t.txt"))
    cut = items[0]
    assert isinstance(cut, ParsedHand) and cut.record_cut.startswith("line 12 as a whole ('Dealer : Rai'")
    assert cut.last_line == 12 and max(e.line_no for e in cut.events) < 12
    assert isinstance(items[1], ParsedHand) and items[1].record_cut is None and items[1].first_line == 12


def test_the_speed_where_the_limit_would_be_leaves_the_structure_unrecorded():
    hand = read(SEATS + "\nDealer : Folds\nSmall Blind : Raises 50 to 60\nBig Blind  [ME] : Folds"
                "\nSmall Blind : Return uncalled portion of bet 40\nSmall Blind : Hand Result 40"
                "\n*** SUMMARY ***\nTotal Pot(40)", limit="Turbo")
    assert isinstance(hand, ParsedHand), hand
    assert (hand.betting, hand.min_bet, hand.big_blind) == ("unrecorded", None, 20)


def test_the_house_take_is_inferred_where_the_summary_writes_none():
    cash = SEATS.replace(" in chips", " in chips").replace("(1,000", "($10").replace("(600", "($6")
    cash = cash.replace("blind 10", "blind $0.10").replace("blind 20", "blind $0.20").replace("Small blind", "Small Blind")
    header = "Bovada Hand #5  Zone Poker ID#9 HOLDEMZonePoker No Limit - 2021-04-11 02:40:25"
    text = header + "\n" + cash + """
Dealer : Raises $0.60 to $0.60
Small Blind : Folds
Big Blind  [ME] : Call $0.40
*** FLOP *** [2c 3d 4h]
Big Blind  [ME] : Checks
Dealer : Bets $1
Big Blind  [ME] : Folds
Dealer : Return uncalled portion of bet $1
Dealer : Hand result $1.25
*** SUMMARY ***"""
    [hand] = BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "z.txt")
    assert isinstance(hand, ParsedHand), hand
    [total] = [e for e in hand.events if e.kind == "total_pot"]
    assert (total.amount, total.to_amount, hand.amount_scale) == (130, 5, 100)  # $1.30 went in, $1.25 won
    assert total.inferred_from and total.line_no in total.inferred_from  # rests on its own line and the collect
