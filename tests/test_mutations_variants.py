"""Recall on real data by mutation, for the game variants of issue 34: 5-card stud, 6-card
Omaha, Irish and Double Hold'em.

The corpus holds one real hand of each (read in place): Full Tilt's of the first three,
PartyPoker's of Double Hold'em.  Into each an
underraise that stood, a pot pushed to the losing hand and an odd chip to the wrong winner
are planted by editing its lines, the site's arithmetic kept whole (every total, pot and
summary line that the edit moves is rewritten with it).  A wrong winner and an odd chip need
a showdown, and an odd chip a tie: the planted hand tables the cards that make them (the
cards named, unused elsewhere in the hand).  Each mutant has its clean twin, the same
construction without the violation.  The odd chip of the 5-card stud tournament hand goes
to the wrong one of two tied winners (a main pot of 5,335 chips).  Of the three cash hands,
only two players put chips in the 6-card Omaha and the Irish ones (Irish is heads-up; in
6-card Omaha the third player folds without a bet), so every pot is twice what each player
matched: an even number of cents, and no odd chip is ever dealt.  Their plant is the split of such a pot one cent off ($100.01 and
$99.99), which the odd-chip check judges too; it is rake-free, as the replay splits a pot
before the rake and the check judges the pots whose awards add up to it.  All are audited in one store; each mutant must be found
by its check on its seat, as a violation, and draw no other betting or award finding; a
twin must draw no betting or award finding at all.  The real hands themselves are clean:
their findings are departures of Full Tilt's house profile at most
(tests/reviewed_sites/fulltilt-classic.toml).  The Double Hold'em hand's pot has an odd cent
(the small blind's, who folded): its two tied winners split it 7 and 6.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass

import pytest

from auditor.checks import load_checks
from auditor.pipeline import audit
from conftest import CORPUS, needs_corpus

pytestmark = needs_corpus

FPDB = CORPUS / "fpdb"
BETTING = {c.check_id for c in load_checks() if c.group == "betting"}
AWARD = {c.check_id for c in load_checks() if c.group == "award"}

SOURCES = {
    "5_card_stud": "tour/FTP/Stud/5-Stud-USD-MTT-100-201303.txt",  # FT-32412111030
    "omaha6": "cash/FTP/Flop/6-Card-PLO-6max-USD-0.50-1.00-201307.txt",  # FT-32973699160
    "irish": "cash/FTP/Flop/NL-Irish-6max-USD-2.00-4.00-201304.txt",  # FT-32447075821
    "double_holdem": "cash/PartyPoker/Flop/NLDHE-USD-0.01-0.02-201205.double.holdem.txt",  # PP-11764881345
}
# each source hand's number, renumbered in its mutants, and the site's prefix of hand ids
NUMBERS = {"5_card_stud": ("32412111030", "FT-"), "omaha6": ("32973699160", "FT-"), "irish": ("32447075821", "FT-"),
           "double_holdem": ("11764881345", "PP-")}

# (old, new, how many times old is written): each edit of a mutant
Edit = tuple[str, str, int]


@dataclass(frozen=True)
class Plant:
    variant: str
    check: str  # the check that must find it
    seat: int  # the seat it must name
    what: str
    violation: list[Edit]
    twin: list[Edit]


def _stud_showdown(p0: str, p1: str, main: tuple[int, int], side: tuple[int, int]) -> list[Edit]:
    """5-card stud: Player0 (seat 1) tables ``p0``, Player1 (seat 2) ``p1``, both 'Ace King high'
    (a tie: Player1's down card is the Td, Player0's the As); each pot's two shares (Player0's, Player1's)."""
    both = main[0] + side[0], main[1] + side[1]
    return [
        ("Player1 shows [Ad Qh 3h Kd Ah] a pair of Aces", f"Player1 shows [{p1}] Ace King high", 1),
        ("Player0 mucks\n", f"Player0 shows [{p0}] Ace King high\n", 1),
        ("Player1 wins the side pot (6,910) with a pair of Aces",
         f"Player0 ties for the side pot ({side[0]:,}) with Ace King high\n"
         f"Player1 ties for the side pot ({side[1]:,}) with Ace King high", 1),
        ("Player1 wins the main pot (5,335) with a pair of Aces",
         f"Player0 ties for the main pot ({main[0]:,}) with Ace King high\n"
         f"Player1 ties for the main pot ({main[1]:,}) with Ace King high", 1),
        ("Seat 1: Player0 mucked [Ks Kc Tc Qd 3d] - a pair of Kings",
         f"Seat 1: Player0 showed [{p0}] and won ({both[0]:,}) with Ace King high", 1),
        ("Seat 2: Player1 showed [Ad Qh 3h Kd Ah] and won (12,245) with a pair of Aces",
         f"Seat 2: Player1 showed [{p1}] and won ({both[1]:,}) with Ace King high", 1),
    ]


def _stud_winner(side_to: str) -> list[Edit]:
    """5-card stud: Player0 tables his pair of Kings; the side pot (6,910) goes to ``side_to``."""
    p0 = "Seat 1: Player0 showed [Ks Kc Tc Qd 3d] and {} with a pair of Kings"
    p1 = "Seat 2: Player1 showed [Ad Qh 3h Kd Ah] and won ({}) with a pair of Aces"
    edits: list[Edit] = [("Player0 mucks\n", "Player0 shows [Ks Kc Tc Qd 3d] a pair of Kings\n", 1)]
    if side_to == "Player0":
        edits += [
            ("Player1 wins the side pot (6,910) with a pair of Aces", "Player0 wins the side pot (6,910) with a pair of Kings", 1),
            ("Seat 1: Player0 mucked [Ks Kc Tc Qd 3d] - a pair of Kings", p0.format("won (6,910)"), 1),
            ("Seat 2: Player1 showed [Ad Qh 3h Kd Ah] and won (12,245) with a pair of Aces", p1.format("5,335"), 1),
        ]
    else:
        edits.append(("Seat 1: Player0 mucked [Ks Kc Tc Qd 3d] - a pair of Kings", p0.format("lost"), 1))
    return edits


def _omaha6_river(win: dict[str, str], hero: str = "Jh 4s Tc 5s Jc 9h", p0: str = "6c Js Ac Qc Ts 5d",
                  hero_hand: str = "a straight flush, Jack high", p0_hand: str = "a flush, Ace high", rake: str = "$1") -> list[Edit]:
    """6-card Omaha: Player0 (seat 5) tables ``p0`` instead of mucking; ``win``: each winner's
    collect ('wins the pot' or 'ties for the pot') and amount, by name."""
    edits: list[Edit] = [
        ("Hero shows [Jh 4s Tc 5s Jc 9h] a straight flush, Jack high", f"Hero shows [{hero}] {hero_hand}", 1),
        ("Player0 mucks\n", f"Player0 shows [{p0}] {p0_hand}\n", 1),
        ("Hero wins the pot ($199) with a straight flush, Jack high",
         "\n".join(f"{who} {word} the pot ({amt}) with {hero_hand if who == 'Hero' else p0_hand}"
                   for who, (word, amt) in win.items()), 1),
        ("Total pot $200 | Rake $1", f"Total pot $200 | Rake {rake}", 1),
    ]
    hero_sum = f"and won ({win['Hero'][1]})" if "Hero" in win else "and lost"
    p0_sum = f"and won ({win['Player0'][1]})" if "Player0" in win else "and lost"
    edits += [
        ("Seat 2: Hero (small blind) showed [Jh 4s Tc 5s Jc 9h] and won ($199) with a straight flush, Jack high",
         f"Seat 2: Hero (small blind) showed [{hero}] {hero_sum} with {hero_hand}", 1),
        ("Seat 5: Player0 (big blind) mucked [6c Js Ac Qc Ts 5d] - a flush, Ace high",
         f"Seat 5: Player0 (big blind) showed [{p0}] {p0_sum} with {p0_hand}", 1),
    ]
    if hero != "Jh 4s Tc 5s Jc 9h":
        edits.append(("Dealt to Hero [Jh 4s Tc 5s Jc 9h]", f"Dealt to Hero [{hero}]", 1))
    return edits


def _omaha6_turn(to: int) -> list[Edit]:
    """6-card Omaha: Player0 raises Hero's turn bet of $16 to ``to``; the river is then
    Player0's $50 bet, Hero's raise all in with what he has left and Player0's call: the
    total pot stays $200."""
    left = 100 - 9 - to  # Hero's stack after the turn
    return [
        ("Player0 calls $16\n", f"Player0 raises to ${to}\nHero calls ${to - 16}\n", 1),
        ("(Total Pot: $50, 2 Players)", f"(Total Pot: ${18 + 2 * to}, 2 Players)", 1),
        ("Hero raises to $75, and is all in\nPlayer0 calls $25",
         f"Hero raises to ${left}, and is all in\nPlayer0 calls ${left - 50}", 1),
    ]


def _irish_showdown(p0: str, p0_hand: str, hero_hand: str, win: dict[str, str], rake: str = "$0.50") -> list[Edit]:
    """Irish: the river checked through to a showdown: Player0 (seat 3) tables ``p0``, Hero
    (seat 4) the two cards he kept (Ts Kc: he discarded 9h 9c); ``win``: each winner's
    collect word and amount."""
    hero_sum = f"and won ({win['Hero'][1]})" if "Hero" in win else "and lost"
    p0_sum = f"and won ({win['Player0'][1]})" if "Player0" in win else "and lost"
    return [
        ("Player0 bets $62\nHero folds\nUncalled bet of $62 returned to Player0\nPlayer0 mucks\n"
         "Player0 wins the pot ($199.50)",
         f"Player0 checks\nHero checks\n*** SHOW DOWN ***\nPlayer0 shows [{p0}] {p0_hand}\n"
         f"Hero shows [Ts Kc] {hero_hand}\n"
         + "\n".join(f"{who} {word} the pot ({amt}) with {hero_hand if who == 'Hero' else p0_hand}"
                     for who, (word, amt) in win.items()), 1),
        ("Total pot $200 | Rake $0.50", f"Total pot $200 | Rake {rake}", 1),
        ("Seat 3: Player0 (big blind) collected ($199.50), mucked",
         f"Seat 3: Player0 (big blind) showed [{p0}] {p0_sum} with {p0_hand}", 1),
        ("Seat 4: Hero (small blind) folded on the River", f"Seat 4: Hero (small blind) showed [Ts Kc] {hero_sum} with {hero_hand}", 1),
    ]


def _irish_flop(to: int) -> list[Edit]:
    """Irish: Player0 raises Hero's flop bet of $52 to ``to``, Hero calls; the pot after the
    flop grows by what the raise adds, and Player0 still wins it uncontested on the river."""
    pot = 96 + 2 * to
    return [
        ("Player0 calls $52\n", f"Player0 raises to ${to}\nHero calls ${to - 52}\n", 1),
        ("(Total Pot: $200, 2 Players)", f"(Total Pot: ${pot}, 2 Players)", 3),
        ("Player0 wins the pot ($199.50)", f"Player0 wins the pot (${pot - 0.5:.2f})", 1),
        ("Total pot $200 | Rake $0.50", f"Total pot ${pot} | Rake $0.50", 1),
        ("collected ($199.50)", f"collected (${pot - 0.5:.2f})", 1),
    ]


def _dh_flop(to: str, call: str, pot: str) -> list[Edit]:
    """Double Hold'em: Player2 raises Player1's flop bet of $0.02 (Party writes the chips added), Player1 calls."""
    return [
        ("Player2 - Selects point card\nPlayer2 calls [$0.02 USD]",
         f"Player2 - Selects point card\nPlayer2 raises [${to} USD]\nPlayer1 calls [${call} USD]", 1),
        ("Player1 wins $0.13 USD", f"Player1 wins ${pot} USD", 1),
    ]


def _dh_showdown(p2: str, p2_hand: str, win: dict[str, str]) -> list[Edit]:
    """Double Hold'em: Player2 (seat 4) tables ``p2``; ``win``: each winner's collect (Party writes one line a winner)."""
    hands = {"Player1": "two pairs, Queens and Jacks", "Player2": p2_hand}
    return [
        ("Player2 doesn't show [ 5c, Kd, 6c ]two pairs, Jacks and Sixes.", f"Player2 shows [ {p2} ]{p2_hand}.", 1),
        ("Player1 wins $0.13 USD from the main pot with two pairs, Queens and Jacks.",
         "\n".join(f"{who} wins ${amt} USD from the main pot with {hands[who]}." for who, amt in win.items()), 1),
    ]


PLANTS = [
    # --- 5-card stud (a limit tournament, 800/1,600, ante 150, bring-in 250) -----------------------
    Plant("5_card_stud", "illegal-underraise", 2,
          "second street: Player1 raises Player0's completion to 800 by 400 (to 1,200) with chips behind; "
          "Player4's all-in and Player0's re-raise to 2,145 follow as played, Player1 calls 945",
          [("completes it to 800\nPlayer1 calls 800\n", "completes it to 800\nPlayer1 raises to 1,200\n", 1), ("Player1 calls 1,345\n", "Player1 calls 945\n", 1)],
          # the twin raises a full bet, to 1,600: Player4 then calls all in, and Player0 only calls;
          # his chips kept go in on fifth street (all in for 800, not 255): the pots stay 5,335 and 6,910
          [("completes it to 800\nPlayer1 calls 800\n", "completes it to 800\nPlayer1 raises to 1,600\n", 1),
           ("Player4 raises to 1,345, and is all in", "Player4 calls 1,345, and is all in", 1),
           ("Player0 raises to 2,145\nPlayer1 calls 1,345\n", "Player0 calls 800\n", 1),
           ("(Total Pot: 6,935,", "(Total Pot: 5,845,", 1), ("(Total Pot: 8,535,", "(Total Pot: 7,445,", 1),
           ("(Total Pot: 11,735,", "(Total Pot: 10,645,", 1),
           ("Player0 calls 255, and is all in\nUncalled bet of 1,345", "Player0 calls 800, and is all in\nUncalled bet of 800", 1)]),
    Plant("5_card_stud", "wrong-winner", 1,
          "showdown: Player0 tables his pair of Kings and is paid the side pot over Player1's pair of Aces",
          _stud_winner("Player0"), _stud_winner("Player1")),
    Plant("5_card_stud", "odd-chip", 1,
          "showdown: Player0 (As down) and Player1 (Td down) tie with Ace King high; the main pot's odd chip "
          "(5,335) goes to Player1, though Player0's As is the high card by suit",
          _stud_showdown("As Kc Tc Qd 3d", "Td Qh 3h Kd Ah", (2667, 2668), (3455, 3455)),
          _stud_showdown("As Kc Tc Qd 3d", "Td Qh 3h Kd Ah", (2668, 2667), (3455, 3455))),
    # --- 6-card Omaha (pot limit, $0.50/$1) ------------------------------------------------------------
    Plant("omaha6", "illegal-underraise", 5,
          "turn: Player0 raises Hero's $16 bet to $20 (the minimum is $32) with chips behind",
          _omaha6_turn(20), _omaha6_turn(32)),
    Plant("omaha6", "wrong-winner", 5,
          "showdown: Player0 tables his flush and is paid the pot over Hero's straight flush",
          _omaha6_river({"Player0": ("wins", "$199")}), _omaha6_river({"Hero": ("wins", "$199")})),
    Plant("omaha6", "odd-chip", 2,
          "showdown: Hero (Td Js with 7c 8c 9c) and Player0 (Jd Ts) tie with a Jack-high straight; the $200 pot, "
          "no rake, is split $100.01 to Player0 and $99.99 to Hero",
          _omaha6_river({"Hero": ("ties for", "$99.99"), "Player0": ("ties for", "$100.01")}, hero="Jh 4s Td 5s Js 9h",
                        p0="6h Jd Ac Qh Ts 5d", hero_hand="a straight, Jack high", p0_hand="a straight, Jack high", rake="$0"),
          _omaha6_river({"Hero": ("ties for", "$100"), "Player0": ("ties for", "$100")}, hero="Jh 4s Td 5s Js 9h",
                        p0="6h Jd Ac Qh Ts 5d", hero_hand="a straight, Jack high", p0_hand="a straight, Jack high", rake="$0")),
    # --- Irish (no limit, $2/$4, heads-up: Hero on the button) ----------------------------------------
    Plant("irish", "illegal-underraise", 3,
          "flop: Player0 raises Hero's $52 bet to $60 (the minimum is $104) with chips behind",
          _irish_flop(60), _irish_flop(104)),
    Plant("irish", "wrong-winner", 4,
          "showdown: Player0's Ah 2s (Ace Queen high) beat the Ts Kc Hero kept (King Queen high); the pot went to Hero",
          _irish_showdown("Ah 2s", "Ace Queen high", "King Queen high", {"Hero": ("wins", "$199.50")}),
          _irish_showdown("Ah 2s", "Ace Queen high", "King Queen high", {"Player0": ("wins", "$199.50")})),
    Plant("irish", "odd-chip", 3,
          "showdown: Player0's Ks Td and Hero's Ts Kc tie (King Queen high); the $200 pot, no rake, is split "
          "$100.01 to Hero and $99.99 to Player0",
          _irish_showdown("Ks Td", "King Queen high", "King Queen high",
                          {"Player0": ("ties for", "$99.99"), "Hero": ("ties for", "$100.01")}, rake="$0"),
          _irish_showdown("Ks Td", "King Queen high", "King Queen high",
                          {"Player0": ("ties for", "$100"), "Hero": ("ties for", "$100")}, rake="$0")),
    # --- Double Hold'em (no limit, $0.01/$0.02, cash of 2012: no rake written) --------------------------
    Plant("double_holdem", "illegal-underraise", 4,
          "flop: Player2 raises Player1's $0.02 bet to $0.03 (the minimum is $0.04) with chips behind",
          _dh_flop("0.03", "0.01", "0.15"), _dh_flop("0.04", "0.02", "0.17")),
    Plant("double_holdem", "wrong-winner", 4,
          "showdown: Player2's 5c Kd 6c make at most two pair, Jacks and Sixes, whatever his point card; "
          "Player1's 4c Qh 8c Queens and Jacks whatever his: the pot went to Player2",
          _dh_showdown("5c, Kd, 6c", "two pairs, Jacks and Sixes", {"Player2": "0.13"}),
          _dh_showdown("5c, Kd, 6c", "two pairs, Jacks and Sixes", {"Player1": "0.13"})),
    Plant("double_holdem", "odd-chip", 9,
          "showdown: Player2's Qc 4s 8s tie Player1's 4c Qh 8c (Queens and Jacks, whatever point card either set); "
          "of the 13 cents the odd one goes to Player2 (seat 4), not Player1 (seat 9), the first left of the button (seat 5)",
          _dh_showdown("Qc, 4s, 8s", "two pairs, Queens and Jacks", {"Player1": "0.06", "Player2": "0.07"}),
          _dh_showdown("Qc, 4s, 8s", "two pairs, Queens and Jacks", {"Player1": "0.07", "Player2": "0.06"})),
]

def _hand(variant: str) -> str:
    text = (FPDB / SOURCES[variant]).read_text(encoding="utf-8").replace("\r\n", "\n")
    assert len(re.findall(r"^(?:Full Tilt Poker Game #|\*\*\*\*\* Hand History for Game )\d+", text, re.M)) == 1, \
        "one hand a source file"
    return text.strip("\n")


def _planted(variant: str, edits: list[Edit], number: int) -> str:
    text = _hand(variant)
    for old, new, times in edits:
        assert text.count(old) == times, (old, text.count(old), times)
        text = text.replace(old, new)
    return text.replace(NUMBERS[variant][0], str(number))


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    """Every mutant and twin, numbered 9300000000000 on, in one file a variant; audited once."""
    tmp = tmp_path_factory.mktemp("variant-mutants")
    by_variant: dict[str, list[str]] = collections.defaultdict(list)
    numbers: list[tuple[Plant, str, str]] = []  # (plant, the mutant's hand id, the twin's)
    n = 9_300_000_000_000
    for plant in PLANTS:
        by_variant[plant.variant] += [_planted(plant.variant, plant.violation, n), _planted(plant.variant, plant.twin, n + 1)]
        prefix = NUMBERS[plant.variant][1]
        numbers.append((plant, f"{prefix}{n}", f"{prefix}{n + 1}"))
        n += 2
    paths = []
    for variant, texts in by_variant.items():
        paths.append(tmp / f"{variant}.txt")
        paths[-1].write_text("\n\n\n".join(texts) + "\n", encoding="utf-8")
    res = audit([str(p) for p in paths], db=str(tmp / "m.duckdb"))
    findings: dict[str, list[dict]] = collections.defaultdict(list)
    for f in res.findings:
        findings[f["hand_id"]].append(f)
    return res, numbers, findings


def test_every_mutant_and_twin_is_stored(audited):
    res, numbers, _ = audited
    assert res.ingest.rejected == 0, res.ingest.errors[:3]
    assert res.replay.hands == 2 * len(numbers) == 2 * len(PLANTS)


@pytest.mark.parametrize("plant", PLANTS, ids=lambda p: f"{p.variant}-{p.check}")
def test_planted_violation_is_found(plant, audited):
    _, numbers, findings = audited
    [(mutant, twin)] = [(m, t) for p, m, t in numbers if p is plant]
    got = findings.get(mutant, [])
    hit = [f for f in got if f["check_id"] == plant.check and f["seat"] == plant.seat and f["category"] == "violation"]
    assert hit, f"{plant.what}: not found; found {[(f['check_id'], f['seat'], f['category']) for f in got]}"
    others = {f["check_id"] for f in got if f["check_id"] in BETTING | AWARD} - {plant.check}
    assert not others, f"{plant.what}: other betting or award findings {others}"
    twin_hits = [(f["check_id"], f["seat"]) for f in findings.get(twin, []) if f["check_id"] in BETTING | AWARD]
    assert not twin_hits, f"the clean twin of '{plant.what}' drew {twin_hits}"


def test_each_variant_has_the_three_plants():
    assert {(p.variant, p.check) for p in PLANTS} == {
        (v, c) for v in SOURCES for c in ("illegal-underraise", "wrong-winner", "odd-chip")}
