"""Run It Once Poker (``parsers/runitonce.py``) on the real corpus, through the per-site
harness (``tests/site_corpus.py``).  Its files sit in the Stars folders."""

from __future__ import annotations

import re

from conftest import CORPUS, needs_corpus
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="runitonce",
    folders=("tour/Stars", "cash/Stars"),
    marker=re.compile(r"^Run It Once Poker Hand #", re.M),
    # 'STP added: €0.50' (splash the pot) is the house's money, a house_added event (docs/sites.md):
    # the 3 splash-the-pot hands are read; one of them writes its raises the PokerStars way
    expected_rejections={
        # 'Rusty I: raises €7.34 to €39.09 and is all-in', his stack €39.09: read as Run It Once
        # wrote raises until 2019 (the total leaves out his own €9.25 raise), €48.09 goes in
        ("cash/Stars/Flop/PLO-6max-EUR-0.25-0.50-201908.RIO.STP.side.pot.txt", 28): "raise-reading",
    },
    min_stored=10 / 11,
    award_exceptions={
        "RIO-30417551": "a walk: 'Ari L collected €0.15' includes the big blind's own uncalled €0.05 (no Uncalled bet "
                        "line); the replay returns 0.05 and awards 0.10: the same end stack",
        "RIO-30446369": "a walk with the house's €0.50 (STP): 'Dawson D collected €0.65' includes the big blind's own "
                        "uncalled €0.05 (no Uncalled bet line); the replay returns 0.05 and awards 0.60: the same end stack",
    },
    arithmetic_explained={
        "RIO-30266126": "put in 25 != total pot 75",  # 'Uncalled bet (€0.71)': Galen U's unmatched flop bet is €0.21,
        # €0.71 is his collect (the €0.25 pot and the house's €0.50, less €0.04 rake): the return line is wrong
    },
    mutation_header=re.compile(r"^(Run It Once Poker Hand #)(\d+)(:.*)$"),
)

globals().update(site_tests(SPEC))


# --- splash the pot: the house's money, recorded -----------------------------------------

@needs_corpus
def test_splash_the_pot_is_the_houses_money_in_the_main_pot(tmp_path):
    import duckdb

    from auditor.pipeline import audit

    flop = CORPUS / "fpdb" / "cash" / "Stars" / "Flop"
    db = tmp_path / "stp.duckdb"
    res = audit([str(flop / "NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.txt"),
                 str(flop / "NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.walk.txt")], db)
    with duckdb.connect(str(db), read_only=True) as con:
        added = con.execute("SELECT hand_id, seat, amount, line_no, text FROM events WHERE kind = 'house_added' "
                            "ORDER BY hand_id").fetchall()
        pots = con.execute("SELECT hand_id, pot_label, amount, eligible FROM pots ORDER BY hand_id, pot_index").fetchall()
        shares = con.execute("SELECT hand_id, seat, expected, recorded FROM pot_shares ORDER BY hand_id, seat").fetchall()
    # line 11 of each: 'STP added: €0.50' (the walk's file is cp1252: '\x80' is the euro sign there)
    assert [(h, s, a, n) for h, s, a, n, _ in added] == [("RIO-30266126", None, 50, 11), ("RIO-30446369", None, 50, 11)]
    assert added[0][4] == "STP added: €0.50"
    # the players' €0.25 (blinds and a call; Galen U's €0.21 flop bet went back) and the house's
    # €0.50: Galen U wins €0.75, collects €0.71 (rake €0.04); the walk: €0.15 and €0.50
    assert pots == [("RIO-30266126", "main", 75, [3]), ("RIO-30446369", "main", 60, [5])]
    assert ("RIO-30266126", 3, 75, 71) in shares and ("RIO-30446369", 5, 60, 65) in shares
    # conservation holds with the house's money counted as put in: no chip-conservation finding
    assert [f for f in res.findings if f["check_id"] == "chip-conservation"] == []
