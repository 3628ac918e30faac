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
    # a board dealt by no line: the betting never reaches the turn card the summary writes
    ("No Limit", SEATS + "\nDealer : Call 20\nSmall Blind : Call 10\nBig Blind  [ME] : Checks\nSmall Blind : Bets 20"
                 "\nBig Blind  [ME] : Folds\nDealer : Folds\nSmall Blind : Return uncalled portion of bet 20"
                 "\nSmall Blind : Hand Result 60\n*** SUMMARY ***\nTotal Pot(60)\nBoard [2c 3d 4h 5s]", "streets-unrecorded"),
    # a line written twice just where the betting round closes: a repeat, or the flop's first check?
    ("No Limit", SEATS + "\nDealer : Call 20\nSmall Blind : Call 10\nBig Blind  [ME] : Checks\nBig Blind  [ME] : Checks"
                 "\nSmall Blind : Bets 20\nBig Blind  [ME] : Folds\nDealer : Folds"
                 "\nSmall Blind : Return uncalled portion of bet 20\nSmall Blind : Hand Result 60"
                 "\n*** SUMMARY ***\nTotal Pot(60)\nBoard [2c 3d 4h]", "streets-unrecorded"),
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


# --- seven card stud: the up cards by the dealing order, the bring-in judged --------------

STUD = """Bodog Hand #{n} TBL#4 7CARD Fixed Limit - 2012-05-07 04:10:00
Seat+2: $0.80 in chips
Seat+4 [ME]: $0.60 in chips
Seat+6: $0.70 in chips
Seat+2 : Ante chip $0.01
Seat+4 [ME] : Ante chip $0.01
Seat+6 : Ante chip $0.01
*** HOLE CARDS ***
Seat+2 : Card dealt to a spot [8d 6h Qc]
Seat+4 [ME] : Card dealt to a spot [As Ks Td]
Seat+6 : Card dealt to a spot [7c 7s 3h]
Seat+6 : Bring_in chip $0.02
Seat+2 : Calls $0.02
Seat+4 [ME] : Calls $0.02
Seat+2 : Card dealt to a spot [5c]
Seat+4 [ME] : Card dealt to a spot [2s]
Seat+6 : Card dealt to a spot [9h]
Seat+2 : Checks
Seat+4 [ME] : Checks
Seat+6 : Bets $0.05
Seat+2 : Folds
Seat+4 [ME] : Folds
Seat+6 : Return uncalled portion of bet $0.05
Seat+6 : Does not show [7c 7s 3h 9h] (One pair)
Seat+6 : Hand result $0.09
*** SUMMARY ***
Total Pot($0.09) | Rake ($0)
Seat 2:  Folded on the 4TH STREET
Seat 4:  Folded on the 4TH STREET
Seat 6:  $0.09 [Does not show]"""


def read_stud(text: str) -> ParsedHand | HandError:
    [item] = BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "s.txt")
    return item


def test_stud_up_cards_follow_the_dealing_order_and_are_marked_inferred():
    hand = read_stud(STUD.format(n=1))
    assert isinstance(hand, ParsedHand), hand
    # 'Fixed Limit' and no bet sizes anywhere: nothing to judge a size by
    assert (hand.variant, hand.betting, hand.bring_in, hand.big_blind) == ("stud", "unrecorded", 2, None)
    assert [(s.seat, s.player) for s in hand.seats] == [(2, "Seat+2"), (4, "Seat+4 [ME]"), (6, "Seat+6")]
    deals = [(e.street, e.seat, e.cards, e.line_no, e.inferred_from) for e in hand.events if e.kind == "deal_hole"]
    # as PokerStars' events carry them: third street's last card up, then one card a street;
    # the status rests on the header naming the game (line 1) and the deal line
    assert deals == [("third", 2, "8d 6h Qc", 9, [1, 9]), ("third", 4, "As Ks Td", 10, [1, 10]),
                     ("third", 6, "7c 7s 3h", 11, [1, 11]), ("fourth", 2, "5c", 15, [1, 15]),
                     ("fourth", 4, "2s", 16, [1, 16]), ("fourth", 6, "9h", 17, [1, 17])]
    assert [(e.kind, e.seat, e.street) for e in hand.events if e.kind in ("bring_in", "bet")] == \
        [("bring_in", 6, "third"), ("bet", 6, "fourth")]


@pytest.mark.parametrize("old, new, code", [
    ("Card dealt to a spot [8d 6h Qc]", "Card dealt to a spot [8d 6h]", "stud-deal-order"),  # two cards on third
    ("Seat+6 : Card dealt to a spot [9h]", "Seat+6 : Card dealt to a spot [9h 4h]", "stud-deal-order"),
    ("Seat+6 : Card dealt to a spot [9h]", "Seat+6 : Card dealt to a spot [8d]", "stud-deal-order"),  # dealt twice
    ("Seat+4 [ME] : Calls $0.02", "Seat+4 [ME] : Folds", "stud-deal-order"),  # then dealt fourth street
    ("Seat+6 : Card dealt to a spot [9h]", "Card dealt to table [9h]", "stud-community-card"),
])
def test_a_stud_record_that_breaks_the_dealing_order_is_rejected(old, new, code):
    text = STUD.format(n=2)
    assert old in text
    item = read_stud(text.replace(old, new, 1))
    assert isinstance(item, HandError) and item.reason_code == code, item


def test_a_bring_in_by_a_player_the_up_cards_do_not_name_is_a_finding(tmp_path):
    from auditor.pipeline import audit

    # Seat+6's 3h is the lowest up card (Qc, Td, 3h): he brings in; moved to Seat+2, the
    # replay would start the round from Seat+2 and nothing else would notice
    wrong = STUD.format(n=4).replace("Seat+6 : Bring_in chip $0.02\nSeat+2 : Calls $0.02\nSeat+4 [ME] : Calls $0.02",
                                     "Seat+2 : Bring_in chip $0.02\nSeat+4 [ME] : Calls $0.02\nSeat+6 : Calls $0.02")
    assert wrong != STUD.format(n=4)
    (tmp_path / "right.txt").write_text(STUD.format(n=3), encoding="utf-8")
    (tmp_path / "wrong.txt").write_text(wrong, encoding="utf-8")
    result = audit([tmp_path / "right.txt", tmp_path / "wrong.txt"], db=tmp_path / "s.duckdb")
    assert result.ingest.stored == 2, result.ingest.errors
    found = [(f["hand_id"], f["seat"], f["line_no"], f["expected"]) for f in result.findings if f["check_id"] == "bring-in"]
    assert found == [("BOV-4", 2, 12, "seat 6 brings in")]
    assert {f["check_id"] for f in result.findings} <= {"bring-in", "betting-unrecorded"}


# --- a board only the summary writes (2012): dealt where the betting rounds close ---------

def test_a_board_only_the_summary_writes_is_dealt_where_each_betting_round_closes():
    hand = read(SEATS + """
Dealer : Call 20
Small Blind : Call 10
Big Blind  [ME] : Checks
Small Blind : Checks
Big Blind  [ME] : Checks
Dealer : Bets 40
Small Blind : Folds
Big Blind  [ME] : Folds
Dealer : Return uncalled portion of bet 40
Dealer : Hand Result 60
*** SUMMARY ***
Total Pot(60)
Board [2c 3d 4h]
Seat+1: Dealer 60 [Does not show]""")
    assert isinstance(hand, ParsedHand), hand
    # pre-flop closes with the big blind's check (line 14): the flop is dealt before the next
    # line, inferred from that line and the summary's board (line 24)
    boards = [(e.street, e.cards, e.line_no, e.inferred_from) for e in hand.events if e.kind == "deal_board"]
    assert boards == [("flop", "2c 3d 4h", 15, [15, 24])]
    assert [(e.line_no, e.street) for e in hand.events if e.kind in ("check", "bet")] == \
        [(14, "preflop"), (15, "flop"), (16, "flop"), (17, "flop")]


def test_an_all_in_run_out_is_dealt_at_the_showdown():
    hand = read(SEATS + """
Dealer : All-in 1000
Small Blind : Folds
Big Blind  [ME] : All-in 580
Dealer : Return uncalled portion of bet 400
Dealer : Showdown [Ah Kd 5s 4h 3d] (Straight)
Big Blind  [ME] : Showdown [9c 9h 7c 4h 3d] (One pair)
Dealer : Hand Result 1210
*** SUMMARY ***
Total Pot(1210)
Board [2c 3d 4h 5s 7c]
Seat+1: Dealer 1210  with Straight [Ah Kd-Ah 5s 4h 3d 2c]""")
    assert isinstance(hand, ParsedHand), hand
    boards = [(e.street, e.cards, e.line_no) for e in hand.events if e.kind == "deal_board"]
    assert boards == [("flop", "2c 3d 4h", 16), ("turn", "5s", 16), ("river", "7c", 16)]
    assert {e.street for e in hand.events if e.kind == "show"} == {"river"}


def test_seat_lines_read_by_slices_as_the_pattern_reads_them():
    """The common seat line is read by slices (``_seat_fields``), every other by ``SEAT``:
    the same groups, or no seat line, as ``SEAT`` alone gives, on the shapes the files write
    and on those lines with pieces put in (names holding ' (' or '[ME]', spaces before
    '[ME]', stacks not of digits, other whitespace, other decimal digits, a trailing space)."""
    import random

    from parsers.bovada import SEAT, STUD_SEAT, _seat_fields

    def by_pattern(text: str, stud: bool) -> tuple[str, str, bool, str] | None:
        m = (STUD_SEAT if stud else SEAT).match(text)
        return None if m is None else (m.group("seat"), m.group("name"), m.group("me") is not None, m.group("stack"))

    written = ["Seat 1243: UTG+3 (48,213 in chips)", "Seat 5: Big Blind [ME] ($25 in chips)",
               "Seat 3: UTG+2  [ME] ($39.14 in chips)", "Seat 1: Small Blind ($678 in chips)"]
    assert [_seat_fields(t, False) for t in written] == [
        ("1243", "UTG+3", False, "48,213"), ("5", "Big Blind", True, "$25"), ("3", "UTG+2", True, "$39.14"),
        ("1", "Small Blind", False, "$678")]
    pieces = ["", " ", "  ", "(", " (", ")", "[ME]", " [ME]", "$", ",", ".", "\t", "\xa0", ": ", "x", "\u0663", "\u00b2"]
    rng = random.Random(7)

    def put_in(text: str) -> str:
        out = list(text)
        for _ in range(rng.randint(0, 2)):
            out.insert(rng.randint(0, len(out)), rng.choice(pieces))
        return "".join(out)

    lines = [*written, "Seat 1:   [ME] ($5 in chips)", "Seat 1: [ME] ($5 in chips)", "Seat 3: A ((5 in chips)",
             "Seat+4 [ME]: 1,500 in chips"]
    for _ in range(20000):
        lines.append("Seat " + put_in(rng.choice(["1", "12"])) + put_in(": ") + put_in(rng.choice(["UTG+1", "Big Blind"]))
                     + put_in(rng.choice(["", " [ME]", "  [ME]"])) + put_in(" (") + put_in(rng.choice(["$5", "1,500", "$2.50"]))
                     + rng.choice([" in chips)", " in chips) "]))
    read = sum(by_pattern(t, False) is not None for t in lines)
    assert read > 1000  # the mutations leave many lines a seat line
    for text in lines:
        for stud in (False, True):
            assert _seat_fields(text, stud) == by_pattern(text, stud), text


def test_header_groups_kept_by_the_text_before_the_date_read_as_the_patterns_read_them():
    """A header's groups are kept by the text before its date (``_header_fields``): read,
    then kept, they are TOURNEY's (else CASH's) on the whole rest, date included, on the
    shapes the files write and on rests with a ' - ' in the date or the name, no date,
    nothing before ' - ', and no ' - ' at all."""
    from parsers.bovada import CASH, TOURNEY, _header_fields

    rests = ["HOLDEM Tournament #41678164 TBL#81, Normal- Level 13 (300/600) - 2021-06-06 18:25:22",
             "OMAHA HiLo Tournament #9 TBL#2, Pot Limit- Level 1 (10/20) [MVS] - 2014-08-01 10:00:00",
             "7CARD Tournament #3 TBL#1, Fixed Limit- Level 2 (0/0) - 2012-06-01 10:00:00",
             "TBL#951467 HOLDEM  Fixed Limit - 2012-04-03 16:25:23",
             " Zone Poker ID#1708 HOLDEMZonePoker No Limit - 2021-04-11 01:51:42",
             "Zone Poker ID#1708 HOLDEMZonePoker No Limit - 2021-04-11 01:51:42",
             "TBL#1 OMAHA Pot Limit [MVS] - 2021-03-01 - 10:00:00", "TBL#1 OMAHA Pot Limit - - x",
             "TBL#1 OMAHA Pot Limit - ", "TBL#1 OMAHA Pot Limit", " - 2021", "HOLDEM Tournament #4 TBL#8, No - Limit- "
             "Level 1 (1/2) - 2021 - 01", "TBL#1 HOLDEM No Limit - x Tournament #4 TBL#8, Normal- Level 13 (3/6) - y"]
    for rest in rests:
        t = TOURNEY.match(rest) if " Tournament #" in rest else None
        m = t or CASH.match(rest)
        for _ in range(2):  # read, then kept
            fields, date = _header_fields(rest)
            assert (fields is None) == (m is None), rest
            if m is not None:
                assert fields is not None
                assert fields[:3] == (t is not None, m.group("game"), m.group("limit")), rest
                assert fields[3:7] == (t.group("tid", "level", "sb", "bb") if t else ("", "", "", "")), rest
                assert date == m.group("date"), rest


def test_amounts_kept_by_text_read_as_written():
    """An amount is read once a scale and kept; what cannot be read is an error every time."""
    from parsers.bovada import SITE, _BovadaHand
    from parsers.stars_site import to_units

    for scale, texts in ((100, ["$0.25", "$1,270.50", "$25", "$0.5"]), (1, ["27,617", "60", "1,500"])):
        reader = _BovadaHand(SITE, [(1, 0, "")], None, scale)
        for _ in range(2):  # read, then kept
            assert [reader.amt(t) for t in texts] == [to_units(t, scale) for t in texts]
    reader = _BovadaHand(SITE, [(1, 0, "")], None, 1)
    for _ in range(2):
        with pytest.raises(ValueError):
            reader.amt("$x")


@pytest.mark.parametrize("brand", ["Bovada", "Ignition", "Bodog", "Bodog UK", "Bodog.com", "Bodog.eu"])
def test_every_brand_of_the_client_starts_a_hand(brand):
    """The header's first words, one per brand the client was sold under (BRAND_NAMES):
    'Bodog.eu Hand #3598529418 TBL#15069462 HOLDEM No Limit - 2018-04-28 21:52:54' (2018)
    and 'Bodog.com Hand #4107052743 ... [MVS] - 2021-04-23 11:09:26 UTC' (2021) too."""
    from parsers import all_parsers

    text = (f"{brand} Hand #3598529418 TBL#15069462 HOLDEM No Limit - 2018-04-28 21:52:54\n" + SEATS + """
Dealer : Folds
Small Blind : Folds
Big Blind  [ME] : Hand Result 30
*** SUMMARY ***
Total Pot(30)
Seat+1: Dealer Folded before the FLOP
Seat+2: Small Blind Folded before the FLOP
Seat+3: Big Blind 30""")
    assert [p.name for p in all_parsers() if p.detect(text, "t.txt")] == ["bovada"]
    [hand] = BovadaParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "t.txt")
    assert isinstance(hand, ParsedHand), hand
    assert (hand.hand_id, hand.is_tournament, hand.betting, hand.big_blind) == ("BOV-3598529418", False, "no-limit", 20)


def test_a_knockouts_bounty_is_paid_outside_the_pot():
    """'Dealer : BOUNTY PRIZE [$5]' records nothing (the bounty is no chip of the pot), and the
    summary's winner line 'Seat 7:Dealer 8680  with ... BOUNTY awarded:$5', written with no
    space after its colon, is the seat's result (the KO tournament of 2015)."""
    hand = read(SEATS + """
Dealer : All-in 1,000
Small Blind : Folds
Big Blind  [ME] : All-in 580
Dealer : Return uncalled portion of bet 420
*** FLOP *** [2c 7d 9d]
*** TURN *** [2c 7d 9d] [Ks]
*** RIVER *** [2c 7d 9d Ks] [3s]
Dealer : Showdown [Ah Kd Ks 9d 7d] (One pair)
Big Blind  [ME] : Showdown [9c 9h 9d Ks 7d] (Three of a kind)
Big Blind  [ME] : Hand Result 1,170
Big Blind  [ME] : BOUNTY PRIZE [$5]
*** SUMMARY ***
Total Pot(1,170)
Board [2c 7d 9d Ks 3s]
Seat+1: Dealer lose with One pair [Ah Kd-Ks Kd Ah 9d 7d]
Seat+2: Small Blind Folded before the FLOP
Seat 3:Big Blind 1,170  with Three of a kind [9c 9h-9c 9h 9d Ks 7d]   BOUNTY awarded:$5""")
    assert isinstance(hand, ParsedHand), hand
    assert not [e for e in hand.events if e.kind == "unread"]
    assert [(e.kind, e.player, e.amount) for e in hand.events if e.kind in ("collect", "seat_result") and e.amount] == [
        ("collect", "Big Blind [ME]", 1170), ("seat_result", "Big Blind [ME]", 1170)]
