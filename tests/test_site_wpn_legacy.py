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
        # a player with no seat line posts, bets and wins ('Player  has big blind (2)'):
        # his stack is unknown, so no pot can be built (the file and its Flop/ copy)
        (C + _UNSEATED, 15): "unseated-player",
        (C + _UNSEATED, 71): "unseated-player",
        (C + "Flop/" + _UNSEATED, 15): "unseated-player",
        (C + "Flop/" + _UNSEATED, 71): "unseated-player",
        (T + "NLHE-NA-0-0 HH00000000 T1-G0-201601.unknown.player.acts.txt", 8): "unseated-player",
        # '*** FLOP ***:' with no cards, and the hole cards dealt after it: the board that
        # the hands are read against is not recorded (the file and its copy)
        (C + _NO_FLOP, 13): "board-unrecorded",
        (C + "Flop/" + _NO_FLOP, 13): "board-unrecorded",
        # 'caps (253.88)': the bet went to the table's cap, a structure the engine does not model
        (C + "Flop/PLO-6max-USD-5.00-10.00-201504.capped.HH00000000 G0.txt", 45): "capped-table",
        # 'is disconnected and ALL IN.' then 'allin' with no amount: all-in with chips
        # behind (the old disconnect protection), which the engine does not model
        (C + "Flop/PLO8-6max-USD-40-80-201610.disconnected.allin.HH00000000 G0.txt", 51): "disconnected-allin",
    },
    # 66 of 75: every rejection above is a hand whose record cannot be replayed at all
    # (unseated chips, no board, structures the engine does not model); none is rejected
    # for the unrecorded structure.  The 97% bar cannot be met honestly.  (The file that
    # ends after a hand's seat lines, its last UTF-16 character cut in half, is stored
    # as recorded, marked as cut: test_wpn_legacy_a_record_cut_short_is_stored_as_recorded.)
    min_stored=66 / 75,
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
    assert len(hands) == 66
    assert {h.betting for h in hands} == {"unrecorded"}
    assert all(h.small_blind is h.big_blind is h.small_bet is h.big_bet is None for h in hands)
    assert all(re.match(r"^[\d.]+/[\d.]+ \(.+\)$", h.game_label or "") for h in hands)
    # 'Table <n>' names a tournament's table; nothing else in the format says tournament
    assert sorted(h.hand_id for h in hands if h.is_tournament) == ["WPN-695367612", "WPN-714490456", "WPN-727816656"]


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

    db, _ = site_audit
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            """SELECT count(*), count(min_raise_to), count(max_raise_to), count(may_raise), count(last_full_increment),
                      count(*) FILTER (WHERE may_raise_reason <> 'betting-unrecorded'),
                      count(*) FILTER (WHERE kind IN ('bet', 'raise', 'complete') AND action_class NOT LIKE '%-unjudged')
               FROM decisions JOIN hands USING (hand_id) WHERE betting = 'unrecorded' AND edition = ?""", [EDITION]).fetchone()
        pots = con.execute("SELECT count(*), count(*) FILTER (WHERE verified) FROM pots JOIN hands USING (hand_id) "
                           "WHERE betting = 'unrecorded' AND edition = ?", [EDITION]).fetchone()
    assert rows[0] > 400 and rows[1:] == (0, 0, 0, 0, 0, 0), rows
    # pots, eligibility and winners are still settled: every pot's winner is known here
    assert pots[0] >= 40 and pots[0] == pots[1], pots


def test_wpn_legacy_one_record_finding_a_hand_and_no_betting_finding(site_audit):
    import duckdb

    db, findings = site_audit
    with duckdb.connect(str(db), read_only=True) as con:
        with_bets = {r[0] for r in con.execute(
            "SELECT DISTINCT hand_id FROM decisions WHERE edition = ? AND kind IN ('bet', 'raise', 'complete')",
            [EDITION]).fetchall()}
        first = dict(con.execute(
            "SELECT hand_id, min(seq) FROM decisions WHERE edition = ? AND kind IN ('bet', 'raise', 'complete') GROUP BY 1",
            [EDITION]).fetchall())
        hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    record = [f for f in findings if f["check_id"] == "betting-unrecorded"]
    assert hands == 41 and len(with_bets) == 36
    assert sorted(f["hand_id"] for f in record) == sorted(with_bets)  # once a hand with a bet or raise, none elsewhere
    assert all(f["category"] == "record" and f["seq"] == first[f["hand_id"]] for f in record)
    assert not [f for f in findings if f["check_id"] in BETTING_RULE_CHECKS]
    assert {f["check_id"] for f in findings} == {"betting-unrecorded", "record-incomplete"}


def test_wpn_legacy_a_record_cut_short_is_stored_as_recorded(site_audit):
    """The Stud hi-lo file ends after a hand's seat lines: the hand is stored with its
    seats and no event, marked as cut, and has one record-incomplete finding, nothing else."""
    import duckdb

    [h] = [h for h in stored(SPEC) if h.record_cut is not None]
    assert (h.hand_id, h.first_line, h.variant) == ("WPN-693976187", 95, "stud_hilo")
    assert [s.player for s in h.seats] == ["Diamonds4ever", "KickAzzJohnny"] and h.events == []
    assert "'Game ended at:'" in h.record_cut
    db, findings = site_audit
    assert [(f["check_id"], f["category"], f["line_no"]) for f in findings if f["hand_id"] == h.hand_id] == [
        ("record-incomplete", "record", h.last_line)]
    with duckdb.connect(str(db), read_only=True) as con:
        for table in ("decisions", "pots", "pot_shares", "hand_results"):
            assert con.execute(f"SELECT count(*) FROM {table} WHERE hand_id = ?", [h.hand_id]).fetchone()[0] == 0


@pytest.mark.parametrize("variant", ["holdem", "omaha_hilo", "stud", "stud_hilo", "6plus_holdem", "omaha"])
def test_wpn_legacy_reads_each_game(variant):
    assert any(h.variant == variant for h in stored(SPEC)), variant


def test_wpn_legacy_every_file_is_read():
    assert sum(map(len, parsed(SPEC).values())) == 75


@pytest.mark.xfail(strict=True, reason="9 of the 75 hand starts (6 distinct hands; the others copies in Flop/) are "
                   "refused, each for a listed reason the history itself gives (a player with no seat line puts chips "
                   "in, a flop written without cards, a capped table, a disconnected all-in with chips behind): none "
                   "can be replayed without guessing, so the issue's 97% bar is not met (88.0%)")
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
_RETURN = re.compile(rf"^Uncalled bet \({_AMOUNT}\) returned to (.+)$")


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
            edit[r_at] = f"Uncalled bet ({_money(m.group(1), 1, h.amount_scale)}) returned to {m.group(2)}"
            edit[w_at] = _COLLECTS.sub(f"Collects: {_money(won, -1, h.amount_scale)}.", edit[w_at])
            edit[pot_at] = _POT.sub(lambda p: f"Pot: {_money(p.group(1), -1, h.amount_scale)}", edit[pot_at])
            out.append(("uncalled-bet", "\n".join(edit), seat[m.group(2)], f"{h.hand_id}: one chip more returned"))
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
        if f["check_id"] != "betting-unrecorded":
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
