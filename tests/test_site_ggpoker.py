"""GGPoker (``parsers/ggpoker.py``) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there)."""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import STARS
from parsers.ggpoker import GGPokerParser
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="ggpoker",
    folders=("tour/GGPoker", "cash/GGPoker"),
    marker=re.compile(r"^Poker Hand #", re.M),
    expected_rejections={
        # run it twice / three times: two or three boards, each pot split per run; the log
        # has one board a hand (docs/sites.md)
        ("cash/GGPoker/Flop/NL-ShortDeck-5max-USD-100-202104.internal.txt", 18): "run-it-twice",
        ("cash/GGPoker/Flop/PLO-6max-USD-2-5-202101.RIT.txt", 30): "run-it-twice",
        ("cash/GGPoker/Flop/PLO-6max-USD-2-5-202106.run.it.thrice.txt", 28): "run-it-twice",
        ("cash/GGPoker/Flop/PLO5-6max-USD-2-5-202104.Jackpot.txt", 30): "run-it-twice",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py), cash hands too
    mutation_header=HEADER,
    mutation_text=functools.partial(STARS.as_stars, parser=GGPokerParser()),
    mutant_text=STARS.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))
