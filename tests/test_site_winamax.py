"""Winamax (``parsers/winamax.py``) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there)."""

from __future__ import annotations

import re

from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="winamax",
    folders=("tour/Winamax", "cash/Winamax"),
    marker=re.compile(r"^Winamax Poker - (?!Tournament summary)", re.M),
    expected_rejections={
        # 'Player3 raises 1€ to 3€' before the blinds are posted (the file's name says so)
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt", 9): "action-before-blinds",
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt", 50): "action-before-blinds",
        # 'posts small blind 3€ out of position' then 'posts big blind 0€ out of position'
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201611.post.both.txt", 12): "zero-blind",
        # 'raises -6.10€ to 18.90€': a negative amount is no amount
        ("cash/Winamax/Stud/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt", 17): "parse-error",
    },
    arithmetic_explained={
        # the site's own error (the file is named bad.pot): 9 EUR put in, 10 EUR written as the total and collected
        'WMX-6468352-1737-1408024646': 'put in 500 != total pot 600',
        # a total written rounded ('6.09k'): stored with no amount (the harness reads it as 0); the
        # collects re-add to the chips put in
        'WMX-22085692498641681-1-1299346216': 'put in 6020 != total pot 0; collected 6020 + house 0 != total pot 0',
        'WMX-22085692498641681-2-1299346321': 'put in 110 != total pot 0; collected 110 + house 0 != total pot 0',
        'WMX-22085692498641245-5-1299346472': 'put in 2940 != total pot 0; collected 2940 + house 0 != total pot 0',
        'WMX-22085692498641245-6-1299346613': 'put in 500 != total pot 0; collected 500 + house 0 != total pot 0',
        'WMX-22085692498641245-7-1299346692': 'put in 6040 != total pot 0; collected 6040 + house 0 != total pot 0',
        'WMX-22085692498641245-8-1299346758': 'put in 140 != total pot 0; collected 140 + house 0 != total pot 0',
        'WMX-22085692498641245-9-1299346802': 'put in 1050 != total pot 0; collected 1050 + house 0 != total pot 0',
        'WMX-22085692498641245-10-1299346856': 'put in 10650 != total pot 0; collected 10650 + house 0 != total pot 0',
        'WMX-22085692498641245-12-1299346953': 'put in 760 != total pot 0; collected 760 + house 0 != total pot 0',
        'WMX-7959970263859201-2-1288801071': 'put in 660 != total pot 0; collected 660 + house 0 != total pot 0',
        'WMX-7959970263859201-3-1288801160': 'put in 180 != total pot 0; collected 180 + house 0 != total pot 0',
        'WMX-7959970263859201-5-1288801360': 'put in 2870 != total pot 0; collected 2870 + house 0 != total pot 0',
        # rounded total, and a call of 4455.50 chips whose collects Winamax writes in whole chips
        'WMX-6307872438747255-71-1288124090': 'put in 151510 != total pot 0; collected 151515 + house 0 != total pot 0',
    },
    award_exceptions={
        # one winner of the main and a side pot, written as one collect of both ('collected 27.01 from
        # pot'): the pots' split between the lines cannot be compared, their sum agrees
        'WMX-118267374808858625-31-1343075816': 'one collect line for the main and side pots',
        'WMX-270777-176-1284848794': 'one collect line for the main and side pots',
        'WMX-270777-193-1284850922': 'one collect line for the main and side pots',
        'WMX-6468352-1737-1408024646': 'the site collected 1 EUR more than was put in (bad.pot)',
    },
)

globals().update(site_tests(SPEC))
