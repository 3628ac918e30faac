"""Winamax's and Full Tilt's wordings read since issue 33, each on a small hand written
here (always run) and on the corpus file that holds it (skipped without the corpus):
the sites' own words are entries of their modules' tables (``parsers/winamax.py``,
``parsers/fulltilt.py``), read by ``parsers.stars_family``."""

from __future__ import annotations

import pytest

from conftest import CORPUS, needs_corpus
from parsers.base import HandError, ParsedHand
from parsers.fulltilt import FullTiltParser
from parsers.winamax import WinamaxParser

FPDB = CORPUS / "fpdb"


def _read(parser, text: str) -> list[ParsedHand | HandError]:
    return list(parser.iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "x.txt"))


def _one(parser, text: str) -> ParsedHand:
    [hand] = _read(parser, text)
    assert isinstance(hand, ParsedHand), hand
    return hand


def _corpus(parser, rel: str) -> list[ParsedHand | HandError]:
    from parsers import iter_lines, open_source

    path = FPDB / rel
    return list(parser.iter_hands(iter_lines(path, open_source(path).encoding), str(path)))


# --- Winamax ----------------------------------------------------------------------------------

_WMX = """Winamax Poker - CashGame - HandId: #2334898-436-1326450000 - Holdem no limit (1€/2€) - 2012/01/19 12:03:46 UTC
{table}
Seat 1: Ann (197€)
Seat 2: Bob (286€)
Seat 3: Cy (87€)
Seat 5: Dee (210.92€)
*** ANTE/BLINDS ***
Bob denies big blind
Ann posts small blind 1€
Cy posts big blind 2€
*** PRE-FLOP ***
Dee folds
Ann folds
Cy collected 3€ from pot
*** SUMMARY ***
Total pot 3€ | No rake
Seat 1: Ann (small blind) folded on the pre-flop
Seat 3: Cy (big blind) won 3€
Seat 5: Dee (button) folded on the pre-flop"""


@pytest.mark.parametrize("table, name, button", [
    # 2012: the button's seat zero-padded, without '#'
    ("Table: 'Neuilly-sur-Seine' 5-max (real money) Seat 0000005 is the button", "Neuilly-sur-Seine", 5),
    # 2021: no colon after 'Table'
    ("Table 'Nagoya' 5-max (real money) Seat #5 is the button", "Nagoya", 5),
    ("Table: 'Pampelune' 6-max (real money)", "Pampelune", None),
])
def test_winamax_table_lines_of_each_year(table: str, name: str, button: int | None) -> None:
    hand = _one(WinamaxParser(), _WMX.format(table=table))
    assert (hand.table_name, hand.max_seats, hand.button_seat) == (name, 5 if "5-max" in table else 6, button)


def test_winamax_a_seated_player_denying_the_big_blind_sits_the_hand_out() -> None:
    """'Bob denies big blind' (2012): no chips move, no event, and Bob takes no part (as 'deny BB 0€')."""
    hand = _one(WinamaxParser(), _WMX.format(table="Table: 'T' 5-max (real money) Seat #5 is the button"))
    assert not [e for e in hand.events if e.seat == 2]
    assert not [e for e in hand.events if e.kind == "unread"]


def test_winamax_a_seat_with_an_empty_stack_is_not_dealt_in() -> None:
    """'Seat 4: Dee ()': a player at the table with no chips written: no seat is recorded for
    him (he neither posts nor acts), the hand is read."""
    text = _WMX.format(table="Table: 'Tulle 03' 5-max (real money) Seat #5 is the button").replace(
        "Seat 5: Dee (210.92€)", "Seat 4: Eva ()\nSeat 5: Dee (210.92€)")
    hand = _one(WinamaxParser(), text)
    assert [(s.seat, s.player) for s in hand.seats] == [(1, "Ann"), (2, "Bob"), (3, "Cy"), (5, "Dee")]


# both blinds posted out of position, then a call whose written amount the total pot does not
# bear out ('calls 0.50€' where 1€ was owed: the total counts 1€)
_WMX_OOP = """Winamax Poker - CashGame - HandId: #4410022-517-1383000111 - Holdem no limit (0.25€/0.50€) - 2013/10/29 22:41:51 UTC
Table: 'Quimper 04' 5-max (real money) Seat #1 is the button
Seat 1: Gus (48.10€)
Seat 2: Hal (50€)
Seat 3: Ida (22.75€)
Seat 4: Jon (61.30€)
*** ANTE/BLINDS ***
Hal posts small blind 0.25€
Ida posts big blind 0.50€
Jon posts small blind 0.25€ out of position
Jon posts big blind 0.50€ out of position
*** PRE-FLOP *** 
Jon checks
Gus raises 1€ to 1.50€
Hal folds
Ida folds
Jon calls {call}
*** FLOP *** [8s 2d Qc]
Jon checks
Gus bets 2€
Jon folds
Gus collected {won} from pot
*** SUMMARY ***
Total pot {won} | Rake {rake}
Board: [8s 2d Qc]
Seat 1: Gus (button) won {won}"""


def test_winamax_a_call_the_total_pot_contradicts_is_a_record_finding_not_a_violation(tmp_path) -> None:
    """The total pot (collect + rake, the uncalled 2€ in it as Winamax counts it) says Jon's
    call put 1€ in, the call line says 0.50€: the record contradicts itself, and no line shows
    which amount is wrong. The undercall and the uncalled-bet verdicts resting on the line are
    record findings beside chip-conservation, not violations. The same hand with a consistent
    call line ('calls 1€') has no finding."""
    from auditor.pipeline import audit

    for name, call, won, rake, want in (
            ("contradicts", "0.50€", "5.80€", "0.20€", {("chip-conservation", "record"), ("undercall", "record"),
                                                        ("uncalled-bet", "record")}),
            ("agrees", "1€", "5.80€", "0.20€", set())):
        f = tmp_path / f"{name}.txt"
        f.write_text(_WMX_OOP.format(call=call, won=won, rake=rake), encoding="utf-8")
        res = audit([f], db=str(tmp_path / f"{name}.duckdb"))
        assert res.ingest.stored == 1
        assert {(x["check_id"], x["category"]) for x in res.findings} == want, (name, res.findings)


def test_winamax_omaha8_is_omaha_hi_lo() -> None:
    text = _WMX.format(table="Table: 'T' 5-max (play money) Seat #5 is the button").replace(
        "Holdem no limit (1€/2€)", "Omaha8 pot limit (0.05/0.10)").replace("€", "")
    hand = _one(WinamaxParser(), text)
    assert (hand.variant, hand.betting) == ("omaha_hilo", "pot-limit")


def test_winamax_a_negative_raise_is_rejected_with_what_it_means() -> None:
    """'raises -6.10€ to 18.90€': the chips added written as the total raised to; the raise the
    other lines imply is not written in its place."""
    text = """Winamax Poker - CashGame - HandId: #9250793-1578-1479092164 - 7-Card Stud fixed limit (5€/25€/50€) - 2016/11/14 02:56:04 UTC
Table: 'Pampelune' 6-max (real money)
Seat 2: Ann (33.90€)
Seat 3: Bob (2417.80€)
*** ANTE/BLINDS ***
Ann posts ante 5€
Bob posts ante 5€
*** 3rd STREET ***
Dealt to Ann [X X 8h]
Dealt to Bob [X X Kc]
Ann brings in 10€
Bob raises 25€ to 25€
Ann raises -6.10€ to 18.90€
Bob calls 3.90€
*** SUMMARY ***
Total pot 57.80€ | No rake"""
    [hand] = _read(WinamaxParser(), text)
    assert isinstance(hand, HandError)
    assert (hand.reason_code, hand.line_no) == ("negative-amount", 13)
    assert "'Ann raises -6.10€ to 18.90€'" in hand.reason


def test_winamax_a_big_blinds_bet_over_his_blind_totals_both() -> None:
    """'bets 292.50' by the big blind (120 in) when limped to: his street total is 412.50, which
    the limper's 'calls 292.50' matches (2010; the corpus file is named raise.written.as.bet)."""
    text = """Winamax Poker - Tournament "KING 5" buyIn: Ticket level: 7 - HandId: #6307872438747255-64-1288123510 - Holdem no limit (60/120) - 2010/10/26 21:05:10 UTC
Table: 'KING 5(1468666)#118' 9-max (real money) Seat #1 is the button
Seat 1: Ann (4818)
Seat 2: Bob (1220)
Seat 3: Cy (6370)
*** ANTE/BLINDS ***
Ann posts small blind 60
Bob posts big blind 120
*** PRE-FLOP ***
Cy calls 120
Ann folds
Bob bets 292.50
Cy calls 292.50
*** FLOP *** [5h 3c 9d]
Bob checks
Cy checks
*** TURN *** [5h 3c 9d][Jd]
Bob checks
Cy checks
*** RIVER *** [5h 3c 9d Jd][7h]
Bob checks
Cy checks
*** SHOW DOWN ***
Bob shows [Ah Td] (High card : Ace)
Cy shows [7c 9c] (Two pairs : 9 and 7)
Cy collected 885 from pot
*** SUMMARY ***
Total pot 885 | No rake"""
    hand = _one(WinamaxParser(), text)
    [bet] = [e for e in hand.events if e.kind == "bet"]
    assert (bet.amount, bet.to_amount, hand.amount_scale) == (2925, 4125, 10)


@needs_corpus
def test_winamax_corpus_wordings() -> None:
    p = WinamaxParser()
    [h] = _corpus(p, "cash/Winamax/Flop/NLHE-5max-EUR-1-2-201201.Hero.Sitting.Out.txt")
    assert (h.table_name, h.button_seat) == ("Neuilly-sur-Seine", 5)
    assert not [e for e in h.events if e.kind == "unread"]
    [h] = _corpus(p, "cash/Winamax/Flop/PLO-5max-EUR-2-4-202104.no.colon.txt")
    assert (h.table_name, h.button_seat) == ("Nagoya", 3)
    [h] = _corpus(p, "cash/Winamax/Flop/PLO8-2max-play-0.05-0.10-201610.export.txt")
    assert h.variant == "omaha_hilo"
    [h] = _corpus(p, "cash/Winamax/Stud/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt")
    assert isinstance(h, HandError) and h.reason_code == "negative-amount"
    [h] = _corpus(p, "tour/Winamax/Flop/NLHE-Ticket-MTT-201010.raise.written.as.bet.preflop.txt")
    assert [(e.amount, e.to_amount) for e in h.events if e.kind == "bet"][0] == (2925, 4125)


# --- Full Tilt ------------------------------------------------------------------------------

_FT_SPLIT = """Full Tilt Poker Game #31493013000: $26 Super Turbo Matrix (244669447), Match 2 - 15/30 - No Limit Hold'em - 09:22:39 EET - 2012/11/23
Seat 1: Ann (300)
Seat 2: Bob (300)
Seat 3: Cy (300)
Ann posts the small blind of 15
Bob posts the big blind of 30
The button is in seat #3
*** HOLE CARDS ***
Cy folds
Ann calls 15
Bob checks
*** FLOP *** [2c 5d 9h] (Total Pot: 60, 2 Players)
Ann checks
Bob checks
*** TURN *** [2c 5d 9h] [Kd] (Total Pot: 60, 2 Players)
Ann checks
Bob checks
*** RIVER *** [2c 5d 9h Kd] [Ks] (Total Pot: 60, 2 Players)
Ann checks
Bob checks
*** SHOW DOWN ***
Ann shows [5s 4h] a pair of Fives
Bob shows [5c 3h] a pair of Fives
Ann ties for the pot (30) with a pair of Fives
Bob ties for the pot (30) with a pair of Fives
*** SUMMARY ***
Total pot 60 | Rake 0
Board: [2c 5d 9h Kd Ks]
Seat 1: Ann (small blind) showed [5s 4h] and won (30) with a pair of Fives
Seat 2: Bob (big blind) showed [5c 3h] and won (30) with a pair of Fives
Seat 3: Cy (button) didn't bet (folded)"""


def test_fulltilt_ties_are_collects() -> None:
    """'Ann ties for the pot (30) with ...': each share of a split pot is a collect line."""
    hand = _one(FullTiltParser(), _FT_SPLIT)
    assert [(e.player, e.amount, e.pot_label, e.text) for e in hand.events if e.kind == "collect"] == [
        ("Ann", 30, "pot", "Ann ties for the pot (30) with a pair of Fives"),
        ("Bob", 30, "pot", "Bob ties for the pot (30) with a pair of Fives")]


def test_fulltilt_a_summary_line_run_into_the_next_is_read_from_that_seat() -> None:
    """'Seat 3: Zed Seat 2: Bob ...' (seat 3 of a player not in the hand, no result): seat 2's line
    is read from its 'Seat 2: '; the event keeps the line whole."""
    text = _FT_SPLIT.replace("Seat 2: Bob (big blind) showed", "Seat 4: Zed Seat 2: Bob (big blind) showed")
    hand = _one(FullTiltParser(), text)
    [result] = [e for e in hand.events if e.kind == "seat_result" and e.seat == 2]
    assert (result.player, result.amount, result.text) == ("Bob", 30, text.split("\n")[-2])
    assert not [e for e in hand.events if e.kind == "unread"]


def test_fulltilt_a_fold_the_body_leaves_out_is_inferred_from_the_summary() -> None:
    """A Matrix walk (2012): no line for the small blind's fold; the summary's 'folded before the
    Flop' says it, and the fold is inferred from that line, after the last action of the street."""
    text = """Full Tilt Poker Game #31493031208: $26 Super Turbo Matrix (244669447), Match 4 - 25/50 - No Limit Hold'em - 09:28:31 EET - 2012/11/23
Seat 1: Ann (1200)
Seat 2: Cy (900)
Seat 6: Bob (600)
Ann posts the small blind of 25
Bob posts the big blind of 50
The button is in seat #2
*** HOLE CARDS ***
Cy folds
*** SUMMARY ***
Total pot 50 | Rake 0
Seat 1: Ann (small blind) folded before the Flop
Seat 2: Cy (button) didn't bet (folded)
Seat 6: Bob (big blind) collected (50), mucked"""
    hand = _one(FullTiltParser(), text)
    kinds = [(e.seq, e.kind, e.player, e.inferred_from) for e in hand.events if e.street != "summary"]
    assert kinds == [(0, "small_blind", "Ann", None), (1, "big_blind", "Bob", None), (2, "fold", "Cy", None),
                     (3, "fold", "Ann", [12])]
    assert [e.seq for e in hand.events] == list(range(len(hand.events)))
    # a showdown's hand, or a fold written, infers nothing
    assert not [e for e in _one(FullTiltParser(), _FT_SPLIT).events if e.inferred_from]


def test_fulltilt_header_stakes_in_billions() -> None:
    """A Flipout's first hand: '2B/2B Ante 2B' (every ante all in), read as 2,000,000,000."""
    text = _FT_SPLIT.replace("Match 2 - 15/30 - No Limit Hold'em", "Table 1 - NL Hold'em - 2B/2B Ante 2B")
    hand = _one(FullTiltParser(), text)
    assert (hand.small_blind, hand.big_blind) == (2_000_000_000, 2_000_000_000)


@pytest.mark.parametrize("body, code", [
    ("*** SUMMARY ***\nTotal pot 30 | Rake 0\nSeat 1: Ann didn't bet (folded)\nSeat 2: Bob (big blind) collected (30), mucked",
     "truncated"),
    ("Ann posts the small blind of 15\nBob posts the big blind of 30\nThe button is in seat #3\n*** HOLE CARDS ***\n"
     "Ann folds\n*** SUMMARY ***\nTotal pot 30 | Rake 0\nSeat 2: Bob (big blind) collected (30), mucked", "no-stacks"),
])
def test_fulltilt_hands_without_seat_lines_are_rejected_by_what_they_are(body: str, code: str) -> None:
    header = _FT_SPLIT.split("\n")[0]
    [hand] = _read(FullTiltParser(), f"{header}\n{body}")
    assert isinstance(hand, HandError) and (hand.reason_code, hand.line_no) == (code, 2)
    assert "no seat lines" in hand.reason


def test_fulltilt_an_archives_begin_line_is_no_hand() -> None:
    assert [type(h).__name__ for h in _read(FullTiltParser(), "BEGIN\n" + _FT_SPLIT)] == ["ParsedHand"]



@pytest.mark.parametrize("game, betting, cap", [
    ("$400 Pot Limit Omaha Hi", "pot-limit", 40000),
    ("$2,000 Cap Pot Limit Omaha Hi", "pot-limit", 200000),
    ("CAP NL Hold'em", "no-limit", None),  # no amount written, and nobody reached it
])
def test_fulltilt_capped_tables_are_read_with_their_cap(game: str, betting: str, cap: int | None) -> None:
    header = f"Full Tilt Poker Game #1: Table Pam (6 max) - $5/$10 - {game} - 15:35:09 ET - 2010/10/02"
    [hand] = _read(FullTiltParser(), "\n".join([header, *_FT_SPLIT.split("\n")[1:]]))
    assert isinstance(hand, ParsedHand) and (hand.betting, hand.cap) == (betting, cap)


@needs_corpus
def test_fulltilt_corpus_wordings() -> None:
    p = FullTiltParser()
    rit = [h for h in _corpus(p, "cash/FTP/Flop/PLO-6max-USD-2.00-4.00-201211.RIT.new.format.txt")
           if isinstance(h, ParsedHand) and h.hand_id == "FT-31319837969"]
    assert [(e.player, e.amount, e.run) for e in rit[0].events if e.kind == "collect"] == [
        ("Hero", 6210, 1), ("Player3", 6210, 1), ("Hero", 12420, 2)]
    [flipout] = _corpus(p, "tour/FTP/Flop/NLHE-9max-Flipout-USD-300-201408.Entry 2.txt")
    assert flipout.big_blind == 2_000_000_000
    [glued] = _corpus(p, "cash/FTP/Draw/1-Draw-NL-USD-0.20-0.40-201211.bad.collect.pot.txt")
    assert [(e.seat, e.amount) for e in glued.events if e.kind == "seat_result" and e.amount] == [(4, 50)]
    inferred = {h.hand_id for name in ("match1", "match2", "match3", "match4")
                for h in _corpus(p, f"tour/FTP/Flop/NLHE-6max-Matrix-USD-26-201211.{name}.txt")
                if isinstance(h, ParsedHand) and any(e.inferred_from for e in h.events)}
    assert inferred == {"FT-31493008322", "FT-31493013637", "FT-31493029942", "FT-31493031208"}
    archive = _corpus(p, "cash/FTP/Flop/NLHE-6max-USD-0.50-1.00-200605.HM2.archive.txt")
    assert all(isinstance(h, ParsedHand) for h in archive) and len(archive) == 2


# the blinds written big blind first, and seats numbered from 0
_WMX_BB_FIRST = """Winamax Poker - CashGame - HandId: #7711223-301-1450130000 - Omaha pot limit (0.50€/1.00€) - 2015/12/14 23:02:40 UTC
Table: 'Rodez 05' 5-max (real money) Seat #0 is the button
Seat 0: Ugo (104€)
Seat 1: Vic (98.40€)
Seat 2: Wim (131.25€)
Seat 3: Xan (100€)
*** ANTE/BLINDS ***
Wim posts big blind 1.00€
Vic posts small blind 0.50€
*** PRE-FLOP *** 
Xan folds
Ugo folds
Vic {sb_act}
Wim collected {won} from pot
*** SUMMARY ***
Total pot {total} | No rake
Seat 2: Wim (big blind) won {won}"""


def test_winamax_a_small_blind_written_after_the_big_blind_is_still_the_small_blind(tmp_path) -> None:
    """Seat 1, left of the button on seat 0, posts the small blind on the line after the big
    blind's: he is the positional small blind, live (the replay once held every small blind
    posted after a big blind as a dead one, then expected the whole big blind back: an
    uncalled-bet violation). His fold leaves 0.50€ of the big blind uncalled, his call of
    0.50€ none. No finding either way."""
    from auditor.pipeline import audit

    cases = {"fold": dict(sb_act="folds", won="1.50€", total="1.50€"),
             "call": dict(sb_act="calls 0.50€\nWim checks\n*** FLOP *** [2c 8d Kh]\nVic checks\nWim bets 2€\nVic folds",
                          won="4€", total="4€")}
    for name, fill in cases.items():
        f = tmp_path / f"{name}.txt"
        f.write_text(_WMX_BB_FIRST.format(**fill), encoding="utf-8")
        res = audit([f], db=str(tmp_path / f"{name}.duckdb"))
        assert res.ingest.stored == 1
        assert res.findings == [], (name, res.findings)


# A cash table with an ante (2015): players add chips while the hand is on ('Cal adds $0.30',
# a top-up for the next hand: a rebuy event, street 'summary', written among the preflop
# actions), sit down, stand up, run their clock, come back.  A hand written for this test
# in the shape of the 2015 hand in a C# parser's test suite (ItalyToast/PokerHandHistoryParser,
# 'AddingMidHand')
_FT_ADDS = """Full Tilt Poker Game #35300000001: Table Ember (6 max, ante, deep) - NL Hold'em - $1/$2 Ante $0.30 - 12:15:11 ET - 2015/03/06
Seat 2: Ann ($200)
Seat 3: Bob ($399.10)
Seat 4: Cal ($200)
Seat 6: Dee ($169.75)
Ann antes $0.30
Bob antes $0.30
Cal antes $0.30
Dee antes $0.30
Ann posts the small blind of $1
Bob posts the big blind of $2
The button is in seat #6
*** HOLE CARDS ***
Cal folds
Cal adds $0.30
Eve sits down
Dee folds
Cal stands up
Ann raises to $6
Bob has 15 seconds left to act
Eve adds $300
Dee has returned
Bob calls $4
*** FLOP *** [4h Tc Qc] (Total Pot: $13.20, 2 Players)
Ann bets $8
Bob folds
Uncalled bet of $8 returned to Ann
Ann mucks
Ann wins the pot ($12.55)
Cal sits down
Cal adds $199.70
*** SUMMARY ***
Total pot $13.20 | Rake $0.65
Board: [4h Tc Qc]
Seat 2: Ann (small blind) collected ($12.55), mucked
Seat 3: Bob (big blind) folded on the Flop
Seat 4: Cal folded before the Flop
Seat 6: Dee (button) folded before the Flop"""


def test_fulltilt_top_ups_written_mid_hand_leave_the_chips_reconciled(tmp_path) -> None:
    """The pot: 4 x 0.30 in antes, 6 each from Ann (her small blind in it) and Bob = 13.20, the
    total; 12.55 won and 0.65 rake.  The top-ups are rebuys between hands; the table's messages
    record nothing.  The ledger that reconciles a hand with an unread line once took the
    'summary' street of the top-up written among the preflop actions for the street's end, so
    Ann's small blind no longer counted in her raise to $6: 14.20 put in, and the same hand
    with one unread line was rejected 'unreconciled'.  Now it is stored with its one
    unread-lines record.  Without its ante lines (as the C# suite's sample writes it) the
    record contradicts itself: a chip-conservation record finding, no violation."""
    from auditor.pipeline import audit
    from parsers.base import chip_ledger, unreconciled

    hand = _one(FullTiltParser(), _FT_ADDS)
    assert (hand.small_blind, hand.big_blind, hand.ante) == (100, 200, 30)
    assert [(e.kind, e.street, e.seat, e.amount) for e in hand.events if e.kind in ("ante", "rebuy")] == [
        ("ante", "preflop", 2, 30), ("ante", "preflop", 3, 30), ("ante", "preflop", 4, 30), ("ante", "preflop", 6, 30),
        ("rebuy", "summary", 4, 30), ("rebuy", "summary", 4, 19970)]
    assert not [e for e in hand.events if e.kind == "unread" or e.player == "Eve"]
    assert chip_ledger(hand)[:4] == (1320, 1255, 1320, 65) and unreconciled(hand) is None
    f = tmp_path / "adds.txt"
    f.write_text(_FT_ADDS + "\n", encoding="utf-8")
    res = audit([f], db=str(tmp_path / "adds.duckdb"))
    assert (res.ingest.stored, res.findings) == (1, [])
    f.write_text(_FT_ADDS.replace("Dee has returned\n", "Dee has returned\nThe dealer shuffles\n") + "\n", encoding="utf-8")
    res = audit([f], db=str(tmp_path / "unread.duckdb"))
    assert (res.ingest.stored, res.ingest.rejected) == (1, 0)
    assert [(x["check_id"], x["category"]) for x in res.findings] == [("unread-lines", "record")]
    no_antes = "\n".join(t for t in _FT_ADDS.split("\n") if " antes " not in t)
    f.write_text(no_antes + "\n", encoding="utf-8")
    res = audit([f], db=str(tmp_path / "no-antes.duckdb"))
    assert res.ingest.stored == 1
    assert [(x["check_id"], x["category"]) for x in res.findings] == [("chip-conservation", "record")]
