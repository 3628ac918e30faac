"""Capped tables and cash-outs (issue 34) on hands written for the project: what the
parsers record (hands.cap, the cash_out event) and what the replay makes of them.
The corpus's own hands: tests/test_mutations_capped.py."""

from __future__ import annotations

from conftest import SAMPLES

from parsers.base import ParsedHand, hand_total
from parsers.partypoker import PartyPokerParser
from parsers.pokerstars import PokerStarsParser
from parsers.wpn import WpnParser
from replay.editions import edition
from replay.engine import replay_hand


def _hands(parser, text: str) -> list[ParsedHand]:
    hands = list(parser.iter_hands(((i, 0, t) for i, t in enumerate(text.split("\n"), 1)), "x.txt"))
    assert all(isinstance(h, ParsedHand) for h in hands), hands
    return hands


def _sample(name: str) -> list[ParsedHand]:
    return _hands(PokerStarsParser(), (SAMPLES / "pokerstars" / name).read_text(encoding="utf-8"))


def test_the_cap_is_read_from_the_header_and_a_capped_player_is_all_in_with_chips_behind():
    clean = _sample("nlhe-cash-capped.txt")[1]
    assert clean.cap == 1000 and clean.betting == "no-limit"  # '$10 Cap', in cents
    facts = replay_hand(clean, clean.seats, clean.events, edition("tda-2024"))
    by_line = {row[-3]: row for row in facts.decisions}  # line_no (then sa_before, sa_after_seq)
    raise_row = next(r for r in facts.decisions if r[6] == "raise" and r[4] == 3)
    # Cleo's raise to $8.50 reaches the cap: short of a full raise ($10), all in for the betting
    assert (raise_row[12], raise_row[13], raise_row[25]) == (1000, 850, "raise-allin-short")
    call_row = next(r for r in facts.decisions if r[6] == "call" and r[4] == 2 and r[3] == "flop")
    assert call_row[25] == "call" and call_row[21] == 4000 - 1000  # Bob's $30 behind, kept
    assert len(by_line) == len(facts.decisions)
    # nobody acts after the flop: both capped; their end stacks keep what the cap left them
    assert all(r[3] in ("preflop", "flop") for r in facts.decisions)
    ends = {r[2]: (r[10], r[11]) for r in facts.hand_results}
    assert ends[2] == (3000, 3000) and ends[3] == (2500 - 1000 + 2150, 2500 - 1000 + 2050)  # (won 21.50 less 1 rake)


def test_pokerstars_capped_headers():
    text = (SAMPLES / "pokerstars" / "nlhe-cash-capped.txt").read_text(encoding="utf-8").split("\n\n\n")[0]
    for stakes, cap, currency in (("$0.25/$0.50 - $40 Cap - USD", 4000, "USD"), ("$0.25/$0.50 - $10 Cap -", 1000, "USD"),
                                  ("€0.25/€0.50 - €10 Cap - EUR", 1000, "EUR")):
        written = text.replace("$0.25/$0.50 - $10 Cap - USD", stakes)
        if "€" in stakes:
            written = written.replace("$", "€")
        [hand] = _hands(PokerStarsParser(), written)
        assert (hand.cap, hand.currency, hand.big_blind) == (cap, currency, 50)


def test_a_cap_the_header_does_not_name_is_the_total_the_capping_line_reaches():
    text = """Hand #1 - Holdem(No Limit) - $0.01/$0.02 - 2019/11/08 04:43:23 UTC
Sample (Cap) 9-max Seat #1 is the button
Seat 2: Ann ($0.90)
Seat 3: Bob ($1.40)
Ann posts the small blind $0.01
Bob posts the big blind $0.02
*** HOLE CARDS ***
Ann calls $0.01
Bob checks
*** FLOP *** [Qh 5c 4d]
Ann bets $0.10
Bob caps $0.58
Ann calls $0.48
*** TURN *** [Qh 5c 4d] [As]
*** RIVER *** [Qh 5c 4d As] [6c]
*** SHOW DOWN ***
Ann shows [9c Qd] (a pair of Queens [Qh Qd As 9c 6c])
Bob shows [7d 6d] (a pair of Sixs [6d 6c As Qh 7d])
Ann collected $1.20 from main pot
*** SUMMARY ***
Total pot $1.20 | Rake $0.00 | JP Fee $0.00
Board [Qh 5c 4d As 6c]
Seat 2: Ann (small blind) showed [9c Qd] and won $1.20 with a pair of Queens [Qh Qd As 9c 6c]
Seat 3: Bob (big blind) showed [7d 6d] and lost with a pair of Sixs [6d 6c As Qh 7d]"""
    [hand] = _hands(WpnParser(), text)
    capped = next(e for e in hand.events if e.text == "Bob caps $0.58")
    # the chips added over Ann's bet of $0.10: a raise to $0.58, his hand's total $0.60 the cap
    assert (capped.kind, capped.amount, capped.to_amount) == ("raise", 58, 58)
    assert hand.cap == 60 == hand_total(hand.events, 3)


def test_a_cash_out_is_an_event_beside_the_pot_and_its_winner_is_paid_nothing_from_it():
    violating, clean, winner_cashed = _sample("nlhe-cash-cashout.txt")
    (co,) = [e for e in clean.events if e.kind == "cash_out"]
    # taken on the flop, where the all-in closed the betting, though written after the showdown
    assert (co.seat, co.amount, co.to_amount, co.street) == (3, 180, 4, "flop")
    facts = replay_hand(winner_cashed, winner_cashed.seats, winner_cashed.events, edition("tda-2024"))
    # the winner who cashed out is paid nothing from the pot: his share is the house's, no award to judge
    (share,) = [s for s in facts.pot_shares if s[4] == 1]
    assert share[6] == 2005 and share[8] is None
    # the play is judged as played
    assert [r[25] for r in facts.decisions if r[6] != "fold"] == ["raise", "call", "bet", "raise", "call"]


def test_partypoker_cash_out_lines():
    parser = PartyPokerParser()
    cash = """***** Hand History For Game 900000034301 *****
0.10/0.25 Omaha Hi Game Table (PL) - Mon Feb 09 12:55:26 EST 2026
Table Table 1 (Real Money) -- Seat 1 is the button
Total number of players : 2/6
Seat 1: Ann ($20)
Seat 2: Bob ($20)
Ann posts small blind (0.10)
Bob posts big blind (0.25)
** Dealing down cards **
Ann raises 0.65 to 0.75
Bob calls (0.50)
** Dealing Flop ** :  [ Jc, 7d, 6c ]
Bob bets (1.50)
Ann raises 19.25 to 19.25
Bob calls (17.75)
Bob is all-In.
Creating Main Pot with $ 38.00 with Ann, Bob
Bob Cash-out Premium % is 1.0
Bob opted for cash-out
Bob probabilty is 60.00
Bob Cashout Amount is 22.57
** Dealing Turn ** :  [ Ts ]
** Dealing River ** :  [ Js ]
** Summary **
Main Pot: $38.00 Rake: $2.0
Board: [ Jc, 7d, 6c, Ts, Js ]
Bob Cashed out  balance $22.57, bet $20, collected $22.57, net +$2.57[ Tc, Ac, Ad, 4c ] [ two pairs, aces and jacks -- Ac,Ad,Jc,Js,Ts ]
Ann balance $38, bet $20, collected $38, net +$18[ 9c, 7h, 8h, 4d ] [ a straight, seven to jack -- Jc,Ts,9c,8h,7d ]"""
    [hand] = _hands(parser, cash)
    (co,) = [e for e in hand.events if e.kind == "cash_out"]
    assert (co.player, co.amount, co.to_amount, co.street) == ("Bob", 2257, None, "flop")
    # Bob's 'collected $22.57' is the cash-out's money: no collect, no amount won in his seat line
    assert [(e.player, e.amount) for e in hand.events if e.kind == "collect"] == [("Ann", 3800)]
    assert [(e.player, e.amount) for e in hand.events if e.kind == "seat_result"] == [("Bob", None), ("Ann", 3800)]
