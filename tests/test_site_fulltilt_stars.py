"""The 2016 Full Tilt client's PokerStars-shaped histories (``parsers/fulltilt_stars.py``)
on the real corpus, through the per-site harness (``tests/site_corpus.py``).  Its
files sit in the Stars folders."""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import STARS
from parsers.fulltilt_stars import FullTiltStarsParser
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="fulltilt-stars",
    site="fulltilt",
    folders=("tour/Stars", "cash/Stars"),
    marker=re.compile(r"^Full Tilt (?:Rush )?Hand #", re.M),
    expected_rejections={},
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py), cash hands too
    mutation_header=HEADER,
    mutation_text=functools.partial(STARS.as_stars, parser=FullTiltStarsParser()),
    mutant_text=STARS.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))
