"""The 2016 Full Tilt client's PokerStars-shaped histories (``parsers/fulltilt_stars.py``)
on the real corpus, through the per-site harness (``tests/site_corpus.py``).  Its
files sit in the Stars folders."""

from __future__ import annotations

import re

from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="fulltilt-stars",
    site="fulltilt",
    folders=("tour/Stars", "cash/Stars"),
    marker=re.compile(r"^Full Tilt (?:Rush )?Hand #", re.M),
    expected_rejections={},
    mutation_header=re.compile(r"^(Full Tilt Hand #)(\d+)(:.*)$"),
)

globals().update(site_tests(SPEC))
