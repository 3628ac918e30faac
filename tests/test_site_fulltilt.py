"""Full Tilt Poker's classic histories (``parsers/fulltilt.py``) on the real corpus,
through the per-site harness (``tests/site_corpus.py``: what each test proves is
written there).  The 2016 client's PokerStars-shaped files are another format
(``tests/test_site_fulltilt_stars.py``)."""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import FULL_TILT as WORDING
from parsers.fulltilt import FullTiltParser
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="fulltilt",
    folders=("tour/FTP", "cash/FTP"),
    reviewed="fulltilt-classic",  # tests/reviewed_sites/fulltilt.toml holds the 2016 format's
    marker=re.compile(r"^Full ?Tilt ?Poker Game #", re.M),
    expected_rejections={
        # records cut off: the header followed at once by the summary, no seat and no action
        # (a Matrix match's hand; a history whose header says '(partial)')
        ("tour/FTP/Flop/NLHE-6max-Matrix-USD-26-201211.match4.txt", 99): "truncated",
        ("cash/FTP/Draw/3-Draw-Limit-USD-20-40-201101.Partial.txt", 3): "truncated",
        # an observer's export of 2006: posts and actions, no seat line, so no stack: a record
        # that cannot be judged (the summary names the seats, with no stack)
        ("cash/FTP/Flop/NLHE-6max-USD-25-50.200610.Observed.No.player.stacks.txt", 2): "no-stacks",
    },
    arithmetic_explained={
        # walks: Full Tilt writes no uncalled return and no 'wins' line; the total pot
        # and the big blind's 'collected' leave out his unmatched chips
        "FT-31493008322": "put in 45 != total pot 30",
        "FT-31493031208": "put in 75 != total pot 50",
        "FT-31493033197": "put in 90 != total pot 60",
        "FT-31493029942": "put in 75 != total pot 50",
        # the same of a raise all-in that both blinds fold to: the total pot and 'collected (75)'
        # leave out the raiser's 315 unmatched chips
        "FT-31493013637": "put in 390 != total pot 75",
        # a dead hand: the small blind posted, the other player sat out, 'Total pot $0':
        # the blind went back unrecorded
        "FT-26884156000": "put in 500 != total pot 0",
        # 'posts a dead small blind of $2.50' then 'posts $5': the dead small blind is no
        # part of the poster's bet, which this re-adding counts it as (the replay does not)
        "FT-31497971185": "put in 1250 != total pot 1500",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py)
    mutation_header=HEADER,
    mutation_text=functools.partial(WORDING.as_stars, parser=FullTiltParser()),
    mutant_text=WORDING.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))
