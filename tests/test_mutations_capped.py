"""Recall on the variants of issue 34 read here: capped tables and cash-outs.

Real corpus hands of each (read in place) are audited clean of violations; then an
underraise, a wrong winner and a wrong odd chip are planted in them by editing their
lines, the site's arithmetic kept (each mutant under a fresh hand number), and each
must be found, on its seat, as a violation.  ``tests/mutate.py`` is not used: its
amounts know no cap, and its hands no cash-out (``tests/mutate_stars_family.py``
leaves capped hands out for that reason).

A wrong odd chip where the other winner of the split cashed out is found by
chip-conservation, not odd-chip: the record pays the cashed-out winner nothing from
the pots (his share is the house's), so the pot's recorded shares are one seat's and
the odd chip shows as one chip paid beyond the pot (docs/semantics.md, "Cash-outs").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from conftest import CORPUS, needs_corpus

pytestmark = needs_corpus

FPDB = CORPUS / "fpdb"
STARS_CAP = "cash/Stars/Flop/NLHE-CAP-9max-USD-0.25-0.50-201011.Capped.preflop.txt"
WPN_CAP = "cash/Winning/NLHE-9max-USD-0.01-0.02-201911.CASHID-TN-Miramar (Cap) GAMETYPE.txt"
STARS_CASH_OUT = "cash/Stars/Flop/2025-NL-6max-USD-0.05-0.10.cashout.txt"
STARS_CASH_OUTS_SPLIT = "cash/Stars/Flop/6-Card-PLO-6max-USD-0.10-0.25-202201.multiway.allin.deadcards.txt"
PARTY_CASH_OUT = "cash/PartyPoker/Flop/PLO-6max-USD-0.10-0.25-202602.cash.out.txt"
SOURCES = (STARS_CAP, WPN_CAP, STARS_CASH_OUT, STARS_CASH_OUTS_SPLIT, PARTY_CASH_OUT)


@dataclass(frozen=True)
class Planted:
    name: str
    source: str
    edits: tuple[tuple[str, str], ...]  # (line as written, line planted); '' planted: the line removed
    checks: tuple[str, ...]  # the check that must find it (the first named is the expected one)
    seat: int


PLANTED = (
    # --- capped tables ---------------------------------------------------------------------
    # the big blind re-raises $0.50 over a $1 raise (to $2, the minimum $2.50) with $8 of the cap left
    Planted("capped underraise", STARS_CAP, (
        ("Hero: raises $2 to $3.50", "Hero: raises $0.50 to $2"),
        ("Villain: raises $6.50 to $10 and has reached the $10 cap", "Villain: raises $8 to $10 and has reached the $10 cap"),
        ("Hero: calls $6.50 and is all-in", "Hero: calls $8 and is all-in"),
    ), ("illegal-underraise",), 1),
    Planted("capped wrong winner", STARS_CAP, (
        ("Villain collected $19 from pot", "Hero collected $19 from pot"),
        ("Seat 1: Hero (big blind) showed [Ah 6d] and lost with a pair of Queens",
         "Seat 1: Hero (big blind) showed [Ah 6d] and won ($19) with a pair of Queens"),
        ("Seat 9: Villain (small blind) showed [Qs Kh] and won ($19) with three of a kind, Queens",
         "Seat 9: Villain (small blind) showed [Qs Kh] and lost with three of a kind, Queens"),
    ), ("wrong-winner",), 1),
    # WPN, no rake: a tie (both Q-Q-A-9-6) splitting $1.25: the odd cent is the first winner's left
    # of the button (seat 1): seat 3's, and went to seat 9 (the award checks split the pot before
    # the rake: a raked pot's odd chip is not judged, docs/semantics.md)
    Planted("capped odd chip", WPN_CAP, (
        ("IrishPimp2233 shows [7d 6d] (a pair of Sixs [6d 6c As Qh 7d])",
         "IrishPimp2233 shows [9d Qs] (a pair of Queens [Qh Qs As 9d 6c])"),
        ("ccZORBAcc collected $1.19 from main pot",
         "ccZORBAcc collected $0.62 from main pot\nIrishPimp2233 collected $0.63 from main pot"),
        ("Total pot $1.19 | Rake $0.04 | JP Fee $0.02", "Total pot $1.25 | Rake $0.00 | JP Fee $0.00"),
        ("Seat 3: ccZORBAcc (big blind) showed [9c Qd] and won $1.19 with a pair of Queens [Qh Qd As 9c 6c]",
         "Seat 3: ccZORBAcc (big blind) showed [9c Qd] and won $0.62 with a pair of Queens [Qh Qd As 9c 6c]"),
        ("Seat 9: IrishPimp2233 showed [7d 6d] and lost with a pair of Sixs [6d 6c As Qh 7d]",
         "Seat 9: IrishPimp2233 showed [9d Qs] and won $0.63 with a pair of Queens [Qh Qs As 9d 6c]"),
    ), ("odd-chip",), 3),
    # WPN: the flop bet of $0.11 raised to $0.15 (minimum $0.22) with the cap's $0.55 left; then
    # the cap reached by a raise of the chips added
    Planted("WPN capped underraise", WPN_CAP, (
        ("IrishPimp2233 caps $0.55", "IrishPimp2233 raises $0.15 to $0.15\nccZORBAcc raises $0.44 to $0.55\n"
                                      "IrishPimp2233 caps $0.40"),
        ("ccZORBAcc calls $0.44", ""),
    ), ("illegal-underraise",), 9),
    Planted("WPN capped wrong winner", WPN_CAP, (
        ("ccZORBAcc collected $1.19 from main pot", "IrishPimp2233 collected $1.19 from main pot"),
        ("Seat 3: ccZORBAcc (big blind) showed [9c Qd] and won $1.19 with a pair of Queens [Qh Qd As 9c 6c]",
         "Seat 3: ccZORBAcc (big blind) showed [9c Qd] and lost with a pair of Queens [Qh Qd As 9c 6c]"),
        ("Seat 9: IrishPimp2233 showed [7d 6d] and lost with a pair of Sixs [6d 6c As Qh 7d]",
         "Seat 9: IrishPimp2233 showed [7d 6d] and won $1.19 with a pair of Sixs [6d 6c As Qh 7d]"),
    ), ("wrong-winner",), 9),
    # --- cash-outs -------------------------------------------------------------------------
    # the flop bet of $0.93 raised by $0.50 (minimum by $0.93) by the player who later cashes out
    Planted("cash-out underraise", STARS_CASH_OUT, (
        ("Player3: calls $0.93", "Player3: raises $0.50 to $1.43\nPlayer1: calls $0.50"),
        ("Player1: calls $0.52 and is all-in", "Player1: calls $0.02 and is all-in"),
        ("Uncalled bet ($3.26) returned to Player3", "Uncalled bet ($3.76) returned to Player3"),
    ), ("illegal-underraise",), 3),
    # the pot paid to the loser who cashed out
    Planted("cash-out wrong winner", STARS_CASH_OUT, (
        ("Player1 collected $25.96 from pot", "Player3 collected $25.96 from pot"),
        ("Seat 1: Player1 showed [Qs Js] and won ($25.96) with a full house, Queens full of Aces",
         "Seat 1: Player1 showed [Qs Js] and lost with a full house, Queens full of Aces"),
        ("Seat 3: Player3 (button) showed [Th Tc] and lost with a full house, Tens full of Aces (cashed out)",
         "Seat 3: Player3 (button) showed [Th Tc] and won ($25.96) with a full house, Tens full of Aces (cashed out)"),
    ), ("wrong-winner",), 3),
    # a tie for the side pot ($81.33): the odd cent is seat 1's (first left of the button, seat 6),
    # who cashed out; the other winner, who did not, is paid it
    Planted("cash-out odd chip", STARS_CASH_OUTS_SPLIT, (
        ("Player1 cashed out the hand for $57.71 | Cash Out Fee $0.58",
         "Player1 collected $11.19 from main pot\nPlayer1 collected $40.67 from side pot"),
        ("Seat 4: Player1 showed [5h Kc Ad 2d 4s Ac] and won ($51.85) with two pair, Aces and Sevens (pot not awarded as player cashed out)",
         "Seat 4: Player1 showed [5h Kc Ad 2d 4s Ac] and won ($51.86) with two pair, Aces and Sevens"),
    ), ("odd-chip", "chip-conservation"), 4),
    # PartyPoker: a flop bet of $5.13 raised to $8 (the minimum $10.26) with $15.21 behind; the
    # bettor then raises all in, and the player who cashes out is all in as before
    Planted("Party cash-out underraise", PARTY_CASH_OUT, (
        ("Hero raises 20.52 to 20.52", "Hero raises 8.00 to 8.00"),
        ("Player2 calls (12.42)", "Player2 raises 12.42 to 17.55"),
        ("Player2 is all-In.", "Player2 is all-In.\nHero calls (9.55)"),
        ("Hero balance $44.16, bet $23.17, collected $41.47, net +$18.30[ 9c, 7h, 8h, 4d ] "
         "[ a straight, seven to jack -- Jc,Ts,9c,8h,7d ]",
         "Hero balance $44.16, bet $20.20, collected $38.50, net +$18.30[ 9c, 7h, 8h, 4d ] "
         "[ a straight, seven to jack -- Jc,Ts,9c,8h,7d ]"),
    ), ("illegal-underraise",), 4),
)

_NUMBER = re.compile(r"(#|Game ID: |Hand History For Game )([0-9a-z]+)")


def _planted(p: Planted, number: int) -> str:
    lines = (FPDB / p.source).read_text(encoding="utf-8").rstrip("\n").split("\n")
    for old, new in p.edits:
        at = [i for i, line in enumerate(lines) if line.rstrip() == old]
        assert len(at) == 1, (p.name, old)
        lines[at[0]:at[0] + 1] = new.split("\n") if new else []
    text = "\n".join(lines)
    # a fresh hand number (the first the header names)
    return _NUMBER.sub(lambda m: m.group(1) + str(number), text, count=1)


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    from auditor.pipeline import audit

    tmp = tmp_path_factory.mktemp("planted")
    base = audit([str(FPDB / s) for s in SOURCES], db=str(tmp / "base.duckdb"))
    numbers = {p.name: 9_340_000_000_000 + i for i, p in enumerate(PLANTED)}
    by_site: dict[str, list[str]] = {}
    for p in PLANTED:
        by_site.setdefault(p.source.split("/")[1], []).append(_planted(p, numbers[p.name]))
    paths = []
    for site, texts in by_site.items():
        path = tmp / f"{site}.txt"
        path.write_text("\n\n\n".join(texts) + "\n\n\n", encoding="utf-8")
        paths.append(str(path))
    res = audit(paths, db=str(tmp / "planted.duckdb"))
    return base, res, numbers


def test_the_corpus_hands_are_stored_with_no_violation(audited):
    base, _, _ = audited
    assert base.ingest.rejected == 0 and base.ingest.stored == len(SOURCES), base.ingest.errors[:3]
    assert [f for f in base.findings if f["category"] == "violation"] == []


@pytest.mark.parametrize("p", PLANTED, ids=lambda p: p.name)
def test_a_planted_error_is_found(audited, p: Planted):
    _, res, numbers = audited
    assert res.ingest.rejected == 0, res.ingest.errors[:3]
    number = str(numbers[p.name])
    mine = [f for f in res.findings if f["hand_id"].endswith(number)]
    found = [f for f in mine if f["check_id"] in p.checks and f["category"] == "violation"
             and (f["seat"] == p.seat or f["seat"] is None)]
    assert found, f"{p.name}: not found; findings: {[(f['check_id'], f['seat'], f['category']) for f in mine]}"
    if p.source in (STARS_CAP, WPN_CAP) and found[0]["check_id"] == "illegal-underraise":
        assert "cap of" in found[0]["message"]  # a capped table's betting finding names the cap
