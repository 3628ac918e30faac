"""WPN's format of 2016 and before (``Game started at:``, ``parsers/wpn.py``
WpnLegacyParser) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there), and what is its own.

The format never says whether a game is no-limit, pot-limit or fixed-limit.  Its hands
are stored with ``betting = 'unrecorded'``: the replay follows every action and settles
every pot, records no fact that depends on the structure (minimum and maximum raise,
reopening), and the ``betting-unrecorded`` check says once a hand (category ``record``)
that the size of its bets and raises was not judged.
"""

from __future__ import annotations

import re

import pytest

from site_corpus import EDITION, SiteSpec, parsed, site_tests, stored

T = "tour/Winning/"
C = "cash/Winning/"
_UNSEATED = "NLHE-9max-USD-1.00-2.00-201612.Unknown.Player.Acts.HH20160621 G30997753.txt"
_NO_FLOP = "PLO8-6max-USD-20-40-201609.no.flop.HH20160913 G31116857.txt"

SPEC = SiteSpec(
    parser="wpn-legacy",
    site="wpn",
    reviewed="wpn-legacy",
    folders=("tour/Winning", "cash/Winning"),
    marker=re.compile(r"^\ufeff?Game started at: ", re.M),
    expected_rejections={
        # '*** FLOP ***:' with no cards, and the hole cards dealt after it: the board that
        # the hands are read against is not recorded (the file and its copy)
        (C + _NO_FLOP, 13): "board-unrecorded",
        (C + "Flop/" + _NO_FLOP, 13): "board-unrecorded",
    },
    arithmetic_explained={
        # the pot's winner is the player with no seat line ('Player  allin (1480)'), who has
        # no summary line: no collect is recorded (Player0 shows and 'Collects: 0')
        "WPN-547441485": "collected 0 + house 0 != total pot 3220",
    },
    # 148 of 150 (cash/Winning holds each file of its Flop/ and Stud/ folders again: 108
    # distinct hands): the rejections above are one hand and its copy whose record cannot be
    # replayed at all (no board); none is rejected for the unrecorded structure.  The
    # player the site played all in with chips behind on a disconnection is stored
    # (disconnect_all_in: test_wpn_legacy_a_disconnected_player_is_played_all_in_with_chips_behind).  A player with no seat line ('Player  has big
    # blind (2)') is stored with no seat (seat-unrecorded); the capped table's hand, whose
    # betting stops at the cap, is stored ('caps (253.88)' a raise to the cap).
    # (The file that ends after a hand's seat lines, its last UTF-16 character cut in half, is
    # stored as recorded, marked as cut: test_wpn_legacy_a_record_cut_short_is_stored_as_recorded.)
    min_stored=148 / 150,
    # no harness mutation tests (tests/mutate.py writes PokerStars' shape): the format's own
    # mutants are test_wpn_legacy_mutants_in_its_own_format_are_found below
    mutation_header=None,
    fuzz_examples=100,
)

globals().update(site_tests(SPEC))

BETTING_RULE_CHECKS = ("illegal-underraise", "illegal-reopen", "limit-raise-cap", "pot-limit-overbet")


def test_wpn_legacy_hands_record_no_structure():
    """Every stored hand: betting 'unrecorded', no blind or bet sizes (the stakes are
    blinds or bets by the structure), the stakes kept as written in game_label."""
    hands = stored(SPEC)
    assert len(hands) == 148
    assert {h.betting for h in hands} == {"unrecorded"}
    assert all(h.small_blind is h.big_blind is h.small_bet is h.big_bet is None for h in hands)
    assert all(re.match(r"^[\d.]+/[\d.]+ \(.+\)$", h.game_label or "") for h in hands)
    # 'Table <n>' names a tournament's table; nothing else in the format says tournament: the
    # four single-hand files' hands, and the 10 and 52 hands of the heads-up hyper turbo and the
    # 9-max regular ('10/20 $2.40 Hyper Turbo Heads-up, Table 1', '10/20 $5 Regular 9-Max, Table 1')
    tournament = [h for h in hands if h.is_tournament]
    assert len(tournament) == 66
    assert {"WPN-547441485", "WPN-695367612", "WPN-714490456", "WPN-727816656"} < {h.hand_id for h in tournament}
    new = [h for rel, items in parsed(SPEC).items() if rel.endswith(("201608.Hyper.txt", "201608.Regular.txt"))
           for h in items]
    assert len(new) == 62 and all(h.is_tournament for h in new)


def test_wpn_legacy_amounts_are_added_chips():
    """'raises (40)' adds 40: the heads-up turbo hand's river goes 200, +475, all-in +1120, all-in +845."""
    [h] = [h for h in stored(SPEC) if h.hand_id == "WPN-695367612"]
    river = [(e.kind, e.amount, e.to_amount, e.all_in) for e in h.events
             if e.street == "river" and e.kind in ("bet", "raise", "call")]
    assert river == [("bet", 200, 200, False), ("raise", 475, 475, False), ("raise", 1120, 1320, True),
                     ("call", 845, None, True)]


def test_wpn_legacy_stud_streets():
    """WPN's '*** Third street ***' opens the rules' fourth street: the hero's seven cards
    fall 3, 1, 1, 1, 1 over third to seventh street."""
    hand = next(h for h in stored(SPEC) if h.variant == "stud" and sum(
        len((e.cards or "").split()) for e in h.events if e.kind == "deal_hole" and e.player == "ChazDazzle") == 7)
    dealt = [(e.street, len(e.cards.split())) for e in hand.events if e.kind == "deal_hole" and e.player == "ChazDazzle"]
    assert dealt == [("third", 3), ("fourth", 1), ("fifth", 1), ("sixth", 1), ("seventh", 1)]


def test_wpn_legacy_replay_records_no_structure_fact(site_audit):
    import duckdb

    db, _, _ = site_audit
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            """SELECT count(*), count(min_raise_to), count(max_raise_to), count(may_raise), count(last_full_increment),
                      count(*) FILTER (WHERE may_raise_reason <> 'betting-unrecorded'),
                      count(*) FILTER (WHERE kind IN ('bet', 'raise', 'complete') AND action_class NOT LIKE '%-unjudged')
               FROM decisions JOIN hands USING (hand_id) WHERE betting = 'unrecorded' AND edition = ?""", [EDITION]).fetchone()
        pots = con.execute("SELECT count(*), count(*) FILTER (WHERE verified) FROM pots JOIN hands USING (hand_id) "
                           "WHERE betting = 'unrecorded' AND edition = ?", [EDITION]).fetchone()
        unverified = con.execute("SELECT hand_id, note FROM pots WHERE NOT verified AND edition = ?", [EDITION]).fetchall()
    assert rows[0] > 400 and rows[1:] == (0, 0, 0, 0, 0, 0), rows
    # pots, eligibility and winners are still settled: every pot's winner is known here but
    # one, whose all-in player with no seat line never shows his cards
    assert pots[0] >= 40 and pots[0] == pots[1] + 1, pots
    assert unverified == [("WPN-547441485", "hands of seats [None] not tabled")]


def test_wpn_legacy_one_record_finding_a_hand_and_no_betting_finding(site_audit):
    import duckdb

    db, findings, _ = site_audit
    with duckdb.connect(str(db), read_only=True) as con:
        with_bets = {r[0] for r in con.execute(
            "SELECT DISTINCT hand_id FROM decisions WHERE edition = ? AND kind IN ('bet', 'raise', 'complete')",
            [EDITION]).fetchall()}
        first = dict(con.execute(
            "SELECT hand_id, min(seq) FROM decisions WHERE edition = ? AND kind IN ('bet', 'raise', 'complete') GROUP BY 1",
            [EDITION]).fetchall())
        hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    record = [f for f in findings if f["check_id"] == "betting-unrecorded"]
    assert hands == 108 and len(with_bets) == 91
    assert sorted(f["hand_id"] for f in record) == sorted(with_bets)  # once a hand with a bet or raise, none elsewhere
    assert all(f["category"] == "record" and f["seq"] == first[f["hand_id"]] for f in record)
    assert not [f for f in findings if f["check_id"] in BETTING_RULE_CHECKS]
    assert {f["check_id"] for f in findings} == {"betting-unrecorded", "seat-unrecorded", "record-incomplete",
                                                 "disconnect-all-in", "dead-button"}
    # the moving button of the 2016 regular tournament: a departure by WPN's house profile
    assert {(f["hand_id"], f["category"]) for f in findings if f["check_id"] == "dead-button"} == {
        ("WPN-695316059", "departure"), ("WPN-695316358", "departure")}
    # the three hands where a player with no seat line ('Player  has big blind (2)') acts:
    # one seat-unrecorded finding each, at his first line, naming no seat
    seatless = [f for f in findings if f["check_id"] == "seat-unrecorded"]
    assert sorted((f["hand_id"], f["seat"], f["player"], f["line_no"]) for f in seatless) == [
        ("WPN-547441485", None, "", 8), ("WPN-665307190", None, "", 71), ("WPN-665312038", None, "", 15)]


_DISCONNECT = C + "Flop/PLO8-6max-USD-40-80-201610.disconnected.allin.HH00000000 G0.txt"


def test_wpn_legacy_a_disconnected_player_is_played_all_in_with_chips_behind(site_audit):
    """'Player Player0 is disconnected and ALL IN.' then 'Player Player0 allin' (lines 51-52),
    at his turn on the flop facing Player1's bet of 40 with 937 behind: one disconnect_all_in
    event; the replay holds him all in with his 937 (no decision of his, the turn and
    river pass him), he is in the main pot of five 80s only and wins its high half, Player1
    and Player4 play the side pot of their flop 40s; the recorded collects are the
    replay's awards less the house's take (2.76 rake + 0.24 jackpot fee), and one
    record finding names the policy."""
    import duckdb

    [h] = [h for h in parsed(SPEC)[_DISCONNECT] if h.hand_id == "WPN-741631166"]
    [dc] = [e for e in h.events if e.kind == "disconnect_all_in"]
    assert (dc.line_no, dc.street, dc.seat, dc.player, dc.amount, dc.all_in) == (51, "flop", 2, "Player0", None, True)
    assert [t.strip() for t in dc.text.splitlines()] == ["Player Player0 is disconnected and ALL IN.", "Player Player0 allin"]
    db, findings, _ = site_audit
    with duckdb.connect(str(db), read_only=True) as con:
        later = con.execute("SELECT street, seat, expected_seat, to_act FROM decisions WHERE hand_id = ? AND edition = ? "
                            "AND seq > ? ORDER BY seq", [h.hand_id, EDITION, dc.seq]).fetchall()
        pots = con.execute("SELECT pot_label, amount, eligible, hi_winners, lo_winners, verified FROM pots "
                           "WHERE hand_id = ? AND edition = ? ORDER BY pot_index", [h.hand_id, EDITION]).fetchall()
        results = con.execute("SELECT seat, contributed, won_expected, won_recorded, end_stack_expected FROM hand_results "
                              "WHERE hand_id = ? AND edition = ? AND won_expected > 0 ORDER BY seat",
                              [h.hand_id, EDITION]).fetchall()
    assert later == [("turn", 6, 6, [6, 3]), ("turn", 3, 3, [3]), ("river", 6, 6, [6, 3]), ("river", 3, 3, [3])]
    assert pots == [("main", 40000, [6, 2, 3], [2], [3], True), ("side-1", 8000, [6, 3], [6], [3], True)]
    # (seat, put in, won expected, won recorded, end stack expected): 300 of the house's take
    # comes out of the main pot's winners; Player0 ends with 1017 - 80 + 200 before it
    assert results == [(2, 8000, 20000, 19850, 113700), (3, 12000, 24000, 23850, 421138), (6, 12000, 4000, 4000, 186550)]
    assert sum(r[2] - r[3] for r in results) == next(e.to_amount for e in h.events if e.kind == "total_pot") == 300
    [f] = [f for f in findings if f["check_id"] == "disconnect-all-in"]
    assert (f["hand_id"], f["seat"], f["category"], f["line_no"], f["actual"]) == (
        h.hand_id, 2, "record", 51, "played all in with 937.00 behind")


def test_wpn_legacy_a_record_cut_short_is_stored_as_recorded(site_audit):
    """The Stud hi-lo file ends after a hand's seat lines: the hand is stored with its
    seats and no event, marked as cut, and has one record-incomplete finding, nothing else."""
    import duckdb

    cut = [h for h in stored(SPEC) if h.record_cut is not None]  # the file and its copy in Stud/
    assert [(h.hand_id, h.first_line, h.variant) for h in cut] == [("WPN-693976187", 95, "stud_hilo")] * 2
    h = cut[0]
    assert [s.player for s in h.seats] == ["Diamonds4ever", "KickAzzJohnny"] and h.events == []
    assert "'Game ended at:'" in h.record_cut
    db, findings, _ = site_audit
    assert [(f["check_id"], f["category"], f["line_no"]) for f in findings if f["hand_id"] == h.hand_id] == [
        ("record-incomplete", "record", h.last_line)]
    with duckdb.connect(str(db), read_only=True) as con:
        for table in ("decisions", "pots", "pot_shares", "hand_results"):
            assert con.execute(f"SELECT count(*) FROM {table} WHERE hand_id = ?", [h.hand_id]).fetchone()[0] == 0


@pytest.mark.parametrize("variant", ["holdem", "omaha_hilo", "stud", "stud_hilo", "6plus_holdem", "omaha"])
def test_wpn_legacy_reads_each_game(variant):
    assert any(h.variant == variant for h in stored(SPEC)), variant


def test_wpn_legacy_every_file_is_read():
    assert sum(map(len, parsed(SPEC).values())) == 150


def test_wpn_legacy_stores_at_least_97_percent():
    hands = sum(map(len, parsed(SPEC).values()))
    assert len(stored(SPEC)) >= 0.97 * hands


# --- mutation recall on the format's own text ---------------------------------------------
# tests/mutate.py writes PokerStars' shape; these mutants are written in the 2016 format
# itself, on every distinct stored hand of the right shape: what the replay judges without
# the structure (awards, returns, conservation) must still be found.

_AMOUNT = r"(\d+(?:\.\d+)?)"
_COLLECTS = re.compile(rf"Collects: {_AMOUNT}\.")
_POT = re.compile(rf"^Pot: {_AMOUNT}")
_RETURN = re.compile(rf"^Uncalled bet \({_AMOUNT}\) returned to(?: (.*))?$")  # no name: a player with no seat line


def _legacy_sources():
    """(hand, its lines) of each distinct stored hand, from the first file holding it."""
    from site_corpus import _text

    seen, out = set(), []
    for rel, items in parsed(SPEC).items():
        lines = _text(rel).splitlines()
        for h in items:
            if hasattr(h, "hand_id") and hasattr(h, "events") and h.hand_id not in seen:
                seen.add(h.hand_id)
                out.append((h, lines[h.first_line - 1:h.last_line]))
    return out


def _money(text: str, delta, scale: int) -> str:
    from decimal import Decimal

    value = Decimal(text) + Decimal(delta) / scale
    digits = len(str(scale)) - 1
    return f"{value:.{digits}f}" if digits else str(int(value))


def _mutants() -> list[tuple[str, str, int | None, str]]:
    """(check id, hand text, seat the finding names or None, what changed)."""
    out = []
    for h, lines in _legacy_sources():
        seat = {s.player: s.seat for s in h.seats}
        line_of = {e.line_no - h.first_line: e for e in h.events}
        collects = [e for e in h.events if e.kind == "collect"]
        shows = [e for e in h.events if e.kind == "show"]
        if len(collects) != 1 or any(e.all_in for e in h.events):
            continue
        winner = collects[0]
        w_at = winner.line_no - h.first_line
        won = _COLLECTS.search(lines[w_at]).group(1)
        if len(shows) >= 2 and h.variant in ("holdem", "omaha", "stud", "6plus_holdem"):
            for loser in [e for e in shows if e.player != winner.player]:
                l_at = loser.line_no - h.first_line
                edit = list(lines)
                edit[w_at] = _COLLECTS.sub("Collects: 0.", edit[w_at])
                edit[l_at] = _COLLECTS.sub(f"Collects: {won}.", edit[l_at])
                out.append(("wrong-winner", "\n".join(edit), seat[loser.player], f"{h.hand_id}: the pot to losing {loser.player}"))
        returns = [i for i, e in line_of.items() if e.kind == "uncalled_return"]
        pot_at = next(i for i, e in line_of.items() if e.kind == "total_pot")
        if len(returns) == 1:
            r_at = returns[0]
            m = _RETURN.match(lines[r_at].strip())
            edit = list(lines)
            edit[r_at] = f"Uncalled bet ({_money(m.group(1), 1, h.amount_scale)}) returned to {m.group(2) or ''}"
            edit[w_at] = _COLLECTS.sub(f"Collects: {_money(won, -1, h.amount_scale)}.", edit[w_at])
            edit[pot_at] = _POT.sub(lambda p: f"Pot: {_money(p.group(1), -1, h.amount_scale)}", edit[pot_at])
            # the player with no seat line has none: his finding names no seat (seat None: any)
            out.append(("uncalled-bet", "\n".join(edit), seat.get(m.group(2) or ""), f"{h.hand_id}: one chip more returned"))
        edit = list(lines)
        edit[w_at] = _COLLECTS.sub(f"Collects: {_money(won, 1, h.amount_scale)}.", edit[w_at])
        out.append(("chip-conservation", "\n".join(edit), None, f"{h.hand_id}: one chip more collected"))
    return out


def test_wpn_legacy_mutants_in_its_own_format_are_found(tmp_path):
    from collections import Counter

    from auditor.pipeline import audit

    mutants = _mutants()
    twins = [("", "\n".join(lines), None, h.hand_id) for h, lines in _legacy_sources()]
    texts = []
    for n, (_, text, _, _) in enumerate(mutants + twins):  # each its own game number
        texts.append(re.sub(r"(?m)^Game ID: \d+ ", f"Game ID: {9_100_000_000 + n} ", text, count=1))
    path = tmp_path / "mutants.txt"
    path.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    res = audit([str(path)], db=str(tmp_path / "m.duckdb"), edition_name=EDITION)
    assert res.ingest.stored == len(texts), res.ingest.errors[:3]
    found: dict[str, list[dict]] = {}
    for f in res.findings:
        # (dead-button compares a table's hands one after another: the mutants' file is no table)
        if f["check_id"] not in ("betting-unrecorded", "seat-unrecorded", "record-incomplete", "disconnect-all-in",
                                 "dead-button"):
            found.setdefault(f["hand_id"], []).append(f)
    missed = [what for n, (check, _, seat, what) in enumerate(mutants)
              if not any(f["check_id"] == check and (seat is None or f["seat"] == seat)
                         for f in found.get(f"WPN-{9_100_000_000 + n}", []))]
    twins_hit = [what for n, (_, _, _, what) in enumerate(twins, len(mutants)) if found.get(f"WPN-{9_100_000_000 + n}")]
    kinds = Counter(check for check, *_ in mutants)
    print(f"\nwpn-legacy mutants: {dict(kinds)}; missed {len(missed)}; twins flagged {len(twins_hit)}")
    assert kinds["wrong-winner"] >= 4 and kinds["uncalled-bet"] >= 20 and kinds["chip-conservation"] >= 30, kinds
    assert not missed, missed
    assert not twins_hit, twins_hit
