"""Winamax (``parsers/winamax.py``) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there)."""

from __future__ import annotations

import re

from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="winamax",
    folders=("tour/Winamax", "cash/Winamax"),
    marker=re.compile(r"^Winamax Poker - ", re.M),
    expected_rejections={
        # 'Player3 raises 1€ to 3€' before the blinds are posted (the file's name says so)
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt", 9): "action-before-blinds",
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201407.ante.raise.txt", 50): "action-before-blinds",
        # 'posts small blind 3€ out of position' then 'posts big blind 0€ out of position'
        ("cash/Winamax/Flop/PLO-5max-EUR-1.00-2.00-201611.post.both.txt", 12): "zero-blind",
        # 'raises -6.10€ to 18.90€': a negative amount is no amount
        ("cash/Winamax/Stud/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt", 17): "parse-error",
    },
)

globals().update(site_tests(SPEC))
