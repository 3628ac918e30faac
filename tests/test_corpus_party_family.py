"""The PartyPoker and 888poker (Pacific, Cassava) parsers over every real file in
fpdb/{tour,cash}/PartyPoker and fpdb/{tour,cash}/PacificPoker, read in place.

Proves, per site: every hand start is one hand (stored or rejected with a named
reason, each rejection listed here; a hand with a line not understood counts as the
ingest sees it: stored where its chips reconcile, else 'unreconciled'); fpdb's
expected-result files beside the histories are read by no parser; the stored share; the real ingest is
idempotent; every stored hand's chips re-add (to its own 'Main Pot' line where the
format writes one, else put in = returned + won + rake, rake 0 in tournaments); the
rules' awards agree with what the site recorded where the winners are known; and
the audit gives no betting-rule finding but the reviewed ones, every other finding
listed with its reason.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from auditor.checks import load_checks
from parsers import detect_parser, iter_lines, open_source
from parsers.base import HandError, ParsedHand, has_unread, unreconciled
from tests.conftest import CORPUS, needs_corpus

pytestmark = needs_corpus

FPDB = CORPUS / "fpdb"
SITES = {
    "partypoker": ("tour/PartyPoker", "cash/PartyPoker"),
    "pacific": ("tour/PacificPoker", "cash/PacificPoker"),
}

# Every hand refused, by (file, line): reason code.  Each was read by hand.
EXPECTED_REJECTIONS = {
    # files cut from longer ones end with the next hand's 'Game #N starts.' line and nothing after it
    ("tour/PartyPoker/Flop/NLHE-MTT-USD-530-201307.no.tz.txt", 37): "truncated",
    ("tour/PartyPoker/Flop/PLO8-10max-USD-20-2-201310.chat.fix.txt", 51): "truncated",
    ("cash/PartyPoker/Flop/NLHE-6max-USD-0.10-0.25-201309.player.joins.and.posts.a.bb.txt", 31): "truncated",
    ("cash/PartyPoker/Flop/NLHE-6max-USD-0.10-0.25-201309.player.joins.as.bb.txt", 33): "truncated",
    # every seat line says '( 1 )' (the euro buy-in, not the stack): calls of 40 from stacks of 1
    ("tour/PartyPoker/Flop/NLHE-1-EUR-STT-201211.tourno.missing.txt", 42): "stack-exceeded",
    # the seat line says 'Hero', the dealt, raise and balance lines 'Hero Name' (the checks 'Hero'): the
    # names were cut; those lines are kept unread (no seated player is named 'Hero Name'), and without
    # the raise of 3.0 the chips do not reach 'Main Pot: $7.13 Rake: $0.37'
    ("cash/PartyPoker/Flop/NLHE-6max-USD-0.50-1.00-201301.partial.player.names.txt", 14): "unreconciled",
    # both players' names are blank: their actions cannot be told apart
    ("cash/PacificPoker/Flop/NLHE-USD-50.00-100.00-201406.blank.player.names.txt", 8): "ambiguous-names",
    # a heads-up table ('2/2', seats 1 and 2 held): 'zejnikogoj', with no seat line and no line of his
    # joining, raises where seat 2's Player2 posted the small blind: three players on two seats
    ("cash/PartyPoker/Flop/PLO-2max-USD-0.50-1.00-201601.unknown.preamble.txt", 12): "unseated-player",
}
# what a refusal is aside from the stored share (a record cut off, a cash-out, a variant of issue 34)
ASIDE = {"truncated", "cash-out", "unsupported-game"}
# fpdb's expected results beside a history ('X.txt.hp', '.gt', '.hands'): no hand history, read by no parser
NOT_HISTORIES = (".hp", ".gt", ".hands")

_MARKER = re.compile(r"^\s*\*{5} (?:\S+ ){0,3}Hand History [Ff]or Game \w+ \*{5}")
_STARTS = re.compile(r"^\s*Game #\w+ starts\.")
_GAME_NO = re.compile(r"^\s*#Game No : \w+")


def hand_starts(text: str) -> int:
    """An independent count of hand starts: a 'Game #N starts.' line, a '#Game No :' line
    not announced by one, or a marker with neither before it (blank lines between)."""
    n, prev = 0, None
    for line in text.replace("\x00", "").replace("\ufeff", "").splitlines():
        if not line.strip():
            continue
        if _STARTS.match(line):
            n += 1
        elif _GAME_NO.match(line):
            n += prev != "starts"
        elif _MARKER.match(line):
            n += prev not in ("starts", "gameno")
        prev = "starts" if _STARTS.match(line) else "gameno" if _GAME_NO.match(line) else "other"
    return n


def _files(site: str) -> list[str]:
    out = []
    for folder in SITES[site]:
        for root, dirs, names in os.walk(FPDB / folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            out += [str(Path(root, n).relative_to(FPDB)) for n in sorted(names) if not n.startswith(".")]
    return sorted(out)


def _history_files(site: str) -> list[str]:
    return [rel for rel in _files(site) if not rel.endswith(NOT_HISTORIES)]


@pytest.mark.parametrize("site", SITES)
def test_fpdb_expected_results_are_read_by_no_parser(site):
    others = [rel for rel in _files(site) if rel.endswith(NOT_HISTORIES)]
    for rel in others:
        assert detect_parser(open_source(FPDB / rel).head, rel) is None, rel


@functools.lru_cache(maxsize=2)
def parsed(site: str) -> dict[str, list[ParsedHand | HandError]]:
    out = {}
    for rel in _history_files(site):
        info = open_source(FPDB / rel)
        p = detect_parser(info.head, rel)
        assert p is not None and p.name == site, (rel, p and p.name)
        out[rel] = [as_ingested(h) for h in p.iter_hands(iter_lines(FPDB / rel, info.encoding), rel)]
    return out


def as_ingested(h: ParsedHand | HandError) -> ParsedHand | HandError:
    """A hand with lines not understood is stored only where its chips still reconcile
    (auditor/units.py): else it is the 'unreconciled' error the ingest makes of it."""
    if isinstance(h, ParsedHand) and has_unread(h) and unreconciled(h):
        return HandError(next(e.line_no for e in h.events if e.kind == "unread"), "unreconciled",
                         f"hand at line {h.first_line}: line(s) not understood", h.hand_id)
    return h


def stored(site: str) -> list[tuple[str, ParsedHand]]:
    return [(rel, h) for rel, items in parsed(site).items() for h in items if isinstance(h, ParsedHand)]


@pytest.mark.parametrize("site", SITES)
def test_every_hand_start_is_one_hand_and_rejections_are_the_listed_ones(site):
    seen = 0
    for rel, items in parsed(site).items():
        info = open_source(FPDB / rel)
        text = (FPDB / rel).read_bytes().decode(info.encoding, errors="replace")
        assert len(items) == hand_starts(text), rel
        seen += len(items)
    rejected = {(rel, h.line_no): h.reason_code for rel, items in parsed(site).items() for h in items
                if isinstance(h, HandError)}
    assert rejected == {k: v for k, v in EXPECTED_REJECTIONS.items() if k[0] in parsed(site)}
    for items in parsed(site).values():
        for h in items:
            if isinstance(h, HandError):
                # the reason names the hand's line: 'line N' or a span 'lines N-M' from it
                assert h.reason and (re.search(rf"\blines? {h.line_no}\b", h.reason) or h.reason_code == "unreconciled"), h
    n = len(stored(site))
    codes = Counter(rejected.values())
    print(f"\n{site}: {seen} hands seen, {n} stored ({n / seen:.1%}), rejected {dict(codes)}")
    assert seen == n + len(rejected)


def _share(site: str) -> float:
    """The stored share of the hands seen, the refusals set aside (a record cut off, a cash-out,
    a variant of issue 34) apart; the ingest's one conflict (two converted hands with one
    placeholder id) is counted here as the parse stores it."""
    items = [h for hs in parsed(site).values() for h in hs]
    aside = sum(isinstance(h, HandError) and h.reason_code in ASIDE for h in items)
    n = len(stored(site))
    print(f"\n{site}: {n} stored of {len(items)} seen, {aside} aside: {n / (len(items) - aside):.1%}")
    return n / (len(items) - aside)


def test_pacific_stores_at_least_97_percent():
    assert _share("pacific") >= 0.97  # 323 of 324 measured


def test_partypoker_stores_at_least_97_percent():
    # 98 of 101 measured (the cash-out hand stored since issue 34); the 3 refused are what their record itself contradicts (every seat line
    # '( 1 )', names cut, three players on two seats): storing them would mean guessing
    assert _share("partypoker") >= 0.97


def test_known_facts_of_the_corpus():
    party = {h.hand_id: h for _, h in stored("partypoker")}
    pacific = {h.hand_id: h for _, h in stored("pacific")}
    # 2005 format: buy-in and fee, level and blinds on the game line; blinds not posted (inferred)
    old = party["PP-2621679197"]
    assert (old.tournament_id, old.level, old.small_blind, old.big_blind, old.buy_in) == ("15286975", "4", 50, 100, "$30 Buy-in + $3 Entry Fee")
    inferred = [e for e in old.events if e.inferred_from is not None]
    assert [(e.kind, e.seat, e.amount) for e in inferred if e.kind in ("small_blind", "big_blind")] == [("small_blind", 6, 50), ("big_blind", 7, 100)]
    # the level changed after the game line was written: the line after the seats rules
    lc = party["PP-8504122543"]
    assert (lc.level, lc.small_blind, lc.big_blind) == ("4", 100, 200)
    # 2021 format: 'raises A to B', Main Pot after rake, thousands written without separators
    new = party["PP-16194828757579au6ou93d1"]
    assert new.tournament_id == "303344128" and new.big_blind == 140000 and new.ante == 17500
    # converted histories of other rooms keep their own site and get distinct ids
    assert {h.site for h in party.values()} >= {"partypoker", "pokerbros", "wpn", "pokerstars"}
    # decimal comma with euro sign ('0,35 €'), thousands comma in chips ('14,330')
    assert party["PP-11749829747"].seats[0].starting_stack == 14330
    # Short Deck: antes and a button blind (the big blind); the header's $1/$2 are no blinds
    sd = party["PP-18512107436"]
    assert (sd.variant, sd.small_blind, sd.big_blind, sd.ante) == ("6plus_holdem", None, 100, 100)
    assert [(e.kind, e.seat, e.amount) for e in sd.events[:3]] == [("ante", 2, 100), ("ante", 5, 100), ("big_blind", 5, 100)]
    # Mac client: 'Player3 is sitting outPlayer4 posts big blind [$0,25 USD].' is two lines run together
    mac = party["PP-12395237393"]
    assert [(e.kind, e.seat, e.amount, e.line_no) for e in mac.events[:2]] == [("small_blind", 3, 10, 13), ("big_blind", 5, 25, 14)]
    # 888: '5 000 $' with no-break spaces; Swedish card ranks
    sw = pacific["888-873818904"]
    assert (sw.currency, sw.small_blind, sw.big_blind, sw.seats[0].starting_stack) == ("USD", 2500, 5000, 500000)
    assert [e.cards for e in sw.events if e.kind == "deal_hole"] == ["Tc Jh 9h 9c"]
    # 888 tournament chips written with '$', dead blinds 'posts dead blind [$0.01 + $0.02]'
    t = pacific["888-190627712"]
    assert t.is_tournament and t.currency is None and t.tournament_id == "36216773"
    dead = [(e.amount, h.small_blind, h.big_blind) for _, h in stored("pacific") for e in h.events if e.kind == "dead_blind"]
    # small + big in one post; once '[$25 + $0]' (a second small blind, file 'secondsb')
    assert len(dead) == 10 and sum(a == sb + bb for a, sb, bb in dead) == 9 and (2500, 2500, 5000) in dead
    # (the BLAST hand's header writes '42.797,60 $/0 $': read at a tenth of a chip)
    assert all(h.amount_scale == (1 if h.is_tournament else 100) for _, h in stored("pacific") + stored("partypoker")
               if h.hand_id != "888-1008664844")
    # 888 BLAST: '***** 888.ro BLAST Hand History for Game N *****', both stacks posted as antes
    blast = pacific["888-1008664844"]
    assert blast.is_tournament and (blast.small_blind, blast.big_blind, blast.amount_scale) == (427976, 0, 10)
    assert [(e.kind, e.seat, e.amount) for e in blast.events if e.kind == "ante"] == [("ante", 1, 35300), ("ante", 7, 24700)]
    # card names of other languages: German suits, French suits, Dutch and Russian ranks
    assert [e.cards for e in pacific["888-332877236"].events if e.kind == "deal_hole"] == ["8s Qs"]
    assert [e.cards for e in pacific["888-414180466"].events if e.kind in ("deal_hole", "deal_board")] == ["7s 8c", "Kd 2s 5d"]
    dutch = pacific["888-305277727"]
    assert [e.cards for e in dutch.events if e.kind == "deal_hole"] == ["Kc 8h Td 6h"]
    # the Dutch client groups thousands with '.' and writes a decimal comma: '$ 3.243', '$ 552,72'
    assert [s.starting_stack for s in dutch.seats] == [324300, 402600, 369200, 55272, 80000]
    russian = pacific["888-103581731"]
    assert [e.cards for e in russian.events if e.kind in ("deal_board", "show")] == ["9s Jh 2s", "5h", "Qc", "2d Ad", "8c Ac"]
    # Party 2012: 'Stakes(200/400)' (fixed limit, no posts: blinds of 100 and 200 inferred), 'Stakes-Antes(60/120-10)'
    fl = party["PP-11932611928"]
    assert (fl.small_bet, fl.big_bet, fl.small_blind, fl.big_blind) == (200, 400, 100, 200)
    assert [(e.kind, e.seat, e.amount, e.inferred_from is not None) for e in fl.events[:2]] == [
        ("small_blind", 9, 100, True), ("big_blind", 10, 200, True)]
    stud = party["PP-11792805420"]
    assert (stud.small_bet, stud.big_bet, stud.ante) == (60, 120, 10)
    assert any(e.kind == "bet" and e.amount == 120 and e.line_no == 38 for e in stud.events)  # 'Player4 double bets [120]'
    # 'Total number of players : 6 / 6' and 'Hero Forward Folds' (a notice: his fold is written at his turn)
    spaces = party["PP-12827330772"]
    assert spaces.max_seats == 6 and [e.line_no for e in spaces.events if e.kind == "fold" and e.seat == 2] == [23]
    # 'Main Pot: 35656500 Side Pot 1: 3767420': the total pot is both
    side = party["PP-161938625156465v9fyd47bg"]
    assert [e.amount for e in side.events if e.kind == "total_pot"] == [35656500 + 3767420]
    # no stored hand keeps a line not understood
    assert not [h.hand_id for _, h in stored("pacific") + stored("partypoker") if has_unread(h)]


# --- chips re-add -------------------------------------------------------------------

def chips(h: ParsedHand) -> tuple[int, int, int, int | None, int | None, bool]:
    """(put in, returned, won, total pot, rake, total inferred) from the events."""
    put, committed, street = 0, {}, None
    returned = won = 0
    total = rake = None
    inferred = False
    for e in h.events:
        if e.street != street and e.street != "summary" and e.kind != "ante":
            street, committed = e.street, {}
        k = e.kind
        if k == "ante":
            put += e.amount
        elif k in ("small_blind", "big_blind", "straddle", "bring_in", "call", "bet"):
            put += e.amount
            committed[e.seat] = committed.get(e.seat, 0) + e.amount
        elif k == "dead_blind":  # small and big in one post: the big part is live
            put += e.amount
            committed[e.seat] = committed.get(e.seat, 0) + min(e.amount, h.big_blind)
        elif k in ("raise", "complete"):
            put += e.to_amount - committed.get(e.seat, 0)
            committed[e.seat] = e.to_amount
        elif k == "uncalled_return":
            returned += e.amount
        elif k == "collect":
            won += e.amount
        elif k == "total_pot":
            total, rake, inferred = e.amount, e.to_amount, e.inferred_from is not None
    return put, returned, won, total, rake, inferred


# Stored hands whose chips do not re-add, with why (read by hand).
ARITHMETIC_EXCEPTIONS = {
    "888-489318468": "file 'all.in.blind.bad.pot': the side pot of 576 (two folded big blinds) is awarded as 76",
    "PP-1618961225358jrdwo4ad458": "file 'bad.math': 'Main Pot: 332194176' but 332194156 was put in (the site's sum)",
    "PP-16194828757579au6ou93d1": "'Main Pot: 6609750' but 6609748 was put in (the site's sum is 2 over)",
    "PP-161938625156465v9fyd47bg": "'Main Pot: 35656500 Side Pot 1: 3767420' (39423920) but 39423918 was put in: Player5 "
                                   "'is all-In' one chip short of his stack (the site's sum)",
    "888-424764397": "file 'no.pot.awarded': the record stops in the summary, before any collect line (record_cut)",
    "888-1008664844": "BLAST: both stacks are posted as antes, 3530 and 2470; the 1060 unmatched goes back to the "
                      "larger (888 writes no line for it; the replay returns it), 4940 collected",
}
# cash hands whose rake, where the format writes none, is more than 10% of the pot
LARGE_RAKE = {"888-172275663": "file 'rake.greater.than.25.pct': 28 of a 52 pot"}


@pytest.mark.parametrize("site", SITES)
def test_every_stored_hand_re_adds(site):
    bad, large = {}, {}
    for _, h in stored(site):
        put, returned, won, total, rake, inferred = chips(h)
        why = []
        if h.is_tournament:
            if total is not None and total != put - returned:
                why.append(f"total pot {total} != {put - returned} put in and not returned")
            if won + (rake or 0) != put - returned:
                why.append(f"won {won} != {put - returned} in the pot")
            assert not rake, h.hand_id
        else:
            assert total is not None, h.hand_id  # cash: written, or inferred where the format writes none
            if total != put - returned:
                why.append(f"total pot {total} != {put - returned} put in and not returned")
            if won + rake != total:
                why.append(f"won {won} + rake {rake} != total {total}")
            if inferred and rake * 10 > total:
                large[h.hand_id] = f"rake {rake} of {total}"
        if why:
            bad[h.hand_id] = "; ".join(why)
    assert set(bad) == {k for k in ARITHMETIC_EXCEPTIONS if k.startswith("PP-" if site == "partypoker" else "888-")}, bad
    assert set(large) == {k for k in LARGE_RAKE if k.startswith("PP-" if site == "partypoker" else "888-")}, large


# --- the real pipeline ------------------------------------------------------------------

@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    from auditor.pipeline import audit

    db = tmp_path_factory.mktemp("party-family") / "a.duckdb"
    res = audit([FPDB / f for folders in SITES.values() for f in folders], db=db)
    return db, res


def test_ingest_counts_and_re_ingest_adds_nothing(audited):
    from auditor.ingest import ingest

    db, res = audited
    first = res.ingest
    n_parsed = sum(len(items) for site in SITES for items in parsed(site).values())
    n_stored = sum(len(stored(site)) for site in SITES)
    assert first.hands_seen == n_parsed == first.stored + first.duplicates + first.rejected
    # two PokerStars hands converted by a tracking tool (one tournament, one cash) both
    # carry the tool's placeholder number 1111111111: the ingest keeps the first and
    # reports the other as a conflict, as for any two hands claiming one id
    conflicts = [e for e in first.errors if e["reason_code"] == "conflict"]
    assert len(conflicts) == 1 and "PP-PokerStars-1111111111" in conflicts[0]["reason"]
    assert first.stored + first.duplicates + len(conflicts) == n_stored
    assert first.rejected == len(EXPECTED_REJECTIONS) + len(conflicts)
    second = ingest([FPDB / f for folders in SITES.values() for f in folders], db=db)
    assert second.stored == 0 and second.hands_seen == first.hands_seen
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == first.stored
        sites = dict(con.execute("SELECT format, count(*) FROM hands GROUP BY 1").fetchall())
    assert set(sites) == {"partypoker", "pacific"}


# Seats whose award by the rules differs from what the site recorded, other than by the
# hand's rake (cash collects are net of rake), with why.
AWARD_EXCEPTIONS = {
    "888-489318468": "the site's bad side pot (see ARITHMETIC_EXCEPTIONS)",
    "888-190631995": "888 writes 'surubi88 mucks [ Qc, Ad ]' and awards him the side pot: a hand it calls mucked was tabled",
    "888-172275663": "rake 28 of 52 (file 'rake.greater.than.25.pct'): shares differ by more than a split of the rake",
    "PP-1618961225358jrdwo4ad458": "the site's sum (see ARITHMETIC_EXCEPTIONS)",
    "PP-16194828757579au6ou93d1": "the site's sum (see ARITHMETIC_EXCEPTIONS)",
    "PP-161938625156465v9fyd47bg": "the site's sum (see ARITHMETIC_EXCEPTIONS)",
}


def test_awards_agree_where_winners_are_known(audited):
    db, _ = audited
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("""
            SELECT r.hand_id, sum(r.won_expected), sum(r.won_recorded),
                   coalesce(max(e.to_amount), 0) AS rake, bool_and(r.won_expected IS NOT NULL) AS known,
                   -- raked pots: each winner is paid his share less part of the rake, never more, never nothing
                   bool_and(coalesce(r.won_expected, 0) >= coalesce(r.won_recorded, 0)
                            AND NOT (r.won_expected > 0 AND coalesce(r.won_recorded, 0) = 0)) AS net_of_rake
            FROM hand_results r LEFT JOIN events e ON e.hand_id = r.hand_id AND e.kind = 'total_pot'
            GROUP BY 1""").fetchall()
    differ = {}
    compared = 0
    for hid, exp, rec, rake, known, net in rows:
        if not known:
            continue
        compared += 1
        if not net or exp - rec != rake:
            differ[hid] = (exp, rec, rake)
    assert set(differ) == set(AWARD_EXCEPTIONS), differ
    assert compared > 380


# Findings on these folders, read by hand: check -> {hand: reason}, or (category, reason).
# dead-button findings where 888 moved both blinds on past an eliminated big blind: site policy
BOTH_BLINDS_MOVED_888 = ("888-143941368", "888-190611717", "888-190626385", "888-190642215")
REVIEWED = {
    "chip-conservation": {k: v for k, v in ARITHMETIC_EXCEPTIONS.items() if k not in ("888-424764397", "888-1008664844")},
    # (category, reason): a category named pins it (test_audit_findings_are_the_reviewed_ones)
    "dead-button": {
        **{h: ("departure", "888 moved both blinds on past the big blind eliminated the hand before: the moving button "
               "888poker.toml declares (observed) for its 2012 tournaments") for h in BOTH_BLINDS_MOVED_888},
        # a player new to the table sat where the TDA's button goes; 888 gave the button to last
        # hand's big blind and moved both blinds on, so the next player posted only the small blind
        # and the big blind passed over that seat.  Not a policy: in 888-143944112 (table 7, the same
        # situation: kelero new on the dead small blind's seat) the site kept the blinds where the
        # TDA puts them.  The 888-1439xx hands are 'Practice Play' (play money)
        **{h: ("violation", f"a newcomer ({who}) sat on the seat the TDA's button goes to; 888 put the button on last "
               f"hand's big blind and moved both blinds on, so {skipped} posted only the small blind and the big "
               "blind passed over that seat: Rule 32 broken, as 888 does not always do (888-143944112 kept the TDA's blinds)")
           for h, who, skipped in (("888-143941769", "Xeta86, seat 10", "ZINTARI (seat 3)"),
                                   ("888-143943598", "Light505, seat 4", "WelshGramps (seat 7)"),
                                   ("888-143944178", "sansniper, seat 4", "neto35 (seat 6)"),
                                   ("888-190648563", "chopperD71, seat 5", "molo9oy (seat 7)"))},
        "888-143941885": ("violation", "the small blind (ZINTARI, seat 3) left; 888 kept the button on seat 1 "
                          "(lorenzoruber, the button again) where the TDA's is dead on seat 3, and snowcat420, new at "
                          "seat 2, is dealt in between the two: the label puts him first after the button rather than "
                          "last (he folded preflop, so the record shows no order after the flop). Practice Play"),
    },
    # a player who joins the table and posts at once, with no seat line: stored with no seat
    # and no stack, one record finding a hand (he posts the big blind; in PP-10498911237 he
    # calls, bets, shows and wins half the main pot)
    "seat-unrecorded": {
        **{h: "a player who joined the table posts the big blind with no seat line" for h in (
            "PP-10498911237", "PP-11970291958", "PP-13290328324", "PP-13291512580", "PP-12385840660", "PP-14017581513",
            "PP-9521729454")},
        "PP-14978808642": "players with no seat line fold ('holdem_AA folds', 'playclever99 folds'; 3 seat lines of 6)",
    },
    "stack-unrecorded": {"PP-9507514114": "'Seat 2: Player8 ( $0 USD )' then 'Player8 has joined the table.' and his "
                                          "posts: the stack he played is not written"},
    # 2012 fixed-limit freeroll, no posts written (blinds inferred: button 9, small blind 10, big
    # blind 1, first to act seat 2, as the calls of 300 and 200 show).  The record writes the folds
    # of seats 4, 3, 2 in that order (Player3, Player4, Player6, the seats of 2,250 who fold every
    # hand of the file: sitting out), then 5 to 1 in turn: Party's software folds a seat only in its
    # turn, so the run of folds is written in another order than it was made
    "out-of-turn": {"PP-11932613562": ("record", "folds of seats 4 and 3 written before seat 2's, first to act, in one "
                                                 "run of folds")},
    "record-incomplete": {"888-424764397": ("record", "file 'no.pot.awarded': the record stops in the summary after the "
                                            "shows, with no collect line")},
    "stack-continuity": {
        **{h: ("record", "sit & go file with hands missing between these") for h in (
            "PP-10315743974", "PP-10315745950", "PP-10315747121", "PP-10315752770")},
        **{h: ("record", "hands missing from the file between these (2 or more stacks changed)") for h in (
            "888-190633282", "888-384830704", "888-384831647")},
        # the player busted all in the hand before (line 102 / 2533) and sits at the same seat in
        # the very next hand, 66 s / 56 s later, with the starting stack: a re-buy or re-entry that
        # 888's histories do not write
        **{h: ("record", f"{who} busted in the hand before and starts the next one with the starting 2,000: a re-buy "
               "or re-entry 888 does not write, not chips appearing") for h, who in (
            ("888-190606852", "lucas0507"), ("888-190631995", "MARKURSO"))},
    },
}


# chip-conservation findings and their category (docs/semantics.md, "Finding categories"): a
# violation only where the history's own lines agree with each other; where they do not,
# the record contradicts itself (record)
CONSERVATION_CATEGORY = {
    # no total pot line, the action lines and the hi/lo collect pairs agree with each other: the
    # side pot of 576 that Player4 alone contested is written as 38 + 38 (576 less his uncalled
    # 500, which 888 writes no line for): 500 chips of the pot not awarded, as the record stands
    "888-489318468": "violation",
    # 'Main Pot: 332194176' and the collect agree; the action lines put in 332194156 though
    # 'Hero is all-In' (his actions: 166097078 of 166097088): the record contradicts itself
    "PP-1618961225358jrdwo4ad458": "record",
    # 'Main Pot: 6609750' and the summary's 'bet 6971125' / 'lost 3079125' are each 1 over the
    # action lines' sums: the summary contradicts the actions
    "PP-16194828757579au6ou93d1": "record",
    # 'Main Pot: 35656500 Side Pot 1: 3767420' and the balances agree; the action lines put in 2 less
    # (Player5 'is all-In' 1 short of his stack): the record contradicts itself
    "PP-161938625156465v9fyd47bg": "record",
}

# Betting findings not yet resolved, each with what was found on reading the hand.  The test
# pins them so that none is added or lost unseen; they are reported, not accepted.
def test_audit_findings_are_the_reviewed_ones(audited):
    _, res = audited
    betting = {c.check_id for c in load_checks() if c.group == "betting"}
    found: dict[str, set[str]] = {}
    for f in res.findings:
        found.setdefault(f["check_id"], set()).add(f["hand_id"])
    assert {c: set(h) for c, h in REVIEWED.items()} == found
    # an entry (category, reason) pins the category: the 888poker profile (auditor/house/888poker.toml)
    # declares the moving button of its 2012 tournaments, so those dead-button findings are departures
    categories = {(f["check_id"], f["hand_id"]): f["category"] for f in res.findings}
    pinned = {(c, h): v[0] for c, hs in REVIEWED.items() for h, v in hs.items() if isinstance(v, tuple)}
    assert {k: categories[k] for k in pinned} == pinned
    assert {h for (c, h), cat in categories.items() if c == "dead-button" and cat == "departure"} == set(BOTH_BLINDS_MOVED_888)
    # no betting-rule violation: Party stud's first actor on 4th-7th street, whose upcards the
    # history leaves out (it writes only the hero's), is not judged (replay/engine.py _turn)
    betting_found = {(f["check_id"], f["hand_id"]) for f in res.findings
                     if f["check_id"] in betting and f["category"] == "violation"}
    assert not betting_found, betting_found
    print(f"\nfindings by check: { {c: len(h) for c, h in found.items()} }")


def test_chip_conservation_findings_are_in_their_reviewed_category(audited):
    _, res = audited
    found = {f["hand_id"]: f["category"] for f in res.findings if f["check_id"] == "chip-conservation"}
    assert found == CONSERVATION_CATEGORY
