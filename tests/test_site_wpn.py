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
