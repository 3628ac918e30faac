"""A player who acts with no seat line, in the Stars-shaped formats (docs/semantics.md,
"A player with no seat line"): his posts, actions and collect are stored as his events
with seat NULL, the ``seat-unrecorded`` check says so, and no violation follows.

The hands are written here in each site's format: a player joining the table posts and
plays a whole hand with no seat line (as a real Full Tilt history of 2010 does).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from auditor.pipeline import audit
from parsers.base import HandError, ParsedHand, unreconciled
from parsers.fulltilt import FullTiltParser
from parsers.pokerstars import PokerStarsParser

# Full Tilt, 2011: quiet_ox posts a big blind on joining (seat 5, no seat line), calls a
# raise, calls the flop, bets the turn uncalled; the summary numbers his seat
FULL_TILT = """\
Full Tilt Poker Game #770000033101: Table Brisk (6 max) - $0.25/$0.50 - No Limit Hold'em - 21:14:05 ET - 2011/03/02
Seat 1: oakleaf ($50)
Seat 2: Rook77 ($23.40)
Seat 3: marisol_p ($61.15)
Seat 4: tbone ($50)
Seat 6: dunmore ($44.80)
Rook77 posts the small blind of $0.25
marisol_p posts the big blind of $0.50
quiet_ox posts $0.50
The button is in seat #1
*** HOLE CARDS ***
Dealt to tbone [7c 7d]
tbone raises to $1.75
dunmore folds
quiet_ox calls $1.25
oakleaf folds
Rook77 folds
marisol_p folds
*** FLOP *** [Jh 4s 2c]
tbone bets $2.50
quiet_ox calls $2.50
*** TURN *** [Jh 4s 2c] [9d]
tbone checks
quiet_ox bets $5
tbone folds
Uncalled bet of $5 returned to quiet_ox
quiet_ox mucks
quiet_ox wins the pot ($8.80)
*** SUMMARY ***
Total pot $9.25 | Rake $0.45
Board: [Jh 4s 2c 9d]
Seat 1: oakleaf (button) didn't bet (folded)
Seat 2: Rook77 (small blind) folded before the Flop
Seat 3: marisol_p (big blind) folded before the Flop
Seat 4: tbone folded on the Turn
Seat 5: quiet_ox collected ($8.80), mucked
Seat 6: dunmore didn't bet (folded)
"""

# PokerStars, 2015: late_owl posts a big blind out of position with no seat line, raises,
# is re-raised on the flop and wins on the river uncalled
POKERSTARS = """\
PokerStars Hand #770000033102:  Hold'em No Limit ($0.10/$0.25 USD) - 2015/06/14 22:03:11 ET
Table 'Alcyone III' 6-max Seat #2 is the button
Seat 1: farrow_k ($25 in chips)
Seat 2: Miss Tully ($31.60 in chips)
Seat 3: vandal88 ($9.85 in chips)
Seat 5: pontus ($25.40 in chips)
vandal88: posts small blind $0.10
pontus: posts big blind $0.25
late_owl: posts big blind $0.25
*** HOLE CARDS ***
farrow_k: folds
late_owl: raises $0.50 to $0.75
Miss Tully: calls $0.75
vandal88: folds
pontus: folds
*** FLOP *** [8h 8d 3s]
late_owl: bets $1.20
Miss Tully: raises $2.40 to $3.60
late_owl: calls $2.40
*** TURN *** [8h 8d 3s] [Kc]
late_owl: checks
Miss Tully: checks
*** RIVER *** [8h 8d 3s Kc] [2d]
late_owl: bets $4
Miss Tully: folds
Uncalled bet ($4) returned to late_owl
late_owl collected $8.72 from pot
late_owl: doesn't show hand
*** SUMMARY ***
Total pot $9.05 | Rake $0.33
Board [8h 8d 3s Kc 2d]
Seat 1: farrow_k folded before Flop (didn't bet)
Seat 2: Miss Tully (button) folded on the River
Seat 3: vandal88 (small blind) folded before Flop
Seat 5: pontus (big blind) folded before Flop
Seat 6: late_owl collected ($8.72)
"""


def _parse(parser, text: str) -> ParsedHand | HandError:
    lines = ((i + 1, 0, t) for i, t in enumerate(text.splitlines()))
    (hand,) = list(parser.iter_hands(lines, "x.txt"))
    return hand


def _audited(tmp_path: Path, name: str, text: str):
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / f"{name}.duckdb"
    result = audit([path], db=db, edition_name="tda-2024")
    con = duckdb.connect(str(db), read_only=True)
    try:
        events = con.execute("SELECT line_no, kind, seat, player, amount FROM events "
                             "WHERE player = ? OR kind = 'unread' ORDER BY seq", [name_of(text)]).fetchall()
    finally:
        con.close()
    return result, events


def name_of(text: str) -> str:
    return "quiet_ox" if text is FULL_TILT else "late_owl"


def _check(result, hand_id: str, line: int) -> None:
    assert (result.ingest.hands_seen, result.ingest.stored, result.ingest.rejected) == (1, 1, 0), result.ingest.errors
    found = [(f["check_id"], f["category"], f["hand_id"], f["line_no"]) for f in result.findings]
    assert found == [("seat-unrecorded", "record", hand_id, line)], found


def test_a_full_tilt_player_with_no_seat_line_is_stored_with_seat_null(tmp_path):
    result, events = _audited(tmp_path, "fulltilt", FULL_TILT)
    _check(result, "FT-770000033101", 9)
    assert events == [  # every line of his, read, seat NULL (amounts in cents); no line left unread
        (9, "big_blind", None, "quiet_ox", 50), (15, "call", None, "quiet_ox", 125),
        (21, "call", None, "quiet_ox", 250), (24, "bet", None, "quiet_ox", 500),
        (26, "uncalled_return", None, "quiet_ox", 500), (27, "muck", None, "quiet_ox", None),
        (28, "collect", None, "quiet_ox", 880), (36, "seat_result", None, "quiet_ox", 880)]


def test_a_pokerstars_player_with_no_seat_line_is_stored_with_seat_null(tmp_path):
    result, events = _audited(tmp_path, "pokerstars", POKERSTARS)
    _check(result, "PS-770000033102", 9)
    assert [(line, kind, seat) for line, kind, seat, _, _ in events] == [
        (9, "big_blind", None), (12, "raise", None), (17, "bet", None), (19, "call", None), (21, "check", None),
        (24, "bet", None), (26, "uncalled_return", None), (27, "collect", None), (28, "no_show", None),
        (36, "seat_result", None)]


def test_a_second_player_with_no_seat_line_rejects_the_hand():
    text = FULL_TILT.replace("dunmore folds", "night_jar posts $0.50\ndunmore folds")
    hand = _parse(FullTiltParser(), text)
    assert isinstance(hand, HandError) and (hand.reason_code, hand.line_no) == ("unseated-player", 14)
    assert "'quiet_ox', then 'night_jar'" in hand.reason


def test_a_name_that_cannot_be_told_from_a_seated_one_rejects_the_hand():
    # seated 'quiet_ox 2' beside 'quiet_ox' with no seat line: in a format that writes '<name> <action>',
    # 'quiet_ox 2 calls' could be either's line
    text = FULL_TILT.replace("oakleaf", "quiet_ox 2")
    hand = _parse(FullTiltParser(), text)
    assert isinstance(hand, HandError) and (hand.reason_code, hand.line_no) == ("unseated-player", 9)
    assert "'quiet_ox 2'" in hand.reason
    # the other way round ('tbone x' with no seat line beside seated 'tbone'): his lines read as
    # tbone's and are not understood, so unread, and his chips do not reconcile
    hand = _parse(FullTiltParser(), FULL_TILT.replace("quiet_ox", "tbone x"))
    assert isinstance(hand, ParsedHand) and not [e for e in hand.events if e.seat is None and e.player]
    assert [e.line_no for e in hand.events if e.kind == "unread"] == [9, 15, 21, 24, 26, 27, 28, 36]
    assert "the record's total pot is 925" in (unreconciled(hand) or "")


def test_a_line_that_puts_no_chips_in_does_not_make_a_seatless_player():
    # a fold by a name no seat line holds, with no chips of his: kept unread, as before
    text = POKERSTARS.replace("farrow_k: folds", "farrow_k: folds\nstray_cat: folds")
    hand = _parse(PokerStarsParser(), text)
    assert isinstance(hand, ParsedHand)
    assert [(e.line_no, e.kind) for e in hand.events if e.player == "stray_cat" or e.kind == "unread"] == [(12, "unread")]


def test_a_seatless_player_on_a_full_table_rejects_the_hand():
    # six seat lines on a 6-max table: no seat was free for him; the record contradicts itself
    text = FULL_TILT.replace("Seat 6: dunmore ($44.80)", "Seat 5: kestrel ($30)\nSeat 6: dunmore ($44.80)")
    hand = _parse(FullTiltParser(), text)
    assert isinstance(hand, HandError) and (hand.reason_code, hand.line_no) == ("unseated-player", 10)
