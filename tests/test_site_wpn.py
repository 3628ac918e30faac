"""WPN / Winning Poker Network (``parsers/wpn.py``) on the real corpus, through the
per-site harness (``tests/site_corpus.py``: what each test proves is written there).

Two formats share the folders.  This module tests the 2019 format (``Game Hand #``/
``Hand #``); the format of 2016 and before (``Game started at:``), which does not record
the betting structure, is tested in ``tests/test_site_wpn_legacy.py``.
"""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import WPN as WORDING
from parsers.wpn import WpnParser
from conftest import needs_corpus
from site_corpus import EDITION, FPDB, SiteSpec, site_tests

C = "cash/Winning/"

SPEC = SiteSpec(
    parser="wpn",
    folders=("tour/Winning", "cash/Winning"),
    marker=re.compile(r"^(?:Game )?Hand #\d+ - ", re.M),
    # the capped table's hand ('Miramar (Cap)': 'caps $0.55', the table's cap, hands.cap) is
    # stored, its file there twice (tests/test_mutations_capped.py plants errors in it)
    expected_rejections={},
    award_exceptions={
        # walks: WPN writes no 'Uncalled bet' line; the big blind's award ('won $0.07')
        # holds his own unmatched chips, which the replay returns before the award
        "WPN-779388412": "walk: award 9.00 = pot 6.00 + the big blind's unreturned 3.00",
        "WPN-784373412": "walk: award 0.07 = pot 0.04 + the big blind's unreturned 0.03",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py);
    # the 2019 format's 3 tournament hands are too few: cash hands are sources too
    mutation_header=HEADER,
    mutation_text=functools.partial(WORDING.as_stars, parser=WpnParser()),
    mutant_text=WORDING.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))


# --- run it twice on the corpus (the wording on a written hand: tests/test_wpn.py) ----------

@needs_corpus
def test_the_corpus_hand_run_twice_is_judged_run_by_run(tmp_path):
    """'*** RUN IT TWICE ***' (NLO8 $3/$6, 2021): run 1's high half to Hero's flush, its low
    half split ($92.25 and $30.75 collected), run 2 whole to Player2's straight ($123.00);
    the replay's awards are the collects plus each run's share of the house's take."""
    import duckdb

    from auditor.pipeline import audit

    path = FPDB / (C + "Flop/NLO8-6max-USD-3-6-202104.RIT.txt")
    res = audit([str(path)], db=str(tmp_path / "rit.duckdb"), edition_name=EDITION)
    assert res.ingest.stored == 1 and res.findings == []
    with duckdb.connect(str(tmp_path / "rit.duckdb"), read_only=True) as con:
        shares = con.execute("SELECT run, seat, expected, recorded FROM pot_shares WHERE expected > 0 "
                             "ORDER BY run, seat").fetchall()
    assert [(run, seat, rec) for run, seat, _, rec in shares] == [(1, 3, 9225), (1, 4, 3075), (2, 4, 12300)]
    assert sum(exp - rec for _, _, exp, rec in shares) == 300  # the rake and jackpot fee ($2.76 + $0.24)


# --- the format of 2026 (written hands in its shape; invented names and ids) ---------------

_HANDS_2026 = """\
Hand #900001 - Holdem (No Limit) - $0.01/$0.02, Ante $0.01 - 2026/02/03 03:56:30 UTC
Ashby 6-max Seat #2 is the button
Seat 2: Wren ($1.60)
Seat 4: Quill ($1.60)
Wren posts ante $0.01
Quill posts ante $0.01
Wren posts the small blind $0.01
Quill posts the big blind $0.02
*** HOLE CARDS ***
Main pot $0.02 | Rake $0.00
Dealt to Quill [5c 9h]
Wren raises $0.04 to $0.05
Quill calls $0.03
*** FLOP *** [Ks 2s Ah]
Main pot $0.12 | Rake $0.00
Quill checks
Wren bets $0.04
Quill folds
Uncalled bet ($0.04) returned to Wren
Wren does not show
*** SUMMARY ***
Total pot $0.12
Board [Ks 2s Ah]
Seat 2: Wren (button) did not show and won $0.12
Seat 4: Quill (big blind) folded on the Flop

Hand #900002 - Holdem (No Limit) - $0.01/$0.02 - 2026/02/16 03:34:15 UTC
Ashby 6-max Seat #1 is the button
Seat 1: Wren ($2.00)
Seat 2: Quill ($2.00)
Wren posts ante $0.10
Quill posts ante $0.10
*** HOLE CARDS ***
Main pot $0.20 | Rake $0.00
Dealt to Quill [4d 7c]
*** FLOP *** [Ks 6c 5s]
Main pot $0.19 | Rake $0.01
Quill bets $0.02
Wren folds
Uncalled bet ($0.02) returned to Quill
Quill does not show
*** SUMMARY ***
BombPot
Total pot $0.19 | Rake $0.01
Board [Ks 6c 5s]
Seat 1: Wren folded on the Flop
Seat 2: Quill did not show and won $0.19

Hand #900003 - 5Card Omaha (Pot Limit) - $0.01/$0.02 - 2026/02/16 03:35:48 UTC
Dunmore 6-max Seat #1 is the button
Seat 1: Wren ($2.38)
Seat 3: Pike ($3.30)
Seat 4: Quill ($2.00)
Pike posts the small blind $0.01
Quill posts the big blind $0.02
*** HOLE CARDS ***
Dealt to Quill [2s Ts Kd 6h 9c]
Wren folds
Pike calls $0.01
Quill checks
*** FLOP *** [Js 2d Ad]
Main pot $0.04 | Rake $0.00
Pike bets $0.04
Quill folds
Uncalled bet ($0.04) returned to Pike
Pike does not show
*** SUMMARY ***
Total pot $0.04
Board [Js 2d Ad]
Seat 1: Wren (button) folded on the Pre-Flop
Seat 3: Pike (small blind) did not show and won $0.04
Seat 4: Quill (big blind) folded on the Flop

Game Hand #900004 - Tournament #5550001 - Holdem (No Limit) - Level 17 (2500.00/5000.00) - 2026/01/24 03:15:18 UTC
Table '36' 8-max Seat #1 is the button
Seat 1: Wren (77600.00)
Seat 2: Quill (634200.00)
Seat 3: Pike (319545.00)
Wren posts ante 600.00
Quill posts ante 600.00
Pike posts ante 600.00
Quill posts the small blind 2500.00
Pike posts the big blind 5000.00
*** HOLE CARDS ***
Main pot 1800.00
Wren raises 13650.00 to 13650.00
Quill folds
Pike calls 8650.00
*** FLOP *** [7s 4h Qd]
Main pot 31600.00
Pike checks
Wren bets 29700.00
Pike folds
Uncalled bet (29700.00) returned to Wren
Wren does not show
*** SUMMARY ***
Total pot 31600.00
Board [7s 4h Qd]
Seat 1: Wren (button) did not show and won 31600.00
Seat 2: Quill (small blind) folded on the Pre-Flop
Seat 3: Pike (big blind) folded on the Flop
"""


def test_the_2026_format_is_read(tmp_path):
    """2026's headers put a space before the limit ('Holdem (No Limit)') and after the level's
    blinds ('(2500.00/5000.00) - '), name a cash table's ante after its blinds ('$0.01/$0.02,
    Ante $0.01'), and deal '5Card Omaha'; a bomb pot is antes only, no betting before the flop,
    its summary's 'BombPot' a name.  Every hand is stored, its chips reconcile, nothing is unread
    and nothing is found."""
    import duckdb

    from auditor.pipeline import audit

    path = tmp_path / "wpn2026.txt"
    path.write_text(_HANDS_2026, encoding="utf-8")
    db = tmp_path / "wpn2026.duckdb"
    res = audit([str(path)], db=str(db), edition_name=EDITION)
    assert res.ingest.stored == 4 and res.ingest.rejected == 0
    assert res.findings == []
    with duckdb.connect(str(db), read_only=True) as con:
        hands = con.execute("SELECT hand_id, variant, betting, is_tournament, small_blind, big_blind, ante "
                            "FROM hands ORDER BY hand_id").fetchall()
        unread = con.execute("SELECT count(*) FROM events WHERE kind = 'unread'").fetchone()[0]
        raises = con.execute("SELECT hand_id, amount, to_amount FROM events WHERE kind = 'raise' ORDER BY hand_id").fetchall()
        antes = con.execute("SELECT hand_id, count(*), sum(amount) FROM events WHERE kind = 'ante' "
                            "GROUP BY hand_id ORDER BY hand_id").fetchall()
        shares = con.execute("SELECT hand_id, sum(expected), sum(recorded) FROM pot_shares GROUP BY hand_id "
                             "ORDER BY hand_id").fetchall()
    assert hands == [
        ("WPN-900001", "holdem", "no-limit", False, 1, 2, 1),
        ("WPN-900002", "holdem", "no-limit", False, 1, 2, 10),
        ("WPN-900003", "omaha5", "pot-limit", False, 1, 2, None),
        ("WPN-900004", "holdem", "no-limit", True, 2500, 5000, 600),
    ]
    assert unread == 0
    assert raises == [("WPN-900001", 4, 5), ("WPN-900004", 13650, 13650)]
    assert antes == [("WPN-900001", 2, 2), ("WPN-900002", 2, 20), ("WPN-900004", 3, 1800)]
    # every award is the pot less what the house took, to the chip
    assert shares == [("WPN-900001", 12, 12), ("WPN-900002", 20, 19), ("WPN-900003", 4, 4),
                      ("WPN-900004", 31600, 31600)]
