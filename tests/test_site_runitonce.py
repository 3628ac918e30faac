"""Run It Once Poker (``parsers/runitonce.py``) on the real corpus, through the per-site
harness (``tests/site_corpus.py``).  Its files sit in the Stars folders."""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import RUN_IT_ONCE as WORDING
from parsers.runitonce import RunItOnceParser
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="runitonce",
    folders=("tour/Stars", "cash/Stars"),
    marker=re.compile(r"^Run It Once Poker Hand #", re.M),
    expected_rejections={
        # 'STP added: €0.50': the house splashes money into the pot, which the log has no
        # event for (docs/sites.md); 3 of the 11 hands, so this site stays under 97%
        ("cash/Stars/Flop/NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.txt", 11): "splash-the-pot",
        ("cash/Stars/Flop/NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.walk.txt", 11): "splash-the-pot",
        ("cash/Stars/Flop/PLO-6max-EUR-0.25-0.50-201908.RIO.STP.side.pot.txt", 12): "splash-the-pot",
    },
    min_stored=8 / 11,
    award_exceptions={
        "RIO-30417551": "a walk: 'Ari L collected €0.15' includes the big blind's own uncalled €0.05 (no Uncalled bet "
                        "line); the replay returns 0.05 and awards 0.10: the same end stack",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py), cash hands too.
    # odd-chip and side-pot are skipped, no shape: of the 7 hands the library reads, 3 reach a tabled
    # showdown, all heads-up.  The one odd pot (Barre's 4s 4d, RIO-30702949) cannot be tied (the board
    # holds the fourth four); the other pots are even and no folder matched a bet (no odd pot can be
    # made); two are raked (the side-pot constructions split no raked pot) and in the unraked one the
    # third player had posted the big blind (no folder who put nothing in can be made all-in for less).
    mutation_header=HEADER,
    mutation_text=functools.partial(WORDING.as_stars, parser=RunItOnceParser()),
    mutant_text=WORDING.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))
