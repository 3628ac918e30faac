"""WPN's 2019 format (``parsers/wpn.py``, docs/sites.md): wordings each read on a hand written
for this test in WPN's format (always run); the corpus tests are in tests/test_site_wpn.py.
The last test reads a wording of the 2016 format (``WpnLegacyParser``) the same way."""

from __future__ import annotations

from parsers.base import ParsedHand, unreconciled
from parsers.wpn import WpnParser


def _read(text: str) -> ParsedHand:
    [hand] = WpnParser().iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "t.txt")
    assert isinstance(hand, ParsedHand), hand
    return hand


# A player entering the game posts a big blind out of position ('Eve posts $0.25': live, she
# checks when the betting comes to her), another waits for the big blind to reach him ('Dan
# waits for big blind': not dealt in), and a seat is held for a player who may play only once
# the button has passed ('Seat 6: Fay will be allowed to play after the button': no stack)
ENTERING = """Hand #68217077 - Holdem(No Limit) - $0.10/$0.25 - 2019/06/28 02:38:17 UTC
Miramar 9-max Seat #1 is the button
Seat 1: Ann ($25.00)
Seat 2: Bob ($30.00)
Seat 3: Cat ($20.00)
Seat 4: Dan ($22.50)
Seat 5: Eve ($18.00)
Seat 6: Fay will be allowed to play after the button
Bob posts the small blind $0.10
Cat posts the big blind $0.25
Dan waits for big blind
Eve posts $0.25
*** HOLE CARDS ***
Dealt to Ann [Ah Kd]
Eve checks
Ann raises $0.75 to $0.75
Bob folds
Cat calls $0.50
Eve calls $0.50
*** FLOP *** [2c 7d 9h]
Main pot $2.35 | Rake $0.00
Cat checks
Eve checks
Ann bets $1.00
Cat folds
Eve folds
Uncalled bet ($1.00) returned to Ann
Ann does not show
*** SUMMARY ***
Total pot $2.24 | Rake $0.10 | JP Fee $0.01
Board [2c 7d 9h]
Seat 1: Ann (button) did not show and won $2.24
Seat 2: Bob (small blind) folded on the Pre-Flop
Seat 3: Cat (big blind) folded on the Flop
Seat 5: Eve folded on the Flop"""


def test_an_entering_players_post_a_player_waiting_and_a_seat_held():
    hand = _read(ENTERING)
    assert [s.player for s in hand.seats] == ["Ann", "Bob", "Cat", "Dan", "Eve"]  # no seat line for Fay's stack
    posts = [(e.kind, e.player, e.amount) for e in hand.events if e.kind in ("small_blind", "big_blind", "dead_blind")]
    assert posts == [("small_blind", "Bob", 10), ("big_blind", "Cat", 25), ("big_blind", "Eve", 25)]
    assert not [e for e in hand.events if e.player == "Dan" or e.kind == "unread"]
    assert unreconciled(hand) is None


def test_an_entering_players_post_is_judged_as_a_live_blind(tmp_path):
    """The replay holds Eve's post as her bet: her check is no check facing a bet, her call
    of $0.50 makes $0.75; no finding."""
    from auditor.pipeline import audit

    path = tmp_path / "entering.txt"
    path.write_text(ENTERING + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "e.duckdb"), edition_name="tda-2024")
    assert res.ingest.stored == 1 and res.findings == []


# Run it twice: '*** RUN IT TWICE ***' once the betting is over, each run's streets and
# showdown numbered, its collects from 'main pot 1' / 'main pot 2', and in the summary each
# run's board ('Board 1 [..]', 'Board 2 [..]') with every seat's line again
RUN_TWICE = """Hand #9 - Holdem(No Limit) - $1.00/$2.00 - 2021/04/16 19:14:14 UTC
Parachute 6-max Seat #1 is the button
Seat 1: Ann ($50.00)
Seat 2: Bob ($80.00)
Seat 3: Cat ($60.00)
Bob posts the small blind $1.00
Cat posts the big blind $2.00
*** HOLE CARDS ***
Ann raises $50.00 to $50.00 and is all-in
Bob folds
Cat calls $48.00
*** RUN IT TWICE ***
*** FLOP 1 *** [8h Qd 7d]
Main pot 1 $50.50 | Rake $0.00
*** TURN 1 *** [8h Qd 7d] [7h]
*** RIVER 1 *** [8h Qd 7d 7h] [5d]
*** SHOW DOWN 1 ***
Ann shows [Ac Ad] (two pair, Aces and Sevens)
Cat shows [Kc Ks] (two pair, Kings and Sevens)
Ann collected $50.50 from main pot 1
*** FLOP 2 *** [6c 9s Jh]
Main pot 2 $50.50 | Rake $0.00
*** TURN 2 *** [6c 9s Jh] [Kh]
*** RIVER 2 *** [6c 9s Jh Kh] [2s]
*** SHOW DOWN 2 ***
Ann shows [Ac Ad] (a pair of Aces)
Cat shows [Kc Ks] (three of a kind, Kings)
Cat collected $50.50 from main pot 2
*** SUMMARY ***
Total pot $101.00
Board 1 [8h Qd 7d 7h 5d]
Seat 1: Ann (button) showed [Ac Ad] and won $50.50 with two pair, Aces and Sevens
Seat 2: Bob (small blind) folded on the Pre-Flop
Seat 3: Cat (big blind) showed [Kc Ks] and lost with two pair, Kings and Sevens
Board 2 [6c 9s Jh Kh 2s]
Seat 1: Ann (button) showed [Ac Ad] and lost with a pair of Aces
Seat 2: Bob (small blind) folded on the Pre-Flop
Seat 3: Cat (big blind) showed [Kc Ks] and won $50.50 with three of a kind, Kings"""


def test_a_hand_run_twice_keeps_each_runs_board_and_collect(tmp_path):
    from auditor.pipeline import audit
    import duckdb

    hand = _read(RUN_TWICE)
    boards = [(e.run, e.street, e.cards) for e in hand.events if e.kind == "deal_board"]
    assert boards == [(1, "flop", "8h Qd 7d"), (1, "turn", "7h"), (1, "river", "5d"),
                      (2, "flop", "6c 9s Jh"), (2, "turn", "Kh"), (2, "river", "2s")]
    assert [(e.run, e.player, e.amount, e.pot_label) for e in hand.events if e.kind == "collect"] == [
        (1, "Ann", 5050, "main"), (2, "Cat", 5050, "main")]
    assert unreconciled(hand) is None and not [e for e in hand.events if e.kind == "unread"]
    path = tmp_path / "rit.txt"
    path.write_text(RUN_TWICE + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "r.duckdb"), edition_name="tda-2024")
    assert res.ingest.stored == 1 and res.findings == []
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        shares = con.execute("SELECT run, seat, expected, recorded FROM pot_shares WHERE expected > 0 ORDER BY run").fetchall()
    assert shares == [(1, 1, 5050, 5050), (2, 3, 5050, 5050)]


# a short stack all in on the flop: the running pot lines name the side pot too
SIDE_POT = """Hand #70455120 - Omaha(Pot Limit) - $1.00/$2.00 - 2019/10/02 17:21:40 UTC
Kendall 6-max Seat #2 is the button
Seat 1: Gil ($212.00)
Seat 2: Hoa ($31.50)
Seat 4: Ivo ($180.25)
Gil posts the small blind $1.00
Ivo posts the big blind $2.00
*** HOLE CARDS ***
Hoa raises $7.00 to $7.00
Gil calls $6.00
Ivo calls $5.00
*** FLOP *** [Td 6s 6h]
Main pot $21.00 | Rake $0.00
Gil checks
Ivo bets $20.00
Hoa calls $20.00
Gil calls $20.00
*** TURN *** [Td 6s 6h] [2c]
Main pot $81.00 | Rake $0.00
Gil checks
Ivo bets $40.00
Hoa calls $4.50 and is all-in
Gil folds
Uncalled bet ($35.50) returned to Ivo
*** RIVER *** [Td 6s 6h 2c] [Kd]
Main pot $90.00 | Rake $0.00
Side pot(1) $0.00 | Rake $0.00
*** SHOW DOWN ***
Main pot $86.40 | Rake $3.60
Side pot(1) $0.00 | Rake $0.00
Hoa shows [Kc Ks 9h 8h] (a full house, Kings full of Sixes [Kc Ks Kd 6s 6h])
Ivo shows [Td Tc 5c 4c] (a full house, Tens full of Sixes [Td Tc Ts 6s 6h])
Hoa collected $86.40 from main pot
*** SUMMARY ***
Total pot $86.40 | Rake $3.60 | JP Fee $0.00
Board [Td 6s 6h 2c Kd]
Seat 1: Gil (small blind) folded on the Turn
Seat 2: Hoa (button) showed [Kc Ks 9h 8h] and won $86.40 with a full house, Kings full of Sixes [Kc Ks Kd 6s 6h]
Seat 4: Ivo (big blind) showed [Td Tc 5c 4c] and lost with a full house, Tens full of Sixes [Td Tc Ts 6s 6h]"""


def test_running_main_and_side_pot_lines_are_table_messages():
    """'Main pot $x | Rake $y' and 'Side pot(1) $x | Rake $y' after each street marker: no
    event, no unread line (the summary's total is the record)."""
    hand = _read(SIDE_POT)
    assert [e for e in hand.events if e.kind == "unread"] == []
    assert [(e.kind, e.amount, e.to_amount) for e in hand.events if e.kind in ("uncalled_return", "collect", "total_pot")] == [
        ("uncalled_return", 3550, None), ("collect", 8640, None), ("total_pot", 9000, 360)]
    assert unreconciled(hand) is None


# WPN's 2016 format: a player back after missing his blinds posts the small blind dead
# beside his live big blind ('posts (0.50) as a dead bet', then 'posts (1)')
LEGACY_DEAD = """Game started at: 2015/6/14 21:5:33
Game ID: 371100234 0.50/1 Olathe - 4 (Hold'em)
Seat 1 is the button
Seat 1: Kip (100).
Seat 2: Lu (87.50).
Seat 3: Max (120).
Seat 5: Ned (64).
Player Lu has small blind (0.50)
Player Max has big blind (1)
Player Ned posts (0.50) as a dead bet
Player Ned posts (1)
Player Lu received a card.
Player Lu received a card.
Player Max received a card.
Player Max received a card.
Player Ned received a card.
Player Ned received a card.
Player Kip received a card.
Player Kip received a card.
Player Ned checks
Player Kip raises (4)
Player Lu folds
Player Max folds
Player Ned calls (3)
*** FLOP ***: [7d 7c 2s]
Player Ned checks
Player Kip bets (5)
Player Ned folds
Uncalled bet (5) returned to Kip
Player Kip mucks cards
------ Summary ------
Pot: 9.60. Rake 0.40
Board: [7d 7c 2s]
*Player Kip mucks (does not show cards). Bets: 4. Collects: 9.60. Wins: 5.60.
Player Lu does not show cards.Bets: 0.50. Collects: 0. Loses: 0.50.
Player Max does not show cards.Bets: 1. Collects: 0. Loses: 1.
Player Ned does not show cards.Bets: 4.50. Collects: 0. Loses: 4.50.
Game ended at: 2015/6/14 21:6:10"""


def test_legacy_a_dead_small_blind_is_in_the_pot_and_in_no_bet(tmp_path):
    """'posts (0.50) as a dead bet': a small blind posted out of position (dead: the replay
    holds a small blind posted after the blinds as dead), his 'posts (1)' his live big blind:
    his call of 3 makes his 4 match Kip's raise; the pot is 10 (9.60 + 0.40), no finding
    but the format's betting-unrecorded one (the line was refused, the hand with it)."""
    from auditor.pipeline import audit
    from parsers.wpn import WpnLegacyParser

    [hand] = WpnLegacyParser().iter_hands(((i, 0, t) for i, t in enumerate(LEGACY_DEAD.split("\n"), 1)), "t.txt")
    assert isinstance(hand, ParsedHand), hand
    cents = 100 // hand.amount_scale  # (the format's amounts are read in the finest unit they need)
    assert [(e.kind, e.player, e.amount * cents) for e in hand.events if e.kind in ("small_blind", "big_blind", "dead_blind")] == [
        ("small_blind", "Lu", 50), ("big_blind", "Max", 100), ("small_blind", "Ned", 50), ("dead_blind", "Ned", 100)]
    assert [(e.kind, e.amount * cents, e.to_amount) for e in hand.events if e.kind in ("raise", "call")] == [
        ("raise", 400, 400 // cents), ("call", 300, None)]
    f = tmp_path / "dead.txt"
    f.write_text(LEGACY_DEAD, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "dead.duckdb"))
    assert res.ingest.stored == 1
    assert [x["check_id"] for x in res.findings] == ["betting-unrecorded"]


def _legacy_dead_at(button: int, returner_is_button: bool) -> tuple[str, str]:
    """LEGACY_DEAD's hand at seats 1, 2, 3 and 5 with the button at ``button``: the returning
    player (Ned: 'posts (0.50) as a dead bet', then his live 'posts (1)', after the blinds, as
    WPN writes them) under the gun or on the button; the other seat that is no blind raises to
    4, Ned calls 3, then folds to a flop bet. Returns the hand and Ned's seat."""
    seats = [1, 2, 3, 5]
    k = seats.index(button)
    btn, sb, bb, utg = (seats[(k + j) % 4] for j in range(4))
    ned, kip = (btn, utg) if returner_is_button else (utg, btn)
    name = {ned: "Ned", kip: "Kip", sb: "Lu", bb: "Max"}
    stack = {"Kip": "100", "Lu": "87.50", "Max": "120", "Ned": "64"}
    dealt = "\n".join(f"Player {name[s]} received a card.\nPlayer {name[s]} received a card." for s in (sb, bb, utg, btn))
    if returner_is_button:
        pre = "Player Kip raises (4)\nPlayer Ned calls (3)\nPlayer Lu folds\nPlayer Max folds"
        flop = "Player Kip bets (5)\nPlayer Ned folds"
    else:
        pre = "Player Ned checks\nPlayer Kip raises (4)\nPlayer Lu folds\nPlayer Max folds\nPlayer Ned calls (3)"
        flop = "Player Ned checks\nPlayer Kip bets (5)\nPlayer Ned folds"
    lines = ["Game started at: 2015/6/14 21:5:33", "Game ID: 371100234 0.50/1 Olathe - 4 (Hold'em)",
             f"Seat {btn} is the button", *(f"Seat {s}: {name[s]} ({stack[name[s]]})." for s in seats),
             "Player Lu has small blind (0.50)", "Player Max has big blind (1)",
             "Player Ned posts (0.50) as a dead bet", "Player Ned posts (1)", dealt, pre,
             "*** FLOP ***: [7d 7c 2s]", flop, "Uncalled bet (5) returned to Kip", "Player Kip mucks cards",
             "------ Summary ------", "Pot: 9.60. Rake 0.40", "Board: [7d 7c 2s]",
             "*Player Kip mucks (does not show cards). Bets: 4. Collects: 9.60. Wins: 5.60.",
             "Player Lu does not show cards.Bets: 0.50. Collects: 0. Loses: 0.50.",
             "Player Max does not show cards.Bets: 1. Collects: 0. Loses: 1.",
             "Player Ned does not show cards.Bets: 4.50. Collects: 0. Loses: 4.50.",
             "Game ended at: 2015/6/14 21:6:10"]
    return "\n".join(lines), str(ned)


def test_legacy_a_dead_small_blind_is_dead_from_every_seat_it_can_be_posted_from(tmp_path):
    """The dead bet is stored as a small blind (as PHH's and GG's dead small blinds): the replay
    holds it dead because it is posted after the hand's blinds, wherever the returning player
    sits: under the gun or on the button, the button on each seat. His call of 3 then matches
    the raise to 4 (his live big blind and 3); counted live, the 0.50 would have put him 0.50
    over it (an uncalled-bet finding). The pot is 10 chips, his 4.50 in it."""
    import duckdb

    from auditor.pipeline import audit

    for button in (1, 2, 3, 5):
        for on_button in (False, True):
            text, ned = _legacy_dead_at(button, on_button)
            case = tmp_path / f"b{button}{'n' if on_button else 'u'}"
            case.mkdir()
            f = case / "dead.txt"
            f.write_text(text, encoding="utf-8")
            db = str(case / "dead.duckdb")
            res = audit([f], db=db)
            assert res.ingest.stored == 1, (button, on_button, res.ingest)
            assert [x["check_id"] for x in res.findings] == ["betting-unrecorded"], (button, on_button, res.findings)
            with duckdb.connect(db, read_only=True) as con:
                scale = con.execute("SELECT amount_scale FROM hands").fetchone()[0]
                got = con.execute("SELECT seat, contributed FROM hand_results WHERE player = 'Ned'").fetchall()
            assert got == [(int(ned), 450 * scale // 100)], (button, on_button, got)


# A seat whose player sits out with nothing left ('Seat 4: Cat ($0.00) is sitting out'), between
# the small blind and the big blind; a pot-limit Omaha hand won uncontested, its body's
# 'Main pot $x | Rake $y' lines net of the rake so far, its summary's total after the rake and
# the jackpot fee ('JP Fee'), its award only in the summary ('did not show and won $3.09').  A
# hand written for this test in the shape of a 2019 hand in a C# parser's test suite
# (ggratte/PokerHandHistoryParser, WinningPokerV2 'WithSittingOut')
SITTING_OUT_BROKE = """Hand #7000012 - Omaha(Pot Limit) - $0.25/$0.50 - 2019/04/25 14:10:24 UTC
Lisbon 6-max Seat #1 is the button
Seat 1: Ann ($30.00)
Seat 3: Bob Ray ($20.00)
Seat 4: Cat ($0.00) is sitting out
Seat 6: Dan ($50.00)
Bob Ray posts the small blind $0.25
Dan posts the big blind $0.50
*** HOLE CARDS ***
Ann calls $0.50
Bob Ray folds
Dan checks
*** FLOP *** [5c 9c 7h]
Main pot $1.19 | Rake $0.06
Dan checks
Ann bets $1.00
Dan calls $1.00
*** TURN *** [5c 9c 7h] [Qs]
Main pot $3.09 | Rake $0.16
Dan checks
Ann bets $3.00
Dan folds
Uncalled bet ($3.00) returned to Ann
Ann does not show
*** SUMMARY ***
Total pot $3.09 | Rake $0.13 | JP Fee $0.03
Board [5c 9c 7h Qs]
Seat 1: Ann did not show and won $3.09
Seat 3: Bob Ray (small blind) folded on the Pre-Flop
Seat 6: Dan (big blind) folded on the Turn"""


def test_a_seat_sitting_out_with_nothing_is_not_dealt_in(tmp_path):
    """Cat is seated, sitting out, with no chips: no event of hers, and the big blind two seats
    past the small blind is no skipped blind.  The pot: 0.50 x 2 and 0.25 before the flop, 1.00 x 2
    on it = 3.25 = 3.09 won + 0.13 rake + 0.03 jackpot fee (the total pot event adds the fees back):
    stored, the chips reconcile, no finding."""
    from auditor.pipeline import audit

    hand = _read(SITTING_OUT_BROKE)
    assert [(s.seat, s.player, s.starting_stack, s.sitting_out) for s in hand.seats] == [
        (1, "Ann", 3000, False), (3, "Bob Ray", 2000, False), (4, "Cat", 0, True), (6, "Dan", 5000, False)]
    assert not [e for e in hand.events if e.seat == 4 or e.kind == "unread"]
    assert not [e for e in hand.events if e.line_no in (14, 19)]  # the running 'Main pot' lines record nothing
    assert [(e.kind, e.seat, e.amount, e.to_amount) for e in hand.events if e.kind in ("total_pot", "collect")] == [
        ("total_pot", None, 325, 16), ("collect", 1, 309, None)]
    assert unreconciled(hand) is None
    path = tmp_path / "out.txt"
    path.write_text(SITTING_OUT_BROKE + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "o.duckdb"), edition_name="tda-2024")
    assert (res.ingest.stored, res.ingest.rejected, res.findings) == (1, 0, [])
