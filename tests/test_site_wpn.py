"""WPN / Winning Poker Network (``parsers/wpn.py``) on the real corpus, through the
per-site harness (``tests/site_corpus.py``: what each test proves is written there).

Two formats share the folders.  This module tests the 2019 format (``Game Hand #``/
``Hand #``); the format of 2016 and before (``Game started at:``), which does not record
the betting structure, is tested in ``tests/test_site_wpn_legacy.py``.
"""

from __future__ import annotations

import re

from site_corpus import SiteSpec, site_tests

C = "cash/Winning/"

SPEC = SiteSpec(
    parser="wpn",
    folders=("tour/Winning", "cash/Winning"),
    marker=re.compile(r"^(?:Game )?Hand #\d+ - ", re.M),
    expected_rejections={
        # a capped no-limit table: 'caps $0.55' takes the bet to the table's cap, a
        # structure the engine does not model (as PokerStars' 'Cap' stakes)
        (C + "NLHE-9max-USD-0.01-0.02-201911.CASHID-TN-Miramar (Cap) GAMETYPE.txt", 20): "capped-no-limit",
    },
    # 11 of 12 (the capped hand above): the 97% bar cannot be met by a 12-hand corpus
    # with one hand of an unsupported structure
    min_stored=11 / 12,
    award_exceptions={
        # walks: WPN writes no 'Uncalled bet' line; the big blind's award ('won $0.07')
        # holds his own unmatched chips, which the replay returns before the award
        "WPN-779388412": "walk: award 9.00 = pot 6.00 + the big blind's unreturned 3.00",
        "WPN-784373412": "walk: award 0.07 = pot 0.04 + the big blind's unreturned 0.03",
    },
    # no mutation tests: tests/mutate.py writes PokerStars' shape ('Ann: raises 10 to 20'),
    # which this format does not have (the harness skips them, saying so)
    mutation_header=None,
)

globals().update(site_tests(SPEC))
