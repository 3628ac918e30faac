"""GGPoker's wordings (``parsers/ggpoker.py``, docs/sites.md), each on a hand written for this
test in GGPoker's format (always run); the corpus tests are in tests/test_site_ggpoker.py."""

from __future__ import annotations

from conftest import audit_written

from parsers.ggpoker import GGPokerParser


def _read(text: str):
    from parsers.base import ParsedHand

    [hand] = GGPokerParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "t.txt")
    assert isinstance(hand, ParsedHand), hand
    return hand


# 2017-2018 cash hands: two spaces before the stakes; the total pot line names every fee the
# house takes beside the rake ('Fortune', 'Tax'), as later hands write them at $0
WRITTEN_2018 = """Poker Hand #RC2345481320: Hold'em No Limit  ($0.5/$1) - 2018/03/31 14:43:23
Table 'RushAndCash143219' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bob ($80 in chips)
Seat 3: Hero ($120.5 in chips)
Bob: posts small blind $0.5
Hero: posts big blind $1
*** HOLE CARDS ***
Dealt to Ann 
Dealt to Bob 
Dealt to Hero [Ah Kd]
Ann: raises $2 to $3
Bob: folds
Hero: calls $2
*** FLOP *** [2c 7d 9h]
Hero: checks
Ann: bets $4
Hero: calls $4
*** TURN *** [2c 7d 9h] [Ks]
Hero: bets $10
Ann: folds
Uncalled bet ($10) returned to Hero
*** SHOWDOWN ***
Hero collected $13.9 from pot
*** SUMMARY ***
Total pot $14.5 | Rake $0.3 | Jackpot $0.1 | Bingo $0 | Fortune $0.1 | Tax $0.1
Board [2c 7d 9h Ks]
Seat 1: Ann (button) folded on the Turn
Seat 2: Bob (small blind) folded before Flop
Seat 3: Hero (big blind) won ($13.9)"""


def test_a_2018_cash_header_and_the_fortune_and_tax_fees():
    from parsers.base import unreconciled

    hand = _read(WRITTEN_2018)
    assert (hand.hand_id, hand.is_tournament, hand.variant, hand.betting) == ("GG-RC2345481320", False, "holdem", "no-limit")
    assert (hand.small_blind, hand.big_blind, hand.table_name) == (50, 100, "RushAndCash143219")
    # the house's take: rake 0.3, jackpot 0.1, fortune 0.1, tax 0.1
    assert [(e.amount, e.to_amount) for e in hand.events if e.kind == "total_pot"] == [(1450, 60)]
    assert unreconciled(hand) is None and not [e for e in hand.events if e.kind == "unread"]


# Rush & Cash's 'Cash Drop to Pot': money the house puts in the pot before the deal (a
# house_added event, no seat's), counted in the total pot
WRITTEN_DROP = """Poker Hand #RC1: Omaha Pot Limit ($0.01/$0.02) - 2021/04/12 07:43:21
Table 'RushAndCash1' 6-max Seat #1 is the button
Seat 1: Ann ($3 in chips)
Seat 2: Bob ($2 in chips)
Seat 3: Cat ($2 in chips)
Cash Drop to Pot : total $0.2
Bob: posts small blind $0.01
Cat: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Ann 
Dealt to Bob 
Dealt to Cat 
Ann: raises $0.04 to $0.06
Bob: folds
Cat: folds
Uncalled bet ($0.04) returned to Ann
*** SHOWDOWN ***
Ann collected $0.25 from pot
*** SUMMARY ***
Total pot $0.25 | Rake $0 | Jackpot $0 | Bingo $0
Seat 1: Ann (button) won ($0.25)
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cat (big blind) folded before Flop"""


def test_a_cash_drop_is_the_houses_money_in_the_pot():
    from parsers.base import unreconciled

    hand = _read(WRITTEN_DROP)
    [drop] = [e for e in hand.events if e.kind == "house_added"]
    assert (drop.seat, drop.player, drop.amount, drop.line_no, drop.street) == (None, None, 20, 6, "preflop")
    assert unreconciled(hand) is None



def test_bet_and_muck_is_a_bet_then_a_muck_once_called(tmp_path):
    """'Bet & Muck $0.10': a bet (its player gives the hand up if called); called, 'Bet & Muck
    folds' is his muck at the showdown. Both were lines not understood, and the hand's chips
    did not reconcile without them (rejected unreconciled); now read, with no finding."""
    text = """Poker Hand #HD60012345: Hold'em No Limit ($0.05/$0.1) - 2019/05/02 21:40:11
Table 'NLHWhite9' 6-max Seat #5 is the button
Seat 1: Abe ($9.80 in chips)
Seat 3: Bea ($11.25 in chips)
Seat 5: Cal ($10 in chips)
Abe: posts small blind $0.05
Bea: posts big blind $0.1
*** HOLE CARDS ***
Dealt to Abe
Dealt to Bea
Dealt to Cal [Qh Js]
Cal: calls $0.1
Abe: calls $0.05
Bea: checks
*** FLOP *** [9c 4d 4s]
Abe: checks
Bea: checks
Cal: checks
*** TURN *** [9c 4d 4s] [2h]
Abe: checks
Bea: Bet & Muck $0.15
Cal: calls $0.15
Abe: folds
Bea: Bet & Muck folds
Cal: shows [Qh Js] (Queen-High)
*** SHOWDOWN ***
Cal collected $0.57 from pot
*** SUMMARY ***
Total pot $0.6 | Rake $0.03 | Jackpot $0 | Bingo $0
Board [9c 4d 4s 2h]
Seat 1: Abe (small blind) folded on the Turn
Seat 3: Bea (big blind) folded on the Turn
Seat 5: Cal (button) showed [Qh Js] and won ($0.57) with Queen-High"""
    h = _read(text)
    assert [(e.kind, e.seat, e.amount) for e in h.events if e.street == "turn" and e.kind in ("bet", "fold", "call", "muck")] == [
        ("bet", 3, 15), ("call", 5, 15), ("fold", 1, None), ("muck", 3, None)]
    assert not [e for e in h.events if e.kind == "unread"]
    res, _ = audit_written(tmp_path, "bm", text)
    assert res.ingest.stored == 1 and res.findings == []


# EV Cashout (issue 34): a player all in takes his equity from the house; the pot is awarded
# as played, by the cards, and the cash-out is money between him and the house outside it
def _ev_cashout_hands() -> list[str]:
    from conftest import SAMPLES

    text = (SAMPLES / "ggpoker" / "nlhe-cash-ev-cashout.txt").read_text(encoding="utf-8")
    return [t.strip("\n") for t in text.split("\n\n\n")]


def test_ev_cashout_lines_are_equity_insurance_events_on_the_street_written():
    wrong, loses, wins = (_read(t) for t in _ev_cashout_hands())
    for hand, paid in ((loses, (1892, None)), (wins, (None, 44))):
        rows = [(e.street, e.seat, e.player, e.amount, e.to_amount) for e in hand.events if e.kind == "equity_insurance"]
        # the opt-in on the turn (no money yet); on the river what the house pays him, or he the house
        assert rows == [("turn", 1, "Ann", None, None), ("river", 1, "Ann", *paid)], rows
        assert not [e for e in hand.events if e.kind in ("unread", "cash_out")]
    # the summary's ', Cashout Risk ($0.44)' after the award: the seat line claims the $19.55 won, no more
    [ann] = [e for e in wins.events if e.kind == "seat_result" and e.seat == 1]
    assert ann.amount == 1955 and ann.cards == "Qs Qd"


def test_an_ev_cashout_leaves_the_pot_to_the_cards(tmp_path):
    """The cash-out player loses (he receives his cash-out) or wins (he pays the cash-out risk):
    no finding; the pot paid to him when he lost is a wrong winner, as in any hand."""
    res, _ = audit_written(tmp_path, "gg", "\n\n\n".join(_ev_cashout_hands()))
    assert res.ingest.stored == 3
    assert [(x["hand_id"], x["check_id"], x["category"], x["seat"]) for x in res.findings] == [
        ("GG-HD900000034301", "wrong-winner", "violation", 1)]


def test_all_in_insurance_lines_are_equity_insurance_events_too():
    """GGPoker's all-in insurance: the quote line he takes it on, and the premium he pays."""
    text = _ev_cashout_hands()[2].replace(
        "Ann: Chooses to EV Cashout",
        "Ann: get an all-in insurance (premium ($0/$0.44/$0) for ($0/$1.5/$0) - (Mandatory/Main/Sub))").replace(
        "Ann: Pays Cashout Risk ($0.44)", "Ann: pay premium of all-in insurance ($0.44)").replace(
        ", Cashout Risk ($0.44)", ", AII Premium ($0.44)")
    hand = _read(text)
    rows = [(e.street, e.seat, e.amount, e.to_amount, e.line_no) for e in hand.events if e.kind == "equity_insurance"]
    assert rows == [("turn", 1, None, None, 22), ("river", 1, None, 44, 24)], rows
    assert not [e for e in hand.events if e.kind == "unread"]


# Run twice once a player is all in on the flop (2026): GGPoker writes the flop the betting
# went on as the first run's ('*** FIRST FLOP ***', the bets, then '*** FIRST TURN ***' and
# '*** SECOND TURN ***'); the summary's 'SECOND Board [8d Tc]' holds the second run's own cards
RUN_TWICE_FROM_THE_FLOP = """Poker Hand #RC7000001: Hold'em No Limit ($0.25/$0.5) - 2026/09/27 17:00:34
Table 'RushAndCash700001' 6-max Seat #1 is the button
Seat 1: Ann ($62.13 in chips)
Seat 2: Bob ($72.58 in chips)
Seat 3: Hero ($50.25 in chips)
Bob: posts small blind $0.25
Hero: posts big blind $0.5
*** HOLE CARDS ***
Dealt to Ann 
Dealt to Bob 
Dealt to Hero [Jc Qc]
Ann: raises $0.75 to $1.25
Bob: folds
Hero: raises $5 to $6.25
Ann: calls $5
*** FIRST FLOP *** [9h 7c 9c]
Hero: checks
Ann: bets $9
Hero: raises $35 to $44 and is all-in
Ann: calls $35
Hero: shows [Jc Qc] (a pair of Nines)
Ann: shows [As Ac] (two pair, Aces and Nines)
*** FIRST TURN *** [9h 7c 9c] [2d]
*** FIRST RIVER *** [9h 7c 9c 2d] [Jh]
*** SECOND TURN *** [9h 7c 9c] [8d]
*** SECOND RIVER *** [9h 7c 9c 8d] [Tc]
*** FIRST SHOWDOWN ***
Ann collected $49.25 from pot
*** SECOND SHOWDOWN ***
Hero collected $49.25 from pot
*** SUMMARY ***
Total pot $100.75 | Rake $1.5 | Jackpot $0.75 | Bingo $0 | Fortune $0 | Tax $0
Hand was run two times
FIRST Board [9h 7c 9c 2d Jh]
SECOND Board [8d Tc]
Seat 1: Ann (button) showed [As Ac] and won ($49.25) with two pair, Aces and Nines, and lost
Seat 2: Bob (small blind) folded before Flop
Seat 3: Hero (big blind) showed [Jc Qc] and lost with two pair, Jacks and Nines, and won ($49.25)"""


def test_a_hand_run_twice_from_the_flop_shares_the_flop_it_was_bet_on(tmp_path):
    """The betting on the 'FIRST FLOP' (rejected 'run-it-twice' before: betting after the board
    was run more than once) is the flop both runs share: its cards are the first run's, as every
    event before the runs split (Event.run), the turns and rivers their run's; each run's pot is half the pot and is awarded to its collect."""
    import duckdb

    h = _read(RUN_TWICE_FROM_THE_FLOP)
    assert [(e.street, e.run, e.cards) for e in h.events if e.kind == "deal_board"] == [
        ("flop", 1, "9h 7c 9c"), ("turn", 1, "2d"), ("river", 1, "Jh"), ("turn", 2, "8d"), ("river", 2, "Tc")]
    assert [(e.street, e.kind, e.seat) for e in h.events if e.street == "flop" and e.seat is not None][:4] == [
        ("flop", "check", 3), ("flop", "bet", 1), ("flop", "raise", 3), ("flop", "call", 1)]
    res, db = audit_written(tmp_path, "rit", RUN_TWICE_FROM_THE_FLOP)
    assert res.ingest.stored == 1 and res.findings == []
    with duckdb.connect(str(db), read_only=True) as con:
        shares = con.execute("SELECT run, seat, expected, recorded FROM pot_shares WHERE expected > 0 "
                             "ORDER BY run, seat").fetchall()
    assert [(run, seat, rec) for run, seat, _, rec in shares] == [(1, 1, 4925), (2, 3, 4925)]


# Since about 2024 GGPoker names a table's ante in the header, inside the blinds' brackets
ANTE_IN_THE_HEADER = (
    """Poker Hand #TM7000002: Tournament #7000000, Daily Demo $2.50 Hold'em No Limit - Level7(175/350(45)) - 2026/09/08 20:03:09
Table '19' 8-max Seat #3 is the button
Seat 2: Ann (5,155 in chips)
Seat 3: Bob (27,060 in chips)
Seat 4: Cid (18,250 in chips)
Ann: posts the ante 45
Bob: posts the ante 45
Cid: posts the ante 45
Cid: posts small blind 175
Ann: posts big blind 350
*** HOLE CARDS ***
Dealt to Ann 
Dealt to Bob [4s Ac]
Dealt to Cid 
Bob: raises 525 to 875
Cid: folds
Ann: folds
Uncalled bet (525) returned to Bob
*** SHOWDOWN ***
Bob collected 1,010 from pot
*** SUMMARY ***
Total pot 1,010 | Rake 0 | Jackpot 0 | Bingo 0 | Fortune 0 | Tax 0
Seat 2: Ann (big blind) folded before Flop
Seat 3: Bob (button) collected (1,010)
Seat 4: Cid (small blind) folded before Flop""",
    """Poker Hand #HD7000003: Hold'em No Limit ($0.02/$0.05($0.01)) - 2026/04/10 23:37:51
Table 'NLHAYellow9' 9-max Seat #6 is the button
Seat 4: Ann ($13.77 in chips)
Seat 5: Hero ($13.85 in chips)
Seat 6: Bob ($10.55 in chips)
Seat 7: Cid ($11.64 in chips)
Hero: posts the ante $0.01
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cid: posts the ante $0.01
Cid: posts small blind $0.02
Ann: posts big blind $0.05
*** HOLE CARDS ***
Dealt to Ann
Dealt to Hero [Qs Jd]
Dealt to Bob
Dealt to Cid
Hero: raises $0.1 to $0.15
Bob: folds
Cid: folds
Ann: calls $0.1
*** FLOP *** [Ah 2h Jh]
Ann: checks
Hero: bets $0.16
Ann: folds
Uncalled bet ($0.16) returned to Hero
*** SHOWDOWN ***
Hero collected $0.34 from pot
*** SUMMARY ***
Total pot $0.36 | Rake $0.02 | Jackpot $0 | Bingo $0 | Fortune $0 | Tax $0
Board [Ah 2h Jh]
Seat 4: Ann (big blind) folded on the Flop
Seat 5: Hero won ($0.34)
Seat 6: Bob (button) folded before Flop (didn't bet)
Seat 7: Cid (small blind) folded before Flop (didn't bet)""",
)


def test_an_ante_named_in_the_header_brackets(tmp_path):
    """'Level7(175/350(45))' and '($0.02/$0.05($0.01))': both rejected at line 1 before (game or
    stakes not understood); now read, the blinds from the header, the ante from the posts, the
    chips reconciled, nothing found."""
    import duckdb

    tourney, cash = (_read(t) for t in ANTE_IN_THE_HEADER)
    assert (tourney.level, tourney.small_blind, tourney.big_blind, tourney.ante) == ("7", 175, 350, 45)
    assert (cash.small_blind, cash.big_blind, cash.ante, cash.currency) == (2, 5, 1, "USD")
    res, db = audit_written(tmp_path, "ante", "\n\n".join(ANTE_IN_THE_HEADER) + "\n")
    assert (res.ingest.stored, res.ingest.rejected, res.findings) == (2, 0, [])
    with duckdb.connect(str(db), read_only=True) as con:
        shares = con.execute("SELECT hand_id, seat, expected, recorded FROM pot_shares WHERE expected > 0 "
                             "ORDER BY hand_id").fetchall()
    assert shares == [("GG-HD7000003", 5, 36, 34), ("GG-TM7000002", 3, 1010, 1010)]


def test_omaha5_is_five_card_omaha(tmp_path):
    """'Omaha5 Pot Limit' (a 2026 PLO-5 tournament's header): was 'game or stakes not
    understood'; five-card Omaha, pot-limit, its pot-sized raise judged as such."""
    text = """Poker Hand #TM7000004: Tournament #7000001, PLO-5 Demo $10 Omaha5 Pot Limit - Level16(800/1,600(200)) - 2026/10/07 10:26:34
Table '8' 6-max Seat #5 is the button
Seat 1: Hero (16,381 in chips)
Seat 4: Bob (28,674 in chips)
Seat 5: Cid (20,294 in chips)
Hero: posts the ante 200
Bob: posts the ante 200
Cid: posts the ante 200
Hero: posts small blind 800
Bob: posts big blind 1,600
*** HOLE CARDS ***
Dealt to Hero [6s 3h Kc Qs 4c]
Dealt to Bob
Dealt to Cid
Cid: raises 4,000 to 5,600
Hero: folds
Bob: folds
Uncalled bet (4,000) returned to Cid
*** SHOWDOWN ***
Cid collected 4,600 from pot
*** SUMMARY ***
Total pot 4,600 | Rake 0 | Jackpot 0 | Bingo 0 | Fortune 0 | Tax 0
Seat 1: Hero (small blind) folded before Flop
Seat 4: Bob (big blind) folded before Flop
Seat 5: Cid (button) collected (4,600)"""
    h = _read(text)
    assert (h.variant, h.betting, h.small_blind, h.big_blind, h.ante) == ("omaha5", "pot-limit", 800, 1600, 200)
    res, _ = audit_written(tmp_path, "plo5", text)
    assert (res.ingest.stored, res.findings) == (1, [])
    # the pot before the raise: 600 in antes + 800 + 1,600; raised to the pot: 1,600 to call + 4,600
    # over it would be 6,200: 5,600 is within it.  One chip over the pot's limit is a violation
    over = text.replace("raises 4,000 to 5,600", "raises 4,700 to 6,300").replace("(4,000)", "(4,700)")
    res, _ = audit_written(tmp_path, "over", over)
    assert [(x["check_id"], x["category"]) for x in res.findings] == [("pot-limit-overbet", "violation")]


# A 2018 cash hand run three times after an all-in on the flop: each run's turn and river
# ('*** THIRD TURN *** [Th 9c 5s] [Ad]'), a showdown a run, the summary's later boards holding
# only their run's own cards ('SECOND Board [4d Kd]') and each seat's result a run ('and lost
# with Three Jacks, and lost, and won ($25.5)').  A hand written for this test, in the shape of
# the 2018 hands in a C# parser's test suite (ggratte/PokerHandHistoryParser)
RUN_THREE_TIMES = """Poker Hand #HD7000010: Hold'em No Limit  ($0.5/$1) - 2018/11/16 13:15:16
Table 'NLHGold4' 6-max Seat #2 is the button
Seat 1: Ann ($80 in chips)
Seat 2: Bob ($150 in chips)
Seat 3: Hero ($100 in chips)
Seat 4: Cid ($40 in chips)
Hero: posts small blind $0.5
Cid: posts big blind $1
*** HOLE CARDS ***
Dealt to Ann
Dealt to Bob
Dealt to Hero [8d 3s]
Dealt to Cid
Ann: raises $2 to $3
Bob: folds
Hero: folds
Cid: calls $2
*** FLOP *** [Th 9c 5s]
Cid: checks
Ann: bets $10
Cid: raises $27 to $37 and is all-in
Ann: calls $27
Cid: shows [Kc Qs] (King-High)
Ann: shows [Js Jd] (Pair of Jacks)
*** FIRST TURN *** [Th 9c 5s] [6h]
*** FIRST RIVER *** [Th 9c 5s 6h] [Jc]
*** SECOND TURN *** [Th 9c 5s] [4d]
*** SECOND RIVER *** [Th 9c 5s 4d] [Kd]
*** THIRD TURN *** [Th 9c 5s] [Ad]
*** THIRD RIVER *** [Th 9c 5s Ad] [2h]
*** FIRST SHOWDOWN ***
Cid collected $25.5 from pot
*** SECOND SHOWDOWN ***
Cid collected $25.5 from pot
*** THIRD SHOWDOWN ***
Ann collected $25.5 from pot
*** SUMMARY ***
Total pot $80.5 | Rake $3 | Jackpot $1 | Bingo $0
Hand was run three times
FIRST Board [Th 9c 5s 6h Jc]
SECOND Board [4d Kd]
THIRD Board [Ad 2h]
Seat 1: Ann showed [Js Jd] and lost with Three Jacks, and lost, and won ($25.5)
Seat 2: Bob (button) folded before Flop (didn't bet)
Seat 3: Hero (small blind) folded before Flop
Seat 4: Cid showed [Kc Qs] and won ($25.5) with Kings-High Straight, and won ($25.5), and lost"""


def test_a_2018_hand_run_three_times_keeps_each_runs_cards_and_award(tmp_path):
    """Each run's turn and river carry their run, the flop the first's (the board all runs share);
    each collect its run; the chips reconcile (80.5 in: 3 x 25.5 awarded, 3 rake, 1 jackpot);
    each run's third of the pot goes to the best hand on that run's board: no finding."""
    import duckdb

    from parsers.base import unreconciled

    h = _read(RUN_THREE_TIMES)
    assert [(e.street, e.run, e.cards) for e in h.events if e.kind == "deal_board"] == [
        ("flop", 1, "Th 9c 5s"), ("turn", 1, "6h"), ("river", 1, "Jc"), ("turn", 2, "4d"), ("river", 2, "Kd"),
        ("turn", 3, "Ad"), ("river", 3, "2h")]
    assert [(e.run, e.seat, e.amount) for e in h.events if e.kind == "collect"] == [(1, 4, 2550), (2, 4, 2550),
                                                                                   (3, 1, 2550)]
    assert [(e.amount, e.to_amount) for e in h.events if e.kind == "total_pot"] == [(8050, 400)]
    assert unreconciled(h) is None and not [e for e in h.events if e.kind == "unread"]
    res, db = audit_written(tmp_path, "r3", RUN_THREE_TIMES + "\n")
    assert (res.ingest.stored, res.ingest.rejected, res.findings) == (1, 0, [])
    with duckdb.connect(str(db), read_only=True) as con:
        shares = con.execute("SELECT run, seat, expected, recorded FROM pot_shares WHERE expected > 0 "
                             "ORDER BY run, seat").fetchall()
    # each run's third of the 80.50 before the house's take (the odd cent to the first run), paid less it
    assert shares == [(1, 4, 2684, 2550), (2, 4, 2683, 2550), (3, 1, 2683, 2550)]


# A player new to the table posts a big blind out of position beside the big blind's own
# ('Ann: posts big blind $0.5'): a live blind, her option to check when the betting comes
# back (2017 cash; the shape of the C# suite's 'MultiplePosts' hand)
SECOND_BIG_BLIND = """Poker Hand #HD7000011: Hold'em No Limit  ($0.25/$0.5) - 2017/11/30 19:22:11
Table 'NLHGold12' 6-max Seat #4 is the button
Seat 1: Hero ($25 in chips)
Seat 2: Ann ($40 in chips)
Seat 4: Bob ($58 in chips)
Seat 5: Cid ($30 in chips)
Seat 6: Dee ($42 in chips)
Cid: posts small blind $0.25
Dee: posts big blind $0.5
Ann: posts big blind $0.5
*** HOLE CARDS ***
Dealt to Hero [7d 2c]
Dealt to Ann
Dealt to Bob
Dealt to Cid
Dealt to Dee
Hero: folds
Ann: checks
Bob: calls $0.5
Cid: calls $0.25
Dee: checks
*** FLOP *** [Ts 7h 5d]
Cid: checks
Dee: checks
Ann: bets $1
Bob: folds
Cid: calls $1
Dee: calls $1
*** TURN *** [Ts 7h 5d] [2h]
Cid: checks
Dee: checks
Ann: bets $3
Cid: folds
Dee: folds
Uncalled bet ($3) returned to Ann
*** SHOWDOWN ***
Ann collected $4.75 from pot
*** SUMMARY ***
Total pot $5 | Rake $0.25 | Jackpot $0 | Bingo $0
Board [Ts 7h 5d 2h]
Seat 1: Hero folded before Flop (didn't bet)
Seat 2: Ann won ($4.75)
Seat 4: Bob (button) folded on the Flop
Seat 5: Cid (small blind) folded on the Turn
Seat 6: Dee (big blind) folded on the Turn"""


def test_a_second_big_blind_posted_is_live_and_a_total_that_does_not_add_up_is_a_record_finding(tmp_path):
    """The entering player's big blind is her bet: her check is no check facing a bet, and the pot
    (4 x 0.5 before the flop, 3 x 1 on it) is the $5 the summary states: no finding.  The same
    hand whose summary states $1 less than its actions put in, the awards agreeing with the
    summary (as the C# suite's 'MultiplePosts' sample does: 14.30 in, 'Total pot $13.3'), is a
    record contradicting itself: a chip-conservation *record* finding, no violation."""
    from parsers.base import unreconciled

    h = _read(SECOND_BIG_BLIND)
    posts = [(e.kind, e.seat, e.amount) for e in h.events if e.kind in ("small_blind", "big_blind", "dead_blind")]
    assert posts == [("small_blind", 5, 25), ("big_blind", 6, 50), ("big_blind", 2, 50)]
    assert [(e.kind, e.seat) for e in h.events if e.street == "preflop" and e.kind in ("check", "call", "fold")] == [
        ("fold", 1), ("check", 2), ("call", 4), ("call", 5), ("check", 6)]
    assert unreconciled(h) is None
    res, _ = audit_written(tmp_path, "bb2", SECOND_BIG_BLIND + "\n")
    assert (res.ingest.stored, res.findings) == (1, [])
    short = SECOND_BIG_BLIND.replace("Total pot $5 |", "Total pot $4 |").replace("$4.75", "$3.75")
    res, _ = audit_written(tmp_path, "short", short + "\n")
    assert res.ingest.stored == 1
    assert [(x["check_id"], x["category"]) for x in res.findings] == [("chip-conservation", "record")]
